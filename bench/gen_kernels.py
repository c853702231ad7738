#!/usr/bin/env python3
"""Instantiates the benchmark kernels (kernels/ours.mlir.in,
upstream/upstream.mlir.in) for the benchmark sizes (`large`, the default:
4096x4096, 4093x4099, 64x256x1024) or the `small` ones of the lit test
(256x256, 29x291, 4x8x64).

usage: gen_kernels.py {large,small} OUT_DIR   -> OUT_DIR/{ours,upstream}.mlir
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
            "RO": ro, "CO": co, "PO0": cdiv(ro, 8), "PO1": cdiv(co, 128),
            "Q0": r // 16, "Q1": r // 64, "B0": b[0], "B1": b[1], "B2": b[2]}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    subst = sizes(sys.argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    for src, dst in (("kernels/ours.mlir.in", "ours.mlir"),
                     ("upstream/upstream.mlir.in", "upstream.mlir")):
        text = open(os.path.join(here, src)).read()
        for k, v in subst.items():
            text = text.replace("@%s@" % k, str(v))
        os.makedirs(sys.argv[2], exist_ok=True)
        open(os.path.join(sys.argv[2], dst), "w").write(text)


if __name__ == "__main__":
    main()
