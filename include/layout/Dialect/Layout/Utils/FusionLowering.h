//===- FusionLowering.h - layout.fusion as one loop nest --------*- C++ -*-===//
//
// The loop lowering of `layout.fusion` (--layout-fuse, docs/fusion.md).
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_FUSIONLOWERING_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_FUSIONLOWERING_H

#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::layout {

class FusionOp;

/// Rewrites `fusion` into `bufferization.to_buffer` of its inputs, one
/// elementwise nest over the result buffer (each distinct leaf read through
/// its composed dim map, the body's binary ops evaluated per element, in
/// vectors where each of them vectorizes), and `bufferization.to_tensor`.
/// Like the binary ops (lowerBroadcastingOp), a result whose only use is a
/// `bufferization.materialize_in_destination` into a memref defined before
/// it is written there directly.
LogicalResult lowerFusionOp(RewriterBase &rewriter, FusionOp fusion,
                            LoopKind kind, const LoopEmitOptions &options);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_FUSIONLOWERING_H
