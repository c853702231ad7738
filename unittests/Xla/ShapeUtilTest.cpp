//===- ShapeUtilTest.cpp - Tests for ShapeUtil.h --------------------------===//

#include "layout/Xla/ShapeUtil.h"
#include "TestHelpers.h"

#include "llvm/Support/Error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using llvm::SmallVector;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

using Vec = SmallVector<int64_t, 6>;

Shape f32(llvm::ArrayRef<int64_t> dims) {
  return Shape::makeArray(PrimitiveType::F32, dims);
}

Shape f32(llvm::ArrayRef<int64_t> dims, llvm::ArrayRef<int64_t> minorToMajor) {
  return Shape::makeArray(PrimitiveType::F32, dims, Layout(minorToMajor));
}

Shape withTiles(Shape shape, llvm::ArrayRef<Tile> tiles) {
  shape.mutableLayout().mutableTiles().assign(tiles.begin(), tiles.end());
  return shape;
}

// Every permutation of 0..n-1.
std::vector<Vec> allPermutations(int64_t n) {
  Vec perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<Vec> result;
  do
    result.push_back(perm);
  while (std::next_permutation(perm.begin(), perm.end()));
  return result;
}

// Physical offset of a logical index in an untiled layout (brute force).
int64_t offsetOf(const Shape &shape, llvm::ArrayRef<int64_t> index) {
  int64_t offset = 0, scale = 1;
  for (int64_t d : shape.getLayout().getMinorToMajor()) {
    offset += index[d] * scale;
    scale *= shape.getDim(d);
  }
  return offset;
}

// Reshape is a bitcast iff every element keeps its offset (brute force).
bool bruteForceReshapeIsBitcast(const Shape &in, const Shape &out) {
  Vec inIndex(in.getRank(), 0), outIndex(out.getRank(), 0);
  if (std::find(in.getDims().begin(), in.getDims().end(), 0) !=
      in.getDims().end())
    return true;
  do {
    if (offsetOf(in, inIndex) != offsetOf(out, outIndex))
      return false;
    bumpIndices(out, outIndex);
  } while (bumpIndices(in, inIndex));
  return true;
}

//===----------------------------------------------------------------------===//
// Permutations
//===----------------------------------------------------------------------===//

TEST(ShapeUtilPermutation, IsPermutation) {
  EXPECT_TRUE(isPermutation({}));
  EXPECT_TRUE(isPermutation({0}));
  EXPECT_TRUE(isPermutation({2, 0, 1}));
  EXPECT_FALSE(isPermutation({0, 0}));
  EXPECT_FALSE(isPermutation({1, 2}));
  EXPECT_FALSE(isPermutation({-1, 0}));
}

TEST(ShapeUtilPermutation, XlaConventions) {
  // Permute(v, p)[i] = v[p[i]].
  EXPECT_THAT(permute({10, 20, 30}, {2, 0, 1}), ElementsAre(30, 10, 20));
  // Compose(p1, p2)[i] = p1[p2[i]].
  EXPECT_THAT(composePermutations({1, 2, 0}, {2, 0, 1}), ElementsAre(0, 1, 2));
  EXPECT_THAT(composePermutations({2, 0, 1}, {1, 0, 2}), ElementsAre(0, 2, 1));
  EXPECT_THAT(inversePermutation({2, 0, 1}), ElementsAre(1, 2, 0));
}

TEST(ShapeUtilPermutation, Laws) {
  for (const Vec &p : allPermutations(4)) {
    Vec inverse = inversePermutation(p);
    Vec identity = {0, 1, 2, 3};
    EXPECT_EQ(composePermutations(p, inverse), identity);
    EXPECT_EQ(composePermutations(inverse, p), identity);
    EXPECT_EQ(inversePermutation(inverse), p);
    for (const Vec &q : allPermutations(4)) {
      // Permute(Permute(v, p), q) = Permute(v, Compose(p, q)).
      Vec v = {7, 8, 9, 10};
      EXPECT_EQ(permute(permute(v, p), q),
                permute(v, composePermutations(p, q)));
    }
  }
}

TEST(ShapeUtilPermutation, BadInputGivesEmpty) {
  EXPECT_TRUE(inversePermutation({0, 0}).empty());
  EXPECT_TRUE(composePermutations({0, 1}, {0}).empty());
  EXPECT_TRUE(composePermutations({0, 1}, {0, 5}).empty());
  EXPECT_TRUE(permute({1, 2}, {-1, 0}).empty());
}

//===----------------------------------------------------------------------===//
// IndexUtil
//===----------------------------------------------------------------------===//

TEST(ShapeUtilIndex, DimensionStride) {
  Shape rowMajor = f32({2, 3, 4});
  EXPECT_EQ(valueOf(getDimensionStride(rowMajor, 2)), 1);
  EXPECT_EQ(valueOf(getDimensionStride(rowMajor, 1)), 4);
  EXPECT_EQ(valueOf(getDimensionStride(rowMajor, 0)), 12);
  Shape colMajor = f32({2, 3, 4}, {0, 1, 2});
  EXPECT_EQ(valueOf(getDimensionStride(colMajor, 0)), 1);
  EXPECT_EQ(valueOf(getDimensionStride(colMajor, 1)), 2);
  EXPECT_EQ(valueOf(getDimensionStride(colMajor, 2)), 6);
}

TEST(ShapeUtilIndex, DimensionStrideErrors) {
  EXPECT_THAT(errorOf(getDimensionStride(f32({2, 3}), 2)),
              HasSubstr("dimension 2 is out of range for a shape of rank 2"));
  EXPECT_THAT(errorOf(getDimensionStride(f32({2, 3}), -1)),
              HasSubstr("out of range"));
  EXPECT_THAT(errorOf(getDimensionStride(Shape::makeToken(), 0)),
              HasSubstr("must be an array shape"));
  EXPECT_THAT(
      errorOf(getDimensionStride(withTiles(f32({4, 4}), {Tile({2, 2})}), 0)),
      HasSubstr("needs an untiled layout"));
  Shape padded = f32({2, 3});
  padded.mutableLayout().mutablePaddedDimensions().assign({3, 5});
  EXPECT_THAT(errorOf(getDimensionStride(padded, 0)),
              HasSubstr("needs an unpadded layout"));
  EXPECT_THAT(errorOf(getDimensionStride(f32({2, 3}, {0}), 0)),
              HasSubstr("layout minor_to_major field contains 1 elements, but "
                        "shape has 2 dimensions"));
  EXPECT_THAT(errorOf(getDimensionStride(f32({2, 3}, {0, 0}), 0)),
              HasSubstr("is not a permutation"));
  Shape noLayout = f32({2});
  noLayout.clearLayout();
  EXPECT_THAT(errorOf(getDimensionStride(noLayout, 0)),
              HasSubstr("has no layout"));
  EXPECT_THAT(errorOf(getDimensionStride(f32({kUnboundedSize, 3}, {0, 1}), 1)),
              HasSubstr("more-minor dimension 0 is unbounded"));
  int64_t big = int64_t(1) << 40;
  EXPECT_THAT(errorOf(getDimensionStride(f32({2, big, big}), 0)),
              HasSubstr("overflows int64"));
}

TEST(ShapeUtilIndex, ByteStrides) {
  EXPECT_THAT(valueOf(getByteStrides(f32({2, 3, 4}))), ElementsAre(48, 16, 4));
  EXPECT_THAT(valueOf(getByteStrides(f32({2, 3, 4}, {0, 1, 2}))),
              ElementsAre(4, 8, 24));
  EXPECT_THAT(
      valueOf(getByteStrides(Shape::makeArray(PrimitiveType::C128, {2, 3}))),
      ElementsAre(48, 16));
  EXPECT_TRUE(valueOf(getByteStrides(f32({}))).empty());
  // The most-major dim may be unbounded: no stride depends on it.
  EXPECT_THAT(valueOf(getByteStrides(f32({kUnboundedSize, 3}))),
              ElementsAre(12, 4));
}

TEST(ShapeUtilIndex, ByteStridesErrors) {
  EXPECT_THAT(errorOf(getByteStrides(withTiles(f32({4, 4}), {Tile({2, 2})}))),
              HasSubstr("getByteStrides needs an untiled layout"));
  EXPECT_THAT(errorOf(getByteStrides(Shape::makeTuple({}))),
              HasSubstr("must be an array shape"));
  Shape packed = Shape::makeArray(PrimitiveType::S4, {8});
  packed.mutableLayout().setElementSizeInBits(4);
  EXPECT_THAT(errorOf(getByteStrides(packed)),
              HasSubstr("elements of 4 bits (E(n)) are packed"));
  EXPECT_THAT(errorOf(getByteStrides(f32({3, kUnboundedSize}))),
              HasSubstr("dimension 1 is unbounded"));
  int64_t big = int64_t(1) << 31;
  EXPECT_THAT(errorOf(getByteStrides(f32({2, big, big}))),
              HasSubstr("strides overflow int64"));
}

TEST(ShapeUtilIndex, BumpIndicesVisitsRowMajorOrder) {
  Shape shape = f32({2, 3});
  Vec index = {0, 0};
  std::vector<Vec> seen = {index};
  while (bumpIndices(shape, index))
    seen.push_back(index);
  EXPECT_EQ(seen,
            (std::vector<Vec>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
  // Past the end, the indices are reset to zero.
  EXPECT_THAT(index, ElementsAre(0, 0));
}

TEST(ShapeUtilIndex, BumpIndicesEdgeCases) {
  Vec none;
  EXPECT_FALSE(bumpIndices(f32({}), none));
  Vec zero = {0, 0};
  EXPECT_FALSE(bumpIndices(f32({0, 3}), zero));
  Vec wrongRank = {0};
  EXPECT_FALSE(bumpIndices(f32({2, 2}), wrongRank));
  Vec token;
  EXPECT_FALSE(bumpIndices(Shape::makeToken(), token));
  Vec unbounded = {0};
  EXPECT_FALSE(bumpIndices(f32({kUnboundedSize}), unbounded));
  // Out-of-range input is not trusted (no overflow on INT64_MAX).
  Vec huge = {0, std::numeric_limits<int64_t>::max()};
  EXPECT_TRUE(bumpIndices(f32({2, 3}), huge));
  EXPECT_THAT(huge, ElementsAre(1, 0));
}

//===----------------------------------------------------------------------===//
// PermuteDimensions / TransposeIsBitcast
//===----------------------------------------------------------------------===//

TEST(ShapeUtilPermuteDimensions, Example) {
  Shape shape = f32({2, 3, 4}, {2, 1, 0});
  Shape permuted = valueOf(permuteDimensions({2, 0, 1}, shape));
  EXPECT_THAT(permuted.getDims(), ElementsAre(4, 2, 3));
  // Compose(Inverse({2,0,1}) = {1,2,0}, {2,1,0}) = {0,2,1}.
  EXPECT_THAT(permuted.getLayout().getMinorToMajor(), ElementsAre(0, 2, 1));
  EXPECT_TRUE(valueOf(transposeIsBitcast(shape, permuted, {2, 0, 1})));
}

TEST(ShapeUtilPermuteDimensions, KeepsTilesDynamicAndPadding) {
  Shape shape = withTiles(f32({8, 128}), {Tile({8, 128})});
  shape.setDim(0, 8, /*isDynamic=*/true);
  shape.mutableLayout().mutablePaddedDimensions().assign({9, 130});
  Shape permuted = valueOf(permuteDimensions({1, 0}, shape));
  EXPECT_THAT(permuted.getDims(), ElementsAre(128, 8));
  EXPECT_FALSE(permuted.isDynamicDim(0));
  EXPECT_TRUE(permuted.isDynamicDim(1));
  EXPECT_EQ(permuted.getLayout().getTiles(), shape.getLayout().getTiles());
  EXPECT_THAT(permuted.getLayout().getPaddedDimensions(), ElementsAre(130, 9));
  EXPECT_TRUE(valueOf(transposeIsBitcast(shape, permuted, {1, 0})));
}

TEST(ShapeUtilPermuteDimensions, WithoutLayout) {
  Shape shape = f32({2, 3});
  shape.clearLayout();
  Shape permuted = valueOf(permuteDimensions({1, 0}, shape));
  EXPECT_THAT(permuted.getDims(), ElementsAre(3, 2));
  EXPECT_FALSE(permuted.hasLayout());
}

TEST(ShapeUtilPermuteDimensions, Errors) {
  EXPECT_THAT(errorOf(permuteDimensions({0}, f32({2, 3}))),
              HasSubstr("{0} is not a permutation of the 2 dimensions"));
  EXPECT_THAT(errorOf(permuteDimensions({1, 1}, f32({2, 3}))),
              HasSubstr("is not a permutation"));
  EXPECT_THAT(errorOf(permuteDimensions({}, Shape::makeOpaque())),
              HasSubstr("must be an array shape"));
  EXPECT_THAT(errorOf(permuteDimensions({1, 0}, f32({2, 3}, {0, 0}))),
              HasSubstr("not a permutation: {0,0}"));
}

// Property: PermuteDimensions is always a bitcast, for every layout and
// permutation of rank 4; and DeduceTransposeDimensionsForBitcast recovers
// the permutation.
TEST(ShapeUtilPermuteDimensions, PropertyAlwaysBitcastAndDeducible) {
  Vec dims = {2, 3, 5, 7};
  for (const Vec &layout : allPermutations(4)) {
    Shape shape = f32(dims, layout);
    for (const Vec &perm : allPermutations(4)) {
      Shape permuted = valueOf(permuteDimensions(perm, shape));
      EXPECT_TRUE(valueOf(transposeIsBitcast(shape, permuted, perm)));
      std::optional<Vec> deduced =
          valueOf(deduceTransposeDimensionsForBitcast(shape, permuted));
      ASSERT_TRUE(deduced.has_value());
      EXPECT_EQ(*deduced, perm);
      // Same physical order: also a reshape-free bitcast element by element.
      Vec index(4, 0);
      do {
        Vec permutedIndex = permute(index, perm);
        EXPECT_EQ(offsetOf(shape, index), offsetOf(permuted, permutedIndex));
      } while (bumpIndices(shape, index));
    }
  }
}

TEST(ShapeUtilPermuteDimensions, PropertyDeduceWithRepeatedSizes) {
  // Equal sizes make the dims alone ambiguous; the layouts decide.
  Shape shape = f32({4, 4, 4}, {0, 2, 1});
  for (const Vec &perm : allPermutations(3)) {
    Shape permuted = valueOf(permuteDimensions(perm, shape));
    EXPECT_EQ(*valueOf(deduceTransposeDimensionsForBitcast(shape, permuted)),
              perm);
  }
}

TEST(ShapeUtilTransposeIsBitcast, FalseCases) {
  Shape in = f32({2, 3}, {1, 0});
  // Transposed dims with the same (row-major) layout: a real transpose.
  EXPECT_FALSE(valueOf(transposeIsBitcast(in, f32({3, 2}, {1, 0}), {1, 0})));
  EXPECT_TRUE(valueOf(transposeIsBitcast(in, f32({3, 2}, {0, 1}), {1, 0})));
  Shape s32 = Shape::makeArray(PrimitiveType::S32, {3, 2}, Layout({0, 1}));
  EXPECT_FALSE(valueOf(transposeIsBitcast(in, s32, {1, 0})));
  EXPECT_TRUE(valueOf(transposeIsBitcast(in, s32, {1, 0}, true)));
  // Different tiles.
  EXPECT_FALSE(
      valueOf(transposeIsBitcast(withTiles(f32({4, 4}, {1, 0}), {Tile({2, 2})}),
                                 f32({4, 4}, {0, 1}), {1, 0})));
  // Different L.
  Shape aligned = f32({3, 2}, {0, 1});
  aligned.mutableLayout().setTailPaddingAlignment(4);
  EXPECT_FALSE(valueOf(transposeIsBitcast(in, aligned, {1, 0})));
  // Padding must move with its dimension.
  Shape paddedIn = in, paddedOut = f32({3, 2}, {0, 1});
  paddedIn.mutableLayout().mutablePaddedDimensions().assign({3, 5});
  paddedOut.mutableLayout().mutablePaddedDimensions().assign({3, 5});
  EXPECT_FALSE(valueOf(transposeIsBitcast(paddedIn, paddedOut, {1, 0})));
  paddedOut.mutableLayout().mutablePaddedDimensions().assign({5, 3});
  EXPECT_TRUE(valueOf(transposeIsBitcast(paddedIn, paddedOut, {1, 0})));
  EXPECT_FALSE(
      valueOf(transposeIsBitcast(paddedIn, f32({3, 2}, {0, 1}), {1, 0})));
}

TEST(ShapeUtilTransposeIsBitcast, Errors) {
  Shape in = f32({2, 3});
  EXPECT_THAT(errorOf(transposeIsBitcast(in, f32({3, 2}), {1})),
              HasSubstr("dimension mapping {1} is not a permutation of the 2 "
                        "dimensions"));
  EXPECT_THAT(errorOf(transposeIsBitcast(in, f32({6}), {0})),
              HasSubstr("input rank 2 != output rank 1"));
  EXPECT_THAT(errorOf(transposeIsBitcast(in, f32({2, 3}), {1, 0})),
              HasSubstr("output dims {2,3} are not the input dims {2,3} "
                        "permuted by {1,0}"));
  EXPECT_THAT(errorOf(transposeIsBitcast(Shape::makeToken(), in, {})),
              HasSubstr("transposeIsBitcast input must be an array shape"));
  EXPECT_THAT(errorOf(transposeIsBitcast(in, f32({3, 2}, {2, 0}), {1, 0})),
              HasSubstr("not a permutation"));
}

TEST(ShapeUtilDeduceTranspose, NoneAndErrors) {
  // Ranks differ.
  EXPECT_FALSE(
      valueOf(deduceTransposeDimensionsForBitcast(f32({2, 3}), f32({6})))
          .has_value());
  // Dims are not a physical-order-preserving transpose.
  EXPECT_FALSE(
      valueOf(deduceTransposeDimensionsForBitcast(f32({2, 3}), f32({3, 2})))
          .has_value());
  // Tiles differ: the transpose would not be a bitcast.
  EXPECT_FALSE(valueOf(deduceTransposeDimensionsForBitcast(
                           withTiles(f32({4, 4}), {Tile({2, 2})}), f32({4, 4})))
                   .has_value());
  // Element types are ignored (as in XLA).
  EXPECT_TRUE(
      valueOf(deduceTransposeDimensionsForBitcast(
                  f32({2, 3}),
                  Shape::makeArray(PrimitiveType::S32, {3, 2}, Layout({0, 1}))))
          .has_value());
  EXPECT_THAT(errorOf(deduceTransposeDimensionsForBitcast(Shape::makeTuple({}),
                                                          f32({2}))),
              HasSubstr("must be an array shape"));
  EXPECT_THAT(
      errorOf(deduceTransposeDimensionsForBitcast(f32({2}), f32({2}, {1}))),
      HasSubstr("not a permutation"));
}

//===----------------------------------------------------------------------===//
// ReshapeIsBitcast
//===----------------------------------------------------------------------===//

TEST(ShapeUtilReshapeIsBitcast, Examples) {
  // Row-major merge/split is a bitcast.
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({2, 3, 4}), f32({6, 4}))));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({6, 4}), f32({2, 3, 4}))));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({2, 3}), f32({6}))));
  // Column-major input merging into a row-major output is not.
  EXPECT_FALSE(valueOf(reshapeIsBitcast(f32({2, 3}, {0, 1}), f32({6}))));
  // ... but [2,3,4]{1,0,2} merges dims 0 and 1 (adjacent, dim 1 minor).
  EXPECT_TRUE(valueOf(
      reshapeIsBitcast(f32({2, 3, 4}, {1, 0, 2}), f32({6, 4}, {0, 1}))));
  // Degenerate dims can go anywhere.
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({1, 6}), f32({6, 1}, {0, 1}))));
  // Element counts differ.
  EXPECT_FALSE(valueOf(reshapeIsBitcast(f32({2, 3}), f32({7}))));
  // Element types differ unless ignored.
  Shape s32 = Shape::makeArray(PrimitiveType::S32, {6});
  EXPECT_FALSE(valueOf(reshapeIsBitcast(f32({2, 3}), s32)));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({2, 3}), s32, true)));
  // Zero elements: always a bitcast.
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({0, 3}, {0, 1}), f32({3, 0}))));
  // Scalars.
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({}), f32({1, 1}))));
  // XLA's ReshapeIsBitcast_3x2x2_6x2_Dim0IsMostMinor.
  EXPECT_FALSE(valueOf(
      reshapeIsBitcast(f32({3, 2, 2}, {0, 1, 2}), f32({6, 2}, {0, 1}))));
}

TEST(ShapeUtilReshapeIsBitcast, TiledLayouts) {
  Shape tiled = withTiles(f32({8, 128}), {Tile({8, 128})});
  // Identical tiled shapes are trivially a bitcast.
  EXPECT_TRUE(valueOf(reshapeIsBitcast(tiled, tiled)));
  // Otherwise decided exactly through the byte orders (LayoutCanonical.h;
  // more cases in LayoutCanonicalTest.cpp): one 8x128 tile over [8,128] is
  // row-major, the same bytes as a flat [1024].
  EXPECT_TRUE(valueOf(reshapeIsBitcast(tiled, f32({1024}))));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(f32({1024}), tiled)));
  // 2x2 tiles over [4,4] reorder the elements.
  EXPECT_FALSE(valueOf(
      reshapeIsBitcast(withTiles(f32({4, 4}), {Tile({2, 2})}), f32({16}))));
  Shape aligned = f32({6});
  aligned.mutableLayout().setTailPaddingAlignment(4);
  EXPECT_FALSE(valueOf(reshapeIsBitcast(f32({2, 3}), aligned)));
}

TEST(ShapeUtilReshapeIsBitcast, Errors) {
  EXPECT_THAT(errorOf(reshapeIsBitcast(Shape::makeToken(), f32({1}))),
              HasSubstr("reshapeIsBitcast input must be an array shape"));
  EXPECT_THAT(errorOf(reshapeIsBitcast(f32({2}), f32({2}, {}))),
              HasSubstr("layout minor_to_major field contains 0 elements, "
                        "but shape has 1 dimensions"));
  EXPECT_THAT(errorOf(reshapeIsBitcast(f32({kUnboundedSize}), f32({2}))),
              HasSubstr("unbounded dynamic dimensions"));
  int64_t big = int64_t(1) << 40;
  EXPECT_THAT(errorOf(reshapeIsBitcast(f32({big, big}), f32({2}))),
              HasSubstr("element count overflows int64"));
}

// Property: reshape to the same dims and layout is a bitcast, and the
// unit-index check agrees with brute-force enumeration on small shapes.
TEST(ShapeUtilReshapeIsBitcast, PropertyAgreesWithBruteForce) {
  std::vector<Vec> dimsList = {{2, 3, 2}, {3, 4},  {12},      {2, 6},
                               {4, 3},    {1, 12}, {2, 2, 3}, {6, 1, 2}};
  for (const Vec &inDims : dimsList) {
    for (const Vec &inLayout : allPermutations(inDims.size())) {
      Shape in = f32(inDims, inLayout);
      EXPECT_TRUE(valueOf(reshapeIsBitcast(in, in)));
      for (const Vec &outDims : dimsList) {
        for (const Vec &outLayout : allPermutations(outDims.size())) {
          Shape out = f32(outDims, outLayout);
          EXPECT_EQ(valueOf(reshapeIsBitcast(in, out)),
                    bruteForceReshapeIsBitcast(in, out))
              << "in dims/layout " << testing::PrintToString(inDims) << "/"
              << testing::PrintToString(inLayout) << " out "
              << testing::PrintToString(outDims) << "/"
              << testing::PrintToString(outLayout);
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// AlignLayouts
//===----------------------------------------------------------------------===//

// XLA's shape_util_test AlignmentTest cases.
TEST(ShapeUtilAlignLayouts, XlaWithoutTrivialDimensions) {
  Shape input = f32({3, 8, 5, 7, 11}, {3, 2, 1, 0, 4});
  std::optional<Shape> aligned =
      valueOf(alignLayouts(input, f32({4, 3, 2, 7, 5, 11})));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_THAT(aligned->getLayout().getMinorToMajor(),
              ElementsAre(4, 3, 2, 1, 0, 5));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(input, *aligned)));

  aligned = valueOf(alignLayouts(input, f32({3, 2, 4, 35, 11})));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_THAT(aligned->getLayout().getMinorToMajor(),
              ElementsAre(3, 2, 1, 0, 4));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(input, *aligned)));
}

TEST(ShapeUtilAlignLayouts, XlaWithTrivialDimensions) {
  Shape input =
      f32({1, 3, 8, 1, 5, 7, 1, 11, 1, 1}, {5, 0, 4, 2, 1, 3, 6, 7, 9, 8});
  std::optional<Shape> aligned =
      valueOf(alignLayouts(input, f32({1, 4, 1, 3, 2, 7, 5, 11, 1})));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_TRUE(valueOf(reshapeIsBitcast(input, *aligned)));

  Shape ones = f32({1, 1, 1, 1}, {0, 1, 3, 2});
  aligned = valueOf(alignLayouts(ones, f32({1, 1, 1, 1, 1})));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_TRUE(valueOf(reshapeIsBitcast(ones, *aligned)));
}

TEST(ShapeUtilAlignLayouts, XlaWrongInputLayout) {
  // The first two dimension numbers of the layout above exchanged.
  EXPECT_FALSE(valueOf(alignLayouts(f32({3, 8, 5, 7, 11}, {2, 3, 1, 0, 4}),
                                    f32({4, 3, 2, 7, 5, 11})))
                   .has_value());
  // A part whose input dims are not consecutive in memory.
  EXPECT_FALSE(valueOf(alignLayouts(f32({3, 8, 5, 7, 11}, {3, 2, 1, 0, 4}),
                                    f32({4, 3, 2, 5, 77})))
                   .has_value());
}

TEST(ShapeUtilAlignLayouts, NoneExists) {
  // [2,3]{0,1} merged into [6]: the merged dims are in the wrong order.
  EXPECT_FALSE(
      valueOf(alignLayouts(f32({2, 3}, {0, 1}), f32({6}))).has_value());
  // [2,3,4]{1,0,2}... dims 1 and 2 merge but are not adjacent.
  EXPECT_FALSE(valueOf(alignLayouts(f32({2, 3, 4}, {1, 0, 2}), f32({2, 12})))
                   .has_value());
}

TEST(ShapeUtilAlignLayouts, DegenerateDims) {
  Shape input = f32({1, 2, 1, 3}, {3, 1, 0, 2});
  std::optional<Shape> aligned =
      valueOf(alignLayouts(input, f32({3, 1, 2, 1})));
  ASSERT_TRUE(aligned.has_value());
  // Size-1 dims are appended most-major, descending.
  EXPECT_THAT(aligned->getLayout().getMinorToMajor(), ElementsAre(2, 0, 3, 1));
  EXPECT_TRUE(valueOf(reshapeIsBitcast(input, *aligned)));
  // [2,3] column-major (once the ones are dropped) cannot become [3,2].
  EXPECT_FALSE(
      valueOf(alignLayouts(f32({1, 2, 1, 3}, {1, 3, 0, 2}), f32({3, 1, 2, 1})))
          .has_value());
  // Scalars and all-ones shapes.
  std::optional<Shape> scalar = valueOf(alignLayouts(f32({1, 1}), f32({})));
  ASSERT_TRUE(scalar.has_value());
  EXPECT_TRUE(scalar->getLayout().getMinorToMajor().empty());
}

TEST(ShapeUtilAlignLayouts, KeepsOutputDimsAndDynamism) {
  Shape output = f32({4, 6});
  output.setDim(0, 4, /*isDynamic=*/true);
  std::optional<Shape> aligned = valueOf(alignLayouts(f32({24}), output));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_TRUE(aligned->isDynamicDim(0));
  EXPECT_THAT(aligned->getLayout().getMinorToMajor(), ElementsAre(1, 0));
}

TEST(ShapeUtilAlignLayouts, Errors) {
  EXPECT_THAT(errorOf(alignLayouts(f32({2, 3}), f32({7}))),
              HasSubstr("element counts differ (6 vs 7)"));
  EXPECT_THAT(errorOf(alignLayouts(Shape::makeToken(), f32({7}))),
              HasSubstr("alignLayouts input must be an array shape"));
  EXPECT_THAT(errorOf(alignLayouts(f32({7}), Shape::makeOpaque())),
              HasSubstr("alignLayouts output must be an array shape"));
  // T(4) on [8] is row-major (its canonical layout is untiled): aligned;
  // T(2,2) on [4,4] reorders: no minor_to_major to align.
  std::optional<Shape> aligned =
      valueOf(alignLayouts(withTiles(f32({8}), {Tile({4})}), f32({2, 4})));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_EQ(printShape(*aligned), "f32[2,4]{1,0}");
  EXPECT_THAT(
      errorOf(alignLayouts(withTiles(f32({4, 4}), {Tile({2, 2})}), f32({16}))),
      HasSubstr("needs an untiled input layout"));
  EXPECT_THAT(errorOf(alignLayouts(f32({kUnboundedSize}), f32({8}))),
              HasSubstr("unbounded dynamic dimensions"));
  EXPECT_THAT(errorOf(alignLayouts(f32({2, 3}, {1, 1}), f32({6}))),
              HasSubstr("not a permutation"));
  int64_t big = int64_t(1) << 40;
  EXPECT_THAT(errorOf(alignLayouts(f32({big, big}), f32({8}))),
              HasSubstr("element count overflows int64"));
}

// Property: whenever alignLayouts finds a layout, the reshape is a bitcast;
// when it finds none, no layout of the output dims makes it one.
TEST(ShapeUtilAlignLayouts, PropertyResultIsBitcast) {
  std::vector<Vec> dimsList = {{2, 3, 4}, {6, 4},     {2, 12},
                               {24},      {4, 3, 2},  {2, 1, 12},
                               {3, 8},    {1, 24, 1}, {2, 3, 2, 2}};
  for (const Vec &inDims : dimsList) {
    for (const Vec &inLayout : allPermutations(inDims.size())) {
      Shape in = f32(inDims, inLayout);
      for (const Vec &outDims : dimsList) {
        std::optional<Shape> aligned = valueOf(alignLayouts(in, f32(outDims)));
        if (aligned) {
          EXPECT_THAT(aligned->getDims(), testing::ElementsAreArray(outDims));
          EXPECT_TRUE(valueOf(reshapeIsBitcast(in, *aligned)))
              << testing::PrintToString(inDims) << " "
              << testing::PrintToString(inLayout) << " -> "
              << testing::PrintToString(outDims);
          continue;
        }
        for (const Vec &outLayout : allPermutations(outDims.size()))
          EXPECT_FALSE(valueOf(reshapeIsBitcast(in, f32(outDims, outLayout))))
              << testing::PrintToString(inDims) << " "
              << testing::PrintToString(inLayout) << " -> "
              << testing::PrintToString(outDims) << " "
              << testing::PrintToString(outLayout);
      }
    }
  }
}

TEST(ShapeUtilAlignLayouts, PropertySameShapeKeepsPhysicalOrder) {
  for (const Vec &layout : allPermutations(3)) {
    Shape in = f32({2, 3, 5}, layout);
    std::optional<Shape> aligned = valueOf(alignLayouts(in, f32({2, 3, 5})));
    ASSERT_TRUE(aligned.has_value());
    EXPECT_EQ(aligned->getLayout().getMinorToMajor(),
              in.getLayout().getMinorToMajor());
  }
}

//===----------------------------------------------------------------------===//
// DeleteDimensions
//===----------------------------------------------------------------------===//

TEST(ShapeUtilDeleteDimensions, RenumbersLayout) {
  Shape shape = f32({2, 3, 4, 5}, {1, 3, 0, 2});
  shape.setDim(3, 5, /*isDynamic=*/true);
  Shape deleted = valueOf(deleteDimensions({2, 0}, shape));
  EXPECT_THAT(deleted.getDims(), ElementsAre(3, 5));
  EXPECT_FALSE(deleted.isDynamicDim(0));
  EXPECT_TRUE(deleted.isDynamicDim(1));
  // {1,3,0,2} minus dims 0 and 2 -> {1,3} -> renumbered {0,1}.
  EXPECT_THAT(deleted.getLayout().getMinorToMajor(), ElementsAre(0, 1));

  Shape negative = valueOf(deleteDimensions({-1}, f32({2, 3, 4}, {0, 2, 1})));
  EXPECT_THAT(negative.getDims(), ElementsAre(2, 3));
  EXPECT_THAT(negative.getLayout().getMinorToMajor(), ElementsAre(0, 1));

  Shape all = valueOf(deleteDimensions({0, 1}, f32({2, 3})));
  EXPECT_TRUE(all.isScalar());
  EXPECT_TRUE(all.getLayout().getMinorToMajor().empty());

  Shape none = valueOf(deleteDimensions({}, shape));
  EXPECT_EQ(none, shape);
}

TEST(ShapeUtilDeleteDimensions, DimLevelsAndNoLayout) {
  Shape sparse = f32({2, 3, 4});
  sparse.mutableLayout().mutableDimLevels().assign(
      {DimLevel{DimLevelType::Dense}, DimLevel{DimLevelType::Compressed},
       DimLevel{DimLevelType::Singleton}});
  Shape deleted = valueOf(deleteDimensions({1}, sparse));
  ASSERT_EQ(deleted.getLayout().getDimLevels().size(), 2u);
  EXPECT_EQ(deleted.getLayout().getDimLevels()[1].type,
            DimLevelType::Singleton);

  Shape noLayout = f32({2, 3});
  noLayout.clearLayout();
  Shape result = valueOf(deleteDimensions({0}, noLayout));
  EXPECT_THAT(result.getDims(), ElementsAre(3));
  EXPECT_FALSE(result.hasLayout());
}

TEST(ShapeUtilDeleteDimensions, Errors) {
  EXPECT_THAT(errorOf(deleteDimensions({2}, f32({2, 3}))),
              HasSubstr("dimension 2 is out of range for a shape of rank 2"));
  EXPECT_THAT(errorOf(deleteDimensions({-3}, f32({2, 3}))),
              HasSubstr("dimension -3 is out of range"));
  EXPECT_THAT(errorOf(deleteDimensions({1, -1}, f32({2, 3}))),
              HasSubstr("dimension 1 is listed twice"));
  EXPECT_THAT(
      errorOf(deleteDimensions({0}, withTiles(f32({8, 8}), {Tile({2, 2})}))),
      HasSubstr("cannot delete dimensions of a tiled layout"));
  Shape padded = f32({2, 3});
  padded.mutableLayout().mutablePaddedDimensions().assign({3, 5});
  EXPECT_THAT(errorOf(deleteDimensions({0}, padded)),
              HasSubstr("legacy padded_dimensions"));
  EXPECT_THAT(errorOf(deleteDimensions({0}, Shape::makeToken())),
              HasSubstr("must be an array shape"));
  EXPECT_THAT(errorOf(deleteDimensions({0}, f32({2, 3}, {0, 5}))),
              HasSubstr("not a permutation"));
}

} // namespace
