//===- PhysicalSizes.cpp - Dynamic physical sizes of tiled arrays ---------===//

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"

using namespace mlir;
using namespace mlir::layout;

SmallVector<Value> mlir::layout::getPhysicalDynamicSizes(
    OpBuilder &builder, Location loc, TiledLayoutAttr attr,
    ArrayRef<int64_t> logicalShape, ArrayRef<int64_t> physicalShape,
    ValueRange logicalSizes) {
  SmallVector<Value> sizes;
  if (llvm::none_of(physicalShape, ShapedType::isDynamic))
    return sizes;
  MLIRContext *ctx = builder.getContext();
  // Exact for the shape (a dims-less `*` layout takes its sizes from it).
  AffineMap map = attr.getAffineMapForShape(logicalShape);
  SmallVector<AffineExpr> lastIndex;
  unsigned numDynamic = 0;
  for (int64_t size : logicalShape) {
    if (ShapedType::isDynamic(size))
      lastIndex.push_back(getAffineDimExpr(numDynamic++, ctx) - 1);
    else
      lastIndex.push_back(getAffineConstantExpr(size - 1, ctx));
  }
  for (auto [k, size] : llvm::enumerate(physicalShape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    AffineExpr expr = map.getResult(k).replaceDimsAndSymbols(lastIndex, {}) + 1;
    AffineMap sizeMap = AffineMap::get(numDynamic, 0, expr);
    sizes.push_back(affine::makeComposedAffineApply(
                        builder, loc, sizeMap,
                        llvm::to_vector_of<OpFoldResult>(logicalSizes))
                        .getResult());
  }
  return sizes;
}
