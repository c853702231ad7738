//===- BroadcastBufferization.h - Bufferizing the broadcasting ops -*- C++ -*-//
//
// One-Shot Bufferize models for `layout.broadcast_in_dim` and the binary ops
// (`layout.add`, ..., `layout.compare`): each allocates its result buffer
// and fills it with the loop nests of
// layout/Conversion/LayoutToLoops/LoopEmitters.h.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BROADCASTBUFFERIZATION_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BROADCASTBUFFERIZATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::layout {

/// Attaches BufferizableOpInterface to broadcast_in_dim and the 16 binary
/// ops (when the layout dialect is loaded).
void registerBroadcastBufferizationExternalModels(DialectRegistry &registry);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BROADCASTBUFFERIZATION_H
