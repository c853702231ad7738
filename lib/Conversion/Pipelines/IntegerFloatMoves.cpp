//===- IntegerFloatMoves.cpp - --layout-integer-float-moves ---------------===//
//
// Vector loads and stores of 16-bit floats as integer vectors: LLVM's x86
// backend drops the non-temporal hint for legal bf16/f16 vector types
// (AVX-512), so the streaming stores of every bf16/f16 relayout would be
// cached stores, and on AVX2 it may move bf16 vectors through f32. See the
// pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTINTEGERFLOATMOVES
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {
/// The integer vector of the same shape and lane width as `type`, for
/// vectors of floats other than f32/f64 (whose non-temporal stores the
/// backend keeps); null otherwise.
VectorType integerLanes(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector)
    return {};
  auto lane = dyn_cast<FloatType>(vector.getElementType());
  if (!lane || lane.isF32() || lane.isF64())
    return {};
  return vector.clone(IntegerType::get(type.getContext(), lane.getWidth()));
}

/// Makes `result` (of a float vector type) an `integer` vector and gives its
/// users the float vector back through a bitcast.
void retypeResult(Value result, VectorType integer) {
  Type floatType = result.getType();
  result.setType(integer);
  OpBuilder b(result.getContext());
  b.setInsertionPointAfterValue(result);
  auto bits = LLVM::BitcastOp::create(b, result.getLoc(), floatType, result);
  result.replaceAllUsesExcept(bits, bits);
}

/// Replaces the float vector `operand` of its op by its integer bitcast.
void bitcastOperand(OpOperand &operand, VectorType integer) {
  OpBuilder b(operand.getOwner());
  operand.assign(LLVM::BitcastOp::create(b, operand.getOwner()->getLoc(),
                                         integer, operand.get()));
}

struct IntegerFloatMovesPass
    : layout::impl::LayoutIntegerFloatMovesBase<IntegerFloatMovesPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      // Cached stores too: on AVX2 (bf16 lanes promoted to f32) LLVM 22
      // turned a cached store of `bitcast(load <32 x i16>)` into
      // <32 x bfloat> moves through f32, a __truncsfbf2 call per lane.
      if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (VectorType integer = integerLanes(store.getValue().getType()))
          bitcastOperand(store.getValueMutable(), integer);
        return;
      }
      // The load keeps its attributes (alignment, volatile, nontemporal,
      // invariant, ...); only the result type changes.
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (VectorType integer = integerLanes(load.getType()))
          retypeResult(load.getResult(), integer);
        return;
      }
      // Masked moves of 16-bit floats, cached or not: where AVX-512 has no
      // BF16 (x86-64-v4, Skylake-X to Ice Lake, and VMs that hide it),
      // LLVM 22 legalizes llvm.masked.load/store of <N x bfloat> through
      // f32 and calls __truncsfbf2 per lane; as i16 lanes they are one
      // vmovdqu16 {k}.
      if (auto load = dyn_cast<LLVM::MaskedLoadOp>(op)) {
        VectorType integer = integerLanes(load.getType());
        if (!integer)
          return;
        for (OpOperand &passThru : load.getPassThruMutable())
          bitcastOperand(passThru, integer);
        retypeResult(load.getRes(), integer);
        return;
      }
      if (auto store = dyn_cast<LLVM::MaskedStoreOp>(op))
        if (VectorType integer = integerLanes(store.getValue().getType()))
          bitcastOperand(store.getValueMutable(), integer);
    });
  }
};
} // namespace
