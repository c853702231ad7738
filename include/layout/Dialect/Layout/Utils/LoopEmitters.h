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

#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir::layout {

class NestReport;

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

/// Computes one destination element from the loaded source elements.
using ElementFn =
    function_ref<Value(OpBuilder &builder, Location loc, ValueRange loaded)>;

/// The element function of a nest with the facts about its op that the
/// nest's kernels depend on (configuration is in LoopEmitOptions).
struct ElementFunction {
  ElementFn fn;
  /// `fn` may be called with vector values (it only builds elementwise ops
  /// without scalar constants: isVectorizableElement).
  bool vectorizable = false;
  /// `fn` returns its only loaded value (relayout, broadcast_in_dim).
  /// Vector rows of such copies then move float elements as same-width
  /// integers, so that no target legalizes float lanes it has no
  /// arithmetic for (bf16 on AVX2 would be scalarized).
  bool copiesElements = false;
};

/// Builds the nest that writes every slot of `dest`: element `e` gets
/// `element.fn(source_0[o_0(e)], ...)` (o_i from the dimMaps), and every
/// padding slot of a tiled `dest` gets the layout's padding value (0 without
/// `PV`). `destSizes` are the logical sizes of `dest` (getLogicalSizes).
/// Diagnostics go through `emitError`; nothing is built on failure. The
/// kernels the nest took go to `report` when given (NestKernel.h).
LogicalResult emitElementwiseLoops(OpBuilder &builder, Location loc,
                                   LoopKind kind, Value dest,
                                   ArrayRef<OpFoldResult> destSizes,
                                   ArrayRef<LoopSource> sources,
                                   const ElementFunction &element,
                                   function_ref<InFlightDiagnostic()> emitError,
                                   const LoopEmitOptions &options,
                                   NestReport *report = nullptr);

/// The loops of a memref `layout.relayout`: `dst[e] = src[e]`, padding
/// slots of `dst` get its padding value.
LogicalResult emitRelayoutLoops(OpBuilder &builder, Location loc, LoopKind kind,
                                Value src, Value dst,
                                ArrayRef<OpFoldResult> sizes,
                                function_ref<InFlightDiagnostic()> emitError,
                                const LoopEmitOptions &options,
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
