//===- LayoutOps.h - layout dialect operations ------------------*- C++ -*-===//
//
// `layout.to_physical` and `layout.from_physical`.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.h.inc"

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_H
