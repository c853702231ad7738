//===- Layout.td - the whole layout dialect ----------------*- tablegen -*-===//
//
// Everything the dialect defines, for the one generated dialect page
// (docs/LayoutDialect.md). The C++ declarations are generated per file
// (LayoutAttributes.td, LayoutOps.td, LayoutBroadcastOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUT_TD
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUT_TD

include "layout/Dialect/Layout/IR/LayoutAttributes.td"
include "layout/Dialect/Layout/IR/LayoutOps.td"
include "layout/Dialect/Layout/IR/LayoutBroadcastOps.td"

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUT_TD
