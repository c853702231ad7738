//===- TileRowBlocks.cpp - Blocked transposes across tile rows ------------===//
//
// A blocked transpose into (or within) tiles of no more rows than a vector
// has lanes, from a source contiguous across them, takes blocks no taller
// than a tile: the (2,1) sub-tiles of bf16 moved as 32-bit groups make
// T(4,128) tiles of i32, 4 x 4 blocks of 16-byte vectors, one 16-byte run
// of each source row per block. The tiles' rows follow each other in the
// source (a {0,1} source: the rows of the next tile continue the same
// source column), so the tile rows (level k) and the rows inside a tile
// (level j = n - 2, with the destination's tile columns between them as
// middle dims) are one p_k of size(k) x size(j) for the reads: the nest is
// rewritten so (level k holds the merged index m, level j one slot; the
// sources read at m, the destination at (m floordiv s, m mod s)), the
// blocked transpose plans and builds over it with blocks of up to a
// vector's lanes (8 x 8 for i32 on AVX2), each block's rows stored into
// their tiles, and the nest is restored. A middle dim whose last slot is
// cut by the array (odd extents) is peeled: the other slots, then that one
// with a bound along the row (its blocks, or the level loops when they are
// shorter than a tile and than 16 elements: 3 columns of 128).
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

bool NestEmitter::emitTileRowBlocks(unsigned k,
                                    const llvm::SmallBitVector &active) {
  // The plane's levels: k (tile rows), j = n - 2 (the rows in a tile),
  // n - 1 the destination's rows, any between k and j (the tile columns of
  // a tiled destination) middle dims of the blocks; k and j plain
  // destination dims, each once.
  unsigned n = placeholders.size();
  // (emitLevel leaves no parallel level inside level k.)
  if (!lanes || k + 3 > n)
    return false;
  unsigned j = n - 2;
  std::optional<int64_t> tiles = IndexExprs::getConstant(physSizes[k]);
  std::optional<int64_t> rows = IndexExprs::getConstant(physSizes[j]);
  // (Tiles of 8 f32 rows (32 bytes) merge too: with AVX-512's register
  // file the kernel then takes 16 x 16 blocks over two tiles. f32 and the
  // 32-bit groups of bf16 (2,1) sub-tiles into or out of T(8,128)-style
  // tiles went from 0.70-0.84x memcpy with 8 x 8 blocks to 1.07-1.32x,
  // AVX-512 code on Emerald Rapids: docs/performance.md, "Blocks across
  // tiles of 8 f32 rows". Tiles exactly a block tall merge as well (f64
  // T(8,128): 8 x 8 blocks; AVX2's f32 8 x 8): the blocks stay inside a
  // tile, but p_k runs across the tiles, so a visit reads a whole group of
  // each source row, not the tile's 8 rows: f64[2045,2051] T(8,128) ->
  // {0,1:T(8,128)} 0.29 -> 0.66x memcpy, {0,1} -> T(8,128) 0.45 -> 0.69,
  // AVX-512 code, docs/performance.md, "Blocks a tile tall, groups across
  // tiles". Tiles a whole number of blocks tall merge alike: AVX2's 16 x 16
  // 8-bit blocks in T(32,128) tiles, emitMergedBlocks; u8[4093,4099]
  // {0,1} -> T(32,128) 0.20-0.23 -> 0.31-0.38x memcpy, docs/performance.md,
  // "8-bit tiles without sub-tiles". Rows of more than 64 bytes fill a
  // block alone.)
  if (!tiles || !rows || *tiles < 2 || *rows < 2 || *rows > lanes ||
      *rows * elementBytes > 64 || !llvm::isPowerOf2_64(*rows))
    return false;
  AffineExpr pk = placeholders[k], pin = placeholders[j];
  auto dimOf = [&](AffineExpr p) -> std::optional<unsigned> {
    if (llvm::count(destIndex, p) != 1)
      return std::nullopt;
    return static_cast<unsigned>(llvm::find(destIndex, p) - destIndex.begin());
  };
  // (Interleaved stores: the row in the tile is stored through its run and
  // u, and the column is dim n - 3; the strides are level j's.)
  std::optional<unsigned> dimK = dimOf(pk),
                          dimIn = interleavedStores ? j : dimOf(pin);
  if (!dimK || !dimIn ||
      destIndex[interleavedStores ? n - 3 : n - 1] != placeholders.back())
    return false;
  // Every source reads the two levels only through rows * p_k + p_in (the
  // merged index; a source tiled along it, (m floordiv 128, m mod 128),
  // is affine in it only inside its tiles: the kernel's aligned reads).
  DenseMap<AffineExpr, AffineExpr> merge{{pk, x.cst(0)}, {pin, pk}};
  for (const Source &s : sources)
    for (AffineExpr ex : s.index) {
      AffineExpr back = ex.replace(merge).replace(pk, pk * *rows + pin);
      if (IndexExprs::getConstant(x.simplify(ex - back)) != 0)
        return false;
    }
  for (int c : active.set_bits())
    if (checks[c].form.coeffs[k] != *rows * checks[c].form.coeffs[j])
      return false;
  MergedRows merged{k, j, *rows, *tiles, *dimK, *dimIn};
  // A check on a middle dim and the row (the last tile column of an odd
  // array, 128 D + d < 4093) cuts the plane: the middle dim's last slot is
  // peeled, the blocks take the others whole and then that slot, whose
  // check is a bound along the row alone (padding slots after it).
  std::optional<unsigned> cutLevel;
  llvm::SmallBitVector cut(checks.size());
  // (A middle dim of one slot does not cut: the kernel's getValidSlots
  // sees through it.)
  for (int c : active.set_bits())
    for (unsigned m = k + 1; m < j; ++m)
      if (checks[c].form.coeffs[m] &&
          IndexExprs::getConstant(physSizes[m]) != 1) {
        if (cutLevel && *cutLevel != m)
          return false;
        cutLevel = m;
        cut.set(c);
      }
  if (!cutLevel)
    return emitMergedBlocks(merged, active);
  unsigned m = *cutLevel;
  std::optional<int64_t> slots = IndexExprs::getConstant(physSizes[m]);
  if (!slots)
    return false;
  int64_t full = *slots;
  for (int c : cut.set_bits()) {
    const Check &check = checks[c];
    std::optional<int64_t> bound = IndexExprs::getConstant(check.bound);
    if (!bound)
      return false;
    // (The largest value the other levels from k on add; none before k.)
    int64_t inner = 0;
    for (auto [l, a] : llvm::enumerate(check.form.coeffs)) {
      if (!a || l == m)
        continue;
      std::optional<int64_t> size = IndexExprs::getConstant(physSizes[l]);
      if (a < 0 || l < k || !size)
        return false;
      inner += a * (*size - 1);
    }
    if (check.form.coeffs[m] <= 0)
      return false;
    full = std::min(
        full, llvm::divideFloorSigned(*bound - check.form.constant - inner - 1,
                                      check.form.coeffs[m]) +
                  1);
  }
  // (Checks that hold on the whole plane are the kernel's; more than one
  // slot cut is not peeled.)
  if (full >= *slots)
    return emitMergedBlocks(merged, active);
  if (full != *slots - 1 || full < 1)
    return false;
  AffineExpr pm = placeholders[m];
  // The middle dim's first `full` slots, where the cut checks hold, in
  // blocks (else nothing is built); then its last slot: the nest shifted
  // by `full` along it, one slot, in blocks or the level loops.
  llvm::SmallBitVector whole = active;
  whole.reset(cut);
  {
    Snapshot restoreSize(*this);
    physSizes[m] = x.cst(full);
    if (!emitMergedBlocks(merged, whole))
      return false;
  }
  Snapshot restore(*this);
  AffineExpr shifted = pm + full;
  auto shift = [&](AffineExpr &ex) {
    ex = x.simplify(ex.replace(pm, shifted));
  };
  for (Source &s : sources)
    llvm::for_each(s.index, shift);
  llvm::for_each(destIndex, shift);
  llvm::for_each(logical, shift);
  for (Check &c : checks) {
    shift(c.value);
    c.form.constant += c.form.coeffs[m] * full;
  }
  physSizes[m] = x.cst(1);
  if (emitMergedBlocks(merged, active))
    return true;
  // (Interleaved stores: the rewritten nest's rows run along dim n - 3,
  // q slots apart, where vector rows assume the last dim: scalar loops.)
  int64_t savedLanes = lanes;
  if (interleavedStores)
    lanes = 0;
  emitLevelLoops(k, active);
  lanes = savedLanes;
  return true;
}

/// The smallest block side (elements) that merges tiles taller than a
/// block: AVX2's 8-bit 16 x 16, not the 4 x 4 blocks of a short dim.
static constexpr int64_t kMinFractionBlockSide = 16;

bool NestEmitter::emitMergedBlocks(const MergedRows &merged,
                                   const llvm::SmallBitVector &active) {
  auto [k, j, rows, tiles, dimK, dimIn] = merged;
  AffineExpr pk = placeholders[k], pin = placeholders[j];
  DenseMap<AffineExpr, AffineExpr> merge{{pk, x.cst(0)}, {pin, pk}};
  // Rewrite the nest, and restore it whatever happens.
  Snapshot restore(*this);
  for (Source &s : sources)
    for (AffineExpr &ex : s.index)
      ex = x.simplify(ex.replace(merge));
  for (int m : active.set_bits()) {
    Check &c = checks[m];
    c.value = x.simplify(c.value.replace(merge));
    c.form.coeffs[k] = c.form.coeffs[j];
    c.form.coeffs[j] = 0;
  }
  // (With interleaved stores the row in the tile is in two dims: its run,
  // p_in floordiv q, and u, p_in mod q.)
  DenseMap<AffineExpr, AffineExpr> split{{pk, pk.floorDiv(rows)},
                                         {pin, pk % rows}};
  for (AffineExpr &ex : destIndex)
    ex = x.simplify(ex.replace(split));
  physSizes[k] = x.cst(tiles * rows);
  physSizes[j] = x.cst(1);
  // (Parallel chunks of level k: whole tiles, now `rows` p_k rows each.)
  if (plan.parallelLevel == static_cast<int>(k))
    plan.parallelChunk *= rows;
  // The kernel reads destination row strides by level (p_k's, the row's
  // outer neighbour's): both get the stride that divides the two the
  // merged rows step by (within a tile, across tiles), so that alignment
  // and line facts hold for every row.
  if (!destStrides.empty()) {
    int64_t stride = std::gcd(destStrides[dimK], destStrides[dimIn]);
    destStrides[k] = destStrides[j] = stride;
  }
  // Blocks of whole tiles (a tile tall, or several tiles), or a fraction
  // of a tile tall: those stay inside a tile, p_k still across the tiles
  // (AVX2's 16 x 16 8-bit blocks in T(32,128) tiles). Not blocks shorter
  // than a tile and than kMinFractionBlockSide elements, such as the 4 x 4
  // blocks of a last tile column of 4: those keep the level loops. (The
  // side and the tile's rows are powers of two: one divides the other.)
  TransposeBlockKernel kernel(*this, k, rows, j);
  if (!kernel.plan(active) ||
      (kernel.getSide() < rows && kernel.getSide() < kMinFractionBlockSide)) {
    LDBG() << "no transpose blocks across tile rows at level " << k;
    return false;
  }
  emitPlannedBlocks(kernel);
  return true;
}
