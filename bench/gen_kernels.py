#!/usr/bin/env python3
"""Instantiates the benchmark kernels (kernels/ours.mlir.in,
upstream/upstream.mlir.in) for the benchmark sizes (`large`, the default:
4096x4096, 4093x4099, 64x256x1024) or the `small` ones of the lit test
(256x256, 29x291, 4x8x64; permutations of 32x20x40 and 17x3x20x18).

It also writes the permutation suite (PERMS below, TTC-style 3-D and 4-D
transpositions of f32 and bf16 tensors, including ones where the
fastest-varying dimension changes) into both files, and OUT_DIR/perm_cases.inc
(one PERM_CASE(name, type, rank, p0, p1, p2, p3) line each) for bench.cpp.

The planner's cases (kernels/planner.mlir.in, compiled with
--layout-fold-relayouts; upstream/planner.mlir.in, appended to
upstream.mlir) go to OUT_DIR/planner.mlir.

usage: gen_kernels.py {large,small} OUT_DIR
       -> OUT_DIR/{ours,upstream,planner,raised}.mlir, OUT_DIR/perm_cases.inc
"""
import os
import sys


def sizes(kind):
    if kind == "large":
        r, ro, co, b = 4096, 4093, 4099, (64, 256, 1024)
    elif kind == "small":
        r, ro, co, b = 256, 29, 291, (4, 8, 64)
    else:
        sys.exit("size must be large or small")
    cdiv = lambda a, t: -(-a // t)
    return {"R": r, "C": r, "P0": r // 8, "P1": r // 128,
            # {0,1:T(8,128)}: tiles over the transposed matrix [C][R].
            "PT0": r // 8, "PT1": r // 128,
            "RO": ro, "CO": co, "PO0": cdiv(ro, 8), "PO1": cdiv(co, 128),
            "Q0": r // 16, "Q1": r // 64, "B0": b[0], "B1": b[1], "B2": b[2],
            # The planner's chunk copy: tiles of 8 x TW (runs of TW
            # elements), W0 tiles per row.
            "TW": r // 8, "W0": 8}


# (name, element type, physical order): destination physical dim k holds
# logical dim perm[k] (minor_to_major is the reverse); the source is
# row-major. 3-D shapes are B0xB1xB2, 4-D ones D0xD1xD2xD3.
PERMS = [
    ("perm3_021", "f32", (0, 2, 1)),
    ("perm3_102", "f32", (1, 0, 2)),
    ("perm3_120", "f32", (1, 2, 0)),
    ("perm3_201", "f32", (2, 0, 1)),
    ("perm3_210", "f32", (2, 1, 0)),
    ("perm4_0213", "f32", (0, 2, 1, 3)),
    ("perm4_1032", "f32", (1, 0, 3, 2)),
    ("perm4_3210", "f32", (3, 2, 1, 0)),
    ("perm3_021_bf16", "bf16", (0, 2, 1)),
    ("perm3_210_bf16", "bf16", (2, 1, 0)),
    ("perm4_0213_bf16", "bf16", (0, 2, 1, 3)),
    # Odd extents (no extent a power of two, rows not whole lines): the
    # shapes of ODD_SHAPES below.
    ("perm3_021_odd", "f32", (0, 2, 1)),
    ("perm3_210_odd", "f32", (2, 1, 0)),
    ("perm4_3210_odd", "f32", (3, 2, 1, 0)),
    ("perm3_021_odd_bf16", "bf16", (0, 2, 1)),
    # 8-bit rows of 257 bytes whose planes move their alignment by odd
    # amounts (64 sets of row shifts: staged destination rows).
    ("perm3_021_odd_i8", "i8", (0, 2, 1)),
]

# Shapes of the *_odd cases: 63x257x1021 (the issue tracker's) and
# 31x63x65x129; small: 5x17x23 and 3x5x7x9.
ODD_SHAPES = {("large", 3): (63, 257, 1021), ("large", 4): (31, 63, 65, 129),
              ("small", 3): (5, 17, 23), ("small", 4): (3, 5, 7, 9)}


def perm_shape(kind, rank):
    # small: the transposing permutations take 16 x 16 blocks (f32 and bf16
    # at the default 64-byte vectors) with aligned rows (32) and with edges
    # and misaligned rows (17, 18, 20, 40: not multiples of 16).
    if rank == 3:
        return (64, 256, 1024) if kind == "large" else (32, 20, 40)
    return (32, 32, 128, 128) if kind == "large" else (17, 3, 20, 18)


def memref(shape, elt, layout=None):
    text = "memref<%s%s" % ("".join("%dx" % d for d in shape), elt)
    return text + (", #layout.tiled<%s>>" % layout if layout else ">")


def perm_kernels(kind):
    """Our kernels and upstream's (linalg.transpose) for PERMS."""
    ours, up, cases = [], [], []
    for name, elt, perm in PERMS:
        shape = (ODD_SHAPES[(kind, len(perm))] if "_odd" in name
                 else perm_shape(kind, len(perm)))
        phys = tuple(shape[p] for p in perm)
        m2m = "{%s}" % ",".join(str(d) for d in reversed(perm))
        src, dst = memref(shape, elt), memref(phys, elt)
        tiled = memref(shape, elt, m2m)
        ours.append(
            "func.func @%s(%%src: %s, %%dst: %s)\n"
            "    attributes {llvm.emit_c_interface} {\n"
            "  %%d = layout.from_physical %%dst : %s -> %s\n"
            "  layout.relayout %%src, %%d : %s, %s\n"
            "  return\n}\n" % (name, src, dst, dst, tiled, src, tiled))
        up.append(
            "func.func @up_%s(%%src: %s, %%dst: %s)\n"
            "    attributes {llvm.emit_c_interface} {\n"
            "  linalg.transpose ins(%%src : %s) outs(%%dst : %s)\n"
            "      permutation = [%s]\n"
            "  return\n}\n" % (name, src, dst, src, dst,
                                ", ".join(str(p) for p in perm)))
        p = list(perm) + [0] * (4 - len(perm))
        s = list(shape) + [1] * (4 - len(shape))
        cases.append("PERM_CASE(%s, %s, %d, %s, %s)" % (
            name, elt, len(perm), ", ".join(map(str, p)),
            ", ".join(map(str, s))))
    return "\n".join(ours), "\n".join(up), "\n".join(cases) + "\n"


# Upstream's pack/unpack functions that bench/run.sh also compiles with
# --layout-lower-to-llvm=raise-from-linalg=true (the raised_* rows: the same
# linalg ops on our kernels).
RAISED = ["to_tiled_4096", "from_tiled_4096", "to_tiled_4093",
          "from_tiled_4093"]


def raised_kernels(upstream):
    """The RAISED functions of upstream.mlir, renamed up_X -> raised_X."""
    out = ["// Generated by bench/gen_kernels.py from upstream/upstream.mlir.in:"
           " upstream's linalg.pack/unpack, for --layout-raise-from-linalg."]
    for name in RAISED:
        start = upstream.index("func.func @up_%s(" % name)
        end = upstream.index("\n}\n", start) + 3
        out.append(upstream[start:end].replace("@up_", "@raised_"))
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    subst = sizes(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    ours, up, cases = perm_kernels(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    def instantiate(src):
        text = open(os.path.join(here, src)).read()
        for k, v in subst.items():
            text = text.replace("@%s@" % k, str(v))
        return text

    up += "\n// The planner's cases.\n" + instantiate("upstream/planner.mlir.in")
    for src, dst, extra in (("kernels/ours.mlir.in", "ours.mlir", ours),
                            ("upstream/upstream.mlir.in", "upstream.mlir", up)):
        text = instantiate(src)
        text += "\n// The permutation suite (gen_kernels.py PERMS).\n" + extra
        open(os.path.join(sys.argv[2], dst), "w").write(text)
    open(os.path.join(sys.argv[2], "raised.mlir"), "w").write(
        raised_kernels(instantiate("upstream/upstream.mlir.in")))
    open(os.path.join(sys.argv[2], "planner.mlir"), "w").write(
        instantiate("kernels/planner.mlir.in"))
    open(os.path.join(sys.argv[2], "perm_cases.inc"), "w").write(cases)


if __name__ == "__main__":
    main()
