//===- LayoutToSCF.h - layout ops to scf loops ------------------*- C++ -*-===//

#ifndef LAYOUT_CONVERSION_LAYOUTTOSCF_LAYOUTTOSCF_H
#define LAYOUT_CONVERSION_LAYOUTTOSCF_LAYOUTTOSCF_H

#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"

#include <memory>

namespace mlir {
class Pass;
class RewritePatternSet;
} // namespace mlir

namespace mlir::layout {

/// Lowers memref `layout.relayout`, tensor `layout.broadcast_in_dim` and
/// the binary ops (static or dynamic shapes) to scf loop nests (fusing
/// single-use broadcast_in_dim operands).
void populateLayoutToSCFPatterns(
    RewritePatternSet &patterns,
    const LoopEmitOptions &options = LoopEmitOptions());

/// --convert-layout-to-scf with the knobs of `options`.
std::unique_ptr<Pass> createConvertLayoutToSCF(const LoopEmitOptions &options);

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_LAYOUTTOSCF_LAYOUTTOSCF_H
