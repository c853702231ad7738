//===- BufferizableOpInterfaceImpl.h - One-Shot Bufferize models *- C++ -*-===//
//
// BufferizableOpInterface external models for `layout.relayout` (destination
// passing: the tensor form becomes the memref form on the destination's
// buffer) and the tensor forms of `layout.to_physical` / `layout.from_physical`
// (views of the operand's buffer, no copy); `layout.broadcast_in_dim` and
// the binary ops, which bufferize to a new buffer filled by the dialect's
// loop emitters (layout/Dialect/Layout/Utils).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
class DialectRegistry;
namespace bufferization {
struct OneShotBufferizationOptions;
} // namespace bufferization

namespace layout {

/// Attaches the models to every op of the layout dialect (when it is
/// loaded).
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

/// The memref type a tensor with a `#layout.tiled` encoding bufferizes to:
/// same shape and element type, the encoding as the layout, memory space
/// `S(n)`. Null for tensors without a `#layout.tiled` encoding.
MemRefType getTiledBufferType(TensorType tensorType);

/// Makes One-Shot Bufferize map `#layout.tiled` encodings to memref layouts:
/// wraps `functionArgTypeConverterFn` and `unknownTypeConverterFn` (tiled
/// encodings -> getTiledBufferType, other tensors -> the previous converter)
/// and `defaultMemorySpaceFn` (`S(n)`). Call after
/// `setFunctionBoundaryTypeConversion`, which overwrites the converter.
/// Allocations (`tensor.empty`, `bufferization.alloc_tensor`) still get the
/// identity layout upstream: `--layout-bufferize` rewrites them first.
void addTiledEncodingTypeConversion(
    bufferization::OneShotBufferizationOptions &options);

} // namespace layout
} // namespace mlir

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
