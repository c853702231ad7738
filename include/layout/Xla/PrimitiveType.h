//===- PrimitiveType.h - XLA element types ----------------------*- C++ -*-===//
//
// The element types of XLA shapes (docs/semantics.md §1) with their text names
// and bit widths. No IR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_PRIMITIVETYPE_H
#define LAYOUT_XLA_PRIMITIVETYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::layout {

/// XLA's PrimitiveType. `Tuple`, `Token` and `Opaque` are not array element
/// types; `Invalid` marks an unset field (e.g. a layout's index type).
enum class PrimitiveType {
  Invalid,
  Pred,
  S1,
  S2,
  S4,
  S8,
  S16,
  S32,
  S64,
  U1,
  U2,
  U4,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  C64,
  C128,
  F8E5M2,
  F8E4M3FN,
  F8E4M3B11FNUZ,
  F8E5M2FNUZ,
  F8E4M3FNUZ,
  F8E4M3,
  F8E3M4,
  F4E2M1FN,
  F8E8M0FNU,
  Tuple,
  Token,
  Opaque,
};

/// Lowercase text name (`f32`, `pred`, `token`, ...); "invalid" for Invalid.
llvm::StringRef primitiveTypeName(PrimitiveType type);

/// Parses a lowercase name of an array element type, `token` or `opaque`.
/// Returns std::nullopt for anything else (including "tuple").
std::optional<PrimitiveType> parsePrimitiveTypeName(llvm::StringRef name);

/// Bit width of an array element type as in XLA's primitive_util::BitWidth
/// (pred: 1, s4: 4, c64: 64, ...). 0 for Tuple, Token, Opaque and Invalid.
int64_t primitiveTypeBitWidth(PrimitiveType type);

/// ceil(bitWidth / 8): bytes one element takes without `E(n)` packing.
int64_t primitiveTypeByteWidth(PrimitiveType type);

/// The unsigned integer type of `bits` bits (u1, u2, u4, u8, u16, u32,
/// u64), or std::nullopt for any other width.
std::optional<PrimitiveType> unsignedTypeOfBitWidth(int64_t bits);

/// True for types that can be the element type of an array shape.
bool isArrayElementType(PrimitiveType type);
bool isIntegralType(PrimitiveType type); // s*, u* (not pred)
bool isSignedIntegralType(PrimitiveType type);
bool isUnsignedIntegralType(PrimitiveType type);
bool isFloatingPointType(PrimitiveType type); // f*, bf16 (not complex)
bool isComplexType(PrimitiveType type);

/// XLA's primitive_util::OverflowExponent and SignificandWidth
/// (std::numeric_limits<T>::max_exponent and ::digits) of a floating-point
/// type; std::nullopt for other types.
std::optional<int> primitiveTypeOverflowExponent(PrimitiveType type);
std::optional<int> primitiveTypeSignificandWidth(PrimitiveType type);

/// XLA's ShapeUtil::SameElementTypeIgnoringFpPrecision on element types:
/// equal types, or two floating-point types (not complex).
bool sameElementTypeIgnoringFpPrecision(PrimitiveType a, PrimitiveType b);

/// XLA's primitive_util::HigherPrecisionType: orders by (complex, overflow
/// exponent, significand width, bit width, signed) of the (component) type.
/// bf16 vs f32 -> f32, f16 vs bf16 -> bf16 (more range). Pre: the types are
/// equal or sameElementTypeIgnoringFpPrecision holds.
PrimitiveType higherPrecisionType(PrimitiveType a, PrimitiveType b);

} // namespace mlir::layout

#endif // LAYOUT_XLA_PRIMITIVETYPE_H
