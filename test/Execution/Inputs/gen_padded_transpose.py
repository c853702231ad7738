#!/usr/bin/env python3
"""Execution test of the blocked transposes into tiles partly outside the
array (TransposeBlocks.cpp, rows or p_k cut by a bound check: the blocks up
to the bound, then padding vectors, padRows and padKRows).

  gen_padded_transpose.py mlir  > cases.mlir
  gen_padded_transpose.py check > expected.txt

Every case fills a row-major buffer with element bits
(linear * 40503 + 1) mod 2^width, relayouts it into the source layout and
that into the destination layout (the copy under test), whose physical
buffer was first filled with all-ones bits. It then prints, over the
destination's physical buffer, the sum of (slot + 1) * bits (as unsigned
integers of the element's width, modulo 2^64) and the number of slots
whose bits are all ones. `check` computes both here from the tile formula
(docs/semantics.md): a padding slot must hold 0 (the padding value of every
type here), an element slot its element's bits.
"""
import sys

MUL = 40503
WIDTH = {"f32": 32, "bf16": 16, "f64": 64, "i8": 8}
INT = {"f32": "i32", "bf16": "i16", "f64": "i64", "i8": "i8"}

CASES = [
    # name, element type, logical shape, source layout, destination
    # layout, tile, sub-tile rows (2 for (2,1), else 1).
    # Tiles half padding: bf16 64 of 128 columns (aligned padding vectors).
    ("bf16_01_narrow", "bf16", (256, 64), "{0,1}", "{1,0:T(8,128)}",
     (8, 128), 1),
    # 70 valid columns (the blocks' overlapping edge) and 58 padding slots
    # (the last padding vector overlaps the one before it).
    ("f32_01_70", "f32", (64, 70), "{0,1}", "{1,0:T(8,128)}", (8, 128), 1),
    # 8 padding slots per row, fewer than a vector: one by one.
    ("i8_01_120", "i8", (128, 120), "{0,1}", "{1,0:T(32,128)}", (32, 128), 1),
    ("f64_01_100", "f64", (40, 100), "{0,1}", "{1,0:T(8,128)}", (8, 128), 1),
    # A row-major source into transposed tiles: 64 valid columns of the
    # physical rows (the logical rows), 300 logical columns (the last tile
    # row partly outside too).
    ("f32_10_to_t01", "f32", (64, 300), "{1,0}", "{0,1:T(8,128)}",
     (8, 128), 1),
    # (2,1) sub-tiles: element pairs moved as 32-bit groups, the grouped
    # T(4,128) tiles half padding.
    ("bf16_01_narrow_2x1", "bf16", (256, 64), "{0,1}",
     "{1,0:T(8,128)(2,1)}", (8, 128), 2),
    # The last tile row partly outside the array: blocks across tile rows
    # up to row 250 (an edge block), then 6 padding rows; f32 T(4,128)
    # tiles (8 x 8 blocks across them), 30 of 32 rows.
    ("bf16_01_rows250", "bf16", (250, 256), "{0,1}", "{1,0:T(8,128)}",
     (8, 128), 1),
    ("f32_01_t4_rows30", "f32", (30, 256), "{0,1}", "{1,0:T(4,128)}",
     (4, 128), 1),
    # One tile column, both bounds: 250 rows of 64 columns (parallel
    # chunks of the merged tile rows, the padding rows in the last one).
    ("bf16_01_narrow_rows250", "bf16", (250, 64), "{0,1}", "{1,0:T(8,128)}",
     (8, 128), 1),
    # (2,1) sub-tiles: 250 rows group into 125 rows of pairs (3 padding
    # rows of the last T(4,128) tile), 72 of 128 columns in the last tile
    # column; 251 rows cannot group: the blocks of T(8,128), each pair of
    # rows stored interleaved (the last pair half padding).
    ("bf16_01_rows250_2x1", "bf16", (250, 200), "{0,1}",
     "{1,0:T(8,128)(2,1)}", (8, 128), 2),
    ("bf16_01_rows251_2x1", "bf16", (251, 200), "{0,1}",
     "{1,0:T(8,128)(2,1)}", (8, 128), 2),
    # Tiled into transposed tiles at odd extents, both ways: blocks across
    # both layouts' tile rows, the destination's tile columns middle dims;
    # its last tile column (44 of 128 rows' columns) peeled: the blocks up
    # to the array's edge, then padding vectors; the last tile row 4 of 8.
    ("bf16_t8x128_to_t01_odd", "bf16", (300, 260), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}", (8, 128), 1),
    ("bf16_t01_to_t8x128_odd", "bf16", (260, 300), "{0,1:T(8,128)}",
     "{1,0:T(8,128)}", (8, 128), 1),
    # f64 tiles of 8 rows (a whole block's side): the blocks are no taller
    # than a tile but walk p_k across tiles (groups of many tiles' rows),
    # both ways at odd extents, and the last tile row partly outside (45
    # rows: 5 of 8 in the last tile).
    ("f64_t8x128_to_t01_odd", "f64", (300, 260), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}", (8, 128), 1),
    ("f64_t01_to_t8x128_odd", "f64", (260, 300), "{0,1:T(8,128)}",
     "{1,0:T(8,128)}", (8, 128), 1),
    ("f64_01_rows45", "f64", (45, 200), "{0,1}", "{1,0:T(8,128)}",
     (8, 128), 1),
    # 4 and 3 of 128 columns in the last tile column: its blocks would be
    # shorter than a tile and than 16 elements (4 x 4), so that column
    # takes the level loops of the nest shifted onto it (unmerged blocks
    # inside a tile).
    ("bf16_t8x128_to_t01_col4", "bf16", (260, 300), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}", (8, 128), 1),
    ("bf16_t01_to_t8x128_col3", "bf16", (260, 259), "{0,1:T(8,128)}",
     "{1,0:T(8,128)}", (8, 128), 1),
    # Element groups along an odd extent that both layouts pad to a whole
    # group (ElementGroups::tailSlots): the groups move the last row's
    # pairs (quads) with their padding slots, which then get the padding
    # value. Each of the source's tail slots holds all-ones bits here
    # (GARBAGE_SOURCE), so a missing rewrite of any of them shows in both
    # sums.
    ("bf16_2x1_to_t01_rows251", "bf16", (251, 300), "{1,0:T(8,128)(2,1)}",
     "{0,1:T(8,128)}", (8, 128), 1),
    ("bf16_t01_to_2x1_rows251", "bf16", (251, 260), "{0,1:T(8,128)}",
     "{1,0:T(8,128)(2,1)}", (8, 128), 2),
    ("i8_4x1_to_t01_rows126", "i8", (126, 200), "{1,0:T(32,128)(4,1)}",
     "{0,1:T(8,128)}", (8, 128), 1),
    ("i8_t01_to_4x1_rows125", "i8", (125, 130), "{0,1:T(8,128)}",
     "{1,0:T(32,128)(4,1)}", (32, 128), 4),
    # Sub-tiles into untiled transposed rows along an odd extent (no
    # groups: column c starts at element c * rows): blocked transposes
    # reading each run of the sub-tile's rows as one vector (interleaved
    # runs), the overlapping last block starting inside a run. The
    # source's padding rows hold all-ones bits (GARBAGE_SOURCE): a run's
    # padding row stored past the column's end would show in the sums.
    ("bf16_2x1_to_01_rows251", "bf16", (251, 300), "{1,0:T(8,128)(2,1)}",
     "{0,1}", None, 1),
    ("i8_4x1_to_01_rows125", "i8", (125, 200), "{1,0:T(32,128)(4,1)}",
     "{0,1}", None, 1),
    ("i8_2x1_to_01_rows127", "i8", (127, 150), "{1,0:T(8,128)(2,1)}",
     "{0,1}", None, 1),
    # XLA's 8-bit T(32,128) tiles without sub-tiles: a tile twice as tall as
    # the 16 x 16 8-bit blocks (blocks a fraction of a tile, p_k across
    # tiles); tiled into transposed tiles both ways at
    # odd extents (the last tile row and tile column partly outside the
    # array), and a transposed source into tiles, 300 rows (the last tile
    # row 12 of 32).
    ("i8_t32x128_to_t01_odd", "i8", (300, 260), "{1,0:T(32,128)}",
     "{0,1:T(32,128)}", (32, 128), 1),
    ("i8_t01_to_t32x128_odd", "i8", (260, 300), "{0,1:T(32,128)}",
     "{1,0:T(32,128)}", (32, 128), 1),
    ("i8_01_to_t32x128_rows300", "i8", (300, 200), "{0,1}",
     "{1,0:T(32,128)}", (32, 128), 1),
]

# Cases whose source is built with its rows rounded up to whole groups
# (the same physical buffer: the layout pads the rows anyway), those
# extra rows all-ones bits, and then viewed at its real extent: every
# tail slot of its groups holds all-ones. name -> the source's tile and
# sub-tile rows, and the rows built.
GARBAGE_SOURCE = {
    "bf16_2x1_to_t01_rows251": ((8, 128), 2, 252),
    "bf16_t01_to_2x1_rows251": ((8, 128), 1, 252),
    "i8_4x1_to_t01_rows126": ((32, 128), 4, 128),
    "i8_t01_to_4x1_rows125": ((8, 128), 1, 128),
    "bf16_2x1_to_01_rows251": ((8, 128), 2, 256),
    "i8_4x1_to_01_rows125": ((32, 128), 4, 128),
    "i8_2x1_to_01_rows127": ((8, 128), 2, 128),
}


def ceil_div(a, b):
    return -(-a // b)


def physical(shape, layout, tile, sub):
    """The destination's physical dims and, per slot in order, the logical
    index it holds or None (a padding slot)."""
    rows, cols = shape
    if layout.startswith("{0,1"):
        rows, cols = cols, rows  # the physical rows hold logical dim 1
        swap = True
    else:
        swap = False
    if tile is None:  # untiled: the physical rows, back to back
        slots = [(c, r) if swap else (r, c)
                 for r in range(rows) for c in range(cols)]
        return [rows, cols], slots
    a, b = tile
    dims = [ceil_div(rows, a), ceil_div(cols, b)]
    if sub == 1:
        dims += [a, b]
    else:
        dims += [a // sub, b, sub, 1]
    slots = []
    for t0 in range(dims[0]):
        for t1 in range(dims[1]):
            for i in range(a // sub):
                for j in range(b):
                    for s in range(sub):
                        r, c = t0 * a + i * sub + s, t1 * b + j
                        if r >= rows or c >= cols:
                            slots.append(None)
                        else:
                            slots.append((c, r) if swap else (r, c))
    return dims, slots


def bits(elt, shape, index):
    linear = index[0] * shape[1] + index[1]
    return (linear * MUL + 1) % (1 << WIDTH[elt])


def check():
    for name, elt, shape, _, layout, tile, sub in CASES:
        _, slots = physical(shape, layout, tile, sub)
        total, ones = 0, 0
        for p, index in enumerate(slots):
            value = 0 if index is None else bits(elt, shape, index)
            total += (p + 1) * value
            ones += value == (1 << WIDTH[elt]) - 1
        total %= 1 << 64
        if total >= 1 << 63:
            total -= 1 << 64
        print("// CHECK-LABEL: case %s" % name)
        print("// CHECK-NEXT: %d" % total)
        print("// CHECK-NEXT: %d" % ones)


def memref(shape, elt, layout=None):
    text = "memref<%sx%s" % ("x".join(map(str, shape)), elt)
    if layout:
        text += ", #layout.tiled<%s>" % layout
    return text + ">"


def emit_case(name, elt, shape, src_layout, dst_layout, tile, sub):
    ity, w = INT[elt], WIDTH[elt]
    dims, slots = physical(shape, dst_layout, tile, sub)
    n = len(slots)
    rows, cols = shape
    plain, src = memref(shape, elt), memref(shape, elt, src_layout)
    dst, phys = memref(shape, elt, dst_layout), memref(dims, elt)
    flat = "memref<%dx%s>" % (n, elt)
    out = []
    emit = out.append
    garbage = GARBAGE_SOURCE.get(name)
    # The rows the source is built with (see GARBAGE_SOURCE).
    built = garbage[2] if garbage else rows
    plain_built = memref((built, cols), elt)
    src_built = memref((built, cols), elt, src_layout)
    emit("func.func @%s() {" % name)
    emit("  %%a = memref.alloc() {alignment = 64} : %s" % plain_built)
    emit("  %%sb = memref.alloc() {alignment = 64} : %s" % src_built)
    emit("  %%p = memref.alloc() {alignment = 64} : %s" % phys)
    emit("  %c0 = arith.constant 0 : index")
    emit("  %c1 = arith.constant 1 : index")
    emit("  %%rows = arith.constant %d : index" % built)
    emit("  %%cols = arith.constant %d : index" % cols)
    mul = MUL % (1 << w)  # as a signed integer of the element's width
    emit("  %%mul = arith.constant %d : %s"
         % (mul - (1 << w) if mul >= 1 << (w - 1) else mul, ity))
    emit("  %%one = arith.constant 1 : %s" % ity)
    emit("  scf.for %i = %c0 to %rows step %c1 {")
    emit("    scf.for %j = %c0 to %cols step %c1 {")
    emit("      %%l = affine.apply affine_map<(i, j) -> (i * %d + j)>(%%i, %%j)"
         % cols)
    emit("      %%li = arith.index_cast %%l : index to %s" % ity)
    emit("      %%m = arith.muli %%li, %%mul : %s" % ity)
    emit("      %%v = arith.addi %%m, %%one : %s" % ity)
    value = "%v"
    if garbage:
        # The extra rows: all-ones bits.
        emit("      %%last = arith.constant %d : index" % rows)
        emit("      %isl = arith.cmpi uge, %i, %last : index")
        emit("      %%allv = arith.constant -1 : %s" % ity)
        emit("      %%vg = arith.select %%isl, %%allv, %%v : %s" % ity)
        value = "%vg"
    if elt != ity:
        emit("      %%e = arith.bitcast %s : %s to %s" % (value, ity, elt))
        value = "%e"
    emit("      memref.store %s, %%a[%%i, %%j] : %s" % (value, plain_built))
    emit("    }")
    emit("  }")
    emit("  layout.relayout %%a, %%sb : %s, %s" % (plain_built, src_built))
    if garbage:
        sdims, _ = physical(shape, src_layout, *garbage[:2])
        sphys = memref(sdims, elt)
        emit("  %%sp = layout.to_physical %%sb : %s -> %s" % (src_built, sphys))
        emit("  %%s = layout.from_physical %%sp : %s -> %s" % (sphys, src))
        source = "%s"
    else:
        source = "%sb"
    emit("  %%f = memref.collapse_shape %%p [[%s]] : %s into %s"
         % (",".join(map(str, range(len(dims)))), phys, flat))
    emit("  %%n = arith.constant %d : index" % n)
    emit("  %%ones = arith.constant -1 : %s" % ity)
    emit("  scf.for %i = %c0 to %n step %c1 {")
    if elt != ity:
        emit("    %%e = arith.bitcast %%ones : %s to %s" % (ity, elt))
        emit("    memref.store %%e, %%f[%%i] : %s" % flat)
    else:
        emit("    memref.store %%ones, %%f[%%i] : %s" % flat)
    emit("  }")
    emit("  %%d = layout.from_physical %%p : %s -> %s" % (phys, dst))
    emit("  layout.relayout %s, %%d : %s, %s" % (source, src, dst))
    emit("  %z = arith.constant 0 : i64")
    emit("  %%all = arith.constant %d : i64" % ((1 << w) - 1 if w < 64 else -1))
    emit("  %sum, %cnt = scf.for %i = %c0 to %n step %c1"
         " iter_args(%acc = %z, %k = %z) -> (i64, i64) {")
    emit("    %%e = memref.load %%f[%%i] : %s" % flat)
    loaded = "%e"
    if elt != ity:
        emit("    %%b = arith.bitcast %%e : %s to %s" % (elt, ity))
        loaded = "%b"
    if w < 64:
        emit("    %%u = arith.extui %s : %s to i64" % (loaded, ity))
        loaded = "%u"
    emit("    %ii = arith.index_cast %i : index to i64")
    emit("    %o = arith.constant 1 : i64")
    emit("    %slot = arith.addi %ii, %o : i64")
    emit("    %%t = arith.muli %%slot, %s : i64" % loaded)
    emit("    %acc2 = arith.addi %acc, %t : i64")
    emit("    %%isall = arith.cmpi eq, %s, %%all : i64" % loaded)
    emit("    %inc = arith.extui %isall : i1 to i64")
    emit("    %k2 = arith.addi %k, %inc : i64")
    emit("    scf.yield %acc2, %k2 : i64, i64")
    emit("  }")
    emit("  vector.print str \"case %s\\n\"" % name)
    emit("  vector.print %sum : i64")
    emit("  vector.print %cnt : i64")
    emit("  memref.dealloc %a : " + plain_built)
    emit("  memref.dealloc %sb : " + src_built)
    emit("  memref.dealloc %p : " + phys)
    emit("  return")
    emit("}")
    return "\n".join(out)


def mlir():
    for case in CASES:
        print(emit_case(*case))
    print("func.func @main() {")
    for case in CASES:
        print("  func.call @%s() : () -> ()" % case[0])
    print("  return")
    print("}")


if __name__ == "__main__":
    {"mlir": mlir, "check": check}[sys.argv[1]]()
