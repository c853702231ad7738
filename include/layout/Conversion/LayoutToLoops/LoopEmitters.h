//===- LoopEmitters.h - Layout ops to loops (patterns) ----------*- C++ -*-===//
//
// The rewrite patterns and the driver shared by --convert-layout-to-affine
// and --convert-layout-to-scf. The loop emission itself lives in the
// dialect's utilities (layout/Dialect/Layout/Utils/), included here so that
// code written against this header keeps compiling.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_LAYOUTTOLOOPS_LOOPEMITTERS_H
#define LAYOUT_CONVERSION_LAYOUTTOLOOPS_LOOPEMITTERS_H

#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::layout {

/// The patterns of both conversions: memref relayout, broadcast_in_dim and
/// the binary ops, lowered with `kind` loops (affine: static shapes only).
void populateLayoutLoopPatterns(RewritePatternSet &patterns, LoopKind kind,
                                const LoopEmitOptions &options = {});

/// Shared driver of the conversion passes: applies the patterns (no
/// folding), then reports every op of `root` that should have been lowered
/// and was not. Ops with dynamic shapes are skipped when `skipDynamic`.
LogicalResult applyLayoutLoopPatterns(Operation *root, LoopKind kind,
                                      bool skipDynamic,
                                      const LoopEmitOptions &options = {});

/// The body of --convert-layout-to-affine/-scf: applyLayoutLoopPatterns
/// with the passes' options (an option out of range is reported on `root`).
LogicalResult runLayoutLoopConversion(Operation *root, LoopKind kind,
                                      bool skipDynamic, int64_t vectorBytes,
                                      int64_t nontemporalThresholdBytes,
                                      int64_t parallelThresholdBytes = -1,
                                      bool maskedEdges = true,
                                      int64_t vectorRegisterBytes = 0,
                                      int64_t memoryStreams = 1);

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_LAYOUTTOLOOPS_LOOPEMITTERS_H
