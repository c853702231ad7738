#!/usr/bin/env python3
"""Checks docs/lowering.md's "Which kernel when" table against the tools.

Each row of the table between the markers `<!-- kernel-table:begin -->` and
`<!-- kernel-table:end -->` names a relayout (source and destination XLA
shapes), the options of the target (`--layout-lower-to-llvm` options such
as `target-cpu=x86-64-v4 vector-bytes=0`), the planner's class and the
kernel. For every row this script checks that
  1. `layout-explain plan --json` answers that class and that kernel, and
  2. the lowering itself, `layout-opt --layout-lower-to-llvm` with
     `report-kernels=true` on a memref `layout.relayout` between the two
     shapes, reports the remark `kernel: NAME` with the same name.
The table is written by hand: it is the documentation's claim, and the
tools must agree with it.

usage: check-kernel-table.py DOC LAYOUT_EXPLAIN LAYOUT_OPT
"""
import json
import re
import subprocess
import sys

ELEMENT_TYPES = {
    "pred": "i1", "s8": "i8", "s16": "i16", "s32": "i32", "s64": "i64",
    "u8": "ui8", "u16": "ui16", "u32": "ui32", "u64": "ui64",
    "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64",
}


def memref_type(shape):
    """f32[64,64]{1,0:T(8,128)} -> memref<64x64xf32, #layout.tiled<...>>."""
    m = re.fullmatch(r"(\w+)\[([\d,]*)\](\{.*\})?", shape)
    if not m or m.group(1) not in ELEMENT_TYPES:
        sys.exit("check-kernel-table: cannot convert the shape " + shape)
    dims = [d for d in m.group(2).split(",") if d]
    body = "x".join(dims + [ELEMENT_TYPES[m.group(1)]])
    if m.group(3):
        body += ", #layout.tiled<%s>" % m.group(3)
    return "memref<%s>" % body


def table_rows(doc):
    text = open(doc).read()
    begin = text.index("<!-- kernel-table:begin -->")
    end = text.index("<!-- kernel-table:end -->")
    rows = []
    for line in text[begin:end].splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("source", "") or set(cells[0]) <= set("-: "):
            continue
        rows.append(cells)
    return rows


def lowering_kernel(opt, src, dst, options):
    st, dt = memref_type(src), memref_type(dst)
    module = ("func.func @k(%%a: %s, %%b: %s) {\n"
              "  layout.relayout %%a, %%b : %s, %s\n  return\n}\n"
              % (st, dt, st, dt))
    run = subprocess.run(
        [opt, "-", "-o", "/dev/null",
         "--layout-lower-to-llvm=%s report-kernels=true" % options],
        input=module, capture_output=True, text=True)
    kernels = re.findall(r"remark: kernel: ([\w-]+)", run.stderr)
    if run.returncode != 0 or len(kernels) != 1:
        return "<lowering failed: %s>" % run.stderr.strip()[:300]
    return kernels[0]


def main():
    doc, explain, opt = sys.argv[1:4]
    rows = table_rows(doc)
    failures = 0
    for src, dst, options, cls, kernel in rows:
        args = [explain, "plan", "--json", src, dst]
        for option in options.split():
            name, _, value = option.partition("=")
            args.append("--%s=%s" % (name, value))
        run = subprocess.run(args, capture_output=True, text=True)
        if run.returncode != 0:
            print("FAIL %s -> %s: layout-explain: %s" % (src, dst, run.stderr.strip()))
            failures += 1
            continue
        answer = json.loads(run.stdout)
        lowered = lowering_kernel(opt, src, dst, options)
        got = (answer["class"], answer["kernel"], lowered)
        if got != (cls, kernel, kernel):
            print("FAIL %s -> %s [%s]: table says %s / %s; layout-explain "
                  "says %s / %s; the lowering reports %s"
                  % (src, dst, options, cls, kernel, got[0], got[1], got[2]))
            failures += 1
        else:
            print("ok %s -> %s [%s]: %s / %s" % (src, dst, options, cls, kernel))
    print("%d rows, %d failures" % (len(rows), failures))
    return 1 if failures or len(rows) < 20 else 0


if __name__ == "__main__":
    sys.exit(main())
