//===- LoopEmitOptions.td - The loop lowering's options ----*- tablegen -*-===//
//
// The options of --convert-layout-to-affine and --convert-layout-to-scf:
// one TableGen option per field of LoopEmitOptions (LoopEmitOptions.h), with
// the field's name (copyLoopEmitOptions copies them by name) and its
// kDefault* constant. --layout-lower-to-llvm has the same knobs through
// LoopEmitOptions.def.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITOPTIONS_TD
#define LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITOPTIONS_TD

include "mlir/Pass/PassBase.td"

defvar LoopEmitPassOptions =
    [Option<"vectorBytes", "vector-bytes", "int64_t",
            /*default=*/"::mlir::layout::LoopEmitOptions::kDefaultVectorBytes",
            "Bytes per vector of the innermost loops: 0 (scalar loops) or a "
            "power of two from 4 to 256. Rows are split at the destination's "
            "vector-aligned addresses: masked head, aligned vector "
            "loads/stores, masked tail (docs/performance.md)">,
     Option<
         "nontemporalThresholdBytes", "nontemporal-threshold-bytes", "int64_t",
         /*default=*/
         "::mlir::layout::LoopEmitOptions::kDefaultNontemporalThresholdBytes",
         "Destinations of at least this many bytes (static) are written "
         "with non-temporal (streaming) vector stores; -1: never">,
     Option<"parallelThresholdBytes", "parallel-threshold-bytes", "int64_t",
            /*default=*/
            "::mlir::layout::LoopEmitOptions::kDefaultParallelThresholdBytes",
            "Destinations of at least this many bytes (static, identity "
            "physical layout) get a parallel outer loop (affine.parallel / "
            "scf.parallel over chunks of whole cache lines; "
            "docs/performance.md); -1: never">,
     Option<"maskedEdges", "masked-edges", "bool",
            /*default=*/"::mlir::layout::LoopEmitOptions::kDefaultMaskedEdges",
            "Edges of vector rows (before the first and after the last "
            "aligned vector) use masked loads/stores; false: overlapping "
            "full vectors, scalar elements where no vector fits (for "
            "targets without fast masked stores, e.g. AVX2; "
            "docs/performance.md)">,
     Option<"vectorRegisterBytes", "vector-register-bytes", "int64_t",
            /*default=*/
            "::mlir::layout::LoopEmitOptions::kDefaultVectorRegisterBytes",
            "Bytes of the target's vector register file, 0 (unknown) to 8192 "
            "(AVX-512: 2048, 32 x 64). Blocked transposes with cached stores "
            "into rows whose stride is a multiple of 1 KiB take two blocks "
            "side by side when both fit (docs/performance.md, \"In-cache "
            "transposes\")">,
     Option<
         "memoryStreams", "memory-streams", "int64_t",
         /*default=*/"::mlir::layout::LoopEmitOptions::kDefaultMemoryStreams",
         "Far-apart streams a nest with streaming stores moves at "
         "once (per thread): 2, its outermost loop walks both halves "
         "together (not the blocked transposes; docs/lowering.md, "
         "\"Two memory streams\"); 1: one">,
     Option<"transposeGroupBytes", "transpose-group-bytes", "int64_t",
            /*default=*/
            "::mlir::layout::LoopEmitOptions::kDefaultTransposeGroupBytes",
            "Bytes of each source row a blocked transpose reads per visit "
            "(its p_k blocks in groups), a power of two from 64 to 4096 "
            "(docs/performance.md, \"Groups of 1 KiB\")">,
     Option<"prefetchedGroupBytes", "prefetched-group-bytes", "int64_t",
            /*default=*/
            "::mlir::layout::LoopEmitOptions::kDefaultPrefetchedGroupBytes",
            "Bytes of each source row per visit of the blocked transposes "
            "that prefetch plain source rows (odd pitches, 16-bit and "
            "narrower elements), in place of transpose-group-bytes: 0 "
            "(transpose-group-bytes) or a power of two from 64 to 4096 "
            "(docs/performance.md, \"Groups of prefetched rows\")">,
     Option<"parallelThreads", "parallel-threads", "int64_t",
            /*default=*/
            "::mlir::layout::LoopEmitOptions::kDefaultParallelThreads",
            "Threads the parallel loops will run on, 0 (not known) to "
            "4096: a blocked transpose's parallel loop takes at least as "
            "many chunks, smaller than its groups where it must "
            "(docs/performance.md, \"Chunks for every thread\")">,
     Option<
         "groupElements", "group-elements", "bool",
         /*default=*/"::mlir::layout::LoopEmitOptions::kDefaultGroupElements",
         "Relayouts between two layouts that keep the same k 8- or 16-bit "
         "elements together, one of them through a sub-tile such as (2,1), "
         "move them as one 32- or 16-bit element (vector loops only; "
         "docs/lowering.md, \"Grouped elements\"); false: element by "
         "element">,
     Option<
         "reportKernels", "report-kernels", "bool",
         /*default=*/"::mlir::layout::LoopEmitOptions::kDefaultReportKernels",
         "Every lowered layout op gets a remark `kernel: NAME` naming the "
         "kernel its loops took">];

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITOPTIONS_TD
