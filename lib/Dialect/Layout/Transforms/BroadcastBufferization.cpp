//===- BroadcastBufferization.cpp - Bufferizing the broadcasting ops ------===//
//
// broadcast_in_dim and the binary ops read their operands and write a new
// buffer: no aliasing, the result is a fresh allocation (of the result
// encoding's layout) filled by the shared loop emitters (affine loops for
// static shapes, scf loops otherwise). Unlike --convert-layout-to-affine,
// nothing is fused here: each op is bufferized on its own.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Transforms/BroadcastBufferization.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::bufferization;

namespace {

template <typename OpTy>
struct BroadcastingOpModel
    : public BufferizableOpInterface::ExternalModel<BroadcastingOpModel<OpTy>,
                                                    OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  FailureOr<BufferLikeType> getBufferType(Operation *op, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    MemRefType type =
        mlir::layout::getBufferType(cast<RankedTensorType>(value.getType()));
    if (!type)
      return op->emitOpError() << "unsupported result encoding";
    return cast<BufferLikeType>(type);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    LoopKind kind = resultType.hasStaticShape() &&
                            llvm::all_of(op->getOperandTypes(),
                                         [](Type t) {
                                           auto s = dyn_cast<ShapedType>(t);
                                           return !s || s.hasStaticShape();
                                         })
                        ? LoopKind::Affine
                        : LoopKind::SCF;
    if (failed(checkLowerable(op, kind)))
      return failure();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    unsigned numSources = isa<BroadcastInDimOp>(op) ? 1 : 2;
    SmallVector<BroadcastingOpOperand> operands;
    for (unsigned k = 0; k < numSources; ++k) {
      FailureOr<Value> buffer =
          getBuffer(rewriter, op->getOperand(k), options, state);
      if (failed(buffer))
        return failure();
      operands.push_back({*buffer, op->getOperand(k), nullptr});
    }
    MemRefType bufferType = mlir::layout::getBufferType(resultType);
    if (!bufferType)
      return op->emitOpError() << "unsupported result encoding";
    // Result sizes: the broadcasting rule over the operand buffers' sizes.
    SmallVector<OpFoldResult> sizes =
        getBroadcastingOpResultSizes(rewriter, op);
    SmallVector<Value> dynamicSizes;
    for (auto [d, s] : llvm::enumerate(sizes))
      if (resultType.isDynamicDim(d))
        dynamicSizes.push_back(
            getValueOrCreateConstantIndexOp(rewriter, loc, s));
    Value alloc =
        memref::AllocOp::create(rewriter, loc, bufferType, dynamicSizes);
    if (failed(emitBroadcastingOpLoops(rewriter, op, kind, operands, alloc,
                                       sizes)))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, alloc);
    return success();
  }
};

template <typename... OpTys> void attachModels(MLIRContext *context) {
  (OpTys::template attachInterface<BroadcastingOpModel<OpTys>>(*context), ...);
}

} // namespace

void mlir::layout::registerBroadcastBufferizationExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, LayoutDialect *) {
    // bufferize() emits loops: load what they are made of now, while the
    // context may still load dialects (as upstream's tensor models do).
    loadLoopEmitterDialects(*context);
    attachModels<BroadcastInDimOp, AddOp, SubtractOp, MultiplyOp, DivideOp,
                 RemainderOp, MaximumOp, MinimumOp, PowerOp, Atan2Op, AndOp,
                 OrOp, XorOp, ShiftLeftOp, ShiftRightArithmeticOp,
                 ShiftRightLogicalOp, CompareOp>(context);
  });
}
