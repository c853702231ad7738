//===- GroupedRelayout.h - Relayouts of element groups ----------*- C++ -*-===//
//
// A relayout of 8- or 16-bit elements between two layouts that group k
// elements along the same dim (layout/Xla/ElementGroups.h), one of them
// through a sub-tile such as `(2,1)` or `(4,1)`, as the relayout of the
// groups: both buffers viewed (layout.bitcast_buffer) as k-times-wider
// integers under the grouped layouts, then lowered by the same kernels.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_GROUPEDRELAYOUT_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_GROUPEDRELAYOUT_H

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::layout {

/// Replaces `relayout` (memrefs) by the relayout of its element groups,
/// lowered with `options`; failure (nothing changed) when the layouts do
/// not group along one dim, neither groups through a sub-tile, or the
/// grouped relayout does not lower.
LogicalResult emitGroupedRelayout(RewriterBase &rewriter, RelayoutOp relayout,
                                  LoopKind kind,
                                  const LoopEmitOptions &options);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_GROUPEDRELAYOUT_H
