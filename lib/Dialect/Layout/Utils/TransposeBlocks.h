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

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::layout::loops {

/// Transposes V = rows.size() vectors of V lanes (V a power of two) in
/// registers: log2(V) rounds of two-source `vector.shuffle`s (rows r and
/// r + g trade their off-diagonal g x g blocks, g = V/2, ..., 1). Element
/// (r, c) ends in row c, lane r. Vectors of m V lanes hold m blocks side
/// by side, each transposed in its segment of V lanes.
SmallVector<Value> transposeInRegisters(OpBuilder &b, Location loc,
                                        ArrayRef<Value> rows);

/// `parts` (of one vector type, a power-of-two count) back to back in one
/// vector.
Value concatenateVectors(OpBuilder &b, Location loc, ArrayRef<Value> parts);

/// `parts` (of one vector type of n lanes, a power-of-two count m)
/// interleaved into one vector of m n lanes: lane j of part i at j m + i
/// (`vector.interleave` of the even parts' and the odd parts', recursively).
/// Interleaved rows (InterleavedRows.cpp) and interleaved stores
/// (InterleavedStoreBlocks.cpp).
Value interleaveVectors(OpBuilder &b, Location loc, ArrayRef<Value> parts);

/// The V x V blocks [w][r] (vectors of V lanes) transposed, `batch` of them
/// side by side in vectors of batch V lanes (each row r of the batch's
/// blocks concatenated, the segments split apart after): the same rounds
/// of shuffles move batch times the bytes. 8-bit 16 x 16 blocks on AVX-512
/// (four per zmm) and AVX2 (two per ymm), 16-bit 16 x 16 on AVX-512 (two
/// per zmm), and any block whose rows are narrower than a register (f32 8 x 8
/// tiles on AVX-512).
SmallVector<SmallVector<Value>>
transposeSideBySide(OpBuilder &b, Location loc,
                    ArrayRef<SmallVector<Value>> blocks, int64_t batch);

/// Interleaved runs (TransposeBlockReads.cpp): the interleave q of a
/// source read in blocks of `side` whose rows along `pr` sit in runs of q
/// consecutive slots (a `(q,1)` sub-tile, q <= 8) and whose slots along
/// `pk` are q apart inside aligned blocks of `side` (the same slot of the
/// run), side >= 4 q: the q * side slots from a run's first row hold side
/// elements of each of its q rows, row u at lanes u, u + q, ...; 0 when
/// not.
int64_t getInterleave(ArrayRef<AffineExpr> index, MemRefType view,
                      AffineExpr pk, AffineExpr pr, int64_t side);

/// The largest block side (a power of two, 64 down to 4) at which `index`
/// is read interleaved (getInterleave), or 0.
int64_t getLargestInterleavedSide(ArrayRef<AffineExpr> index, MemRefType view,
                                  AffineExpr pk, AffineExpr pr);

} // namespace mlir::layout::loops

#endif // LAYOUT_LIB_DIALECT_LAYOUT_UTILS_TRANSPOSEBLOCKS_H
