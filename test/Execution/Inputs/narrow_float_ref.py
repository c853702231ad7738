"""Reference model of the 8-, 6- and 4-bit float formats, written from their
definitions (OCP 8-bit floating point, the FNUZ variants of Graphcore/AMD,
OCP MX for f6, f4 and the E8M0 scale), not from the compiler: decoding, and
XLA's conversion from f32 (round to nearest even; overflow to infinity, else
NaN, else the largest value; NaN to the format's quiet NaN with the input's
sign; no -0 in FNUZ). f8E8M0FNU (unsigned, no zero) has its own class,
E8M0. Used by the execution tests of --layout-expand-narrow-floats.
"""
import struct
from fractions import Fraction

# name: (exponent bits, mantissa bits, bias, special values)
#   ieee:   exponent all ones is inf (mantissa 0) or NaN
#   fn:     no inf; S.1111.111 is NaN
#   fnuz:   no inf, no -0; 0x80 is the only NaN
#   finite: no inf, no NaN
FORMATS = {
    "f8E5M2": (5, 2, 15, "ieee"),
    "f8E4M3": (4, 3, 7, "ieee"),
    "f8E3M4": (3, 4, 3, "ieee"),
    "f8E4M3FN": (4, 3, 7, "fn"),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz"),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz"),
    "f8E4M3B11FNUZ": (4, 3, 11, "fnuz"),
    "f6E2M3FN": (2, 3, 1, "finite"),
    "f6E3M2FN": (3, 2, 3, "finite"),
    "f4E2M1FN": (2, 1, 1, "finite"),
}
F8 = [n for n in FORMATS if n.startswith("f8")]


class Format:
    def __init__(self, name):
        self.name = name
        self.e, self.m, self.bias, self.kind = FORMATS[name]
        self.width = 1 + self.e + self.m
        self.sign = 1 << (self.width - 1)

    def is_nan(self, code):
        mag = code & (self.sign - 1)
        emax = (1 << self.e) - 1
        if self.kind == "ieee":
            return mag >> self.m == emax and mag & ((1 << self.m) - 1) != 0
        if self.kind == "fn":
            return mag == self.sign - 1
        if self.kind == "fnuz":
            return code == self.sign
        return False

    def is_inf(self, code):
        mag = code & (self.sign - 1)
        return self.kind == "ieee" and mag == ((1 << self.e) - 1) << self.m

    def magnitude_value(self, mag):
        E, M = mag >> self.m, mag & ((1 << self.m) - 1)
        sig = Fraction(M, 1 << self.m) + (1 if E else 0)
        return sig * Fraction(2) ** (max(E, 1) - self.bias)

    def finite_magnitudes(self):
        """(code, value) of the non-negative finite codes, ascending."""
        return [(c, self.magnitude_value(c)) for c in range(self.sign)
                if not self.is_nan(c) and not self.is_inf(c)]

    def nan_code(self, negative):
        if self.kind == "ieee":  # quiet: exponent all ones, top mantissa bit
            q = (((1 << self.e) - 1) << self.m) | (1 << (self.m - 1))
            return q | (self.sign if negative else 0)
        if self.kind == "fn":
            return (self.sign - 1) | (self.sign if negative else 0)
        return self.sign  # fnuz: 0x80; finite: -0 (XLA, ml_dtypes)

    def overflow_code(self, negative):
        s = self.sign if negative else 0
        if self.kind == "ieee":
            return (((1 << self.e) - 1) << self.m) | s
        if self.kind in ("fn", "fnuz"):
            return self.nan_code(negative)
        return self.finite_magnitudes()[-1][0] | s

    def to_f32_bits(self, code):
        """extf: the exact f32 bits (NaN: 0x7FC00000 with the sign, FNUZ +)."""
        negative = bool(code & self.sign)
        s = 0x80000000 if negative else 0
        if self.is_nan(code):
            return 0x7FC00000 | (0 if self.kind == "fnuz" else s)
        if self.is_inf(code):
            return 0x7F800000 | s
        v = float(self.magnitude_value(code & (self.sign - 1)))
        return f32_bits(v) | s

    def from_f32_bits(self, bits):
        """truncf: the code of the f32 with these bits."""
        negative = bool(bits >> 31)
        x = f32_from_bits(bits & 0x7FFFFFFF)
        if x != x:
            return self.nan_code(negative)
        mags = self.finite_magnitudes()
        top_code, top = mags[-1]
        ulp = Fraction(2) ** ((top_code >> self.m) - self.bias - self.m)
        if x == float("inf"):
            return self.overflow_code(negative)
        a = Fraction(x)
        # The next value after the largest, with the next code's parity.
        ext = mags + [(top_code + 1, top + ulp)]
        result = None
        for (c0, v0), (c1, v1) in zip(ext, ext[1:]):
            if v0 <= a <= v1:
                if a - v0 < v1 - a:
                    result = c0
                elif a - v0 > v1 - a:
                    result = c1
                else:
                    result = c0 if c0 % 2 == 0 else c1
                break
        if result is None or result == top_code + 1:
            return self.overflow_code(negative)
        if negative and not (result == 0 and self.kind == "fnuz"):
            result |= self.sign
        return result


class E8M0:
    """f8E8M0FNU (OCP MX scale): no sign, no zero, no mantissa; code c < 255
    is 2^(c - 127), 0xFF is the only NaN. XLA's conversion from f32 (XLA's
    expand_float_ops.cc EmitFloatConversion, ml_dtypes' ConvertImpl): NaN,
    infinities, zeros and negative values give NaN; a positive value x is
    rounded to the nearest power of two, ties (x = 1.5 * 2^e) up, and above
    2^127 * 1.5 it is NaN. Below 2^-126 (the f32 subnormals) both round x at
    the granularity of 2^-126 (to nearest even): 2^-127 and below give code 0
    (2^-127), anything above 2^-127 gives code 1 (2^-126)."""

    name = "f8E8M0FNU"
    width = 8
    kind = "e8m0"

    def is_nan(self, code):
        return code == 0xFF

    def value(self, code):
        return Fraction(2) ** (code - 127)

    def to_f32_bits(self, code):
        if self.is_nan(code):
            return 0x7FC00000
        return f32_bits(float(self.value(code)))  # 2^-127: an f32 subnormal

    def from_f32_bits(self, bits):
        x = f32_from_bits(bits)
        if x != x or bits >> 31 or x == 0 or x == float("inf"):
            return 0xFF
        a = Fraction(x)
        if a < Fraction(2) ** -126:
            return 1 if a > Fraction(2) ** -127 else 0
        e = a.numerator.bit_length() - a.denominator.bit_length()
        while Fraction(2) ** e > a:
            e -= 1
        while Fraction(2) ** (e + 1) <= a:
            e += 1
        if a >= Fraction(3, 2) * Fraction(2) ** e:
            e += 1
        return e + 127 if e + 127 <= 254 else 0xFF

    def truncf_inputs(self):
        """f32 bits: every power of two, every midpoint 1.5 * 2^e and its f32
        neighbours, f32 subnormals around 2^-127, the largest f32, and the
        negatives of all of these; +-0, +-inf, NaNs."""
        points = [f32_bits(2.0 ** e) for e in range(-127, 128)]
        for e in range(-127, 128):
            mid = f32_bits(1.5 * 2.0 ** e)
            points += [mid - 1, mid, mid + 1]
        points += [1, 0x200000, 0x3FFFFF, 0x400001, 0x500000, 0x7FFFFF,
                   0x7F7FFFFF, 0]
        points += [p | 0x80000000 for p in points]
        points += [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001]
        return points


def make_format(name):
    return E8M0() if name == E8M0.name else Format(name)


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def to_f32(x):
    """x (a Python float) rounded to f32 (round to nearest even)."""
    return f32_from_bits(f32_bits(x))
