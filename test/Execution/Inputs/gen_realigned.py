#!/usr/bin/env python3
"""Round trips row-major -> {1,0:T(8,128)} -> row-major for every element
width, with destination rows that are not vector-aligned (the source walk's
realigned segments, docs/lowering.md). Each case fills the source with
f(r, c) = (r * W + c) mod P (+ 1 for floats), copies it to the tiled layout
and back into a buffer filled with a sentinel, counts the elements that
differ from f and prints the count and the elements around two segment
junctions of row 1 (columns 127, 128, 255, 256) and the first and last
element of row 2."""

import sys

# (type, is float, P): P keeps the values exact in the type.
TYPES = [("i8", False, 256), ("i16", False, 65536), ("bf16", True, 250),
         ("f16", True, 2000), ("i32", False, 1 << 30), ("f32", True, 1 << 20),
         ("i64", False, 1 << 40), ("f64", True, 1 << 40)]
R, W = 19, 300
LAYOUT = "#layout.tiled<{1,0:T(8,128)}>"
PROBES = [(1, 127), (1, 128), (1, 255), (1, 256), (2, 0), (2, W - 1)]


def value(t, is_float, p):
    """SSA lines computing f(%r, %c) into %v of type t."""
    lines = ["%rw = arith.muli %r, %cw : index",
             "%lin = arith.addi %rw, %c : index",
             "%%pm = arith.constant %d : index" % p,
             "%m = arith.remui %lin, %pm : index"]
    if is_float:
        lines += ["%m1 = arith.addi %m, %c1 : index",
                  "%mi = arith.index_cast %m1 : index to i64",
                  "%%v = arith.sitofp %%mi : i64 to %s" % t]
    else:
        lines += ["%%v = arith.index_cast %%m : index to %s" % t]
    return lines


def emit_case(t, is_float, p):
    ty = "memref<%dx%dx%s>" % (R, W, t)
    tiled = "memref<%dx%dx%s, %s>" % (R, W, t, LAYOUT)
    sentinel = "-3.0" if is_float else "-1"
    ind = "      "
    print("func.func @case_%s() {" % t)
    print("  %c0 = arith.constant 0 : index")
    print("  %c1 = arith.constant 1 : index")
    print("  %%cr = arith.constant %d : index" % R)
    print("  %%cw = arith.constant %d : index" % W)
    print("  %%src = memref.alloc() : %s" % ty)
    print("  %%dst = memref.alloc() : %s" % ty)
    print("  %%mid = memref.alloc() : %s" % tiled)
    print("  %%s = arith.constant %s : %s" % (sentinel, t))
    print("  scf.for %r = %c0 to %cr step %c1 {")
    print("    scf.for %c = %c0 to %cw step %c1 {")
    for line in value(t, is_float, p):
        print(ind + line)
    print(ind + "memref.store %%v, %%src[%%r, %%c] : %s" % ty)
    print(ind + "memref.store %%s, %%dst[%%r, %%c] : %s" % ty)
    print("    }")
    print("  }")
    print("  layout.relayout %%src, %%mid : %s, %s" % (ty, tiled))
    print("  layout.relayout %%mid, %%dst : %s, %s" % (tiled, ty))
    print("  %bad = scf.for %r = %c0 to %cr step %c1 iter_args(%a = %c0) -> (index) {")
    print("    %row = scf.for %c = %c0 to %cw step %c1 iter_args(%b = %a) -> (index) {")
    for line in value(t, is_float, p):
        print(ind + line)
    print(ind + "%%got = memref.load %%dst[%%r, %%c] : %s" % ty)
    if is_float:
        print(ind + "%ne = arith.cmpf une, %got, %v : " + t)
    else:
        print(ind + "%ne = arith.cmpi ne, %got, %v : " + t)
    print(ind + "%inc = arith.select %ne, %c1, %c0 : index")
    print(ind + "%b1 = arith.addi %b, %inc : index")
    print(ind + "scf.yield %b1 : index")
    print("    }")
    print("    scf.yield %row : index")
    print("  }")
    print("  %zero = arith.constant 0 : i64")
    print("  %badi = arith.index_cast %bad : index to i64")
    print("  call @printI64(%badi) : (i64) -> ()")
    for k, (r, c) in enumerate(PROBES):
        print("  %%pr%d = arith.constant %d : index" % (k, r))
        print("  %%pc%d = arith.constant %d : index" % (k, c))
        print("  %%pv%d = memref.load %%dst[%%pr%d, %%pc%d] : %s" % (k, k, k, ty))
        if t == "f64":
            print("  %%pi%d = arith.fptosi %%pv%d : f64 to i64" % (k, k))
        elif is_float:
            print("  %%pe%d = arith.extf %%pv%d : %s to f64" % (k, k, t))
            print("  %%pi%d = arith.fptosi %%pe%d : f64 to i64" % (k, k))
        elif t == "i64":
            print("  %%pi%d = arith.addi %%pv%d, %%zero : i64" % (k, k))
        else:
            print("  %%pi%d = arith.extui %%pv%d : %s to i64" % (k, k, t))
        print("  call @printComma() : () -> ()")
        print("  call @printI64(%%pi%d) : (i64) -> ()" % k)
    print("  call @printNewline() : () -> ()")
    print("  memref.dealloc %%src : %s" % ty)
    print("  memref.dealloc %%dst : %s" % ty)
    print("  memref.dealloc %%mid : %s" % tiled)
    print("  return")
    print("}")


def main():
    print("func.func private @printI64(i64)")
    print("func.func private @printComma()")
    print("func.func private @printNewline()")
    for t, is_float, p in TYPES:
        emit_case(t, is_float, p)
    print("func.func @main() {")
    for t, _, _ in TYPES:
        print("  call @case_%s() : () -> ()" % t)
    print("  return")
    print("}")


if __name__ == "__main__":
    sys.exit(main())
