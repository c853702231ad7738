//===- LayoutDialect.cpp - The layout dialect -----------------------------===//

#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::layout;

#include "layout/Dialect/Layout/IR/LayoutDialect.cpp.inc"

void LayoutDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.cpp.inc"
      >();
}
