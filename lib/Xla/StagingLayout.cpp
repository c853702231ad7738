//===- StagingLayout.cpp - Relayouts through an intermediate layout -------===//
//
// When a sub-tiled relayout is staged: include/layout/Xla/StagingLayout.h.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/StagingLayout.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir::layout;

/// Whether `layout` is sub-tiled as getStagingLayout requires.
static bool isSubTiled(const Layout &layout) {
  llvm::ArrayRef<Tile> tiles = layout.getTiles();
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

int64_t mlir::layout::getInterleavedRuns(const Shape &source,
                                         const Shape &dest) {
  if (!source.isArray() || !dest.isArray() || !source.hasLayout() ||
      !dest.hasLayout() || source.getRank() < 2 ||
      source.getDims() != dest.getDims())
    return 0;
  const Layout &from = source.getLayout(), &to = dest.getLayout();
  if (!isSubTiled(from) || !to.getTiles().empty() ||
      to.getMinorToMajor(0) != from.getMinorToMajor(1))
    return 0;
  const Tile &last = from.getTiles().back();
  const Tile &before = from.getTiles()[from.getTiles().size() - 2];
  if (last.size() != 2 || last.getDim(1) != 1 || before.size() < 2)
    return 0;
  // The kernel reads blocks of V >= 4 q rows and columns (runs short
  // against the block), V a power of two within the tile's columns and
  // both extents: V 16 for 16-bit elements and 16 or 32 for 8-bit ones on
  // AVX2 and AVX-512, so runs of at most 32 bits (bf16 pairs, 8-bit
  // quads); otherwise the staged pair keeps its vector kernels.
  int64_t q = last.getDim(0);
  int64_t bits = primitiveTypeBitWidth(source.getElementType());
  int64_t columns = before.getDim(before.size() - 1);
  if (q < 2 || q * bits > kMaxInterleavedRunBits || columns % (4 * q) != 0 ||
      source.getDim(from.getMinorToMajor(0)) < 4 * q ||
      source.getDim(from.getMinorToMajor(1)) < 4 * q)
    return 0;
  return q;
}

int64_t mlir::layout::getInterleavedStores(const Shape &source,
                                           const Shape &dest) {
  if (!source.isArray() || !dest.isArray() || !source.hasLayout() ||
      !dest.hasLayout() || !source.isStatic() || !dest.isStatic() ||
      source.getRank() < 2 || source.getDims() != dest.getDims() ||
      source.getElementType() != dest.getElementType() ||
      source.getElementType() == PrimitiveType::Pred)
    return 0;
  const Layout &from = source.getLayout(), &to = dest.getLayout();
  if (!isSubTiled(to) || !from.getTiles().empty() ||
      !from.getPaddedDimensions().empty() ||
      from.getTailPaddingAlignment() != 1 || from.getElementSizeInBits() != 0 ||
      from.isSparse() || !from.getSplitConfigs().empty() ||
      from.getMinorToMajor(0) != to.getMinorToMajor(1))
    return 0;
  llvm::ArrayRef<Tile> tiles = to.getTiles();
  const Tile &last = tiles.back(), &before = tiles[tiles.size() - 2];
  if (tiles.size() != 2 || last.size() != 2 || last.getDim(1) != 1 ||
      before.size() != 2)
    return 0;
  // The kernel builds the rows of the tile before the last one (the
  // staging layout's) in blocks whose first row is a multiple of their
  // side V (a power of two, q or more: a run never straddles two blocks),
  // merged across two or more tiles of a power-of-two number of rows that
  // a 32-byte vector holds (TileRowBlocks.cpp: no more rows than lanes,
  // AVX2's included), and stores each run of q consecutive rows (one tile,
  // one run) interleaved; its aligned stores need tile rows of whole
  // 64-byte lines, and its planes at least 4 rows (4 q: a block of
  // several runs) and 16 columns.
  int64_t q = last.getDim(0);
  int64_t bits = primitiveTypeBitWidth(source.getElementType());
  int64_t rows = before.getDim(0), columns = before.getDim(1);
  int64_t sizeK = source.getDim(to.getMinorToMajor(1));
  if (q < 2 || q * bits > kMaxInterleavedRunBits || (bits != 8 && bits != 16) ||
      !llvm::isPowerOf2_64(rows) || rows % q != 0 ||
      rows * bits > kInterleavedStoreTileBits || (columns * bits) % 512 != 0 ||
      source.getDim(to.getMinorToMajor(0)) < kMinInterleavedStoreColumns ||
      sizeK <= rows || sizeK < 4 * q)
    return 0;
  return q;
}

std::optional<Layout> mlir::layout::getStagingLayout(const Shape &source,
                                                     const Shape &dest) {
  if (!source.isArray() || !dest.isArray() || !source.isStatic() ||
      !dest.isStatic() || !source.hasLayout() || !dest.hasLayout() ||
      source.getDims() != dest.getDims() || source.getRank() < 2 ||
      source.getElementType() != dest.getElementType() ||
      source.getElementType() == PrimitiveType::Pred)
    return std::nullopt;
  int64_t bits = primitiveTypeBitWidth(source.getElementType());
  if (bits != 8 && bits != 16)
    return std::nullopt;
  const Layout &from = source.getLayout(), &to = dest.getLayout();
  // A copy into another memory space is one kernel (the lowering stages
  // within one memory space only).
  if (from.getMemorySpace() != to.getMemorySpace())
    return std::nullopt;
  bool subFrom = isSubTiled(from), subTo = isSubTiled(to);
  if (subFrom == subTo)
    return std::nullopt;
  Layout staging = subFrom ? from : to;
  staging.mutableTiles().pop_back();
  if (subTo && from.getMinorToMajor(0) == to.getMinorToMajor(0))
    return std::nullopt; // rows along the sub-tiles: interleaved rows
  if (subFrom && to == staging)
    return std::nullopt; // the second step itself
  // Destination rows read strided out of the sub-tiles, whole lines or
  // not: one pass measured faster than the staged pair also for odd rows
  // (docs/performance.md, "Sub-tiles into odd rows in one pass").
  if (subFrom && from.getMinorToMajor(0) == to.getMinorToMajor(0))
    return std::nullopt;
  // Untiled transposed rows: blocked transposes of interleaved runs, read
  // or stored.
  if (getInterleavedRuns(source, dest) || getInterleavedStores(source, dest))
    return std::nullopt;
  return staging;
}
