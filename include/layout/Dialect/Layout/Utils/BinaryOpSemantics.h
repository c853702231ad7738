//===- BinaryOpSemantics.h - XLA semantics of the binary ops ----*- C++ -*-===//
//
// The element computation of `layout.add`, ..., `layout.compare` with XLA's
// semantics, on scalars and (for the ops without constants) on vectors.
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_BINARYOPSEMANTICS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_BINARYOPSEMANTICS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir::layout {

/// The scalar computation of a binary layout op (`layout.add`, ...,
/// `layout.compare`) on one element of each operand, with XLA's semantics:
/// i1 add/multiply are or/and; integer division by zero gives -1 and
/// remainder by zero the dividend, INT_MIN / -1 gives INT_MIN (no UB);
/// shifts by a negative amount or at least the bit width give 0 (left,
/// logical right) or the sign (arithmetic right); compare is signed on
/// signless integers except i1, ordered on floats (NE: unordered).
Value emitBinaryElement(OpBuilder &builder, Location loc, Operation *op,
                        Value lhs, Value rhs);

/// `value` as element type `to`: a signless view of an s*/u* integer (or
/// back), or a float conversion (extf/truncf; same-width formats, and a
/// narrower format the target cannot hold exactly, through f32). Integers of
/// one width only.
Value castElement(OpBuilder &builder, Location loc, Value value, Type to);

/// Whether binary ops on `elementType` compute in f32 (floats narrower than
/// 16 bits, as XLA does on the CPU).
bool isComputedInF32(Type elementType);

/// Why emitBinaryElement cannot lower `op` (its element type), or the empty
/// string.
std::string whyBinaryUnsupported(Operation *op);

/// Whether emitBinaryElement supports `op`'s element type; reports why not.
LogicalResult checkBinaryElementSupported(Operation *op);

/// Whether the element computation of `op` may run on vectors: a copy
/// (broadcast_in_dim), or add/subtract/multiply/maximum/minimum (and divide
/// on floats) of one element type, whose element op needs no constants.
bool isVectorizableElement(Operation *op);

/// emitBinaryElement on vectors, for the ops isVectorizableElement accepts
/// (the same arith op per lane).
Value emitVectorBinaryElement(OpBuilder &builder, Location loc, Operation *op,
                              Value lhs, Value rhs);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_BINARYOPSEMANTICS_H
