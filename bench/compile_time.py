#!/usr/bin/env python3
"""Compile-time scaling of `layout-opt --layout-lower-to-llvm`: generates
modules of N relayout / broadcast functions (to/from {1,0:T(8,128)} with
exact and partial tiles, bf16 T(8,128)(2,1), tiled -> tiled, a 3-D
permutation, broadcast add dims {1}/{0}; shapes vary with the index) and
times the pipeline on each (median of --repeat runs).

usage: compile_time.py LAYOUT_OPT [--sizes 1000,2000] [--repeat 3]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time


def function(i):
    r = 64 + 8 * (i % 7) + (i % 3)      # sometimes a partial tile
    c = 256 + 128 * (i % 5) + (i % 2) * 5
    kind = i % 7
    t = "#layout.tiled<{1,0:T(8,128)}>"
    if kind == 0:
        return (f"func.func @f{i}(%s: memref<{r}x{c}xf32>, %d: memref<{r}x{c}xf32, {t}>) {{\n"
                f"  layout.relayout %s, %d : memref<{r}x{c}xf32>, memref<{r}x{c}xf32, {t}>\n  return\n}}\n")
    if kind == 1:
        return (f"func.func @f{i}(%s: memref<{r}x{c}xf32, {t}>, %d: memref<{r}x{c}xf32>) {{\n"
                f"  layout.relayout %s, %d : memref<{r}x{c}xf32, {t}>, memref<{r}x{c}xf32>\n  return\n}}\n")
    if kind == 2:
        b = "#layout.tiled<{1,0:T(8,128)(2,1)}>"
        r2 = 16 * (1 + i % 4)
        return (f"func.func @f{i}(%s: memref<{r2}x256xbf16>, %d: memref<{r2}x256xbf16, {b}>) {{\n"
                f"  layout.relayout %s, %d : memref<{r2}x256xbf16>, memref<{r2}x256xbf16, {b}>\n  return\n}}\n")
    if kind == 3:
        u = "#layout.tiled<{1,0:T(16,64)}>"
        return (f"func.func @f{i}(%s: memref<{r}x{c}xf32, {t}>, %d: memref<{r}x{c}xf32, {u}>) {{\n"
                f"  layout.relayout %s, %d : memref<{r}x{c}xf32, {t}>, memref<{r}x{c}xf32, {u}>\n  return\n}}\n")
    if kind == 4:
        p = "#layout.tiled<{2,0,1}>"
        return (f"func.func @f{i}(%s: memref<4x{r}x{c}xf32>, %d: memref<4x{r}x{c}xf32, {p}>) {{\n"
                f"  layout.relayout %s, %d : memref<4x{r}x{c}xf32>, memref<4x{r}x{c}xf32, {p}>\n  return\n}}\n")
    dim, vs = (1, c) if kind == 5 else (0, r)
    return (f"func.func @f{i}(%m: tensor<{r}x{c}xf32>, %v: tensor<{vs}xf32>, %o: memref<{r}x{c}xf32>) {{\n"
            f"  %r = layout.add %m, %v, dims = [{dim}] : (tensor<{r}x{c}xf32>, tensor<{vs}xf32>) -> tensor<{r}x{c}xf32>\n"
            f"  bufferization.materialize_in_destination %r in restrict writable %o : (tensor<{r}x{c}xf32>, memref<{r}x{c}xf32>) -> ()\n"
            f"  return\n}}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("layout_opt")
    ap.add_argument("--sizes", default="1000,2000")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = os.path.join(tmp, f"m{n}.mlir")
            with open(path, "w") as f:
                for i in range(n):
                    f.write(function(i))
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                subprocess.run([args.layout_opt, path, "--layout-lower-to-llvm",
                                "-o", os.devnull], check=True)
                times.append(time.perf_counter() - t0)
            results[n] = statistics.median(times)
            print(f"{n} functions: {results[n]:.2f} s (median of {args.repeat}: "
                  + ", ".join(f"{t:.2f}" for t in times) + ")")
    base = sizes[0]
    for n in sizes[1:]:
        print(f"growth {n}/{base}: {results[n] / results[base]:.2f}x "
              f"(linear: {n / base:.2f}x)")


if __name__ == "__main__":
    main()
