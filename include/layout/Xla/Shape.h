//===- Shape.h - XLA shapes and layouts as value types ----------*- C++ -*-===//
//
// XLA's Shape and Layout (docs/semantics.md §1, §2) as plain value types, with
// the HLO text syntax (docs/semantics.md §4) and layout validation. No IR
// dependency: LLVM ADT/Support only.
//
// A tour:
//
//   Expected<Shape> s = parseShape("f32[3,5]{1,0:T(2,2)}");
//   // s->getElementType() == PrimitiveType::F32, s->getDims() == {3, 5}
//   // s->getLayout().getMinorToMajor() == {1, 0}
//   // s->getLayout().getTiles()[0].getDims() == {2, 2}
//   printShape(*s) == "f32[3,5]{1,0:T(2,2)}"
//
// Conventions and invariants:
// - A parsed or `make*`-built array shape always has a layout (a missing
//   `{...}` means the default, row-major layout); a tuple, token or opaque
//   shape has none.
// - Values are not validated on construction: `validateShape` (XLA's
//   ValidateShape + ValidateLayoutForShape) is the one invariant checker, and
//   every function that needs a valid shape says so as a precondition. The
//   parser validates what it returns.
// - Dimension sizes: `kUnboundedSize` for `?`; for `<=N` the size is N and
//   `isDynamicDim(i)` is true.
//
// Legacy padding text form (XLA's legacy `padded_dimensions` and
// `padding_value`, not in XLA's text syntax): two attributes after `M(n)`:
//   `PAD(d0,d1,...)`   padded size per logical dimension (count == rank,
//                      each >= the dimension's size);
//   `PV(zero|one|lowest|highest|unknown|invalid)` the padding value
//                      (printed unless INVALID_PAD, XLA's default).
// e.g. XLA's example `f32[2,3]{0,1:PAD(3,5)PV(zero)}`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_SHAPE_H
#define LAYOUT_XLA_SHAPE_H

#include "layout/Xla/PrimitiveType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::layout {

class Shape;

/// Builds an llvm::Error carrying `message` (the library's error type).
llvm::Error makeError(const llvm::Twine &message);

/// Size of an unbounded dynamic dimension `?`. Equal to MLIR's
/// ShapedType::kDynamic and XLA's Shape::kUnboundedSize.
inline constexpr int64_t kUnboundedSize = std::numeric_limits<int64_t>::min();

/// Limits on absurd layouts, checked by `validateShape`. XLA itself has no
/// explicit cap, but real layouts use a handful of tile levels (TPU layouts
/// use up to three) and ranks well below these; without a cap, a layout
/// with thousands of tile levels makes every consumer (the index map, the
/// loop lowering, `layout-explain show`) do quadratic work and allocate
/// megabytes. docs/layout-explain.md documents them.
inline constexpr int64_t kMaxTileLevels = 16;
/// The largest physical rank: the logical rank plus one dim per tile entry
/// of every level (an upper bound of the tiled physical dims).
inline constexpr int64_t kMaxPhysicalRank = 128;

/// One tiling level `T(a,b,...)`. Entries are > 0, or `kCombineDimension`
/// for `*` ("combine this dimension with the next more-minor one").
class Tile {
public:
  /// The value of a `*` entry (XLA's "-1").
  static constexpr int64_t kCombineDimension = -1;

  Tile() = default;
  explicit Tile(llvm::ArrayRef<int64_t> dims) : dims(dims) {}

  llvm::ArrayRef<int64_t> getDims() const { return dims; }
  int64_t getDim(size_t i) const { return dims[i]; }
  size_t size() const { return dims.size(); }
  bool hasCombine() const;

  bool operator==(const Tile &other) const { return dims == other.dims; }
  bool operator!=(const Tile &other) const { return !(*this == other); }

private:
  llvm::SmallVector<int64_t, 4> dims;
};

/// Sparse dimension level types of `D(...)`: D dense, C compressed,
/// S singleton, H loose compressed; a `+` suffix marks "not unique" and a
/// `~` suffix "not ordered", in that order (XLA's Layout::ToString and
/// hlo_parser.cc: `C+~`).
enum class DimLevelType { Dense, Compressed, Singleton, LooseCompressed };

struct DimLevel {
  DimLevelType type = DimLevelType::Dense;
  bool unique = true;
  bool ordered = true;
  bool operator==(const DimLevel &o) const {
    return type == o.type && unique == o.unique && ordered == o.ordered;
  }
};

/// `SC(dim:i0,i1,...)`: a split of one dimension at the given indices.
/// As in XLA's LayoutUtil::MaxSplitSize, `dim` counts physical dimensions
/// most-major first (logical dim minor_to_major[rank-1-dim]); indices are
/// strictly increasing inside (0, size).
struct SplitConfig {
  int64_t dimension = 0;
  llvm::SmallVector<int64_t, 2> splitIndices;
  bool operator==(const SplitConfig &o) const {
    return dimension == o.dimension && splitIndices == o.splitIndices;
  }
};

/// The legacy padding_value (xla_data.proto's PaddingValue).
enum class PaddingValue {
  Invalid = 0, // INVALID_PAD (default)
  Zero = 1,    // ZERO_PAD
  One = 2,     // ONE_PAD
  Lowest = 3,  // LOWEST_PAD
  Highest = 4, // HIGHEST_PAD
  Unknown = 5, // UNKNOWN_PAD
};
llvm::StringRef paddingValueName(PaddingValue value); // "zero", ...
std::optional<PaddingValue> parsePaddingValueName(llvm::StringRef name);

/// XLA's Layout plus the legacy padding example of XLA's shapes document. Plain
/// data with value semantics (copyable, comparable).
class Layout {
public:
  Layout() = default;
  explicit Layout(llvm::ArrayRef<int64_t> minorToMajor)
      : minorToMajor(minorToMajor) {}
  Layout(const Layout &other);
  Layout &operator=(const Layout &other);
  Layout(Layout &&) = default;
  Layout &operator=(Layout &&) = default;
  ~Layout();

  /// Row-major layout of the given rank: minor_to_major = {rank-1, ..., 0}.
  static Layout getDefault(int64_t rank);

  // minor_to_major: a permutation of 0..rank-1, most-minor first.
  llvm::ArrayRef<int64_t> getMinorToMajor() const { return minorToMajor; }
  llvm::SmallVectorImpl<int64_t> &mutableMinorToMajor() { return minorToMajor; }
  int64_t getMinorToMajor(size_t i) const { return minorToMajor[i]; }

  // T(...)(...): tiling levels, applied in order.
  llvm::ArrayRef<Tile> getTiles() const { return tiles; }
  llvm::SmallVectorImpl<Tile> &mutableTiles() { return tiles; }

  // L(n): allocated element count rounded up to a multiple of n (>= 1).
  int64_t getTailPaddingAlignment() const { return tailPaddingAlignment; }
  void setTailPaddingAlignment(int64_t n) { tailPaddingAlignment = n; }

  // E(n): element size in bits; 0 means the element type's natural width.
  int64_t getElementSizeInBits() const { return elementSizeInBits; }
  void setElementSizeInBits(int64_t n) { elementSizeInBits = n; }

  // S(n): memory space.
  int64_t getMemorySpace() const { return memorySpace; }
  void setMemorySpace(int64_t n) { memorySpace = n; }

  // D(...): sparse dimension level types (empty = all dense).
  llvm::ArrayRef<DimLevel> getDimLevels() const { return dimLevels; }
  llvm::SmallVectorImpl<DimLevel> &mutableDimLevels() { return dimLevels; }

  // #(type) and *(type): sparse index / pointer primitive types.
  PrimitiveType getIndexPrimitiveType() const { return indexPrimitiveType; }
  void setIndexPrimitiveType(PrimitiveType t) { indexPrimitiveType = t; }
  PrimitiveType getPointerPrimitiveType() const { return pointerPrimitiveType; }
  void setPointerPrimitiveType(PrimitiveType t) { pointerPrimitiveType = t; }

  // SC(...): split configs.
  llvm::ArrayRef<SplitConfig> getSplitConfigs() const { return splitConfigs; }
  llvm::SmallVectorImpl<SplitConfig> &mutableSplitConfigs() {
    return splitConfigs;
  }

  // P(shape): physical shape of a sparse array (null when absent).
  const Shape *getPhysicalShape() const { return physicalShape.get(); }
  void setPhysicalShape(const Shape &shape);
  void clearPhysicalShape();

  // M(n): dynamic shape metadata prefix in bytes.
  int64_t getDynamicShapeMetadataPrefixBytes() const {
    return dynamicShapeMetadataPrefixBytes;
  }
  void setDynamicShapeMetadataPrefixBytes(int64_t n) {
    dynamicShapeMetadataPrefixBytes = n;
  }

  // PAD(...) / PV(...): the legacy padding example of XLA's shapes document
  // (empty = not padded).
  llvm::ArrayRef<int64_t> getPaddedDimensions() const {
    return paddedDimensions;
  }
  llvm::SmallVectorImpl<int64_t> &mutablePaddedDimensions() {
    return paddedDimensions;
  }
  PaddingValue getPaddingValue() const { return paddingValue; }
  void setPaddingValue(PaddingValue v) { paddingValue = v; }

  /// True if any sparse field (D not all dense, #, *, P) is set.
  bool isSparse() const;
  /// True if the layout has no tiles, no legacy padding and L == 1: element
  /// positions are given by minor_to_major alone.
  bool isUntiled() const;

  bool operator==(const Layout &other) const;
  bool operator!=(const Layout &other) const { return !(*this == other); }

private:
  llvm::SmallVector<int64_t, 4> minorToMajor;
  llvm::SmallVector<DimLevel, 0> dimLevels;
  llvm::SmallVector<Tile, 2> tiles;
  int64_t tailPaddingAlignment = 1;
  PrimitiveType indexPrimitiveType = PrimitiveType::Invalid;
  PrimitiveType pointerPrimitiveType = PrimitiveType::Invalid;
  int64_t elementSizeInBits = 0;
  int64_t memorySpace = 0;
  llvm::SmallVector<SplitConfig, 0> splitConfigs;
  std::unique_ptr<Shape> physicalShape;
  int64_t dynamicShapeMetadataPrefixBytes = 0;
  llvm::SmallVector<int64_t, 0> paddedDimensions;
  PaddingValue paddingValue = PaddingValue::Invalid;
};

/// XLA's Shape: an array (element type, dims, layout), a tuple, a token or an
/// opaque value.
class Shape {
public:
  Shape() = default;

  /// An array shape with the default layout. Dims may be kUnboundedSize;
  /// `dynamic[i]` marks `<=N` bounded dims (size N). `dynamic` is empty or has
  /// one entry per dim; an unbounded dim is dynamic whatever it says.
  static Shape makeArray(PrimitiveType elementType,
                         llvm::ArrayRef<int64_t> dims,
                         llvm::ArrayRef<bool> dynamic = {});
  static Shape makeArray(PrimitiveType elementType,
                         llvm::ArrayRef<int64_t> dims, const Layout &layout,
                         llvm::ArrayRef<bool> dynamic = {});
  static Shape makeTuple(llvm::ArrayRef<Shape> elements);
  static Shape makeToken();
  static Shape makeOpaque();

  PrimitiveType getElementType() const { return elementType; }
  void setElementType(PrimitiveType t) { elementType = t; }
  bool isArray() const { return isArrayElementType(elementType); }
  bool isTuple() const { return elementType == PrimitiveType::Tuple; }
  bool isToken() const { return elementType == PrimitiveType::Token; }
  bool isOpaque() const { return elementType == PrimitiveType::Opaque; }

  // Array dims, logical order.
  llvm::ArrayRef<int64_t> getDims() const { return dims; }
  int64_t getDim(size_t i) const { return dims[i]; }
  int64_t getRank() const { return static_cast<int64_t>(dims.size()); }
  /// Number of dims whose size is not 1 (size-0 dims count).
  int64_t getTrueRank() const;
  bool isScalar() const { return isArray() && dims.empty(); }
  bool isDynamicDim(size_t i) const { return dynamic[i]; }
  bool isUnboundedDim(size_t i) const { return dims[i] == kUnboundedSize; }
  bool isStatic() const; // no dynamic dim (recursively for tuples)
  bool hasUnboundedDim() const;
  llvm::ArrayRef<bool> getDynamicDims() const { return dynamic; }

  /// Sets dim `i` (size, and whether it is dynamic).
  void setDim(size_t i, int64_t size, bool isDynamic = false);

  /// Resolves a possibly negative dimension number (-1 is the last dim).
  /// Returns std::nullopt if out of range [-rank, rank).
  std::optional<int64_t> resolveDimension(int64_t dim) const;

  // Layout: present for arrays built by makeArray or the parser.
  bool hasLayout() const { return layout.has_value(); }
  const Layout &getLayout() const { return *layout; }
  Layout &mutableLayout() { return *layout; }
  void setLayout(const Layout &l) { layout = l; }
  void clearLayout() { layout.reset(); }

  // Tuple elements.
  llvm::ArrayRef<Shape> getTupleShapes() const { return tupleShapes; }
  std::vector<Shape> &mutableTupleShapes() { return tupleShapes; }

  bool operator==(const Shape &other) const;
  bool operator!=(const Shape &other) const { return !(*this == other); }

private:
  PrimitiveType elementType = PrimitiveType::Invalid;
  llvm::SmallVector<int64_t, 4> dims;
  llvm::SmallVector<bool, 4> dynamic;
  std::optional<Layout> layout;
  std::vector<Shape> tupleShapes; // std::vector: Shape is incomplete here
};

//===----------------------------------------------------------------------===//
// Element counts
//===----------------------------------------------------------------------===//

/// Product of the dims of an array shape (bounded dims count at their
/// bound). Errors: unbounded dim, or the product overflows int64 ("... may
/// overflow", naming the shape).
llvm::Expected<int64_t> getElementCount(const Shape &shape);

/// Product of `dims` (all >= 0), or std::nullopt on int64 overflow. A
/// size-0 dim makes it 0 in any order (the product fits even where the
/// running product of the other dims would overflow).
std::optional<int64_t> checkedProduct(llvm::ArrayRef<int64_t> dims);

//===----------------------------------------------------------------------===//
// Text syntax (docs/semantics.md §4)
//===----------------------------------------------------------------------===//

/// Parses HLO shape text (a whole string, surrounding whitespace allowed) and
/// validates the result with `validateShape`. Array shapes without `{...}` get
/// the default layout. Error messages follow XLA's parser where it has one,
/// and name the offending column for syntax errors.
llvm::Expected<Shape> parseShape(llvm::StringRef text);

/// Parses a layout `{...}` alone (no validation against a shape; the
/// caller validates). Used by `#layout.tiled<...>`.
llvm::Expected<Layout> parseLayout(llvm::StringRef text);

/// Canonical text (docs/semantics.md §4): no spaces inside a shape, tuples
/// joined by
/// ", ", `:` only when attributes follow, default-valued attributes omitted.
/// Array shapes of rank >= 1 always print their layout; scalars print it only
/// if it has attributes.
std::string printShape(const Shape &shape);
/// `{minor_to_major:attrs}` for a layout (always with braces).
std::string printLayout(const Layout &layout);
/// `T(2,2)(2,1)`-style text of one tile: `(2,2)`.
std::string printTile(const Tile &tile);

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

/// XLA's ShapeUtil::ValidateShape + LayoutUtil::ValidateLayoutForShape, plus
/// the project's checks (legacy padding, tile entries, element count fits in
/// int64). Tuples are validated element by element; an array shape without
/// a layout is accepted (it means the default layout), as in XLA's
/// ValidateShapeWithOptionalLayout. Messages use XLA's
/// wording where XLA has one, e.g. "layout minor_to_major field contains 3
/// elements, but shape has 2 dimensions".
llvm::Error validateShape(const Shape &shape);

/// Validates `layout` for an array shape with `dims` (the layout part of
/// validateShape, usable without building a Shape).
llvm::Error validateLayoutForDims(const Layout &layout,
                                  llvm::ArrayRef<int64_t> dims,
                                  PrimitiveType elementType);

} // namespace mlir::layout

#endif // LAYOUT_XLA_SHAPE_H
