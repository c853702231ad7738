//===- LowerToLLVM.cpp - --layout-lower-to-llvm ---------------------------===//
//
// One pipeline from tensor-level (or memref-level, or mixed) layout IR to
// the LLVM dialect. docs/lowering.md explains the order. The pipeline only:
// its own passes are declared in Pipelines/Passes.td, one .cpp each.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/LayoutToAffine/LayoutToAffine.h"
#include "layout/Conversion/LayoutToSCF/LayoutToSCF.h"
#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Threading.h"

using namespace mlir;
using namespace mlir::layout;

void mlir::layout::buildLayoutLowerToLLVMPipeline(OpPassManager &pm) {
  buildLayoutLowerToLLVMPipeline(pm, LayoutLowerToLLVMOptions());
}

void mlir::layout::buildLayoutLowerToLLVMPipeline(
    OpPassManager &pm, const LayoutLowerToLLVMOptions &options) {
  // 1. Tensor level: explicit broadcasts, then loops (fusing single-use
  //    broadcasts into their consumer) over bufferization.to_buffer /
  //    memref.alloc / bufferization.to_tensor.
  //    (raise-from-linalg: upstream's relayout-like linalg ops first become
  //    layout ops, so that they take the same path.)
  if (options.raiseFromLinalg)
    pm.addPass(createLayoutRaiseFromLinalg());
  pm.addPass(createLayoutExpandBroadcasts());
  //    Trees of layout ops on static tensors: one nest each
  //    (docs/fusion.md).
  if (options.fusion)
    pm.addPass(createLayoutFuse());
  //    Layouts of the intermediates left (docs/fusion.md).
  if (options.assignLayouts)
    pm.addPass(createLayoutAssignLayouts());
  //    The vector width, the edge strategy and the register file:
  //    vector-bytes, masked-edges and vector-register-bytes if given, else
  //    the target's (target-cpu/-features, the host by default; an invalid
  //    target, which the registered pipeline reports before building, falls
  //    back to 64 bytes, masks and an unknown register file).
  LoopEmitOptions loops = getLoopEmitOptions(options);
  {
    FailureOr<TargetVectorInfo> target = getTargetVectorInfo(
        options.targetCpu, options.targetFeatures, [](const Twine &) {});
    if (!options.vectorRegisterBytes.hasValue() && succeeded(target))
      loops.vectorRegisterBytes = target->registerFileBytes;
    if (!options.vectorBytes.hasValue() && succeeded(target))
      loops.vectorBytes = target->vectorBytes;
    if (!options.maskedEdges.hasValue() && succeeded(target))
      loops.maskedEdges = target->maskedStores;
    if (!options.transposeGroupBytes.hasValue() && succeeded(target))
      loops.transposeGroupBytes = target->transposeGroupBytes;
  }
  //    The threads the parallel loops will run on, so that a blocked
  //    transpose's parallel loop has a chunk for each (parallel-threads if
  //    given): num-threads, else (0, the runtime's default: every core)
  //    the host's CPUs when the code is for the host (those this process
  //    may run on), else not known. Code compiled here and run on a larger
  //    machine should set num-threads or parallel-threads.
  if (!options.parallelThreads.hasValue()) {
    if (options.numThreads > 0)
      loops.parallelThreads = options.numThreads;
    else if (isHostCpu(options.targetCpu))
      loops.parallelThreads = std::min<int64_t>(
          LoopEmitOptions::kMaxParallelThreads,
          llvm::hardware_concurrency().compute_thread_count());
  }
  //    One thread: serial nests, no OpenMP at all.
  bool parallel = options.numThreads != 1;
  if (!parallel)
    loops.parallelThresholdBytes = -1;
  pm.addPass(createConvertLayoutToAffine(loops, /*skipDynamic=*/true));
  pm.addPass(createConvertLayoutToSCF(loops));
  // 2. Bufferize the rest (function boundaries, tensor relayouts, the
  //    to_tensor/to_buffer pairs); tiled encodings become tiled layouts.
  pm.addPass(createLayoutLowerLinalgPack());
  pm.addPass(createLayoutBufferize());
  //    Upstream linalg ops (e.g. from --layout-decompose-tiling, or written
  //    by the user) become loops too.
  pm.addPass(createConvertLinalgToLoopsPass());
  // 3. Memref relayouts (written or from bufferization) to loops over the
  //    physical views.
  pm.addPass(createConvertLayoutToAffine(loops, /*skipDynamic=*/true));
  pm.addPass(createConvertLayoutToSCF(loops));
  // 4. Tiled memrefs to their physical buffers; the views disappear.
  pm.addPass(createLayoutNormalizeMemRefs());
  //    On the CPU every memory space is host memory.
  pm.addPass(createLayoutHostMemorySpaces());
  // 5. Standard lowering to LLVM.
  pm.addPass(createConvertComplexToStandardPass());
  pm.addPass(createLowerAffinePass());
  //    Deallocation (upstream's ownership-based pipeline) needs structured
  //    control flow, and plain memrefs for its base-pointer checks: here,
  //    every buffer allocated in a function (by bufferization, by our loops,
  //    by hand) is freed after its last use; returned buffers are owned by
  //    the caller.
  if (options.deallocate) {
    pm.addPass(createLayoutPrepareDeallocation());
    bufferization::buildBufferDeallocationPipeline(pm);
    // A returned buffer that aliases an argument is cloned (the caller owns
    // what it gets back): bufferization.clone -> memref.alloc + memref.copy.
    pm.addPass(createConvertBufferizationToMemRefPass());
    //  The buffers left (intermediates fusion materializes, op-by-op
    //  results) share one arena by their lifetimes, kept between calls:
    //  no fresh pages to fault in on every call (docs/fusion.md).
    if (options.reuseBuffers)
      pm.addPass(createLayoutReuseBuffers());
  }
  //    Parallel loops (our nests' chunk loops, and any scf.parallel of the
  //    input) to OpenMP: omp.parallel + omp.wsloop, run by the LLVM OpenMP
  //    runtime (libomp). Upstream wraps each loop body in a
  //    memref.alloca_scope, which must be gone before scf-to-cf.
  if (parallel) {
    ConvertSCFToOpenMPPassOptions ompOptions;
    ompOptions.numThreads = static_cast<unsigned>(options.numThreads);
    pm.addPass(createConvertSCFToOpenMPPass(ompOptions));
    pm.addPass(createLayoutLowerAllocaScopes());
  }
  pm.addPass(createSCFToControlFlowPass());
  //    Floats without LLVM types that the binary ops compute in f32 (the
  //    f8, f6 and f4 formats): their extf/truncf as integer code, rounded
  //    as XLA does (not upstream arith-expand's f4E2M1FN/f8E8M0FNU
  //    conversions, which round ties away from zero, drop E8M0's sign and
  //    read its code 0 as 0.0).
  //    And bf16 arithmetic in f32 (as LLVM promotes it, and as XLA
  //    computes it) with its f32 -> bf16 truncf (and the extf) as integer
  //    code, on every target: without AVX-512 BF16 LLVM calls __truncsfbf2
  //    per element, also in vector rows; with it, vcvtneps2bf16 flushes
  //    subnormal inputs to zero, where XLA (and that call) round them. The
  //    same bits on every machine (test/Execution/bf16-integer-
  //    conversions.mlir).
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"bf16"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  LayoutExpandNarrowFloatsOptions narrowOptions;
  narrowOptions.bf16 = true;
  pm.addPass(createLayoutExpandNarrowFloats(narrowOptions));
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createConvertMathToFuncs());
  //    Math ops with an LLVM intrinsic first (complex division's
  //    math.copysign, which convert-math-to-libm marks illegal but does not
  //    convert), then libm for the rest (math.atan2).
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  //    Its size and offset arithmetic of dynamic views (a collapse of a
  //    dynamic physical view) is affine.apply.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  //    16-bit float vectors loaded and streamed as integers (x86 drops the
  //    non-temporal hint of bf16/f16 stores).
  pm.addPass(createLayoutIntegerFloatMoves());
  pm.addPass(createLayoutCheckLoweredToLLVM());
}

void mlir::layout::registerLayoutPipelines() {
  // The helper passes are flags too (for tests and hand-built pipelines).
  registerLayoutPipelinePasses();
  // PassPipelineRegistration, plus the checks of the options (reported
  // with the pipeline's error handler: a diagnostic and a failed parse).
  registerPassPipeline(
      "layout-lower-to-llvm",
      "Lower tensor- or memref-level layout IR to the LLVM dialect "
      "(docs/lowering.md)",
      [](OpPassManager &pm, StringRef optionsText,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        LayoutLowerToLLVMOptions options;
        if (failed(options.parseFromString(optionsText)))
          return failure();
        std::string messages;
        if (failed(verifyLayoutLowerToLLVMOptions(options,
                                                  [&](const Twine &message) {
                                                    if (!messages.empty())
                                                      messages += "\n";
                                                    messages += message.str();
                                                  })))
          return errorHandler(messages);
        buildLayoutLowerToLLVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(LayoutLowerToLLVMOptions());
      });
}
