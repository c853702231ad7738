//===- TiledLayoutMap.cpp - The exact tiled index map ---------------------===//
//
// Semantics: docs/semantics.md §3.

#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

static bool isDyn(int64_t d) { return d == kUnboundedSize; }

static std::string joinDims(ArrayRef<int64_t> dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      s += ",";
    s += isDyn(dims[i]) ? "?" : std::to_string(dims[i]);
  }
  return s;
}

/// The shape with its layout, defaulted (row-major) if it has none.
static Shape withLayout(const Shape &shape) {
  Shape result = shape;
  if (result.isArray() && !result.hasLayout())
    result.setLayout(Layout::getDefault(result.getRank()));
  return result;
}

llvm::Expected<TiledLayoutMap> TiledLayoutMap::get(const Shape &inputShape,
                                                   bool allowDynamic) {
  Shape shape = withLayout(inputShape);
  if (!shape.isArray())
    return makeError("shape " + printShape(shape) +
                     " is not an array; only arrays have a tiled layout");
  if (llvm::Error err = validateShape(shape))
    return std::move(err);
  if (shape.getLayout().isSparse())
    return makeError("shape " + printShape(shape) +
                     " has a sparse layout (D/#/*/P); sparse layouts are "
                     "parsed, printed and validated, but have no dense index "
                     "map");
  if (!allowDynamic && shape.hasUnboundedDim())
    return makeError("shape " + printShape(shape) +
                     " has an unbounded dynamic dimension; its physical "
                     "layout needs static sizes");
  auto overflow = [&]() {
    return makeError("shape " + printShape(shape) +
                     " has a physical size that may overflow int64");
  };

  TiledLayoutMap map;
  const Layout &layout = shape.getLayout();
  map.staticMap = !shape.hasUnboundedDim();
  map.logicalDims.assign(shape.getDims().begin(), shape.getDims().end());
  map.minorToMajor.assign(layout.getMinorToMajor().begin(),
                          layout.getMinorToMajor().end());
  if (layout.getPaddedDimensions().empty()) {
    map.paddedDims = map.logicalDims;
  } else {
    for (int64_t d : map.logicalDims)
      if (isDyn(d))
        return makeError("shape " + printShape(shape) +
                         ": legacy padded dimensions need static sizes");
    map.paddedDims.assign(layout.getPaddedDimensions().begin(),
                          layout.getPaddedDimensions().end());
  }
  int64_t rank = shape.getRank();
  for (int64_t i = rank - 1; i >= 0; --i)
    map.permutedDims.push_back(map.paddedDims[map.minorToMajor[i]]);

  SmallVector<int64_t, 6> current = map.permutedDims;
  for (const Tile &tile : layout.getTiles()) {
    TileLevel level;
    int64_t n = static_cast<int64_t>(tile.size());
    int64_t have = static_cast<int64_t>(current.size());
    level.numPrependedDims = std::max<int64_t>(0, n - have);
    level.inputDims.assign(level.numPrependedDims, 1);
    level.inputDims.append(current.begin(), current.end());
    int64_t leading = static_cast<int64_t>(level.inputDims.size()) - n;
    for (int64_t i = 0; i < leading; ++i)
      level.groups.push_back({i, i + 1});
    for (int64_t j = 0; j < n; ++j) {
      int64_t begin = leading + j;
      while (tile.getDim(j) == Tile::kCombineDimension)
        ++j; // validation guarantees `*` is never the last entry
      level.groups.push_back({begin, leading + j + 1});
      level.tile.push_back(tile.getDim(j));
    }
    for (auto [begin, end] : level.groups) {
      int64_t size = level.inputDims[begin];
      for (int64_t d = begin + 1; d < end; ++d) {
        int64_t inner = level.inputDims[d];
        if (isDyn(inner))
          return makeError(
              "shape " + printShape(shape) +
              ": a '*' combine needs a static size for every dimension but "
              "its most-major one (dimensions [" +
              joinDims(level.inputDims) + "])");
        if (isDyn(size))
          continue;
        std::optional<int64_t> product = llvm::checkedMul(size, inner);
        if (!product)
          return overflow();
        size = *product;
      }
      level.combinedDims.push_back(size);
    }
    int64_t numLeading =
        static_cast<int64_t>(level.combinedDims.size() - level.tile.size());
    level.outputDims.assign(level.combinedDims.begin(),
                            level.combinedDims.begin() + numLeading);
    for (size_t i = 0; i < level.tile.size(); ++i) {
      int64_t d = level.combinedDims[numLeading + i];
      level.outputDims.push_back(isDyn(d) ? d
                                          : llvm::divideCeil(d, level.tile[i]));
    }
    level.outputDims.append(level.tile.begin(), level.tile.end());
    current = level.outputDims;
    map.levels.push_back(std::move(level));
  }
  map.physicalDims = current;

  if (!map.staticMap)
    return map;

  std::optional<int64_t> elements = checkedProduct(map.logicalDims);
  std::optional<int64_t> physical = checkedProduct(map.physicalDims);
  if (!elements || !physical)
    return overflow();
  map.elementCount = *elements;
  map.physicalElementCount = *physical;
  int64_t align = layout.getTailPaddingAlignment();
  int64_t rem = *physical % align;
  std::optional<int64_t> allocated =
      rem == 0 ? physical : llvm::checkedAdd(*physical, align - rem);
  if (!allocated)
    return overflow();
  map.allocatedElements = *allocated;
  int64_t bits = layout.getElementSizeInBits()
                     ? layout.getElementSizeInBits()
                     : 8 * primitiveTypeByteWidth(shape.getElementType());
  std::optional<int64_t> totalBits = llvm::checkedMul(*allocated, bits);
  if (!totalBits)
    return overflow();
  map.allocatedBytes = llvm::divideCeil(*totalBits, 8);
  return map;
}

namespace {
/// An index algebra over dependence sets: bit d set when the value depends
/// on logical index d.
struct DependenceOps {
  uint64_t constant(int64_t) { return 0; }
  uint64_t add(uint64_t lhs, uint64_t rhs) { return lhs | rhs; }
  uint64_t mul(uint64_t lhs, int64_t rhs) { return rhs ? lhs : 0; }
  uint64_t floorDiv(uint64_t lhs, int64_t) { return lhs; }
  uint64_t mod(uint64_t lhs, int64_t rhs) { return rhs == 1 ? 0 : lhs; }
};
} // namespace

bool TiledLayoutMap::isSeparable() const {
  if (logicalDims.size() > 64)
    return false;
  // A dim of size 1 always has index 0: it depends on nothing.
  llvm::SmallVector<uint64_t, 6> index;
  for (auto [d, size] : llvm::enumerate(logicalDims))
    index.push_back(size == 1 ? 0 : uint64_t(1) << d);
  DependenceOps ops;
  return llvm::all_of(apply<uint64_t>(index, ops),
                      [](uint64_t deps) { return llvm::popcount(deps) <= 1; });
}

bool TiledLayoutMap::mayHavePaddingSlots() const {
  if (staticMap)
    return physicalElementCount != elementCount;
  if (paddedDims != logicalDims)
    return true;
  for (const TileLevel &level : levels) {
    size_t numLeading = level.combinedDims.size() - level.tile.size();
    for (size_t i = 0; i < level.tile.size(); ++i) {
      int64_t d = level.combinedDims[numLeading + i];
      int64_t t = level.tile[i];
      if (t != 1 && (isDyn(d) || d % t != 0))
        return true;
    }
  }
  return false;
}

SmallVector<int64_t, 6>
TiledLayoutMap::physicalIndex(ArrayRef<int64_t> logicalIndex) const {
  IntegerIndexOps ops;
  return apply<int64_t>(logicalIndex, ops);
}

int64_t TiledLayoutMap::linearIndex(ArrayRef<int64_t> logicalIndex) const {
  SmallVector<int64_t, 6> index = physicalIndex(logicalIndex);
  int64_t linear = 0;
  for (size_t i = 0; i < index.size(); ++i)
    linear = linear * physicalDims[i] + index[i];
  return linear;
}

llvm::Expected<int64_t>
TiledLayoutMap::checkedLinearIndex(ArrayRef<int64_t> logicalIndex) const {
  if (!staticMap)
    return makeError("the layout has dynamic dimensions; linear indices need "
                     "static sizes");
  if (logicalIndex.size() != logicalDims.size())
    return makeError("index (" + joinDims(logicalIndex) + ") has " +
                     llvm::Twine(logicalIndex.size()) +
                     " components, but the shape has rank " +
                     llvm::Twine(logicalDims.size()));
  for (size_t i = 0; i < logicalIndex.size(); ++i)
    if (logicalIndex[i] < 0 || logicalIndex[i] >= logicalDims[i])
      return makeError("index (" + joinDims(logicalIndex) +
                       ") is out of bounds: component " + llvm::Twine(i) +
                       " is " + llvm::Twine(logicalIndex[i]) + ", dimension " +
                       llvm::Twine(i) + " has size " +
                       llvm::Twine(logicalDims[i]));
  return linearIndex(logicalIndex);
}

std::optional<SmallVector<int64_t, 6>>
TiledLayoutMap::logicalIndex(int64_t linear) const {
  if (linear < 0 || linear >= physicalElementCount)
    return std::nullopt; // L tail padding (or out of range)
  // Delinearize in the final shape.
  SmallVector<int64_t, 6> index(physicalDims.size());
  for (int64_t i = static_cast<int64_t>(physicalDims.size()) - 1; i >= 0; --i) {
    index[i] = linear % physicalDims[i];
    linear /= physicalDims[i];
  }
  // Undo the tile levels, last first.
  for (const TileLevel &level : llvm::reverse(levels)) {
    size_t numTiled = level.tile.size();
    size_t numLeading = level.combinedDims.size() - numTiled;
    SmallVector<int64_t, 6> combined(index.begin(), index.begin() + numLeading);
    for (size_t i = 0; i < numTiled; ++i) {
      int64_t value = index[numLeading + i] * level.tile[i] +
                      index[numLeading + numTiled + i];
      if (value >= level.combinedDims[numLeading + i])
        return std::nullopt; // tile padding
      combined.push_back(value);
    }
    SmallVector<int64_t, 6> input(level.inputDims.size());
    for (size_t g = 0; g < level.groups.size(); ++g) {
      auto [begin, end] = level.groups[g];
      int64_t value = combined[g];
      for (int64_t d = end - 1; d > begin; --d) {
        input[d] = value % level.inputDims[d];
        value /= level.inputDims[d];
      }
      input[begin] = value;
    }
    for (int64_t i = 0; i < level.numPrependedDims; ++i)
      if (input[i] != 0)
        return std::nullopt;
    index.assign(input.begin() + level.numPrependedDims, input.end());
  }
  // Back to logical order; legacy padding slots are outside the logical dims.
  int64_t rank = static_cast<int64_t>(minorToMajor.size());
  SmallVector<int64_t, 6> logical(rank);
  for (int64_t k = 0; k < rank; ++k)
    logical[minorToMajor[rank - 1 - k]] = index[k];
  for (int64_t i = 0; i < rank; ++i)
    if (logical[i] >= logicalDims[i])
      return std::nullopt;
  return logical;
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

static constexpr int64_t kPointerSize = 8;

/// XLA's byte size of a tuple (one pointer per element), token (0) or opaque
/// value (one pointer); std::nullopt for arrays.
static std::optional<int64_t> nonArrayByteSize(const Shape &shape) {
  if (shape.isTuple())
    return kPointerSize * static_cast<int64_t>(shape.getTupleShapes().size());
  if (shape.isToken())
    return 0;
  if (shape.isOpaque())
    return kPointerSize;
  return std::nullopt;
}

llvm::Expected<int64_t> mlir::layout::getAllocatedElements(const Shape &shape) {
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  if (!map)
    return map.takeError();
  return map->getAllocatedElements();
}

llvm::Expected<int64_t> mlir::layout::getAllocatedBytes(const Shape &shape) {
  if (std::optional<int64_t> bytes = nonArrayByteSize(shape))
    return *bytes;
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  if (!map)
    return map.takeError();
  return map->getAllocatedBytes();
}

//===----------------------------------------------------------------------===//
// XLA compatibility
//===----------------------------------------------------------------------===//

static llvm::Error checkStaticArray(const Shape &shape, llvm::StringRef what) {
  if (!shape.isArray())
    return makeError(what + " needs an array shape, got " + printShape(shape));
  if (llvm::Error err = validateShape(shape))
    return err;
  if (shape.hasUnboundedDim())
    return makeError(what + " needs static sizes, got " + printShape(shape));
  return llvm::Error::success();
}

static llvm::Error checkFirstTile(const Shape &shape, llvm::StringRef what) {
  ArrayRef<Tile> tiles = shape.getLayout().getTiles();
  if (!tiles.empty() && tiles.front().hasCombine())
    return makeError(what + ": the first tile of " + printShape(shape) +
                     " contains '*', which XLA's implementation does not "
                     "support");
  return llvm::Error::success();
}

llvm::Expected<int64_t> mlir::layout::xlaLinearIndex(const Shape &inputShape,
                                                     ArrayRef<int64_t> index) {
  Shape shape = withLayout(inputShape);
  if (llvm::Error err = checkStaticArray(shape, "xla_linear_index"))
    return std::move(err);
  if (llvm::Error err = checkFirstTile(shape, "xla_linear_index"))
    return std::move(err);
  int64_t rank = shape.getRank();
  if (static_cast<int64_t>(index.size()) != rank)
    return makeError(
        "index (" + joinDims(index) + ") has " + llvm::Twine(index.size()) +
        " components, but the shape has rank " + llvm::Twine(rank));
  for (int64_t i = 0; i < rank; ++i)
    if (index[i] < 0 || index[i] >= shape.getDim(i))
      return makeError(
          "index (" + joinDims(index) + ") is out of bounds: component " +
          llvm::Twine(i) + " is " + llvm::Twine(index[i]) + ", dimension " +
          llvm::Twine(i) + " has size " + llvm::Twine(shape.getDim(i)));
  // A faithful copy of LayoutUtil::LinearIndex, including its quirks: rank 1
  // ignores tiles, and only the first tile is looked at.
  if (rank == 0)
    return 0;
  if (rank == 1)
    return index[0];
  const Layout &layout = shape.getLayout();
  ArrayRef<int64_t> tile;
  if (!layout.getTiles().empty())
    tile = layout.getTiles().front().getDims();
  // XLA multiplies the scales up front; with large tiles a scale can
  // overflow int64 although the terms that use it are 0. A scale that
  // overflowed is std::nullopt and is an error only when it is needed.
  auto overflow = [&]() {
    return makeError("xla_linear_index: the linear index of (" +
                     joinDims(index) + ") in shape " + printShape(shape) +
                     " overflows int64");
  };
  auto scaleBy = [](std::optional<int64_t> &scale, int64_t factor) {
    if (scale)
      scale = llvm::checkedMul(*scale, factor);
  };
  int64_t linear = 0;
  auto addTerm = [&](const std::optional<int64_t> &scale, int64_t factor) {
    if (factor == 0)
      return true;
    std::optional<int64_t> term =
        scale ? llvm::checkedMul(*scale, factor) : std::nullopt;
    std::optional<int64_t> sum =
        term ? llvm::checkedAdd(linear, *term) : std::nullopt;
    if (sum)
      linear = *sum;
    return sum.has_value();
  };
  std::optional<int64_t> tileMultiplier = 1;
  for (int64_t t : tile)
    scaleBy(tileMultiplier, t);
  std::optional<int64_t> withinTileMultiplier = 1;
  int64_t tileRank = static_cast<int64_t>(tile.size());
  for (int64_t minor = 0; minor < rank; ++minor) {
    int64_t dim = layout.getMinorToMajor(minor);
    int64_t size = shape.getDim(dim);
    int64_t i = index[dim];
    if (minor < tileRank) {
      int64_t t = tile[tileRank - 1 - minor];
      if (!addTerm(tileMultiplier, i / t) ||
          !addTerm(withinTileMultiplier, i % t))
        return overflow();
      scaleBy(tileMultiplier, static_cast<int64_t>(llvm::divideCeil(size, t)));
      scaleBy(withinTileMultiplier, t);
    } else {
      if (!addTerm(tileMultiplier, i))
        return overflow();
      scaleBy(tileMultiplier, size);
    }
  }
  return linear;
}

/// XLA's LayoutUtil::MaxSplitSize: the largest segment of logical dim `dim`
/// if a split config splits it. A split config's `dimension` counts physical
/// dims, most-major first (LayoutUtil::Major), so it splits logical dim
/// minor_to_major[rank - 1 - dimension].
static int64_t maxSplitSize(const Shape &shape, int64_t dim) {
  int64_t size = shape.getDim(dim);
  const Layout &layout = shape.getLayout();
  int64_t rank = shape.getRank();
  for (const SplitConfig &config : layout.getSplitConfigs()) {
    if (layout.getMinorToMajor(rank - 1 - config.dimension) != dim)
      continue;
    int64_t maxSize = 0, last = 0;
    for (int64_t split : config.splitIndices) {
      maxSize = std::max(maxSize, split - last);
      last = split;
    }
    return std::max(maxSize, size - last);
  }
  return size;
}

static llvm::Expected<int64_t> elementBytes(const Shape &shape,
                                            int64_t numElements) {
  int64_t bits = shape.getLayout().getElementSizeInBits();
  std::optional<int64_t> total =
      bits ? llvm::checkedMul(numElements, bits)
           : llvm::checkedMul(numElements,
                              primitiveTypeByteWidth(shape.getElementType()));
  if (!total)
    return makeError("shape " + printShape(shape) +
                     " has a byte size that may overflow int64");
  return bits ? llvm::divideCeil(*total, 8) : *total;
}

llvm::Expected<int64_t> mlir::layout::xlaArraySize(const Shape &inputShape) {
  Shape shape = withLayout(inputShape);
  if (llvm::Error err = checkStaticArray(shape, "xla_array_size"))
    return std::move(err);
  if (llvm::Error err = checkFirstTile(shape, "xla_array_size"))
    return std::move(err);
  const Layout &layout = shape.getLayout();
  auto overflow = [&]() {
    return makeError("shape " + printShape(shape) +
                     " has an array size that may overflow int64");
  };
  if (layout.getTiles().empty()) {
    llvm::Expected<int64_t> count = getElementCount(shape);
    if (!count)
      return count.takeError();
    return elementBytes(shape, *count);
  }
  ArrayRef<int64_t> tile = layout.getTiles().front().getDims();
  int64_t rank = shape.getRank();
  int64_t tileRank = static_cast<int64_t>(tile.size());
  int64_t count = 1;
  int64_t dim = 0;
  for (; dim < tileRank; ++dim) {
    int64_t size =
        dim < rank ? maxSplitSize(shape, layout.getMinorToMajor(dim)) : 1;
    int64_t t = tile[tileRank - dim - 1];
    std::optional<int64_t> rounded =
        llvm::checkedMul<int64_t>(llvm::divideCeil(size, t), t);
    std::optional<int64_t> next =
        rounded ? llvm::checkedMul(count, *rounded) : std::nullopt;
    if (!next)
      return overflow();
    count = *next;
  }
  for (; dim < rank; ++dim) {
    std::optional<int64_t> next = llvm::checkedMul(
        count, maxSplitSize(shape, layout.getMinorToMajor(dim)));
    if (!next)
      return overflow();
    count = *next;
  }
  int64_t align = layout.getTailPaddingAlignment();
  if (align != 1 && count % align) {
    std::optional<int64_t> next =
        llvm::checkedAdd(count, align - count % align);
    if (!next)
      return overflow();
    count = *next;
  }
  return elementBytes(shape, count);
}

llvm::Expected<int64_t> mlir::layout::xlaByteSizeOf(const Shape &inputShape) {
  Shape shape = withLayout(inputShape);
  if (std::optional<int64_t> bytes = nonArrayByteSize(shape))
    return *bytes;
  if (llvm::Error err = checkStaticArray(shape, "xla_byte_size_of"))
    return std::move(err);
  llvm::Expected<int64_t> count = getElementCount(shape);
  if (!count)
    return count.takeError();
  return elementBytes(shape, *count);
}
