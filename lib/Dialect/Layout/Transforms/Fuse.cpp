//===- Fuse.cpp - --layout-fuse -------------------------------------------===//
//
// Trees of static tensor layout ops become `layout.fusion` ops: the grouping
// and the bytes-moved cost model of the pass description
// (Transforms/Passes.td, docs/fusion.md).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"
#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/DebugLog.h"

#define DEBUG_TYPE "layout-fuse"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTFUSE
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Whether `op` may join a fusion: a static tensor binary op (with a loop
/// lowering for its element type), broadcast_in_dim without sizes, or
/// tensor relayout, none on a sub-byte packed layout.
bool isFusible(Operation *op) {
  bool binary = op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>();
  auto broadcast = dyn_cast<BroadcastInDimOp>(op);
  auto relayout = dyn_cast<RelayoutOp>(op);
  if (!binary && !broadcast && !relayout)
    return false;
  if (broadcast && !broadcast.getSizes().empty())
    return false;
  if (binary && !whyBinaryUnsupported(op).empty())
    return false;
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape() || !getBufferType(type))
      return false;
    unsigned bits = 0;
    if (!getSubBytePacking(type, bits).empty() || bits)
      return false;
  }
  return true;
}

/// The bytes of a static tensor (whole bytes per element, at least one).
int64_t getBytes(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t bits = type.getElementType().isIntOrFloat()
                     ? type.getElementTypeBitWidth()
                     : 128; // complex<f64> at most
  return type.getNumElements() * std::max<int64_t>(1, bits / 8);
}

/// The cost model (Passes.td): recompute a value with users in `k` groups
/// rather than materialize it.
bool isCheaperToRecompute(Operation *op, int64_t k) {
  int64_t operandBytes = 0;
  for (Value v : getReadOperands(op))
    operandBytes += getBytes(v);
  int64_t materialize = getBytes(op->getResult(0)) * (1 + k);
  int64_t recompute = k * operandBytes;
  return recompute < materialize;
}

using Group = llvm::SetVector<Operation *>;

/// Whether a group is left to the op-by-op lowering: one op, or a binary
/// root with single-use broadcast_in_dim operands.
bool isTrivial(const Group &group, Operation *root) {
  if (group.size() == 1)
    return true;
  if (!root->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
    return false;
  for (Operation *op : group) {
    if (op == root)
      continue;
    if (!isa<BroadcastInDimOp>(op) || !op->hasOneUse() ||
        *op->getUsers().begin() != root)
      return false;
  }
  return true;
}

/// Replaces the root of `group` by a layout.fusion of the group's ops.
void buildFusion(OpBuilder &b, Operation *root, const Group &group) {
  // The group's ops in block order; the leaves in order of first read.
  SmallVector<Operation *> ops(group.begin(), group.end());
  llvm::sort(ops,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  llvm::SetVector<Value> leaves;
  for (Operation *op : ops)
    for (Value v : getReadOperands(op))
      if (!v.getDefiningOp() || !group.contains(v.getDefiningOp()))
        leaves.insert(v);
  b.setInsertionPoint(root);
  auto fusion = FusionOp::create(
      b, root->getLoc(), root->getResult(0).getType(), leaves.getArrayRef());
  Block *body = b.createBlock(&fusion.getBody());
  IRMapping mapping;
  for (Value leaf : leaves)
    mapping.map(leaf, body->addArgument(leaf.getType(), leaf.getLoc()));
  for (Operation *op : ops) {
    auto relayout = dyn_cast<RelayoutOp>(op);
    if (!relayout) {
      b.clone(*op, mapping);
      continue;
    }
    // A relayout's destination only gives the type: a tensor.empty of the
    // body (the value itself may be a leaf that another op reads).
    auto type = cast<RankedTensorType>(relayout.getDestination().getType());
    Value empty =
        tensor::EmptyOp::create(b, op->getLoc(), type.getShape(),
                                type.getElementType(), type.getEncoding());
    auto clone = RelayoutOp::create(
        b, op->getLoc(), mapping.lookup(relayout.getSource()), empty);
    mapping.map(relayout.getResult(), clone.getResult());
  }
  YieldOp::create(b, root->getLoc(), mapping.lookup(root->getResult(0)));
  root->getResult(0).replaceAllUsesWith(fusion.getResult());
}

struct LayoutFusePass : layout::impl::LayoutFuseBase<LayoutFusePass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    // Not inside fusion bodies (a fusion holds no fusion).
    getOperation()->walk([&](Block *block) {
      if (!isa_and_nonnull<FusionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      fuseBlock(*block);
  }

  void fuseBlock(Block &block) {
    // Groups by index; an op may be in several (recomputed).
    SmallVector<Group> groups;
    SmallVector<Operation *> roots;
    groupsOf.clear();
    for (Operation &op : llvm::reverse(block)) {
      if (!isFusible(&op) || groupsOf.count(&op))
        continue;
      if (std::optional<SmallVector<unsigned>> users = getUserGroups(&op)) {
        if (users->size() == 1 ||
            isCheaperToRecompute(&op, static_cast<int64_t>(users->size()))) {
          LDBG() << "fusing " << op.getName() << " into " << users->size()
                 << " group(s)";
          for (unsigned g : *users) {
            groups[g].insert(&op);
            groupsOf[&op].push_back(g);
          }
          continue;
        }
        LDBG() << "materializing " << op.getName() << ": used by "
               << users->size() << " groups, recomputing moves more bytes";
      }
      groupsOf[&op].push_back(groups.size());
      groups.push_back(Group());
      groups.back().insert(&op);
      roots.push_back(&op);
    }
    OpBuilder b(&getContext());
    SmallVector<Operation *> fused;
    for (auto [group, root] : llvm::zip_equal(groups, roots)) {
      if (isTrivial(group, root))
        continue;
      buildFusion(b, root, group);
      fused.append(group.begin(), group.end());
    }
    // The fused ops, users first (each now unused or used by other fused
    // ops only).
    llvm::sort(fused, [](Operation *x, Operation *y) {
      return y->isBeforeInBlock(x);
    });
    fused.erase(llvm::unique(fused), fused.end());
    // The destinations of erased relayouts, when nothing else uses them.
    llvm::SetVector<Operation *> empties;
    for (Operation *op : fused) {
      if (!op->use_empty())
        continue;
      if (auto relayout = dyn_cast<RelayoutOp>(op))
        if (auto empty =
                relayout.getDestination().getDefiningOp<tensor::EmptyOp>())
          empties.insert(empty);
      op->erase();
    }
    for (Operation *empty : empties)
      if (empty->use_empty())
        empty->erase();
  }

  /// The groups of all users of `op`'s result, when every user is a
  /// fusible op of the same block already in a group; nullopt otherwise
  /// (the value is materialized).
  std::optional<SmallVector<unsigned>> getUserGroups(Operation *op) {
    llvm::SetVector<unsigned> result;
    Value v = op->getResult(0);
    if (v.use_empty())
      return std::nullopt;
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != op->getBlock() || !isFusible(user))
        return std::nullopt;
      if (auto relayout = dyn_cast<RelayoutOp>(user);
          relayout && use.get() == relayout.getDestination())
        return std::nullopt;
      auto it = groupsOf.find(user);
      if (it == groupsOf.end())
        return std::nullopt;
      result.insert(it->second.begin(), it->second.end());
    }
    return SmallVector<unsigned>(result.begin(), result.end());
  }
  /// The groups of each op of the block being fused (several: recomputed).
  llvm::DenseMap<Operation *, SmallVector<unsigned, 1>> groupsOf;
};
} // namespace
