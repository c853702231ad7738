//===- StagedSourceLines.cpp - A crossing source's lines staged in L1 -----===//
//
// The blocks of 8-bit elements read 64 source rows at once (4 x 16 x 16),
// a quarter line of each per block. Rows about a page apart (u8[4093,4099]:
// 4,099 bytes) fall into 3 or 4 of the L1's 64 sets, whose 8 ways each cannot
// hold the block's 64 lines: every line is read from L2 again by each
// block that takes part of it. Staged, each group's p_k blocks go in spans
// of TransposeBlockPlan::lineStageBytes: per span the block's `width`
// source rows are copied first, whole vectors along each row, into a
// per-thread buffer of width x span contiguous bytes (every L1 set alike),
// and the span's blocks read the buffer. The plan (when, the span) is
// TransposeBlockPlan::lineStageBytes (layout/Xla/KernelPlan.h). Where
// the blocks prefetch nothing, each span's copy prefetches the span of the
// rows TransposeBlockPlan::linePrefetchRows further along p_r.
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

void TransposeBlockKernel::spanBlocks(AffineExpr g0, AffineExpr end,
                                      function_ref<void()> block) {
  x.forLoop(
      {g0}, {g0 + group, end},
      [&](Value s) {
        AffineExpr s0 = x.value(s);
        // The span's copy stays inside the plane: where fewer than a span
        // of blocks are left, it copies the span that ends at `end` (the
        // plane's full blocks are at least a span: planTransposeBlocks;
        // a parallel chunk's end may be below one: clamped at 0).
        AffineExpr start = x.value(x.materializeMinMax(
            {x.value(x.materializeMinMax({s0, end - lineSpan},
                                         /*isMax=*/false)),
             x.cst(0)},
            /*isMax=*/true));
        copyLines(start);
        lineStart = start;
        x.forLoop(
            {s0}, {s0 + lineSpan, g0 + group, end},
            [&](Value iv) {
              x.bind(pk, iv);
              block();
            },
            v);
        lineStart.reset();
      },
      lineSpan);
}

void TransposeBlockKernel::copyLines(AffineExpr start) {
  // (The plan stages one source read in blocks of plain rows:
  // planTransposeBlocks.)
  assert(e.sources.size() == 1 && reads.front().kind == Read::Block &&
         reads.front().interleave == 1 && !reads.front().alignedR &&
         !flatRows && "staged lines of one plain crossing source");
  const NestEmitter::Source &source = e.sources.front();
  Type type = cast<MemRefType>(source.view.getType()).getElementType();
  auto vectorType = VectorType::get({e.lanes}, type);
  auto bits = VectorType::get(
      {e.lanes}, IntegerType::get(b.getContext(), 8 * e.elementBytes));
  x.forLoop({}, {x.cst(width)}, [&](Value t) {
    AffineExpr row = x.value(t);
    for (int64_t q = 0; q < lineSpan; q += e.lanes) {
      SmallVector<Value> indices;
      for (AffineExpr ex : source.index)
        indices.push_back(
            x.materialize(ex.replace(pk, start + q).replace(pr, pr + row)));
      Value vector =
          vector::LoadOp::create(b, loc, vectorType, source.view, indices);
      if (vectorType != bits)
        vector = vector::BitCastOp::create(b, loc, bits, vector);
      vector::StoreOp::create(b, loc, vector, lineStage,
                              {t, x.materialize(x.cst(q))});
      // (One prefetch per line of the span: 32-byte vectors copy two.)
      if (linePrefetchRows && (q * e.elementBytes) % 64 == 0)
        prefetchLineAhead(row, start + q);
    }
  });
}

void TransposeBlockKernel::prefetchLineAhead(AffineExpr row, AffineExpr at) {
  // The row linePrefetchRows further along p_r: within the plane, the row
  // the next block copies. Plain rows: each index is linear in p_r, so
  // past the plane's end it is the next plane's row where the source holds
  // it (a row-major source into tiles: the next tile's rows, copied a tile
  // pass later and held in L2 until then: measured faster than the next
  // group's first rows, which the group loop copies next, as prefetchRow
  // wraps; docs/performance.md, "Prefetching staged lines"), and the
  // source's last row where it does not (a plane that is the source's
  // whole dim). Each index that moves with p_r is clamped to its dim (a
  // prefetch never leaves the buffer); the others are the copy's own.
  const NestEmitter::Source &source = e.sources.front();
  SmallVector<Value> indices;
  for (auto [d, ex] : llvm::enumerate(source.index)) {
    AffineExpr copied = ex.replace(pk, at);
    AffineExpr ahead =
        x.simplify(copied.replace(pr, pr + row + linePrefetchRows));
    indices.push_back(
        ahead == x.simplify(copied)
            ? x.materialize(ahead)
            : x.materializeMinMax({ahead, x.cst(viewType.getDimSize(d) - 1)},
                                  /*isMax=*/false));
  }
  memref::PrefetchOp::create(b, loc, source.view, indices, /*isWrite=*/false,
                             /*localityHint=*/1, /*isDataCache=*/true);
}

Value TransposeBlockKernel::readStagedLine(VectorType vectorType, int64_t row) {
  auto bits = VectorType::get(
      {v}, IntegerType::get(b.getContext(), 8 * e.elementBytes));
  Value vector = vector::LoadOp::create(
      b, loc, bits, lineStage,
      {x.materialize(x.cst(row)), x.materialize(pk - *lineStart)});
  if (vectorType != bits)
    vector = vector::BitCastOp::create(b, loc, vectorType, vector);
  return e.toMoveType(vector);
}
