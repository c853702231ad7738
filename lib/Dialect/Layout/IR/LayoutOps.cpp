//===- LayoutOps.cpp - layout dialect operations --------------------------===//
//
// `layout.to_physical` / `layout.from_physical`: one shared verifier whose
// checks are labelled with the constraints of LayoutOps.td (C1..C5).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::layout;

/// Verifies a view between `logical` (a #layout.tiled memref) and `physical`
/// (its identity-layout buffer).
static LogicalResult verifyPhysicalView(Operation *op, Type logicalType,
                                        Type physicalType,
                                        StringRef logicalRole,
                                        StringRef physicalRole) {
  auto emitError = [&] { return op->emitOpError(); };
  auto logical = dyn_cast<MemRefType>(logicalType);
  auto physical = dyn_cast<MemRefType>(physicalType);
  if (!logical || !physical)
    return op->emitOpError() << "expects ranked memrefs, got " << logicalType
                             << " and " << physicalType;
  // C1: a tiled layout, valid for the logical shape.
  auto attr = dyn_cast<TiledLayoutAttr>(logical.getLayout());
  if (!attr)
    return op->emitOpError()
           << "(C1) expects the " << logicalRole
           << " to have a #layout.tiled layout, got " << logical;
  FailureOr<MemRefType> expected =
      attr.getPhysicalMemRefType(logical, emitError);
  if (failed(expected))
    return failure();
  // C5: the physical buffer is plain row-major.
  if (!physical.getLayout().isIdentity())
    return op->emitOpError()
           << "(C5) expects the " << physicalRole
           << " to have the identity layout, got " << physical;
  // C3: element type.
  if (physical.getElementType() != logical.getElementType())
    return op->emitOpError()
           << "(C3) element type mismatch: " << logicalRole << " has "
           << logical.getElementType() << " but " << physicalRole << " has "
           << physical.getElementType();
  // C4: memory spaces agree with each other and with S(n).
  if (physical.getMemorySpace() != logical.getMemorySpace())
    return op->emitOpError()
           << "(C4) memory space mismatch: " << logical << " vs " << physical;
  if (failed(verifyTiledMemRefType(
          logical, [&] { return op->emitOpError() << "(C4) "; })))
    return failure();
  // C2: the physical dims.
  if (physical.getShape() != expected->getShape())
    return op->emitOpError()
           << "(C2) expects the " << physicalRole << " type " << *expected
           << " (the physical dims of " << attr << "), got " << physical;
  return success();
}

//===----------------------------------------------------------------------===//
// ToPhysicalOp
//===----------------------------------------------------------------------===//

LogicalResult ToPhysicalOp::verify() {
  return verifyPhysicalView(*this, getSource().getType(), getType(), "source",
                            "result");
}

OpFoldResult ToPhysicalOp::fold(FoldAdaptor) {
  // to_physical(from_physical(x)) -> x
  if (auto from = getSource().getDefiningOp<FromPhysicalOp>())
    if (from.getSource().getType() == getType())
      return from.getSource();
  return {};
}

Value ToPhysicalOp::getViewSource() { return getSource(); }

//===----------------------------------------------------------------------===//
// FromPhysicalOp
//===----------------------------------------------------------------------===//

LogicalResult FromPhysicalOp::verify() {
  return verifyPhysicalView(*this, getType(), getSource().getType(), "result",
                            "source");
}

OpFoldResult FromPhysicalOp::fold(FoldAdaptor) {
  // from_physical(to_physical(x)) -> x
  if (auto to = getSource().getDefiningOp<ToPhysicalOp>())
    if (to.getSource().getType() == getType())
      return to.getSource();
  return {};
}

Value FromPhysicalOp::getViewSource() { return getSource(); }

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
