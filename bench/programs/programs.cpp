//===- programs.cpp - Whole functions of layout ops vs their ideal --------===//
//
// Times each function of bench/programs/gen_programs.py compiled four ways
// (run.sh): the default pipeline (fused: --layout-fuse, --layout-assign-
// layouts, --layout-reuse-buffers), fusion=false assign-layouts=false
// reuse-buffers=false (one nest per op, a fresh buffer per op and call), the
// upstream path (--convert-layout-to-linalg, upstream elementwise fusion,
// bufferization and loops; reuse-buffers=false) and the default with
// reuse-buffers=false. A function's ideal is the time to move its arguments and
// its results once each: ideal bytes at the speed of glibc memcpy and of the
// streaming-store copy (the ceiling), measured in the same round on the same
// thread count. Every output is first compared byte for byte between the four
// compilations, in two calls, and then in concurrent calls of the fused one.
//
// Usage: programs [--rounds N] [--only NAME[,NAME...]] [--check-only]
//                 [--threads N|all] [--json FILE]
//
//===----------------------------------------------------------------------===//

#include "../baselines.h"

#include <functional>
#include <memory>
#include <thread>

using namespace bench;

namespace {
/// The descriptor of a rank-1 memref (a rank-0 one is its prefix).
struct Desc {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};
enum class Arg { Array, Vector, Scalar };
using KernelFn = void (*)(Desc **);
struct ProgramSpec {
  const char *name;
  int elementBytes;
  std::vector<Arg> args;
  int results;
  KernelFn fns[4]; // fused, unfused, upstream, no-reuse
};
} // namespace

#include "programs.inc"

namespace {
constexpr int kVariants = 4;
const char *kVariant[kVariants] = {"fused", "unfused", "upstream", "no-reuse"};

/// Small integers (-8..8), exact in f32 and bf16, so that the three
/// compilations agree bit for bit.
void fill(const Buffer &b, int elementBytes, uint64_t seed) {
  size_t n = b.bytes / elementBytes;
  for (size_t i = 0; i < n; ++i) {
    float v = float(int((i * 2654435761u + seed * 40503u) % 17) - 8);
    if (elementBytes == 4) {
      b.as<float>()[i] = v;
    } else {
      uint32_t bits;
      memcpy(&bits, &v, 4);
      b.as<uint16_t>()[i] = uint16_t(bits >> 16);
    }
  }
}

Desc desc(const Buffer &b, int elementBytes) {
  return {b.p, b.p, 0, int64_t(b.bytes / elementBytes), 1};
}

struct Program {
  const ProgramSpec *spec;
  std::vector<std::unique_ptr<Buffer>> args, outs;
  std::vector<Desc> descs[kVariants];
  std::vector<Desc *> ptrs[kVariants];
  size_t idealBytes = 0;

  explicit Program(const ProgramSpec &s) : spec(&s) {
    size_t eb = s.elementBytes;
    for (size_t i = 0; i < s.args.size(); ++i) {
      size_t bytes = s.args[i] == Arg::Array    ? kN * kN * eb
                     : s.args[i] == Arg::Vector ? kN * eb
                                                : eb;
      args.push_back(std::make_unique<Buffer>(bytes, 0));
      fill(*args.back(), s.elementBytes, i + 1);
      idealBytes += bytes;
    }
    idealBytes += s.results * kN * kN * eb;
    for (int v = 0; v < kVariants; ++v) {
      for (auto &a : args)
        descs[v].push_back(desc(*a, s.elementBytes));
      for (int k = 0; k < s.results; ++k) {
        outs.push_back(std::make_unique<Buffer>(kN * kN * eb, 0));
        descs[v].push_back(desc(*outs.back(), s.elementBytes));
      }
      for (Desc &d : descs[v])
        ptrs[v].push_back(&d);
    }
  }
  void run(int v) { spec->fns[v](ptrs[v].data()); }
  /// Evicts variant v's arguments and results from the caches.
  void evictBuffers(int v) {
    for (auto &a : args)
      evictFromCaches(a->p, a->bytes);
    for (int k = 0; k < spec->results; ++k)
      evictFromCaches(outs[v * spec->results + k]->p,
                      outs[v * spec->results + k]->bytes);
  }

  /// Calls the fused function from `threads` threads at once, `calls`
  /// times each, every thread with its own result buffers: concurrent
  /// calls take separate arenas (--layout-reuse-buffers' cache is one slot
  /// per function, taken and returned atomically). Returns the number of
  /// results that differ from the first (sequential) call's.
  int runConcurrently(int threads, int calls) {
    size_t eb = spec->elementBytes;
    std::vector<std::unique_ptr<Buffer>> own;
    std::vector<std::vector<Desc>> d(threads);
    std::vector<std::vector<Desc *>> p(threads);
    for (int t = 0; t < threads; ++t) {
      for (auto &a : args)
        d[t].push_back(desc(*a, spec->elementBytes));
      for (int k = 0; k < spec->results; ++k) {
        own.push_back(std::make_unique<Buffer>(kN * kN * eb, 0));
        d[t].push_back(desc(*own.back(), spec->elementBytes));
      }
      for (Desc &x : d[t])
        p[t].push_back(&x);
    }
    std::vector<int> bad(threads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (int c = 0; c < calls; ++c) {
          for (int k = 0; k < spec->results; ++k)
            memset(own[t * spec->results + k]->p, 0xff,
                   own[t * spec->results + k]->bytes);
          spec->fns[0](p[t].data());
          for (int k = 0; k < spec->results; ++k)
            bad[t] += memcmp(own[t * spec->results + k]->p, outs[k]->p,
                             outs[k]->bytes) != 0;
        }
      });
    for (std::thread &t : pool)
      t.join();
    int total = 0;
    for (int b : bad)
      total += b;
    return total;
  }
};
} // namespace

int main(int argc, char **argv) {
  HarnessArgs args;
  args.rounds = 7;
  if (!parseHarnessArgs(argc, argv, "NAME", args))
    return 2;
  int rounds = args.rounds, threads = args.threads;
  bool checkOnly = args.checkOnly;
  const std::string &jsonPath = args.jsonPath;
  omp_set_num_threads(threads);
  std::vector<std::unique_ptr<Program>> programs;
  for (const ProgramSpec &s : kPrograms)
    if (args.selects(s.name))
      programs.push_back(std::make_unique<Program>(s));

  // Check: the four compilations write the same bytes (twice: the second
  // call runs on the first one's cached arena).
  int failures = 0;
  for (auto &p : programs) {
    for (int call = 0; call < 2; ++call) {
      for (int v = 0; v < kVariants; ++v)
        p->run(v);
      int n = p->spec->results;
      for (int v = 1; v < kVariants; ++v)
        for (int k = 0; k < n; ++k)
          if (memcmp(p->outs[k]->p, p->outs[v * n + k]->p, p->outs[k]->bytes) !=
              0) {
            fprintf(stderr, "%s: %s and %s result %d differ (call %d)\n",
                    p->spec->name, kVariant[0], kVariant[v], k, call + 1);
            ++failures;
          }
    }
  }
  // And from three threads at once (fused), four calls each.
  for (auto &p : programs)
    if (int bad = p->runConcurrently(3, 4)) {
      fprintf(stderr, "%s: %d results differ in concurrent calls\n",
              p->spec->name, bad);
      ++failures;
    }
  printf("programs: %zu checked, %d mismatches\n", programs.size(), failures);
  if (failures || checkOnly)
    return failures ? 1 : 0;

  const size_t copyBytes = size_t(64) << 20;
  Buffer cpA(copyBytes, 0), cpB(copyBytes, 0);
  memset(cpA.p, 1, copyBytes);
  struct Times {
    std::vector<double> memcpyT, streamT, t[kVariants];
  };
  std::vector<Times> times(programs.size());
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < programs.size(); ++i) {
      // Every timed call starts from memory: its buffers (the copies',
      // the program's arguments and results) evicted from the caches first
      // (docs/performance.md, "Cold buffers"). A program's own temporaries
      // (its arena) are not: reusing them across calls is the point.
      times[i].memcpyT.push_back(timeMemcpy(cpB.p, cpA.p, copyBytes, threads));
      times[i].streamT.push_back(
          timeStreamCopy(cpB.p, cpA.p, copyBytes, threads));
      // The variants in a rotating order (round r starts with variant r),
      // so that no variant always runs first after the copies.
      for (int j = 0; j < kVariants; ++j) {
        int v = (j + r) % kVariants;
        programs[i]->evictBuffers(v);
        double t0 = now();
        programs[i]->run(v);
        times[i].t[v].push_back(now() - t0);
      }
    }
    fprintf(stderr, "round %d/%d done\n", r + 1, rounds);
  }

  std::string cpu = cpuModel();
  printf("\nmachine: %s, cpu ISA %s, benchmark built for %s, %d thread(s)\n",
         cpu.c_str(), cpuIsa(), compiledIsa(), threads);
  printf("\n%d rounds, medians of per-round ratios. ideal: the function's "
         "arguments and results moved once each (ideal MiB) at the speed of "
         "memcpy / of the streaming copy / of the faster of the two "
         "(ceiling), on %d thread(s); x ideal = ideal time / time.\n\n",
         rounds, threads);
  printf("| program | ideal MiB | fused GB/s | fused x ideal(memcpy) | "
         "fused x ideal(stream) | fused x ideal(ceiling) | unfused x "
         "ideal(ceiling) | upstream x ideal(ceiling) | fused / unfused | "
         "fused / upstream | fused / no-reuse |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::string json = jsonHeader(cpu, threads, rounds);
  double cpBytes = 2.0 * copyBytes;
  for (size_t i = 0; i < programs.size(); ++i) {
    const Times &t = times[i];
    double ideal = double(programs[i]->idealBytes);
    std::vector<double> rMem, rStr, rCeil, rUnf, rUp, sUnf, sUp, sNoReuse, ceil;
    for (int r = 0; r < rounds; ++r) {
      double memcpyRate = cpBytes / t.memcpyT[r];
      double streamRate = cpBytes / t.streamT[r];
      double ceilRate = std::max(memcpyRate, streamRate);
      rMem.push_back(ideal / memcpyRate / t.t[0][r]);
      rStr.push_back(ideal / streamRate / t.t[0][r]);
      rCeil.push_back(ideal / ceilRate / t.t[0][r]);
      rUnf.push_back(ideal / ceilRate / t.t[1][r]);
      rUp.push_back(ideal / ceilRate / t.t[2][r]);
      sUnf.push_back(t.t[1][r] / t.t[0][r]);
      sUp.push_back(t.t[2][r] / t.t[0][r]);
      sNoReuse.push_back(t.t[3][r] / t.t[0][r]);
      ceil.push_back(ceilRate / 1e9);
    }
    double fusedGB = ideal / median(t.t[0]) / 1e9;
    printf("| %s | %.0f | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | "
           "%.1f | %.2f |\n",
           programs[i]->spec->name, ideal / (1 << 20), fusedGB, median(rMem),
           median(rStr), median(rCeil), median(rUnf), median(rUp), median(sUnf),
           median(sUp), median(sNoReuse));
    char entry[640];
    snprintf(entry, sizeof(entry),
             "%s{\"name\": \"%s\", \"ours_gbps\": %.3f, "
             "\"ceiling_gbps\": %.3f, \"memcpy_gbps\": %.3f, "
             "\"stream_gbps\": %.3f, \"upstream_gbps\": %.3f, "
             "\"unfused_gbps\": %.3f, \"no_reuse_gbps\": %.3f, "
             "\"ratio_to_ceiling\": %.4f, \"ratio_to_memcpy\": %.4f}",
             i ? ", " : "", programs[i]->spec->name, fusedGB, median(ceil),
             cpBytes / median(t.memcpyT) / 1e9,
             cpBytes / median(t.streamT) / 1e9, ideal / median(t.t[2]) / 1e9,
             ideal / median(t.t[1]) / 1e9, ideal / median(t.t[3]) / 1e9,
             median(rCeil), median(rMem));
    json += entry;
  }
  json += "]}\n";
  return writeJson(jsonPath, json) ? 0 : 1;
}
