//===- LayoutLoopPatterns.h - Layout ops to loops (patterns) ----*- C++ -*-===//
//
// The rewrite patterns and the driver shared by --convert-layout-to-affine
// and --convert-layout-to-scf. The loop emission itself lives in the
// dialect's utilities (layout/Dialect/Layout/Utils/).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_LAYOUTTOLOOPS_LAYOUTLOOPPATTERNS_H
#define LAYOUT_CONVERSION_LAYOUTTOLOOPS_LAYOUTLOOPPATTERNS_H

#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::layout {

/// The patterns of both conversions: memref relayout, broadcast_in_dim and
/// the binary ops, lowered with `kind` loops (affine: static shapes only).
void populateLayoutLoopPatterns(RewritePatternSet &patterns, LoopKind kind,
                                const LoopEmitOptions &options);

/// Shared driver of the conversion passes: applies the patterns (no
/// folding), then reports every op of `root` that should have been lowered
/// and was not. Ops with dynamic shapes are skipped when `skipDynamic`.
LogicalResult applyLayoutLoopPatterns(Operation *root, LoopKind kind,
                                      bool skipDynamic,
                                      const LoopEmitOptions &options);

/// The body of --convert-layout-to-affine/-scf (`passArgument`, e.g.
/// "convert-layout-to-scf"): checks `options` (LoopEmitOptions::verify; an
/// option out of bounds is reported on `root`, prefixed with the pass's
/// flag), then applyLayoutLoopPatterns.
LogicalResult runLayoutLoopConversion(Operation *root, StringRef passArgument,
                                      LoopKind kind, bool skipDynamic,
                                      const LoopEmitOptions &options);

/// The pass class of --convert-layout-to-affine/-scf over its generated
/// base `PassBaseT` (the options of LoopEmitOptions.td, and `skip-dynamic`
/// for affine loops): runLayoutLoopConversion with the options.
template <typename PassBaseT, LoopKind kind>
class LayoutLoopConversionPass : public PassBaseT {
public:
  using PassBaseT::PassBaseT;
  void runOnOperation() override {
    LoopEmitOptions options;
#define LOOP_EMIT_OPTION(FIELD, FLAG, TYPE, DESCRIPTION)                       \
  options.FIELD = this->FIELD;
#include "layout/Dialect/Layout/Utils/LoopEmitOptions.def"
    bool skipDynamic = false;
    if constexpr (kind == LoopKind::Affine)
      skipDynamic = this->skipDynamic;
    if (failed(runLayoutLoopConversion(this->getOperation(),
                                       this->getArgument(), kind, skipDynamic,
                                       options)))
      this->signalPassFailure();
  }
};

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_LAYOUTTOLOOPS_LAYOUTLOOPPATTERNS_H
