//===- RunWalk.cpp - Tiled-to-tiled copies walked run by run --------------===//
//
// A copy between two tilings of one array (f32[4096,4096] {1,0:T(8,128)} ->
// {1,0:T(16,64)}) has no destination index affine in the source's physical
// index (prepareSourceWalk): the destination tile of a source element
// divides by the tile sizes. It is still a set of runs, contiguous in both
// buffers, whose starts form an affine nest when visited in the source's
// order (factorRunNest, layout/Xla/LayoutAlgebra.h): for the example, runs
// of 64 elements, (destination, source) steps (1024, 64) for the two halves
// of a source tile row, (64, 128) for its 8 rows, (2048, 1024) for the tile
// columns, (512, 2048) and (4096, 4096) for the tile rows. The nest's
// levels become the walk's dims over the flat physical buffers and each
// run is a vector row, so the source is read in order and every run is
// written with whole (streaming) vectors.
//
// Measured on AMD Zen 5 (AVX-512), the example, standalone C++ loops with
// the same 64-byte loads and streaming stores: walking the destination's
// tile rows 33 GB/s on one thread and 55 on two, walking these runs 42 and
// 61-63 (the two-thread streaming-copy ceiling: 60); docs/performance.md,
// "Tiled to tiled".
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/ChunkCopy.h"
#include "layout/Xla/LayoutAlgebra.h"

#include <algorithm>
#include <numeric>

#include "llvm/Support/DebugLog.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

/// The logical dim along which the innermost physical dim of `map` moves
/// (slots 0 and 1 differ by one in it and nowhere else), or -1.
static int64_t getInnermostLogicalDim(const TiledLayoutMap &map) {
  std::optional<SmallVector<int64_t, 6>> a = map.logicalIndex(0),
                                         b = map.logicalIndex(1);
  if (!a || !b)
    return -1;
  int64_t dim = -1;
  for (auto [d, pair] : llvm::enumerate(llvm::zip(*a, *b))) {
    auto [u, v] = pair;
    if (u == v)
      continue;
    if (v != u + 1 || dim >= 0)
      return -1;
    dim = static_cast<int64_t>(d);
  }
  return dim;
}

bool NestEmitter::prepareRunWalk(Value dest, ArrayRef<LoopSource> loopSources) {
  std::optional<int64_t> bytes = getWalkedCopyElementBytes(dest, loopSources);
  if (!bytes)
    return false;
  int64_t elementBytes = *bytes;
  auto destType = cast<MemRefType>(dest.getType());
  const LoopSource &s = loopSources[0];
  auto srcType = cast<MemRefType>(s.memref.getType());
  // Both tiled, without padding slots (every slot is an element); the
  // other pairs have their own walks (the destination's, or the source's
  // for untiled destinations and permutations).
  MemRefType srcPhys, destPhys;
  std::optional<TiledLayoutMap> srcMap, destMap;
  if (!getWalkView(srcType, srcPhys, srcMap) ||
      !getWalkView(destType, destPhys, destMap) || !srcMap || !destMap ||
      srcMap->getLevels().empty() || destMap->getLevels().empty() ||
      srcMap->mayHavePaddingSlots() || destMap->mayHavePaddingSlots()) {
    LDBG() << "no run walk: not two tiled layouts without padding slots";
    return false;
  }
  int64_t slots = srcPhys.getNumElements();
  if (slots != destPhys.getNumElements() || slots != srcMap->getElementCount())
    return false;
  // Runs: the largest L dividing the source's innermost physical dim and
  // both maps' affine runs along the logical dim it moves (stride 1 in both
  // innermost physical dims), so that each block of L source slots is L
  // consecutive slots of the destination.
  int64_t dim = getInnermostLogicalDim(*srcMap);
  if (dim < 0)
    return false;
  int64_t run = srcPhys.getShape().back();
  for (const TiledLayoutMap *map : {&*srcMap, &*destMap}) {
    std::optional<AffineRun> r = getAffineRun(*map, dim);
    int64_t innermost = static_cast<int64_t>(map->getPhysicalDims().size()) - 1;
    if (!r || r->physicalDim != innermost || r->stride != 1)
      return false;
    if (r->length)
      run = std::gcd(run, r->length);
  }
  // At least a vector and a cache line per run: whole vectors.
  if (run * elementBytes < std::max<int64_t>(options.vectorBytes, 64) ||
      slots % run) {
    LDBG() << "no run walk: runs of " << run
           << " elements are shorter than a vector or a cache line";
    return false;
  }
  // The run starts are computed one by one (two map evaluations per run)
  // and factored: the bound is on the starts, not the slots, so arrays of
  // any size with long runs keep the walk (f32[16384,16384] T(8,128) ->
  // T(16,64): 2^22 runs of 64 elements).
  if (slots / run > kMaxRunWalkStarts) {
    LDBG() << "no run walk: " << slots / run << " runs, over "
           << kMaxRunWalkStarts;
    return false;
  }
  std::vector<std::array<int64_t, 2>> starts;
  starts.reserve(slots / run);
  for (int64_t slot = 0; slot < slots; slot += run) {
    std::optional<SmallVector<int64_t, 6>> first = srcMap->logicalIndex(slot);
    if (!first || (*first)[dim] % run)
      return false;
    starts.push_back({destMap->linearIndex(*first), slot});
  }
  std::optional<RunNest> nest = factorRunNest(std::move(starts));
  if (!nest)
    return false;

  plan.walk = NestPlan::Walk::Runs;
  destMemRef = dest;
  destView = getFlatView(
      x.b, x.loc, ToPhysicalOp::create(x.b, x.loc, destPhys, dest).getResult());
  Source source;
  source.view = getFlatView(
      x.b, x.loc,
      ToPhysicalOp::create(x.b, x.loc, srcPhys, s.memref).getResult());
  source.dimMap = {0};
  AffineExpr destFlat = x.cst(nest->base[0]), srcFlat = x.cst(nest->base[1]);
  // Levels outermost first, then the run.
  plan.runsWholeLines = (nest->base[0] * elementBytes) % 64 == 0 &&
                        (run * elementBytes) % 64 == 0;
  for (const RunNest::Level &level : llvm::reverse(nest->levels)) {
    AffineExpr i = x.placeholder();
    placeholders.push_back(i);
    physSizes.push_back(x.cst(level.count));
    destFlat = destFlat + i * level.stride[0];
    srcFlat = srcFlat + i * level.stride[1];
    plan.runsWholeLines &= (level.stride[0] * elementBytes) % 64 == 0;
  }
  AffineExpr p = x.placeholder();
  placeholders.push_back(p);
  physSizes.push_back(x.cst(run));
  destIndex = {x.simplify(destFlat + p)};
  // The row's "logical" index: the flat destination slot (one dim, moved
  // by the run's IV; analyzeRowRuns).
  logical = destIndex;
  source.index = {x.simplify(srcFlat + p)};
  sources.push_back(std::move(source));
  return true;
}

void NestEmitter::prepareParallelRunWalk(int64_t bytes) {
  // Every run is whole cache lines (64-byte aligned buffers): any chunking
  // of any level is line-safe. The outermost level with enough iterations.
  if (!plan.runsWholeLines || bytes < options.parallelThresholdBytes)
    return;
  int best = -1;
  int64_t bestCount = 1;
  for (unsigned k = 0; k + 1 < placeholders.size(); ++k) {
    std::optional<int64_t> count = IndexExprs::getConstant(physSizes[k]);
    if (count && *count > bestCount) {
      best = static_cast<int>(k);
      bestCount = *count;
    }
    if (bestCount >= kMinParallelChunks)
      break;
  }
  if (best >= 0)
    setParallelLevel(best, bestCount, 1);
}
