//===- CheckLoweredToLLVM.cpp - --layout-check-lowered-to-llvm ------------===//
//
// The last step of --layout-lower-to-llvm: everything must be LLVM dialect
// now. convert-to-llvm leaves what it cannot convert in place (and may still
// exit 0), so this pass names each leftover op and fails.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTCHECKLOWEREDTOLLVM
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {
struct CheckLoweredToLLVMPass
    : layout::impl::LayoutCheckLoweredToLLVMBase<CheckLoweredToLLVMPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](Operation *op) {
      Dialect *dialect = op->getDialect(); // null for unregistered ops
      // OpenMP ops (parallel loops) are translated by mlir-translate.
      if (op == getOperation() ||
          isa_and_nonnull<LLVM::LLVMDialect, omp::OpenMPDialect>(dialect))
        return;
      op->emitError() << "--layout-lower-to-llvm: '" << op->getName()
                      << "' was not converted to the LLVM dialect";
      ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
