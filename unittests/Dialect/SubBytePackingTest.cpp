//===- SubBytePackingTest.cpp - XLA's E(n) order and byte counts ----------===//
//
// The packed position of a slot (SubBytePacking.h) against a transcription
// of XLA's PackIntN loop (xla/util.h: element j of a byte is shifted left by
// n * (8/n - j - 1)), the byte count against the library's allocated bytes
// (what layout-explain prints) over random layouts, and which E(n) the
// lowering refuses.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/SubBytePacking.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "../Xla/RandomLayouts.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::layout;

namespace {

/// XLA's PackIntN<kBitsPerElement> (xla/util.h), transcribed.
std::vector<uint8_t> xlaPackIntN(unsigned bits,
                                 const std::vector<uint8_t> &input) {
  unsigned perByte = 8 / bits;
  uint8_t mask = (1u << bits) - 1;
  std::vector<uint8_t> output((input.size() * bits + 7) / 8, 0);
  for (size_t i = 0; i < input.size(); ++i) {
    size_t j = i % perByte;
    output[i / perByte] |= (input[i] & mask) << (bits * (perByte - j - 1));
  }
  return output;
}

TEST(SubBytePackingTest, PositionsFollowXlaPackIntN) {
  IntegerIndexOps ops;
  for (unsigned bits : {1u, 2u, 4u}) {
    for (size_t n = 0; n < 20; ++n) {
      std::vector<uint8_t> values;
      for (size_t i = 0; i < n; ++i)
        values.push_back((i * 7 + 3) & ((1u << bits) - 1));
      std::vector<uint8_t> packed(getPackedByteCount(n, bits), 0);
      for (size_t i = 0; i < n; ++i) {
        auto [byte, offset] =
            getPackedPosition<int64_t>(static_cast<int64_t>(i), bits, ops);
        ASSERT_LT(byte, static_cast<int64_t>(packed.size()));
        packed[byte] |= values[i] << offset;
      }
      EXPECT_EQ(packed, xlaPackIntN(bits, values))
          << bits << " bits, " << n << " elements";
    }
  }
  // The worked example of docs/lowering.md: s4 -8..6 row-major.
  std::vector<uint8_t> s4;
  for (int v = -8; v <= 6; ++v)
    s4.push_back(static_cast<uint8_t>(v) & 0xF);
  EXPECT_EQ(xlaPackIntN(4, s4), (std::vector<uint8_t>{0x89, 0xAB, 0xCD, 0xEF,
                                                      0x01, 0x23, 0x45, 0x60}));
}

TEST(SubBytePackingTest, ByteCountIsTheLibrarysAllocatedBytes) {
  unittest::RandomLayoutOptions options;
  options.tailPadding = false; // The L(n) slack is not allocated.
  unittest::RandomLayoutGenerator generator(options);
  struct Case {
    PrimitiveType type;
    unsigned bits;
  } cases[] = {
      {PrimitiveType::S4, 4}, {PrimitiveType::U2, 2}, {PrimitiveType::S1, 1}};
  for (int i = 0; i < 300; ++i) {
    const Case &c = cases[i % 3];
    Shape shape = generator.next();
    shape.setElementType(c.type);
    shape.mutableLayout().setElementSizeInBits(c.bits);
    llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
    ASSERT_TRUE(static_cast<bool>(map)) << llvm::toString(map.takeError());
    EXPECT_EQ(getPackedByteCount(map->getPhysicalElementCount(), c.bits),
              map->getAllocatedBytes());
  }
}

TEST(SubBytePackingTest, WhichLayoutsPack) {
  MLIRContext context;
  context.loadDialect<LayoutDialect>();
  auto memref = [&](Type element, StringRef layout) {
    return MemRefType::get({3, 5}, element,
                           TiledLayoutAttr::get(&context, layout, {}));
  };
  Builder b(&context);
  auto bitsOf = [&](MemRefType type, std::string &why) {
    unsigned bits = 99;
    why = getSubBytePacking(type, bits);
    return bits;
  };
  std::string why;
  EXPECT_EQ(bitsOf(memref(b.getIntegerType(4), "{1,0:E(4)}"), why), 4u);
  EXPECT_EQ(why, "");
  EXPECT_EQ(bitsOf(memref(b.getIntegerType(4, false), "{1,0:T(2,4)E(4)}"), why),
            4u);
  EXPECT_EQ(bitsOf(memref(b.getIntegerType(2), "{1,0:E(2)}"), why), 2u);
  EXPECT_EQ(bitsOf(memref(b.getType<Float4E2M1FNType>(), "{1,0:E(4)}"), why),
            4u);
  // Not packed: no E, or one storage unit per element.
  EXPECT_EQ(bitsOf(memref(b.getIntegerType(4), "{1,0}"), why), 0u);
  EXPECT_EQ(bitsOf(memref(b.getIntegerType(4), "{1,0:E(8)}"), why), 0u);
  EXPECT_EQ(bitsOf(memref(b.getF32Type(), "{1,0:E(32)}"), why), 0u);
  EXPECT_EQ(why, "");
  // Refused.
  bitsOf(memref(b.getI1Type(), "{1,0:E(1)}"), why);
  EXPECT_NE(why.find("reject custom element sizes on PRED"), std::string::npos);
  bitsOf(memref(b.getIntegerType(2), "{1,0:E(4)}"), why);
  EXPECT_NE(why.find("use E(2) to pack"), std::string::npos);
  bitsOf(memref(b.getI8Type(), "{1,0:E(4)}"), why);
  EXPECT_NE(why.find("only sub-byte"), std::string::npos);
  bitsOf(memref(b.getIntegerType(3), "{1,0:E(3)}"), why);
  EXPECT_NE(why.find("straddle bytes"), std::string::npos);
}

} // namespace
