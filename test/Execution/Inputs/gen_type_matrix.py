#!/usr/bin/env python3
"""Generates the type-matrix execution test (test/Execution/type-matrix.mlir).

For every element type: a 3x5 array relayouted row-major -> Figure 1's
tiling with PV(one) -> row-major must compare equal to the source (15
elements), and the source plus a broadcast row vector must equal the
expected sums (15 elements). main prints one line per type, `15, 15`, in
the order of `types` below.
"""
import sys

INTS = ["i8", "i16", "i32", "i64", "si8", "si16", "si32", "si64",
        "ui8", "ui16", "ui32", "ui64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
COMPLEX = ["complex<f32>", "complex<f64>"]


def literal(t, v):
    if t.startswith("complex"):
        return "(%s, %s)" % (float(v), float(-v))
    if t in FLOATS:
        return repr(float(v))
    return str(v)


def dense(t, rows):
    return "[" + ", ".join("[" + ", ".join(literal(t, v) for v in r) + "]"
                           for r in rows) + "]"


def main():
    types = ["i1"] + INTS + FLOATS + COMPLEX
    print("func.func private @printI64(i64)")
    print("func.func private @printNewline()")
    print("func.func private @printComma()")
    for k, t in enumerate(types):
        name = "t%d" % k
        if t == "i1":
            src = [[(i + j) % 2 for j in range(5)] for i in range(3)]
            row = [1, 0, 0, 1, 0]
            expected = [[src[i][j] | row[j] for j in range(5)] for i in range(3)]
            vals = lambda rows: "[" + ", ".join(
                "[" + ", ".join("true" if v else "false" for v in r) + "]"
                for r in rows) + "]"
            src_lit, row_lit, exp_lit = vals(src), vals([row])[1:-1], vals(expected)
        else:
            src = [[i * 5 + j for j in range(5)] for i in range(3)]
            row = [1, 2, 3, 4, 5]
            expected = [[src[i][j] + row[j] for j in range(5)] for i in range(3)]
            src_lit = dense(t, src)
            row_lit = "[" + ", ".join(literal(t, v) for v in row) + "]"
            exp_lit = dense(t, expected)
        tiled = "tensor<3x5x%s, #layout.tiled<{1,0:T(2,2)PV(one)}>>" % t
        plain = "tensor<3x5x%s>" % t
        print("func.func @%s() -> (i64, i64) {" % name)
        print("  %%src = arith.constant dense<%s> : %s" % (src_lit, plain))
        print("  %%row = arith.constant dense<%s> : tensor<5x%s>" % (row_lit, t))
        print("  %%exp = arith.constant dense<%s> : %s" % (exp_lit, plain))
        print("  %%e1 = tensor.empty() : %s" % tiled)
        print("  %%t = layout.relayout %%src, %%e1 : %s, %s -> %s" % (plain, tiled, tiled))
        print("  %%e2 = tensor.empty() : %s" % plain)
        print("  %%back = layout.relayout %%t, %%e2 : %s, %s -> %s" % (tiled, plain, plain))
        print("  %%same = layout.compare EQ, %%back, %%src : (%s, %s) -> tensor<3x5xi1>" % (plain, plain))
        print("  %%sum = layout.add %%src, %%row {broadcast_dimensions = array<i64: 1>} : (%s, tensor<5x%s>) -> %s" % (plain, t, plain))
        print("  %%ok = layout.compare EQ, %%sum, %%exp : (%s, %s) -> tensor<3x5xi1>" % (plain, plain))
        print("  %a = call @count(%same) : (tensor<3x5xi1>) -> i64")
        print("  %b = call @count(%ok) : (tensor<3x5xi1>) -> i64")
        print("  return %a, %b : i64, i64")
        print("}")
    print("""func.func @count(%t: tensor<3x5xi1>) -> i64 {
  %m = bufferization.to_buffer %t : tensor<3x5xi1> to memref<3x5xi1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %n = scf.for %i = %c0 to %c3 step %c1 iter_args(%a = %z) -> (i64) {
    %r = scf.for %j = %c0 to %c5 step %c1 iter_args(%b = %a) -> (i64) {
      %v = memref.load %m[%i, %j] : memref<3x5xi1>
      %w = arith.extui %v : i1 to i64
      %s = arith.addi %b, %w : i64
      scf.yield %s : i64
    }
    scf.yield %r : i64
  }
  return %n : i64
}""")
    print("func.func @main() {")
    for k, t in enumerate(types):
        print("  %%a%d, %%b%d = call @t%d() : () -> (i64, i64)" % (k, k, k))
        print("  call @printI64(%%a%d) : (i64) -> ()" % k)
        print("  call @printComma() : () -> ()")
        print("  call @printI64(%%b%d) : (i64) -> ()" % k)
        print("  call @printNewline() : () -> ()")
    print("  return")
    print("}")


if __name__ == "__main__":
    main()
