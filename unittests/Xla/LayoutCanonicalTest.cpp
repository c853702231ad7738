//===- LayoutCanonicalTest.cpp - Canonical layouts and exact bitcasts -----===//
//
// Canonical forms derived by hand (the examples of issue 15 and
// docs/algebra.md), error paths, and properties over generated layouts:
// the canonical form keeps every element's slot and the counts, is
// idempotent, and equal byte orders give equal forms where the form is
// complete; the exact bitcast queries agree with a brute force that fills
// both buffers slot by slot.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/LayoutCanonical.h"
#include "layout/Xla/LayoutAlgebra.h"
#include "layout/Xla/ShapeUtil.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "RandomLayouts.h"
#include "TestHelpers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using llvm::SmallVector;
using ::testing::HasSubstr;

namespace {

Shape parse(llvm::StringRef text) { return valueOf(parseShape(text)); }

std::string canon(llvm::StringRef text) {
  return printShape(valueOf(canonicalizeLayout(parse(text))).shape);
}

bool strided(llvm::StringRef text) {
  return valueOf(canonicalizeLayout(parse(text))).strided;
}

bool same(llvm::StringRef a, llvm::StringRef b) {
  return valueOf(sameByteOrder(parse(a), parse(b)));
}

bool reshape(llvm::StringRef a, llvm::StringRef b) {
  return valueOf(reshapeIsBitcast(parse(a), parse(b)));
}

bool transpose(llvm::StringRef a, llvm::StringRef b,
               llvm::ArrayRef<int64_t> perm) {
  return valueOf(transposeIsBitcast(parse(a), parse(b), perm));
}

//===----------------------------------------------------------------------===//
// Canonical forms
//===----------------------------------------------------------------------===//

TEST(LayoutCanonical, IssueExamples) {
  // One 8x128 tile over the whole array, row-major inside: row-major.
  EXPECT_EQ(canon("f32[8,128]{1,0:T(8,128)}"), "f32[8,128]{1,0}");
  EXPECT_TRUE(strided("f32[8,128]{1,0:T(8,128)}"));
  // 16 tiles of whole rows: still row-major.
  EXPECT_EQ(canon("f32[128,128]{1,0:T(8,128)}"), "f32[128,128]{1,0}");
  // T(1,128) on row-major [*,128]: the untiled layout.
  EXPECT_EQ(canon("f32[5,128]{1,0:T(1,128)}"), "f32[5,128]{1,0}");
  // A tile covering a size-1 dim disappears.
  EXPECT_EQ(canon("f32[1,128]{1,0:T(1,128)}"), "f32[1,128]{1,0}");
  EXPECT_EQ(canon("f32[3,1]{0,1:T(1,1)}"), "f32[3,1]{1,0}");
}

TEST(LayoutCanonical, UnitDimsTakeTheirDefaultSlots) {
  // Where a size-1 dim sits in minor_to_major does not move anything.
  EXPECT_EQ(canon("f32[3,1]{0,1}"), "f32[3,1]{1,0}");
  // Dims 1 and 3 in row-major order: the default layout.
  EXPECT_EQ(canon("f32[1,4,1,5]{0,2,3,1}"), "f32[1,4,1,5]{3,2,1,0}");
  // Non-unit dims keep their order (dim 1 minor), in the default slots.
  EXPECT_EQ(canon("f32[1,4,1,5]{1,0,2,3}"), "f32[1,4,1,5]{1,2,3,0}");
  EXPECT_EQ(canon("f32[4,5]{0,1}"), "f32[4,5]{0,1}");
  EXPECT_TRUE(same("f32[1,4,1,5]{0,2,3,1}", "f32[1,4,1,5]{3,2,1,0}"));
}

TEST(LayoutCanonical, HiddenTransposeIsUntiled) {
  // {0,1} puts dim 1 major: physical [4 (dim 1), 4 (dim 0)]. T(4,1) moves
  // the 4 of dim 1 minor: (i0, i1) -> i0 * 4 + i1, row-major.
  EXPECT_EQ(canon("f32[4,4]{0,1:T(4,1)}"), "f32[4,4]{1,0}");
  EXPECT_TRUE(same("f32[4,4]{0,1:T(4,1)}", "f32[4,4]{1,0}"));
}

TEST(LayoutCanonical, PaddedStridedOrdersBecomeOneTile) {
  // (i, j) -> 128 i + j with 1024 slots: the tile already is canonical.
  EXPECT_EQ(canon("f32[5,100]{1,0:T(8,128)}"), "f32[5,100]{1,0:T(8,128)}");
  EXPECT_TRUE(strided("f32[5,100]{1,0:T(8,128)}"));
  // Legacy padding with the same slots is the same byte order.
  EXPECT_EQ(canon("f32[5,100]{1,0:PAD(8,128)}"), "f32[5,100]{1,0:T(8,128)}");
  EXPECT_TRUE(same("f32[5,100]{1,0:PAD(8,128)}", "f32[5,100]{1,0:T(8,128)}"));
  // A dim the tile does not pad needs no entry from the major end: [5,128]
  // pads dim 0 only, but the tile must still reach the minor dim.
  EXPECT_EQ(canon("f32[5,128]{1,0:T(8,128)}"), "f32[5,128]{1,0:T(8,128)}");
  // Only the minor dim padded: a one-entry tile.
  EXPECT_EQ(canon("f32[6,100]{1,0:PAD(6,128)}"), "f32[6,100]{1,0:T(128)}");
  // One row in an 8x128 tile: 128 elements then 896 padding slots.
  EXPECT_EQ(canon("f32[1,128]{1,0:T(8,128)}"), "f32[1,128]{1,0:T(1024)}");
  // The padding value written matters where there is padding: no PV,
  // PV(zero) and PV(unknown) all write 0.0, PV(one) writes 1.0.
  EXPECT_EQ(canon("f32[5,100]{1,0:T(8,128)PV(one)}"),
            "f32[5,100]{1,0:T(8,128)PV(one)}");
  EXPECT_EQ(canon("f32[5,100]{1,0:T(8,128)PV(zero)}"),
            "f32[5,100]{1,0:T(8,128)}");
  EXPECT_EQ(canon("f32[5,100]{1,0:T(8,128)PV(unknown)}"),
            "f32[5,100]{1,0:T(8,128)}");
  EXPECT_TRUE(
      same("f32[5,100]{1,0:T(8,128)PV(zero)}", "f32[5,100]{1,0:T(8,128)}"));
  EXPECT_FALSE(
      same("f32[5,100]{1,0:T(8,128)PV(one)}", "f32[5,100]{1,0:T(8,128)}"));
}

TEST(LayoutCanonical, GapsBelowTheSmallestStride) {
  // f32[1,3]{0,1:T(3,2)}: physical [3 (dim 1), 1 (dim 0)], tile (3,2)
  // gives [1,1,3,2]: (0, j) at 2j in 6 slots. The minor gap of 2 is the
  // unit dim 0 padded to 2, minor-most.
  EXPECT_EQ(canon("f32[1,3]{0,1:T(3,2)}"), "f32[1,3]{0,1:T(2)}");
  EXPECT_TRUE(strided("f32[1,3]{0,1:T(3,2)}"));
  EXPECT_TRUE(same("f32[1,3]{0,1:T(3,2)}", "f32[1,3]{0,1:T(2,*,1)}"));
  EXPECT_EQ(canon("f32[1,3]{0,1:T(2,*,1)}"), "f32[1,3]{0,1:T(2)}");
  // Without a unit dim, a first level (1) makes one: f32[2] with T(1,1)(2,1)
  // puts i at 2i in 4 slots, as T(1)(2) does.
  EXPECT_EQ(canon("f32[2]{0:T(1,1)(2,1)}"), "f32[2]{0:T(1)(2)}");
  EXPECT_EQ(canon("f32[2]{0:T(1)(1)(2)}"), "f32[2]{0:T(1)(2)}");
  // A scalar's tile prepends the unit dim it pads.
  EXPECT_EQ(canon("f32[]{:T(1)(2)}"), "f32[]{:T(2)}");
  // One element in 4 slots.
  EXPECT_EQ(canon("f32[1]{0:T(4,1)}"), "f32[1]{0:T(4)}");
  // (2) on [1,1] gives [1,1,2], then (2,4) on its [1,2]: [1,1,1,2,4], one
  // element in 8 slots.
  EXPECT_EQ(canon("f32[1,1]{1,0:T(2)(2,4)}"), "f32[1,1]{1,0:T(8)}");
}

TEST(LayoutCanonical, ScalarFieldsNormalized) {
  // E(32) is what f32 stores anyway.
  EXPECT_EQ(canon("f32[4]{0:E(32)}"), "f32[4]{0}");
  EXPECT_EQ(canon("s4[4]{0:E(4)}"), "s4[4]{0:E(4)}");
  // L(8) and L(4) give 8 slots for 6 elements: the smallest is kept.
  EXPECT_EQ(canon("f32[6]{0:L(8)}"), "f32[6]{0:L(4)}");
  EXPECT_EQ(canon("f32[8]{0:L(8)}"), "f32[8]{0}");
  // No padding slot: the padding value is irrelevant.
  EXPECT_EQ(canon("f32[8,128]{1,0:T(8,128)PV(zero)}"), "f32[8,128]{1,0}");
  // The memory space stays.
  EXPECT_EQ(canon("f32[8,128]{1,0:T(8,128)S(1)}"), "f32[8,128]{1,0:S(1)}");
  EXPECT_FALSE(same("f32[8,128]{1,0:S(1)}", "f32[8,128]{1,0}"));
  // No elements: one empty buffer.
  EXPECT_EQ(canon("f32[0,5]{0,1:T(2,2)}"), "f32[0,5]{1,0}");
}

TEST(LayoutCanonical, ReorderingTilesAreRewritten) {
  // T(2,2) on [4,4] reorders: not strided, kept.
  EXPECT_EQ(canon("f32[4,4]{1,0:T(2,2)}"), "f32[4,4]{1,0:T(2,2)}");
  EXPECT_FALSE(strided("f32[4,4]{1,0:T(2,2)}"));
  // A last level that splits nothing, and a tile's leading 1.
  EXPECT_EQ(canon("f32[4,4]{1,0:T(2,2)(1)}"), "f32[4,4]{1,0:T(2,2)}");
  EXPECT_EQ(canon("f32[4,4]{1,0:T(1,2,2)}"), "f32[4,4]{1,0:T(2,2)}");
  // A first level that only groups rows: T(2,4) on [4,4] gives [2,1,2,4]
  // (row-major), and (2,2) on its [2,4] tiles puts (i, j) at
  // 8 (i/2) + 4 (j/2) + 2 (i%2) + j%2, which is T(2,2) on [4,4]: the
  // first level is dropped.
  EXPECT_TRUE(same("f32[4,4]{1,0:T(2,4)(2,2)}", "f32[4,4]{1,0:T(2,2)}"));
  EXPECT_EQ(canon("f32[4,4]{1,0:T(2,4)(2,2)}"), "f32[4,4]{1,0:T(2,2)}");
  // Figure 1 of XLA's document stays as written.
  EXPECT_EQ(canon("f32[3,5]{1,0:T(2,2)}"), "f32[3,5]{1,0:T(2,2)}");
}

TEST(LayoutCanonical, DigitPermutationsAreComplete) {
  // T(2,2) on [2,4] puts (i, j) at 4 (j/2) + 2i + j%2: digits j1, i, j0.
  // {0,1:T(2,1)} has the same order: one form, the one with dim 0 major.
  EXPECT_TRUE(same("f32[2,4]{1,0:T(2,2)}", "f32[2,4]{0,1:T(2,1)}"));
  EXPECT_EQ(canon("f32[2,4]{0,1:T(2,1)}"), "f32[2,4]{1,0:T(2,2)}");
  EXPECT_TRUE(
      valueOf(canonicalizeLayout(parse("f32[2,4]{0,1:T(2,1)}"))).complete);
  EXPECT_FALSE(strided("f32[2,4]{0,1:T(2,1)}"));
  // A padded digit: T(2,2)(4) puts (i, j) at 8 (j/2) + 4i + j%2 (j0 padded
  // from 2 to 4 under i): the sub-tile entry 4 above the tile's 2.
  EXPECT_EQ(canon("f32[2,4]{1,0:T(2,2)(4)}"), "f32[2,4]{1,0:T(2,2)(4)}");
  EXPECT_TRUE(
      valueOf(canonicalizeLayout(parse("f32[2,4]{1,0:T(2,2)(4)}"))).complete);
  // The brief's pair: both put (0, j) at 24 (j/2) + j%2 in 72 slots (pairs
  // of j, each pair padded to 24 slots).
  EXPECT_TRUE(same("f32[1,5]{1,0:T(3,4,2)}", "f32[1,5]{1,0:T(2,*,2)(2)(3,4)}"));
  EXPECT_EQ(canon("f32[1,5]{1,0:T(3,4,2)}"), "f32[1,5]{1,0:T(2)(24)}");
  EXPECT_EQ(canon("f32[1,5]{1,0:T(2,*,2)(2)(3,4)}"), "f32[1,5]{1,0:T(2)(24)}");
  // Slots below the smallest stride without a unit dim: (i, j) at
  // 32 (i/2) + 8j + 4 (i%2), the gap owned by dim 1 (entry 4 above 1).
  EXPECT_EQ(canon("f32[4,4]{1,0:T(2,1)(1)(4,1)}"), "f32[4,4]{1,0:T(2,1)(4)}");
  // The exception: `*` combines dims 0 and 1 into one index 4i + j before
  // tiling by 3, which is not a digit of either dim: rewritten, and two
  // layouts of this byte order keep different forms.
  EXPECT_TRUE(same("f32[4,4]{1,0:T(4,*,3)}", "f32[4,4]{1,0:T(1,*,3)(3,4)}"));
  CanonicalLayout combined =
      valueOf(canonicalizeLayout(parse("f32[4,4]{1,0:T(4,*,3)}")));
  EXPECT_FALSE(combined.complete);
  EXPECT_EQ(printShape(combined.shape), "f32[4,4]{1,0:T(4,*,3)}");
  EXPECT_EQ(canon("f32[4,4]{1,0:T(1,*,3)(3,4)}"),
            "f32[4,4]{1,0:T(1,*,3)(3,4)}");
  // The other two kinds: a sub-tile that neither divides nor covers the
  // tile (i = 0..3 at slots 0, 1, 4, 2), and a dim's minor digit above its
  // major one (i at 3 (i%2) + i/2).
  EXPECT_FALSE(
      valueOf(canonicalizeLayout(parse("f32[4]{0:T(3)(2,2)}"))).complete);
  EXPECT_FALSE(
      valueOf(canonicalizeLayout(parse("f32[4]{0:T(2)(3,1)}"))).complete);
}

TEST(LayoutCanonical, Errors) {
  EXPECT_THAT(errorOf(canonicalizeLayout(parse("(f32[2])"))),
              HasSubstr("canonicalizeLayout needs an array shape"));
  EXPECT_THAT(errorOf(canonicalizeLayout(parse("f32[?,2]"))),
              HasSubstr("f32[?,2]"));
  EXPECT_THAT(errorOf(canonicalizeLayout(parse("f32[8192,4096]"))),
              HasSubstr("byte orders are materialized up to 16777216"));
  EXPECT_THAT(errorOf(sameByteOrder(parse("f32[2,3]"), parse("f32[3,2]"))),
              HasSubstr("sameByteOrder needs the same dims and element type"));
  EXPECT_THAT(errorOf(sameByteOrder(parse("f32[2]"), parse("s32[2]"))),
              HasSubstr("sameByteOrder needs the same dims and element type"));
}

TEST(LayoutCanonical, SeparableByteOrdersAtAnySize) {
  // 2^25 and 2^26 slots, past the materialized bound: layouts without `*`
  // are compared along each axis.
  EXPECT_TRUE(valueOf(sameByteOrder(parse("f32[262144,128]{1,0}"),
                                    parse("f32[262144,128]{1,0:T(8,128)}"))));
  EXPECT_FALSE(valueOf(sameByteOrder(parse("f32[262144,256]{1,0}"),
                                     parse("f32[262144,256]{1,0:T(8,128)}"))));
  EXPECT_FALSE(valueOf(sameByteOrder(parse("f32[8192,8192]{1,0:T(8,128)}"),
                                     parse("f32[8192,8192]{1,0:T(16,128)}"))));
  // Padded: the same tiles with different padding values differ.
  EXPECT_TRUE(valueOf(sameByteOrder(parse("f32[8191,8191]{1,0:T(8,128)}"),
                                    parse("f32[8191,8191]{1,0:T(8,128)}"))));
  EXPECT_FALSE(
      valueOf(sameByteOrder(parse("f32[8191,8191]{1,0:T(8,128)}"),
                            parse("f32[8191,8191]{1,0:T(8,128)PV(one)}"))));
  // A unit dim moved: still the byte order of the other dims.
  EXPECT_TRUE(valueOf(sameByteOrder(parse("f32[8192,1,8192]{2,1,0}"),
                                    parse("f32[8192,1,8192]{1,2,0}"))));
  // Transposes that a tile hides (different tiles: not XLA's syntactic
  // check): rows of 4096 in tiles of (8,4096) are row-major.
  EXPECT_TRUE(valueOf(transposeIsBitcast(parse("f32[8192,4096]{1,0}"),
                                         parse("f32[4096,8192]{0,1:T(8,4096)}"),
                                         {1, 0})));
  EXPECT_FALSE(valueOf(transposeIsBitcast(parse("f32[8192,4096]{1,0:T(8,128)}"),
                                          parse("f32[4096,8192]{1,0:T(8,128)}"),
                                          {1, 0})));
  EXPECT_EQ(valueOf(deduceTransposeDimensionsForBitcast(
                parse("f32[8192,4096]{1,0}"),
                parse("f32[4096,8192]{0,1:T(8,4096)}"))),
            (std::optional<SmallVector<int64_t, 6>>({1, 0})));
  // `*` mixing two dims' indices: still materialized, still bounded; the
  // error names that layout.
  EXPECT_THAT(errorOf(sameByteOrder(parse("f32[8192,4096]{1,0}"),
                                    parse("f32[8192,4096]{1,0:T(4,*,3)}"))),
              HasSubstr("byte orders are materialized up to 16777216; "
                        "f32[8192,4096]{1,0:T(4,*,3)} combines two dims' "
                        "indices with `*`"));
  // The axes themselves are bounded: 2^32 positions along one dim.
  EXPECT_THAT(errorOf(sameByteOrder(parse("u8[4294967296]{0}"),
                                    parse("u8[4294967296]{0:T(1024)}"))),
              HasSubstr("has dims summing to 4294967296; byte orders are "
                        "compared along at most 16777216 axis positions"));
}

//===----------------------------------------------------------------------===//
// Exact bitcast queries
//===----------------------------------------------------------------------===//

TEST(ExactBitcast, TiledReshapes) {
  // T(8,128) on f32[8,128] is row-major: a flat [1024] is the same bytes.
  EXPECT_TRUE(reshape("f32[8,128]{1,0:T(8,128)}", "f32[1024]{0}"));
  EXPECT_TRUE(reshape("f32[1024]{0}", "f32[8,128]{1,0:T(8,128)}"));
  // [16,128] in 8x128 tiles: two tiles of whole rows, = [2,8,128] row-major.
  EXPECT_TRUE(reshape("f32[16,128]{1,0:T(8,128)}", "f32[2,8,128]{2,1,0}"));
  // [16,256] in 8x128 tiles is not row-major: tile (0,1) holds (0,128).
  EXPECT_FALSE(reshape("f32[16,256]{1,0:T(8,128)}", "f32[4096]{0}"));
  // ... but it is [2,8,2,128] with dims ordered (0,2,1,3): the tiles.
  EXPECT_TRUE(reshape("f32[16,256]{1,0:T(8,128)}", "f32[2,8,2,128]{3,1,2,0}"));
  // Padding: 5 rows in an 8x128 tile have 384 padding slots.
  EXPECT_FALSE(reshape("f32[5,128]{1,0:T(8,128)}", "f32[640]{0}"));
  // Padded the same way (T(1024) on 640 elements: 384 padding slots).
  EXPECT_TRUE(reshape("f32[5,128]{1,0:T(8,128)}", "f32[640]{0:T(1024)}"));
  // L's tail slack is not padding: the slot counts differ (640 vs 1024).
  EXPECT_FALSE(reshape("f32[5,128]{1,0:T(8,128)}", "f32[640]{0:L(1024)}"));
  // Same slots, different padding values written (1.0 vs 0.0); PV(zero)
  // writes what no PV writes.
  EXPECT_FALSE(
      reshape("f32[5,128]{1,0:T(8,128)PV(one)}", "f32[640]{0:T(1024)}"));
  EXPECT_TRUE(
      reshape("f32[5,128]{1,0:T(8,128)PV(zero)}", "f32[640]{0:T(1024)}"));
  // 2x2 tiles reorder without padding: same slot count, other order.
  EXPECT_FALSE(reshape("f32[4,4]{1,0:T(2,2)}", "f32[16]{0}"));
  EXPECT_TRUE(reshape("f32[4,4]{1,0:T(2,2)}", "f32[2,2,2,2]{3,1,2,0}"));
  // Untiled answers are XLA's.
  EXPECT_TRUE(reshape("f32[2,3]{1,0}", "f32[6]{0}"));
  EXPECT_FALSE(reshape("f32[2,3]{0,1}", "f32[6]{0}"));
}

TEST(ExactBitcast, TiledTransposes) {
  // out (j, i) <- in (i, j); out f32[8,4]{1,0:T(8,1)}: physical (j, i),
  // the tile moves j minor: (i, j) at 8 i + j, which is row-major [4,8].
  EXPECT_TRUE(transpose("f32[4,8]{1,0}", "f32[8,4]{1,0:T(8,1)}", {1, 0}));
  // XLA's syntactic check compares tiles and says no; so does the identity.
  EXPECT_FALSE(transpose("f32[4,8]{1,0}", "f32[8,4]{1,0}", {1, 0}));
  // Identical tiles and physical order: yes without materializing.
  EXPECT_TRUE(
      transpose("f32[4,8]{1,0:T(2,2)}", "f32[8,4]{0,1:T(2,2)}", {1, 0}));
  // T(2,2) on [4,4] is not a transpose of row-major.
  EXPECT_FALSE(transpose("f32[4,4]{1,0:T(2,2)}", "f32[4,4]{0,1}", {1, 0}));
  // The deduced mapping is read off the byte orders.
  std::optional<SmallVector<int64_t, 6>> perm =
      valueOf(deduceTransposeDimensionsForBitcast(
          parse("f32[4,8]{1,0}"), parse("f32[8,4]{1,0:T(8,1)}")));
  ASSERT_TRUE(perm.has_value());
  EXPECT_EQ(*perm, (SmallVector<int64_t, 6>{1, 0}));
  EXPECT_FALSE(valueOf(deduceTransposeDimensionsForBitcast(
                           parse("f32[4,4]{1,0:T(2,2)}"), parse("f32[4,4]")))
                   .has_value());
}

TEST(ExactBitcast, AlignLayoutsOfStridedTiles) {
  // A tiled input with an untiled byte order aligns like that order.
  std::optional<Shape> out = valueOf(
      alignLayouts(parse("f32[16,128]{1,0:T(8,128)}"), parse("f32[2048]")));
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(printShape(*out), "f32[2048]{0}");
  EXPECT_THAT(errorOf(alignLayouts(parse("f32[16,256]{1,0:T(8,128)}"),
                                   parse("f32[4096]"))),
              HasSubstr("or one with the byte order of an untiled layout"));
}

TEST(ExactBitcast, Errors) {
  EXPECT_THAT(errorOf(reshapeIsBitcast(parse("f32[8192,4096]{1,0:T(8,128)}"),
                                       parse("f32[33554432]"))),
              HasSubstr("byte orders are materialized up to 16777216"));
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

/// Every slot of `shape`'s buffer: the row-major index of the element it
/// holds, or -1 for padding and L's tail (the inverse direction of the
/// index map, independent of the library's forward walks).
SmallVector<int64_t> fillSlots(const Shape &shape) {
  TiledLayoutMap map = getMap(shape);
  SmallVector<int64_t> slots;
  for (int64_t s = 0; s < map.getAllocatedElements(); ++s) {
    std::optional<SmallVector<int64_t, 6>> e = map.logicalIndex(s);
    int64_t k = -1;
    if (e) {
      k = 0;
      for (int64_t d = 0; d < shape.getRank(); ++d)
        k = k * shape.getDim(d) + (*e)[d];
    }
    slots.push_back(k);
  }
  return slots;
}

/// The f32 value the padding slots of `shape` get: the padding value, 0.0
/// without one (docs/semantics.md §3), 1.0 for one, -/+FLT_MAX for
/// lowest/highest.
float f32PaddingWritten(const Shape &shape) {
  switch (shape.getLayout().getPaddingValue()) {
  case PaddingValue::One:
    return 1.0f;
  case PaddingValue::Lowest:
    return std::numeric_limits<float>::lowest();
  case PaddingValue::Highest:
    return std::numeric_limits<float>::max();
  default:
    return 0.0f;
  }
}

/// Brute force: the buffers filled with row-major indices are equal, with
/// the same slot counts and padding values where there is padding.
bool bruteForceSameBytes(const Shape &a, const Shape &b) {
  TiledLayoutMap am = getMap(a), bm = getMap(b);
  if (am.getPhysicalElementCount() != bm.getPhysicalElementCount())
    return false;
  if (am.getPhysicalElementCount() != am.getElementCount() &&
      f32PaddingWritten(a) != f32PaddingWritten(b))
    return false;
  return fillSlots(a) == fillSlots(b);
}

/// `shape` with the layout of `other` if it is valid for `dims`.
std::optional<Shape> withDims(llvm::ArrayRef<int64_t> dims,
                              const Layout &layout) {
  Shape shape = Shape::makeArray(PrimitiveType::F32, dims, layout);
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  if (!map) {
    llvm::consumeError(map.takeError());
    return std::nullopt;
  }
  return shape;
}

TEST(LayoutCanonicalProperty, KeepsTheByteOrderAndIsIdempotent) {
  RandomLayoutGenerator gen({/*seed=*/20261125, /*minRank=*/0,
                             /*maxRank=*/4, /*maxDim=*/6,
                             /*tailPadding=*/true, /*maxAllocated=*/3000});
  int stridedCount = 0, changed = 0;
  for (int i = 0; i < 2000; ++i) {
    Shape shape = gen.next();
    SCOPED_TRACE(printShape(shape));
    CanonicalLayout c = valueOf(canonicalizeLayout(shape));
    ASSERT_FALSE(static_cast<bool>(validateShape(c.shape)));
    EXPECT_EQ(c.shape.getDims(), shape.getDims());
    // The index map and the counts are unchanged.
    TiledLayoutMap am = getMap(shape), cm = getMap(c.shape);
    EXPECT_EQ(am.getPhysicalElementCount(), cm.getPhysicalElementCount());
    EXPECT_EQ(am.getAllocatedBytes(), cm.getAllocatedBytes());
    EXPECT_TRUE(bruteForceSameBytes(shape, c.shape));
    EXPECT_TRUE(valueOf(sameByteOrder(shape, c.shape)));
    // Idempotent.
    CanonicalLayout again = valueOf(canonicalizeLayout(c.shape));
    EXPECT_EQ(printShape(again.shape), printShape(c.shape));
    EXPECT_EQ(again.strided, c.strided);
    stridedCount += c.strided;
    changed += printShape(c.shape) != printShape(shape);
  }
  EXPECT_GT(stridedCount, 40);
  EXPECT_GT(changed, 40);
}

TEST(LayoutCanonicalProperty, EqualByteOrdersGiveEqualForms) {
  RandomLayoutGenerator gen({/*seed=*/20261126, /*minRank=*/1,
                             /*maxRank=*/3, /*maxDim=*/5,
                             /*tailPadding=*/true, /*maxAllocated=*/2000});
  int pairs = 0, equalOrders = 0, stridedEqual = 0, separableEqual = 0;
  while (pairs < 5000) {
    Shape a = gen.next();
    Shape other = gen.next();
    if (other.getRank() != a.getRank())
      continue;
    std::optional<Shape> b = withDims(a.getDims(), other.getLayout());
    if (!b)
      continue;
    ++pairs;
    SCOPED_TRACE(printShape(a) + " vs " + printShape(*b));
    bool brute = bruteForceSameBytes(a, *b);
    EXPECT_EQ(valueOf(sameByteOrder(a, *b)), brute);
    // planRelayout's bitcast class is the same relation.
    EXPECT_EQ(valueOf(planRelayout(a, *b)).cls == RelayoutClass::Bitcast,
              brute);
    CanonicalLayout ca = valueOf(canonicalizeLayout(a));
    CanonicalLayout cb = valueOf(canonicalizeLayout(*b));
    bool equalForms = printShape(ca.shape) == printShape(cb.shape);
    // Sound: equal forms are equal byte orders.
    if (equalForms)
      EXPECT_TRUE(brute);
    if (brute) {
      ++equalOrders;
      // sameByteOrder compared these along each axis only.
      separableEqual += getMap(a).isSeparable() && getMap(*b).isSeparable();
      // Strided is a property of the byte order.
      EXPECT_EQ(ca.strided, cb.strided);
      // Complete on strided and digit-permutation byte orders.
      EXPECT_EQ(ca.complete, cb.complete);
      if (ca.strided)
        ++stridedEqual;
      if (ca.complete)
        EXPECT_TRUE(equalForms);
    }
  }
  EXPECT_GT(stridedEqual, 10);
  EXPECT_GT(equalOrders, stridedEqual);
  EXPECT_GT(separableEqual, 50);
}

TEST(LayoutCanonicalProperty, NoOpRewritesGiveEqualForms) {
  // Whatever the byte order (strided or not), these rewrites keep it and
  // the canonical form undoes them: a last tile level (1), E equal to the
  // stored width, a larger L with the same allocated count.
  RandomLayoutGenerator gen({/*seed=*/20261127, /*minRank=*/1,
                             /*maxRank=*/4, /*maxDim=*/6,
                             /*tailPadding=*/true, /*maxAllocated=*/3000});
  for (int i = 0; i < 300; ++i) {
    Shape shape = gen.next();
    SCOPED_TRACE(printShape(shape));
    std::string expected = printShape(valueOf(canonicalizeLayout(shape)).shape);
    Shape unitLevel = shape;
    unitLevel.mutableLayout().mutableTiles().push_back(Tile({1}));
    EXPECT_EQ(printShape(valueOf(canonicalizeLayout(unitLevel)).shape),
              expected);
    Shape bits = shape;
    bits.mutableLayout().setElementSizeInBits(32);
    EXPECT_EQ(printShape(valueOf(canonicalizeLayout(bits)).shape), expected);
    TiledLayoutMap map = getMap(shape);
    if (map.getAllocatedElements() > map.getPhysicalElementCount()) {
      Shape tail = shape;
      tail.mutableLayout().setTailPaddingAlignment(map.getAllocatedElements());
      EXPECT_EQ(printShape(valueOf(canonicalizeLayout(tail)).shape), expected);
    }
  }
}

TEST(ExactBitcastProperty, AgreesWithBruteForce) {
  RandomLayoutGenerator gen({/*seed=*/20261128, /*minRank=*/1,
                             /*maxRank=*/3, /*maxDim=*/6,
                             /*tailPadding=*/true, /*maxAllocated=*/2000});
  int reshapes = 0, reshapeBitcasts = 0, transposes = 0, transposeBitcasts = 0;
  while (reshapes < 600 || transposes < 600) {
    Shape a = gen.next();
    Shape other = gen.next();
    SCOPED_TRACE(printShape(a) + " / " + printShape(other));
    // Reshape: to the other's dims scaled to a's element count is rare;
    // use a's dims merged into one, split back, or the other's layout on a
    // regrouping of a's dims.
    SmallVector<int64_t, 6> dims(a.getDims());
    if (dims.size() >= 2 && gen.uniform(0, 1)) {
      int64_t d = gen.uniform(0, dims.size() - 2);
      dims[d] *= dims[d + 1];
      dims.erase(dims.begin() + d + 1);
    } else if (!dims.empty() && dims.back() % 2 == 0) {
      dims.back() /= 2;
      dims.push_back(2);
    }
    Layout layout = Layout::getDefault(dims.size());
    if (other.getRank() == static_cast<int64_t>(dims.size()))
      layout = other.getLayout();
    else if (gen.uniform(0, 1)) {
      // A tile over the minor dim keeps many reshapes bitcasts.
      layout.mutableTiles().push_back(Tile({dims.back()}));
    }
    if (std::optional<Shape> b = withDims(dims, layout)) {
      ++reshapes;
      bool brute = bruteForceSameBytes(a, *b);
      // reshapeIsBitcast does not compare padding values of untiled
      // layouts (they have no padding slots).
      EXPECT_EQ(valueOf(reshapeIsBitcast(a, *b)), brute) << printShape(*b);
      reshapeBitcasts += brute;
    }
    // Transpose: a permutation of a's dims with the other's layout, or
    // PermuteDimensions (always a bitcast).
    if (other.getRank() == a.getRank()) {
      SmallVector<int64_t, 6> perm(a.getRank());
      std::iota(perm.begin(), perm.end(), 0);
      for (int64_t k = 0; k < a.getRank(); ++k)
        std::swap(perm[k], perm[gen.uniform(k, a.getRank() - 1)]);
      SmallVector<int64_t, 6> outDims = permute(a.getDims(), perm);
      Shape candidate = gen.uniform(0, 2)
                            ? valueOf(permuteDimensions(perm, a))
                            : Shape::makeArray(PrimitiveType::F32, outDims,
                                               other.getLayout());
      std::optional<Shape> b = withDims(outDims, candidate.getLayout());
      if (!b)
        continue;
      ++transposes;
      // Brute force: fill b with the row-major index of the input element
      // each slot holds.
      TiledLayoutMap bm = getMap(*b), am = getMap(a);
      SmallVector<int64_t> viaB;
      for (int64_t s = 0; s < bm.getAllocatedElements(); ++s) {
        std::optional<SmallVector<int64_t, 6>> o = bm.logicalIndex(s);
        int64_t k = -1;
        if (o) {
          SmallVector<int64_t, 6> e(a.getRank());
          for (int64_t i = 0; i < a.getRank(); ++i)
            e[perm[i]] = (*o)[i];
          k = 0;
          for (int64_t d = 0; d < a.getRank(); ++d)
            k = k * a.getDim(d) + e[d];
        }
        viaB.push_back(k);
      }
      bool brute =
          am.getPhysicalElementCount() == bm.getPhysicalElementCount() &&
          (am.getPhysicalElementCount() == am.getElementCount() ||
           f32PaddingWritten(a) == f32PaddingWritten(*b)) &&
          fillSlots(a) == viaB;
      bool answer = valueOf(transposeIsBitcast(a, *b, perm));
      // Untiled pairs keep XLA's syntactic answer, which is sound but
      // misses size-1 dims placed differently; tiled pairs are exact.
      bool untiled = a.getLayout().isUntiled() && b->getLayout().isUntiled();
      if (untiled && !answer)
        continue;
      EXPECT_EQ(answer, brute) << printShape(*b);
      transposeBitcasts += brute;
      if (brute && !untiled) {
        std::optional<SmallVector<int64_t, 6>> deduced =
            valueOf(deduceTransposeDimensionsForBitcast(a, *b));
        ASSERT_TRUE(deduced.has_value()) << printShape(*b);
        EXPECT_TRUE(valueOf(transposeIsBitcast(a, *b, *deduced)));
      }
    }
  }
  EXPECT_GT(reshapeBitcasts, 30);
  EXPECT_GT(transposeBitcasts, 100);
}

} // namespace

TEST(LayoutCanonicalProperty, CompleteFormsAreOnePerByteOrder) {
  // Generated layouts of a few fixed dims, grouped by byte order: within a
  // group `complete` agrees, and complete forms (strided or digit
  // permutations) are equal, with no exception.
  RandomLayoutGenerator gen({/*seed=*/20261129, /*minRank=*/2,
                             /*maxRank=*/3, /*maxDim=*/4,
                             /*tailPadding=*/true, /*maxAllocated=*/2000});
  const SmallVector<SmallVector<int64_t, 3>, 6> dimsList = {
      {4, 4}, {2, 4}, {1, 4}, {4, 2, 2}, {2, 2, 4}, {6, 4}};
  int equal = 0, digitEqual = 0;
  for (const auto &dims : dimsList) {
    SmallVector<std::pair<Shape, CanonicalLayout>, 16> reps;
    int got = 0;
    while (got < 1500) {
      Shape other = gen.next();
      if (other.getRank() != static_cast<int64_t>(dims.size()))
        continue;
      std::optional<Shape> a = withDims(dims, other.getLayout());
      if (!a)
        continue;
      ++got;
      CanonicalLayout ca = valueOf(canonicalizeLayout(*a));
      bool found = false;
      for (auto &[rep, cr] : reps) {
        if (!valueOf(sameByteOrder(*a, rep)))
          continue;
        found = true;
        ++equal;
        SCOPED_TRACE(printShape(*a) + " vs " + printShape(rep));
        EXPECT_EQ(ca.complete, cr.complete);
        EXPECT_EQ(ca.strided, cr.strided);
        if (ca.complete) {
          EXPECT_EQ(printShape(ca.shape), printShape(cr.shape));
          digitEqual += !ca.strided;
        }
        break;
      }
      if (!found)
        reps.push_back({*a, ca});
    }
  }
  EXPECT_GT(equal, 1000);
  EXPECT_GT(digitEqual, 50);
}
