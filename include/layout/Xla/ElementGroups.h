//===- ElementGroups.h - k elements as one wider element --------*- C++ -*-===//
//
// A layout groups k elements when, for one logical dim d with k | n_d (or
// whose padding rounds n_d up to a multiple of k: ElementGroups::tailSlots),
// the elements e and e + j u_d (j < k, e_d a multiple of k) always sit in
// k consecutive slots, the first at a multiple of k: the buffer is then
// also the buffer of a shape whose dim d is ceil(n_d / k), whose element
// is the k elements' bits (an unsigned integer of k times the width), under a
// layout derived from the original (groupElements). Two layouts of one
// shape that group along the same dim relayout as their groups: a bf16
// `{0,1}` -> `{1,0:T(8,128)(2,1)}` (whose (2,1) sub-tiles hold row pairs)
// is the u32 relayout `{0,1}` -> `{1,0:T(4,128)}` of half as many rows,
// one transpose of 32-bit units instead of a transpose and an interleave.
//
// Two forms are recognized, each exact by construction (unit-tested
// against TiledLayoutMap on random layouts):
//   minor     the innermost physical dim runs along d = minor_to_major[0]:
//             untiled, or every tile level's last entry is a multiple of
//             k; each of those entries is divided by k (`T(8,128)` on
//             bf16 -> `T(8,64)` on u32);
//   sub-tile  the last tile level ends in (a, 1) with k | a: the innermost
//             physical dim has extent 1 and the one above runs along d =
//             minor_to_major[1] (every level has >= 2 entries); each
//             level's second-to-last entry is divided by k and a last
//             level of ones is dropped (`T(8,128)(2,1)` -> `T(4,128)`).
// Only dense layouts without `*`, E(n), legacy padding, L(n), M(n), split
// configs or a padding value other than the default are grouped.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_ELEMENTGROUPS_H
#define LAYOUT_XLA_ELEMENTGROUPS_H

#include "layout/Xla/Shape.h"

#include <cstdint>
#include <optional>

namespace mlir::layout {

struct ElementGroups {
  /// The shape of the groups: dim `dim` divided by k, element type the
  /// unsigned integer of k times the element's bits.
  Shape shape;
  /// The logical dim the groups run along.
  int64_t dim = 0;
  /// Which form (see above) matched.
  bool subTile = false;
  /// Slots of the last group along `dim` past the array: n_d rounded up to
  /// a multiple of k minus n_d, where the layout pads dim d to that
  /// multiple anyway (a tile entry along it, `bf16[4093,4099]` in
  /// `T(8,128)(2,1)`); `shape` covers them as elements. They are padding
  /// slots: a relayout of the groups writes them from the source's and
  /// must then write the padding value into them (GroupedRelayout.cpp).
  int64_t tailSlots = 0;
};

/// The groups of `k` elements of `shape` (a static array shape with a
/// layout), or std::nullopt when its layout does not group k elements in
/// either form, k < 2, or k times the element width is not 16, 32 or 64
/// bits.
std::optional<ElementGroups> groupElements(const Shape &shape, int64_t k);

/// `shape` with its dim `dim` longer by `tailSlots` (ElementGroups::
/// tailSlots): the shape whose map has the same physical dims and covers
/// the last group's padding slots as elements. The caller checks that the
/// extent does not overflow (groupElements does).
Shape getRoundedShape(const Shape &shape, int64_t dim, int64_t tailSlots);

/// A relayout as the relayout of its element groups.
struct GroupedRelayout {
  /// Elements per group.
  int64_t k = 0;
  ElementGroups source, dest;
};

/// The relayout `source` -> `dest` (static arrays of the same dims and
/// element type, 8 or 16 bits, not PRED: memrefs hold it as i1) as the
/// relayout of k-element groups, when both layouts group k elements along
/// the same dim and at least one of them through a sub-tile: the crossing
/// pairs whose element kernels need a transpose and an interleave (two
/// layouts in the minor form are grouped by neither side's sub-tiles and
/// keep their element kernels). 32-bit groups are tried first, then, for
/// 8-bit elements, pairs; an odd extent along the groups' dim when both
/// layouts pad it to a multiple of k (equal tailSlots: the groups move the
/// padding slots of the last group too), differ, and n_d >= 16 (k - 1) (the
/// tail slots, rewritten one by one, at most 1/16 of the slots).
/// std::nullopt otherwise.
/// The planner (planRelayout) and the lowering (GroupedRelayout.cpp) both
/// decide with this function, so the plan names the kernel that runs.
std::optional<GroupedRelayout> groupRelayout(const Shape &source,
                                             const Shape &dest);

} // namespace mlir::layout

#endif // LAYOUT_XLA_ELEMENTGROUPS_H
