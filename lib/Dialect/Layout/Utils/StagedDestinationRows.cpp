//===- StagedDestinationRows.cpp - Rows back to back, staged per group ----===//
//
// Destination rows that follow each other in memory (p_k just outside p_r,
// rows of sizeR elements) start off lines. Realigned rows stream them
// where the rows' shifts take few enough sets of constants
// (RealignedTransposeRows.cpp); 8-bit lines' 64 sets do not, and would
// store every row unaligned and cached, each line read for ownership
// (s8[63,257,1021] -> {1,2,0} ran at the speed of cached stores
// everywhere). Staged instead: a group's blocks store their rows, cached,
// into one half of a per-thread stage laid out as the destination's lines
// (the group's range of group x sizeR elements, from the line its first
// row starts in). While the next group fills the other half, a part of
// its lines after each p_r block, the group's whole lines stream out
// (aligned loads, streaming stores of a register each); the two lines the
// range shares with its neighbours go element by element. docs/
// lowering.md, "Staged destination rows".
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/DebugLog.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

bool TransposeBlockKernel::planStagedRows(bool rowsAligned) {
  // (Before planParallel, whose chunks are whole groups: the group may
  // shrink. Rows back to back, junctionLayout; realigned rows first.)
  if (!e.nontemporal || rowsAligned || planRealign() || !tooManyRowShifts ||
      !junctionLayout())
    return false;
  // Groups whose rows exceed a stage half shrink to fit (whole blocks, or
  // whole spans of staged source lines; both variants take them), down to
  // kMinDestinationStageRows.
  int64_t rowBytes = sizeR * e.elementBytes;
  if (group * rowBytes > kMaxDestinationStageBytes) {
    int64_t unit = lineSpan ? lineSpan : v;
    int64_t fits = kMaxDestinationStageBytes / rowBytes / unit * unit;
    if (fits < kMinDestinationStageRows) {
      LDBG() << "transpose blocks at level " << k
             << ": rows too long for the destination stage";
      return false;
    }
    group = fits;
  }
  LDBG() << "transpose blocks at level " << k
         << ": destination rows staged per group";
  return true;
}

void TransposeBlockKernel::allocateStage() {
  // Two halves (consecutive groups alternate) and the pending group's
  // state: its next line, its end, the collapsed destination's index of
  // its stage element 0, its half, and its indices outside (p_k, p_r).
  // (Each half a whole number of lines: its lines are aligned loads.)
  stage = allocateBuffer(2, llvm::alignTo(group * sizeR + width, width),
                         elementType);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfterValue(stage);
  pendingStage = memref::AllocaOp::create(
      b, loc,
      MemRefType::get({kPendingOuter + static_cast<int64_t>(k)},
                      b.getIndexType()));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (int64_t i = 0; i < kPendingOuter + static_cast<int64_t>(k); ++i)
    setPending(i, zero);
}

Value TransposeBlockKernel::getPending(int64_t slot) {
  return memref::LoadOp::create(
      b, loc, pendingStage,
      ValueRange{arith::ConstantIndexOp::create(b, loc, slot)});
}

void TransposeBlockKernel::setPending(int64_t slot, Value value) {
  memref::StoreOp::create(
      b, loc, value, pendingStage,
      ValueRange{arith::ConstantIndexOp::create(b, loc, slot)});
}

void TransposeBlockKernel::beginStagedGroup() {
  // The stage's element 0 is the first line's: the group's first row
  // starts at stageShift, its flat index mod W.
  // (destFlat: planRealign's, no flat rows.)
  stageShift =
      x.hoist(destFlat.replace({{pk, groupStart}, {pr, x.cst(0)}}) % width);
  // The half the pending group does not use (groups of other planes and
  // chunks alike).
  stageHalf = x.hoist(1 - x.value(getPending(3)));
  realDestView = destView;
  destView = stage;
  staging = true;
}

void TransposeBlockKernel::endStagedGroup() {
  destView = realDestView;
  staging = false;
  // Stage element m is the collapsed destination's groupStart sizeR -
  // stageShift + m; [stageShift, stageShift + count) hold the group.
  AffineExpr count = (groupEnd - groupStart) * sizeR;
  AffineExpr origin = groupStart * sizeR - stageShift;
  AffineExpr end = stageShift + count;
  AffineExpr firstLine = (stageShift + (width - 1)).floorDiv(width) * width;
  AffineExpr lastLine = end.floorDiv(width) * width;
  auto oneByOne = [&](AffineExpr from, AffineExpr to) {
    x.forLoop({from}, {to}, [&](Value iv) {
      AffineExpr m = x.value(iv);
      Value element = memref::LoadOp::create(
          b, loc, stage,
          ValueRange{x.materialize(stageHalf), x.materialize(m)});
      memref::StoreOp::create(b, loc, element, junctionView,
                              junctionIndices(origin + m));
    });
  };
  // The head, up to the first whole line (or the range's end), and the
  // tail after the last whole line.
  oneByOne(stageShift,
           x.value(x.materializeMinMax({firstLine, end}, /*isMax=*/false)));
  oneByOne(x.value(x.materializeMinMax({firstLine, lastLine}, /*isMax=*/true)),
           end);
  // The previous group's lines not streamed yet, then this group's wait.
  streamPending(std::nullopt);
  auto set = [&](int64_t i, AffineExpr value) {
    setPending(i, x.materialize(value));
  };
  set(0, firstLine);
  set(1, x.value(x.materializeMinMax({firstLine, lastLine}, /*isMax=*/true)));
  set(2, origin);
  set(3, stageHalf);
  for (unsigned d = 0; d < k; ++d)
    set(kPendingOuter + d, e.destIndex[d]);
}

void TransposeBlockKernel::streamPending(std::optional<int64_t> lines) {
  // Whole lines, R lanes a store (registerParts, as the blocks' streaming
  // stores: LLVM splits a non-temporal store wider than the registers
  // into element stores).
  auto get = [&](int64_t i) { return x.value(getPending(i)); };
  AffineExpr next = get(0), end = get(1), origin = get(2), half = get(3);
  SmallVector<AffineExpr> outer;
  for (unsigned d = 0; d < k; ++d)
    outer.push_back(get(kPendingOuter + d));
  AffineExpr to = lines ? x.value(x.materializeMinMax(
                              {next + *lines * width, end}, /*isMax=*/false))
                        : end;
  int64_t lanes = registerParts() * v;
  auto type = VectorType::get({lanes}, elementType);
  x.forLoop(
      {next}, {to},
      [&](Value iv) {
        AffineExpr m = x.value(iv);
        for (int64_t g = 0; g * lanes < width; ++g) {
          auto load = vector::LoadOp::create(
              b, loc, type, stage,
              ValueRange{x.materialize(half), x.materialize(m + g * lanes)});
          load.setAlignment(static_cast<uint64_t>(lanes * e.elementBytes));
          SmallVector<Value> indices;
          for (AffineExpr index : outer)
            indices.push_back(x.materialize(index));
          indices.push_back(x.materialize(origin + m + g * lanes));
          auto store =
              vector::StoreOp::create(b, loc, load, junctionView, indices);
          store.setAlignment(static_cast<uint64_t>(lanes * e.elementBytes));
          store.setNontemporal(true);
          e.usedNontemporal = true;
        }
      },
      width);
  setPending(0, x.materialize(to));
}

void TransposeBlockKernel::finishStagedRows() {
  if (stagedRows)
    streamPending(std::nullopt);
}

int64_t TransposeBlockKernel::stageLinesPerBlock() const {
  // The pending group's lines spread over this group's p_r blocks.
  int64_t lines = llvm::divideCeil(group * sizeR, width) + 1;
  return llvm::divideCeil(lines, llvm::divideCeil(sizeR, width));
}
