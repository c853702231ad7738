//===- pairs.cpp - The layout pair matrix ---------------------------------===//
//
// Times every relayout of bench/pairs/gen_pairs.py (each source layout
// class into each destination class) against memcpy and the streaming copy
// of the same bytes (the source's and the destination's physical buffers,
// padding slots included, read and written once), measured in the same
// round on the same thread count, and prints one markdown matrix per
// element type and shape (docs/performance.md, "Layout pair matrix"). Every
// result is first compared byte for byte (padding slots included) with the
// scalar lowering of the same relayout (vector-bytes=0).
//
// Usage: pairs [--rounds N] [--only MATRIX[,MATRIX...]] [--check-only]
//              [--threads N|all] [--json FILE]
//
//===----------------------------------------------------------------------===//

#include "../baselines.h"

#include <map>
#include <memory>
#include <vector>

using namespace bench;

namespace {
/// The descriptor of a rank-1 memref.
struct Desc {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};
using PairFn = void (*)(Desc *, Desc *);
struct PairSpec {
  const char *matrix, *shape, *src, *dst;
  int elementBytes;
  int64_t srcElements, dstElements;
  PairFn fn, scalar;
};
} // namespace

#include "pairs.inc"

namespace {
/// Small integers (-8..8) in every slot, exact in every element type of
/// the matrices (u8, bf16, f32, f64; u8 holds them modulo 256).
void fill(const Buffer &b, int elementBytes) {
  size_t n = b.bytes / elementBytes;
  for (size_t i = 0; i < n; ++i) {
    float v = float(int((i * 2654435761u) % 17) - 8);
    if (elementBytes == 1) {
      b.as<uint8_t>()[i] = uint8_t(int(v));
    } else if (elementBytes == 8) {
      b.as<double>()[i] = v;
    } else if (elementBytes == 4) {
      b.as<float>()[i] = v;
    } else {
      uint32_t bits;
      memcpy(&bits, &v, 4);
      b.as<uint16_t>()[i] = uint16_t(bits >> 16);
    }
  }
}

struct Pair {
  const PairSpec *spec;
  std::unique_ptr<Buffer> src, dst, ref;
  Desc s, d, r;
  explicit Pair(const PairSpec &p) : spec(&p) {
    src = std::make_unique<Buffer>(p.srcElements * p.elementBytes, 0);
    dst = std::make_unique<Buffer>(p.dstElements * p.elementBytes, 0);
    ref = std::make_unique<Buffer>(p.dstElements * p.elementBytes, 0);
    fill(*src, p.elementBytes);
    memset(dst->p, 0x5a, dst->bytes);
    memset(ref->p, 0xa5, ref->bytes);
    s = {src->p, src->p, 0, p.srcElements, 1};
    d = {dst->p, dst->p, 0, p.dstElements, 1};
    r = {ref->p, ref->p, 0, p.dstElements, 1};
  }
  size_t bytes() const { return src->bytes + dst->bytes; }
};
} // namespace

int main(int argc, char **argv) {
  HarnessArgs args;
  args.rounds = 3;
  if (!parseHarnessArgs(argc, argv, "MATRIX", args))
    return 2;
  int rounds = args.rounds, threads = args.threads;
  bool checkOnly = args.checkOnly;
  const std::string &jsonPath = args.jsonPath;
  omp_set_num_threads(threads);

  // Check every cell against the scalar lowering, one at a time (the
  // buffers of a large matrix do not all fit at once).
  int failures = 0, checked = 0;
  for (const PairSpec &p : kPairs) {
    if (!args.selects(p.matrix))
      continue;
    Pair pair(p);
    p.fn(&pair.s, &pair.d);
    p.scalar(&pair.s, &pair.r);
    ++checked;
    if (memcmp(pair.dst->p, pair.ref->p, pair.dst->bytes) != 0) {
      fprintf(stderr, "%s %s: %s -> %s differs from the scalar lowering\n",
              p.matrix, p.shape, p.src, p.dst);
      ++failures;
    }
  }
  printf("pairs: %d checked, %d mismatches\n", checked, failures);
  if (failures || checkOnly)
    return failures ? 1 : 0;

  const size_t copyBytes = size_t(64) << 20;
  Buffer cpA(copyBytes, 0), cpB(copyBytes, 0);
  memset(cpA.p, 1, copyBytes);
  double cpBytes = 2.0 * copyBytes;

  std::string cpu = cpuModel();
  printf("\nmachine: %s, cpu ISA %s, benchmark built for %s, %d thread(s), "
         "%d rounds\n",
         cpu.c_str(), cpuIsa(), compiledIsa(), threads, rounds);
  printf("cell: GB/s (bytes of the source's and the destination's physical "
         "buffers / time), and in parentheses x memcpy / x the streaming "
         "copy of as many bytes in the same round (medians); each copy and "
         "cell starts with its buffers evicted from the caches\n");
  std::string json = jsonHeader(cpu, threads, rounds);
  bool firstCase = true;
  // One matrix at a time, each cell timed in its own rounds.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const PairSpec *>> matrices;
  for (const PairSpec &p : kPairs) {
    if (!args.selects(p.matrix))
      continue;
    if (!matrices.count(p.matrix))
      order.push_back(p.matrix);
    matrices[p.matrix].push_back(&p);
  }
  for (const std::string &m : order) {
    const std::vector<const PairSpec *> &cells = matrices[m];
    std::vector<std::string> classes;
    for (const PairSpec *p : cells)
      if (std::find(classes.begin(), classes.end(), p->dst) == classes.end())
        classes.push_back(p->dst);
    printf("\n%s %s, rows: source, columns: destination\n\n| from \\ to |",
           m.c_str(), cells.front()->shape);
    for (const std::string &c : classes)
      printf(" %s |", c.c_str());
    printf("\n|---|");
    for (size_t c = 0; c < classes.size(); ++c)
      printf("---|");
    for (size_t k = 0; k < cells.size(); ++k) {
      const PairSpec &p = *cells[k];
      Pair pair(p);
      std::vector<double> t, rMem, rStr, gMem, gStr;
      for (int r = 0; r < rounds; ++r) {
        // Every copy starts from memory: a 64 MiB buffer that the copy
        // before it touched can still sit in a large last-level cache
        // (docs/performance.md, "Cold buffers").
        double memcpyRate =
            cpBytes / timeMemcpy(cpB.p, cpA.p, copyBytes, threads);
        double streamRate =
            cpBytes / timeStreamCopy(cpB.p, cpA.p, copyBytes, threads);
        evictFromCaches(pair.src->p, pair.src->bytes);
        evictFromCaches(pair.dst->p, pair.dst->bytes);
        double t0 = now();
        p.fn(&pair.s, &pair.d);
        double dt = now() - t0;
        t.push_back(dt);
        rMem.push_back(pair.bytes() / memcpyRate / dt);
        rStr.push_back(pair.bytes() / streamRate / dt);
        gMem.push_back(memcpyRate / 1e9);
        gStr.push_back(streamRate / 1e9);
      }
      double gbps = pair.bytes() / median(t) / 1e9;
      if (k % classes.size() == 0)
        printf("\n| %s |", p.src);
      printf(" %.1f (%.2f / %.2f) |", gbps, median(rMem), median(rStr));
      fflush(stdout);
      double ceil = std::max(median(gMem), median(gStr));
      char entry[512];
      snprintf(entry, sizeof(entry),
               "%s{\"name\": \"pair_%s_%s_to_%s\", \"ours_gbps\": %.3f, "
               "\"ceiling_gbps\": %.3f, \"memcpy_gbps\": %.3f, "
               "\"stream_gbps\": %.3f, \"ratio_to_ceiling\": %.4f, "
               "\"ratio_to_memcpy\": %.4f}",
               firstCase ? "" : ", ", m.c_str(), p.src, p.dst, gbps, ceil,
               median(gMem), median(gStr), gbps / ceil, median(rMem));
      firstCase = false;
      json += entry;
    }
    printf("\n");
  }
  json += "]}\n";
  return writeJson(jsonPath, json) ? 0 : 1;
}
