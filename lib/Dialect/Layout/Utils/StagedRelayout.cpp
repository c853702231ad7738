//===- StagedRelayout.cpp - Relayouts through an intermediate layout ------===//

#include "layout/Dialect/Layout/Utils/StagedRelayout.h"
#include "layout/Xla/StagingLayout.h"

using namespace mlir;
using namespace mlir::layout;

std::optional<TiledLayoutAttr>
mlir::layout::getStagingLayout(MemRefType source, MemRefType dest,
                               int64_t vectorBytes) {
  // The memory space of an identity memref is not in its XLA layout.
  if (source.getMemorySpace() != dest.getMemorySpace() ||
      !source.getElementType().isIntOrFloat() ||
      source.getElementType() != dest.getElementType())
    return std::nullopt;
  std::optional<Shape> from = getStorageShape(source);
  std::optional<Shape> to = getStorageShape(dest);
  if (!from || !to)
    return std::nullopt;
  std::optional<Layout> staging = getStagingLayout(*from, *to);
  if (!staging && 8 * vectorBytes < kInterleavedStoreTileBits &&
      getInterleavedStores(*from, *to)) {
    staging = to->getLayout();
    staging->mutableTiles().pop_back();
  }
  if (!staging)
    return std::nullopt;
  return TiledLayoutAttr::get(source.getContext(), *staging);
}
