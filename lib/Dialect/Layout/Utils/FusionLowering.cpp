//===- FusionLowering.cpp - layout.fusion as one loop nest ----------------===//
//
// A `layout.fusion` is one elementwise nest (emitElementwiseLoops) over its
// result: the body's tree, walked from the root, gives each leaf read its
// composed dim map (one LoopSource per distinct leaf and map) and the
// element function that evaluates the interior values in registers.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/FusionLowering.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"
#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include <map>

using namespace mlir;
using namespace mlir::layout;

namespace {
/// The body of a fusion as the nest evaluates it: per element of the
/// result, the leaves' loads and the binary ops in post-order (the root
/// last). A value reached twice with the same dim map is one node.
class FusedTree {
public:
  struct Node {
    /// A load of source `source`, or (op set) a binary op of two nodes.
    unsigned source = 0;
    Operation *op = nullptr;
    unsigned lhs = 0, rhs = 0;
  };
  struct Leaf {
    unsigned input;
    SmallVector<int64_t> dimMap;
  };

  explicit FusedTree(FusionOp fusion) {
    int64_t rank = fusion.getType().getRank();
    build(fusion.getRoot(), llvm::to_vector(llvm::seq<int64_t>(0, rank)));
  }

  ArrayRef<Leaf> getLeaves() const { return leaves; }
  ArrayRef<Node> getNodes() const { return nodes; }

  /// Whether every binary op runs on vectors (isVectorizableElement).
  bool isVectorizable() const {
    return llvm::all_of(nodes, [](const Node &n) {
      return !n.op || isVectorizableElement(n.op);
    });
  }

  /// The root value from the loaded leaves (scalars or vectors).
  Value evaluate(OpBuilder &b, Location loc, ValueRange loaded) const {
    SmallVector<Value> values;
    for (const Node &n : nodes) {
      if (!n.op) {
        values.push_back(loaded[n.source]);
        continue;
      }
      Value lhs = values[n.lhs], rhs = values[n.rhs];
      if (isa<VectorType>(lhs.getType())) {
        values.push_back(emitVectorBinaryElement(b, loc, n.op, lhs, rhs));
        continue;
      }
      // Floats of different precision: both in the compute type first.
      Type compute = getBinaryOpComputeType(lhs.getType(), rhs.getType());
      values.push_back(emitBinaryElement(b, loc, n.op,
                                         castElement(b, loc, lhs, compute),
                                         castElement(b, loc, rhs, compute)));
    }
    return values.back();
  }

private:
  /// The node of `v` read at the result index through `toRoot` (per dim of
  /// `v`: the result dim whose index it takes, -1 for index 0).
  unsigned build(Value v, SmallVector<int64_t> toRoot) {
    auto key = std::make_pair(v.getAsOpaquePointer(), toRoot);
    if (auto it = memo.find(key); it != memo.end())
      return it->second;
    Node node;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      auto it = llvm::find_if(leaves, [&](const Leaf &l) {
        return l.input == arg.getArgNumber() && l.dimMap == toRoot;
      });
      node.source = it - leaves.begin();
      if (it == leaves.end())
        leaves.push_back({arg.getArgNumber(), toRoot});
    } else if (auto relayout = v.getDefiningOp<RelayoutOp>()) {
      // The identity on logical indices.
      return memo[key] = build(relayout.getSource(), toRoot);
    } else if (auto broadcast = v.getDefiningOp<BroadcastInDimOp>()) {
      return memo[key] =
                 build(broadcast.getOperand(),
                       compose(broadcast.getOperand(), v,
                               broadcast.getBroadcastDimensions(), toRoot));
    } else {
      Operation *op = v.getDefiningOp();
      node.op = op;
      node.lhs =
          build(op->getOperand(0), compose(op->getOperand(0), v,
                                           getOperandToResult(op, 0), toRoot));
      node.rhs =
          build(op->getOperand(1), compose(op->getOperand(1), v,
                                           getOperandToResult(op, 1), toRoot));
    }
    nodes.push_back(node);
    return memo[key] = nodes.size() - 1;
  }

  /// The map of `operand` (dim i to `result` dim toResult[i]) composed with
  /// `toRoot`; a size-1 dim against a larger one reads index 0.
  static SmallVector<int64_t> compose(Value operand, Value result,
                                      ArrayRef<int64_t> toResult,
                                      ArrayRef<int64_t> toRoot) {
    auto operandType = cast<RankedTensorType>(operand.getType());
    auto resultType = cast<RankedTensorType>(result.getType());
    SmallVector<int64_t> map;
    for (auto [i, r] : llvm::enumerate(toResult)) {
      bool replicated =
          operandType.getDimSize(i) == 1 && resultType.getDimSize(r) != 1;
      map.push_back(replicated ? -1 : toRoot[r]);
    }
    return map;
  }

  SmallVector<Leaf> leaves;
  SmallVector<Node> nodes;
  std::map<std::pair<void *, SmallVector<int64_t>>, unsigned> memo;
};
} // namespace

LogicalResult mlir::layout::lowerFusionOp(RewriterBase &rewriter,
                                          FusionOp fusion, LoopKind kind,
                                          const LoopEmitOptions &options) {
  RankedTensorType resultType = fusion.getType();
  MemRefType bufferType = getBufferType(resultType);
  if (!bufferType)
    return rewriter.notifyMatchFailure(fusion, "unsupported result encoding");
  for (Value input : fusion.getInputs())
    if (!getBufferType(cast<RankedTensorType>(input.getType())))
      return rewriter.notifyMatchFailure(fusion, "unsupported input encoding");
  FusedTree tree(fusion);
  Location loc = fusion.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(fusion);
  SmallVector<Value> buffers;
  for (Value input : fusion.getInputs())
    buffers.push_back(bufferization::ToBufferOp::create(
        rewriter, loc, getBufferType(cast<RankedTensorType>(input.getType())),
        input, rewriter.getUnitAttr()));
  SmallVector<LoopSource> sources;
  for (const FusedTree::Leaf &leaf : tree.getLeaves())
    sources.push_back({buffers[leaf.input], leaf.dimMap});

  ElementFunction element;
  auto fn = [&tree](OpBuilder &b, Location l, ValueRange loaded) {
    return tree.evaluate(b, l, loaded);
  };
  element.fn = fn;
  element.vectorizable = tree.isVectorizable();
  element.copiesElements = tree.getNodes().size() == 1;

  SmallVector<OpFoldResult> sizes;
  for (int64_t size : resultType.getShape())
    sizes.push_back(rewriter.getIndexAttr(size));
  auto materialize = getDestinationOfResult(fusion, bufferType);
  Value dest =
      materialize
          ? materialize.getDest()
          : memref::AllocOp::create(rewriter, loc, bufferType).getResult();
  NestReport report;
  if (failed(emitElementwiseLoops(
          rewriter, loc, kind, dest, sizes, sources, element,
          [fusion]() mutable { return fusion.emitOpError(); }, options,
          &report)))
    return failure();
  if (options.reportKernels)
    reportKernel(fusion, report);
  if (materialize) {
    rewriter.eraseOp(materialize);
    rewriter.eraseOp(fusion);
    return success();
  }
  rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
      fusion, resultType, dest, /*restrict=*/true, /*writable=*/true);
  return success();
}
