#!/usr/bin/env python3
"""Differential test of the relayout loops against the library's index map.

  gen_relayout.py gen LAYOUT_EXPLAIN SEED COUNT > cases.mlir
      Random shapes and layouts (deterministic seed; minor_to_major
      permutations, 0-2 tile levels, `*` combines, legacy PAD with PV(zero)
      or PV(one), L(n)), validated by layout-explain. For each case, an iota
      (1..N, row-major, so 0 cannot be an element) is relayouted from
      row-major into the layout and the physical buffer is printed.
  gen_relayout.py gen-tensor LAYOUT_EXPLAIN SEED COUNT > cases.mlir
      The cases of `gen` (same seed, same layouts) as tensor relayouts:
      the iota as a tensor, `layout.relayout` into a tensor of the layout,
      `layout.to_physical` printed. Bitcast cases are the ones
      --layout-fold-relayouts turns into views.
  gen_relayout.py pairs LAYOUT_EXPLAIN SEED COUNT > cases.mlir
      The soak variant (scripts/soak.sh): random layout pairs A -> B, rank
      1-4, up to three tile levels, `*`, PAD/PV, L(n). Each case relayouts
      the iota from row-major into A, then A -> B (tiled -> tiled), and
      prints both physical buffers.
  gen_relayout.py rows LAYOUT_EXPLAIN SEED COUNT > cases.mlir
      Relayouts with rows of vectors (the shapes the source walk of the
      vector loops takes, NestEmitter::prepareSourceWalk): rank 2-3, a last
      dim of 17-300; the source tiled (tiles whose minor dim is 16-128,
      some with a permuted minor_to_major or PAD/PV) or the row-major iota;
      the destination row-major or a permutation that keeps the minor dim
      (some with PAD/PV). The iota goes row-major -> source -> destination
      (filled with -7 first); every buffer but the iota is printed.
  gen_relayout.py into-tiles LAYOUT_EXPLAIN SEED COUNT > cases.mlir
      The same with a tiled source whose dims are mostly multiples of its
      tiles (some partial tiles, some permuted, some with a repeated tile,
      (2) or the row-interleaving (2,1), which keep the destination walk):
      the row-major iota -> source leg walks the source into the tiles
      (NestEmitter::prepareSourceWalkIntoTiles), padding slots included.
  gen_relayout.py tiles LAYOUT_EXPLAIN SEED COUNT > cases.mlir
      Tiled -> tiled relayouts (the run walk of the vector loops,
      NestEmitter::prepareRunWalk): rank 2-3, two tilings of one shape whose
      minor tile dims are 16-128 and whose dims are mostly multiples of the
      tiles (no padding slots); some with a permuted minor_to_major, a
      repeated tile or partial tiles, which take the other walks. The iota
      goes row-major -> A -> B (B filled with -7 first); A and B are printed.
  gen_relayout.py check LAYOUT_EXPLAIN cases.mlir output.txt
      Checks every printed slot against `layout-explain memory --json`: an
      element slot must hold its row-major position + 1, a padding slot the
      layout's padding value. Prints the number of cases, slots and
      failures; exits 1 on any failure. A case line lists its shapes
      separated by ` => `, one printed buffer per shape.
"""
import json
import math
import random
import re
import subprocess
import sys


def explain(tool, *args):
    r = subprocess.run([tool, *args], capture_output=True, text=True)
    return r.returncode, r.stdout


def random_shape(rng, max_rank=3, max_levels=2, dims=None, lslack=False):
    rank = len(dims) if dims else rng.randint(1, max_rank)
    if dims is None:
        dims = [rng.choice([1, 2, 3, 4, 5, 6, 7]) for _ in range(rank)]
    m2m = list(range(rank))
    rng.shuffle(m2m)
    attrs = ""
    has_star = False
    levels = rng.choice([0, 1, 2, 2] if max_levels == 2 else
                        list(range(max_levels + 1)) + [1, 2])
    if levels:
        attrs = "T"
    for _ in range(levels):
        n = rng.randint(1, rank + 1)
        tile = []
        for j in range(n):
            if j + 1 < n and rng.randint(0, 4) == 0:
                tile.append("*")
                has_star = True
            else:
                tile.append(str(rng.randint(1, 4)))
        attrs += "(" + ",".join(tile) + ")"
    if lslack and rng.randint(0, 9) == 0:
        attrs += "L(%d)" % rng.choice([3, 8, 16])
    pv = 0
    if rng.randint(0, 4) == 0:
        attrs += "PAD(" + ",".join(str(d + rng.randint(0, 2)) for d in dims) + ")"
        if rng.randint(0, 1):
            attrs += "PV(one)"
            pv = 1
        else:
            attrs += "PV(zero)"
    layout = "{" + ",".join(map(str, m2m)) + (":" + attrs if attrs else "") + "}"
    return dims, layout, has_star, pv


def physical(tool, shape, limit=4096):
    """The physical dims of a valid shape, or None (invalid, empty, big)."""
    rc, out = explain(tool, "physical-shape", shape)
    if rc != 0:
        return None
    phys = [int(x) for x in out.splitlines()[0].split(",")]
    size = 1
    for p in phys:
        size *= p
    if size == 0 or size > limit:
        return None
    return phys


def memref_types(dims, layout, has_star, phys):
    t = "x".join(map(str, dims)) + "xf32"
    attr = layout
    if has_star:
        attr += ", [" + ",".join(map(str, dims)) + "]"
    tiled = "memref<%s, #layout.tiled<%s>>" % (t, attr)
    pt = "memref<" + "x".join(map(str, phys)) + "xf32>"
    return t, tiled, pt


def print_iota(dims, t):
    rank = len(dims)
    print("  %%a = memref.alloc() : memref<%s>" % t)
    ivs = ["%%i%d" % d for d in range(rank)]
    for d in range(rank):
        print("  " * (d + 1) + "affine.for %s = 0 to %d {" % (ivs[d], dims[d]))
    strides = [1] * rank
    for d in range(rank - 2, -1, -1):
        strides[d] = strides[d + 1] * dims[d + 1]
    expr = " + ".join("d%d * %d" % (d, strides[d]) for d in range(rank)) + " + 1"
    ind = "  " * (rank + 1)
    print(ind + "%%l = affine.apply affine_map<(%s) -> (%s)>(%s)" %
          (", ".join("d%d" % d for d in range(rank)), expr, ", ".join(ivs)))
    print(ind + "%n = arith.index_cast %l : index to i64")
    print(ind + "%v = arith.sitofp %n : i64 to f32")
    print(ind + "affine.store %%v, %%a[%s] : memref<%s>" % (", ".join(ivs), t))
    for d in range(rank - 1, -1, -1):
        print("  " * (d + 1) + "}")


def print_buffer(name, tiled, pt, phys, tag):
    n = 1
    for p in phys:
        n *= p
    print("  %%p%s = layout.to_physical %s : %s -> %s" % (tag, name, tiled, pt))
    print("  %%f%s = memref.collapse_shape %%p%s [[%s]] : %s into memref<%dxf32>" %
          (tag, tag, ", ".join(map(str, range(len(phys)))), pt, n))
    print("  %%u%s = memref.cast %%f%s : memref<%dxf32> to memref<*xf32>" %
          (tag, tag, n))
    print("  call @printMemrefF32(%%u%s) : (memref<*xf32>) -> ()" % tag)


def pairs(tool, seed, count):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        a = random_shape(rng, max_rank=4, max_levels=3, lslack=True)
        dims = a[0]
        b = random_shape(rng, max_levels=3, dims=dims, lslack=True)
        stages = []
        for _, layout, has_star, pv in (a, b):
            shape = "f32[" + ",".join(map(str, dims)) + "]" + layout
            phys = physical(tool, shape)
            if phys is None:
                break
            stages.append((layout, has_star, phys, shape))
        if len(stages) == 2:
            cases.append((dims, stages))
    print("// Generated by gen_relayout.py pairs, seed %d: %d cases." % (seed, count))
    print("func.func private @printMemrefF32(memref<*xf32>)")
    for k, (dims, stages) in enumerate(cases):
        print("// CASE %d %s" % (k, " => ".join(s[3] for s in stages)))
        print("func.func @case%d() {" % k)
        t = "x".join(map(str, dims)) + "xf32"
        print_iota(dims, t)
        prev, prev_type = "%a", "memref<%s>" % t
        for j, (layout, has_star, phys, shape) in enumerate(stages):
            _, tiled, pt = memref_types(dims, layout, has_star, phys)
            print("  %%b%d = memref.alloc() : %s" % (j, tiled))
            print("  layout.relayout %s, %%b%d : %s, %s" % (prev, j, prev_type, tiled))
            prev, prev_type = "%%b%d" % j, tiled
        for j, (layout, has_star, phys, shape) in enumerate(stages):
            _, tiled, pt = memref_types(dims, layout, has_star, phys)
            print_buffer("%%b%d" % j, tiled, pt, phys, str(j))
        print("  return")
        print("}")
    print_main(len(cases))


def print_garbage_dest(dtype, dpt=None):
    """%c = a destination of type `dtype` filled with -7 (through its
    physical view `dpt` when tiled), so that every slot must be written."""
    print("  %%c = memref.alloc() : %s" % dtype)
    print("  %g = arith.constant -7.0 : f32")
    if dpt:
        print("  %%pc = layout.to_physical %%c : %s -> %s" % (dtype, dpt))
        print("  linalg.fill ins(%%g : f32) outs(%%pc : %s)" % dpt)
    else:
        print("  linalg.fill ins(%%g : f32) outs(%%c : %s)" % dtype)


def into_tiles(rng):
    """A rank-2/3 shape and a tiled layout for the first leg of an
    into-tiles case (row-major -> tiled: prepareSourceWalkIntoTiles): dims
    multiples of the tiles, some (1 in 3) with partial tiles whose padding
    slots the walk writes."""
    rank = rng.randint(2, 3)
    m2m = list(range(rank - 1, -1, -1))
    if rng.randint(0, 4) == 0:
        rng.shuffle(m2m)
    minor = rng.choice([16, 20, 32, 64, 100, 128])
    major = rng.choice([1, 2, 3, 8])
    dims = [rng.randint(1, 5) for _ in range(rank)]
    dims[m2m[0]] = minor * rng.randint(1, 3)
    dims[m2m[1]] = major * rng.randint(1, 4)
    attrs = "T(%d,%d)" % (major, minor)
    if rng.randint(0, 7) == 0:
        attrs += "(2)"
    elif rng.randint(0, 5) == 0:
        # Row pairs interleaved (emitInterleavedRow), several pairs per tile
        # and several tile columns: these keep the destination walk.
        major = rng.choice([4, 8])
        dims[m2m[0]] = minor * rng.randint(2, 3)
        dims[m2m[1]] = major * rng.randint(1, 3)
        attrs = "T(%d,%d)(2,1)" % (major, minor)
    if rng.randint(0, 2) == 0:
        dims[m2m[0]] -= rng.randint(1, minor - 1)
        if major > 1 and rng.randint(0, 1):
            dims[m2m[1]] -= rng.randint(1, major - 1)
    return dims, "{" + ",".join(map(str, m2m)) + ":" + attrs + "}"


def rows(tool, seed, count, into_tiles_cases=False):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        rank = rng.randint(2, 3)
        dims = [rng.randint(1, 20) for _ in range(rank - 1)]
        dims.append(rng.randint(17, 300))
        # The source: tiled (2 in 3, always for into-tiles cases), or the
        # row-major iota itself.
        src = None
        if into_tiles_cases:
            dims, src = into_tiles(rng)
            rank = len(dims)
        elif rng.randint(0, 2):
            m2m = list(range(rank - 1, -1, -1))
            if rng.randint(0, 5) == 0:
                rng.shuffle(m2m)
            minor = rng.choice([16, 20, 32, 64, 100, 128])
            major = rng.choice([1, 2, 3, 8])
            attrs = "T(%d,%d)" % (major, minor)
            if rng.randint(0, 3) == 0:
                attrs += "(%d)" % rng.choice([2, 4])
            if rng.randint(0, 3) == 0:
                attrs += "PAD(" + ",".join(str(d + rng.randint(0, 3)) for d in dims) + ")"
                attrs += rng.choice(["PV(zero)", "PV(one)"])
            src = "{" + ",".join(map(str, m2m)) + ":" + attrs + "}"
        # The destination: row-major, or a permutation keeping the minor dim
        # (some with legacy padding), always one when the source is the iota.
        dst = None
        if src is None or rng.randint(0, 1):
            rest = list(range(rank - 1))
            rng.shuffle(rest)
            m2m = [rank - 1] + rest
            dst = "{" + ",".join(map(str, m2m))
            if rng.randint(0, 4) == 0:
                dst += ":PAD(" + ",".join(str(d + rng.randint(0, 2)) for d in dims) + ")PV(one)"
            dst += "}"
        stages = []
        ok = True
        for layout in (src, dst):
            if layout is None:
                stages.append(None)
                continue
            shape = "f32[" + ",".join(map(str, dims)) + "]" + layout
            phys = physical(tool, shape, limit=60000)
            if phys is None:
                ok = False
                break
            stages.append((layout, phys, shape))
        if ok:
            cases.append((dims, stages))
    print("// Generated by gen_relayout.py rows%s, seed %d: %d cases." %
          (" into-tiles" if into_tiles_cases else "", seed, count))
    print("func.func private @printMemrefF32(memref<*xf32>)")
    for k, (dims, stages) in enumerate(cases):
        rowmajor = "f32[" + ",".join(map(str, dims)) + "]{" + ",".join(
            map(str, range(len(dims) - 1, -1, -1))) + "}"
        shapes = [st[2] for st in stages if st]
        if stages[1] is None:
            shapes.append(rowmajor)
        print("// CASE %d %s" % (k, " => ".join(shapes)))
        t = "x".join(map(str, dims)) + "xf32"
        n = 1
        for d in dims:
            n *= d
        print("func.func @case%d() {" % k)
        print_iota(dims, t)
        prev, prev_type = "%a", "memref<%s>" % t
        if stages[0]:
            layout, phys, _ = stages[0]
            _, tiled, pt = memref_types(dims, layout, False, phys)
            print("  %%b = memref.alloc() : %s" % tiled)
            print("  layout.relayout %%a, %%b : memref<%s>, %s" % (t, tiled))
            prev, prev_type = "%b", tiled
        # The destination starts as garbage (-7): every slot is written.
        dpt = None
        if stages[1]:
            layout, phys, _ = stages[1]
            _, dtype, dpt = memref_types(dims, layout, False, phys)
        else:
            dtype = "memref<%s>" % t
        print_garbage_dest(dtype, dpt)
        print("  layout.relayout %s, %%c : %s, %s" % (prev, prev_type, dtype))
        if stages[0]:
            layout, phys, _ = stages[0]
            _, tiled, pt = memref_types(dims, layout, False, phys)
            print_buffer("%b", tiled, pt, phys, "0")
        if stages[1]:
            layout, phys, _ = stages[1]
            print_buffer("%c", dtype, dpt, phys, "1")
        else:
            print("  %%fc = memref.collapse_shape %%c [[%s]] : memref<%s> into memref<%dxf32>" %
                  (", ".join(map(str, range(len(dims)))), t, n))
            print("  %%uc = memref.cast %%fc : memref<%dxf32> to memref<*xf32>" % n)
            print("  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()")
        print("  return")
        print("}")
    print_main(len(cases))


def tiles(tool, seed, count):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        rank = rng.randint(2, 3)
        minors = [rng.choice([16, 32, 64, 128]) for _ in range(2)]
        majors = [rng.choice([1, 2, 4, 8, 16]) for _ in range(2)]
        # Dims: multiples of both tilings (lcm), sometimes one element off.
        dims = [rng.randint(1, 3) for _ in range(rank - 2)]
        dims.append(math.lcm(*majors) * rng.randint(1, 3))
        dims.append(math.lcm(*minors) * rng.randint(1, 2))
        if rng.randint(0, 5) == 0:
            dims[-2 if rng.randint(0, 1) else -1] += 1
        stages = []
        for j in range(2):
            m2m = list(range(rank - 1, -1, -1))
            if rng.randint(0, 7) == 0:
                m2m[0], m2m[1] = m2m[1], m2m[0]
            attrs = "T(%d,%d)" % (majors[j], minors[j])
            if rng.randint(0, 7) == 0:
                attrs += "(2,1)"
            layout = "{" + ",".join(map(str, m2m)) + ":" + attrs + "}"
            shape = "f32[" + ",".join(map(str, dims)) + "]" + layout
            phys = physical(tool, shape, limit=70000)
            if phys is None:
                break
            stages.append((layout, phys, shape))
        if len(stages) == 2:
            cases.append((dims, stages))
    print("// Generated by gen_relayout.py tiles, seed %d: %d cases." % (seed, count))
    print("func.func private @printMemrefF32(memref<*xf32>)")
    for k, (dims, stages) in enumerate(cases):
        print("// CASE %d %s" % (k, " => ".join(st[2] for st in stages)))
        t = "x".join(map(str, dims)) + "xf32"
        print("func.func @case%d() {" % k)
        print_iota(dims, t)
        (la, pa, _), (lb, pb, _) = stages
        _, ta, pta = memref_types(dims, la, False, pa)
        _, tb, ptb = memref_types(dims, lb, False, pb)
        print("  %%b = memref.alloc() : %s" % ta)
        print("  layout.relayout %%a, %%b : memref<%s>, %s" % (t, ta))
        print_garbage_dest(tb, ptb)
        print("  layout.relayout %%b, %%c : %s, %s" % (ta, tb))
        print_buffer("%b", ta, pta, pa, "0")
        print_buffer("%c", tb, ptb, pb, "1")
        print("  return")
        print("}")
    print_main(len(cases))


def print_main(count):
    print("func.func @main() {")
    for k in range(count):
        print("  call @case%d() : () -> ()" % k)
    print("  return")
    print("}")


def gen_cases(tool, seed, count):
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        dims, layout, has_star, pv = random_shape(rng)
        shape = "f32[" + ",".join(map(str, dims)) + "]" + layout
        phys = physical(tool, shape)
        if phys is None:
            continue
        cases.append((dims, layout, has_star, phys, shape))
    return cases


def gen_tensor(tool, seed, count):
    cases = gen_cases(tool, seed, count)
    print("// Generated by gen_relayout.py gen-tensor, seed %d: %d cases." % (seed, count))
    print("func.func private @printMemrefF32(memref<*xf32>)")
    for k, (dims, layout, has_star, phys, shape) in enumerate(cases):
        print("// CASE %d %s" % (k, shape))
        t, tiled, pt = memref_types(dims, layout, has_star, phys)
        tt = tiled.replace("memref<", "tensor<", 1)
        ptt = pt.replace("memref<", "tensor<", 1)
        n = 1
        for p in phys:
            n *= p
        print("func.func @case%d() {" % k)
        print_iota(dims, t)
        print("  %%t = bufferization.to_tensor %%a restrict : memref<%s> to tensor<%s>" % (t, t))
        print("  %%e = tensor.empty() : %s" % tt)
        print("  %%r = layout.relayout %%t, %%e : tensor<%s>, %s -> %s" % (t, tt, tt))
        print("  %%q = layout.to_physical %%r : %s -> %s" % (tt, ptt))
        print("  %%p = bufferization.to_buffer %%q : %s to %s" % (ptt, pt))
        print("  %%f = memref.collapse_shape %%p [[%s]] : %s into memref<%dxf32>" %
              (", ".join(map(str, range(len(phys)))), pt, n))
        print("  %%u = memref.cast %%f : memref<%dxf32> to memref<*xf32>" % n)
        print("  call @printMemrefF32(%u) : (memref<*xf32>) -> ()")
        print("  return")
        print("}")
    print_main(len(cases))


def gen(tool, seed, count):
    cases = gen_cases(tool, seed, count)
    print("// Generated by gen_relayout.py gen, seed %d: %d cases." % (seed, count))
    print("func.func private @printMemrefF32(memref<*xf32>)")
    for k, (dims, layout, has_star, phys, shape) in enumerate(cases):
        print("// CASE %d %s" % (k, shape))
        t, tiled, pt = memref_types(dims, layout, has_star, phys)
        print("func.func @case%d() {" % k)
        print_iota(dims, t)
        print("  %%b = memref.alloc() : %s" % tiled)
        print("  layout.relayout %%a, %%b : memref<%s>, %s" % (t, tiled))
        print_buffer("%b", tiled, pt, phys, "")
        print("  return")
        print("}")
    print_main(len(cases))


def check(tool, mlir_file, output_file):
    shapes = []
    ncases = 0
    for line in open(mlir_file):
        m = re.match(r"// CASE (\d+) (.*)", line)
        if m:
            ncases += 1
            shapes.extend(x.strip() for x in m.group(2).split(" => "))
    buffers = [l for l in open(output_file).read().splitlines() if l.startswith("[")]
    failures = slots = 0
    if len(buffers) != len(shapes):
        print("expected %d buffers, got %d" % (len(shapes), len(buffers)))
        sys.exit(1)
    for shape, line in zip(shapes, buffers):
        values = [float(x) for x in line.strip("[] ").split(",")]
        rc, out = explain(tool, "memory", "--json", shape)
        if rc != 0:
            print("FAIL %s: layout-explain failed" % shape)
            failures += 1
            continue
        layout_slots = json.loads(out)["slots"]
        dims = [int(d) for d in re.match(r"f32\[([^\]]*)\]", shape).group(1).split(",")]
        pv = 1.0 if "PV(one)" in shape else 0.0
        # L(n) slack lies after the physical buffer: only the printed part.
        for k, value in enumerate(values):
            slots += 1
            index = layout_slots[k] if k < len(layout_slots) else None
            if index is None:
                expected = pv
            else:
                lin = 0
                for d, i in zip(dims, index):
                    lin = lin * d + i
                expected = float(lin + 1)
            if value != expected:
                failures += 1
                if failures <= 10:
                    print("FAIL %s slot %d: got %g, expected %g" % (shape, k, value, expected))
    print("differential: %d cases, %d slots, %d failures (%d buffers)" %
          (ncases, slots, failures, len(shapes)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "gen-tensor":
        gen_tensor(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "rows":
        rows(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "into-tiles":
        rows(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), into_tiles_cases=True)
    elif sys.argv[1] == "tiles":
        tiles(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == "pairs":
        pairs(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        check(sys.argv[2], sys.argv[3], sys.argv[4])
