//===- DecomposeTiling.h - tiling as pad/reshape/transpose ------*- C++ -*-===//
//
// The building blocks of `--layout-decompose-tiling`
// (docs/decompose-tiling.md), for other passes (--convert-layout-to-linalg uses
// them for the layouts that linalg.pack cannot express).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_DECOMPOSETILING_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_DECOMPOSETILING_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Value.h"

namespace mlir {
class Location;
class RewriterBase;
} // namespace mlir

namespace mlir::layout {

class TiledLayoutMap;

/// Builds the physical tensor of `map` (no encoding) from the logical
/// row-major tensor `logical` (static shape, no encoding): legacy `PAD`,
/// minor_to_major transpose, then per tile level expand_shape / `*`
/// collapse_shape / tensor.pad / expand_shape / linalg.transpose. Identity
/// steps are omitted.
/// Pre: `map` is static and built for `logical`'s shape; `padValue` (an
/// `arith.constant`-buildable attribute of the element type) is non-null
/// when the layout has padding slots
/// (`map.getPhysicalElementCount() > map.getElementCount()`).
Value buildTiledPhysicalTensor(RewriterBase &rewriter, Location loc,
                               Value logical, const TiledLayoutMap &map,
                               TypedAttr padValue);

/// The inverse: the logical row-major tensor from the physical tensor of
/// `map` (transposes, collapse_shape, extract_slice dropping the padding).
/// Pre: `map` is static and `physical` has its physical dims.
Value buildLogicalTensorFromPhysical(RewriterBase &rewriter, Location loc,
                                     Value physical, const TiledLayoutMap &map);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_DECOMPOSETILING_H
