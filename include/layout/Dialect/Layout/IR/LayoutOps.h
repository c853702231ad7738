//===- LayoutOps.h - layout dialect operations ------------------*- C++ -*-===//
//
// `layout.to_physical`, `layout.from_physical`, `layout.relayout` and
// `layout.fusion` (with its `layout.yield`).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.h.inc"

namespace mlir::layout {

/// The operands a tensor layout op reads: all of them, except a relayout's
/// destination (it only gives the result's type). Shared by --layout-fuse
/// and --layout-assign-layouts.
SmallVector<Value> getReadOperands(Operation *op);

/// The constant that fills the padding slots of a layout with padding value
/// `value` (`PV(...)`) for `elementType`: zero -> 0, one -> 1, lowest / highest
/// -> the lowest / highest finite value (signed for signless and `si`
/// integers, except `i1` (XLA's pred: false / true); unsigned for `ui`),
/// invalid / unknown -> 0; float formats without zero / sign (f8E8M0FNU)
/// use their smallest positive value instead of 0 / lowest. Integer, index and
/// float element types give an IntegerAttr / FloatAttr of that type (for
/// `si`/`ui` types, `arith.constant` needs the signless equivalent); any other
/// type (e.g. complex) gives null.
TypedAttr getPaddingValueAttr(Type elementType, PaddingValue value);

/// The padding value of a tensor encoding / memref layout: `PV(...)` of a
/// `#layout.tiled` layout, PaddingValue::Invalid (0) otherwise.
PaddingValue getPaddingValue(Type shapedType);

/// The `#layout.tiled` layout of a tensor (encoding) or memref (layout), or
/// null for the default row-major layout / anything else.
TiledLayoutAttr getTiledLayout(Type shapedType);

/// `source` (a tiled tensor or memref) viewed as `type`, which has the same
/// shape, element type and an equivalent layout (areEquivalentLayouts, e.g.
/// a `*` layout with and without dims): from_physical(to_physical(source)),
/// the same buffer. Pre: both types verified.
Value createEquivalentLayoutView(OpBuilder &builder, Location loc, Value source,
                                 Type type);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
