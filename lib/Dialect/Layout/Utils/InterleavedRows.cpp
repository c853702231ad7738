//===- InterleavedRows.cpp - Rows of (2,1)-style inner tiles --------------===//
//
// The kernel `interleaved-rows` (NestKernel.h): destination rows whose
// innermost physical dims are short repeated tiles, such as bf16
// T(8,128)(2,1), built as whole vectors from m interleaved source vectors
// instead of element by element. planInterleavedRow decides, without IR,
// whether the dims k.. take it; emitInterleavedRow builds it and returns
// the plain loops of level k as its fallback for misaligned rows.
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"
#include "TransposeBlocks.h"

#include "layout/Dialect/Layout/Utils/ChunkCopy.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/DebugLog.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

/// Rows whose innermost physical dims are short (repeated tiles such as
/// bf16 T(8,128)(2,1): physical [..., 128, 2, 1]): the dims after k have a
/// static product m (a power of two) and the block of dims k.. is
/// contiguous in the destination. Each source is read as m vectors of
/// lanes/m elements (one per inner index, contiguous along dim k) which
/// are interleaved into one destination vector. Rows whose address is not
/// vector-aligned at run time take the scalar nest (maskedEdges = false:
/// the same vectors, stored unaligned).
/// The flat index, at the inner dims' 0, of a source read in the
/// destination's order across the dims k.. (the slot of (p_k + t, inner)
/// is that of (p_k, 0) plus t * m plus the inner dims' destination
/// offset, inside aligned blocks of `part` along p_k), or null. Each
/// dim's AlignedForm holds for any value of the others, so the steps
/// compose.
AffineExpr NestEmitter::getSameOrderIndex(unsigned k, const Source &s,
                                          int64_t part) {
  auto type = cast<MemRefType>(s.view.getType());
  if (!type.getLayout().isIdentity() || !type.hasStaticShape())
    return AffineExpr();
  std::optional<SmallVector<int64_t>> strides =
      getCheckedStrides(type.getShape());
  if (!strides)
    return AffineExpr(); // more slots than int64 counts
  AffineExpr flat = linearize(x.b.getContext(), s.index, *strides);
  unsigned n = placeholders.size();
  // Dims of one slot are 0 (not any integer, as getAlignedForm assumes of
  // the other dims: a (2,1) sub-tile's column dim).
  for (unsigned i = k + 1; i < n; ++i)
    if (IndexExprs::getConstant(physSizes[i]) == 1)
      flat = flat.replace(placeholders[i], x.cst(0));
  int64_t expected = 1;
  for (unsigned i = n - 1; i > k; --i) {
    int64_t size = *IndexExprs::getConstant(physSizes[i]);
    std::optional<AlignedForm> form =
        getAlignedForm(flat, placeholders[i], size);
    if (size > 1 && (!form || form->step != expected))
      return AffineExpr();
    expected *= size;
  }
  std::optional<AlignedForm> form = getAlignedForm(flat, placeholders[k], part);
  if (!form || form->step != expected)
    return AffineExpr();
  for (unsigned i = k + 1; i < n; ++i)
    flat = flat.replace(placeholders[i], x.cst(0));
  return x.simplify(flat);
}

std::optional<NestEmitter::InterleavedRows>
NestEmitter::planInterleavedRow(unsigned k,
                                const llvm::SmallBitVector &active) {
  unsigned n = placeholders.size();
  // (The rows store through the levels themselves: a nest whose
  // destination index is not its levels, e.g. shifted by a peeled slot
  // (TileRowBlocks.cpp), takes the plain loops.)
  if (ArrayRef<AffineExpr>(destIndex) != ArrayRef<AffineExpr>(placeholders))
    return std::nullopt;
  int64_t m = 1;
  for (unsigned i = k + 1; i < n; ++i) {
    std::optional<int64_t> c = IndexExprs::getConstant(physSizes[i]);
    if (!c)
      return std::nullopt;
    m *= *c;
  }
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes[k]);
  std::optional<int64_t> part =
      rowLength ? getInterleavedPart(m, lanes, *rowLength) : std::nullopt;
  if (!part) {
    LDBG() << "no interleaved rows at level " << k << ": " << m
           << " inner slots per element do not interleave into vectors of "
           << lanes << " lanes";
    return std::nullopt;
  }
  // Padding checks: none along the inner dims (but those of one slot,
  // always 0: a (2,1) sub-tile's column dim); along dim k only a static
  // bound on p_k at a multiple of the vectors' step (the rows of a tile
  // that is partly outside the array: elements, then whole padding
  // vectors), outer dims of one value taken as 0.
  std::optional<int64_t> validRows;
  for (int j : active.set_bits()) {
    const Check &c = checks[j];
    if (c.form.coeffs[k] == 0 &&
        llvm::all_of(llvm::seq<unsigned>(k + 1, n), [&](unsigned i) {
          return c.form.coeffs[i] == 0 ||
                 IndexExprs::getConstant(physSizes[i]) == 1;
        }))
      continue;
    if (plan.walksSource())
      return std::nullopt;
    std::optional<int64_t> valid = getValidSlots(c, k, k);
    if (!valid || *valid % *part != 0 ||
        (*rowLength - std::min(*valid, *rowLength)) % *part != 0)
      return std::nullopt;
    if (*valid < *rowLength)
      validRows = std::min(validRows.value_or(*valid), *valid);
  }
  // Per source: the index with the inner dims fixed, for every inner
  // combination, contiguous (or constant) along dim k.
  AffineExpr pk = placeholders[k];
  InterleavedRows rows;
  rows.m = m;
  rows.validRows = validRows;
  for (const Source &s : sources) {
    bool isContiguous = true, isConstant = true, isAffine = true;
    rows.reads.emplace_back();
    for (int64_t j = 0; j < m; ++j) {
      SmallVector<AffineExpr> index;
      int64_t rest = j;
      SmallVector<int64_t> inner(n, 0);
      for (unsigned i = n - 1; i > k; --i) {
        int64_t size = *IndexExprs::getConstant(physSizes[i]);
        inner[i] = rest % size;
        rest /= size;
      }
      for (AffineExpr e : s.index) {
        for (unsigned i = k + 1; i < n; ++i)
          e = e.replace(placeholders[i], x.cst(inner[i]));
        index.push_back(x.simplify(e));
      }
      // The row loop steps p_k by `part` from 0: the reads need only move
      // with constant steps inside those aligned blocks (a tiled source's
      // index, affine between its tile boundaries: getAlignedSteps).
      std::optional<SmallVector<int64_t>> steps = getSteps(x, index, pk);
      if (!steps)
        steps = getAlignedSteps(index, pk, *part);
      isAffine &= steps.has_value();
      isConstant &=
          steps && llvm::all_of(*steps, [](int64_t v) { return v == 0; });
      isContiguous &=
          steps && isUnitInLastDim(*steps) &&
          cast<MemRefType>(s.view.getType()).getLayout().isIdentity();
      rows.reads.back().push_back(index);
    }
    rows.contiguous.push_back(isContiguous && !isConstant);
    rows.sameOrder.push_back(AffineExpr());
    if (isAffine && (isContiguous || isConstant))
      continue;
    // Neither: a source whose slots of the block k.. lie in the
    // destination's order (the same sub-tiles: a copy of whole vectors).
    rows.sameOrder.back() = getSameOrderIndex(k, s, *part);
    if (!rows.sameOrder.back()) {
      LDBG() << "no interleaved rows at level " << k
             << ": a source is neither contiguous, constant nor in the "
                "destination's order along the row";
      return std::nullopt;
    }
  }
  return rows;
}

KernelOutcome
NestEmitter::emitInterleavedRow(unsigned k,
                                const llvm::SmallBitVector &active) {
  std::optional<InterleavedRows> rows = planInterleavedRow(k, active);
  if (!rows)
    return KernelOutcome::notTaken();
  unsigned n = placeholders.size();
  int64_t m = rows->m;
  AffineExpr pk = placeholders[k];
  const auto &reads = rows->reads;
  const auto &contiguous = rows->contiguous;
  report.add(NestKernel::InterleavedRows);
  OpBuilder &b = x.b;
  Location loc = x.loc;
  LoopKind savedKind = x.kind;
  x.kind = LoopKind::SCF;
  AffineExpr row = destPointer;
  for (unsigned i = 0; i < k; ++i)
    row = row + placeholders[i] * (destStrides[i] * elementBytes);
  // The sources read in the destination's order, as flat views.
  SmallVector<Value> flatViews;
  for (auto [s, flat] : llvm::zip(sources, rows->sameOrder))
    flatViews.push_back(flat ? getFlatView(b, loc, s.view) : Value());
  scf::IfOp ifOp = x.createIfAligned(row, options.vectorBytes);
  // The row's vector loop; a misaligned row (alignedRow = false) stores
  // unaligned, cached vectors.
  auto emitRowLoop = [&](bool alignedRow) {
    int64_t part = lanes / m;
    auto destIndices = [&] {
      SmallVector<Value> indices;
      for (unsigned i = 0; i < n; ++i)
        indices.push_back(
            i <= k ? x.materialize(placeholders[i])
                   : arith::ConstantIndexOp::create(b, loc, 0).getResult());
      return indices;
    };
    auto setStoreKind = [&](vector::StoreOp store) {
      if (!alignedRow)
        return;
      store.setAlignment(static_cast<uint64_t>(options.vectorBytes));
      if (nontemporal) {
        store.setNontemporal(true);
        usedNontemporal = true;
      }
    };
    AffineExpr rowEnd =
        rows->validRows ? x.cst(*rows->validRows) : physSizes[k];
    x.forLoop(
        {}, {rowEnd},
        [&](Value iv) {
          x.bind(pk, iv);
          SmallVector<Value> loaded;
          for (auto [s, sourceReads, isVector, flat, flatView] : llvm::zip(
                   sources, reads, contiguous, rows->sameOrder, flatViews)) {
            Type elementType =
                cast<MemRefType>(s.view.getType()).getElementType();
            if (flat) {
              Value index = x.materialize(flat);
              loaded.push_back(toMoveType(vector::LoadOp::create(
                  b, loc, VectorType::get({lanes}, elementType), flatView,
                  ValueRange{index})));
              continue;
            }
            if (!isVector) {
              // Constant along dim k. One read for every inner slot: a
              // splat. Else (a source that varies along the inner dims
              // only, e.g. a vector broadcast along dim k) the m reads
              // repeat: lane r * m + j holds read j.
              auto vectorType = VectorType::get({lanes}, elementType);
              if (llvm::all_equal(sourceReads)) {
                Value scalar = x.load(s.view, sourceReads[0]);
                loaded.push_back(toMoveType(
                    vector::BroadcastOp::create(b, loc, vectorType, scalar)));
                continue;
              }
              SmallVector<Value> scalars;
              for (const SmallVector<AffineExpr> &index : sourceReads)
                scalars.push_back(x.load(s.view, index));
              Value pattern = vector::FromElementsOp::create(
                  b, loc, VectorType::get({m}, elementType), scalars);
              // (A 1-D shuffle: 2-D vectors have no LLVM lowering here.)
              SmallVector<int64_t> mask;
              for (int64_t lane = 0; lane < lanes; ++lane)
                mask.push_back(lane % m);
              loaded.push_back(toMoveType(
                  vector::ShuffleOp::create(b, loc, pattern, pattern, mask)));
              continue;
            }
            SmallVector<Value> parts;
            for (const SmallVector<AffineExpr> &index : sourceReads) {
              SmallVector<Value> indices;
              for (AffineExpr e : index)
                indices.push_back(x.materialize(e));
              parts.push_back(toMoveType(vector::LoadOp::create(
                  b, loc, VectorType::get({part}, elementType), s.view,
                  indices)));
            }
            // (Lane j of part i lands at j * m + i.)
            loaded.push_back(interleaveVectors(b, loc, parts));
          }
          Value result = fromMoveType(
              fn(b, loc, loaded),
              cast<MemRefType>(destView.getType()).getElementType());
          setStoreKind(
              vector::StoreOp::create(b, loc, result, destView, destIndices()));
        },
        part);
    if (!rows->validRows)
      return;
    // The padding rows of the tile: whole vectors of the padding value.
    Type destElement = cast<MemRefType>(destView.getType()).getElementType();
    Value padding = vector::BroadcastOp::create(
        b, loc, VectorType::get({lanes}, destElement), getPadValue());
    x.forLoop(
        {x.cst(*rows->validRows)}, {physSizes[k]},
        [&](Value iv) {
          x.bind(pk, iv);
          setStoreKind(vector::StoreOp::create(b, loc, padding, destView,
                                               destIndices()));
        },
        part);
  };
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    emitRowLoop(/*alignedRow=*/true);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  if (!options.maskedEdges) {
    // Without masked edges (targets where the scalar nest would move 16-bit
    // elements one by one): the same vectors, unaligned.
    emitRowLoop(/*alignedRow=*/false);
    x.kind = savedKind;
    return KernelOutcome::done();
  }
  x.kind = savedKind;
  // Misaligned rows take the level's plain loops, which the caller builds.
  return KernelOutcome::withFallback(b.saveInsertionPoint());
}
