//===- ElementGroups.cpp - k elements of a layout as one wider element ----===//
//
// The two forms and why each is exact: include/layout/Xla/ElementGroups.h.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/ElementGroups.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <limits>

using namespace mlir::layout;

std::optional<ElementGroups> mlir::layout::groupElements(const Shape &shape,
                                                         int64_t k) {
  if (k < 2 || !shape.isArray() || !shape.isStatic() || !shape.hasLayout())
    return std::nullopt;
  int64_t bits = primitiveTypeBitWidth(shape.getElementType());
  if (bits % 8 != 0)
    return std::nullopt;
  std::optional<PrimitiveType> grouped = unsignedTypeOfBitWidth(bits * k);
  if (!grouped)
    return std::nullopt;
  const Layout &layout = shape.getLayout();
  if (layout.isSparse() || !layout.getSplitConfigs().empty() ||
      !layout.getPaddedDimensions().empty() ||
      layout.getTailPaddingAlignment() != 1 ||
      (layout.getElementSizeInBits() != 0 &&
       layout.getElementSizeInBits() != bits) ||
      layout.getDynamicShapeMetadataPrefixBytes() != 0 ||
      layout.getPaddingValue() != PaddingValue::Invalid)
    return std::nullopt;
  int64_t rank = shape.getRank();
  llvm::ArrayRef<Tile> tiles = layout.getTiles();
  // Each level applies to the minor dims of the one above it (the first
  // to the shape's physical dims): no level reaches past them.
  size_t above = static_cast<size_t>(rank);
  for (const Tile &tile : tiles) {
    if (tile.hasCombine() || tile.getDims().empty() ||
        tile.getDims().size() > above)
      return std::nullopt;
    above = tile.getDims().size();
  }
  bool subTile = !tiles.empty() && tiles.back().getDims().back() == 1;
  // The entry of each level that the groups' digit runs through: the last
  // (minor) or the second to last (sub-tile).
  size_t fromEnd = subTile ? 2 : 1;
  if (rank < static_cast<int64_t>(fromEnd))
    return std::nullopt;
  int64_t dim = layout.getMinorToMajor(fromEnd - 1);
  // An extent that is not a multiple of k groups when the layout pads the
  // dim to one anyway: the shape rounded up has the same physical dims (so
  // the same slots for every element), and the last group's slots past
  // the array are padding slots of both.
  llvm::SmallVector<int64_t, 6> dims(shape.getDims());
  int64_t tailSlots = dims[dim] % k == 0 ? 0 : k - dims[dim] % k;
  if (tailSlots != 0) {
    // (An extent near INT64_MAX has no rounded shape.)
    if (dims[dim] > std::numeric_limits<int64_t>::max() - tailSlots)
      return std::nullopt;
    Shape rounded = getRoundedShape(shape, dim, tailSlots);
    dims.assign(rounded.getDims().begin(), rounded.getDims().end());
    llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
    llvm::Expected<TiledLayoutMap> roundedMap = TiledLayoutMap::get(rounded);
    bool samePhysical =
        map && roundedMap &&
        map->getPhysicalDims() == roundedMap->getPhysicalDims() &&
        map->getAllocatedBytes() == roundedMap->getAllocatedBytes();
    if (!map)
      llvm::consumeError(map.takeError());
    if (!roundedMap)
      llvm::consumeError(roundedMap.takeError());
    if (!samePhysical)
      return std::nullopt;
  }
  Layout groupedLayout = layout;
  groupedLayout.setElementSizeInBits(0);
  for (Tile &tile : groupedLayout.mutableTiles()) {
    llvm::ArrayRef<int64_t> dims = tile.getDims();
    if (dims.size() < fromEnd || dims[dims.size() - fromEnd] % k != 0)
      return std::nullopt;
    llvm::SmallVector<int64_t, 4> divided(dims);
    divided[dims.size() - fromEnd] /= k;
    tile = Tile(divided);
  }
  // A last level of ones (the sub-tile was one group) moves nothing.
  if (subTile && llvm::all_of(groupedLayout.getTiles().back().getDims(),
                              [](int64_t d) { return d == 1; }))
    groupedLayout.mutableTiles().pop_back();
  dims[dim] /= k;
  return ElementGroups{Shape::makeArray(*grouped, dims, groupedLayout), dim,
                       subTile, tailSlots};
}

Shape mlir::layout::getRoundedShape(const Shape &shape, int64_t dim,
                                    int64_t tailSlots) {
  assert(dim >= 0 && dim < shape.getRank() && "a dim of the shape");
  llvm::SmallVector<int64_t, 6> dims(shape.getDims());
  dims[dim] += tailSlots;
  return Shape::makeArray(shape.getElementType(), dims, shape.getLayout());
}

/// groupRelayout groups an odd extent n_d only when n_d >= this times
/// (k - 1): the tail slots' rewrite touches at most 1/16 of the slots.
static constexpr int64_t kMinTailGroupedExtentPerSlot = 16;

std::optional<GroupedRelayout> mlir::layout::groupRelayout(const Shape &source,
                                                           const Shape &dest) {
  if (!source.isArray() || !dest.isArray() ||
      source.getElementType() != dest.getElementType() ||
      source.getElementType() == PrimitiveType::Pred ||
      source.getDims() != dest.getDims())
    return std::nullopt;
  int64_t bits = primitiveTypeBitWidth(source.getElementType());
  if (bits != 8 && bits != 16)
    return std::nullopt;
  llvm::SmallVector<int64_t, 2> candidates = {32 / bits};
  if (bits == 8)
    candidates.push_back(2);
  for (int64_t k : candidates) {
    std::optional<ElementGroups> from = groupElements(source, k);
    std::optional<ElementGroups> to = groupElements(dest, k);
    // (An odd extent between two equal layouts is a copy in the same
    // byte order: its own kernels move whole vectors, without the tail
    // slots' second pass.)
    if (from && to && from->tailSlots > 0 &&
        source.getLayout() == dest.getLayout())
      continue;
    // (The tail slots are rewritten one by one afterwards, (k - 1) / n_d of
    // the slots: past 1/16 of them, at n_d < 16 (k - 1), the groups are not
    // taken. The bound is a choice, not a measurement.)
    if (from && from->tailSlots > 0 &&
        source.getDim(from->dim) < kMinTailGroupedExtentPerSlot * (k - 1))
      continue;
    if (from && to && from->dim == to->dim && (from->subTile || to->subTile))
      return GroupedRelayout{k, std::move(*from), std::move(*to)};
  }
  return std::nullopt;
}
