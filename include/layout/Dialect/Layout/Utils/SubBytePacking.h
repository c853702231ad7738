//===- SubBytePacking.h - XLA's E(n) sub-byte packing -----------*- C++ -*-===//
//
// A #layout.tiled memref whose layout has `E(n)` with n < 8 (s4/u4 with
// E(4), s2/u2 with E(2), s1/u1 with E(1), f4e2m1fn with E(4)) is stored
// packed: 8/n slots per byte, the slots in the order of the physical buffer
// (row-major in the layout's physical dims). The order inside a byte is
// XLA's: the first slot of a byte is in its most significant bits. XLA
// sources: `PackIntN` / `UnpackIntN` in xla/util.h (slot j of a byte is
// shifted left by n * (8/n - j - 1)) and
// `IrArray::EmitLinearArrayElementAddress` in
// xla/service/llvm_ir/ir_array.cc (the element with an even linear index is
// in the high-order bits of its byte).
//
// Upstream MLIR's narrow-type emulation
// (memref::populateMemRefNarrowTypeEmulationPatterns with
// arith::NarrowTypeEmulationConverter) puts element x at bit (x % 2) * 4,
// the first element in the LOW bits: the opposite order. It cannot be used
// for XLA's buffers, so --layout-normalize-memrefs emits the byte loads and
// shift/mask itself with these helpers (docs/lowering.md, "Sub-byte
// storage").
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_SUBBYTEPACKING_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_SUBBYTEPACKING_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>

namespace mlir::layout {

/// The packed bits per element of a #layout.tiled memref or tensor type:
/// n for a sub-byte element type with E(n), n its bit width (1, 2 or 4);
/// 0 when the layout does not pack (no E, or E(n) equal to the element's
/// storage bits, e.g. E(8) on i4: one byte per element). Other E(n) are
/// reported through `emitError` (E(1) on pred, which XLA's CPU/GPU backends
/// reject; E(n) other than the element's bit width; elements straddling
/// bytes).
FailureOr<unsigned>
getSubBytePackingBits(ShapedType type,
                      function_ref<InFlightDiagnostic()> emitError);

/// getSubBytePackingBits without a diagnostic: sets `bits` and returns the
/// empty string, or returns why the E(n) of `type` cannot be stored.
std::string getSubBytePacking(ShapedType type, unsigned &bits);

/// Bytes of `slots` packed `bits`-bit slots: ceil(slots * bits / 8).
int64_t getPackedByteCount(int64_t slots, unsigned bits);

/// The row-major linear index of `index` in `dims`, in any index algebra
/// (ops: constant, add, mul by a constant).
template <typename T, typename Ops>
T linearizeIndex(ArrayRef<T> index, ArrayRef<int64_t> dims, Ops &ops) {
  T linear = ops.constant(0);
  int64_t stride = 1;
  for (int64_t k = static_cast<int64_t>(dims.size()) - 1; k >= 0; --k) {
    linear = ops.add(linear, ops.mul(index[k], stride));
    stride *= dims[k];
  }
  return linear;
}

/// The byte holding slot `slot` of a buffer of `bits`-bit slots and the
/// position of the slot's least significant bit in it, in XLA's order: slot
/// j of a byte (j = slot mod 8/bits) sits at bit 8 - bits * (j + 1), so the
/// first slot is in the high bits (xla/util.h PackIntN).
template <typename T, typename Ops>
std::pair<T, T> getPackedPosition(T slot, unsigned bits, Ops &ops) {
  int64_t perByte = 8 / bits;
  T byte = ops.floorDiv(slot, perByte);
  T j = ops.mod(slot, perByte);
  T offset = ops.mul(ops.add(ops.mul(j, -1), ops.constant(perByte - 1)), bits);
  return {byte, offset};
}

/// The `elementType` element (n bits, n its width) at bit `bitOffset` (an
/// i8) of the i8 `byte`: logical shift right, truncation, then the element
/// type (a cast for si/ui, a bitcast for f4E2M1FN).
Value extractPackedElement(OpBuilder &builder, Location loc, Value byte,
                           Value bitOffset, Type elementType);

/// `byte` (an i8) with the bits of `element` at `bitOffset` replaced (the
/// other bits kept).
Value insertPackedElement(OpBuilder &builder, Location loc, Value byte,
                          Value bitOffset, Value element);

/// The byte holding `elements` (8/n elements of n bits, in slot order) in
/// XLA's order: element j shifted left by 8 - n * (j + 1).
Value assemblePackedByte(OpBuilder &builder, Location loc, ValueRange elements);

/// Stores of whole bytes where a row fills them: if `store` (memref.store or
/// affine.store into the physical view of a packed buffer, row-major in
/// `physicalDims`, `bits` per slot) is in a row loop (scf.for/affine.for,
/// step 1, constant bounds and row length multiples of 8/bits) whose IV is
/// its last index, whose other indices come from outside the loop, and whose
/// other ops have no regions and only read memory (the relayout and padding
/// rows of the loop nests), unrolls the loop by 8/bits (iterations iv + j are
/// clones of the body) and returns the stores of one iteration, the first
/// being `store`: together they fill one byte (assemblePackedByte).
/// Otherwise changes nothing and returns an empty vector.
SmallVector<Operation *> unrollWholeByteRow(Operation *store,
                                            ArrayRef<int64_t> physicalDims,
                                            unsigned bits);

/// Loops filling `packed` (memref<B x i8>, zeroed trailing bits) from the
/// unpacked identity memref `source` of shape `physicalDims`, slot by slot
/// (read-modify-write of each byte).
void emitPackingLoops(OpBuilder &builder, Location loc, Value source,
                      Value packed, ArrayRef<int64_t> physicalDims,
                      unsigned bits);

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_SUBBYTEPACKING_H
