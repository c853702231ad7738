// A measurement experiment for the benchmark harnesses, not a kernel of the
// project: how much of the streaming copy's rate comes from a 64 MiB
// source that the copy before it left in the last-level cache. Per round,
// with N threads: glibc memcpy A -> B, the harness's streaming ceiling
// A -> B (timeStreamCopy without eviction: the fastest of its variants, A
// just read by the memcpy), the same streaming copy C -> D of buffers not
// touched since the previous round, and the ceiling again with every
// buffer evicted first (timeStreamCopy's default, what bench/, bench/pairs
// and bench/programs time against). Results: docs/performance.md, "Cold
// buffers".
//
// Build and run (from bench/experiments):
//   clang++-22 -O2 -march=native -fopenmp cold_buffers.cpp -o cold_buffers \
//     -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib
//   ./cold_buffers
#include "../baselines.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace bench;

int main() {
  const size_t n = size_t(64) << 20;
  Buffer a(n, 0), b(n, 0), c(n, 0), d(n, 0);
  memset(a.p, 1, n);
  memset(b.p, 2, n);
  memset(c.p, 3, n);
  memset(d.p, 4, n);
  for (int threads = 1; threads <= 2; ++threads)
    for (int r = 0; r < 5; ++r) {
      double t0 = now();
      parallelCopy(memcpyChunk, b.p, a.p, n, threads);
      double memcpyT = now() - t0;
      double warmT = timeStreamCopy(b.p, a.p, n, threads, /*evict=*/false);
      t0 = now();
      parallelCopy(streamCopy, d.p, c.p, n, threads);
      double otherT = now() - t0;
      double coldT = timeStreamCopy(b.p, a.p, n, threads);
      printf("threads %d: memcpy %.1f GB/s, streaming ceiling (source just "
             "read) %.1f, streaming copy of other buffers %.1f, streaming "
             "ceiling (evicted) %.1f\n",
             threads, 2 * n / memcpyT / 1e9, 2 * n / warmT / 1e9,
             2 * n / otherT / 1e9, 2 * n / coldT / 1e9);
    }
}
