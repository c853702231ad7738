//===- TiledLayoutWalkTest.cpp - Inverse map and affine runs --------------===//
//
// Seed examples, then properties over generated layouts (deterministic
// seed): applyInverse agrees with TiledLayoutMap::logicalIndex on every
// physical slot, getLevelCombinedIndex at the largest index gives the first
// level's combined dims (and bounds the later ones), and every run reported by
// getAffineRun is affine with the reported stride.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/TiledLayoutWalk.h"
#include "TestHelpers.h"

#include "RandomLayouts.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;

namespace {

Shape makeShape(ArrayRef<int64_t> dims, ArrayRef<int64_t> minorToMajor,
                ArrayRef<SmallVector<int64_t, 4>> tiles = {}) {
  Layout layout(minorToMajor);
  for (const auto &t : tiles)
    layout.mutableTiles().push_back(Tile(t));
  return Shape::makeArray(PrimitiveType::F32, dims, layout);
}

/// Row-major enumeration of all indices below `dims`.
bool nextIndex(SmallVectorImpl<int64_t> &index, ArrayRef<int64_t> dims) {
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (++index[d] < dims[d])
      return true;
    index[d] = 0;
  }
  return false;
}

bool holds(const InverseIndex<int64_t> &inverse) {
  return llvm::all_of(inverse.checks, [](const BoundCheck<int64_t> &c) {
    return c.value < c.bound;
  });
}

TEST(TiledLayoutWalk, Figure1InverseAndChecks) {
  TiledLayoutMap map = getMap(makeShape({3, 5}, {1, 0}, {{2, 2}}));
  IntegerIndexOps ops;
  int64_t phys[] = {1, 2, 0, 1};
  InverseIndex<int64_t> inverse = applyInverse<int64_t>(map, phys, ops);
  EXPECT_EQ(inverse.logical, (SmallVector<int64_t, 6>{2, 5}));
  ASSERT_EQ(inverse.checks.size(), 2u);
  EXPECT_EQ(inverse.checks[0].bound, 3);
  EXPECT_EQ(inverse.checks[1].bound, 5);
  EXPECT_FALSE(holds(inverse));
  int64_t element[] = {1, 1, 0, 1}; // logical (2, 3): slot 17
  inverse = applyInverse<int64_t>(map, element, ops);
  EXPECT_TRUE(holds(inverse));
  EXPECT_EQ(map.linearIndex(inverse.logical), 17);
}

TEST(TiledLayoutWalk, ExactTilesHaveNoChecks) {
  // bf16[16,256]{1,0:T(8,128)(2,1)}: every level divides its dims.
  TiledLayoutMap map = getMap(makeShape({16, 256}, {1, 0}, {{8, 128}, {2, 1}}));
  IntegerIndexOps ops;
  SmallVector<int64_t, 6> zero(map.getPhysicalDims().size(), 0);
  EXPECT_TRUE(applyInverse<int64_t>(map, zero, ops).checks.empty());
}

TEST(TiledLayoutWalk, Figure1Runs) {
  TiledLayoutMap map = getMap(makeShape({3, 5}, {1, 0}, {{2, 2}}));
  std::optional<AffineRun> run = getAffineRun(map, 1);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->length, 2);
  EXPECT_EQ(run->physicalDim, 3);
  EXPECT_EQ(run->stride, 1);
  run = getAffineRun(map, 0);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->length, 2);
  EXPECT_EQ(run->physicalDim, 2);
}

TEST(TiledLayoutWalk, UntiledAndColumnMajorRunsAreWholeDims) {
  TiledLayoutMap map = getMap(makeShape({3, 5}, {0, 1}));
  std::optional<AffineRun> run = getAffineRun(map, 0);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->length, 0);
  EXPECT_EQ(run->physicalDim, 1);
  EXPECT_EQ(run->stride, 1);
}

TEST(TiledLayoutWalk, Figure2RunsFollowTheSecondLevel) {
  // {1,0:T(2,4)(2,1)}: the column index e gives (e/4, ..., e%4, ..., 0):
  // runs of 4 along physical dim 3.
  TiledLayoutMap map = getMap(makeShape({4, 8}, {1, 0}, {{2, 4}, {2, 1}}));
  std::optional<AffineRun> run = getAffineRun(map, 1);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->length, 4);
  EXPECT_EQ(run->physicalDim, 3);
  EXPECT_EQ(run->stride, 1);
}

//===----------------------------------------------------------------------===//
// Properties over generated layouts
//===----------------------------------------------------------------------===//

TEST(TiledLayoutWalkProperty, InverseAgreesWithLogicalIndex) {
  unittest::RandomLayoutGenerator gen({/*seed=*/20260523, /*minRank=*/1,
                                       /*maxRank=*/4, /*maxDim=*/9,
                                       /*tailPadding=*/false});
  IntegerIndexOps ops;
  for (int iter = 0; iter < 800; ++iter) {
    Shape shape = gen.next();
    TiledLayoutMap map = getMap(shape);
    SCOPED_TRACE(testing::Message() << "iteration " << iter);
    ArrayRef<int64_t> physDims = map.getPhysicalDims();
    if (llvm::any_of(physDims, [](int64_t d) { return d == 0; }))
      continue;
    SmallVector<int64_t, 6> phys(physDims.size(), 0);
    int64_t linear = 0;
    do {
      InverseIndex<int64_t> inverse = applyInverse<int64_t>(map, phys, ops);
      std::optional<SmallVector<int64_t, 6>> expected =
          map.logicalIndex(linear);
      ASSERT_EQ(holds(inverse), expected.has_value()) << "slot " << linear;
      if (expected)
        ASSERT_EQ(inverse.logical, *expected) << "slot " << linear;
      ++linear;
    } while (nextIndex(phys, physDims));
    // Combined dims are the combined index of the largest element + 1.
    SmallVector<int64_t, 6> last;
    for (int64_t d : map.getLogicalDims())
      last.push_back(d - 1);
    if (llvm::any_of(last, [](int64_t d) { return d < 0; }) ||
        map.getPaddedDims() != map.getLogicalDims())
      continue;
    for (size_t l = 0; l < map.getLevels().size(); ++l) {
      SmallVector<int64_t, 6> combined =
          getLevelCombinedIndex<int64_t>(map, last, l, ops);
      ArrayRef<int64_t> dims = map.getLevels()[l].combinedDims;
      ASSERT_EQ(combined.size(), dims.size());
      // Exact on the first level; later levels only for dims that derive
      // from the logical sizes (counts), which is where dynamic sizes go:
      // an in-tile coordinate of the largest element need not be t - 1.
      for (size_t i = 0; i < dims.size(); ++i) {
        if (l == 0)
          EXPECT_EQ(combined[i] + 1, dims[i]) << "dim " << i;
        else
          EXPECT_LE(combined[i] + 1, dims[i]) << "level " << l << " dim " << i;
      }
    }
  }
}

TEST(TiledLayoutWalkProperty, RunsAreAffine) {
  unittest::RandomLayoutGenerator gen({/*seed=*/20260523, /*minRank=*/1,
                                       /*maxRank=*/4, /*maxDim=*/9,
                                       /*tailPadding=*/false});
  int64_t withRuns = 0, tiledRuns = 0, unknown = 0;
  for (int iter = 0; iter < 800; ++iter) {
    Shape shape = gen.next();
    TiledLayoutMap map = getMap(shape);
    SCOPED_TRACE(testing::Message() << "iteration " << iter);
    ArrayRef<int64_t> dims = map.getLogicalDims();
    if (llvm::any_of(dims, [](int64_t d) { return d == 0; }))
      continue;
    for (int64_t dim = 0; dim < static_cast<int64_t>(dims.size()); ++dim) {
      std::optional<AffineRun> run = getAffineRun(map, dim);
      if (!run) {
        ++unknown;
        continue;
      }
      ++withRuns;
      tiledRuns += run->length > 1;
      std::optional<std::string> violation =
          findAffineRunViolation(map, dim, *run);
      ASSERT_FALSE(violation.has_value()) << *violation;
    }
  }
  // The generator exercises runs shorter than the dims.
  EXPECT_GT(withRuns, 500);
  EXPECT_GT(tiledRuns, 200);
  EXPECT_LT(unknown, withRuns);
}

} // namespace
