#!/usr/bin/env python3
"""Execution test of the blocked transposes (TransposeBlocks.cpp).

  gen_transpose.py mlir  > cases.mlir
  gen_transpose.py check > expected.txt

Every case relayouts a row-major source into a permuted layout (physical
dim k holds logical dim perm[k]) with layout.relayout. Element bits are
(linear * 40503 + 1) mod 2^width. The program then checks every element
of the physical buffer against the source with explicit loops (the
permutation written out, not the layout lowering) and prints the number of
mismatches, and prints three physical slots whose bits `check` computes
here in Python. Each case runs with both buffers 64-byte aligned and at
byte offset 40 (memref.view of a byte buffer).
"""
import sys

CASES = [
    # name, element type, logical shape, perm
    ("t64_f32", "f32", (64, 64), (1, 0)),
    ("t29x291_f32", "f32", (29, 291), (1, 0)),
    ("t291x29_f32", "f32", (291, 29), (1, 0)),
    ("t3_210_f32", "f32", (18, 20, 40), (2, 1, 0)),
    ("t3_201_f32", "f32", (33, 17, 16), (2, 0, 1)),
    ("t3_120_f32", "f32", (24, 5, 35), (1, 2, 0)),
    ("t4_3210_f32", "f32", (17, 3, 20, 18), (3, 2, 1, 0)),
    ("t29x291_bf16", "bf16", (29, 291), (1, 0)),
    ("t3_210_bf16", "bf16", (40, 20, 32), (2, 1, 0)),
    ("t40x70_i8", "i8", (40, 70), (1, 0)),
    ("t20x24_f64", "f64", (20, 24), (1, 0)),
    ("t3_210_rows8", "f32", (8, 6, 40), (2, 1, 0)),
    ("t3_210_rows5", "f32", (5, 7, 40), (2, 1, 0)),
    ("t3_210_rows3", "f32", (3, 7, 40), (2, 1, 0)),
    # Destination rows a multiple of 1 KiB apart: two blocks side by side
    # with cached stores where the register file holds both
    # (vector-register-bytes), with edge blocks along both dims.
    ("t256x64_f32", "f32", (256, 64), (1, 0)),
    ("t3_210_wide_edges", "f32", (48, 16, 40), (2, 1, 0)),
    # Destination rows that start off vector boundaries (45 f32, 37 f64),
    # streaming: realigned rows (a head, vectors straddling two blocks, the
    # carried tail) with edge blocks along both dims; an outer dim whose
    # stride is a multiple of the block (48 x 37) keeps the rows' shifts,
    # one that is not (50 x 37) moves them: one case of each block's
    # stores per shift of its first row (scf.index_switch).
    ("t45x67_f32", "f32", (45, 67), (1, 0)),
    ("t37x41_f64", "f64", (37, 41), (1, 0)),
    # Several blocks per line (bf16 16 x 16, i8 16 x 16): whole lines realigned,
    # the shifts alternating with the block's p_k residue (rows of 67 bf16
    # and 131 i8).
    ("t67x40_bf16", "bf16", (67, 40), (1, 0)),
    ("t131x40_i8", "i8", (131, 40), (1, 0)),
    ("t3_021_realign", "f32", (2, 37, 48), (0, 2, 1)),
    ("t3_021_moving", "f32", (3, 37, 50), (0, 2, 1)),
    # p_k outermost with aligned rows of 16 x 45 f32 between its steps, the
    # middle dim's rows of 45 not: realigned with a moving base shift.
    ("t3_201_moving", "f32", (16, 45, 40), (2, 0, 1)),
    # Flat rows (streaming rows that are not whole lines walk with the dim
    # outside them as one row): rows at least a block row wide (a compare
    # and select per block row: f64 72 bytes, bf16 40 elements) and
    # narrower (a division: i8 rows of 20 under 64-byte block rows), and
    # rows of 63 f32 whose p_k extent (37) takes an overlapping edge block.
    ("t3_210_flat_f64", "f64", (9, 11, 24), (2, 1, 0)),
    ("t3_210_flat_bf16", "bf16", (40, 7, 33), (2, 1, 0)),
    ("t3_210_flat_i8", "i8", (20, 9, 70), (2, 1, 0)),
    ("t3_210_flat_edge", "f32", (63, 5, 37), (2, 1, 0)),
    # Flat rows of 4 x 17 f32 under a middle dim (16) whose 4-iteration
    # chunks are whole lines: on 2 threads (the par RUN line) the parallel
    # loop splits that middle dim, each chunk walking its own flat rows.
    ("t4_3210_flat_mid", "f32", (17, 4, 16, 20), (3, 2, 1, 0)),
    # Realigned rows back to back (junction lines, masked edges): the tail
    # of each row and the head of the next gathered and streamed as one or
    # two whole lines, the first head and last tail of each group masked;
    # 150 rows of 37 f32 per plane (an overlapping p_k edge block, a moving
    # base shift), and rows of 77 bf16, 37 f64 and 131 i8.
    ("t3_021_junctions", "f32", (2, 37, 150), (0, 2, 1)),
    ("t77x300_bf16", "bf16", (77, 300), (1, 0)),
    ("t37x100_f64", "f64", (37, 100), (1, 0)),
    ("t131x200_i8", "i8", (131, 200), (1, 0)),
    # Unsigned and signed elements through the same junctions (their scalar
    # stores without masked edges), in and out through signless views.
    ("t131x200_ui8", "ui8", (131, 200), (1, 0)),
    ("t77x300_ui16", "ui16", (77, 300), (1, 0)),
    ("t77x300_si16", "si16", (77, 300), (1, 0)),
    # Planes that move the rows' alignment by an odd amount (41 rows each):
    # every shift of a line is some block's first row's, one case of the
    # block's stores each (32 for bf16's 2 x 16 lanes); i8's 64 are staged
    # per group instead (StagedDestinationRows.cpp: each group's rows
    # stored into a stage laid out as the destination's lines, streamed out
    # while the next group fills the other half; the range's first and
    # last partial lines element by element), with an overlapping p_k edge
    # block stored directly; 301 rows of 131 i8 (with 256-byte groups, as
    # the span runs: groups of 256 and 32, both halves), 67 rows of 133 ui8,
    # and 1041 rows of 301 i8, whose 1 KiB groups (301 KiB, the kib run)
    # shrink to one span, 256 rows (128 KiB a stage half).
    ("t3_021_moving_bf16", "bf16", (3, 67, 41), (0, 2, 1)),
    ("t3_021_moving_f64", "f64", (3, 37, 41), (0, 2, 1)),
    ("t3_021_moving_i8", "i8", (3, 131, 41), (0, 2, 1)),
    ("t3_021_staged_rows_i8", "i8", (3, 131, 301), (0, 2, 1)),
    ("t3_021_staged_rows_ui8", "ui8", (2, 133, 67), (0, 2, 1)),
    ("t3_021_staged_shrink_i8", "i8", (2, 301, 1041), (0, 2, 1)),
    # Middle-dim chunks on 2 threads (the par RUN line) although p_k's
    # stride (5 x 129 x 8 f32, 20,640 bytes) is not whole lines: chunks of 2
    # flat rows of 4,128 bytes (mayChunkMiddleDim), the last one taking 3.
    ("t4_3210_mid_chunks", "f32", (8, 129, 5, 8), (3, 2, 1, 0)),
    # Blocks side by side in one register (transposeSideBySide): i8 16 x 16
    # blocks four wide (AVX-512: one register; AVX2: two), with overlapping edge
    # blocks along both dims of a 3-D permutation; bf16 16 x 16 blocks (20
    # rows along p_k) two wide on AVX-512.
    ("t3_210_odd_i8", "i8", (99, 5, 37), (2, 1, 0)),
    ("t300x20_bf16", "bf16", (300, 20), (1, 0)),
    # Few destination rows of whole lines on 2 threads (the par RUN lines):
    # chunks of p_k would read a part of each source line per visit, so the
    # chunks split the columns (parallel chunks of N columns), with an
    # overlapping p_k edge block (40 rows of 16) in each chunk; f32 with
    # 8 x 8 blocks (AVX2's register file) and i8 16 x 16.
    ("t256x40_bf16", "bf16", (256, 40), (1, 0)),
    ("t128x24_f32", "f32", (128, 24), (1, 0)),
    ("t512x96_i8", "i8", (512, 96), (1, 0)),
    # Staged source lines (StagedSourceLines.cpp): 8-bit blocks four wide
    # (64 source rows) whose groups of 1024 rows along p_k are copied 256
    # bytes of each row at a time. p_k 1100: the last group's 64 rows copy
    # the span that ends at the group's end (832 .. 1087), then an
    # overlapping p_k edge block reads the source itself; rows of 67 and
    # 131 bytes (a p_r edge block, realigned streaming rows), planes one
    # after the other (the outer dim of 2), a middle dim of 3 between p_k
    # and the rows (t3_210: rows of 128 bytes, whole lines, not flattened;
    # parallel middle chunks on 2 threads), on 2 threads chunks shorter than a group and
    # than a span (the par, par64 and par512 RUN lines: the copy clamped
    # at 0).
    ("t67x1100_i8", "i8", (67, 1100), (1, 0)),
    ("t3_021_staged_ui8", "ui8", (2, 131, 1050), (0, 2, 1)),
    ("t3_210_staged_i8", "i8", (128, 3, 1100), (2, 1, 0)),
    # Planes over 64 KiB that are not whole lines (getLevelGranule): on 2
    # threads (the par, par64, par512 and kibpar RUN lines) each thread
    # transposes whole planes, its first and last lines shared with the
    # neighbouring planes' threads: realigned rows with junction lines (129
    # f32 per row: the group's first head and last tail masked, or element
    # by element without masked edges) and staged 8-bit rows (263 per row:
    # the first and last partial lines element by element).
    ("t3_021_planes_f32", "f32", (5, 129, 131), (0, 2, 1)),
    ("t3_021_planes_i8", "i8", (5, 263, 257), (0, 2, 1)),
]
WIDTH = {"f32": 32, "bf16": 16, "i8": 8, "f64": 64, "ui8": 8, "ui16": 16,
         "si16": 16}
MUL = 40503
SHIFTS = (0, 40)


def prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


def memref(shape, elt, layout=None):
    t = "memref<%s%s" % ("".join("%dx" % d for d in shape), elt)
    return t + (", #layout.tiled<%s>>" % layout if layout else ">")


def loops(out, shape, body, ind="  ", iters=None):
    """scf.for nest over `shape`; body(ivs, indent) emits the innermost
    code. With iters (name, init), the nest carries one i64 sum."""
    ivs = []
    for k, d in enumerate(shape):
        iv = "%%i%d" % k
        if iters:
            out.append("%s%%s%d = scf.for %s = %%c0 to %%c%d step %%c1 "
                       "iter_args(%%a%d = %s) -> (i64) {" %
                       (ind, k, iv, d, k, "%a" + str(k - 1) if k else iters))
        else:
            out.append("%sscf.for %s = %%c0 to %%c%d step %%c1 {" %
                       (ind, iv, d))
        ivs.append(iv)
        ind += "  "
    body(ivs, ind)
    for k in reversed(range(len(shape))):
        ind = ind[:-2]
        if iters:
            out.append("%s  scf.yield %%s%d : i64" % (ind, k + 1))
        out.append("%s}" % ind)


def case_mlir(name, elt, shape, perm):
    w = WIDTH[elt]
    it = "i%d" % w
    phys = tuple(shape[p] for p in perm)
    m2m = "{%s}" % ",".join(str(d) for d in reversed(perm))
    n = prod(shape)
    nbytes = n * w // 8
    # Unsigned and signed elements: filled and checked through signless views
    # of the same buffers (arith takes signless integers); only the relayout
    # sees their type.
    unsigned = elt[:2] in ("ui", "si")
    view_elt = it if unsigned else elt
    src_t, dst_t = memref(shape, elt), memref(phys, elt)
    tiled_t = memref(shape, elt, m2m)
    srcv_t, dstv_t = memref(shape, view_elt), memref(phys, view_elt)
    o = []
    o.append("func.func @%s(%%shift: index) {" % name)
    o.append("  %%sb = memref.alloc() {alignment = 64} : memref<%dxi8>" %
             (nbytes + 64))
    o.append("  %%db = memref.alloc() {alignment = 64} : memref<%dxi8>" %
             (nbytes + 64))
    o.append("  %%src = memref.view %%sb[%%shift][] : memref<%dxi8> to %s" %
             (nbytes + 64, src_t))
    o.append("  %%dst = memref.view %%db[%%shift][] : memref<%dxi8> to %s" %
             (nbytes + 64, dst_t))
    src_v, dst_v = "%src", "%dst"
    if unsigned:
        src_v, dst_v = "%srcv", "%dstv"
        o.append("  %%srcv = memref.view %%sb[%%shift][] : memref<%dxi8> to "
                 "%s" % (nbytes + 64, srcv_t))
        o.append("  %%dstv = memref.view %%db[%%shift][] : memref<%dxi8> to "
                 "%s" % (nbytes + 64, dstv_t))
    signless = view_elt.startswith("i")

    def linear(ivs, ind, dims):
        expr = " + ".join("d%d * %d" % (k, prod(dims[k + 1:]))
                          for k in range(len(dims)))
        o.append("%s%%lin = affine.apply affine_map<(%s) -> (%s)>(%s)" %
                 (ind, ", ".join("d%d" % k for k in range(len(dims))), expr,
                  ", ".join(ivs)))

    def fill(ivs, ind):
        linear(ivs, ind, shape)
        o.append("%s%%l64 = arith.index_cast %%lin : index to i64" % ind)
        o.append("%s%%m = arith.muli %%l64, %%cmul : i64" % ind)
        o.append("%s%%m1 = arith.addi %%m, %%c1_i64 : i64" % ind)
        if w < 64:
            o.append("%s%%bits = arith.trunci %%m1 : i64 to %s" % (ind, it))
        else:
            o.append("%s%%bits = arith.addi %%m1, %%c0_i64 : i64" % ind)
        if signless:
            o.append("%s%%v = arith.addi %%bits, %%bits0 : %s" % (ind, it))
        else:
            o.append("%s%%v = arith.bitcast %%bits : %s to %s" % (ind, it, elt))
        o.append("%smemref.store %%v, %s[%s] : %s" %
                 (ind, src_v, ", ".join(ivs), srcv_t))

    o.append("  %%bits0 = arith.constant 0 : %s" % it)
    loops(o, shape, fill)
    o.append("  %%d = layout.from_physical %%dst : %s -> %s" % (dst_t, tiled_t))
    o.append("  layout.relayout %%src, %%d : %s, %s" % (src_t, tiled_t))

    def check(ivs, ind):
        pivs = [ivs[p] for p in perm]
        o.append("%s%%x = memref.load %s[%s] : %s" %
                 (ind, src_v, ", ".join(ivs), srcv_t))
        o.append("%s%%y = memref.load %s[%s] : %s" %
                 (ind, dst_v, ", ".join(pivs), dstv_t))
        if signless:
            o.append("%s%%xb = arith.addi %%x, %%bits0 : %s" % (ind, it))
            o.append("%s%%yb = arith.addi %%y, %%bits0 : %s" % (ind, it))
        else:
            o.append("%s%%xb = arith.bitcast %%x : %s to %s" % (ind, elt, it))
            o.append("%s%%yb = arith.bitcast %%y : %s to %s" % (ind, elt, it))
        o.append("%s%%ne = arith.cmpi ne, %%xb, %%yb : %s" % (ind, it))
        o.append("%s%%ne64 = arith.extui %%ne : i1 to i64" % ind)
        o.append("%s%%s%d = arith.addi %%a%d, %%ne64 : i64" %
                 (ind, len(shape), len(shape) - 1))

    loops(o, shape, check, iters="%c0_i64")
    o.append('  vector.print str "%s mismatches: "' % name)
    o.append("  vector.print %s0 : i64")
    for slot in spots(phys):
        o.append("  %%p%s = memref.load %s[%s] : %s" % (
            "_".join(map(str, slot)), dst_v,
            ", ".join("%%c%d" % c for c in slot), dstv_t))
        v = "%%p%s" % "_".join(map(str, slot))
        if not signless:
            o.append("  %s_b = arith.bitcast %s : %s to %s" % (v, v, elt, it))
            v += "_b"
        if w < 64:
            o.append("  %s_u = arith.extui %s : %s to i64" % (v, v, it))
            v += "_u"
        o.append("  vector.print %s : i64" % v)
    o.append("  memref.dealloc %%sb : memref<%dxi8>" % (nbytes + 64))
    o.append("  memref.dealloc %%db : memref<%dxi8>" % (nbytes + 64))
    o.append("  return\n}")
    return "\n".join(o)


def spots(phys):
    """Three physical slots: the second of the first row, one in the
    middle, the last."""
    first = tuple([0] * (len(phys) - 1) + [1])
    mid = tuple(d // 2 for d in phys)
    last = tuple(d - 1 for d in phys)
    return [first, mid, last]


def expected(elt, shape, perm, slot):
    logical = [0] * len(shape)
    for k, p in enumerate(perm):
        logical[p] = slot[k]
    lin = 0
    for k, i in enumerate(logical):
        lin = lin * shape[k] + i
    return (lin * MUL + 1) % (1 << WIDTH[elt])


def index_consts(shapes, extra=(0, 1, 2, 3)):
    """arith.constant lines for `extra` and each extent, half extent and
    last index of `shapes` (also used by gen_tiled_transpose.py and
    gen_elementwise_transposed.py)."""
    cs = set(extra)
    for shape in shapes:
        cs.update(shape)
        cs.update(d // 2 for d in shape)
        cs.update(d - 1 for d in shape)
    return ["  %%c%d = arith.constant %d : index" % (c, c) for c in sorted(cs)]


def consts():
    return index_consts(case[2] for case in CASES)


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("mlir", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "check":
        for shift in SHIFTS:
            for name, elt, shape, perm in CASES:
                phys = tuple(shape[p] for p in perm)
                print("CHECK: %s mismatches: 0" % name)
                for slot in spots(phys):
                    print("CHECK-NEXT: %d" % expected(elt, shape, perm, slot))
        print("CHECK-NOT: mismatches")
        return
    body = []
    for case in CASES:
        text = case_mlir(*case)
        # Constants are function-local: put them after the signature.
        head, rest = text.split("\n", 1)
        body.append("\n".join([head] + consts() + [
            "  %%cmul = arith.constant %d : i64" % MUL,
            "  %c0_i64 = arith.constant 0 : i64",
            "  %c1_i64 = arith.constant 1 : i64", rest]))
    main_lines = ["func.func @main() {"]
    for shift in SHIFTS:
        main_lines.append("  %%shift%d = arith.constant %d : index" %
                          (shift, shift))
        for name, _, _, _ in CASES:
            main_lines.append("  call @%s(%%shift%d) : (index) -> ()" %
                              (name, shift))
    main_lines.append("  return\n}")
    print("\n\n".join(body + ["\n".join(main_lines)]))


if __name__ == "__main__":
    main()
