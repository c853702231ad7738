//===- StagedRelayout.h - Relayouts through an intermediate layout -*- C++
//-*-===//
//
// A relayout between a sub-tiled layout (a last tile such as (2,1) that
// interleaves row pairs, bf16's T(8,128)(2,1)) and a layout whose byte
// order crosses it has rows that are pairs of the other order, not runs:
// no plain blocked transpose and no interleaved row takes it (except the
// blocked transpose's interleaved runs out of the sub-tiles into untiled
// rows: layout/Xla/StagingLayout.h), and the nest would copy it element by
// element. Through the sub-tiled layout without its last tile
// it is two kernels that do: a blocked transpose (or a source walk) to the
// plain tiles, then interleaved rows into the sub-tiles (or the reverse).
// docs/lowering.md, "Which kernel when" (`staged`).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_STAGEDRELAYOUT_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_STAGEDRELAYOUT_H

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"

#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace mlir::layout {

/// The layout a relayout of static memrefs `source` -> `dest` (8- or 16-bit
/// elements, one memory space) should go through, or nullopt for a direct
/// nest: the library's getStagingLayout (layout/Xla/StagingLayout.h, which
/// the planner uses too) on the memrefs' storage shapes. A pair the
/// library stores in interleaved runs (getInterleavedStores) is staged
/// all the same when the target's vectors (`vectorBytes`) are narrower
/// than kInterleavedStoreTileBits: their lanes hold no tile's rows, and the
/// one-pass kernel needs that (the planner describes AVX2 and AVX-512).
std::optional<TiledLayoutAttr>
getStagingLayout(MemRefType source, MemRefType dest, int64_t vectorBytes);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_STAGEDRELAYOUT_H
