//===- PhysicalSizes.h - Sizes and views of physical buffers ----*- C++ -*-===//
//
// The physical buffer of a tiled memref built from its logical sizes: the
// dynamic physical extents, row-major strides and the reinterpret_cast view.
// Used by the loop nests, --layout-normalize-memrefs, the logical
// descriptors of function boundaries and deallocation.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_PHYSICALSIZES_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_PHYSICALSIZES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::layout {

class TiledLayoutAttr;

/// Sizes of the dynamic physical dims (`physicalShape`, the tiled layout
/// map's physical dims) of an array of `logicalShape` with layout `attr`,
/// from its dynamic logical sizes: map_k(d - 1) + 1, with `map` the layout's
/// affine map (its results are floordiv/mod/linear expressions,
/// nondecreasing in each index; `mod t` results have the static size t).
SmallVector<Value> getPhysicalDynamicSizes(OpBuilder &builder, Location loc,
                                           TiledLayoutAttr attr,
                                           ArrayRef<int64_t> logicalShape,
                                           ArrayRef<int64_t> physicalShape,
                                           ValueRange logicalSizes);

/// Row-major strides of `sizes` (folded where static).
SmallVector<OpFoldResult> getRowMajorStrides(OpBuilder &builder, Location loc,
                                             ArrayRef<OpFoldResult> sizes);

/// The physical buffer of a tiled memref of type `tiledType` whose logical
/// sizes are `logicalSizes` and whose buffer is `base`'s (offset 0): a
/// `memref.reinterpret_cast` of `base` to the physical identity-layout type,
/// extents from getPhysicalDynamicSizes, row-major strides. Used for the
/// logical descriptors of dynamic tiled memrefs (docs/lowering.md, "Dynamic
/// tiled memrefs at function boundaries").
FailureOr<Value>
createPhysicalView(OpBuilder &builder, Location loc, MemRefType tiledType,
                   Value base, ArrayRef<OpFoldResult> logicalSizes,
                   function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_PHYSICALSIZES_H
