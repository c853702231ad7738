//===- StagedRelayout.h - Relayouts through an intermediate layout -*- C++
//-*-===//
//
// A relayout between a sub-tiled layout (a last tile such as (2,1) that
// interleaves row pairs, bf16's T(8,128)(2,1)) and a layout whose byte
// order crosses it has rows that are pairs of the other order, not runs:
// no blocked transpose and no interleaved row takes it, and the nest copies
// it element by element. Through the sub-tiled layout without its last tile
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
/// elements) should go through, or nullopt for a direct nest: exactly one
/// side sub-tiled (two or more tiles, the last dividing the one before, no
/// `*` dims, no legacy padding, tail padding or element size), and
///  * the destination sub-tiled: the source's minor dim is another one;
///  * the source sub-tiled: the destination is not the source without its
///    last tile (that pair is the second step itself), and its minor dim
///    is another one or its physical rows are not whole 64-byte lines
///    (rows along the sub-tiles read them strided, NestEmitter::RowRead;
///    odd rows measured faster through the tiles, whose source walk
///    realigns them: docs/performance.md, "Sub-tiles in one pass").
/// The staging layout is the sub-tiled one without its last tile: the same
/// padding slots, so each step is a relayout between two dense layouts.
std::optional<TiledLayoutAttr> getStagingLayout(MemRefType source,
                                                MemRefType dest);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_STAGEDRELAYOUT_H
