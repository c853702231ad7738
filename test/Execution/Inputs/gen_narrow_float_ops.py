#!/usr/bin/env python3
"""Generates the narrow-float binary-op test (narrow-float-ops.test).

`mlir`: for every f8 and f6 format, a relayout round trip of a 4x8 tensor
  through a padded tiling (f8 only; the same codes must come back), and the
  4x8 tensor (32 codes spread over the whole code range: both signs,
  subnormals, the largest values, NaN and infinity
  where the format has them) combined with a broadcast 8-vector (1, -2, 0,
  the smallest subnormal, the largest value, 0.5, 3, NaN or -1.5) by add,
  subtract, multiply, divide, maximum, minimum, remainder, compare LT/EQ/NE,
  and power and atan2 on 8-vectors; each result printed as codes (i1 for
  compare). `check`: the FileCheck lines, from narrow_float_ref: the inputs
  decoded, the op computed in double and rounded to f32 (as the compiled code
  computes in f32), then rounded to the format. A NaN result matches either
  sign's NaN code (the sign of a NaN that f32 arithmetic creates is the
  hardware's).
"""
import math
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from narrow_float_ref import FORMATS, Format, f32_bits, to_f32

# The f8 and f6 formats (f4E2M1FN has too few codes for the 4x8 operand;
# its ops and f8E8M0FNU's are in narrow-float-mx-ops.mlir).
OPS_FORMATS = [n for n in FORMATS if not n.startswith("f4")]

BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum",
          "remainder"]
COMPARE = ["LT", "EQ", "NE"]


def value(f, code):
    if f.is_nan(code):
        return math.nan
    neg = -1.0 if code & f.sign else 1.0
    if f.is_inf(code):
        return neg * math.inf
    return neg * float(f.magnitude_value(code & (f.sign - 1)))


def code_of(f, x):
    return f.from_f32_bits(f32_bits(x))


def inputs(f):
    step = (1 << f.width) // 32
    lhs = [step * i + step * 5 // 8 for i in range(32)]
    largest = f.finite_magnitudes()[-1][0]
    special = f.nan_code(False) if f.kind != "finite" else code_of(f, -1.5)
    rhs = [code_of(f, 1.0), code_of(f, -2.0), 0, 1, largest,
           code_of(f, 0.5), code_of(f, 3.0), special]
    base = [code_of(f, v) for v in [2.0, 1.5, -2.0, 0.5, 3.0, 0.25, -1.5, 1.0]]
    expo = [code_of(f, v) for v in [3.0, 2.0, 3.0, -1.0, 2.0, -2.0, 2.0, 0.0]]
    return lhs, rhs, base, expo


def apply(op, a, b):
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if op == "add":
        return a + b
    if op == "subtract":
        return a - b
    if op == "multiply":
        if (math.isinf(a) and b == 0) or (math.isinf(b) and a == 0):
            return math.nan
        return a * b
    if op == "divide":
        if b == 0:
            if a == 0:
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        if math.isinf(a) and math.isinf(b):
            return math.nan
        return a / b
    if op in ("maximum", "minimum"):
        if a == b == 0:  # +0 is larger than -0
            neg = (math.copysign(1, a) < 0, math.copysign(1, b) < 0)
            pick_neg = all(neg) if op == "maximum" else any(neg)
            return -0.0 if pick_neg else 0.0
        return max(a, b) if op == "maximum" else min(a, b)
    if op == "remainder":
        if b == 0 or math.isinf(a):
            return math.nan
        if math.isinf(b):
            return a
        return math.fmod(a, b)
    if op == "power":
        return math.pow(a, b)
    if op == "atan2":
        return math.atan2(a, b)
    raise ValueError(op)


def compare(d, a, b):
    return {"LT": a < b, "EQ": a == b, "NE": not a == b}[d]


def hexes(codes):
    return "[" + ", ".join("0x%02X" % c for c in codes) + "]"


def relayout_round_trip(k, name, m):
    tiled = "tensor<4x8x%s, #layout.tiled<{1,0:T(3,3)PV(one)}>>" % name
    print("  %%e1 = tensor.empty() : %s" % tiled)
    print("  %%t = layout.relayout %%a, %%e1 : %s, %s -> %s"
          % (m, tiled, tiled))
    print("  %%e2 = tensor.empty() : %s" % m)
    print("  %%back = layout.relayout %%t, %%e2 : %s, %s -> %s"
          % (tiled, m, m))
    print("  call @print%d(%%back) : (%s) -> ()" % (k, m))


def emit_mlir():
    print("func.func private @printMemrefI32(memref<*xi32>)")
    for k, name in enumerate(OPS_FORMATS):
        f = Format(name)
        lhs, rhs, base, expo = inputs(f)
        m = "tensor<4x8x%s>" % name
        v = "tensor<8x%s>" % name
        b = "tensor<4x8xi1>"
        print("func.func @t%d() {" % k)
        rows = [lhs[8 * i:8 * i + 8] for i in range(4)]
        print("  %%a = arith.constant dense<[%s]> : %s"
              % (", ".join(hexes(r) for r in rows), m))
        print("  %%b = arith.constant dense<%s> : %s" % (hexes(rhs), v))
        print("  %%x = arith.constant dense<%s> : %s" % (hexes(base), v))
        print("  %%y = arith.constant dense<%s> : %s" % (hexes(expo), v))
        # Relayout round trip through a padded tiling (PV(one)): the same
        # codes come back. (Tiled encodings need an XLA type: not f6.)
        if name.startswith("f8"):
            relayout_round_trip(k, name, m)
        for op in BINARY:
            print("  %%r_%s = layout.%s %%a, %%b {broadcast_dimensions = "
                  "array<i64: 1>} : (%s, %s) -> %s" % (op, op, m, v, m))
            print("  call @print%d(%%r_%s) : (%s) -> ()" % (k, op, m))
        for d in COMPARE:
            print("  %%c_%s = layout.compare %s, %%a, %%b {broadcast_dimensions"
                  " = array<i64: 1>} : (%s, %s) -> %s" % (d, d, m, v, b))
            print("  call @printPred(%%c_%s) : (%s) -> ()" % (d, b))
        for op in ["power", "atan2"]:
            print("  %%r_%s = layout.%s %%x, %%y : (%s, %s) -> %s"
                  % (op, op, v, v, v))
            print("  %%e_%s = tensor.expand_shape %%r_%s [[0, 1]] output_shape"
                  " [1, 8] : %s into tensor<1x8x%s>" % (op, op, v, name))
            print("  %%p_%s = tensor.pad %%e_%s low[0, 0] high[3, 0] {\n"
                  "  ^bb0(%%i: index, %%j: index):\n"
                  "    %%z = arith.constant 0.0 : %s\n"
                  "    tensor.yield %%z : %s\n"
                  "  } : tensor<1x8x%s> to %s" % (op, op, name, name, name, m))
            print("  call @print%d(%%p_%s) : (%s) -> ()" % (k, op, m))
        print("  return")
        print("}")
        print("func.func @print%d(%%t: %s) {" % (k, m))
        print("  %%m = bufferization.to_buffer %%t : %s to memref<4x8x%s>"
              % (m, name))
        print("  %o = memref.alloc() : memref<4x8xi32>")
        print("  %c0 = arith.constant 0 : index")
        print("  %c1 = arith.constant 1 : index")
        print("  %c4 = arith.constant 4 : index")
        print("  %c8 = arith.constant 8 : index")
        print("  scf.for %i = %c0 to %c4 step %c1 {")
        print("    scf.for %j = %c0 to %c8 step %c1 {")
        print("      %%e = memref.load %%m[%%i, %%j] : memref<4x8x%s>" % name)
        print("      %%c = arith.bitcast %%e : %s to i%d" % (name, f.width))
        print("      %%w = arith.extui %%c : i%d to i32" % f.width)
        print("      memref.store %w, %o[%i, %j] : memref<4x8xi32>")
        print("    }")
        print("  }")
        print("  %oc = memref.cast %o : memref<4x8xi32> to memref<*xi32>")
        print("  call @printMemrefI32(%oc) : (memref<*xi32>) -> ()")
        print("  return")
        print("}")
    print("""func.func @printPred(%t: tensor<4x8xi1>) {
  %m = bufferization.to_buffer %t : tensor<4x8xi1> to memref<4x8xi1>
  %o = memref.alloc() : memref<4x8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %e = memref.load %m[%i, %j] : memref<4x8xi1>
      %w = arith.extui %e : i1 to i32
      memref.store %w, %o[%i, %j] : memref<4x8xi32>
    }
  }
  %oc = memref.cast %o : memref<4x8xi32> to memref<*xi32>
  call @printMemrefI32(%oc) : (memref<*xi32>) -> ()
  return
}""")
    print("func.func @main() {")
    for k in range(len(OPS_FORMATS)):
        print("  call @t%d() : () -> ()" % k)
    print("  return")
    print("}")


def expected_code(f, x):
    if math.isnan(x):
        a, b = f.nan_code(False), f.nan_code(True)
        return str(a) if a == b else "{{(%d|%d)}}" % (a, b)
    return str(code_of(f, to_f32(x)))


def check_rows(rows):
    for i, r in enumerate(rows):
        text = "[" + ", ".join(r) + "]" + ("]" if i == 3 else ",")
        print(("CHECK: {{^}}{{\\[}}" if i == 0 else "CHECK-NEXT: {{^}} ")
              + text)


def emit_check():
    for name in OPS_FORMATS:
        f = Format(name)
        lhs, rhs, base, expo = inputs(f)
        print("# %s" % name)
        if name.startswith("f8"):
            check_rows([[str(c) for c in lhs[8 * i:8 * i + 8]]
                        for i in range(4)])
        for op in BINARY:
            rows = [[expected_code(f, apply(op, value(f, lhs[8 * i + j]),
                                            value(f, rhs[j])))
                     for j in range(8)] for i in range(4)]
            check_rows(rows)
        for d in COMPARE:
            rows = [[str(int(compare(d, value(f, lhs[8 * i + j]),
                                     value(f, rhs[j]))))
                     for j in range(8)] for i in range(4)]
            check_rows(rows)
        for op in ["power", "atan2"]:
            first = [expected_code(f, apply(op, value(f, base[j]),
                                            value(f, expo[j])))
                     for j in range(8)]
            check_rows([first] + [["0"] * 8] * 3)


if __name__ == "__main__":
    emit_mlir() if sys.argv[1] == "mlir" else emit_check()
