#!/usr/bin/env python3
"""Generates the narrow-float conversion test (narrow-float-conversions.test).

`mlir`: a program that, for every format of narrow_float_ref.FORMATS and
f8E8M0FNU (narrow_float_ref.E8M0),
  * extf's every code to f32 and prints the f32 bits (scalar loop, then the
    same with vector<8x...> loads and stores);
  * truncf's a list of f32 values to the format and prints the codes (scalar,
    then vectors): every representable value, every midpoint between
    neighbours (ties) and the f32 values just below and above it, the tie
    above the largest value, the negatives of all of these, +-0, +-inf, NaNs
    of both signs, values far outside the range, f32 subnormals.
`check`: the FileCheck lines with the values narrow_float_ref computes from
the format definitions.
"""
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from narrow_float_ref import E8M0, FORMATS, f32_bits, make_format

NAMES = list(FORMATS) + [E8M0.name]


def truncf_inputs(f):
    if isinstance(f, E8M0):
        return f.truncf_inputs()
    mags = f.finite_magnitudes()
    top_code, top = mags[-1]
    ulp = 2.0 ** ((top_code >> f.m) - f.bias - f.m)
    values = [float(v) for _, v in mags] + [float(top) + ulp]
    points = []
    for v in values:
        points.append(f32_bits(v))
    for v0, v1 in zip(values, values[1:]):
        mid = f32_bits((v0 + v1) / 2)
        points += [mid - 1, mid, mid + 1]
    points += [f32_bits(float(top) * 1024), f32_bits(1e30),
               f32_bits(float(values[1]) / 1024), 1, 0x007FFFFF]
    points += [p | 0x80000000 for p in points]
    points += [0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001]
    return points


def emit_mlir():
    print("func.func private @printMemrefI32(memref<*xi32>)")
    for k, name in enumerate(NAMES):
        f = make_format(name)
        n = 1 << f.width
        ity = "i%d" % f.width
        pts = truncf_inputs(f)
        # Pad to a multiple of 8 for the vector loop (repeat the first value).
        pts += [pts[0]] * (-len(pts) % 8)
        p = len(pts)
        data = ", ".join(str(v - (1 << 32) if v >= 1 << 31 else v) for v in pts)
        print('memref.global "private" constant @in%d : memref<%dxi32> = '
              'dense<[%s]>' % (k, p, data))
        print("func.func @t%d() {" % k)
        print("  %c0 = arith.constant 0 : index")
        print("  %c1 = arith.constant 1 : index")
        print("  %c8 = arith.constant 8 : index")
        print("  %%n = arith.constant %d : index" % n)
        print("  %%p = arith.constant %d : index" % p)
        # extf, scalar: code -> f32 bits.
        print("  %%ext = memref.alloc() : memref<%dxi32>" % n)
        print("  scf.for %i = %c0 to %n step %c1 {")
        print("    %%ci = arith.index_cast %%i : index to %s" % ity)
        print("    %%cf = arith.bitcast %%ci : %s to %s" % (ity, name))
        print("    %%w = arith.extf %%cf : %s to f32" % name)
        print("    %wb = arith.bitcast %w : f32 to i32")
        print("    memref.store %%wb, %%ext[%%i] : memref<%dxi32>" % n)
        print("  }")
        print("  %%extc = memref.cast %%ext : memref<%dxi32> to memref<*xi32>" % n)
        print("  call @printMemrefI32(%extc) : (memref<*xi32>) -> ()")
        # extf, vectors of 8.
        print("  %%extv = memref.alloc() : memref<%dxi32>" % n)
        print("  scf.for %i = %c0 to %n step %c8 {")
        # The codes i..i+7 as a vector (not loaded: LLVM packs vectors of
        # 6-bit elements in memory, the memref has one byte per element).
        print("    %step = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> :"
              " vector<8xi32>")
        print("    %i32 = arith.index_cast %i : index to i32")
        print("    %base = vector.broadcast %i32 : i32 to vector<8xi32>")
        print("    %idx = arith.addi %step, %base : vector<8xi32>")
        print("    %%vi = arith.trunci %%idx : vector<8xi32> to vector<8x%s>"
              % ity)
        print("    %%v = arith.bitcast %%vi : vector<8x%s> to vector<8x%s>"
              % (ity, name))
        print("    %%w = arith.extf %%v : vector<8x%s> to vector<8xf32>" % name)
        print("    %wb = arith.bitcast %w : vector<8xf32> to vector<8xi32>")
        print("    vector.store %%wb, %%extv[%%i] : memref<%dxi32>, vector<8xi32>"
              % n)
        print("  }")
        print("  %%extvc = memref.cast %%extv : memref<%dxi32> to memref<*xi32>"
              % n)
        print("  call @printMemrefI32(%extvc) : (memref<*xi32>) -> ()")
        # truncf, scalar: f32 bits -> code.
        print("  %%in = memref.get_global @in%d : memref<%dxi32>" % (k, p))
        print("  %%tr = memref.alloc() : memref<%dxi32>" % p)
        print("  scf.for %i = %c0 to %p step %c1 {")
        print("    %%b = memref.load %%in[%%i] : memref<%dxi32>" % p)
        print("    %x = arith.bitcast %b : i32 to f32")
        print("    %%t = arith.truncf %%x : f32 to %s" % name)
        print("    %%tb = arith.bitcast %%t : %s to %s" % (name, ity))
        print("    %%tw = arith.extui %%tb : %s to i32" % ity)
        print("    memref.store %%tw, %%tr[%%i] : memref<%dxi32>" % p)
        print("  }")
        print("  %%trc = memref.cast %%tr : memref<%dxi32> to memref<*xi32>" % p)
        print("  call @printMemrefI32(%trc) : (memref<*xi32>) -> ()")
        # truncf, vectors of 8.
        print("  %%trv = memref.alloc() : memref<%dxi32>" % p)
        print("  scf.for %i = %c0 to %p step %c8 {")
        print("    %%b = vector.load %%in[%%i] : memref<%dxi32>, vector<8xi32>" % p)
        print("    %x = arith.bitcast %b : vector<8xi32> to vector<8xf32>")
        print("    %%t = arith.truncf %%x : vector<8xf32> to vector<8x%s>" % name)
        print("    %%tb = arith.bitcast %%t : vector<8x%s> to vector<8x%s>"
              % (name, ity))
        print("    %%tw = arith.extui %%tb : vector<8x%s> to vector<8xi32>" % ity)
        print("    vector.store %%tw, %%trv[%%i] : memref<%dxi32>, vector<8xi32>"
              % p)
        print("  }")
        print("  %%trvc = memref.cast %%trv : memref<%dxi32> to memref<*xi32>" % p)
        print("  call @printMemrefI32(%trvc) : (memref<*xi32>) -> ()")
        print("  return")
        print("}")
    print("func.func @main() {")
    for k in range(len(NAMES)):
        print("  call @t%d() : () -> ()" % k)
    print("  return")
    print("}")


def signed(v):
    return v - (1 << 32) if v >= 1 << 31 else v


def emit_check():
    for name in NAMES:
        f = make_format(name)
        ext = [signed(f.to_f32_bits(c)) for c in range(1 << f.width)]
        pts = truncf_inputs(f)
        pts += [pts[0]] * (-len(pts) % 8)
        tr = [f.from_f32_bits(b) for b in pts]
        print("# %s: extf of the %d codes (f32 bits), scalar and vector"
              % (name, len(ext)))
        line = "[" + ", ".join(map(str, ext)) + "]"
        print("CHECK: {{^}}" + line)
        print("CHECK: {{^}}" + line)
        print("# %s: truncf of %d f32 values (codes), scalar and vector"
              % (name, len(tr)))
        line = "[" + ", ".join(map(str, tr)) + "]"
        print("CHECK: {{^}}" + line)
        print("CHECK: {{^}}" + line)


if __name__ == "__main__":
    emit_mlir() if sys.argv[1] == "mlir" else emit_check()
