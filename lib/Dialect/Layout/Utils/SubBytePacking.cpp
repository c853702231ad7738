//===- SubBytePacking.cpp - XLA's E(n) sub-byte packing -------------------===//
//
// Which E(n) layouts are packed, and the shift/mask of one element inside
// its byte in XLA's order (first slot in the high bits; see the header for
// the XLA sources).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;

/// Bits of one element of `type` (0 for types without a width).
static unsigned getElementBits(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * getElementBits(complex.getElementType());
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  if (type.isIndex())
    return 64;
  return 0;
}

std::string mlir::layout::getSubBytePacking(ShapedType type,
                                            unsigned &packedBits) {
  packedBits = 0;
  TiledLayoutAttr attr;
  if (auto memref = dyn_cast<MemRefType>(type))
    attr = dyn_cast<TiledLayoutAttr>(memref.getLayout());
  else if (auto tensor = dyn_cast<RankedTensorType>(type))
    attr = dyn_cast_if_present<TiledLayoutAttr>(tensor.getEncoding());
  if (!attr)
    return "";
  int64_t n = attr.getLayout().getElementSizeInBits();
  if (n == 0)
    return "";
  Type elementType = type.getElementType();
  unsigned bits = getElementBits(elementType);
  unsigned storageBits = 8 * llvm::divideCeil(bits, 8);
  if (n == static_cast<int64_t>(storageBits))
    return ""; // One storage unit per element, as without E.
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "E(" << n << ") on element type '" << elementType << "': ";
  if (elementType.isSignlessInteger(1)) {
    os << "XLA's CPU and GPU backends reject custom element sizes on PRED "
          "(\"custom element sizes on non-sub-byte types\", "
          "xla/service/cpu_gpu_shape_verifier.cc); a pred takes one byte (no "
          "E, or E(8))";
    return message;
  }
  bool subByte =
      (isa<IntegerType>(elementType) || isa<Float4E2M1FNType>(elementType)) &&
      bits < 8;
  if (!subByte) {
    os << "only sub-byte integer and f4E2M1FN elements are packed; this type "
          "takes "
       << storageBits << " bits per element (no E, or E(" << storageBits
       << "))";
    return message;
  }
  if (n != static_cast<int64_t>(bits)) {
    os << "a packed element takes exactly its bit width, as XLA packs "
          "(xla/util.h PackIntN): use E("
       << bits << ") to pack or E(8) for one byte per element";
    return message;
  }
  if (8 % bits != 0) {
    os << bits
       << "-bit elements would straddle bytes; packing supports 1, 2 and "
          "4-bit elements";
    return message;
  }
  if (!type.hasStaticShape()) {
    os << "packing of dynamic shapes is not supported yet (the byte count and "
          "the slot strides would be run-time values)";
    return message;
  }
  packedBits = bits;
  return "";
}

FailureOr<unsigned> mlir::layout::getSubBytePackingBits(
    ShapedType type, function_ref<InFlightDiagnostic()> emitError) {
  unsigned bits;
  std::string why = getSubBytePacking(type, bits);
  if (!why.empty())
    return emitError() << why;
  return bits;
}

int64_t mlir::layout::getPackedByteCount(int64_t slots, unsigned bits) {
  // slots * bits cannot overflow for sizes the verifiers accepted (they are
  // element counts of int64 byte sizes); divide first to be safe anyway.
  int64_t perByte = 8 / bits;
  return slots / perByte + (slots % perByte != 0);
}

/// The signless integer of `element`'s width, for si/ui and f4 elements.
static Value toSignlessBits(OpBuilder &b, Location loc, Value element) {
  Type type = element.getType();
  unsigned bits = getElementBits(type);
  auto signless = IntegerType::get(b.getContext(), bits);
  if (type == signless)
    return element;
  if (isa<FloatType>(type))
    return arith::BitcastOp::create(b, loc, signless, element);
  return castElement(b, loc, element, signless);
}

Value mlir::layout::extractPackedElement(OpBuilder &b, Location loc, Value byte,
                                         Value bitOffset, Type elementType) {
  unsigned bits = getElementBits(elementType);
  auto signless = IntegerType::get(b.getContext(), bits);
  Value shifted = arith::ShRUIOp::create(b, loc, byte, bitOffset);
  Value element = arith::TruncIOp::create(b, loc, signless, shifted);
  if (elementType == signless)
    return element;
  if (isa<FloatType>(elementType))
    return arith::BitcastOp::create(b, loc, elementType, element);
  return castElement(b, loc, element, elementType);
}

Value mlir::layout::insertPackedElement(OpBuilder &b, Location loc, Value byte,
                                        Value bitOffset, Value element) {
  Type i8 = b.getI8Type();
  unsigned bits = getElementBits(element.getType());
  Value value =
      arith::ExtUIOp::create(b, loc, i8, toSignlessBits(b, loc, element));
  Value lowMask =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, (1 << bits) - 1));
  Value mask = arith::ShLIOp::create(b, loc, lowMask, bitOffset);
  Value allOnes = arith::ConstantOp::create(b, loc, b.getIntegerAttr(i8, -1));
  Value keep = arith::XOrIOp::create(b, loc, mask, allOnes);
  Value kept = arith::AndIOp::create(b, loc, byte, keep);
  Value placed = arith::ShLIOp::create(b, loc, value, bitOffset);
  return arith::OrIOp::create(b, loc, kept, placed);
}

Value mlir::layout::assemblePackedByte(OpBuilder &b, Location loc,
                                       ValueRange elements) {
  Type i8 = b.getI8Type();
  unsigned bits = getElementBits(elements.front().getType());
  Value byte;
  for (auto [j, element] : llvm::enumerate(elements)) {
    Value value =
        arith::ExtUIOp::create(b, loc, i8, toSignlessBits(b, loc, element));
    Value shift = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(i8, 8 - bits * (j + 1)));
    Value placed = arith::ShLIOp::create(b, loc, value, shift);
    byte =
        byte ? arith::OrIOp::create(b, loc, byte, placed).getResult() : placed;
  }
  return byte;
}
