//===- LayoutToAffine.cpp - --convert-layout-to-affine --------------------===//
//
// Static shapes: the shared loop emitters (LoopEmitters.h) with affine
// loops, so that affine analyses and -lower-affine see the exact bounds.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/LayoutToAffine/LayoutToAffine.h"
#include "layout/Conversion/LayoutToLoops/LayoutLoopPatterns.h"
#include "layout/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::layout {
#define GEN_PASS_DEF_CONVERTLAYOUTTOAFFINE
#include "layout/Conversion/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

void mlir::layout::populateLayoutToAffinePatterns(
    RewritePatternSet &patterns, const LoopEmitOptions &options) {
  populateLayoutLoopPatterns(patterns, LoopKind::Affine, options);
}

namespace {
struct ConvertLayoutToAffinePass
    : LayoutLoopConversionPass<
          layout::impl::ConvertLayoutToAffineBase<ConvertLayoutToAffinePass>,
          LoopKind::Affine> {
  using LayoutLoopConversionPass::LayoutLoopConversionPass;
};
} // namespace

std::unique_ptr<Pass>
mlir::layout::createConvertLayoutToAffine(const LoopEmitOptions &options,
                                          bool skipDynamic) {
  ConvertLayoutToAffineOptions passOptions;
  copyLoopEmitOptions(passOptions, options);
  passOptions.skipDynamic = skipDynamic;
  return createConvertLayoutToAffine(passOptions);
}
