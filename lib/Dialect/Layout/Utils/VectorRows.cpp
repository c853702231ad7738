//===- VectorRows.cpp - The innermost rows of the nest --------------------===//
//
// One row of the destination's innermost physical dim: sources read in runs
// where their index needs division, vector rows (aligned body, masked or
// overlapping edges, non-temporal stores) and rows staged in a
// cache-resident buffer when the destination's rows are not vector-aligned.
// The interleaved rows of (2,1)-style inner tiles: InterleavedRows.cpp.
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"

#include "layout/Dialect/Layout/Utils/ChunkCopy.h"
#include "layout/Xla/TiledLayoutWalk.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/DebugLog.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

std::optional<int64_t> NestEmitter::rowStep(AffineExpr e) {
  AffineExpr p = placeholders.back();
  return IndexExprs::getConstant(x.simplify(e.replace(p, p + 1) - e));
}

std::optional<NestEmitter::RowRead>
NestEmitter::classifyRowSource(MemRefType viewType,
                               ArrayRef<AffineExpr> index) {
  SmallVector<int64_t> steps;
  for (AffineExpr e : index) {
    std::optional<int64_t> st = rowStep(e);
    if (!st)
      return std::nullopt;
    steps.push_back(*st);
  }
  if (llvm::all_of(steps, [](int64_t v) { return v == 0; }))
    return RowRead{RowRead::Constant};
  if (!viewType.getLayout().isIdentity())
    return std::nullopt;
  if (isUnitInLastDim(steps))
    return RowRead{RowRead::Contiguous};
  // One dim moves by one, and the dims after it (a sub-tile of at most
  // kMaxRowReadStride slots) stay fixed.
  auto moving = llvm::find(steps, 1);
  unsigned dim = moving - steps.begin();
  if (moving == steps.end() ||
      llvm::any_of(steps, [&](int64_t v) { return v != 0 && v != 1; }) ||
      llvm::count(steps, 1) != 1 || !viewType.hasStaticShape())
    return std::nullopt;
  int64_t stride = 1;
  for (int64_t size : viewType.getShape().drop_front(dim + 1)) {
    if (size > kMaxRowReadStride)
      return std::nullopt;
    stride *= size;
    if (stride > kMaxRowReadStride)
      return std::nullopt;
  }
  // The flat view's index: every stride of the view fits int64.
  std::optional<int64_t> slots = 1;
  for (int64_t size : viewType.getShape())
    if (slots)
      slots = llvm::checkedMul(*slots, size);
  if (!slots)
    return std::nullopt;
  return RowRead{RowRead::Strided, dim, stride};
}

NestEmitter::RowRuns NestEmitter::analyzeRowRuns() {
  RowRuns r;
  r.runs.resize(sources.size());
  // The destination's logical dim that p moves (by one).
  for (auto [d, e] : llvm::enumerate(logical)) {
    std::optional<int64_t> s = rowStep(e);
    if (!s) {
      r.movingDim = -2;
      break;
    }
    if (*s == 1 && r.movingDim == -1)
      r.movingDim = d;
    else if (*s != 0)
      r.movingDim = -2;
  }
  if (r.movingDim < 0)
    return r;
  // Sources whose index is not affine in p are read in runs.
  for (auto [i, s] : llvm::enumerate(sources)) {
    bool needsRuns = llvm::any_of(
        s.index, [&](AffineExpr e) { return !rowStep(e).has_value(); });
    if (!needsRuns || !s.map)
      continue;
    auto it = llvm::find(s.dimMap, r.movingDim);
    if (it == s.dimMap.end())
      continue;
    std::optional<AffineRun> run = getAffineRun(*s.map, it - s.dimMap.begin());
    if (!run || run->length <= 1)
      continue;
    r.runs[i] = run;
    r.runLength = std::gcd(r.runLength, run->length);
  }
  return r;
}

std::function<AffineExpr()> NestEmitter::hoistAlongRow(AffineExpr e) {
  // The p = 0 value of an affine index expression is hoisted; the others
  // stay inline (per-element division: the fallback).
  AffineExpr p = placeholders.back();
  if (std::optional<int64_t> s = rowStep(e)) {
    AffineExpr base = x.hoist(e.replace(p, x.cst(0)));
    int64_t st = *s;
    return [=] { return base + p * st; };
  }
  return [=] { return e; };
}

void NestEmitter::emitRowBody(ArrayRef<AffineExpr> lbs,
                              ArrayRef<AffineExpr> ubs,
                              ArrayRef<IndexFns> sourceIndex) {
  if (lanes) {
    SmallVector<Value> views;
    for (const Source &s : sources)
      views.push_back(s.view);
    if (emitVectorRow(lbs, ubs, views, sourceIndex, fn,
                      stagingTarget ? *stagingTarget : getDestTarget()))
      return;
    assert(!stagingTarget && "staged rows are vectorizable");
  }
  AffineExpr p = placeholders.back();
  x.forLoop(lbs, ubs, [&](Value iv) {
    x.bind(p, iv);
    SmallVector<AffineExpr> dst(destIndex);
    SmallVector<SmallVector<AffineExpr>> srcs;
    for (const auto &index : sourceIndex) {
      srcs.emplace_back();
      for (const auto &f : index)
        srcs.back().push_back(f());
    }
    emitElement(dst, srcs);
  });
}

bool NestEmitter::isSingleRun(const RowRuns &r) {
  // A row that provably lies inside one run (its length divides the run
  // length and its start is a multiple of it, e.g. T(8,128) -> T(16,64))
  // needs no segment loop: one segment, computed once per row.
  AffineExpr p = placeholders.back();
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes.back());
  if (!rowLength || r.runLength % *rowLength != 0)
    return false;
  std::optional<LinearForm> form = getLinearForm(
      x.simplify(logical[r.movingDim].replace(p, x.cst(0))), placeholders);
  return form && form->constant % *rowLength == 0 &&
         llvm::all_of(form->coeffs,
                      [&](int64_t c) { return c % *rowLength == 0; });
}

AffineExpr NestEmitter::getSubTileSlot(MemRefType viewType,
                                       ArrayRef<AffineExpr> index,
                                       unsigned dim) {
  SmallVector<int64_t> strides = computeSuffixProduct(viewType.getShape());
  return linearize(viewType.getContext(), index.drop_front(dim + 1),
                   ArrayRef(strides).drop_front(dim + 1));
}

std::optional<SmallVector<NestEmitter::RowRead>>
NestEmitter::classifyRowRuns(const RowRuns &r) {
  SmallVector<RowRead> reads;
  for (auto [i, s] : llvm::enumerate(sources)) {
    auto viewType = cast<MemRefType>(s.view.getType());
    std::optional<RowRead> read;
    if (r.runs[i]) {
      // A run is read as a vector of its source: contiguous, or strided
      // through sub-tiles ((2,1), (4,1): RowRead::Strided). Its index
      // moves along the row as emitRunSegment's does (by the run's stride
      // in its physical dim), which is all classifyRowSource looks at.
      SmallVector<AffineExpr> alongRun;
      for (auto k : llvm::seq<int64_t>(0, s.index.size()))
        alongRun.push_back(k == r.runs[i]->physicalDim
                               ? placeholders.back() * r.runs[i]->stride
                               : x.cst(0));
      if (viewType.getLayout().isIdentity())
        read = classifyRowSource(viewType, alongRun);
    } else {
      read = classifyRowSource(viewType, s.index);
    }
    if (!read)
      return std::nullopt;
    reads.push_back(*read);
  }
  return reads;
}

std::optional<AffineExpr> NestEmitter::prepareStagedRow(const RowRuns &r) {
  // Segments of a destination row that is not vector-aligned (its row
  // stride is not a multiple of the vector) would each need a masked head
  // and tail: they go to an aligned staging row in the cache instead
  // (aligned segments), which is then copied with aligned (non-temporal)
  // vector stores: one masked head and tail per row.
  unsigned n = placeholders.size();
  if (plan.walksSource() || plan.reordersDest())
    return std::nullopt;
  std::optional<int64_t> destRowLength =
      IndexExprs::getConstant(physSizes[n - 1]);
  if (!lanes || n < 2 || !destRowLength || *destRowLength < lanes ||
      (destStrides[n - 2] * elementBytes) % options.vectorBytes == 0 ||
      (destStrides[n - 2] + lanes) * elementBytes > (64 << 10))
    return std::nullopt;
  // Strided runs unstaged took a masked head and tail per segment:
  // u8[4093,4099] (4,1) -> row-major, Zen 4, AVX-512 code, the one
  // function timed alone, 8.6-9.0 GB/s unstaged, 11.5-11.7 staged
  // (docs/performance.md, "Sub-tiles into odd rows, staged").
  if (!classifyRowRuns(r))
    return std::nullopt;
  report.add(NestKernel::StagedRows);
  AffineExpr p = placeholders.back();
  Value stage = getStagingRow(destStrides[n - 2] + lanes);
  AffineExpr stagePointer = x.value(
      memref::ExtractAlignedPointerAsIndexOp::create(x.b, x.loc, stage));
  // Segments start at multiples of the run length in the staging row
  // (aligned stores); the copy reads it unaligned.
  AffineExpr shift = x.cst(0);
  stagingTarget = RowTarget{stage, stagePointer + shift * elementBytes,
                            [=] { return SmallVector<AffineExpr>{shift + p}; },
                            /*nontemporal=*/false, /*unpeeled=*/true};
  return shift;
}

void NestEmitter::emitRunSegment(const RowRuns &r, const RunSegment &seg,
                                 ArrayRef<AffineExpr> ubs, Value iv) {
  AffineExpr p = placeholders.back();
  x.bind(seg.sigma, iv);
  // p where the segment starts (may be before this row's range).
  AffineExpr start = x.hoist(seg.sigma * r.runLength - seg.base);
  SmallVector<IndexFns> sourceIndex;
  for (auto [i, s] : llvm::enumerate(sources)) {
    if (!r.runs[i]) {
      sourceIndex.push_back(seg.hoisted[i]);
      continue;
    }
    sourceIndex.emplace_back();
    for (auto [k, e] : llvm::enumerate(s.index)) {
      AffineExpr at = x.hoist(e.replace(p, start));
      int64_t st = static_cast<int64_t>(k) == r.runs[i]->physicalDim
                       ? r.runs[i]->stride
                       : 0;
      sourceIndex.back().push_back([=] { return at + (p - start) * st; });
    }
  }
  if (seg.prefetchAt)
    prefetchRunsAhead(r, start, *seg.prefetchAt);
  SmallVector<AffineExpr> innerUbs(ubs.begin(), ubs.end());
  if (seg.singleRun) {
    emitRowBody({x.cst(0)}, innerUbs, sourceIndex);
    return;
  }
  innerUbs.push_back(start + r.runLength);
  emitRowBody({x.cst(0), start}, innerUbs, sourceIndex);
}

RunPrefetchPlan NestEmitter::planRunPrefetch(const RowRuns &r, unsigned i) {
  const Source &s = sources[i];
  auto viewType = cast<MemRefType>(s.view.getType());
  if (!r.runs[i] || r.runs[i]->stride != 1 || !viewType.hasStaticShape())
    return {};
  ArrayRef<int64_t> shape = viewType.getShape();
  int64_t dim = r.runs[i]->physicalDim;
  return layout::planRunPrefetch(r.runLength, shape[dim],
                                 computeProduct(shape.drop_front(dim + 1)),
                                 elementBytes, nontemporal);
}

llvm::SmallBitVector NestEmitter::getRunPrefetchSources(const RowRuns &r) {
  llvm::SmallBitVector prefetched(sources.size());
  for (unsigned i : llvm::seq<unsigned>(0, sources.size()))
    prefetched[i] = planRunPrefetch(r, i).lines > 0;
  return prefetched;
}

bool NestEmitter::isVectorRow() {
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes.back());
  return lanes && rowLength && *rowLength >= lanes;
}

std::optional<NestEmitter::RunPrefetchAt>
NestEmitter::getRunPrefetchRow(const RowRuns &r) {
  // The row kRunPrefetchRows ahead, clamped to the last one: the level
  // before the row's must be a whole dim of the destination (a tiled
  // destination's rows-in-tile level would reach past the array in its
  // last, partial tile: getRunPrefetchTile).
  unsigned n = placeholders.size();
  AffineExpr row = placeholders[n - 2];
  llvm::SmallBitVector prefetched = getRunPrefetchSources(r);
  if (!llvm::is_contained(logical, row) || prefetched.none())
    return std::nullopt;
  AffineExpr ahead = x.value(x.materializeMinMax(
      {row + kRunPrefetchRows, physSizes[n - 2] - 1}, /*isMax=*/false));
  return RunPrefetchAt{{{row, ahead}}, prefetched, /*clampFlat=*/false};
}

std::optional<NestEmitter::RunPrefetchAt>
NestEmitter::getRunPrefetchTile(const RowRuns &r, ArrayRef<RowRead> reads) {
  // Rows of 2-D tiles (levels n-4, n-3: the row and the column of tiles,
  // then the tile's rows and the row) whose source is in sub-tiles, read
  // strided (RowRead::Strided), read a few lines of a source tile per row,
  // the next tile's a page or so further (u8 T(32,128)(4,1) -> T(8,128):
  // 512 bytes of each 4 KiB tile): short streams the hardware prefetchers
  // do not run ahead of. Their runs are prefetched in the tile
  // kRunPrefetchTileBytes of destination ahead, on into the next row of
  // tiles, clamped to the last tile (of this slice of a 3-D array); that
  // position may be a padding row the source does not hold (a source tile
  // shorter than the destination's), so the source's flat offset is
  // clamped too. Rows that take vectors only (not the scalar rows of a
  // misaligned row's fallback, nor the inner dims of a destination in
  // sub-tiles).
  unsigned n = placeholders.size();
  if (n < 4 || plan.walksSource() || plan.reordersDest() || !isVectorRow() ||
      llvm::is_contained(logical, placeholders[n - 2]))
    return std::nullopt;
  std::optional<int64_t> rows = IndexExprs::getConstant(physSizes[n - 4]);
  std::optional<int64_t> cols = IndexExprs::getConstant(physSizes[n - 3]);
  std::optional<int64_t> tileRows = IndexExprs::getConstant(physSizes[n - 2]);
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes[n - 1]);
  if (!rows || !cols || !tileRows || !rowLength || *rows * *cols < 2)
    return std::nullopt;
  // The levels are those of 2-D tiles: two dims of the array are
  // p_{n-4} * tileRows + p_{n-2} and p_{n-3} * rowLength + p_{n-1}.
  AffineExpr row = placeholders[n - 4], col = placeholders[n - 3];
  auto isTiledDim = [&](AffineExpr outer, AffineExpr inner, int64_t size) {
    return llvm::any_of(logical, [&](AffineExpr e) {
      return IndexExprs::getConstant(x.simplify(e - outer * size - inner)) == 0;
    });
  };
  if (!isTiledDim(row, placeholders[n - 2], *tileRows) ||
      !isTiledDim(col, placeholders[n - 1], *rowLength))
    return std::nullopt;
  // Per source: in sub-tiles read strided, and not read in order, a tile
  // of it per destination tile (bf16 T(8,128)(2,1) -> T(8,128): whole 2
  // KiB tiles one after the other, a stream the hardware prefetchers
  // follow; bench/pairs bf16[4096,4096] sub-tiled -> tiled, Zen 4,
  // AVX-512 code: 1.35-1.39x memcpy without, 1.21 with the prefetches).
  // Two or more such streams (a source tile shorter than the
  // destination's) are prefetched (not measured apart).
  llvm::SmallBitVector prefetched = getRunPrefetchSources(r);
  for (int i : prefetched.set_bits()) {
    auto viewType = cast<MemRefType>(sources[i].view.getType());
    SmallVector<AffineExpr> index;
    for (AffineExpr e : sources[i].index)
      index.push_back(e.replace(placeholders.back(), x.cst(0)));
    AffineExpr flat =
        linearize(x.context, index, computeSuffixProduct(viewType.getShape()));
    std::optional<int64_t> step =
        IndexExprs::getConstant(x.simplify(flat.replace(col, col + 1) - flat));
    if (reads[i].kind != RowRead::Strided || step == destStrides[n - 3])
      prefetched.reset(i);
  }
  if (prefetched.none())
    return std::nullopt;
  int64_t tiles = llvm::divideCeil(kRunPrefetchTileBytes,
                                   destStrides[n - 3] * elementBytes);
  AffineExpr linear = x.value(
      x.materializeMinMax({row * *cols + col + tiles, x.cst(*rows * *cols - 1)},
                          /*isMax=*/false));
  return RunPrefetchAt{{{row, linear.floorDiv(*cols)}, {col, linear % *cols}},
                       prefetched,
                       /*clampFlat=*/true};
}

void NestEmitter::prefetchRunsAhead(const RowRuns &r, AffineExpr start,
                                    const RunPrefetchAt &at) {
  // Each run's lines (planRunPrefetch) at the position `at`, into L2
  // (kRunPrefetchLocality).
  DenseMap<AffineExpr, AffineExpr> position(at.ahead.begin(), at.ahead.end());
  position[placeholders.back()] = start;
  for (int i : at.sources.set_bits()) {
    const Source &s = sources[i];
    RunPrefetchPlan plan = planRunPrefetch(r, i);
    int64_t dim = r.runs[i]->physicalDim;
    // The sub-tile's first slot (the line's start: planRunPrefetch's steps
    // divide a line or are whole lines) of line `line`.
    auto getIndex = [&](int64_t line) {
      SmallVector<AffineExpr> index;
      for (auto [k, ex] : llvm::enumerate(s.index))
        index.push_back(static_cast<int64_t>(k) < dim ? ex.replace(position)
                        : static_cast<int64_t>(k) == dim
                            ? x.cst(line * plan.lineSteps)
                            : x.cst(0));
      return index;
    };
    auto prefetch = [&](Value view, ValueRange indices) {
      memref::PrefetchOp::create(x.b, x.loc, view, indices,
                                 /*isWrite=*/false,
                                 /*localityHint=*/kRunPrefetchLocality,
                                 /*isDataCache=*/true);
    };
    if (!at.clampFlat) {
      for (int64_t line = 0; line < plan.lines; ++line)
        prefetch(s.view, llvm::map_to_vector(getIndex(line), [&](AffineExpr e) {
                   return x.materialize(e);
                 }));
      continue;
    }
    // The run's first line clamped so that its last is the source's
    // (planRunPrefetch: a static identity view).
    auto viewType = cast<MemRefType>(s.view.getType());
    SmallVector<int64_t> strides = computeSuffixProduct(viewType.getShape());
    int64_t lineStride = plan.lineSteps * strides[dim];
    AffineExpr first = x.value(x.materializeMinMax(
        {linearize(x.context, getIndex(0), strides),
         x.cst(viewType.getNumElements() - 1 - (plan.lines - 1) * lineStride)},
        /*isMax=*/false));
    Value flatView = getFlatView(x.b, x.loc, s.view);
    for (int64_t line = 0; line < plan.lines; ++line)
      prefetch(flatView, x.materialize(first + line * lineStride));
  }
}

void NestEmitter::emitRowInRuns(ArrayRef<AffineExpr> ubs, const RowRuns &r) {
  // Runs of `runLength` along the moving logical dim e = base + p:
  // segment sigma covers e in [sigma * P, (sigma + 1) * P).
  AffineExpr p = placeholders.back();
  RunSegment seg;
  seg.base = x.hoist(logical[r.movingDim].replace(p, x.cst(0)));
  for (auto [i, s] : llvm::enumerate(sources)) {
    seg.hoisted.emplace_back();
    if (!r.runs[i])
      for (AffineExpr e : s.index)
        seg.hoisted.back().push_back(hoistAlongRow(e));
  }
  seg.singleRun = isSingleRun(r);
  if (!seg.singleRun)
    seg.stageShift = prepareStagedRow(r);
  // (Sources not read in runs are hoisted above: they keep their slot.)
  std::optional<SmallVector<RowRead>> reads = classifyRowRuns(r);
  if (reads)
    for (auto [read, run] : llvm::zip(*reads, r.runs))
      if (!run)
        read = RowRead{RowRead::Contiguous};
  if (seg.stageShift)
    seg.prefetchAt = getRunPrefetchRow(r);
  else if (reads)
    seg.prefetchAt = getRunPrefetchTile(r, *reads);
  seg.sigma = x.placeholder();
  dispatchSubTileSlots(reads, [&] {
    if (seg.singleRun) {
      emitRunSegment(r, seg, ubs,
                     x.materialize(seg.base.floorDiv(r.runLength)));
      return;
    }
    SmallVector<AffineExpr> segUbs;
    for (AffineExpr ub : ubs)
      segUbs.push_back((seg.base + ub - 1).floorDiv(r.runLength) + 1);
    x.forLoop({seg.base.floorDiv(r.runLength)}, segUbs,
              [&](Value iv) { emitRunSegment(r, seg, ubs, iv); });
  });
  if (seg.stageShift) {
    // The whole row, once it is staged. Copied after each segment (the
    // aligned vectors it completed), each copy's unaligned loads read
    // the staging row's stores of a moment before, still in the store
    // buffer: no forwarding, a stall per load. u8[256,1029] (4,1) ->
    // row-major, in L2 (cached stores), Zen 4, AVX-512 code, one thread:
    // 22.9 GB/s after each segment, 26.3 a segment later, 34.9-37.5 once
    // per row. Streaming from memory the three measured alike (the one
    // function alone, u8[4093,4099]: 14.0-14.6 GB/s; bench/pairs
    // sub-tiled -> row-major, two alternated runs each: within this VM's
    // noise; docs/performance.md, "Sub-tiles into odd rows, staged").
    stagingTarget.reset();
    AffineExpr end = x.value(x.materializeMinMax(ubs, /*isMax=*/false));
    emitStagedCopy({x.cst(0)}, {end}, *seg.stageShift);
  }
}

void NestEmitter::dispatchSubTileSlots(
    const std::optional<SmallVector<RowRead>> &reads,
    function_ref<void()> body) {
  // A strided read picks its slot's lanes from the `stride` vectors it
  // loads: with the slot a run-time value, one shuffle per slot and a
  // select each (u8 (4,1): four shuffles of four vectors and three
  // selects per vector); with a constant slot, one shuffle. The slot is
  // the same along the row, so the row is built once per slot. Only rows
  // that take vectors (scalar rows would be built `slots` times for
  // nothing).
  AffineExpr p = placeholders.back();
  std::optional<AffineExpr> slot;
  int64_t slots = 0;
  SmallVector<unsigned> fixed;
  if (reads && isVectorRow()) {
    for (auto [i, read] : llvm::enumerate(*reads)) {
      if (read.kind != RowRead::Strided)
        continue;
      AffineExpr e =
          x.simplify(getSubTileSlot(cast<MemRefType>(sources[i].view.getType()),
                                    sources[i].index, read.dim));
      if (IndexExprs::getConstant(e) || x.simplify(e.replace(p, p + 1)) != e)
        continue;
      if (!slot) {
        slot = e;
        slots = read.stride;
      }
      if (e == *slot && read.stride == slots)
        fixed.push_back(i);
    }
  }
  if (!slot) {
    body();
    return;
  }
  LDBG() << "rows dispatched on a sub-tile slot: " << *slot;
  auto dispatch = scf::IndexSwitchOp::create(
      x.b, x.loc, TypeRange{}, x.materialize(*slot),
      llvm::to_vector(llvm::seq<int64_t>(0, slots - 1)), slots - 1);
  OpBuilder::InsertionGuard guard(x.b);
  for (int64_t c = 0; c < slots; ++c) {
    // The last slot is the default: the slot linearizes the physical
    // index of the sub-tile dims (each below its size) of the elements
    // the row reads, so it is below `slots` (a row without elements runs
    // an empty body).
    Region &region = c + 1 < slots ? dispatch.getCaseRegions()[c]
                                   : dispatch.getDefaultRegion();
    x.b.setInsertionPointToStart(x.b.createBlock(&region));
    x.b.setInsertionPoint(scf::YieldOp::create(x.b, x.loc));
    SmallVector<SmallVector<AffineExpr>> saved;
    for (unsigned i : fixed)
      saved.push_back(sources[i].index);
    llvm::scope_exit restore([&] {
      for (auto [i, index] : llvm::zip(fixed, saved))
        sources[i].index = index;
    });
    for (unsigned i : fixed) {
      unsigned dim = (*reads)[i].dim;
      ArrayRef<int64_t> inner = cast<MemRefType>(sources[i].view.getType())
                                    .getShape()
                                    .drop_front(dim + 1);
      for (auto [k, v] :
           llvm::enumerate(delinearize(c, computeSuffixProduct(inner))))
        sources[i].index[dim + 1 + k] = x.cst(v);
    }
    body();
  }
}

void NestEmitter::emitRowPadding(ArrayRef<AffineExpr> ubs) {
  // Padding after the valid prefix of the row: ubs[0] is the row's end,
  // ubs[1..] the bounds of its valid elements. Walking the source: none
  // (source padding is skipped).
  if (plan.walksSource())
    return;
  AffineExpr p = placeholders.back();
  for (unsigned i = 1; i < ubs.size(); ++i) {
    SmallVector<AffineExpr> lbs{ubs[i]}, padUbs{ubs[0]};
    for (unsigned j = 1; j < i; ++j)
      padUbs.push_back(ubs[j]);
    x.forLoop(lbs, padUbs, [&](Value iv) {
      x.bind(p, iv);
      x.store(getPadValue(), destView, destIndex);
    });
  }
}

void NestEmitter::emitRow(ArrayRef<AffineExpr> ubs) {
  RowRuns r = analyzeRowRuns();
  if (r.runLength <= 1) {
    // Every source is read along the row by its index (none: no vectors).
    std::optional<SmallVector<RowRead>> reads = SmallVector<RowRead>();
    for (const Source &s : sources) {
      std::optional<RowRead> read =
          classifyRowSource(cast<MemRefType>(s.view.getType()), s.index);
      if (!read) {
        reads.reset();
        break;
      }
      reads->push_back(*read);
    }
    dispatchSubTileSlots(reads, [&] {
      SmallVector<IndexFns> sourceIndex;
      for (const Source &s : sources) {
        sourceIndex.emplace_back();
        for (AffineExpr e : s.index)
          sourceIndex.back().push_back(hoistAlongRow(e));
      }
      emitRowBody({}, ubs, sourceIndex);
    });
  } else {
    report.add(NestKernel::RowsInRuns);
    emitRowInRuns(ubs, r);
  }
  emitRowPadding(ubs);
}

/// The destination as a vector row's target (VectorRowKernel.cpp).
NestEmitter::RowTarget NestEmitter::getDestTarget() {
  // The destination index at p = 0 (rows are contiguous in its last dim).
  AffineExpr p = placeholders.back();
  AffineExpr row = destPointer;
  for (auto [e, stride] : llvm::zip(destIndex, destStrides))
    row = row + e.replace(p, x.cst(0)) * (stride * elementBytes);
  return {destView, row, [this] { return destIndex; }, nontemporal};
}

/// Per source of a row: how it is read along the row (classifyRowSource);
/// nullopt if one source takes no vector kind.
std::optional<SmallVector<NestEmitter::RowRead>>
NestEmitter::classifyRowSources(ArrayRef<Value> views,
                                ArrayRef<IndexFns> sourceIndex) {
  SmallVector<RowRead> reads;
  for (auto [view, index] : llvm::zip(views, sourceIndex)) {
    SmallVector<AffineExpr> exprs;
    for (const auto &f : index)
      exprs.push_back(f());
    std::optional<RowRead> read =
        classifyRowSource(cast<MemRefType>(view.getType()), exprs);
    if (!read)
      return std::nullopt;
    reads.push_back(*read);
  }
  return reads;
}

VectorType NestEmitter::getMoveType(VectorType type) {
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  if (!copiesElements || !floatType)
    return type;
  return type.clone(IntegerType::get(x.context, floatType.getWidth()));
}

Value NestEmitter::toMoveType(Value vector) {
  auto type = cast<VectorType>(vector.getType());
  VectorType moveType = getMoveType(type);
  if (moveType == type)
    return vector;
  return vector::BitCastOp::create(x.b, x.loc, moveType, vector);
}

Value NestEmitter::fromMoveType(Value vector, Type elementType) {
  auto type = cast<VectorType>(vector.getType());
  if (type.getElementType() == elementType)
    return vector;
  return vector::BitCastOp::create(x.b, x.loc, type.clone(elementType), vector);
}
