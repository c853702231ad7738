//===- LayoutLoopPatterns.cpp - Layout ops to loops (patterns) ------------===//
//
// The rewrite patterns of --convert-layout-to-affine/-scf over the loop
// lowerings of the dialect's utilities, and the shared pass driver.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/LayoutToLoops/LayoutLoopPatterns.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"
#include "layout/Dialect/Layout/Utils/FusionLowering.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Patterns and driver
//===----------------------------------------------------------------------===//

namespace {
struct LowerBroadcastingOp : RewritePattern {
  LowerBroadcastingOp(MLIRContext *context, LoopKind kind,
                      const LoopEmitOptions &options)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context), kind(kind),
        options(options) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<BroadcastInDimOp>(op) &&
        !op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
      return failure();
    // The body of a fusion is lowered with the fusion (LowerFusion).
    if (isa<FusionOp>(op->getParentOp()))
      return failure();
    return lowerBroadcastingOp(rewriter, op, kind, options);
  }
  LoopKind kind;
  LoopEmitOptions options;
};

/// An op lowered by one function of the loop utilities with the
/// conversion's loop kind and options.
template <typename OpT, auto Lower> struct LowerWith : OpRewritePattern<OpT> {
  LowerWith(MLIRContext *context, LoopKind kind, const LoopEmitOptions &options)
      : OpRewritePattern<OpT>(context), kind(kind), options(options) {}
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    return Lower(rewriter, op, kind, options);
  }
  LoopKind kind;
  LoopEmitOptions options;
};
using LowerMemRefRelayout = LowerWith<RelayoutOp, lowerMemRefRelayout>;
using LowerFusion = LowerWith<FusionOp, lowerFusionOp>;
} // namespace

void mlir::layout::populateLayoutLoopPatterns(RewritePatternSet &patterns,
                                              LoopKind kind,
                                              const LoopEmitOptions &options) {
  patterns.add<LowerBroadcastingOp, LowerMemRefRelayout, LowerFusion>(
      patterns.getContext(), kind, options);
}

static bool hasDynamicShape(Operation *op) {
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (auto type = dyn_cast<ShapedType>(v.getType()))
      if (!type.hasStaticShape())
        return true;
  return false;
}

LogicalResult
mlir::layout::applyLayoutLoopPatterns(Operation *root, LoopKind kind,
                                      bool skipDynamic,
                                      const LoopEmitOptions &options) {
  RewritePatternSet patterns(root->getContext());
  populateLayoutLoopPatterns(patterns, kind, options);
  GreedyRewriteConfig config;
  config.enableFolding(false).enableConstantCSE(false);
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
  // Top-down: a broadcast_in_dim is seen (and left for fusion) before its
  // user.
  config.setUseTopDownTraversal(true);
  (void)applyPatternsGreedily(root, std::move(patterns), config);
  bool ok = true;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto fusion = dyn_cast<FusionOp>(op)) {
      ok = false;
      fusion.emitOpError() << "could not be lowered to loops (unsupported "
                              "encoding of an input or the result?)";
      return WalkResult::skip();
    }
    bool isTarget =
        isa<BroadcastInDimOp>(op) ||
        op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>() ||
        (isa<RelayoutOp>(op) && isa<MemRefType>(op->getOperand(0).getType()));
    if (!isTarget || (skipDynamic && hasDynamicShape(op)))
      return WalkResult::advance();
    ok = false;
    if (succeeded(checkLowerable(op, kind)))
      op->emitOpError() << "could not be lowered to loops (logical sizes "
                           "of a dynamic tiled memref unknown?)";
    return WalkResult::advance();
  });
  return success(ok);
}

LogicalResult
mlir::layout::runLayoutLoopConversion(Operation *root, StringRef passArgument,
                                      LoopKind kind, bool skipDynamic,
                                      const LoopEmitOptions &options) {
  // (An option is no place in the input: no location, as the pipeline's
  // option errors; the module's own location would read as file:0:0.)
  if (failed(options.verify([&](const Twine &message) {
        mlir::emitError(UnknownLoc::get(root->getContext()))
            << "--" << passArgument << ": " << message;
      })))
    return failure();
  return applyLayoutLoopPatterns(root, kind, skipDynamic, options);
}
