//===- LayoutToAffine.h - layout ops to affine loops ------------*- C++ -*-===//

#ifndef LAYOUT_CONVERSION_LAYOUTTOAFFINE_LAYOUTTOAFFINE_H
#define LAYOUT_CONVERSION_LAYOUTTOAFFINE_LAYOUTTOAFFINE_H

#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"

#include <memory>

namespace mlir {
class Pass;
class RewritePatternSet;
} // namespace mlir

namespace mlir::layout {

/// Lowers memref `layout.relayout`, tensor `layout.broadcast_in_dim` and
/// the binary ops with static shapes to affine loop nests (fusing
/// single-use broadcast_in_dim operands). Ops with dynamic shapes or
/// unsupported element types do not match.
void populateLayoutToAffinePatterns(
    RewritePatternSet &patterns,
    const LoopEmitOptions &options = LoopEmitOptions());

/// --convert-layout-to-affine with the knobs of `options` (`skipDynamic`: leave
/// ops with dynamic shapes).
std::unique_ptr<Pass>
createConvertLayoutToAffine(const LoopEmitOptions &options,
                            bool skipDynamic = false);

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_LAYOUTTOAFFINE_LAYOUTTOAFFINE_H
