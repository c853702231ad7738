//===- ShapePrinter.cpp - Canonical HLO text of shapes and layouts --------===//
//
// The canonical text of docs/semantics.md §4, in the attribute order of XLA's
// Layout::Print (D, T, L, #, *, E, S, SC, P, M), followed by the project's
// legacy padding attributes (PAD, PV). Printing never fails, even on shapes
// that do not validate: error messages print the shapes they complain about.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Shape.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir::layout;

namespace {

void printInts(llvm::raw_ostream &os, llvm::ArrayRef<int64_t> values) {
  llvm::interleave(values, os, ",");
}

char dimLevelLetter(DimLevelType type) {
  switch (type) {
  case DimLevelType::Dense:
    return 'D';
  case DimLevelType::Compressed:
    return 'C';
  case DimLevelType::Singleton:
    return 'S';
  case DimLevelType::LooseCompressed:
    return 'H';
  }
  return '?';
}

bool isPlainDense(const DimLevel &level) {
  return level.type == DimLevelType::Dense && level.unique && level.ordered;
}

void printTileTo(llvm::raw_ostream &os, const Tile &tile) {
  os << '(';
  llvm::interleave(
      tile.getDims(), os,
      [&](int64_t d) {
        if (d == Tile::kCombineDimension)
          os << '*';
        else
          os << d;
      },
      ",");
  os << ')';
}

void printShapeTo(llvm::raw_ostream &os, const Shape &shape);

void printLayoutTo(llvm::raw_ostream &os, const Layout &layout) {
  os << '{';
  printInts(os, layout.getMinorToMajor());

  bool colonPrinted = false;
  auto colon = [&] {
    if (!colonPrinted)
      os << ':';
    colonPrinted = true;
  };

  // D(...): only when some dimension is not plain dense (an all-dense list
  // means the same as no list).
  llvm::ArrayRef<DimLevel> levels = layout.getDimLevels();
  if (!llvm::all_of(levels, isPlainDense)) {
    colon();
    os << "D(";
    llvm::interleave(
        levels, os,
        [&](const DimLevel &level) {
          os << dimLevelLetter(level.type);
          if (!level.unique)
            os << '+';
          if (!level.ordered)
            os << '~';
        },
        ",");
    os << ')';
  }
  if (!layout.getTiles().empty()) {
    colon();
    os << 'T';
    for (const Tile &tile : layout.getTiles())
      printTileTo(os, tile);
  }
  if (layout.getTailPaddingAlignment() != 1) {
    colon();
    os << "L(" << layout.getTailPaddingAlignment() << ')';
  }
  if (layout.getIndexPrimitiveType() != PrimitiveType::Invalid) {
    colon();
    os << "#(" << primitiveTypeName(layout.getIndexPrimitiveType()) << ')';
  }
  if (layout.getPointerPrimitiveType() != PrimitiveType::Invalid) {
    colon();
    os << "*(" << primitiveTypeName(layout.getPointerPrimitiveType()) << ')';
  }
  if (layout.getElementSizeInBits() != 0) {
    colon();
    os << "E(" << layout.getElementSizeInBits() << ')';
  }
  if (layout.getMemorySpace() != 0) {
    colon();
    os << "S(" << layout.getMemorySpace() << ')';
  }
  if (!layout.getSplitConfigs().empty()) {
    colon();
    os << "SC";
    for (const SplitConfig &config : layout.getSplitConfigs()) {
      os << '(' << config.dimension << ':';
      printInts(os, config.splitIndices);
      os << ')';
    }
  }
  if (const Shape *physical = layout.getPhysicalShape()) {
    colon();
    os << "P(";
    printShapeTo(os, *physical);
    os << ')';
  }
  // XLA prints M only when positive; a negative (invalid) value is printed
  // too, so that error messages show it.
  if (layout.getDynamicShapeMetadataPrefixBytes() != 0) {
    colon();
    os << "M(" << layout.getDynamicShapeMetadataPrefixBytes() << ')';
  }
  if (!layout.getPaddedDimensions().empty()) {
    colon();
    os << "PAD(";
    printInts(os, layout.getPaddedDimensions());
    os << ')';
  }
  if (layout.getPaddingValue() != PaddingValue::Invalid) {
    colon();
    int value = static_cast<int>(layout.getPaddingValue());
    if (value >= 0 && value <= static_cast<int>(PaddingValue::Unknown))
      os << "PV(" << paddingValueName(layout.getPaddingValue()) << ')';
    else
      os << "PV(" << value << ')';
  }
  os << '}';
}

void printDims(llvm::raw_ostream &os, const Shape &shape) {
  llvm::ArrayRef<int64_t> dims = shape.getDims();
  llvm::ArrayRef<bool> dynamic = shape.getDynamicDims();
  os << '[';
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i != 0)
      os << ',';
    if (dims[i] == kUnboundedSize) {
      os << '?';
      continue;
    }
    if (i < dynamic.size() && dynamic[i])
      os << "<=";
    os << dims[i];
  }
  os << ']';
}

void printShapeTo(llvm::raw_ostream &os, const Shape &shape) {
  if (shape.isTuple()) {
    // XLA's PrintTupleShapes (xla/shape_util.cc): every fifth element is
    // preceded by an `/*index=N*/` comment (kAnnotationPrintInterval = 5).
    os << '(';
    llvm::ArrayRef<Shape> elements = shape.getTupleShapes();
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i != 0)
        os << ", ";
      if (i != 0 && i % 5 == 0)
        os << "/*index=" << i << "*/";
      printShapeTo(os, elements[i]);
    }
    os << ')';
    // Invalid, but shown so that the error message names it.
    if (shape.hasLayout())
      printLayoutTo(os, shape.getLayout());
    return;
  }
  os << primitiveTypeName(shape.getElementType());
  if (shape.getElementType() == PrimitiveType::Invalid &&
      shape.getDims().empty() && !shape.hasLayout())
    return;
  printDims(os, shape);
  if (!shape.hasLayout())
    return;
  std::string layoutText;
  llvm::raw_string_ostream layoutOs(layoutText);
  printLayoutTo(layoutOs, shape.getLayout());
  // Scalars print their layout only if it says something.
  if (shape.getRank() == 0 && layoutText == "{}")
    return;
  // An empty layout of an array: `{:}`, the form XLA's parser reads back
  // (`{` followed by `}` is not a layout there: "Extra content after
  // shape"), so that a printed P(...) physical shape parses again.
  os << (layoutText == "{}" ? "{:}" : layoutText);
}

} // namespace

std::string mlir::layout::printShape(const Shape &shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printShapeTo(os, shape);
  return text;
}

std::string mlir::layout::printLayout(const Layout &layout) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printLayoutTo(os, layout);
  return text;
}

std::string mlir::layout::printTile(const Tile &tile) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printTileTo(os, tile);
  return text;
}
