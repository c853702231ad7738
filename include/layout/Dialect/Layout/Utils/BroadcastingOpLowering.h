//===- BroadcastingOpLowering.h - Whole-op loop lowerings -------*- C++ -*-===//
//
// broadcast_in_dim, the binary ops and memref relayouts as loop nests: used
// by the conversion patterns and by the bufferization models.
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_BROADCASTINGOPLOWERING_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_BROADCASTINGOPLOWERING_H

#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "layout/Dialect/Layout/Utils/NestKernel.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::layout {

/// A tensor broadcast_in_dim or binary op whose operands are given as
/// buffers: writes the result into `dest` (a buffer of the result's type).
/// A single-use broadcast_in_dim operand of a binary op is fused (read
/// through the broadcast's index map) when `fusedSources[i]` is set: then
/// `operandBuffers[i]` is the buffer of the broadcast's operand.
struct BroadcastingOpOperand {
  Value buffer;
  /// The tensor operand of the op this buffer stands for.
  Value tensor;
  /// Set when `buffer` is the operand of a fused `broadcast_in_dim` that
  /// produces `tensor`.
  Operation *fusedBroadcast = nullptr;
};

/// The broadcast_in_dim (or none) a tensor operand of a binary op can be
/// fused with: defined by a broadcast_in_dim whose only use is `user`.
Operation *getFusableBroadcast(Value operand, Operation *user);

/// Identifies a run-time size: (tensor, dim) for `tensor.dim %t, dim`, or
/// (value, -1) for any other index value. Two equal keys are the same size.
using SizeKey = std::pair<Value, int64_t>;

/// The key of the index value `size`.
SizeKey getSizeKey(Value size);

/// The `sizes` operand of a broadcast_in_dim that gives its result's dynamic
/// dim `dim`, or null (`tensor` is not such a broadcast).
Value getBroadcastSize(Value tensor, int64_t dim);

/// Key of the run-time size of dynamic dim `dim` of `tensor` (through the
/// `sizes` of a broadcast_in_dim that defines it).
SizeKey getDimKey(Value tensor, int64_t dim);

/// For each operand dim of binary op `op`'s operand `operand`: the result dim
/// it maps to (the identity on equal ranks, `broadcast_dimensions` else).
SmallVector<int64_t> getOperandToResult(Operation *op, unsigned operand);

/// The `bufferization.materialize_in_destination ... in restrict writable
/// %m` that is the only use of `op`'s result, when `%m` has type
/// `bufferType` and is defined before `op` (the loops may write `%m`
/// directly); null otherwise.
bufferization::MaterializeInDestinationOp
getDestinationOfResult(Operation *op, MemRefType bufferType);

/// The `report-kernels` remark on `op`: `kernel: NAME` (NestKernel.h).
void reportKernel(Operation *op, NestKernel kernel);
/// The `report-kernels` remarks of a nest: `kernel: NAME` for its primary
/// kernel, then `transpose-blocks: TEXT` when it built blocked transposes
/// (NestReport::getBlocks).
void reportKernel(Operation *op, const NestReport &report);

/// Builds the loops computing broadcast_in_dim / binary op `op` into the
/// buffer `dest` with logical sizes `destSizes`.
LogicalResult emitBroadcastingOpLoops(OpBuilder &builder, Operation *op,
                                      LoopKind kind,
                                      ArrayRef<BroadcastingOpOperand> operands,
                                      Value dest,
                                      ArrayRef<OpFoldResult> destSizes,
                                      const LoopEmitOptions &options);

/// Allocates the result buffer of tensor broadcast_in_dim / binary op `op`
/// (getBufferType of its result, dynamic sizes by the broadcasting rule) and
/// fills it with the loops; returns the buffer.
FailureOr<Value> emitBroadcastingOpIntoNewBuffer(
    OpBuilder &builder, Operation *op, LoopKind kind,
    ArrayRef<BroadcastingOpOperand> operands, const LoopEmitOptions &options);

/// The dynamic result sizes of a tensor broadcast_in_dim / binary op
/// (`tensor.dim` of its operands, `sizes`, or XLA's degenerate rule at run
/// time), in result-dim order (static ones as attributes).
SmallVector<OpFoldResult> getBroadcastingOpResultSizes(OpBuilder &builder,
                                                       Operation *op);

/// Checks that `op` (relayout, broadcast_in_dim or a binary op) can be
/// lowered with `kind`; reports why not on the op.
LogicalResult checkLowerable(Operation *op, LoopKind kind);

/// Rewrites a tensor broadcast_in_dim / binary op into
/// `bufferization.to_buffer` of its operands (fusing single-use
/// broadcast_in_dim operands), `memref.alloc` of the result buffer, the
/// loops, and `bufferization.to_tensor restrict writable`. When the only
/// use of the result is `bufferization.materialize_in_destination ... in
/// restrict writable %m` into a memref of the result's buffer type defined
/// before the op, the loops write `%m` directly (no temporary, no copy).
LogicalResult lowerBroadcastingOp(RewriterBase &rewriter, Operation *op,
                                  LoopKind kind,
                                  const LoopEmitOptions &options);

/// Rewrites a memref `layout.relayout` into loops (`memref.copy` when it is
/// a plain copy: RelayoutOp::isPlainCopy; with scalar rows,
/// `options.vectorBytes == 0`, a `chunk-copy` plan becomes a copy per run:
/// emitChunkCopyRelayout, ChunkCopy.h).
LogicalResult lowerMemRefRelayout(RewriterBase &rewriter, Operation *op,
                                  LoopKind kind,
                                  const LoopEmitOptions &options);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_BROADCASTINGOPLOWERING_H
