//===- LoopEmitOptions.h - Configuration of the loop nests ------*- C++ -*-===//
//
// The one home of the loop lowering's options: the struct the emitters
// read, one `kDefault*` constant per knob, the bounds (`verify`), and the
// copy between the struct, the passes' generated option structs and the
// pipeline's options. The knobs are listed three times, each list in one
// place: the fields below, LoopEmitOptions.td (the TableGen options of
// --convert-layout-to-affine and --convert-layout-to-scf) and
// LoopEmitOptions.def (the --layout-lower-to-llvm options and
// copyLoopEmitOptions). Adding a knob: a constant and a field here (with its
// bound in verify), an option in the .td, a line in the .def.
//
// Configuration only: what the nest needs to know about the op it lowers
// (whether its element function may take vectors, whether it copies) goes
// with the element function (ElementFunction, LoopEmitters.h).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITOPTIONS_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITOPTIONS_H

#include "layout/Xla/KernelPlan.h"

#include "mlir/Support/LLVM.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>

namespace mlir::layout {

/// Code generation choices of the nests. A default-constructed value has
/// the defaults of the passes' options (vector rows, streaming stores and
/// parallel loops past their thresholds); scalarLoops() is the plain
/// lowering of the One-Shot Bufferize models.
struct LoopEmitOptions {
  /// One 64-byte vector: a cache line, an AVX-512 register.
  static constexpr int64_t kDefaultVectorBytes = 64;
  /// Streaming stores from 4 MiB on (past a typical L2).
  static constexpr int64_t kDefaultNontemporalThresholdBytes = int64_t(4) << 20;
  /// Destinations of at least 1 MiB get a parallel outer loop (smaller ones
  /// take a few microseconds, the order of a parallel region's start-up).
  static constexpr int64_t kDefaultParallelThresholdBytes = int64_t(1) << 20;
  static constexpr bool kDefaultMaskedEdges = true;
  /// Unknown register file: no side-by-side transpose blocks.
  static constexpr int64_t kDefaultVectorRegisterBytes = 0;
  static constexpr int64_t kDefaultMemoryStreams = 2;
  /// Blocked transposes read 256 bytes of a source row per visit (measured
  /// best on Zen 5; the pipeline takes 1024 on Zen 4: docs/performance.md,
  /// "Groups of 1 KiB"); the library's default (layout/Xla/KernelPlan.h).
  static constexpr int64_t kDefaultTransposeGroupBytes =
      ::mlir::layout::kDefaultTransposeGroupBytes;
  /// Blocks that prefetch plain source rows read 1 KiB per visit
  /// (docs/performance.md, "Groups of prefetched rows").
  static constexpr int64_t kDefaultPrefetchedGroupBytes =
      ::mlir::layout::kDefaultPrefetchedGroupBytes;
  /// Threads not known: the blocked transposes' parallel loops take
  /// kMinParallelChunks chunks at least.
  static constexpr int64_t kDefaultParallelThreads = 0;
  static constexpr bool kDefaultGroupElements = true;
  static constexpr bool kDefaultReportKernels = false;

  /// Bounds checked by verify(): vectors of 4 to 256 bytes (wider ones
  /// multiply the IR of every row for no measured gain:
  /// docs/performance.md), register files up to 8 KiB.
  static constexpr int64_t kMinVectorBytes = 4;
  static constexpr int64_t kMaxVectorBytes = 256;
  static constexpr int64_t kMaxVectorRegisterBytes = 8192;
  /// Transpose groups of one line to a 4 KiB page per source row visit.
  static constexpr int64_t kMinTransposeGroupBytes = 64;
  static constexpr int64_t kMaxTransposeGroupBytes = 4096;
  /// As --layout-lower-to-llvm's num-threads.
  static constexpr int64_t kMaxParallelThreads = 4096;

  /// Bytes per vector of the innermost loop (e.g. 64: vector<16xf32>); 0
  /// keeps scalar loops. Rows whose destination is contiguous and whose
  /// sources are contiguous or constant along the row are vectorized, with
  /// a scalar prologue up to the next `vectorBytes`-aligned destination
  /// address and a scalar epilogue, so every vector store is aligned.
  int64_t vectorBytes = kDefaultVectorBytes;
  /// Vector stores are non-temporal (`nontemporal = true`, streaming past
  /// the caches) when the destination has a static size of at least this
  /// many bytes; -1: never. Requires vectorBytes > 0.
  int64_t nontemporalThresholdBytes = kDefaultNontemporalThresholdBytes;
  /// The outer loop of the nest is a parallel loop (`affine.parallel` /
  /// `scf.parallel`, which --layout-lower-to-llvm lowers to OpenMP) when the
  /// destination has a static size of at least this many bytes and an
  /// identity layout; -1: never. Each parallel iteration writes a chunk of
  /// whole destination cache lines (64 bytes from the buffer's start) and
  /// fences its non-temporal stores.
  int64_t parallelThresholdBytes = kDefaultParallelThresholdBytes;
  /// How a vector row writes its edges (the elements before its first and
  /// after its last aligned vector): true, one masked vector each
  /// (vector.maskedload/maskedstore: cheap on AVX-512, which has masked
  /// stores for every element width); false, for copies full unmasked
  /// vectors that overlap the aligned body (re-writing a few elements with
  /// the values they already have), scalar elements where no full vector
  /// fits and for other functions, and streaming rows peeled to a whole
  /// 64-byte line. AVX2 has no 16-bit masked store and microcoded 32-bit
  /// ones on older AMD cores, so the pipeline should set false there
  /// (docs/performance.md, "Edges without masks").
  bool maskedEdges = kDefaultMaskedEdges;
  /// Bytes of the target's vector register file (AVX-512: 32 x 64), 0 when
  /// unknown. Blocked transposes with cached stores whose destination rows
  /// are a multiple of 1 KiB apart (power-of-two shapes: the 16 stores of a
  /// block fall into a few L1 sets) take two blocks side by side when both
  /// fit in the registers, which halves the stores per set. f64 blocks that
  /// fill the register file (AVX2's 8 x 8) prefetch plain source rows off
  /// lines (docs/performance.md, "Prefetching f64 rows off lines").
  int64_t vectorRegisterBytes = kDefaultVectorRegisterBytes;
  /// Nests with non-temporal stores move this many far-apart streams (per
  /// thread) at once: with 2, the outermost loop walks its first and second
  /// halves together, each innermost row (and padding element) emitted for
  /// both, in parallel chunks of the first half when that loop is the
  /// parallel one; nests that may take blocked transposes keep one. One
  /// sequential stream leaves DRAM bandwidth unused on one core (Zen 5: 42 ->
  /// 63 GB/s for T(8,128) -> row-major in a standalone loop; a neighbouring row
  /// as the second stream only 52); docs/performance.md, "Two memory streams".
  /// 1: one stream.
  int64_t memoryStreams = kDefaultMemoryStreams;
  /// Bytes of each source row a blocked transpose reads per visit: its
  /// full p_k blocks go in groups this many bytes long along the source
  /// row, the p_r blocks outside and the group's blocks inside (a power of
  /// two from 64 to 4096; nests that also read a source along the row take
  /// at most 256; blocks that prefetch plain source rows take
  /// prefetchedGroupBytes). Larger groups pay each source row visit (a page
  /// walk at rows of 4 KiB) with more lines, and write more destination rows at
  /// once.
  int64_t transposeGroupBytes = kDefaultTransposeGroupBytes;
  /// Bytes of each source row per visit of the blocked transposes that
  /// prefetch plain source rows (planes of at least 512 rows along p_r, or
  /// shorter ones with AVX2's register file, into the next group; f32
  /// blocks off lines, f64 ones off lines that fill the register file, as
  /// AVX2's 8 x 8 do, 16-bit and narrower elements) and read no source
  /// along the row, in place of transposeGroupBytes; 0: transposeGroupBytes.
  /// Bounds as transposeGroupBytes.
  int64_t prefetchedGroupBytes = kDefaultPrefetchedGroupBytes;
  /// Threads the parallel loops will run on (0: not known). A blocked
  /// transpose's parallel loop walks chunks of whole groups of p_k rows;
  /// where those would leave fewer chunks than max(kMinParallelChunks,
  /// parallelThreads), its chunks are smaller than a group
  /// (getTransposeChunkRows), so that every thread gets one: u8[4093,4099]
  /// -> {0,1} moves in groups of 1024 rows, 4 of them.
  int64_t parallelThreads = kDefaultParallelThreads;
  /// Relayouts of 8- or 16-bit elements between two layouts that keep the
  /// same k elements together, one of them through a sub-tile, move them
  /// as one element of k times the width (GroupedRelayout.h), with vector
  /// loops.
  bool groupElements = kDefaultGroupElements;
  /// Every lowered op gets a remark `kernel: NAME` naming the kernel its
  /// loops took (NestKernel.h; the conversions' `report-kernels` option).
  bool reportKernels = kDefaultReportKernels;

  /// Scalar, serial loops with cached stores (what the One-Shot Bufferize
  /// models of the broadcasting ops build).
  static LoopEmitOptions scalarLoops() {
    LoopEmitOptions options;
    options.vectorBytes = 0;
    options.nontemporalThresholdBytes = -1;
    options.parallelThresholdBytes = -1;
    options.memoryStreams = 1;
    return options;
  }

  /// Checks every knob against its bounds; each problem goes to `emitError`
  /// as "<option-flag> must be ..., got N".
  LogicalResult verify(function_ref<void(const Twine &)> emitError) const;
};

/// Copies every knob of LoopEmitOptions.def from `from` to `to`: a
/// LoopEmitOptions, a pass's generated options struct or pass (the
/// TableGen options of LoopEmitOptions.td have the field names) or the
/// pipeline's options.
template <typename To, typename From>
void copyLoopEmitOptions(To &to, const From &from) {
#define LOOP_EMIT_OPTION(FIELD, FLAG, TYPE, DESCRIPTION) to.FIELD = from.FIELD;
#include "layout/Dialect/Layout/Utils/LoopEmitOptions.def"
}

/// The LoopEmitOptions of a pass or of options with the fields of
/// LoopEmitOptions.def.
template <typename From> LoopEmitOptions getLoopEmitOptions(const From &from) {
  LoopEmitOptions options;
  copyLoopEmitOptions(options, from);
  return options;
}

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_LOOPEMITOPTIONS_H
