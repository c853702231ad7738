//===- StagedRelayout.cpp - Relayouts through an intermediate layout ------===//

#include "layout/Dialect/Layout/Utils/StagedRelayout.h"

using namespace mlir;
using namespace mlir::layout;

/// Whether `layout` is sub-tiled as getStagingLayout requires.
static bool isSubTiled(const Layout &layout) {
  ArrayRef<Tile> tiles = layout.getTiles();
  if (tiles.size() < 2 || !layout.getPaddedDimensions().empty() ||
      layout.getTailPaddingAlignment() != 1 ||
      layout.getElementSizeInBits() != 0 || layout.isSparse() ||
      !layout.getSplitConfigs().empty())
    return false;
  for (const Tile &tile : tiles)
    if (tile.hasCombine())
      return false;
  // The last tile divides the minor end of the one before: dropping it
  // leaves the same padding slots.
  const Tile &last = tiles.back(), &before = tiles[tiles.size() - 2];
  if (last.size() > before.size())
    return false;
  size_t shift = before.size() - last.size();
  for (size_t i = 0; i < last.size(); ++i)
    if (last.getDim(i) <= 0 || before.getDim(shift + i) % last.getDim(i) != 0)
      return false;
  return true;
}

/// The bytes of one row of `layout`'s innermost physical dim for `type`'s
/// shape, or 0 when it is not a static positive size.
static int64_t getPhysicalRowBytes(const Layout &layout, MemRefType type) {
  int64_t elements = 0;
  if (layout.getTiles().empty()) {
    elements = type.getDimSize(layout.getMinorToMajor(0));
  } else {
    const Tile &last = layout.getTiles().back();
    elements = last.getDim(last.size() - 1);
  }
  if (elements <= 0)
    return 0;
  return elements * type.getElementTypeBitWidth() / 8;
}

std::optional<TiledLayoutAttr> mlir::layout::getStagingLayout(MemRefType source,
                                                              MemRefType dest) {
  if (!source.hasStaticShape() || !dest.hasStaticShape() ||
      source.getShape() != dest.getShape() || source.getRank() < 2 ||
      source.getElementType() != dest.getElementType() ||
      source.getMemorySpace() != dest.getMemorySpace())
    return std::nullopt;
  Type element = source.getElementType();
  if (!element.isIntOrFloat() || (element.getIntOrFloatBitWidth() != 8 &&
                                  element.getIntOrFloatBitWidth() != 16))
    return std::nullopt;
  std::optional<Layout> from = getXlaLayout(source), to = getXlaLayout(dest);
  if (!from || !to)
    return std::nullopt;
  bool subFrom = isSubTiled(*from), subTo = isSubTiled(*to);
  if (subFrom == subTo)
    return std::nullopt;
  Layout staging = subFrom ? *from : *to;
  staging.mutableTiles().pop_back();
  if (subTo && from->getMinorToMajor(0) == to->getMinorToMajor(0))
    return std::nullopt; // rows along the sub-tiles: interleaved rows
  if (subFrom && *to == staging)
    return std::nullopt; // the second step itself
  if (subFrom && from->getMinorToMajor(0) == to->getMinorToMajor(0) &&
      getPhysicalRowBytes(*to, dest) % 64 == 0)
    return std::nullopt; // destination lines read strided from the sub-tiles
  return TiledLayoutAttr::get(source.getContext(), staging);
}
