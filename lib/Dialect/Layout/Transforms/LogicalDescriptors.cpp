//===- LogicalDescriptors.cpp - Dynamic tiled memrefs at boundaries -------===//

#include "LogicalDescriptors.h"

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"
#include "layout/Dialect/Layout/Utils/PhysicalSizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::layout;

bool mlir::layout::isDynamicTiledMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isa<TiledLayoutAttr>(memref.getLayout()) &&
         !memref.hasStaticShape();
}

MemRefType mlir::layout::getLogicalDescriptorType(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

Value mlir::layout::getLogicalSizesOrigin(Value value) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg;
    Operation *def = value.getDefiningOp();
    if (isa<memref::AllocOp, memref::AllocaOp, func::CallOp>(def))
      return value;
    if (auto castOp = dyn_cast<memref::CastOp>(def)) {
      value = castOp.getSource();
      continue;
    }
    if (auto from = dyn_cast<FromPhysicalOp>(def))
      if (auto to = from.getSource().getDefiningOp<ToPhysicalOp>()) {
        value = to.getSource();
        continue;
      }
    return {};
  }
}

ArrayRef<OpFoldResult> LogicalSizeTracker::get(OpBuilder &builder,
                                               Value value) {
  auto it = sizes.find(value);
  if (it != sizes.end())
    return it->second;
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> result;
  for (int64_t size : type.getShape())
    result.push_back(builder.getIndexAttr(size));
  Value origin = getLogicalSizesOrigin(value);
  if (origin != value) {
    // A view: the origin's sizes, where the view's own dims are dynamic.
    ArrayRef<OpFoldResult> originSizes = get(builder, origin);
    for (auto [k, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        result[k] = originSizes[k];
  } else if (Operation *def = value.getDefiningOp();
             def && isa<memref::AllocOp, memref::AllocaOp>(def)) {
    unsigned next = 0;
    for (auto [k, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        result[k] = def->getOperand(next++);
  } else {
    // A boundary descriptor (function argument, call result): memref.dim of
    // the value, which becomes the logical descriptor.
    OpBuilder::InsertionGuard guard(builder);
    if (auto arg = dyn_cast<BlockArgument>(value))
      builder.setInsertionPointToStart(arg.getOwner());
    else
      builder.setInsertionPointAfter(value.getDefiningOp());
    for (auto [k, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size)) {
        auto dim = memref::DimOp::create(builder, value.getLoc(), value,
                                         static_cast<int64_t>(k));
        descriptorReads.insert(dim);
        // Its index constant too: the physical view goes after this group.
        descriptorReads.insert(dim.getIndex().getDefiningOp());
        result[k] = dim.getResult();
      }
  }
  return sizes[value] = result;
}

Value LogicalSizeTracker::toDescriptor(OpBuilder &builder, Location loc,
                                       Value value) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> logical(get(builder, value));
  SmallVector<OpFoldResult> strides = getRowMajorStrides(builder, loc, logical);
  auto descriptor = memref::ReinterpretCastOp::create(
      builder, loc, getLogicalDescriptorType(type), value,
      builder.getIndexAttr(0), logical, strides);
  // The tiled type, from which the physical extents can be rebuilt.
  descriptor->setAttr(kLogicalDescriptorAttrName, TypeAttr::get(type));
  return descriptor;
}

void LogicalSizeTracker::fromDescriptor(OpBuilder &builder, Location loc,
                                        Value value) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> logical(get(builder, value));
  value.setType(getLogicalDescriptorType(type));
  // The type was verified before (the pass's check phase).
  FailureOr<Value> view = createPhysicalView(builder, loc, type, value, logical,
                                             [&] { return emitError(loc); });
  llvm::SmallPtrSet<Operation *, 8> except(descriptorReads.begin(),
                                           descriptorReads.end());
  except.insert(view->getDefiningOp());
  value.replaceAllUsesExcept(*view, except);
}

Operation *LogicalSizeTracker::skipReadsAfter(Operation *op) const {
  while (op->getNextNode() && descriptorReads.contains(op->getNextNode()))
    op = op->getNextNode();
  return op;
}

Operation *LogicalSizeTracker::firstAfterReads(Operation *op) const {
  while (descriptorReads.contains(op))
    op = op->getNextNode();
  return op;
}
