//===- driver.cpp - Serial vs parallel kernels at small sizes -------------===//
//
// bench/threshold/run.sh: to_tiled f32[R,R] -> {1,0:T(8,128)} for R = 128,
// 256, 512, 1024 (64 KiB .. 4 MiB), compiled serial (num-threads=1, @s_R)
// and parallel (parallel-threshold-bytes=0 num-threads=2, @p_R); each timed
// on the same hot buffers, median of 7 rounds (docs/performance.md,
// "Parallel kernels": the choice of parallel-threshold-bytes).
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Kernel = void (*)(StridedMemRefType<float, 2> *,
                        StridedMemRefType<float, 4> *);
extern "C" {
#define DECL(P, R)                                                             \
  void _mlir_ciface_##P##_##R(StridedMemRefType<float, 2> *,                   \
                              StridedMemRefType<float, 4> *);
DECL(s, 128)
DECL(s, 256)
DECL(s, 512) DECL(s, 1024) DECL(p, 128) DECL(p, 256) DECL(p, 512) DECL(p, 1024)
}

int main() {
  const int64_t sizes[] = {128, 256, 512, 1024};
  const Kernel serial[] = {_mlir_ciface_s_128, _mlir_ciface_s_256,
                           _mlir_ciface_s_512, _mlir_ciface_s_1024};
  const Kernel parallel[] = {_mlir_ciface_p_128, _mlir_ciface_p_256,
                             _mlir_ciface_p_512, _mlir_ciface_p_1024};
  for (int i = 0; i < 4; ++i) {
    int64_t r = sizes[i];
    auto *a = static_cast<float *>(aligned_alloc(4096, r * r * 4));
    auto *b = static_cast<float *>(aligned_alloc(4096, r * r * 4));
    for (int64_t k = 0; k < r * r; ++k)
      a[k] = static_cast<float>(k);
    memset(b, 0, r * r * 4);
    StridedMemRefType<float, 2> src{a, a, 0, {r, r}, {r, 1}};
    StridedMemRefType<float, 4> dst{
        b, b, 0, {r / 8, r / 128, 8, 128}, {r * 8, 1024, 128, 1}};
    auto time = [&](Kernel f) {
      int64_t iters = std::max<int64_t>(20, 200000000 / (r * r * 8));
      f(&src, &dst);
      auto t0 = std::chrono::steady_clock::now();
      for (int64_t it = 0; it < iters; ++it)
        f(&src, &dst);
      auto t1 = std::chrono::steady_clock::now();
      return std::chrono::duration<double, std::micro>(t1 - t0).count() /
             static_cast<double>(iters);
    };
    std::vector<double> ts, tp;
    for (int round = 0; round < 7; ++round) {
      ts.push_back(time(serial[i]));
      tp.push_back(time(parallel[i]));
    }
    std::sort(ts.begin(), ts.end());
    std::sort(tp.begin(), tp.end());
    // Spot check: element (r-1, r-1) at its tiled position.
    int64_t last =
        ((r / 8 - 1) * (r / 128) + (r / 128 - 1)) * 1024 + 7 * 128 + 127;
    if (b[last] != static_cast<float>(r * r - 1)) {
      printf("FAIL: %lld KiB: wrong element\n",
             static_cast<long long>(r * r * 4 / 1024));
      return 1;
    }
    printf("%5lld KiB: serial %8.2f us, parallel (2 threads) %8.2f us, "
           "serial/parallel %.2f\n",
           static_cast<long long>(r * r * 4 / 1024), ts[3], tp[3],
           ts[3] / tp[3]);
    free(a);
    free(b);
  }
  return 0;
}
