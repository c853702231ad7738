//===- LayoutTypeConversion.cpp - XLA shapes <-> MLIR types ---------------===//
//
// See LayoutTypeConversion.h for the table.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::layout;

Type mlir::layout::convertElementType(PrimitiveType type,
                                      MLIRContext *context) {
  auto signless = [&](unsigned w) { return IntegerType::get(context, w); };
  auto withSign = [&](unsigned w, IntegerType::SignednessSemantics s) {
    return IntegerType::get(context, w, s);
  };
  switch (type) {
  case PrimitiveType::Pred:
    return signless(1);
  case PrimitiveType::S1:
    return withSign(1, IntegerType::Signed);
  case PrimitiveType::S2:
    return signless(2);
  case PrimitiveType::S4:
    return signless(4);
  case PrimitiveType::S8:
    return signless(8);
  case PrimitiveType::S16:
    return signless(16);
  case PrimitiveType::S32:
    return signless(32);
  case PrimitiveType::S64:
    return signless(64);
  case PrimitiveType::U1:
    return withSign(1, IntegerType::Unsigned);
  case PrimitiveType::U2:
    return withSign(2, IntegerType::Unsigned);
  case PrimitiveType::U4:
    return withSign(4, IntegerType::Unsigned);
  case PrimitiveType::U8:
    return withSign(8, IntegerType::Unsigned);
  case PrimitiveType::U16:
    return withSign(16, IntegerType::Unsigned);
  case PrimitiveType::U32:
    return withSign(32, IntegerType::Unsigned);
  case PrimitiveType::U64:
    return withSign(64, IntegerType::Unsigned);
  case PrimitiveType::F16:
    return Float16Type::get(context);
  case PrimitiveType::BF16:
    return BFloat16Type::get(context);
  case PrimitiveType::F32:
    return Float32Type::get(context);
  case PrimitiveType::F64:
    return Float64Type::get(context);
  case PrimitiveType::C64:
    return ComplexType::get(Float32Type::get(context));
  case PrimitiveType::C128:
    return ComplexType::get(Float64Type::get(context));
  case PrimitiveType::F8E5M2:
    return Float8E5M2Type::get(context);
  case PrimitiveType::F8E4M3FN:
    return Float8E4M3FNType::get(context);
  case PrimitiveType::F8E4M3B11FNUZ:
    return Float8E4M3B11FNUZType::get(context);
  case PrimitiveType::F8E5M2FNUZ:
    return Float8E5M2FNUZType::get(context);
  case PrimitiveType::F8E4M3FNUZ:
    return Float8E4M3FNUZType::get(context);
  case PrimitiveType::F8E4M3:
    return Float8E4M3Type::get(context);
  case PrimitiveType::F8E3M4:
    return Float8E3M4Type::get(context);
  case PrimitiveType::F4E2M1FN:
    return Float4E2M1FNType::get(context);
  case PrimitiveType::F8E8M0FNU:
    return Float8E8M0FNUType::get(context);
  case PrimitiveType::Invalid:
  case PrimitiveType::Tuple:
  case PrimitiveType::Token:
  case PrimitiveType::Opaque:
    return Type();
  }
  return Type();
}

std::optional<PrimitiveType> mlir::layout::convertElementType(Type type) {
  if (!type)
    return std::nullopt;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned w = intType.getWidth();
    if (intType.isUnsigned())
      return unsignedTypeOfBitWidth(w);
    if (w == 1)
      return intType.isSigned() ? PrimitiveType::S1 : PrimitiveType::Pred;
    switch (w) {
    case 2:
      return PrimitiveType::S2;
    case 4:
      return PrimitiveType::S4;
    case 8:
      return PrimitiveType::S8;
    case 16:
      return PrimitiveType::S16;
    case 32:
      return PrimitiveType::S32;
    case 64:
      return PrimitiveType::S64;
    default:
      return std::nullopt;
    }
  }
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (complex.getElementType().isF32())
      return PrimitiveType::C64;
    if (complex.getElementType().isF64())
      return PrimitiveType::C128;
    return std::nullopt;
  }
  if (isa<Float16Type>(type))
    return PrimitiveType::F16;
  if (isa<BFloat16Type>(type))
    return PrimitiveType::BF16;
  if (isa<Float32Type>(type))
    return PrimitiveType::F32;
  if (isa<Float64Type>(type))
    return PrimitiveType::F64;
  if (isa<Float8E5M2Type>(type))
    return PrimitiveType::F8E5M2;
  if (isa<Float8E4M3FNType>(type))
    return PrimitiveType::F8E4M3FN;
  if (isa<Float8E4M3B11FNUZType>(type))
    return PrimitiveType::F8E4M3B11FNUZ;
  if (isa<Float8E5M2FNUZType>(type))
    return PrimitiveType::F8E5M2FNUZ;
  if (isa<Float8E4M3FNUZType>(type))
    return PrimitiveType::F8E4M3FNUZ;
  if (isa<Float8E4M3Type>(type))
    return PrimitiveType::F8E4M3;
  if (isa<Float8E3M4Type>(type))
    return PrimitiveType::F8E3M4;
  if (isa<Float4E2M1FNType>(type))
    return PrimitiveType::F4E2M1FN;
  if (isa<Float8E8M0FNUType>(type))
    return PrimitiveType::F8E8M0FNU;
  return std::nullopt;
}

/// True if `layout` is the default row-major layout of `rank` with no other
/// field set (so it needs no encoding / layout attribute).
static bool isPlainDefault(const Layout &layout, int64_t rank) {
  Layout plain = Layout::getDefault(rank);
  plain.setMemorySpace(layout.getMemorySpace());
  return layout == plain;
}

FailureOr<Type> mlir::layout::convertShapeToType(
    const Shape &shape, MLIRContext *context, ArrayTypeKind kind,
    llvm::function_ref<InFlightDiagnostic()> emitError) {
  if (shape.isTuple()) {
    SmallVector<Type> elements;
    for (const Shape &element : shape.getTupleShapes()) {
      FailureOr<Type> type =
          convertShapeToType(element, context, kind, emitError);
      if (failed(type))
        return failure();
      elements.push_back(*type);
    }
    return Type(TupleType::get(context, elements));
  }
  if (!shape.isArray())
    return emitError() << "XLA shape '" << printShape(shape)
                       << "' has no MLIR builtin type equivalent";
  Type elementType = convertElementType(shape.getElementType(), context);
  if (!elementType)
    return emitError() << "XLA element type '"
                       << primitiveTypeName(shape.getElementType())
                       << "' has no MLIR equivalent";
  SmallVector<int64_t> dims;
  for (int64_t i = 0; i < shape.getRank(); ++i)
    dims.push_back(shape.isDynamicDim(i) ? ShapedType::kDynamic
                                         : shape.getDim(i));
  Layout layout = shape.hasLayout() ? shape.getLayout()
                                    : Layout::getDefault(shape.getRank());
  bool plain = isPlainDefault(layout, shape.getRank());
  TiledLayoutAttr attr;
  if (!plain || (kind == ArrayTypeKind::Tensor && layout.getMemorySpace()))
    attr = TiledLayoutAttr::getChecked(
        emitError, context, layout,
        llvm::any_of(layout.getTiles(),
                     [](const Tile &t) { return t.hasCombine(); })
            ? ArrayRef<int64_t>(dims)
            : ArrayRef<int64_t>());
  if (!plain && !attr)
    return failure();
  if (kind == ArrayTypeKind::Tensor)
    return Type(RankedTensorType::get(dims, elementType, attr));
  if (attr)
    return Type(getMemRefType(dims, elementType, attr));
  Attribute space = layout.getMemorySpace() == 0
                        ? Attribute()
                        : IntegerAttr::get(IntegerType::get(context, 64),
                                           layout.getMemorySpace());
  return Type(
      MemRefType::get(dims, elementType, MemRefLayoutAttrInterface(), space));
}

FailureOr<Shape> mlir::layout::convertTypeToShape(
    Type type, llvm::function_ref<InFlightDiagnostic()> emitError) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    std::vector<Shape> elements;
    for (Type element : tuple.getTypes()) {
      FailureOr<Shape> shape = convertTypeToShape(element, emitError);
      if (failed(shape))
        return failure();
      elements.push_back(std::move(*shape));
    }
    return Shape::makeTuple(elements);
  }
  Type elementType = type;
  SmallVector<int64_t> dims;
  std::optional<Layout> layout;
  int64_t memorySpace = 0;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    elementType = tensor.getElementType();
    dims.assign(tensor.getShape().begin(), tensor.getShape().end());
    if (Attribute encoding = tensor.getEncoding()) {
      auto tiled = dyn_cast<TiledLayoutAttr>(encoding);
      if (!tiled)
        return emitError() << "tensor encoding " << encoding
                           << " is not a #layout.tiled layout";
      layout = tiled.getLayout();
    }
  } else if (auto memref = dyn_cast<MemRefType>(type)) {
    elementType = memref.getElementType();
    dims.assign(memref.getShape().begin(), memref.getShape().end());
    std::optional<int64_t> space = getIntegerMemorySpace(memref);
    if (!space)
      return emitError() << "memory space of " << type
                         << " is not an integer (XLA's S(n))";
    memorySpace = *space;
    if (auto tiled = dyn_cast<TiledLayoutAttr>(memref.getLayout())) {
      layout = tiled.getLayout();
      if (layout->getMemorySpace() != memorySpace)
        return emitError() << "memory space of " << type
                           << " does not match the layout's S("
                           << layout->getMemorySpace() << ")";
    } else if (!memref.getLayout().isIdentity()) {
      return emitError() << "memref layout " << memref.getLayout()
                         << " has no XLA equivalent (expected the identity "
                            "or #layout.tiled)";
    }
  } else if (isa<ShapedType>(type)) {
    return emitError() << "type " << type
                       << " has no XLA shape (expected a ranked tensor, a "
                          "memref, a tuple or an element type)";
  }
  std::optional<PrimitiveType> primitive = convertElementType(elementType);
  if (!primitive)
    return emitError() << "element type " << elementType
                       << " has no XLA equivalent";
  if (!layout) {
    layout = Layout::getDefault(static_cast<int64_t>(dims.size()));
    layout->setMemorySpace(memorySpace);
  }
  Shape shape = Shape::makeArray(*primitive, dims, *layout);
  if (llvm::Error err = validateShape(shape))
    return emitError() << llvm::toString(std::move(err));
  return shape;
}

std::optional<Shape> mlir::layout::getStaticArrayShape(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() || !shaped.hasStaticShape() ||
      shaped.getRank() == 0)
    return std::nullopt;
  // An inactive diagnostic: the caller only asks whether the type qualifies.
  FailureOr<Shape> shape =
      convertTypeToShape(type, [] { return InFlightDiagnostic(); });
  if (failed(shape))
    return std::nullopt;
  return std::move(*shape);
}
