//===- AlignedOffsetTest.cpp - Index offsets inside aligned blocks --------===//
//
// getAlignedOffset (lib/Dialect/Layout/Utils/IndexExprs.h) against brute
// force: for the index expressions of tiled maps (tiles of 2 to 128 slots,
// nested tiles, strides, other dims), every offset it reports is
// e(base + t) - e(base) at every aligned base tried, and it reports one
// wherever the tiles divide the block (the blocked transposes' rows across
// tiles rely on both).
//
//===----------------------------------------------------------------------===//

#include "../../lib/Dialect/Layout/Utils/IndexExprs.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::layout::loops;

namespace {

/// e with d0 = slot, d1 = other.
int64_t evaluate(AffineExpr e, int64_t slot, int64_t other) {
  MLIRContext *ctx = e.getContext();
  AffineExpr folded =
      simplifyAffineExpr(e.replaceDims({getAffineConstantExpr(slot, ctx),
                                        getAffineConstantExpr(other, ctx)}),
                         2, 0);
  return cast<AffineConstantExpr>(folded).getValue();
}

TEST(AlignedOffset, TiledIndexAcrossTiles) {
  MLIRContext ctx;
  AffineExpr l = getAffineDimExpr(0, &ctx), o = getAffineDimExpr(1, &ctx);
  // (l floordiv 8, l mod 8) of T(8,128) rows, at t = 13 in blocks of 32.
  std::optional<AlignedOffset> q = getAlignedOffset(l.floorDiv(8), l, 32, 13);
  std::optional<AlignedOffset> m = getAlignedOffset(l % 8, l, 32, 13);
  ASSERT_TRUE(q && m);
  EXPECT_EQ(q->offset, 1);
  EXPECT_EQ(m->offset, 5);
  // Tiles of 8 whose blocks of 4 start at a multiple of 4 (l + 4 o): a
  // block stays inside one tile.
  std::optional<AlignedOffset> inQ =
      getAlignedOffset((l + o * 4).floorDiv(8), l, 4, 3);
  std::optional<AlignedOffset> inM = getAlignedOffset((l + o * 4) % 8, l, 4, 3);
  ASSERT_TRUE(inQ && inM);
  EXPECT_EQ(inQ->offset, 0);
  EXPECT_EQ(inM->offset, 3);
  // Blocks of 16 starting mid-tile: row 5 may be in the next tile.
  EXPECT_FALSE(getAlignedOffset((l + o * 4) % 8, l, 16, 5));
  // Products of dims and ceildivs are not analyzed.
  EXPECT_FALSE(getAlignedOffset(l * o, l, 8, 1));
  EXPECT_FALSE(getAlignedOffset(l.ceilDiv(8), l, 8, 1));
}

TEST(AlignedOffset, MatchesBruteForce) {
  MLIRContext ctx;
  AffineExpr l = getAffineDimExpr(0, &ctx), o = getAffineDimExpr(1, &ctx);
  std::mt19937 rng(20261201);
  auto pick = [&](std::initializer_list<int64_t> values) {
    return *(values.begin() + rng() % values.size());
  };
  int reported = 0;
  for (int iter = 0; iter < 400; ++iter) {
    int64_t tile = pick({2, 4, 8, 16, 128}), outer = pick({1, 2, 4});
    int64_t shift = pick({0, 1, 4, 8, 128}), stride = pick({1, 3, 128});
    // A source index in tiles of `tile` slots inside tiles of
    // tile * outer, the slot shifted by `shift` times another dim.
    AffineExpr arg = l + o * shift;
    AffineExpr e = arg.floorDiv(tile * outer) * (stride * 1024) +
                   (arg % (tile * outer)).floorDiv(tile) * (stride * 128) +
                   arg % tile + o * 7;
    int64_t period = pick({4, 8, 16, 32, 64});
    for (int64_t t = 0; t < period; ++t) {
      std::optional<AlignedOffset> got = getAlignedOffset(e, l, period, t);
      // (Powers of two: the tiles and the block divide one another, so
      // with the other dim's shift a multiple of the block every offset is
      // known.)
      if (shift % period == 0)
        EXPECT_TRUE(got) << "tile " << tile << " x " << outer << ", shift "
                         << shift << ", block " << period << ", t " << t;
      if (!got)
        continue;
      ++reported;
      for (int64_t base : {int64_t(0), period, 7 * period, 129 * period})
        for (int64_t other : {0, 1, 3, 33})
          ASSERT_EQ(evaluate(e, base + t, other) - evaluate(e, base, other),
                    got->offset)
              << "tile " << tile << " x " << outer << ", shift " << shift
              << ", block " << period << ", t " << t << ", base " << base
              << ", other " << other;
    }
  }
  EXPECT_GT(reported, 1000);
}

} // namespace
