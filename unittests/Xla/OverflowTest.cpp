//===- OverflowTest.cpp - int64 overflow and UB regression tests ----------===//
//
// One test per overflow fix in lib/Xla (issue 6), each written before its
// fix. Several of these abort only under the sanitizer build
// (scripts/sanitize.sh: ASan + UBSan, -fno-sanitize-recover=all,
// _GLIBCXX_ASSERTIONS); all check the documented result or error as well.
//
//===----------------------------------------------------------------------===//

#include "TestHelpers.h"
#include "layout/Xla/Broadcast.h"
#include "layout/Xla/Shape.h"
#include "layout/Xla/ShapeUtil.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/Support/Error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

Shape parse(llvm::StringRef text) {
  llvm::Expected<Shape> shape = parseShape(text);
  if (!shape) {
    ADD_FAILURE() << llvm::toString(shape.takeError());
    return Shape();
  }
  return *shape;
}

// Found by the shape-util fuzzer (fuzz/corpus/shape-util/regress-*): a zero
// in the common prefix makes both element counts 0, while the products of
// the remaining dims overflow int64. CommonFactors dereferenced the empty
// checked product.
TEST(OverflowTest, AlignLayoutsZeroPrefixWithOverflowingRest) {
  Shape input = parse("f32[0,1099511627776,1099511627776]");
  Shape output = parse("f32[0,2199023255552,549755813888]");
  std::optional<Shape> aligned = valueOf(alignLayouts(input, output));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_THAT(aligned->getLayout().getMinorToMajor(), ElementsAre(2, 1, 0));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(input, *aligned)));
}

// The fuzzer's own input, minimized by hand: the same path with many dims.
TEST(OverflowTest, AlignLayoutsFuzzerInput) {
  Shape input =
      parse("f64[0,311,3,9496,20,36,20,3116,943,9,2,6,2,1,1,0]{15,14,13,12,"
            "11,10,9,8,7,6,5,4,3,2,1,0}");
  Shape output = parse("f64[0,3]");
  llvm::Expected<std::optional<Shape>> aligned = alignLayouts(input, output);
  ASSERT_TRUE(static_cast<bool>(aligned))
      << llvm::toString(aligned.takeError());
  if (*aligned)
    EXPECT_TRUE(valueOf(reshapeIsBitcast(input, **aligned)));
}

// XLA's LinearIndex multiplies the tile sizes (and the tile counts) before it
// knows whether they are needed: with 2^32 x 2^32 tiles the product
// overflows int64 although the index itself is small.
TEST(OverflowTest, XlaLinearIndexHugeTilesSmallIndex) {
  Shape shape = parse("s8[3,3]{1,0:T(4294967296,4294967296)}");
  // Row-major inside one 2^32 x 2^32 tile: 2 * 2^32 + 2.
  EXPECT_EQ(valueOf(xlaLinearIndex(shape, {2, 2})), 2 * (int64_t(1) << 32) + 2);
  EXPECT_EQ(valueOf(xlaLinearIndex(shape, {0, 0})), 0);
}

// When the linear index itself does not fit, the error names the shape.
TEST(OverflowTest, XlaLinearIndexOverflowNamesShape) {
  // One 2^62-element tile per row of dim 2: row (i0, i1) starts at
  // (2 * i0 + i1) * 2^62, which overflows for (1, 1).
  const char *text =
      "s8[2,2,1152921504606846977]{2,1,0:T(1,1,4611686018427387904)}";
  Shape shape = parse(text);
  EXPECT_EQ(valueOf(xlaLinearIndex(shape, {0, 1, 5})), (int64_t(1) << 62) + 5);
  std::string message = errorOf(xlaLinearIndex(shape, {1, 1, 0}));
  EXPECT_THAT(message, HasSubstr("overflows int64"));
  EXPECT_THAT(message, HasSubstr(text));
}

// Found by the shape-util fuzzer (fuzz/corpus/shape-util/regress-*):
// deleting the 0 of a zero-element shape can leave dims whose product
// overflows; deleteDimensions returned that invalid shape.
TEST(OverflowTest, DeleteDimensionsResultOverflowNamesShape) {
  Shape shape = parse("f32[0,1099511627776,1099511627776]");
  std::string message = errorOf(deleteDimensions({0}, shape));
  EXPECT_THAT(message, HasSubstr("overflow"));
  EXPECT_THAT(message, HasSubstr("f32[1099511627776,1099511627776]{1,0}"));
  // Deleting a size-1 dim keeps the (valid) size.
  EXPECT_EQ(printShape(valueOf(
                deleteDimensions({1}, parse("f32[1099511627776,1,1024]")))),
            "f32[1099511627776,1024]{1,0}");
}

// Degenerate broadcasting of two valid operands can give a result whose
// size overflows: f32[2^40,1] + f32[1,2^40].
TEST(OverflowTest, InferBinaryOpShapeResultOverflowNamesShape) {
  std::string message = errorOf(inferBinaryOpShape(
      "add", parse("f32[1099511627776,1]"), parse("f32[1,1099511627776]"), {}));
  EXPECT_THAT(message, HasSubstr("overflow"));
  EXPECT_THAT(message, HasSubstr("f32[1099511627776,1099511627776]"));
}

} // namespace

// Found by CI's shape-util fuzz run: a trailing 0 after dims whose running
// product overflows. The shape is valid (size 0 in any dim order), but
// reshapeIsBitcast(a, a) and the tiled map multiplied in dim order and
// reported an overflow.
TEST(OverflowTest, TrailingZeroAfterOverflowingDims) {
  const char *text = "f32[5,3193,1,961,3193,9,867297296,2,1,0]{9,8,7,6,5,4,3,"
                     "2,1,0}";
  Shape shape = parse(text);
  EXPECT_EQ(checkedProduct(shape.getDims()), std::optional<int64_t>(0));
  EXPECT_EQ(valueOf(getElementCount(shape)), 0);
  EXPECT_TRUE(valueOf(reshapeIsBitcast(shape, shape)));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(
      shape, parse("f32[0,5,3193,1,961,3193,9,867297296,2,1]"))));
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  ASSERT_TRUE(static_cast<bool>(map)) << llvm::toString(map.takeError());
  EXPECT_EQ(map->getPhysicalElementCount(), 0);
}
