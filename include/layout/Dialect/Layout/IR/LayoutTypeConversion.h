//===- LayoutTypeConversion.h - XLA shapes <-> MLIR types -------*- C++ -*-===//
//
// Conversions between XLA shapes (layout/Xla/Shape.h) and MLIR builtin types.
// docs/dialect.md has the same table with the rationale.
//
//   XLA                          MLIR
//   pred                     <-> i1
//   sN (s2..s64)             <-> iN (signless); siN is accepted on the way in
//   s1                       <-> si1 (i1 is pred)
//   uN                       <-> uiN
//   f16 bf16 f32 f64         <-> f16 bf16 f32 f64
//   f8e5m2 f8e4m3fn f8e4m3b11fnuz f8e5m2fnuz f8e4m3fnuz f8e4m3 f8e3m4
//   f4e2m1fn f8e8m0fnu       <-> f8E5M2 f8E4M3FN f8E4M3B11FNUZ f8E5M2FNUZ
//                                f8E4M3FNUZ f8E4M3 f8E3M4 f4E2M1FN f8E8M0FNU
//   c64 c128                 <-> complex<f32> complex<f64>
//   dim N / `?`              <-> N / ShapedType::kDynamic
//   dim `<=N`                 -> kDynamic (the bound N lives only in
//                                #layout.shape; it is lost in the type)
//   default (row-major) layout <-> no encoding / identity memref layout
//   any other layout         <-> #layout.tiled<...> encoding / memref layout
//   S(n)                     <-> memref memory space n (i64 IntegerAttr);
//                                a tensor keeps it in the encoding
//   (a, b, ...)              <-> tuple<A, B, ...>
//   token[], opaque[]         -> error (no builtin equivalent)
//   scalar T[]               <-> tensor<T> / memref<T> (a bare element type
//                                is also accepted on the way in)
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTTYPECONVERSION_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTTYPECONVERSION_H

#include "layout/Xla/Shape.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::layout {

/// XLA element type -> MLIR element type. Null for tuple/token/opaque/invalid.
Type convertElementType(PrimitiveType type, MLIRContext *context);

/// MLIR element type -> XLA element type, std::nullopt if there is none.
std::optional<PrimitiveType> convertElementType(Type type);

/// Which shaped type array shapes become.
enum class ArrayTypeKind { Tensor, MemRef };

/// XLA shape -> MLIR type (table above). Errors (through `emitError`) for
/// token/opaque shapes and element types without an MLIR equivalent.
FailureOr<Type>
convertShapeToType(const Shape &shape, MLIRContext *context, ArrayTypeKind kind,
                   llvm::function_ref<InFlightDiagnostic()> emitError);

/// MLIR type -> XLA shape (table above): ranked tensors (encoding none or
/// #layout.tiled), memrefs (identity or #layout.tiled layout, integer memory
/// space), tuples, bare element types (scalars). The result is validated.
FailureOr<Shape>
convertTypeToShape(Type type,
                   llvm::function_ref<InFlightDiagnostic()> emitError);

/// The XLA shape of a static, ranked, non-scalar tensor or memref that
/// convertTypeToShape accepts; std::nullopt (no diagnostic) otherwise. For
/// passes that only apply to such arrays (the relayout planner's users).
std::optional<Shape> getStaticArrayShape(Type type);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTTYPECONVERSION_H
