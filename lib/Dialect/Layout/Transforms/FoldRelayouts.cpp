//===- FoldRelayouts.cpp - --layout-fold-relayouts ------------------------===//
//
// Relayouts whose result is only read through its logical indices are
// eliminated (their readers read the source); relayouts that the algebra
// (layout/Xla/LayoutAlgebra.h) proves to be bitcasts become views; chains of
// relayouts compose (see the pass description in Transforms/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/SubBytePacking.h"
#include "layout/Xla/LayoutAlgebra.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTFOLDRELAYOUTS
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {
/// The physical tensor type of `type` (its tiled map's dims, no encoding);
/// the type itself without an encoding.
RankedTensorType getPhysicalType(RankedTensorType type, const Shape &shape) {
  if (!type.getEncoding())
    return type;
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  if (!map) { // Verified types have a map.
    llvm::consumeError(map.takeError());
    return {};
  }
  return RankedTensorType::get(map->getPhysicalDims(), type.getElementType());
}

/// All dims in one group: the reassociation to and from rank 1.
SmallVector<ReassociationIndices> flatGroup(int64_t rank) {
  ReassociationIndices all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  return {all};
}

/// tensor relayout with a `bitcast` plan -> a view of the source.
struct FoldBitcastRelayout : OpRewritePattern<RelayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto sourceType = dyn_cast<RankedTensorType>(op.getSource().getType());
    auto destType = dyn_cast<RankedTensorType>(op.getDestination().getType());
    if (!sourceType || !destType)
      return rewriter.notifyMatchFailure(op, "memref relayouts write a buffer");
    std::optional<Shape> source = getStaticArrayShape(sourceType);
    std::optional<Shape> dest = getStaticArrayShape(destType);
    if (!source || !dest)
      return rewriter.notifyMatchFailure(op, "not a static XLA array");
    llvm::Expected<RelayoutPlan> plan = planRelayout(*source, *dest);
    if (!plan) {
      llvm::consumeError(plan.takeError());
      return rewriter.notifyMatchFailure(op, "no plan (too large?)");
    }
    if (plan->cls != RelayoutClass::Bitcast)
      return rewriter.notifyMatchFailure(op, "moves data");
    // The view reshapes the physical tensor (collapse_shape/expand_shape),
    // which a sub-byte packed (E(n)) buffer cannot take:
    // layout-normalize-memrefs rewrites only element accesses and copies
    // of packed buffers. The relayout's own lowering handles them.
    unsigned sourceBits = 0, destBits = 0;
    if (!getSubBytePacking(sourceType, sourceBits).empty() ||
        !getSubBytePacking(destType, destBits).empty() || sourceBits ||
        destBits)
      return rewriter.notifyMatchFailure(op, "sub-byte packed (E(n)) buffer");
    // The relayout writes the destination's padding value; a view would keep
    // whatever the source's padding slots hold (a tensor from
    // layout.from_physical may hold anything there).
    llvm::Expected<TiledLayoutMap> destMap = TiledLayoutMap::get(*dest);
    if (!destMap) {
      llvm::consumeError(destMap.takeError());
      return failure();
    }
    if (destMap->mayHavePaddingSlots())
      return rewriter.notifyMatchFailure(op, "writes padding slots");
    RankedTensorType sourcePhysical = getPhysicalType(sourceType, *source);
    RankedTensorType destPhysical = getPhysicalType(destType, *dest);
    if (!sourcePhysical || !destPhysical)
      return failure();
    Location loc = op.getLoc();
    Value value = op.getSource();
    if (sourceType.getEncoding())
      value = ToPhysicalOp::create(rewriter, loc, sourcePhysical, value);
    // Through the flat buffer: the bitcast keeps every byte in place.
    int64_t elements = sourcePhysical.getNumElements();
    auto flat = RankedTensorType::get({elements}, sourceType.getElementType());
    if (sourcePhysical.getRank() != 1)
      value = tensor::CollapseShapeOp::create(
          rewriter, loc, flat, value, flatGroup(sourcePhysical.getRank()));
    if (destPhysical.getRank() != 1)
      value = tensor::ExpandShapeOp::create(rewriter, loc, destPhysical, value,
                                            flatGroup(destPhysical.getRank()));
    if (destType.getEncoding())
      value = FromPhysicalOp::create(rewriter, loc, destType, value);
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// Whether `use` reads the value only through its logical indices, so that
/// any other layout of the same logical array can take its place: an
/// operand of a broadcasting binary op or of `layout.broadcast_in_dim`
/// (their verifiers accept any operand encoding, the result type is
/// explicit and stays), or the source of a tensor relayout (which reads
/// logical elements and writes its own destination layout). The padding
/// slots of the value are never read by these. Everything else (e.g.
/// `layout.to_physical`, `func.return`, `func.call`, bufferization,
/// unknown ops, a relayout's destination operand) may observe the physical
/// layout or the type and blocks the rewrite.
bool readsOnlyLogically(OpOperand &use) {
  Operation *user = use.getOwner();
  if (user->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
    return true;
  if (auto broadcast = dyn_cast<BroadcastInDimOp>(user))
    return use.get() == broadcast.getOperand();
  if (auto relayout = dyn_cast<RelayoutOp>(user))
    return relayout.getResult() &&
           use.getOperandNumber() ==
               relayout.getSourceMutable().getOperandNumber();
  return false;
}

/// tensor relayout whose every use reads only logical elements: the uses
/// read the relayout's source instead and the relayout dies (its padding
/// value is never observed). Each consumer then reads the source layout
/// directly (the loop lowering reads any layout through its index map),
/// which costs at most the relayout's own strided read, without the write
/// and the second read of the intermediate buffer.
struct EliminateLogicallyReadRelayout : OpRewritePattern<RelayoutOp> {
  EliminateLogicallyReadRelayout(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    Value result = op.getResult();
    if (!result)
      return rewriter.notifyMatchFailure(op, "memref relayouts write a buffer");
    if (result.use_empty())
      return rewriter.notifyMatchFailure(op, "no uses (DCE's job)");
    for (OpOperand &use : result.getUses())
      if (!readsOnlyLogically(use))
        return rewriter.notifyMatchFailure(op, "a use may see the layout");
    Value source = op.getSource();
    // A dynamic tiled source: the loop lowering of the readers may not know
    // its physical sizes (getLogicalSizes); the relayout lowering does.
    auto sourceType = cast<RankedTensorType>(source.getType());
    if (!sourceType.hasStaticShape() && sourceType.getEncoding())
      return rewriter.notifyMatchFailure(op, "dynamic encoded source");
    // Every use can take the source: same logical shape and element type
    // (the relayout's verifier), any encoding (the users' verifiers).
    rewriter.replaceAllUsesWith(result, source);
    rewriter.eraseOp(op);
    return success();
  }
};

struct FoldRelayoutsPass
    : layout::impl::LayoutFoldRelayoutsBase<FoldRelayoutsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EliminateLogicallyReadRelayout, FoldBitcastRelayout>(
        &getContext());
    // Composition of relayout chains (and the op's other folds).
    RelayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
