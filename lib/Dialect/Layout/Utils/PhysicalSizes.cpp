//===- PhysicalSizes.cpp - Dynamic physical sizes of tiled arrays ---------===//

#include "layout/Dialect/Layout/Utils/PhysicalSizes.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

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

SmallVector<OpFoldResult>
mlir::layout::getRowMajorStrides(OpBuilder &builder, Location loc,
                                 ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(sizes.size());
  OpFoldResult stride = builder.getIndexAttr(1);
  for (int64_t k = static_cast<int64_t>(sizes.size()) - 1; k >= 0; --k) {
    strides[k] = stride;
    if (k == 0)
      break;
    std::optional<int64_t> a = getConstantIntValue(stride);
    std::optional<int64_t> b = getConstantIntValue(sizes[k]);
    if (a && b)
      stride = builder.getIndexAttr(*a * *b);
    else
      stride = builder.createOrFold<arith::MulIOp>(
          loc, getValueOrCreateConstantIndexOp(builder, loc, stride),
          getValueOrCreateConstantIndexOp(builder, loc, sizes[k]));
  }
  return strides;
}

FailureOr<Value>
mlir::layout::createPhysicalView(OpBuilder &builder, Location loc,
                                 MemRefType tiledType, Value base,
                                 ArrayRef<OpFoldResult> logicalSizes,
                                 function_ref<InFlightDiagnostic()> emitError) {
  auto attr = cast<TiledLayoutAttr>(tiledType.getLayout());
  FailureOr<MemRefType> physical =
      attr.getPhysicalMemRefType(tiledType, emitError);
  if (failed(physical))
    return failure();
  SmallVector<Value> dynamicLogical;
  for (auto [k, size] : llvm::enumerate(tiledType.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicLogical.push_back(
          getValueOrCreateConstantIndexOp(builder, loc, logicalSizes[k]));
  SmallVector<Value> dynamicPhysical =
      getPhysicalDynamicSizes(builder, loc, attr, tiledType.getShape(),
                              physical->getShape(), dynamicLogical);
  SmallVector<OpFoldResult> sizes;
  unsigned next = 0;
  for (int64_t size : physical->getShape())
    sizes.push_back(ShapedType::isDynamic(size)
                        ? OpFoldResult(dynamicPhysical[next++])
                        : OpFoldResult(builder.getIndexAttr(size)));
  SmallVector<OpFoldResult> strides = getRowMajorStrides(builder, loc, sizes);
  return memref::ReinterpretCastOp::create(builder, loc, *physical, base,
                                           builder.getIndexAttr(0), sizes,
                                           strides)
      .getResult();
}
