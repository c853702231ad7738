//===- BroadcastBufferization.h - Kept for compatibility --------*- C++ -*-===//
//
// The models of the broadcasting ops are registered with the others by
// registerBufferizableOpInterfaceExternalModels
// (BufferizableOpInterfaceImpl.h). This header keeps code that called
// registerBroadcastBufferizationExternalModels compiling.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BROADCASTBUFFERIZATION_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BROADCASTBUFFERIZATION_H

#include "layout/Dialect/Layout/Transforms/BufferizableOpInterfaceImpl.h"

namespace mlir::layout {

/// Same as registerBufferizableOpInterfaceExternalModels (registering twice
/// is a no-op).
inline void
registerBroadcastBufferizationExternalModels(DialectRegistry &registry) {
  registerBufferizableOpInterfaceExternalModels(registry);
}

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BROADCASTBUFFERIZATION_H
