#!/usr/bin/env python3
"""Generates the execution cases of --layout-raise-from-linalg.

Every case is a function that builds its inputs from constants (distinct
values), runs one upstream linalg op and prints the result with
printMemrefF32. raise-from-linalg.test lowers the same module twice with
--layout-lower-to-llvm: as is (upstream's linalg::lowerPack/lowerUnPack and
convert-linalg-to-loops) and with raise-from-linalg=true (the layout
kernels), and compares the printed results line for line.

  gen_raise_linalg.py RANK   # one module with every case of that rank

Pack / unpack: every outer_dims_perm (omitted when it is the identity) x
every inner_dims_pos (each ordered choice of 1..RANK dims, so every inner
order) for RANK 2 and 3; for RANK 4, every outer_dims_perm with every full
inner order (24 x 24 would be too slow to compile: the inner orders are
spread over the outer permutations, each outer one with 3 of them, all 24
inner orders used) plus every ordered choice of inner dims with the
identity outer order. Tiles 2 or 3 over dims of sizes 3..7, so tiles are
partial; pack padding values cycle over the four the layout can express
(0, 1, lowest, highest). Transpose: every permutation, tensors and memrefs.
Broadcast: every set of added dims (tensors).
"""
import itertools
import sys

F32_MAX = "3.40282347E+38"
PADDINGS = ["0.000000e+00", "1.000000e+00", "-" + F32_MAX, F32_MAX]
SIZES = [5, 3, 7, 4]
TILES = [2, 3, 2, 3]


def ty(shape, kind="tensor"):
    return "%s<%sxf32>" % (kind, "x".join(str(d) for d in shape))


def constant(name, shape, base):
    """A tensor constant with the values base, base+1, ... in row-major."""
    n = 1
    for d in shape:
        n *= d
    flat = "%s_flat" % name if len(shape) > 1 else name
    lines = ["  %%%s = arith.constant dense<[%s]> : tensor<%dxf32>" % (
        flat, ", ".join("%d.0" % (base + i) for i in range(n)), n)]
    if len(shape) == 1:
        return lines
    groups = "[[%s]]" % ", ".join(str(i) for i in range(len(shape)))
    lines.append("  %%%s = tensor.expand_shape %%%s %s output_shape [%s] : tensor<%dxf32> into %s" % (
        name, flat, groups, ", ".join(str(d) for d in shape), n, ty(shape)))
    return lines


def print_tensor(value, shape):
    return ["  %%%s_m = bufferization.to_buffer %%%s read_only : %s to %s" % (value, value, ty(shape), ty(shape, "memref")),
            "  %%%s_u = memref.cast %%%s_m : %s to memref<*xf32>" % (value, value, ty(shape, "memref")),
            "  call @printMemrefF32(%%%s_u) : (memref<*xf32>) -> ()" % value]


def print_memref(value, shape):
    return ["  %%%s_u = memref.cast %%%s : %s to memref<*xf32>" % (value, value, ty(shape, "memref")),
            "  call @printMemrefF32(%%%s_u) : (memref<*xf32>) -> ()" % value]


def packed_shape(shape, inner, tiles, outer):
    outer_dims = [d for d in shape]
    for dim, t in zip(inner, tiles):
        outer_dims[dim] = -(-shape[dim] // t)
    return [outer_dims[p] for p in outer] + list(tiles)


def attrs(inner, tiles, outer):
    s = ""
    if list(outer) != sorted(outer):
        s += "outer_dims_perm = [%s] " % ", ".join(map(str, outer))
    s += "inner_dims_pos = [%s] inner_tiles = [%s]" % (
        ", ".join(map(str, inner)), ", ".join(map(str, tiles)))
    return s


def pack_case(idx, rank, outer, inner):
    shape = SIZES[:rank]
    tiles = [TILES[d] for d in inner]
    packed = packed_shape(shape, inner, tiles, outer)
    pad = PADDINGS[idx % len(PADDINGS)]
    a = attrs(inner, tiles, outer)
    body = ["func.func @pack_%d() {" % idx]
    body += constant("src", shape, 1)
    body += ["  %%pad = arith.constant %s : f32" % pad,
             "  %%init = tensor.empty() : %s" % ty(packed),
             "  %%p = linalg.pack %%src padding_value(%%pad : f32) %s into %%init : %s -> %s" % (a, ty(shape), ty(packed))]
    body += print_tensor("p", packed)
    # Unpack from an independent packed tensor (its padding slots hold
    # values too, which unpack must drop).
    body += constant("q", packed, 1000)
    body += ["  %%dest = tensor.empty() : %s" % ty(shape),
             "  %%u = linalg.unpack %%q %s into %%dest : %s -> %s" % (a, ty(packed), ty(shape))]
    body += print_tensor("u", shape)
    body += ["  return", "}"]
    return body


def transpose_case(idx, rank, perm):
    shape = SIZES[:rank]
    out = [shape[p] for p in perm]
    p = ", ".join(map(str, perm))
    body = ["func.func @transpose_%d() {" % idx]
    body += constant("src", shape, 1)
    body += ["  %%init = tensor.empty() : %s" % ty(out),
             "  %%t = linalg.transpose ins(%%src : %s) outs(%%init : %s) permutation = [%s]" % (ty(shape), ty(out), p)]
    body += print_tensor("t", out)
    body += ["  %%a = bufferization.to_buffer %%src read_only : %s to %s" % (ty(shape), ty(shape, "memref")),
             "  %%b = memref.alloc() : %s" % ty(out, "memref"),
             "  linalg.transpose ins(%%a : %s) outs(%%b : %s) permutation = [%s]" % (ty(shape, "memref"), ty(out, "memref"), p)]
    body += print_memref("b", out)
    body += ["  memref.dealloc %%b : %s" % ty(out, "memref"), "  return", "}"]
    return body


def broadcast_case(idx, rank, added):
    out = SIZES[:rank]
    kept = [d for d in range(rank) if d not in added]
    shape = [out[d] for d in kept]
    body = ["func.func @broadcast_%d() {" % idx]
    body += constant("src", shape, 1)
    body += ["  %%init = tensor.empty() : %s" % ty(out),
             "  %%b = linalg.broadcast ins(%%src : %s) outs(%%init : %s) dimensions = [%s]" % (ty(shape), ty(out), ", ".join(map(str, added)))]
    body += print_tensor("b", out)
    body += ["  return", "}"]
    return body


def inner_choices(rank):
    for k in range(1, rank + 1):
        yield from itertools.permutations(range(rank), k)


def pack_configs(rank):
    outers = list(itertools.permutations(range(rank)))
    if rank < 4:
        for outer in outers:
            for inner in inner_choices(rank):
                yield outer, inner
        return
    full = list(itertools.permutations(range(rank)))
    for i, outer in enumerate(outers):
        for j in range(3):
            yield outer, full[(i * 3 + j) % len(full)]
    for inner in inner_choices(rank):
        yield tuple(range(rank)), inner


def main():
    rank = int(sys.argv[1])
    funcs, names = [], []
    for idx, (outer, inner) in enumerate(pack_configs(rank)):
        funcs.append(pack_case(idx, rank, outer, inner))
        names.append("pack_%d" % idx)
    for idx, perm in enumerate(itertools.permutations(range(rank))):
        funcs.append(transpose_case(idx, rank, perm))
        names.append("transpose_%d" % idx)
    adds = [c for k in range(1, rank) for c in itertools.combinations(range(rank), k)]
    for idx, added in enumerate(adds):
        funcs.append(broadcast_case(idx, rank, list(added)))
        names.append("broadcast_%d" % idx)
    print("// Generated by gen_raise_linalg.py %d: %d cases." % (rank, len(names)))
    print("func.func private @printMemrefF32(memref<*xf32>)")
    for f in funcs:
        print("\n".join(f))
    print("func.func @main() {")
    for n in names:
        print("  call @%s() : () -> ()" % n)
    print("  return")
    print("}")


if __name__ == "__main__":
    main()
