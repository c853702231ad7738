//===- RealignedRows.cpp - Straddling vectors of a source walk ------------===//
//
// A source walk (NestEmitter::prepareSourceWalk) from a tiled source writes
// each source row (a segment: one run of a destination row) as a vector
// row of the destination. When the destination's rows are not
// vector-aligned (f32[4093,4099] row-major: a row is 16396 bytes), every
// segment starts and ends inside a 64-byte line, and the masked head and
// tail of each segment wrote that line twice with cached stores: two
// partial lines per 512-byte segment. Realigned, the segment that starts
// inside a line writes the whole straddling vector (the previous segment's
// last elements and its own first ones), aligned and streaming, and the
// previous segment leaves its tail to it; only the two ends of a
// destination row keep masked edges.
//
// The previous segment's elements are read back from the source (the
// previous source row of the destination row, read shortly before: L1 or
// L2). Measured on Zen 5, f32[4093,4099] {1,0:T(8,128)} -> row-major:
// standalone C++ loops (AVX-512, one thread) 36-38 GB/s with masked edges,
// 43-48 realigned, memcpy 43-48; the benchmark's from_tiled_4093, A/B
// interleaved, 0.84-0.90 -> 1.02-1.19x memcpy on one thread (AVX2 code
// 0.82-0.87 -> 1.13-1.23x) (docs/performance.md, "Realigned segments").
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"

#include "layout/Dialect/Layout/IR/AffineIndexOps.h"
#include "layout/Dialect/Layout/Utils/ChunkCopy.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

void NestEmitter::prepareRealign() {
  // Streaming rows of at least a 64-byte line per vector (the straddling
  // vector is one line), from a tiled source.
  if (!plan.walksSource() || plan.walksRuns() || !lanes || !nontemporal ||
      sources.size() != 1 || !sources[0].map || options.vectorBytes < 64)
    return;
  auto destType = cast<MemRefType>(destView.getType());
  auto srcType = cast<MemRefType>(sources[0].view.getType());
  int64_t rank = destType.getRank();
  if (rank < 2 ||
      (destStrides[rank - 2] * elementBytes) % options.vectorBytes == 0)
    return;
  // Segments of whole vectors: a segment that has a successor in its
  // destination row is whole (only the row's last one is cut by a bound
  // check), so the straddling vector's elements before a segment lie in
  // the previous segment, contiguous in the source.
  if (srcType.getShape().back() % lanes)
    return;
  // The destination's column is the logical dim the row moves (an untiled
  // or permuted destination).
  int64_t movingDim = analyzeRowRuns().movingDim;
  if (movingDim < 0 ||
      x.simplify(destIndex.back() - logical[movingDim]) != x.cst(0))
    return;
  realign = Realign{movingDim, Value()};
}

Value NestEmitter::lanesBelow(Value count) {
  OpBuilder &b = x.b;
  auto laneType = VectorType::get({lanes}, b.getI32Type());
  SmallVector<int32_t> laneIds(lanes);
  std::iota(laneIds.begin(), laneIds.end(), 0);
  Value ids = arith::ConstantOp::create(
      b, x.loc, laneType, DenseElementsAttr::get(laneType, ArrayRef(laneIds)));
  Value n = arith::IndexCastOp::create(b, x.loc, b.getI32Type(), count);
  return arith::CmpIOp::create(
      b, x.loc, arith::CmpIPredicate::slt, ids,
      vector::BroadcastOp::create(b, x.loc, laneType, n));
}

NestEmitter::RealignedEdges
NestEmitter::getRealignedEdges(AffineExpr lo, AffineExpr hi, AffineExpr row,
                               ArrayRef<IndexFns> sourceIndex) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  auto srcType = cast<MemRefType>(sources[0].view.getType());
  SmallVector<int64_t> strides = computeStrides(srcType.getShape());
  int64_t vb = options.vectorBytes;
  AffineExpr p = placeholders.back();
  RealignedEdges edges;
  edges.m = x.hoist(((row + lo * elementBytes) % vb).floorDiv(elementBytes));
  edges.d = x.hoist(((row + hi * elementBytes) % vb).floorDiv(elementBytes));
  AffineExpr col = destIndex.back();
  AffineExpr colLo = x.simplify(col.replace(p, lo));
  AffineExpr colHi = x.simplify(col.replace(p, hi));
  // The segment's flat source index at lo, and the flat source index of the
  // logical element m before it along the destination row (in the
  // previous segment; placed by the source's index map).
  SmallVector<AffineExpr> headIndex;
  for (const auto &f : sourceIndex[0])
    headIndex.push_back(f().replace(p, lo));
  edges.headFlat =
      x.hoist(x.simplify(linearize(x.context, headIndex, strides)));
  SmallVector<AffineExpr> prevLogical;
  for (AffineExpr e : logical)
    prevLogical.push_back(x.simplify(e.replace(p, lo)));
  prevLogical[realign->movingDim] = prevLogical[realign->movingDim] - edges.m;
  AffineIndexOps ops{x.context};
  SmallVector<AffineExpr> prevIndex(
      sources[0].map->apply<AffineExpr>(prevLogical, ops));
  edges.prevFlat = x.simplify(linearize(x.context, prevIndex, strides));

  // e >= 0 as i1 (every condition is an affine expression >= 0); null when
  // it holds statically.
  auto nonNegative = [&](AffineExpr e) -> Value {
    if (std::optional<int64_t> c = IndexExprs::getConstant(x.simplify(e))) {
      if (*c >= 0)
        return Value();
      return arith::ConstantIntOp::create(b, loc, /*value=*/0, /*width=*/1);
    }
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                 x.materialize(e),
                                 arith::ConstantIndexOp::create(b, loc, 0));
  };
  auto all = [&](ArrayRef<Value> conditions) {
    Value v;
    for (Value c : conditions)
      if (c)
        v = v ? arith::AndIOp::create(b, loc, v, c).getResult() : c;
    return v ? v : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
  };
  int64_t rowEnd =
      cast<MemRefType>(destView.getType()).getShape().back() - lanes;
  // The head is the whole straddling vector when the segment starts inside
  // a line (m > 0) that lies in the destination row (col - m >= 0, col - m
  // + lanes <= R). Full loads without masks (masked-edges=false targets)
  // also need the previous segment's read to stay in the buffer.
  SmallVector<Value> head{nonNegative(edges.m - 1),
                          nonNegative(colLo - edges.m),
                          nonNegative(x.cst(rowEnd) - colLo + edges.m)};
  if (!options.maskedEdges)
    head.push_back(
        nonNegative(x.cst(srcType.getNumElements() - lanes) - edges.prevFlat));
  edges.headWhole = all(head);
  // The tail goes to the next segment under the same conditions, seen from
  // here: the segment is whole (the next one starts the next run), the
  // next one's m is d and its column colHi; its previous elements start
  // at hi - d here.
  SmallVector<Value> tail{nonNegative(edges.d - 1),
                          nonNegative(hi - srcType.getShape().back()),
                          nonNegative(x.cst(rowEnd) - colHi + edges.d)};
  if (!options.maskedEdges)
    tail.push_back(nonNegative(x.cst(srcType.getNumElements() - lanes) -
                               (edges.headFlat + hi - lo - edges.d)));
  edges.tailLeft = all(tail);
  return edges;
}

void NestEmitter::emitRealignedHead(const RealignedEdges &edges, AffineExpr lo,
                                    const RowTarget &target) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  Realign &r = *realign;
  if (!r.flatSource) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(sources[0].view);
    r.flatSource = getFlatView(b, loc, sources[0].view);
  }
  Type elementType =
      cast<MemRefType>(sources[0].view.getType()).getElementType();
  auto vectorType = VectorType::get({lanes}, elementType);
  Value mask = lanesBelow(x.materialize(edges.m));
  Value prevIndex = x.materialize(edges.prevFlat);
  Value prev;
  if (options.maskedEdges) {
    Value zero = arith::ConstantOp::create(
        b, loc, vectorType, cast<TypedAttr>(b.getZeroAttr(vectorType)));
    prev = vector::MaskedLoadOp::create(b, loc, vectorType, r.flatSource,
                                        prevIndex, mask, zero);
  } else {
    prev = vector::LoadOp::create(b, loc, vectorType, r.flatSource, prevIndex);
  }
  // This segment's elements from lane m: the read starts m elements before
  // the segment, inside the buffer (a segment with a previous one in its
  // destination row is not the source's first row: it starts at a nonzero
  // multiple of the segment length, at least a vector).
  Value cur = vector::LoadOp::create(
      b, loc, vectorType, r.flatSource,
      ValueRange{x.materialize(edges.headFlat - edges.m)});
  Value merged =
      arith::SelectOp::create(b, loc, mask, toMoveType(prev), toMoveType(cur));
  Value result = fromMoveType(
      merged, cast<MemRefType>(target.memref.getType()).getElementType());
  x.bind(placeholders.back(), x.materialize(lo - edges.m));
  SmallVector<Value> indices;
  for (AffineExpr e : target.index())
    indices.push_back(x.materialize(e));
  auto store = vector::StoreOp::create(b, loc, result, target.memref, indices);
  store.setAlignment(static_cast<uint64_t>(options.vectorBytes));
  store.setNontemporal(true);
  usedNontemporal = true;
}
