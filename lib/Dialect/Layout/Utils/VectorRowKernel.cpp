//===- VectorRowKernel.cpp - One vector row of the nest -------------------===//
//
// The innermost loop over [max(lbs), min(ubs)) in three parts: a masked
// vector for the elements before the first destination address aligned to
// vectorBytes, a loop of aligned vectors (vector.load of contiguous
// sources, a broadcast of sources constant along the row, one aligned -
// and for large destinations non-temporal - vector.store), a masked
// vector for the rest (LoopEmitOptions::maskedEdges = false: overlapping
// full vectors or scalar elements instead of the masked ones). The loop is
// scf.for (its bounds are runtime values: the alignment depends on the
// buffer's address). NestEmitter::emitVectorRow returns false, building
// nothing, when a source is neither contiguous nor constant along the row.
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"

#include "layout/Dialect/Layout/Utils/ChunkCopy.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/DebugLog.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

namespace mlir::layout::loops {
/// One vector row: the range and its aligned body (computeRange), the
/// realigned edges of a source walk's segment (planRealigned), the edge
/// strategy (prepareEdges), then head, body and tail.
class VectorRowKernel {
public:
  using IndexFns = NestEmitter::IndexFns;
  VectorRowKernel(NestEmitter &e, ArrayRef<Value> views,
                  ArrayRef<IndexFns> sourceIndex, ElementFn f,
                  const NestEmitter::RowTarget &target,
                  std::optional<AffineExpr> copiedFrom)
      : e(e), x(e.x), b(e.x.b), loc(e.x.loc), views(views),
        sourceIndex(sourceIndex), f(f), target(target), copiedFrom(copiedFrom),
        p(e.placeholders.back()) {}
  /// False when the row is too short or a source is neither contiguous nor
  /// constant along it.
  bool plan();
  void emit(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs);

private:
  void computeRange(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs);
  void planRealigned(ArrayRef<AffineExpr> lbs);
  void prepareEdges();
  void vectorAt(Value iv, Value count, bool edge = false);
  Value loadStrided(const NestEmitter::RowRead &read, Value view,
                    Value flatView, ArrayRef<AffineExpr> index,
                    VectorType vectorType, Value mask);
  void ifPositive(Value count, function_ref<void()> body);
  void masked(AffineExpr at, AffineExpr count);
  void scalarEdge(AffineExpr s, AffineExpr t);
  void overlapped(AffineExpr s, AffineExpr t, AffineExpr highest,
                  Value hasBody);
  void emitBody();
  void emitHead();
  void emitTail();

  NestEmitter &e;
  IndexExprs &x;
  OpBuilder &b;
  Location loc;
  ArrayRef<Value> views;
  ArrayRef<IndexFns> sourceIndex;
  ElementFn f;
  const NestEmitter::RowTarget &target;
  std::optional<AffineExpr> copiedFrom;
  AffineExpr p;
  int64_t rowLength = 0;
  SmallVector<NestEmitter::RowRead> reads;
  /// Per source: its flat view when it is read strided (null otherwise).
  SmallVector<Value> flatViews;
  bool isCopy = false, separateEdges = false;
  /// The row [lo, hi); its aligned part [a, end) (lastAligned before the
  /// clamp); the body [bodyStart, bodyEnd) and the tail from tailStart.
  AffineExpr lo, hi, a, end, lastAligned, bodyStart, bodyEnd, tailStart;
  /// The target's byte address at p = 0.
  AffineExpr row;
  std::optional<NestEmitter::RealignedEdges> realigned;
  AffineExpr headEnd;
  Value hasBody, tailHasBody;
};
} // namespace mlir::layout::loops

bool VectorRowKernel::plan() {
  std::optional<int64_t> length =
      IndexExprs::getConstant(e.physSizes[e.placeholders.size() - 1]);
  if (!length || *length < e.lanes) {
    LDBG() << "no vector row: the row is dynamic or shorter than a vector";
    return false;
  }
  rowLength = *length;
  std::optional<SmallVector<NestEmitter::RowRead>> classified =
      e.classifyRowSources(views, sourceIndex);
  if (!classified) {
    LDBG() << "no vector row: a source is neither contiguous nor constant "
              "along the row";
    return false;
  }
  reads = std::move(*classified);
  return true;
}

void VectorRowKernel::computeRange(ArrayRef<AffineExpr> lbs,
                                   ArrayRef<AffineExpr> ubs) {
  int64_t lanes = e.lanes, elementBytes = e.elementBytes;
  SmallVector<AffineExpr> lbList(lbs.begin(), lbs.end());
  if (lbList.empty())
    lbList.push_back(x.cst(0));
  lo = x.value(x.materializeMinMax(lbList, /*isMax=*/true));
  hi = x.value(x.materializeMinMax(ubs, /*isMax=*/false));
  row = target.rowAddress;
  int64_t peel = e.peelBytes(target.nontemporal);
  isCopy = copiedFrom || e.copiesElements;
  // Streaming copy rows with unmasked edges (the overlapping vectors below)
  // keep the edges' cached vectors out of the streaming lines: a head or
  // tail shorter than a vector grows by one line, so that its vectors fit
  // between the row's end and the body. A line written both
  // by a cached store and by streaming stores costs a flush of the
  // write-combining buffer (and a read for ownership): from_tiled_4093
  // with AVX2 code (its 128-float source-walk segments have two edges
  // each) ran at 0.28-0.40x memcpy that way (docs/performance.md).
  separateEdges = !e.options.maskedEdges && target.nontemporal &&
                  !target.unpeeled && isCopy;
  if (target.unpeeled) {
    a = lo;
    end = x.hoist(lo + (hi - lo).floorDiv(lanes) * lanes);
    return;
  }
  // r elements before the first aligned position, d after the last one.
  // Destination-walk copies compute the row's alignment from the terms
  // that vary modulo the peel only, so that LLVM hoists it out of the row
  // loops when every row stride is a multiple of it. Measured A/B on
  // Zen 5 (4 x 3 rounds interleaved, x memcpy, one thread): AVX2 code
  // to_tiled_4096 0.91-0.98 -> 1.07-1.18, to_tiled_4093 0.86-0.91 ->
  // 1.04-1.12. The source walk and elementwise rows keep the full
  // expression: there LLVM versioned and unrolled the loops on it (13x the
  // code) and from_tiled_4093 fell from 1.07-1.11 to 0.84-0.86x.
  AffineExpr rowMod =
      !e.plan.walksSource() && !e.plan.reordersDest() && e.copiesElements
          ? IndexExprs::dropMultiples(row, peel)
          : row;
  AffineExpr r =
      ((-(rowMod + lo * elementBytes)) % peel).floorDiv(elementBytes);
  AffineExpr d = ((rowMod + hi * elementBytes) % peel).floorDiv(elementBytes);
  AffineExpr firstAligned = lo + r;
  lastAligned = hi - d;
  if (separateEdges) {
    // An edge shorter than a vector grows by one peel: [0 < r < lanes].
    int64_t pe = peel / elementBytes;
    auto isShort = [&](AffineExpr v) {
      return (v + pe - 1).floorDiv(pe) - (v + pe - lanes).floorDiv(pe);
    };
    firstAligned = firstAligned + isShort(r) * pe;
    lastAligned = lastAligned - isShort(d) * pe;
  }
  a = x.value(x.materializeMinMax({firstAligned, hi}, /*isMax=*/false));
  end = x.value(x.materializeMinMax({lastAligned, a}, /*isMax=*/true));
}

void VectorRowKernel::planRealigned(ArrayRef<AffineExpr> lbs) {
  // The body is [bodyStart, bodyEnd); a masked or overlapped tail starts
  // at tailStart. Realigned segments of a source walk (RealignedRows.cpp):
  // the head may be the whole vector that straddles the previous segment,
  // and the tail may be left to the next segment's head.
  bodyStart = a;
  bodyEnd = end;
  tailStart = end;
  if (!e.realign || !lbs.empty() || target.unpeeled || !target.nontemporal ||
      target.memref != e.destView || !isCopy || copiedFrom ||
      views.size() != 1 || reads[0].kind != NestEmitter::RowRead::Contiguous)
    return;
  realigned = e.getRealignedEdges(lo, hi, row, sourceIndex);
  auto select = [&](Value c, AffineExpr t, AffineExpr f) {
    return x.value(
        arith::SelectOp::create(b, loc, c, x.materialize(t), x.materialize(f)));
  };
  bodyStart = select(realigned->headWhole, lo + e.lanes - realigned->m, a);
  tailStart =
      x.value(x.materializeMinMax({lastAligned, bodyStart}, /*isMax=*/true));
  bodyEnd = x.value(x.materializeMinMax(
      {select(realigned->tailLeft, hi - realigned->d, tailStart), bodyStart},
      /*isMax=*/true));
}

/// A strided source's vector at `index`: the `stride` vectors of its
/// flat view from the sub-tile's first slot (the dims after `read.dim` at
/// 0), and of them every stride-th lane from the slot the index fixes (a
/// run-time value: one shuffle per slot, selected; a constant: one). The loads
/// stay inside the sub-tiles the row reads; `mask` (lanes) covers whole
/// sub-tiles.
Value VectorRowKernel::loadStrided(const NestEmitter::RowRead &read, Value view,
                                   Value flatView, ArrayRef<AffineExpr> index,
                                   VectorType vectorType, Value mask) {
  auto viewType = cast<MemRefType>(view.getType());
  int64_t s = read.stride, lanes = e.lanes;
  // The flat slot of the sub-tile's first element, and the slot inside it
  // (the flat view's product was checked: classifyRowSource).
  SmallVector<int64_t> strides = computeSuffixProduct(viewType.getShape());
  unsigned outer = read.dim + 1;
  AffineExpr base = linearize(b.getContext(), index.take_front(outer),
                              ArrayRef(strides).take_front(outer));
  AffineExpr slot = NestEmitter::getSubTileSlot(viewType, index, read.dim);
  auto wideType = VectorType::get({lanes * s}, vectorType.getElementType());
  Value at = x.materialize(base);
  Value wide;
  if (!mask) {
    wide = vector::LoadOp::create(b, loc, wideType, flatView, ValueRange{at});
  } else {
    SmallVector<int64_t> spread;
    for (int64_t j = 0; j < lanes * s; ++j)
      spread.push_back(j / s);
    Value wideMask = vector::ShuffleOp::create(b, loc, mask, mask, spread);
    Value zero = arith::ConstantOp::create(
        b, loc, wideType, cast<TypedAttr>(b.getZeroAttr(wideType)));
    wide = vector::MaskedLoadOp::create(b, loc, wideType, flatView,
                                        ValueRange{at}, wideMask, zero);
  }
  // Shuffled as integers: LLVM scalarizes shuffles and selects of bf16
  // vectors on x86 (movzwl/cmov per lane, 2.2x slower than the scalar nest).
  Type intType = b.getIntegerType(vectorType.getElementTypeBitWidth());
  if (vectorType.getElementType() != intType)
    wide = vector::BitCastOp::create(
        b, loc, VectorType::get({lanes * s}, intType), wide);
  auto pickSlot = [&](int64_t v) {
    SmallVector<int64_t> pick;
    for (int64_t i = 0; i < lanes; ++i)
      pick.push_back(v + s * i);
    return vector::ShuffleOp::create(b, loc, wide, wide, pick);
  };
  // A constant slot (rows dispatched on it: dispatchSubTileSlots) takes
  // one shuffle.
  std::optional<int64_t> fixedSlot = IndexExprs::getConstant(x.simplify(slot));
  Value slotValue = fixedSlot ? Value() : x.materialize(slot);
  Value result;
  for (int64_t v = 0; v < s; ++v) {
    if (fixedSlot && v != *fixedSlot)
      continue;
    Value picked = pickSlot(v);
    if (!result) {
      result = picked;
      continue;
    }
    Value isSlot =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, slotValue,
                              arith::ConstantIndexOp::create(b, loc, v));
    result = arith::SelectOp::create(b, loc, isSlot, picked, result);
  }
  assert(result && "the slot is below the sub-tile's size");
  if (vectorType.getElementType() != intType)
    result = vector::BitCastOp::create(b, loc, vectorType, result);
  return result;
}

/// One vector of `lanes` at p = iv: loads (masked: only the first `count`
/// lanes when `count` is set) and the store (`edge`: unaligned, cached).
void VectorRowKernel::vectorAt(Value iv, Value count, bool edge) {
  x.bind(p, iv);
  Value mask;
  if (count)
    mask = e.lanesBelow(count);
  SmallVector<Value> loaded;
  for (auto [view, index, read, flatView] :
       llvm::zip(views, sourceIndex, reads, flatViews)) {
    SmallVector<AffineExpr> exprs;
    for (const auto &g : index)
      exprs.push_back(g());
    Type elementType = cast<MemRefType>(view.getType()).getElementType();
    auto vectorType = VectorType::get({e.lanes}, elementType);
    if (read.kind == NestEmitter::RowRead::Constant) {
      Value scalar = x.load(view, exprs);
      loaded.push_back(e.toMoveType(
          vector::BroadcastOp::create(b, loc, vectorType, scalar)));
      continue;
    }
    if (read.kind == NestEmitter::RowRead::Strided) {
      loaded.push_back(e.toMoveType(
          loadStrided(read, view, flatView, exprs, vectorType, mask)));
      continue;
    }
    SmallVector<Value> indices;
    for (AffineExpr ex : exprs)
      indices.push_back(x.materialize(ex));
    if (!mask) {
      loaded.push_back(e.toMoveType(
          vector::LoadOp::create(b, loc, vectorType, view, indices)));
      continue;
    }
    Value zero = arith::ConstantOp::create(
        b, loc, vectorType, cast<TypedAttr>(b.getZeroAttr(vectorType)));
    loaded.push_back(e.toMoveType(vector::MaskedLoadOp::create(
        b, loc, vectorType, view, indices, mask, zero)));
  }
  Value result = e.fromMoveType(
      f(b, loc, loaded),
      cast<MemRefType>(target.memref.getType()).getElementType());
  SmallVector<Value> indices;
  for (AffineExpr ex : target.index())
    indices.push_back(x.materialize(ex));
  if (mask) {
    vector::MaskedStoreOp::create(b, loc, target.memref, indices, mask, result);
    return;
  }
  auto store = vector::StoreOp::create(b, loc, result, target.memref, indices);
  if (edge)
    return;
  if (!target.unpeeled)
    store.setAlignment(static_cast<uint64_t>(e.options.vectorBytes));
  if (target.nontemporal) {
    store.setNontemporal(true);
    e.usedNontemporal = true;
  }
}

/// Runs `body` when `count` > 0.
void VectorRowKernel::ifPositive(Value count, function_ref<void()> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, count, zero);
  auto ifOp = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

/// Head [lo, a) and tail [end, hi) have fewer than `lanes` elements: one
/// masked (unaligned, cached) vector each, based in bounds at lo and end.
/// Head and tail under a branch: empty for aligned rows.
void VectorRowKernel::masked(AffineExpr at, AffineExpr count) {
  Value n = x.materialize(count);
  ifPositive(n, [&] { vectorAt(x.materialize(at), n); });
}

/// Unmasked edges (maskedEdges = false) of a copy: the edge [s, t)
/// (shorter than the peel) is covered by full unaligned cached vectors at
/// min(i, hi - lanes) for i = s, s + lanes, ...: each lies in [floor, hi),
/// where floor is lo, or the position from which a staged copy's elements
/// are already written (copiedFrom); the overlap re-writes elements with
/// the values they have. Where no full vector fits (hi - floor < lanes),
/// and for functions other than copies, scalar elements: re-computing an
/// element after its store would be wrong for an in-place operand, and
/// LLVM folds a blend into the target's vector (load, select, store) back
/// into a masked store.
void VectorRowKernel::scalarEdge(AffineExpr s, AffineExpr t) {
  x.forLoop({s}, {t}, [&](Value iv) {
    x.bind(p, iv);
    SmallVector<Value> loaded;
    for (auto [view, index] : llvm::zip(views, sourceIndex)) {
      SmallVector<AffineExpr> exprs;
      for (const auto &g : index)
        exprs.push_back(g());
      loaded.push_back(x.load(view, exprs));
    }
    x.store(f(b, loc, loaded), target.memref, target.index());
  });
}

/// The edge [s, t) by vectors that end by `highest` and start from
/// `floor` (or, with separate edges and a streaming body, from end:
/// `hasBody` is then true, and the body leaves at least a vector for each
/// edge).
void VectorRowKernel::overlapped(AffineExpr s, AffineExpr t, AffineExpr highest,
                                 Value hasBody) {
  if (!isCopy) {
    scalarEdge(s, t);
    return;
  }
  AffineExpr floor = copiedFrom ? *copiedFrom : lo;
  Value count = x.materialize(t - s);
  ifPositive(count, [&] {
    Value fits = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge, x.materialize(hi - floor),
        arith::ConstantIndexOp::create(b, loc, e.lanes));
    if (hasBody)
      fits = arith::OrIOp::create(b, loc, hasBody, fits);
    auto ifOp = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    AffineExpr last = x.hoist(highest - e.lanes);
    x.forLoop(
        {s}, {t},
        [&](Value iv) {
          AffineExpr at = x.value(
              x.materializeMinMax({x.value(iv), last}, /*isMax=*/false));
          vectorAt(x.materialize(at), Value(), /*edge=*/true);
        },
        e.lanes);
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    scalarEdge(s, t);
  });
}

/// The aligned body [bodyStart, bodyEnd), getVectorRowUnroll vectors per
/// iteration (layout/Xla/KernelPlan.h), then one at a time.
void VectorRowKernel::emitBody() {
  int64_t lanes = e.lanes;
  int64_t unroll = getVectorRowUnroll(
      e.plan.walksSource() || e.plan.reordersDest(), rowLength, lanes);
  AffineExpr start = bodyStart, stop = bodyEnd;
  if (unroll == 1) {
    x.forLoop({start}, {stop}, [&](Value iv) { vectorAt(iv, Value()); }, lanes);
    return;
  }
  int64_t step = lanes * unroll;
  AffineExpr mid = x.hoist(start + (stop - start).floorDiv(step) * step);
  x.forLoop(
      {start}, {mid},
      [&](Value iv) {
        for (int64_t u = 0; u < unroll; ++u)
          vectorAt(x.materialize(x.value(iv) + u * lanes), Value());
      },
      step);
  x.forLoop({mid}, {stop}, [&](Value iv) { vectorAt(iv, Value()); }, lanes);
}

void VectorRowKernel::prepareEdges() {
  headEnd = hi;
  // With separate edges, the head's vectors end by a and the tail's start
  // from end when the row has a streaming body (a < end); else anywhere in
  // [floor, hi). (A realigned head: the tail's body is [bodyStart,
  // tailStart).)
  if (e.options.maskedEdges || !separateEdges)
    return;
  auto less = [&](AffineExpr l, AffineExpr r) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                 x.materialize(l), x.materialize(r));
  };
  hasBody = less(a, end);
  tailHasBody = realigned ? less(bodyStart, tailStart) : hasBody;
  headEnd = x.value(arith::SelectOp::create(b, loc, hasBody, x.materialize(a),
                                            x.materialize(hi)));
}

void VectorRowKernel::emitHead() {
  if (target.unpeeled)
    return;
  if (e.options.maskedEdges)
    masked(lo, a - lo);
  else
    overlapped(lo, a, headEnd, hasBody);
}

void VectorRowKernel::emitTail() {
  if (e.options.maskedEdges)
    masked(tailStart, hi - tailStart);
  else
    overlapped(tailStart, hi, hi, tailHasBody);
}

void VectorRowKernel::emit(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs) {
  for (auto [view, read] : llvm::zip(views, reads))
    flatViews.push_back(read.kind == NestEmitter::RowRead::Strided
                            ? getFlatView(b, loc, view)
                            : Value());
  computeRange(lbs, ubs);
  planRealigned(lbs);
  prepareEdges();
  if (!realigned) {
    emitHead();
    emitBody();
    emitTail();
    return;
  }
  {
    auto ifOp = scf::IfOp::create(b, loc, realigned->headWhole,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    e.emitRealignedHead(*realigned, lo, target);
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    emitHead();
  }
  emitBody();
  auto ifOp =
      scf::IfOp::create(b, loc, realigned->tailLeft, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  emitTail();
}

bool NestEmitter::emitVectorRow(ArrayRef<AffineExpr> lbs,
                                ArrayRef<AffineExpr> ubs, ArrayRef<Value> views,
                                ArrayRef<IndexFns> sourceIndex, ElementFn f,
                                const RowTarget &target,
                                std::optional<AffineExpr> copiedFrom) {
  VectorRowKernel kernel(*this, views, sourceIndex, f, target, copiedFrom);
  if (!kernel.plan())
    return false;
  if (!copiedFrom)
    report.add(copiesElements ? NestKernel::RowCopy : NestKernel::VectorRows);
  // Scalar index math and loops from here (runtime bounds).
  LoopKind savedKind = x.kind;
  x.kind = LoopKind::SCF;
  llvm::scope_exit restore([&] { x.kind = savedKind; });
  kernel.emit(lbs, ubs);
  return true;
}
