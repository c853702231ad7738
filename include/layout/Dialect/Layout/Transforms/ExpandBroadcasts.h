//===- ExpandBroadcasts.h - explicit broadcasting patterns ------*- C++ -*-===//
//
// The patterns of `--layout-expand-broadcasts`, for use in other passes.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_EXPANDBROADCASTS_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_EXPANDBROADCASTS_H

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::layout {

/// Rewrites every broadcasting binary op (`layout.add`, ..., `layout.compare`)
/// into `layout.broadcast_in_dim`s of its operands to the result shape and
/// the same op on equal shapes without `broadcast_dimensions`. Dynamic
/// result sizes are computed with `tensor.dim`, `arith.cmpi`, `arith.select`
/// (the arith and tensor dialects must be loaded). Idempotent.
void populateLayoutExpandBroadcastsPatterns(RewritePatternSet &patterns);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_EXPANDBROADCASTS_H
