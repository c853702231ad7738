//===- TransposeBlockPlanning.cpp - Planning blocked transposes -----------===//
//
// The planning half of a blocked transpose (TransposeBlocks.cpp emits it):
// whether a nest's plane takes blocks at all (its sources cross the
// destination's rows with constant steps, or within aligned tiles), the
// block side and width (planTransposeBlocks), the order of the middle dims
// and the parallel chunks (planTransposeChunks). The numbers come from
// layout/Xla/KernelPlan.h; this file reads the nest's index maps into
// them.
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"
#include "TransposeBlocks.h"
#include "layout/Xla/StagingLayout.h"

#include "llvm/ADT/STLExtras.h"
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
  // (A `(q,1)` sub-tiled destination, [..., columns, q, 1]: its columns
  // are the rows of emitInterleavedStoreBlocks' blocks.)
  unsigned row = n - 1;
  if (n >= 5 && IndexExprs::getConstant(physSizes[n - 1]) == 1 &&
      IndexExprs::getConstant(physSizes[n - 2]).value_or(0) >= 2)
    row = n - 3;
  std::optional<int64_t> sizeR = IndexExprs::getConstant(physSizes[row]);
  AffineExpr pr = placeholders[row];
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

/// Whether every source read in blocks moves by a constant whole number of
/// lines from one row along p_r to the next (constant steps into a static
/// identity view, TransposePlaneFacts::lineStridedRows). Rows at an odd
/// pitch or inside tiles are not.
bool TransposeBlockKernel::hasLineStridedRows() const {
  for (auto [read, source] : llvm::zip(reads, e.sources)) {
    if (read.kind != Read::Block)
      continue;
    // Tiles, interleaved runs: no constant step along p_r.
    if (!read.globalR)
      return false;
    // The step in the identity view; unknown (a dynamic shape) counts as
    // lines, the behaviour before the fact existed (no prefetches).
    auto type = cast<MemRefType>(source.view.getType());
    std::optional<int64_t> step = getLinearStep(*read.globalR, type.getShape());
    if (!step)
      continue;
    int64_t bytes = type.getElementTypeBitWidth() / 8;
    if (bytes > 0 && (*step % 64) * bytes % 64 != 0)
      return false;
  }
  return true;
}

bool TransposeBlockKernel::hasPlainRows() const {
  return llvm::all_of(reads, [](const SourceRead &read) {
    return read.kind != Read::Block || isCrossing(read.globalK, read.globalR);
  });
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
  facts.prefetchedGroupBytes = e.options.prefetchedGroupBytes;
  facts.rowReads = llvm::any_of(
      reads, [](const SourceRead &read) { return read.kind != Read::Block; });
  facts.lineStridedRows = hasLineStridedRows();
  facts.plainRows = hasPlainRows();
  facts.blockSources = llvm::count_if(
      reads, [](const SourceRead &read) { return read.kind == Read::Block; });
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
  lineSpan = blocks->lineStageBytes / e.elementBytes;
  linePrefetchRows = blocks->linePrefetchRows;
  // (The prefetches clamp each index to its dim: static extents only.)
  if (linePrefetchRows && !viewType.hasStaticShape())
    linePrefetchRows = 0;
  wrapPrefetch = blocks->wrapPrefetch;
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
  // Blocks whose rows are narrower than the target's registers (8-bit 16
  // x 16 and 16-bit 16 x 16 on AVX-512 and AVX2) go through
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
  std::optional<SmallVector<int64_t>> checked =
      getCheckedStrides(viewType.getShape());
  if (!checked)
    return;
  SmallVector<int64_t> strides = std::move(*checked);
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
  // (the last chunk takes the remainder; the column chunks of flat rows
  // share one line per row and boundary, below). Preferably along the outermost
  // middle dim m, which keeps each thread's loop order (and so its source
  // page walk) as above: line-safe when a chunk of m and one iteration of
  // the dim outside it are whole lines, or nearly so when the chunks are
  // large (mayChunkMiddleDim). Else along p_k, in chunks of whole
  // groups and lines (the level's chunk rounded up to a multiple of the
  // group, or to one of lcm(chunk, V) when whole groups leave fewer than
  // max(kMinParallelChunks, threads) chunks: getTransposeChunkRows), the
  // last one also taking the overlapping edge block. (Chunks of one
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
  // Chunks of p_k, or of p_r where those would read less than a source
  // line per row visit, or would cut a flat row's group
  // (planTransposeChunks). Column chunks where every store of a chunk
  // stays inside its columns: plain rows that start on lines (no line
  // shared between chunks), or flat rows (realigned: each chunk's head and
  // tail stored element-exactly, rowBlocks; never junction lines); no
  // merged tile rows, bound checks or element-by-element p_k edge.
  int64_t lineBytes = std::max<int64_t>(64, storeBytes);
  TransposeChunkFacts facts;
  facts.sizeK = sizeK;
  facts.sizeR = sizeR;
  // (The nest's chunks of this level may meet inside a line: the kernel's
  // own chunks keep to whole lines of p_k rows all the same.)
  facts.parallelChunk = e.plan.parallelChunk;
  if (e.plan.midLineChunks)
    facts.parallelChunk = std::lcm(
        facts.parallelChunk, getLineGranule(e.destStrides[k] * elementBytes));
  facts.group = group;
  facts.side = v;
  facts.width = width;
  facts.elementBytes = elementBytes;
  facts.storeBytes = storeBytes;
  facts.threads = e.options.parallelThreads;
  facts.mayChunkColumns =
      middleChunks < 2 && !mergedRows && !(alignedK && sizeK % v) && !validR &&
      !validK &&
      (flatRows || (e.destStrides[rowOuter] * elementBytes) % lineBytes == 0);
  facts.flatRows = flatRows;
  TransposeChunkPlan chunking = planTransposeChunks(facts);
  chunkRows = chunking.rows;
  chunkColumns = chunking.columns;
  (chunkRows ? chunks : columnChunks) = chunking.count;
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
  stagedRowsPlanned = planStagedRows(
      (e.destStrides[rowOuter] * e.elementBytes) % storeBytes == 0);
  planParallel();
  if (!planStaged())
    stageK = stageR = 0;
  // Interleaved stores build whole runs of q rows per block (V a multiple
  // of q, blocks at multiples of V) into aligned rows: not with the
  // variants that store rows one at a time elsewhere (flat, realigned or
  // staged rows, staged tiles). And only the pairs the library's
  // getInterleavedStores names (the planner describes this kernel for
  // them, the lowering stages the others): an untiled source read with
  // constant steps, runs of at most 32 bits, tile rows of at most
  // kInterleavedStoreTileBits.
  if (int64_t q = e.interleavedStores) {
    storeRuns = q;
    bool rowsAligned = rowsStartAligned();
    bool plainReads = llvm::all_of(reads, [](const SourceRead &read) {
      return read.kind == Read::Block && !read.alignedK && !read.alignedR &&
             read.interleave == 1;
    });
    int64_t bits = 8 * e.elementBytes;
    if (!mergedRows || v % q != 0 || flatRows || stageK || stagedRowsPlanned ||
        (e.nontemporal && !rowsAligned) || !plainReads ||
        q * bits > kMaxInterleavedRunBits ||
        mergedRows * bits > kInterleavedStoreTileBits) {
      LDBG() << "no interleaved stores of " << q << " rows at level " << k;
      storeRuns = 0;
      return false;
    }
  }
  return true;
}
