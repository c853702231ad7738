//===- KernelPlan.h - The loop kernels' heuristics, IR-free -----*- C++ -*-===//
//
// The numeric decisions of the loop kernels (lib/Dialect/Layout/Utils) that
// depend only on sizes, strides and target facts: the blocked transposes'
// block side, width and grouping, line-safe parallel chunks, the unrolling
// and peeling of vector rows, the interleave factor of (2,1)-style
// sub-tiles. They live here, below the IR, so that each heuristic has a
// unit test (unittests/Xla/KernelPlanTest.cpp) and the measurements behind
// it are written next to it. The kernels call them and build the IR.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_KERNELPLAN_H
#define LAYOUT_XLA_KERNELPLAN_H

#include <cstdint>
#include <optional>
#include <vector>

namespace mlir::layout {

/// Parallel chunks aimed at per parallel loop: enough for load balance on
/// many cores (a thread gets a contiguous range of them: OpenMP's static
/// schedule), few enough that a fence per chunk costs nothing.
inline constexpr int64_t kParallelTargetChunks = 256;
/// A level with at least this many chunks is taken as the parallel level;
/// else the level with the most chunks (at least 2).
inline constexpr int64_t kMinParallelChunks = 4;

/// The side V of a transpose block for vectors of `lanes` elements: `lanes`,
/// halved until a block (V * V elements) fits in 16 vectors of
/// `vectorBytes`; 0 when that leaves fewer than 4 lanes. planTransposeBlocks
/// then also bounds the block by the target's register file (AVX2 with
/// 64-byte vectors: f32 8 x 8).
int64_t getTransposeBlockLanes(int64_t lanes, int64_t elementBytes,
                               int64_t vectorBytes);

/// Bytes of each source row a blocked transpose group reads by default
/// (TransposePlaneFacts::groupBytes; measured best on Zen 5, while Zen 4,
/// Emerald Rapids and CPUs with AMX take 1024: docs/performance.md,
/// "Groups of 1 KiB").
inline constexpr int64_t kDefaultTransposeGroupBytes = 256;
/// Bytes of each source row a group reads when the blocks prefetch plain
/// source rows (TransposePlaneFacts::prefetchedGroupBytes).
inline constexpr int64_t kDefaultPrefetchedGroupBytes = 1024;

/// What a blocked transpose of a (p_k, p_r) plane needs to decide its
/// blocks.
struct TransposePlaneFacts {
  int64_t lanes = 0;             ///< elements per vector
  int64_t elementBytes = 0;      ///< bytes per element
  int64_t vectorBytes = 0;       ///< bytes per vector
  int64_t registerFileBytes = 0; ///< the register file (0: unknown)
  int64_t sizeK = 0; ///< the plane's extent along p_k (source-contiguous)
  int64_t sizeR = 0; ///< its extent along p_r (the destination's row)
  int64_t destStrideKBytes = 0; ///< destination bytes between p_k rows
  /// Destination bytes between consecutive rows (the dim just outside p_r;
  /// p_k's or a middle dim's); 0: destStrideKBytes.
  int64_t destRowStrideBytes = 0;
  bool nontemporal = false; ///< streaming stores
  /// Some source is read along the destination's row (a vector or a splat
  /// per destination row: an elementwise op with a transposed operand).
  bool rowReads = false;
  /// Every source read in blocks moves by a constant whole number of lines
  /// from one row along p_r to the next: the line addresses of a block's
  /// reads then take a constant stride, which the hardware's stride
  /// prefetchers follow. Rows at an odd pitch (f32[4093,4099]: 16,396
  /// bytes, 256 or 257 lines) or inside tiles do not.
  bool lineStridedRows = true;
  /// Every source read in blocks takes constant steps along p_k and p_r
  /// over the whole plane: plain rows, not rows inside tiles or interleaved
  /// runs (whose p_k runs end at the tile's edge).
  bool plainRows = false;
  /// Bytes of each source row a group reads (the target's choice,
  /// LoopEmitOptions::transposeGroupBytes).
  int64_t groupBytes = kDefaultTransposeGroupBytes;
  /// Bytes of each source row a group reads instead when the blocks
  /// prefetch plain source rows (plainRows, prefetched: odd pitches, 16-bit
  /// and narrower elements); 0: groupBytes (LoopEmitOptions::
  /// prefetchedGroupBytes).
  int64_t prefetchedGroupBytes = kDefaultPrefetchedGroupBytes;
  /// The largest block side the index maps allow (0: any). A tiled side
  /// reads contiguous runs only within a tile: f32 rows of a T(8,128)
  /// source cross into the next tile row every 8 elements, so blocks there
  /// are at most 8 x 8.
  int64_t maxSide = 0;
  /// The rows are flattened with the dim outside them (shouldFlattenRows):
  /// sizeR is the flat row's extent.
  bool flatRows = false;
  /// Sources read in blocks (crossing the destination's rows).
  int64_t blockSources = 1;
};

/// The blocks of a blocked transpose.
struct TransposeBlockPlan {
  /// V: blocks are V x V, transposed in registers.
  int64_t side = 0;
  /// V x V blocks side by side along the row, stored back to back.
  int64_t wide = 1;
  /// p_k extent walked per group (a multiple of V): per group, the p_r
  /// blocks outside and the group's p_k blocks inside.
  int64_t group = 0;
  /// Source rows (along p_r) a block prefetches ahead of its reads: each
  /// block prefetches the lines it will read this many p_r rows later (0:
  /// no prefetches).
  int64_t prefetchRows = 0;
  /// The plane is shorter than kTransposePrefetchPlane rows (a tile's):
  /// the blocks whose rows prefetchRows ahead would pass the plane's end
  /// prefetch the next group's first rows instead (p_r wrapped, p_k one
  /// group further), the rows the group loop reads next. (Staged tiles,
  /// and parallel chunks shorter than a group, read other rows next: the
  /// prefetches stay in the buffer there, unmeasured.)
  bool wrapPrefetch = false;
  /// Elements along p_r that a block prefetches ahead of its reads of the
  /// sources read along the destination's rows (an elementwise operand in
  /// the result's order: one line of each of the block's V rows per block,
  /// from V far-apart rows at once); 0: no prefetches.
  int64_t rowPrefetch = 0;
  /// Streaming stores into destination rows that do not start on a line
  /// (odd extents): each destination row is written as aligned vectors that
  /// straddle two blocks (the previous block's `wide` vectors of the row,
  /// carried through a small buffer, and this block's, shifted together in
  /// registers), so that the rows stream too instead of taking unaligned
  /// cached stores.
  bool realignRows = false;
  /// Staged source lines: each group's p_k blocks go in spans of this many
  /// bytes of each source row, the span of the block's rows copied first
  /// into a per-thread buffer of contiguous lines that the span's blocks
  /// read; the blocks' prefetches then fill L2, not L1 (0: not staged).
  int64_t lineStageBytes = 0;
  /// Staged source lines of blocks that prefetch nothing themselves
  /// (prefetchRows = 0), in a streaming nest: each span's copy prefetches,
  /// into L2, the same span of the rows this many p_r rows further (0:
  /// none; the kernel takes none for a source of dynamic shape).
  int64_t linePrefetchRows = 0;
};

/// The shifts of realigned rows (TransposeBlockPlan::realignRows;
/// docs/lowering.md, "Realigned rows"). In a buffer aligned to lines of
/// `width` elements (W = wide x V), block row j starts S + c_k j elements
/// past a line (mod W): c_k the destination's stride along p_k, S the
/// block's first row's shift, the destination's flat index there mod W. p_k
/// moves by multiples of V, the dims outside the plane by anything, so S
/// takes the values constant + c step (mod W), step = gcd(c_k V, their
/// strides, W): W / step sets of row shifts, one scf.index_switch case of
/// each block's stores per set.
struct RowShiftPlan {
  int64_t step = 0;
  /// shifts[c][j]: block row j's shift when S = (constant mod step) +
  /// c step.
  std::vector<std::vector<int64_t>> shifts;
};

/// The most runs a tiled -> tiled run walk computes and factors (two map
/// evaluations and 16 bytes a run; RunWalk.cpp): 2^22, f32[16384,16384]
/// T(8,128) -> T(16,64) in runs of 64 elements.
inline constexpr int64_t kMaxRunWalkStarts = int64_t(1) << 22;

/// The most sets of row shifts: a bf16 line's 32 (4.4 MB of LLVM dialect
/// for bf16[63,257,1021] -> {1,2,0} on AVX2). An i8 line's 64 took 13.7 MB
/// and 29 s in LLVM for one kernel: those rows take unaligned stores.
inline constexpr int64_t kMaxRowShiftCases = 32;

/// The largest half of the per-thread stage of destination rows back to
/// back that take more than kMaxRowShiftCases sets of shifts (8-bit lines):
/// a group's rows, staged and streamed out line by line while the next
/// group fills the other half (docs/lowering.md, "Staged destination
/// rows"); larger groups shrink to fit. s8[63,257,1021] -> {1,2,0}, AMD Zen
/// 4, AVX-512 code, one thread: groups of 64 to 512 rows (16-129 KiB) ran
/// 10.2-11.6 GB/s, 1008 rows (253 KiB) 10.8-11.0.
inline constexpr int64_t kMaxDestinationStageBytes = 128 * 1024;
/// The fewest rows a group of staged destination rows shrinks to (rows of
/// up to 512 bytes): each group visits as many bytes of every source row.
/// s8[15,1029,1021] -> {1,2,0}, same machine: staged in groups of 112 rows
/// 9.5-11.0 GB/s, 240 rows 12.7-13.5, unstaged (1008 rows) 12.0-13.4.
inline constexpr int64_t kMinDestinationStageRows = 256;

/// The widest sub-tile a vector row reads across (a strided source): each
/// vector loads `stride` vectors of the flat source and picks every
/// stride-th lane from the row's slot (rows built once per slot:
/// NestEmitter::dispatchSubTileSlots; else one pick per slot, selected at
/// run time). bf16 (2,1) and 8-bit (4,1) sub-tiles take it.
inline constexpr int64_t kMaxRowReadStride = 4;

/// The row shifts of blocks of `v` rows in lines of `width` elements:
/// `strideK` the destination's stride along p_k, `otherStrides` those of
/// the dims outside the plane (not p_r's, which is 1), `constant` its
/// offset. Nullopt beyond kMaxRowShiftCases sets.
std::optional<RowShiftPlan>
planRowShifts(int64_t strideK, const std::vector<int64_t> &otherStrides,
              int64_t constant, int64_t v, int64_t width);

/// The prefetch distance of blocked transposes, in p_r rows
/// (TransposeBlockPlan::prefetchRows; at least the block's own rows, V x
/// wide), and the plane extent along p_r it needs: planes shorter than
/// kTransposePrefetchPlane rows (tiles) would mostly prefetch past their
/// end, and prefetch into the next group instead where they prefetch at
/// all (TransposeBlockPlan::wrapPrefetch).
inline constexpr int64_t kTransposePrefetchRows = 32;
inline constexpr int64_t kTransposePrefetchPlane = 16 * kTransposePrefetchRows;

/// The side of 8-bit blocks (TransposeBlockPlan::side): rows of 16 bytes,
/// one x86 128-bit lane each.
inline constexpr int64_t kByteBlockSide = 16;

/// The span of staged source lines (TransposeBlockPlan::lineStageBytes).
inline constexpr int64_t kLineStageBytes = 256;

/// Staged rows that read a source in sub-tiles ((2,1), (4,1): each run a
/// few lines of a tile, the next rows' runs the lines after them) prefetch
/// each run's lines this many destination rows ahead (planRunPrefetch).
/// u8 (4,1) into odd rows, Zen 4, AVX-512 code, the function timed alone:
/// 4, 8, 16 and 32 rows ahead ran 13.8, 14.5, 13.3 and 11.8 GB/s
/// (docs/performance.md, "Sub-tiles into odd rows, staged"; measured
/// into L1, not again since the prefetches go to L2).
inline constexpr int64_t kRunPrefetchRows = 8;
/// Rows of tiles whose source is in sub-tiles prefetch each run's lines
/// in the tile this many bytes of destination ahead (getRunPrefetchTile).
/// u8[4093,4099] T(32,128)(4,1) -> T(8,128), Zen 4, the function timed
/// alone, 32-byte vectors: no prefetch 10.0-10.3 GB/s with AVX2 code,
/// 11.7-11.9 with AVX-512's; 2 tiles ahead (2 KiB of destination, 8 KiB
/// of source) 16.7-17.2 and 19.9-20.8; 4 tiles 16.8-18.4 and 22.2-23.1;
/// 8 tiles 18.1-19.0 and 23.8-24.7 (docs/performance.md, "Sub-tiles into
/// tiles, prefetched").
inline constexpr int64_t kRunPrefetchTileBytes = 8192;
/// At most this many lines per run (one prefetch each).
inline constexpr int64_t kRunPrefetchLines = 16;
/// Into L2 (memref.prefetch locality 2: prefetcht1), not L1: the four
/// rows of a (4,1) run re-read its lines from L1, which the lines of the
/// rows 8 ahead (two runs of 33 tiles x 512 bytes for u8[4093,4099])
/// evicted. The function timed alone, Zen 4, one thread: AVX-512 code
/// 14.5-14.8 -> 18.5-18.6 GB/s, AVX2 code 14.0-14.2 -> 16.7-16.9
/// (docs/performance.md, "One shuffle per slot, prefetches into L2").
inline constexpr int64_t kRunPrefetchLocality = 2;

/// The prefetches of each run of a source in sub-tiles (staged rows, rows
/// of tiles):
/// `lines` prefetches (0: none), `lineSteps` steps of the run's physical
/// dim apart (one 64-byte line).
struct RunPrefetchPlan {
  int64_t lines = 0;
  int64_t lineSteps = 0;
};

/// A run of `runLength` steps along a physical dim of `dimSize`, each step
/// `slots` elements of `elementBytes` (the sub-tile), in a nest that
/// streams its stores or not.
RunPrefetchPlan planRunPrefetch(int64_t runLength, int64_t dimSize,
                                int64_t slots, int64_t elementBytes,
                                bool nontemporal);

/// A blocked transpose of an elementwise nest staged in tiles
/// (planTransposeStage): `rows` destination rows (p_k) x `columns`
/// elements along p_r per tile.
struct TransposeStagePlan {
  int64_t rows = 0;
  int64_t columns = 0;
};

/// Destination rows and bytes per row of a staged tile.
inline constexpr int64_t kStageRows = 256;
inline constexpr int64_t kStageRowBytes = 512;

/// The tile of a nest that reads some sources in V x V blocks and others
/// along the destination's rows, staging the blocks' transposes in a
/// buffer of kStageRows x kStageRowBytes; std::nullopt when the plane
/// (sizeK x sizeR) is not a whole number of tiles.
std::optional<TransposeStagePlan>
planTransposeStage(int64_t sizeK, int64_t sizeR, int64_t side, int64_t width,
                   int64_t elementBytes);

/// How far ahead a block prefetches the sources it reads along the
/// destination's rows (TransposeBlockPlan::rowPrefetch), in bytes.
inline constexpr int64_t kRowReadPrefetchBytes = 512;

/// The block side (shrunk down to 4 x 4 for short dims and to `maxSide`),
/// the width along the row and the grouping of a blocked transpose;
/// std::nullopt when the plane takes no blocks (fewer than 4 lanes, dims
/// shorter than 4, or a `maxSide` below 4).
std::optional<TransposeBlockPlan>
planTransposeBlocks(const TransposePlaneFacts &facts);

/// Bytes of each source row a group of a flat row's blocks reads
/// (planTransposeBlocks).
inline constexpr int64_t kFlatRowGroupBytes = 4096;

/// Whether a blocked transpose walks the destination's rows together with
/// the dim just outside them (`sizeM` of them, contiguous) as one flat row
/// of sizeM x sizeR elements, when streaming rows are not whole lines.
/// Row by row, each row shares its end lines with the next row, written a
/// whole plane later (f32[63,257,1021] -> {0,1,2}: rows of 252 bytes, the
/// write-combining buffers flush both halves as partial writes); the flat
/// row streams realigned from its first line to its last, and its blocks
/// read each source row kFlatRowGroupBytes at a time.
bool shouldFlattenRows(const TransposePlaneFacts &facts, int64_t sizeM);

/// Rows of p_k per parallel chunk of a blocked transpose (a multiple of
/// the line-safe `parallelChunk` and of the block side): whole groups when
/// that leaves max(kMinParallelChunks, threads) chunks, else as many whole
/// blocks as leave that many. `threads`: the threads the loop will run on
/// (0: not known).
int64_t getTransposeChunkRows(int64_t sizeK, int64_t parallelChunk,
                              int64_t group, int64_t side, int64_t threads);

/// The parallel chunks of a blocked transpose's plane at p_k (the nest's
/// parallel level), when its middle dim is not split: `count` chunks of
/// `rows` rows of p_k (getTransposeChunkRows), or of `columns` elements of
/// p_r (rows = 0). The last chunk also takes the remainder.
struct TransposeChunkPlan {
  int64_t rows = 0;
  int64_t columns = 0;
  int64_t count = 0;
};

/// What planTransposeChunks needs beyond getTransposeChunkRows' arguments.
struct TransposeChunkFacts {
  int64_t sizeK = 0;         ///< the plane's extent along p_k
  int64_t sizeR = 0;         ///< its extent along p_r
  int64_t parallelChunk = 1; ///< the level's line-safe chunk of p_k rows
  int64_t group = 0;         ///< TransposeBlockPlan::group
  int64_t side = 0;          ///< TransposeBlockPlan::side (V)
  int64_t width = 0;         ///< W: the p_r elements of a block (wide x V)
  int64_t elementBytes = 0;
  int64_t storeBytes = 0; ///< bytes of one store of a block's row
  int64_t threads = 0;    ///< threads of the parallel loop (0: not known)
  /// The rows may be split into column ranges: no merged rows, bound
  /// checks or element-by-element p_k edge, no middle dim takes the
  /// chunks, and the rows start on lines (plain rows) or are flat rows.
  bool mayChunkColumns = false;
  /// The rows are flat rows (shouldFlattenRows), read in groups of
  /// kFlatRowGroupBytes per source row visit.
  bool flatRows = false;
};

/// Chunks of p_k rows, unless those read less than a line of each source
/// row per visit (few destination rows: bf16[65536,64] -> {0,1} takes
/// chunks of 16 rows, 32 bytes of each 128-byte source row, so every
/// thread reads each source line once per chunk): then, where the rows
/// allow it and are whole blocks of W, at least 2 chunks of whole lines of
/// every destination row, each thread taking all p_k blocks of its range.
/// Flat rows whose p_k chunks would be shorter than their group take
/// max(kMinParallelChunks, threads) column chunks of whole blocks instead,
/// as even as whole blocks allow (at least 2 blocks each; the last one
/// shorter, and also taking the overlapping edge block): each thread reads
/// whole groups of its own source rows. Their chunks meet inside lines,
/// where each chunk stores only its own columns (the realigned rows'
/// masked or cached heads and tails, no junction lines).
TransposeChunkPlan planTransposeChunks(const TransposeChunkFacts &facts);

/// The smallest count of iterations of `iterationBytes` each that covers
/// whole 64-byte lines: parallel chunks made of multiples of it never write
/// one destination line from two threads.
int64_t getLineGranule(int64_t iterationBytes);

/// Iterations of one parallel chunk of a loop of `size` iterations: a
/// multiple of `granule`, about `size` / kParallelTargetChunks.
int64_t getParallelChunk(int64_t size, int64_t granule);

/// Destination bytes each iteration of a nest level writes at least for
/// that level's parallel chunks to start inside a line (getLevelGranule).
inline constexpr int64_t kMidLineChunkBytes = 64 * 1024;

/// The granule of the parallel chunks of a nest level of `size` iterations
/// writing `iterationBytes` each: whole lines (getLineGranule) where that
/// leaves kMinParallelChunks chunks; else single iterations when each
/// writes at least kMidLineChunkBytes. Chunks then meet inside a line,
/// which the kernels below such a level allow: they store no byte outside
/// their iteration's elements (row heads and tails masked, element by
/// element or cached; whole lines streamed only inside one row or one
/// group of rows), so the one line two threads share per chunk boundary
/// costs a false sharing per 64 KiB, nothing in correctness. Only for
/// elements of whole bytes (`elementBits` a multiple of 8): packed
/// sub-byte elements (E(4): two per byte) keep whole lines, since two
/// threads would rewrite a shared byte whole; a blocked
/// transpose at such a level cuts its own chunks of whole lines. Planes that
/// are not whole lines then split among the threads, instead of each plane
/// splitting its rows among them under a parallel region of its own:
/// f32[63,257,1021] -> {1,2,0} (planes of 1,049,588 bytes: 3 chunks of 16
/// whole-line planes) on two threads ran 1.07x as fast, bf16 1.04-1.26x,
/// s8 1.25x (Emerald Rapids, AVX-512 code; docs/performance.md, *Chunks
/// inside a line*).
int64_t getLevelGranule(int64_t size, int64_t iterationBytes,
                        int64_t elementBits);

/// Whether a blocked transpose may split its outermost middle dim into
/// parallel chunks of `chunkBytes` of destination each (per iteration of the
/// dim outside it, `outerStrideBytes` apart): when the outer stride is whole
/// lines (no line written by two threads), or when the chunks are at least
/// kMinMiddleChunkBytes, so that the lines two threads share at chunk
/// boundaries (written with disjoint bytes) are a small fraction.
bool mayChunkMiddleDim(int64_t outerStrideBytes, int64_t chunkBytes);

inline constexpr int64_t kMinMiddleChunkBytes = 4096;

/// Vectors per iteration of a vector row's aligned body: 4 for the rows of
/// a source walk (or a reordered destination walk) of at least 4 vectors,
/// else 1.
int64_t getVectorRowUnroll(bool walkingSource, int64_t rowLength,
                           int64_t lanes);

/// Bytes a destination row is peeled to: the vector, or for streaming
/// stores with unmasked edges a whole 64-byte line.
int64_t getPeelBytes(int64_t vectorBytes, bool maskedEdges,
                     bool nontemporalTarget);

/// The elements each of the `innerSlots` reads of an interleaved row
/// contributes to a vector of `lanes` (lanes / innerSlots), when rows of
/// `rowLength` elements along the outer dim interleave; std::nullopt
/// otherwise (innerSlots not a power of two >= 2, or parts of fewer than 2
/// lanes, or rows not a multiple of a part).
std::optional<int64_t> getInterleavedPart(int64_t innerSlots, int64_t lanes,
                                          int64_t rowLength);

} // namespace mlir::layout

#endif // LAYOUT_XLA_KERNELPLAN_H
