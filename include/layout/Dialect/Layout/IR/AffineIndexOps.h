//===- AffineIndexOps.h - the index algebra over AffineExprs ----*- C++ -*-===//
//
// TiledLayoutMap::apply / applyInverse (layout/Xla/TiledLayoutMap.h) run on
// any index algebra; this one builds AffineExprs. Used by the attribute's
// affine map and by the loop emitters.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_AFFINEINDEXOPS_H
#define LAYOUT_DIALECT_LAYOUT_IR_AFFINEINDEXOPS_H

#include "mlir/IR/AffineExpr.h"

namespace mlir::layout {

/// The index algebra of TiledLayoutMap over affine expressions.
struct AffineIndexOps {
  MLIRContext *context;
  AffineExpr constant(int64_t v) { return getAffineConstantExpr(v, context); }
  AffineExpr add(AffineExpr a, AffineExpr b) { return a + b; }
  AffineExpr mul(AffineExpr a, int64_t b) { return a * b; }
  AffineExpr floorDiv(AffineExpr a, int64_t b) { return a.floorDiv(b); }
  AffineExpr mod(AffineExpr a, int64_t b) { return a % b; }
};

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_IR_AFFINEINDEXOPS_H
