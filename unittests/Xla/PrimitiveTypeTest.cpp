//===- PrimitiveTypeTest.cpp - Element types, names and bit widths --------===//
//
// Every element type of docs/semantics.md §1 with its name, XLA bit width and
// byte width, and the classification predicates.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/PrimitiveType.h"
#include "layout/Xla/Shape.h"

#include <gtest/gtest.h>

using namespace mlir::layout;

namespace {

struct Expected {
  PrimitiveType type;
  const char *name;
  int64_t bits;
};

// docs/semantics.md §1's list, with XLA's primitive_util::BitWidth.
constexpr Expected kArrayTypes[] = {
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
};

TEST(PrimitiveType, EveryArrayTypeNameAndWidth) {
  EXPECT_EQ(std::size(kArrayTypes), 30u);
  for (const Expected &e : kArrayTypes) {
    SCOPED_TRACE(e.name);
    EXPECT_EQ(primitiveTypeName(e.type), e.name);
    EXPECT_EQ(parsePrimitiveTypeName(e.name), e.type);
    EXPECT_EQ(primitiveTypeBitWidth(e.type), e.bits);
    EXPECT_EQ(primitiveTypeByteWidth(e.type), (e.bits + 7) / 8);
    EXPECT_TRUE(isArrayElementType(e.type));
  }
}

TEST(PrimitiveType, ByteWidthRoundsUp) {
  EXPECT_EQ(primitiveTypeByteWidth(PrimitiveType::Pred), 1);
  EXPECT_EQ(primitiveTypeByteWidth(PrimitiveType::S4), 1);
  EXPECT_EQ(primitiveTypeByteWidth(PrimitiveType::F4E2M1FN), 1);
  EXPECT_EQ(primitiveTypeByteWidth(PrimitiveType::U2), 1);
  EXPECT_EQ(primitiveTypeByteWidth(PrimitiveType::BF16), 2);
  EXPECT_EQ(primitiveTypeByteWidth(PrimitiveType::C64), 8);
  EXPECT_EQ(primitiveTypeByteWidth(PrimitiveType::C128), 16);
}

TEST(PrimitiveType, NonArrayTypes) {
  EXPECT_EQ(parsePrimitiveTypeName("token"), PrimitiveType::Token);
  EXPECT_EQ(parsePrimitiveTypeName("opaque"), PrimitiveType::Opaque);
  EXPECT_EQ(parsePrimitiveTypeName("tuple"), std::nullopt);
  EXPECT_EQ(parsePrimitiveTypeName("invalid"), std::nullopt);
  EXPECT_EQ(parsePrimitiveTypeName("F32"), std::nullopt);
  EXPECT_EQ(parsePrimitiveTypeName(""), std::nullopt);
  EXPECT_EQ(parsePrimitiveTypeName("f33"), std::nullopt);
  EXPECT_EQ(primitiveTypeName(PrimitiveType::Invalid), "invalid");
  EXPECT_EQ(primitiveTypeName(PrimitiveType::Tuple), "tuple");
  for (PrimitiveType t : {PrimitiveType::Invalid, PrimitiveType::Tuple,
                          PrimitiveType::Token, PrimitiveType::Opaque}) {
    EXPECT_FALSE(isArrayElementType(t));
    EXPECT_EQ(primitiveTypeBitWidth(t), 0);
  }
}

TEST(PrimitiveType, Classification) {
  EXPECT_TRUE(isSignedIntegralType(PrimitiveType::S4));
  EXPECT_FALSE(isSignedIntegralType(PrimitiveType::U4));
  EXPECT_TRUE(isUnsignedIntegralType(PrimitiveType::U1));
  EXPECT_FALSE(isIntegralType(PrimitiveType::Pred));
  EXPECT_TRUE(isIntegralType(PrimitiveType::U64));
  EXPECT_TRUE(isFloatingPointType(PrimitiveType::BF16));
  EXPECT_TRUE(isFloatingPointType(PrimitiveType::F4E2M1FN));
  EXPECT_TRUE(isFloatingPointType(PrimitiveType::F8E8M0FNU));
  EXPECT_FALSE(isFloatingPointType(PrimitiveType::C64));
  EXPECT_TRUE(isComplexType(PrimitiveType::C128));
  EXPECT_FALSE(isComplexType(PrimitiveType::F64));
  int integral = 0, floating = 0, complex = 0;
  for (const Expected &e : kArrayTypes) {
    integral += isIntegralType(e.type);
    floating += isFloatingPointType(e.type);
    complex += isComplexType(e.type);
  }
  EXPECT_EQ(integral, 14);
  EXPECT_EQ(floating, 13);
  EXPECT_EQ(complex, 2);
}

TEST(PrimitiveType, EveryTypeRoundTripsThroughShapeText) {
  for (const Expected &e : kArrayTypes) {
    std::string text = std::string(e.name) + "[2]{0}";
    llvm::Expected<Shape> shape = parseShape(text);
    ASSERT_TRUE(static_cast<bool>(shape)) << llvm::toString(shape.takeError());
    EXPECT_EQ(shape->getElementType(), e.type);
    EXPECT_EQ(printShape(*shape), text);
  }
}

} // namespace
