//===- TransposeBlockReads.cpp - The source side of the blocks ------------===//
//
// How the blocked transpose (TransposeBlocks.cpp) reads its sources: per
// block and source, V vectors along p_k transposed in registers (a
// crossing source), one vector per destination row (contiguous along it)
// or one broadcast element (constant along it); the prefetches; and the
// interleaved runs of a `(q,1)` sub-tiled source, whose q rows of a run
// sit in consecutive slots: one vector of q V slots per run, each row's
// lanes u, u + q, ... picked by a shuffle (bf16 `{1,0:T(8,128)(2,1)}` ->
// `{0,1}` at odd extents, where no 32-bit groups exist: docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"
#include "TransposeBlocks.h"

#include "layout/Dialect/Layout/Utils/ChunkCopy.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

/// The innermost dim of `view` whose extent is not 1 (a `(2,1)` sub-tile's
/// physical dims end in [..., 2, 1]), or -1.
static int64_t getInnermostRun(MemRefType view) {
  if (!view.hasStaticShape())
    return -1;
  ArrayRef<int64_t> shape = view.getShape();
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d)
    if (shape[d] != 1)
      return d;
  return -1;
}

/// Steps that move along dim `d` only, by `step`.
static bool movesAlongOnly(ArrayRef<int64_t> steps, int64_t d, int64_t step) {
  for (auto [i, s] : llvm::enumerate(steps))
    if (s != (static_cast<int64_t>(i) == d ? step : 0))
      return false;
  return true;
}

/// The rows q per run of `view` along `pr`: its innermost dim of more than
/// one slot has a static extent 2 <= q <= 8 and e(pr + u) = e(pr) + u for
/// u < q when pr is a multiple of q (a `(q,1)` sub-tile: rows q t .. q t +
/// q - 1 of a column in q consecutive slots); 0 when not.
static int64_t getRowInterleave(ArrayRef<AffineExpr> index, MemRefType view,
                                AffineExpr pr) {
  int64_t run = getInnermostRun(view);
  if (run < 1)
    return 0;
  int64_t q = view.getDimSize(run);
  if (q > 8)
    return 0;
  std::optional<SmallVector<int64_t>> inRun = getAlignedSteps(index, pr, q);
  return inRun && movesAlongOnly(*inRun, run, 1) ? q : 0;
}

int64_t loops::getInterleave(ArrayRef<AffineExpr> index, MemRefType view,
                             AffineExpr pk, AffineExpr pr, int64_t side) {
  // Runs short against the block (a (2,1) or (4,1) sub-tile read in
  // blocks of 16 or 32), not tiles whose rows are the runs: f32 T(8,8) ->
  // {1,0} reads its 8-element tile rows as rows (side 8, q 8).
  int64_t q = getRowInterleave(index, view, pr);
  if (!q || side % q != 0 || side < 4 * q)
    return 0;
  std::optional<SmallVector<int64_t>> alongK = getAlignedSteps(index, pk, side);
  if (!alongK || (*alongK)[getInnermostRun(view)] != 0)
    return 0;
  std::optional<int64_t> linear = getLinearStep(*alongK, view.getShape());
  return linear == q ? q : 0;
}

int64_t loops::getLargestInterleavedSide(ArrayRef<AffineExpr> index,
                                         MemRefType view, AffineExpr pk,
                                         AffineExpr pr) {
  for (int64_t side = 64; side >= 4; side /= 2)
    if (getInterleave(index, view, pk, pr, side))
      return side;
  return 0;
}

SmallVector<SmallVector<Value>> TransposeBlockKernel::readBlock(unsigned n,
                                                                bool fullR) {
  const NestEmitter::Source &source = e.sources[n];
  const SourceRead &read = reads[n];
  Type type = cast<MemRefType>(source.view.getType()).getElementType();
  VectorType vectorType = VectorType::get({v}, type);
  SmallVector<SmallVector<Value>> parts;
  runs.clear();
  for (int64_t w = 0; w < wide; ++w) {
    SmallVector<Value> rows;
    for (int64_t row = 0; row < v; ++row) {
      // A row or a splat: destination row `row`'s own vector or element.
      if (read.kind != Read::Block) {
        SmallVector<AffineExpr> exprs;
        for (AffineExpr ex : source.index)
          exprs.push_back(ex.replace(pk, pk + row).replace(pr, pr + w * v));
        if (read.kind == Read::Splat) {
          rows.push_back(e.toMoveType(vector::BroadcastOp::create(
              b, loc, vectorType, x.load(source.view, exprs))));
          continue;
        }
        if (rowPrefetch && (w * v * e.elementBytes) % 64 == 0)
          prefetchAlongRow(n, row, w * v + rowPrefetch);
        SmallVector<Value> indices;
        for (AffineExpr ex : exprs)
          indices.push_back(x.materialize(ex));
        rows.push_back(e.toMoveType(
            vector::LoadOp::create(b, loc, vectorType, source.view, indices)));
        continue;
      }
      if (read.interleave > 1) {
        rows.push_back(readInterleavedRow(n, w * v + row, fullR));
        continue;
      }
      if (prefetchRows)
        prefetchRow(n, w * v + row);
      if (lineStart) {
        rows.push_back(readStagedLine(vectorType, w * v + row));
        continue;
      }
      // Inside an aligned block of a tiled source, the block's first index
      // plus constant steps (no division per row; each of the `wide` blocks
      // is aligned on its own); the overlapping edge block is not aligned:
      // each row's own index.
      if (flatRows) {
        rows.push_back(e.toMoveType(vector::LoadOp::create(
            b, loc, vectorType, source.view, flatRowIndices(n, w * v + row))));
        continue;
      }
      SmallVector<Value> indices;
      for (auto [d, ex] : llvm::enumerate(source.index))
        indices.push_back(x.materialize(
            read.alignedR && fullR
                ? ex.replace(pr, pr + w * v) + (read.offsetsR.empty()
                                                    ? read.stepsR[d] * row
                                                    : read.offsetsR[row][d])
                : ex.replace(pr, pr + (w * v + row))));
      rows.push_back(e.toMoveType(
          vector::LoadOp::create(b, loc, vectorType, source.view, indices)));
    }
    parts.push_back(rows);
  }
  if (read.kind != Read::Block)
    return parts;
  return transposeSideBySide(b, loc, parts, blocksPerVector);
}

Value TransposeBlockKernel::readInterleavedRow(unsigned n, int64_t row,
                                               bool fullR) {
  const NestEmitter::Source &source = e.sources[n];
  const SourceRead &read = reads[n];
  int64_t q = read.interleave;
  // The block's first row p_r is a multiple of V (full blocks) or the
  // overlapping last block's sizeR - width (blockLoop, rowBlocks): the
  // row's slot u in its run is known here, and the run starts u rows back
  // (inside the plane: the block's first row is at least its own u).
  int64_t start = fullR ? 0 : sizeR - width;
  int64_t u = (start + row) % q, first = row - u;
  auto [it, inserted] = runs.try_emplace(first, Value());
  if (inserted) {
    // The q V slots run past the view's innermost dims (a sub-tile's
    // [..., q, 1]): read through its flat view, at the linearized index.
    auto type = cast<MemRefType>(source.view.getType());
    SmallVector<AffineExpr> exprs;
    for (auto [d, ex] : llvm::enumerate(source.index))
      exprs.push_back(fullR ? ex.replace(pr, pr + (first - first % v)) +
                                  read.offsetsR[first % v][d]
                            : ex.replace(pr, pr + first));
    SmallVector<int64_t> strides = *getCheckedStrides(type.getShape());
    Value index = x.materialize(linearize(b.getContext(), exprs, strides));
    if (prefetchRows)
      prefetchRow(n, first);
    it->second = e.toMoveType(vector::LoadOp::create(
        b, loc, VectorType::get({q * v}, type.getElementType()), read.flatView,
        index));
  }
  SmallVector<int64_t> lanes;
  for (int64_t j = 0; j < v; ++j)
    lanes.push_back(u + q * j);
  return vector::ShuffleOp::create(b, loc, it->second, it->second, lanes);
}

/// Prefetches the vector of `source` that the block prefetchRows rows
/// further along p_r reads as its row `row` (clamped to the plane: a
/// prefetch never leaves the buffer), into L1, or into L2 where the source
/// lines are staged (TransposeBlockPlan::lineStageBytes: a group ahead is
/// twice the L1 there).
void TransposeBlockKernel::prefetchRow(unsigned n, int64_t row) {
  SmallVector<Value> indices;
  if (flatRows) {
    AffineExpr ahead = x.value(x.materializeMinMax(
        {pr + (row + prefetchRows), x.cst(sizeR - 1)}, /*isMax=*/false));
    for (AffineExpr ex : e.sources[n].index)
      indices.push_back(x.materialize(ex.replace(splitFlat(ahead))));
  } else {
    // The block's rows prefetchRows ahead, clamped as a whole (the last
    // block's rows at the end): one clamped base per block and constant
    // offsets, not a clamp per row (with 32 rows of two sources the
    // per-row clamps and pointers spilled general registers). A short
    // plane (wrapPrefetch: a tile's rows) wraps past its end to the next
    // group's first rows (p_k one group on, clamped to the last block),
    // which the group loop reads next; there an interleaved run's first
    // row may precede the overlapping last block (`row` < 0) while the
    // wrapped base may be 0: clamped at the plane's start.
    AffineExpr ahead = pr + prefetchRows;
    AffineExpr base = x.value(x.materializeMinMax(
        {wrapPrefetch ? ahead % sizeR : ahead, x.cst(sizeR - width)},
        /*isMax=*/false));
    AffineExpr k = pk;
    int64_t offset = row;
    if (wrapPrefetch) {
      k = x.value(x.materializeMinMax(
          {pk + ahead.floorDiv(sizeR) * group, x.cst(sizeK - v)},
          /*isMax=*/false));
      offset = std::max<int64_t>(row, 0);
    }
    for (AffineExpr ex : e.sources[n].index)
      indices.push_back(
          x.materialize(ex.replace(pr, base + offset).replace(pk, k)));
  }
  memref::PrefetchOp::create(b, loc, e.sources[n].view, indices,
                             /*isWrite=*/false,
                             /*localityHint=*/lineSpan ? 1 : 3,
                             /*isDataCache=*/true);
}

/// Prefetches into L2 (locality 1: prefetcht2 on x86) the line of row-read
/// `source` that destination row `row` of the block reads `ahead` elements
/// further along p_r (clamped to the plane).
void TransposeBlockKernel::prefetchAlongRow(unsigned n, int64_t row,
                                            int64_t ahead) {
  assert(!flatRows && "flat rows read no source along the row");
  AffineExpr at = x.value(
      x.materializeMinMax({pr + ahead, x.cst(sizeR - 1)}, /*isMax=*/false));
  SmallVector<Value> indices;
  for (AffineExpr ex : e.sources[n].index)
    indices.push_back(x.materialize(ex.replace(pk, pk + row).replace(pr, at)));
  memref::PrefetchOp::create(b, loc, e.sources[n].view, indices,
                             /*isWrite=*/false,
                             /*localityHint=*/1, /*isDataCache=*/true);
}
