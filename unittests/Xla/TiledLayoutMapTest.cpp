//===- TiledLayoutMapTest.cpp - The tiled index map, by law and example ---===//
//
// Seed examples, then properties over many generated shapes and layouts
// (deterministic seed): the map is a bijection from logical elements onto
// the non-padding slots, its inverse maps back, it lands inside the
// allocation, and it agrees with an independent brute force that
// materializes pad -> reshape -> transpose per tile level.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/TiledLayoutMap.h"
#include "TestHelpers.h"
#include "layout/Xla/IndexWalk.h"

#include "llvm/ADT/STLExtras.h"

#include "RandomLayouts.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

Layout makeLayout(ArrayRef<int64_t> minorToMajor,
                  ArrayRef<SmallVector<int64_t, 4>> tiles = {}) {
  Layout layout(minorToMajor);
  for (const auto &t : tiles)
    layout.mutableTiles().push_back(Tile(t));
  return layout;
}

constexpr int64_t kStar = Tile::kCombineDimension;

/// The physical buffer in memory order: each slot holds the row-major
/// logical id of the element stored there, or -1 for padding.
std::vector<int64_t> memoryImageFromMap(const Shape &shape,
                                        const TiledLayoutMap &map) {
  std::vector<int64_t> image(map.getAllocatedElements(), -1);
  SmallVector<int64_t, 6> index(shape.getRank(), 0);
  int64_t count = map.getElementCount();
  for (int64_t id = 0; id < count; ++id) {
    delinearize(shape, id, index);
    int64_t slot = map.linearIndex(index);
    EXPECT_GE(slot, 0);
    EXPECT_LT(slot, map.getAllocatedElements());
    EXPECT_EQ(image[slot], -1) << "two elements in slot " << slot;
    image[slot] = id;
  }
  return image;
}

//===----------------------------------------------------------------------===//
// Brute force: a materialized N-d array and the three data movements.
//===----------------------------------------------------------------------===//

struct NdArray {
  SmallVector<int64_t, 8> dims;
  std::vector<int64_t> data; // row-major

  int64_t offset(ArrayRef<int64_t> index) const {
    int64_t o = 0;
    for (size_t i = 0; i < dims.size(); ++i)
      o = o * dims[i] + index[i];
    return o;
  }
  /// Calls f(index) for every index in row-major order.
  template <typename F> void forEach(F f) const {
    int64_t n = std::accumulate(dims.begin(), dims.end(), int64_t(1),
                                std::multiplies<int64_t>());
    SmallVector<int64_t, 8> index(dims.size(), 0);
    for (int64_t k = 0; k < n; ++k) {
      delinearize(dims, k, index);
      f(ArrayRef<int64_t>(index));
    }
  }
  /// Pads at the end of every dim with -1.
  NdArray pad(ArrayRef<int64_t> newDims) const {
    NdArray out{SmallVector<int64_t, 8>(newDims), {}};
    out.data.assign(std::accumulate(newDims.begin(), newDims.end(), int64_t(1),
                                    std::multiplies<int64_t>()),
                    -1);
    forEach([&](ArrayRef<int64_t> i) {
      out.data[out.offset(i)] = data[offset(i)];
    });
    return out;
  }
  /// Output dim i is input dim perm[i].
  NdArray transpose(ArrayRef<int64_t> perm) const {
    NdArray out;
    for (int64_t p : perm)
      out.dims.push_back(dims[p]);
    out.data.assign(data.size(), 0);
    SmallVector<int64_t, 8> o(perm.size());
    forEach([&](ArrayRef<int64_t> i) {
      for (size_t k = 0; k < perm.size(); ++k)
        o[k] = i[perm[k]];
      out.data[out.offset(o)] = data[offset(i)];
    });
    return out;
  }
  /// A bitcast: only the dims change.
  NdArray reshape(ArrayRef<int64_t> newDims) const {
    NdArray out{SmallVector<int64_t, 8>(newDims), data};
    return out;
  }
};

/// XLA's tiled-layout document, done literally on data.
std::vector<int64_t> memoryImageByBruteForce(const Shape &shape) {
  const Layout &layout = shape.getLayout();
  int64_t rank = shape.getRank();
  NdArray a;
  a.dims.assign(shape.getDims().begin(), shape.getDims().end());
  a.data.resize(std::accumulate(a.dims.begin(), a.dims.end(), int64_t(1),
                                std::multiplies<int64_t>()));
  std::iota(a.data.begin(), a.data.end(), 0);
  // Legacy padding (logical order), then minor_to_major as a transpose.
  if (!layout.getPaddedDimensions().empty())
    a = a.pad(layout.getPaddedDimensions());
  SmallVector<int64_t, 8> toPhysical;
  for (int64_t i = rank - 1; i >= 0; --i)
    toPhysical.push_back(layout.getMinorToMajor(i));
  a = a.transpose(toPhysical);
  for (const Tile &tile : layout.getTiles()) {
    ArrayRef<int64_t> t = tile.getDims();
    // Prepend size-1 dims (a reshape).
    SmallVector<int64_t, 8> dims(std::max<int64_t>(0, t.size() - a.dims.size()),
                                 1);
    dims.append(a.dims.begin(), a.dims.end());
    a = a.reshape(dims);
    // Combine `*` dims with the next (a reshape: row-major is contiguous).
    size_t leading = dims.size() - t.size();
    SmallVector<int64_t, 8> combined(dims.begin(), dims.begin() + leading);
    SmallVector<int64_t, 8> tileSizes;
    int64_t acc = 1;
    for (size_t j = 0; j < t.size(); ++j) {
      acc *= dims[leading + j];
      if (t[j] == kStar)
        continue;
      combined.push_back(acc);
      tileSizes.push_back(t[j]);
      acc = 1;
    }
    a = a.reshape(combined);
    // Pad to tile multiples.
    size_t lead = combined.size() - tileSizes.size();
    SmallVector<int64_t, 8> padded(combined.begin(), combined.begin() + lead);
    for (size_t j = 0; j < tileSizes.size(); ++j)
      padded.push_back((combined[lead + j] + tileSizes[j] - 1) / tileSizes[j] *
                       tileSizes[j]);
    a = a.pad(padded);
    // Split every tiled dim into (count, tile): a reshape.
    SmallVector<int64_t, 8> split(padded.begin(), padded.begin() + lead);
    for (size_t j = 0; j < tileSizes.size(); ++j) {
      split.push_back(padded[lead + j] / tileSizes[j]);
      split.push_back(tileSizes[j]);
    }
    a = a.reshape(split);
    // Move the within-tile dims to the minor end, keeping their order.
    SmallVector<int64_t, 8> perm;
    for (size_t i = 0; i < lead; ++i)
      perm.push_back(i);
    for (size_t j = 0; j < tileSizes.size(); ++j)
      perm.push_back(lead + 2 * j);
    for (size_t j = 0; j < tileSizes.size(); ++j)
      perm.push_back(lead + 2 * j + 1);
    a = a.transpose(perm);
  }
  // Tail padding L.
  int64_t align = layout.getTailPaddingAlignment();
  while (a.data.size() % align)
    a.data.push_back(-1);
  return a.data;
}

//===----------------------------------------------------------------------===//
// Seed examples
//===----------------------------------------------------------------------===//

TEST(TiledLayoutMap, DocFigure1Element23Is17) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {3, 5},
                             makeLayout({1, 0}, {{2, 2}}));
  TiledLayoutMap map = getMap(s);
  EXPECT_EQ(map.linearIndex({2, 3}), 17);
  EXPECT_EQ(SmallVector<int64_t>(map.physicalIndex({2, 3})),
            SmallVector<int64_t>({1, 1, 0, 1}));
  EXPECT_EQ(SmallVector<int64_t>(map.getPhysicalDims()),
            SmallVector<int64_t>({2, 3, 2, 2}));
  EXPECT_EQ(map.getElementCount(), 15);
  EXPECT_EQ(map.getAllocatedElements(), 24);
  EXPECT_EQ(map.getAllocatedBytes(), 96);
}

TEST(TiledLayoutMap, DocFigure1MemoryImage) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {3, 5},
                             makeLayout({1, 0}, {{2, 2}}));
  // Row-major ids of the 3x5 array in the 24 slots (-1: padding).
  std::vector<int64_t> expected = {0,  1,  5,  6,  2,  3,  7,  8,
                                   4,  -1, 9,  -1, 10, 11, -1, -1,
                                   12, 13, -1, -1, 14, -1, -1, -1};
  EXPECT_EQ(memoryImageFromMap(s, getMap(s)), expected);
}

TEST(TiledLayoutMap, DocFigure2RepeatedTiling) {
  // 4x8 with T(2,4)(2,1): the first tile makes [2,2,2,4]; the second tile
  // (2,1) applies to the minor [2,4] of that, pairing rows within a tile.
  Shape s = Shape::makeArray(PrimitiveType::F32, {4, 8},
                             makeLayout({1, 0}, {{2, 4}, {2, 1}}));
  TiledLayoutMap map = getMap(s);
  EXPECT_EQ(SmallVector<int64_t>(map.getPhysicalDims()),
            SmallVector<int64_t>({2, 2, 1, 4, 2, 1}));
  // Figure 2's numbers, row by row.
  std::vector<std::vector<int64_t>> figure2 = {
      {0, 2, 4, 6, 8, 10, 12, 14},
      {1, 3, 5, 7, 9, 11, 13, 15},
      {16, 18, 20, 22, 24, 26, 28, 30},
      {17, 19, 21, 23, 25, 27, 29, 31}};
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 8; ++x)
      EXPECT_EQ(map.linearIndex({y, x}), figure2[y][x]) << y << "," << x;
}

TEST(TiledLayoutMap, DocCombine) {
  // F32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)} -> [112,110] -> (56,37,2,3).
  Shape s = Shape::makeArray(
      PrimitiveType::F32, {2, 7, 8, 11, 10},
      makeLayout({4, 3, 2, 1, 0}, {{kStar, kStar, 2, kStar, 3}}));
  TiledLayoutMap map = getMap(s);
  ASSERT_EQ(map.getLevels().size(), 1u);
  EXPECT_EQ(SmallVector<int64_t>(map.getLevels()[0].combinedDims),
            SmallVector<int64_t>({112, 110}));
  EXPECT_EQ(SmallVector<int64_t>(map.getPhysicalDims()),
            SmallVector<int64_t>({56, 37, 2, 3}));
  // Element (1,6,7,10,9): combined (1*56+6*8+7, 10*10+9) = (111, 109)
  // -> tiles (55, 36), within (1, 1).
  EXPECT_EQ(SmallVector<int64_t>(map.physicalIndex({1, 6, 7, 10, 9})),
            SmallVector<int64_t>({55, 36, 1, 1}));
  EXPECT_EQ(map.linearIndex({1, 6, 7, 10, 9}),
            ((55 * 37 + 36) * 2 + 1) * 3 + 1);
}

TEST(TiledLayoutMap, SeparableUnlessStarCombinesTwoDims) {
  auto separable = [](llvm::ArrayRef<int64_t> dims, llvm::ArrayRef<int64_t> m2m,
                      ArrayRef<SmallVector<int64_t, 4>> tiles) {
    return getMap(Shape::makeArray(PrimitiveType::F32, dims,
                                   makeLayout(m2m, tiles)))
        .isSeparable();
  };
  // Every physical index is one logical index's digit.
  EXPECT_TRUE(separable({64, 256}, {1, 0}, {}));
  EXPECT_TRUE(separable({64, 256}, {0, 1}, {{8, 128}}));
  EXPECT_TRUE(separable({64, 256}, {1, 0}, {{8, 128}, {2, 1}}));
  // `*` over two dims of size > 1: the combined index mixes them.
  EXPECT_FALSE(separable({2, 7, 8, 11, 10}, {4, 3, 2, 1, 0},
                         {{kStar, kStar, 2, kStar, 3}}));
  EXPECT_FALSE(separable({4, 4}, {1, 0}, {{kStar, 4}}));
  // ... but not when all but one of them have size 1 (index 0), or when
  // both are digits of one logical dim (T(128) splits f32[1024] into
  // [8,128], `*` joins them again).
  EXPECT_TRUE(separable({1, 4}, {1, 0}, {{kStar, 4}}));
  EXPECT_TRUE(separable({4, 1}, {1, 0}, {{kStar, 4}}));
  EXPECT_TRUE(separable({1024}, {0}, {{128}, {kStar, 4}}));
  // Prepended dims (a tile longer than the shape) depend on nothing.
  EXPECT_TRUE(separable({1024}, {0}, {{8, 128}}));
  // Legacy padding keeps each dim's index.
  Layout padded = makeLayout({0, 1});
  padded.mutablePaddedDimensions().append({3, 5});
  EXPECT_TRUE(getMap(Shape::makeArray(PrimitiveType::F32, {2, 3}, padded))
                  .isSeparable());
}

TEST(TiledLayoutMapProperty, SeparableMapsAreSumsAlongTheAxes) {
  // isSeparable promises linearIndex(e) = sum_d linearIndex(e_d * u_d)
  // (what sameByteOrder relies on to compare along the axes only); checked
  // on every element of generated layouts, `*` included.
  RandomLayoutGenerator gen({/*seed=*/20261205, /*minRank=*/1,
                             /*maxRank=*/4, /*maxDim=*/6,
                             /*tailPadding=*/true, /*maxAllocated=*/4000});
  int separable = 0, notSeparable = 0, notSums = 0;
  while (separable + notSeparable < 1500) {
    Shape shape = gen.next();
    TiledLayoutMap map = getMap(shape);
    llvm::ArrayRef<int64_t> dims = map.getLogicalDims();
    if (llvm::is_contained(dims, 0))
      continue;
    bool sums = true;
    SmallVector<int64_t, 6> index(dims.size(), 0), unit(dims.size(), 0);
    do {
      int64_t sum = 0;
      for (size_t d = 0; d < dims.size(); ++d) {
        unit[d] = index[d];
        sum += map.linearIndex(unit);
        unit[d] = 0;
      }
      sums &= map.linearIndex(index) == sum;
    } while (bumpIndices(dims, index));
    if (map.isSeparable()) {
      ++separable;
      EXPECT_TRUE(sums) << printShape(shape);
    } else {
      ++notSeparable;
      notSums += !sums;
    }
  }
  EXPECT_GT(separable, 500);
  // The generator makes maps that are not sums, which isSeparable must
  // reject (it rejects more: a `*` over an outer digit that is always 0
  // on these small dims still counts as mixing two dims).
  EXPECT_GT(notSums, 30);
}

TEST(TiledLayoutMap, DocLegacyPadding) {
  // a b c / d e f, minor_to_major {0,1}, padded to [3,5]:
  // memory a d 0 b e 0 c f 0 0 0 0 0 0 0.
  Layout layout = makeLayout({0, 1});
  layout.mutablePaddedDimensions().append({3, 5});
  layout.setPaddingValue(PaddingValue::Zero);
  Shape s = Shape::makeArray(PrimitiveType::F32, {2, 3}, layout);
  TiledLayoutMap map = getMap(s);
  // ids: a=0 b=1 c=2 d=3 e=4 f=5
  std::vector<int64_t> expected = {0,  3,  -1, 1,  4,  -1, 2, 5,
                                   -1, -1, -1, -1, -1, -1, -1};
  EXPECT_EQ(memoryImageFromMap(s, map), expected);
  EXPECT_EQ(map.getAllocatedElements(), 15);
}

TEST(TiledLayoutMap, ColumnMajorWithoutTiles) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {2, 3}, makeLayout({0, 1}));
  TiledLayoutMap map = getMap(s);
  // a d b e c f
  EXPECT_EQ(memoryImageFromMap(s, map),
            std::vector<int64_t>({0, 3, 1, 4, 2, 5}));
}

TEST(TiledLayoutMap, TailPaddingAndElementSize) {
  Layout layout = makeLayout({0}, {{4}});
  layout.setTailPaddingAlignment(6);
  layout.setElementSizeInBits(4);
  Shape s = Shape::makeArray(PrimitiveType::S4, {5}, layout);
  TiledLayoutMap map = getMap(s);
  EXPECT_EQ(map.getPhysicalElementCount(), 8);
  EXPECT_EQ(map.getAllocatedElements(), 12);
  EXPECT_EQ(map.getAllocatedBytes(), 6); // 12 * 4 bits
  EXPECT_FALSE(map.logicalIndex(9).has_value());
}

TEST(TiledLayoutMap, SubByteTypesTakeWholeBytesWithoutE) {
  Shape s = Shape::makeArray(PrimitiveType::Pred, {3});
  EXPECT_EQ(getMap(s).getAllocatedBytes(), 3);
}

TEST(TiledLayoutMap, TileLongerThanShapePrependsOnes) {
  // f32[3]{0:T(2,2)}: [3] -> [1,3] -> (1,2,2,2).
  Shape s =
      Shape::makeArray(PrimitiveType::F32, {3}, makeLayout({0}, {{2, 2}}));
  TiledLayoutMap map = getMap(s);
  EXPECT_EQ(SmallVector<int64_t>(map.getPhysicalDims()),
            SmallVector<int64_t>({1, 2, 2, 2}));
  EXPECT_EQ(map.linearIndex({2}), 4); // tile 1, within (0,0)
  EXPECT_EQ(memoryImageFromMap(s, map), memoryImageByBruteForce(s));
}

TEST(TiledLayoutMap, ZeroSizedDims) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {0, 5},
                             makeLayout({1, 0}, {{2, 2}}));
  TiledLayoutMap map = getMap(s);
  EXPECT_EQ(map.getElementCount(), 0);
  EXPECT_EQ(map.getAllocatedElements(), 0);
}

TEST(TiledLayoutMap, OverflowIsAnError) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {int64_t(1) << 62, 4});
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(s);
  ASSERT_FALSE(static_cast<bool>(map));
  EXPECT_NE(llvm::toString(map.takeError()).find("overflow"),
            std::string::npos);
  // Padding to the tile makes the physical size overflow even though the
  // logical one fits.
  Shape t = Shape::makeArray(PrimitiveType::F32, {(int64_t(1) << 62) + 1, 1},
                             makeLayout({1, 0}, {{int64_t(1) << 62, 1}}));
  llvm::Expected<TiledLayoutMap> tmap = TiledLayoutMap::get(t);
  ASSERT_FALSE(static_cast<bool>(tmap));
  EXPECT_NE(llvm::toString(tmap.takeError()).find("overflow"),
            std::string::npos);
}

TEST(TiledLayoutMap, MissingLayoutMeansRowMajor) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {2, 3});
  s.clearLayout();
  TiledLayoutMap map = getMap(s);
  EXPECT_EQ(map.linearIndex({1, 0}), 3);
  llvm::Expected<int64_t> xla = xlaLinearIndex(s, {1, 2});
  ASSERT_TRUE(static_cast<bool>(xla));
  EXPECT_EQ(*xla, 5);
  llvm::Expected<int64_t> size = xlaArraySize(s);
  ASSERT_TRUE(static_cast<bool>(size));
  EXPECT_EQ(*size, 24);
}

TEST(TiledLayoutMap, SparseLayoutsHaveNoDenseMap) {
  Layout layout = makeLayout({0});
  layout.mutableDimLevels().push_back({DimLevelType::Compressed, true, true});
  Shape s = Shape::makeArray(PrimitiveType::F32, {4}, layout);
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(s);
  ASSERT_FALSE(static_cast<bool>(map));
  EXPECT_NE(llvm::toString(map.takeError()).find("sparse layout"),
            std::string::npos);
}

TEST(TiledLayoutMap, DynamicDims) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {kUnboundedSize, 5},
                             makeLayout({1, 0}, {{2, 2}}));
  llvm::Expected<TiledLayoutMap> strict = TiledLayoutMap::get(s);
  EXPECT_FALSE(static_cast<bool>(strict));
  llvm::consumeError(strict.takeError());
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(s, true);
  ASSERT_TRUE(static_cast<bool>(map)) << llvm::toString(map.takeError());
  EXPECT_FALSE(map->isStatic());
  EXPECT_EQ(SmallVector<int64_t>(map->getPhysicalDims()),
            SmallVector<int64_t>({kUnboundedSize, 3, 2, 2}));
  // A combine needs the inner size.
  Shape c = Shape::makeArray(PrimitiveType::F32, {4, kUnboundedSize},
                             makeLayout({1, 0}, {{kStar, 2}}));
  llvm::Expected<TiledLayoutMap> cmap = TiledLayoutMap::get(c, true);
  ASSERT_FALSE(static_cast<bool>(cmap));
  EXPECT_NE(llvm::toString(cmap.takeError()).find("'*' combine"),
            std::string::npos);
}

TEST(TiledLayoutMap, XlaCompatibilityUsesTheFirstTileOnly) {
  // Figure 2's layout: XLA's LinearIndex ignores the (2,1) level.
  Shape s = Shape::makeArray(PrimitiveType::F32, {4, 8},
                             makeLayout({1, 0}, {{2, 4}, {2, 1}}));
  llvm::Expected<int64_t> xla = xlaLinearIndex(s, {1, 0});
  ASSERT_TRUE(static_cast<bool>(xla));
  EXPECT_EQ(*xla, 4); // first tile only: row 1 of the first 2x4 tile
  EXPECT_EQ(getMap(s).linearIndex({1, 0}), 1);
  // Figure 1: first tile only is the whole story, so both agree.
  Shape f1 = Shape::makeArray(PrimitiveType::F32, {3, 5},
                              makeLayout({1, 0}, {{2, 2}}));
  llvm::Expected<int64_t> xla17 = xlaLinearIndex(f1, {2, 3});
  ASSERT_TRUE(static_cast<bool>(xla17));
  EXPECT_EQ(*xla17, 17);
  llvm::Expected<int64_t> arraySize = xlaArraySize(f1);
  ASSERT_TRUE(static_cast<bool>(arraySize));
  EXPECT_EQ(*arraySize, 24 * 4);
  llvm::Expected<int64_t> byteSize = xlaByteSizeOf(f1);
  ASSERT_TRUE(static_cast<bool>(byteSize));
  EXPECT_EQ(*byteSize, 15 * 4); // tiles ignored
  // XLA's rank-1 quirk: tiles are ignored by LinearIndex.
  Shape r1 =
      Shape::makeArray(PrimitiveType::F32, {5}, makeLayout({0}, {{2, 2}}));
  llvm::Expected<int64_t> quirk = xlaLinearIndex(r1, {3});
  ASSERT_TRUE(static_cast<bool>(quirk));
  EXPECT_EQ(*quirk, 3);
  llvm::Expected<int64_t> bad = xlaLinearIndex(f1, {3, 0});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("out of bounds"),
            std::string::npos);
}

TEST(TiledLayoutMap, CheckedLinearIndexRejectsBadIndices) {
  Shape s = Shape::makeArray(PrimitiveType::F32, {3, 5},
                             makeLayout({1, 0}, {{2, 2}}));
  TiledLayoutMap map = getMap(s);
  for (SmallVector<int64_t> bad :
       {SmallVector<int64_t>{3, 0}, SmallVector<int64_t>{0, -1},
        SmallVector<int64_t>{1}}) {
    llvm::Expected<int64_t> r = map.checkedLinearIndex(bad);
    EXPECT_FALSE(static_cast<bool>(r));
    llvm::consumeError(r.takeError());
  }
}

//===----------------------------------------------------------------------===//
// Properties over generated layouts
//===----------------------------------------------------------------------===//

TEST(TiledLayoutMapProperty, BijectionInverseAndBruteForce) {
  unittest::RandomLayoutGenerator gen;
  int64_t checked = 0, withCombine = 0, multiLevel = 0, padded = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    Shape shape = gen.next();
    TiledLayoutMap map = getMap(shape);
    SCOPED_TRACE(testing::Message()
                 << "shape dims=" << shape.getRank() << " iter=" << iter);
    // allocated >= elements
    ASSERT_GE(map.getAllocatedElements(), map.getElementCount());
    std::vector<int64_t> image = memoryImageFromMap(shape, map);
    // Agreement with the literal pad -> reshape -> transpose.
    ASSERT_EQ(image, memoryImageByBruteForce(shape)) << "iteration " << iter;
    // The inverse: every slot maps back to its element, or is padding.
    int64_t nonPadding = 0;
    for (int64_t slot = 0; slot < map.getAllocatedElements(); ++slot) {
      std::optional<SmallVector<int64_t, 6>> logical = map.logicalIndex(slot);
      if (image[slot] < 0) {
        EXPECT_FALSE(logical.has_value()) << "slot " << slot;
        continue;
      }
      ++nonPadding;
      ASSERT_TRUE(logical.has_value()) << "slot " << slot;
      EXPECT_EQ(map.linearIndex(*logical), slot);
    }
    // Onto the non-padding slots: exactly one slot per element.
    EXPECT_EQ(nonPadding, map.getElementCount());
    ++checked;
    const Layout &layout = shape.getLayout();
    withCombine += llvm::any_of(layout.getTiles(),
                                [](const Tile &t) { return t.hasCombine(); });
    multiLevel += layout.getTiles().size() > 1;
    padded += !layout.getPaddedDimensions().empty();
  }
  // The generator really exercises every feature.
  EXPECT_EQ(checked, 1500);
  EXPECT_GT(withCombine, 100);
  EXPECT_GT(multiLevel, 200);
  EXPECT_GT(padded, 100);
}

TEST(TiledLayoutMapProperty, AffineStyleApplyMatchesIntegers) {
  // `apply` over a symbolic algebra (strings) shows the structure the
  // dialect turns into floordiv/mod affine expressions.
  struct StringOps {
    std::string constant(int64_t v) { return std::to_string(v); }
    std::string add(std::string a, std::string b) {
      return "(" + a + " + " + b + ")";
    }
    std::string mul(std::string a, int64_t b) {
      return a + " * " + std::to_string(b);
    }
    std::string floorDiv(std::string a, int64_t b) {
      return a + " floordiv " + std::to_string(b);
    }
    std::string mod(std::string a, int64_t b) {
      return a + " mod " + std::to_string(b);
    }
  };
  Shape s = Shape::makeArray(PrimitiveType::F32, {3, 5},
                             makeLayout({1, 0}, {{2, 2}}));
  TiledLayoutMap map = getMap(s);
  StringOps ops;
  SmallVector<std::string> in = {"d0", "d1"};
  SmallVector<std::string, 6> out = map.apply<std::string>(in, ops);
  SmallVector<std::string, 6> expected = {"d0 floordiv 2", "d1 floordiv 2",
                                          "d0 mod 2", "d1 mod 2"};
  EXPECT_EQ(out, expected);
}

} // namespace

// XLA's ShapeUtil::ArraySize sizes a split dimension by its largest segment
// (LayoutUtil::MaxSplitSize). SC's dimension counts physical dimensions,
// most-major first, so it is mapped through minor_to_major: on {0,1},
// SC(0:2) splits logical dim 1 (6 -> segments 2 and 4), giving 8 x 4
// elements = 128 bytes. Expected values from XLA's layout_util_test.
TEST(TiledLayoutMap, ArraySizeMapsSplitDimensionThroughLayout) {
  llvm::Expected<Shape> s = parseShape("f32[8,6]{0,1:T(2,2)SC(0:2)}");
  ASSERT_TRUE(static_cast<bool>(s)) << llvm::toString(s.takeError());
  llvm::Expected<int64_t> size = xlaArraySize(*s);
  ASSERT_TRUE(static_cast<bool>(size)) << llvm::toString(size.takeError());
  EXPECT_EQ(*size, 128);

  // XLA's LayoutUtilTest.MaxSplitSize/MaxElementsInPerSplit shape, tiled
  // with a trivial tile so that ArraySize goes through MaxSplitSize:
  // logical dims 0, 1, 2 get max segments 150, 90, 70.
  llvm::Expected<Shape> t =
      parseShape("f32[150,200,100]{0,1,2:T(1)SC(0:30)(1:40,130)}");
  ASSERT_TRUE(static_cast<bool>(t)) << llvm::toString(t.takeError());
  llvm::Expected<int64_t> tSize = xlaArraySize(*t);
  ASSERT_TRUE(static_cast<bool>(tSize)) << llvm::toString(tSize.takeError());
  EXPECT_EQ(*tSize, int64_t(150) * 90 * 70 * 4);
}

namespace {
bool mayPad(llvm::StringRef text) {
  llvm::Expected<Shape> shape = parseShape(text);
  if (!shape) {
    ADD_FAILURE() << llvm::toString(shape.takeError());
    return false;
  }
  llvm::Expected<TiledLayoutMap> map =
      TiledLayoutMap::get(*shape, /*allowDynamic=*/true);
  if (!map) {
    ADD_FAILURE() << llvm::toString(map.takeError());
    return false;
  }
  return map->mayHavePaddingSlots();
}
} // namespace

TEST(TiledLayoutMap, PaddingSlots) {
  // Figure 1: 15 elements in 24 slots.
  EXPECT_TRUE(mayPad("f32[3,5]{1,0:T(2,2)}"));
  EXPECT_FALSE(mayPad("f32[4,6]{1,0:T(2,2)}"));
  EXPECT_FALSE(mayPad("f32[3,5]{0,1}"));
  // Repeated tiling: the second level pads the 4x8 tile grid's minor tile.
  EXPECT_FALSE(mayPad("bf16[4,8]{1,0:T(2,4)(2,1)}"));
  EXPECT_TRUE(mayPad("bf16[3,8]{1,0:T(2,4)(2,1)}"));
  // Legacy padding, and the L tail slack which is not a padding slot.
  EXPECT_TRUE(mayPad("f32[2,3]{0,1:PAD(3,5)}"));
  EXPECT_FALSE(mayPad("f32[3]{0:L(8)}"));
  // No elements, no slots.
  EXPECT_FALSE(mayPad("f32[0,5]{1,0:T(2,2)}"));
  // Dynamic sizes: a tile > 1 on a dynamic dim may pad; one dividing a
  // static dim does not.
  EXPECT_TRUE(mayPad("f32[?,8]{1,0:T(2,4)}"));
  EXPECT_FALSE(mayPad("f32[?,8]{1,0:T(1,4)}"));
  EXPECT_FALSE(mayPad("f32[?,?]{1,0}"));
}
