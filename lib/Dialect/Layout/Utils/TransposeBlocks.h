//===- TransposeBlocks.h - Blocked in-register transposes -------*- C++ -*-===//
//
// Rows of the destination whose source moves with a constant stride != 1
// along the row (the planner's in-tile-transpose class: permutations that
// change the fastest-varying dimension) are copied in V x V blocks: V
// source vectors contiguous along the source's minor dim, transposed in
// registers, stored as V destination vectors contiguous along the
// destination's minor dim (NestEmitter::emitTransposeBlocks).
// Private to lib/Dialect/Layout/Utils.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_DIALECT_LAYOUT_UTILS_TRANSPOSEBLOCKS_H
#define LAYOUT_LIB_DIALECT_LAYOUT_UTILS_TRANSPOSEBLOCKS_H

#include "mlir/IR/Builders.h"

namespace mlir::layout::loops {

/// Transposes V = rows.size() vectors of V lanes (V a power of two) in
/// registers: log2(V) rounds of two-source `vector.shuffle`s (rows r and
/// r + g trade their off-diagonal g x g blocks, g = V/2, ..., 1). Element
/// (r, c) ends in row c, lane r.
SmallVector<Value> transposeInRegisters(OpBuilder &b, Location loc,
                                        ArrayRef<Value> rows);

} // namespace mlir::layout::loops

#endif // LAYOUT_LIB_DIALECT_LAYOUT_UTILS_TRANSPOSEBLOCKS_H
