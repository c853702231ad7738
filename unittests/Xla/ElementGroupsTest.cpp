//===- ElementGroupsTest.cpp - k elements as one wider element ------------===//
//
// Hand-derived groups of the layouts the relayout kernels group (bf16 and
// s8 sub-tiles, tiled and permuted layouts), the layouts that do not
// group, and a property over generated layouts: wherever groupElements
// answers, every element sits at k times its group's slot plus its digit,
// and the two buffers have the same slots.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/ElementGroups.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "RandomLayouts.h"
#include "TestHelpers.h"

#include <gtest/gtest.h>

using namespace mlir::layout;
using namespace mlir::layout::unittest;

namespace {

Shape parse(llvm::StringRef text) { return valueOf(parseShape(text)); }

std::string grouped(llvm::StringRef text, int64_t k) {
  std::optional<ElementGroups> groups = groupElements(parse(text), k);
  return groups ? printShape(groups->shape) : "none";
}

/// Every element e of `shape` sits at k * slot(group of e) + e_d % k, and
/// the grouped buffer has 1/k of the slots.
void expectExactGroups(const Shape &shape, const ElementGroups &groups,
                       int64_t k) {
  TiledLayoutMap map = valueOf(TiledLayoutMap::get(shape));
  TiledLayoutMap unit = valueOf(TiledLayoutMap::get(groups.shape));
  ASSERT_EQ(map.getPhysicalElementCount(), k * unit.getPhysicalElementCount())
      << printShape(shape) << " -> " << printShape(groups.shape);
  llvm::SmallVector<int64_t, 6> e(shape.getRank(), 0);
  int64_t count = 1;
  for (int64_t d : shape.getDims())
    count *= d;
  for (int64_t n = 0; n < count; ++n) {
    delinearize(shape, n, e);
    llvm::SmallVector<int64_t, 6> g(e);
    g[groups.dim] /= k;
    ASSERT_EQ(map.linearIndex(e), k * unit.linearIndex(g) + e[groups.dim] % k)
        << printShape(shape) << " -> " << printShape(groups.shape);
  }
  // The last group's tail slots are padding slots: inside the buffer, and
  // no element's slot.
  int64_t last = shape.getDim(groups.dim) - 1;
  for (int64_t n = 0; groups.tailSlots > 0 && n < count; ++n) {
    delinearize(shape, n, e);
    if (e[groups.dim] != last)
      continue;
    llvm::SmallVector<int64_t, 6> g(e);
    g[groups.dim] /= k;
    for (int64_t j = k - groups.tailSlots; j < k; ++j) {
      int64_t slot = k * unit.linearIndex(g) + j;
      ASSERT_LT(slot, map.getAllocatedElements()) << printShape(shape);
      ASSERT_FALSE(map.logicalIndex(slot).has_value())
          << printShape(shape) << " slot " << slot;
    }
  }
}

TEST(ElementGroups, SubTilesBecomeTheTileAbove) {
  EXPECT_EQ(grouped("bf16[16,256]{1,0:T(8,128)(2,1)}", 2),
            "u32[8,256]{1,0:T(4,128)}");
  EXPECT_EQ(grouped("s8[32,256]{1,0:T(8,128)(4,1)}", 4),
            "u32[8,256]{1,0:T(2,128)}");
  // (4,1) holds two pairs: groups of 2 keep a (2,1) sub-tile.
  EXPECT_EQ(grouped("s8[32,256]{1,0:T(8,128)(4,1)}", 2),
            "u16[16,256]{1,0:T(4,128)(2,1)}");
  // Padded tiles: 4094 rows fill 512 tiles of 8 either way.
  EXPECT_EQ(grouped("bf16[4094,4099]{1,0:T(8,128)(2,1)}", 2),
            "u32[2047,4099]{1,0:T(4,128)}");
  // Sub-tiles of permuted tiles run along the first dim... of the physical
  // order: dim 1 here.
  EXPECT_EQ(grouped("bf16[6,8]{0,1:T(8,128)(2,1)}", 2),
            "u32[6,4]{0,1:T(4,128)}");
}

TEST(ElementGroups, MinorDimsDivideTheirEntries) {
  EXPECT_EQ(grouped("bf16[6,8]{0,1}", 2), "u32[3,8]{0,1}");
  EXPECT_EQ(grouped("bf16[6,8]{1,0}", 2), "u32[6,4]{1,0}");
  EXPECT_EQ(grouped("bf16[16,256]{0,1:T(8,128)}", 2),
            "u32[8,256]{0,1:T(8,64)}");
  EXPECT_EQ(grouped("s8[4,4,8]{2,0,1:T(4,8)}", 4), "u32[4,4,2]{2,0,1:T(4,2)}");
  EXPECT_EQ(grouped("f32[3,4]{1,0}", 2), "u64[3,2]{1,0}");
}

TEST(ElementGroups, OddExtentsThatTheLayoutPads) {
  // 4093 rows fill 512 tiles of 8 as 4094 would: the last pair's second
  // row is a padding slot, covered by the groups (tailSlots).
  std::optional<ElementGroups> groups =
      groupElements(parse("bf16[4093,4096]{1,0:T(8,128)(2,1)}"), 2);
  ASSERT_TRUE(groups);
  EXPECT_EQ(printShape(groups->shape), "u32[2047,4096]{1,0:T(4,128)}");
  EXPECT_EQ(groups->tailSlots, 1);
  groups = groupElements(parse("s8[125,200]{0,1:T(8,128)}"), 4);
  ASSERT_TRUE(groups);
  EXPECT_EQ(printShape(groups->shape), "u32[32,200]{0,1:T(8,32)}");
  EXPECT_EQ(groups->tailSlots, 3);
  // The shape whose map covers the tail slots as elements.
  EXPECT_EQ(printShape(getRoundedShape(parse("s8[125,200]{0,1:T(8,128)}"),
                                       groups->dim, groups->tailSlots)),
            "s8[128,200]{0,1:T(8,128)}");
  // An extent whose rounding up would overflow does not group.
  EXPECT_EQ(grouped("u8[9223372036854775807]{0:T(128)}", 2), "none");
  // Even extents have none.
  groups = groupElements(parse("bf16[4094,4096]{1,0:T(8,128)(2,1)}"), 2);
  ASSERT_TRUE(groups);
  EXPECT_EQ(groups->tailSlots, 0);
}

TEST(ElementGroups, LayoutsThatDoNotGroup) {
  // An odd extent along the groups' dim that the layout does not pad
  // (untiled; tiled along it by an odd tile entry).
  EXPECT_EQ(grouped("bf16[5,7]{1,0}", 2), "none");
  EXPECT_EQ(grouped("bf16[63,256]{0,1}", 2), "none");
  EXPECT_EQ(grouped("bf16[9,8]{0,1:T(8,3)}", 2), "none");
  // A tile entry the groups do not divide, along their chain.
  EXPECT_EQ(grouped("bf16[8,9]{1,0:T(8,3)}", 3), "none");
  EXPECT_EQ(grouped("bf16[8,8]{1,0:T(3,1)}", 2), "none");
  // Too wide, too narrow, sub-byte, k < 2.
  EXPECT_EQ(grouped("f64[4,4]{1,0}", 2), "none");
  EXPECT_EQ(grouped("s8[4,4]{1,0}", 3), "none");
  EXPECT_EQ(grouped("s4[4,4]{1,0}", 4), "none");
  EXPECT_EQ(grouped("bf16[4,4]{1,0}", 1), "none");
  // `*`, E(n) other than the width, legacy padding, L(n), a padding value.
  EXPECT_EQ(grouped("bf16[4,4]{1,0:T(2,*,2)}", 2), "none");
  EXPECT_EQ(grouped("bf16[4,4]{1,0:E(32)}", 2), "none");
  EXPECT_EQ(grouped("bf16[4,4]{1,0:L(3)}", 2), "none");
  EXPECT_EQ(grouped("bf16[4,6]{1,0:T(4,4)PV(one)}", 2), "none");
  // A tile reaching past the shape's dims.
  EXPECT_EQ(grouped("bf16[4]{0:T(2,2)}", 2), "none");
}

/// groupRelayout's answer as "k dim source-groups -> dest-groups".
std::string groupedPair(llvm::StringRef from, llvm::StringRef to) {
  std::optional<GroupedRelayout> g = groupRelayout(parse(from), parse(to));
  if (!g)
    return "none";
  EXPECT_EQ(g->source.dim, g->dest.dim);
  return std::to_string(g->k) + " " + std::to_string(g->source.dim) + " " +
         printShape(g->source.shape) + " -> " + printShape(g->dest.shape);
}

TEST(ElementGroups, RelayoutsOfGroups) {
  // The crossing sub-tiled pairs: rows along the minor dim against row
  // pairs in (2,1) sub-tiles.
  EXPECT_EQ(groupedPair("bf16[64,256]{0,1}", "bf16[64,256]{1,0:T(8,128)(2,1)}"),
            "2 0 u32[32,256]{0,1} -> u32[32,256]{1,0:T(4,128)}");
  EXPECT_EQ(groupedPair("bf16[256,256]{1,0:T(8,128)(2,1)}",
                        "bf16[256,256]{0,1:T(8,128)}"),
            "2 0 u32[128,256]{1,0:T(4,128)} -> u32[128,256]{0,1:T(8,64)}");
  // 8-bit quads, 32-bit groups first; pairs when only (2,1) groups.
  EXPECT_EQ(groupedPair("s8[64,256]{1,0:T(32,128)(4,1)}", "s8[64,256]{0,1}"),
            "4 0 u32[16,256]{1,0:T(8,128)} -> u32[16,256]{0,1}");
  EXPECT_EQ(groupedPair("u8[64,256]{1,0:T(8,128)(2,1)}", "u8[64,256]{0,1}"),
            "2 0 u16[32,256]{1,0:T(4,128)} -> u16[32,256]{0,1}");
  // Not grouped: no sub-tile on either side (two minor forms along
  // different dims: a plain transpose), groups along different dims
  // (row-major against sub-tiles: the interleave), an odd row count,
  // PRED (i1 in memrefs), 32-bit elements, different element types.
  EXPECT_EQ(groupedPair("bf16[64,256]{1,0}", "bf16[64,256]{0,1}"), "none");
  EXPECT_EQ(groupedPair("bf16[64,256]{1,0}", "bf16[64,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(groupedPair("bf16[63,256]{0,1}", "bf16[63,256]{1,0:T(8,128)(2,1)}"),
            "none");
  // An odd row count that both layouts pad: grouped, the last pair's
  // padding slots moved along.
  EXPECT_EQ(groupedPair("bf16[63,256]{0,1:T(8,128)}",
                        "bf16[63,256]{1,0:T(8,128)(2,1)}"),
            "2 0 u32[32,256]{0,1:T(8,64)} -> u32[32,256]{1,0:T(4,128)}");
  EXPECT_EQ(groupRelayout(parse("bf16[63,256]{1,0:T(8,128)(2,1)}"),
                          parse("bf16[63,256]{0,1:T(8,128)}"))
                ->dest.tailSlots,
            1);
  // Nor below 16 (k - 1) elements along the groups' dim (the tail slots,
  // rewritten one by one, would be more than 1/16 of the slots).
  EXPECT_EQ(groupedPair("bf16[15,256]{0,1:T(8,128)}",
                        "bf16[15,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(groupedPair("bf16[17,256]{0,1:T(8,128)}",
                        "bf16[17,256]{1,0:T(8,128)(2,1)}"),
            "2 0 u32[9,256]{0,1:T(8,64)} -> u32[9,256]{1,0:T(4,128)}");
  // Not between two equal layouts (a copy in the same byte order).
  EXPECT_EQ(groupedPair("bf16[63,256]{1,0:T(8,128)(2,1)}",
                        "bf16[63,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(groupedPair("bf16[64,256]{1,0:T(8,128)(2,1)}",
                        "bf16[64,256]{1,0:T(8,128)(2,1)}"),
            "2 0 u32[32,256]{1,0:T(4,128)} -> u32[32,256]{1,0:T(4,128)}");
  EXPECT_EQ(groupedPair("pred[64,256]{0,1}", "pred[64,256]{1,0:T(8,128)(4,1)}"),
            "none");
  EXPECT_EQ(groupedPair("f32[64,256]{0,1}", "f32[64,256]{1,0:T(8,128)(2,1)}"),
            "none");
  EXPECT_EQ(groupedPair("f16[64,256]{0,1}", "bf16[64,256]{1,0:T(8,128)(2,1)}"),
            "none");
}

TEST(ElementGroups, GroupedSlotsMatchOnGeneratedLayouts) {
  RandomLayoutGenerator gen({/*seed=*/20261129, /*minRank=*/1,
                             /*maxRank=*/4, /*maxDim=*/8,
                             /*tailPadding=*/true, /*maxAllocated=*/6000});
  int64_t matched = 0, subTiles = 0, tails = 0;
  for (int i = 0; i < 3000; ++i) {
    Shape shape = gen.next();
    // Half of them get a sub-tile level (a, 1) under their tiles.
    if (i % 2 && shape.getRank() >= 2) {
      Layout layout = shape.getLayout();
      size_t above = layout.getTiles().empty()
                         ? shape.getRank()
                         : layout.getTiles().back().getDims().size();
      if (above >= 2) {
        layout.mutableTiles().push_back(Tile({gen.uniform(1, 2) * 2, 1}));
        Shape withSub =
            Shape::makeArray(PrimitiveType::F32, shape.getDims(), layout);
        llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(withSub);
        if (map)
          shape = withSub;
        else
          llvm::consumeError(map.takeError());
      }
    }
    for (auto [type, k] : {std::pair{PrimitiveType::BF16, int64_t{2}},
                           std::pair{PrimitiveType::S8, int64_t{4}},
                           std::pair{PrimitiveType::S8, int64_t{2}},
                           std::pair{PrimitiveType::F32, int64_t{2}}}) {
      Shape typed = shape;
      typed.setElementType(type);
      std::optional<ElementGroups> groups = groupElements(typed, k);
      if (!groups)
        continue;
      ++matched;
      subTiles += groups->subTile;
      tails += groups->tailSlots > 0;
      EXPECT_EQ(groups->shape.getDim(groups->dim) * k,
                typed.getDim(groups->dim) + groups->tailSlots);
      expectExactGroups(typed, *groups, k);
      if (testing::Test::HasFatalFailure())
        return;
    }
  }
  // The property is not vacuous: both forms were grouped many times.
  EXPECT_GT(matched, 500);
  EXPECT_GT(subTiles, 100);
  EXPECT_GT(tails, 20);
}

} // namespace
