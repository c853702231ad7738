// A design experiment for issue 27's elementwise ops with a crossing
// operand, not a kernel of the project: out{0,1} = a (row-major) + b{0,1}
// (f32[4096,4096]; physically out[i][j] = a[j][i] + b[i][j]) computed in
// tiles staged through an L2 buffer, against the row-major twin
// (out = a + b). Per tile of BI destination rows x BJ destination columns:
// a's BJ x BI block is transposed in registers (16 x 16 blocks, the same
// block-swap rounds as transposeInRegisters) into a BI x BJ buffer, then
// each destination row streams b's row and the buffer's row, BJ elements
// at a time. Every buffer is then visited BJ or BI elements per row visit
// (1 KiB at 256), and b is read one row at a time instead of as BI rows at
// once. Results: docs/performance.md, "Staging the crossing operand".
//
// Build and run (AVX-512 machine):
//   clang++-22 -O3 -march=native -fopenmp staged_add_cross.cpp -o staged \
//     -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib
//   OMP_NUM_THREADS=1 ./staged; OMP_NUM_THREADS=2 ./staged
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

static const long N = 4096;

/// dst[i][j] = src[j][i] for a 16 x 16 block (row pitches ss and ds).
static inline void transpose16(const float *src, long ss, float *dst, long ds) {
  __m512 r[16];
  for (int i = 0; i < 16; ++i)
    r[i] = _mm512_loadu_ps(src + i * ss);
  for (int g = 8; g >= 1; g /= 2) {
    alignas(64) int lo[16], hi[16];
    for (int j = 0; j < 16; ++j) {
      bool second = j & g;
      lo[j] = second ? 16 + j - g : j;
      hi[j] = second ? 16 + j : j + g;
    }
    __m512i low = _mm512_load_si512(lo), high = _mm512_load_si512(hi);
    for (int i = 0; i < 16; ++i)
      if (!(i & g)) {
        __m512 a = r[i], c = r[i + g];
        r[i] = _mm512_permutex2var_ps(a, low, c);
        r[i + g] = _mm512_permutex2var_ps(a, high, c);
      }
  }
  for (int i = 0; i < 16; ++i)
    _mm512_store_ps(dst + i * ds, r[i]);
}

static void staged(const float *a, const float *b, float *o, long bi, long bj) {
#pragma omp parallel
  {
    float *t = static_cast<float *>(aligned_alloc(64, bi * bj * 4));
#pragma omp for schedule(static)
    for (long i0 = 0; i0 < N; i0 += bi)
      for (long j0 = 0; j0 < N; j0 += bj) {
        for (long jj = 0; jj < bj; jj += 16)
          for (long ii = 0; ii < bi; ii += 16)
            transpose16(a + (j0 + jj) * N + i0 + ii, N, t + ii * bj + jj, bj);
        for (long i = 0; i < bi; ++i) {
          const float *br = b + (i0 + i) * N + j0, *tr = t + i * bj;
          float *orow = o + (i0 + i) * N + j0;
          for (long j = 0; j < bj; j += 16)
            _mm512_stream_ps(orow + j, _mm512_add_ps(_mm512_load_ps(tr + j),
                                                     _mm512_load_ps(br + j)));
        }
      }
    free(t);
  }
}

static void twin(const float *a, const float *b, float *o) {
#pragma omp parallel for schedule(static)
  for (long i = 0; i < N * N; i += 16)
    _mm512_stream_ps(
        o + i, _mm512_add_ps(_mm512_load_ps(a + i), _mm512_load_ps(b + i)));
}

int main() {
  auto alloc = [] {
    return static_cast<float *>(aligned_alloc(4096, N * N * 4));
  };
  float *a = alloc(), *b = alloc(), *o = alloc();
  for (long i = 0; i < N * N; ++i) {
    a[i] = i % 1000;
    b[i] = i % 777;
    o[i] = 0;
  }
  staged(a, b, o, 256, 256);
  for (long i = 0; i < N; i += 97)
    for (long j = 0; j < N; j += 89)
      if (o[i * N + j] != a[j * N + i] + b[i * N + j]) {
        printf("wrong result at [%ld][%ld]\n", i, j);
        return 1;
      }
  // GB/s of bytes read + written (3 x 64 MiB), median of 7.
  auto rate = [&](auto f) {
    std::vector<double> t;
    for (int r = 0; r < 7; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      f();
      t.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count());
    }
    std::sort(t.begin(), t.end());
    return 3.0 * N * N * 4 / t[3] / 1e9;
  };
  printf("twin %.1f GB/s\n", rate([&] { twin(a, b, o); }));
  long tiles[][2] = {{64, 256},  {128, 256}, {256, 128}, {256, 256},
                     {256, 512}, {512, 512}, {256, 1024}};
  for (auto &tile : tiles)
    printf("staged %ld x %ld: %.1f GB/s\n", tile[0], tile[1],
           rate([&] { staged(a, b, o, tile[0], tile[1]); }));
}
