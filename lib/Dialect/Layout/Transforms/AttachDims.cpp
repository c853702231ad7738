//===- AttachDims.cpp - --layout-attach-dims
//-------------------------------===//
//
// Rewrites every dims-less `*` #layout.tiled layout (memref layout or ranked
// tensor encoding) to the equivalent dims-carrying form, the dims being the
// type's shape, so that MemRefLayoutAttrInterface::getAffineMap() is exact
// for upstream passes (docs/dialect.md).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTATTACHDIMS
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {
/// `attr` with the dims of `shape` if it is a dims-less `*` layout; null
/// otherwise.
TiledLayoutAttr withShapeDims(Attribute attr, ArrayRef<int64_t> shape) {
  auto tiled = dyn_cast_if_present<TiledLayoutAttr>(attr);
  if (!tiled || !tiled.getDims().empty() || !tiled.hasShapeDependentMap())
    return {};
  return tiled.withDims(shape);
}

struct AttachDimsPass
    : public ::mlir::layout::impl::LayoutAttachDimsBase<AttachDimsPass> {
  void runOnOperation() override {
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      TiledLayoutAttr attr = withShapeDims(type.getLayout(), type.getShape());
      if (!attr)
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(), attr,
                             type.getMemorySpace());
    });
    replacer.addReplacement([](RankedTensorType type) -> std::optional<Type> {
      TiledLayoutAttr attr = withShapeDims(type.getEncoding(), type.getShape());
      if (!attr)
        return std::nullopt;
      return RankedTensorType::get(type.getShape(), type.getElementType(),
                                   attr);
    });
    replacer.recursivelyReplaceElementsIn(getOperation(),
                                          /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};
} // namespace
