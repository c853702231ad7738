#!/usr/bin/env python3
"""The program benchmark's functions (docs/performance.md, "Programs").

  gen_programs.py large|small OUT_DIR

writes OUT_DIR/programs.mlir (every function, to be compiled four ways
under the prefixes fused_, unfused_, up_ and noreuse_ by
bench/programs/run.sh) and
OUT_DIR/programs.inc (the harness's table: C interface declarations,
argument kinds, ideal bytes).

Every argument and result crosses the function boundary as a flat
`memref<N x T>` of its physical buffer (one ABI for every layout): the
function views it in its layout (`memref.expand_shape` to the physical
dims, `layout.from_physical`), reads it as a tensor
(`bufferization.to_tensor restrict`), runs the program on tensors, and
materializes the root into the result's view
(`bufferization.materialize_in_destination`), as a user of the dialect
writes a function over buffers.
"""
import os
import sys

# Each program: name, element type, arguments (name, kind), result layout
# (or a list of (layout, value): several results), body. Kinds: a layout
# text (a full-size array in that layout), ("vec", dim) (a vector along
# that result dim), "scalar". Body: (value, op, x, y) for binary ops, (value, "bcast", x, dims), (value, "relayout", x, layout).
# The last value is the root (of a single result); a result is relayouted
# into its layout if it has another one.
T = "{1,0:T(8,128)}"
PROGRAMS = [
    # max((a - b) * c + d, a): four ops, all row-major.
    ("chain4_f32", "f32",
     [("a", "{1,0}"), ("b", "{1,0}"), ("c", "{1,0}"), ("d", "{1,0}")],
     "{1,0}",
     [("s", "subtract", "a", "b"), ("m", "multiply", "s", "c"),
      ("p", "add", "m", "d"), ("r", "maximum", "p", "a")]),
    # x * y + x, everything tiled.
    ("tiled_fma_f32", "f32", [("x", T), ("y", T)], T,
     [("m", "multiply", "x", "y"), ("r", "add", "m", "x")]),
    # relayout(relayout(x, T(8,128)), {0,1}): one transpose.
    ("relayout_chain_f32", "f32", [("x", "{1,0}")], "{0,1}",
     [("t", "relayout", "x", T), ("r", "relayout", "t", "{0,1}")]),
    # (x_tiled + broadcast(b, dims 0)) * z, stored {0,1}: one transpose.
    ("tiled_bcast_t_f32", "f32", [("x", T), ("b", ("vec", 0)),
                                  ("z", "{1,0}")], "{0,1}",
     [("bb", "bcast", "b", [0]), ("s", "add", "x", "bb"),
      ("r", "multiply", "s", "z")]),
    # broadcast(u, dims 1) + v, stored {0,1}: one transpose.
    ("bcast_add_t_f32", "f32", [("u", ("vec", 1)), ("v", "{1,0}")], "{0,1}",
     [("bu", "bcast", "u", [1]), ("r", "add", "bu", "v")]),
    # a * b + c - d in bf16 (rounded after every op).
    ("chain3_bf16", "bf16",
     [("a", "{1,0}"), ("b", "{1,0}"), ("c", "{1,0}"), ("d", "{1,0}")],
     "{1,0}",
     [("m", "multiply", "a", "b"), ("p", "add", "m", "c"),
      ("r", "subtract", "p", "d")]),
    # bf16 tiled: x * y + z in T(8,128)(2,1).
    ("tiled_fma_bf16", "bf16", [("x", "{1,0:T(8,128)(2,1)}"),
                                ("y", "{1,0:T(8,128)(2,1)}"),
                                ("z", "{1,0:T(8,128)(2,1)}")],
     "{1,0:T(8,128)(2,1)}",
     [("m", "multiply", "x", "y"), ("r", "add", "m", "z")]),
    # Outer product plus a matrix: u (dims 0) * w (dims 1) + c.
    ("outer_add_f32", "f32", [("u", ("vec", 0)), ("w", ("vec", 1)),
                              ("c", "{1,0}")], "{1,0}",
     [("bu", "bcast", "u", [0]), ("bw", "bcast", "w", [1]),
      ("o", "multiply", "bu", "bw"), ("r", "add", "o", "c")]),
    # One value, several uses: t = a - b; t * t + t.
    ("shared_f32", "f32", [("a", "{1,0}"), ("b", "{1,0}")], "{1,0}",
     [("t", "subtract", "a", "b"), ("q", "multiply", "t", "t"),
      ("r", "add", "q", "t")]),
    # Scalars: a * s + t (rank-0 tensors broadcast).
    ("scalar_affine_f32", "f32", [("a", "{1,0}"), ("s", "scalar"),
                                  ("t", "scalar")], "{1,0}",
     [("bs", "bcast", "s", []), ("bt", "bcast", "t", []),
      ("m", "multiply", "a", "bs"), ("r", "add", "m", "bt")]),
    # An operand in a transposed layout: a + b_{0,1} - c, row-major.
    ("cross_operand_f32", "f32", [("a", "{1,0}"), ("b", "{0,1}"),
                                  ("c", "{1,0}")], "{1,0}",
     [("s", "add", "a", "b"), ("r", "subtract", "s", "c")]),
    # Two results sharing s = (a - b) * c, which fusion materializes (both
    # groups read it): r1 = s + d, r2 = max(s, a).
    ("two_results_f32", "f32",
     [("a", "{1,0}"), ("b", "{1,0}"), ("c", "{1,0}"), ("d", "{1,0}")],
     [("{1,0}", "r1"), ("{1,0}", "r2")],
     [("t", "subtract", "a", "b"), ("s", "multiply", "t", "c"),
      ("r1", "add", "s", "d"), ("r2", "maximum", "s", "a")]),
    # The same with one result stored {0,1}: the layout of the materialized
    # s decides which group transposes.
    ("two_results_t_f32", "f32",
     [("a", "{1,0}"), ("b", "{1,0}"), ("c", "{1,0}"), ("d", "{1,0}")],
     [("{0,1}", "r1"), ("{1,0}", "r2")],
     [("t", "subtract", "a", "b"), ("s", "multiply", "t", "c"),
      ("r1", "add", "s", "d"), ("r2", "maximum", "s", "a")]),
]

# The four compilations (run.sh): prefix of the function names.
PREFIXES = ("fused_", "unfused_", "up_", "noreuse_")


def results_of(result, body):
    """[(layout, value)]: a program's results (one: the last value)."""
    if isinstance(result, str):
        return [(result, body[-1][0])]
    return result


def physical_dims(n, layout):
    """Physical dims of an n x n array in the layouts used here."""
    if layout in ("{1,0}", "{0,1}"):
        return [n, n]
    if layout == "{1,0:T(8,128)}":
        return [n // 8, n // 128, 8, 128]
    if layout == "{1,0:T(8,128)(2,1)}":
        return [n // 8, n // 128, 4, 128, 2, 1]
    raise ValueError(layout)


def ttype(shape, elt, layout=None):
    t = "tensor<%s%s" % ("".join("%dx" % d for d in shape), elt)
    if layout and layout != "{1,0}":
        t += ", #layout.tiled<%s>" % layout
    return t + ">"


def mtype(shape, elt, layout=None):
    return "memref" + ttype(shape, elt, layout)[len("tensor"):]


def program_mlir(prefix, n, name, elt, args, result, body):
    lines = []
    params = []
    types = {}
    pre = []

    def view(arg, layout):
        """%arg_t: the tensor of flat buffer %arg_f in `layout`."""
        phys = physical_dims(n, layout)
        flat = mtype([n * n], elt)
        params.append("%%%s_f: %s" % (arg, flat))
        assoc = "[[%s]]" % ", ".join(str(i) for i in range(len(phys)))
        pre.append("  %%%s_p = memref.expand_shape %%%s_f %s output_shape [%s]"
                   " : %s into %s" % (arg, arg, assoc,
                                      ", ".join(map(str, phys)), flat,
                                      mtype(phys, elt)))
        src = "%%%s_p" % arg
        if layout != "{1,0}":
            pre.append("  %%%s_m = layout.from_physical %%%s_p : %s -> %s" %
                       (arg, arg, mtype(phys, elt),
                        mtype([n, n], elt, layout)))
            src = "%%%s_m" % arg
        return src

    for arg, kind in args:
        if kind == "scalar":
            params.append("%%%s_f: %s" % (arg, mtype([], elt)))
            pre.append("  %%%s = bufferization.to_tensor %%%s_f restrict : "
                       "%s to %s" % (arg, arg, mtype([], elt), ttype([], elt)))
            types[arg] = ttype([], elt)
        elif isinstance(kind, tuple):
            params.append("%%%s_f: %s" % (arg, mtype([n], elt)))
            pre.append("  %%%s = bufferization.to_tensor %%%s_f restrict : "
                       "%s to %s" % (arg, arg, mtype([n], elt),
                                     ttype([n], elt)))
            types[arg] = ttype([n], elt)
        else:
            src = view(arg, kind)
            pre.append("  %%%s = bufferization.to_tensor %s restrict : "
                       "%s to %s" % (arg, src, mtype([n, n], elt, kind),
                                     ttype([n, n], elt, kind)))
            types[arg] = ttype([n, n], elt, kind)
    full = ttype([n, n], elt)
    for value, op, x, y in body:
        if op == "bcast":
            lines.append("  %%%s = layout.broadcast_in_dim %%%s, dims = [%s] "
                         ": (%s) -> %s" % (value, x, ", ".join(map(str, y)),
                                           types[x], full))
            types[value] = full
        elif op == "relayout":
            t = ttype([n, n], elt, y)
            lines.append("  %%%s_e = tensor.empty() : %s" % (value, t))
            lines.append("  %%%s = layout.relayout %%%s, %%%s_e : %s, %s -> %s"
                         % (value, x, value, types[x], t, t))
            types[value] = t
        else:
            lines.append("  %%%s = layout.%s %%%s, %%%s : (%s, %s) -> %s" %
                         (value, op, x, y, types[x], types[y], full))
            types[value] = full
    for k, (result_layout, root) in enumerate(results_of(result, body)):
        out = view("out%d" % k, result_layout)
        res_t = ttype([n, n], elt, result_layout)
        if types[root] != res_t:
            lines.append("  %%res%d_e = tensor.empty() : %s" % (k, res_t))
            lines.append("  %%res%d = layout.relayout %%%s, %%res%d_e : %s, "
                         "%s -> %s" % (k, root, k, types[root], res_t, res_t))
            root = "res%d" % k
        lines.append("  bufferization.materialize_in_destination %%%s in "
                     "restrict writable %s : (%s, %s) -> ()" %
                     (root, out, res_t, mtype([n, n], elt, result_layout)))
    head = ("func.func @%s%s(%s) attributes {llvm.emit_c_interface} {" %
            (prefix, name, ", ".join(params)))
    return "\n".join([head] + pre + lines + ["  return", "}"])


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("large", "small"):
        sys.exit(__doc__)
    n = 4096 if sys.argv[1] == "large" else 256
    out = sys.argv[2]
    with open(os.path.join(out, "programs.mlir"), "w") as f:
        for p in PROGRAMS:
            f.write(program_mlir("", n, *p) + "\n\n")
    with open(os.path.join(out, "programs.inc"), "w") as f:
        f.write("// Generated by bench/programs/gen_programs.py.\n")
        f.write("constexpr int64_t kN = %d;\n" % n)
        for name, elt, args, result, body in PROGRAMS:
            k = len(args) + len(results_of(result, body))
            for prefix in PREFIXES:
                f.write("extern \"C\" void _mlir_ciface_%s%s(%s);\n" %
                        (prefix, name, ", ".join(["Desc *"] * k)))
        f.write("static const ProgramSpec kPrograms[] = {\n")
        for name, elt, args, result, body in PROGRAMS:
            nres = len(results_of(result, body))
            k = len(args) + nres
            kinds = []
            for _, kind in args:
                kinds.append("Arg::Scalar" if kind == "scalar" else
                             "Arg::Vector" if isinstance(kind, tuple) else
                             "Arg::Array")
            calls = ", ".join(
                "[](Desc **d) { _mlir_ciface_%s%s(%s); }" %
                (prefix, name, ", ".join("d[%d]" % i for i in range(k)))
                for prefix in PREFIXES)
            f.write("    {\"%s\", %d, {%s}, %d, {%s}},\n" %
                    (name, 2 if elt == "bf16" else 4, ", ".join(kinds), nres,
                     calls))
        f.write("};\n")


if __name__ == "__main__":
    main()
