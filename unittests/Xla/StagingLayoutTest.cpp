//===- StagingLayoutTest.cpp - When a sub-tiled relayout is staged --------===//
//
// getStagingLayout's rules (include/layout/Xla/StagingLayout.h), one case
// each: the crossing pairs stage through the sub-tiled layout without its
// last tile; rows along the sub-tiles, the second step itself, rows read
// strided out of the sub-tiles, interleaved runs into untiled transposed
// rows and interleaved stores out of them, two sub-tiled or two plain
// layouts, other widths and PRED do not.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/StagingLayout.h"

#include "TestHelpers.h"

#include <gtest/gtest.h>

using namespace mlir::layout;
using namespace mlir::layout::unittest;

namespace {

std::string staging(llvm::StringRef from, llvm::StringRef to) {
  std::optional<Layout> layout =
      getStagingLayout(valueOf(parseShape(from)), valueOf(parseShape(to)));
  return layout ? printLayout(*layout) : "none";
}

TEST(StagingLayout, CrossingPairsStageThroughThePlainTiles) {
  // (An untiled source of no more rows than a tile: no interleaved
  // stores.)
  EXPECT_EQ(staging("bf16[7,256]{0,1}", "bf16[7,256]{1,0:T(8,128)(2,1)}"),
            "{1,0:T(8,128)}");
  EXPECT_EQ(
      staging("s8[63,256]{1,0:T(32,128)(4,1)}", "s8[63,256]{0,1:T(8,128)}"),
      "{1,0:T(32,128)}");
}

TEST(StagingLayout, InterleavedRunsIntoUntiledTransposedRows) {
  // A (q,1) sub-tiled source into untiled rows along the dim its sub-tile
  // interleaves: one blocked transpose of runs, not staged.
  auto runs = [](llvm::StringRef from, llvm::StringRef to) {
    return getInterleavedRuns(valueOf(parseShape(from)),
                              valueOf(parseShape(to)));
  };
  EXPECT_EQ(runs("bf16[63,256]{1,0:T(8,128)(2,1)}", "bf16[63,256]{0,1}"), 2);
  EXPECT_EQ(staging("bf16[63,256]{1,0:T(8,128)(2,1)}", "bf16[63,256]{0,1}"),
            "none");
  EXPECT_EQ(runs("s8[125,200]{1,0:T(32,128)(4,1)}", "s8[125,200]{0,1}"), 4);
  EXPECT_EQ(staging("s8[125,200]{1,0:T(32,128)(4,1)}", "s8[125,200]{0,1}"),
            "none");
  EXPECT_EQ(runs("s8[5,17,9]{2,1,0:T(8,128)(2,1)}", "s8[5,17,9]{1,2,0}"), 2);
  // Not: the destination tiled, its rows along another dim, the sub-tile
  // not (q,1), runs wider than 32 bits (bf16 quads), extents shorter than
  // 4 q (whose blocks could not hold 4 runs: staged), the sub-tiles on the
  // destination.
  EXPECT_EQ(
      runs("bf16[63,256]{1,0:T(8,128)(2,1)}", "bf16[63,256]{0,1:T(8,128)}"), 0);
  EXPECT_EQ(runs("bf16[63,256]{1,0:T(8,128)(2,1)}", "bf16[63,256]{1,0}"), 0);
  EXPECT_EQ(runs("bf16[63,256]{1,0:T(8,128)(2,2)}", "bf16[63,256]{0,1}"), 0);
  EXPECT_EQ(runs("s8[63,256]{1,0:T(32,128)(16,1)}", "s8[63,256]{0,1}"), 0);
  EXPECT_EQ(runs("bf16[63,256]{1,0:T(8,128)(4,1)}", "bf16[63,256]{0,1}"), 0);
  EXPECT_EQ(runs("s8[5,7,9]{2,1,0:T(8,128)(2,1)}", "s8[5,7,9]{1,2,0}"), 0);
  EXPECT_EQ(staging("s8[5,7,9]{2,1,0:T(8,128)(2,1)}", "s8[5,7,9]{1,2,0}"),
            "{2,1,0:T(8,128)}");
  EXPECT_EQ(runs("bf16[63,6]{1,0:T(8,128)(2,1)}", "bf16[63,6]{0,1}"), 0);
  EXPECT_EQ(runs("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,1)}"), 0);
}

TEST(StagingLayout, InterleavedStoresFromUntiledTransposedRows) {
  // An untiled source into (q,1) sub-tiles whose interleaved dim is its
  // minor one: one blocked transpose of the tiles' rows, each run stored
  // interleaved, not staged.
  auto stores = [](llvm::StringRef from, llvm::StringRef to) {
    return getInterleavedStores(valueOf(parseShape(from)),
                                valueOf(parseShape(to)));
  };
  EXPECT_EQ(stores("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,1)}"), 2);
  EXPECT_EQ(staging("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(stores("u8[4093,4099]{0,1}", "u8[4093,4099]{1,0:T(32,128)(4,1)}"),
            4);
  EXPECT_EQ(staging("u8[4093,4099]{0,1}", "u8[4093,4099]{1,0:T(32,128)(4,1)}"),
            "none");
  EXPECT_EQ(stores("s8[101,517]{0,1}", "s8[101,517]{1,0:T(32,128)(2,1)}"), 2);
  EXPECT_EQ(stores("s8[77,130]{0,1}", "s8[77,130]{1,0:T(4,128)(4,1)}"), 4);
  EXPECT_EQ(stores("f16[61,77]{0,1}", "f16[61,77]{1,0:T(16,64)(2,1)}"), 2);
  EXPECT_EQ(stores("s8[3,45,140]{1,2,0}", "s8[3,45,140]{2,1,0:T(32,128)(4,1)}"),
            4);
  // Not: a tiled or padded source, its minor dim not the interleaved one,
  // the sub-tile not (q,1), runs wider than 32 bits (bf16 quads), 32-bit
  // elements, a 3-D tile, tile rows wider than 32 bytes (no AVX2 vector
  // holds them) or not whole 64-byte lines, no more rows than one tile or
  // fewer than 4 q, rows shorter than 16.
  EXPECT_EQ(
      stores("bf16[63,256]{0,1:T(8,128)}", "bf16[63,256]{1,0:T(8,128)(2,1)}"),
      0);
  EXPECT_EQ(stores("bf16[63,256]{0,1:L(2)}", "bf16[63,256]{1,0:T(8,128)(2,1)}"),
            0);
  EXPECT_EQ(stores("bf16[63,256]{1,0}", "bf16[63,256]{1,0:T(8,128)(2,1)}"), 0);
  EXPECT_EQ(stores("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,2)}"), 0);
  EXPECT_EQ(stores("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(4,1)}"), 0);
  EXPECT_EQ(stores("f32[63,256]{0,1}", "f32[63,256]{1,0:T(8,128)(2,1)}"), 0);
  EXPECT_EQ(
      stores("s8[5,63,256]{1,2,0}", "s8[5,63,256]{2,1,0:T(2,8,128)(2,1)}"), 0);
  EXPECT_EQ(stores("s8[130,256]{0,1}", "s8[130,256]{1,0:T(64,128)(4,1)}"), 0);
  EXPECT_EQ(stores("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(32,128)(2,1)}"), 0);
  EXPECT_EQ(stores("bf16[8,256]{0,1}", "bf16[8,256]{1,0:T(8,128)(2,1)}"), 0);
  EXPECT_EQ(stores("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,40)(2,1)}"), 0);
  EXPECT_EQ(stores("bf16[7,256]{0,1}", "bf16[7,256]{1,0:T(2,128)(2,1)}"), 0);
  EXPECT_EQ(stores("bf16[8,256]{0,1}", "bf16[8,256]{1,0:T(2,128)(2,1)}"), 2);
  EXPECT_EQ(stores("bf16[63,15]{0,1}", "bf16[63,15]{1,0:T(8,128)(2,1)}"), 0);
  EXPECT_EQ(staging("bf16[63,15]{0,1}", "bf16[63,15]{1,0:T(8,128)(2,1)}"),
            "{1,0:T(8,128)}");
  // Out of the sub-tiles: interleaved runs, not stores.
  EXPECT_EQ(stores("bf16[63,256]{1,0:T(8,128)(2,1)}", "bf16[63,256]{0,1}"), 0);
}

TEST(StagingLayout, DirectPairs) {
  // Rows along the sub-tiles (interleaved rows), the second step itself,
  // whole lines read strided from the sub-tiles.
  EXPECT_EQ(staging("bf16[64,256]{1,0}", "bf16[64,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(
      staging("bf16[64,256]{1,0:T(8,128)(2,1)}", "bf16[64,256]{1,0:T(8,128)}"),
      "none");
  EXPECT_EQ(staging("bf16[64,256]{1,0:T(8,128)(2,1)}", "bf16[64,256]{1,0}"),
            "none");
  // Rows that are not whole 64-byte lines too (measured faster in one
  // pass than through the tiles); odd rows of 8-bit quads as well.
  EXPECT_EQ(staging("bf16[64,250]{1,0:T(8,128)(2,1)}", "bf16[64,250]{1,0}"),
            "none");
  EXPECT_EQ(staging("bf16[63,251]{1,0:T(8,128)(2,1)}", "bf16[63,251]{1,0}"),
            "none");
  EXPECT_EQ(staging("s8[61,250]{1,0:T(32,128)(4,1)}", "s8[61,250]{1,0}"),
            "none");
  // Both or neither side sub-tiled; a last tile that does not divide the
  // one before; 32-bit elements; PRED; different dims.
  EXPECT_EQ(staging("bf16[64,256]{1,0:T(8,128)(2,1)}",
                    "bf16[64,256]{0,1:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(staging("bf16[64,256]{1,0}", "bf16[64,256]{0,1}"), "none");
  EXPECT_EQ(staging("bf16[64,256]{0,1}", "bf16[64,256]{1,0:T(8,128)(3,1)}"),
            "none");
  EXPECT_EQ(staging("f32[63,256]{0,1}", "f32[63,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(staging("pred[63,256]{0,1}", "pred[63,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(staging("bf16[63,256]{0,1}", "bf16[64,256]{1,0:T(8,128)(2,1)}"),
            "none");
  // Another memory space: one kernel.
  EXPECT_EQ(staging("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,1)S(1)}"),
            "none");
}

} // namespace
