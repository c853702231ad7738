//===- ShapeValidation.cpp - The shape/layout invariant checker -----------===//
//
// XLA's ShapeUtil::ValidateShape (ValidateNonLayoutProperties) and
// LayoutUtil::ValidateLayoutForShape, with XLA's wording, plus the project's
// checks: tile entries, L/E/S/M ranges, split configs, legacy padding and
// the sparse-only fields (XLA's older sparse rules). A missing layout on an
// array shape is accepted and means the default layout (docs/semantics.md §4).
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Shape.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir::layout;

namespace {

std::string joinInts(llvm::ArrayRef<int64_t> values) {
  return llvm::join(
      llvm::map_range(values, [](int64_t v) { return std::to_string(v); }),
      ", ");
}

llvm::StringRef dimLevelTypeName(DimLevelType type) {
  switch (type) {
  case DimLevelType::Dense:
    return "DIM_DENSE";
  case DimLevelType::Compressed:
    return "DIM_COMPRESSED";
  case DimLevelType::Singleton:
    return "DIM_SINGLETON";
  case DimLevelType::LooseCompressed:
    return "DIM_LOOSE_COMPRESSED";
  }
  return "DIM_INVALID";
}

/// XLA's PrimitiveType_Name: the uppercase enum name (F32, TOKEN, ...).
std::string upperTypeName(PrimitiveType type) {
  if (type == PrimitiveType::Opaque)
    return "OPAQUE_TYPE";
  return llvm::StringRef(primitiveTypeName(type)).upper();
}

bool layoutHasNestedPhysicalShape(const Shape &shape) {
  if (shape.isTuple())
    return llvm::any_of(shape.getTupleShapes(), layoutHasNestedPhysicalShape);
  return shape.hasLayout() && shape.getLayout().getPhysicalShape();
}

/// Minor_to_major: a permutation of the dims.
llvm::Error validateMinorToMajor(const Layout &layout,
                                 llvm::ArrayRef<int64_t> dims,
                                 PrimitiveType elementType,
                                 const std::string &shapeText) {
  int64_t rank = static_cast<int64_t>(dims.size());
  llvm::ArrayRef<int64_t> minorToMajor = layout.getMinorToMajor();
  if (static_cast<int64_t>(minorToMajor.size()) != rank)
    return makeError("layout minor_to_major field contains " +
                     llvm::Twine(minorToMajor.size()) +
                     " elements, but shape has " + llvm::Twine(rank) +
                     " dimensions: {" + joinInts(minorToMajor) +
                     "}; shape: " + shapeText);
  llvm::SmallVector<bool, 8> seen(rank, false);
  for (int64_t dim : minorToMajor) {
    if (dim < 0 || dim >= rank)
      return makeError(
          "layout minor_to_major field has out-of-bounds value: {" +
          joinInts(minorToMajor) + "}; shape: " + shapeText);
    if (seen[dim])
      return makeError("layout minor_to_major field has duplicate values: {" +
                       joinInts(minorToMajor) + "}; shape: " + shapeText);
    seen[dim] = true;
  }
  return llvm::Error::success();
}

/// The sparse-only fields (XLA's rules from when it supported sparse arrays).
llvm::Error validateSparseFields(const Layout &layout,
                                 llvm::ArrayRef<int64_t> dims,
                                 PrimitiveType elementType,
                                 const std::string &shapeText) {
  int64_t rank = static_cast<int64_t>(dims.size());
  // Sparse fields (XLA's rules from when it supported sparse arrays).
  llvm::ArrayRef<DimLevel> levels = layout.getDimLevels();
  if (!levels.empty() && static_cast<int64_t>(levels.size()) != rank) {
    std::string names =
        llvm::join(llvm::map_range(levels,
                                   [](const DimLevel &l) {
                                     return dimLevelTypeName(l.type).str();
                                   }),
                   ", ");
    return makeError("layout dim_level_types field contains " +
                     llvm::Twine(levels.size()) +
                     " elements, but shape is rank " + llvm::Twine(rank) +
                     ": {" + names + "}; shape: " + shapeText);
  }
  bool sparse = llvm::any_of(
      levels, [](const DimLevel &l) { return l.type != DimLevelType::Dense; });
  if (sparse) {
    if (!layout.getTiles().empty())
      return makeError("layout has tiles, but the shape is a sparse array: " +
                       shapeText);
    if (const Shape *physical = layout.getPhysicalShape()) {
      if (llvm::Error err = validateShape(*physical))
        return err;
      if (layoutHasNestedPhysicalShape(*physical))
        return makeError("layout has a physical_shape, whose layout also has "
                         "a physical shape: " +
                         shapeText);
    }
    if (layout.getIndexPrimitiveType() != PrimitiveType::Invalid &&
        !isUnsignedIntegralType(layout.getIndexPrimitiveType()))
      return makeError(
          "index_primitive_type is not an unsigned integer type: " + shapeText);
    if (layout.getPointerPrimitiveType() != PrimitiveType::Invalid &&
        !isUnsignedIntegralType(layout.getPointerPrimitiveType()))
      return makeError(
          "pointer_primitive_type is not an unsigned integer type: " +
          shapeText);
  } else {
    if (layout.getIndexPrimitiveType() != PrimitiveType::Invalid)
      return makeError(
          "layout has a index_primitive_type, but is not a sparse array: " +
          shapeText);
    if (layout.getPointerPrimitiveType() != PrimitiveType::Invalid)
      return makeError(
          "layout has a pointer_primitive_type, but is not a sparse array: " +
          shapeText);
    if (layout.getPhysicalShape())
      return makeError(
          "layout has a physical_shape, but is not a sparse array: " +
          shapeText);
  }
  for (int64_t dim = 0; dim < static_cast<int64_t>(levels.size()); ++dim) {
    const DimLevel &level = levels[dim];
    if (level.type == DimLevelType::Dense && (!level.unique || !level.ordered))
      return makeError(
          "layout dimension " + llvm::Twine(dim) +
          " has invalid level encoding " + dimLevelTypeName(level.type) +
          (level.unique ? "" : ", non-unique") +
          (level.ordered ? "" : ", non-ordered") + ": " + shapeText);
  }
  return llvm::Error::success();
}

/// The tile levels and their entries.
llvm::Error validateTiles(const Layout &layout, llvm::ArrayRef<int64_t> dims,
                          PrimitiveType elementType,
                          const std::string &shapeText) {
  int64_t rank = static_cast<int64_t>(dims.size());
  // Absurd tilings are refused before any consumer walks them.
  int64_t numLevels = static_cast<int64_t>(layout.getTiles().size());
  if (numLevels > kMaxTileLevels)
    return makeError("layout has " + llvm::Twine(numLevels) +
                     " tile levels, more than the supported " +
                     llvm::Twine(kMaxTileLevels));
  int64_t physicalRankBound = rank;
  for (const Tile &tile : layout.getTiles())
    physicalRankBound += static_cast<int64_t>(tile.size());
  if (physicalRankBound > kMaxPhysicalRank)
    return makeError("layout has a physical rank of up to " +
                     llvm::Twine(physicalRankBound) +
                     " (rank plus tile entries), more than the supported " +
                     llvm::Twine(kMaxPhysicalRank));

  // Tiles: XLA rejects empty tiles and 0 entries; the project also rejects
  // other non-positive entries and a trailing `*` (nothing to combine with).
  for (const Tile &tile : layout.getTiles()) {
    llvm::StringRef reason;
    if (tile.size() == 0)
      reason = "a tile must have at least one entry";
    else if (llvm::any_of(tile.getDims(), [](int64_t d) {
               return d <= 0 && d != Tile::kCombineDimension;
             }))
      reason = "tile entries must be positive or '*'";
    else if (tile.getDims().back() == Tile::kCombineDimension)
      reason = "'*' cannot be the last entry of a tile";
    if (!reason.empty())
      return makeError("layout has invalid tiles: " + shapeText + ": tile " +
                       printTile(tile) + ": " + reason);
  }
  return llvm::Error::success();
}

/// Tail padding alignment, element size, memory space, metadata prefix.
llvm::Error validateLayoutScalars(const Layout &layout,
                                  llvm::ArrayRef<int64_t> dims,
                                  PrimitiveType elementType,
                                  const std::string &shapeText) {
  if (layout.getTailPaddingAlignment() <= 0)
    return makeError(
        "layout tail_padding_alignment_in_elements field is <= 0: {" +
        llvm::Twine(layout.getTailPaddingAlignment()) + "}");
  if (layout.getElementSizeInBits() < 0)
    return makeError("layout element_size_in_bits field is negative: " +
                     llvm::Twine(layout.getElementSizeInBits()));
  if (layout.getMemorySpace() < 0)
    return makeError("layout memory_space field is negative: " +
                     llvm::Twine(layout.getMemorySpace()));
  if (layout.getDynamicShapeMetadataPrefixBytes() < 0)
    return makeError(
        "layout dynamic_shape_metadata_prefix_bytes field is negative: " +
        llvm::Twine(layout.getDynamicShapeMetadataPrefixBytes()));
  return llvm::Error::success();
}

/// Split configs.
llvm::Error validateSplitConfigs(const Layout &layout,
                                 llvm::ArrayRef<int64_t> dims,
                                 PrimitiveType elementType,
                                 const std::string &shapeText) {
  int64_t rank = static_cast<int64_t>(dims.size());
  llvm::ArrayRef<int64_t> minorToMajor = layout.getMinorToMajor();
  // Split configs. As in XLA's LayoutUtil::MaxSplitSize, `dimension` counts
  // physical dimensions, most-major first: it splits logical dimension
  // minor_to_major[rank - 1 - dimension].
  llvm::SmallVector<bool, 8> splitSeen(rank, false);
  for (const SplitConfig &config : layout.getSplitConfigs()) {
    // XLA's SplitConfig::ToString joins the indices with ",".
    std::string text =
        "SC(" + std::to_string(config.dimension) + ":" +
        llvm::join(llvm::map_range(config.splitIndices,
                                   [](int64_t v) { return std::to_string(v); }),
                   ",") +
        ")";
    if (config.dimension < 0 || config.dimension >= rank)
      return makeError("layout split config " + text +
                       " has out-of-bounds dimension " +
                       llvm::Twine(config.dimension) + " (shape has " +
                       llvm::Twine(rank) + " dimensions): " + shapeText);
    if (splitSeen[config.dimension])
      return makeError("layout has more than one split config for dimension " +
                       llvm::Twine(config.dimension) + ": " + shapeText);
    splitSeen[config.dimension] = true;
    int64_t size = dims[minorToMajor[rank - 1 - config.dimension]];
    int64_t previous = 0;
    for (int64_t index : config.splitIndices) {
      if (index <= previous)
        return makeError("layout split config " + text +
                         " has split indices that are not positive and "
                         "strictly increasing: " +
                         shapeText);
      if (size != kUnboundedSize && index >= size)
        return makeError("layout split config " + text + " splits at " +
                         llvm::Twine(index) +
                         ", outside the split dimension of size " +
                         llvm::Twine(size) + ": " + shapeText);
      previous = index;
    }
  }
  return llvm::Error::success();
}

/// Legacy padded dimensions and the padding value.
llvm::Error validatePaddingFields(const Layout &layout,
                                  llvm::ArrayRef<int64_t> dims,
                                  PrimitiveType elementType,
                                  const std::string &shapeText) {
  int64_t rank = static_cast<int64_t>(dims.size());
  // Legacy padding: one padded size per logical dimension, each >= it.
  llvm::ArrayRef<int64_t> padded = layout.getPaddedDimensions();
  if (!padded.empty()) {
    if (static_cast<int64_t>(padded.size()) != rank)
      return makeError("layout padded_dimensions field contains " +
                       llvm::Twine(padded.size()) +
                       " elements, but shape has " + llvm::Twine(rank) +
                       " dimensions: {" + joinInts(padded) +
                       "}; shape: " + shapeText);
    for (int64_t i = 0; i < rank; ++i) {
      if (dims[i] == kUnboundedSize)
        return makeError("layout padded_dimensions cannot pad the unbounded "
                         "dynamic dimension " +
                         llvm::Twine(i) + ": " + shapeText);
      if (padded[i] < dims[i])
        return makeError(
            "layout padded_dimensions field has value " +
            llvm::Twine(padded[i]) + " for dimension " + llvm::Twine(i) +
            " of size " + llvm::Twine(dims[i]) +
            "; padded sizes must be >= the dimension sizes: " + shapeText);
    }
    std::optional<int64_t> count = checkedProduct(padded);
    if (count)
      count = llvm::checkedMul(*count, primitiveTypeByteWidth(elementType));
    if (!count)
      return makeError("Shape " + shapeText +
                       " padded size may overflow int64_t.");
  }
  int paddingValue = static_cast<int>(layout.getPaddingValue());
  if (paddingValue < 0 ||
      paddingValue > static_cast<int>(PaddingValue::Unknown))
    return makeError("layout padding_value field has invalid value " +
                     llvm::Twine(paddingValue) + ": " + shapeText);
  return llvm::Error::success();
  return llvm::Error::success();
}

/// The layout checks, with `shapeText` naming the shape in messages; the
/// first failing check (in this order) is the error.
llvm::Error validateLayout(const Layout &layout, llvm::ArrayRef<int64_t> dims,
                           PrimitiveType elementType,
                           const std::string &shapeText) {
  if (llvm::Error err =
          validateMinorToMajor(layout, dims, elementType, shapeText))
    return err;
  if (llvm::Error err =
          validateSparseFields(layout, dims, elementType, shapeText))
    return err;
  if (llvm::Error err = validateTiles(layout, dims, elementType, shapeText))
    return err;
  if (llvm::Error err =
          validateLayoutScalars(layout, dims, elementType, shapeText))
    return err;
  if (llvm::Error err =
          validateSplitConfigs(layout, dims, elementType, shapeText))
    return err;
  if (llvm::Error err =
          validatePaddingFields(layout, dims, elementType, shapeText))
    return err;
  return llvm::Error::success();
}
} // namespace

llvm::Error mlir::layout::validateLayoutForDims(const Layout &layout,
                                                llvm::ArrayRef<int64_t> dims,
                                                PrimitiveType elementType) {
  return validateLayout(
      layout, dims, elementType,
      printShape(Shape::makeArray(elementType, dims, layout)));
}

llvm::Error mlir::layout::validateShape(const Shape &shape) {
  PrimitiveType type = shape.getElementType();
  if (type == PrimitiveType::Invalid)
    return makeError("Shape Error: Invalid element type. Shape: " +
                     printShape(shape));

  if (shape.isTuple() || shape.isToken() || shape.isOpaque()) {
    if (!shape.getDims().empty())
      return makeError("shape of primitive type " + upperTypeName(type) +
                       " should not have dimensions: " + printShape(shape));
    if (shape.hasLayout())
      return makeError(shape.isTuple()
                           ? std::string("tuple should not have a layout field")
                           : "shape of primitive type " + upperTypeName(type) +
                                 " should not have a layout");
    if (!shape.isTuple() && !shape.getTupleShapes().empty())
      return makeError("shape of primitive type " + upperTypeName(type) +
                       " should not have tuple elements");
    for (const Shape &element : shape.getTupleShapes())
      if (llvm::Error err = validateShape(element))
        return err;
    return llvm::Error::success();
  }

  // Array shapes: XLA's ValidateDimensions + ValidateShapeSize.
  llvm::ArrayRef<int64_t> dims = shape.getDims();
  if (!shape.getTupleShapes().empty())
    return makeError("array shape " + printShape(shape) +
                     " should not have tuple elements");
  if (shape.getDynamicDims().size() != dims.size())
    return makeError("Shape Error: dynamic dimension flags do not match the "
                     "dimensions. Shape: " +
                     printShape(shape));
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == kUnboundedSize) {
      if (!shape.isDynamicDim(i))
        return makeError("Shape Error: unbounded dimension " + llvm::Twine(i) +
                         " is not marked dynamic. Shape: " + printShape(shape));
      continue;
    }
    if (dims[i] < 0)
      return makeError("Shape Error: Negative dimension at index " +
                       llvm::Twine(i) + ": " + llvm::Twine(dims[i]) +
                       ". Shape: " + printShape(shape));
  }
  // Unbounded dims are skipped (as XLA's ExtentProduct<kBoundedDynamicOk>);
  // bounded ones count at their bound. A size-0 dim makes the size 0 in any
  // order: XLA multiplies in dim order, so it accepts f32[1,0,2^55,377] and
  // rejects its permutation f32[2^55,377,1,0] (permuteDimensions must keep
  // a valid shape valid).
  std::optional<int64_t> size = llvm::is_contained(dims, 0) ? 0 : 1;
  for (int64_t d : dims)
    if (d != kUnboundedSize && size)
      size = llvm::checkedMul(*size, d);
  if (size)
    size = llvm::checkedMul(*size, primitiveTypeByteWidth(type));
  if (!size)
    return makeError("Shape " + printShape(shape) +
                     " size may overflow int64_t.");

  if (!shape.hasLayout())
    return llvm::Error::success();
  return validateLayout(shape.getLayout(), dims, type, printShape(shape));
}
