//===- InterleavedStoreBlocks.cpp - Blocked transposes into sub-tiles -----===//
//
// A `(q,1)` sub-tiled destination (u8 `{1,0:T(32,128)(4,1)}`, bf16
// `{1,0:T(8,128)(2,1)}`) written from a source that crosses it along the
// sub-tile's rows (`{0,1}`): the nest walks the destination's physical
// levels ... run row, column, u, 1, along none of which both sides are
// contiguous, so no blocked transpose plans over them, and at odd extents
// no 32-bit groups exist (a source column of 4093 bytes starts anywhere in
// a group: ElementGroups.h). Without the sub-tile the pair is the plain
// crossing into `T(32,128)`, a blocked transpose across tile rows
// (TileRowBlocks.cpp); the sub-tile only moves where its rows go: rows
// q t .. q t + q - 1 of a column sit in q consecutive slots, so the q
// block rows of one run, interleaved (lane q t + u from row u), are one
// contiguous vector of the destination. The nest is rewritten to the
// tiles' rows and columns (row = q x run row + u; the run row and column
// levels keep one slot, the column moves to the last level), the kernel
// plans and builds over it with interleavedStores = q (its stores below,
// its padding slots in TransposeBlocks.cpp's padSlots), and the nest is
// restored. One pass
// instead of the staged pair (StagedRelayout.h: a blocked transpose into
// the plain tiles, then interleaved rows): docs/lowering.md,
// "Interleaved stores".
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"
#include "TransposeBlocks.h"

#include "layout/Xla/StagingLayout.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

bool NestEmitter::emitInterleavedStoreBlocks(
    unsigned k, const llvm::SmallBitVector &active) {
  unsigned n = placeholders.size();
  // Levels k, any middle ones (the tile columns), then run row, column, u
  // and the sub-tile's one slot, each the destination dim of its level.
  // (Checks that are not linear are not rewritten: none.)
  if (!lanes || interleavedStores || k + 5 > n || destIndex.size() != n ||
      destStrides.size() != n || !nonLinearChecks.empty())
    return false;
  for (unsigned d = n - 4; d < n; ++d)
    if (destIndex[d] != placeholders[d])
      return false;
  std::optional<int64_t> one = IndexExprs::getConstant(physSizes[n - 1]);
  std::optional<int64_t> q = IndexExprs::getConstant(physSizes[n - 2]);
  std::optional<int64_t> columns = IndexExprs::getConstant(physSizes[n - 3]);
  std::optional<int64_t> runs = IndexExprs::getConstant(physSizes[n - 4]);
  if (one != 1 || !q || !columns || !runs || *q < 2 || *q > 8 ||
      !llvm::isPowerOf2_64(*q) || *columns < 4 * *q || *runs < 1)
    return false;
  AffineExpr pRun = placeholders[n - 4], pColumn = placeholders[n - 3],
             pU = placeholders[n - 2], pOne = placeholders[n - 1];
  // The sub-tile's one slot is 0; then the row in the tile takes level
  // n - 2 (q run + u, read through u with the run row at 0) and the column
  // level n - 1. Exact when every expression reads the run row and u only
  // through q run + u: the way back gives the original expression.
  DenseMap<AffineExpr, AffineExpr> dropOne{{pOne, x.cst(0)}};
  DenseMap<AffineExpr, AffineExpr> forward{{pRun, x.cst(0)}, {pColumn, pOne}};
  DenseMap<AffineExpr, AffineExpr> back{{pU, pRun * *q + pU}, {pOne, pColumn}};
  auto rewrite = [&](AffineExpr ex) -> std::optional<AffineExpr> {
    AffineExpr original = x.simplify(ex.replace(dropOne));
    AffineExpr rewritten = x.simplify(original.replace(forward));
    if (IndexExprs::getConstant(
            x.simplify(original - rewritten.replace(back))) != 0)
      return std::nullopt;
    return rewritten;
  };
  Snapshot restore(*this);
  for (Source &s : sources)
    for (AffineExpr &ex : s.index) {
      std::optional<AffineExpr> rewritten = rewrite(ex);
      if (!rewritten)
        return false;
      ex = *rewritten;
    }
  for (AffineExpr &ex : logical) {
    std::optional<AffineExpr> rewritten = rewrite(ex);
    if (!rewritten)
      return false;
    ex = *rewritten;
  }
  for (int c : active.set_bits()) {
    Check &check = checks[c];
    std::optional<AffineExpr> rewritten = rewrite(check.value);
    if (!rewritten)
      return false;
    std::optional<LinearForm> form = getLinearForm(*rewritten, placeholders);
    if (!form)
      return false;
    check.value = *rewritten;
    check.form = std::move(*form);
  }
  destIndex[n - 4] = pU.floorDiv(*q);
  destIndex[n - 3] = pOne;
  destIndex[n - 2] = pU % *q;
  destIndex[n - 1] = x.cst(0);
  physSizes[n - 4] = x.cst(1);
  physSizes[n - 3] = x.cst(1);
  physSizes[n - 2] = x.cst(*q * *runs);
  physSizes[n - 1] = x.cst(*columns);
  // The kernel reads strides by level: those of the tiles without the
  // sub-tile (rows of `columns` elements), which are where the runs start
  // as well (q rows of `columns` elements each).
  destStrides[n - 4] = destStrides[n - 3] = *q * *runs * *columns;
  destStrides[n - 2] = *columns;
  destStrides[n - 1] = 1;
  interleavedStores = *q;
  bool built = emitTileRowBlocks(k, active);
  interleavedStores = 0;
  if (!built)
    LDBG() << "no interleaved stores at level " << k;
  return built;
}

int64_t TransposeBlockKernel::runPiece() const {
  // (LLVM splits a streaming store wider than the target's registers into
  // element stores; masked edges mean AVX-512's 64 bytes, the others at
  // most AVX2's 32.)
  int64_t registerBytes = e.options.maskedEdges
                              ? e.options.vectorBytes
                              : std::min<int64_t>(e.options.vectorBytes, 32);
  return std::min(storeRuns * width,
                  std::max(registerBytes / e.elementBytes, v));
}

int64_t TransposeBlockKernel::getStoreAlignment() const {
  return storeRuns ? std::max(storeBytes, runPiece() * e.elementBytes)
                   : storeBytes;
}

bool TransposeBlockKernel::rowsStartAligned() const {
  // (A run of q rows starts every q rows of the tiles without the
  // sub-tile.)
  int64_t rows = storeRuns ? storeRuns : 1;
  return (rows * e.destStrides[rowOuter] * e.elementBytes) %
             getStoreAlignment() ==
         0;
}

SmallVector<Value> TransposeBlockKernel::runIndices(int64_t j,
                                                    AffineExpr column,
                                                    AffineExpr offset) {
  // destView collapses the destination's column, u and one-slot dims:
  // column q c + u.
  unsigned n = e.destIndex.size();
  DenseMap<AffineExpr, AffineExpr> at{{pk, pk + j}, {pr, column}};
  SmallVector<Value> indices;
  for (unsigned d = 0; d + 3 < n; ++d)
    indices.push_back(x.materialize(e.destIndex[d].replace(at)));
  indices.push_back(x.materialize(e.destIndex[n - 3].replace(at) * storeRuns +
                                  e.destIndex[n - 2].replace(at) +
                                  e.destIndex[n - 1].replace(at) + offset));
  return indices;
}

void TransposeBlockKernel::storeInterleavedRows(
    ArrayRef<SmallVector<SmallVector<Value>>> parts, bool alignedStores) {
  int64_t q = storeRuns;
  // The `wide` parts' runs are adjacent (q V slots each) and are stored
  // together, whole 64-byte lines where a part's run is half a line (u8
  // (2,1): 32 bytes; stored alone, those half-line streaming stores of
  // u8[4093,4099] {0,1} -> {1,0:T(8,128)(2,1)} ran 0.76x the staged pair,
  // joined 1.80-1.91x: Emerald Rapids, AVX-512 code, docs/performance.md,
  // "Interleaved stores").
  int64_t piece = runPiece(), run = q * v;
  Value padding;
  for (int64_t j0 = writtenRows; j0 < v; j0 += q) {
    SmallVector<Value> runs;
    for (int64_t w = 0; w < wide; ++w) {
      SmallVector<Value> rows;
      for (int64_t j = j0; j < j0 + q; ++j) {
        if (j >= v) {
          // (Past the edge block: rows past sizeK, padding slots of the
          // run's tile.)
          if (!padding)
            padding = vector::BroadcastOp::create(
                b, loc, VectorType::get({v}, elementType), e.getPadValue());
          rows.push_back(padding);
          continue;
        }
        SmallVector<Value> loaded;
        for (const auto &source : parts)
          loaded.push_back(source[w][j]);
        rows.push_back(e.fromMoveType(e.fn(b, loc, loaded), elementType));
      }
      runs.push_back(interleaveVectors(b, loc, rows));
    }
    // Each piece: consecutive runs concatenated, or a part of one run
    // (shuffles, not vector.extract_strided_slice, which has no lowering
    // for unsigned element types). Both are powers of two.
    for (int64_t at = 0; at < q * width; at += piece) {
      Value value;
      if (piece >= run) {
        ArrayRef<Value> joined = ArrayRef(runs).slice(at / run, piece / run);
        value = joined.size() == 1 ? joined.front()
                                   : concatenateVectors(b, loc, joined);
      } else {
        Value whole = runs[at / run];
        int64_t from = at % run;
        value = vector::ShuffleOp::create(
            b, loc, whole, whole,
            llvm::to_vector(llvm::seq<int64_t>(from, from + piece)));
      }
      storeVector(value, runIndices(j0, pr, x.cst(at)), piece * e.elementBytes,
                  alignedStores);
    }
  }
}
