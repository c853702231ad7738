//===- VectorRows.cpp - The innermost rows of the nest --------------------===//
//
// One row of the destination's innermost physical dim: sources read in runs
// where their index needs division, vector rows (aligned body, masked or
// overlapping edges, non-temporal stores), rows staged in a cache-resident
// buffer when the destination's rows are not vector-aligned, and the
// interleaved rows of (2,1)-style inner tiles.
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"

#include "layout/Xla/TiledLayoutWalk.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/DebugLog.h"

#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

std::optional<int64_t> NestEmitter::rowStep(AffineExpr e) {
  AffineExpr p = placeholders.back();
  return IndexExprs::getConstant(x.simplify(e.replace(p, p + 1) - e));
}

std::optional<bool> NestEmitter::classifyRowSource(MemRefType viewType,
                                                   ArrayRef<AffineExpr> index) {
  SmallVector<int64_t> steps;
  for (AffineExpr e : index) {
    std::optional<int64_t> st = rowStep(e);
    if (!st)
      return std::nullopt;
    steps.push_back(*st);
  }
  bool constant = llvm::all_of(steps, [](int64_t v) { return v == 0; });
  bool unit = !steps.empty() && steps.back() == 1 &&
              llvm::all_of(ArrayRef(steps).drop_back(),
                           [](int64_t v) { return v == 0; }) &&
              viewType.getLayout().isIdentity();
  if (!constant && !unit)
    return std::nullopt;
  return !constant;
}

NestEmitter::RowRuns NestEmitter::analyzeRowRuns() {
  RowRuns r;
  r.runs.resize(sources.size());
  // The destination's logical dim that p moves (by one).
  for (auto [d, e] : llvm::enumerate(logical)) {
    std::optional<int64_t> s = rowStep(e);
    if (!s) {
      r.movingDim = -2;
      break;
    }
    if (*s == 1 && r.movingDim == -1)
      r.movingDim = d;
    else if (*s != 0)
      r.movingDim = -2;
  }
  if (r.movingDim < 0)
    return r;
  // Sources whose index is not affine in p are read in runs.
  for (auto [i, s] : llvm::enumerate(sources)) {
    bool needsRuns = llvm::any_of(
        s.index, [&](AffineExpr e) { return !rowStep(e).has_value(); });
    if (!needsRuns || !s.map)
      continue;
    auto it = llvm::find(s.dimMap, r.movingDim);
    if (it == s.dimMap.end())
      continue;
    std::optional<AffineRun> run = getAffineRun(*s.map, it - s.dimMap.begin());
    if (!run || run->length <= 1)
      continue;
    r.runs[i] = run;
    r.runLength = std::gcd(r.runLength, run->length);
  }
  return r;
}

std::function<AffineExpr()> NestEmitter::hoistAlongRow(AffineExpr e) {
  // The p = 0 value of an affine index expression is hoisted; the others
  // stay inline (per-element division: the fallback).
  AffineExpr p = placeholders.back();
  if (std::optional<int64_t> s = rowStep(e)) {
    AffineExpr base = x.hoist(e.replace(p, x.cst(0)));
    int64_t st = *s;
    return [=] { return base + p * st; };
  }
  return [=] { return e; };
}

void NestEmitter::emitRowBody(ArrayRef<AffineExpr> lbs,
                              ArrayRef<AffineExpr> ubs,
                              ArrayRef<IndexFns> sourceIndex) {
  if (lanes) {
    SmallVector<Value> views;
    for (const Source &s : sources)
      views.push_back(s.view);
    if (emitVectorRow(lbs, ubs, views, sourceIndex, fn,
                      stagingTarget ? *stagingTarget : getDestTarget()))
      return;
    assert(!stagingTarget && "staged rows are vectorizable");
  }
  AffineExpr p = placeholders.back();
  x.forLoop(lbs, ubs, [&](Value iv) {
    x.bind(p, iv);
    SmallVector<AffineExpr> dst(destIndex);
    SmallVector<SmallVector<AffineExpr>> srcs;
    for (const auto &index : sourceIndex) {
      srcs.emplace_back();
      for (const auto &f : index)
        srcs.back().push_back(f());
    }
    emitElement(dst, srcs);
  });
}

bool NestEmitter::isSingleRun(const RowRuns &r) {
  // A row that provably lies inside one run (its length divides the run
  // length and its start is a multiple of it, e.g. T(8,128) -> T(16,64))
  // needs no segment loop: one segment, computed once per row.
  AffineExpr p = placeholders.back();
  std::optional<int64_t> rowLength = IndexExprs::getConstant(physSizes.back());
  if (!rowLength || r.runLength % *rowLength != 0)
    return false;
  std::optional<LinearForm> form = getLinearForm(
      x.simplify(logical[r.movingDim].replace(p, x.cst(0))), placeholders);
  return form && form->constant % *rowLength == 0 &&
         llvm::all_of(form->coeffs,
                      [&](int64_t c) { return c % *rowLength == 0; });
}

std::optional<AffineExpr> NestEmitter::prepareStagedRow(const RowRuns &r) {
  // Segments of a destination row that is not vector-aligned (its row
  // stride is not a multiple of the vector) would each need a masked head
  // and tail: they go to an aligned staging row in the cache instead
  // (aligned segments), which is then copied with aligned (non-temporal)
  // vector stores: one masked head and tail per row.
  unsigned n = placeholders.size();
  if (plan.walksSource() || plan.reordersDest())
    return std::nullopt;
  std::optional<int64_t> destRowLength =
      IndexExprs::getConstant(physSizes[n - 1]);
  if (!lanes || n < 2 || !destRowLength || *destRowLength < lanes ||
      (destStrides[n - 2] * elementBytes) % options.vectorBytes == 0 ||
      (destStrides[n - 2] + lanes) * elementBytes > (64 << 10))
    return std::nullopt;
  for (auto [i, s] : llvm::enumerate(sources)) {
    auto viewType = cast<MemRefType>(s.view.getType());
    if (r.runs[i]) {
      // A run is read as a contiguous vector of its source.
      if (!viewType.getLayout().isIdentity() || r.runs[i]->stride != 1 ||
          r.runs[i]->physicalDim != static_cast<int64_t>(s.index.size()) - 1)
        return std::nullopt;
      continue;
    }
    if (!classifyRowSource(viewType, s.index))
      return std::nullopt;
  }
  report.add(NestKernel::StagedRows);
  AffineExpr p = placeholders.back();
  Value stage = getStagingRow(destStrides[n - 2] + lanes);
  AffineExpr stagePointer = x.value(
      memref::ExtractAlignedPointerAsIndexOp::create(x.b, x.loc, stage));
  // Segments start at multiples of the run length in the staging row
  // (aligned stores); the copy reads it unaligned.
  AffineExpr shift = x.cst(0);
  stagingTarget = RowTarget{stage, stagePointer + shift * elementBytes,
                            [=] { return SmallVector<AffineExpr>{shift + p}; },
                            /*nontemporal=*/false, /*unpeeled=*/true};
  return shift;
}

AffineExpr NestEmitter::alignDownInRow(AffineExpr q) {
  // The last position <= q whose destination address is vector-aligned.
  RowTarget dest = getDestTarget();
  return q -
         ((dest.rowAddress + q * elementBytes) % peelBytes(dest.nontemporal))
             .floorDiv(elementBytes);
}

void NestEmitter::emitRunSegment(const RowRuns &r, const RunSegment &seg,
                                 ArrayRef<AffineExpr> ubs, Value iv) {
  AffineExpr p = placeholders.back();
  x.bind(seg.sigma, iv);
  // p where the segment starts (may be before this row's range).
  AffineExpr start = x.hoist(seg.sigma * r.runLength - seg.base);
  SmallVector<IndexFns> sourceIndex;
  for (auto [i, s] : llvm::enumerate(sources)) {
    if (!r.runs[i]) {
      sourceIndex.push_back(seg.hoisted[i]);
      continue;
    }
    sourceIndex.emplace_back();
    for (auto [k, e] : llvm::enumerate(s.index)) {
      AffineExpr at = x.hoist(e.replace(p, start));
      int64_t st = static_cast<int64_t>(k) == r.runs[i]->physicalDim
                       ? r.runs[i]->stride
                       : 0;
      sourceIndex.back().push_back([=] { return at + (p - start) * st; });
    }
  }
  SmallVector<AffineExpr> innerUbs(ubs.begin(), ubs.end());
  if (seg.singleRun) {
    emitRowBody({x.cst(0)}, innerUbs, sourceIndex);
    return;
  }
  innerUbs.push_back(start + r.runLength);
  emitRowBody({x.cst(0), start}, innerUbs, sourceIndex);
  if (!seg.stageShift)
    return;
  // Copy the aligned destination vectors this segment completed (reads and
  // streaming writes interleave): [A(s0), A(s1)) with A the aligned-down
  // position, s0/s1 the segment's bounds.
  SmallVector<AffineExpr> copyUbs;
  for (AffineExpr u : innerUbs)
    copyUbs.push_back(alignDownInRow(u));
  emitStagedCopy({alignDownInRow(x.cst(0)), alignDownInRow(start), x.cst(0)},
                 copyUbs, *seg.stageShift);
}

void NestEmitter::emitRowInRuns(ArrayRef<AffineExpr> ubs, const RowRuns &r) {
  // Runs of `runLength` along the moving logical dim e = base + p:
  // segment sigma covers e in [sigma * P, (sigma + 1) * P).
  AffineExpr p = placeholders.back();
  RunSegment seg;
  seg.base = x.hoist(logical[r.movingDim].replace(p, x.cst(0)));
  for (auto [i, s] : llvm::enumerate(sources)) {
    seg.hoisted.emplace_back();
    if (!r.runs[i])
      for (AffineExpr e : s.index)
        seg.hoisted.back().push_back(hoistAlongRow(e));
  }
  seg.singleRun = isSingleRun(r);
  if (!seg.singleRun)
    seg.stageShift = prepareStagedRow(r);
  seg.sigma = x.placeholder();
  if (seg.singleRun) {
    emitRunSegment(r, seg, ubs, x.materialize(seg.base.floorDiv(r.runLength)));
  } else {
    SmallVector<AffineExpr> segUbs;
    for (AffineExpr ub : ubs)
      segUbs.push_back((seg.base + ub - 1).floorDiv(r.runLength) + 1);
    x.forLoop({seg.base.floorDiv(r.runLength)}, segUbs,
              [&](Value iv) { emitRunSegment(r, seg, ubs, iv); });
  }
  if (seg.stageShift) {
    // The rest of the row after the last aligned position.
    stagingTarget.reset();
    AffineExpr end = x.value(x.materializeMinMax(ubs, /*isMax=*/false));
    emitStagedCopy({alignDownInRow(end), x.cst(0)}, {end}, *seg.stageShift);
  }
}

void NestEmitter::emitRowPadding(ArrayRef<AffineExpr> ubs) {
  // Padding after the valid prefix of the row: ubs[0] is the row's end,
  // ubs[1..] the bounds of its valid elements. Walking the source: none
  // (source padding is skipped).
  if (plan.walksSource())
    return;
  AffineExpr p = placeholders.back();
  for (unsigned i = 1; i < ubs.size(); ++i) {
    SmallVector<AffineExpr> lbs{ubs[i]}, padUbs{ubs[0]};
    for (unsigned j = 1; j < i; ++j)
      padUbs.push_back(ubs[j]);
    x.forLoop(lbs, padUbs, [&](Value iv) {
      x.bind(p, iv);
      x.store(getPadValue(), destView, destIndex);
    });
  }
}

void NestEmitter::emitRow(ArrayRef<AffineExpr> ubs) {
  RowRuns r = analyzeRowRuns();
  if (r.runLength <= 1) {
    SmallVector<IndexFns> sourceIndex;
    for (const Source &s : sources) {
      sourceIndex.emplace_back();
      for (AffineExpr e : s.index)
        sourceIndex.back().push_back(hoistAlongRow(e));
    }
    emitRowBody({}, ubs, sourceIndex);
  } else {
    report.add(NestKernel::RowsInRuns);
    emitRowInRuns(ubs, r);
  }
  emitRowPadding(ubs);
}

/// The destination as a vector row's target (VectorRowKernel.cpp).
NestEmitter::RowTarget NestEmitter::getDestTarget() {
  // The destination index at p = 0 (rows are contiguous in its last dim).
  AffineExpr p = placeholders.back();
  AffineExpr row = destPointer;
  for (auto [e, stride] : llvm::zip(destIndex, destStrides))
    row = row + e.replace(p, x.cst(0)) * (stride * elementBytes);
  return {destView, row, [this] { return destIndex; }, nontemporal};
}

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

bool NestEmitter::emitInterleavedRow(unsigned k,
                                     const llvm::SmallBitVector &active) {
  std::optional<InterleavedRows> rows = planInterleavedRow(k, active);
  if (!rows)
    return false;
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
    return true;
  }
  x.kind = savedKind;
  unsigned saved = interleaveFallbackLevel;
  interleaveFallbackLevel = k;
  emitLevel(k, active);
  interleaveFallbackLevel = saved;
  return true;
}

/// Per source of a row: true if it is read contiguously along the row
/// (vector loads), false if constant along it (a broadcast); nullopt if
/// neither.
std::optional<SmallVector<bool>>
NestEmitter::classifyRowSources(ArrayRef<Value> views,
                                ArrayRef<IndexFns> sourceIndex) {
  SmallVector<bool> contiguous;
  for (auto [view, index] : llvm::zip(views, sourceIndex)) {
    SmallVector<AffineExpr> exprs;
    for (const auto &f : index)
      exprs.push_back(f());
    std::optional<bool> kind =
        classifyRowSource(cast<MemRefType>(view.getType()), exprs);
    if (!kind)
      return std::nullopt;
    contiguous.push_back(*kind);
  }
  return contiguous;
}

VectorType NestEmitter::getMoveType(VectorType type) {
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  if (!copiesElements || !floatType)
    return type;
  return type.clone(IntegerType::get(x.context, floatType.getWidth()));
}

Value NestEmitter::toMoveType(Value vector) {
  auto type = cast<VectorType>(vector.getType());
  VectorType moveType = getMoveType(type);
  if (moveType == type)
    return vector;
  return vector::BitCastOp::create(x.b, x.loc, moveType, vector);
}

Value NestEmitter::fromMoveType(Value vector, Type elementType) {
  auto type = cast<VectorType>(vector.getType());
  if (type.getElementType() == elementType)
    return vector;
  return vector::BitCastOp::create(x.b, x.loc, type.clone(elementType), vector);
}
