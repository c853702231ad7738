//===- ParallelNest.cpp - The parallel outer loop of the nest -------------===//
//
// LoopEmitOptions::parallelThresholdBytes: one level of the destination's
// physical dims becomes a parallel loop (affine.parallel / scf.parallel;
// --layout-lower-to-llvm lowers it with upstream's convert-scf-to-openmp).
// The parallel iterations are chunks of `plan.parallelChunk` iterations of that
// level, starting at multiples of it, so that every chunk boundary is a
// multiple of 64 bytes from the destination's start: with a 64-byte aligned
// buffer, two threads never write the same cache line (no false sharing,
// and no partial lines of weakly ordered streaming stores from two cores).
// Where whole lines leave too few chunks and every iteration writes at
// least kMidLineChunkBytes, chunks are single iterations that may meet
// inside a line (getLevelGranule: the kernels store no byte outside their
// iteration's elements, so one shared line per boundary costs a false
// sharing, not an exact result); not for elements narrower than a byte.
// Each chunk ends with a fence when it used non-temporal stores, so every
// thread's streaming stores are ordered before the parallel region's
// barrier (OpenMP's barrier is not guaranteed to drain write-combining
// buffers on x86).
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

#include <numeric>

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

/// Bits of the scalar of `type` (a complex number's part, else `type`;
/// index as 64), or nullopt for other types.
static std::optional<int64_t> getScalarBits(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    type = complex.getElementType();
  if (type.isIndex())
    return 64;
  if (!type.isIntOrFloat())
    return std::nullopt;
  return type.getIntOrFloatBitWidth();
}

/// Bytes per element of a buffer of `type` as LLVM lays it out, when a
/// power of two (sub-byte scalars, i1, i4 or f4E2M1FN, take a byte; a
/// complex number two scalars); nullopt otherwise.
static std::optional<int64_t> getElementBytes(Type type) {
  std::optional<int64_t> bits = getScalarBits(type);
  if (!bits || (*bits > 8 && !llvm::isPowerOf2_64(*bits)))
    return std::nullopt;
  int64_t scalarBytes = *bits <= 8 ? 1 : *bits / 8;
  return isa<ComplexType>(type) ? 2 * scalarBytes : scalarBytes;
}

/// a * b for non-negative a, b; INT64_MAX when that overflows.
static int64_t multiplySaturating(int64_t a, int64_t b) {
  if (b != 0 && a > std::numeric_limits<int64_t>::max() / b)
    return std::numeric_limits<int64_t>::max();
  return a * b;
}

void NestEmitter::prepareParallel() {
  if (options.parallelThresholdBytes < 0)
    return;
  auto type = cast<MemRefType>(destView.getType());
  int64_t n = type.getRank();
  std::optional<int64_t> bytes = getElementBytes(type.getElementType());
  if (plan.walksRuns() && bytes && type.hasStaticShape()) {
    prepareParallelRunWalk(multiplySaturating(*bytes, type.getNumElements()));
    return;
  }
  if (n < 2 || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return;
  if (!bytes)
    return;
  // Bytes written by one iteration of each level (saturating: sizes near
  // the int64 range are simply large).
  SmallVector<int64_t> iterationBytes(n);
  iterationBytes[n - 1] = *bytes;
  for (int64_t k = n - 2; k >= 0; --k)
    iterationBytes[k] =
        multiplySaturating(iterationBytes[k + 1], type.getDimSize(k + 1));
  int64_t total = multiplySaturating(iterationBytes[0], type.getDimSize(0));
  if (total < options.parallelThresholdBytes)
    return;
  if (plan.walksSource() || plan.reordersDest()) {
    prepareParallelSourceWalk(iterationBytes);
    return;
  }
  // (bytes: the scalar's bits are known.)
  int64_t scalarBits = *getScalarBits(type.getElementType());
  int best = -1;
  int64_t bestChunks = 1, bestGranule = 1;
  bool bestMidLine = false;
  for (int64_t k = 0; k + 1 < n; ++k) {
    // The fewest iterations whose bytes are a multiple of a cache line, or
    // one iteration where those leave too few chunks and an iteration is
    // large and of whole-byte elements (getLevelGranule: packed sub-byte
    // elements share bytes, which their stores rewrite whole).
    int64_t lineGranule = getLineGranule(iterationBytes[k]);
    int64_t granule =
        getLevelGranule(type.getDimSize(k), iterationBytes[k], scalarBits);
    int64_t chunks = type.getDimSize(k) / granule;
    if (chunks > bestChunks) {
      best = k;
      bestChunks = chunks;
      bestGranule = granule;
      bestMidLine = granule != lineGranule;
    }
    if (chunks >= kMinParallelChunks)
      break;
  }
  if (best < 0)
    return;
  setParallelLevel(best, type.getDimSize(best), bestGranule);
  plan.midLineChunks = bestMidLine;
}

void NestEmitter::setParallelLevel(int level, int64_t size, int64_t granule) {
  plan.parallelLevel = level;
  plan.parallelChunk = getParallelChunk(size, granule);
}

void NestEmitter::prepareParallelSourceWalk(ArrayRef<int64_t> iterationBytes) {
  // The source's outermost index p0 must own whole destination rows: it
  // appears in one destination dim j (not the last), as c0 * p0 plus inner
  // indices in [0, c0), so each destination row is written under one value
  // of p0. Rows of whole cache lines then make any chunking line-safe;
  // other rows need the chunk's rows to be a contiguous block of whole
  // lines (j = 0). Outer levels of one slot do not count: a walk into
  // tiles of one tile column (bf16[65536,64] into T(8,128)) has the tile
  // rows second, and was serial.
  unsigned o = 0;
  while (o + 1 < placeholders.size() &&
         IndexExprs::getConstant(physSizes[o]) == 1)
    ++o;
  int64_t j = -1, c0 = 0;
  for (auto [d, e] : llvm::enumerate(destIndex)) {
    std::optional<LinearForm> form = getLinearForm(e, placeholders);
    if (!form)
      return;
    if (!form->coeffs[o])
      continue;
    if (j >= 0 || d + 1 == destIndex.size() || form->coeffs[o] < 0 ||
        form->constant != 0)
      return;
    j = d;
    c0 = form->coeffs[o];
    int64_t largest = 0;
    for (unsigned m = 0; m < placeholders.size(); ++m) {
      if (m == o)
        continue;
      std::optional<int64_t> size = IndexExprs::getConstant(physSizes[m]);
      if (!size || form->coeffs[m] < 0)
        return;
      largest += form->coeffs[m] * (*size - 1);
    }
    if (largest >= c0)
      return;
  }
  if (j < 0)
    return;
  int64_t granule = 1;
  if (iterationBytes[iterationBytes.size() - 2] % 64 != 0) {
    if (j != 0)
      return;
    int64_t blockBytes = multiplySaturating(c0, iterationBytes[0]);
    granule = getLineGranule(blockBytes);
  }
  std::optional<int64_t> size0 = IndexExprs::getConstant(physSizes[o]);
  if (!size0 || *size0 / granule < 2)
    return;
  setParallelLevel(o, *size0, granule);
}

void NestEmitter::emitLevelLoop(unsigned k, ArrayRef<AffineExpr> lbs,
                                ArrayRef<AffineExpr> ubs,
                                function_ref<void(Value)> body) {
  if (static_cast<int>(k) == plan.parallelLevel)
    emitParallelLoop(lbs, ubs, body);
  else
    x.forLoop(lbs, ubs, body);
}

void NestEmitter::emitParallelLoop(ArrayRef<AffineExpr> lbs,
                                   ArrayRef<AffineExpr> ubs,
                                   function_ref<void(Value)> body) {
  int64_t c = plan.parallelChunk;
  SmallVector<AffineExpr> lbList(lbs.begin(), lbs.end());
  if (lbList.empty())
    lbList.push_back(x.cst(0));
  // Chunk j covers iterations [j * c, (j + 1) * c) of the level.
  SmallVector<AffineExpr> chunkLbs, chunkUbs;
  for (AffineExpr lb : lbList)
    chunkLbs.push_back(x.simplify(lb.floorDiv(c)));
  for (AffineExpr ub : ubs)
    chunkUbs.push_back(x.simplify(ub.ceilDiv(c)));
  // Statically fewer than two chunks: a serial loop (no parallel region).
  std::optional<int64_t> lo, hi;
  bool constant = true;
  for (AffineExpr e : chunkLbs) {
    std::optional<int64_t> v = IndexExprs::getConstant(e);
    constant &= v.has_value();
    if (v)
      lo = lo ? std::max(*lo, *v) : *v;
  }
  for (AffineExpr e : chunkUbs) {
    std::optional<int64_t> v = IndexExprs::getConstant(e);
    constant &= v.has_value();
    if (v)
      hi = hi ? std::min(*hi, *v) : *v;
  }
  if (constant && *hi - *lo < 2) {
    x.forLoop(lbs, ubs, body);
    return;
  }
  emitParallelChunks(chunkLbs, chunkUbs, [&](Value chunk) {
    if (c == 1) {
      body(chunk);
      return;
    }
    AffineExpr start = x.value(chunk) * c;
    SmallVector<AffineExpr> innerLbs(lbList), innerUbs(ubs.begin(), ubs.end());
    innerLbs.push_back(start);
    innerUbs.push_back(start + c);
    x.forLoop(innerLbs, innerUbs, body);
  });
}

void NestEmitter::emitParallelChunks(ArrayRef<AffineExpr> chunkLbs,
                                     ArrayRef<AffineExpr> chunkUbs,
                                     function_ref<void(Value)> chunkBody) {
  x.parallelLoop(chunkLbs, chunkUbs, [&](Value chunk) {
    // Per chunk (per thread): its own staging row, its own fence.
    Block *savedAllocaBlock = allocaBlock;
    Value savedStagingRow = stagingRow;
    bool savedNontemporal = usedNontemporal;
    allocaBlock = x.b.getInsertionBlock();
    stagingRow = Value();
    usedNontemporal = false;
    chunkBody(chunk);
    if (usedNontemporal)
      LLVM::FenceOp::create(x.b, x.loc, LLVM::AtomicOrdering::seq_cst);
    usedNontemporal |= savedNontemporal;
    stagingRow = savedStagingRow;
    allocaBlock = savedAllocaBlock;
  });
}
