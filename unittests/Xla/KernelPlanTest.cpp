//===- KernelPlanTest.cpp - The loop kernels' heuristics ------------------===//
//
// Each heuristic of layout/Xla/KernelPlan.h against values worked out by
// hand from its rule (the comments give the arithmetic).
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/KernelPlan.h"

#include "gtest/gtest.h"

using namespace mlir::layout;

namespace {

TEST(KernelPlanTest, TransposeBlockLanes) {
  // f32 x 16 lanes, 64-byte vectors: 16 * 16 * 4 = 1024 bytes = 16 vectors.
  EXPECT_EQ(getTransposeBlockLanes(16, 4, 64), 16);
  // bf16 x 32 lanes: 32 * 32 * 2 = 2048 > 1024, so 16 (512 bytes).
  EXPECT_EQ(getTransposeBlockLanes(32, 2, 64), 16);
  // i8 x 64 lanes: 64 * 64 = 4096 > 1024; 32 * 32 = 1024: 32.
  EXPECT_EQ(getTransposeBlockLanes(64, 1, 64), 32);
  // f64 x 2 lanes (16-byte vectors): below 4 lanes, no blocks.
  EXPECT_EQ(getTransposeBlockLanes(2, 8, 16), 0);
  // f32 x 4 (SSE): 4 * 4 * 4 = 64 <= 256: 4.
  EXPECT_EQ(getTransposeBlockLanes(4, 4, 16), 4);
}

TransposePlaneFacts f32Plane(int64_t sizeK, int64_t sizeR) {
  TransposePlaneFacts f;
  f.lanes = 16;
  f.elementBytes = 4;
  f.vectorBytes = 64;
  f.registerFileBytes = 2048;
  f.sizeK = sizeK;
  f.sizeR = sizeR;
  f.destStrideKBytes = sizeR * 4;
  f.nontemporal = true;
  return f;
}

TEST(KernelPlanTest, TransposeBlocksGroupsOfGroupBytes) {
  // 1024 x 64 f32, streaming: V 16, one block wide (V == lanes), rows of
  // 256 bytes: groups of 256 / (16 * 4) = 4 blocks = 64 rows.
  TransposePlaneFacts f = f32Plane(1024, 64);
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side, 16);
  EXPECT_EQ(p->wide, 1);
  EXPECT_EQ(p->group, 64);
  // 1 KiB (Zen 4): 16 blocks = 256 rows.
  f.groupBytes = 1024;
  EXPECT_EQ(planTransposeBlocks(f)->group, 256);
  // A source also read along the row: at most 256 bytes, 4 blocks.
  f.rowReads = true;
  EXPECT_EQ(planTransposeBlocks(f)->group, 64);
  // Smaller groups than 256 bytes stay as asked: 128 bytes, 2 blocks.
  f.groupBytes = 128;
  EXPECT_EQ(planTransposeBlocks(f)->group, 32);
}

TEST(KernelPlanTest, TransposeBlocksShortRowsOneBlockAtATime) {
  // Destination rows of 32 f32 (128 bytes < 256) and blocks reading whole
  // lines (16 * 4 = 64 bytes): one block per group.
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f32Plane(64, 32));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->group, 16);
}

TEST(KernelPlanTest, TransposeBlocksShrinkForShortDims) {
  // A plane of 5 x 7: 16 -> 8 -> 4 (5 and 7 are >= 4), blocks 4 x 4; rows
  // of 28 bytes, blocks of 16-byte rows (< 64): groups of 256 / 16 = 16
  // blocks, 64 rows, capped at the plane's one whole block along p_k.
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f32Plane(5, 7));
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side, 4);
  EXPECT_EQ(p->group, 4);
  EXPECT_EQ(planTransposeBlocks(f32Plane(100, 7))->group, 64);
  // 3 x 64: shorter than 4 along p_k, no blocks.
  EXPECT_FALSE(planTransposeBlocks(f32Plane(3, 64)));
}

TEST(KernelPlanTest, TransposeBlocksTwoWideForCachedKiBStrides) {
  // Cached stores, destination rows 1 KiB apart (256 f32), 2 * 16 * 16 * 4
  // = 2048 bytes of blocks fit AVX-512's register file: two blocks wide.
  TransposePlaneFacts f = f32Plane(64, 256);
  f.nontemporal = false;
  EXPECT_EQ(planTransposeBlocks(f)->wide, 2);
  // AVX2 (512 bytes of registers): 8 x 8 blocks (a 16 x 16 one would
  // spill), two side by side fill the 64-byte vector.
  f.registerFileBytes = 512;
  EXPECT_EQ(planTransposeBlocks(f)->side, 8);
  EXPECT_EQ(planTransposeBlocks(f)->wide, 2);
  // Streaming stores allocate no lines: one block.
  f = f32Plane(64, 256);
  EXPECT_EQ(planTransposeBlocks(f)->wide, 1);
  // Rows 1000 bytes apart: no set conflicts, one block.
  f.nontemporal = false;
  f.destStrideKBytes = 1000;
  EXPECT_EQ(planTransposeBlocks(f)->wide, 1);
}

/// Sets f's element type: `lanes` elements of `bytes` per vector.
static void setElement(TransposePlaneFacts &f, int64_t lanes, int64_t bytes) {
  f.lanes = lanes;
  f.elementBytes = bytes;
}

/// Expects f's plan to take side x side blocks, `wide` side by side.
static void expectBlocks(const TransposePlaneFacts &f, int64_t side,
                         int64_t wide) {
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side, side);
  EXPECT_EQ(p->wide, wide);
}

TEST(KernelPlanTest, TransposeBlocksWithinTheRegisterFile) {
  // AVX-512 (2 KiB of registers) keeps f32 16 x 16 blocks (1 KiB).
  TransposePlaneFacts f = f32Plane(256, 256);
  expectBlocks(f, 16, 1);
  // AVX2 with 64-byte vectors (two ymm each, 512 bytes of registers): 8 x
  // 8 f32 blocks, two side by side per 64-byte destination line.
  f.registerFileBytes = 512;
  expectBlocks(f, 8, 2);
  // bf16 16 x 16 blocks are 512 bytes: they fit and stay.
  setElement(f, 32, 2);
  expectBlocks(f, 16, 2);
  // i8: 32 x 32 (1 KiB) -> 16 x 16, four side by side.
  setElement(f, 64, 1);
  expectBlocks(f, 16, 4);
  // An unknown register file (0) bounds nothing but i8 blocks, which are
  // kByteBlockSide (16) on every target: 16-byte rows, one 128-bit lane.
  f.registerFileBytes = 0;
  expectBlocks(f, 16, 4);
  // AVX-512 as well (32 x 32 i8, 1 KiB, would fit its 2 KiB).
  f.registerFileBytes = 2048;
  expectBlocks(f, 16, 4);
  // bf16 keeps 16 x 16 there.
  setElement(f, 32, 2);
  EXPECT_EQ(planTransposeBlocks(f)->side, 16);
}

/// u8[4093,4099] -> {0,1} with AVX-512's vectors and registers: plain
/// source rows, groups of 1 KiB.
static TransposePlaneFacts u8PlainPlane() {
  TransposePlaneFacts f = f32Plane(4093, 4099);
  setElement(f, 64, 1);
  f.plainRows = true;
  f.groupBytes = 1024;
  f.destStrideKBytes = 4099;
  return f;
}

TEST(KernelPlanTest, TransposeBlocksStageSourceLinesOfBytes) {
  // u8[4093,4099] -> {0,1} with AVX-512: 16 x 16 blocks four wide (64
  // source rows), plain rows, groups of 1024 (1 KiB): staged in spans of
  // 256 bytes (1024 % 256 == 0, 4093 / 16 * 16 >= 256).
  TransposePlaneFacts f = u8PlainPlane();
  expectBlocks(f, 16, 4);
  EXPECT_EQ(planTransposeBlocks(f)->group, 1024);
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, kLineStageBytes);
  // Not staged: rows inside tiles or interleaved runs, ...
  f.plainRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  f.plainRows = true;
  // ... an elementwise op's row reads, two crossing sources, flat rows,
  f.rowReads = true;
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  f.rowReads = false;
  f.blockSources = 2;
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  f.blockSources = 1;
  f.flatRows = true;
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  f.flatRows = false;
  // ... groups that are not whole spans (64-byte groups: 64 rows), a
  // plane shorter than a span (p_k 255: groups of 240 rows, not a span),
  // blocks of fewer than 64 rows (p_r 32: one block wide), wider elements
  // (bf16).
  f.groupBytes = 64;
  f.prefetchedGroupBytes = 64;
  EXPECT_EQ(planTransposeBlocks(f)->group, 64);
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  f.groupBytes = 1024;
  f.prefetchedGroupBytes = kDefaultPrefetchedGroupBytes;
  f.sizeK = 255;
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  f.sizeK = 4093;
  f.sizeR = 32;
  expectBlocks(f, 16, 1);
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  f.sizeR = 4099;
  setElement(f, 32, 2);
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, 0);
  // AVX2 (512 bytes of registers): 16 x 16 u8 blocks, four wide, staged.
  setElement(f, 64, 1);
  f.registerFileBytes = 512;
  expectBlocks(f, 16, 4);
  EXPECT_EQ(planTransposeBlocks(f)->lineStageBytes, kLineStageBytes);
}

TEST(KernelPlanTest, StagedLinesPrefetchWhereTheBlocksDoNot) {
  // u8[4093,4099] -> {0,1} with AVX-512 (the plane's 4099 rows, longer
  // than kTransposePrefetchPlane): the blocks prefetch 64 rows ahead, the
  // staged copy does not.
  TransposePlaneFacts f = u8PlainPlane();
  std::optional<TransposeBlockPlan> plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->lineStageBytes, kLineStageBytes);
  EXPECT_EQ(plan->prefetchRows, 64);
  EXPECT_EQ(plan->linePrefetchRows, 0);
  // u8 row-major -> {0,1:T(8,128)}: a tile's plane of 128 rows, whose
  // blocks prefetch nothing with AVX-512 code: the copy prefetches the
  // rows one block width (64) ahead.
  f.sizeR = 128;
  f.destStrideKBytes = 128;
  plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->lineStageBytes, kLineStageBytes);
  EXPECT_EQ(plan->prefetchRows, 0);
  EXPECT_EQ(plan->linePrefetchRows, 64);
  // AVX2 (512 bytes of registers) as well: 8-bit blocks do not wrap.
  f.registerFileBytes = 512;
  plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->prefetchRows, 0);
  EXPECT_EQ(plan->linePrefetchRows, 64);
  // In-cache destinations (no streaming stores) prefetch nothing, nor
  // does an unstaged plane (groups of 64 bytes: not whole spans).
  f.nontemporal = false;
  EXPECT_EQ(planTransposeBlocks(f)->linePrefetchRows, 0);
  f.nontemporal = true;
  f.groupBytes = 64;
  f.prefetchedGroupBytes = 64;
  plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->lineStageBytes, 0);
  EXPECT_EQ(plan->linePrefetchRows, 0);
}

TEST(KernelPlanTest, RunPrefetchOfSubTiles) {
  // u8 (4,1), runs of 128 along a tile row of 128: 4 bytes a step, 16
  // steps a line, 8 lines.
  RunPrefetchPlan p = planRunPrefetch(128, 128, 4, 1, /*nontemporal=*/true);
  EXPECT_EQ(p.lines, 8);
  EXPECT_EQ(p.lineSteps, 16);
  // bf16 (2,1): 4 bytes a step as well.
  p = planRunPrefetch(128, 128, 2, 2, true);
  EXPECT_EQ(p.lines, 8);
  EXPECT_EQ(p.lineSteps, 16);
  // f32 (2,1): 8 bytes, 8 steps a line, 16 lines (kRunPrefetchLines).
  p = planRunPrefetch(128, 128, 2, 4, true);
  EXPECT_EQ(p.lines, 16);
  EXPECT_EQ(p.lineSteps, 8);
  // f64 (2,1): 32 lines, more than kRunPrefetchLines: none.
  EXPECT_EQ(planRunPrefetch(128, 128, 2, 8, true).lines, 0);
  // Steps of a line or more (f64 (8,1)) would take a line each.
  EXPECT_EQ(planRunPrefetch(8, 8, 8, 8, true).lines, 8);
  EXPECT_EQ(planRunPrefetch(8, 8, 8, 8, true).lineSteps, 1);
  // None: cached stores (in-cache nests), contiguous runs (one slot), runs
  // shorter than their dim.
  EXPECT_EQ(planRunPrefetch(128, 128, 4, 1, /*nontemporal=*/false).lines, 0);
  EXPECT_EQ(planRunPrefetch(128, 128, 1, 4, true).lines, 0);
  EXPECT_EQ(planRunPrefetch(64, 128, 4, 1, true).lines, 0);
}

TEST(KernelPlanTest, TransposeBlocksWideForNarrowElements) {
  // bf16: lanes 32, V 16: a destination line is two blocks side by side.
  TransposePlaneFacts f = f32Plane(256, 64);
  f.lanes = 32;
  f.elementBytes = 2;
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side, 16);
  EXPECT_EQ(p->wide, 2);
  // Rows of 64 bf16 = 128 bytes, blocks of 32-byte rows (< 64): groups of
  // 256 / 32 = 8 blocks, 128 rows.
  EXPECT_EQ(p->group, 128);
}

TEST(KernelPlanTest, TransposeBlocksWithinTiles) {
  // f32 rows of a T(8,128) source: affine within 8 rows only. V 16 -> 8,
  // two blocks side by side fill a 64-byte destination line; groups of
  // 256 / 32 = 8 blocks, 64 rows.
  TransposePlaneFacts f = f32Plane(4096, 4096);
  f.maxSide = 8;
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side, 8);
  EXPECT_EQ(p->wide, 2);
  EXPECT_EQ(p->group, 64);
  // A bound below the smallest block (4 x 4): no blocks.
  f.maxSide = 2;
  EXPECT_FALSE(planTransposeBlocks(f));
}

TEST(KernelPlanTest, LineGranuleAndParallelChunk) {
  // 4-byte iterations: 16 per line; 64-byte ones: 1; 48-byte ones: 4
  // (192 bytes = 3 lines); 1000-byte ones: 8 (8000 = 125 lines).
  EXPECT_EQ(getLineGranule(4), 16);
  EXPECT_EQ(getLineGranule(64), 1);
  EXPECT_EQ(getLineGranule(48), 4);
  EXPECT_EQ(getLineGranule(1000), 8);
  // 4096 iterations in granules of 1: ceil(4096 / 256) = 16 per chunk.
  EXPECT_EQ(getParallelChunk(4096, 1), 16);
  // 100 iterations, granule 16: at least one granule.
  EXPECT_EQ(getParallelChunk(100, 16), 16);
  // 1 << 20 iterations, granule 8: ceil(2^20 / 2048) = 512 granules.
  EXPECT_EQ(getParallelChunk(1 << 20, 8), 4096);
  // Level granules. Planes of f32[257,1021] (1,049,588 bytes, 52 mod 64):
  // 16 planes a line-safe chunk, so 63 planes leave 3 chunks; each plane
  // is over 64 KiB, so single planes (63 chunks). 64 planes: 4 line-safe
  // chunks, kept.
  EXPECT_EQ(getLevelGranule(63, 1049588, 32), 1);
  EXPECT_EQ(getLevelGranule(64, 1049588, 32), 16);
  // Rows of 1028 bytes (f32[257]): too small to meet inside a line, even
  // where whole lines leave one chunk.
  EXPECT_EQ(getLevelGranule(20, 1028, 32), 16);
  // Just below kMidLineChunkBytes (65,535 is odd: granule 64), and just
  // above it (65,540: granule 16, 3 chunks of 63). (At 65,536 the rows are
  // whole lines.)
  EXPECT_EQ(getLevelGranule(63, kMidLineChunkBytes - 1, 32), 64);
  EXPECT_EQ(getLevelGranule(63, kMidLineChunkBytes + 4, 32), 1);
  // Whole lines: granule 1 either way.
  EXPECT_EQ(getLevelGranule(2, 1 << 20, 32), 1);
  // Elements of whole bytes meet inside a line (s8, f64); packed sub-byte
  // ones (s4: two per byte) keep whole lines.
  EXPECT_EQ(getLevelGranule(63, 1049588, 8), 1);
  EXPECT_EQ(getLevelGranule(63, 1049588, 64), 1);
  EXPECT_EQ(getLevelGranule(63, 1049588, 4), 16);
  EXPECT_EQ(getLevelGranule(63, 1049588, 1), 16);
  // Middle chunks: whole-line outer strides, or chunks of 4 KiB and more.
  EXPECT_TRUE(mayChunkMiddleDim(4096, 64));
  EXPECT_TRUE(mayChunkMiddleDim(507780, 16 * 7812));
  EXPECT_FALSE(mayChunkMiddleDim(507780, 148));
  EXPECT_FALSE(mayChunkMiddleDim(100, 4095));
  EXPECT_TRUE(mayChunkMiddleDim(100, 4096));
}

TEST(KernelPlanTest, VectorRowUnrollAndPeel) {
  EXPECT_EQ(getVectorRowUnroll(/*walkingSource=*/true, 64, 16), 4);
  EXPECT_EQ(getVectorRowUnroll(true, 63, 16), 1);
  EXPECT_EQ(getVectorRowUnroll(false, 4096, 16), 1);
  // Unmasked streaming edges peel whole lines; otherwise a vector.
  EXPECT_EQ(getPeelBytes(32, /*maskedEdges=*/false, /*nontemporal=*/true), 64);
  EXPECT_EQ(getPeelBytes(32, true, true), 32);
  EXPECT_EQ(getPeelBytes(32, false, false), 32);
  EXPECT_EQ(getPeelBytes(128, false, true), 128);
}

TEST(KernelPlanTest, TransposeBlocksPrefetchLongPlanesOfNarrowElements) {
  auto bf16Plane = [](int64_t sizeK, int64_t sizeR) {
    TransposePlaneFacts f = f32Plane(sizeK, sizeR);
    f.lanes = 32;
    f.elementBytes = 2;
    f.destStrideKBytes = sizeR * 2;
    return f;
  };
  TransposePlaneFacts f = bf16Plane(4096, 4096);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  // Odd extents too: a plane of 512 rows along p_r is long enough.
  f = bf16Plane(4093, kTransposePrefetchPlane);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 32);
  EXPECT_FALSE(planTransposeBlocks(f)->wrapPrefetch);
  // A tile's plane (128 rows along p_r) and anything shorter than 512
  // rows: no prefetches with AVX-512's register file (AVX2's wrap into
  // the next group: TransposeBlocksWrapPrefetchesOnShortPlanes).
  f = bf16Plane(4096, 128);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  f = bf16Plane(4096, kTransposePrefetchPlane - 1);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  EXPECT_FALSE(planTransposeBlocks(f)->wrapPrefetch);
  // f32 blocks: no prefetches when the source rows are a constant number
  // of lines apart, which the stride prefetchers follow.
  EXPECT_EQ(planTransposeBlocks(f32Plane(4096, 4096))->prefetchRows, 0);
  // Rows at an odd pitch or inside tiles: prefetches, on long planes.
  f = f32Plane(4093, 4099);
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  f = f32Plane(4096, 128);
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // AVX2's register file: 8 x 8 f32 blocks of half lines, two side by
  // side (16 rows): prefetched too at odd pitches (measured faster)...
  f = f32Plane(4093, 4099);
  f.registerFileBytes = 512;
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->side, 8);
  EXPECT_EQ(planTransposeBlocks(f)->wide, 2);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  // ... but not with rows on lines,
  f = f32Plane(4096, 4096);
  f.registerFileBytes = 512;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // nor in rows shorter than a line (a short p_k: 8 x 8 blocks, nearly
  // sequential reads),
  f = f32Plane(12, 4099);
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->side, 8);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // nor 4 x 4 blocks.
  f = f32Plane(4093, 4099);
  f.maxSide = 4;
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->side, 4);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // i8 blocks of 64 rows (4 x 16 x 16): a whole block ahead.
  f = f32Plane(4093, 4099);
  f.lanes = 64;
  f.elementBytes = 1;
  f.destStrideKBytes = 4099;
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side * p->wide, 64);
  EXPECT_EQ(p->prefetchRows, 64);
  f.registerFileBytes = 512;
  p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side, 16);
  EXPECT_EQ(p->wide, 4);
  EXPECT_EQ(p->prefetchRows, 64);
  // f64 8 x 8 blocks off lines: from tiles, prefetched,
  auto f64PlaneOffLines = [](int64_t sizeK, int64_t sizeR) {
    TransposePlaneFacts f = f32Plane(sizeK, sizeR);
    f.lanes = 8;
    f.elementBytes = 8;
    f.destStrideKBytes = sizeR * 8;
    f.lineStridedRows = false;
    return f;
  };
  f = f64PlaneOffLines(2045, 2051);
  EXPECT_EQ(planTransposeBlocks(f)->side, 8);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  // from plain rows only where the block fills the register file (AVX2's
  // 512 bytes; AVX-512 code measured slower on Zen 5), not when it is
  // unknown,
  f.plainRows = true;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  f.registerFileBytes = 0;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  f.registerFileBytes = 512;
  EXPECT_EQ(planTransposeBlocks(f)->side, 8);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  // and never with rows on lines,
  f.lineStridedRows = true;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // nor in rows shorter than a line.
  f = f64PlaneOffLines(7, 2051);
  EXPECT_EQ(planTransposeBlocks(f)->side, 4);
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
}

/// Expects blocks of `rows` rows along p_r (side x wide) on `f`,
/// prefetching `prefetchRows` rows ahead, wrapped or not.
static void expectBlockPrefetch(const TransposePlaneFacts &f, int64_t rows,
                                int64_t prefetchRows, bool wrap) {
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side * p->wide, rows);
  EXPECT_EQ(p->prefetchRows, prefetchRows);
  EXPECT_EQ(p->wrapPrefetch, wrap);
}

TEST(KernelPlanTest, TransposeBlocksWrapPrefetchesOnShortPlanes) {
  // AVX2's register file (512 bytes), f32 rows off lines into a tile's
  // plane of 128 rows (permuted -> T(8,128)): two 8 x 8 blocks side by
  // side, prefetching 32 rows ahead, into the next group past the plane's
  // end; plain rows prefetched read 1 KiB of each row per group.
  TransposePlaneFacts f = f32Plane(4093, 128);
  f.registerFileBytes = 512;
  f.lineStridedRows = false;
  f.plainRows = true;
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->side, 8);
  EXPECT_EQ(p->wide, 2);
  EXPECT_EQ(p->prefetchRows, kTransposePrefetchRows);
  EXPECT_TRUE(p->wrapPrefetch);
  EXPECT_EQ(p->group, 256);
  // Rows inside tiles (tiled -> tiled-permuted): the target's groups.
  f.plainRows = false;
  p = planTransposeBlocks(f);
  EXPECT_TRUE(p->wrapPrefetch);
  EXPECT_EQ(p->group, 64);
  // The same plane with AVX-512's register file (measured within noise)
  // or an unknown one: no prefetches.
  f.registerFileBytes = 2048;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  f.registerFileBytes = 0;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // A plane of fewer than two distances (63 rows): none either.
  f = f32Plane(4093, 63);
  f.registerFileBytes = 512;
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // 64 rows, two distances: wrapped.
  f.sizeR = 64;
  f.destStrideKBytes = 256;
  EXPECT_TRUE(planTransposeBlocks(f)->wrapPrefetch);
  // Rows on lines take none, short plane or not.
  f.lineStridedRows = true;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  // bf16 (16 x 16 blocks, two side by side: 32 rows) on a tile's plane:
  // wrapped.
  f = f32Plane(4093, 128);
  f.lanes = 32;
  f.elementBytes = 2;
  f.destStrideKBytes = 256;
  f.registerFileBytes = 512;
  expectBlockPrefetch(f, 32, kTransposePrefetchRows, /*wrap=*/true);
  // i8 blocks of 64 rows (AVX2's 4 x 16 x 16; measured no faster): none
  // on a tile's plane, though their long planes prefetch.
  f.lanes = 64;
  f.elementBytes = 1;
  f.destStrideKBytes = 128;
  expectBlockPrefetch(f, 64, 0, /*wrap=*/false);
  f.sizeR = 4099;
  f.destStrideKBytes = 4099;
  expectBlockPrefetch(f, 64, 64, /*wrap=*/false);
  // Long planes prefetch within the plane (no wrap).
  f = f32Plane(4093, 4099);
  f.registerFileBytes = 512;
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  EXPECT_FALSE(planTransposeBlocks(f)->wrapPrefetch);
}

TEST(KernelPlanTest, TransposeBlocksReadPrefetchedPlainRowsInKiBGroups) {
  // f32 at an odd pitch, plain rows, prefetched: 1 KiB of each source row
  // per visit (256 elements), in place of the target's 256 bytes.
  TransposePlaneFacts f = f32Plane(4093, 4099);
  f.lineStridedRows = false;
  f.plainRows = true;
  std::optional<TransposeBlockPlan> p = planTransposeBlocks(f);
  ASSERT_TRUE(p);
  EXPECT_EQ(kDefaultPrefetchedGroupBytes, 1024);
  EXPECT_EQ(p->prefetchRows, kTransposePrefetchRows);
  EXPECT_EQ(p->group, 256);
  // Whatever the target's groups: 2 KiB ones too.
  f.groupBytes = 2048;
  EXPECT_EQ(planTransposeBlocks(f)->group, 256);
  // The option's own value (prefetched-group-bytes=4096) ...
  f.prefetchedGroupBytes = 4096;
  EXPECT_EQ(planTransposeBlocks(f)->group, 1024);
  // ... and 0: the target's groups.
  f.prefetchedGroupBytes = 0;
  EXPECT_EQ(planTransposeBlocks(f)->group, 512);
  // Rows inside tiles (not plain), prefetched: the target's 256 bytes.
  f = f32Plane(4093, 4099);
  f.lineStridedRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  EXPECT_EQ(planTransposeBlocks(f)->group, 64);
  // Plain rows on lines (no prefetches): 256 bytes.
  f = f32Plane(4096, 4096);
  f.plainRows = true;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, 0);
  EXPECT_EQ(planTransposeBlocks(f)->group, 64);
  // bf16 (prefetched at any pitch): 512 elements of 2 bytes.
  f.lanes = 32;
  f.elementBytes = 2;
  f.destStrideKBytes = 4096 * 2;
  EXPECT_EQ(planTransposeBlocks(f)->prefetchRows, kTransposePrefetchRows);
  EXPECT_EQ(planTransposeBlocks(f)->group, 512);
  // Nests that also read along the row keep at most 256 bytes.
  f.rowReads = true;
  EXPECT_EQ(planTransposeBlocks(f)->group, 128);
}

TEST(KernelPlanTest, TransposeBlocksPrefetchRowReadsOfStreamingNests) {
  // An elementwise op's operand read along the result's rows: 512 bytes
  // ahead, in elements.
  TransposePlaneFacts f = f32Plane(4096, 4096);
  f.rowReads = true;
  EXPECT_EQ(planTransposeBlocks(f)->rowPrefetch, 128);
  EXPECT_EQ(kRowReadPrefetchBytes, 512);
  f.lanes = 32;
  f.elementBytes = 2;
  EXPECT_EQ(planTransposeBlocks(f)->rowPrefetch, 256);
  // Rows of at most 512 bytes: none (the prefetches would all clamp to
  // the row's end).
  f = f32Plane(4096, 128);
  f.rowReads = true;
  EXPECT_EQ(planTransposeBlocks(f)->rowPrefetch, 0);
  f = f32Plane(4096, 129);
  f.rowReads = true;
  EXPECT_EQ(planTransposeBlocks(f)->rowPrefetch, 128);
  // Cached nests (in-cache operands), and copies (no row reads): none.
  f = f32Plane(4096, 4096);
  f.rowReads = true;
  f.nontemporal = false;
  EXPECT_EQ(planTransposeBlocks(f)->rowPrefetch, 0);
  EXPECT_EQ(planTransposeBlocks(f32Plane(4096, 4096))->rowPrefetch, 0);
}

TEST(KernelPlanTest, TransposeStageTilesWholePlanes) {
  // 256 destination rows x 512 bytes: f32 128 elements, bf16 256, i8 512.
  std::optional<TransposeStagePlan> f32 =
      planTransposeStage(4096, 4096, 16, 16, 4);
  ASSERT_TRUE(f32);
  EXPECT_EQ(f32->rows, 256);
  EXPECT_EQ(f32->columns, 128);
  std::optional<TransposeStagePlan> bf16 =
      planTransposeStage(512, 256, 16, 32, 2);
  ASSERT_TRUE(bf16);
  EXPECT_EQ(bf16->columns, 256);
  EXPECT_EQ(planTransposeStage(256, 512, 32, 64, 1)->columns, 512);
  // Planes that are no whole number of tiles: not staged.
  EXPECT_FALSE(planTransposeStage(4093, 4096, 16, 16, 4));
  EXPECT_FALSE(planTransposeStage(4096, 4000, 16, 16, 4));
  EXPECT_FALSE(planTransposeStage(128, 4096, 16, 16, 4));
}

/// f32Plane with 32-byte vectors (vector-bytes=32: 8 lanes).
TransposePlaneFacts f32Plane32(int64_t sizeK, int64_t sizeR) {
  TransposePlaneFacts f = f32Plane(sizeK, sizeR);
  f.lanes = 8;
  f.vectorBytes = 32;
  return f;
}

TEST(KernelPlanTest, TransposeBlocksStreamWholeLines) {
  // 32-byte vectors (vector-bytes=32): f32 blocks of 8 x 8 store half a
  // line per block row. Streaming, two blocks go side by side so that each
  // line is written in one go; cached stores keep one block.
  TransposePlaneFacts f = f32Plane32(64, 64);
  std::optional<TransposeBlockPlan> plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->side, 8);
  EXPECT_EQ(plan->wide, 2);
  f.nontemporal = false;
  EXPECT_EQ(planTransposeBlocks(f)->wide, 1);
  // Rows shorter than a line: one block.
  f = f32Plane32(64, 12);
  EXPECT_EQ(planTransposeBlocks(f)->wide, 1);
  // Rows of 24 f32 (96 bytes, off lines, too short to realign): two
  // blocks all the same (cached stores beat half lines streamed).
  f = f32Plane32(64, 24);
  plan = planTransposeBlocks(f);
  EXPECT_EQ(plan->wide, 2);
  EXPECT_FALSE(plan->realignRows);
  // 64-byte vectors already store whole lines.
  EXPECT_EQ(planTransposeBlocks(f32Plane(64, 64))->wide, 1);
}

TEST(KernelPlanTest, TransposeBlocksRealignOddStreamingRows) {
  // f32 4093 x 4099 -> {0,1}: destination rows of 4093 elements (16372
  // bytes, not a multiple of the 64-byte vector), streaming: realigned.
  TransposePlaneFacts f = f32Plane(4099, 4093);
  std::optional<TransposeBlockPlan> plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->side, 16);
  EXPECT_EQ(plan->wide, 1);
  EXPECT_TRUE(plan->realignRows);
  // Aligned rows, cached stores, or a row shorter than two vectors: no.
  EXPECT_FALSE(planTransposeBlocks(f32Plane(4096, 4096))->realignRows);
  f.nontemporal = false;
  EXPECT_FALSE(planTransposeBlocks(f)->realignRows);
  EXPECT_FALSE(planTransposeBlocks(f32Plane(4099, 31))->realignRows);
  EXPECT_TRUE(planTransposeBlocks(f32Plane(4099, 33))->realignRows);
  // p_k rows a multiple of 64 bytes apart (a destination [A, 16, 45] with
  // p_k outermost) but the rows between them (a middle dim) not: realigned.
  f = f32Plane(64, 45);
  f.destStrideKBytes = 16 * 45 * 4;
  EXPECT_FALSE(planTransposeBlocks(f)->realignRows);
  f.destRowStrideBytes = 45 * 4;
  EXPECT_TRUE(planTransposeBlocks(f)->realignRows);
  // bf16 blocks are 16 x 16, two side by side per 64-byte row part
  // (wide = 2): realigned as whole lines, rows of at least two lines.
  f = f32Plane(4099, 4093);
  f.lanes = 32;
  f.elementBytes = 2;
  f.destStrideKBytes = 4093 * 2;
  plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->wide, 2);
  EXPECT_TRUE(plan->realignRows);
  // Rows of 32 bf16 (one line apart): aligned already.
  f.destStrideKBytes = 4096 * 2;
  EXPECT_FALSE(planTransposeBlocks(f)->realignRows);
  f.destStrideKBytes = 4093 * 2;
  f.sizeR = 63;
  EXPECT_FALSE(planTransposeBlocks(f)->realignRows);
}

TEST(KernelPlanTest, FlattenStreamingRowsOffLines) {
  // f32[63,257,1021] -> {0,1,2}: streaming rows of 63 f32 (252 bytes) flatten
  // with the 257 rows outside them; rows of whole lines (64 f32) do not,
  // nor cached stores, nor a single row outside.
  TransposePlaneFacts f = f32Plane(1021, 63);
  EXPECT_TRUE(shouldFlattenRows(f, 257));
  EXPECT_FALSE(shouldFlattenRows(f, 1));
  EXPECT_FALSE(shouldFlattenRows(f32Plane(1021, 64), 257));
  // Long rows off lines flatten too (16 KiB rows measured 14 -> 21 GB/s).
  EXPECT_TRUE(shouldFlattenRows(f32Plane(1021, 4093), 3));
  f.nontemporal = false;
  EXPECT_FALSE(shouldFlattenRows(f, 257));
  // The flat row (63 x 257) reads each source row 4 KiB at a time: 1024
  // f32 rows per group, capped at the plane's whole blocks (1021 -> 1008).
  f = f32Plane(1021, 63 * 257);
  f.destStrideKBytes = 63 * 257 * 4;
  f.flatRows = true;
  std::optional<TransposeBlockPlan> plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->side, 16);
  EXPECT_EQ(plan->group, 1008);
  EXPECT_TRUE(plan->realignRows);
  f.sizeK = 4099;
  EXPECT_EQ(planTransposeBlocks(f)->group, 1024);
  f.flatRows = false;
  EXPECT_EQ(planTransposeBlocks(f)->group, 64);
}

TEST(KernelPlanTest, GroupCappedAtThePlane) {
  // bf16 rows prefetched 1 KiB per visit (groups of 512 rows) on a plane
  // of 64 p_k rows (bf16[65536,64] -> {0,1}): one group of the 64 rows.
  TransposePlaneFacts f = f32Plane(64, 65536);
  f.lanes = 32;
  f.elementBytes = 2;
  f.destStrideKBytes = 65536 * 2;
  f.plainRows = true;
  f.groupBytes = 256;
  std::optional<TransposeBlockPlan> plan = planTransposeBlocks(f);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->side, 16);
  ASSERT_NE(plan->prefetchRows, 0);
  EXPECT_EQ(plan->group, 64);
  // 100 rows: the 96 of whole blocks; a plane of 4099 rows keeps 512.
  f.sizeK = 100;
  EXPECT_EQ(planTransposeBlocks(f)->group, 96);
  f.sizeK = 4099;
  EXPECT_EQ(planTransposeBlocks(f)->group, 512);
}

TEST(KernelPlanTest, TransposeChunkRows) {
  // Whole groups when there are at least 4 of them.
  EXPECT_EQ(getTransposeChunkRows(4096, 1, 64, 16, 0), 64);
  EXPECT_EQ(getTransposeChunkRows(4096, 4, 64, 16, 0), 64);
  // 1021 rows in groups of 1008 (a flat row's): 4 chunks of 240 rows, the
  // last one taking the rest, rather than chunks of one block.
  EXPECT_EQ(getTransposeChunkRows(1021, 1, 1008, 16, 0), 240);
  // A line-safe chunk of 4 rows: multiples of lcm(4, 16).
  EXPECT_EQ(getTransposeChunkRows(1021, 4, 1008, 16, 0), 240);
  EXPECT_EQ(getTransposeChunkRows(1021, 32, 1008, 16, 0), 224);
  // Too few rows for 4 chunks: one block.
  EXPECT_EQ(getTransposeChunkRows(40, 1, 64, 16, 0), 16);
}

/// The facts of a blocked transpose's plane for planTransposeChunks:
/// line-safe chunks of one row, 64-byte stores, threads not known.
static TransposeChunkFacts makeChunkFacts(int64_t sizeK, int64_t sizeR,
                                          int64_t group, int64_t side,
                                          int64_t width, int64_t elementBytes) {
  TransposeChunkFacts f;
  f.sizeK = sizeK;
  f.sizeR = sizeR;
  f.group = group;
  f.side = side;
  f.width = width;
  f.elementBytes = elementBytes;
  f.storeBytes = 64;
  return f;
}

TEST(KernelPlanTest, TransposeChunkRowsForEveryThread) {
  // u8[4093,4099] -> {0,1} (AVX-512): 4099 p_k rows in groups of 1024,
  // blocks of 32 rows, line-safe chunks of 64 rows (4093-byte rows). Two
  // threads (or not known): the 4 whole groups.
  EXPECT_EQ(getTransposeChunkRows(4099, 64, 1024, 32, 2), 1024);
  EXPECT_EQ(getTransposeChunkRows(4099, 64, 1024, 32, 0), 1024);
  EXPECT_EQ(getTransposeChunkRows(4099, 64, 1024, 32, 4), 1024);
  // 16 threads: 16 chunks of 256 rows (a quarter group each); 64 threads:
  // 64 rows each (the line-safe chunk, two blocks).
  EXPECT_EQ(getTransposeChunkRows(4099, 64, 1024, 32, 16), 256);
  EXPECT_EQ(getTransposeChunkRows(4099, 64, 1024, 32, 64), 64);
  // Fewer line-safe chunks than threads: one line-safe chunk each.
  EXPECT_EQ(getTransposeChunkRows(4099, 64, 1024, 32, 128), 64);
  // 48 threads, f32 16-row blocks, groups of 256: 4099 / 48 = 85 rows,
  // 80 of whole blocks: 51 chunks.
  EXPECT_EQ(getTransposeChunkRows(4099, 1, 256, 16, 48), 80);
  // Whole groups that already give every thread one stay.
  EXPECT_EQ(getTransposeChunkRows(4096, 1, 64, 16, 64), 64);
  // planTransposeChunks passes the threads on.
  TransposeChunkFacts f = makeChunkFacts(4099, 4093, 1024, 32, 64, 1);
  f.parallelChunk = 64;
  f.threads = 16;
  TransposeChunkPlan plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 256);
  EXPECT_EQ(plan.count, 16);
  f.threads = 2;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 1024);
  EXPECT_EQ(plan.count, 4);
}

TEST(KernelPlanTest, FlatRowColumnChunks) {
  // f32[63,257,1021] -> {0,1,2} on two threads: p_k 1021 in flat-row
  // groups of 1008 (4 KiB of each source row), flat rows of 257 x 63 =
  // 16191 columns in blocks of 16 (1011 full ones). Chunks of p_k would be
  // 240 rows (960 bytes per visit): 4 column chunks of 253 blocks instead,
  // the last one of 252 and the edge block.
  TransposeChunkFacts f = makeChunkFacts(1021, 16191, 1008, 16, 16, 4);
  f.threads = 2;
  f.mayChunkColumns = true;
  f.flatRows = true;
  TransposeChunkPlan plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 0);
  EXPECT_EQ(plan.columns, 253 * 16);
  EXPECT_EQ(plan.count, 4);
  // As many chunks as threads beyond 4, as even as whole blocks allow: 8
  // threads, 7 chunks of 127 blocks and one of 122; 64 threads, 63 of 16
  // and one of 3 (not 63 of 15 and one of 66).
  f.threads = 8;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.columns, 127 * 16);
  EXPECT_EQ(plan.count, 8);
  f.threads = 64;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.columns, 16 * 16);
  EXPECT_EQ(plan.count, 64);
  // 600 threads: 506 chunks of 2 blocks (the last of 1). 2000: fewer than
  // 2 blocks per chunk, p_k chunks of one block.
  f.threads = 600;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.columns, 2 * 16);
  EXPECT_EQ(plan.count, 506);
  f.threads = 2000;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.columns, 0);
  EXPECT_EQ(plan.rows, 16);
  f.threads = 2;
  // p_k chunks of whole groups (a taller plane) cut no visit: kept.
  f.sizeK = 4 * 1008 + 5;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 1008);
  EXPECT_EQ(plan.count, 4);
  // Not allowed (a middle dim takes the chunks, bound checks): p_k.
  f.sizeK = 1021;
  f.mayChunkColumns = false;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 240);
  EXPECT_EQ(plan.columns, 0);
  // Plain rows of the same extents keep the plain rule: chunks of 240
  // rows read whole lines of each source row, and 16191 is no whole
  // number of blocks.
  f.mayChunkColumns = true;
  f.flatRows = false;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 240);
  EXPECT_EQ(plan.columns, 0);
}

TEST(KernelPlanTest, TransposeChunks) {
  // bf16[65536,64] -> {0,1}: 64 p_k rows in chunks of 16 (32 bytes of each
  // source row): 65536 columns in blocks of 32, 256 chunks of 8 blocks.
  TransposeChunkFacts f = makeChunkFacts(64, 65536, 128, 16, 32, 2);
  f.mayChunkColumns = true;
  TransposeChunkPlan plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 0);
  EXPECT_EQ(plan.columns, 256);
  EXPECT_EQ(plan.count, 256);
  // Blocks of 32 bytes (AVX2: 16 bf16 per store): chunks of whole lines
  // (two blocks), the last one taking the fifth block.
  f.width = 16;
  f.storeBytes = 32;
  f.sizeR = 16 * 5;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 0);
  EXPECT_EQ(plan.columns, 32);
  EXPECT_EQ(plan.count, 2);
  // Rows that are not whole blocks, or not plain: chunks of p_k.
  f.sizeR = 16 * 5 + 3;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 16);
  EXPECT_EQ(plan.columns, 0);
  EXPECT_EQ(plan.count, 4);
  f.sizeR = 65536;
  f.mayChunkColumns = false;
  EXPECT_EQ(planTransposeChunks(f).rows, 16);
  // Chunks of p_k of a whole line per source row: kept.
  f.mayChunkColumns = true;
  f.elementBytes = 4;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 16);
  EXPECT_EQ(plan.count, 4);
  // Two 32-byte blocks per row, one line: a single column chunk is no
  // split. One 64-byte block per row neither.
  f.elementBytes = 2;
  f.sizeR = 32;
  EXPECT_EQ(planTransposeChunks(f).rows, 16);
  f.width = 32;
  f.storeBytes = 64;
  EXPECT_EQ(planTransposeChunks(f).rows, 16);
  // One p_k chunk: nothing to split either way.
  f.sizeR = 65536;
  f.sizeK = 16;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 16);
  EXPECT_EQ(plan.count, 1);
  // Degenerate facts: no chunks, no division by zero.
  f.side = 0;
  plan = planTransposeChunks(f);
  EXPECT_EQ(plan.rows, 0);
  EXPECT_EQ(plan.columns, 0);
  EXPECT_EQ(plan.count, 0);
}

TEST(KernelPlanTest, InterleavedPart) {
  // bf16 (2,1) sub-tiles, 32 lanes, rows of 128: two reads of 16 lanes.
  EXPECT_EQ(getInterleavedPart(2, 32, 128), 16);
  // s8 (4,1): four reads of 16 lanes.
  EXPECT_EQ(getInterleavedPart(4, 64, 128), 16);
  // Not a power of two, one slot, parts of one lane, rows not a multiple.
  EXPECT_FALSE(getInterleavedPart(3, 48, 128));
  EXPECT_FALSE(getInterleavedPart(1, 32, 128));
  EXPECT_FALSE(getInterleavedPart(32, 32, 128));
  EXPECT_FALSE(getInterleavedPart(2, 32, 100));
}

TEST(KernelPlanTest, RowShiftSets) {
  // bf16[63,257,1021] -> {1,2,0} on AVX2: rows of 257, planes of
  // 1021 x 257 = 262397, 16 x 16 blocks two wide (W = 32). 257 = 1 mod 32,
  // so p_k's blocks move S by 16; 262397 = 29 mod 32 moves it by 1: step
  // gcd(32, 16, 29) = 1, 32 sets, row j of set c at (c + j) mod 32.
  std::optional<RowShiftPlan> bf16 = planRowShifts(257, {262397}, 0, 16, 32);
  ASSERT_TRUE(bf16);
  EXPECT_EQ(bf16->step, 1);
  ASSERT_EQ(bf16->shifts.size(), 32u);
  ASSERT_EQ(bf16->shifts[5].size(), 16u);
  EXPECT_EQ(bf16->shifts[0][0], 0);
  EXPECT_EQ(bf16->shifts[5][3], 8);
  EXPECT_EQ(bf16->shifts[31][1], 0);
  EXPECT_EQ(bf16->shifts[20][15], 3);
  // f32[64,257,1024] on AVX2 (8 x 8 blocks two wide, W = 16): planes of
  // 1024 x 257 = 0 mod 16 keep S; p_k's blocks move it by 257 x 8 = 8 mod
  // 16: two sets, j and 8 + j.
  std::optional<RowShiftPlan> f32 = planRowShifts(257, {263168}, 0, 8, 16);
  ASSERT_TRUE(f32);
  EXPECT_EQ(f32->step, 8);
  ASSERT_EQ(f32->shifts.size(), 2u);
  EXPECT_EQ(f32->shifts[0][1], 1);
  EXPECT_EQ(f32->shifts[1][0], 8);
  EXPECT_EQ(f32->shifts[1][7], 15);
  // 2-D rows of 4093 f32, 16 x 16 blocks: 4093 x 16 = 0 mod 16, one set,
  // row j at 13 j mod 16.
  std::optional<RowShiftPlan> rows = planRowShifts(4093, {}, 0, 16, 16);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->shifts.size(), 1u);
  EXPECT_EQ(rows->shifts[0][1], 13);
  EXPECT_EQ(rows->shifts[0][2], 10);
  // A constant offset keeps its residue mod the step: 5 + 8 c + j.
  std::optional<RowShiftPlan> offset = planRowShifts(257, {}, 5, 8, 16);
  ASSERT_TRUE(offset);
  EXPECT_EQ(offset->shifts[0][0], 5);
  EXPECT_EQ(offset->shifts[1][0], 13);
  EXPECT_EQ(offset->shifts[1][4], 1);
  // Strides near the int64 range reduce mod W first.
  std::optional<RowShiftPlan> huge =
      planRowShifts((int64_t(1) << 62) + 1, {}, 0, 16, 32);
  ASSERT_TRUE(huge);
  EXPECT_EQ(huge->step, 16);
  EXPECT_EQ(huge->shifts[1][3], 19);
  // i8 lines of 64 with an odd plane stride: 64 sets, more than
  // kMaxRowShiftCases.
  EXPECT_FALSE(planRowShifts(131, {131 * 41}, 0, 16, 64));
}

} // namespace
