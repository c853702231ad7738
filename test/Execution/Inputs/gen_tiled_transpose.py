#!/usr/bin/env python3
"""Execution test of the blocked transposes between tiled and transposed
layouts (TransposeBlocks.cpp, blocks aligned within the source's tiles).

  gen_tiled_transpose.py mlir [SET]  > cases.mlir
  gen_tiled_transpose.py check [SET] > expected.txt

SET: `transposes` (the default, CASES), `subtiles` (SUBTILE_CASES: the
rows along (2,1) and (4,1) sub-tiles, no transposes), `grouped`
(GROUPED_CASES: sub-tiles against crossing layouts, as element groups) or
`stores` (STORE_CASES: into sub-tiles from crossing layouts whose groups do
not exist, interleaved stores; their padding slots checked too).

Every case fills a row-major buffer (element bits (linear * 40503 + 1) mod
2^width, plus linear / 256 for 8-bit elements), relayouts it into the source layout, relayouts that into the
destination layout (the copy under test), relayouts the destination back
into a fresh row-major buffer, and counts the elements that differ from
the first buffer with explicit loops. It prints that count (0) and three
elements whose bits `check` computes here in Python.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_transpose import (MUL, WIDTH, index_consts, loops, memref,  # noqa: E402
                           prod, spots)

WIDTH = dict(WIDTH, i16=16, f16=16)

CASES = [
    # name, element type, logical shape, source layout, destination layout
    ("f32_t8x128_to_01", "f32", (64, 256), "{1,0:T(8,128)}", "{0,1}"),
    # Padding slots in the source tiles; odd extents along both block dims
    # (edge rows past the last whole block, overlapping edge blocks).
    ("f32_t8x128_odd_to_01", "f32", (29, 291), "{1,0:T(8,128)}", "{0,1}"),
    ("f32_t8x8_to_01", "f32", (40, 24), "{1,0:T(8,8)}", "{0,1}"),
    # Destination rows of 45 f32 from 8 x 8 blocks two per line: realigned
    # lines whose shifts alternate with the block's residue (streaming).
    ("f32_t8x128_to_01_odd_rows", "f32", (45, 70), "{1,0:T(8,128)}", "{0,1}"),
    ("f32_t4x16_to_01", "f32", (20, 50), "{1,0:T(4,16)}", "{0,1}"),
    ("f32_t8x128_to_t01", "f32", (128, 256), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}"),
    ("f32_t8x128_odd_to_t01", "f32", (37, 300), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}"),
    ("f32_3d_t8x128_to_120", "f32", (3, 40, 136), "{2,1,0:T(8,128)}",
     "{1,2,0}"),
    # Into tiles from a crossing source: the walk reordered into tiles
    # (tile columns outermost) around blocked transposes of each tile;
    # with padding slots in the tiles (rows, no blocks); a row-major source
    # into transposed tiles; (2,1) sub-tiles; 3-D.
    ("f32_01_to_t8x128", "f32", (128, 256), "{0,1}", "{1,0:T(8,128)}"),
    ("f32_01_to_t8x128_odd", "f32", (37, 300), "{0,1}", "{1,0:T(8,128)}"),
    ("f32_10_to_t01", "f32", (128, 256), "{1,0}", "{0,1:T(8,128)}"),
    ("bf16_01_to_t8x128_2x1", "bf16", (64, 256), "{0,1}",
     "{1,0:T(8,128)(2,1)}"),
    ("f32_3d_120_to_t8x128", "f32", (3, 40, 256), "{1,2,0}",
     "{2,1,0:T(8,128)}"),
    # Blocks across tile rows (TileRowBlocks.cpp: tiles of fewer rows than
    # a vector's lanes, from a source contiguous across them): 5 bf16 tile
    # rows (an edge block of 16 rows straddling two tiles), a row-major
    # source into transposed tiles, i8 T(16,128) (16 x 16 blocks, a tile
    # tall), and (2,1) sub-tiles whose 32-bit groups make T(4,128) tiles
    # (9 of them, 8 x 8 blocks).
    ("bf16_01_to_t8x128_5tiles", "bf16", (40, 256), "{0,1}",
     "{1,0:T(8,128)}"),
    ("bf16_10_to_t01_5tiles", "bf16", (256, 40), "{1,0}",
     "{0,1:T(8,128)}"),
    ("i8_01_to_t16x128", "i8", (48, 256), "{0,1}", "{1,0:T(16,128)}"),
    ("bf16_01_to_2x1_9tiles", "bf16", (72, 128), "{0,1}",
     "{1,0:T(8,128)(2,1)}"),
    # Tiled into transposed tiles, both of fewer rows than a vector has
    # lanes: blocks across the destination's tile rows with its tile
    # columns as middle dims, each block's rows crossing the source's tiles
    # at constant offsets (getAlignedOffsets); bf16 both ways, i8 (16 x 16
    # blocks over 2 tiles on each side), a batch dim outside, and odd
    # extents in one destination tile column (padding along both bounds).
    ("bf16_t8x128_to_t01", "bf16", (256, 512), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}"),
    ("bf16_t01_to_t8x128", "bf16", (512, 256), "{0,1:T(8,128)}",
     "{1,0:T(8,128)}"),
    ("i8_t8x128_to_t01", "i8", (256, 256), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}"),
    ("bf16_3d_t8x128_to_t01", "bf16", (2, 128, 256), "{2,1,0:T(8,128)}",
     "{1,2,0:T(8,128)}"),
    ("bf16_t8x128_odd_to_t01", "bf16", (37, 300), "{1,0:T(8,128)}",
     "{0,1:T(8,128)}"),
    ("f64_t8x128_to_01", "f64", (24, 136), "{1,0:T(8,128)}", "{0,1}"),
    # f64 into tiles of 4 rows (32 bytes): 8 x 8 blocks across two tile
    # rows with 8-lane vectors (TileRowBlocks.cpp), 22 rows (a partial
    # last tile).
    ("f64_01_to_t4x128", "f64", (22, 136), "{0,1}", "{1,0:T(4,128)}"),
    ("i16_t16x128_to_01", "i16", (48, 130), "{1,0:T(16,128)}", "{0,1}"),
    ("bf16_t8x128_2x1_to_01", "bf16", (40, 130), "{1,0:T(8,128)(2,1)}",
     "{0,1}"),
    ("i8_t32x128_to_01", "i8", (64, 160), "{1,0:T(32,128)}", "{0,1}"),
]


# Sub-tiles against the layouts whose rows run along them (no transpose):
# interleaved rows from a tiled source (steps within its tiles), whole
# vectors from the same sub-tiles, strided rows out of sub-tiles into tiles
# and into row-major lines (NestEmitter::RowRead), the flat copy of two
# equal sub-tiled buffers; (2,1) and (4,1), odd extents with padding slots.
SUBTILE_CASES = [
    ("bf16_t8x128_to_2x1", "bf16", (64, 256), "{1,0:T(8,128)}",
     "{1,0:T(8,128)(2,1)}"),
    ("bf16_t8x128_to_2x1_odd", "bf16", (37, 300), "{1,0:T(8,128)}",
     "{1,0:T(8,128)(2,1)}"),
    ("i8_t32x128_to_4x1", "i8", (64, 256), "{1,0:T(32,128)}",
     "{1,0:T(32,128)(4,1)}"),
    ("i8_t32x128_to_4x1_odd", "i8", (45, 200), "{1,0:T(32,128)}",
     "{1,0:T(32,128)(4,1)}"),
    ("bf16_2x1_to_t8x128", "bf16", (64, 256), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(8,128)}"),
    ("bf16_2x1_to_t8x128_odd", "bf16", (37, 300), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(8,128)}"),
    ("i8_4x1_to_t32x128", "i8", (64, 256), "{1,0:T(32,128)(4,1)}",
     "{1,0:T(32,128)}"),
    ("i8_4x1_to_t32x128_odd", "i8", (45, 200), "{1,0:T(32,128)(4,1)}",
     "{1,0:T(32,128)}"),
    # Rows of tiles whose runs streaming nests prefetch tiles ahead
    # (test/Conversion/subtile-rows.mlir): several rows of tiles, into
    # shorter tiles than the source's and into taller ones (positions
    # ahead in padding rows the source does not hold).
    ("i8_4x1_to_t8x128_odd", "i8", (67, 1029), "{1,0:T(32,128)(4,1)}",
     "{1,0:T(8,128)}"),
    ("i8_2x1_to_t32x128_odd", "i8", (37, 300), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(32,128)}"),
    ("bf16_2x1_to_10", "bf16", (64, 256), "{1,0:T(8,128)(2,1)}", "{1,0}"),
    ("i8_4x1_to_10", "i8", (64, 256), "{1,0:T(32,128)(4,1)}", "{1,0}"),
    # Odd row-major lines (staged rows, whose runs streaming nests also
    # prefetch rows ahead: test/Conversion/subtile-rows.mlir), and tile
    # rows of 200 bytes (staged, not prefetched).
    ("bf16_2x1_to_10_odd", "bf16", (37, 300), "{1,0:T(8,128)(2,1)}",
     "{1,0}"),
    ("i8_4x1_to_10_odd", "i8", (45, 200), "{1,0:T(32,128)(4,1)}", "{1,0}"),
    ("i8_2x1_to_10_odd", "i8", (29, 291), "{1,0:T(8,128)(2,1)}", "{1,0}"),
    ("f32_2x1_to_10_odd", "f32", (19, 261), "{1,0:T(8,128)(2,1)}", "{1,0}"),
    ("f64_2x1_to_10_odd", "f64", (13, 140), "{1,0:T(8,128)(2,1)}", "{1,0}"),
    ("bf16_2x1_to_t8x100_odd", "bf16", (37, 300), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(8,100)}"),
    # Sub-tiles without outer tiles: plain strided rows (no runs), built
    # once per slot of the row.
    ("i8_t4x1_to_10_odd", "i8", (30, 200), "{1,0:T(4,1)}", "{1,0}"),
    ("f32_2x1_to_t8x128", "f32", (16, 256), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(8,128)}"),
    ("f64_2x1_to_t8x128_odd", "f64", (13, 140), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(8,128)}"),
    ("bf16_3d_2x1_to_t8x128", "bf16", (3, 16, 256), "{2,1,0:T(8,128)(2,1)}",
     "{2,1,0:T(8,128)}"),
    ("bf16_2x1_same_odd", "bf16", (37, 300), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(8,128)(2,1)}"),
    ("i8_4x1_same_odd", "i8", (45, 200), "{1,0:T(32,128)(4,1)}",
     "{1,0:T(32,128)(4,1)}"),
    ("i16_2x1_same", "i16", (64, 256), "{1,0:T(8,128)(2,1)}",
     "{1,0:T(8,128)(2,1)}"),
    # Tiles partly outside the array along the row (64 of 128 columns, 96,
    # 64 rows of {0,1}): interleaved rows up to the last column, then whole
    # vectors of padding; 70 columns (not a multiple of the vectors' step)
    # keep the plain loops for that tile.
    ("bf16_10_to_2x1_half", "bf16", (40, 64), "{1,0}", "{1,0:T(8,128)(2,1)}"),
    ("i8_10_to_4x1_part", "i8", (64, 96), "{1,0}", "{1,0:T(32,128)(4,1)}"),
    ("i8_10_to_2x1_half", "i8", (24, 64), "{1,0}", "{1,0:T(8,128)(2,1)}"),
    ("bf16_01_to_t01_2x1_half", "bf16", (64, 40), "{0,1}",
     "{0,1:T(8,128)(2,1)}"),
    ("bf16_10_to_2x1_odd_part", "bf16", (40, 70), "{1,0}",
     "{1,0:T(8,128)(2,1)}"),
]

# Sub-tiles against layouts whose byte order crosses them but keeps their
# groups together (GroupedRelayout.cpp): the relayout of the 32- or 16-bit
# groups, a blocked transpose or rows in runs; even and odd extents along
# the other dim (padding slots), 3-D, (2,1) on i8 (16-bit groups), and an
# odd extent along the groups' dim (not grouped: interleaved stores, the
# `stores` set).
GROUPED_CASES = [
    ("bf16_01_to_2x1", "bf16", (64, 256), "{0,1}", "{1,0:T(8,128)(2,1)}"),
    ("bf16_01_to_2x1_odd", "bf16", (38, 300), "{0,1}",
     "{1,0:T(8,128)(2,1)}"),
    ("bf16_t01_to_2x1", "bf16", (64, 256), "{0,1:T(8,128)}",
     "{1,0:T(8,128)(2,1)}"),
    ("bf16_t01_to_2x1_odd", "bf16", (38, 130), "{0,1:T(8,128)}",
     "{1,0:T(8,128)(2,1)}"),
    ("bf16_2x1_to_01", "bf16", (64, 256), "{1,0:T(8,128)(2,1)}", "{0,1}"),
    ("bf16_2x1_to_t01_odd", "bf16", (40, 300), "{1,0:T(8,128)(2,1)}",
     "{0,1:T(8,128)}"),
    ("f16_2x1_to_01_odd", "f16", (42, 77), "{1,0:T(8,128)(2,1)}", "{0,1}"),
    ("i8_01_to_4x1", "i8", (64, 256), "{0,1}", "{1,0:T(32,128)(4,1)}"),
    ("i8_4x1_to_01_odd", "i8", (36, 200), "{1,0:T(32,128)(4,1)}", "{0,1}"),
    ("i8_01_to_2x1", "i8", (64, 256), "{0,1}", "{1,0:T(32,128)(2,1)}"),
    ("bf16_3d_120_to_2x1", "bf16", (3, 16, 256), "{1,2,0}",
     "{2,1,0:T(8,128)(2,1)}"),
    ("bf16_01_to_2x1_odd_rows", "bf16", (37, 300), "{0,1}",
     "{1,0:T(8,128)(2,1)}"),
]

# Into (q,1) sub-tiles from an untiled source whose minor dim is the one
# the sub-tile interleaves, at extents that form no element groups (a row
# count that is not a multiple of q): the blocked transpose of the tiles
# without the sub-tile, each run of q rows stored interleaved
# (InterleavedStoreBlocks.cpp). (4,1) and (2,1) on i8, (2,1) on bf16, f16
# and i16; rows past the array in the last run (q - R mod q of them),
# padding tile rows and columns, a last tile column of a few columns, one
# tile column only, tiles of 4 rows (a run per tile), edge blocks along
# both dims, 3-D with a batch dim. The destination's padding slots are
# filled with 0xA5 bytes before the copy and must hold zeros after it.
STORE_CASES = [
    ("i8_01_to_4x1_odd", "i8", (67, 291), "{0,1}", "{1,0:T(32,128)(4,1)}"),
    ("i8_01_to_4x1_tall", "i8", (259, 300), "{0,1}",
     "{1,0:T(32,128)(4,1)}"),
    ("i8_01_to_4x1_one_column", "i8", (45, 100), "{0,1}",
     "{1,0:T(32,128)(4,1)}"),
    ("i8_01_to_4x1_t16", "i8", (125, 131), "{0,1}", "{1,0:T(16,128)(4,1)}"),
    ("i8_01_to_4x1_t4", "i8", (77, 130), "{0,1}", "{1,0:T(4,128)(4,1)}"),
    ("i8_01_to_2x1_t32", "i8", (101, 517), "{0,1}", "{1,0:T(32,128)(2,1)}"),
    ("i8_01_to_2x1_t8", "i8", (37, 300), "{0,1}", "{1,0:T(8,128)(2,1)}"),
    ("bf16_01_to_2x1_odd", "bf16", (37, 300), "{0,1}",
     "{1,0:T(8,128)(2,1)}"),
    ("f16_01_to_2x1_t16x64", "f16", (61, 77), "{0,1}",
     "{1,0:T(16,64)(2,1)}"),
    ("i16_01_to_2x1_edge", "i16", (33, 1000), "{0,1}",
     "{1,0:T(8,128)(2,1)}"),
    ("i8_3d_120_to_4x1", "i8", (3, 45, 140), "{1,2,0}",
     "{2,1,0:T(32,128)(4,1)}"),
]

SETS = {"transposes": CASES, "subtiles": SUBTILE_CASES,
        "grouped": GROUPED_CASES, "stores": STORE_CASES}


def sub_tiled_physical(shape, layout):
    """The physical dims of `shape` in a layout `{n-1,...,0:T(a,b)(q,1)}`:
    the leading dims, the tile rows and columns, then a / q, b, q, 1."""
    tiles = layout[layout.index(":") + 3:-2].split(")(")
    (a, b), (q, _) = [tuple(map(int, t.split(","))) for t in tiles]
    *lead, rows, cols = shape
    return tuple(lead) + (-(-rows // a), -(-cols // b), a // q, b, q, 1)


def padding_function(name, elt, shape, layout):
    """@NAME_fill(dst) fills the physical buffer of a `layout` memref with
    0xA5 bytes; @NAME_padding(dst, row) returns the sum of its slots (as
    unsigned integers) minus the sum of the array's: 0 when every padding
    slot holds zero."""
    w = WIDTH[elt]
    it = "i%d" % w
    phys = sub_tiled_physical(shape, layout)
    dst_t, plain, phys_t = (memref(shape, elt, layout), memref(shape, elt),
                            memref(phys, elt))
    consts = ["  %%c%d = arith.constant %d : index" % (c, c)
              for c in sorted(set(phys) | set(shape) | {0, 1})]
    o = ["func.func @%s_fill(%%dst: %s) {" % (name, dst_t)] + consts
    o.append("  %%p = layout.to_physical %%dst : %s -> %s" % (dst_t, phys_t))
    o.append("  %%fill_i = arith.constant %d : %s" %
             (int("a5" * (w // 8), 16) - (1 << w), it))
    v = "%fill_i"
    if not elt.startswith("i"):
        o.append("  %%fill = arith.bitcast %%fill_i : %s to %s" % (it, elt))
        v = "%fill"
    loops(o, phys, lambda ivs, ind: o.append(
        "%smemref.store %s, %%p[%s] : %s" % (ind, v, ", ".join(ivs), phys_t)))
    o.append("  return\n}")
    o.append("func.func @%s_padding(%%dst: %s, %%row: %s) -> i64 {" %
             (name, dst_t, plain))
    o += consts
    o.append("  %c0_i64 = arith.constant 0 : i64")
    o.append("  %%p = layout.to_physical %%dst : %s -> %s" % (dst_t, phys_t))

    def summed(buffer, t, ivs, ind):
        o.append("%s%%x = memref.load %s[%s] : %s" %
                 (ind, buffer, ", ".join(ivs), t))
        x = "%x"
        if not elt.startswith("i"):
            o.append("%s%%xb = arith.bitcast %%x : %s to %s" % (ind, elt, it))
            x = "%xb"
        o.append("%s%%x64 = arith.extui %s : %s to i64" % (ind, x, it))
        o.append("%s%%s%d = arith.addi %%a%d, %%x64 : i64" %
                 (ind, len(ivs), len(ivs) - 1))

    # (Two functions' worth of sums: the loops name their sums %s0 ...)
    loops(o, phys, lambda ivs, ind: summed("%p", phys_t, ivs, ind),
          iters="%c0_i64")
    o.append("  %total = arith.addi %s0, %c0_i64 : i64")
    o.append("  return %total : i64\n}")
    o.append("func.func @%s_values(%%row: %s) -> i64 {" % (name, plain))
    o += consts
    o.append("  %c0_i64 = arith.constant 0 : i64")
    loops(o, shape, lambda ivs, ind: summed("%row", plain, ivs, ind),
          iters="%c0_i64")
    o.append("  return %s0 : i64\n}")
    return "\n".join(o)


def case_mlir(name, elt, shape, src_layout, dst_layout, pad_check=False):
    w = WIDTH[elt]
    it = "i%d" % w
    plain = memref(shape, elt)
    src_t = memref(shape, elt, src_layout)
    dst_t = memref(shape, elt, dst_layout)
    o = ["func.func @%s() {" % name]
    for v, t in (("row", plain), ("src", src_t), ("dst", dst_t),
                 ("back", plain)):
        o.append("  %%%s = memref.alloc() {alignment = 64} : %s" % (v, t))

    def fill(ivs, ind):
        expr = " + ".join("d%d * %d" % (k, prod(shape[k + 1:]))
                          for k in range(len(shape)))
        o.append("%s%%lin = affine.apply affine_map<(%s) -> (%s)>(%s)" %
                 (ind, ", ".join("d%d" % k for k in range(len(shape))), expr,
                  ", ".join(ivs)))
        o.append("%s%%l64 = arith.index_cast %%lin : index to i64" % ind)
        o.append("%s%%m = arith.muli %%l64, %%cmul : i64" % ind)
        o.append("%s%%m0 = arith.addi %%m, %%c1_i64 : i64" % ind)
        # 8-bit values repeat every 256 elements: + lin / 256 tells apart
        # the rows of a 256-wide i8 array.
        o.append("%s%%hi = arith.shrui %%l64, %%c8_i64 : i64" % ind)
        o.append("%s%%m1 = arith.addi %%m0, %%hi : i64" % ind
                 if w == 8 else "%s%%m1 = arith.addi %%m0, %%c0_i64 : i64" %
                 ind)
        o.append("%s%%bits = arith.trunci %%m1 : i64 to %s" % (ind, it)
                 if w < 64 else "%s%%bits = arith.addi %%m1, %%c0_i64 : i64" %
                 ind)
        v = "%bits"
        if not elt.startswith("i"):
            o.append("%s%%v = arith.bitcast %%bits : %s to %s" % (ind, it, elt))
            v = "%v"
        o.append("%smemref.store %s, %%row[%s] : %s" %
                 (ind, v, ", ".join(ivs), plain))

    loops(o, shape, fill)
    o.append("  layout.relayout %%row, %%src : %s, %s" % (plain, src_t))
    if pad_check:
        o.append("  call @%s_fill(%%dst) : (%s) -> ()" % (name, dst_t))
    o.append("  layout.relayout %%src, %%dst : %s, %s" % (src_t, dst_t))
    o.append("  layout.relayout %%dst, %%back : %s, %s" % (dst_t, plain))

    def check(ivs, ind):
        for v in ("x", "y"):
            o.append("%s%%%s = memref.load %%%s[%s] : %s" %
                     (ind, v, "row" if v == "x" else "back", ", ".join(ivs),
                      plain))
            if not elt.startswith("i"):
                o.append("%s%%%s_b = arith.bitcast %%%s : %s to %s" %
                         (ind, v, v, elt, it))
            else:
                o.append("%s%%%s_b = arith.addi %%%s, %%%s : %s" %
                         (ind, v, v, v, it))
        o.append("%s%%ne = arith.cmpi ne, %%x_b, %%y_b : %s" % (ind, it))
        o.append("%s%%ne64 = arith.extui %%ne : i1 to i64" % ind)
        o.append("%s%%s%d = arith.addi %%a%d, %%ne64 : i64" %
                 (ind, len(shape), len(shape) - 1))

    loops(o, shape, check, iters="%c0_i64")
    o.append('  vector.print str "%s mismatches: "' % name)
    o.append("  vector.print %s0 : i64")
    for idx in spots(shape):
        v = "%%q%s" % "_".join(map(str, idx))
        o.append("  %s = memref.load %%back[%s] : %s" % (
            v, ", ".join("%%c%d" % c for c in idx), plain))
        if not elt.startswith("i"):
            o.append("  %s_b = arith.bitcast %s : %s to %s" % (v, v, elt, it))
            v += "_b"
        if w < 64:
            o.append("  %s_u = arith.extui %s : %s to i64" % (v, v, it))
            v += "_u"
        o.append("  vector.print %s : i64" % v)
    if pad_check:
        o.append("  %%all = call @%s_padding(%%dst, %%row) : (%s, %s) -> i64"
                 % (name, dst_t, plain))
        o.append("  %%vals = call @%s_values(%%row) : (%s) -> i64" %
                 (name, plain))
        o.append("  %pad = arith.subi %all, %vals : i64")
        o.append('  vector.print str "%s padding: "' % name)
        o.append("  vector.print %pad : i64")
    for v, t in (("row", plain), ("src", src_t), ("dst", dst_t),
                 ("back", plain)):
        o.append("  memref.dealloc %%%s : %s" % (v, t))
    o.append("  return\n}")
    return "\n".join(o)


def expected(elt, shape, idx):
    lin = 0
    for k, i in enumerate(idx):
        lin = lin * shape[k] + i
    return (lin * MUL + 1 + (lin >> 8 if WIDTH[elt] == 8 else 0)) % (
        1 << WIDTH[elt])


def consts(cases):
    return index_consts((case[2] for case in cases), extra=(0, 1))


def main():
    if (len(sys.argv) not in (2, 3) or sys.argv[1] not in ("mlir", "check")
            or (len(sys.argv) == 3 and sys.argv[2] not in SETS)):
        sys.exit(__doc__)
    which = sys.argv[2] if len(sys.argv) == 3 else "transposes"
    cases = SETS[which]
    pad_check = which == "stores"
    if sys.argv[1] == "check":
        for name, elt, shape, _, _ in cases:
            print("CHECK: %s mismatches: 0" % name)
            for idx in spots(shape):
                print("CHECK-NEXT: %d" % expected(elt, shape, idx))
            if pad_check:
                print("CHECK-NEXT: %s padding: 0" % name)
        print("CHECK-NOT: mismatches")
        return
    body = []
    for case in cases:
        if pad_check:
            body.append(padding_function(*case[:3], case[4]))
        head, rest = case_mlir(*case, pad_check=pad_check).split("\n", 1)
        body.append("\n".join([head] + consts(cases) + [
            "  %%cmul = arith.constant %d : i64" % MUL,
            "  %c0_i64 = arith.constant 0 : i64",
            "  %c1_i64 = arith.constant 1 : i64",
            "  %c8_i64 = arith.constant 8 : i64", rest]))
    main_lines = ["func.func @main() {"]
    for name, _, _, _, _ in cases:
        main_lines.append("  call @%s() : () -> ()" % name)
    main_lines.append("  return\n}")
    print("\n\n".join(body + ["\n".join(main_lines)]))


if __name__ == "__main__":
    main()
