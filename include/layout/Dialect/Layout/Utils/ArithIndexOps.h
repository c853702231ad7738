//===- ArithIndexOps.h - the index algebra over `index` values --*- C++ -*-===//
//
// TiledLayoutMap::apply (layout/Xla/TiledLayoutMap.h) and the sub-byte
// linearization (SubBytePacking.h) run on any index algebra; this one builds
// arith ops on `index` values (AffineIndexOps.h builds AffineExprs). Used by
// --layout-normalize-memrefs and the E(n) packing loops.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_ARITHINDEXOPS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_ARITHINDEXOPS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::layout {

/// The index algebra over `index` values at the builder's insertion point.
/// Logical indices of in-bounds accesses (and slots) are non-negative, so
/// division and remainder are unsigned (cheaper than the signed floordiv/mod
/// expansion). Constants are shared (create one ArithIndexOps per insertion
/// point) and constant operands fold.
struct ArithIndexOps {
  ArithIndexOps(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  OpBuilder &builder;
  Location loc;
  llvm::DenseMap<int64_t, Value> constants;

  Value constant(int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(builder, loc, v);
    return c;
  }
  Value add(Value a, Value b) {
    return builder.createOrFold<arith::AddIOp>(loc, a, b);
  }
  Value mul(Value a, int64_t b) {
    return builder.createOrFold<arith::MulIOp>(loc, a, constant(b));
  }
  Value floorDiv(Value a, int64_t b) {
    return builder.createOrFold<arith::DivUIOp>(loc, a, constant(b));
  }
  Value mod(Value a, int64_t b) {
    return builder.createOrFold<arith::RemUIOp>(loc, a, constant(b));
  }
};

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_ARITHINDEXOPS_H
