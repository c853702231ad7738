//===- baselines.h - Buffers and memory-bandwidth baselines -----*- C++ -*-===//
//
// Shared by the kernel benchmark (bench.cpp), the pair matrix
// (pairs/pairs.cpp) and the program benchmark (programs/programs.cpp):
// page-faulted, aligned buffers, glibc memcpy and the streaming-store
// copies (the bandwidth ceiling) on N threads, the eviction of a buffer
// from the caches before a timed call, and the timing helpers.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_BENCH_BASELINES_H
#define LAYOUT_BENCH_BASELINES_H

#include <algorithm>
#include <chrono>
#include <cpuid.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <immintrin.h>
#include <omp.h>
#include <string>
#include <sys/mman.h>
#include <vector>

namespace bench {

/// Bytes added to every kernel buffer's address (--misalign): exercises
/// the kernels' unaligned heads and tails.
inline size_t gMisalign = 0;
inline bool gHugePages = false;

struct Buffer {
  void *base = nullptr, *p = nullptr;
  size_t bytes = 0;
  explicit Buffer(size_t n, size_t misalign = gMisalign) : bytes(n) {
    // 2 MiB aligned (plus the misalignment).
    size_t total = n + misalign;
    base = aligned_alloc(1 << 21,
                         (total + (1 << 21) - 1) & ~size_t((1 << 21) - 1));
    if (!base) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    p = static_cast<char *>(base) + misalign;
    if (gHugePages &&
        madvise(base, (total + (1 << 21) - 1) & ~size_t((1 << 21) - 1),
                MADV_HUGEPAGE) != 0) {
      perror("madvise(MADV_HUGEPAGE)");
      exit(1);
    }
    memset(p, 0, n); // fault the pages in before timing
  }
  Buffer(const Buffer &) = delete;
  ~Buffer() { free(base); }
  template <typename T> T *as() const { return static_cast<T *>(p); }
};

//===----------------------------------------------------------------------===//
// Baselines
//===----------------------------------------------------------------------===//

#if defined(__AVX__)
/// Streaming copy of `n` floats with 32-byte stores (4 per iteration).
inline void streamFloatsYmm(float *d, const float *s, size_t n) {
  for (size_t i = 0; i < n; i += 32) {
    __m256 a = _mm256_load_ps(s + i), b = _mm256_load_ps(s + i + 8),
           c = _mm256_load_ps(s + i + 16), e = _mm256_load_ps(s + i + 24);
    _mm256_stream_ps(d + i, a);
    _mm256_stream_ps(d + i + 8, b);
    _mm256_stream_ps(d + i + 16, c);
    _mm256_stream_ps(d + i + 24, e);
  }
}
#endif

#if defined(__AVX512F__)
/// The AVX-512 build's second streaming copy: 32-byte streaming stores, 4
/// per iteration. On AMD Zen 5 four back-to-back 64-byte streaming stores to
/// consecutive lines (streamCopy's loop) move less than 32-byte ones (one
/// thread, standalone: 42 vs 55 GB/s); one 64-byte load and store per line,
/// as streamCopy2 does, moves as much as the 32-byte loop
/// (docs/performance.md, "Two memory streams").
__attribute__((noinline)) inline void streamCopy256(void *dst, const void *src,
                                                    size_t bytes) {
  streamFloatsYmm(static_cast<float *>(dst), static_cast<const float *>(src),
                  bytes / sizeof(float));
  _mm_sfence();
}
#endif

/// One 64-byte line copied with streaming stores (both addresses aligned).
inline void streamLine(char *d, const char *s) {
#if defined(__AVX512F__)
  _mm512_stream_ps(reinterpret_cast<float *>(d),
                   _mm512_load_ps(reinterpret_cast<const float *>(s)));
#elif defined(__AVX__)
  for (int i = 0; i < 64; i += 32)
    _mm256_stream_ps(reinterpret_cast<float *>(d + i),
                     _mm256_load_ps(reinterpret_cast<const float *>(s + i)));
#else
  for (int i = 0; i < 64; i += 16)
    _mm_stream_ps(reinterpret_cast<float *>(d + i),
                  _mm_load_ps(reinterpret_cast<const float *>(s + i)));
#endif
}

/// The streaming copy in two far-apart streams: the two halves of the range
/// together, one line of each per iteration. One sequential stream leaves
/// bandwidth unused on a core (Zen 5, one thread, standalone: 56 -> 62-64
/// GB/s), so the ceiling takes this variant too; the kernels do the same
/// (the pipeline's memory-streams option).
__attribute__((noinline)) inline void streamCopy2(void *dst, const void *src,
                                                  size_t bytes) {
  auto *d = static_cast<char *>(dst);
  auto *s = static_cast<const char *>(src);
  size_t half = (bytes / 2) & ~size_t(63);
  for (size_t i = 0; i < half; i += 64) {
    streamLine(d + i, s + i);
    streamLine(d + half + i, s + half + i);
  }
  for (size_t i = 2 * half; i < bytes; i += 64)
    streamLine(d + i, s + i);
  _mm_sfence();
}

/// Streaming-store copy of `bytes` (a multiple of 256; both pointers 64-byte
/// aligned) with the widest vectors of the ISA the benchmark is built for.
__attribute__((noinline)) inline void streamCopy(void *dst, const void *src,
                                                 size_t bytes) {
  auto *d = static_cast<float *>(dst);
  auto *s = static_cast<const float *>(src);
  size_t n = bytes / sizeof(float);
#if defined(__AVX512F__)
  for (size_t i = 0; i < n; i += 64) {
    __m512 a = _mm512_load_ps(s + i), b = _mm512_load_ps(s + i + 16),
           c = _mm512_load_ps(s + i + 32), e = _mm512_load_ps(s + i + 48);
    _mm512_stream_ps(d + i, a);
    _mm512_stream_ps(d + i + 16, b);
    _mm512_stream_ps(d + i + 32, c);
    _mm512_stream_ps(d + i + 48, e);
  }
#elif defined(__AVX__)
  streamFloatsYmm(d, s, n);
#else
  for (size_t i = 0; i < n; i += 4)
    _mm_stream_ps(d + i, _mm_load_ps(s + i));
#endif
  _mm_sfence();
}

/// The ISA the benchmark (and so the streaming copy) is compiled for.
inline const char *compiledIsa() {
#if defined(__AVX512F__)
  return "avx512";
#elif defined(__AVX2__)
  return "avx2";
#elif defined(__AVX__)
  return "avx";
#else
  return "sse2";
#endif
}

/// The widest x86-64 vector ISA this CPU supports.
inline const char *cpuIsa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return "avx512";
  if (__builtin_cpu_supports("avx2"))
    return "avx2";
  if (__builtin_cpu_supports("avx"))
    return "avx";
  return "sse2";
}

inline std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown";
}

/// `copy(dst, src, bytes)` on `threads` threads, one contiguous chunk each
/// (a multiple of 4 KiB, so chunks never share a cache line or a page).
template <typename CopyFn>
void parallelCopy(CopyFn copy, void *dst, const void *src, size_t bytes,
                  int threads) {
  if (threads <= 1)
    return copy(dst, src, bytes);
  size_t chunk = ((bytes / threads) + 4095) & ~size_t(4095);
#pragma omp parallel num_threads(threads)
  {
    size_t begin = std::min(bytes, chunk * size_t(omp_get_thread_num()));
    size_t end = std::min(bytes, begin + chunk);
    if (end > begin)
      copy(static_cast<char *>(dst) + begin,
           static_cast<const char *>(src) + begin, end - begin);
  }
}

inline double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

__attribute__((target("clflushopt"))) inline void flushLinesOpt(const char *p,
                                                                size_t bytes) {
  for (size_t i = 0; i < bytes; i += 64)
    _mm_clflushopt(p + i);
}

/// Evicts [p, p + bytes) from every cache level (clflushopt where the CPU
/// has it, else clflush), so that the copy timed next moves it from and to
/// memory. A 64 MiB copy fits in a large last-level cache (300 MiB on the
/// Emerald Rapids VM): there the streaming copy of a source that memcpy had
/// just read ran at 29-47 GB/s on two threads, the same copy of buffers
/// not touched since at 28-36 (bench/experiments/cold_buffers.cpp;
/// docs/performance.md, "Cold buffers").
inline void evictFromCaches(const void *p, size_t bytes) {
  static const bool hasOpt = [] {
    unsigned a, b, c, d;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23));
  }();
  const char *base = static_cast<const char *>(p);
  size_t begin = reinterpret_cast<uintptr_t>(base) & 63;
  if (hasOpt) {
    flushLinesOpt(base - begin, bytes + begin);
  } else {
    for (size_t i = 0; i < bytes + begin; i += 64)
      _mm_clflush(base - begin + i);
  }
  _mm_mfence();
}

/// The streaming copy's time for `bytes` on `threads` threads: the fastest
/// of its variants in this call (64-byte stores, on AVX-512 also 32-byte
/// ones, and two streams of lines). `evict`: both buffers evicted before
/// each variant (evictFromCaches), the ceiling from memory to memory, as
/// the harnesses time it.
inline double timeStreamCopy(void *dst, const void *src, size_t bytes,
                             int threads, bool evict = true) {
  auto timed = [&](auto copy) {
    if (evict) {
      evictFromCaches(src, bytes);
      evictFromCaches(dst, bytes);
    }
    double t0 = now();
    parallelCopy(copy, dst, src, bytes, threads);
    return now() - t0;
  };
  double t = timed(streamCopy);
#if defined(__AVX512F__)
  t = std::min(t, timed(streamCopy256));
#endif
  return std::min(t, timed(streamCopy2));
}

inline void memcpyChunk(void *dst, const void *src, size_t bytes) {
  memcpy(dst, src, bytes);
}

/// glibc memcpy's time for `bytes` on `threads` threads, both buffers
/// evicted first.
inline double timeMemcpy(void *dst, const void *src, size_t bytes,
                         int threads) {
  evictFromCaches(src, bytes);
  evictFromCaches(dst, bytes);
  double t0 = now();
  parallelCopy(memcpyChunk, dst, src, bytes, threads);
  return now() - t0;
}

/// The harnesses' JSON up to the cases' list: the machine (`machineExtra`:
/// more of its fields, each starting with ", "), the rounds, the buffers'
/// state when timed.
inline std::string jsonHeader(const std::string &cpu, int threads, int rounds,
                              const std::string &machineExtra = "") {
  return "{\"machine\": {\"isa\": \"" + std::string(cpuIsa()) +
         "\", \"compiled_isa\": \"" + compiledIsa() +
         "\", \"threads\": " + std::to_string(threads) + ", \"cpu\": \"" + cpu +
         "\"" + machineExtra + "}, \"rounds\": " + std::to_string(rounds) +
         ", \"buffers\": \"evicted\", \"cases\": [";
}

/// Writes `json` to `path` (nothing when empty); false, with a message,
/// when it cannot.
/// The options the program and pair harnesses share (bench/run.sh passes
/// the kernel benchmark's --misalign N and --huge-pages on; they are
/// skipped).
struct HarnessArgs {
  int rounds = 0, threads = 1;
  std::string only, jsonPath; // only: ",a,b," (empty: all)
  bool checkOnly = false;
  /// Whether `name` is selected by --only.
  bool selects(const std::string &name) const {
    return only.empty() || only.find("," + name + ",") != std::string::npos;
  }
};

/// Parses `--rounds N --only A,B --check-only --threads N|all --json FILE`
/// into `args` (rounds keeps its default if absent). False, with the usage
/// (`onlyWhat` names --only's items) or the error on stderr, on bad input.
inline bool parseHarnessArgs(int argc, char **argv, const char *onlyWhat,
                             HarnessArgs &args) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) {
      args.rounds = atoi(argv[++i]);
    } else if (a == "--only" && i + 1 < argc) {
      args.only = "," + std::string(argv[++i]) + ",";
    } else if (a == "--check-only") {
      args.checkOnly = true;
    } else if (a == "--threads" && i + 1 < argc) {
      std::string t = argv[++i];
      args.threads = t == "all" ? omp_get_num_procs() : atoi(t.c_str());
    } else if (a == "--json" && i + 1 < argc) {
      args.jsonPath = argv[++i];
    } else if (a == "--misalign" || a == "--huge-pages") {
      if (a == "--misalign")
        ++i;
    } else {
      fprintf(stderr,
              "usage: %s [--rounds N] [--only %s,...] [--check-only] "
              "[--threads N|all] [--json FILE]\n",
              argv[0], onlyWhat);
      return false;
    }
  }
  if (args.rounds < 1 || args.threads < 1) {
    fprintf(stderr, "--rounds and --threads take positive numbers\n");
    return false;
  }
  return true;
}

inline bool writeJson(const std::string &path, const std::string &json) {
  if (path.empty())
    return true;
  std::ofstream out(path);
  out << json;
  if (!out)
    fprintf(stderr, "cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

} // namespace bench

#endif // LAYOUT_BENCH_BASELINES_H
