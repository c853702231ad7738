//===- RealignedTransposeRows.cpp - Transposes into odd rows, streaming ---===//
//
// Blocked transposes whose destination rows do not start on a line (odd
// extents: f32[4093,4099]{1,0} -> {0,1}) would store each block row
// unaligned and cached, every destination line read for ownership first
// (TransposeBlockPlan::realignRows has the measurements). Realigned, each
// block row's last `wide` vectors wait in a per-thread carry buffer, and
// every later block streams the aligned vectors that end inside its own,
// made of the carry's lanes and its (vector.shuffle). Shifts are constants
// of the block row and of the block's first row's shift, which p_k and the
// dims outside the plane may move: one scf.index_switch case per value it
// takes, around each block's stores (its loads and transposes shared).
// docs/lowering.md, "Realigned rows".
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"
#include "TransposeBlocks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

bool TransposeBlockKernel::planRealign() {
  // (Merged tile rows: no linear destination row index.)
  if (!realignRows || mergedRows)
    return false;
  // The destination's flat index: the p_r coefficient 1 (a contiguous
  // row); its coefficients give the sets of row shifts (planRowShifts),
  // and the set of a block is (flat at p_r = 0) mod W, divided by the
  // step. p_k is a multiple of V at every full block (groups and parallel
  // chunks are).
  // (Flat rows: p_r is the flat index over the dims r - 1 and r.)
  AffineExpr flat = x.cst(0);
  for (auto [d, index] : llvm::enumerate(e.destIndex))
    flat = flat + index * e.destStrides[d];
  destFlat = flat;
  SmallVector<AffineExpr> levels(e.placeholders);
  if (flatRows) {
    flat = flat.replace({{pm, x.cst(0)}, {e.placeholders[r], pr}});
    levels[r] = pr;
  }
  std::optional<LinearForm> form = getLinearForm(flat, levels);
  if (!form || form->coeffs[r] != 1) {
    LDBG() << "transpose blocks at level " << k
           << ": destination rows not linear, no realigned rows";
    return false;
  }
  std::vector<int64_t> otherStrides;
  for (auto [m, coeff] : llvm::enumerate(form->coeffs))
    if (m != k && m != r)
      otherStrides.push_back(coeff);
  std::optional<RowShiftPlan> plan =
      planRowShifts(form->coeffs[k], otherStrides, form->constant, v, width);
  tooManyRowShifts = !plan;
  if (!plan) {
    LDBG() << "transpose blocks at level " << k
           << ": too many sets of row shifts, no realigned rows";
    return false;
  }
  shiftCase =
      plan->shifts.size() > 1
          ? (flat.replace({{pr, x.cst(0)}}) % width).floorDiv(plan->step)
          : AffineExpr();
  shifts.clear();
  bool anyShift = false;
  for (const std::vector<int64_t> &rowShifts : plan->shifts) {
    shifts.emplace_back(rowShifts.begin(), rowShifts.end());
    anyShift |= llvm::any_of(rowShifts, [](int64_t s) { return s != 0; });
  }
  if (!anyShift)
    return false;
  junctions = planJunctions();
  return true;
}

bool TransposeBlockKernel::planJunctions() {
  // Measured on Emerald Rapids (AVX-512, one thread, f32[64,257,1024] ->
  // {1,2,0}: rows of 257 elements, one partial line at each end): the
  // heads and tails stored masked and cached took half the time (11.4 GB/s;
  // 22 without them, all else equal): each is a read for ownership that
  // waits behind the streams. Rows that follow each other in memory share
  // those lines, the tail of one and the head of the next, and each such
  // line is whole once both are known.
  // (Column chunks store only their own columns: a gap holds the tail of
  // one row and the head of the next, which two chunks write.)
  if (!junctionLayout() || columnChunks >= 2)
    return false;
  LDBG() << "transpose blocks at level " << k
         << ": realigned rows with junction lines";
  return true;
}

bool TransposeBlockKernel::junctionLayout() const {
  unsigned rank = e.destIndex.size();
  return !flatRows && k + 1 == r && r + 1 == rank && e.destStrides[r] == 1 &&
         e.destStrides[k] == sizeR && e.destIndex[k] == pk &&
         e.destIndex[r] == pr;
}

void TransposeBlockKernel::emitCases(Value selector, int64_t count,
                                     function_ref<void(int64_t)> body) {
  SmallVector<int64_t> cases;
  for (int64_t c = 1; c < count; ++c)
    cases.push_back(c);
  auto cased = scf::IndexSwitchOp::create(b, loc, TypeRange{}, selector, cases,
                                          cases.size());
  OpBuilder::InsertionGuard guard(b);
  for (int64_t c = 0; c < count; ++c) {
    Region &region =
        c == 0 ? cased.getDefaultRegion() : cased.getCaseRegions()[c - 1];
    b.setInsertionPointToStart(&region.emplaceBlock());
    scf::YieldOp::create(b, loc);
    b.setInsertionPointToStart(&region.front());
    body(c);
  }
}

void TransposeBlockKernel::emitShiftCases(
    function_ref<void(ArrayRef<int64_t>)> body) {
  if (shifts.size() == 1) {
    body(shifts[0]);
    return;
  }
  emitCases(x.materialize(shiftCase), shifts.size(),
            [&](int64_t c) { body(shifts[c]); });
}

SmallVector<Value> TransposeBlockKernel::destIndices(int64_t j,
                                                     AffineExpr column) {
  // (Staged destination rows: the stage, the group's rows back to back
  // from stageShift.)
  if (staging)
    return {x.materialize(stageHalf),
            x.materialize((pk + j - groupStart) * sizeR + column + stageShift)};
  // (Flat rows: the collapsed view, the dims r - 1 and r as one.)
  SmallVector<Value> indices;
  for (auto [d, p] : llvm::enumerate(e.destIndex)) {
    if (flatRows && d == r - 1)
      continue;
    // (Merged tile rows: p_k inside the quotient and remainder.)
    indices.push_back(x.materialize(d == r ? column : p.replace(pk, pk + j)));
  }
  return indices;
}

void TransposeBlockKernel::storeOutsideStream(Value value, int64_t j,
                                              int64_t column, int64_t shift) {
  // The row streams [W - shift, full - shift) (all of [0, full) unshifted):
  // the body's aligned vectors, and the head's when the row is aligned.
  int64_t full = sizeR / width * width;
  int64_t first = shift ? width - shift : 0, last = full - shift;
  SmallVector<bool> kept;
  for (int64_t i = 0; i < v; ++i)
    kept.push_back(column + i < first || column + i >= last);
  // (A column chunk's head or carry: its columns are those of a row's
  // head or carry, moved by columnOrigin; the same lanes.)
  SmallVector<Value> indices =
      destIndices(j, columnOrigin ? columnOrigin + column : x.cst(column));
  if (junctions && realigning) {
    if (llvm::none_of(kept, [](bool k) { return k; }))
      return;
    auto maskType = VectorType::get({v}, b.getI1Type());
    storeGap(value, j, column, shift,
             arith::ConstantOp::create(
                 b, loc, maskType,
                 DenseElementsAttr::get(maskType, ArrayRef<bool>(kept))));
    return;
  }
  if (!e.options.maskedEdges || llvm::all_of(kept, [](bool k) { return k; })) {
    vector::StoreOp::create(b, loc, value, destView, indices);
    return;
  }
  if (llvm::none_of(kept, [](bool k) { return k; }))
    return;
  auto maskType = VectorType::get({v}, b.getI1Type());
  Value mask = arith::ConstantOp::create(
      b, loc, maskType, DenseElementsAttr::get(maskType, ArrayRef<bool>(kept)));
  vector::MaskedStoreOp::create(b, loc, destView, indices, mask, value);
}

void TransposeBlockKernel::storeRealignedRow(int64_t j, ArrayRef<Value> row,
                                             int64_t shift) {
  if (*part == Part::Head) {
    // (p_r = 0.)
    for (auto [w, value] : llvm::enumerate(row))
      storeOutsideStream(value, j, static_cast<int64_t>(w) * v, shift);
    storeCarry(j, row);
    return;
  }
  assert(shift != 0 && "rows that do not shift take aligned stores");
  // The row's stream from p_r - W: the carry's registers, then this
  // block's, as integers of the element's width (no float shuffles of
  // bf16); a register is one part (V lanes), or the parts side by side in
  // one (registerParts: transposeSideBySide). Aligned register g holds
  // lanes W + g R - shift .. of the stream (R lanes a register): one
  // register of it or lanes of two adjacent ones, one store per register
  // (with parts side by side: no extraction of the parts; docs/
  // performance.md, "Blocks side by side in a register").
  int64_t parts = registerParts(), lanes = parts * v;
  auto type = VectorType::get(
      {lanes}, cast<MemRefType>(carry.getType()).getElementType());
  SmallVector<Value> stream, current;
  for (int64_t w = 0; w < wide; w += parts)
    stream.push_back(
        vector::LoadOp::create(b, loc, type, carry, carryIndex(j, w)));
  for (int64_t w = 0; w < wide; w += parts) {
    SmallVector<Value> bits;
    for (Value value : row.slice(w, parts))
      bits.push_back(toBits(value));
    current.push_back(concatenateVectors(b, loc, bits));
    stream.push_back(current.back());
  }
  for (int64_t g = 0; g * lanes < width; ++g) {
    int64_t start = width + g * lanes - shift, q = start / lanes,
            t = start % lanes;
    Value line = stream[q];
    if (t != 0) {
      SmallVector<int64_t> picked;
      for (int64_t i = 0; i < lanes; ++i)
        picked.push_back(t + i);
      line =
          vector::ShuffleOp::create(b, loc, stream[q], stream[q + 1], picked);
    }
    auto store = vector::StoreOp::create(
        b, loc, e.fromMoveType(line, elementType), destView,
        destIndices(j, pr + (g * lanes - shift)));
    store.setAlignment(static_cast<uint64_t>(lanes * e.elementBytes));
    store.setNontemporal(true);
    e.usedNontemporal = true;
  }
  for (auto [g, value] : llvm::enumerate(current))
    vector::StoreOp::create(b, loc, value, carry,
                            carryIndex(j, static_cast<int64_t>(g) * parts));
}

SmallVector<Value> TransposeBlockKernel::carryIndex(int64_t j, int64_t w) {
  return {x.materialize(pk - groupStart + j), x.materialize(x.cst(w * v))};
}

Value TransposeBlockKernel::toBits(Value vector) {
  auto bits = VectorType::get(
      {v}, IntegerType::get(b.getContext(), 8 * e.elementBytes));
  if (vector.getType() == bits)
    return vector;
  return vector::BitCastOp::create(b, loc, bits, vector);
}

SmallVector<Value> TransposeBlockKernel::loadCarry(int64_t j) {
  auto type =
      VectorType::get({v}, cast<MemRefType>(carry.getType()).getElementType());
  SmallVector<Value> row;
  for (int64_t w = 0; w < wide; ++w)
    row.push_back(
        vector::LoadOp::create(b, loc, type, carry, carryIndex(j, w)));
  return row;
}

void TransposeBlockKernel::storeCarry(int64_t j, ArrayRef<Value> row) {
  for (auto [w, value] : llvm::enumerate(row))
    vector::StoreOp::create(b, loc, toBits(value), carry,
                            carryIndex(j, static_cast<int64_t>(w)));
}

bool TransposeBlockKernel::isCarried(int64_t j) {
  return llvm::any_of(
      shifts, [&](ArrayRef<int64_t> rowShifts) { return rowShifts[j] != 0; });
}

void TransposeBlockKernel::storeGap(Value value, int64_t j, int64_t column,
                                    int64_t shift, Value mask) {
  // Row p = p_k + j starts `shift` elements past a line; the gap after row
  // p - 1 holds that row's tail (m + its shift elements, m = sizeR mod W,
  // its shift (shift - m) mod W) and then row p's head. Head vectors start
  // before W, tail ones after (sizeR >= 2W).
  int64_t full = sizeR / width * width, m = sizeR % width;
  AffineExpr slot;
  int64_t position;
  if (column < width) {
    slot = pk - groupStart + j;
    position = width + m + llvm::mod(shift - m, width) + column;
  } else {
    slot = pk - groupStart + j + 1;
    position = width + column - (full - shift);
  }
  SmallVector<Value> indices = {x.materialize(slot),
                                x.materialize(x.cst(position))};
  if (e.options.maskedEdges) {
    vector::MaskedStoreOp::create(b, loc, gaps, indices, mask, toBits(value));
    return;
  }
  // Without cheap masked stores (AVX2: vmaskmovps is microcoded on AMD,
  // 8- and 16-bit ones do not exist) the gaps buffer, private to the
  // thread, is merged: load, select, store.
  Value bits = toBits(value);
  Value old = vector::LoadOp::create(b, loc, bits.getType(), gaps, indices);
  Value merged = arith::SelectOp::create(b, loc, mask, bits, old);
  vector::StoreOp::create(b, loc, merged, gaps, indices);
}

SmallVector<Value> TransposeBlockKernel::junctionIndices(AffineExpr column) {
  SmallVector<Value> indices;
  for (unsigned d = 0; d < k; ++d)
    indices.push_back(x.materialize(e.destIndex[d]));
  indices.push_back(x.materialize(column));
  return indices;
}

void TransposeBlockKernel::writeJunctions() {
  // Row p's shift, its stream's end (a line, in the collapsed (p_k, p_r)
  // dim), its tail t = m + shift, and the gap after it: t plus the next
  // row's head, 0, 1 or 2 whole lines.
  int64_t full = sizeR / width * width, m = sizeR % width;
  auto type = VectorType::get(
      {v}, IntegerType::get(b.getContext(), 8 * e.elementBytes));
  auto shiftOf = [&](AffineExpr p) {
    return destFlat.replace({{pk, p}, {pr, x.cst(0)}}) % width;
  };
  auto load = [&](AffineExpr slot, AffineExpr position) {
    return vector::LoadOp::create(
        b, loc, type, gaps,
        ValueRange{x.materialize(slot), x.materialize(position)});
  };
  // Without masked edges (AVX2: no masked stores of 8- and 16-bit lanes,
  // microcoded 32-bit ones on AMD) the lanes below `count` go one by one
  // from the gaps buffer: two such stores per group, into lines the rows
  // outside the group share.
  auto scalarStores = [&](AffineExpr slot, AffineExpr position,
                          AffineExpr column, AffineExpr count) {
    // (Lanes [0, min(count, V)): none when count <= 0.)
    Type bits = type.getElementType();
    x.forLoop({}, {count, x.cst(v)}, [&](Value iv) {
      AffineExpr i = x.value(iv);
      Value element = memref::LoadOp::create(
          b, loc, gaps,
          ValueRange{x.materialize(slot), x.materialize(position + i)});
      // (arith.bitcast takes signless integers and floats only: unsigned
      // and signed elements, ui8 or si16, go through a one-lane vector.)
      if (elementType != bits && elementType.isSignlessIntOrFloat()) {
        element = arith::BitcastOp::create(b, loc, elementType, element);
      } else if (elementType != bits) {
        Value lane = vector::BroadcastOp::create(
            b, loc, VectorType::get({1}, bits), element);
        lane = vector::BitCastOp::create(
            b, loc, VectorType::get({1}, elementType), lane);
        element = vector::ExtractOp::create(b, loc, lane, ArrayRef<int64_t>{0});
      }
      memref::StoreOp::create(b, loc, element, junctionView,
                              junctionIndices(column + i));
    });
  };
  auto maskedStore = [&](Value value, AffineExpr column, AffineExpr count) {
    // Lanes below `count` (vector.create_mask is not lowered by the
    // pipeline's conversions: an iota compared with the count).
    auto lanesType = VectorType::get({v}, b.getI32Type());
    SmallVector<int32_t> iota;
    for (int64_t i = 0; i < v; ++i)
      iota.push_back(static_cast<int32_t>(i));
    Value lanes = arith::ConstantOp::create(
        b, loc, lanesType,
        DenseElementsAttr::get(lanesType, ArrayRef<int32_t>(iota)));
    Value bound = vector::BroadcastOp::create(
        b, loc, lanesType,
        arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                   x.materialize(count)));
    Value mask =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lanes, bound);
    vector::MaskedStoreOp::create(b, loc, junctionView, junctionIndices(column),
                                  mask, e.fromMoveType(value, elementType));
  };
  x.forLoop({groupStart}, {groupEnd - 1}, [&](Value iv) {
    AffineExpr p = x.value(iv);
    AffineExpr shift = shiftOf(p);
    AffineExpr next = (shift + m) % width;
    AffineExpr gap = shift + m + (width - next) % width;
    AffineExpr end = p * sizeR + full - shift;
    Value gapSize = x.materialize(gap);
    for (int64_t line = 0; line < 2; ++line) {
      Value whole = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::sge, gapSize,
          arith::ConstantIndexOp::create(b, loc, (line + 1) * width));
      auto ifOp = scf::IfOp::create(b, loc, whole);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      for (int64_t w = 0; w < wide; ++w) {
        Value value =
            load(p - groupStart + 1, x.cst(width + line * width + w * v));
        auto store = vector::StoreOp::create(
            b, loc, e.fromMoveType(value, elementType), junctionView,
            junctionIndices(end + line * width + w * v));
        store.setAlignment(static_cast<uint64_t>(v * e.elementBytes));
        store.setNontemporal(true);
      }
    }
  });
  // The last row's tail (up to 2W elements) and the first row's head
  // (before its stream, which starts at (W - shift) mod W).
  AffineExpr last = groupEnd - 1, lastShift = shiftOf(last);
  auto store = [&](AffineExpr slot, AffineExpr position, AffineExpr column,
                   AffineExpr count) {
    if (e.options.maskedEdges)
      maskedStore(load(slot, position), column, count);
    else
      scalarStores(slot, position, column, count);
  };
  for (int64_t i = 0; i < 2 * wide; ++i)
    store(last - groupStart + 1, x.cst(width + i * v),
          last * sizeR + full - lastShift + i * v, lastShift + m - i * v);
  AffineExpr firstShift = shiftOf(groupStart);
  AffineExpr before = m + (firstShift - m) % width;
  for (int64_t w = 0; w < wide; ++w)
    store(x.cst(0), before + width + w * v, groupStart * sizeR + w * v,
          (width - firstShift) % width - w * v);
}
