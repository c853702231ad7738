//===- LoopEmitters.h - Loop nests for the layout ops ----------*- C++ -*-===//
//
// The loop nests behind `layout.relayout`, `layout.broadcast_in_dim` and the
// binary ops, shared by --convert-layout-to-affine (static shapes, affine
// loops), --convert-layout-to-scf (any shapes, scf loops) and the
// One-Shot Bufferize models of the broadcasting ops.
//
// Every nest is driven by the DESTINATION's physical buffer: loops walk the
// destination's physical dims (for a `#layout.tiled` memref, its
// `layout.to_physical` view: tile loops outside, in-tile loops inside), so
// the innermost loop is contiguous in the destination and has no division.
// Each loop range is split where a bound check of the inverse index map
// changes (tile padding, legacy padding): full tiles run without checks,
// partial tiles in their own loops, padding slots in separate loops that
// store the destination's padding value. Sources are read through their
// physical views with explicit index math; a source whose index would need
// division in the innermost loop is read in runs (getAffineRun) so that the
// division happens once per run.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_LAYOUTTOLOOPS_LOOPEMITTERS_H
#define LAYOUT_CONVERSION_LAYOUTTOLOOPS_LOOPEMITTERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::layout {

/// The loop dialect a nest is built with. Affine needs static shapes.
enum class LoopKind { Affine, SCF };

/// One operand read by an elementwise nest.
struct LoopSource {
  /// A memref: identity, strided or `#layout.tiled` layout.
  Value memref;
  /// Per source logical dim: the destination logical dim whose index it
  /// reads, or -1 to always read index 0 (a replicated size-1 dim).
  SmallVector<int64_t> dimMap;
};

/// Code generation choices of the nests. The defaults (used by the
/// bufferization models and other library callers) build scalar loops; the
/// conversion passes set vectorization and non-temporal stores (their
/// `vector-bytes` and `nontemporal-threshold-bytes` options).
struct LoopEmitOptions {
  /// Bytes per vector of the innermost loop (e.g. 64: vector<16xf32>); 0
  /// keeps scalar loops. Rows whose destination is contiguous and whose
  /// sources are contiguous or constant along the row are vectorized, with
  /// a scalar prologue up to the next `vectorBytes`-aligned destination
  /// address and a scalar epilogue, so every vector store is aligned.
  int64_t vectorBytes = 0;
  /// Vector stores are non-temporal (`nontemporal = true`, streaming past
  /// the caches) when the destination has a static size of at least this
  /// many bytes; -1: never. Requires vectorBytes > 0.
  int64_t nontemporalThresholdBytes = -1;
  /// Whether the ElementFn may be called with vector values (it only builds
  /// elementwise ops without scalar constants). Set by the emitters.
  bool vectorizableFn = false;
};

/// The options of --convert-layout-to-affine/-scf by default.
inline LoopEmitOptions getDefaultConversionOptions() {
  LoopEmitOptions options;
  options.vectorBytes = 64;
  options.nontemporalThresholdBytes = int64_t(4) << 20;
  return options;
}

/// Computes one destination element from the loaded source elements.
using ElementFn =
    function_ref<Value(OpBuilder &builder, Location loc, ValueRange loaded)>;

/// Builds the nest that writes every slot of `dest`: element `e` gets
/// `fn(source_0[o_0(e)], ...)` (o_i from the dimMaps), and every padding
/// slot of a tiled `dest` gets the layout's padding value (0 without `PV`).
/// `destSizes` are the logical sizes of `dest` (needed for dynamic dims of
/// tiled memrefs, whose `memref.dim` the normalization cannot keep).
/// Diagnostics go through `emitError`; nothing is built on failure.
LogicalResult emitElementwiseLoops(OpBuilder &builder, Location loc,
                                   LoopKind kind, Value dest,
                                   ArrayRef<OpFoldResult> destSizes,
                                   ArrayRef<LoopSource> sources, ElementFn fn,
                                   function_ref<InFlightDiagnostic()> emitError,
                                   const LoopEmitOptions &options = {});

/// The loops of a memref `layout.relayout`: `dst[e] = src[e]`, padding
/// slots of `dst` get its padding value.
LogicalResult emitRelayoutLoops(OpBuilder &builder, Location loc, LoopKind kind,
                                Value src, Value dst,
                                ArrayRef<OpFoldResult> sizes,
                                function_ref<InFlightDiagnostic()> emitError,
                                const LoopEmitOptions &options = {});

/// The scalar computation of a binary layout op (`layout.add`, ...,
/// `layout.compare`) on one element of each operand, with XLA's semantics:
/// i1 add/multiply are or/and; integer division by zero gives -1 and
/// remainder by zero the dividend, INT_MIN / -1 gives INT_MIN (no UB);
/// shifts by a negative amount or at least the bit width give 0 (left,
/// logical right) or the sign (arithmetic right); compare is signed on
/// signless integers except i1, ordered on floats (NE: unordered).
Value emitBinaryElement(OpBuilder &builder, Location loc, Operation *op,
                        Value lhs, Value rhs);

/// Why emitBinaryElement cannot lower `op` (its element type), or the empty
/// string.
std::string whyBinaryUnsupported(Operation *op);

/// Whether emitBinaryElement supports `op`'s element type; reports why not.
LogicalResult checkBinaryElementSupported(Operation *op);

/// The padding value constant of `memrefOrTensorType`'s layout (PV(...),
/// 0 without one) for its element type.
Value createPaddingValue(OpBuilder &builder, Location loc, Type shapedType);

/// Logical sizes of a memref: static sizes, else `memref.dim` for
/// non-tiled layouts or the dynamic operand of a `memref.alloc`; failure if
/// a dynamic size of a tiled memref cannot be found that way.
FailureOr<SmallVector<OpFoldResult>>
getLogicalSizes(OpBuilder &builder, Location loc, Value memref);

//===----------------------------------------------------------------------===//
// Whole-op lowerings (used by the conversion patterns and bufferization)
//===----------------------------------------------------------------------===//

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

/// Builds the loops computing broadcast_in_dim / binary op `op` into the
/// buffer `dest` with logical sizes `destSizes`.
LogicalResult emitBroadcastingOpLoops(OpBuilder &builder, Operation *op,
                                      LoopKind kind,
                                      ArrayRef<BroadcastingOpOperand> operands,
                                      Value dest,
                                      ArrayRef<OpFoldResult> destSizes,
                                      const LoopEmitOptions &options = {});

/// The dynamic result sizes of a tensor broadcast_in_dim / binary op
/// (`tensor.dim` of its operands, `sizes`, or XLA's degenerate rule at run
/// time), in result-dim order (static ones as attributes).
SmallVector<OpFoldResult> getBroadcastingOpResultSizes(OpBuilder &builder,
                                                       Operation *op);

/// The memref type a tensor type is stored in by the loop lowerings: the
/// `#layout.tiled` encoding as the layout (with its memory space), or the
/// identity layout without an encoding; null for other encodings.
MemRefType getBufferType(RankedTensorType type);

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
                                  const LoopEmitOptions &options = {});

/// Rewrites a memref `layout.relayout` into loops (`memref.copy` when both
/// layouts are equal).
LogicalResult lowerMemRefRelayout(RewriterBase &rewriter, Operation *op,
                                  LoopKind kind,
                                  const LoopEmitOptions &options = {});

/// The patterns of both conversions: memref relayout, broadcast_in_dim and
/// the binary ops, lowered with `kind` loops (affine: static shapes only).
void populateLayoutLoopPatterns(RewritePatternSet &patterns, LoopKind kind,
                                const LoopEmitOptions &options = {});

/// Loads every dialect the emitters create ops of (affine, arith,
/// bufferization, complex, math, memref, scf, ub, vector, LLVM). The
/// conversion passes declare them as dependent dialects; code that emits
/// loops outside those passes (the One-Shot Bufferize models of the
/// broadcasting ops, run by any bufferization pass) loads them when the
/// layout dialect is loaded. Creating an op of an unloaded dialect gives a
/// null op (a crash) in release builds of MLIR.
void loadLoopEmitterDialects(MLIRContext &context);

/// Shared driver of the conversion passes: applies the patterns (no
/// folding), then reports every op of `root` that should have been lowered
/// and was not. Ops with dynamic shapes are skipped when `skipDynamic`.
LogicalResult applyLayoutLoopPatterns(Operation *root, LoopKind kind,
                                      bool skipDynamic,
                                      const LoopEmitOptions &options = {});

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_LAYOUTTOLOOPS_LOOPEMITTERS_H
