//===- NarrowFloat.h - encodings of floats narrower than 16 bits -*- C++
//-*-===//
//
// The bit-level description of a narrow float format (f8E4M3FN, f8E5M2,
// f8E4M3FNUZ, f6E2M3FN, ...) derived from its llvm::fltSemantics, which
// --layout-expand-narrow-floats turns into integer code for extf/truncf
// (docs/lowering.md, "Element types"). No IR dependency.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_NARROWFLOAT_H
#define LAYOUT_XLA_NARROWFLOAT_H

#include "llvm/ADT/APFloat.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::layout {

/// A binary float of at most 8 bits: code = sign bit (the top bit, if the
/// format is signed), exponent field E, mantissa field M (mantissaBits
/// wide). In a format with a zero, finite codes have the value
/// (E == 0 ? M : 2^mantissaBits + M) * 2^(max(E, 1) - bias - mantissaBits);
/// in a format without zero (f8E8M0FNU) every E is normal:
/// (2^mantissaBits + M) * 2^(E - bias - mantissaBits). The special codes
/// follow `nanCodes` and `infMagnitude`.
struct NarrowFloatFormat {
  /// How the NaN codes are recognized.
  enum class NaNCodes {
    None,           ///< no NaN (f6E2M3FN, f6E3M2FN, f4E2M1FN)
    MagnitudeAbove, ///< magnitude > nanValue, both signs (IEEE: f8E5M2, ...)
    MagnitudeEqual, ///< magnitude == nanValue, both signs (f8E4M3FN)
    CodeEqual,      ///< the code nanValue only (FNUZ: 0x80)
  };
  unsigned width = 0;
  unsigned mantissaBits = 0;
  /// Exponent bias: 1 - (the exponent of the smallest normal), or
  /// -(that exponent) in a format without zero, whose E == 0 is normal.
  int bias = 0;
  /// Whether the top bit is a sign bit (false: f8E8M0FNU, whose negative
  /// values convert to NaN, as XLA and ml_dtypes define).
  bool isSigned = true;
  /// Whether the format has a zero (false: f8E8M0FNU, where zero converts
  /// to NaN).
  bool hasZero = true;
  NaNCodes nanCodes = NaNCodes::None;
  uint64_t nanValue = 0;
  /// The magnitude code of infinity, if the format has one.
  std::optional<uint64_t> infMagnitude;
  /// Whether 0x80 (sign bit, magnitude 0) is -0; false for FNUZ formats,
  /// whose -0 results become +0.
  bool hasNegativeZero = true;
  /// The largest finite magnitude code.
  uint64_t largestMagnitude = 0;

  /// 0 in an unsigned format.
  uint64_t signBit() const { return isSigned ? uint64_t(1) << (width - 1) : 0; }
  uint64_t magnitudeMask() const {
    return isSigned ? signBit() - 1 : (uint64_t(1) << width) - 1;
  }

  /// The code a NaN converts to (its sign where the format has signed
  /// NaNs). Formats without NaN: -0, as XLA and ml_dtypes define
  /// (float4_e2m1fn's quiet_NaN).
  uint64_t nanCode(bool negative) const { return negative ? negNaN : posNaN; }
  /// The code of a value too large for the format (and of +-infinity):
  /// infinity if the format has one, else NaN, else the largest finite
  /// value (no NaN either: saturation, as XLA and ml_dtypes do).
  uint64_t overflowCode(bool negative) const {
    return negative ? negOverflow : posOverflow;
  }

  uint64_t posNaN = 0, negNaN = 0, posOverflow = 0, negOverflow = 0;
};

/// The description of `semantics`, after checking it against APFloat for
/// every code (value, NaN, infinity, sign of zero). An error message if the
/// format is wider than 8 bits, or its codes do not follow the layout above.
std::optional<NarrowFloatFormat>
describeNarrowFloat(const llvm::fltSemantics &semantics,
                    std::string *whyNot = nullptr);

} // namespace mlir::layout

#endif // LAYOUT_XLA_NARROWFLOAT_H
