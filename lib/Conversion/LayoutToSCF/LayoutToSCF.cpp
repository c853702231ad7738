//===- LayoutToSCF.cpp - --convert-layout-to-scf --------------------------===//
//
// Any shapes: the shared loop emitters (LoopEmitters.h) with scf loops and
// affine.apply/min/max index values, which take dynamic sizes.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/LayoutToSCF/LayoutToSCF.h"
#include "layout/Conversion/LayoutToLoops/LayoutLoopPatterns.h"
#include "layout/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::layout {
#define GEN_PASS_DEF_CONVERTLAYOUTTOSCF
#include "layout/Conversion/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

void mlir::layout::populateLayoutToSCFPatterns(RewritePatternSet &patterns,
                                               const LoopEmitOptions &options) {
  populateLayoutLoopPatterns(patterns, LoopKind::SCF, options);
}

namespace {
struct ConvertLayoutToSCFPass
    : LayoutLoopConversionPass<
          layout::impl::ConvertLayoutToSCFBase<ConvertLayoutToSCFPass>,
          LoopKind::SCF> {
  using LayoutLoopConversionPass::LayoutLoopConversionPass;
};
} // namespace

std::unique_ptr<Pass>
mlir::layout::createConvertLayoutToSCF(const LoopEmitOptions &options) {
  ConvertLayoutToSCFOptions passOptions;
  copyLoopEmitOptions(passOptions, options);
  return createConvertLayoutToSCF(passOptions);
}
