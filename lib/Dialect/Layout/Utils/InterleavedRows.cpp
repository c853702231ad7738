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

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

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
std::optional<NestEmitter::InterleavedRows>
NestEmitter::planInterleavedRow(unsigned k,
                                const llvm::SmallBitVector &active) {
  unsigned n = placeholders.size();
  int64_t m = 1;
  for (unsigned i = k + 1; i < n; ++i) {
    std::optional<int64_t> c = IndexExprs::getConstant(physSizes[i]);
    if (!c)
      return std::nullopt;
    m *= *c;
  }
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes[k]);
  if (!rowLength || !getInterleavedPart(m, lanes, *rowLength)) {
    LDBG() << "no interleaved rows at level " << k << ": " << m
           << " inner slots per element do not interleave into vectors of "
           << lanes << " lanes";
    return std::nullopt;
  }
  for (int j : active.set_bits())
    for (unsigned i = k; i < n; ++i)
      if (checks[j].form.coeffs[i])
        return std::nullopt;
  // Per source: the index with the inner dims fixed, for every inner
  // combination, contiguous (or constant) along dim k.
  AffineExpr pk = placeholders[k];
  InterleavedRows rows;
  rows.m = m;
  for (const Source &s : sources) {
    bool isContiguous = false, isConstant = true;
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
      SmallVector<int64_t> steps;
      for (AffineExpr e : s.index) {
        for (unsigned i = k + 1; i < n; ++i)
          e = e.replace(placeholders[i], x.cst(inner[i]));
        e = x.simplify(e);
        std::optional<int64_t> st =
            IndexExprs::getConstant(x.simplify(e.replace(pk, pk + 1) - e));
        if (!st)
          return std::nullopt;
        steps.push_back(*st);
        index.push_back(e);
      }
      bool constant = llvm::all_of(steps, [](int64_t v) { return v == 0; });
      bool unit = !steps.empty() && steps.back() == 1 &&
                  llvm::all_of(ArrayRef(steps).drop_back(),
                               [](int64_t v) { return v == 0; }) &&
                  cast<MemRefType>(s.view.getType()).getLayout().isIdentity();
      if (!constant && !unit)
        return std::nullopt;
      isContiguous |= unit;
      isConstant &= constant;
      rows.reads.back().push_back(index);
    }
    if (isContiguous && isConstant)
      return std::nullopt;
    rows.contiguous.push_back(isContiguous);
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
  scf::IfOp ifOp = x.createIfAligned(row, options.vectorBytes);
  // The row's vector loop; a misaligned row (alignedRow = false) stores
  // unaligned, cached vectors.
  auto emitRowLoop = [&](bool alignedRow) {
    int64_t part = lanes / m;
    x.forLoop(
        {}, {physSizes[k]},
        [&](Value iv) {
          x.bind(pk, iv);
          SmallVector<Value> loaded;
          for (auto [s, sourceReads, isVector] :
               llvm::zip(sources, reads, contiguous)) {
            Type elementType =
                cast<MemRefType>(s.view.getType()).getElementType();
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
            // interleave(even, odd) recursively: lane j of part i lands at
            // j * m + i.
            std::function<Value(ArrayRef<Value>)> weave =
                [&](ArrayRef<Value> vs) -> Value {
              if (vs.size() == 1)
                return vs[0];
              SmallVector<Value> even, odd;
              for (auto [i, v] : llvm::enumerate(vs))
                (i % 2 ? odd : even).push_back(v);
              return vector::InterleaveOp::create(b, loc, weave(even),
                                                  weave(odd));
            };
            loaded.push_back(weave(parts));
          }
          Value result = fromMoveType(
              fn(b, loc, loaded),
              cast<MemRefType>(destView.getType()).getElementType());
          SmallVector<Value> indices;
          for (unsigned i = 0; i < n; ++i)
            indices.push_back(
                i <= k ? x.materialize(placeholders[i])
                       : arith::ConstantIndexOp::create(b, loc, 0).getResult());
          auto store =
              vector::StoreOp::create(b, loc, result, destView, indices);
          if (!alignedRow)
            return;
          store.setAlignment(static_cast<uint64_t>(options.vectorBytes));
          if (nontemporal) {
            store.setNontemporal(true);
            usedNontemporal = true;
          }
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
