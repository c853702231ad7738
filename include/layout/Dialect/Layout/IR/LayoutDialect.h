//===- LayoutDialect.h - The layout dialect ---------------------*- C++ -*-===//
//
// The `layout` dialect (see LayoutDialect.td and docs/dialect.md).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H

#include "mlir/IR/Dialect.h"

#include "layout/Dialect/Layout/IR/LayoutDialect.h.inc"

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
