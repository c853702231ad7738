"""Reference model of the 8- and 6-bit float formats, written from their
definitions (OCP 8-bit floating point, the FNUZ variants of Graphcore/AMD,
OCP MX for f6), not from the compiler: decoding, and XLA's conversion from
f32 (round to nearest even; overflow to infinity, else NaN, else the largest
value; NaN to the format's quiet NaN with the input's sign; no -0 in FNUZ).
Used by the execution tests of --layout-expand-narrow-floats.
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


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f32_from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def to_f32(x):
    """x (a Python float) rounded to f32 (round to nearest even)."""
    return f32_from_bits(f32_bits(x))
