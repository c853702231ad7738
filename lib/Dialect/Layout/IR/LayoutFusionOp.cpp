//===- LayoutFusionOp.cpp - layout.fusion and layout.yield ----------------===//
//
// The verifier of `layout.fusion`: a body of static tensor layout ops whose
// yielded value is the result (the op's description in LayoutOps.td).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::layout;

Value FusionOp::getRoot() {
  return cast<YieldOp>(getBody().front().getTerminator()).getValue();
}

SmallVector<Value> mlir::layout::getReadOperands(Operation *op) {
  if (auto relayout = dyn_cast<RelayoutOp>(op))
    return {relayout.getSource()};
  return llvm::to_vector(op->getOperands());
}

void FusionOp::unfuse(RewriterBase &rewriter) {
  Block &body = getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  Value root = yield.getValue();
  rewriter.eraseOp(yield);
  rewriter.inlineBlockBefore(&body, *this, getInputs());
  rewriter.replaceOp(*this, root);
}

/// Why `op` may not stand in a fusion body, or the empty string.
static std::string whyNotFusible(Operation *op) {
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return "its operands and results must be static ranked tensors";
  }
  if (isa<tensor::EmptyOp, YieldOp>(op) ||
      op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
    return "";
  if (auto broadcast = dyn_cast<BroadcastInDimOp>(op))
    return broadcast.getSizes().empty() ? "" : "a broadcast with sizes";
  if (auto relayout = dyn_cast<RelayoutOp>(op)) {
    if (!relayout.getDestination().getDefiningOp<tensor::EmptyOp>())
      return "a relayout whose destination is not a tensor.empty of the body";
    return "";
  }
  return "not a layout op that fuses";
}

LogicalResult FusionOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body has " << body.getNumArguments()
                         << " arguments for " << getInputs().size()
                         << " inputs";
  for (auto [i, arg, input] : llvm::enumerate(body.getArguments(), getInputs()))
    if (arg.getType() != input.getType())
      return emitOpError() << "body argument #" << i << " has type "
                           << arg.getType() << ", input has "
                           << input.getType();
  if (!isa<YieldOp>(body.getTerminator()))
    return emitOpError() << "body must end with layout.yield";
  if (getRoot().getType() != getType())
    return emitOpError() << "yields " << getRoot().getType()
                         << " for a result of type " << getType();
  for (Operation &op : body) {
    std::string why = whyNotFusible(&op);
    if (!why.empty())
      return op.emitOpError()
             << "cannot stand in a layout.fusion body: " << why;
  }
  return success();
}
