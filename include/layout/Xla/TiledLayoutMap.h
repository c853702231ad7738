//===- TiledLayoutMap.h - The exact tiled index map -------------*- C++ -*-===//
//
// Semantics: docs/semantics.md §3.
//
// Maps a logical multi-index of an array shape to its physical position, with
// every part of XLA's documented layout semantics: legacy padded dimensions,
// minor_to_major, every tile level (repeated tiling), `*` combines, and `L`
// tail padding. XLA's own LayoutUtil::LinearIndex / ShapeUtil::ArraySize look
// at the first tile only; those are kept as `xla*` compatibility functions.
//
// The algorithm, on (dims d, index e), most-major first:
//   0. legacy padding: d[i] = padded_dimensions[i] (logical order);
//   1. physical order: P = [d[m[n-1]], ..., d[m[0]]] (m = minor_to_major);
//   2. per tile level: prepend size-1 dims if the tile is longer than the
//      shape; align the tile to the minor suffix; combine `*` groups
//      (size = product, index linearized row-major); then split every tiled
//      dim i into (ceil(d_i/t_i), t_i) and move the t_i to the minor end.
//   3. linear index = row-major index in the final shape; allocated elements =
//      product of the final shape rounded up to a multiple of L.
//
// The map is a plan (a list of `TileLevel`s) that can be applied to integers
// or to any index algebra (affine expressions, arith values): see `apply`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_TILEDLAYOUTMAP_H
#define LAYOUT_XLA_TILEDLAYOUTMAP_H

#include "layout/Xla/Shape.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace mlir::layout {

/// One tiling level of the plan, in terms of the shape it applies to.
struct TileLevel {
  /// Shape before this level, after prepending size-1 dims (most-major first).
  llvm::SmallVector<int64_t, 6> inputDims;
  /// How many size-1 dims were prepended to the previous level's output.
  int64_t numPrependedDims = 0;
  /// Dims of `inputDims` merged by `*`: each group [begin, end) of input dims
  /// becomes one dim, in order. Dims outside any group form singleton groups.
  /// `groups.size() == tile.size()` + number of leading untouched dims.
  llvm::SmallVector<std::pair<int64_t, int64_t>, 6> groups;
  /// Dims after combining (one per group).
  llvm::SmallVector<int64_t, 6> combinedDims;
  /// Tile sizes (no `*`), aligned to the minor suffix of `combinedDims`.
  llvm::SmallVector<int64_t, 6> tile;
  /// Output: leading dims ++ ceil(d_i / t_i) ++ t_i.
  llvm::SmallVector<int64_t, 6> outputDims;
};

/// The index algebra `TiledLayoutMap::apply` runs on. Indices are
/// non-negative, so floorDiv and mod are plain division and remainder.
/// Implementations: `IntegerIndexOps` below; the dialect builds AffineExprs.
template <typename T> struct IndexOpsInterface {
  T constant(int64_t value);
  T add(T lhs, T rhs);
  T mul(T lhs, int64_t rhs);
  T floorDiv(T lhs, int64_t rhs);
  T mod(T lhs, int64_t rhs);
};

struct IntegerIndexOps {
  int64_t constant(int64_t v) { return v; }
  int64_t add(int64_t a, int64_t b) { return a + b; }
  int64_t mul(int64_t a, int64_t b) { return a * b; }
  int64_t floorDiv(int64_t a, int64_t b) { return a / b; }
  int64_t mod(int64_t a, int64_t b) { return a % b; }
};

/// The complete logical -> physical map of one array shape and layout.
///
/// Pre: built by `get` from a shape for which `validateShape` succeeds.
/// Post: `getPhysicalDims()` are all > 0 or a dim is 0 only if the shape has
/// no elements; `getAllocatedElements() >= getElementCount()`; `linearIndex`
/// is injective on in-bounds indices and lands in [0, allocated elements).
class TiledLayoutMap {
public:
  /// Builds the plan. Errors: invalid shape (validateShape's message),
  /// non-array shape, unbounded dims (unless `allowDynamic`), a size that
  /// overflows int64 (naming the shape). With `allowDynamic`, unbounded dims
  /// propagate as kUnboundedSize through ceil-division and combines; a `*`
  /// combine that needs a dynamic inner size is an error (the index
  /// expression would need it), as is legacy padding of a dynamic dim.
  static llvm::Expected<TiledLayoutMap> get(const Shape &shape,
                                            bool allowDynamic = false);

  /// Logical dims (logical order), as given.
  llvm::ArrayRef<int64_t> getLogicalDims() const { return logicalDims; }
  /// Dims after legacy padding (logical order).
  llvm::ArrayRef<int64_t> getPaddedDims() const { return paddedDims; }
  llvm::ArrayRef<int64_t> getMinorToMajor() const { return minorToMajor; }
  /// Dims in physical order (most-major first), before tiling.
  llvm::ArrayRef<int64_t> getPermutedDims() const { return permutedDims; }
  /// The tile levels, in order.
  llvm::ArrayRef<TileLevel> getLevels() const { return levels; }
  /// The final tiled shape (most-major first); the buffer is row-major in it.
  llvm::ArrayRef<int64_t> getPhysicalDims() const { return physicalDims; }

  /// Number of logical elements (static maps only).
  int64_t getElementCount() const { return elementCount; }
  /// Product of the physical dims (before L).
  int64_t getPhysicalElementCount() const { return physicalElementCount; }
  /// Product of the physical dims rounded up to a multiple of L.
  int64_t getAllocatedElements() const { return allocatedElements; }
  /// True if some slot of the physical dims holds no logical element (tile
  /// padding or legacy padding; the L tail slack is not counted). With
  /// dynamic sizes: true if padding exists for some value of them.
  bool mayHavePaddingSlots() const;
  /// ceil(allocated elements * element bits / 8), element bits = E(n) if set,
  /// else the type's bit width rounded up to whole bytes when E is 0.
  int64_t getAllocatedBytes() const { return allocatedBytes; }
  bool isStatic() const { return staticMap; }
  /// True if every physical index depends on at most one logical index (no
  /// `*` combines indices of two logical dims of size > 1; sufficient, not
  /// necessary: a `*` over a digit that is always 0 also counts): then
  /// linearIndex(e) = sum_d f_d(e_d) with f_d(0) = 0, and two such maps
  /// agree on every element iff they agree along every axis (sum of the
  /// dims evaluations instead of their product; LayoutCanonical.cpp).
  bool isSeparable() const;

  /// Applies the map to a logical index expressed in any index algebra:
  /// returns the index in `getPhysicalDims()` coordinates.
  template <typename T, typename Ops>
  llvm::SmallVector<T, 6> apply(llvm::ArrayRef<T> logicalIndex, Ops &ops) const;

  /// Physical multi-index of an in-bounds logical index.
  /// Pre: index.size() == rank and 0 <= index[i] < logical dim i.
  llvm::SmallVector<int64_t, 6>
  physicalIndex(llvm::ArrayRef<int64_t> logicalIndex) const;

  /// Linear (element) position of an in-bounds logical index.
  /// Pre: as physicalIndex; static map.
  int64_t linearIndex(llvm::ArrayRef<int64_t> logicalIndex) const;

  /// Checked variant: errors name the out-of-range index.
  llvm::Expected<int64_t>
  checkedLinearIndex(llvm::ArrayRef<int64_t> logicalIndex) const;

  /// The logical index stored at physical slot `linear`, or std::nullopt for
  /// a padding slot (tile padding, legacy padding, or L tail padding).
  /// Pre: 0 <= linear < getAllocatedElements(); static map.
  std::optional<llvm::SmallVector<int64_t, 6>>
  logicalIndex(int64_t linear) const;

private:
  llvm::SmallVector<int64_t, 6> logicalDims, paddedDims, minorToMajor,
      permutedDims, physicalDims;
  llvm::SmallVector<TileLevel, 2> levels;
  int64_t elementCount = 0, physicalElementCount = 0, allocatedElements = 0,
          allocatedBytes = 0;
  bool staticMap = true;
};

template <typename T, typename Ops>
llvm::SmallVector<T, 6> TiledLayoutMap::apply(llvm::ArrayRef<T> logicalIndex,
                                              Ops &ops) const {
  // Physical order, most-major first.
  llvm::SmallVector<T, 6> index;
  int64_t rank = static_cast<int64_t>(minorToMajor.size());
  for (int64_t i = rank - 1; i >= 0; --i)
    index.push_back(logicalIndex[minorToMajor[i]]);
  for (const TileLevel &level : levels) {
    llvm::SmallVector<T, 6> prepended;
    for (int64_t i = 0; i < level.numPrependedDims; ++i)
      prepended.push_back(ops.constant(0));
    prepended.append(index.begin(), index.end());
    // Combine `*` groups: row-major linearization within the group.
    llvm::SmallVector<T, 6> combined;
    for (auto [begin, end] : level.groups) {
      T value = prepended[begin];
      for (int64_t d = begin + 1; d < end; ++d)
        value = ops.add(ops.mul(value, level.inputDims[d]), prepended[d]);
      combined.push_back(value);
    }
    // Tile the minor suffix.
    int64_t numLeading =
        static_cast<int64_t>(combined.size() - level.tile.size());
    llvm::SmallVector<T, 6> next(combined.begin(),
                                 combined.begin() + numLeading);
    for (size_t i = 0; i < level.tile.size(); ++i)
      next.push_back(ops.floorDiv(combined[numLeading + i], level.tile[i]));
    for (size_t i = 0; i < level.tile.size(); ++i)
      next.push_back(ops.mod(combined[numLeading + i], level.tile[i]));
    index = std::move(next);
  }
  return index;
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

/// Allocated elements (product of the physical dims rounded to L) of an
/// array shape; errors as TiledLayoutMap::get.
llvm::Expected<int64_t> getAllocatedElements(const Shape &shape);
/// Allocated bytes: ceil(allocated elements * element bits / 8) with E(n);
/// whole bytes per element when E is 0. For tuples: XLA's pointer-size
/// (8 bytes) per element, like ByteSizeOf.
llvm::Expected<int64_t> getAllocatedBytes(const Shape &shape);

//===----------------------------------------------------------------------===//
// XLA compatibility (first tile only / tiles ignored), named as such
//===----------------------------------------------------------------------===//

/// XLA's LayoutUtil::LinearIndex: uses minor_to_major and the first tile
/// only (later tiles ignored), without `*` support. Errors on out-of-range
/// indices and on a first tile containing `*`.
llvm::Expected<int64_t> xlaLinearIndex(const Shape &shape,
                                       llvm::ArrayRef<int64_t> index);
/// XLA's ShapeUtil::ArraySize: product of the dims padded to the first
/// tile's multiples (first tile only), times the element byte size (or
/// E(n) bits), rounded to L as XLA does.
llvm::Expected<int64_t> xlaArraySize(const Shape &shape);
/// XLA's ShapeUtil::ByteSizeOf: element count * byte width, tiles ignored;
/// tuples: 8 bytes per element pointer; token/opaque: 0.
llvm::Expected<int64_t> xlaByteSizeOf(const Shape &shape);

} // namespace mlir::layout

#endif // LAYOUT_XLA_TILEDLAYOUTMAP_H
