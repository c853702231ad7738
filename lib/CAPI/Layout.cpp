//===- Layout.cpp - C API of the layout dialect ---------------------------===//
//
// Thin wrappers over the dialect's attributes and the XLA layout library
// (include/layout-c/Dialect/Layout.h). No function aborts on bad input: text
// errors become diagnostics on the context, bad queries return -1.
//
//===----------------------------------------------------------------------===//

#include "layout-c/Dialect/Layout.h"

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/InitAll.h"
#include "layout/Xla/Shape.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/Error.h"

using namespace mlir;
using namespace mlir::layout;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Layout, layout,
                                      mlir::layout::LayoutDialect)

void mlirLayoutRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::layout::registerAllDialects(*unwrap(registry));
}

void mlirRegisterLayoutPasses(void) { mlir::layout::registerAllPasses(); }

//===----------------------------------------------------------------------===//
// #layout.tiled
//===----------------------------------------------------------------------===//

bool mlirAttributeIsALayoutTiled(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<TiledLayoutAttr>(unwrap(attr));
}

MlirAttribute mlirLayoutTiledAttrGet(MlirContext ctx,
                                     MlirStringRef xlaLayoutText) {
  MLIRContext *context = unwrap(ctx);
  StringRef text = unwrap(xlaLayoutText);
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(context)); };
  llvm::Expected<Layout> layout = parseLayout(text);
  if (!layout) {
    emitError() << "invalid XLA layout '" << text
                << "': " << llvm::toString(layout.takeError());
    return MlirAttribute{nullptr};
  }
  context->getOrLoadDialect<LayoutDialect>();
  return wrap(TiledLayoutAttr::getChecked(
      llvm::function_ref<InFlightDiagnostic()>(emitError), context, *layout));
}

/// The attribute's layout, or null if `attr` is not a #layout.tiled.
static const Layout *getTiledLayout(MlirAttribute attr) {
  if (!mlirAttributeIsALayoutTiled(attr))
    return nullptr;
  return &cast<TiledLayoutAttr>(unwrap(attr)).getLayout();
}

int64_t mlirLayoutTiledAttrGetPhysicalIndex(MlirAttribute attr, intptr_t rank,
                                            const int64_t *shape,
                                            const int64_t *index) {
  const Layout *layout = getTiledLayout(attr);
  if (!layout || rank < 0 ||
      rank != static_cast<intptr_t>(layout->getMinorToMajor().size()) ||
      (rank > 0 && (!shape || !index)))
    return -1;
  ArrayRef<int64_t> dims(shape, rank), logical(index, rank);
  for (int64_t d : dims)
    if (d < 0)
      return -1;
  // The element type does not change element positions (E(n) and the
  // type's width only change bytes), so any array type does.
  llvm::Expected<TiledLayoutMap> map =
      TiledLayoutMap::get(Shape::makeArray(PrimitiveType::F32, dims, *layout));
  if (!map) {
    llvm::consumeError(map.takeError());
    return -1;
  }
  llvm::Expected<int64_t> linear = map->checkedLinearIndex(logical);
  if (!linear) {
    llvm::consumeError(linear.takeError());
    return -1;
  }
  return *linear;
}

intptr_t mlirLayoutTiledAttrGetRank(MlirAttribute attr) {
  const Layout *layout = getTiledLayout(attr);
  return layout ? static_cast<intptr_t>(layout->getMinorToMajor().size()) : -1;
}

int64_t mlirLayoutTiledAttrGetMinorToMajor(MlirAttribute attr, intptr_t pos) {
  const Layout *layout = getTiledLayout(attr);
  if (!layout || pos < 0 ||
      pos >= static_cast<intptr_t>(layout->getMinorToMajor().size()))
    return -1;
  return layout->getMinorToMajor(pos);
}

intptr_t mlirLayoutTiledAttrGetNumTiles(MlirAttribute attr) {
  const Layout *layout = getTiledLayout(attr);
  return layout ? static_cast<intptr_t>(layout->getTiles().size()) : -1;
}

intptr_t mlirLayoutTiledAttrGetTileRank(MlirAttribute attr, intptr_t tile) {
  const Layout *layout = getTiledLayout(attr);
  if (!layout || tile < 0 ||
      tile >= static_cast<intptr_t>(layout->getTiles().size()))
    return -1;
  return static_cast<intptr_t>(layout->getTiles()[tile].size());
}

int64_t mlirLayoutTiledAttrGetTileDim(MlirAttribute attr, intptr_t tile,
                                      intptr_t pos) {
  intptr_t tileRank = mlirLayoutTiledAttrGetTileRank(attr, tile);
  if (tileRank < 0 || pos < 0 || pos >= tileRank)
    return -1;
  return getTiledLayout(attr)->getTiles()[tile].getDim(pos);
}

int64_t mlirLayoutTiledAttrCombineDimension(void) {
  return Tile::kCombineDimension;
}

int64_t mlirLayoutTiledAttrGetElementSizeInBits(MlirAttribute attr) {
  const Layout *layout = getTiledLayout(attr);
  return layout ? layout->getElementSizeInBits() : -1;
}

int64_t mlirLayoutTiledAttrGetMemorySpace(MlirAttribute attr) {
  const Layout *layout = getTiledLayout(attr);
  return layout ? layout->getMemorySpace() : -1;
}

int64_t mlirLayoutTiledAttrGetTailPaddingAlignment(MlirAttribute attr) {
  const Layout *layout = getTiledLayout(attr);
  return layout ? layout->getTailPaddingAlignment() : -1;
}

intptr_t mlirLayoutTiledAttrGetNumPaddedDimensions(MlirAttribute attr) {
  const Layout *layout = getTiledLayout(attr);
  return layout ? static_cast<intptr_t>(layout->getPaddedDimensions().size())
                : -1;
}

int64_t mlirLayoutTiledAttrGetPaddedDimension(MlirAttribute attr,
                                              intptr_t pos) {
  const Layout *layout = getTiledLayout(attr);
  if (!layout || pos < 0 ||
      pos >= static_cast<intptr_t>(layout->getPaddedDimensions().size()))
    return -1;
  return layout->getPaddedDimensions()[pos];
}

int64_t mlirLayoutTiledAttrGetPaddingValue(MlirAttribute attr) {
  const Layout *layout = getTiledLayout(attr);
  return layout ? static_cast<int64_t>(layout->getPaddingValue()) : -1;
}

//===----------------------------------------------------------------------===//
// #layout.shape
//===----------------------------------------------------------------------===//

bool mlirAttributeIsALayoutShape(MlirAttribute attr) {
  return !mlirAttributeIsNull(attr) && isa<ShapeAttr>(unwrap(attr));
}

MlirAttribute mlirLayoutShapeAttrGet(MlirContext ctx,
                                     MlirStringRef xlaShapeText) {
  MLIRContext *context = unwrap(ctx);
  StringRef text = unwrap(xlaShapeText);
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(context)); };
  llvm::Expected<Shape> shape = parseShape(text);
  if (!shape) {
    emitError() << "invalid XLA shape '" << text
                << "': " << llvm::toString(shape.takeError());
    return MlirAttribute{nullptr};
  }
  context->getOrLoadDialect<LayoutDialect>();
  return wrap(ShapeAttr::getChecked(
      llvm::function_ref<InFlightDiagnostic()>(emitError), context, *shape));
}

MlirStringRef mlirLayoutAttrGetText(MlirAttribute attr) {
  if (mlirAttributeIsALayoutTiled(attr))
    return wrap(cast<TiledLayoutAttr>(unwrap(attr)).getText());
  if (mlirAttributeIsALayoutShape(attr))
    return wrap(cast<ShapeAttr>(unwrap(attr)).getText());
  return mlirStringRefCreate(nullptr, 0);
}
