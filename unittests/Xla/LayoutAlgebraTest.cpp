//===- LayoutAlgebraTest.cpp - Relayouts as slot maps, classified ---------===//
//
// Examples derived by hand, error paths, and properties over generated
// layout pairs: the composed map agrees with the two index maps element by
// element, covers every element once, and a bitcast plan really is the
// same byte order.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/LayoutAlgebra.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "RandomLayouts.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using llvm::SmallVector;

namespace {

Shape parse(llvm::StringRef text) { return valueOf(parseShape(text)); }

RelayoutPlan plan(llvm::StringRef src, llvm::StringRef dst) {
  return valueOf(planRelayout(parse(src), parse(dst)));
}

TEST(LayoutAlgebra, TileCoveringTheArrayIsABitcast) {
  // T(8,128) on f32[8,128]: one tile, row-major inside: the same order.
  RelayoutPlan p = plan("f32[8,128]{1,0}", "f32[8,128]{1,0:T(8,128)}");
  EXPECT_EQ(p.cls, RelayoutClass::Bitcast);
  EXPECT_EQ(p.bytesMoved, 0);
  EXPECT_EQ(p.runElements, 1024);
  EXPECT_EQ(relayoutClassName(p.cls), "bitcast");
  // [128,128] in 8x128 tiles: 16 tiles of whole rows, still row-major.
  EXPECT_EQ(plan("f32[128,128]{1,0}", "f32[128,128]{1,0:T(8,128)}").cls,
            RelayoutClass::Bitcast);
}

TEST(LayoutAlgebra, TransposeIsInTile) {
  // Column-major destination: each destination row (64 slots) reads a
  // source column, stride 64.
  RelayoutPlan p = plan("f32[64,64]{1,0}", "f32[64,64]{0,1}");
  EXPECT_EQ(p.cls, RelayoutClass::InTileTranspose);
  EXPECT_EQ(p.runElements, 1);
  EXPECT_EQ(p.vectorElements, 1);
  EXPECT_EQ(p.bytesMoved, 64 * 64 * 4);
  EXPECT_EQ(relayoutClassName(p.cls), "in-tile-transpose");
}

TEST(LayoutAlgebra, TiledToTransposedIsInTileWithinBlocks) {
  // f32[256,256] T(8,128) -> {0,1}: destination row j reads source column
  // j, which moves by 128 slots inside a tile and jumps 2 tiles (2048
  // slots, the second tile of the row is between) every 8 elements: one
  // stride only within aligned blocks of 8.
  RelayoutPlan p = plan("f32[256,256]{1,0:T(8,128)}", "f32[256,256]{0,1}");
  EXPECT_EQ(p.cls, RelayoutClass::InTileTranspose);
  EXPECT_EQ(p.explanation,
            "each destination row of 256 slots reads the source with one "
            "stride within aligned blocks of 8: a 2-D transpose inside tiles "
            "(vector shuffles)");
  // Into a transposed tiled layout: rows of 128 slots, blocks of 8 again.
  EXPECT_EQ(
      plan("f32[256,256]{1,0:T(8,128)}", "f32[256,256]{0,1:T(8,128)}").cls,
      RelayoutClass::InTileTranspose);
  // bf16 (2,1) sub-tiles into row-major read at stride 2 inside each tile:
  // pairs de-interleaved, not blocks transposed.
  EXPECT_NE(plan("bf16[64,256]{1,0:T(8,128)(2,1)}", "bf16[64,256]{1,0}").cls,
            RelayoutClass::InTileTranspose);
}

TEST(LayoutAlgebra, SubTilesAreInterleaves) {
  // Row-major rows into (2,1) sub-tiles: inside a tile, slot 2 (128 p + c)
  // + l holds (2 p + l, c), source slot (2 p + l) 256 + c: two runs of
  // 128 interleaved.
  RelayoutPlan in =
      plan("bf16[64,256]{1,0}", "bf16[64,256]{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(in.cls, RelayoutClass::Interleave);
  EXPECT_EQ(relayoutClassName(in.cls), "interleave");
  EXPECT_EQ(in.groupedElements, 0);
  EXPECT_EQ(in.explanation,
            "each aligned block of 256 destination slots interleaves 2 source "
            "runs of 128 elements: rows interleaved in registers (vector "
            "shuffles)");
  // The reverse reads stride 2 within each source tile's 128 columns.
  RelayoutPlan out =
      plan("bf16[64,256]{1,0:T(8,128)(2,1)}", "bf16[64,256]{1,0}");
  EXPECT_EQ(out.cls, RelayoutClass::Interleave);
  EXPECT_EQ(out.explanation,
            "each destination row of 256 slots reads the source at stride 2 "
            "within aligned blocks of 128: 2 interleaved source rows split "
            "in registers (vector shuffles)");
  // s8 quads (also a transpose within blocks of 4: the interleave names
  // the kernel).
  EXPECT_EQ(
      plan("s8[64,256]{1,0:T(32,128)(4,1)}", "s8[64,256]{1,0}").explanation,
      "each destination row of 256 slots reads the source at stride 4 within "
      "aligned blocks of 128: 4 interleaved source rows split in registers "
      "(vector shuffles)");
  EXPECT_EQ(plan("s8[64,250]{1,0}", "s8[64,250]{1,0:T(32,128)(4,1)}").cls,
            RelayoutClass::Interleave);
  // Lanes that are not runs: the 2x2 tiles of figure 1 read (0,0),(0,1),
  // (1,0),(1,1), and rows into column-major tiles of pairs stay gathers.
  EXPECT_EQ(plan("f32[64,64]{1,0}", "f32[64,64]{1,0:T(2,2)}").cls,
            RelayoutClass::StridedGather);
  // Tiles mostly padding: lanes of one element interleave nothing
  // (f32[2,3] fills 3 of each 128-slot tile row; f32[64,1] one).
  EXPECT_EQ(plan("f32[2,3]{1,0}", "f32[2,3]{1,0:T(8,128)}").cls,
            RelayoutClass::StridedGather);
  EXPECT_NE(plan("f32[64,1]{1,0}", "f32[64,1]{1,0:T(8,128)}").cls,
            RelayoutClass::Interleave);
  // 4 x 4 tiles read across are transposes (rows at stride 4 in blocks of
  // 4), not interleaves.
  EXPECT_EQ(plan("f32[16,16]{0,1:T(4,4)}", "f32[16,16]{1,0}").cls,
            RelayoutClass::InTileTranspose);
}

TEST(LayoutAlgebra, GroupedPairsTakeTheirGroupsClass) {
  // bf16 {0,1} against (2,1) sub-tiles: element by element the slot map
  // has runs of 2 and no stride, but both layouts hold row pairs in 32-bit
  // units, and the u32 relayout {0,1} -> T(4,128) is a transpose.
  RelayoutPlan p = plan("bf16[64,256]{0,1}", "bf16[64,256]{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(p.cls, RelayoutClass::InTileTranspose);
  EXPECT_EQ(p.groupedElements, 2);
  EXPECT_EQ(p.groupedDim, 0);
  EXPECT_EQ(p.runElements, 2);
  EXPECT_EQ(p.explanation,
            "2 elements along dim 0 in each 32-bit unit of both layouts, "
            "moved as units: each destination row of 128 slots reads the "
            "source with one stride: a 2-D transpose inside tiles (vector "
            "shuffles)");
  // s8 quads.
  RelayoutPlan q = plan("s8[64,256]{1,0:T(32,128)(4,1)}", "s8[64,256]{0,1}");
  EXPECT_EQ(q.cls, RelayoutClass::InTileTranspose);
  EXPECT_EQ(q.groupedElements, 4);
  // An odd row count against an untiled layout does not group: staged
  // (below). (Against {0,1:T(8,128)}, which pads the rows too, it does:
  // ElementGroupsTest.)
  EXPECT_EQ(plan("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,1)}")
                .groupedElements,
            0);
}

TEST(LayoutAlgebra, StagedPairsTakeTheirCrossingStepsClass) {
  // 7 rows (no pairs, and no more rows than a tile): the lowering
  // transposes into T(8,128), then interleaves the row pairs: the
  // transpose is the class.
  RelayoutPlan odd = plan("bf16[7,256]{0,1}", "bf16[7,256]{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(odd.cls, RelayoutClass::InTileTranspose);
  ASSERT_TRUE(odd.staging.has_value());
  EXPECT_EQ(printLayout(*odd.staging), "{1,0:T(8,128)}");
  EXPECT_EQ(odd.explanation,
            "two relayouts through {1,0:T(8,128)} (the sub-tiled layout "
            "without its last tile): in-tile-transpose, then interleave");
  // 63 untiled rows into row pairs do not group either; one blocked
  // transpose stores each pair interleaved (getInterleavedStores).
  RelayoutPlan in =
      plan("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,1)}");
  EXPECT_FALSE(in.staging.has_value());
  EXPECT_EQ(in.cls, RelayoutClass::InTileTranspose);
  EXPECT_EQ(in.explanation,
            "the rows of the tiles without the (2,1) sub-tile read the "
            "source with one stride: a 2-D transpose inside tiles, each run "
            "of 2 of its rows stored interleaved as one vector (vector "
            "shuffles)");
  // Out of the sub-tiles into untiled transposed rows: one blocked
  // transpose reading runs of 2 rows (getInterleavedRuns), not staged.
  RelayoutPlan out =
      plan("bf16[63,250]{1,0:T(8,128)(2,1)}", "bf16[63,250]{0,1}");
  EXPECT_FALSE(out.staging.has_value());
  EXPECT_EQ(out.cls, RelayoutClass::InTileTranspose);
  EXPECT_EQ(out.explanation,
            "each destination row of 63 slots reads the source's (2,1) "
            "sub-tiles across runs of 2 rows: a 2-D transpose inside tiles, "
            "each run one vector picked apart by vector shuffles");
  // Into transposed tiles it still stages: here its pairs as 16-bit groups
  // (30 rows are too few for quads), then through the plain tiles.
  RelayoutPlan tiles =
      plan("s8[30,250]{1,0:T(32,128)(4,1)}", "s8[30,250]{0,1:T(8,128)}");
  EXPECT_EQ(tiles.cls, RelayoutClass::InTileTranspose);
  EXPECT_EQ(tiles.groupedElements, 2);
  EXPECT_NE(tiles.explanation.find("two relayouts through {1,0:T(16,128)}"),
            std::string::npos);
  // Sub-tiles into rows that are not whole lines do not stage (one pass
  // measured faster): the rows read the sub-tiles strided.
  RelayoutPlan rows =
      plan("bf16[64,250]{1,0:T(8,128)(2,1)}", "bf16[64,250]{1,0}");
  EXPECT_FALSE(rows.staging.has_value());
  EXPECT_EQ(rows.cls, RelayoutClass::Interleave);
  // Across memory spaces the lowering does not stage, nor does the plan.
  EXPECT_FALSE(plan("bf16[63,256]{1,0:T(8,128)(2,1)S(1)}", "bf16[63,256]{0,1}")
                   .staging.has_value());
}

TEST(LayoutAlgebra, PackingIsNeverAChunkCopy) {
  // s4 packed two per byte against one per byte: runs of 4096 elements in
  // slot order, but not the same bits: repacked element by element.
  for (auto [from, to] : {std::pair{"s4[64,64]{1,0:E(4)}", "s4[64,64]{1,0}"},
                          std::pair{"s4[64,64]{1,0}", "s4[64,64]{1,0:E(4)}"}}) {
    RelayoutPlan p = plan(from, to);
    EXPECT_EQ(p.cls, RelayoutClass::StridedGather) << from << " -> " << to;
    EXPECT_NE(p.explanation.find("each element is repacked"), std::string::npos)
        << p.explanation;
  }
  EXPECT_EQ(plan("s4[64,64]{1,0:E(4)}", "s4[64,64]{1,0:E(4)}").cls,
            RelayoutClass::Bitcast);
}

TEST(LayoutAlgebra, ShortSingleRunIsAGatherWithoutStrides) {
  // One run of 15 f32 (60 bytes, under the 64-byte chunk), then padding.
  RelayoutPlan p = plan("f32[15]{0}", "f32[15]{0:L(16)}");
  EXPECT_EQ(p.cls, RelayoutClass::StridedGather);
  EXPECT_EQ(p.runElements, 15);
  EXPECT_EQ(p.explanation,
            "contiguous runs of 15 elements at the shortest, under the "
            "64-byte chunk, and destination rows that do not read one "
            "stride: element by element");
}

TEST(LayoutAlgebra, PaddedRowsAreChunks) {
  // 64 columns in 128-wide tiles: each 8x128 tile row holds 64 elements
  // (256 bytes, one source row) then 64 padding slots.
  RelayoutPlan p = plan("f32[64,64]{1,0}", "f32[64,64]{1,0:T(8,128)}");
  EXPECT_EQ(p.cls, RelayoutClass::ChunkCopy);
  EXPECT_EQ(p.runElements, 64);
  EXPECT_EQ(p.vectorElements, 64);
  // 8 tiles of 8x128 slots.
  EXPECT_EQ(p.bytesMoved, 8 * 8 * 128 * 4);
}

TEST(LayoutAlgebra, Figure1IsAGather) {
  // f32[3,5] in 2x2 tiles: slot 0,1 <- (0,0),(0,1) = source 0,1; slot 2,3 <-
  // (1,0),(1,1) = source 5,6; runs of 2 elements (8 bytes), and the tile
  // holding (0,4) pads its second column.
  SmallVector<int64_t> map = valueOf(
      composeRelayout(parse("f32[3,5]{1,0}"), parse("f32[3,5]{1,0:T(2,2)}")));
  ASSERT_EQ(map.size(), 24u);
  EXPECT_EQ(map[0], 0);
  EXPECT_EQ(map[1], 1);
  EXPECT_EQ(map[2], 5);
  EXPECT_EQ(map[3], 6);
  EXPECT_EQ(map[8], 4);
  EXPECT_EQ(map[9], kPaddingSlot);
  // XLA's element (2,3) is at 17.
  EXPECT_EQ(map[17], 2 * 5 + 3);
  RelayoutPlan p = plan("f32[3,5]{1,0}", "f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(p.cls, RelayoutClass::StridedGather);
  EXPECT_EQ(p.runElements, 1); // (2,4) alone: slot 20, then padding
  EXPECT_EQ(p.vectorElements, 1);
}

TEST(LayoutAlgebra, DifferentPaddingValuesAreNotABitcast) {
  // Same order, but the padding slots hold 0 in one and 1 in the other.
  EXPECT_EQ(plan("f32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)}").cls,
            RelayoutClass::Bitcast);
  EXPECT_NE(plan("f32[3,5]{1,0:T(2,2)}", "f32[3,5]{1,0:T(2,2)PV(one)}").cls,
            RelayoutClass::Bitcast);
}

TEST(LayoutAlgebra, LargeBitcastsArePlannedWithoutTheMap) {
  // 2^25 slots, over the materialized bound: T(8,128) on rows of 128 is
  // row-major (sameByteOrder compares the two layouts along each axis).
  RelayoutPlan p =
      plan("f32[262144,128]{1,0}", "f32[262144,128]{1,0:T(8,128)}");
  EXPECT_EQ(p.cls, RelayoutClass::Bitcast);
  EXPECT_EQ(p.bytesMoved, 0);
  EXPECT_EQ(p.runElements, 262144 * 128);
  EXPECT_EQ(p.vectorElements, 262144 * 128);
  // 38,400,000 = 2^12 * 9375 slots: vectors of 4096, as the materialized
  // map gives 3072 = 2^10 * 3 slots vectors of 1024.
  p = plan("f32[300000,128]{1,0}", "f32[300000,128]{1,0:T(8,128)}");
  EXPECT_EQ(p.cls, RelayoutClass::Bitcast);
  EXPECT_EQ(p.runElements, 300000 * 128);
  EXPECT_EQ(p.vectorElements, 4096);
  RelayoutPlan small = plan("f32[24,128]{1,0}", "f32[24,128]{1,0:T(8,128)}");
  EXPECT_EQ(small.cls, RelayoutClass::Bitcast);
  EXPECT_EQ(small.vectorElements, 1024);
  EXPECT_EQ(small.explanation, p.explanation);
  // Not the same order (rows of 256 in tiles of 128), or padding slots
  // (rows of 100 in tiles of 128): the map decides, up to its bound.
  for (auto [src, dst] :
       {std::pair{"f32[131072,256]{1,0}", "f32[131072,256]{1,0:T(8,128)}"},
        std::pair{"f32[262144,100]{1,0:T(8,128)}",
                  "f32[262144,100]{1,0:T(8,128)}"}})
    EXPECT_NE(errorOf(planRelayout(parse(src), parse(dst)))
                  .find("the planner materializes at most 16777216"),
              std::string::npos)
        << src << " -> " << dst;
}

TEST(LayoutAlgebra, Errors) {
  EXPECT_EQ(errorOf(planRelayout(parse("f32[2,3]"), parse("f32[3,2]"))),
            "a relayout needs the same dims and element type, got "
            "f32[2,3]{1,0} and f32[3,2]{1,0}");
  EXPECT_EQ(errorOf(planRelayout(parse("f32[2]"), parse("s32[2]"))),
            "a relayout needs the same dims and element type, got f32[2]{0} "
            "and s32[2]{0}");
  EXPECT_EQ(errorOf(planRelayout(parse("(f32[2])"), parse("f32[2]"))),
            "a relayout needs two array shapes, got (f32[2]{0}) and f32[2]{0}");
  EXPECT_NE(errorOf(planRelayout(parse("f32[?,2]"), parse("f32[?,2]")))
                .find("f32[?,2]"),
            std::string::npos);
  EXPECT_NE(errorOf(planRelayout(parse("f32[8192,4096]"),
                                 parse("f32[8192,4096]{0,1}")))
                .find("the planner materializes at most 16777216"),
            std::string::npos);
}

TEST(LayoutAlgebraProperty, ComposedMapMatchesTheIndexMaps) {
  RandomLayoutGenerator gen({/*seed=*/20261124, /*minRank=*/1,
                             /*maxRank=*/3, /*maxDim=*/6,
                             /*tailPadding=*/true, /*maxAllocated=*/4000});
  int pairs = 0, bitcasts = 0;
  while (pairs < 300) {
    Shape a = gen.next();
    Shape other = gen.next();
    if (other.getRank() != a.getRank())
      continue;
    Shape b =
        Shape::makeArray(PrimitiveType::F32, a.getDims(), other.getLayout());
    llvm::Expected<TiledLayoutMap> bm = TiledLayoutMap::get(b);
    if (!bm) {
      llvm::consumeError(bm.takeError());
      continue;
    }
    ++pairs;
    SCOPED_TRACE(printShape(a) + " -> " + printShape(b));
    TiledLayoutMap am = getMap(a);
    SmallVector<int64_t> map = valueOf(composeRelayout(a, b));
    ASSERT_EQ(static_cast<int64_t>(map.size()), bm->getPhysicalElementCount());
    // Forward: every element's destination slot reads its source slot.
    int64_t elements = 0;
    SmallVector<int64_t, 6> index(a.getRank(), 0);
    bool empty = am.getElementCount() == 0;
    while (!empty) {
      ASSERT_EQ(map[bm->linearIndex(index)], am.linearIndex(index));
      ++elements;
      int64_t d = a.getRank() - 1;
      for (; d >= 0; --d) {
        if (++index[d] < a.getDim(d))
          break;
        index[d] = 0;
      }
      if (d < 0)
        break;
    }
    // Nothing else: the other slots are padding.
    EXPECT_EQ(llvm::count_if(map, [](int64_t s) { return s != kPaddingSlot; }),
              elements);
    RelayoutPlan p = valueOf(planRelayout(a, b));
    // The common vector splits every run into aligned pieces.
    EXPECT_EQ(static_cast<int64_t>(map.size()) % p.vectorElements, 0);
    if (p.cls == RelayoutClass::Bitcast) {
      ++bitcasts;
      EXPECT_EQ(am.getAllocatedBytes(), bm->getAllocatedBytes());
      for (auto [slot, from] : llvm::enumerate(map))
        if (from != kPaddingSlot)
          EXPECT_EQ(from, static_cast<int64_t>(slot));
    }
  }
  // Same-order pairs (identity layouts, size-1 dims) occur.
  EXPECT_GT(bitcasts, 0);
}

// The run starts of f32[32,256] {1,0:T(8,128)} -> {1,0:T(16,64)} in source
// order (runs of 64 elements): (destination, source) offsets factor into
// the nest h (2 halves of a source tile row), ri (8 rows), p1 (2 tile
// columns), p0 % 2, p0 / 2 (2 tile rows of the destination).
TEST(LayoutAlgebra, FactorRunNestTiledToTiled) {
  Shape src = valueOf(parseShape("f32[32,256]{1,0:T(8,128)}"));
  Shape dst = valueOf(parseShape("f32[32,256]{1,0:T(16,64)}"));
  TiledLayoutMap sm = valueOf(TiledLayoutMap::get(src));
  TiledLayoutMap dm = valueOf(TiledLayoutMap::get(dst));
  std::vector<std::array<int64_t, 2>> points;
  for (int64_t s = 0; s < 32 * 256; s += 64)
    points.push_back({dm.linearIndex(*sm.logicalIndex(s)), s});
  std::optional<RunNest> nest = factorRunNest(points);
  ASSERT_TRUE(nest.has_value());
  EXPECT_EQ(nest->base, (std::array<int64_t, 2>{0, 0}));
  ASSERT_EQ(nest->levels.size(), 5u);
  const int64_t counts[] = {2, 8, 2, 2, 2};
  const std::array<int64_t, 2> strides[] = {
      {1024, 64}, {64, 128}, {2048, 1024}, {512, 2048}, {4096, 4096}};
  for (unsigned k = 0; k < 5; ++k) {
    EXPECT_EQ(nest->levels[k].count, counts[k]) << k;
    EXPECT_EQ(nest->levels[k].stride, strides[k]) << k;
  }
  // Every point is the nest's value at its mixed-radix digits.
  for (size_t i = 0; i < points.size(); ++i) {
    std::array<int64_t, 2> v = nest->base;
    size_t rest = i;
    for (const RunNest::Level &level : nest->levels) {
      int64_t digit = static_cast<int64_t>(rest % level.count);
      rest /= level.count;
      v[0] += digit * level.stride[0];
      v[1] += digit * level.stride[1];
    }
    EXPECT_EQ(v, points[i]) << i;
  }
}

TEST(LayoutAlgebra, FactorRunNestRejectsWhatIsNotANest) {
  EXPECT_TRUE(factorRunNest({})->levels.empty());
  std::optional<RunNest> one = factorRunNest({{5, 7}});
  ASSERT_TRUE(one.has_value());
  EXPECT_TRUE(one->levels.empty());
  EXPECT_EQ(one->base, (std::array<int64_t, 2>{5, 7}));
  // 3 points with different steps: no level of length >= 2 divides 3.
  EXPECT_FALSE(factorRunNest({{0, 0}, {1, 1}, {3, 2}}).has_value());
  // Blocks of 2 that do not repeat the first block's step.
  EXPECT_FALSE(factorRunNest({{0, 0}, {1, 1}, {10, 10}, {12, 11}}).has_value());
  // 2^9 points, each level a doubling: more than 8 levels.
  std::vector<std::array<int64_t, 2>> deep;
  for (int64_t i = 0; i < 512; ++i) {
    int64_t v = 0;
    for (int b = 0; b < 9; ++b)
      if (i >> b & 1)
        v += int64_t(1) << (2 * b);
    deep.push_back({v, i});
  }
  EXPECT_FALSE(factorRunNest(deep).has_value());
  ASSERT_TRUE(factorRunNest(deep, 9).has_value());
  EXPECT_EQ(factorRunNest(deep, 9)->levels.size(), 9u);
}

} // namespace
