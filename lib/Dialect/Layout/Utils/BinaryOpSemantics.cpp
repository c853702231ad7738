//===- BinaryOpSemantics.cpp - XLA semantics of the binary ops ------------===//

#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Xla/NarrowFloat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Scalar semantics of the binary ops
//===----------------------------------------------------------------------===//

std::string mlir::layout::whyBinaryUnsupported(Operation *op) {
  Type t = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  std::string why;
  llvm::raw_string_ostream os(why);
  auto floatType = dyn_cast<FloatType>(t);
  std::string whyFormat;
  if (!isa<IntegerType, FloatType, ComplexType>(t))
    os << "element type " << t << " (not an integer, float or complex type)";
  else if (floatType && isComputedInF32(t) &&
           !describeNarrowFloat(floatType.getFloatSemantics(), &whyFormat))
    // Floats narrower than 16 bits are computed in f32: their extf/truncf
    // are lowered by --layout-expand-narrow-floats (any format of at most 8
    // bits with the usual encoding, described from its fltSemantics).
    os << "arithmetic on " << t
       << " (floats narrower than 16 bits are computed in f32, and this "
          "format cannot be converted to and from f32: "
       << whyFormat
       << "; convert the operands to f32 first; relayouts and "
          "broadcast_in_dim of this type work)";
  else if (isa<ComplexType>(t) && isa<Atan2Op>(op))
    os << "atan2 on complex numbers";
  else if (t.isInteger(1) && isa<PowerOp>(op))
    os << "power on i1";
  return why;
}

LogicalResult mlir::layout::checkBinaryElementSupported(Operation *op) {
  std::string why = whyBinaryUnsupported(op);
  if (why.empty())
    return success();
  return op->emitOpError() << "cannot be lowered to loops: " << why;
}

static Value emitIntegerDivRem(OpBuilder &b, Location loc, Value lhs, Value rhs,
                               bool remainder, bool isUnsigned) {
  // XLA: x / 0 = -1 (all ones), x % 0 = x; signed: INT_MIN / -1 = INT_MIN,
  // INT_MIN % -1 = 0.
  Type t = lhs.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  if (isUnsigned) {
    Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
    Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 1));
    Value isZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
    Value safe = arith::SelectOp::create(b, loc, isZero, one, rhs);
    if (remainder)
      return arith::SelectOp::create(b, loc, isZero, lhs,
                                     arith::RemUIOp::create(b, loc, lhs, safe));
    Value allOnes = arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(t, APInt::getAllOnes(width)));
    return arith::SelectOp::create(b, loc, isZero, allOnes,
                                   arith::DivUIOp::create(b, loc, lhs, safe));
  }
  auto constant = [&](const APInt &v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v))
        .getResult();
  };
  Value zero = constant(APInt::getZero(width));
  Value one = constant(APInt(width, 1));
  Value minusOne = constant(APInt::getAllOnes(width));
  Value intMin = constant(APInt::getSignedMinValue(width));
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value lhsMin =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, intMin);
  Value rhsMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  Value overflow = arith::AndIOp::create(b, loc, lhsMin, rhsMinusOne);
  Value unsafe = arith::OrIOp::create(b, loc, isZero, overflow);
  Value safe = arith::SelectOp::create(b, loc, unsafe, one, rhs);
  if (remainder) {
    Value rem = arith::RemSIOp::create(b, loc, lhs, safe);
    return arith::SelectOp::create(b, loc, isZero, lhs, rem);
  }
  Value quot = arith::DivSIOp::create(b, loc, lhs, safe);
  return arith::SelectOp::create(b, loc, isZero, minusOne, quot);
}

static Value emitIntegerPower(OpBuilder &b, Location loc, Value lhs,
                              Value rhs) {
  // XLA: a negative exponent gives 0, except for base 1 (1) and base -1
  // (+-1 by the exponent's parity). math.ipowi must not see a negative
  // exponent: upstream lowers it to a division 1 / base, which is UB for
  // base 0 (and not XLA's result for the others).
  Type t = lhs.getType();
  auto constant = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v))
        .getResult();
  };
  Value zero = constant(0), one = constant(1), minusOne = constant(-1);
  Value exponent = arith::MaxSIOp::create(b, loc, rhs, zero);
  Value power = math::IPowIOp::create(b, loc, lhs, exponent);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rhs, zero);
  Value odd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, rhs, one), zero);
  Value baseOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, one);
  Value baseMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, minusOne);
  Value minusOnePower = arith::SelectOp::create(b, loc, odd, minusOne, one);
  Value reciprocal = arith::SelectOp::create(
      b, loc, baseOne, one,
      arith::SelectOp::create(b, loc, baseMinusOne, minusOnePower, zero));
  return arith::SelectOp::create(b, loc, negative, reciprocal, power);
}

static Value emitUnsignedPower(OpBuilder &b, Location loc, Value lhs,
                               Value rhs) {
  // Exponents are unsigned, but math.ipowi reads them as signed: an exponent
  // with the top bit set is split, b^e = b^(e - 2^(w-1)) * (b^(2^(w-2)))^2.
  Type t = lhs.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  if (width < 2)
    return math::IPowIOp::create(b, loc, lhs, rhs);
  auto constant = [&](const APInt &v) {
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v))
        .getResult();
  };
  Value top = constant(APInt::getSignMask(width));
  Value low = arith::AndIOp::create(b, loc, rhs,
                                    constant(APInt::getSignedMaxValue(width)));
  Value lowPower = math::IPowIOp::create(b, loc, lhs, low);
  Value quarter = math::IPowIOp::create(
      b, loc, lhs, constant(APInt::getOneBitSet(width, width - 2)));
  Value topPower = arith::MulIOp::create(b, loc, quarter, quarter);
  Value hasTop = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       arith::AndIOp::create(b, loc, rhs, top),
                                       constant(APInt::getZero(width)));
  return arith::SelectOp::create(
      b, loc, hasTop, arith::MulIOp::create(b, loc, lowPower, topPower),
      lowPower);
}

static Value emitShift(OpBuilder &b, Location loc, Operation *op, Value lhs,
                       Value rhs) {
  // XLA (elemental_ir_emitter): an amount outside [0, bits) -- compared
  // unsigned, so negative amounts too -- gives 0, or the sign for
  // arithmetic right shifts (a shift by bits - 1).
  Type t = lhs.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  Value bits = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, width));
  Value inRange =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, rhs, bits);
  if (isa<ShiftRightArithmeticOp>(op)) {
    Value max =
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, width - 1));
    Value amount = arith::SelectOp::create(b, loc, inRange, rhs, max);
    return arith::ShRSIOp::create(b, loc, lhs, amount);
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 0));
  // Keep the shift amount in range: an oversized LLVM shift is poison.
  Value amount = arith::SelectOp::create(b, loc, inRange, rhs, zero);
  Value shifted = isa<ShiftLeftOp>(op)
                      ? arith::ShLIOp::create(b, loc, lhs, amount).getResult()
                      : arith::ShRUIOp::create(b, loc, lhs, amount).getResult();
  return arith::SelectOp::create(b, loc, inRange, shifted, zero);
}

static Value emitCompare(OpBuilder &b, Location loc, CompareOp op, Value lhs,
                         Value rhs, bool isUnsignedInt) {
  Type t = lhs.getType();
  ComparisonDirection dir = op.getComparisonDirection();
  if (isa<ComplexType>(t))
    return dir == ComparisonDirection::EQ
               ? complex::EqualOp::create(b, loc, lhs, rhs).getResult()
               : complex::NotEqualOp::create(b, loc, lhs, rhs).getResult();
  if (isa<FloatType>(t)) {
    arith::CmpFPredicate pred;
    switch (dir) {
    case ComparisonDirection::EQ:
      pred = arith::CmpFPredicate::OEQ;
      break;
    case ComparisonDirection::NE:
      pred = arith::CmpFPredicate::UNE;
      break;
    case ComparisonDirection::LT:
      pred = arith::CmpFPredicate::OLT;
      break;
    case ComparisonDirection::LE:
      pred = arith::CmpFPredicate::OLE;
      break;
    case ComparisonDirection::GT:
      pred = arith::CmpFPredicate::OGT;
      break;
    case ComparisonDirection::GE:
      pred = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, pred, lhs, rhs);
  }
  // pred (i1) compares unsigned: false < true; so do the u* types.
  bool isUnsigned = isUnsignedInt || t.isInteger(1);
  arith::CmpIPredicate pred;
  switch (dir) {
  case ComparisonDirection::EQ:
    pred = arith::CmpIPredicate::eq;
    break;
  case ComparisonDirection::NE:
    pred = arith::CmpIPredicate::ne;
    break;
  case ComparisonDirection::LT:
    pred = isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case ComparisonDirection::LE:
    pred = isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case ComparisonDirection::GT:
    pred = isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case ComparisonDirection::GE:
    pred = isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, pred, lhs, rhs);
}

/// The op on signless integers (`isUnsigned`: XLA's u* semantics), floats
/// with LLVM arithmetic, or complex numbers.
static Value emitSignlessBinaryElement(OpBuilder &b, Location loc,
                                       Operation *op, Value lhs, Value rhs,
                                       bool isUnsigned) {
  Type t = lhs.getType();
  bool isInt = t.isSignlessInteger(), isFloat = isa<FloatType>(t);
  bool isPred = t.isInteger(1);
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        if (isPred)
          return arith::OrIOp::create(b, loc, lhs, rhs);
        if (isInt)
          return arith::AddIOp::create(b, loc, lhs, rhs);
        if (isFloat)
          return arith::AddFOp::create(b, loc, lhs, rhs);
        return complex::AddOp::create(b, loc, lhs, rhs);
      })
      .Case([&](SubtractOp) -> Value {
        if (isInt)
          return arith::SubIOp::create(b, loc, lhs, rhs);
        if (isFloat)
          return arith::SubFOp::create(b, loc, lhs, rhs);
        return complex::SubOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MultiplyOp) -> Value {
        if (isInt) // i1: and
          return arith::MulIOp::create(b, loc, lhs, rhs);
        if (isFloat)
          return arith::MulFOp::create(b, loc, lhs, rhs);
        return complex::MulOp::create(b, loc, lhs, rhs);
      })
      .Case([&](DivideOp) -> Value {
        if (isInt)
          return emitIntegerDivRem(b, loc, lhs, rhs, /*remainder=*/false,
                                   isUnsigned);
        if (isFloat)
          return arith::DivFOp::create(b, loc, lhs, rhs);
        return complex::DivOp::create(b, loc, lhs, rhs);
      })
      .Case([&](RemainderOp) -> Value {
        if (isInt)
          return emitIntegerDivRem(b, loc, lhs, rhs, /*remainder=*/true,
                                   isUnsigned);
        return arith::RemFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MaximumOp) -> Value {
        if (isPred || isUnsigned)
          return arith::MaxUIOp::create(b, loc, lhs, rhs);
        if (isInt)
          return arith::MaxSIOp::create(b, loc, lhs, rhs);
        return arith::MaximumFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MinimumOp) -> Value {
        if (isPred || isUnsigned)
          return arith::MinUIOp::create(b, loc, lhs, rhs);
        if (isInt)
          return arith::MinSIOp::create(b, loc, lhs, rhs);
        return arith::MinimumFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](PowerOp) -> Value {
        if (isInt && isUnsigned)
          return emitUnsignedPower(b, loc, lhs, rhs);
        if (isInt)
          return emitIntegerPower(b, loc, lhs, rhs);
        if (isFloat)
          return math::PowFOp::create(b, loc, lhs, rhs);
        return complex::PowOp::create(b, loc, lhs, rhs);
      })
      .Case([&](Atan2Op) -> Value {
        return math::Atan2Op::create(b, loc, lhs, rhs);
      })
      .Case([&](AndOp) -> Value {
        return arith::AndIOp::create(b, loc, lhs, rhs);
      })
      .Case(
          [&](OrOp) -> Value { return arith::OrIOp::create(b, loc, lhs, rhs); })
      .Case([&](XorOp) -> Value {
        return arith::XOrIOp::create(b, loc, lhs, rhs);
      })
      .Case<ShiftLeftOp, ShiftRightArithmeticOp, ShiftRightLogicalOp>(
          [&](Operation *shift) -> Value {
            return emitShift(b, loc, shift, lhs, rhs);
          })
      .Case([&](CompareOp compare) -> Value {
        return emitCompare(b, loc, compare, lhs, rhs, isUnsigned);
      })
      .Default([](Operation *) -> Value { return {}; });
}

/// Whether every value of `from` is one of `to` (an exact arith.extf).
static bool holdsEveryValue(FloatType to, FloatType from) {
  const llvm::fltSemantics &t = to.getFloatSemantics();
  const llvm::fltSemantics &f = from.getFloatSemantics();
  return APFloat::isRepresentableBy(f, t) &&
         (!APFloat::semanticsHasZero(f) || APFloat::semanticsHasZero(t)) &&
         (!APFloat::semanticsHasSignedRepr(f) ||
          APFloat::semanticsHasSignedRepr(t));
}

Value mlir::layout::castElement(OpBuilder &b, Location loc, Value value,
                                Type to) {
  if (value.getType() == to)
    return value;
  if (isa<IntegerType>(to) && isa<IntegerType>(value.getType()))
    return UnrealizedConversionCastOp::create(b, loc, to, value).getResult(0);
  auto from = cast<FloatType>(value.getType());
  auto target = cast<FloatType>(to);
  if (from.getWidth() < target.getWidth() && holdsEveryValue(target, from))
    return arith::ExtFOp::create(b, loc, target, value);
  if (from.getWidth() > target.getWidth())
    return arith::TruncFOp::create(b, loc, target, value);
  // Same width, other format (f16 <-> bf16), or a narrower format the
  // target cannot hold (f4E2M1FN's 0, 1.5 and negative values in
  // f8E8M0FNU: XLA's convert rounds them): through f32, which holds both.
  // (isRepresentableBy counts normals only: f8E8M0FNU's 2^-127 is an f32
  // subnormal, exact, so f32 is reached here too.)
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
  if (target.isF32())
    return wide;
  return arith::TruncFOp::create(b, loc, target, wide);
}

bool mlir::layout::isComputedInF32(Type elementType) {
  auto floatType = dyn_cast<FloatType>(elementType);
  return floatType && floatType.getWidth() < 16;
}

Value mlir::layout::emitBinaryElement(OpBuilder &b, Location loc, Operation *op,
                                      Value lhs, Value rhs) {
  Type t = lhs.getType();
  // s*/u* integers (si8, ui32, ...): arith works on signless integers, so the
  // op runs on a signless view with the type's signedness as semantics.
  if (auto intType = dyn_cast<IntegerType>(t);
      intType && !intType.isSignless()) {
    Type signless = IntegerType::get(b.getContext(), intType.getWidth());
    Value result = emitSignlessBinaryElement(
        b, loc, op, castElement(b, loc, lhs, signless),
        castElement(b, loc, rhs, signless), intType.isUnsigned());
    return result.getType() == signless ? castElement(b, loc, result, t)
                                        : result;
  }
  // 8-bit and smaller floats: computed in f32 and rounded back, as XLA does
  // on the CPU.
  if (isComputedInF32(t)) {
    Type f32 = b.getF32Type();
    Value result =
        emitSignlessBinaryElement(b, loc, op, castElement(b, loc, lhs, f32),
                                  castElement(b, loc, rhs, f32),
                                  /*isUnsigned=*/false);
    return result.getType() == f32 ? castElement(b, loc, result, t) : result;
  }
  return emitSignlessBinaryElement(b, loc, op, lhs, rhs, /*isUnsigned=*/false);
}

/// 8-bit floats whose extf/truncf --layout-expand-narrow-floats expands
/// (selects and shifts, which work on vectors as well).
static bool isExpandedByteFloat(Type t) {
  auto floatType = dyn_cast<FloatType>(t);
  return floatType && floatType.getWidth() == 8 &&
         describeNarrowFloat(floatType.getFloatSemantics()).has_value();
}

/// Whether the element computation of `op` may run on vectors: a copy, or
/// add/subtract/multiply/maximum/minimum (and divide on floats), whose
/// emitBinaryElement is one elementwise arith op without constants (on
/// 8-bit floats: with extf/truncf to and from f32 around it).
bool mlir::layout::isVectorizableElement(Operation *op) {
  if (isa<BroadcastInDimOp>(op))
    return true;
  Type t = cast<ShapedType>(op->getOperand(0).getType()).getElementType();
  Type r = cast<ShapedType>(op->getResult(0).getType()).getElementType();
  Type rhsType = cast<ShapedType>(op->getOperand(1).getType()).getElementType();
  if (t != r || t != rhsType || !t.isIntOrFloat() || t.isInteger(1) ||
      (t.isInteger() && !t.isSignlessInteger()) ||
      (isComputedInF32(t) && !isExpandedByteFloat(t)))
    return false;
  if (isa<FloatType>(t))
    return isa<AddOp, SubtractOp, MultiplyOp, DivideOp, MaximumOp, MinimumOp>(
        op);
  return isa<AddOp, SubtractOp, MultiplyOp, MaximumOp, MinimumOp>(op);
}

/// emitBinaryElement on vectors, for the ops isVectorizableElement accepts
/// (the same arith op per lane).
Value mlir::layout::emitVectorBinaryElement(OpBuilder &b, Location loc,
                                            Operation *op, Value lhs,
                                            Value rhs) {
  auto vectorType = cast<VectorType>(lhs.getType());
  if (isComputedInF32(vectorType.getElementType())) {
    // 8-bit floats: in f32 and rounded back, as emitBinaryElement does.
    auto f32 = vectorType.clone(b.getF32Type());
    Value result = emitVectorBinaryElement(
        b, loc, op, arith::ExtFOp::create(b, loc, f32, lhs),
        arith::ExtFOp::create(b, loc, f32, rhs));
    return arith::TruncFOp::create(b, loc, vectorType, result);
  }
  bool isFloat = isa<FloatType>(vectorType.getElementType());
  return TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) -> Value {
        return isFloat ? arith::AddFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::AddIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](SubtractOp) -> Value {
        return isFloat ? arith::SubFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::SubIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](MultiplyOp) -> Value {
        return isFloat ? arith::MulFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::MulIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](DivideOp) -> Value {
        return arith::DivFOp::create(b, loc, lhs, rhs);
      })
      .Case([&](MaximumOp) -> Value {
        return isFloat ? arith::MaximumFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::MaxSIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Case([&](MinimumOp) -> Value {
        return isFloat ? arith::MinimumFOp::create(b, loc, lhs, rhs).getResult()
                       : arith::MinSIOp::create(b, loc, lhs, rhs).getResult();
      })
      .Default([](Operation *) -> Value {
        llvm_unreachable("not a vectorizable element op");
      });
}

/// The memref that `op`'s result is materialized into when that is its
/// only use (`bufferization.materialize_in_destination %r in restrict
/// writable %m`, %m of type `bufferType` and defined before `op`): the
/// loops can write it directly. Null otherwise.
