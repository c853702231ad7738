//===- ExpandNarrowFloats.cpp - --layout-expand-narrow-floats -------------===//
//
// arith.extf / arith.truncf of the float formats of at most 8 bits
// (f8E4M3FN, f8E5M2, the FNUZ formats, f8E4M3, f8E3M4, f6E2M3FN, f6E3M2FN,
// f4E2M1FN, f8E8M0FNU) as integer code on their bits: LLVM has no such
// types, and upstream's arith-expand, which covers f4E2M1FN and f8E8M0FNU,
// differs from XLA (f4 ties away from zero, E8M0's sign dropped and its
// code 0 read as 0.0). The binary ops compute these formats in f32 and
// round back (BinaryOpSemantics.cpp), as XLA does on the CPU.
//
// Everything is derived from the format's llvm::fltSemantics
// (describeNarrowFloat, lib/Xla/NarrowFloat.cpp), nothing is written per
// type. The conversion to the narrow format is XLA's: round to nearest even
// (also into the subnormals), overflow to infinity where the format has one,
// else to NaN, else (no NaN either) the largest value; NaN to NaN; -0 to +0
// in the FNUZ formats; in f8E8M0FNU (no sign, no zero, no mantissa) zero
// and negative values to NaN, and ties (1.5 * 2^e) up. XLA's CPU and GPU
// emitters lower it with a port of ml_dtypes' ConvertImpl (openxla/xla
// xla/codegen/emitters/transforms/expand_float_ops.cc, EmitFloatConversion;
// jax-ml/ml_dtypes ml_dtypes/include/float8.h, ConvertImpl, non-saturating).
// Here the rounding works on the f32 (or f64) bits the same way: the
// significand with its implicit bit is rounded at the target's precision,
// or further right in the target's subnormal range, and the carry flows into
// the exponent. Only arith ops on scalars or vectors of them (selects, no
// branches, no tables), so rows of these conversions vectorize.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"
#include "layout/Xla/NarrowFloat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTEXPANDNARROWFLOATS
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Narrow formats this pass expands: every float of at most 8 bits that
/// describeNarrowFloat accepts (all of MLIR's, f4E2M1FN and f8E8M0FNU
/// included).
std::optional<NarrowFloatFormat> describeExpanded(FloatType floatType) {
  if (floatType.getWidth() > 8)
    return std::nullopt;
  return describeNarrowFloat(floatType.getFloatSemantics());
}

/// Builds scalar or vector (splat) arith code of one shape.
struct Emitter {
  OpBuilder &b;
  Location loc;
  VectorType shape; // null for scalars

  Type like(Type element) const {
    return shape ? Type(VectorType::get(shape.getShape(), element,
                                        shape.getScalableDims()))
                 : element;
  }
  Value integer(unsigned width, uint64_t value) const {
    Type t = like(b.getIntegerType(width));
    // Two's complement constants (negative offsets) wrap to the width.
    APInt v(width, value, /*isSigned=*/false, /*implicitTrunc=*/true);
    if (shape)
      return arith::ConstantOp::create(
          b, loc, t, DenseElementsAttr::get(cast<ShapedType>(t), v));
    return arith::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
  }
  Value f32(float value) const {
    Type t = like(b.getF32Type());
    if (shape)
      return arith::ConstantOp::create(
          b, loc, t,
          DenseElementsAttr::get(cast<ShapedType>(t), APFloat(value)));
    return arith::ConstantOp::create(b, loc, t, b.getF32FloatAttr(value));
  }
  unsigned widthOf(Value v) const {
    return getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  }
  Value c(Value like, uint64_t value) const {
    return integer(widthOf(like), value);
  }
  Value bitcast(Value v, Type element) const {
    return arith::BitcastOp::create(b, loc, like(element), v);
  }
  Value add(Value x, uint64_t y) const {
    return arith::AddIOp::create(b, loc, x, c(x, y));
  }
  Value andI(Value x, uint64_t y) const {
    return arith::AndIOp::create(b, loc, x, c(x, y));
  }
  Value shl(Value x, uint64_t y) const {
    return arith::ShLIOp::create(b, loc, x, c(x, y));
  }
  Value shr(Value x, uint64_t y) const {
    return arith::ShRUIOp::create(b, loc, x, c(x, y));
  }
  Value cmp(arith::CmpIPredicate p, Value x, uint64_t y) const {
    return arith::CmpIOp::create(b, loc, p, x, c(x, y));
  }
  Value select(Value cond, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value select(Value cond, uint64_t x, uint64_t y, Value like) const {
    return select(cond, c(like, x), c(like, y));
  }
};

/// `value` (of the narrow format `f`) exactly as f32.
Value emitNarrowToF32(const Emitter &e, const NarrowFloatFormat &f,
                      Value value) {
  using P = arith::CmpIPredicate;
  Value code = e.bitcast(value, e.b.getIntegerType(f.width));
  Value bits =
      arith::ExtUIOp::create(e.b, e.loc, e.like(e.b.getI32Type()), code);
  Value magnitude = e.andI(bits, f.magnitudeMask());
  // The sign moved to f32's sign bit (none in an unsigned format).
  Value sign;
  if (f.isSigned)
    sign = e.shl(e.andI(bits, f.signBit()), 32 - f.width);
  // Normal: shift exponent and mantissa into place, rebias the exponent.
  Value normal = e.add(e.shl(magnitude, 23 - f.mantissaBits),
                       uint64_t(127 - f.bias) << 23);
  Value result = normal;
  if (f.hasZero) {
    // Subnormal: M * 2^(1 - bias - mantissaBits), exact in f32.
    Value subnormalValue = arith::MulFOp::create(
        e.b, e.loc,
        arith::UIToFPOp::create(e.b, e.loc, e.like(e.b.getF32Type()),
                                magnitude),
        e.f32(std::ldexp(1.0f, 1 - f.bias - int(f.mantissaBits))));
    Value subnormal = e.bitcast(subnormalValue, e.b.getI32Type());
    Value isSubnormal = e.cmp(P::ult, magnitude, uint64_t(1) << f.mantissaBits);
    result = e.select(isSubnormal, subnormal, normal);
  } else if (f.bias >= 127) {
    // No zero, every E normal, but the smallest (f8E8M0FNU's 2^-127 at
    // E = 0) are f32 subnormals: (2^m + M) << (E + 149 - bias - m), the
    // value over f32's smallest subnormal 2^-149 (exact: widen checks it).
    Value exponent = e.shr(magnitude, f.mantissaBits);
    Value significand = arith::OrIOp::create(
        e.b, e.loc, e.andI(magnitude, (uint64_t(1) << f.mantissaBits) - 1),
        e.c(magnitude, uint64_t(1) << f.mantissaBits));
    // (Clamped: the shift of the normal codes is not used, but must not
    // reach the width.)
    Value shift = arith::MinUIOp::create(
        e.b, e.loc, e.add(exponent, uint64_t(149 - f.bias - f.mantissaBits)),
        e.c(magnitude, 31));
    Value subnormal = arith::ShLIOp::create(e.b, e.loc, significand, shift);
    result = e.select(e.cmp(P::ule, exponent, uint64_t(f.bias - 127)),
                      subnormal, normal);
  }
  if (f.infMagnitude)
    result = e.select(e.cmp(P::eq, magnitude, *f.infMagnitude),
                      e.c(result, 0x7F800000), result);
  if (sign)
    result = arith::OrIOp::create(e.b, e.loc, result, sign);
  Value quietNaN = e.c(result, 0x7FC00000);
  auto withSign = [&](Value v) -> Value {
    return sign ? Value(arith::OrIOp::create(e.b, e.loc, v, sign)) : v;
  };
  switch (f.nanCodes) {
  case NarrowFloatFormat::NaNCodes::None:
    break;
  case NarrowFloatFormat::NaNCodes::MagnitudeAbove:
    result = e.select(e.cmp(P::ugt, magnitude, f.nanValue), withSign(quietNaN),
                      result);
    break;
  case NarrowFloatFormat::NaNCodes::MagnitudeEqual:
    result = e.select(e.cmp(P::eq, magnitude, f.nanValue), withSign(quietNaN),
                      result);
    break;
  case NarrowFloatFormat::NaNCodes::CodeEqual: // the one NaN: positive
    result = e.select(e.cmp(P::eq, bits, f.nanValue), quietNaN, result);
    break;
  }
  return e.bitcast(result, e.b.getF32Type());
}

/// `value` (f32 or f64) rounded to the narrow format `f` (XLA's rule, see
/// the file comment).
Value emitToNarrow(const Emitter &e, const NarrowFloatFormat &f, Value value,
                   Type narrowType) {
  using P = arith::CmpIPredicate;
  auto source = cast<FloatType>(getElementTypeOrSelf(value.getType()));
  const llvm::fltSemantics &sem = source.getFloatSemantics();
  unsigned width = source.getWidth();
  unsigned ms = APFloat::semanticsPrecision(sem) - 1;
  int64_t sourceBias = 1 - APFloat::semanticsMinExponent(sem);
  uint64_t signMask = uint64_t(1) << (width - 1);
  uint64_t infBits = APFloat::getInf(sem).bitcastToAPInt().getZExtValue();
  int m = f.mantissaBits;

  Value bits = e.bitcast(value, e.b.getIntegerType(width));
  Value negative = e.cmp(P::ne, e.andI(bits, signMask), 0);
  Value abs = e.andI(bits, signMask - 1);
  Value isNaN = e.cmp(P::ugt, abs, infBits);
  Value exponent = e.shr(abs, ms); // biased; 0 for zero and subnormals
  Value implicit =
      e.select(e.cmp(P::ne, exponent, 0), uint64_t(1) << ms, 0, abs);
  Value significand = arith::OrIOp::create(
      e.b, e.loc, e.andI(abs, (uint64_t(1) << ms) - 1), implicit);
  // Bits to drop: ms - m, plus the distance below the target's smallest
  // normal exponent (1 - bias); at most ms + 2, which rounds to 0 already.
  // A source subnormal has the scale of exponent 1.
  Value scale = arith::MaxUIOp::create(e.b, e.loc, exponent, e.c(abs, 1));
  Value below = arith::SubIOp::create(
      e.b, e.loc, e.c(abs, uint64_t(1 - f.bias + sourceBias)), scale);
  below = arith::MaxSIOp::create(e.b, e.loc, below, e.c(abs, 0));
  Value shift = arith::MinSIOp::create(e.b, e.loc, e.add(below, ms - m),
                                       e.c(abs, ms + 2));
  // Round to nearest even: add (lsb of the kept part) + 2^(shift-1) - 1.
  // (Without a mantissa, as f8E8M0FNU, the kept part of a normal is odd:
  // ties round up, as in ml_dtypes and XLA.)
  Value one = e.c(abs, 1);
  Value lsb = e.andI(arith::ShRUIOp::create(e.b, e.loc, significand, shift), 1);
  Value half = arith::ShLIOp::create(
      e.b, e.loc, one, arith::SubIOp::create(e.b, e.loc, shift, one));
  Value bias = arith::SubIOp::create(
      e.b, e.loc, arith::AddIOp::create(e.b, e.loc, half, lsb), one);
  Value rounded = arith::ShRUIOp::create(
      e.b, e.loc, arith::AddIOp::create(e.b, e.loc, significand, bias), shift);
  // The rounded significand keeps its implicit bit, which adds 1 to the
  // exponent field: pack (biased exponent - 1) << m + significand, and a
  // carry out of the significand moves the exponent up by itself. In the
  // subnormal range the exponent part is 0 (a carry makes the smallest
  // normal).
  Value exponentPart = arith::MaxSIOp::create(
      e.b, e.loc, e.add(exponent, uint64_t(f.bias - 1 - sourceBias)),
      e.c(abs, 0));
  Value magnitude =
      arith::AddIOp::create(e.b, e.loc, e.shl(exponentPart, m), rounded);
  Value overflow = e.cmp(P::ugt, magnitude, f.largestMagnitude);
  Value result = magnitude;
  if (f.isSigned) {
    // The sign, except on a zero of a format without -0.
    Value signed_ = arith::OrIOp::create(e.b, e.loc, magnitude,
                                         e.c(magnitude, f.signBit()));
    Value keepSign = negative;
    if (!f.hasNegativeZero)
      keepSign = arith::AndIOp::create(e.b, e.loc, negative,
                                       e.cmp(P::ne, magnitude, 0));
    result = e.select(keepSign, signed_, magnitude);
  }
  result = e.select(
      overflow,
      e.select(negative, f.overflowCode(true), f.overflowCode(false), abs),
      result);
  // NaN, and what the format cannot hold: negative values (-0 included) in
  // an unsigned format, zero in a format without zero (ml_dtypes, XLA).
  Value toNaN = isNaN;
  if (!f.isSigned)
    toNaN = arith::OrIOp::create(e.b, e.loc, toNaN, negative);
  if (!f.hasZero)
    toNaN = arith::OrIOp::create(e.b, e.loc, toNaN, e.cmp(P::eq, abs, 0));
  result = e.select(toNaN,
                    e.select(negative, f.nanCode(true), f.nanCode(false), abs),
                    result);
  Value code = arith::TruncIOp::create(
      e.b, e.loc, e.like(e.b.getIntegerType(f.width)), result);
  return e.bitcast(code, getElementTypeOrSelf(narrowType));
}

struct ExpandNarrowFloatsPass
    : layout::impl::LayoutExpandNarrowFloatsBase<ExpandNarrowFloatsPass> {
  using LayoutExpandNarrowFloatsBase::LayoutExpandNarrowFloatsBase;
  /// describeExpanded per element type (it checks every code with APFloat).
  DenseMap<Type, std::optional<NarrowFloatFormat>> formats;
  /// (from, to) pairs of extf known to be exact.
  DenseSet<std::pair<Type, Type>> exact;

  std::optional<NarrowFloatFormat> expandedFormat(Type type) {
    auto floatType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!floatType)
      return std::nullopt;
    auto [it, inserted] = formats.try_emplace(floatType);
    if (inserted)
      it->second = describeExpanded(floatType);
    return it->second;
  }

  void runOnOperation() override {
    SmallVector<Operation *> work;
    getOperation()->walk([&](Operation *op) {
      if (auto ext = dyn_cast<arith::ExtFOp>(op);
          ext &&
          (expandedFormat(ext.getIn().getType()) || (bf16 && isBF16ToF32(ext))))
        work.push_back(op);
      if (auto trunc = dyn_cast<arith::TruncFOp>(op);
          trunc &&
          (expandedFormat(trunc.getType()) || (bf16 && isF32ToBF16(trunc))))
        work.push_back(op);
    });
    bool ok = true;
    for (Operation *op : work)
      if (failed(isa<arith::ExtFOp>(op) ? expand(cast<arith::ExtFOp>(op))
                                        : expand(cast<arith::TruncFOp>(op))))
        ok = false;
    if (!ok)
      signalPassFailure();
  }

  /// Scalars and vectors only (after bufferization).
  static FailureOr<Emitter> emitterFor(OpBuilder &b, Operation *op) {
    Type type = op->getResult(0).getType();
    if (!isa<FloatType, VectorType>(type)) {
      op->emitOpError() << "on " << type
                        << " cannot be expanded to integer code: only scalars "
                           "and vectors are (bufferize tensors first)";
      return failure();
    }
    return Emitter{b, op->getLoc(), dyn_cast<VectorType>(type)};
  }

  /// `in` (a narrow format) widened to `resultType` (scalar or vector of
  /// `to`), for `op`'s diagnostics.
  FailureOr<Value> widen(OpBuilder &b, const Emitter &e, Operation *op,
                         Value in, Type resultType) {
    auto from = cast<FloatType>(getElementTypeOrSelf(in.getType()));
    auto to = cast<FloatType>(getElementTypeOrSelf(resultType));
    // Every code must be exact in f32 and in the destination (checked with
    // APFloat, so the f32 step and a following f32 -> f16/bf16 truncf
    // cannot round).
    for (uint64_t c = 0;
         !exact.contains({from, to}) && c < (uint64_t(1) << from.getWidth());
         ++c) {
      for (FloatType t : {FloatType(b.getF32Type()), to}) {
        APFloat v(from.getFloatSemantics(), APInt(from.getWidth(), c));
        bool loses = false;
        v.convert(t.getFloatSemantics(), APFloat::rmNearestTiesToEven, &loses);
        if (loses && !v.isNaN()) {
          op->emitOpError()
              << "from " << from << " to " << to << " would round (" << from
              << " code " << c << "): not expanded";
          return failure();
        }
      }
    }
    exact.insert({from, to});
    Value wide = emitNarrowToF32(e, *expandedFormat(from), in);
    if (to.getWidth() > 32)
      return Value(arith::ExtFOp::create(b, op->getLoc(), resultType, wide));
    if (to.isF32())
      return wide;
    if (std::optional<NarrowFloatFormat> narrow = expandedFormat(to))
      return emitToNarrow(e, *narrow, wide, resultType);
    // f16/bf16 (exact, checked above).
    return Value(arith::TruncFOp::create(b, op->getLoc(), resultType, wide));
  }

  LogicalResult expand(arith::ExtFOp op) {
    if (bf16 && isBF16ToF32(op))
      return expandFromBF16(op);
    OpBuilder b(op);
    FailureOr<Emitter> e = emitterFor(b, op);
    if (failed(e))
      return failure();
    FailureOr<Value> wide = widen(b, *e, op, op.getIn(), op.getType());
    if (failed(wide))
      return failure();
    op.replaceAllUsesWith(*wide);
    op.erase();
    return success();
  }

  /// A bf16 -> f32 extf (bf16).
  static bool isBF16ToF32(arith::ExtFOp op) {
    return getElementTypeOrSelf(op.getIn().getType()).isBF16() &&
           getElementTypeOrSelf(op.getType()).isF32();
  }

  /// bf16 -> f32: the 16 bits moved up (exact; LLVM's fpext).
  LogicalResult expandFromBF16(arith::ExtFOp op) {
    OpBuilder b(op);
    FailureOr<Emitter> e = emitterFor(b, op);
    if (failed(e))
      return failure();
    Value code = e->bitcast(op.getIn(), b.getI16Type());
    Value bits =
        arith::ExtUIOp::create(b, op.getLoc(), e->like(b.getI32Type()), code);
    op.replaceAllUsesWith(e->bitcast(e->shl(bits, 16), b.getF32Type()));
    op.erase();
    return success();
  }

  /// An f32 -> bf16 truncf rounded to nearest even (bf16).
  static bool isF32ToBF16(arith::TruncFOp op) {
    std::optional<arith::RoundingMode> mode = op.getRoundingmode();
    return getElementTypeOrSelf(op.getIn().getType()).isF32() &&
           getElementTypeOrSelf(op.getType()).isBF16() &&
           (!mode || *mode == arith::RoundingMode::to_nearest_even);
  }

  /// f32 -> bf16 as integer code, the bits of compiler-rt's __truncsfbf2:
  /// round to nearest even by adding 0x7fff + lsb (a carry moves into the
  /// exponent, up to infinity), NaN quiet with its sign and top payload.
  LogicalResult expandToBF16(arith::TruncFOp op) {
    using P = arith::CmpIPredicate;
    OpBuilder b(op);
    FailureOr<Emitter> e = emitterFor(b, op);
    if (failed(e))
      return failure();
    Value bits = e->bitcast(op.getIn(), b.getI32Type());
    Value isNaN = e->cmp(P::ugt, e->andI(bits, 0x7fffffff), 0x7f800000);
    Value lsb = e->andI(e->shr(bits, 16), 1);
    Value rounded = e->shr(
        arith::AddIOp::create(b, op.getLoc(), e->add(bits, 0x7fff), lsb), 16);
    Value quiet = arith::OrIOp::create(b, op.getLoc(), e->shr(bits, 16),
                                       e->c(bits, 0x40));
    Value code =
        arith::TruncIOp::create(b, op.getLoc(), e->like(b.getI16Type()),
                                e->select(isNaN, quiet, rounded));
    op.replaceAllUsesWith(e->bitcast(code, b.getBF16Type()));
    op.erase();
    return success();
  }

  LogicalResult expand(arith::TruncFOp op) {
    if (bf16 && isF32ToBF16(op))
      return expandToBF16(op);
    OpBuilder b(op);
    FailureOr<Emitter> e = emitterFor(b, op);
    if (failed(e))
      return failure();
    if (std::optional<arith::RoundingMode> mode = op.getRoundingmode();
        mode && *mode != arith::RoundingMode::to_nearest_even) {
      op.emitOpError() << "to " << getElementTypeOrSelf(op.getType())
                       << " with rounding mode "
                       << arith::stringifyRoundingMode(*mode)
                       << ": only to_nearest_even (XLA's) is supported";
      return failure();
    }
    auto from = cast<FloatType>(getElementTypeOrSelf(op.getIn().getType()));
    auto to = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    Value in = op.getIn();
    if (expandedFormat(from)) {
      // Exact in f32: one rounding, from f32.
      FailureOr<Value> wide = widen(b, *e, op, in, e->like(b.getF32Type()));
      if (failed(wide))
        return failure();
      in = *wide;
    } else if (from.isF16() || from.isBF16()) {
      in = arith::ExtFOp::create(b, op.getLoc(), e->like(b.getF32Type()), in);
    } else if (!from.isF32() && !from.isF64()) {
      op.emitOpError() << "from " << from << " to " << to
                       << " is not supported (sources: f16, bf16, f32, f64 "
                          "and the 8-bit formats); convert to f64 first";
      return failure();
    }
    Value narrow = emitToNarrow(*e, *expandedFormat(to), in, op.getType());
    op.replaceAllUsesWith(narrow);
    op.erase();
    return success();
  }
};

} // namespace
