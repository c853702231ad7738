//===- LayoutToLinalg.h - layout ops to upstream linalg ---------*- C++ -*-===//
//
// --convert-layout-to-linalg (docs/convert-to-linalg.md): tensor-level
// layout ops as upstream tensor/linalg ops.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_LAYOUTTOLINALG_LAYOUTTOLINALG_H
#define LAYOUT_CONVERSION_LAYOUTTOLINALG_LAYOUTTOLINALG_H

#include <string>

namespace mlir {
class Operation;
class RewritePatternSet;
} // namespace mlir

namespace mlir::layout {

/// Rewrites tensor `layout.relayout` (linalg.pack / linalg.unpack where one
/// pack expresses the layout, else pad -> expand_shape -> transpose),
/// `layout.broadcast_in_dim` (linalg.broadcast, with collapse_shape /
/// transpose of the operand) and the binary ops on equal shapes (named
/// linalg elementwise ops or linalg.generic with XLA's scalar semantics).
/// Tiled operands are converted to row-major first and tiled results from
/// row-major. Also adds the patterns of --layout-expand-broadcasts, so that
/// binary ops with implicit broadcasting are made explicit first. Memref
/// relayouts are left alone.
void populateLayoutToLinalgPatterns(RewritePatternSet &patterns);

/// Why `op` (a tensor relayout, broadcast_in_dim or binary op) cannot be
/// converted by these patterns, or the empty string.
std::string whyNotConvertibleToLinalg(Operation *op);

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_LAYOUTTOLINALG_LAYOUTTOLINALG_H
