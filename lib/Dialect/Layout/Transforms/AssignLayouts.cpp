//===- AssignLayouts.cpp - --layout-assign-layouts ------------------------===//
//
// Layouts for the intermediate tensors a function materializes: the
// assignment that minimizes the bytes its nests move, with the planner's
// classes as the price of each read (Transforms/Passes.td, docs/fusion.md).
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

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/DebugLog.h"

#include <map>

#define DEBUG_TYPE "layout-assign-layouts"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTASSIGNLAYOUTS
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {

/// The ops whose nests the cost model prices: a layout.fusion, a binary op,
/// broadcast_in_dim, a tensor relayout.
bool isPricedOp(Operation *op) {
  if (isa<FusionOp, BroadcastInDimOp>(op) ||
      op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
    return true;
  auto relayout = dyn_cast<RelayoutOp>(op);
  return relayout && relayout.getResult();
}

bool isStaticArray(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() || !getBufferType(tensor))
    return false;
  unsigned bits = 0;
  return getSubBytePacking(tensor, bits).empty() && !bits &&
         getStaticArrayShape(tensor).has_value();
}

class Assigner {
public:
  Assigner(Block &block, int64_t exhaustiveLimit)
      : block(block), exhaustiveLimit(exhaustiveLimit) {}

  /// Chooses and applies the layouts; returns (bytes before, after) or
  /// nullopt when the block has no free value.
  std::optional<std::pair<int64_t, int64_t>> run() {
    collectFreeValues();
    if (free.empty())
      return std::nullopt;
    SmallVector<unsigned> current(free.size(), 0); // candidate 0: as written
    int64_t before = cost(current);
    SmallVector<unsigned> best = current;
    int64_t combos = 1;
    for (const Free &f : free)
      combos = combos > exhaustiveLimit
                   ? combos
                   : combos * static_cast<int64_t>(f.candidates.size());
    if (combos <= exhaustiveLimit) {
      exhaustive(current, 0, best);
    } else {
      LDBG() << combos << " assignments: coordinate descent";
      descend(best);
    }
    int64_t after = cost(best);
    if (after >= before)
      return std::make_pair(before, before);
    apply(best);
    return std::make_pair(before, after);
  }

  /// The exact minimum by enumeration (for tests: the heuristic's result
  /// is never below it).
  int64_t exactCost() {
    SmallVector<unsigned> a(free.size(), 0), best = a;
    exhaustive(a, 0, best);
    return cost(best);
  }

  struct Free {
    Value value;
    SmallVector<RankedTensorType> candidates; // [0]: the type as written
  };
  SmallVector<Free> free;
  SmallVector<std::pair<Value, RankedTensorType>> changes;

private:
  /// Free values: results of priced ops, without an encoding (the program
  /// did not pin one), every use a read of a priced op of the block.
  void collectFreeValues() {
    for (Operation &op : block) {
      if (!isPricedOp(&op) || isa<RelayoutOp>(op))
        continue;
      Value v = op.getResult(0);
      auto type = cast<RankedTensorType>(v.getType());
      if (type.getEncoding() || !isStaticArray(type) || v.use_empty())
        continue;
      // (A relayout reads its source only: a value that is also a
      // relayout's destination gives that relayout its type.)
      bool allReads = llvm::all_of(v.getUses(), [&](OpOperand &use) {
        Operation *user = use.getOwner();
        if (user->getBlock() != &block || !isPricedOp(user))
          return false;
        return !isa<RelayoutOp>(user) || use.getOperandNumber() == 0;
      });
      if (!allReads)
        continue;
      Free f{v, {type}};
      auto addCandidate = [&](Type t) {
        auto tensor = dyn_cast<RankedTensorType>(t);
        if (tensor && tensor.getShape() == type.getShape() &&
            tensor.getElementType() == type.getElementType() &&
            isStaticArray(tensor) && !llvm::is_contained(f.candidates, tensor))
          f.candidates.push_back(tensor);
      };
      for (Value read : getReadOperands(&op))
        addCandidate(read.getType());
      for (Operation *user : v.getUsers())
        addCandidate(user->getResult(0).getType());
      if (f.candidates.size() > 1)
        free.push_back(std::move(f));
    }
  }

  RankedTensorType typeOf(Value v, ArrayRef<unsigned> assignment) {
    for (auto [f, choice] : llvm::zip(free, assignment))
      if (f.value == v)
        return f.candidates[choice];
    return cast<RankedTensorType>(v.getType());
  }

  /// Bytes of the buffer of `type` (padding slots included).
  int64_t bytes(RankedTensorType type) {
    std::optional<Shape> shape = getStaticArrayShape(type);
    llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(*shape);
    if (!map) {
      llvm::consumeError(map.takeError());
      return 0;
    }
    return map->getPhysicalElementCount() *
           std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  }

  /// The price of reading a `from` buffer into a nest that writes `to`:
  /// its bytes, twice when the byte orders cross (the planner's
  /// in-tile-transpose, interleave and strided-gather classes: a transpose
  /// or a shuffle of sub-tile rows; the interleaves were strided-gathers
  /// before the planner named them, and no benchmark of fused programs
  /// prices them lower yet).
  int64_t readCost(RankedTensorType from, RankedTensorType to) {
    int64_t b = bytes(from);
    if (from.getShape() != to.getShape() || from == to)
      return b;
    auto key =
        std::make_pair(from.getAsOpaquePointer(), to.getAsOpaquePointer());
    auto it = crossing.find(key);
    if (it == crossing.end()) {
      bool crosses = true;
      std::optional<Shape> src = getStaticArrayShape(from);
      std::optional<Shape> dst = getStaticArrayShape(to);
      if (src && dst) {
        llvm::Expected<RelayoutPlan> plan = planRelayout(*src, *dst);
        if (plan)
          crosses = plan->cls == RelayoutClass::InTileTranspose ||
                    plan->cls == RelayoutClass::Interleave ||
                    plan->cls == RelayoutClass::StridedGather;
        else
          llvm::consumeError(plan.takeError());
      }
      it = crossing.emplace(key, crosses).first;
    }
    return it->second ? 2 * b : b;
  }

  /// Bytes moved by the block's priced nests under `assignment`.
  int64_t cost(ArrayRef<unsigned> assignment) {
    int64_t total = 0;
    for (Operation &op : block) {
      if (!isPricedOp(&op))
        continue;
      RankedTensorType out = typeOf(op.getResult(0), assignment);
      if (!isStaticArray(out))
        continue;
      total += bytes(out);
      for (Value read : getReadOperands(&op)) {
        RankedTensorType in = typeOf(read, assignment);
        if (isStaticArray(in))
          total += readCost(in, out);
      }
    }
    return total;
  }

  void exhaustive(SmallVector<unsigned> &a, unsigned k,
                  SmallVector<unsigned> &best) {
    if (k == a.size()) {
      if (cost(a) < cost(best))
        best = a;
      return;
    }
    for (unsigned c = 0; c < free[k].candidates.size(); ++c) {
      a[k] = c;
      exhaustive(a, k + 1, best);
    }
    a[k] = 0;
  }

  /// The heuristic: one value at a time, its cheapest candidate with the
  /// others fixed, until no choice changes (each step lowers the cost).
  void descend(SmallVector<unsigned> &a) {
    for (bool changed = true; changed;) {
      changed = false;
      for (unsigned k = 0; k < a.size(); ++k) {
        unsigned best = a[k];
        int64_t bestCost = cost(a);
        for (unsigned c = 0; c < free[k].candidates.size(); ++c) {
          a[k] = c;
          if (int64_t value = cost(a); value < bestCost) {
            bestCost = value;
            best = c;
            changed = true;
          }
        }
        a[k] = best;
      }
    }
  }

  /// Gives each free value its chosen type (a fusion writes it through a
  /// relayout at the end of its body) and each fusion that reads it the
  /// argument type.
  void apply(ArrayRef<unsigned> assignment) {
    for (auto [f, choice] : llvm::zip(free, assignment)) {
      if (choice == 0)
        continue;
      RankedTensorType type = f.candidates[choice];
      changes.emplace_back(f.value, type);
      Operation *def = f.value.getDefiningOp();
      if (auto fusion = dyn_cast<FusionOp>(def)) {
        auto yield = cast<YieldOp>(fusion.getBody().front().getTerminator());
        OpBuilder b(yield);
        Value empty =
            tensor::EmptyOp::create(b, yield.getLoc(), type.getShape(),
                                    type.getElementType(), type.getEncoding());
        auto relayout =
            RelayoutOp::create(b, yield.getLoc(), yield.getValue(), empty);
        yield.getValueMutable().assign(relayout.getResult());
      }
      f.value.setType(type);
      for (OpOperand &use : f.value.getUses())
        if (auto fusion = dyn_cast<FusionOp>(use.getOwner()))
          fusion.getBody().getArgument(use.getOperandNumber()).setType(type);
    }
  }

  Block &block;
  int64_t exhaustiveLimit;
  std::map<std::pair<const void *, const void *>, bool> crossing;
};

struct LayoutAssignLayoutsPass
    : layout::impl::LayoutAssignLayoutsBase<LayoutAssignLayoutsPass> {
  using LayoutAssignLayoutsBase::LayoutAssignLayoutsBase;
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa_and_nonnull<FusionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      Assigner assigner(*block, exhaustiveLimit);
      std::optional<std::pair<int64_t, int64_t>> result = assigner.run();
      if (!result || !report)
        continue;
      Operation *parent = block->getParentOp();
      InFlightDiagnostic remark = parent->emitRemark()
                                  << "layouts assigned: bytes moved "
                                  << result->first << " -> " << result->second;
      if (reportExact)
        remark << " (exhaustive minimum " << assigner.exactCost() << ")";
      for (auto [value, type] : assigner.changes)
        value.getDefiningOp()->emitRemark() << "layout: " << type;
    }
  }
};
} // namespace
