#!/usr/bin/env python3
"""numpy's version of the benchmark cases (idiomatic: views + np.copyto /
np.add(out=) into preallocated outputs, np.pad where padding is needed),
timed round by round against np.copyto of 64 MiB (glibc memcpy). With
--ours BENCH_OUTPUT (bench/bench's table), also prints ours x numpy: the
ratio of the two memcpy-normalized bandwidths (they come from different
runs, so each is first normalized by the memcpy of its own rounds).

usage: numpy_bench.py [--rounds N] [--only a,b] [--ours FILE]
"""
import argparse
import statistics
import time

import numpy as np


def cases(only):
    f32 = np.float32
    rng = np.random.default_rng(0)
    out = []

    def add(name, nbytes, fn):
        if not only or name in only:
            out.append((name, nbytes, fn))

    n = 4096
    src = rng.random((n, n), dtype=f32)
    dst4 = np.empty((512, 32, 8, 128), f32)
    add("to_tiled_4096", 2 * src.nbytes, lambda: np.copyto(
        dst4, src.reshape(512, 8, 32, 128).transpose(0, 2, 1, 3)))
    t4 = np.ascontiguousarray(src.reshape(512, 8, 32, 128).transpose(0, 2, 1, 3))
    dst = np.empty((n, n), f32)
    add("from_tiled_4096", 2 * src.nbytes, lambda: np.copyto(
        dst.reshape(512, 8, 32, 128), t4.transpose(0, 2, 1, 3)))
    so = rng.random((4093, 4099), dtype=f32)
    do4 = np.empty((512, 33, 8, 128), f32)
    add("to_tiled_4093", so.nbytes + do4.nbytes, lambda: np.copyto(
        do4, np.pad(so, ((0, 3), (0, 125))).reshape(512, 8, 33, 128)
        .transpose(0, 2, 1, 3)))
    to4 = np.ascontiguousarray(np.pad(so, ((0, 3), (0, 125)))
                               .reshape(512, 8, 33, 128).transpose(0, 2, 1, 3))
    do = np.empty((4093, 4099), f32)
    add("from_tiled_4093", so.nbytes + to4.nbytes, lambda: np.copyto(
        do, to4.transpose(0, 2, 1, 3).reshape(4096, 4224)[:4093, :4099]))
    sb = rng.integers(0, 1 << 16, (n, n), dtype=np.uint16)  # bf16 bits
    db = np.empty((512, 32, 4, 128, 2, 1), np.uint16)
    add("to_tiled_bf16", 2 * sb.nbytes, lambda: np.copyto(
        db, sb.reshape(512, 4, 2, 32, 128, 1).transpose(0, 3, 1, 4, 2, 5)))
    d16 = np.empty((256, 64, 16, 64), f32)
    add("tiled_to_tiled", 2 * t4.nbytes, lambda: np.copyto(
        d16.reshape(256, 32, 2, 2, 8, 64),
        t4.reshape(256, 2, 32, 8, 2, 64).transpose(0, 2, 4, 1, 3, 5)))
    s3 = rng.random((64, 256, 1024), dtype=f32)
    d3 = np.empty((256, 64, 1024), f32)
    add("permute_3d", 2 * s3.nbytes,
        lambda: np.copyto(d3, s3.transpose(1, 0, 2)))
    v = rng.random(n, dtype=f32)
    o = np.empty((n, n), f32)
    add("bcast_add_d1", 2 * src.nbytes + v.nbytes,
        lambda: np.add(src, v[None, :], out=o))
    add("bcast_add_d0", 2 * src.nbytes + v.nbytes,
        lambda: np.add(src, v[:, None], out=o))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--only", default="")
    ap.add_argument("--ours", default="")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--misalign", default="")
    # Single-threaded numpy: accepted so bench/run.sh can pass its options.
    ap.add_argument("--threads", default="1")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    a = np.ones(16 << 20, np.float32)
    b = np.empty_like(a)
    cs = cases(only)
    for _, _, fn in cs:
        fn()  # warm-up: page faults of the outputs
    np.copyto(b, a)
    mem, t = [], {name: [] for name, _, _ in cs}
    for r in range(args.rounds):
        for name, _, fn in cs:
            t0 = time.perf_counter()
            np.copyto(b, a)
            t1 = time.perf_counter()
            fn()
            t2 = time.perf_counter()
            mem.append(t1 - t0)
            t[name].append((t2 - t1, t1 - t0))
    ours = {}
    if args.ours:
        for line in open(args.ours):
            cols = [c.strip() for c in line.split("|")]
            if len(cols) > 5 and cols[1] in t:
                ours[cols[1]] = float(cols[5])
    cp = 2 * a.nbytes / 1e9
    print(f"\nnumpy {np.__version__}, {args.rounds} rounds, medians "
          "(memcpy = np.copyto of 64 MiB in the same rounds)\n")
    print("| case | numpy GB/s | numpy x memcpy | ours x numpy |")
    print("|---|---|---|---|")
    for name, nbytes, _ in cs:
        gb = nbytes / 1e9
        ratio = statistics.median(tm / tk * gb / cp for tk, tm in t[name])
        gbs = gb / statistics.median(tk for tk, _ in t[name])
        vs = f"{ours[name] / ratio:.1f}" if name in ours else "-"
        print(f"| {name} | {gbs:.1f} | {ratio:.2f} | {vs} |")


if __name__ == "__main__":
    main()
