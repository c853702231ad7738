//===- LayoutAlgebra.h - Relayouts as slot maps, classified -----*- C++ -*-===//
//
// A relayout between two layouts of one array shape, as the map from each
// destination slot (physical position, padding included) to the source slot
// holding the same logical element, or padding. The map is the composition
// of the destination's inverse index map with the source's index map
// (TiledLayoutMap::logicalIndex, then linearIndex). From it:
//
//   * runs: maximal sequences of destination slots whose source slots are
//     consecutive too (or that are all padding);
//   * a class:
//       bitcast            same bytes in the same order: nothing moves;
//       chunk-copy         every run is at least `chunkBytes` long: memcpy
//                          of the runs;
//       in-tile-transpose  every destination row (the minor physical dim)
//                          reads the source with one constant stride other
//                          than 1: a 2-D transpose inside tiles, done with
//                          vector shuffles;
//       interleave         every aligned block of k * B destination slots
//                          interleaves k source runs of B elements (each
//                          at least half full), or every destination row
//                          reads the source at stride k within aligned
//                          blocks of 8 to 128 (k = 2 or 4, B a power of
//                          two from 4 to 128): rows into or out of
//                          (2,1)/(4,1) sub-tiles, vector shuffles (rows
//                          that read whole rows at stride k, sub-tiles
//                          into plain tiles of their width, stay
//                          in-tile-transpose);
//       strided-gather     anything else;
//     a relayout of 8- or 16-bit elements whose layouts group k elements
//     along one dim, one of them through a sub-tile (ElementGroups.h), takes
//     the class of its groups' relayout, as the lowering moves the groups;
//     a pair that the lowering stages (a sub-tiled layout against a
//     crossing one, StagingLayout.h) takes the class of its crossing step;
//   * the largest common vector width (CuTe's max_common_vector): the
//     largest power of two v such that every aligned group of v destination
//     slots reads v consecutive, v-aligned source slots, or is all padding.
//
// The map is materialized (at most kMaxPlannedSlots destination slots):
// exact for every layout the project supports (repeated tiles, `*`,
// legacy padding, L, E), which symbolic layout algebras (Triton's linear
// layouts: powers of two, no padding; CuTe: no tail padding or element
// bits) do not cover. Larger bitcasts without padding slots are planned
// without the map when no `*` mixes two dims' indices (sameByteOrder
// compares such layouts along each axis, up to 2^24 positions: 131,072
// for f32[65536,65536]).
// docs/algebra.md has worked examples.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_LAYOUTALGEBRA_H
#define LAYOUT_XLA_LAYOUTALGEBRA_H

#include "layout/Xla/Shape.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::layout {

/// The largest destination the planner materializes (slots).
inline constexpr int64_t kMaxPlannedSlots = int64_t(1) << 24;
/// The default run length (bytes) from which runs are copied with memcpy:
/// one cache line.
inline constexpr int64_t kDefaultChunkBytes = 64;
/// A padding slot in a slot map.
inline constexpr int64_t kPaddingSlot = -1;

/// For every destination slot (in memory order, the allocated count without
/// L's tail), the source slot of the same logical element, or kPaddingSlot.
/// Errors: shapes that are not static arrays of the same dims and element
/// type, invalid layouts, more than kMaxPlannedSlots slots.
llvm::Expected<llvm::SmallVector<int64_t>> composeRelayout(const Shape &source,
                                                           const Shape &dest);

enum class RelayoutClass {
  Bitcast,
  ChunkCopy,
  InTileTranspose,
  StridedGather,
  Interleave
};

/// `bitcast`, `chunk-copy`, `in-tile-transpose`, `strided-gather`,
/// `interleave`.
llvm::StringRef relayoutClassName(RelayoutClass cls);

struct RelayoutPlan {
  RelayoutClass cls = RelayoutClass::StridedGather;
  /// The shortest run of elements (consecutive in both buffers); 0 when the
  /// array has no elements.
  int64_t runElements = 0;
  /// The largest common vector width in elements (>= 1).
  int64_t vectorElements = 1;
  /// Bytes written: the destination's allocated bytes, 0 for a bitcast.
  int64_t bytesMoved = 0;
  /// Elements per group when the relayout moves element groups as wider
  /// units (groupRelayout, ElementGroups.h): the class and explanation
  /// are then the groups' relayout's. 0 otherwise.
  int64_t groupedElements = 0;
  /// The logical dim the groups run along (when groupedElements > 0).
  int64_t groupedDim = 0;
  /// The layout a staged relayout goes through (getStagingLayout,
  /// StagingLayout.h): two relayouts, the class the one of the step that
  /// crosses the byte orders.
  std::optional<Layout> staging;
  /// One line for people.
  std::string explanation;
};

/// Plans the relayout `source` -> `dest` (same dims and element type).
/// Errors as composeRelayout, except for the large bitcasts above.
llvm::Expected<RelayoutPlan>
planRelayout(const Shape &source, const Shape &dest,
             int64_t chunkBytes = kDefaultChunkBytes);

/// An affine nest of run starts: the i-th point of a sequence is
/// base + sum_k i_k * levels[k].stride for the mixed-radix digits i_k of i
/// (levels innermost first, level k has `count` values). Each point is a
/// pair (e.g. destination and source offsets) moving together.
struct RunNest {
  std::array<int64_t, 2> base{};
  struct Level {
    int64_t count;
    std::array<int64_t, 2> stride;
  };
  llvm::SmallVector<Level> levels;
};

/// Factors `points` (in the order a nest visits them) into a RunNest of at
/// most `maxLevels` levels: per level, the longest arithmetic progression at
/// the front whose length divides the count and that every block repeats.
/// Exact (every point is checked); std::nullopt if the points are not such
/// a nest. An empty sequence is the empty nest.
std::optional<RunNest> factorRunNest(std::vector<std::array<int64_t, 2>> points,
                                     unsigned maxLevels = 8);

} // namespace mlir::layout

#endif // LAYOUT_XLA_LAYOUTALGEBRA_H
