//===- NarrowFloatTest.cpp - descriptions of the narrow float formats -----===//
//
// describeNarrowFloat against the format definitions (OCP 8-bit floats, the
// FNUZ formats, OCP MX f6/f4 and the E8M0 scale): field widths, bias, NaN
// and infinity codes, -0, the largest value and the codes NaN and overflow
// convert to.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/NarrowFloat.h"

#include <gtest/gtest.h>

using namespace mlir::layout;
using llvm::APFloat;
using NaNCodes = NarrowFloatFormat::NaNCodes;

namespace {

struct Expected {
  const char *name;
  const llvm::fltSemantics &(*semantics)();
  unsigned width, mantissaBits;
  int bias;
  NaNCodes nanCodes;
  uint64_t nanValue;
  int64_t infMagnitude; // -1: none
  bool hasNegativeZero;
  uint64_t largest, posNaN, negNaN, posOverflow, negOverflow;
};

const Expected kFormats[] = {
    // IEEE-like: exponent all ones is inf (mantissa 0) or NaN.
    {"f8E5M2", APFloat::Float8E5M2, 8, 2, 15, NaNCodes::MagnitudeAbove, 0x7C,
     0x7C, true, 0x7B, 0x7E, 0xFE, 0x7C, 0xFC},
    {"f8E4M3", APFloat::Float8E4M3, 8, 3, 7, NaNCodes::MagnitudeAbove, 0x78,
     0x78, true, 0x77, 0x7C, 0xFC, 0x78, 0xF8},
    {"f8E3M4", APFloat::Float8E3M4, 8, 4, 3, NaNCodes::MagnitudeAbove, 0x70,
     0x70, true, 0x6F, 0x78, 0xF8, 0x70, 0xF0},
    // FN: no inf, S.1111.111 is NaN; overflow is NaN.
    {"f8E4M3FN", APFloat::Float8E4M3FN, 8, 3, 7, NaNCodes::MagnitudeEqual, 0x7F,
     -1, true, 0x7E, 0x7F, 0xFF, 0x7F, 0xFF},
    // FNUZ: 0x80 is the only NaN, no -0.
    {"f8E4M3FNUZ", APFloat::Float8E4M3FNUZ, 8, 3, 8, NaNCodes::CodeEqual, 0x80,
     -1, false, 0x7F, 0x80, 0x80, 0x80, 0x80},
    {"f8E5M2FNUZ", APFloat::Float8E5M2FNUZ, 8, 2, 16, NaNCodes::CodeEqual, 0x80,
     -1, false, 0x7F, 0x80, 0x80, 0x80, 0x80},
    {"f8E4M3B11FNUZ", APFloat::Float8E4M3B11FNUZ, 8, 3, 11, NaNCodes::CodeEqual,
     0x80, -1, false, 0x7F, 0x80, 0x80, 0x80, 0x80},
    // MX: neither inf nor NaN; NaN converts to -0, overflow saturates.
    {"f6E2M3FN", APFloat::Float6E2M3FN, 6, 3, 1, NaNCodes::None, 0, -1, true,
     0x1F, 0x20, 0x20, 0x1F, 0x3F},
    {"f6E3M2FN", APFloat::Float6E3M2FN, 6, 2, 3, NaNCodes::None, 0, -1, true,
     0x1F, 0x20, 0x20, 0x1F, 0x3F},
    {"f4E2M1FN", APFloat::Float4E2M1FN, 4, 1, 1, NaNCodes::None, 0, -1, true,
     0x7, 0x8, 0x8, 0x7, 0xF},
};

TEST(NarrowFloatTest, Formats) {
  for (const Expected &e : kFormats) {
    SCOPED_TRACE(e.name);
    std::string why;
    std::optional<NarrowFloatFormat> f =
        describeNarrowFloat(e.semantics(), &why);
    ASSERT_TRUE(f.has_value()) << why;
    EXPECT_EQ(f->width, e.width);
    EXPECT_EQ(f->mantissaBits, e.mantissaBits);
    EXPECT_EQ(f->bias, e.bias);
    EXPECT_EQ(f->nanCodes, e.nanCodes);
    if (e.nanCodes != NaNCodes::None)
      EXPECT_EQ(f->nanValue, e.nanValue);
    EXPECT_EQ(f->infMagnitude.has_value(), e.infMagnitude >= 0);
    if (f->infMagnitude && e.infMagnitude >= 0)
      EXPECT_EQ(*f->infMagnitude, uint64_t(e.infMagnitude));
    EXPECT_EQ(f->hasNegativeZero, e.hasNegativeZero);
    EXPECT_EQ(f->largestMagnitude, e.largest);
    EXPECT_EQ(f->nanCode(false), e.posNaN);
    EXPECT_EQ(f->nanCode(true), e.negNaN);
    EXPECT_EQ(f->overflowCode(false), e.posOverflow);
    EXPECT_EQ(f->overflowCode(true), e.negOverflow);
    EXPECT_TRUE(f->isSigned);
    EXPECT_TRUE(f->hasZero);
  }
}

// OCP MX E8M0: no sign, no zero, no mantissa; code c < 0xFF is 2^(c - 127)
// (code 0 is 2^-127, a normal), 0xFF the only NaN, 0xFE (2^127) the
// largest; overflow is NaN.
TEST(NarrowFloatTest, E8M0) {
  std::string why;
  std::optional<NarrowFloatFormat> f =
      describeNarrowFloat(APFloat::Float8E8M0FNU(), &why);
  ASSERT_TRUE(f.has_value()) << why;
  EXPECT_FALSE(f->isSigned);
  EXPECT_FALSE(f->hasZero);
  EXPECT_EQ(f->width, 8u);
  EXPECT_EQ(f->mantissaBits, 0u);
  EXPECT_EQ(f->bias, 127);
  EXPECT_EQ(f->signBit(), 0u);
  EXPECT_EQ(f->magnitudeMask(), 0xFFu);
  EXPECT_EQ(f->nanCodes, NaNCodes::CodeEqual);
  EXPECT_EQ(f->nanValue, 0xFFu);
  EXPECT_FALSE(f->infMagnitude.has_value());
  EXPECT_FALSE(f->hasNegativeZero);
  EXPECT_EQ(f->largestMagnitude, 0xFEu);
  EXPECT_EQ(f->nanCode(false), 0xFFu);
  EXPECT_EQ(f->nanCode(true), 0xFFu);
  EXPECT_EQ(f->overflowCode(false), 0xFFu);
  EXPECT_EQ(f->overflowCode(true), 0xFFu);
}

TEST(NarrowFloatTest, Refused) {
  std::string why;
  EXPECT_FALSE(describeNarrowFloat(APFloat::IEEEhalf(), &why));
  EXPECT_EQ(why, "not a float of 2 to 8 bits");
  EXPECT_FALSE(describeNarrowFloat(APFloat::IEEEsingle(), &why));
  EXPECT_EQ(why, "not a float of 2 to 8 bits");
}

} // namespace
