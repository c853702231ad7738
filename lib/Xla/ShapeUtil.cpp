//===- ShapeUtil.cpp - XLA IndexUtil / ShapeUtil equivalents --------------===//
//
// Ports of XLA's permutation_util, IndexUtil and ShapeUtil helpers
// (docs/semantics.md §6). Where XLA CHECK-fails on bad input, these return an
// llvm::Error instead.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/ShapeUtil.h"
#include "layout/Xla/BufferBytes.h"
#include "layout/Xla/LayoutCanonical.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <string>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string joinInts(ArrayRef<int64_t> values) {
  return "{" +
         llvm::join(llvm::map_range(
                        values, [](int64_t v) { return std::to_string(v); }),
                    ",") +
         "}";
}

/// The array shape must have a layout whose minor_to_major is a permutation
/// of its dims (XLA's wording for the layout errors).
static llvm::Error checkArrayWithLayout(const Shape &shape,
                                        llvm::StringRef what) {
  if (!shape.isArray())
    return makeError(what + " must be an array shape, got " +
                     primitiveTypeName(shape.getElementType()));
  if (!shape.hasLayout())
    return makeError(what + " has no layout");
  ArrayRef<int64_t> minorToMajor = shape.getLayout().getMinorToMajor();
  int64_t rank = shape.getRank();
  if (static_cast<int64_t>(minorToMajor.size()) != rank)
    return makeError("layout minor_to_major field contains " +
                     llvm::Twine(minorToMajor.size()) +
                     " elements, but shape has " + llvm::Twine(rank) +
                     " dimensions");
  if (!isPermutation(minorToMajor))
    return makeError("layout minor_to_major field of " + what +
                     " is not a permutation: " + joinInts(minorToMajor));
  return llvm::Error::success();
}

/// Like checkArrayWithLayout, but a missing layout is fine.
static llvm::Error checkArrayOptionalLayout(const Shape &shape,
                                            llvm::StringRef what) {
  if (!shape.isArray())
    return makeError(what + " must be an array shape, got " +
                     primitiveTypeName(shape.getElementType()));
  if (!shape.hasLayout())
    return llvm::Error::success();
  return checkArrayWithLayout(shape, what);
}

/// Stride-based helpers need positions given by minor_to_major alone.
static llvm::Error checkUntiledForStrides(const Shape &shape,
                                          llvm::StringRef function) {
  const Layout &layout = shape.getLayout();
  if (!layout.getTiles().empty())
    return makeError(function +
                     " needs an untiled layout; tiled layouts have no "
                     "per-dimension strides");
  if (!layout.getPaddedDimensions().empty())
    return makeError(function +
                     " needs an unpadded layout (legacy padded_dimensions "
                     "are set)");
  return llvm::Error::success();
}

/// XLA's IndexUtil::MultidimensionalIndexToLinearIndex on minor_to_major.
/// Pre: in-bounds index of a static shape whose element count fits int64.
static int64_t physicalLinearIndex(ArrayRef<int64_t> dims,
                                   ArrayRef<int64_t> minorToMajor,
                                   ArrayRef<int64_t> index) {
  int64_t scale = 1, linear = 0;
  for (int64_t dim : minorToMajor) {
    linear += scale * index[dim];
    scale *= dims[dim];
  }
  return linear;
}

/// Row-major (dim 0 most major) multi-index of a logical linear index.
static SmallVector<int64_t, 6> rowMajorIndex(ArrayRef<int64_t> dims,
                                             int64_t linear) {
  SmallVector<int64_t, 6> index(dims.size(), 0);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
    index[i] = linear % dims[i];
    linear /= dims[i];
  }
  return index;
}

static int64_t rowMajorLinearIndex(ArrayRef<int64_t> dims,
                                   ArrayRef<int64_t> index) {
  int64_t linear = 0;
  for (size_t i = 0; i < dims.size(); ++i)
    linear = linear * dims[i] + index[i];
  return linear;
}

/// XLA's CommonFactors: the boundaries (i, j) at which prefixes of `a` and
/// `b` have equal products. Pre: equal products that fit int64.
static SmallVector<std::pair<int64_t, int64_t>, 8>
commonFactors(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  SmallVector<std::pair<int64_t, int64_t>, 8> bounds;
  int64_t aSize = static_cast<int64_t>(a.size());
  int64_t bSize = static_cast<int64_t>(b.size());
  if (a == b) {
    for (int64_t i = 0; i <= aSize; ++i)
      bounds.emplace_back(i, i);
    return bounds;
  }
  int64_t i = 0, j = 0, priorI = -1, priorJ = -1;
  while (i < aSize && j < bSize && a[i] == b[j]) {
    priorI = i;
    priorJ = j;
    bounds.emplace_back(i, j);
    ++i;
    ++j;
  }
  // Products of the rest can differ only through zeros seen in the prefix.
  // After such a zero the rest may also overflow int64 (the total is 0 and
  // fits): then treat everything as one factor, which is always correct.
  std::optional<int64_t> checkedRestA = checkedProduct(a.drop_front(i));
  std::optional<int64_t> checkedRestB = checkedProduct(b.drop_front(j));
  if (!checkedRestA || !checkedRestB || *checkedRestA != *checkedRestB)
    return {{0, 0}, {aSize, bSize}};
  int64_t restA = *checkedRestA;
  if (restA == 0) {
    bounds.emplace_back(i, j);
    bounds.emplace_back(aSize, bSize);
    return bounds;
  }
  for (int64_t partialA = 1, partialB = 1;;) {
    if (partialA == partialB && (i > priorI || j > priorJ)) {
      priorI = i;
      priorJ = j;
      bounds.emplace_back(i, j);
      continue;
    }
    bool inBoundsI = i < aSize;
    bool inBoundsJ = j < bSize;
    if (!(inBoundsI || inBoundsJ))
      break;
    bool nextA =
        partialA < partialB ||
        (inBoundsI && (!inBoundsJ || (partialA == partialB && a[i] <= b[j])));
    bool nextB =
        partialB < partialA ||
        (inBoundsJ && (!inBoundsI || (partialB == partialA && b[j] <= a[i])));
    // Partial products divide the (non-zero) total, so they cannot overflow.
    if (nextA)
      partialA *= a[i++];
    if (nextB)
      partialB *= b[j++];
  }
  return bounds;
}

/// The byte size of an array shape (bounded dims at their bound, unbounded
/// dims skipped, as validateShape counts it), or std::nullopt on overflow.
static std::optional<int64_t> checkedByteSize(const Shape &shape) {
  std::optional<int64_t> size = primitiveTypeByteWidth(shape.getElementType());
  for (int64_t d : shape.getDims())
    if (d != kUnboundedSize && size)
      size = llvm::checkedMul(*size, d);
  return size;
}

//===----------------------------------------------------------------------===//
// Permutations
//===----------------------------------------------------------------------===//

bool mlir::layout::isPermutation(ArrayRef<int64_t> perm) {
  int64_t n = static_cast<int64_t>(perm.size());
  SmallVector<bool, 8> seen(perm.size(), false);
  for (int64_t p : perm) {
    if (p < 0 || p >= n || seen[p])
      return false;
    seen[p] = true;
  }
  return true;
}

SmallVector<int64_t, 6>
mlir::layout::inversePermutation(ArrayRef<int64_t> perm) {
  if (!isPermutation(perm))
    return {};
  SmallVector<int64_t, 6> inverse(perm.size(), 0);
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[perm[i]] = static_cast<int64_t>(i);
  return inverse;
}

SmallVector<int64_t, 6>
mlir::layout::composePermutations(ArrayRef<int64_t> p1, ArrayRef<int64_t> p2) {
  if (p1.size() != p2.size())
    return {};
  SmallVector<int64_t, 6> result;
  for (int64_t p : p2) {
    if (p < 0 || p >= static_cast<int64_t>(p1.size()))
      return {};
    result.push_back(p1[p]);
  }
  return result;
}

SmallVector<int64_t, 6> mlir::layout::permute(ArrayRef<int64_t> values,
                                              ArrayRef<int64_t> perm) {
  return composePermutations(values, perm);
}

//===----------------------------------------------------------------------===//
// IndexUtil
//===----------------------------------------------------------------------===//

llvm::Expected<int64_t> mlir::layout::getDimensionStride(const Shape &shape,
                                                         int64_t dim) {
  if (llvm::Error err = checkArrayWithLayout(shape, "getDimensionStride shape"))
    return std::move(err);
  if (llvm::Error err = checkUntiledForStrides(shape, "getDimensionStride"))
    return std::move(err);
  if (dim < 0 || dim >= shape.getRank())
    return makeError("getDimensionStride: dimension " + llvm::Twine(dim) +
                     " is out of range for a shape of rank " +
                     llvm::Twine(shape.getRank()));
  int64_t stride = 1;
  for (int64_t d : shape.getLayout().getMinorToMajor()) {
    if (d == dim)
      break;
    if (shape.isUnboundedDim(d))
      return makeError("getDimensionStride: dimension " + llvm::Twine(dim) +
                       " has no static stride: more-minor dimension " +
                       llvm::Twine(d) + " is unbounded");
    std::optional<int64_t> next = llvm::checkedMul(stride, shape.getDim(d));
    if (!next)
      return makeError("getDimensionStride: the stride of dimension " +
                       llvm::Twine(dim) + " overflows int64");
    stride = *next;
  }
  return stride;
}

llvm::Expected<SmallVector<int64_t, 6>>
mlir::layout::getByteStrides(const Shape &shape) {
  if (llvm::Error err = checkArrayWithLayout(shape, "getByteStrides shape"))
    return std::move(err);
  if (llvm::Error err = checkUntiledForStrides(shape, "getByteStrides"))
    return std::move(err);
  int64_t elementBits = shape.getLayout().getElementSizeInBits();
  int64_t stride = primitiveTypeByteWidth(shape.getElementType());
  if (elementBits != 0) {
    // XLA ignores E(n) here; packed sub-byte elements have no byte stride.
    if (elementBits % 8 != 0)
      return makeError("getByteStrides: elements of " +
                       llvm::Twine(elementBits) +
                       " bits (E(n)) are packed and have no byte strides");
    stride = elementBits / 8;
  }
  ArrayRef<int64_t> minorToMajor = shape.getLayout().getMinorToMajor();
  SmallVector<int64_t, 6> strides(minorToMajor.size(), 0);
  for (size_t k = 0; k < minorToMajor.size(); ++k) {
    int64_t dim = minorToMajor[k];
    strides[dim] = stride;
    if (k + 1 == minorToMajor.size())
      break;
    if (shape.isUnboundedDim(dim))
      return makeError("getByteStrides: dimension " + llvm::Twine(dim) +
                       " is unbounded; more-major strides are not static");
    std::optional<int64_t> next = llvm::checkedMul(stride, shape.getDim(dim));
    if (!next)
      return makeError("getByteStrides: strides overflow int64");
    stride = *next;
  }
  return strides;
}

bool mlir::layout::bumpIndices(const Shape &shape,
                               llvm::MutableArrayRef<int64_t> indices) {
  if (!shape.isArray() ||
      static_cast<int64_t>(indices.size()) != shape.getRank())
    return false;
  // No in-bounds index exists in a zero-element (or unbounded) shape.
  if (llvm::any_of(shape.getDims(), [](int64_t d) { return d <= 0; })) {
    std::fill(indices.begin(), indices.end(), 0);
    return false;
  }
  return bumpIndices(shape.getDims(), indices);
}

//===----------------------------------------------------------------------===//
// ShapeUtil
//===----------------------------------------------------------------------===//

llvm::Expected<Shape> mlir::layout::permuteDimensions(ArrayRef<int64_t> perm,
                                                      const Shape &shape) {
  if (llvm::Error err =
          checkArrayOptionalLayout(shape, "permuteDimensions shape"))
    return std::move(err);
  if (static_cast<int64_t>(perm.size()) != shape.getRank() ||
      !isPermutation(perm))
    return makeError("permuteDimensions: " + joinInts(perm) +
                     " is not a permutation of the " +
                     llvm::Twine(shape.getRank()) + " dimensions");
  SmallVector<int64_t, 6> dims = permute(shape.getDims(), perm);
  SmallVector<bool, 6> dynamic;
  for (int64_t p : perm)
    dynamic.push_back(shape.isDynamicDim(p));
  Shape result =
      Shape::makeArray(shape.getElementType(), dims, Layout(), dynamic);
  if (!shape.hasLayout()) {
    result.clearLayout();
    return result;
  }
  // L* = Compose(P', L) keeps the physical order (see XLA's derivation).
  Layout layout = shape.getLayout();
  SmallVector<int64_t, 6> minorToMajor = composePermutations(
      inversePermutation(perm), shape.getLayout().getMinorToMajor());
  layout.mutableMinorToMajor().assign(minorToMajor.begin(), minorToMajor.end());
  // Per-logical-dimension fields follow their dimension.
  ArrayRef<int64_t> padded = shape.getLayout().getPaddedDimensions();
  if (padded.size() == perm.size()) {
    SmallVector<int64_t, 6> newPadded = permute(padded, perm);
    layout.mutablePaddedDimensions().assign(newPadded.begin(), newPadded.end());
  }
  ArrayRef<DimLevel> levels = shape.getLayout().getDimLevels();
  if (levels.size() == perm.size()) {
    SmallVector<DimLevel, 6> newLevels;
    for (int64_t p : perm)
      newLevels.push_back(levels[p]);
    layout.mutableDimLevels().assign(newLevels.begin(), newLevels.end());
  }
  result.setLayout(layout);
  return result;
}

/// Layout fields other than minor_to_major that change element positions.
/// The stored bits, memory space and M are compared by the callers
/// (sameElementEncoding).
static bool samePlacementAttributes(const Layout &a, const Layout &b) {
  return a.getTiles() == b.getTiles() &&
         a.getTailPaddingAlignment() == b.getTailPaddingAlignment();
}

static bool sameSyntacticOrder(const Shape &input, const Shape &output,
                               ArrayRef<int64_t> dimMapping);

/// Dense layouts (no sparse fields or split configs) have one byte order.
static bool isDense(const Layout &layout) {
  return !layout.isSparse() && layout.getSplitConfigs().empty();
}

llvm::Expected<bool>
mlir::layout::transposeIsBitcast(const Shape &input, const Shape &output,
                                 ArrayRef<int64_t> dimMapping,
                                 bool ignoreElementType) {
  if (llvm::Error err = checkArrayWithLayout(input, "transposeIsBitcast input"))
    return std::move(err);
  if (llvm::Error err =
          checkArrayWithLayout(output, "transposeIsBitcast output"))
    return std::move(err);
  if (input.getRank() != output.getRank())
    return makeError("transposeIsBitcast: input rank " +
                     llvm::Twine(input.getRank()) + " != output rank " +
                     llvm::Twine(output.getRank()));
  if (static_cast<int64_t>(dimMapping.size()) != input.getRank() ||
      !isPermutation(dimMapping))
    return makeError("transposeIsBitcast: dimension mapping " +
                     joinInts(dimMapping) + " is not a permutation of the " +
                     llvm::Twine(input.getRank()) + " dimensions");
  if (permute(input.getDims(), dimMapping) !=
      SmallVector<int64_t, 6>(output.getDims()))
    return makeError("transposeIsBitcast: output dims " +
                     joinInts(output.getDims()) + " are not the input dims " +
                     joinInts(input.getDims()) + " permuted by " +
                     joinInts(dimMapping));
  if (!ignoreElementType && input.getElementType() != output.getElementType())
    return false;
  // Stored bits (not the raw E(n)), memory space, M: BufferBytes.h.
  if (!sameElementEncoding(input, output, !ignoreElementType))
    return false;
  const Layout &in = input.getLayout();
  const Layout &out = output.getLayout();
  bool sameOrder = sameSyntacticOrder(input, output, dimMapping);
  if ((in.isUntiled() && out.isUntiled()) || !isDense(in) || !isDense(out))
    return sameOrder;
  // Tiles, legacy padding or L: exact through the byte orders
  // (LayoutCanonical.h). The syntactic answer is exact when it says yes
  // and the same padding value is written (the physical order is the same).
  if (sameOrder &&
      writtenPaddingValue(input.getElementType(), in.getPaddingValue()) ==
          writtenPaddingValue(output.getElementType(), out.getPaddingValue()))
    return true;
  return exactTransposeIsBitcast(input, output, dimMapping, ignoreElementType);
}

/// XLA's answer: the same tiles, L and E, legacy padding moved with its
/// dims, and the physical dim order kept. Exact for untiled layouts.
static bool sameSyntacticOrder(const Shape &input, const Shape &output,
                               ArrayRef<int64_t> dimMapping) {
  const Layout &in = input.getLayout();
  const Layout &out = output.getLayout();
  if (!samePlacementAttributes(in, out))
    return false;
  // Legacy padding is per logical dimension: it must move with the dims.
  if (in.getPaddedDimensions().empty() != out.getPaddedDimensions().empty())
    return false;
  if (!in.getPaddedDimensions().empty() &&
      (in.getPaddedDimensions().size() != dimMapping.size() ||
       permute(in.getPaddedDimensions(), dimMapping) !=
           SmallVector<int64_t, 6>(out.getPaddedDimensions())))
    return false;
  return composePermutations(dimMapping, out.getMinorToMajor()) ==
         SmallVector<int64_t, 6>(in.getMinorToMajor());
}

llvm::Expected<bool> mlir::layout::reshapeIsBitcast(const Shape &input,
                                                    const Shape &output,
                                                    bool ignoreElementType) {
  if (llvm::Error err = checkArrayWithLayout(input, "reshapeIsBitcast input"))
    return std::move(err);
  if (llvm::Error err = checkArrayWithLayout(output, "reshapeIsBitcast output"))
    return std::move(err);
  if (input.hasUnboundedDim() || output.hasUnboundedDim())
    return makeError("reshapeIsBitcast: unbounded dynamic dimensions have no "
                     "static element count");
  std::optional<int64_t> inCount = checkedProduct(input.getDims());
  std::optional<int64_t> outCount = checkedProduct(output.getDims());
  if (!inCount || !outCount)
    return makeError("reshapeIsBitcast: element count overflows int64");

  if (!ignoreElementType && input.getElementType() != output.getElementType())
    return false;
  if (*inCount != *outCount)
    return false;
  // Stored bits (not the raw E(n)), memory space, M: BufferBytes.h.
  if (!sameElementEncoding(input, output, !ignoreElementType))
    return false;
  const Layout &in = input.getLayout();
  const Layout &out = output.getLayout();
  // Identical dims and layouts are a bitcast whatever the tiling.
  if (input.getDims() == output.getDims() && in == out)
    return true;
  // The unit-index argument below needs linear (stride) layouts; tiles,
  // legacy padding and L make positions non-linear (XLA ignores them and
  // would answer wrongly): those are decided exactly through the byte
  // orders (LayoutCanonical.h).
  if (!in.isUntiled() || !out.isUntiled()) {
    if (!isDense(in) || !isDense(out))
      return false;
    return exactReshapeIsBitcast(input, output, ignoreElementType);
  }
  if (*inCount == 0)
    return true;

  // XLA's check: every unit index (one coordinate 1, the rest 0) of one shape
  // lands at the same physical offset as the index of the other shape with
  // the same logical (row-major) linear index, both ways. Offsets are below
  // the element count, so nothing overflows.
  auto checkUnitIndices = [](const Shape &from, const Shape &to) {
    for (int64_t dim = 0; dim < from.getRank(); ++dim) {
      if (from.getDim(dim) <= 1)
        continue;
      SmallVector<int64_t, 6> unitIndex(from.getRank(), 0);
      unitIndex[dim] = 1;
      int64_t logical = rowMajorLinearIndex(from.getDims(), unitIndex);
      SmallVector<int64_t, 6> toIndex = rowMajorIndex(to.getDims(), logical);
      if (physicalLinearIndex(from.getDims(),
                              from.getLayout().getMinorToMajor(), unitIndex) !=
          physicalLinearIndex(to.getDims(), to.getLayout().getMinorToMajor(),
                              toIndex))
        return false;
    }
    return true;
  };
  return checkUnitIndices(input, output) && checkUnitIndices(output, input);
}

llvm::Expected<std::optional<SmallVector<int64_t, 6>>>
mlir::layout::deduceTransposeDimensionsForBitcast(const Shape &input,
                                                  const Shape &output) {
  if (llvm::Error err = checkArrayWithLayout(
          input, "deduceTransposeDimensionsForBitcast input"))
    return std::move(err);
  if (llvm::Error err = checkArrayWithLayout(
          output, "deduceTransposeDimensionsForBitcast output"))
    return std::move(err);
  if (input.getRank() != output.getRank())
    return std::nullopt;
  SmallVector<int64_t, 6> perm = composePermutations(
      input.getLayout().getMinorToMajor(),
      inversePermutation(output.getLayout().getMinorToMajor()));
  bool exact =
      !(input.getLayout().isUntiled() && output.getLayout().isUntiled()) &&
      isDense(input.getLayout()) && isDense(output.getLayout());
  if (permute(input.getDims(), perm) ==
      SmallVector<int64_t, 6>(output.getDims())) {
    // XLA CHECKs this (element types ignored); here tiles or padding that
    // do not match make the transpose a non-bitcast.
    llvm::Expected<bool> isBitcast =
        transposeIsBitcast(input, output, perm, /*ignoreElementType=*/true);
    if (!isBitcast)
      return isBitcast.takeError();
    if (*isBitcast)
      return perm;
  }
  if (!exact)
    return std::nullopt;
  // Tiled: the minor_to_major permutation is not the only candidate (a
  // tile can hide a transpose); the byte orders give the only one.
  llvm::Expected<std::optional<SmallVector<int64_t, 6>>> mapping =
      transposeMappingFromByteOrder(input, output);
  if (!mapping || !*mapping)
    return mapping;
  if (permute(input.getDims(), **mapping) !=
      SmallVector<int64_t, 6>(output.getDims()))
    return std::nullopt;
  llvm::Expected<bool> isBitcast =
      transposeIsBitcast(input, output, **mapping, /*ignoreElementType=*/true);
  if (!isBitcast)
    return isBitcast.takeError();
  if (!*isBitcast)
    return std::nullopt;
  return mapping;
}

/// XLA's AlignLayouts on shapes without size-1 dims.
static std::optional<SmallVector<int64_t, 6>>
alignNonDegenerateLayouts(ArrayRef<int64_t> inputDims,
                          ArrayRef<int64_t> inputMinorToMajor,
                          ArrayRef<int64_t> outputDims) {
  auto factors = commonFactors(inputDims, outputDims);
  int64_t inputRank = static_cast<int64_t>(inputDims.size());
  SmallVector<int64_t, 6> inputToFactor(inputRank, 0);
  SmallVector<int64_t, 6> inputPosition = inversePermutation(inputMinorToMajor);
  // Each factor's input dims must be adjacent in memory, in logical order
  // (major to minor).
  for (size_t pos = 0; pos + 1 < factors.size(); ++pos) {
    int64_t inputStart = factors[pos].first;
    int64_t inputEnd = factors[pos + 1].first;
    if (inputStart >= inputEnd)
      continue;
    int64_t physical = inputPosition[inputStart];
    inputToFactor[inputStart] = static_cast<int64_t>(pos);
    for (int64_t i = inputStart + 1; i < inputEnd; ++i) {
      --physical;
      if (physical < 0 || inputMinorToMajor[physical] != i)
        return std::nullopt;
      inputToFactor[i] = static_cast<int64_t>(pos);
    }
  }
  // Walk the input from minor to major, emitting each factor's output dims
  // minor to major.
  int64_t outputRank = static_cast<int64_t>(outputDims.size());
  SmallVector<int64_t, 6> outputLayout;
  int64_t inputMinor = 0;
  while (static_cast<int64_t>(outputLayout.size()) < outputRank) {
    if (inputMinor >= inputRank)
      return std::nullopt;
    int64_t factor = inputToFactor[inputMinorToMajor[inputMinor]];
    auto start = factors[factor];
    auto end = factors[factor + 1];
    for (int64_t dim = end.second - 1; dim >= start.second; --dim)
      outputLayout.push_back(dim);
    if (end.first <= start.first)
      return std::nullopt;
    inputMinor += end.first - start.first;
  }
  return outputLayout;
}

/// Removes size-1 dims from `dims` and renumbers `minorToMajor` accordingly.
static void dropDegenerate(ArrayRef<int64_t> dims,
                           ArrayRef<int64_t> minorToMajor,
                           SmallVector<int64_t, 6> &newDims,
                           SmallVector<int64_t, 6> &newMinorToMajor) {
  SmallVector<int64_t, 6> newNumber(dims.size(), -1);
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1)
      continue;
    newNumber[i] = static_cast<int64_t>(newDims.size());
    newDims.push_back(dims[i]);
  }
  for (int64_t d : minorToMajor)
    if (newNumber[d] >= 0)
      newMinorToMajor.push_back(newNumber[d]);
}

llvm::Expected<std::optional<Shape>>
mlir::layout::alignLayouts(const Shape &input, const Shape &output) {
  if (llvm::Error err = checkArrayWithLayout(input, "alignLayouts input"))
    return std::move(err);
  if (!output.isArray())
    return makeError("alignLayouts output must be an array shape, got " +
                     primitiveTypeName(output.getElementType()));
  if (!input.getLayout().isUntiled()) {
    // A tiled layout whose byte order is an untiled one is aligned as that
    // one (LayoutCanonical.h); others have no minor_to_major to align.
    llvm::Expected<CanonicalLayout> canonical = canonicalizeLayout(input);
    if (!canonical) {
      llvm::consumeError(canonical.takeError());
    } else if (canonical->shape.getLayout().isUntiled()) {
      return alignLayouts(canonical->shape, output);
    }
    return makeError("alignLayouts needs an untiled input layout (no tiles, "
                     "legacy padding or L), or one with the byte order of an "
                     "untiled layout");
  }
  if (input.hasUnboundedDim() || output.hasUnboundedDim())
    return makeError("alignLayouts: unbounded dynamic dimensions have no "
                     "static element count");
  std::optional<int64_t> inCount = checkedProduct(input.getDims());
  std::optional<int64_t> outCount = checkedProduct(output.getDims());
  if (!inCount || !outCount)
    return makeError("alignLayouts: element count overflows int64");
  if (*inCount != *outCount)
    return makeError("alignLayouts: element counts differ (" +
                     llvm::Twine(*inCount) + " vs " + llvm::Twine(*outCount) +
                     "); not a reshape");

  // Size-1 dims can go anywhere: align without them, then put them back as
  // the most-major dims in descending order (XLA's choice).
  SmallVector<int64_t, 6> inDims, inMinorToMajor, outDims, unusedLayout;
  dropDegenerate(input.getDims(), input.getLayout().getMinorToMajor(), inDims,
                 inMinorToMajor);
  dropDegenerate(output.getDims(),
                 Layout::getDefault(output.getRank()).getMinorToMajor(),
                 outDims, unusedLayout);
  std::optional<SmallVector<int64_t, 6>> simpleLayout =
      alignNonDegenerateLayouts(inDims, inMinorToMajor, outDims);
  if (!simpleLayout)
    return std::nullopt;
  SmallVector<int64_t, 6> dimMap;
  for (int64_t i = 0; i < output.getRank(); ++i)
    if (output.getDim(i) != 1)
      dimMap.push_back(i);
  SmallVector<int64_t, 6> minorToMajor;
  for (int64_t d : *simpleLayout)
    minorToMajor.push_back(dimMap[d]);
  for (int64_t i = output.getRank() - 1; i >= 0; --i)
    if (output.getDim(i) == 1)
      minorToMajor.push_back(i);

  // E(n), S(n) and M(n) stay: the stored bytes are the same (BufferBytes.h).
  // E(n) describes the input's element type: an output of another type
  // keeps its own width.
  const Layout &in = input.getLayout();
  Layout layout(minorToMajor);
  if (output.getElementType() == input.getElementType())
    layout.setElementSizeInBits(in.getElementSizeInBits());
  layout.setMemorySpace(in.getMemorySpace());
  layout.setDynamicShapeMetadataPrefixBytes(
      in.getDynamicShapeMetadataPrefixBytes());
  Shape result = output;
  result.setLayout(layout);
  return result;
}

llvm::Expected<Shape> mlir::layout::deleteDimensions(ArrayRef<int64_t> dims,
                                                     const Shape &shape) {
  if (llvm::Error err =
          checkArrayOptionalLayout(shape, "deleteDimensions shape"))
    return std::move(err);
  SmallVector<int64_t, 6> toDelete;
  for (int64_t dim : dims) {
    std::optional<int64_t> resolved = shape.resolveDimension(dim);
    if (!resolved)
      return makeError("deleteDimensions: dimension " + llvm::Twine(dim) +
                       " is out of range for a shape of rank " +
                       llvm::Twine(shape.getRank()));
    if (llvm::is_contained(toDelete, *resolved))
      return makeError("deleteDimensions: dimension " + llvm::Twine(*resolved) +
                       " is listed twice");
    toDelete.push_back(*resolved);
  }
  if (shape.hasLayout()) {
    if (!shape.getLayout().getTiles().empty())
      return makeError("deleteDimensions: cannot delete dimensions of a tiled "
                       "layout (tiles refer to the physical dimensions)");
    if (!shape.getLayout().getPaddedDimensions().empty())
      return makeError("deleteDimensions: cannot delete dimensions of a "
                       "layout with legacy padded_dimensions");
  }
  // Delete from the highest dim down so that lower numbers stay valid.
  llvm::sort(toDelete, std::greater<int64_t>());
  SmallVector<int64_t, 6> newDims(shape.getDims());
  SmallVector<bool, 6> newDynamic(shape.getDynamicDims());
  std::optional<Layout> layout;
  if (shape.hasLayout())
    layout = shape.getLayout();
  for (int64_t dim : toDelete) {
    newDims.erase(newDims.begin() + dim);
    newDynamic.erase(newDynamic.begin() + dim);
    if (!layout)
      continue;
    // XLA's Layout::DeleteDimension.
    auto &minorToMajor = layout->mutableMinorToMajor();
    llvm::erase(minorToMajor, dim);
    for (int64_t &d : minorToMajor)
      if (d > dim)
        --d;
    auto &levels = layout->mutableDimLevels();
    if (dim < static_cast<int64_t>(levels.size()))
      levels.erase(levels.begin() + dim);
  }
  Shape result = Shape::makeArray(shape.getElementType(), newDims,
                                  layout ? *layout : Layout(), newDynamic);
  if (!layout)
    result.clearLayout();
  // Deleting the 0 of a zero-element shape can leave a size that overflows.
  if (!checkedByteSize(result))
    return makeError("deleteDimensions: the result " + printShape(result) +
                     " has a size that may overflow int64");
  return result;
}
