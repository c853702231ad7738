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
// r are plain loops outside the plane (see the loop order below).
//
// Edges: sizes that are not multiples of V take one more block that
// overlaps the previous one (the same values are written twice; copies
// only), unaligned and cached. Dims shorter than V take smaller blocks,
// down to 4 x 4; shorter ones keep the scalar nest. Destination rows that
// do not start on a line stream realigned (RealignedTransposeRows.cpp),
// flattened with the dim outside them when they are not whole lines
// (FlatTransposeRows.cpp); the reads of a block's sources (and the
// interleaved runs of sub-tiled ones) are in TransposeBlockReads.cpp, the
// stores of its rows in TransposeBlockStores.cpp, the transpose in
// registers in RegisterTranspose.cpp.
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

#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

static bool isZero(ArrayRef<int64_t> steps) {
  return llvm::all_of(steps, [](int64_t st) { return st == 0; });
}

/// Along the row, a step that is neither unit (a contiguous row: the vector
/// rows) nor 0 (a broadcast).
static bool crossesRow(ArrayRef<int64_t> stepsR) {
  return !isUnitInLastDim(stepsR) && !isZero(stepsR);
}

/// A copy whose byte orders cross: contiguous along p_k, crossing the row.
static bool isCrossing(const std::optional<SmallVector<int64_t>> &stepsK,
                       const std::optional<SmallVector<int64_t>> &stepsR) {
  return stepsK && stepsR && isUnitInLastDim(*stepsK) && crossesRow(*stepsR);
}

/// Inside aligned blocks of `side`, the rows along `pr` of a source whose
/// index is affine only within tiles: constant steps (getAlignedForm), or
/// each row's own constant offset when the block's rows cross tiles
/// (getAlignedOffsets: T(8,128) rows in blocks of 32); the steps of the
/// first row in either case, and the offsets (empty for steps).
static std::optional<SmallVector<int64_t>>
getAlignedRowSteps(ArrayRef<AffineExpr> index, AffineExpr pr, int64_t side,
                   SmallVector<SmallVector<int64_t>, 0> *offsets = nullptr) {
  if (std::optional<SmallVector<int64_t>> steps =
          getAlignedSteps(index, pr, side))
    return steps;
  std::optional<SmallVector<SmallVector<int64_t>, 0>> rows =
      getAlignedOffsets(index, pr, side);
  if (!rows)
    return std::nullopt;
  SmallVector<int64_t> first = (*rows)[1];
  if (offsets)
    *offsets = std::move(*rows);
  return first;
}

/// The largest block side (a power of two, 64 down to 4) inside whose
/// aligned blocks `index` crosses along (pk, pr), or 0: the bound of a
/// source that is affine only within tiles (getAlignedForm).
static int64_t getLargestAlignedSide(ArrayRef<AffineExpr> index, AffineExpr pk,
                                     AffineExpr pr) {
  for (int64_t side = 64; side >= 4; side /= 2)
    if (isCrossing(getAlignedSteps(index, pk, side),
                   getAlignedRowSteps(index, pr, side)))
      return side;
  return 0;
}

bool NestEmitter::mayTransposeBlocks() {
  unsigned n = placeholders.size();
  if (!lanes || n < 2)
    return false;
  // Blocks are at least 4 x 4 along a row one of whose sources moves with a
  // constant stride that is neither 1 nor 0 (the checks of
  // emitTransposeBlocks below).
  std::optional<int64_t> sizeR = IndexExprs::getConstant(physSizes[n - 1]);
  AffineExpr pr = placeholders.back();
  return sizeR && *sizeR >= 4 && llvm::any_of(sources, [&](const Source &s) {
           std::optional<SmallVector<int64_t>> stepsR =
               getSteps(x, s.index, pr);
           if (!stepsR)
             stepsR = getAlignedRowSteps(s.index, pr, 4);
           // (Interleaved runs, a (q,1) sub-tile's [..., q, 1] dims,
           // cross at the second-to-last dim: these offsets say so.)
           return stepsR && crossesRow(*stepsR);
         });
}

bool TransposeBlockKernel::checksHoldOnPlane(
    const llvm::SmallBitVector &active) {
  unsigned n = e.placeholders.size();
  for (int j : active.set_bits()) {
    const NestEmitter::Check &c = e.checks[j];
    if (llvm::all_of(llvm::drop_begin(c.form.coeffs, k),
                     [](int64_t a) { return a == 0; }))
      continue;
    std::optional<int64_t> bound = IndexExprs::getConstant(c.bound);
    int64_t largest = c.form.constant;
    for (unsigned m = 0; m < n; ++m) {
      std::optional<int64_t> size = IndexExprs::getConstant(e.physSizes[m]);
      if (!size) {
        LDBG() << "no transpose blocks at level " << k
               << ": a bound check over a dynamic dim";
        return false;
      }
      largest += std::max<int64_t>(c.form.coeffs[m], 0) * (*size - 1);
    }
    if (bound && largest < *bound)
      continue;
    // A bound along the rows only: elements up to it, then padding
    // vectors (padRows); or along p_k only: the rows up to it, then
    // padding rows (padKRows).
    if (std::optional<int64_t> valid = e.getValidSlots(c, k, r)) {
      validR = std::min(validR.value_or(*valid), *valid);
      continue;
    }
    std::optional<int64_t> valid = e.getValidSlots(c, k, k);
    if (!valid) {
      LDBG() << "no transpose blocks at level " << k
             << ": a bound check cuts the plane other than along its rows "
                "or p_k (padding slots)";
      return false;
    }
    validK = std::min(validK.value_or(*valid), *valid);
  }
  return true;
}

std::optional<int64_t> TransposeBlockKernel::classifyReads() {
  int64_t maxSide = 0;
  for (const NestEmitter::Source &source : e.sources) {
    if (!cast<MemRefType>(source.view.getType()).getLayout().isIdentity()) {
      LDBG() << "no transpose blocks at level " << k
             << ": a source view is not an identity memref";
      return std::nullopt;
    }
    SourceRead read;
    read.globalK = getSteps(x, source.index, pk);
    read.globalR = getSteps(x, source.index, pr);
    if (isCrossing(read.globalK, read.globalR)) {
      reads.push_back(std::move(read));
      continue;
    }
    if (read.globalR && !crossesRow(*read.globalR)) {
      read.kind = isUnitInLastDim(*read.globalR) ? Read::Row : Read::Splat;
      reads.push_back(std::move(read));
      continue;
    }
    // Not crossing with constant steps: maybe inside aligned blocks
    // (tiles), or interleaved runs of rows (sub-tiles).
    int64_t side = getLargestAlignedSide(source.index, pk, pr);
    if (!side) {
      auto type = cast<MemRefType>(source.view.getType());
      side = getLargestInterleavedSide(source.index, type, pk, pr);
      read.interleave =
          side ? getInterleave(source.index, type, pk, pr, side) : 1;
    }
    if (!side) {
      LDBG() << "no transpose blocks at level " << k
             << ": a source is neither contiguous along this dim with a "
                "constant stride != 0, 1 along the row (not even inside "
                "aligned blocks of 4), nor contiguous or constant along the "
                "row";
      return std::nullopt;
    }
    maxSide = maxSide ? std::min(maxSide, side) : side;
    reads.push_back(std::move(read));
  }
  auto block = llvm::find_if(
      reads, [](const SourceRead &read) { return read.kind == Read::Block; });
  if (block == reads.end()) {
    LDBG() << "no transpose blocks at level " << k
           << ": no source crosses the destination's rows";
    return std::nullopt;
  }
  s = &e.sources[block - reads.begin()];
  viewType = cast<MemRefType>(s->view.getType());
  return maxSide;
}

bool TransposeBlockKernel::planAlignedSteps() {
  // (Flat rows: every row's own index, readBlock.)
  if (flatRows)
    return true;
  for (auto [read, source] : llvm::zip(reads, e.sources)) {
    if (read.kind != Read::Block)
      continue;
    if (isCrossing(read.globalK, read.globalR)) {
      read.stepsR = *read.globalR;
      continue;
    }
    if (read.interleave > 1) {
      // Interleaved runs: contiguous along p_k only inside aligned blocks,
      // each run's first row at its constant offset in the block.
      auto type = cast<MemRefType>(source.view.getType());
      std::optional<SmallVector<SmallVector<int64_t>, 0>> rows =
          getAlignedOffsets(source.index, pr, v);
      if (getInterleave(source.index, type, pk, pr, v) != read.interleave ||
          !rows) {
        LDBG() << "no transpose blocks at level " << k << ": blocks of " << v
               << " do not read the interleaved source's runs";
        return false;
      }
      read.alignedK = read.alignedR = true;
      read.offsetsR = std::move(*rows);
      alignedK = true;
      continue;
    }
    read.alignedK =
        !isUnitInLastDim(read.globalK.value_or(SmallVector<int64_t>()));
    read.alignedR = !read.globalR;
    std::optional<SmallVector<int64_t>> blockR =
        read.globalR ? read.globalR
                     : getAlignedRowSteps(source.index, pr, v, &read.offsetsR);
    if (!isCrossing(read.alignedK ? getAlignedSteps(source.index, pk, v)
                                  : read.globalK,
                    blockR)) {
      LDBG() << "no transpose blocks at level " << k << ": blocks of " << v
             << " are not aligned within the source's tiles";
      return false;
    }
    read.stepsR = *blockR;
    alignedK |= read.alignedK;
  }
  return true;
}

bool TransposeBlockKernel::planBlock() {
  std::optional<int64_t> constK = IndexExprs::getConstant(e.physSizes[k]);
  std::optional<int64_t> constR = IndexExprs::getConstant(e.physSizes[r]);
  if (!constK || !constR) {
    LDBG() << "no transpose blocks at level " << k
           << ": a dynamic dim in the plane";
    return false;
  }
  sizeK = *constK;
  sizeR = *constR;
  if (validR && *validR < sizeR) {
    rowSlots = sizeR;
    sizeR = *validR;
  }
  if (validK && *validK < sizeK) {
    kSlots = sizeK;
    sizeK = *validK;
  }
  pk = e.placeholders[k];
  pr = e.placeholders[r];
  std::optional<int64_t> maxSide = classifyReads();
  if (!maxSide)
    return false;
  TransposePlaneFacts facts;
  facts.lanes = e.lanes;
  facts.elementBytes = e.elementBytes;
  facts.vectorBytes = e.options.vectorBytes;
  facts.registerFileBytes = e.options.vectorRegisterBytes;
  facts.sizeK = sizeK;
  facts.sizeR = sizeR;
  facts.destStrideKBytes = e.destStrides[k] * e.elementBytes;
  facts.destRowStrideBytes = e.destStrides[r - 1] * e.elementBytes;
  facts.nontemporal = e.nontemporal;
  facts.maxSide = *maxSide;
  facts.groupBytes = e.options.transposeGroupBytes;
  facts.rowReads = llvm::any_of(
      reads, [](const SourceRead &read) { return read.kind != Read::Block; });
  if (!mergedRows && planFlatRows(facts)) {
    facts.sizeR = sizeR;
    facts.flatRows = true;
    facts.destRowStrideBytes = e.destStrides[rowOuter] * e.elementBytes;
  }
  std::optional<TransposeBlockPlan> blocks = planTransposeBlocks(facts);
  if (!blocks) {
    LDBG() << "no transpose blocks at level " << k << ": fewer than 4 lanes "
           << "per block, or the plane (" << sizeK << " x " << sizeR
           << ") is smaller than 4 x 4";
    return false;
  }
  v = blocks->side;
  wide = blocks->wide;
  group = blocks->group;
  prefetchRows = blocks->prefetchRows;
  rowPrefetch = blocks->rowPrefetch;
  realignRows = blocks->realignRows;
  return planAlignedSteps();
}

void TransposeBlockKernel::planWidth() {
  elementType = cast<MemRefType>(e.destView.getType()).getElementType();
  // The block side, width and grouping come from planTransposeBlocks
  // (layout/Xla/KernelPlan.h, with the measurements behind them).
  width = v * wide;
  storeBytes = width * e.elementBytes;
  // Blocks whose rows are narrower than the target's registers (8-bit 32
  // x 32 and 16-bit 16 x 16 on AVX-512, 8-bit 16 x 16 on AVX2) go through
  // the rounds of shuffles side by side, as many as a register holds: each
  // shuffle moves that many times the bytes (transposeSideBySide;
  // docs/performance.md, "Blocks side by side in a register"). A
  // register's bytes: the vector's, at most a sixteenth of the register
  // file (AVX2's 64-byte vectors are two ymm registers: 8 x 8 f32 blocks
  // already fill them).
  int64_t registerBytes = e.options.vectorBytes;
  if (e.options.vectorRegisterBytes > 0)
    registerBytes = std::min(registerBytes, e.options.vectorRegisterBytes / 16);
  blocksPerVector = 1;
  while (wide % (2 * blocksPerVector) == 0 &&
         2 * blocksPerVector * v * e.elementBytes <= registerBytes)
    blocksPerVector *= 2;
}

void TransposeBlockKernel::orderMiddleDims() {
  // Loop order (measured on the permutation suite): the dims between k and
  // r outside, sorted so that the one along which the source moves least
  // is innermost (consecutive planes continue the source's rows); then
  // p_k blocks, then p_r blocks innermost (each plane reads a few source
  // rows, cache- and TLB-resident, and streams whole destination row
  // segments). Walking the p_r blocks of all middle dims per p_k block
  // instead (the nest's natural order) touches a new source page per load:
  // perm3_210 ran at 0.15x the ceiling that way, 0.55x like this.
  // (Merged tile rows: mergedLevel has one slot and no loop.)
  for (unsigned m = k + 1; m < (flatRows ? r - 1 : r); ++m)
    if (!mergedRows || m != mergedLevel)
      middle.push_back(m);
  if (!viewType.hasStaticShape())
    return;
  SmallVector<int64_t> strides(viewType.getRank(), 1);
  for (int64_t d = viewType.getRank() - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * viewType.getDimSize(d + 1);
  auto stride = [&](unsigned m) {
    std::optional<SmallVector<int64_t>> st =
        getSteps(x, s->index, e.placeholders[m]);
    if (!st)
      return std::numeric_limits<int64_t>::max();
    int64_t sum = 0;
    for (auto [a, c] : llvm::zip(*st, strides))
      sum += std::abs(a * c);
    return sum;
  };
  // (llvm::sort with the dim as tie-break: std::stable_sort warns about
  // the deprecated get_temporary_buffer with libstdc++ 12.)
  llvm::sort(middle, [&](unsigned a, unsigned c) {
    int64_t sa = stride(a), sc = stride(c);
    return sa != sc ? sa > sc : a < c;
  });
}

void TransposeBlockKernel::planParallel() {
  int64_t elementBytes = e.elementBytes;
  // At the nest's parallel level (ParallelNest.cpp) the blocks are split
  // into parallel chunks that never write the same destination cache line
  // (the last chunk takes the remainder). Preferably along the outermost
  // middle dim m, which keeps each thread's loop order (and so its source
  // page walk) as above: line-safe when a chunk of m and one iteration of
  // the dim outside it are whole lines, or nearly so when the chunks are
  // large (mayChunkMiddleDim). Else along p_k, in chunks of whole
  // groups and lines (the level's chunk rounded up to a multiple of the
  // group, or of V when that leaves fewer than kMinParallelChunks chunks),
  // the last one also taking the overlapping edge block. (Chunks of one
  // block cut every group down to one block, one line per source row
  // visit: f32 4096^2 row-major -> permuted ran at 13 GB/s on two threads,
  // below its 21 GB/s on one.)
  bool parallelHere = static_cast<int>(k) == e.plan.parallelLevel;
  if (parallelHere && !middle.empty()) {
    unsigned m = middle.front();
    std::optional<int64_t> sizeM = IndexExprs::getConstant(e.physSizes[m]);
    int64_t iterationBytes = e.destStrides[m] * elementBytes;
    if (sizeM) {
      int64_t chunk = getParallelChunk(*sizeM, getLineGranule(iterationBytes));
      if (mayChunkMiddleDim(e.destStrides[m - 1] * elementBytes,
                            chunk * iterationBytes)) {
        middleChunk = chunk;
        middleChunks = *sizeM / middleChunk;
      }
    }
  }
  if (!parallelHere)
    return;
  chunkRows = getTransposeChunkRows(sizeK, e.plan.parallelChunk, group, v);
  chunks = sizeK / chunkRows;
  // Chunks of p_k narrower than a line of the source (few destination
  // rows: bf16[65536,64] -> {0,1} takes chunks of 16 rows, 32 bytes of
  // each 128-byte source row) make every thread read each source line
  // once per chunk: split the columns instead, each thread all p_k blocks
  // of whole destination lines. Only for the plain variant: rows that
  // start on lines (no realigned rows, no line shared between chunks), no
  // flat rows, merged tile rows, bound checks or element-by-element p_k
  // edge.
  int64_t lineBytes = std::max<int64_t>(64, storeBytes);
  bool plainRows = !flatRows && !mergedRows && !(alignedK && sizeK % v) &&
                   !validR && !validK &&
                   (e.destStrides[rowOuter] * elementBytes) % lineBytes == 0;
  // Chunks of whole lines (blocks of fewer bytes than a line: several per
  // chunk), the rows whole blocks (no overlapping edge block to share).
  int64_t fullBlocks = sizeR / width;
  if (middleChunks < 2 && chunks >= 2 && chunkRows * elementBytes < 64 &&
      plainRows && sizeR % width == 0 && fullBlocks >= 2) {
    chunkColumns =
        width * getParallelChunk(fullBlocks, getLineGranule(storeBytes));
    columnChunks = fullBlocks * width / chunkColumns;
    if (columnChunks >= 2)
      chunks = chunkRows = 0;
    else
      chunkColumns = columnChunks = 0;
  }
}

bool TransposeBlockKernel::plan(const llvm::SmallBitVector &active) {
  if (!e.lanes || e.sources.empty() || k >= r) {
    LDBG() << "no transpose blocks at level " << k
           << ": scalar rows, no source, or the row level";
    return false;
  }
  // A walk reordered into tiles: the levels from k on must be the
  // destination's own dims, in its order (the stores index by level).
  for (unsigned m = k; m <= r && !mergedRows; ++m)
    if (e.destIndex[m] != e.placeholders[m]) {
      LDBG() << "no transpose blocks at level " << k
             << ": the walk reorders the levels of the plane";
      return false;
    }
  destView = e.destView;
  rowOuter = r - 1;
  if (!checksHoldOnPlane(active) || !planBlock())
    return false;
  planWidth();
  orderMiddleDims();
  planParallel();
  if (!planStaged())
    stageK = stageR = 0;
  return true;
}

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
/// store whole vectors over the stream, with the same values.
void TransposeBlockKernel::rowBlocks(
    function_ref<void(function_ref<void()>)> eachK, bool alignedRows) {
  auto blocks = [&](bool fullR, bool aligned) {
    eachK([&] { emitBlock(fullR, aligned); });
  };
  if (!realigning) {
    columnBlocks([&](bool fullR) { blocks(fullR, alignedRows && fullR); });
    return;
  }
  int64_t full = sizeR / width * width;
  x.bind(pr, arith::ConstantIndexOp::create(b, loc, 0));
  part = Part::Head;
  blocks(/*fullR=*/true, /*aligned=*/true);
  part = Part::Body;
  x.forLoop(
      {x.cst(width)}, {x.cst(full)},
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
  eachK([&] {
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
    if (lanesAfterStream)
      emitShiftCases(flush);
    else
      flush(shifts[0]);
  });
  if (sizeR % width) {
    x.bind(pr, arith::ConstantIndexOp::create(b, loc, sizeR - width));
    if (lanesAfterStream)
      part = Part::Edge;
    blocks(/*fullR=*/false, /*aligned=*/false);
    part.reset();
  }
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
  // (No edge block: planParallel chunks whole rows of full blocks only.)
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
          rowBlocks([](function_ref<void()> block) { block(); }, alignedRows);
        },
        v);
    return;
  }
  x.forLoop(
      {start}, {end},
      [&](Value g) {
        AffineExpr g0 = x.value(g);
        groupStart = g0;
        if (realigning && junctions)
          groupEnd =
              x.value(x.materializeMinMax({g0 + group, end}, /*isMax=*/false));
        rowBlocks(
            [&](function_ref<void()> block) {
              x.forLoop(
                  {g0}, {g0 + group, end},
                  [&](Value iv) {
                    x.bind(pk, iv);
                    block();
                  },
                  v);
            },
            alignedRows);
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
  int64_t lanes = e.lanes, gap = to - from;
  int64_t vectorBytes = lanes * e.elementBytes;
  Value padding = vector::BroadcastOp::create(
      b, loc, VectorType::get({lanes}, elementType), e.getPadValue());
  auto store = [&](AffineExpr column, bool aligned) {
    storeVector(padding, destIndices(0, column), vectorBytes, aligned);
  };
  x.forLoop({start}, {end}, [&](Value iv) {
    x.bind(pk, iv);
    if (gap < lanes) {
      // (Fewer padding slots than a vector: one by one.)
      x.forLoop({x.cst(from)}, {x.cst(to)}, [&](Value c) {
        memref::StoreOp::create(b, loc, e.getPadValue(), destView,
                                destIndices(0, x.value(c)));
      });
      return;
    }
    bool aligned = alignedRows && storeBytes % vectorBytes == 0 &&
                   (from * e.elementBytes) % vectorBytes == 0;
    x.forLoop(
        {x.cst(from)}, {x.cst(from + gap / lanes * lanes)},
        [&](Value c) { store(x.value(c), aligned); }, lanes);
    if (gap % lanes)
      store(x.cst(to - lanes), /*aligned=*/false);
  });
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
Value TransposeBlockKernel::allocateBuffer(int64_t rows, int64_t columns) {
  OpBuilder::InsertionGuard guard(b);
  if (e.allocaBlock)
    b.setInsertionPointToStart(e.allocaBlock);
  else
    b.setInsertionPointAfterValue(e.destView);
  auto type = MemRefType::get(
      {rows, columns}, IntegerType::get(b.getContext(), 8 * e.elementBytes));
  return memref::AllocaOp::create(b, loc, type, b.getI64IntegerAttr(64));
}

void TransposeBlockKernel::emitBlocks(bool alignedRows) {
  // Each thread's buffers: the stages of staged tiles, the carry of
  // realigned rows.
  auto makeCarry = [&] {
    makeStages();
    if (realigning)
      carry = allocateBuffer(group, width);
    if (realigning && junctions)
      gaps = allocateBuffer(group + 1, 4 * width);
  };
  if (middleChunks >= 2) {
    int64_t sizeM = *IndexExprs::getConstant(e.physSizes[middle.front()]);
    e.emitParallelChunks({x.cst(0)}, {x.cst(middleChunks)}, [&](Value chunk) {
      makeCarry();
      emitPlanes([&] { allKBlocks(alignedRows); },
                 chunkBounds(x.value(chunk), middleChunk, middleChunks, sizeM));
    });
    return;
  }
  if (columnChunks >= 2) {
    // (planParallel: the plain variant only; planStaged: no staged tiles.)
    assert(!stageK && !realigning && "column chunks of plain rows");
    int64_t full = sizeR;
    e.emitParallelChunks({x.cst(0)}, {x.cst(columnChunks)}, [&](Value chunk) {
      makeCarry();
      columnRange =
          chunkBounds(x.value(chunk), chunkColumns, columnChunks, full);
      emitPlanes([&] { allKBlocks(alignedRows); });
      columnRange.reset();
    });
    return;
  }
  if (chunks < 2) {
    makeCarry();
    emitPlanes([&] { allKBlocks(alignedRows); });
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
      Value lastChunk = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, chunk,
          arith::ConstantIndexOp::create(b, loc, chunks - 1));
      auto ifOp = scf::IfOp::create(b, loc, lastChunk);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      if (edge)
        edgeKBlock(alignedRows);
      padKRows(alignedRows);
    });
  });
}

void TransposeBlockKernel::emit() {
  // Destination vectors at multiples of V along the row are aligned when
  // every row starts at a multiple of the store size and the buffer does
  // (checked at run time). Aligned stores only matter for streaming ones
  // (vmovntps needs them); otherwise one unaligned version.
  bool rowsAligned =
      (e.destStrides[rowOuter] * e.elementBytes) % storeBytes == 0;
  if (flatRows) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointAfterValue(e.destView);
    SmallVector<ReassociationIndices> dims;
    for (unsigned d = 0; d + 1 < r; ++d)
      dims.push_back({static_cast<int64_t>(d)});
    dims.push_back({static_cast<int64_t>(r - 1), static_cast<int64_t>(r)});
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
    if (junctions) {
      // The (p_k, p_r) dims as one (planJunctions: rows back to back).
      SmallVector<ReassociationIndices> dims;
      for (unsigned d = 0; d < k; ++d)
        dims.push_back({static_cast<int64_t>(d)});
      dims.push_back({static_cast<int64_t>(k), static_cast<int64_t>(r)});
      junctionView = memref::CollapseShapeOp::create(b, loc, destView, dims);
    }
    emitBlocks(/*alignedRows=*/false);
    realigning = false;
    b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
    emitBlocks(/*alignedRows=*/false);
    return;
  }
  if (!e.nontemporal || !rowsAligned) {
    emitBlocks(/*alignedRows=*/false);
    return;
  }
  scf::IfOp ifOp = x.createIfAligned(e.destPointer, storeBytes);
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
    return emitTileRowBlocks(k, active);
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
