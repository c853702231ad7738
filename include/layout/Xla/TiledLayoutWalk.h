//===- TiledLayoutWalk.h - Walking a tiled layout's buffer ------*- C++ -*-===//
//
// The math that loop generators need to walk a tiled buffer in memory order
// without per-element division: the inverse of the index map as an index
// algebra (physical coordinates -> logical index plus the bound checks that
// tell padding slots apart), the combined index of one tile level (for
// dynamic bounds), and the "affine runs" of a logical dimension: the aligned
// intervals on which moving that dimension by one moves exactly one
// physical coordinate by a constant stride.
//
//   TiledLayoutMap map = ...;                 // f32[3,5]{1,0:T(2,2)}
//   IntegerIndexOps ops;
//   int64_t phys[] = {1, 2, 0, 1};            // tile (1,2), in-tile (0,1)
//   InverseIndex<int64_t> inv = applyInverse<int64_t>(map, phys, ops);
//   // inv.logical == {2, 5}; inv.checks == {{2, 3}, {5, 5}}: 5 < 5 fails,
//   // so the slot is tile padding.
//
//   std::optional<AffineRun> run = getAffineRun(map, /*logicalDim=*/1);
//   // run->length == 2, run->physicalDim == 3, run->stride == 1: on
//   // [2k, 2k+2) the column index moves the last physical coordinate.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_TILEDLAYOUTWALK_H
#define LAYOUT_XLA_TILEDLAYOUTWALK_H

#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::layout {

/// A bound check of the inverse map: the slot holds an element only if
/// `value < bound` for every check. `bound` is kUnboundedSize when it
/// depends on a dynamic size; `level` is the tile level (its `dim` a
/// combined dim of that level), or -1 for a legacy-padded logical `dim`.
template <typename T> struct BoundCheck {
  T value;
  int64_t bound;
  int64_t level;
  int64_t dim;
};

template <typename T> struct InverseIndex {
  /// The logical index stored at the slot (meaningful when all checks hold).
  llvm::SmallVector<T, 6> logical;
  /// Only the checks that can fail: a tiled dim whose size is not a
  /// multiple of its tile (or is dynamic), a legacy-padded dim.
  llvm::SmallVector<BoundCheck<T>, 6> checks;
};

/// The inverse of TiledLayoutMap::apply over any index algebra (the Ops of
/// IndexOpsInterface). Tile levels are undone last to first: a tiled dim is
/// `count * t + inTile` (no division); a `*` group is split back with
/// floorDiv/mod by the inner sizes (the only divisions); prepended size-1
/// dims are dropped; the permutation is undone.
/// Pre: physicalIndex.size() == map.getPhysicalDims().size(). Post: for
/// in-range physical coordinates, all checks hold iff the slot is not
/// padding, and then map.apply(logical) == physicalIndex.
template <typename T, typename Ops>
InverseIndex<T> applyInverse(const TiledLayoutMap &map,
                             llvm::ArrayRef<T> physicalIndex, Ops &ops);

/// The combined index of tile level `level` (after its `*` combines,
/// before its tiling) of a logical index. Used to bound checks with
/// dynamic sizes: a combined dim that depends on a dynamic size (through
/// tile counts, leading dims and the major member of a `*` group) has the
/// size of its index at the largest logical index plus one. (An in-tile
/// dim of an earlier level need not reach t - 1 there; those are static.)
template <typename T, typename Ops>
llvm::SmallVector<T, 6> getLevelCombinedIndex(const TiledLayoutMap &map,
                                              llvm::ArrayRef<T> logicalIndex,
                                              size_t level, Ops &ops);

/// How a logical dimension moves the physical index.
struct AffineRun {
  /// 0: everywhere; else the run length P: on every interval
  /// [k*P, (k+1)*P) of the logical dim (other indices fixed, any values),
  /// physical(e + 1) = physical(e) + stride * unit(physicalDim).
  int64_t length = 0;
  int64_t physicalDim = -1;
  int64_t stride = 0;
};

/// The affine runs of `logicalDim` (an index in [0, rank)). std::nullopt
/// when the structure is not one the analysis tracks (a dim multiplied by a
/// size that is not a multiple or divisor of a later tile, misaligned `*`
/// groups); callers then compute every index separately. The result is
/// exact (tested against the integer map), not necessarily maximal.
std::optional<AffineRun> getAffineRun(const TiledLayoutMap &map,
                                      int64_t logicalDim);

/// Checks `run` (of `logicalDim`) against the integer map, element by
/// element: the first logical index where a step of one along the dim inside
/// a run does not move the physical index by the run's stride, described in
/// words, or std::nullopt. Cost: two index maps per element (a static map):
/// for tests and fuzzing.
std::optional<std::string> findAffineRunViolation(const TiledLayoutMap &map,
                                                  int64_t logicalDim,
                                                  const AffineRun &run);

//===----------------------------------------------------------------------===//
// Implementation
//===----------------------------------------------------------------------===//

template <typename T, typename Ops>
InverseIndex<T> applyInverse(const TiledLayoutMap &map,
                             llvm::ArrayRef<T> physicalIndex, Ops &ops) {
  InverseIndex<T> result;
  llvm::SmallVector<T, 6> index(physicalIndex.begin(), physicalIndex.end());
  llvm::ArrayRef<TileLevel> levels = map.getLevels();
  for (int64_t l = static_cast<int64_t>(levels.size()) - 1; l >= 0; --l) {
    const TileLevel &level = levels[l];
    size_t numTiled = level.tile.size();
    size_t numLeading = level.combinedDims.size() - numTiled;
    // Untile: combined = count * t + inTile.
    llvm::SmallVector<T, 6> combined(index.begin(), index.begin() + numLeading);
    for (size_t i = 0; i < numTiled; ++i) {
      int64_t t = level.tile[i];
      T value = ops.add(ops.mul(index[numLeading + i], t),
                        index[numLeading + numTiled + i]);
      int64_t size = level.combinedDims[numLeading + i];
      if (size == kUnboundedSize || size % t != 0)
        result.checks.push_back(
            {value, size, l, static_cast<int64_t>(numLeading + i)});
      combined.push_back(value);
    }
    // Split `*` groups, most minor member first.
    llvm::SmallVector<T, 6> input(level.inputDims.size(), ops.constant(0));
    for (auto [g, group] : llvm::enumerate(level.groups)) {
      auto [begin, end] = group;
      T value = combined[g];
      for (int64_t d = end - 1; d > begin; --d) {
        input[d] = ops.mod(value, level.inputDims[d]);
        value = ops.floorDiv(value, level.inputDims[d]);
      }
      input[begin] = value;
    }
    index.assign(input.begin() + level.numPrependedDims, input.end());
  }
  // Undo the permutation: physical order position k is logical dim
  // minorToMajor[rank - 1 - k].
  llvm::ArrayRef<int64_t> minorToMajor = map.getMinorToMajor();
  int64_t rank = static_cast<int64_t>(minorToMajor.size());
  result.logical.assign(rank, ops.constant(0));
  for (int64_t k = 0; k < rank; ++k)
    result.logical[minorToMajor[rank - 1 - k]] = index[k];
  llvm::ArrayRef<int64_t> logicalDims = map.getLogicalDims();
  llvm::ArrayRef<int64_t> paddedDims = map.getPaddedDims();
  for (int64_t d = 0; d < rank; ++d)
    if (paddedDims[d] != logicalDims[d])
      result.checks.push_back({result.logical[d], logicalDims[d], -1, d});
  return result;
}

template <typename T, typename Ops>
llvm::SmallVector<T, 6> getLevelCombinedIndex(const TiledLayoutMap &map,
                                              llvm::ArrayRef<T> logicalIndex,
                                              size_t level, Ops &ops) {
  llvm::ArrayRef<int64_t> minorToMajor = map.getMinorToMajor();
  int64_t rank = static_cast<int64_t>(minorToMajor.size());
  llvm::SmallVector<T, 6> index;
  for (int64_t i = rank - 1; i >= 0; --i)
    index.push_back(logicalIndex[minorToMajor[i]]);
  for (size_t l = 0; l <= level; ++l) {
    const TileLevel &tl = map.getLevels()[l];
    llvm::SmallVector<T, 6> prepended(tl.numPrependedDims, ops.constant(0));
    prepended.append(index.begin(), index.end());
    llvm::SmallVector<T, 6> combined;
    for (auto [begin, end] : tl.groups) {
      T value = prepended[begin];
      for (int64_t d = begin + 1; d < end; ++d)
        value = ops.add(ops.mul(value, tl.inputDims[d]), prepended[d]);
      combined.push_back(value);
    }
    if (l == level)
      return combined;
    size_t numLeading = combined.size() - tl.tile.size();
    llvm::SmallVector<T, 6> next(combined.begin(),
                                 combined.begin() + numLeading);
    for (size_t i = 0; i < tl.tile.size(); ++i)
      next.push_back(ops.floorDiv(combined[numLeading + i], tl.tile[i]));
    for (size_t i = 0; i < tl.tile.size(); ++i)
      next.push_back(ops.mod(combined[numLeading + i], tl.tile[i]));
    index = std::move(next);
  }
  return index;
}

} // namespace mlir::layout

#endif // LAYOUT_XLA_TILEDLAYOUTWALK_H
