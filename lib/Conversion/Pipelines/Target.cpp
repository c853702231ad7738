//===- Target.cpp - The target of --layout-lower-to-llvm ------------------===//
//
// target-cpu / target-features of --layout-lower-to-llvm, defaulting to the
// host as clang's -march=native does (llvm::sys::getHostCPUName /
// getHostCPUFeatures), and the vector width they imply when vector-bytes is
// not given: 64 bytes with AVX-512, 32 with AVX(2), 16 otherwise. Also the
// checks of the pipeline's options.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Pipelines.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"

using namespace mlir;
using namespace mlir::layout;

/// Every feature name of LLVM's x86 CPU table (the union over its CPUs).
static const llvm::StringSet<> &getKnownX86Features() {
  static const llvm::StringSet<> known = [] {
    llvm::StringSet<> names;
    SmallVector<StringRef> cpus;
    llvm::X86::fillValidCPUArchList(cpus);
    for (StringRef cpu : cpus) {
      SmallVector<StringRef> features;
      llvm::X86::getFeaturesForCPU(cpu, features);
      for (StringRef f : features)
        names.insert(f);
    }
    for (const auto &f : llvm::sys::getHostCPUFeatures())
      names.insert(f.getKey());
    return names;
  }();
  return known;
}

FailureOr<TargetVectorInfo>
mlir::layout::getTargetVectorInfo(StringRef cpu, StringRef features,
                                  function_ref<void(const Twine &)> emitError) {
  static_assert(LoopEmitOptions::kMaxParallelThreads == kMaxNumThreads,
                "parallel-threads and num-threads share their bound");
  bool host = isHostCpu(cpu);
  llvm::Triple triple(llvm::sys::getProcessTriple());
  if (!triple.isX86()) {
    // Other architectures: 16-byte vectors (NEON, SSE-class), no masked
    // stores; the names are not checked.
    return TargetVectorInfo{};
  }
  llvm::StringMap<bool> enabled;
  if (host) {
    enabled = llvm::sys::getHostCPUFeatures();
  } else {
    if (llvm::X86::parseArchX86(cpu, /*Only64Bit=*/true) ==
        llvm::X86::CK_None) {
      emitError("target-cpu: unknown x86-64 CPU '" + cpu +
                "' (a name of clang's -march, e.g. x86-64-v3, znver4, "
                "sapphirerapids, or 'native')");
      return failure();
    }
    SmallVector<StringRef> list;
    llvm::X86::getFeaturesForCPU(cpu, list);
    for (StringRef f : list) {
      enabled[f] = true;
      llvm::X86::updateImpliedFeatures(f, true, enabled);
    }
  }
  SmallVector<StringRef> items;
  features.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    item = item.trim();
    if (item.size() < 2 || (item[0] != '+' && item[0] != '-')) {
      emitError("target-features: '" + item +
                "' is not +name or -name (a comma-separated list, e.g. "
                "+avx2,-avx512f)");
      return failure();
    }
    StringRef name = item.drop_front();
    if (!getKnownX86Features().contains(name)) {
      emitError("target-features: unknown x86 feature '" + name +
                "' (LLVM's names, e.g. avx2, avx512f, avx512bw)");
      return failure();
    }
    bool on = item[0] == '+';
    enabled[name] = on;
    llvm::X86::updateImpliedFeatures(name, on, enabled);
  }
  TargetVectorInfo info;
  // AVX without AVX-512 also takes 64-byte vectors (two ymm registers per
  // vector op, one whole line per streaming iteration): AVX2 code measured
  // on Zen 5 (docs/performance.md, "AVX2 code") moved the blocked
  // transposes at 0.95x memcpy with 64-byte vectors and 0.45x with 32-byte
  // ones (8 x 8 blocks write half lines), row copies alike.
  if (enabled.lookup("avx512f") || enabled.lookup("avx"))
    info.vectorBytes = 64;
  info.maskedStores = enabled.lookup("avx512f") && enabled.lookup("avx512bw");
  StringRef cpuName = host ? StringRef(llvm::sys::getHostCPUName()) : cpu;
  // Measured with AVX-512 code only: znver4 without avx512f (AVX2 code)
  // keeps the default. Emerald Rapids (AVX-512, one thread, bench/run.sh and
  // the pair matrix, 256 and 1024 bytes alternated twice): perm3_021 13.5
  // -> 17.1 GB/s, perm3_201 13.4 -> 16.5, perm3_021_odd 8.5 -> 10.9, the
  // pair matrix's plain crossings 1.15-1.4x; tiled-source crossings both
  // ways (docs/performance.md, "Groups of 1 KiB"). Every CPU with AMX
  // (Sapphire Rapids and later Xeons) as well: an Intel Xeon KVM guest with
  // AMX, which LLVM names rocketlake from its CPUID, one thread, the whole
  // pair matrix alternated twice: the plain and permuted-into-tiled
  // crossings 1.5-2.7x (bf16 4096^2 row-major -> tiled-permuted 0.26 ->
  // 0.67-0.70x memcpy), tiled <-> tiled-permuted 5-15 % slower.
  if ((cpuName == "znver4" || cpuName == "emeraldrapids" ||
       enabled.lookup("amx-tile")) &&
      enabled.lookup("avx512f"))
    info.transposeGroupBytes = 1024;
  info.registerFileBytes = enabled.lookup("avx512f") ? 32 * 64
                           : enabled.lookup("avx")   ? 16 * 32
                                                     : 16 * 16;
  return info;
}

LogicalResult mlir::layout::verifyLayoutLowerToLLVMOptions(
    const LayoutLowerToLLVMOptions &options,
    function_ref<void(const Twine &)> emitError) {
  bool ok = true;
  auto error = [&](const Twine &message) {
    emitError("--layout-lower-to-llvm: " + message);
    ok = false;
  };
  if (options.numThreads < 0 || options.numThreads > kMaxNumThreads)
    error("num-threads must be 0 (the OpenMP runtime's default) or a number "
          "of threads up to " +
          Twine(kMaxNumThreads) + ", got " +
          Twine(options.numThreads.getValue()));
  if (failed(getLoopEmitOptions(options).verify(error)))
    ok = false;
  if (failed(getTargetVectorInfo(options.targetCpu, options.targetFeatures,
                                 error)))
    ok = false;
  return success(ok);
}
