//===- Broadcast.h - XLA broadcasting rules ---------------------*- C++ -*-===//
//
// Semantics: docs/semantics.md §5.
//
// Shape inference of XLA's binary elementwise ops with implicit
// broadcasting (InDim + degenerate), and the broadcast_in_dim constraints
// C1-C5 of the StableHLO spec, on plain dimension vectors. Dims may be
// kUnboundedSize (`?`, MLIR's ShapedType::kDynamic). The dialect's verifiers
// and type inference call these; messages use XLA's wording.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_BROADCAST_H
#define LAYOUT_XLA_BROADCAST_H

#include "layout/Xla/Shape.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::layout {

/// Result dims of a binary elementwise op (XLA's
/// ShapeInference::InferElementwiseBinaryOpShape, dims part):
/// - same rank: broadcastDims must be empty or the identity, then
///   degenerate broadcasting per dim (equal, or one is 1);
/// - different ranks: broadcastDims has exactly rank(lower) entries (so none
///   for a scalar; XLA rejects dims on a scalar), each in [0, rank(higher)),
///   strictly increasing, sizes equal or one is 1; then degenerate
///   broadcasting against the higher-rank operand. A non-scalar lower-rank
///   operand without broadcastDims is XLA's "Shapes must be equal rank".
/// Dynamic dims: `?` vs 1 -> `?`; `?` vs N -> N; `?` vs `?` -> `?`.
/// Errors (XLA wording), e.g. "Binary op add with incompatible shapes:
/// f32[2,3] and f32[4]." uses `opName` and `lhsText`/`rhsText` (the operand
/// types as the caller prints them, default `[2,3]`) where XLA names them;
/// an empty `opName` gives current XLA's "Binary op with incompatible
/// shapes: ..." wording.
llvm::Expected<llvm::SmallVector<int64_t, 6>>
inferBinaryOpDims(llvm::StringRef opName, llvm::ArrayRef<int64_t> lhs,
                  llvm::ArrayRef<int64_t> rhs,
                  llvm::ArrayRef<int64_t> broadcastDims,
                  llvm::StringRef lhsText = "", llvm::StringRef rhsText = "");

/// XLA's element-type rule of the arithmetic binary ops
/// (ShapeInference::InferBinaryOpShape): `subtract`, `divide`, `remainder`,
/// `power` and the three shifts reject PRED operands with "Expected element
/// type in shape to be arithmetic type for operation %s; got PRED.".
/// `opName` is XLA's opcode name (`shift-left`, ...). Success for other ops.
llvm::Error checkBinaryOpElementType(llvm::StringRef opName, PrimitiveType lhs,
                                     PrimitiveType rhs);

/// Binary op result shape on XLA shapes: checks element types (equal, or
/// both floating point; else "Binary op %s with different element types: %s
/// and %s."), then inferBinaryOpDims; the result has the higher-precision
/// element type (higherPrecisionType, as XLA) and the default layout.
llvm::Expected<Shape> inferBinaryOpShape(llvm::StringRef opName,
                                         const Shape &lhs, const Shape &rhs,
                                         llvm::ArrayRef<int64_t> broadcastDims);

/// The dims of the operand's broadcast_in_dim in XLA's builder expansion:
/// for a lower-rank operand, the output dims with the operand's own sizes at
/// the mapped dims (so that a remaining size-1 dim is then expanded by a
/// degenerate broadcast). Pre: inferBinaryOpDims succeeded.
llvm::SmallVector<int64_t, 6>
getInDimBroadcastShape(llvm::ArrayRef<int64_t> operandDims,
                       llvm::ArrayRef<int64_t> outputDims,
                       llvm::ArrayRef<int64_t> broadcastDims);

/// broadcast_in_dim constraints (StableHLO spec, docs/semantics.md §5), one
/// shared checker; each message starts with its constraint, e.g. "C5:
/// dim(operand, 0) = 3 must be 1 or equal dim(result, 1) = 4".
///   C1 element types equal (compared as text);  C2 size(dims) = rank(operand)
///   C3 0 <= dims[i] < rank(result);  C4 dims unique;
///   C5 dim(operand, i) is 1 or equals dim(result, dims[i]).
/// As StableHLO's verifyBroadcastInDimOp, C5 is checked only for a static
/// operand dim (a `?` operand dim may be anything), also when the result dim
/// is `?`: a static 3 cannot broadcast into a `?`.
llvm::Error verifyBroadcastInDim(llvm::StringRef operandElementType,
                                 llvm::ArrayRef<int64_t> operandDims,
                                 llvm::StringRef resultElementType,
                                 llvm::ArrayRef<int64_t> resultDims,
                                 llvm::ArrayRef<int64_t> dims);

} // namespace mlir::layout

#endif // LAYOUT_XLA_BROADCAST_H
