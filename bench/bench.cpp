//===- bench.cpp - Relayout and broadcast kernels vs memory bandwidth -----===//
//
// Times, round by round, our kernels (bench/kernels/ours.mlir through
// `layout-opt --layout-lower-to-llvm`), upstream MLIR's lowering of the same
// computation (bench/upstream/upstream.mlir), a naive destination-driven
// loop with / and % per element, glibc memcpy and a streaming-store copy
// written for the ISA the benchmark is built for (AVX-512 or AVX2). With
// --threads N, memcpy and the streaming copy run on N threads (OpenMP, one
// contiguous page-aligned chunk each): the machine's bandwidth ceiling for
// that thread count; the OpenMP runtime's default thread count is set to N
// too, so kernels lowered to OpenMP use as many. Every kernel's output is
// first checked bit for bit against a reference. Prints medians of GB/s
// (bytes read + bytes written, each once) and of the per-round ratios to
// memcpy, to the streaming copy and to the ceiling (the faster of the two
// in that round); --json FILE writes the machine and per-case results.
//
// --huge-pages backs every buffer (ours, upstream's inputs and outputs,
// memcpy's and the streaming copy's) with transparent 2 MiB pages
// (madvise(MADV_HUGEPAGE) before the first touch): an ablation that
// measures the TLB's share of a kernel's time (docs/performance.md). The
// default is the allocator's 4 KiB pages.
//
// Usage: bench [--rounds N] [--only NAME[,NAME...]] [--check-only]
//              [--misalign BYTES] [--threads N|all] [--json FILE]
//              [--huge-pages]
//
//===----------------------------------------------------------------------===//

#include "baselines.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <immintrin.h>
#include <memory>
#include <omp.h>
#include <string>
#include <sys/mman.h>
#include <vector>

using f32 = float;
using bf16 = uint16_t;
using i8 = int8_t;

// The sizes the kernels were generated for (bench/gen_kernels.py): the
// benchmark's, or with -DBENCH_SMALL the lit test's.
#ifdef BENCH_SMALL
constexpr int64_t N = 256, RO = 29, CO = 291, B0 = 4, B1 = 8, B2 = 64;
#else
constexpr int64_t N = 4096, RO = 4093, CO = 4099, B0 = 64, B1 = 256, B2 = 1024;
#endif
constexpr int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

#define DECL2(NAME, T0, N0, T1, N1)                                            \
  extern "C" void _mlir_ciface_##NAME(StridedMemRefType<T0, N0> *,             \
                                      StridedMemRefType<T1, N1> *);            \
  extern "C" void _mlir_ciface_up_##NAME(StridedMemRefType<T0, N0> *,          \
                                         StridedMemRefType<T1, N1> *);
DECL2(to_tiled_4096, f32, 2, f32, 4)
DECL2(from_tiled_4096, f32, 4, f32, 2)
DECL2(to_tiled_4093, f32, 2, f32, 4)
DECL2(from_tiled_4093, f32, 4, f32, 2)
DECL2(to_tiled_bf16, bf16, 2, bf16, 6)
DECL2(tiled_to_tiled, f32, 4, f32, 4)
DECL2(tiled_to_cm, f32, 4, f32, 2)
DECL2(cm_to_tiled, f32, 2, f32, 4)
DECL2(tiled_to_tcm, f32, 4, f32, 4)
DECL2(permute_3d, f32, 3, f32, 3)
// The planner's cases (bench/kernels/planner.mlir.in): a bitcast relayout
// folded into a view (the kernel returns the physical array), and a chunk
// copy.
extern "C" void _mlir_ciface_bitcast_view(StridedMemRefType<f32, 4> *,
                                          StridedMemRefType<f32, 2> *);
extern "C" void _mlir_ciface_up_bitcast_view(StridedMemRefType<f32, 2> *,
                                             StridedMemRefType<f32, 4> *);
DECL2(chunk_copy, f32, 2, f32, 4)
#define DECL3(NAME)                                                            \
  extern "C" void _mlir_ciface_##NAME(StridedMemRefType<f32, 2> *,             \
                                      StridedMemRefType<f32, 1> *,             \
                                      StridedMemRefType<f32, 2> *);            \
  extern "C" void _mlir_ciface_up_##NAME(StridedMemRefType<f32, 2> *,          \
                                         StridedMemRefType<f32, 1> *,          \
                                         StridedMemRefType<f32, 2> *);
// Upstream's linalg.pack/unpack raised to our kernels
// (--layout-raise-from-linalg, bench/gen_kernels.py RAISED).
#define DECL_RAISED(NAME, T0, N0, T1, N1)                                      \
  extern "C" void _mlir_ciface_raised_##NAME(StridedMemRefType<T0, N0> *,      \
                                             StridedMemRefType<T1, N1> *);
DECL_RAISED(to_tiled_4096, f32, 2, f32, 4)
DECL_RAISED(from_tiled_4096, f32, 4, f32, 2)
DECL_RAISED(to_tiled_4093, f32, 2, f32, 4)
DECL_RAISED(from_tiled_4093, f32, 4, f32, 2)
#define DECL_CROSS(NAME, T)                                                    \
  extern "C" void _mlir_ciface_##NAME(StridedMemRefType<T, 2> *,               \
                                      StridedMemRefType<T, 2> *,               \
                                      StridedMemRefType<T, 2> *);              \
  extern "C" void _mlir_ciface_up_##NAME(StridedMemRefType<T, 2> *,            \
                                         StridedMemRefType<T, 2> *,            \
                                         StridedMemRefType<T, 2> *);
DECL_CROSS(add_cross_f32, f32)
DECL_CROSS(add_cross_bf16, bf16)
DECL_CROSS(add_rows_f32, f32)
DECL_CROSS(add_rows_bf16, bf16)
DECL3(bcast_add_d1)
DECL3(bcast_add_d0)

// The permutation suite (bench/gen_kernels.py PERMS, via perm_cases.inc in
// the build directory): PERM_CASE(name, type, rank, perm..., sizes...).
#define PERM_CASE(NAME, T, R, P0, P1, P2, P3, S0, S1, S2, S3)                  \
  DECL2(NAME, T, R, T, R)
#include "perm_cases.inc"
#undef PERM_CASE

using namespace bench;

namespace {

//===----------------------------------------------------------------------===//
// Buffers and descriptors
//===----------------------------------------------------------------------===//

template <typename T, int N>
StridedMemRefType<T, N> desc(const Buffer &b, std::vector<int64_t> shape) {
  StridedMemRefType<T, N> d;
  d.basePtr = d.data = b.as<T>();
  d.offset = 0;
  int64_t stride = 1;
  for (int k = N - 1; k >= 0; --k) {
    d.sizes[k] = shape[k];
    d.strides[k] = stride;
    stride *= shape[k];
  }
  return d;
}

//===----------------------------------------------------------------------===//
// Layout descriptions for the reference and the naive loop
//===----------------------------------------------------------------------===//

/// Physical dim k (outermost first) of a layout: `size` slots, each step
/// moves logical dim `dim` by `coef`. Tiled, permuted and repeated-tile
/// layouts of this benchmark are all of this form.
struct PhysDim {
  int64_t size, dim, coef;
};
using Layout = std::vector<PhysDim>;

Layout rowMajor(std::vector<int64_t> sizes) {
  Layout l;
  for (size_t d = 0; d < sizes.size(); ++d)
    l.push_back({sizes[d], int64_t(d), 1});
  return l;
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// {1,0:T(t0,t1)} of a 2-D shape.
Layout tiled2(int64_t r, int64_t c, int64_t t0, int64_t t1) {
  return {
      {ceilDiv(r, t0), 0, t0}, {ceilDiv(c, t1), 1, t1}, {t0, 0, 1}, {t1, 1, 1}};
}

int64_t physSize(const Layout &l) {
  int64_t n = 1;
  for (const PhysDim &p : l)
    n *= p.size;
  return n;
}

/// Physical linear index of logical index `idx` (forward map).
int64_t forward(const Layout &l, const int64_t *idx) {
  int64_t lin = 0;
  for (const PhysDim &p : l)
    lin = lin * p.size + (idx[p.dim] / p.coef) % p.size;
  return lin;
}

/// Reference relayout: logical-order walk, padding pre-filled with 0.
template <typename T>
void referenceRelayout(const Layout &src, const Layout &dst,
                       const std::vector<int64_t> &sizes, const T *in, T *out) {
  memset(out, 0, physSize(dst) * sizeof(T));
  std::vector<int64_t> idx(sizes.size(), 0);
  int64_t total = 1;
  for (int64_t s : sizes)
    total *= s;
  for (int64_t n = 0; n < total; ++n) {
    out[forward(dst, idx.data())] = in[forward(src, idx.data())];
    for (int d = int(sizes.size()) - 1; d >= 0; --d) {
      if (++idx[d] < sizes[d])
        break;
      idx[d] = 0;
    }
  }
}

/// The naive loop: destination-driven, / and % per element (runtime sizes).
template <typename T>
__attribute__((noinline)) void
naiveRelayout(const Layout &src, const Layout &dst,
              const std::vector<int64_t> &sizes, const T *in, T *out) {
  int64_t n = physSize(dst);
  int rank = int(sizes.size());
  int64_t idx[8];
  for (int64_t i = 0; i < n; ++i) {
    for (int d = 0; d < rank; ++d)
      idx[d] = 0;
    int64_t rest = i;
    for (int k = int(dst.size()) - 1; k >= 0; --k) {
      idx[dst[k].dim] += (rest % dst[k].size) * dst[k].coef;
      rest /= dst[k].size;
    }
    bool valid = true;
    for (int d = 0; d < rank; ++d)
      valid &= idx[d] < sizes[d];
    out[i] = valid ? in[forward(src, idx)] : T(0);
  }
}

__attribute__((noinline)) void naiveBroadcastAdd(const float *m, const float *v,
                                                 float *out, int64_t rows,
                                                 int64_t cols, int dim) {
  int64_t n = rows * cols;
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = i / cols, c = i % cols;
    out[i] = m[i] + v[dim == 1 ? c : r];
  }
}

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

using Fn = std::function<void()>;

/// A kernel's C interface and its ranks.
template <typename T, int NS, int ND> struct KFn {
  static constexpr int srcRank = NS, dstRank = ND;
  void (*fn)(StridedMemRefType<T, NS> *, StridedMemRefType<T, ND> *);
};

/// printf into a std::string (short texts).
template <typename... Args> std::string strf(const char *fmt, Args... args) {
  char text[256];
  snprintf(text, sizeof(text), fmt, args...);
  return text;
}

struct Case {
  std::string name;
  size_t bytes; // read + written
  Fn ours, upstream, naive;
  Fn reference;
  /// Checked instead of `ours` when set (a kernel that returns a view
  /// instead of writing `out`: this copies the view to `out`).
  Fn oursCheck;
  const Buffer *out = nullptr, *ref = nullptr;
  /// The buffers each timed call reads and writes, evicted from the caches
  /// before it (evictFromCaches).
  std::vector<const Buffer *> moved;
  /// The case this one is measured against besides the copies (an
  /// elementwise op with a transposed operand: its row-major twin, the
  /// same bytes): `ours x twin` is the per-round ratio of their times.
  std::string twin;
};

template <typename T> void fillPattern(const Buffer &b) {
  size_t n = b.bytes / sizeof(T);
  T *p = b.as<T>();
  for (size_t i = 0; i < n; ++i) {
    if constexpr (sizeof(T) == 1)
      p[i] = T(i * 2654435761u >> 13);
    else if constexpr (sizeof(T) == 2)
      p[i] = T(0x3f80 + (i * 2654435761u >> 7) % 0x3000); // finite bf16
    else
      p[i] = T(float((i * 2654435761u) % 1000003) * 0.25f + 1.0f);
  }
}

} // namespace

int main(int argc, char **argv) {
  int rounds = 11;
  std::string only, jsonPath;
  bool checkOnly = false;
  int threads = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (a == "--only" && i + 1 < argc)
      only = "," + std::string(argv[++i]) + ",";
    else if (a == "--check-only")
      checkOnly = true;
    else if (a == "--misalign" && i + 1 < argc)
      gMisalign = size_t(atoi(argv[++i]));
    else if (a == "--threads" && i + 1 < argc) {
      std::string t = argv[++i];
      threads = t == "all" ? omp_get_num_procs() : atoi(t.c_str());
      if (threads < 1) {
        fprintf(stderr, "--threads takes a positive number or 'all'\n");
        return 2;
      }
    } else if (a == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (a == "--huge-pages")
      gHugePages = true;
    else {
      fprintf(stderr,
              "usage: %s [--rounds N] [--only a,b] [--check-only] "
              "[--misalign BYTES] [--threads N|all] [--json FILE] "
              "[--huge-pages]\n",
              argv[0]);
      return 2;
    }
  }
  // Kernels lowered to OpenMP use the runtime's default thread count.
  omp_set_num_threads(threads);
  auto wanted = [&](const std::string &n) {
    return only.empty() || only.find("," + n + ",") != std::string::npos;
  };

  // memcpy / streaming-copy buffers: 64 MiB.
  const size_t copyBytes = size_t(64) << 20;
  Buffer cpA(copyBytes, 0), cpB(copyBytes, 0);
  fillPattern<float>(cpA);

  std::vector<Case> cases;
  std::vector<std::unique_ptr<Buffer>> keep;
  auto buf = [&](size_t bytes) -> const Buffer & {
    keep.push_back(std::make_unique<Buffer>(bytes));
    return *keep.back();
  };

  // Relayout cases: source and destination layouts over logical sizes.
  auto relayout2 = [&](std::string name, std::vector<int64_t> sizes, Layout src,
                       Layout dst, auto ours, auto up,
                       std::vector<int64_t> srcShape,
                       std::vector<int64_t> dstShape, auto tag) {
    using T = decltype(tag);
    if (!wanted(name))
      return;
    constexpr int NS = decltype(ours)::srcRank, ND = decltype(ours)::dstRank;
    size_t inBytes = physSize(src) * sizeof(T),
           outBytes = physSize(dst) * sizeof(T);
    const Buffer &in = buf(inBytes), &out = buf(outBytes), &ref = buf(outBytes);
    fillPattern<T>(in);
    // Padding slots of a tiled source hold 0 (as XLA writes them).
    if (physSize(src) != [&] {
          int64_t n = 1;
          for (int64_t s : sizes)
            n *= s;
          return n;
        }()) {
      std::vector<T> logical(inBytes / sizeof(T));
      referenceRelayout<T>(src, src, sizes, in.as<T>(), logical.data());
      memcpy(in.p, logical.data(), inBytes);
    }
    Case c;
    c.name = name;
    c.bytes = inBytes + outBytes;
    c.out = &out;
    c.moved = {&in, &out};
    c.ref = &ref;
    auto sd =
        std::make_shared<StridedMemRefType<T, NS>>(desc<T, NS>(in, srcShape));
    auto dd =
        std::make_shared<StridedMemRefType<T, ND>>(desc<T, ND>(out, dstShape));
    c.ours = [=] { ours.fn(sd.get(), dd.get()); };
    c.upstream = [=] { up(sd.get(), dd.get()); };
    c.naive = [=, &in, &out] {
      naiveRelayout<T>(src, dst, sizes, in.as<T>(), out.as<T>());
    };
    c.reference = [=, &in, &ref] {
      referenceRelayout<T>(src, dst, sizes, in.as<T>(), ref.as<T>());
    };
    cases.push_back(std::move(c));
  };
  using F22 = KFn<f32, 2, 4>;
  using F42 = KFn<f32, 4, 2>;
  using F44 = KFn<f32, 4, 4>;
  using F33 = KFn<f32, 3, 3>;
  using B26 = KFn<bf16, 2, 6>;

  relayout2("to_tiled_4096", {N, N}, rowMajor({N, N}), tiled2(N, N, 8, 128),
            F22{_mlir_ciface_to_tiled_4096}, _mlir_ciface_up_to_tiled_4096,
            {N, N}, {N / 8, N / 128, 8, 128}, f32());
  relayout2("from_tiled_4096", {N, N}, tiled2(N, N, 8, 128), rowMajor({N, N}),
            F42{_mlir_ciface_from_tiled_4096}, _mlir_ciface_up_from_tiled_4096,
            {N / 8, N / 128, 8, 128}, {N, N}, f32());
  relayout2("to_tiled_4093", {RO, CO}, rowMajor({RO, CO}),
            tiled2(RO, CO, 8, 128), F22{_mlir_ciface_to_tiled_4093},
            _mlir_ciface_up_to_tiled_4093, {RO, CO},
            {cdiv(RO, 8), cdiv(CO, 128), 8, 128}, f32());
  relayout2("from_tiled_4093", {RO, CO}, tiled2(RO, CO, 8, 128),
            rowMajor({RO, CO}), F42{_mlir_ciface_from_tiled_4093},
            _mlir_ciface_up_from_tiled_4093,
            {cdiv(RO, 8), cdiv(CO, 128), 8, 128}, {RO, CO}, f32());
  // The same upstream linalg.pack/unpack functions raised to our kernels:
  // "ours" is upstream's IR through --layout-raise-from-linalg, "upstream"
  // its upstream lowering (upstream-pack vs raised-pack).
  relayout2("raised_to_tiled_4096", {N, N}, rowMajor({N, N}),
            tiled2(N, N, 8, 128), F22{_mlir_ciface_raised_to_tiled_4096},
            _mlir_ciface_up_to_tiled_4096, {N, N}, {N / 8, N / 128, 8, 128},
            f32());
  relayout2("raised_from_tiled_4096", {N, N}, tiled2(N, N, 8, 128),
            rowMajor({N, N}), F42{_mlir_ciface_raised_from_tiled_4096},
            _mlir_ciface_up_from_tiled_4096, {N / 8, N / 128, 8, 128}, {N, N},
            f32());
  relayout2("raised_to_tiled_4093", {RO, CO}, rowMajor({RO, CO}),
            tiled2(RO, CO, 8, 128), F22{_mlir_ciface_raised_to_tiled_4093},
            _mlir_ciface_up_to_tiled_4093, {RO, CO},
            {cdiv(RO, 8), cdiv(CO, 128), 8, 128}, f32());
  relayout2("raised_from_tiled_4093", {RO, CO}, tiled2(RO, CO, 8, 128),
            rowMajor({RO, CO}), F42{_mlir_ciface_raised_from_tiled_4093},
            _mlir_ciface_up_from_tiled_4093,
            {cdiv(RO, 8), cdiv(CO, 128), 8, 128}, {RO, CO}, f32());
  // bf16 {1,0:T(8,128)(2,1)}: 8x128 tiles, each stored as 4x128 (2,1) tiles.
  relayout2("to_tiled_bf16", {N, N}, rowMajor({N, N}),
            Layout{{N / 8, 0, 8},
                   {N / 128, 1, 128},
                   {4, 0, 2},
                   {128, 1, 1},
                   {2, 0, 1},
                   {1, 1, 1}},
            B26{_mlir_ciface_to_tiled_bf16}, _mlir_ciface_up_to_tiled_bf16,
            {N, N}, {N / 8, N / 128, 4, 128, 2, 1}, bf16());
  relayout2("tiled_to_tiled", {N, N}, tiled2(N, N, 8, 128),
            tiled2(N, N, 16, 64), F44{_mlir_ciface_tiled_to_tiled},
            _mlir_ciface_up_tiled_to_tiled, {N / 8, N / 128, 8, 128},
            {N / 16, N / 64, 16, 64}, f32());
  // The crossing pairs: {1,0:T(8,128)} <-> {0,1} (physical [C][R]) and
  // {1,0:T(8,128)} -> {0,1:T(8,128)} (physical [C/8][R/128][8][128]).
  Layout colMajor{{N, 1, 1}, {N, 0, 1}};
  Layout tiledColMajor{
      {N / 8, 1, 8}, {N / 128, 0, 128}, {8, 1, 1}, {128, 0, 1}};
  relayout2("tiled_to_cm", {N, N}, tiled2(N, N, 8, 128), colMajor,
            F42{_mlir_ciface_tiled_to_cm}, _mlir_ciface_up_tiled_to_cm,
            {N / 8, N / 128, 8, 128}, {N, N}, f32());
  relayout2("cm_to_tiled", {N, N}, colMajor, tiled2(N, N, 8, 128),
            F22{_mlir_ciface_cm_to_tiled}, _mlir_ciface_up_cm_to_tiled, {N, N},
            {N / 8, N / 128, 8, 128}, f32());
  relayout2("tiled_to_tcm", {N, N}, tiled2(N, N, 8, 128), tiledColMajor,
            F44{_mlir_ciface_tiled_to_tcm}, _mlir_ciface_up_tiled_to_tcm,
            {N / 8, N / 128, 8, 128}, {N / 8, N / 128, 8, 128}, f32());
  relayout2("permute_3d", {B0, B1, B2}, rowMajor({B0, B1, B2}),
            Layout{{B1, 1, 1}, {B0, 0, 1}, {B2, 2, 1}},
            F33{_mlir_ciface_permute_3d}, _mlir_ciface_up_permute_3d,
            {B0, B1, B2}, {B1, B0, B2}, f32());

  // The permutation suite: row-major -> physical order (p0, p1, ...).
  auto permute = [&](std::string name, std::vector<int64_t> perm,
                     std::vector<int64_t> sizes, auto ours, auto up, auto tag) {
    Layout dst;
    std::vector<int64_t> physShape;
    for (int64_t p : perm) {
      dst.push_back({sizes[p], p, 1});
      physShape.push_back(sizes[p]);
    }
    relayout2(name, sizes, rowMajor(sizes), dst, ours, up, sizes, physShape,
              tag);
  };
  auto firstN = [](std::initializer_list<int64_t> values, int n) {
    return std::vector<int64_t>(values.begin(), values.begin() + n);
  };
#define PERM_CASE(NAME, T, R, P0, P1, P2, P3, S0, S1, S2, S3)                  \
  permute(#NAME, firstN({P0, P1, P2, P3}, R), firstN({S0, S1, S2, S3}, R),     \
          KFn<T, R, R>{_mlir_ciface_##NAME}, _mlir_ciface_up_##NAME, T());
#include "perm_cases.inc"
#undef PERM_CASE

  // The planner's cases. chunk_copy: row-major -> {1,0:T(8,N/8)}, runs of
  // N/8 elements (plan chunk-copy).
  relayout2("chunk_copy", {N, N}, rowMajor({N, N}), tiled2(N, N, 8, N / 8),
            F22{_mlir_ciface_chunk_copy}, _mlir_ciface_up_chunk_copy, {N, N},
            {N / 8, 8, 8, N / 8}, f32());
  // bitcast_view: f32[N,128] row-major -> {1,0:T(8,128)} (plan bitcast),
  // folded by --layout-fold-relayouts: `ours` returns a view of its
  // argument. Checked: the view starts at the source's first byte and has
  // the reference's bytes. GB/s counts the bytes a copy would move.
  if (wanted("bitcast_view")) {
    const int64_t rows = N;
    size_t bytes = size_t(rows) * 128 * sizeof(f32);
    const Buffer &in = buf(bytes), &out = buf(bytes), &ref = buf(bytes);
    fillPattern<f32>(in);
    auto sd = std::make_shared<StridedMemRefType<f32, 2>>(
        desc<f32, 2>(in, {rows, 128}));
    auto dd = std::make_shared<StridedMemRefType<f32, 4>>(
        desc<f32, 4>(out, {rows / 8, 1, 8, 128}));
    auto view = std::make_shared<StridedMemRefType<f32, 4>>();
    Case c;
    c.name = "bitcast_view";
    c.bytes = 2 * bytes;
    c.out = &out;
    c.moved = {&in, &out};
    c.ref = &ref;
    c.ours = [=] { _mlir_ciface_bitcast_view(view.get(), sd.get()); };
    c.oursCheck = [=, &in, &out] {
      _mlir_ciface_bitcast_view(view.get(), sd.get());
      const int64_t expected[4] = {rows / 8, 1, 8, 128};
      bool isView = view->data + view->offset == in.as<f32>();
      for (int k = 0; k < 4; ++k)
        isView &= view->sizes[k] == expected[k];
      isView &= view->strides[3] == 1 && view->strides[2] == 128 &&
                view->strides[0] == 1024;
      if (!isView) {
        fprintf(stderr, "bitcast_view: not a view of the source\n");
        return; // `out` keeps its fill pattern: a mismatch
      }
      memcpy(out.p, view->data + view->offset, out.bytes);
    };
    c.upstream = [=] { _mlir_ciface_up_bitcast_view(sd.get(), dd.get()); };
    Layout src = rowMajor({rows, 128}), dst = tiled2(rows, 128, 8, 128);
    c.naive = [=, &in, &out] {
      naiveRelayout<f32>(src, dst, {rows, 128}, in.as<f32>(), out.as<f32>());
    };
    c.reference = [=, &in, &ref] {
      referenceRelayout<f32>(src, dst, {rows, 128}, in.as<f32>(),
                             ref.as<f32>());
    };
    cases.push_back(std::move(c));
  }

  using BFn = void (*)(StridedMemRefType<f32, 2> *, StridedMemRefType<f32, 1> *,
                       StridedMemRefType<f32, 2> *);
  auto bcast = [&](std::string name, int dim, BFn ours, BFn up) {
    if (!wanted(name))
      return;
    const int64_t n = N;
    const Buffer &m = buf(n * n * 4), &v = buf(n * 4), &out = buf(n * n * 4),
                 &ref = buf(n * n * 4);
    fillPattern<float>(m);
    fillPattern<float>(v);
    auto md =
        std::make_shared<StridedMemRefType<f32, 2>>(desc<f32, 2>(m, {n, n}));
    auto vd = std::make_shared<StridedMemRefType<f32, 1>>(desc<f32, 1>(v, {n}));
    auto od =
        std::make_shared<StridedMemRefType<f32, 2>>(desc<f32, 2>(out, {n, n}));
    Case c;
    c.name = name;
    c.bytes = size_t(n) * n * 4 * 2 + n * 4;
    c.out = &out;
    c.moved = {&m, &v, &out};
    c.ref = &ref;
    c.ours = [=] { ours(md.get(), vd.get(), od.get()); };
    c.upstream = [=] { up(md.get(), vd.get(), od.get()); };
    c.naive = [=, &m, &v, &out] {
      naiveBroadcastAdd(m.as<float>(), v.as<float>(), out.as<float>(), n, n,
                        dim);
    };
    c.reference = [=, &m, &v, &ref] {
      const float *a = m.as<float>(), *b = v.as<float>();
      float *o = ref.as<float>();
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          o[i * n + j] = a[i * n + j] + b[dim == 1 ? j : i];
    };
    cases.push_back(std::move(c));
  };
  bcast("bcast_add_d1", 1, _mlir_ciface_bcast_add_d1,
        _mlir_ciface_up_bcast_add_d1);
  bcast("bcast_add_d0", 0, _mlir_ciface_bcast_add_d0,
        _mlir_ciface_up_bcast_add_d0);

  // out{0,1} = a (row-major) + b{0,1}: physical out[j][i] = a[i][j] +
  // b[j][i]; bf16 added in f32 and rounded to nearest even (as XLA).
  // `cross`: a is read transposed (the result's {0,1} order against a's
  // rows), `partner` its twin; otherwise every operand is in the result's
  // order (the twin of `partner`, run whenever that case is).
  auto crossAdd = [&](std::string name, auto ours, auto up, auto tag,
                      bool cross, std::string partner) {
    using T = decltype(tag);
    if (!wanted(name) && (cross || !wanted(partner)))
      return;
    const int64_t n = N;
    size_t bytes = size_t(n) * n * sizeof(T);
    const Buffer &a = buf(bytes), &bb = buf(bytes), &out = buf(bytes),
                 &ref = buf(bytes);
    fillPattern<T>(a);
    fillPattern<T>(bb);
    auto ad = std::make_shared<StridedMemRefType<T, 2>>(desc<T, 2>(a, {n, n}));
    auto bd = std::make_shared<StridedMemRefType<T, 2>>(desc<T, 2>(bb, {n, n}));
    auto od =
        std::make_shared<StridedMemRefType<T, 2>>(desc<T, 2>(out, {n, n}));
    auto add = [](T x, T y) -> T {
      if constexpr (sizeof(T) == 2) {
        auto toF = [](uint16_t h) {
          uint32_t u = uint32_t(h) << 16;
          float f;
          memcpy(&f, &u, 4);
          return f;
        };
        float f = toF(x) + toF(y);
        uint32_t u;
        memcpy(&u, &f, 4);
        return T((u + 0x7fff + ((u >> 16) & 1)) >> 16);
      } else {
        return x + y;
      }
    };
    auto loop = [=](const T *pa, const T *pb, T *po) {
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i)
          po[j * n + i] = add(pa[cross ? i * n + j : j * n + i], pb[j * n + i]);
    };
    Case c;
    c.name = name;
    c.bytes = 3 * bytes;
    c.out = &out;
    c.moved = {&a, &bb, &out};
    c.ref = &ref;
    if (cross)
      c.twin = partner;
    c.ours = [=] { ours(ad.get(), bd.get(), od.get()); };
    c.upstream = [=] { up(ad.get(), bd.get(), od.get()); };
    c.naive = [=, &a, &bb, &out] { loop(a.as<T>(), bb.as<T>(), out.as<T>()); };
    c.reference = [=, &a, &bb, &ref] {
      loop(a.as<T>(), bb.as<T>(), ref.as<T>());
    };
    cases.push_back(std::move(c));
  };
  crossAdd("add_cross_f32", _mlir_ciface_add_cross_f32,
           _mlir_ciface_up_add_cross_f32, f32(), true, "add_rows_f32");
  crossAdd("add_cross_bf16", _mlir_ciface_add_cross_bf16,
           _mlir_ciface_up_add_cross_bf16, bf16(), true, "add_rows_bf16");
  crossAdd("add_rows_f32", _mlir_ciface_add_rows_f32,
           _mlir_ciface_up_add_rows_f32, f32(), false, "add_cross_f32");
  crossAdd("add_rows_bf16", _mlir_ciface_add_rows_bf16,
           _mlir_ciface_up_add_rows_bf16, bf16(), false, "add_cross_bf16");

  // Correctness: every implementation, bit for bit, output pre-filled with
  // a pattern that no kernel writes (padding must be written too).
  int failures = 0;
  for (Case &c : cases) {
    c.reference();
    const char *impls[] = {"ours", "upstream", "naive"};
    Fn fns[] = {c.oursCheck ? c.oursCheck : c.ours, c.upstream, c.naive};
    for (int k = 0; k < 3; ++k) {
      memset(c.out->p, 0xA5, c.out->bytes);
      fns[k]();
      if (memcmp(c.out->p, c.ref->p, c.out->bytes)) {
        size_t i = 0;
        const auto *a = static_cast<const unsigned char *>(c.out->p);
        const auto *b = static_cast<const unsigned char *>(c.ref->p);
        while (a[i] == b[i])
          ++i;
        fprintf(stderr, "MISMATCH %s %s: first differing byte %zu\n",
                c.name.c_str(), impls[k], i);
        ++failures;
      }
    }
    printf("check %-16s ours/upstream/naive vs reference: %s\n", c.name.c_str(),
           failures ? "FAIL" : "ok");
  }
  if (failures)
    return 1;
  if (checkOnly)
    return 0;

  // Timing: each round runs, per case, memcpy, the streaming copy, ours,
  // upstream and naive once each (interleaved, so they see the same machine
  // state); ratios are per round, then the median over rounds.
  struct Times {
    std::vector<double> memcpyT, streamT, ours, up, naive;
  };
  std::vector<Times> times(cases.size());
  // Every timed call starts from memory: its buffers evicted from the
  // caches first (a 64 MiB buffer the call before touched can still sit in
  // a large last-level cache: docs/performance.md, "Cold buffers").
  auto timeIt = [](const Fn &f, const std::vector<const Buffer *> &moved) {
    for (const Buffer *b : moved)
      evictFromCaches(b->p, b->bytes);
    double t0 = now();
    f();
    return now() - t0;
  };
  Fn memcpyFn = [&] {
    parallelCopy(memcpyChunk, cpB.p, cpA.p, copyBytes, threads);
  };
  Fn streamFn = [&] {
    parallelCopy(streamCopy, cpB.p, cpA.p, copyBytes, threads);
  };
  // The streaming copy's time: the faster of its variants in each round.
  auto timeStream = [&] {
    return timeStreamCopy(cpB.p, cpA.p, copyBytes, threads);
  };
  // Warm-up (page faults of the upstream temporaries are part of its cost,
  // but the first-touch of our own buffers is not; the OpenMP threads are
  // started).
  for (const Case &c : cases)
    if (c.moved.empty()) {
      fprintf(stderr, "case %s names no buffers to evict before timing\n",
              c.name.c_str());
      return 1;
    }
  memcpyFn();
  streamFn();
  for (Case &c : cases)
    c.ours();
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < cases.size(); ++i) {
      Times &t = times[i];
      t.memcpyT.push_back(timeMemcpy(cpB.p, cpA.p, copyBytes, threads));
      t.streamT.push_back(timeStream());
      t.ours.push_back(timeIt(cases[i].ours, cases[i].moved));
      t.up.push_back(timeIt(cases[i].upstream, cases[i].moved));
      t.naive.push_back(timeIt(cases[i].naive, cases[i].moved));
    }
    fprintf(stderr, "round %d/%d done\n", r + 1, rounds);
  }

  double cpGB = 2.0 * copyBytes / 1e9;
  std::string cpu = cpuModel();
  printf("\nmachine: %s, cpu ISA %s, benchmark built for %s, %d thread(s) "
         "for memcpy, the streaming copy and OpenMP kernels, %s pages\n",
         cpu.c_str(), cpuIsa(), compiledIsa(), threads,
         gHugePages ? "2 MiB (--huge-pages)" : "4 KiB");
  printf("\n%d rounds, medians. GB/s = (bytes read + bytes written) / time; "
         "x memcpy / x stream / x ceiling: per-round ratios to glibc memcpy, "
         "to the %s streaming-store copy (64 MiB, both on %d thread(s)%s) "
         "and to the faster of the two in that round; every timed call "
         "starts with its buffers evicted from the caches.\n\n",
         rounds, compiledIsa(), threads,
#if defined(__AVX512F__)
         "; the stream is the fastest of 64- and 32-byte streaming stores "
         "and of two streams of 64-byte lines"
#else
         "; the stream is the faster of one and two streams"
#endif
  );
  printf("| case | memcpy GB/s | stream GB/s | ours GB/s | ours x memcpy | "
         "ours x stream | upstream GB/s | ours x upstream | naive GB/s | "
         "ours x naive | ceiling GB/s | ours x ceiling |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::string json = jsonHeader(cpu, threads, rounds,
                                std::string(", \"huge_pages\": ") +
                                    (gHugePages ? "true" : "false"));
  // The times of the case named `name` (a twin that was run), or null.
  auto findTimes = [&](const std::string &name) -> const Times * {
    for (size_t j = 0; j < cases.size(); ++j)
      if (!name.empty() && cases[j].name == name)
        return &times[j];
    return nullptr;
  };
  std::string twinLines;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Times &t = times[i];
    double gb = cases[i].bytes / 1e9;
    std::vector<double> rMem, rStr, rCeil, rUp, rNaive, ceil;
    for (int r = 0; r < rounds; ++r) {
      double fastest = std::min(t.memcpyT[r], t.streamT[r]);
      rMem.push_back(t.memcpyT[r] / t.ours[r] * gb / cpGB);
      rStr.push_back(t.streamT[r] / t.ours[r] * gb / cpGB);
      rCeil.push_back(fastest / t.ours[r] * gb / cpGB);
      ceil.push_back(cpGB / fastest);
      rUp.push_back(t.up[r] / t.ours[r]);
      rNaive.push_back(t.naive[r] / t.ours[r]);
    }
    printf("| %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.1f | "
           "%.1f | %.1f | %.2f |\n",
           cases[i].name.c_str(), cpGB / median(t.memcpyT),
           cpGB / median(t.streamT), gb / median(t.ours), median(rMem),
           median(rStr), gb / median(t.up), median(rUp), gb / median(t.naive),
           median(rNaive), median(ceil), median(rCeil));
    char entry[512];
    snprintf(entry, sizeof(entry),
             "%s{\"name\": \"%s\", \"ours_gbps\": %.3f, "
             "\"ceiling_gbps\": %.3f, \"memcpy_gbps\": %.3f, "
             "\"stream_gbps\": %.3f, \"upstream_gbps\": %.3f, "
             "\"ratio_to_ceiling\": %.4f, \"ratio_to_memcpy\": %.4f}",
             i ? ", " : "", cases[i].name.c_str(), gb / median(t.ours),
             median(ceil), cpGB / median(t.memcpyT), cpGB / median(t.streamT),
             gb / median(t.up), median(rCeil), median(rMem));
    json += entry;
    if (const Times *twin = findTimes(cases[i].twin)) {
      std::vector<double> rTwin;
      for (int r = 0; r < rounds; ++r)
        rTwin.push_back(twin->ours[r] / t.ours[r]);
      twinLines += "| " + cases[i].name + " | " + cases[i].twin + " | " +
                   strf("%.2f", median(rTwin)) + " |\n";
      json.pop_back(); // the entry's closing brace
      json += strf(", \"twin\": \"%s\", \"ratio_to_twin\": %.4f}",
                   cases[i].twin.c_str(), median(rTwin));
    }
  }
  if (!twinLines.empty())
    printf("\nours x twin (per-round time of the twin / time of the case, "
           "medians; issue 27: >= 0.6):\n\n| case | twin | ours x twin "
           "|\n|---|---|---|\n%s",
           twinLines.c_str());
  json += "]}\n";
  return writeJson(jsonPath, json) ? 0 : 1;
}
