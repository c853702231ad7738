//===- IntegerFloatMoves.cpp - --layout-integer-float-moves ---------------===//
//
// Vector loads and non-temporal stores of 16-bit floats as integer vectors:
// LLVM's x86 backend drops the non-temporal hint for legal bf16/f16 vector
// types (AVX-512), so the streaming stores of every bf16/f16 relayout would
// be cached stores. See the pass description in Passes.td.
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

struct IntegerFloatMovesPass
    : layout::impl::LayoutIntegerFloatMovesBase<IntegerFloatMovesPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        VectorType integer = integerLanes(store.getValue().getType());
        if (!integer || !store.getNontemporal())
          return;
        OpBuilder b(store);
        store.getValueMutable().assign(LLVM::BitcastOp::create(
            b, store.getLoc(), integer, store.getValue()));
        return;
      }
      auto load = dyn_cast<LLVM::LoadOp>(op);
      VectorType integer = load ? integerLanes(load.getType()) : VectorType();
      if (!integer)
        return;
      // The load keeps its attributes (alignment, volatile, nontemporal,
      // invariant, ...); only the result type changes.
      Type floatType = load.getType();
      load.getResult().setType(integer);
      OpBuilder b(load->getContext());
      b.setInsertionPointAfter(load);
      auto bits = LLVM::BitcastOp::create(b, load.getLoc(), floatType,
                                          load.getResult());
      load.getResult().replaceAllUsesExcept(bits, bits);
    });
  }
};
} // namespace
