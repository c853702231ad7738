//===- ChunkCopy.h - Relayouts planned as chunk copies ----------*- C++ -*-===//
//
// The loop lowering of a memref `layout.relayout` asks the relayout planner
// (layout/Xla/LayoutAlgebra.h) for the relayout's class. A `chunk-copy`
// (every run of consecutive elements is at least a cache line) is emitted
// as `memref.copy` of the runs between the flat physical buffers (upstream
// lowers a copy of contiguous memrefs to the `llvm.memcpy` intrinsic) plus
// stores of the padding value into the destination's padding runs.
// lowerMemRefRelayout uses it for scalar rows (`vector-bytes=0`): vector
// rows already move each run with whole vectors and, for large buffers,
// streaming stores, which measured faster than memcpy of the runs
// (docs/algebra.md, "Kernel choice").
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_CHUNKCOPY_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_CHUNKCOPY_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

namespace mlir::layout {

/// `view`, an identity memref of static shape, as a 1-D memref (a
/// memref.collapse_shape of all its dims; itself when 1-D).
Value getFlatView(OpBuilder &builder, Location loc, Value view);

/// If the memref relayout `src` -> `dst` plans as `chunk-copy` and its runs
/// (cut to their common length) form an affine nest of at most 8 loops over
/// identity physical buffers: emits one `memref.copy` per run (of 1-D
/// subviews of the flat physical buffers) and the padding value into every
/// destination padding run, in scf loops, and returns success. Otherwise
/// emits nothing and returns failure (the caller emits the element nest).
LogicalResult emitChunkCopyRelayout(OpBuilder &builder, Location loc, Value src,
                                    Value dst);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_CHUNKCOPY_H
