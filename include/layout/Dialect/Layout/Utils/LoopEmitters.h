//===- LoopEmitters.h - Destination-driven loop nests -----------*- C++ -*-===//
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
//
// Utilities of the dialect (like upstream's sparse-tensor LoopEmitter under
// Transforms/Utils): used by the bufferization models and the conversions.
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITTERS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITTERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::layout {

class NestReport;
class TiledLayoutAttr;

/// Defaults of the conversions' `vector-bytes` and
/// `nontemporal-threshold-bytes` options (--convert-layout-to-affine/-scf,
/// --layout-lower-to-llvm): one 64-byte vector (a cache line, an AVX-512
/// register) and streaming stores from 4 MiB on (past a typical L2).
inline constexpr int64_t kDefaultVectorBytes = 64;
inline constexpr int64_t kDefaultNontemporalThresholdBytes = int64_t(4) << 20;
/// Default of the `parallel-threshold-bytes` option: destinations of at
/// least 1 MiB get a parallel outer loop (smaller ones take a few
/// microseconds, the order of a parallel region's start-up).
inline constexpr int64_t kDefaultParallelThresholdBytes = int64_t(1) << 20;

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
  /// The outer loop of the nest is a parallel loop (`affine.parallel` /
  /// `scf.parallel`, which --layout-lower-to-llvm lowers to OpenMP) when the
  /// destination has a static size of at least this many bytes and an
  /// identity layout; -1: never. Each parallel iteration writes a chunk of
  /// whole destination cache lines (64 bytes from the buffer's start) and
  /// fences its non-temporal stores.
  int64_t parallelThresholdBytes = -1;
  /// How a vector row writes its edges (the elements before its first and
  /// after its last aligned vector): true, one masked vector each
  /// (vector.maskedload/maskedstore: cheap on AVX-512, which has masked
  /// stores for every element width); false, for copies full unmasked
  /// vectors that overlap the aligned body (re-writing a few elements with
  /// the values they already have), scalar elements where no full vector
  /// fits and for other functions, and streaming rows peeled to a whole
  /// 64-byte line. AVX2 has no 16-bit masked store and microcoded 32-bit
  /// ones on older AMD cores, so the pipeline should set false there
  /// (docs/performance.md, "Edges without masks").
  bool maskedEdges = true;
  /// Bytes of the target's vector register file (AVX-512: 32 x 64), 0 when
  /// unknown. Blocked transposes with cached stores whose destination rows
  /// are a multiple of 1 KiB apart (power-of-two shapes: the 16 stores of a
  /// block fall into a few L1 sets) take two blocks side by side when both
  /// fit in the registers, which halves the stores per set.
  int64_t vectorRegisterBytes = 0;
  /// Nests with non-temporal stores move this many far-apart streams (per
  /// thread) at once: with 2, the outermost loop walks its first and second
  /// halves together, each innermost row (and padding element) emitted for
  /// both, in parallel chunks of the first half when that loop is the
  /// parallel one; nests that may take blocked transposes keep one. One
  /// sequential stream leaves DRAM bandwidth unused on one core (Zen 5: 42 ->
  /// 63 GB/s for T(8,128) -> row-major in a standalone loop; a neighbouring row
  /// as the second stream only 52); docs/performance.md, "Two memory streams".
  /// 1: one stream.
  int64_t memoryStreams = 1;
  /// Every lowered op gets a remark `kernel: NAME` naming the kernel its
  /// loops took (NestKernel.h; the conversions' `report-kernels` option).
  bool reportKernels = false;
  /// Whether the ElementFn may be called with vector values (it only builds
  /// elementwise ops without scalar constants). Set by the emitters.
  bool vectorizableFn = false;
  /// The ElementFn returns its only loaded value (relayout,
  /// broadcast_in_dim). Vector rows of such copies then move float elements
  /// as same-width integers, so that no target legalizes float lanes it has
  /// no arithmetic for (bf16 on AVX2 would be scalarized). Set by the
  /// emitters.
  bool copiesElements = false;
};

/// Computes one destination element from the loaded source elements.
using ElementFn =
    function_ref<Value(OpBuilder &builder, Location loc, ValueRange loaded)>;

/// Builds the nest that writes every slot of `dest`: element `e` gets
/// `fn(source_0[o_0(e)], ...)` (o_i from the dimMaps), and every padding
/// slot of a tiled `dest` gets the layout's padding value (0 without `PV`).
/// `destSizes` are the logical sizes of `dest` (getLogicalSizes).
/// Diagnostics go through `emitError`; nothing is built on failure. The
/// kernels the nest took go to `report` when given (NestKernel.h).
LogicalResult emitElementwiseLoops(OpBuilder &builder, Location loc,
                                   LoopKind kind, Value dest,
                                   ArrayRef<OpFoldResult> destSizes,
                                   ArrayRef<LoopSource> sources, ElementFn fn,
                                   function_ref<InFlightDiagnostic()> emitError,
                                   const LoopEmitOptions &options = {},
                                   NestReport *report = nullptr);

/// The loops of a memref `layout.relayout`: `dst[e] = src[e]`, padding
/// slots of `dst` get its padding value.
LogicalResult emitRelayoutLoops(OpBuilder &builder, Location loc, LoopKind kind,
                                Value src, Value dst,
                                ArrayRef<OpFoldResult> sizes,
                                function_ref<InFlightDiagnostic()> emitError,
                                const LoopEmitOptions &options = {},
                                NestReport *report = nullptr);

/// The padding value constant of `memrefOrTensorType`'s layout (PV(...),
/// 0 without one) for its element type.
Value createPaddingValue(OpBuilder &builder, Location loc, Type shapedType);

/// Logical sizes of a memref: static sizes, the dynamic operands of its
/// `memref.alloc`/`alloca`, else `memref.dim` (the logical size, also of a
/// tiled memref: --layout-normalize-memrefs keeps logical sizes with the
/// value). Does not fail today; kept fallible for callers.
FailureOr<SmallVector<OpFoldResult>>
getLogicalSizes(OpBuilder &builder, Location loc, Value memref);

/// Sizes of the dynamic physical dims (`physicalShape`, the tiled layout
/// map's physical dims) of an array of `logicalShape` with layout `attr`,
/// from its dynamic logical sizes: map_k(d - 1) + 1, with `map` the layout's
/// affine map (its results are floordiv/mod/linear expressions,
/// nondecreasing in each index; `mod t` results have the static size t).
SmallVector<Value> getPhysicalDynamicSizes(OpBuilder &builder, Location loc,
                                           TiledLayoutAttr attr,
                                           ArrayRef<int64_t> logicalShape,
                                           ArrayRef<int64_t> physicalShape,
                                           ValueRange logicalSizes);

/// Row-major strides of `sizes` (folded where static).
SmallVector<OpFoldResult> getRowMajorStrides(OpBuilder &builder, Location loc,
                                             ArrayRef<OpFoldResult> sizes);

/// The physical buffer of a tiled memref of type `tiledType` whose logical
/// sizes are `logicalSizes` and whose buffer is `base`'s (offset 0): a
/// `memref.reinterpret_cast` of `base` to the physical identity-layout type,
/// extents from getPhysicalDynamicSizes, row-major strides. Used for the
/// logical descriptors of dynamic tiled memrefs (docs/lowering.md, "Dynamic
/// tiled memrefs at function boundaries").
FailureOr<Value>
createPhysicalView(OpBuilder &builder, Location loc, MemRefType tiledType,
                   Value base, ArrayRef<OpFoldResult> logicalSizes,
                   function_ref<InFlightDiagnostic()> emitError);

/// Loads every dialect the emitters create ops of (affine, arith,
/// bufferization, complex, math, memref, scf, ub, vector, LLVM). The
/// conversion passes declare them as dependent dialects; code that emits
/// loops outside those passes (the One-Shot Bufferize models of the
/// broadcasting ops, run by any bufferization pass) loads them when the
/// layout dialect is loaded. Creating an op of an unloaded dialect gives a
/// null op (a crash) in release builds of MLIR.
void loadLoopEmitterDialects(MLIRContext &context);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITTERS_H
