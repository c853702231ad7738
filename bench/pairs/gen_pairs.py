#!/usr/bin/env python3
"""The layout pair matrix (docs/performance.md, "Layout pair matrix").

  gen_pairs.py large|small LAYOUT_EXPLAIN OUT_DIR

writes OUT_DIR/pairs.mlir (one memref relayout per cell of each matrix:
every source layout class into every destination class, the diagonal
included) and OUT_DIR/pairs.inc (the harness's table: C interface
declarations, names, physical sizes).

Each function takes the source's and the destination's physical buffers
as flat `memref<N x T>` (N: `layout-explain physical-shape`'s allocated
elements, padding slots included), views them in their layouts
(`memref.expand_shape` to the physical dims, `layout.from_physical`) and
relayouts one into the other.
"""
import json
import os
import subprocess
import sys

# Layout classes: (name, minor_to_major text). The sub-tiled class is the
# 16-bit one ((2,1): row pairs interleaved), so only the bf16 matrix has it.
ROW, PERM = ("row-major", "{1,0}"), ("permuted", "{0,1}")
TILED, TPERM = ("tiled", "{1,0:T(8,128)}"), ("tiled-permuted",
                                              "{0,1:T(8,128)}")
SUB = ("sub-tiled", "{1,0:T(8,128)(2,1)}")
# 8-bit sub-tiles: quads of rows ((4,1), XLA's 8-bit TPU tiles) and pairs.
SUB4 = ("sub-tiled-4", "{1,0:T(32,128)(4,1)}")
SUB2 = ("sub-tiled-2", "{1,0:T(8,128)(2,1)}")
TILED32 = ("tiled32", "{1,0:T(32,128)}")
TPERM32 = ("tiled32-permuted", "{0,1:T(32,128)}")

# Matrices: (name, element type, large shape, small shape, classes). The
# odd ones have no extent a multiple of 8 or 128: rows are not whole lines
# and every tiled layout has padding slots. The narrow one has rows of 64
# elements, half a tile.
MATRICES = [
    ("f32", "f32", (4096, 4096), (256, 256), [ROW, PERM, TILED, TPERM]),
    ("bf16", "bf16", (4096, 4096), (256, 256), [ROW, PERM, TILED, TPERM,
                                                 SUB]),
    ("f32_odd", "f32", (4093, 4099), (29, 291), [ROW, PERM, TILED, TPERM]),
    ("bf16_odd", "bf16", (4093, 4099), (29, 291), [ROW, PERM, TILED, TPERM,
                                                   SUB]),
    # 64 columns: the (8,128) tiles along the rows are half padding (tiles
    # partly outside the array), the permuted ones whole.
    ("bf16_narrow", "bf16", (65536, 64), (256, 64), [ROW, PERM, TILED,
                                                     TPERM, SUB]),
    # The other element widths at odd extents: 8-bit with both sub-tiles,
    # 64-bit.
    ("u8_odd", "u8", (4093, 4099), (29, 291), [ROW, PERM, TILED, TPERM, SUB4,
                                               SUB2]),
    ("f64_odd", "f64", (2045, 2051), (29, 291), [ROW, PERM, TILED, TPERM]),
    # XLA's 8-bit tiles without sub-tiles: T(32,128), 32 rows of 128 bytes
    # (a tile as tall as a 32 x 32 block of AVX-512 code).
    ("u8_t32", "u8", (4093, 4099), (29, 291), [ROW, PERM, TILED32, TPERM32]),
]
BYTES = {"f32": 4, "bf16": 2, "u8": 1, "f64": 8}
# The memref element type of an XLA element type, where they differ.
MEMREF_ELEMENT = {"u8": "i8"}


def physical(explain, elt, shape, layout):
    text = "%s[%s]%s" % (elt, ",".join(map(str, shape)), layout)
    out = subprocess.run([explain, "physical-shape", text, "--json"],
                         check=True, capture_output=True, text=True).stdout
    answer = json.loads(out)
    return answer["physical_dims"], answer["allocated_elements"]


def memref(shape, elt, layout=None):
    t = "memref<%s%s" % ("".join("%dx" % d for d in shape),
                         MEMREF_ELEMENT.get(elt, elt))
    if layout and layout != "{1,0}":
        t += ", #layout.tiled<%s>" % layout
    return t + ">"


def cell(explain, fname, elt, shape, src, dst):
    lines, params, views = [], [], []
    sizes = []
    for arg, layout in (("src", src), ("dst", dst)):
        dims, n = physical(explain, elt, shape, layout)
        sizes.append(n)
        flat = memref([n], elt)
        params.append("%%%s_f: %s" % (arg, flat))
        assoc = "[[%s]]" % ", ".join(str(i) for i in range(len(dims)))
        lines.append("  %%%s_p = memref.expand_shape %%%s_f %s output_shape "
                     "[%s] : %s into %s" % (arg, arg, assoc,
                                            ", ".join(map(str, dims)), flat,
                                            memref(dims, elt)))
        view = "%%%s_p" % arg
        if layout != "{1,0}":
            lines.append("  %%%s_m = layout.from_physical %%%s_p : %s -> %s" %
                         (arg, arg, memref(dims, elt),
                          memref(shape, elt, layout)))
            view = "%%%s_m" % arg
        views.append(view)
    lines.append("  layout.relayout %s, %s : %s, %s" %
                 (views[0], views[1], memref(shape, elt, src),
                  memref(shape, elt, dst)))
    head = ("func.func @%s(%s) attributes {llvm.emit_c_interface} {" %
            (fname, ", ".join(params)))
    return "\n".join([head] + lines + ["  return", "}"]), sizes


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("large", "small"):
        sys.exit(__doc__)
    large = sys.argv[1] == "large"
    explain, out = sys.argv[2], sys.argv[3]
    funcs, cells = [], []
    for mname, elt, lshape, sshape, classes in MATRICES:
        shape = lshape if large else sshape
        for i, (sname, src) in enumerate(classes):
            for j, (dname, dst) in enumerate(classes):
                fname = "pair_%s_%d_%d" % (mname, i, j)
                text, sizes = cell(explain, fname, elt, shape, src, dst)
                funcs.append(text)
                cells.append((fname, mname, elt, shape, sname, dname, sizes))
    with open(os.path.join(out, "pairs.mlir"), "w") as f:
        f.write("\n\n".join(funcs) + "\n")
    with open(os.path.join(out, "pairs.inc"), "w") as f:
        f.write("// Generated by bench/pairs/gen_pairs.py.\n")
        for fname, *_ in cells:
            for prefix in ("", "scalar_"):
                f.write("extern \"C\" void _mlir_ciface_%s%s(Desc *, Desc *);"
                        "\n" % (prefix, fname))
        f.write("static const PairSpec kPairs[] = {\n")
        for fname, mname, elt, shape, sname, dname, sizes in cells:
            f.write("    {\"%s\", \"%s[%s]\", \"%s\", \"%s\", %d, %d, %d, "
                    "_mlir_ciface_%s, _mlir_ciface_scalar_%s},\n" %
                    (mname, elt, ",".join(map(str, shape)), sname, dname,
                     BYTES[elt], sizes[0], sizes[1], fname, fname))
        f.write("};\n")


if __name__ == "__main__":
    main()
