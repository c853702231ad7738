//===- LayoutBroadcastOps.h - broadcasting ops ------------------*- C++ -*-===//
//
// `layout.broadcast_in_dim` and the binary elementwise ops with XLA
// broadcasting (`layout.add`, ..., `layout.compare`), see
// LayoutBroadcastOps.td and docs/broadcasting.md.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTBROADCASTOPS_H
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTBROADCASTOPS_H

#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>
#include <string>

namespace mlir::layout {

/// The element type a binary op computes in: the operands' type, or for two
/// floating-point types the higher precision (XLA's HigherPrecisionType:
/// bf16 and f32 give f32); null if XLA rejects the pair.
Type getBinaryOpComputeType(Type lhs, Type rhs);

/// Result type of a broadcasting binary op `opName` (`layout.add`, ...):
/// ranked tensor operands with equal element types (or floats that differ
/// in precision: getBinaryOpComputeType), dims from the library's
/// inferBinaryOpDims; i1 elements for `layout.compare`; no encoding. Errors
/// (XLA wording) go to `location` when it is set.
LogicalResult inferBroadcastingBinaryOpType(
    std::optional<Location> location, llvm::StringRef opName, Type lhsType,
    Type rhsType, std::optional<llvm::ArrayRef<int64_t>> broadcastDimensions,
    llvm::SmallVectorImpl<Type> &inferredTypes);

/// The verifier of OpTrait::BroadcastingBinaryOp: the rule of
/// inferBroadcastingBinaryOpType, reported with emitOpError.
LogicalResult verifyBroadcastingBinaryOp(Operation *op);

namespace OpTrait {
/// Marks the broadcasting binary ops and verifies their broadcasting rule.
template <typename ConcreteType>
class BroadcastingBinaryOp
    : public ::mlir::OpTrait::TraitBase<ConcreteType, BroadcastingBinaryOp> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyBroadcastingBinaryOp(op);
  }
};
} // namespace OpTrait

/// True if the types are pairwise equal up to the encoding of ranked tensors.
bool areCompatibleIgnoringEncoding(TypeRange lhs, TypeRange rhs);

/// The op name XLA uses in its messages: the mnemonic with `-` for `_`
/// (`layout.shift_left` -> `shift-left`).
std::string getXlaOpName(llvm::StringRef operationName);

/// XLA's text of a shaped type for messages: `f32[2,?]`; element types
/// without an XLA equivalent are printed as MLIR prints them.
std::string getXlaTypeText(Type type);

/// Shared custom assembly of the broadcasting binary ops:
///   `layout.add %a, %b (, dims = [..])? attr-dict : (T, T) (-> T)?`
///   `layout.compare LT, %a, %b ...`
/// The result type is inferred when omitted and always printed.
ParseResult parseBroadcastingBinaryOp(OpAsmParser &parser,
                                      OperationState &result);
void printBroadcastingBinaryOp(OpAsmPrinter &printer, Operation *op);

/// broadcast_in_dim's rule for dynamic result sizes (C6, C7 of the op's
/// description): the empty string if an op with these types, dims and
/// `numSizes` size operands is valid, else the message. Pre: C1..C5 hold.
std::string checkBroadcastInDimSizes(RankedTensorType operandType,
                                     RankedTensorType resultType,
                                     llvm::ArrayRef<int64_t> dims,
                                     size_t numSizes);

} // namespace mlir::layout

#include "layout/Dialect/Layout/IR/LayoutBroadcastOpsEnums.h.inc"

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h.inc"

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTBROADCASTOPS_H
