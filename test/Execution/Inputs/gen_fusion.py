#!/usr/bin/env python3
"""Differential execution test of --layout-fuse (layout.fusion).

  gen_fusion.py mlir  FIRST COUNT > programs.mlir
  gen_fusion.py check FIRST COUNT > expected.txt

Programs FIRST .. FIRST+COUNT-1, each generated from its number as the seed:
a random tree (a DAG where a value is used twice) of 2 to 6 binary ops
(add, subtract, multiply, maximum, minimum) over leaves of the result's
shape in random layouts (row-major, transposed, tiled with padding slots),
vectors and scalars broadcast with broadcast_in_dim, and relayouts of
interior values into other layouts; f32, bf16 and i32; odd extents. The
result is materialized into a buffer in a random layout (tiled ones with
padding slots, some PV(one)).

Each leaf holds ((linear * m + a) mod 17) - 8, so that every value is an
integer of small magnitude (f32 exact, i32 without wrap-around; bf16 is
rounded to nearest even after every op, as XLA does without fusion).

Each program prints two lines:
  pN logical: the sum of result[i] * (linear(i) mod 97 + 1) over the
              logical elements (read back through a relayout to row-major),
              which `check` computes here, value by value;
  pN physical: the same sum over every slot of the result's physical
              buffer (layout.to_physical), padding slots included; the test
              compares it between the fused and unfused lowerings.
"""
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_transpose import memref as mtype, prod  # noqa: E402

OPS = {
    "add": lambda x, y: x + y,
    "subtract": lambda x, y: x - y,
    "multiply": lambda x, y: x * y,
    "maximum": max,
    "minimum": min,
}
LAYOUTS = {
    2: ["{1,0}", "{0,1}", "{1,0:T(2,4)}", "{0,1:T(4,2)}", "{1,0:T(8,128)}",
        "{0,1:T(8,8)}", "{1,0:T(2,4)PV(one)}"],
    3: ["{2,1,0}", "{0,1,2}", "{1,2,0}", "{2,1,0:T(2,4)}", "{0,2,1:T(4,2)}",
        "{2,1,0:T(8,128)}"],
}
EXTENTS = [1, 2, 3, 5, 7, 8, 9, 13, 16, 17, 24, 31, 33, 40]


def ttype(shape, elt, layout=None):
    t = "tensor<%s%s" % ("".join("%dx" % d for d in shape), elt)
    return t + (", #layout.tiled<%s>>" % layout if layout else ">")


def parse_layout(layout):
    """minor_to_major and tiles of a layout text used here."""
    body = layout[1:-1]
    m2m, _, rest = body.partition(":")
    tiles = []
    if rest.startswith("T("):
        tiles = [int(t) for t in rest[2:rest.index(")")].split(",")]
    return [int(d) for d in m2m.split(",")], tiles


def physical_dims(shape, layout):
    m2m, tiles = parse_layout(layout)
    major = [shape[d] for d in reversed(m2m)]
    if not tiles:
        return major
    k = len(tiles)
    outer = major[:-k] + [-(-d // t) for d, t in zip(major[-k:], tiles)]
    return outer + tiles


def bf16(x):
    """Integer x rounded to bf16 (8 significant bits), to nearest even."""
    if x == 0:
        return 0
    sign = -1 if x < 0 else 1
    a = abs(x)
    q = 2 ** max(0, a.bit_length() - 1 - 7)
    lo = (a // q) * q
    rem = a - lo
    if rem * 2 > q or (rem * 2 == q and (lo // q) % 2 == 1):
        lo += q
    return sign * lo


class Program:
    def __init__(self, seed):
        rng = random.Random(seed)
        self.name = "p%d" % seed
        rank = rng.choice([2, 2, 3])
        self.shape = tuple(rng.choice(EXTENTS) for _ in range(rank))
        if prod(self.shape) < 4:
            self.shape = (5,) + self.shape[1:]
        self.elt = rng.choice(["f32", "f32", "bf16", "i32"])
        self.threads = 1
        self.leaves = []  # (name, shape, layout or None, dims or None, m, a)
        self.ops = []     # (name, kind, args)
        self.values = []  # interior value names
        count = rng.randint(2, 6)
        for _ in range(count):
            x = self.operand(rng)
            y = self.operand(rng)
            kind = rng.choice(sorted(OPS))
            name = "v%d" % len(self.ops)
            self.ops.append((name, kind, (x, y)))
            self.values.append(name)
            if rng.random() < 0.2:
                lay = rng.choice(LAYOUTS[rank])
                rname = "v%d" % len(self.ops)
                self.ops.append((rname, "relayout", (name, lay)))
                self.values.append(rname)
        self.root = self.values[-1]
        self.result_layout = rng.choice(LAYOUTS[rank])

    def operand(self, rng):
        """A new leaf, a broadcast, or an earlier value (reused: a DAG)."""
        r = rng.random()
        if self.values and r < 0.45:
            return rng.choice(self.values[-3:])
        name = "l%d" % len(self.leaves)
        m, a = rng.randint(1, 16), rng.randint(0, 16)
        rank = len(self.shape)
        if r < 0.6:
            dims = sorted(rng.sample(range(rank), rng.randint(0, rank - 1)))
            vshape = tuple(self.shape[d] for d in dims)
            self.leaves.append((name, vshape, None, dims, m, a))
            bname = "b%d" % len(self.ops)
            self.ops.append((bname, "broadcast", (name, dims)))
            return bname
        self.leaves.append((name, self.shape, rng.choice(LAYOUTS[rank]),
                            None, m, a))
        return name

    # Reference -----------------------------------------------------------
    def evaluate(self):
        """The result, row-major, as Python integers."""
        rank = len(self.shape)
        out = []
        for lin in range(prod(self.shape)):
            idx, rest = [], lin
            for d in reversed(self.shape):
                idx.append(rest % d)
                rest //= d
            idx.reverse()
            env = {}
            for name, shape, _, dims, m, a in self.leaves:
                sub = idx if dims is None else [idx[d] for d in dims]
                ll = 0
                for k, d in enumerate(shape):
                    ll = ll * d + sub[k]
                env[name] = self.round(((ll * m + a) % 17) - 8)
            for name, kind, args in self.ops:
                if kind == "broadcast":
                    env[name] = env[args[0]]
                elif kind == "relayout":
                    env[name] = env[args[0]]
                else:
                    env[name] = self.round(OPS[kind](env[args[0]],
                                                     env[args[1]]))
            out.append(env[self.root])
        assert rank == len(self.shape)
        return out

    def round(self, v):
        return bf16(v) if self.elt == "bf16" else v

    def logical_sum(self):
        return sum(v * (lin % 97 + 1) for lin, v in enumerate(self.evaluate()))

    # MLIR ----------------------------------------------------------------
    def type_of(self, name):
        for lname, shape, layout, _, _, _ in self.leaves:
            if lname == name:
                return ttype(shape, self.elt, layout)
        for oname, kind, args in self.ops:
            if oname == name and kind == "relayout":
                return ttype(self.shape, self.elt, args[1])
        return ttype(self.shape, self.elt)

    def fill(self, o, name, shape, m, a):
        """A row-major memref %name with ((linear * m + a) mod 17) - 8."""
        rank = len(shape)
        o.append("  %%%s = memref.alloc() : %s" % (name, mtype(shape, self.elt)))
        ivs = ["%%%s_i%d" % (name, k) for k in range(rank)]
        for k, d in enumerate(shape):
            o.append("  " * (k + 1) + "scf.for %s = %%c0 to %%c%d step %%c1 {"
                     % (ivs[k], d))
        ind = "  " * (rank + 1)
        expr = " + ".join("d%d * %d" % (k, prod(shape[k + 1:]))
                          for k in range(rank)) or "0"
        dl = ", ".join("d%d" % k for k in range(rank))
        o.append("%s%%%s_l = affine.apply affine_map<(%s) -> (((%s) * %d + %d)"
                 " mod 17)>(%s)" % (ind, name, dl, expr, m, a, ", ".join(ivs)))
        o.append("%s%%%s_n0 = arith.index_cast %%%s_l : index to i32" %
                 (ind, name, name))
        o.append("%s%%%s_n = arith.subi %%%s_n0, %%c8_i32 : i32" %
                 (ind, name, name))
        if self.elt == "i32":
            o.append("%s%%%s_v = arith.addi %%%s_n, %%c0_i32 : i32" %
                     (ind, name, name))
        else:
            o.append("%s%%%s_v = arith.sitofp %%%s_n : i32 to %s" %
                     (ind, name, name, self.elt))
        o.append("%smemref.store %%%s_v, %%%s[%s] : %s" %
                 (ind, name, name, ", ".join(ivs), mtype(shape, self.elt)))
        for k in reversed(range(rank)):
            o.append("  " * (k + 1) + "}")

    def checksum(self, o, tag, buf, shape):
        """Prints sum(buf[i] * (linear(i) mod 97 + 1)) of a row-major buf."""
        rank = len(shape)
        ivs = ["%%%s_j%d" % (tag, k) for k in range(rank)]
        o.append("  %%%s_sum = scf.for %s = %%c0 to %%c%d step %%c1 iter_args("
                 "%%%s_acc0 = %%c0_i64) -> (i64) {" %
                 (tag, ivs[0], shape[0], tag))
        for k in range(1, rank):
            o.append("  " * (k + 1) + "%%%s_r%d = scf.for %s = %%c0 to %%c%d "
                     "step %%c1 iter_args(%%%s_acc%d = %%%s_acc%d) -> (i64) {" %
                     (tag, k, ivs[k], shape[k], tag, k, tag, k - 1))
        ind = "  " * (rank + 1)
        expr = " + ".join("d%d * %d" % (k, prod(shape[k + 1:]))
                          for k in range(rank))
        o.append("%s%%%s_w = affine.apply affine_map<(%s) -> ((%s) mod 97 + 1)>"
                 "(%s)" % (ind, tag, ", ".join("d%d" % k for k in range(rank)),
                           expr, ", ".join(ivs)))
        o.append("%s%%%s_w64 = arith.index_cast %%%s_w : index to i64" %
                 (ind, tag, tag))
        o.append("%s%%%s_x = memref.load %s[%s] : %s" %
                 (ind, tag, buf, ", ".join(ivs), mtype(shape, self.elt)))
        if self.elt == "i32":
            o.append("%s%%%s_xi = arith.extsi %%%s_x : i32 to i64" %
                     (ind, tag, tag))
        else:
            o.append("%s%%%s_xi = arith.fptosi %%%s_x : %s to i64" %
                     (ind, tag, tag, self.elt))
        o.append("%s%%%s_p = arith.muli %%%s_xi, %%%s_w64 : i64" %
                 (ind, tag, tag, tag))
        o.append("%s%%%s_next = arith.addi %%%s_acc%d, %%%s_p : i64" %
                 (ind, tag, tag, rank - 1, tag))
        o.append("%sscf.yield %%%s_next : i64" % (ind, tag))
        for k in reversed(range(1, rank)):
            o.append("  " * (k + 1) + "}")
            o.append("  " * (k + 1) + "scf.yield %%%s_r%d : i64" % (tag, k))
        o.append("  }")
        o.append('  vector.print str "%s %s: "' % (self.name, tag))
        o.append("  vector.print %%%s_sum : i64" % tag)

    def mlir(self):
        elt, shape = self.elt, self.shape
        o = ["func.func @%s() {" % self.name]
        extents = set(shape) | {0, 1}
        for _, kind, args in self.ops:
            pass
        rlay = self.result_layout
        phys = physical_dims(shape, rlay)
        extents |= set(phys)
        for c in sorted(extents):
            o.append("  %%c%d = arith.constant %d : index" % (c, c))
        o.append("  %c8_i32 = arith.constant 8 : i32")
        o.append("  %c0_i32 = arith.constant 0 : i32")
        o.append("  %c0_i64 = arith.constant 0 : i64")
        for name, lshape, layout, dims, m, a in self.leaves:
            self.fill(o, name + "_row", lshape, m, a)
            if layout is None:
                o.append("  %%%s = bufferization.to_tensor %%%s_row restrict : "
                         "%s to %s" % (name, name, mtype(lshape, elt),
                                       ttype(lshape, elt)))
                continue
            lay = mtype(lshape, elt, layout)
            o.append("  %%%s_m = memref.alloc() : %s" % (name, lay))
            o.append("  layout.relayout %%%s_row, %%%s_m : %s, %s" %
                     (name, name, mtype(lshape, elt), lay))
            o.append("  %%%s = bufferization.to_tensor %%%s_m restrict : "
                     "%s to %s" % (name, name, lay, ttype(lshape, elt, layout)))
        for name, kind, args in self.ops:
            if kind == "broadcast":
                src = args[0]
                vshape = tuple(shape[d] for d in args[1])
                o.append("  %%%s = layout.broadcast_in_dim %%%s, dims = [%s] : "
                         "(%s) -> %s" % (name, src,
                                         ", ".join(map(str, args[1])),
                                         ttype(vshape, elt), ttype(shape, elt)))
            elif kind == "relayout":
                t = ttype(shape, elt, args[1])
                o.append("  %%%s_e = tensor.empty() : %s" % (name, t))
                o.append("  %%%s = layout.relayout %%%s, %%%s_e : %s, %s -> %s"
                         % (name, args[0], name, self.type_of(args[0]), t, t))
            else:
                o.append("  %%%s = layout.%s %%%s, %%%s : (%s, %s) -> %s" %
                         (name, kind, args[0], args[1], self.type_of(args[0]),
                          self.type_of(args[1]), ttype(shape, elt)))
        # The root into the result buffer, in the result layout.
        root_t = self.type_of(self.root)
        res_t = ttype(shape, elt, rlay)
        res_m = mtype(shape, elt, rlay)
        o.append("  %%res_e = tensor.empty() : %s" % res_t)
        o.append("  %%res = layout.relayout %%%s, %%res_e : %s, %s -> %s" %
                 (self.root, root_t, res_t, res_t))
        o.append("  %%res_m = memref.alloc() : %s" % res_m)
        o.append("  bufferization.materialize_in_destination %%res in restrict "
                 "writable %%res_m : (%s, %s) -> ()" % (res_t, res_m))
        o.append("  %%row = memref.alloc() : %s" % mtype(shape, elt))
        o.append("  layout.relayout %%res_m, %%row : %s, %s" %
                 (res_m, mtype(shape, elt)))
        self.checksum(o, "logical", "%row", shape)
        o.append("  %%phys = layout.to_physical %%res_m : %s -> %s" %
                 (res_m, mtype(phys, elt)))
        self.checksum(o, "physical", "%phys", phys)
        o.append("  return\n}")
        return "\n".join(o)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("mlir", "check"):
        sys.exit(__doc__)
    first, count = int(sys.argv[2]), int(sys.argv[3])
    programs = [Program(s) for s in range(first, first + count)]
    if sys.argv[1] == "check":
        for p in programs:
            print("CHECK: %s logical: %d" % (p.name, p.logical_sum()))
        return
    for p in programs:
        print(p.mlir())
        print()
    print("func.func @main() {")
    for p in programs:
        print("  func.call @%s() : () -> ()" % p.name)
    print("  return\n}")


if __name__ == "__main__":
    main()
