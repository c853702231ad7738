//===- LayoutAttributes.h - layout dialect attributes -----------*- C++ -*-===//
//
// `#layout.tiled<...>` and `#layout.shape<...>`: thin wrappers around the
// LayoutXla value library (layout/Xla/Shape.h, layout/Xla/TiledLayoutMap.h).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTES_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTES_H

#include "layout/Xla/Shape.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TensorEncoding.h"

namespace mlir::layout::detail {
// Hand-written storages that keep the parsed value (lib/Dialect/Layout/IR).
struct TiledLayoutAttrStorage;
struct ShapeAttrStorage;
} // namespace mlir::layout::detail

#define GET_ATTRDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutAttributes.h.inc"

namespace mlir::layout {

/// The memref type that stores an array of logical `shape` (kDynamic for
/// `?`) and `elementType` with layout `layout`: the memory space is the
/// layout's `S(n)` (an i64 IntegerAttr, none for 0).
MemRefType getMemRefType(llvm::ArrayRef<int64_t> shape, Type elementType,
                         TiledLayoutAttr layout);

/// The memref type a ranked tensor is stored in: its `#layout.tiled`
/// encoding as the layout (memory space `S(n)`, getMemRefType), the identity
/// layout without an encoding; null for other encodings.
MemRefType getBufferType(RankedTensorType type);

/// The integer memory space of a memref type: 0 when absent, the value of an
/// IntegerAttr, std::nullopt for any other memory space attribute.
std::optional<int64_t> getIntegerMemorySpace(BaseMemRefType type);

/// The XLA layout of a memref type: its `#layout.tiled` layout, the default
/// (row-major) layout for the identity layout (with the memref's integer
/// memory space as S(n)), std::nullopt for any other layout (strided views,
/// affine maps) or memory space attribute.
std::optional<Layout> getXlaLayout(MemRefType type);

/// The XLA shape of the bytes of a static memref with an XLA layout
/// (getXlaLayout): its dims and layout, with the unsigned integer type of
/// its element's width (u8 to u64) as the element, for the layout decisions
/// that only look at widths (element groups, staging). std::nullopt for
/// dynamic shapes, other layouts and other widths (i1 included).
std::optional<Shape> getStorageShape(MemRefType type);

/// Checks that a memref with a `#layout.tiled` layout is consistent: the
/// layout is valid for the shape (and element type when convertible) and its
/// `S(n)` equals the memref's memory space. Emits through `emitError`.
LogicalResult
verifyTiledMemRefType(MemRefType type,
                      llvm::function_ref<InFlightDiagnostic()> emitError);

/// True if two memref layouts / tensor encodings (null: the default) of
/// types with the same shape are the same layout: equal attributes, or
/// `#layout.tiled` attributes with the same text whose dims (a checked copy
/// of the shape) are absent on one side or equal. `#layout.tiled<{2,1,0:
/// T(*,8)}>` and `#layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>` on `2x3x4` are
/// distinct attributes (and types) but equivalent layouts.
bool areEquivalentLayouts(Attribute lhs, Attribute rhs);

/// Text helpers shared by the attribute parser/printer: true if `body` can be
/// printed inside `<...>` unquoted (the MLIR lexer scans it back as one
/// balanced pretty-dialect body).
bool canPrintUnquoted(llvm::StringRef body);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTES_H
