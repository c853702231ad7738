//===- KernelPlan.cpp - The loop kernels' heuristics, IR-free -------------===//

#include "layout/Xla/KernelPlan.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir::layout;

int64_t mlir::layout::getTransposeBlockLanes(int64_t lanes,
                                             int64_t elementBytes,
                                             int64_t vectorBytes) {
  int64_t v = lanes;
  while (v >= 4 && v * v * elementBytes > 16 * vectorBytes)
    v /= 2;
  return v >= 4 ? v : 0;
}

std::optional<TransposeStagePlan>
mlir::layout::planTransposeStage(int64_t sizeK, int64_t sizeR, int64_t side,
                                 int64_t width, int64_t elementBytes) {
  // A standalone harness of the schedule (bench/experiments/
  // staged_add_cross.cpp, f32[4096,4096], Emerald Rapids, AVX-512), GB/s
  // on one thread: tiles of 256 x 256 elements 15.5, 256 x 128 15.5, 128 x
  // 256 13.8-14.3, 256 x 512 14.7-14.9, 512 x 512 12.2-12.7, against 20-21
  // for the row-major twin: 256 rows of 512 bytes, a buffer of 128 KiB
  // (L2) per thread.
  TransposeStagePlan plan;
  plan.rows = kStageRows;
  plan.columns = kStageRowBytes / elementBytes;
  if (plan.rows % side || plan.columns % width || sizeK % plan.rows ||
      sizeR % plan.columns)
    return std::nullopt;
  return plan;
}

namespace {
/// TransposeBlockPlan::prefetchRows and wrapPrefetch.
struct PrefetchChoice {
  int64_t rows = 0;
  bool wrap = false;
};
} // namespace

/// The prefetches of blocks of side `v`, `width` rows along p_r.
static PrefetchChoice getPrefetch(const TransposePlaneFacts &f, int64_t v,
                                  int64_t width) {
  // Each source row a block reads is a new line a row pitch away from the
  // last: a stride the hardware prefetchers follow only partly, so the
  // reads wait on memory, and the more so the fewer bytes a block takes
  // from each row (16-bit blocks: 32 bytes, half a line). A software
  // prefetch of the same lines kTransposePrefetchRows rows ahead, measured
  // A/B on the layout pair matrix (bench/pairs, one thread, Zen 4, AVX-512
  // code, two interleaved rounds each, the cells whose planes are long):
  // bf16 4096^2 and 4093x4099, row-major <-> permuted and tiled(-permuted)
  // -> permuted (row-major), 1.10-1.65x (mean 1.36x; e.g. tiled ->
  // permuted 8.5-11.4 -> 16.3-16.6 GB/s); f32 0.87-1.27x (mean 1.00x, the
  // noise of the cells without prefetches): hence 16-bit and narrower
  // elements only on Zen 4 (but see the 32- and 64-bit rules below; short
  // planes, the crossings into tiles, have their own rule below). 32-bit
  // blocks need none while the source rows are a constant number of lines
  // apart, a stride the hardware prefetchers follow; at odd pitches or
  // inside tiles they do not, and prefetches gained: AVX-512's 16 x 16
  // blocks (a whole line of each row) on Zen 5 (bench/pairs, one thread:
  // f32[4093,4099] row-major -> permuted 0.31-0.38 -> 0.49-0.62x memcpy,
  // tiled -> permuted 0.37-0.67 -> 0.92-1.13; permuted -> row-major lost,
  // 0.71-0.83 -> 0.51-0.71; docs/performance.md, "Prefetching f32 rows off
  // lines"), and AVX2's 8 x 8 (two side by side: 16 rows, half a line of
  // each) more so on an Intel Xeon KVM guest with AMX (x86-64-v3 code, one
  // thread, f32[4093,4099], two alternated runs, x memcpy: row-major ->
  // permuted 0.34 -> 0.67-0.69, permuted -> row-major 0.33 -> 0.61-0.69,
  // tiled -> permuted 0.44 -> 0.63-0.75, tiled-permuted -> row-major 0.43
  // -> 0.57-0.61; docs/performance.md, "Prefetching AVX2's f32 rows off
  // lines"). Hence blocks that read at least half a line of each row, in
  // rows of at least a line (not f32's 4 x 4 blocks, nor the nearly
  // sequential rows of a short p_k, neither measured). Rows on lines
  // measured slower with them. f64's 8 x 8 blocks gained with AVX2 code,
  // where a block fills the register file (16 ymm), on the same guest
  // (x86-64-v3, one thread, f64[2045,2051], two alternated runs, x memcpy;
  // the plain crossings also read 1 KiB groups then, getGroupBytes):
  // row-major -> permuted 0.33-0.46 -> 0.75-0.77, permuted -> row-major
  // 0.32-0.38 -> 0.73-0.74, tiled -> permuted 0.48-0.58 -> 0.73-0.76,
  // tiled-permuted -> row-major 0.44-0.52 -> 0.64-0.69. With AVX-512 code
  // the tiled sources gained there (0.67-0.69 -> 0.77-0.84, 0.59-0.64 ->
  // 0.79-0.80) and the plain crossings moved within noise, while on Zen 5
  // row-major -> permuted had lost (0.89-0.95 -> 0.83-0.84, with 256-byte
  // groups; docs/performance.md, "Prefetching f64 rows off lines"). Hence
  // f64 blocks off lines from tiles on every target (Zen 5 not measured),
  // and from plain rows only where the block fills the register file. f64
  // 4 x 4 blocks (tiles narrower than 8) read half a line too, unmeasured.
  bool halfLines = v * f.elementBytes >= 32 && f.sizeK * f.elementBytes >= 64;
  bool fillsRegisters =
      f.registerFileBytes > 0 && v * v * f.elementBytes >= f.registerFileBytes;
  // Planes shorter than kTransposePrefetchPlane (a tile's 128 rows: the
  // crossings into tiles) prefetch across the group loop instead
  // (TransposeBlockPlan::wrapPrefetch: past the plane's end, the next
  // group's first rows). With AVX2 code (16 ymm registers) they gained on
  // the Intel guest (x86-64-v3 code, one thread, two alternated runs, x
  // memcpy; docs/performance.md, "Prefetching into the next group"): f32
  // [4093,4099] permuted -> tiled 0.42-0.43 -> 0.80-0.81, row-major ->
  // tiled-permuted 0.39-0.40 -> 0.68-0.77, tiled -> tiled-permuted
  // 0.50-0.60 -> 0.71-0.73, f64[2045,2051] permuted -> tiled 0.45 ->
  // 0.65-0.80, row-major -> tiled-permuted 0.41-0.46 -> 0.69-0.80. With
  // AVX-512 code the same cells moved within noise there, on Zen 4 both
  // ways within that VM's noise (f32 permuted -> tiled 0.98-0.99 ->
  // 1.09-1.15, f64 tiled-permuted -> tiled 0.93-0.95 -> 0.74-0.85), and an
  // earlier prefetch clamped at the plane's end (not wrapped) had lost on
  // Zen 4 (f32 permuted -> tiled 19 -> 13 GB/s): AVX-512 code keeps none.
  // On the Intel guest bf16 gained too (bf16[4093,4099] permuted ->
  // tiled 0.29-0.31 -> 0.51-0.53, row-major -> tiled-permuted 0.27-0.28 ->
  // 0.45-0.48, permuted -> sub-tiled 0.20-0.22 -> 0.31-0.33; bf16[65536,64]
  // permuted -> row-major, planes of 64 rows, 0.32-0.38 -> 0.46-0.49), 8-bit
  // blocks (64 rows, half a tile's plane per distance) did not (u8[4093,4099]
  // tiled -> tiled-permuted 0.56-0.57 -> 0.49-0.50, nothing above noise):
  // they keep none. Zen 4 with AVX2 code gained as the Intel guest did
  // for f32, on one thread and two (permuted -> tiled 0.65-0.84 ->
  // 0.94-1.08 and 0.86-0.88 -> 1.07-1.08), bf16 on two threads (one:
  // within noise), f64 within that VM's noise. The plane holds two
  // distances at least.
  bool shortPlane = f.sizeR < kTransposePrefetchPlane;
  bool wrapped = f.registerFileBytes > 0 && f.registerFileBytes <= 512 &&
                 f.elementBytes >= 2 && !f.flatRows &&
                 f.sizeR >= 2 * std::max(kTransposePrefetchRows, width);
  if (shortPlane && !wrapped)
    return {};
  if (!(f.elementBytes <= 2 ||
        (f.elementBytes == 4 && halfLines && !f.lineStridedRows) ||
        (f.elementBytes == 8 && halfLines && !f.lineStridedRows &&
         (!f.plainRows || fillsRegisters))))
    return {};
  // At least a whole block ahead: 8-bit blocks of 64 rows (4 x 16 x 16;
  // AVX-512's were 2 x 32 x 32 then) prefetched 32 rows ahead spent half their
  // prefetches on their own rows. u8[4093,4099], bench/pairs, Zen 5,
  // alternated, x memcpy (one thread, AVX-512 code / AVX2 code): tiled ->
  // permuted 0.55-0.56 -> 1.09-1.27 / 0.44-0.50 -> 0.81-0.85, sub-tiled
  // (2,1) -> permuted 0.48-0.55 -> 1.05-1.09 / 0.32-0.37 -> 0.71-0.77,
  // tiled-permuted -> row-major 0.52-0.55 -> 0.74-0.75 / 0.43-0.46 ->
  // 0.58-0.70 (docs/performance.md, "Prefetching a whole block ahead").
  return {std::max(kTransposePrefetchRows, width), shortPlane};
}

/// TransposeBlockPlan::rowPrefetch.
static int64_t getRowPrefetch(const TransposePlaneFacts &f) {
  // A source read along the destination's rows (an elementwise operand in
  // the result's order) is read V rows at a time, one line of each per
  // block: with groups of 64 rows (256 bytes of f32), 64 rows far apart,
  // more streams than the L2 streamer follows, so its lines wait on
  // memory. A prefetch into L2 of each row's line kRowReadPrefetchBytes
  // ahead, measured A/B on Emerald Rapids (AVX-512 code, bench/run.sh,
  // two alternated runs each, GB/s): add_cross_f32 11.1-11.2 -> 12.1-12.3
  // on one thread and 20.8-21.7 -> 23.4-23.9 on two, add_cross_bf16
  // 6.4-6.5 -> 7.3-7.4 and 12.7-12.9 -> 13.1-14.3. Into L1 (prefetcht0)
  // it gained less, non-temporal (prefetchnta) halved the speed, and 128
  // to 2048 bytes ahead measured alike (docs/performance.md, "Prefetching
  // the row operands"). Streaming nests only (in-cache operands need
  // none), and rows longer than the distance.
  if (f.rowReads && f.nontemporal &&
      f.sizeR * f.elementBytes > kRowReadPrefetchBytes)
    return std::max<int64_t>(1, kRowReadPrefetchBytes / f.elementBytes);
  return 0;
}

/// Bytes of each source row per group visit of a nest that reads no source
/// along the row: TransposePlaneFacts::prefetchedGroupBytes or groupBytes.
static int64_t getGroupBytes(const TransposePlaneFacts &f,
                             const TransposeBlockPlan &plan) {
  // Blocks that prefetch plain source rows (odd pitches, 16-bit and
  // narrower elements) read each row 1 KiB per visit by default, on every
  // target: on Zen 5 (target default 256 bytes; AVX-512 code, bench/pairs, one
  // thread, two alternated runs, the previous and this build, x memcpy)
  // f32[4093,4099] row-major -> permuted 0.40-0.58 -> 0.90-1.01 and back
  // 0.70-0.76 -> 0.92-0.97, bf16[4096,4096] 0.48-0.54 -> 0.59-0.60 and
  // 0.43-0.55 -> 0.66, u8[4093,4099] permuted -> row-major 0.37-0.42 ->
  // 0.44-0.49. A first trial of transpose-group-bytes=1024 on every kernel
  // showed which ones lose: rows inside tiles lost (f32 tiled ->
  // permuted 1.23-1.26 -> 0.73-0.75, bf16 tiled-permuted -> row-major 0.89-1.05
  // -> 0.75-0.79: a tile's row ends after 128 elements), and so did rows on
  // lines that the hardware prefetchers follow (f32[4096,4096] row-major ->
  // permuted 0.91-1.08 -> 0.74-0.75; docs/performance.md, "Groups of prefetched
  // rows").
  if (plan.prefetchRows && f.plainRows && f.prefetchedGroupBytes > 0)
    return f.prefetchedGroupBytes;
  return f.groupBytes;
}

/// TransposeBlockPlan::side: the largest block (V x V, V a power of two
/// down to 4) that fits the vector, the register file and the plane, or 0.
static int64_t getBlockSide(const TransposePlaneFacts &f) {
  int64_t v = getTransposeBlockLanes(f.lanes, f.elementBytes, f.vectorBytes);
  if (!v)
    return 0;
  // A block larger than the register file spills: AVX2's 16 ymm registers
  // (512 bytes) hold an 8 x 8 f32 block but not a 16 x 16 one (1 KiB, two
  // ymm per 64-byte row). The narrower blocks then go side by side (`wide`
  // below), so that the stores are still whole lines. Measured on AMD EPYC
  // Zen 3 (AVX2-only, one thread, bench/run.sh, two alternated runs of 5
  // rounds, GB/s): perm3_021 11.3-12.5 -> 13.1-13.2, perm3_210 9.6-9.8 ->
  // 11.4-12.5, perm3_120 11.9-13.1 -> 15.0, perm3_021_odd 8.4-8.7 ->
  // 9.8-10.5, perm4_3210_odd 9.4-10.4 -> 12.1-12.5, add_cross_f32 8.6-12.0
  // -> 14.0-14.5 (docs/performance.md, "Blocks within the register file").
  // 16-bit 16 x 16 blocks (512 bytes) fit and stay; AVX-512 keeps every
  // block (f32 16 x 16 is half of its 2 KiB).
  while (f.registerFileBytes > 0 && v > 4 &&
         v * v * f.elementBytes > f.registerFileBytes)
    v /= 2;
  // Short dims, and index maps that stay affine only within smaller blocks
  // (tiles), take smaller blocks (down to 4 x 4).
  auto fits = [&](int64_t side) {
    return f.sizeK >= side && f.sizeR >= side &&
           (f.maxSide == 0 || side <= f.maxSide);
  };
  // 8-bit blocks are kByteBlockSide x kByteBlockSide, four side by side
  // in an AVX-512 register (two in AVX2's): each block's rows are one
  // 128-bit lane, transposed by in-lane byte interleaves (vpunpcklbw:
  // transposeInRegisters' rounds for 16-byte rows). AVX-512's 32 x 32
  // blocks, two per register, took all 32 registers plus the index vectors
  // of vpermt2b/w/d/q and spilled (u8[4093,4099] -> {0,1}: 269 spills and
  // reloads in the function, 122 with 16 x 16 blocks). bench/pairs
  // u8[4093,4099], Zen 4, one thread, two alternated runs, x memcpy, the
  // cells that stage nothing (tiled sources): AVX-512 code tiled ->
  // tiled-permuted 0.67 -> 0.91-0.95, tiled-permuted -> tiled 0.70-0.79 ->
  // 0.81-0.97; AVX2 code (16 x 16 already: the interleaves alone) tiled ->
  // tiled-permuted 0.55-0.56 -> 0.62-0.64, tiled-permuted -> tiled
  // 0.56-0.58 -> 0.66-0.67 (docs/performance.md, "8-bit blocks in 128-bit
  // lanes, staged source lines").
  if (f.elementBytes == 1)
    v = std::min(v, kByteBlockSide);
  while (v > 4 && !fits(v))
    v /= 2;
  return fits(v) ? v : 0;
}

/// TransposeBlockPlan::lineStageBytes: the span of each source row staged
/// into contiguous lines before the blocks read it, or 0.
static int64_t getLineStageBytes(const TransposePlaneFacts &f,
                                 const TransposeBlockPlan &plan,
                                 int64_t width) {
  // 8-bit blocks read 64 source rows at once (4 x 16 x 16), a quarter line
  // of each per block. Rows about a page apart (u8[4093,4099]: 4,099 bytes)
  // fall into 3 or 4 of the L1's 64 sets, whose 8 ways cannot hold the
  // block's 64 lines: each line came from L2 again for each block that
  // took part of it, and the prefetches a group ahead (64 rows x 1 KiB,
  // twice the L1) evicted each other. Staged in spans of kLineStageBytes,
  // each row's span is copied once into 16 KiB of contiguous lines, and
  // the prefetches fill L2. The one function timed alone with evicted
  // buffers (u8[4093,4099] -> {0,1}, Zen 4, AVX-512 code, one thread): 12
  // GB/s before, 12 with 16 x 16 blocks, 15 staged with prefetches into
  // L1, 13 prefetching into L2 unstaged, 19 both; unstaged, the source's
  // pitch alone moved it from 9.7 GB/s (4,096 bytes) to 23 (4,160: rows on
  // lines, one set apart). bench/pairs u8[4093,4099], Zen 4, one thread,
  // two alternated runs, x memcpy, the previous kernel (AVX-512: 32 x 32
  // blocks) -> this one: AVX-512 code row-major -> permuted 0.52-0.56 ->
  // 0.54-0.78 (10.6-12.5 -> 14.2-20.0 GB/s), permuted -> row-major
  // 0.47-0.56 -> 0.59-0.74; AVX2 code 0.30-0.33 -> 0.57-0.58 (7.6-8.0 ->
  // 15.4-16.0 GB/s), 0.31-0.37 -> 0.52-0.75 (docs/performance.md, "8-bit
  // blocks in 128-bit lanes, staged source lines"). Plain rows only (tiles
  // and interleaved runs read differently) of one source, copies (no row
  // reads), blocks of 64 rows (the measured geometry: wider vectors' blocks
  // would stage the whole L1), groups of whole spans (which the plane's
  // full blocks then hold). Parallel chunks shorter than a span copy a
  // whole span for fewer rows (unmeasured).
  int64_t span = kLineStageBytes / f.elementBytes;
  int64_t v = plan.side;
  if (f.elementBytes == 1 && width == 64 && f.plainRows && !f.rowReads &&
      !f.flatRows && f.blockSources == 1 && plan.group % span == 0 &&
      f.sizeK / v * v >= span)
    return kLineStageBytes;
  return 0;
}

std::optional<TransposeBlockPlan>
mlir::layout::planTransposeBlocks(const TransposePlaneFacts &f) {
  int64_t v = getBlockSide(f);
  if (!v)
    return std::nullopt;
  TransposeBlockPlan plan;
  plan.side = v;
  // Along the row a block spans `wide` transposed V x V blocks side by side
  // when V is below the vector's lanes (bf16, i8: V x V would not fit in the
  // registers at full width), so that the parts of a destination line are
  // stored back to back (write-combined), not a whole block of stores apart.
  plan.wide = f.sizeR >= f.lanes ? f.lanes / v : 1;
  // Streaming stores of less than a line per block row (32-byte vectors,
  // vector-bytes=32, f32 8 x 8 blocks) leave each line's write-combining
  // buffer half full until the next block: the buffers are flushed as
  // partial writes. Blocks side by side complete each line in one go.
  // Measured on Emerald Rapids (AVX-512 machine, vector-bytes=32, one
  // thread): f32[64,262144] -> {0,1} 0.9 -> 19.1 GB/s, f32[64,256,1024] ->
  // {0,1,2} 0.9 -> 16.8 GB/s with two 8 x 8 blocks side by side. Rows
  // off lines and too short to realign (f32[24,262144] -> {0,1}, rows of
  // 96 bytes) then take unaligned cached stores: 4.0 GB/s, against 0.8
  // with one block streaming half lines.
  if (f.nontemporal && v * plan.wide * f.elementBytes < 64 &&
      f.sizeR * f.elementBytes >= 64)
    plan.wide = 64 / (v * f.elementBytes);
  // Cached stores into destination rows a multiple of 1 KiB apart
  // (power-of-two shapes): the V stores of a block fall into at most 4 of
  // the L1's 64 sets of 64-byte lines (rows 4 KiB apart: one set), and the
  // core stalls on them. Two blocks side by side, both in the registers,
  // write each destination row's two lines back to back, in adjacent sets.
  // Measured on Zen 5 (AVX-512), both buffers in L2: f32[64,8,256] ->
  // {0,1,2} 32 -> 64 GB/s, f32[128,4,512] 31 -> 60 GB/s. AVX2 code (16 ymm
  // registers, already spilling at one block) lost (49 -> 46, 52 -> 39):
  // hence the register-file bound. Streaming stores allocate no lines
  // (docs/performance.md, "In-cache transposes").
  if (plan.wide == 1 && !f.nontemporal && f.sizeR >= 2 * v &&
      f.destStrideKBytes % 1024 == 0 &&
      2 * v * v * f.elementBytes <= f.registerFileBytes)
    plan.wide = 2;
  // The full p_k blocks go in groups: per group, the p_r blocks outside and
  // the group's p_k blocks inside, so that each source row is read
  // f.groupBytes at a time (getGroupBytes: prefetchedGroupBytes where the
  // blocks prefetch plain rows) instead of one line per block: each visit to a
  // source row (a new page at rows of 4 KiB and more) pays for several
  // lines. The best size depends on the machine. Zen 5 (perm3_210, AVX-512,
  // one thread, an earlier kernel): 22.3 GB/s one p_k block at a time, 27.1
  // GB/s in groups of 256 bytes (and 512), 23.8 at 1 KiB, memcpy 45 GB/s
  // (docs/performance.md, "Blocked transposes"). Zen 4 (AVX-512, one thread,
  // three A/B runs of bench/run.sh, x the streaming copy of the same round),
  // 1 KiB against 256 bytes: perm3_120 0.55-0.56 -> 0.70-0.74, perm3_210
  // 0.40-0.42 -> 0.50-0.53, perm3_021 0.54 -> 0.66-0.67, perm3_021_bf16
  // 0.46-0.52 -> 0.56-0.59; 512 bytes in between, 2 KiB no better
  // (docs/performance.md, "Groups of 1 KiB"). Hence a target fact
  // (TargetVectorInfo::transposeGroupBytes). Nests that also read a source
  // along the row (an elementwise op with a transposed operand) take at
  // most 256 bytes: their row reads multiply with the group's rows, and 2
  // KiB groups measured 0.30 -> 0.27 of the ceiling on add_cross_f32 (Zen
  // 4). Blocks
  // that read whole lines of each source row (V x
  // element >= 64 bytes) into destination rows shorter than 256 bytes keep
  // one block at a time (the p_r blocks of a row back to back): perm4_3210
  // (f32, 128-byte rows) measured 0.89-0.94x memcpy that way, 0.76-0.85x in
  // groups, while perm3_210_bf16 (half lines per block, 128-byte rows) gains
  // in groups (0.58-0.62x -> 0.62-0.68x; A/B interleaved, one thread).
  bool grouped = f.sizeR * f.elementBytes >= 256 || v * f.elementBytes < 64;
  int64_t width = v * plan.wide;
  PrefetchChoice prefetch = getPrefetch(f, v, width);
  plan.prefetchRows = prefetch.rows;
  plan.wrapPrefetch = prefetch.wrap;
  int64_t visitBytes = f.rowReads ? std::min<int64_t>(256, f.groupBytes)
                                  : getGroupBytes(f, plan);
  // Flat rows visit each source row of a block once per flat row (63 x
  // 257 rows of f32[63,257,1021] -> {0,1,2}, a page each): 4 KiB per visit
  // ran 16-20 GB/s where 1 KiB ran 17 and 256 bytes 12 (Emerald Rapids,
  // AVX-512, one thread).
  if (f.flatRows)
    visitBytes = std::max(visitBytes, kFlatRowGroupBytes);
  plan.group =
      grouped ? std::max<int64_t>(1, visitBytes / (v * f.elementBytes)) * v : v;
  // The group never exceeds the plane's full blocks: the realigned rows'
  // carry and gap buffers hold a group's rows (bf16[65536,64] -> {0,1}:
  // 64 rows of p_k, not the 512 of a 1 KiB group), and the report names
  // the rows a visit really reads.
  plan.group = std::min(plan.group, std::max(v, f.sizeK / v * v));
  plan.rowPrefetch = getRowPrefetch(f);
  plan.lineStageBytes = getLineStageBytes(f, plan, width);
  // Staged lines whose blocks prefetch nothing (8-bit planes shorter than
  // kTransposePrefetchPlane: getPrefetch; the crossings into tiles, a
  // tile's 128 rows) wait on memory in each span's copy: the block's 64
  // rows are 64 streams a row pitch apart, one span (4 lines) of each per
  // visit, more than the hardware prefetchers follow. The copy prefetches
  // each line it copies one block width further along p_r, into L2: the
  // next block's rows, and past a tile's plane the next tile's (copied a
  // tile pass later). The one function timed alone, u8[4093,4099], Zen 4,
  // one thread, buffers evicted, GB/s: AVX-512 code row-major ->
  // tiled-permuted 11.5-12.0 -> 14.7-15.6, permuted -> tiled 13.2-13.6 ->
  // 17.7, permuted -> sub-tiled (4,1) (staged through T(32,128), whose
  // first step is such a crossing) 9.1-10.5 -> 11.8-12.4; AVX2 code
  // row-major -> tiled-permuted 11.9-12.2 -> 13.3-13.4; 32 rows ahead
  // 13.9-14.1, 128 and 256 rows as 64, prefetcht1 as prefetcht2, the next
  // group's first rows instead of the next tile's (wrapped, as
  // getPrefetch's) about 5% slower; a plain plane (s8[63,257,1021] ->
  // {1,2,0}, AVX2 code: the source's dim ends with the plane, the last
  // block's prefetches clamp to its last row) 7.9 -> 8.2 GB/s, 8.4
  // wrapped (docs/performance.md, "Prefetching staged lines"). Streaming
  // nests only (in-cache sources need none).
  if (plan.lineStageBytes && !plan.prefetchRows && f.nontemporal)
    plan.linePrefetchRows = width;
  // Destination rows that do not start on a vector boundary take unaligned
  // cached stores, each line read for ownership first: on Emerald Rapids
  // (AVX-512, one thread) f32 4093 x 4099 -> {0,1} ran at 8 GB/s where the
  // aligned 4096 x 4096 streams at 28-30 GB/s, and a transpose from odd
  // source rows into aligned destination rows at 28 (the loads are not the
  // cost). Realigned rows stream whole aligned lines (the `wide` vectors of
  // a block row together): 27-29 GB/s. They need a head (the row's first
  // part, unaligned) and one realigned part at least.
  int64_t rowStride =
      f.destRowStrideBytes ? f.destRowStrideBytes : f.destStrideKBytes;
  plan.realignRows = f.nontemporal &&
                     (f.destStrideKBytes % (width * f.elementBytes) != 0 ||
                      rowStride % (width * f.elementBytes) != 0) &&
                     f.sizeR >= 2 * width;
  return plan;
}

RunPrefetchPlan mlir::layout::planRunPrefetch(int64_t runLength,
                                              int64_t dimSize, int64_t slots,
                                              int64_t elementBytes,
                                              bool nontemporal) {
  // A source in sub-tiles read into odd rows reads, per destination row, a
  // run of a few lines in each tile it crosses (u8 T(32,128)(4,1): 512
  // bytes, tiles 4 KiB apart), and the next rows of the tile the lines
  // after them: short streams that the hardware prefetchers did not run
  // ahead of once the rows were staged. The one function timed alone,
  // u8[4093,4099] (4,1) -> row-major, Zen 4, AVX-512 code, one thread,
  // buffers evicted: staged 11.5-11.7 GB/s, 14.0-14.1 with the prefetches
  // (unstaged odd rows they did not help, on Zen 4 nor on Emerald Rapids:
  // docs/performance.md, "Sub-tiles into odd rows, staged" and "Sub-tiles
  // into odd rows in one pass"). Rows of tiles read such runs as well
  // (u8 (4,1) -> T(8,128): 9-10 -> 18 GB/s with AVX2 code, prefetched
  // tiles ahead: "Sub-tiles into tiles, prefetched"); the nest decides
  // where the prefetches go (NestEmitter::getRunPrefetchRow,
  // getRunPrefetchTile). Streaming
  // nests only (in-cache sources need none, as getRowPrefetch), runs that
  // are their whole physical dim (a tile row: every line of it exists),
  // sub-tiles of more than one slot (contiguous runs are left to the
  // hardware prefetchers), at most kRunPrefetchLines lines.
  RunPrefetchPlan plan;
  int64_t stepBytes = slots * elementBytes;
  // (Steps that divide a line or are whole lines: tile rows start on
  // lines, each prefetch one line.)
  if (!nontemporal || slots <= 1 || runLength != dimSize || stepBytes <= 0 ||
      (64 % stepBytes != 0 && stepBytes % 64 != 0))
    return plan;
  int64_t lineSteps = stepBytes >= 64 ? 1 : 64 / stepBytes;
  int64_t lines = (runLength + lineSteps - 1) / lineSteps;
  if (lines > kRunPrefetchLines)
    return plan;
  plan.lines = lines;
  plan.lineSteps = lineSteps;
  return plan;
}

bool mlir::layout::shouldFlattenRows(const TransposePlaneFacts &f,
                                     int64_t sizeM) {
  // Measured on Emerald Rapids (AVX-512, one thread, f32, {2,1,0} of
  // [A,B,C] -> rows of A elements, flat rows read in groups of
  // kFlatRowGroupBytes), against the rows one by one: A = 63 (252-byte
  // rows) 3.0 -> 21.4 GB/s, 127 7.1 -> 19.4, 200 10.8 -> 18.0, 257 11 ->
  // 19.8, 509 12 -> 20.6, 1021 13.8 -> 18.7, 2047 13 -> 19.5, 4093 (16 KiB
  // rows) 14 -> 21; rows of whole lines (A = 64) run at 19-20 unflattened.
  return f.nontemporal && sizeM >= 2 && (f.sizeR * f.elementBytes) % 64 != 0;
}

int64_t mlir::layout::getTransposeChunkRows(int64_t sizeK,
                                            int64_t parallelChunk,
                                            int64_t group, int64_t side,
                                            int64_t threads) {
  // A chunk for every thread at least: groups of 1 KiB leave u8[4093,4099]
  // -> {0,1} 4 chunks of 1024 rows, bf16[4096,4096] 8, which would keep
  // all but 4 or 8 cores of a large machine idle.
  int64_t minChunks = std::max(kMinParallelChunks, threads);
  int64_t rows = std::lcm(parallelChunk, group);
  if (sizeK / rows >= minChunks)
    return rows;
  // Fewer whole groups than that: chunks of as many whole blocks as
  // minChunks chunks allow (a group then ends at its chunk's end), not of
  // one block (one block per source row visit: f32[63,257,1021] ->
  // {0,1,2} on two threads ran at 12 GB/s, below its 16 on one, and
  // perm3_021_odd fell 15 -> 12.5 with 1 KiB groups; Emerald Rapids,
  // AVX-512).
  int64_t unit = std::lcm(parallelChunk, side);
  return std::max(unit, sizeK / minChunks / unit * unit);
}

TransposeChunkPlan
mlir::layout::planTransposeChunks(const TransposeChunkFacts &f) {
  TransposeChunkPlan plan;
  // (Degenerate facts: no chunks rather than a division by zero.)
  if (f.sizeK <= 0 || f.parallelChunk <= 0 || f.group <= 0 || f.side <= 0)
    return plan;
  plan.rows = getTransposeChunkRows(f.sizeK, f.parallelChunk, f.group, f.side,
                                    f.threads);
  plan.count = f.sizeK / plan.rows;
  // Flat rows read each source row a group at a time (kFlatRowGroupBytes:
  // a flat row visits every source row of the plane, a page each); p_k
  // chunks shorter than the group cut every visit down to the chunk.
  // f32[63,257,1021] -> {0,1,2} on two threads (Emerald Rapids, AVX-512
  // code) took chunks of 240 of 1021 rows, 960 bytes of each source row
  // per visit: 22.5-24.7 GB/s, where two one-thread kernels side by side
  // on halves of it (whole source rows each) moved 32-39 GB/s together.
  // Column chunks give each thread whole groups of its own source rows;
  // few and large, since each chunk boundary is a partial line in every
  // row: max(kMinParallelChunks, threads) of them, as even as whole
  // blocks allow (the last one shorter; 1011 blocks on 64 threads: 63
  // chunks of 16 and one of 3).
  if (f.flatRows) {
    if (!f.mayChunkColumns || plan.count < 2 || plan.rows >= f.group ||
        f.width <= 0)
      return plan;
    int64_t fullBlocks = f.sizeR / f.width;
    int64_t blocks =
        llvm::divideCeil(fullBlocks, std::max(kMinParallelChunks, f.threads));
    int64_t count = llvm::divideCeil(fullBlocks, std::max<int64_t>(1, blocks));
    if (blocks < 2 || count < 2)
      return plan;
    return {/*rows=*/0, blocks * f.width, count};
  }
  if (!f.mayChunkColumns || plan.count < 2 ||
      plan.rows * f.elementBytes >= 64 || f.width <= 0 || f.sizeR % f.width)
    return plan;
  // Measured on Emerald Rapids (AVX-512, two threads, cold buffers, x the
  // streaming copy): bf16[65536,64] row-major -> {0,1} 0.35-0.38 in chunks
  // of 16 rows, 0.55-0.62 in column chunks; from T(8,128) 0.36 -> 0.66.
  // Chunks of whole lines: blocks of fewer bytes than a line take several
  // per chunk, so that no line is written by two threads.
  int64_t fullBlocks = f.sizeR / f.width;
  if (fullBlocks < 2)
    return plan;
  int64_t columns =
      f.width * getParallelChunk(fullBlocks, getLineGranule(f.storeBytes));
  int64_t count = fullBlocks * f.width / columns;
  if (count < 2)
    return plan;
  return {/*rows=*/0, columns, count};
}

int64_t mlir::layout::getLineGranule(int64_t iterationBytes) {
  return 64 / std::gcd<int64_t>(64, iterationBytes);
}

int64_t mlir::layout::getLevelGranule(int64_t size, int64_t iterationBytes,
                                      int64_t elementBits) {
  int64_t granule = getLineGranule(iterationBytes);
  if (elementBits % 8 == 0 && size / granule < kMinParallelChunks &&
      iterationBytes >= kMidLineChunkBytes)
    return 1;
  return granule;
}

int64_t mlir::layout::getParallelChunk(int64_t size, int64_t granule) {
  return granule *
         std::max<int64_t>(
             1, llvm::divideCeil(size, granule * kParallelTargetChunks));
}

bool mlir::layout::mayChunkMiddleDim(int64_t outerStrideBytes,
                                     int64_t chunkBytes) {
  // The alternative is chunks of p_k, which cut each source row visit into
  // as many pieces as there are chunks: f32[31,63,65,129] -> {0,1,2,3}
  // (p_k 129 outermost, its stride 507,780 bytes; chunks of 16 of the 65
  // middle rows of 7,812 bytes) ran at 13.3-13.4 GB/s on two threads in p_k
  // chunks, below its 13.8 on one, and 28.7-29.3 in middle chunks (Emerald
  // Rapids, AVX-512, one line shared per 125 KiB chunk).
  return outerStrideBytes % 64 == 0 || chunkBytes >= kMinMiddleChunkBytes;
}

int64_t mlir::layout::getVectorRowUnroll(bool walkingSource, int64_t rowLength,
                                         int64_t lanes) {
  // Measured A/B on Zen 5 (AVX-512, one thread, 4 x 3 rounds interleaved):
  // from_tiled_4096 0.96-1.01x -> 1.23-1.34x memcpy with 4 per iteration
  // (1.10-1.14x with 2), perm4_0213_bf16 (rows of 4 vectors) 0.76-0.77x ->
  // 0.94-0.96x; the same for the destination walk's rows made
  // to_tiled_4093 fall from 1.12-1.32x to 0.90-1.00x, so they stay at one.
  return walkingSource && rowLength >= 4 * lanes ? 4 : 1;
}

int64_t mlir::layout::getPeelBytes(int64_t vectorBytes, bool maskedEdges,
                                   bool nontemporalTarget) {
  // A line written both by a cached edge and by streaming stores costs a
  // flush of the write-combining buffer (docs/performance.md).
  return !maskedEdges && nontemporalTarget ? std::max<int64_t>(vectorBytes, 64)
                                           : vectorBytes;
}

std::optional<int64_t> mlir::layout::getInterleavedPart(int64_t innerSlots,
                                                        int64_t lanes,
                                                        int64_t rowLength) {
  if (innerSlots < 2 || !llvm::isPowerOf2_64(innerSlots) ||
      lanes % innerSlots || lanes / innerSlots < 2 ||
      rowLength % (lanes / innerSlots))
    return std::nullopt;
  return lanes / innerSlots;
}

std::optional<mlir::layout::RowShiftPlan>
mlir::layout::planRowShifts(int64_t strideK,
                            const std::vector<int64_t> &otherStrides,
                            int64_t constant, int64_t v, int64_t width) {
  // (Strides reduced mod W first: no overflow.)
  RowShiftPlan plan;
  int64_t strideMod = llvm::mod(strideK, width);
  plan.step = std::gcd(width, strideMod * v % width);
  for (int64_t stride : otherStrides)
    plan.step = std::gcd(plan.step, llvm::mod(stride, width));
  int64_t cases = width / plan.step;
  if (cases > kMaxRowShiftCases)
    return std::nullopt;
  for (int64_t c = 0; c < cases; ++c) {
    std::vector<int64_t> &rowShifts = plan.shifts.emplace_back();
    for (int64_t j = 0; j < v; ++j)
      rowShifts.push_back(llvm::mod(llvm::mod(constant, plan.step) +
                                        c * plan.step + strideMod * j,
                                    width));
  }
  return plan;
}
