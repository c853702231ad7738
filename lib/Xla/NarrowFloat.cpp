//===- NarrowFloat.cpp - encodings of floats narrower than 16 bits --------===//

#include "layout/Xla/NarrowFloat.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir::layout;
using llvm::APFloat;
using llvm::APInt;

static uint64_t bitsOf(const APFloat &value) {
  return value.bitcastToAPInt().getZExtValue();
}

std::optional<NarrowFloatFormat>
mlir::layout::describeNarrowFloat(const llvm::fltSemantics &semantics,
                                  std::string *whyNot) {
  auto fail = [&](const std::string &why) -> std::optional<NarrowFloatFormat> {
    if (whyNot)
      *whyNot = why;
    return std::nullopt;
  };
  unsigned width = APFloat::getSizeInBits(semantics);
  if (width < 2 || width > 8)
    return fail("not a float of 2 to 8 bits");

  NarrowFloatFormat f;
  f.width = width;
  f.isSigned = APFloat::semanticsHasSignedRepr(semantics);
  f.hasZero = APFloat::semanticsHasZero(semantics);
  f.mantissaBits = APFloat::semanticsPrecision(semantics) - 1;
  f.bias = (f.hasZero ? 1 : 0) - APFloat::semanticsMinExponent(semantics);
  if (f.mantissaBits + (f.isSigned ? 1 : 0) >= width)
    return fail("no exponent field");
  unsigned codes = 1u << width;

  // Classify every code with APFloat.
  llvm::SmallVector<uint64_t> nanCodes;
  std::optional<uint64_t> infMagnitude;
  for (uint64_t c = 0; c < codes; ++c) {
    APFloat value(semantics, APInt(width, c));
    if (value.isNaN())
      nanCodes.push_back(c);
    else if (value.isInfinity())
      infMagnitude = c & f.magnitudeMask();
  }
  f.infMagnitude = infMagnitude;
  if (!nanCodes.empty()) {
    uint64_t minMagnitude = f.magnitudeMask(), maxMagnitude = 0;
    for (uint64_t c : nanCodes) {
      minMagnitude = std::min(minMagnitude, c & f.magnitudeMask());
      maxMagnitude = std::max(maxMagnitude, c & f.magnitudeMask());
    }
    if (nanCodes.size() == 1) {
      f.nanCodes = NarrowFloatFormat::NaNCodes::CodeEqual;
      f.nanValue = nanCodes.front();
    } else if (minMagnitude == maxMagnitude) {
      f.nanCodes = NarrowFloatFormat::NaNCodes::MagnitudeEqual;
      f.nanValue = minMagnitude;
    } else {
      f.nanCodes = NarrowFloatFormat::NaNCodes::MagnitudeAbove;
      f.nanValue = minMagnitude - 1;
    }
  }
  APFloat negativeZero(semantics, APInt(width, f.signBit()));
  f.hasNegativeZero =
      f.isSigned && negativeZero.isZero() && negativeZero.isNegative();
  f.largestMagnitude =
      bitsOf(APFloat::getLargest(semantics)) & f.magnitudeMask();

  // Check the description against APFloat, code by code.
  for (uint64_t c = 0; c < codes; ++c) {
    uint64_t magnitude = c & f.magnitudeMask();
    bool negative = c & f.signBit();
    bool isNaN = false;
    switch (f.nanCodes) {
    case NarrowFloatFormat::NaNCodes::None:
      break;
    case NarrowFloatFormat::NaNCodes::MagnitudeAbove:
      isNaN = magnitude > f.nanValue;
      break;
    case NarrowFloatFormat::NaNCodes::MagnitudeEqual:
      isNaN = magnitude == f.nanValue;
      break;
    case NarrowFloatFormat::NaNCodes::CodeEqual:
      isNaN = c == f.nanValue;
      break;
    }
    APFloat value(semantics, APInt(width, c));
    bool loses = false;
    APFloat wide = value;
    wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &loses);
    bool ok;
    if (isNaN) {
      ok = value.isNaN();
    } else if (f.infMagnitude && magnitude == *f.infMagnitude) {
      ok = value.isInfinity() && value.isNegative() == negative;
    } else {
      uint64_t exponent = magnitude >> f.mantissaBits;
      uint64_t mantissa = magnitude & ((uint64_t(1) << f.mantissaBits) - 1);
      bool subnormal = exponent == 0 && f.hasZero;
      double significand = double(
          subnormal ? mantissa : (uint64_t(1) << f.mantissaBits) + mantissa);
      double expected = std::ldexp(
          significand,
          int(f.hasZero ? std::max<uint64_t>(exponent, 1) : exponent) - f.bias -
              int(f.mantissaBits));
      if (negative && (magnitude != 0 || f.hasNegativeZero))
        expected = -expected;
      ok = value.isFinite() && !loses && wide.convertToDouble() == expected &&
           std::signbit(wide.convertToDouble()) == std::signbit(expected);
    }
    if (!ok) {
      std::string code;
      llvm::raw_string_ostream os(code);
      os << "code " << c << " does not follow the sign/exponent/mantissa "
         << "encoding";
      return fail(code);
    }
  }

  bool hasNaN = f.nanCodes != NarrowFloatFormat::NaNCodes::None;
  if (hasNaN) {
    f.posNaN = bitsOf(APFloat::getNaN(semantics, /*Negative=*/false));
    f.negNaN = f.isSigned
                   ? bitsOf(APFloat::getNaN(semantics, /*Negative=*/true))
                   : f.posNaN;
  } else {
    f.posNaN = f.negNaN = f.signBit();
  }
  if (f.infMagnitude) {
    f.posOverflow = bitsOf(APFloat::getInf(semantics, /*Negative=*/false));
    f.negOverflow = bitsOf(APFloat::getInf(semantics, /*Negative=*/true));
  } else if (hasNaN) {
    f.posOverflow = f.posNaN;
    f.negOverflow = f.negNaN;
  } else {
    f.posOverflow = f.largestMagnitude;
    f.negOverflow = f.largestMagnitude | f.signBit();
  }
  return f;
}
