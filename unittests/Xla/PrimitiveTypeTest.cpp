//===- PrimitiveTypeTest.cpp - Element types, names and bit widths --------===//
//
// Every element type of docs/semantics.md §1 with its name, XLA bit width and
// byte width, and the classification predicates.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/PrimitiveType.h"
#include "layout/Xla/Shape.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace mlir::layout;

namespace {

/// The element types of docs/semantics.md §1, by their text names: the test
/// derives each expectation from the name (XLA's naming encodes the width),
/// not from the library's table.
constexpr const char *kArrayTypeNames[] = {
    "pred",       "s1",         "s2",     "s4",     "s8",       "s16",
    "s32",        "s64",        "u1",     "u2",     "u4",       "u8",
    "u16",        "u32",        "u64",    "f16",    "bf16",     "f32",
    "f64",        "c64",        "c128",   "f8e5m2", "f8e4m3fn", "f8e4m3b11fnuz",
    "f8e5m2fnuz", "f8e4m3fnuz", "f8e4m3", "f8e3m4", "f4e2m1fn", "f8e8m0fnu",
};

/// XLA's primitive_util::BitWidth, read off the name: `pred` is one bit;
/// otherwise the digits after the one- or two-letter kind (`s`, `u`, `f`,
/// `c`, `bf`) up to the first other letter: `s4` -> 4, `f8e4m3fn` -> 8,
/// `c64` -> 64.
int64_t bitsFromName(llvm::StringRef name) {
  if (name == "pred")
    return 1;
  llvm::StringRef rest =
      name.drop_while([](char c) { return c >= 'a' && c <= 'z'; });
  int64_t bits = 0;
  for (char c : rest.take_while([](char c) { return c >= '0' && c <= '9'; }))
    bits = bits * 10 + (c - '0');
  return bits;
}

std::vector<PrimitiveType> allArrayTypes() {
  std::vector<PrimitiveType> types;
  for (const char *name : kArrayTypeNames)
    if (std::optional<PrimitiveType> t = parsePrimitiveTypeName(name))
      types.push_back(*t);
  return types;
}

TEST(PrimitiveType, EveryArrayTypeNameAndWidth) {
  for (const char *name : kArrayTypeNames) {
    SCOPED_TRACE(name);
    std::optional<PrimitiveType> type = parsePrimitiveTypeName(name);
    ASSERT_TRUE(type.has_value());
    EXPECT_EQ(primitiveTypeName(*type), name);
    int64_t bits = bitsFromName(name);
    EXPECT_EQ(primitiveTypeBitWidth(*type), bits);
    EXPECT_EQ(primitiveTypeByteWidth(*type), (bits + 7) / 8);
    EXPECT_TRUE(isArrayElementType(*type));
  }
  // Distinct names give distinct types.
  std::vector<PrimitiveType> types = allArrayTypes();
  std::sort(types.begin(), types.end());
  EXPECT_EQ(std::unique(types.begin(), types.end()), types.end());
  EXPECT_EQ(types.size(), 30u);
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

TEST(PrimitiveType, UnsignedTypeOfBitWidth) {
  EXPECT_EQ(unsignedTypeOfBitWidth(1), PrimitiveType::U1);
  EXPECT_EQ(unsignedTypeOfBitWidth(4), PrimitiveType::U4);
  EXPECT_EQ(unsignedTypeOfBitWidth(16), PrimitiveType::U16);
  EXPECT_EQ(unsignedTypeOfBitWidth(32), PrimitiveType::U32);
  EXPECT_EQ(unsignedTypeOfBitWidth(64), PrimitiveType::U64);
  EXPECT_EQ(unsignedTypeOfBitWidth(0), std::nullopt);
  EXPECT_EQ(unsignedTypeOfBitWidth(3), std::nullopt);
  EXPECT_EQ(unsignedTypeOfBitWidth(128), std::nullopt);
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
  for (PrimitiveType t : allArrayTypes()) {
    integral += isIntegralType(t);
    floating += isFloatingPointType(t);
    complex += isComplexType(t);
  }
  EXPECT_EQ(integral, 14);
  EXPECT_EQ(floating, 13);
  EXPECT_EQ(complex, 2);
}

TEST(PrimitiveType, EveryTypeRoundTripsThroughShapeText) {
  for (const char *name : kArrayTypeNames) {
    std::string text = std::string(name) + "[2]{0}";
    llvm::Expected<Shape> shape = parseShape(text);
    ASSERT_TRUE(static_cast<bool>(shape)) << llvm::toString(shape.takeError());
    EXPECT_EQ(shape->getElementType(), parsePrimitiveTypeName(name));
    EXPECT_EQ(printShape(*shape), text);
  }
}

} // namespace
