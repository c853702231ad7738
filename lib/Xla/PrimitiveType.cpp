//===- PrimitiveType.cpp - XLA element types ------------------------------===//

#include "layout/Xla/PrimitiveType.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringSwitch.h"

#include <tuple>

using namespace mlir::layout;

namespace {
struct TypeInfo {
  PrimitiveType type;
  llvm::StringLiteral name;
  int64_t bits;
};
} // namespace

// XLA's primitive_util::BitWidth for every type of docs/semantics.md §1.
static constexpr TypeInfo kTypes[] = {
    {PrimitiveType::Invalid, "invalid", 0},
    {PrimitiveType::Pred, "pred", 1},
    {PrimitiveType::S1, "s1", 1},
    {PrimitiveType::S2, "s2", 2},
    {PrimitiveType::S4, "s4", 4},
    {PrimitiveType::S8, "s8", 8},
    {PrimitiveType::S16, "s16", 16},
    {PrimitiveType::S32, "s32", 32},
    {PrimitiveType::S64, "s64", 64},
    {PrimitiveType::U1, "u1", 1},
    {PrimitiveType::U2, "u2", 2},
    {PrimitiveType::U4, "u4", 4},
    {PrimitiveType::U8, "u8", 8},
    {PrimitiveType::U16, "u16", 16},
    {PrimitiveType::U32, "u32", 32},
    {PrimitiveType::U64, "u64", 64},
    {PrimitiveType::F16, "f16", 16},
    {PrimitiveType::BF16, "bf16", 16},
    {PrimitiveType::F32, "f32", 32},
    {PrimitiveType::F64, "f64", 64},
    {PrimitiveType::C64, "c64", 64},
    {PrimitiveType::C128, "c128", 128},
    {PrimitiveType::F8E5M2, "f8e5m2", 8},
    {PrimitiveType::F8E4M3FN, "f8e4m3fn", 8},
    {PrimitiveType::F8E4M3B11FNUZ, "f8e4m3b11fnuz", 8},
    {PrimitiveType::F8E5M2FNUZ, "f8e5m2fnuz", 8},
    {PrimitiveType::F8E4M3FNUZ, "f8e4m3fnuz", 8},
    {PrimitiveType::F8E4M3, "f8e4m3", 8},
    {PrimitiveType::F8E3M4, "f8e3m4", 8},
    {PrimitiveType::F4E2M1FN, "f4e2m1fn", 4},
    {PrimitiveType::F8E8M0FNU, "f8e8m0fnu", 8},
    {PrimitiveType::Tuple, "tuple", 0},
    {PrimitiveType::Token, "token", 0},
    {PrimitiveType::Opaque, "opaque", 0},
};

static const TypeInfo &info(PrimitiveType type) {
  for (const TypeInfo &t : kTypes)
    if (t.type == type)
      return t;
  return kTypes[0];
}

llvm::StringRef mlir::layout::primitiveTypeName(PrimitiveType type) {
  return info(type).name;
}

std::optional<PrimitiveType>
mlir::layout::parsePrimitiveTypeName(llvm::StringRef name) {
  for (const TypeInfo &t : kTypes)
    if (t.name == name && t.type != PrimitiveType::Invalid &&
        t.type != PrimitiveType::Tuple)
      return t.type;
  return std::nullopt;
}

int64_t mlir::layout::primitiveTypeBitWidth(PrimitiveType type) {
  return info(type).bits;
}

int64_t mlir::layout::primitiveTypeByteWidth(PrimitiveType type) {
  return (info(type).bits + 7) / 8;
}

std::optional<PrimitiveType>
mlir::layout::unsignedTypeOfBitWidth(int64_t bits) {
  for (const TypeInfo &t : kTypes)
    if (isUnsignedIntegralType(t.type) && t.bits == bits)
      return t.type;
  return std::nullopt;
}

bool mlir::layout::isArrayElementType(PrimitiveType type) {
  return type != PrimitiveType::Invalid && type != PrimitiveType::Tuple &&
         type != PrimitiveType::Token && type != PrimitiveType::Opaque;
}

bool mlir::layout::isSignedIntegralType(PrimitiveType type) {
  return type >= PrimitiveType::S1 && type <= PrimitiveType::S64;
}

bool mlir::layout::isUnsignedIntegralType(PrimitiveType type) {
  return type >= PrimitiveType::U1 && type <= PrimitiveType::U64;
}

bool mlir::layout::isIntegralType(PrimitiveType type) {
  return isSignedIntegralType(type) || isUnsignedIntegralType(type);
}

bool mlir::layout::isComplexType(PrimitiveType type) {
  return type == PrimitiveType::C64 || type == PrimitiveType::C128;
}

bool mlir::layout::isFloatingPointType(PrimitiveType type) {
  return (type >= PrimitiveType::F16 && type <= PrimitiveType::F64) ||
         (type >= PrimitiveType::F8E5M2 && type <= PrimitiveType::F8E8M0FNU);
}

/// LLVM's float semantics of an XLA floating-point type (the same formats as
/// ml_dtypes, which XLA's numeric_limits come from).
static const llvm::fltSemantics *getFloatSemantics(PrimitiveType type) {
  using llvm::APFloat;
  switch (type) {
  case PrimitiveType::F16:
    return &APFloat::IEEEhalf();
  case PrimitiveType::BF16:
    return &APFloat::BFloat();
  case PrimitiveType::F32:
    return &APFloat::IEEEsingle();
  case PrimitiveType::F64:
    return &APFloat::IEEEdouble();
  case PrimitiveType::F8E5M2:
    return &APFloat::Float8E5M2();
  case PrimitiveType::F8E4M3FN:
    return &APFloat::Float8E4M3FN();
  case PrimitiveType::F8E4M3B11FNUZ:
    return &APFloat::Float8E4M3B11FNUZ();
  case PrimitiveType::F8E5M2FNUZ:
    return &APFloat::Float8E5M2FNUZ();
  case PrimitiveType::F8E4M3FNUZ:
    return &APFloat::Float8E4M3FNUZ();
  case PrimitiveType::F8E4M3:
    return &APFloat::Float8E4M3();
  case PrimitiveType::F8E3M4:
    return &APFloat::Float8E3M4();
  case PrimitiveType::F4E2M1FN:
    return &APFloat::Float4E2M1FN();
  case PrimitiveType::F8E8M0FNU:
    return &APFloat::Float8E8M0FNU();
  default:
    return nullptr;
  }
}

std::optional<int>
mlir::layout::primitiveTypeOverflowExponent(PrimitiveType type) {
  // numeric_limits::max_exponent is one more than the largest exponent.
  if (const llvm::fltSemantics *sem = getFloatSemantics(type))
    return llvm::APFloat::semanticsMaxExponent(*sem) + 1;
  return std::nullopt;
}

std::optional<int>
mlir::layout::primitiveTypeSignificandWidth(PrimitiveType type) {
  // numeric_limits::digits counts the implicit bit, as APFloat's precision.
  if (const llvm::fltSemantics *sem = getFloatSemantics(type))
    return static_cast<int>(llvm::APFloat::semanticsPrecision(*sem));
  return std::nullopt;
}

bool mlir::layout::sameElementTypeIgnoringFpPrecision(PrimitiveType a,
                                                      PrimitiveType b) {
  return a == b || (isFloatingPointType(a) && isFloatingPointType(b));
}

PrimitiveType mlir::layout::higherPrecisionType(PrimitiveType a,
                                                PrimitiveType b) {
  auto properties = [](PrimitiveType type) {
    PrimitiveType component = type == PrimitiveType::C64    ? PrimitiveType::F32
                              : type == PrimitiveType::C128 ? PrimitiveType::F64
                                                            : type;
    return std::make_tuple(
        isComplexType(type),
        primitiveTypeOverflowExponent(component).value_or(-1),
        primitiveTypeSignificandWidth(component).value_or(-1),
        primitiveTypeBitWidth(component), isSignedIntegralType(component));
  };
  return properties(b) > properties(a) ? b : a;
}
