#!/usr/bin/env python3
"""Execution test of elementwise and broadcasting ops whose operands' byte
orders cross the result's (TransposeBlocks.cpp: the crossing operand read
in blocks transposed in registers, the others as rows or splats).

  gen_elementwise_transposed.py mlir  > cases.mlir
  gen_elementwise_transposed.py check > expected.txt

Operand a[i, j] = (i * C + j) mod 1000, operand b (or the broadcast vector)
= (linear * 7) mod 1000, integer-valued so that f32 results are exact; each
operand is relayouted from a row-major buffer into its layout, the op runs
on tensors with those encodings, its result (in the result's layout) is
relayouted back to row-major, and the program prints a checksum, the sum of
fptosi(result[i, j]) * ((i * C + j) mod 97 + 1), which `check` computes here
(bf16 sums rounded to bf16, to nearest even).
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_transpose import index_consts, memref as mtype, prod  # noqa: E402

# name, element type, op, shape, a layout, b layout (None: a vector
# broadcast along `dims`), dims, result layout
CASES = [
    ("add_f32", "f32", "add", (64, 64), "{1,0}", "{0,1}", None, "{0,1}"),
    ("add_f32_odd", "f32", "add", (29, 291), "{1,0}", "{0,1}", None, "{0,1}"),
    ("mul_f32_b_crosses", "f32", "multiply", (40, 72), "{0,1}", "{1,0}",
     None, "{0,1}"),
    ("max_f32_both_cross", "f32", "maximum", (48, 80), "{1,0}", "{1,0}",
     None, "{0,1}"),
    ("add_bf16", "bf16", "add", (64, 96), "{1,0}", "{0,1}", None, "{0,1}"),
    ("add_f32_tiled", "f32", "add", (64, 256), "{1,0:T(8,128)}", "{0,1}",
     None, "{0,1}"),
    ("sub_f32_3d", "f32", "subtract", (6, 20, 40), "{2,1,0}", "{1,2,0}",
     None, "{1,2,0}"),
    # Result rows longer than 512 bytes (odd extents): streaming, the
    # operand read along the rows is prefetched ahead, clamped to the row.
    ("add_f32_long_rows", "f32", "add", (300, 24), "{1,0}", "{0,1}", None,
     "{0,1}"),
    ("sub_bf16_long_rows", "bf16", "subtract", (520, 40), "{1,0}", "{0,1}",
     None, "{0,1}"),
    # Planes of whole staged tiles (256 destination rows x 512 bytes):
    # streaming, the crossing operand goes through the per-thread stage.
    ("add_f32_staged", "f32", "add", (256, 256), "{1,0}", "{0,1}", None,
     "{0,1}"),
    ("sub_bf16_staged", "bf16", "subtract", (256, 512), "{1,0}", "{0,1}",
     None, "{0,1}"),
    # A tiled result with padding slots (odd extents), one operand crossing
    # its tiles' rows; and a crossing operand into transposed tiles.
    ("add_f32_into_tiles", "f32", "add", (37, 300), "{0,1}", "{1,0}", None,
     "{1,0:T(8,128)}"),
    ("mul_bf16_into_t01", "bf16", "multiply", (40, 256), "{1,0}", "{0,1}",
     None, "{0,1:T(8,128)}"),
    # A vector along the result's rows (dims [0]: a row per destination
    # row) and across them (dims [1]: one element per destination row).
    ("add_f32_bcast_d0", "f32", "add", (48, 64), "{1,0}", None, [0], "{0,1}"),
    ("add_f32_bcast_d1", "f32", "add", (48, 64), "{1,0}", None, [1], "{0,1}"),
    # Sub-tiled operands along the result's rows (no transpose): read
    # strided out of the (2,1) sub-tiles (NestEmitter::RowRead), and a
    # sub-tiled result from a tiled operand (interleaved rows).
    ("add_bf16_subtiled", "bf16", "add", (64, 256), "{1,0:T(8,128)(2,1)}",
     "{1,0}", None, "{1,0}"),
    ("add_f32_subtiled_odd", "f32", "add", (29, 291), "{1,0:T(8,128)(2,1)}",
     "{1,0}", None, "{1,0}"),
    ("sub_bf16_into_subtiles", "bf16", "subtract", (40, 256),
     "{1,0:T(8,128)}", "{1,0}", None, "{1,0:T(8,128)(2,1)}"),
    # Rows dispatched on their sub-tile slot (NestEmitter::
    # dispatchSubTileSlots): both operands with the same slot (one switch,
    # both read with one shuffle), and a (2,1) operand beside a (4,1) one
    # whose slot differs (the first dispatched, the other picks its slot
    # at run time), into odd staged rows.
    ("add_bf16_two_subtiled", "bf16", "add", (40, 256),
     "{1,0:T(8,128)(2,1)}", "{1,0:T(8,128)(2,1)}", None, "{1,0}"),
    ("mul_bf16_mixed_subtiles", "bf16", "multiply", (37, 260),
     "{1,0:T(8,128)(2,1)}", "{1,0:T(8,128)(4,1)}", None, "{1,0}"),
    # A sub-tiled operand crossing the result's rows at an odd extent:
    # blocked transposes reading its runs of 2 rows (interleaved runs).
    ("add_bf16_subtiled_cross_odd", "bf16", "add", (61, 75),
     "{1,0:T(8,128)(2,1)}", "{0,1}", None, "{0,1}"),
]
OPS = {"add": lambda x, y: x + y, "multiply": lambda x, y: x * y,
       "maximum": max, "subtract": lambda x, y: x - y}


def ttype(shape, elt, layout=None):
    t = "tensor<%s%s" % ("".join("%dx" % d for d in shape), elt)
    return t + (", #layout.tiled<%s>>" % layout if layout else ">")


def fill(o, name, shape, elt, mul):
    """A row-major memref %name with (linear * mul) mod 1000."""
    rank = len(shape)
    o.append("  %%%s = memref.alloc() : %s" % (name, mtype(shape, elt)))
    ivs = ["%%%s_i%d" % (name, k) for k in range(rank)]
    for k, d in enumerate(shape):
        o.append("  " * (k + 1) + "scf.for %s = %%c0 to %%c%d step %%c1 {" %
                 (ivs[k], d))
    ind = "  " * (rank + 1)
    expr = " + ".join("d%d * %d" % (k, prod(shape[k + 1:]))
                      for k in range(rank))
    o.append("%s%%%s_l = affine.apply affine_map<(%s) -> ((%s) * %d mod 1000)>"
             "(%s)" % (ind, name, ", ".join("d%d" % k for k in range(rank)),
                       expr, mul, ", ".join(ivs)))
    o.append("%s%%%s_n = arith.index_cast %%%s_l : index to i32" %
             (ind, name, name))
    o.append("%s%%%s_v = arith.sitofp %%%s_n : i32 to %s" %
             (ind, name, name, elt))
    o.append("%smemref.store %%%s_v, %%%s[%s] : %s" %
             (ind, name, name, ", ".join(ivs), mtype(shape, elt)))
    for k in reversed(range(rank)):
        o.append("  " * (k + 1) + "}")


def operand(o, name, shape, elt, layout, mul):
    """%name_t: the tensor of the operand in `layout`."""
    fill(o, name, shape, elt, mul)
    lay = mtype(shape, elt, layout)
    o.append("  %%%s_m = memref.alloc() : %s" % (name, lay))
    o.append("  layout.relayout %%%s, %%%s_m : %s, %s" %
             (name, name, mtype(shape, elt), lay))
    o.append("  %%%s_t = bufferization.to_tensor %%%s_m restrict : %s to %s" %
             (name, name, lay, ttype(shape, elt, layout)))


def case_mlir(name, elt, op, shape, la, lb, dims, lr):
    o = ["func.func @%s() {" % name]
    operand(o, "a", shape, elt, la, 1)
    if lb:
        operand(o, "b", shape, elt, lb, 7)
        btype = ttype(shape, elt, lb)
        attr = ""
    else:
        vshape = tuple(shape[d] for d in dims)
        fill(o, "b", vshape, elt, 7)
        o.append("  %%b_t = bufferization.to_tensor %%b restrict : %s to %s" %
                 (mtype(vshape, elt), ttype(vshape, elt)))
        btype = ttype(vshape, elt)
        attr = ", dims = [%s]" % ", ".join(map(str, dims))
    rtype = ttype(shape, elt, lr)
    o.append("  %%r = layout.%s %%a_t, %%b_t%s : (%s, %s) -> %s" %
             (op, attr, ttype(shape, elt, la), btype, rtype))
    o.append("  %%r_m = memref.alloc() : %s" % mtype(shape, elt, lr))
    o.append("  bufferization.materialize_in_destination %%r in restrict "
             "writable %%r_m : (%s, %s) -> ()" % (rtype, mtype(shape, elt, lr)))
    o.append("  %%row = memref.alloc() : %s" % mtype(shape, elt))
    o.append("  layout.relayout %%r_m, %%row : %s, %s" %
             (mtype(shape, elt, lr), mtype(shape, elt)))
    # Checksum.
    rank = len(shape)
    ivs = ["%%s_i%d" % k for k in range(rank)]
    o.append("  %%sum = scf.for %s = %%c0 to %%c%d step %%c1 iter_args("
             "%%acc0_in = %%c0_i64) -> (i64) {" % (ivs[0], shape[0]))
    for k in range(1, rank):
        o.append("  " * (k + 1) + "%%acc%d = scf.for %s = %%c0 to %%c%d step "
                 "%%c1 iter_args(%%acc%d_in = %%acc%d_in) -> (i64) {" %
                 (k, ivs[k], shape[k], k, k - 1))
    ind = "  " * (rank + 1)
    last = "%%acc%d_in" % (rank - 1)
    expr = " + ".join("d%d * %d" % (k, prod(shape[k + 1:]))
                      for k in range(rank))
    o.append("%s%%w = affine.apply affine_map<(%s) -> ((%s) mod 97 + 1)>(%s)" %
             (ind, ", ".join("d%d" % k for k in range(rank)), expr,
              ", ".join(ivs)))
    o.append("%s%%w64 = arith.index_cast %%w : index to i64" % ind)
    o.append("%s%%x = memref.load %%row[%s] : %s" %
             (ind, ", ".join(ivs), mtype(shape, elt)))
    o.append("%s%%xi = arith.fptosi %%x : %s to i64" % (ind, elt))
    o.append("%s%%p = arith.muli %%xi, %%w64 : i64" % ind)
    o.append("%s%%next = arith.addi %s, %%p : i64" % (ind, last))
    o.append("%sscf.yield %%next : i64" % ind)
    for k in reversed(range(1, rank)):
        o.append("  " * (k + 1) + "}")
        o.append("  " * (k + 1) + "scf.yield %%acc%d : i64" % k)
    o.append("  }")
    o.append('  vector.print str "%s checksum: "' % name)
    o.append("  vector.print %sum : i64")
    for m in ("a", "a_m", "b", "r_m", "row") + (("b_m",) if lb else ()):
        o.append("  memref.dealloc %%%s : %s" % (m, {
            "a_m": mtype(shape, elt, la), "b_m": mtype(shape, elt, lb),
            "r_m": mtype(shape, elt, lr)}.get(
                m, mtype(tuple(shape[d] for d in dims), elt)
                if m == "b" and not lb else mtype(shape, elt))))
    o.append("  return\n}")
    return "\n".join(o)


def bf16(x):
    """x rounded to bf16 (8 significant bits), to nearest even."""
    if x == 0:
        return 0.0
    sign = -1 if x < 0 else 1
    a = abs(x)
    e = a.bit_length() - 1 if a == int(a) else None
    assert e is not None
    q = 2 ** max(0, e - 7)
    lo = (a // q) * q
    rem = a - lo
    if rem * 2 > q or (rem * 2 == q and (lo // q) % 2 == 1):
        lo += q
    return sign * lo


def expected(elt, op, shape, lb, dims):
    total = 0
    n = prod(shape)
    for lin in range(n):
        idx = []
        rest = lin
        for d in reversed(shape):
            idx.append(rest % d)
            rest //= d
        idx.reverse()
        a = lin % 1000
        if lb:
            b = (lin * 7) % 1000
        else:
            vshape = [shape[d] for d in dims]
            vl = 0
            for d in dims:
                vl = vl * shape[d] + idx[d]
            b = (vl * 7) % 1000
        r = OPS[op](a, b)
        if elt == "bf16":
            # Operands are bf16 too: rounded before the op.
            r = bf16(OPS[op](bf16(a), bf16(b)))
        total += int(r) * (lin % 97 + 1)
    return total


def consts():
    return index_consts((case[3] for case in CASES), extra=(0, 1))


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("mlir", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "check":
        for name, elt, op, shape, _, lb, dims, _ in CASES:
            print("CHECK: %s checksum: %d" %
                  (name, expected(elt, op, shape, lb, dims)))
        print("CHECK-NOT: checksum")
        return
    body = []
    for case in CASES:
        head, rest = case_mlir(*case).split("\n", 1)
        body.append("\n".join([head] + consts() + [
            "  %c0_i64 = arith.constant 0 : i64", rest]))
    main_lines = ["func.func @main() {"]
    for case in CASES:
        main_lines.append("  call @%s() : () -> ()" % case[0])
    main_lines.append("  return\n}")
    print("\n\n".join(body + ["\n".join(main_lines)]))


if __name__ == "__main__":
    main()
