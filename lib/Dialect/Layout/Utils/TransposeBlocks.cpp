//===- TransposeBlocks.cpp - Blocked in-register transposes ---------------===//
//
// Copies whose destination rows read the source with a constant stride != 1
// (f32[64,64]{1,0} -> {0,1}, the permutations that move the fastest-varying
// dim) would otherwise be scalar loops. Instead, with p_k the destination's
// physical dim along which the source is contiguous and p_r the innermost
// one, the (p_k, p_r) plane is cut into V x V blocks: per block, V source
// vectors (p_r = D + i, p_k = J .. J + V - 1), a transpose in registers, V
// destination vectors (p_k = J + j, p_r = D .. D + V - 1) stored aligned
// and, above the non-temporal threshold, streaming. The dims between k and
// r are plain loops outside the plane (their order: orderMiddleDims in
// TransposeBlockPlanning.cpp).
//
// Edges: sizes that are not multiples of V take one more block that
// overlaps the previous one (the same values are written twice; copies
// only), unaligned and cached. Dims shorter than V take smaller blocks,
// down to 4 x 4; shorter ones keep the scalar nest. Destination rows that
// do not start on a line stream realigned (RealignedTransposeRows.cpp),
// flattened with the dim outside them when they are not whole lines
// (FlatTransposeRows.cpp). The plan (block side, width, middle dims,
// parallel chunks) is made in TransposeBlockPlanning.cpp; the reads of a
// block's sources (and the interleaved runs of sub-tiled ones) are in
// TransposeBlockReads.cpp, the stores of its rows in
// TransposeBlockStores.cpp, the transpose in registers in
// RegisterTranspose.cpp.
//
//===----------------------------------------------------------------------===//

#include "TransposeBlocks.h"
#include "TransposeBlockKernel.h"

#include "layout/Dialect/Layout/Utils/ChunkCopy.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/DebugLog.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

/// One block at the bound p_k = J, p_r = D (D a multiple of V when
/// `fullR`).
void TransposeBlockKernel::emitBlock(bool fullR, bool alignedStores) {
  // Flat rows: the block's first column's row and offset in it, once.
  if (flatRows && flatRowSize >= width) {
    flatQuotient = x.materialize(pr.floorDiv(flatRowSize));
    flatRem = x.materialize(pr % flatRowSize);
  }
  // [source][w][j]: each source's vectors of destination row j.
  SmallVector<SmallVector<SmallVector<Value>>> parts;
  for (unsigned n = 0; n < e.sources.size(); ++n)
    parts.push_back(readBlock(n, fullR));
  // Realigned rows whose shifts depend on the block's first row's shift:
  // one case per set (the same blocks, each with its rows' shifts).
  if (part) {
    emitShiftCases([&](ArrayRef<int64_t> rowShifts) {
      storeRows(parts, alignedStores, rowShifts);
    });
    return;
  }
  storeRows(parts, alignedStores, {});
}

/// Without realigned rows, the full p_r blocks, then one that ends at
/// sizeR. With them (and `realigning`): the head block at p_r = 0, the
/// full blocks after it (every row's aligned vectors), the last vector of
/// each shifted row (its carry, unaligned), then the overlapping last
/// block. With masked edges the head, carry and last block store only the
/// lanes outside the streamed lines (storeOutsideStream); unmasked they
/// store whole vectors over the stream, with the same values. A column
/// chunk is such a row of its own: its head at its first column (a
/// multiple of W: the same shifts), its carry after its last full block,
/// and the overlapping last block in the last chunk only; each chunk
/// stores its own columns, whose boundary lines it shares with the next
/// chunk's head (masked or cached: no line is streamed by two threads).
void TransposeBlockKernel::rowBlocks(
    function_ref<void(function_ref<void()>, bool reads)> eachK,
    bool alignedRows) {
  auto blocks = [&](bool fullR, bool aligned) {
    eachK([&] { emitBlock(fullR, aligned); }, /*reads=*/true);
  };
  if (!realigning) {
    columnBlocks([&](bool fullR) {
      blocks(fullR, alignedRows && fullR);
      if (staging)
        streamPending(stageLinesPerBlock());
    });
    return;
  }
  int64_t full = sizeR / width * width;
  AffineExpr first = columnRange ? columnRange->first : x.cst(0);
  AffineExpr end = columnRange ? columnRange->second : x.cst(full);
  x.bind(pr, x.materialize(first));
  part = Part::Head;
  columnOrigin = first;
  blocks(/*fullR=*/true, /*aligned=*/true);
  columnOrigin = AffineExpr();
  part = Part::Body;
  x.forLoop(
      {first + width}, {end},
      [&](Value iv) {
        x.bind(pr, iv);
        blocks(/*fullR=*/true, /*aligned=*/true);
      },
      width);
  part.reset();
  // The carried vectors past the last full block and the edge block: with
  // masked edges or junction lines only their lanes after the stream (the
  // shifts of each case; junction lines take the lanes into the gaps
  // buffer, merged without masked stores on any target). Otherwise every
  // lane, like the unrealigned edge.
  bool lanesAfterStream = e.options.maskedEdges || junctions;
  auto flush = [&](ArrayRef<int64_t> rowShifts) {
    for (int64_t j = 0; j < v; ++j) {
      // (Rows that never shift keep no carry.)
      if (!isCarried(j))
        continue;
      for (auto [w, value] : llvm::enumerate(loadCarry(j)))
        storeOutsideStream(e.fromMoveType(value, elementType), j,
                           full - width + static_cast<int64_t>(w) * v,
                           rowShifts[j]);
    }
  };
  // (Columns as at the row's end: the chunk's end is a multiple of W.)
  columnOrigin = columnRange ? end - full : AffineExpr();
  eachK(
      [&] {
        if (lanesAfterStream)
          emitShiftCases(flush);
        else
          flush(shifts[0]);
      },
      /*reads=*/false);
  columnOrigin = AffineExpr();
  if (sizeR % width)
    emitIf(lastColumnChunk, [&] {
      x.bind(pr, arith::ConstantIndexOp::create(b, loc, sizeR - width));
      if (lanesAfterStream)
        part = Part::Edge;
      blocks(/*fullR=*/false, /*aligned=*/false);
      part.reset();
    });
  if (junctions)
    writeJunctions();
}

void TransposeBlockKernel::columnBlocks(function_ref<void(bool full)> body) {
  if (!columnRange) {
    blockLoop(pr, sizeR, width, body);
    return;
  }
  x.forLoop(
      {columnRange->first}, {columnRange->second},
      [&](Value iv) {
        x.bind(pr, iv);
        body(true);
      },
      width);
  // (The chunks cover the full blocks; the last also the edge block.)
  if (sizeR % width)
    emitIf(lastColumnChunk, [&] {
      x.bind(pr, arith::ConstantIndexOp::create(b, loc, sizeR - width));
      body(false);
    });
}

Value TransposeBlockKernel::isLastChunk(Value chunk, int64_t count) {
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, chunk,
      arith::ConstantIndexOp::create(b, loc, count - 1));
}

void TransposeBlockKernel::emitIf(Value condition, function_ref<void()> body) {
  if (!condition) {
    body();
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, condition);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body();
}

/// The blocks of one (p_k, p_r) plane along `slot`: the full ones, then
/// one that ends at `size`, overlapping the previous one.
void TransposeBlockKernel::blockLoop(AffineExpr slot, int64_t size,
                                     int64_t step,
                                     function_ref<void(bool full)> body) {
  x.forLoop(
      {}, {x.cst(size / step * step)},
      [&](Value iv) {
        x.bind(slot, iv);
        body(true);
      },
      step);
  if (size % step) {
    x.bind(slot, arith::ConstantIndexOp::create(b, loc, size - step));
    body(false);
  }
}

/// The full p_k blocks of [start, end) in groups (planParallel).
void TransposeBlockKernel::groupedBlocks(AffineExpr start, AffineExpr end,
                                         bool alignedRows) {
  if (group == v) {
    // One block per group: no inner loop of one (dynamic) iteration.
    x.forLoop(
        {start}, {end},
        [&](Value iv) {
          x.bind(pk, iv);
          groupStart = pk;
          groupEnd = pk + v;
          if (stagedRows)
            beginStagedGroup();
          rowBlocks([](function_ref<void()> block, bool) { block(); },
                    alignedRows);
          if (stagedRows)
            endStagedGroup();
        },
        v);
    return;
  }
  x.forLoop(
      {start}, {end},
      [&](Value g) {
        AffineExpr g0 = x.value(g);
        groupStart = g0;
        if ((realigning && junctions) || stagedRows)
          groupEnd =
              x.value(x.materializeMinMax({g0 + group, end}, /*isMax=*/false));
        if (stagedRows)
          beginStagedGroup();
        rowBlocks(
            [&](function_ref<void()> block, bool reads) {
              if (lineSpan && reads) {
                spanBlocks(g0, end, block);
                return;
              }
              x.forLoop(
                  {g0}, {g0 + group, end},
                  [&](Value iv) {
                    x.bind(pk, iv);
                    block();
                  },
                  v);
            },
            alignedRows);
        if (stagedRows)
          endStagedGroup();
      },
      group);
}

/// The overlapping last p_k block when V does not divide the size.
void TransposeBlockKernel::edgeKBlock(bool alignedRows) {
  if (alignedK) {
    edgeKRows();
    return;
  }
  // Its first rows were stored by the last full block: only the rest are
  // (f32[31,63,65,129] -> {0,1,2,3}, p_k 129: one row instead of 16, the 15
  // others streamed by the full block would be read back for ownership and
  // rewritten cached).
  x.bind(pk, arith::ConstantIndexOp::create(b, loc, sizeK - v));
  writtenRows = v - sizeK % v;
  columnBlocks([&](bool fullR) { emitBlock(fullR, alignedRows && fullR); });
  writtenRows = 0;
}

void TransposeBlockKernel::edgeKRows() {
  // (A block at sizeK - V would straddle a tile boundary along p_k. Tiled
  // sources never take flat rows: planFlatRows.)
  assert(!flatRows && "element-wise p_k edge of flat rows");
  x.forLoop({x.cst(sizeK / v * v)}, {x.cst(sizeK)}, [&](Value ivK) {
    x.bind(pk, ivK);
    x.forLoop({}, {x.cst(sizeR)}, [&](Value ivR) {
      x.bind(pr, ivR);
      e.emitElement(e.destIndex,
                    llvm::to_vector(llvm::map_range(
                        e.sources, [](const NestEmitter::Source &source) {
                          return source.index;
                        })));
    });
  });
}

/// The middle loops, then `kBlocks` (the p_k and p_r blocks of a plane);
/// `firstMiddle`, when set, gives the outermost middle loop's bounds.
void TransposeBlockKernel::emitPlanes(function_ref<void()> kBlocks,
                                      std::optional<Bounds> firstMiddle) {
  std::function<void(unsigned)> outer = [&](unsigned i) {
    if (i < middle.size()) {
      SmallVector<AffineExpr> lbs, ubs{e.physSizes[middle[i]]};
      if (i == 0 && firstMiddle) {
        lbs = {firstMiddle->first};
        ubs = {firstMiddle->second};
      }
      x.forLoop(lbs, ubs, [&](Value iv) {
        x.bind(e.placeholders[middle[i]], iv);
        outer(i + 1);
      });
      return;
    }
    kBlocks();
  };
  outer(0);
}

void TransposeBlockKernel::padRows(AffineExpr start, AffineExpr end,
                                   bool alignedRows) {
  if (rowSlots)
    padSlots(start, end, sizeR, rowSlots, alignedRows);
}

void TransposeBlockKernel::padKRows(bool alignedRows) {
  if (kSlots)
    padSlots(x.cst(sizeK), x.cst(kSlots), 0, rowSlots ? rowSlots : sizeR,
             alignedRows);
}

void TransposeBlockKernel::padSlots(AffineExpr start, AffineExpr end,
                                    int64_t from, int64_t to,
                                    bool alignedRows) {
  // With interleaved stores, the runs that hold rows of [start, end)
  // (rounded up: a run's rows past sizeK are padding rows, its rows in
  // [sizeK, its end) the edge block's), each a contiguous range [q from,
  // q to) of destView's last dim (runIndices).
  int64_t q = storeRuns ? storeRuns : 1;
  int64_t lanes = e.lanes, first = q * from, gap = q * (to - from);
  int64_t vectorBytes = lanes * e.elementBytes;
  Value padding = vector::BroadcastOp::create(
      b, loc, VectorType::get({lanes}, elementType), e.getPadValue());
  auto index = [&](AffineExpr slot) {
    return storeRuns ? runIndices(0, x.cst(0), slot) : destIndices(0, slot);
  };
  auto store = [&](AffineExpr slot, bool aligned) {
    storeVector(padding, index(slot), vectorBytes, aligned);
  };
  // (Whole vectors aligned where the run-time check covers them and every
  // row, or run, starts on one.)
  bool aligned =
      alignedRows && getStoreAlignment() % vectorBytes == 0 &&
      (first * e.elementBytes) % vectorBytes == 0 &&
      (q == 1 ||
       (q * e.destStrides[rowOuter] * e.elementBytes) % vectorBytes == 0);
  x.forLoop(
      {storeRuns ? start.ceilDiv(q) * q : start},
      {storeRuns ? end.ceilDiv(q) * q : end},
      [&](Value iv) {
        x.bind(pk, iv);
        if (gap < lanes) {
          // (Fewer padding slots than a vector: one by one.)
          x.forLoop({x.cst(first)}, {x.cst(first + gap)}, [&](Value c) {
            memref::StoreOp::create(b, loc, e.getPadValue(), destView,
                                    index(x.value(c)));
          });
          return;
        }
        x.forLoop(
            {x.cst(first)}, {x.cst(first + gap / lanes * lanes)},
            [&](Value c) { store(x.value(c), aligned); }, lanes);
        if (gap % lanes)
          store(x.cst(first + gap - lanes), /*aligned=*/false);
      },
      q);
}

void TransposeBlockKernel::allKBlocks(bool alignedRows) {
  padRows(x.cst(0), x.cst(sizeK), alignedRows);
  padKRows(alignedRows);
  if (stageK) {
    stagedPlane(x.cst(0), x.cst(sizeK), alignedRows);
    return;
  }
  groupedBlocks(x.cst(0), x.cst(sizeK / v * v), alignedRows);
  if (sizeK % v)
    edgeKBlock(alignedRows);
}

/// [c * size, end) of `count` chunks of `size` over `total`.
TransposeBlockKernel::Bounds TransposeBlockKernel::chunkBounds(AffineExpr c,
                                                               int64_t size,
                                                               int64_t count,
                                                               int64_t total) {
  return {c * size,
          (c + 1) * size + (c + 1).floorDiv(count) * (total - count * size)};
}

/// A per-thread buffer of rows x columns elements (as integers), before
/// the kernel's loops: not at the current point, which may be inside
/// serial loops around the kernel (an alloca per iteration would grow the
/// stack), but at the start of the enclosing parallel chunk's body
/// (emitParallelChunks), else next to the destination, as the staging row
/// (NestEmitter::getStagingRow).
Value TransposeBlockKernel::allocateBuffer(int64_t rows, int64_t columns,
                                           Type element) {
  OpBuilder::InsertionGuard guard(b);
  if (e.allocaBlock)
    b.setInsertionPointToStart(e.allocaBlock);
  else
    b.setInsertionPointAfterValue(e.destView);
  auto type = MemRefType::get(
      {rows, columns},
      element ? element : IntegerType::get(b.getContext(), 8 * e.elementBytes));
  return memref::AllocaOp::create(b, loc, type, b.getI64IntegerAttr(64));
}

void TransposeBlockKernel::emitBlocks(bool alignedRows) {
  // Each thread's buffers: the stages of staged tiles, the carry of
  // realigned rows.
  auto makeCarry = [&] {
    makeStages();
    // (The aligned and unaligned variants of a serial nest share one.)
    if (lineSpan && !(lineStage && lineStageBlock == e.allocaBlock)) {
      lineStage = allocateBuffer(width, lineSpan);
      lineStageBlock = e.allocaBlock;
    }
    if (realigning)
      carry = allocateBuffer(group, width);
    if (realigning && junctions)
      gaps = allocateBuffer(group + 1, 4 * width);
    if (stagedRows)
      allocateStage();
  };
  if (middleChunks >= 2) {
    int64_t sizeM = *IndexExprs::getConstant(e.physSizes[middle.front()]);
    e.emitParallelChunks({x.cst(0)}, {x.cst(middleChunks)}, [&](Value chunk) {
      makeCarry();
      emitPlanes([&] { allKBlocks(alignedRows); },
                 chunkBounds(x.value(chunk), middleChunk, middleChunks, sizeM));
      finishStagedRows();
    });
    return;
  }
  if (columnChunks >= 2) {
    // (planParallel: plain or flat rows, no junction lines; planStaged: no
    // staged tiles.) The chunks cover the full blocks, the last one also
    // the overlapping edge block (columnBlocks, rowBlocks).
    assert(!stageK && !junctions && "column chunks of plain or flat rows");
    e.emitParallelChunks({x.cst(0)}, {x.cst(columnChunks)}, [&](Value chunk) {
      makeCarry();
      columnRange = chunkBounds(x.value(chunk), chunkColumns, columnChunks,
                                sizeR / width * width);
      if (sizeR % width)
        lastColumnChunk = isLastChunk(chunk, columnChunks);
      emitPlanes([&] { allKBlocks(alignedRows); });
      columnRange.reset();
      lastColumnChunk = Value();
    });
    return;
  }
  if (chunks < 2) {
    makeCarry();
    emitPlanes([&] { allKBlocks(alignedRows); });
    finishStagedRows();
    return;
  }
  e.emitParallelChunks({x.cst(0)}, {x.cst(chunks)}, [&](Value chunk) {
    makeCarry();
    Bounds bounds = chunkBounds(x.value(chunk), chunkRows, chunks, sizeK);
    AffineExpr start = bounds.first, end = bounds.second;
    AffineExpr fullEnd = x.simplify(start + (end - start).floorDiv(v) * v);
    emitPlanes([&] {
      padRows(start, end, alignedRows);
      if (stageK)
        stagedPlane(start, end, alignedRows);
      else
        groupedBlocks(start, fullEnd, alignedRows);
      // The last chunk's edge block (staged planes build their own) and
      // the padding rows after the valid ones.
      bool edge = !stageK && sizeK % v != 0;
      if (!edge && !kSlots)
        return;
      emitIf(isLastChunk(chunk, chunks), [&] {
        if (edge)
          edgeKBlock(alignedRows);
        padKRows(alignedRows);
      });
    });
    finishStagedRows();
  });
}

void TransposeBlockKernel::collapseRows() {
  // The (p_k, p_r) dims as one (junctionLayout: rows back to back).
  SmallVector<ReassociationIndices> dims;
  for (unsigned d = 0; d < k; ++d)
    dims.push_back({static_cast<int64_t>(d)});
  dims.push_back({static_cast<int64_t>(k), static_cast<int64_t>(r)});
  junctionView = memref::CollapseShapeOp::create(b, loc, destView, dims);
}

void TransposeBlockKernel::emit() {
  // Destination vectors at multiples of V along the row are aligned when
  // every row starts at a multiple of the store size and the buffer does
  // (checked at run time). Aligned stores only matter for streaming ones
  // (vmovntps needs them); otherwise one unaligned version.
  bool rowsAligned = rowsStartAligned();
  if (flatRows) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(e.destView);
    SmallVector<ReassociationIndices> dims;
    for (unsigned d = 0; d + 1 < r; ++d)
      dims.push_back({static_cast<int64_t>(d)});
    dims.push_back({static_cast<int64_t>(r - 1), static_cast<int64_t>(r)});
    destView = memref::CollapseShapeOp::create(b, loc, e.destView, dims);
  }
  // Interleaved stores go through the destination with its column, u and
  // one-slot dims collapsed (runIndices).
  if (storeRuns) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(e.destView);
    unsigned n = e.destIndex.size();
    SmallVector<ReassociationIndices> dims;
    for (unsigned d = 0; d + 3 < n; ++d)
      dims.push_back({static_cast<int64_t>(d)});
    dims.push_back({static_cast<int64_t>(n - 3), static_cast<int64_t>(n - 2),
                    static_cast<int64_t>(n - 1)});
    destView = memref::CollapseShapeOp::create(b, loc, e.destView, dims);
  }
  // Interleaved sources are read through their flat views.
  for (auto [read, source] : llvm::zip(reads, e.sources))
    if (read.interleave > 1) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfterValue(source.view);
      read.flatView = getFlatView(b, loc, source.view);
    }
  // Rows that start off vector boundaries, each at a constant shift from
  // one: realigned streaming rows when the buffer is aligned.
  if (e.nontemporal && !rowsAligned && planRealign()) {
    scf::IfOp ifOp = x.createIfAligned(e.destPointer, storeBytes);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    realigning = realigned = true;
    if (junctions)
      collapseRows();
    emitBlocks(/*alignedRows=*/false);
    realigning = false;
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    emitBlocks(/*alignedRows=*/false);
    return;
  }
  // Rows back to back that take too many sets of shifts: staged per group
  // when the buffer is aligned.
  if (stagedRowsPlanned && columnChunks < 2 && !stageK) {
    scf::IfOp ifOp = x.createIfAligned(e.destPointer, storeBytes);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    stagedRows = stagedRowsBuilt = true;
    collapseRows();
    emitBlocks(/*alignedRows=*/false);
    stagedRows = false;
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    emitBlocks(/*alignedRows=*/false);
    return;
  }
  if (!e.nontemporal || !rowsAligned) {
    emitBlocks(/*alignedRows=*/false);
    return;
  }
  // (Interleaved stores: vectors of a piece, which may be more than a
  // block row's width.)
  scf::IfOp ifOp = x.createIfAligned(e.destPointer, getStoreAlignment());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  emitBlocks(/*alignedRows=*/true);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  emitBlocks(/*alignedRows=*/false);
}

bool NestEmitter::emitTransposeBlocks(unsigned k,
                                      const llvm::SmallBitVector &active) {
  TransposeBlockKernel kernel(*this, k);
  if (!kernel.plan(active))
    return emitTileRowBlocks(k, active) ||
           emitInterleavedStoreBlocks(k, active);
  emitPlannedBlocks(kernel);
  return true;
}

void NestEmitter::emitPlannedBlocks(TransposeBlockKernel &kernel) {
  report.add(NestKernel::TransposeBlocks);
  LoopKind savedKind = x.kind;
  x.kind = LoopKind::SCF;
  llvm::scope_exit restore([&] { x.kind = savedKind; });
  kernel.emit();
  report.describeBlocks(kernel.describe());
}
