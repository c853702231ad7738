//===- LowerLinalgPack.cpp - --layout-lower-linalg-pack -------------------===//
//
// linalg.pack / linalg.unpack (e.g. from --convert-layout-to-linalg) have no
// bufferization model upstream: lower them to pad + expand_shape +
// transpose (extract_slice) with upstream's lowerPack / lowerUnPack first.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTLOWERLINALGPACK
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {
struct LowerLinalgPackPass
    : layout::impl::LayoutLowerLinalgPackBase<LowerLinalgPackPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      // lowerPack builds an arith zero when there is no padding value, which
      // aborts for other element types (complex).
      auto pack = dyn_cast<linalg::PackOp>(op);
      Type elementType = getElementTypeOrSelf(op->getOperand(0).getType());
      if (pack && !pack.getPaddingValue() &&
          !isa<IntegerType, FloatType, IndexType>(elementType)) {
        op->emitError() << "--layout-lower-to-llvm: cannot lower "
                           "'linalg.pack' of element type "
                        << elementType << " without a padding value";
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      bool lowered =
          isa<linalg::PackOp>(op)
              ? succeeded(linalg::lowerPack(rewriter, cast<linalg::PackOp>(op)))
              : succeeded(
                    linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)));
      if (!lowered) {
        op->emitError() << "--layout-lower-to-llvm: cannot lower '"
                        << op->getName() << "' (dynamic inner tiles)";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
