//===- Pipelines.h - layout pass pipelines ----------------------*- C++ -*-===//

#ifndef LAYOUT_CONVERSION_PIPELINES_PIPELINES_H
#define LAYOUT_CONVERSION_PIPELINES_PIPELINES_H

#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::layout {

/// Options of --layout-lower-to-llvm: the knobs of the loop conversions
/// (LoopEmitOptions.def, same flags, defaults and bounds), the target, the
/// threads and deallocation.
struct LayoutLowerToLLVMOptions
    : public PassPipelineOptions<LayoutLowerToLLVMOptions> {
#define LOOP_EMIT_OPTION(FIELD, FLAG, TYPE, DESCRIPTION)                       \
  Option<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESCRIPTION),                 \
                     llvm::cl::init(LoopEmitOptions().FIELD)};
#include "layout/Dialect/Layout/Utils/LoopEmitOptions.def"
  Option<int64_t> numThreads{
      *this, "num-threads",
      llvm::cl::desc("Threads of the parallel loops (OpenMP, upstream's "
                     "convert-scf-to-openmp), 0 to 4096: 0: the runtime's "
                     "default (OMP_NUM_THREADS, else every core); 1: serial "
                     "nests, no OpenMP"),
      llvm::cl::init(0)};
  Option<std::string> targetCpu{
      *this, "target-cpu",
      llvm::cl::desc("The CPU the code is for, as clang's -march ('' or "
                     "'native': the host); chooses the default vector-bytes"),
      llvm::cl::init("")};
  Option<std::string> targetFeatures{
      *this, "target-features",
      llvm::cl::desc("Comma-separated +feature/-feature (LLVM's x86 names, "
                     "e.g. -avx512f) on top of target-cpu's features"),
      llvm::cl::init("")};
  Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("Free every buffer allocated in a function after its "
                     "last use (upstream's buffer-deallocation-pipeline); "
                     "hand-written memref.dealloc of local allocations are "
                     "replaced by it"),
      llvm::cl::init(true)};
  Option<bool> reuseBuffers{
      *this, "reuse-buffers",
      llvm::cl::desc("Run --layout-reuse-buffers after deallocation: a "
                     "function's local buffers share one arena by their "
                     "lifetimes, kept between calls (needs deallocate)"),
      llvm::cl::init(true)};
  Option<bool> fusion{
      *this, "fusion",
      llvm::cl::desc("Run --layout-fuse: trees of elementwise, broadcast and "
                     "relayout ops on static tensors become one loop nest "
                     "each (false: the op-by-op lowering, for comparison)"),
      llvm::cl::init(true)};
  Option<bool> assignLayouts{
      *this, "assign-layouts",
      llvm::cl::desc("Run --layout-assign-layouts after fusion: the "
                     "intermediate tensors a function materializes get the "
                     "layouts that move the fewest bytes"),
      llvm::cl::init(true)};
  Option<bool> raiseFromLinalg{
      *this, "raise-from-linalg",
      llvm::cl::desc("First run --layout-raise-from-linalg: linalg.pack, "
                     "unpack, transpose and broadcast become layout ops "
                     "that the project's kernels lower (ops it cannot "
                     "express stay and take upstream's lowering)"),
      llvm::cl::init(false)};
};

/// Most threads num-threads accepts.
inline constexpr int64_t kMaxNumThreads = 4096;

/// Adds --layout-lower-to-llvm (docs/lowering.md): tensor- or memref-level
/// layout IR (or a mix) to the LLVM dialect, ending with a check that
/// reports anything left unconverted.
void buildLayoutLowerToLLVMPipeline(OpPassManager &pm);
void buildLayoutLowerToLLVMPipeline(OpPassManager &pm,
                                    const LayoutLowerToLLVMOptions &options);

/// Checks the options: the loop knobs' bounds (LoopEmitOptions::verify),
/// num-threads from 0 to kMaxNumThreads, a known target-cpu and
/// well-formed, known target-features. Each problem goes to `emitError`,
/// prefixed with "--layout-lower-to-llvm: ".
LogicalResult
verifyLayoutLowerToLLVMOptions(const LayoutLowerToLLVMOptions &options,
                               function_ref<void(const Twine &)> emitError);

/// What the vector rows need to know of a target.
struct TargetVectorInfo {
  /// Bytes per vector: 64 with AVX-512 (avx512f) or AVX (two ymm registers
  /// per vector op), 16 otherwise (SSE2, and every other architecture).
  int64_t vectorBytes = 16;
  /// Whether masked loads and stores of every element width are fast
  /// (AVX-512F + BW: 8- to 64-bit masks). AVX2's vmaskmov stores are slow,
  /// and it has no 16-bit ones (LLVM splits them per element).
  bool maskedStores = false;
  /// Bytes of the vector register file: 32 x 64 with AVX-512, 16 x 32 with
  /// AVX, 16 x 16 otherwise.
  int64_t registerFileBytes = 256;
  /// Bytes of a source row per blocked-transpose visit
  /// (LoopEmitOptions::transposeGroupBytes): 1024 on Zen 4, Emerald
  /// Rapids and every CPU with AMX, with AVX-512 (znver4, emeraldrapids or
  /// amx-tile, and avx512f, where it was measured faster), the loop default
  /// elsewhere (Zen 5 measured 256 best;
  /// docs/performance.md, "Groups of 1 KiB").
  int64_t transposeGroupBytes = LoopEmitOptions::kDefaultTransposeGroupBytes;
};

/// Whether `cpu` (as clang's -march) names the host: '' or 'native'.
inline bool isHostCpu(llvm::StringRef cpu) {
  return cpu.empty() || cpu == "native";
}

/// The vector facts of a target (`cpu` as clang's -march, '' or 'native'
/// for the host; `features` a comma-separated +name/-name list on top).
/// Failure (reported) for an unknown CPU or a malformed or unknown feature.
FailureOr<TargetVectorInfo>
getTargetVectorInfo(StringRef cpu, StringRef features,
                    function_ref<void(const Twine &)> emitError);

/// Registers --layout-lower-to-llvm.
void registerLayoutPipelines();

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_PIPELINES_PIPELINES_H
