//===- StagingLayout.h - Relayouts through a middle layout ------*- C++ -*-===//
//
// A relayout between a sub-tiled layout (a last tile such as (2,1) that
// interleaves row pairs, bf16's T(8,128)(2,1)) and a layout whose byte
// order crosses it has rows that are pairs of the other order, not runs:
// no plain blocked transpose and no interleaved row takes it (the blocked
// transpose's interleaved runs take one direction, out of the sub-tiles
// into untiled rows: getInterleavedRuns below). Through the
// sub-tiled layout without its last tile it is two relayouts that do: a
// blocked transpose (or a source walk) to the plain tiles, then
// interleaved rows into the sub-tiles (or the reverse). The planner
// (planRelayout) and the lowering (StagedRelayout.cpp) decide with the
// same function. docs/lowering.md, "Which kernel when" (`staged`).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_STAGINGLAYOUT_H
#define LAYOUT_XLA_STAGINGLAYOUT_H

#include "layout/Xla/Shape.h"

#include <optional>

namespace mlir::layout {

/// The layout a relayout `source` -> `dest` (static arrays of rank >= 2,
/// the same dims and element type of 8 or 16 bits, not PRED, one memory
/// space) should go
/// through, or std::nullopt for a direct kernel: exactly one side sub-tiled
/// (two or more tiles, the last dividing the one before, no `*` dims, no
/// legacy padding, tail padding or element size), and
///  * the destination sub-tiled: the source's minor dim is another one;
///  * the source sub-tiled: the destination is not the source without its
///    last tile (that pair is the second step itself), and its minor dim
///    is another one (rows along the sub-tiles read them strided, whole
///    64-byte lines or not: docs/performance.md, "Sub-tiles into odd rows
///    in one pass"), and it is not read in interleaved runs
///    (getInterleavedRuns);
///  * and the pair is not stored in interleaved runs (getInterleavedStores).
/// The staging layout is the sub-tiled one without its last tile: the same
/// padding slots, so each step is a relayout between two dense layouts.
std::optional<Layout> getStagingLayout(const Shape &source, const Shape &dest);

/// The rows q per run when `source`'s layout is sub-tiled (as above) with a
/// last tile (q, 1) over the minor two entries of the tile before it, and
/// `dest` (the same dims) is untiled with its minor dim the one the
/// sub-tile interleaves (minor_to_major[1] of the source): the lowering's
/// blocked transpose reads each run of q rows as one vector (`interleaved
/// runs`, docs/lowering.md), one pass, not staged. Only where its blocks
/// of V >= 4 q fit: runs of at most 32 bits, the tile's minor entry a
/// multiple of 4 q, both minor dims at least 4 q long. 0 otherwise.
int64_t getInterleavedRuns(const Shape &source, const Shape &dest);

/// The mirror of getInterleavedRuns: the rows q per run when `dest`'s
/// layout is sub-tiled (as above) with a last tile (q, 1) over the minor
/// two entries of the tile before it, and `source` (the same dims) is
/// untiled with its minor dim the one the sub-tile interleaves
/// (minor_to_major[1] of the destination): the lowering's blocked
/// transpose builds the destination rows of the layout without the last
/// tile and stores each run of q of them interleaved, one contiguous run
/// of q vectors (`interleaved stores`, docs/lowering.md), one pass, not
/// staged. Only where its blocks fit, on targets with vectors of
/// kInterleavedStoreTileBits or more (the lowering stages the pair on
/// narrower ones): runs of at most kMaxInterleavedRunBits of 8- or 16-bit
/// elements, the tile before the last one 2-D with a power-of-two number
/// of rows of at most kInterleavedStoreTileBits (rows x element bits) and
/// each row a whole number of 64-byte lines, the destination's minor dim at
/// least kMinInterleavedStoreColumns long and the other one longer than a tile
/// and at least 4 q. 0 otherwise.
int64_t getInterleavedStores(const Shape &source, const Shape &dest);

/// The bits of a tile's rows (rows x element bits) getInterleavedStores
/// takes: a 32-byte vector's lanes (AVX2).
inline constexpr int64_t kInterleavedStoreTileBits = 256;
/// The widest run (q x element bits) getInterleavedRuns and
/// getInterleavedStores take.
inline constexpr int64_t kMaxInterleavedRunBits = 32;
/// The shortest destination row getInterleavedStores takes: one 16-lane
/// block.
inline constexpr int64_t kMinInterleavedStoreColumns = 16;

} // namespace mlir::layout

#endif // LAYOUT_XLA_STAGINGLAYOUT_H
