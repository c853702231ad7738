//===- ExpandBroadcasts.cpp - --layout-expand-broadcasts ------------------===//
//
// XLA's builder expansion of implicit broadcasting (docs/semantics.md §5): each
// operand whose shape differs from the result goes through one
// `layout.broadcast_in_dim` to the result shape. That one op does both of
// XLA's steps: the InDim broadcast (its `dims` are the op's
// `broadcast_dimensions`, so the operand lands on getInDimBroadcastShape's
// dims) and the degenerate expansion of the remaining size-1 dims (C5 allows
// 1 -> N). Dynamic result sizes are computed at run time.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Transforms/ExpandBroadcasts.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTEXPANDBROADCASTS
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

static constexpr llvm::StringLiteral kBroadcastDimensionsName =
    "broadcast_dimensions";

namespace {
/// How a dynamic result size is computed (the degenerate rule).
struct DynamicSizePlan {
  enum Kind { FromLhs, FromRhs, Select } kind;
  int64_t lhsDim, rhsDim; // operand dims mapped to the result dim, or -1
};
} // namespace

static LogicalResult expandBroadcasts(Operation *op,
                                      PatternRewriter &rewriter) {
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  Value operands[2] = {op->getOperand(0), op->getOperand(1)};
  RankedTensorType types[2] = {
      dyn_cast<RankedTensorType>(operands[0].getType()),
      dyn_cast<RankedTensorType>(operands[1].getType())};
  if (!resultType || !types[0] || !types[1])
    return failure();
  auto broadcastDims =
      op->getAttrOfType<DenseI64ArrayAttr>(kBroadcastDimensionsName);
  int64_t rank = resultType.getRank();

  // toResult[k][i]: the result dim of operand k's dim i (the operand's
  // broadcast_in_dim dims); fromResult[k][d]: the inverse, -1 if unmapped.
  SmallVector<int64_t> toResult[2], fromResult[2];
  for (unsigned k = 0; k < 2; ++k) {
    int64_t operandRank = types[k].getRank();
    if (operandRank == rank)
      toResult[k] = llvm::to_vector(llvm::seq<int64_t>(0, rank));
    else if (broadcastDims &&
             static_cast<int64_t>(broadcastDims.size()) == operandRank)
      toResult[k] = llvm::to_vector(broadcastDims.asArrayRef());
    else if (operandRank != 0)
      return failure(); // Invalid IR; the verifier reports it.
    fromResult[k].assign(rank, -1);
    for (auto [i, d] : llvm::enumerate(toResult[k])) {
      if (d < 0 || d >= rank)
        return failure();
      fromResult[k][d] = i;
    }
  }

  // Equal shapes, each dynamic size known to be the same value: nothing is
  // broadcast; drop an identity broadcast_dimensions.
  auto sameSize = [&](int64_t d) {
    int64_t lhs = types[0].getDimSize(d), rhs = types[1].getDimSize(d);
    if (ShapedType::isDynamic(lhs) != ShapedType::isDynamic(rhs))
      return false;
    if (!ShapedType::isDynamic(lhs))
      return lhs == rhs;
    return getDimKey(operands[0], d) == getDimKey(operands[1], d);
  };
  if (types[0].getRank() == rank && types[1].getRank() == rank &&
      llvm::all_of(llvm::seq<int64_t>(0, rank), sameSize)) {
    if (!broadcastDims)
      return failure();
    rewriter.modifyOpInPlace(op,
                             [&] { op->removeAttr(kBroadcastDimensionsName); });
    return success();
  }

  // Plan the dynamic result sizes before creating anything, so that
  // unexpected IR fails the match without changes.
  SmallVector<DynamicSizePlan> plans;
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d))
      continue;
    int64_t lhsDim = fromResult[0][d], rhsDim = fromResult[1][d];
    auto isDynamic = [&](unsigned k, int64_t i) {
      return i >= 0 && types[k].isDynamicDim(i);
    };
    // An absent or size-1 dim takes the other side's size.
    auto isTrivial = [&](unsigned k, int64_t i) {
      return i < 0 || types[k].getDimSize(i) == 1;
    };
    DynamicSizePlan plan{DynamicSizePlan::Select, lhsDim, rhsDim};
    if (isTrivial(0, lhsDim))
      plan.kind = DynamicSizePlan::FromRhs;
    else if (isTrivial(1, rhsDim))
      plan.kind = DynamicSizePlan::FromLhs;
    else if (getDimKey(operands[0], lhsDim) == getDimKey(operands[1], rhsDim))
      plan.kind = DynamicSizePlan::FromLhs;
    if ((plan.kind != DynamicSizePlan::FromRhs && !isDynamic(0, lhsDim)) ||
        (plan.kind != DynamicSizePlan::FromLhs && !isDynamic(1, rhsDim)))
      return failure(); // Not the inferred type; the verifier reports it.
    plans.push_back(plan);
  }

  Location loc = op->getLoc();
  auto getOperandSize = [&](unsigned k, int64_t i) -> Value {
    if (Value size = getBroadcastSize(operands[k], i))
      return size;
    return tensor::DimOp::create(rewriter, loc, operands[k], i);
  };
  SmallVector<Value> sizes;
  for (const DynamicSizePlan &plan : plans) {
    if (plan.kind == DynamicSizePlan::FromLhs) {
      sizes.push_back(getOperandSize(0, plan.lhsDim));
      continue;
    }
    if (plan.kind == DynamicSizePlan::FromRhs) {
      sizes.push_back(getOperandSize(1, plan.rhsDim));
      continue;
    }
    // Degenerate rule at run time: lhs == 1 ? rhs : lhs (also right for a
    // size 0 against a size 1, where max would not be).
    Value lhs = getOperandSize(0, plan.lhsDim);
    Value rhs = getOperandSize(1, plan.rhsDim);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value lhsIsOne = arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::eq, lhs, one);
    sizes.push_back(arith::SelectOp::create(rewriter, loc, lhsIsOne, rhs, lhs));
  }

  // Broadcast every operand whose shape or run-time sizes may differ from
  // the result's.
  Value newOperands[2];
  for (unsigned k = 0; k < 2; ++k) {
    bool needsBroadcast = types[k].getRank() != rank;
    unsigned nextSize = 0;
    for (int64_t d = 0; d < rank && !needsBroadcast; ++d) {
      int64_t size = types[k].getDimSize(d);
      if (!resultType.isDynamicDim(d)) {
        needsBroadcast = size != resultType.getDimSize(d);
        continue;
      }
      Value resultSize = sizes[nextSize++];
      needsBroadcast = !ShapedType::isDynamic(size) ||
                       getDimKey(operands[k], d) != getSizeKey(resultSize);
    }
    newOperands[k] = operands[k];
    if (!needsBroadcast)
      continue;
    auto broadcastType =
        RankedTensorType::get(resultType.getShape(), types[k].getElementType());
    newOperands[k] = BroadcastInDimOp::create(
        rewriter, loc, broadcastType, operands[k],
        rewriter.getDenseI64ArrayAttr(toResult[k]), sizes);
  }
  rewriter.modifyOpInPlace(op, [&] {
    op->setOperands(newOperands);
    op->removeAttr(kBroadcastDimensionsName);
  });
  return success();
}

namespace {
/// Matches every op with OpTrait::BroadcastingBinaryOp.
struct ExpandBroadcastingBinaryOp : RewritePattern {
  ExpandBroadcastingBinaryOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
      return failure();
    return expandBroadcasts(op, rewriter);
  }
};

struct LayoutExpandBroadcastsPass
    : layout::impl::LayoutExpandBroadcastsBase<LayoutExpandBroadcastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateLayoutExpandBroadcastsPatterns(patterns);
    // One rewrite per op suffices (the result is explicit); unlike the
    // greedy driver, the walk does not fold or erase unrelated (dead) ops.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace

void mlir::layout::populateLayoutExpandBroadcastsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ExpandBroadcastingBinaryOp>(patterns.getContext());
}
