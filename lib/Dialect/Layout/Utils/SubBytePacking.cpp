//===- SubBytePacking.cpp - XLA's E(n) sub-byte packing -------------------===//
//
// Which E(n) layouts are packed, and the shift/mask of one element inside
// its byte in XLA's order (first slot in the high bits; see the header for
// the XLA sources).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/Utils/ArithIndexOps.h"
#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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

/// `value` as `type`, of the same width: a signless integer and an si/ui
/// (castElement) or f4 (bitcast) element, either way.
static Value reinterpretBits(OpBuilder &b, Location loc, Value value,
                             Type type) {
  if (value.getType() == type)
    return value;
  if (isa<FloatType>(type) || isa<FloatType>(value.getType()))
    return arith::BitcastOp::create(b, loc, type, value);
  return castElement(b, loc, value, type);
}

/// The signless integer of `element`'s width, for si/ui and f4 elements.
static Value toSignlessBits(OpBuilder &b, Location loc, Value element) {
  auto signless =
      IntegerType::get(b.getContext(), getElementBits(element.getType()));
  return reinterpretBits(b, loc, element, signless);
}

Value mlir::layout::extractPackedElement(OpBuilder &b, Location loc, Value byte,
                                         Value bitOffset, Type elementType) {
  unsigned bits = getElementBits(elementType);
  auto signless = IntegerType::get(b.getContext(), bits);
  Value shifted = arith::ShRUIOp::create(b, loc, byte, bitOffset);
  Value element = arith::TruncIOp::create(b, loc, signless, shifted);
  return reinterpretBits(b, loc, element, elementType);
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

/// Whether `op` only reads memory (or has no effects).
static bool onlyReadsMemory(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read>(e.getEffect());
  });
}

SmallVector<Operation *> mlir::layout::unrollWholeByteRow(
    Operation *store, ArrayRef<int64_t> physicalDims, unsigned bits) {
  OpBuilder b(store->getContext());
  Value view = store->getOperand(1);
  int64_t k = 8 / bits;
  Operation *loop = store->getParentOp();
  Value iv;
  std::optional<int64_t> lb, ub, step;
  if (auto f = dyn_cast<affine::AffineForOp>(loop)) {
    if (!f.hasConstantBounds() || f.getNumIterOperands() != 0)
      return {};
    iv = f.getInductionVar();
    lb = f.getConstantLowerBound();
    ub = f.getConstantUpperBound();
    step = f.getStepAsInt();
  } else if (auto f = dyn_cast<scf::ForOp>(loop)) {
    if (!f.getInitArgs().empty())
      return {};
    iv = f.getInductionVar();
    lb = getConstantIntValue(f.getLowerBound());
    ub = getConstantIntValue(f.getUpperBound());
    step = getConstantIntValue(f.getStep());
  } else {
    return {};
  }
  if (!lb || !ub || !step || *step != 1 || *lb % k || *ub % k ||
      physicalDims.empty() || physicalDims.back() % k)
    return {};
  Region &loopRegion = loop->getRegion(0);
  auto outside = [&](Value v) {
    return v != iv && !loopRegion.isAncestor(v.getParentRegion());
  };
  bool row = false;
  if (auto s = dyn_cast<memref::StoreOp>(store)) {
    ValueRange idx = s.getIndices();
    row = !idx.empty() && idx.back() == iv &&
          llvm::all_of(idx.drop_back(), outside);
  } else {
    auto as = cast<affine::AffineStoreOp>(store);
    AffineMap map = as.getAffineMap();
    ValueRange operands = as.getMapOperands();
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    row = last && operands[last.getPosition()] == iv;
    for (auto [m, v] : llvm::enumerate(operands)) {
      if (v != iv) {
        row = row && outside(v);
        continue;
      }
      for (AffineExpr e : map.getResults().drop_back())
        row = row && (m >= map.getNumDims() || !e.isFunctionOfDim(m));
      row = row && m < map.getNumDims();
    }
  }
  if (!row)
    return {};
  Block *body = store->getBlock();
  SmallVector<Operation *> bodyOps;
  bool pure = true;
  for (Operation &op : body->without_terminator()) {
    bodyOps.push_back(&op);
    if (&op == store)
      continue;
    pure = pure && op.getNumRegions() == 0 && onlyReadsMemory(&op) &&
           !llvm::is_contained(op.getOperands(), view);
  }
  if (!pure)
    return {};
  // Unroll by k: iterations iv + 1 .. iv + k - 1 are clones of the body.
  Location loc = loop->getLoc();
  SmallVector<Operation *> group{store};
  bool isAffine = isa<affine::AffineForOp>(loop);
  for (int64_t j = 1; j < k; ++j) {
    b.setInsertionPoint(body->getTerminator());
    Value shifted =
        isAffine
            ? affine::AffineApplyOp::create(
                  b, loc, AffineMap::get(1, 0, b.getAffineDimExpr(0) + j), iv)
                  .getResult()
            : arith::AddIOp::create(b, loc, iv,
                                    arith::ConstantIndexOp::create(b, loc, j))
                  .getResult();
    IRMapping mapping;
    mapping.map(iv, shifted);
    for (Operation *op : bodyOps) {
      Operation *clone = b.clone(*op, mapping);
      if (op == store)
        group.push_back(clone);
    }
  }
  if (auto f = dyn_cast<affine::AffineForOp>(loop)) {
    f.setStep(k);
  } else {
    b.setInsertionPoint(loop);
    cast<scf::ForOp>(loop).getStepMutable().assign(
        arith::ConstantIndexOp::create(b, loc, k));
  }
  return group;
}

void mlir::layout::emitPackingLoops(OpBuilder &builder, Location loc,
                                    Value source, Value packed,
                                    ArrayRef<int64_t> physicalDims,
                                    unsigned bits) {
  OpBuilder::InsertionGuard outerGuard(builder);
  SmallVector<Value> ivs;
  std::function<void(size_t)> nest = [&](size_t k) {
    if (k == physicalDims.size()) {
      ArithIndexOps ops(builder, loc);
      Value element = memref::LoadOp::create(builder, loc, source, ivs);
      Value linear = linearizeIndex<Value>(ivs, physicalDims, ops);
      auto [byteIndex, offset] = getPackedPosition<Value>(linear, bits, ops);
      Value offset8 =
          arith::IndexCastOp::create(builder, loc, builder.getI8Type(), offset);
      Value byte = memref::LoadOp::create(builder, loc, packed, byteIndex);
      memref::StoreOp::create(
          builder, loc,
          insertPackedElement(builder, loc, byte, offset8, element), packed,
          byteIndex);
      return;
    }
    Value lb = arith::ConstantIndexOp::create(builder, loc, 0);
    Value ub = arith::ConstantIndexOp::create(builder, loc, physicalDims[k]);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    auto loop = scf::ForOp::create(builder, loc, lb, ub, one);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    ivs.push_back(loop.getInductionVar());
    nest(k + 1);
    ivs.pop_back();
  };
  nest(0);
}
