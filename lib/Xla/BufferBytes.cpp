//===- BufferBytes.cpp - The one definition of "same bytes" ---------------===//
//
// See BufferBytes.h; docs/algebra.md ("Same bytes").
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/BufferBytes.h"
#include "layout/Xla/TiledLayoutMap.h"

using namespace mlir::layout;

int64_t mlir::layout::storedElementBits(const Shape &shape) {
  int64_t bits = shape.getLayout().getElementSizeInBits();
  return bits ? bits : 8 * primitiveTypeByteWidth(shape.getElementType());
}

namespace {
/// The bits an integer (or pred) padding value writes, two's complement in
/// the type's bit width. Pre: pred or an integral type; `value` is not
/// Invalid or Unknown.
uint64_t integerPaddingBits(PrimitiveType type, PaddingValue value) {
  int64_t width = primitiveTypeBitWidth(type);
  bool isUnsigned = type == PrimitiveType::Pred || isUnsignedIntegralType(type);
  uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  switch (value) {
  case PaddingValue::One:
    return 1 & mask;
  case PaddingValue::Lowest:
    return isUnsigned ? 0 : uint64_t(1) << (width - 1);
  case PaddingValue::Highest:
    return isUnsigned ? mask : mask >> 1;
  default:
    return 0;
  }
}
} // namespace

PaddingValue mlir::layout::writtenPaddingValue(PrimitiveType type,
                                               PaddingValue value) {
  if (value == PaddingValue::Invalid || value == PaddingValue::Unknown)
    value = PaddingValue::Zero;
  if (type == PrimitiveType::Pred || isIntegralType(type)) {
    uint64_t bits = integerPaddingBits(type, value);
    for (PaddingValue rep : {PaddingValue::Zero, PaddingValue::One,
                             PaddingValue::Lowest, PaddingValue::Highest})
      if (integerPaddingBits(type, rep) == bits)
        return rep;
  }
  // f8e8m0fnu has neither a zero nor a sign: zero and lowest both write its
  // smallest normal value.
  if (type == PrimitiveType::F8E8M0FNU && value == PaddingValue::Lowest)
    return PaddingValue::Zero;
  return value;
}

bool mlir::layout::sameElementEncoding(const Shape &a, const Shape &b,
                                       bool compareBits) {
  const Layout &la = a.getLayout(), &lb = b.getLayout();
  return la.getMemorySpace() == lb.getMemorySpace() &&
         la.getDynamicShapeMetadataPrefixBytes() ==
             lb.getDynamicShapeMetadataPrefixBytes() &&
         (!compareBits || storedElementBits(a) == storedElementBits(b));
}

bool mlir::layout::sameBufferFrame(const Shape &a, const TiledLayoutMap &am,
                                   const Shape &b, const TiledLayoutMap &bm,
                                   bool compareBits) {
  if (!sameElementEncoding(a, b, compareBits) ||
      am.getPhysicalElementCount() != bm.getPhysicalElementCount())
    return false;
  if (compareBits ? am.getAllocatedBytes() != bm.getAllocatedBytes()
                  : am.getAllocatedElements() != bm.getAllocatedElements())
    return false;
  // Equal slot and element counts: both have padding slots or neither.
  if (am.getPhysicalElementCount() == am.getElementCount())
    return true;
  return writtenPaddingValue(a.getElementType(),
                             a.getLayout().getPaddingValue()) ==
         writtenPaddingValue(b.getElementType(),
                             b.getLayout().getPaddingValue());
}
