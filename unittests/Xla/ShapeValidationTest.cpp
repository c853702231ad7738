//===- ShapeValidationTest.cpp - validateShape / validateLayoutForDims ----===//
//
// The invariant checker on shapes built in code (no parser), one test per
// rule, with XLA's wording where XLA has one.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Shape.h"

#include <gtest/gtest.h>

using namespace mlir::layout;

namespace {

std::string errorOf(llvm::Error err) {
  if (!err)
    return "";
  return llvm::toString(std::move(err));
}

std::string validate(const Shape &shape) {
  return errorOf(validateShape(shape));
}

#define EXPECT_INVALID(shape, substring)                                       \
  do {                                                                         \
    std::string message = validate(shape);                                     \
    EXPECT_NE(message, "") << "expected invalid: " << printShape(shape);       \
    EXPECT_NE(message.find(substring), std::string::npos)                      \
        << "message: " << message;                                             \
  } while (false)

Shape f32(llvm::ArrayRef<int64_t> dims, const Layout &layout) {
  return Shape::makeArray(PrimitiveType::F32, dims, layout);
}

TEST(ShapeValidation, ValidShapes) {
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::F32, {3, 5})), "");
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::Pred, {})), "");
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::S8, {0, 7})), "");
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::F32, {kUnboundedSize, 4})),
            "");
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::F32, {5}, {true})), "");
  EXPECT_EQ(validate(Shape::makeToken()), "");
  EXPECT_EQ(validate(Shape::makeOpaque()), "");
  EXPECT_EQ(validate(Shape::makeTuple({})), "");
  EXPECT_EQ(
      validate(Shape::makeTuple({Shape::makeArray(PrimitiveType::F32, {2}),
                                 Shape::makeTuple({Shape::makeToken()})})),
      "");
  Layout tiled({1, 0});
  tiled.mutableTiles().push_back(Tile({Tile::kCombineDimension, 2}));
  tiled.setTailPaddingAlignment(8);
  tiled.setElementSizeInBits(4);
  tiled.setMemorySpace(1);
  tiled.setDynamicShapeMetadataPrefixBytes(16);
  EXPECT_EQ(validate(f32({4, 6}, tiled)), "");
}

TEST(ShapeValidation, MissingLayoutMeansDefault) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {2, 3});
  s.clearLayout();
  EXPECT_EQ(validate(s), "");
}

TEST(ShapeValidation, InvalidElementType) {
  EXPECT_INVALID(Shape(), "Invalid element type");
}

TEST(ShapeValidation, NegativeDimension) {
  EXPECT_INVALID(Shape::makeArray(PrimitiveType::F32, {2, -4}),
                 "Negative dimension at index 1: -4. Shape: f32[2,-4]{1,0}");
}

TEST(ShapeValidation, UnboundedDimMustBeDynamic) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {4});
  s.setDim(0, kUnboundedSize);
  EXPECT_EQ(validate(s), "") << "setDim marks ? dynamic";
}

TEST(ShapeValidation, SizeOverflow) {
  int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_INVALID(Shape::makeArray(PrimitiveType::S8, {big, 2}),
                 "Shape s8[9223372036854775807,2]{1,0} size may overflow");
  EXPECT_INVALID(Shape::makeArray(PrimitiveType::F64, {big / 4}),
                 "may overflow");
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::S8, {big})), "");
  // A size-0 dim makes the size 0 whatever the order of the others (a
  // permutation of a valid shape stays valid).
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::F32, {1, 0, big, 377})),
            "");
  EXPECT_EQ(validate(Shape::makeArray(PrimitiveType::F32, {big, 377, 1, 0})),
            "");
  // A bounded dim counts at its bound.
  EXPECT_INVALID(Shape::makeArray(PrimitiveType::S8, {big, 2}, {true, false}),
                 "may overflow");
}

TEST(ShapeValidation, NonArrayShapes) {
  Shape token = Shape::makeToken();
  token.setLayout(Layout());
  EXPECT_INVALID(token, "shape of primitive type TOKEN should not have a "
                        "layout");
  Shape opaque = Shape::makeOpaque();
  opaque.setLayout(Layout());
  EXPECT_INVALID(opaque, "OPAQUE_TYPE should not have a layout");
  Shape tuple = Shape::makeTuple({Shape::makeToken()});
  tuple.setLayout(Layout());
  EXPECT_INVALID(tuple, "tuple should not have a layout field");
  Shape bad = Shape::makeTuple(
      {Shape::makeArray(PrimitiveType::F32, {2}, Layout({1}))});
  EXPECT_INVALID(bad, "out-of-bounds value: {1}");
}

TEST(ShapeValidation, MinorToMajor) {
  EXPECT_INVALID(f32({2}, Layout()),
                 "layout minor_to_major field contains 0 elements, but shape "
                 "has 1 dimensions");
  EXPECT_INVALID(f32({2, 3}, Layout({1, 0, 2})),
                 "contains 3 elements, but shape has 2 dimensions: {1, 0, 2}; "
                 "shape: f32[2,3]{1,0,2}");
  EXPECT_INVALID(f32({2, 3}, Layout({1, 1})),
                 "layout minor_to_major field has duplicate values: {1, 1}");
  EXPECT_INVALID(f32({2, 3}, Layout({2, 0})),
                 "layout minor_to_major field has out-of-bounds value: {2, 0}");
  EXPECT_INVALID(f32({2, 3}, Layout({-1, 0})), "out-of-bounds value");
}

TEST(ShapeValidation, Tiles) {
  auto withTile = [](llvm::ArrayRef<int64_t> tile) {
    Layout layout({1, 0});
    layout.mutableTiles().push_back(Tile(tile));
    return f32({4, 4}, layout);
  };
  EXPECT_EQ(validate(withTile({2, 2})), "");
  EXPECT_EQ(validate(withTile({Tile::kCombineDimension, 4})), "");
  EXPECT_EQ(validate(withTile({7, 3, 2})), "") << "longer than rank is fine";
  EXPECT_INVALID(withTile({}), "layout has invalid tiles");
  EXPECT_INVALID(withTile({0}), "tile entries must be positive or '*'");
  EXPECT_INVALID(withTile({-5, 2}), "tile entries must be positive or '*'");
  EXPECT_INVALID(withTile({2, Tile::kCombineDimension}),
                 "'*' cannot be the last entry of a tile");
}

TEST(ShapeValidation, IntegerAttributes) {
  Layout l({0});
  l.setTailPaddingAlignment(0);
  EXPECT_INVALID(f32({4}, l), "tail_padding_alignment_in_elements field is "
                              "<= 0: {0}");
  l = Layout({0});
  l.setElementSizeInBits(-4);
  EXPECT_INVALID(f32({4}, l), "element_size_in_bits field is negative: -4");
  l = Layout({0});
  l.setMemorySpace(-1);
  EXPECT_INVALID(f32({4}, l), "memory_space field is negative: -1");
  l = Layout({0});
  l.setDynamicShapeMetadataPrefixBytes(-1);
  EXPECT_INVALID(f32({4}, l),
                 "dynamic_shape_metadata_prefix_bytes field is negative");
}

TEST(ShapeValidation, SplitConfigs) {
  auto withSplit = [](int64_t dim, llvm::ArrayRef<int64_t> indices,
                      Layout layout = Layout({1, 0})) {
    SplitConfig config;
    config.dimension = dim;
    config.splitIndices.assign(indices.begin(), indices.end());
    layout.mutableSplitConfigs().push_back(config);
    return f32({8, 2}, layout);
  };
  EXPECT_EQ(validate(withSplit(0, {2, 4, 6})), "");
  EXPECT_EQ(validate(withSplit(1, {1})), "");
  EXPECT_EQ(validate(withSplit(0, {})), "");
  EXPECT_INVALID(withSplit(2, {1}), "out-of-bounds dimension 2");
  EXPECT_INVALID(withSplit(-1, {1}), "out-of-bounds dimension -1");
  EXPECT_INVALID(withSplit(0, {4, 2}), "not positive and strictly increasing");
  EXPECT_INVALID(withSplit(0, {8}), "outside the split dimension of size 8");
  // With minor_to_major {0,1}, physical dimension 0 is logical dimension 1.
  EXPECT_INVALID(withSplit(0, {4}, Layout({0, 1})),
                 "outside the split dimension of size 2");
}

TEST(ShapeValidation, LegacyPadding) {
  Layout l({0, 1});
  l.mutablePaddedDimensions().assign({3, 5});
  l.setPaddingValue(PaddingValue::Zero);
  EXPECT_EQ(validate(f32({2, 3}, l)), "");
  l.mutablePaddedDimensions().assign({3});
  EXPECT_INVALID(f32({2, 3}, l), "layout padded_dimensions field contains 1 "
                                 "elements, but shape has 2 dimensions");
  l.mutablePaddedDimensions().assign({1, 5});
  EXPECT_INVALID(f32({2, 3}, l), "value 1 for dimension 0 of size 2");
  l.mutablePaddedDimensions().assign({3, 5});
  EXPECT_INVALID(f32({2, kUnboundedSize}, l),
                 "cannot pad the unbounded dynamic dimension 1");
  // PV alone (no PAD) is harmless.
  Layout pv({0});
  pv.setPaddingValue(PaddingValue::One);
  EXPECT_EQ(validate(f32({2}, pv)), "");
  pv.setPaddingValue(static_cast<PaddingValue>(9));
  EXPECT_INVALID(f32({2}, pv), "padding_value field has invalid value 9");
}

TEST(ShapeValidation, Sparse) {
  Layout l({1, 0});
  l.mutableDimLevels().push_back({DimLevelType::Dense, true, true});
  l.mutableDimLevels().push_back({DimLevelType::Compressed, false, false});
  l.setIndexPrimitiveType(PrimitiveType::U32);
  l.setPointerPrimitiveType(PrimitiveType::U64);
  l.setPhysicalShape(Shape::makeArray(PrimitiveType::F32, {7}));
  EXPECT_EQ(validate(f32({4, 5}, l)), "");

  Layout bad = l;
  bad.setIndexPrimitiveType(PrimitiveType::S32);
  EXPECT_INVALID(f32({4, 5}, bad),
                 "index_primitive_type is not an unsigned integer type");
  bad = l;
  bad.setPointerPrimitiveType(PrimitiveType::F32);
  EXPECT_INVALID(f32({4, 5}, bad),
                 "pointer_primitive_type is not an unsigned integer type");
  bad = l;
  bad.mutableTiles().push_back(Tile({2, 2}));
  EXPECT_INVALID(f32({4, 5}, bad), "layout has tiles, but the shape is a "
                                   "sparse array");
  bad = l;
  bad.mutableDimLevels().pop_back();
  EXPECT_INVALID(f32({4, 5}, bad), "layout dim_level_types field contains 1 "
                                   "elements, but shape is rank 2: "
                                   "{DIM_DENSE}");
  bad = l;
  bad.mutableDimLevels()[0].ordered = false;
  EXPECT_INVALID(f32({4, 5}, bad), "layout dimension 0 has invalid level "
                                   "encoding DIM_DENSE, non-ordered");
  bad = l;
  bad.setPhysicalShape(f32({7}, Layout()));
  EXPECT_INVALID(f32({4, 5}, bad), "contains 0 elements");

  Layout dense({0});
  dense.setIndexPrimitiveType(PrimitiveType::U8);
  EXPECT_INVALID(f32({4}, dense), "layout has a index_primitive_type, but is "
                                  "not a sparse array");
  dense = Layout({0});
  dense.setPhysicalShape(f32({4}, Layout({0})));
  EXPECT_INVALID(f32({4}, dense), "layout has a physical_shape, but is not a "
                                  "sparse array");
}

TEST(ShapeValidation, ValidateLayoutForDims) {
  EXPECT_EQ(errorOf(validateLayoutForDims(Layout({0, 1}), {2, 3},
                                          PrimitiveType::F32)),
            "");
  std::string message =
      errorOf(validateLayoutForDims(Layout({0}), {2, 3}, PrimitiveType::BF16));
  EXPECT_NE(message.find("layout minor_to_major field contains 1 elements, "
                         "but shape has 2 dimensions: {0}; shape: "
                         "bf16[2,3]{0}"),
            std::string::npos)
      << message;
  Layout tiled({0});
  tiled.mutableTiles().push_back(Tile({0}));
  EXPECT_NE(errorOf(validateLayoutForDims(tiled, {8}, PrimitiveType::F32))
                .find("layout has invalid tiles"),
            std::string::npos);
}

} // namespace
