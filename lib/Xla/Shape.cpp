//===- Shape.cpp - XLA shapes and layouts as value types ------------------===//

#include "layout/Xla/Shape.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::layout;

llvm::Error mlir::layout::makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

bool Tile::hasCombine() const {
  return llvm::is_contained(dims, kCombineDimension);
}

static constexpr llvm::StringLiteral kPaddingValueNames[] = {
    "invalid", "zero", "one", "lowest", "highest", "unknown"};

llvm::StringRef mlir::layout::paddingValueName(PaddingValue value) {
  return kPaddingValueNames[static_cast<int>(value)];
}

std::optional<PaddingValue>
mlir::layout::parsePaddingValueName(llvm::StringRef name) {
  for (int i = 0; i < 6; ++i)
    if (kPaddingValueNames[i] == name)
      return static_cast<PaddingValue>(i);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

Layout::~Layout() = default;

Layout::Layout(const Layout &other)
    : minorToMajor(other.minorToMajor), dimLevels(other.dimLevels),
      tiles(other.tiles), tailPaddingAlignment(other.tailPaddingAlignment),
      indexPrimitiveType(other.indexPrimitiveType),
      pointerPrimitiveType(other.pointerPrimitiveType),
      elementSizeInBits(other.elementSizeInBits),
      memorySpace(other.memorySpace), splitConfigs(other.splitConfigs),
      physicalShape(other.physicalShape
                        ? std::make_unique<Shape>(*other.physicalShape)
                        : nullptr),
      dynamicShapeMetadataPrefixBytes(other.dynamicShapeMetadataPrefixBytes),
      paddedDimensions(other.paddedDimensions),
      paddingValue(other.paddingValue) {}

Layout &Layout::operator=(const Layout &other) {
  if (this != &other) {
    Layout copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Layout Layout::getDefault(int64_t rank) {
  Layout layout;
  for (int64_t i = rank - 1; i >= 0; --i)
    layout.minorToMajor.push_back(i);
  return layout;
}

void Layout::setPhysicalShape(const Shape &shape) {
  physicalShape = std::make_unique<Shape>(shape);
}

void Layout::clearPhysicalShape() { physicalShape.reset(); }

bool Layout::isSparse() const {
  for (const DimLevel &level : dimLevels)
    if (level.type != DimLevelType::Dense)
      return true;
  return indexPrimitiveType != PrimitiveType::Invalid ||
         pointerPrimitiveType != PrimitiveType::Invalid || physicalShape;
}

bool Layout::isUntiled() const {
  return tiles.empty() && paddedDimensions.empty() && tailPaddingAlignment == 1;
}

bool Layout::operator==(const Layout &other) const {
  if (minorToMajor != other.minorToMajor || dimLevels != other.dimLevels ||
      tiles != other.tiles ||
      tailPaddingAlignment != other.tailPaddingAlignment ||
      indexPrimitiveType != other.indexPrimitiveType ||
      pointerPrimitiveType != other.pointerPrimitiveType ||
      elementSizeInBits != other.elementSizeInBits ||
      memorySpace != other.memorySpace || splitConfigs != other.splitConfigs ||
      dynamicShapeMetadataPrefixBytes !=
          other.dynamicShapeMetadataPrefixBytes ||
      paddedDimensions != other.paddedDimensions ||
      paddingValue != other.paddingValue)
    return false;
  if (!physicalShape || !other.physicalShape)
    return !physicalShape && !other.physicalShape;
  return *physicalShape == *other.physicalShape;
}

//===----------------------------------------------------------------------===//
// Shape
//===----------------------------------------------------------------------===//

Shape Shape::makeArray(PrimitiveType elementType, llvm::ArrayRef<int64_t> dims,
                       llvm::ArrayRef<bool> dynamic) {
  return makeArray(elementType, dims,
                   Layout::getDefault(static_cast<int64_t>(dims.size())),
                   dynamic);
}

Shape Shape::makeArray(PrimitiveType elementType, llvm::ArrayRef<int64_t> dims,
                       const Layout &layout, llvm::ArrayRef<bool> dynamic) {
  Shape shape;
  shape.elementType = elementType;
  for (size_t i = 0; i < dims.size(); ++i) {
    bool isDynamic =
        dims[i] == kUnboundedSize || (i < dynamic.size() && dynamic[i]);
    shape.dims.push_back(dims[i]);
    shape.dynamic.push_back(isDynamic);
  }
  shape.layout = layout;
  return shape;
}

Shape Shape::makeTuple(llvm::ArrayRef<Shape> elements) {
  Shape shape;
  shape.elementType = PrimitiveType::Tuple;
  shape.tupleShapes.assign(elements.begin(), elements.end());
  return shape;
}

Shape Shape::makeToken() {
  Shape shape;
  shape.elementType = PrimitiveType::Token;
  return shape;
}

Shape Shape::makeOpaque() {
  Shape shape;
  shape.elementType = PrimitiveType::Opaque;
  return shape;
}

int64_t Shape::getTrueRank() const {
  return llvm::count_if(dims, [](int64_t d) { return d != 1; });
}

bool Shape::isStatic() const {
  if (isTuple())
    return llvm::all_of(tupleShapes,
                        [](const Shape &s) { return s.isStatic(); });
  return llvm::none_of(dynamic, [](bool d) { return d; });
}

bool Shape::hasUnboundedDim() const {
  if (isTuple())
    return llvm::any_of(tupleShapes,
                        [](const Shape &s) { return s.hasUnboundedDim(); });
  return llvm::is_contained(dims, kUnboundedSize);
}

void Shape::setDim(size_t i, int64_t size, bool isDynamic) {
  dims[i] = size;
  dynamic[i] = isDynamic || size == kUnboundedSize;
}

std::optional<int64_t> Shape::resolveDimension(int64_t dim) const {
  int64_t rank = getRank();
  if (dim < -rank || dim >= rank)
    return std::nullopt;
  return dim < 0 ? dim + rank : dim;
}

bool Shape::operator==(const Shape &other) const {
  return elementType == other.elementType && dims == other.dims &&
         dynamic == other.dynamic && layout == other.layout &&
         tupleShapes == other.tupleShapes;
}

//===----------------------------------------------------------------------===//
// Element counts
//===----------------------------------------------------------------------===//

std::optional<int64_t>
mlir::layout::checkedProduct(llvm::ArrayRef<int64_t> dims) {
  // The product, not the running product in dim order: a size-0 dim makes it
  // 0 wherever it stands (f32[5,2^40,2^40,0] has 0 elements, like its
  // permutation f32[0,5,2^40,2^40]).
  if (llvm::is_contained(dims, 0))
    return 0;
  int64_t product = 1;
  for (int64_t d : dims) {
    std::optional<int64_t> next = llvm::checkedMul(product, d);
    if (!next)
      return std::nullopt;
    product = *next;
  }
  return product;
}

llvm::Expected<int64_t> mlir::layout::getElementCount(const Shape &shape) {
  if (!shape.isArray())
    return makeError("shape " + printShape(shape) + " is not an array");
  if (shape.hasUnboundedDim())
    return makeError("shape " + printShape(shape) +
                     " has an unbounded dynamic dimension; its element count "
                     "is not known");
  std::optional<int64_t> count = checkedProduct(shape.getDims());
  if (!count)
    return makeError("shape " + printShape(shape) +
                     " has an element count that may overflow int64");
  return *count;
}
