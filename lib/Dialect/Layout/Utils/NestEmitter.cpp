//===- NestEmitter.cpp - The destination-driven loop nest -----------------===//
//
// Preparing the nest (physical views, inverse index maps, bound checks),
// the loop levels and their splits, padding loops, single elements, and the
// public entry points emitElementwiseLoops / emitRelayoutLoops.
//
//===----------------------------------------------------------------------===//

#include "NestEmitter.h"

#include "layout/Dialect/Layout/IR/AffineIndexOps.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"
#include "layout/Xla/TiledLayoutWalk.h"

#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

#include "llvm/Support/DebugLog.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

/// A view of `memref` whose dims listed in `mayBroadcast` have stride 0 when
/// their run-time size is 1 (non-tiled memrefs only).
static FailureOr<Value>
getPhysicalView(OpBuilder &b, Location loc, Value memref,
                std::optional<TiledLayoutMap> &map,
                function_ref<InFlightDiagnostic()> emitError) {
  auto type = cast<MemRefType>(memref.getType());
  auto attr = dyn_cast<TiledLayoutAttr>(type.getLayout());
  if (!attr)
    return memref;
  FailureOr<TiledLayoutMap> m =
      attr.getTiledLayoutMap(type.getShape(), type.getElementType(), emitError);
  if (failed(m))
    return failure();
  FailureOr<MemRefType> physType = attr.getPhysicalMemRefType(type, emitError);
  if (failed(physType))
    return failure();
  map = std::move(*m);
  return ToPhysicalOp::create(b, loc, *physType, memref).getResult();
}

/// The physical view type and index map of a static memref for the source
/// walk: a `#layout.tiled` memref's physical buffer, or an identity memref
/// itself (no map). Fails (false) for other layouts and on invalid layouts
/// (their diagnostics come from the destination walk then).
bool mlir::layout::loops::getWalkView(MemRefType type, MemRefType &physType,
                                      std::optional<TiledLayoutMap> &map) {
  auto attr = dyn_cast<TiledLayoutAttr>(type.getLayout());
  if (!attr) {
    physType = type;
    return type.getLayout().isIdentity();
  }
  auto quiet = [] { return InFlightDiagnostic(); };
  FailureOr<TiledLayoutMap> m =
      attr.getTiledLayoutMap(type.getShape(), type.getElementType(), quiet);
  FailureOr<MemRefType> phys = attr.getPhysicalMemRefType(type, quiet);
  if (failed(m) || failed(phys) || !phys->hasStaticShape() ||
      phys->getElementType() != type.getElementType())
    return false;
  physType = *phys;
  map = std::move(*m);
  return true;
}

/// Copies whose reads would otherwise jump walk the SOURCE's physical dims
/// instead of the destination's, with the destination index computed per
/// row:
///  * a tiled source into an untiled (row-major) destination: tile by
///    tile, every tile's rows in order. Walking the destination's rows
///    instead reads each source tile row from a different page (one
///    512-byte run per 4 KiB tile of T(8,128) f32), which the hardware
///    prefetchers, stopping at page boundaries, leave exposed. Measured on
///    AMD Zen 5 (AVX-512), f32[4096,4096] {1,0:T(8,128)} -> row-major,
///    64-byte streaming stores: 33 GB/s walking the destination, 45 GB/s
///    walking the source, memcpy 46 GB/s;
///  * permutations that keep the minor dim (rows copied whole): the source
///    is read in order and the streaming stores, which need no prefetch,
///    jump. bf16[32,32,128,128] -> {3,1,2,0} (256-byte rows): 45-49 GB/s
///    walking the destination, 60 GB/s walking the source
///    (docs/performance.md, "Walking the source").
/// Both memrefs static; the destination untiled or a permutation without
/// padding slots (every slot is an element: nothing to pad), so that its
/// index is affine in the source's physical index; the source's innermost
/// dim at least a vector and contiguous in the destination (rows stay
/// vector rows). Slots whose bound checks fail are source padding and are
/// skipped.
std::optional<int64_t>
NestEmitter::getWalkedCopyElementBytes(Value dest,
                                       ArrayRef<LoopSource> loopSources) {
  if (options.vectorBytes <= 0 || !vectorizableFn || !copiesElements ||
      loopSources.size() != 1) {
    LDBG() << "no source or run walk: scalar loops, or not a one-source "
              "copy";
    return std::nullopt;
  }
  auto destType = cast<MemRefType>(dest.getType());
  const LoopSource &s = loopSources[0];
  auto srcType = cast<MemRefType>(s.memref.getType());
  Type elementType = destType.getElementType();
  int64_t rank = destType.getRank();
  if (!destType.hasStaticShape() || !srcType.hasStaticShape() || rank < 1 ||
      srcType.getElementType() != elementType || !elementType.isIntOrFloat() ||
      elementType.isInteger(1) || elementType.getIntOrFloatBitWidth() % 8 ||
      !llvm::equal(s.dimMap, llvm::seq<int64_t>(0, rank))) {
    LDBG() << "no source or run walk: dynamic shapes, another element type, "
              "sub-byte elements or a broadcast";
    return std::nullopt;
  }
  return elementType.getIntOrFloatBitWidth() / 8;
}

std::optional<int64_t> NestEmitter::getValidSlots(const Check &c, unsigned from,
                                                  unsigned level) {
  unsigned n = placeholders.size();
  for (unsigned i = from; i < n; ++i)
    if (i != level && c.form.coeffs[i] &&
        IndexExprs::getConstant(physSizes[i]) != 1)
      return std::nullopt;
  int64_t a = c.form.coeffs[level];
  if (a <= 0)
    return std::nullopt;
  AffineExpr alpha = x.cst(c.form.constant);
  for (unsigned i = 0; i < from; ++i)
    if (c.form.coeffs[i] && IndexExprs::getConstant(physSizes[i]) != 1)
      alpha = alpha + placeholders[i] * c.form.coeffs[i];
  std::optional<int64_t> valid = IndexExprs::getConstant(
      x.simplify((c.bound - alpha - 1).floorDiv(a) + 1));
  if (!valid || *valid < 0)
    return std::nullopt;
  return valid;
}

bool NestEmitter::getWalkChecks(ArrayRef<BoundCheck<AffineExpr>> inverseChecks,
                                ArrayRef<AffineExpr> walk,
                                SmallVectorImpl<Check> &walkChecks) {
  for (const BoundCheck<AffineExpr> &check : inverseChecks) {
    AffineExpr value = x.simplify(check.value);
    std::optional<LinearForm> form = getLinearForm(value, walk);
    if (!form || check.bound == kUnboundedSize)
      return false;
    walkChecks.push_back({value, x.cst(check.bound), *form});
  }
  return true;
}

bool NestEmitter::prepareSourceWalk(Value dest,
                                    ArrayRef<LoopSource> loopSources) {
  std::optional<int64_t> bytes = getWalkedCopyElementBytes(dest, loopSources);
  auto destType = cast<MemRefType>(dest.getType());
  const LoopSource &s = loopSources[0];
  auto srcType = cast<MemRefType>(s.memref.getType());
  if (!bytes || destType.getRank() < 2 ||
      (srcType.getLayout().isIdentity() && destType.getLayout().isIdentity()))
    return false;
  int64_t elementBytes = *bytes;
  MemRefType srcPhys, destPhys;
  std::optional<TiledLayoutMap> srcMap, destMap;
  if (!getWalkView(srcType, srcPhys, srcMap) ||
      !getWalkView(destType, destPhys, destMap) ||
      (destMap && destMap->mayHavePaddingSlots()) ||
      srcPhys.getShape().back() * elementBytes < options.vectorBytes) {
    LDBG() << "no source walk: a layout without a physical view, padding "
              "slots in the destination, or source rows shorter than a "
              "vector";
    return false;
  }
  SmallVector<AffineExpr> walk, sizes;
  for (int64_t size : srcPhys.getShape()) {
    walk.push_back(x.placeholder());
    sizes.push_back(x.cst(size));
  }
  AffineIndexOps ops{x.context};
  SmallVector<AffineExpr> logicalIndex(walk);
  SmallVector<Check> walkChecks;
  if (srcMap) {
    InverseIndex<AffineExpr> inverse =
        applyInverse<AffineExpr>(*srcMap, walk, ops);
    logicalIndex.clear();
    for (AffineExpr e : inverse.logical)
      logicalIndex.push_back(x.simplify(e));
    if (!getWalkChecks(inverse.checks, walk, walkChecks))
      return false;
  }
  SmallVector<AffineExpr> destIdx(logicalIndex);
  if (destMap) {
    destIdx.clear();
    for (AffineExpr e : destMap->apply<AffineExpr>(logicalIndex, ops))
      destIdx.push_back(x.simplify(e));
  }
  // Contiguous rows: the innermost dim moves only the destination's last
  // physical dim, by one; every destination index linear (no division).
  AffineExpr p = walk.back();
  for (auto [d, e] : llvm::enumerate(destIdx)) {
    std::optional<int64_t> step =
        IndexExprs::getConstant(x.simplify(e.replace(p, p + 1) - e));
    if (!getLinearForm(e, walk) || !step ||
        *step != (d + 1 == destIdx.size() ? 1 : 0)) {
      LDBG() << "no source walk: the source's rows are not contiguous "
                "destination rows";
      return false;
    }
  }
  plan.walk = NestPlan::Walk::Source;
  destMemRef = dest;
  destView = destMap
                 ? ToPhysicalOp::create(x.b, x.loc, destPhys, dest).getResult()
                 : dest;
  placeholders = std::move(walk);
  physSizes = std::move(sizes);
  logical = std::move(logicalIndex);
  destIndex = std::move(destIdx);
  checks = std::move(walkChecks);
  Source source;
  source.view =
      srcMap ? ToPhysicalOp::create(x.b, x.loc, srcPhys, s.memref).getResult()
             : s.memref;
  source.map = std::move(srcMap);
  source.dimMap = s.dimMap;
  source.index = placeholders;
  sources.push_back(std::move(source));
  return true;
}

/// The source walk of a copy from an untiled source into a tiled
/// destination. The destination's index is not affine in the source's (it
/// divides by the tiles), but the source's is affine in the destination's
/// physical index, so the nest walks the destination's physical dims
/// reordered by decreasing source stride: the source's order, split at the
/// tiles. f32[4096,4096] row-major -> {1,0:T(8,128)} then reads each source
/// row in order and writes its 512-byte runs into 32 tiles, instead of
/// reading 8 source rows' runs per tile (the mirror image of the tiled ->
/// row-major source walk above). It stays a destination walk in every other
/// respect (plan.reordersDest(): bound checks over the reordered levels,
/// padding slots written). Measured on AMD Zen 5 (AVX-512, standalone loops,
/// 64-byte streaming stores, one thread, GB/s): T(8,128) 40-42 walking the
/// destination, 44-46 walking the source; T(8,512) (runs of 2 KiB) 34-41
/// against 50-54; memcpy 37-44 (docs/performance.md, "Walking the source
/// into tiles"). A source whose byte order crosses the destination's (a
/// {0,1} or row-major source into T(8,128) tiles of the other order) is
/// walked the same way around blocked transposes of each tile's plane: the
/// destination walk visits a row of tiles across all tile columns, each
/// tile reading 128 source columns a page apart (f32[4096,4096] {0,1} ->
/// {1,0:T(8,128)}: 4,096 pages per tile row, past the L2 TLB). Measured on
/// AMD Zen 4 (AVX-512, one thread, A/B alternated): 5.7-5.9 GB/s walking
/// the destination, 17.1-17.7 walking the tile columns outermost, the
/// streaming copy 29-36 (docs/performance.md, "Tiled <-> transposed
/// pairs").
bool NestEmitter::prepareSourceWalkIntoTiles(Value dest,
                                             ArrayRef<LoopSource> loopSources) {
  std::optional<int64_t> bytes = getWalkedCopyElementBytes(dest, loopSources);
  auto destType = cast<MemRefType>(dest.getType());
  const LoopSource &s = loopSources[0];
  auto srcType = cast<MemRefType>(s.memref.getType());
  MemRefType destPhys, srcPhys;
  std::optional<TiledLayoutMap> destMap, srcMap;
  if (!bytes || !getWalkView(srcType, srcPhys, srcMap) ||
      (srcMap && srcMap->mayHavePaddingSlots()) ||
      !getWalkView(destType, destPhys, destMap) || !destMap ||
      destPhys.getRank() < 2 ||
      destPhys.getShape().back() * *bytes < options.vectorBytes) {
    LDBG() << "no source walk into tiles: the source is not untiled (or a "
              "permutation), the destination not tiled, or its rows shorter "
              "than a vector";
    return false;
  }
  int64_t n = destPhys.getRank();
  SmallVector<AffineExpr> phys;
  for (int64_t k = 0; k < n; ++k)
    phys.push_back(x.placeholder());
  AffineIndexOps ops{x.context};
  InverseIndex<AffineExpr> inverse =
      applyInverse<AffineExpr>(*destMap, phys, ops);
  SmallVector<AffineExpr> logicalIndex;
  for (AffineExpr e : inverse.logical)
    logicalIndex.push_back(x.simplify(e));
  // The source's index (a permuted source: its physical view's) and its
  // linear offset over the destination's physical dims: the innermost one
  // must read the source contiguously (vector rows on both sides), or,
  // for a source whose byte order crosses the destination's, the second
  // innermost (the tiles' rows: blocked transposes of the (n-2, n-1)
  // plane, TransposeBlocks.cpp); every stride non-negative.
  SmallVector<AffineExpr> srcIndex(logicalIndex);
  if (srcMap) {
    srcIndex.clear();
    for (AffineExpr e : srcMap->apply<AffineExpr>(logicalIndex, ops))
      srcIndex.push_back(x.simplify(e));
  }
  AffineExpr offset =
      linearize(x.context, srcIndex, computeStrides(srcPhys.getShape()));
  std::optional<LinearForm> form = getLinearForm(x.simplify(offset), phys);
  // (Crossing into a tiled destination only: plain permutations keep the
  // destination walk, whose blocks order the dims between the plane's;
  // perm4_1032 measured the same either way.)
  bool crossing = form && form->coeffs[n - 2] == 1 && form->coeffs.back() > 1 &&
                  n > destType.getRank();
  if (!form || (form->coeffs.back() != 1 && !crossing) ||
      llvm::any_of(form->coeffs, [](int64_t c) { return c < 0; })) {
    LDBG() << "no source walk into tiles: the destination's rows (or its "
              "tiles' columns) do not read the source contiguously";
    return false;
  }
  SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, n - 1));
  llvm::sort(order, [&](int64_t a, int64_t b) {
    return std::make_pair(-form->coeffs[a], a) <
           std::make_pair(-form->coeffs[b], b);
  });
  order.push_back(n - 1);
  // Already in the source's order: the destination walk is that walk.
  if (llvm::equal(order, llvm::seq<int64_t>(0, n)))
    return false;
  // Crossing: only the levels outside the tiles' plane reorder (the plane
  // is a blocked transpose); a permuted source only so (a permuted source
  // with contiguous rows keeps the destination walk).
  bool permutedSource = !llvm::equal(srcIndex, logicalIndex);
  if ((crossing && order[n - 2] != n - 2) || (permutedSource && !crossing)) {
    LDBG() << "no source walk into tiles: the plane of a crossing copy "
              "would reorder, or a permuted source with contiguous rows";
    return false;
  }
  SmallVector<AffineExpr> walk;
  for (int64_t d : order)
    walk.push_back(phys[d]);
  // The bound checks (padding slots), linear over the walk's levels.
  SmallVector<Check> walkChecks;
  if (!getWalkChecks(inverse.checks, walk, walkChecks))
    return false;
  plan.walk = NestPlan::Walk::SourceIntoTiles;
  destMemRef = dest;
  destView = ToPhysicalOp::create(x.b, x.loc, destPhys, dest).getResult();
  placeholders = std::move(walk);
  for (int64_t d : order)
    physSizes.push_back(x.cst(destPhys.getDimSize(d)));
  destIndex = phys;
  logical = logicalIndex;
  checks = std::move(walkChecks);
  Source source;
  source.view =
      srcMap ? ToPhysicalOp::create(x.b, x.loc, srcPhys, s.memref).getResult()
             : s.memref;
  source.map = std::move(srcMap);
  source.dimMap = s.dimMap;
  source.index = std::move(srcIndex);
  sources.push_back(std::move(source));
  return true;
}

LogicalResult
NestEmitter::prepare(Value dest, ArrayRef<OpFoldResult> destSizes,
                     ArrayRef<LoopSource> loopSources,
                     function_ref<InFlightDiagnostic()> emitError) {
  OpBuilder &b = x.b;
  AffineIndexOps ops{x.context};
  if (prepareSourceWalk(dest, loopSources) ||
      prepareSourceWalkIntoTiles(dest, loopSources) ||
      prepareRunWalk(dest, loopSources)) {
    report.add(plan.walksRuns()      ? NestKernel::RunWalk
               : plan.reordersDest() ? NestKernel::SourceWalkIntoTiles
                                     : NestKernel::SourceWalk);
    prepareVectorization();
    prepareRealign();
    prepareParallel();
    return success();
  }
  destMemRef = dest;
  auto destType = cast<MemRefType>(dest.getType());
  std::optional<TiledLayoutMap> destMap;
  FailureOr<Value> view = getPhysicalView(b, x.loc, dest, destMap, emitError);
  if (failed(view))
    return failure();
  destView = *view;
  auto viewType = cast<MemRefType>(destView.getType());
  for (int64_t k = 0; k < viewType.getRank(); ++k) {
    placeholders.push_back(x.placeholder());
    if (!viewType.isDynamicDim(k))
      physSizes.push_back(x.cst(viewType.getDimSize(k)));
    else if (!destMap)
      physSizes.push_back(x.ofr(destSizes[k]));
    else
      physSizes.push_back(
          x.value(memref::DimOp::create(b, x.loc, destView, k)));
  }
  destIndex = placeholders;
  if (!destMap) {
    logical = placeholders;
  } else {
    InverseIndex<AffineExpr> inverse =
        applyInverse<AffineExpr>(*destMap, placeholders, ops);
    logical.assign(inverse.logical.begin(), inverse.logical.end());
    for (BoundCheck<AffineExpr> &check : inverse.checks) {
      AffineExpr bound;
      if (check.bound != kUnboundedSize) {
        bound = x.cst(check.bound);
      } else {
        // Dynamic: the combined index of the largest element, plus one.
        SmallVector<AffineExpr> last;
        for (OpFoldResult s : destSizes)
          last.push_back(x.ofr(s) - 1);
        bound = getLevelCombinedIndex<AffineExpr>(*destMap, last, check.level,
                                                  ops)[check.dim] +
                1;
      }
      AffineExpr value = x.simplify(check.value);
      if (std::optional<LinearForm> form = getLinearForm(value, placeholders))
        checks.push_back({value, bound, *form});
      else
        nonLinearChecks.push_back(value - bound);
    }
  }
  (void)destType;
  for (const LoopSource &s : loopSources) {
    Source source;
    FailureOr<Value> srcView =
        getPhysicalView(b, x.loc, s.memref, source.map, emitError);
    if (failed(srcView))
      return failure();
    source.view = *srcView;
    source.dimMap = s.dimMap;
    SmallVector<AffineExpr> srcLogical;
    for (int64_t d : s.dimMap)
      srcLogical.push_back(d < 0 ? x.cst(0) : logical[d]);
    if (source.map) {
      SmallVector<AffineExpr, 6> index =
          source.map->apply<AffineExpr>(srcLogical, ops);
      source.index.assign(index.begin(), index.end());
    } else {
      source.index = srcLogical;
    }
    for (AffineExpr &e : source.index)
      e = x.simplify(e);
    sources.push_back(std::move(source));
  }
  prepareVectorization();
  prepareParallel();
  return success();
}

void NestEmitter::prepareVectorization() {
  if (options.vectorBytes <= 0 || !vectorizableFn || !nonLinearChecks.empty() ||
      !llvm::isPowerOf2_64(options.vectorBytes))
    return;
  auto type = cast<MemRefType>(destView.getType());
  Type elementType = type.getElementType();
  if (!type.getLayout().isIdentity() || !type.hasStaticShape() ||
      type.getRank() == 0 || !elementType.isIntOrFloat() ||
      elementType.isInteger(1) || elementType.getIntOrFloatBitWidth() % 8)
    return;
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  if (options.vectorBytes % bytes || options.vectorBytes / bytes < 2)
    return;
  for (const Source &s : sources)
    if (cast<MemRefType>(s.view.getType()).getElementType() != elementType)
      return;
  elementBytes = bytes;
  lanes = options.vectorBytes / bytes;
  destStrides = computeStrides(type.getShape());
  nontemporal =
      options.nontemporalThresholdBytes >= 0 &&
      type.getNumElements() * bytes >= options.nontemporalThresholdBytes;
  OpBuilder::InsertionGuard guard(x.b);
  x.b.setInsertionPointAfterValue(destView);
  destPointer = x.value(
      memref::ExtractAlignedPointerAsIndexOp::create(x.b, x.loc, destView));
}

void NestEmitter::emitPadding(unsigned k) {
  if (plan.walksSource())
    return;
  if (k == placeholders.size()) {
    forEachStream([&] {
      x.store(getPadValue(), destView, destIndex);
      return true;
    });
    return;
  }
  x.forLoop({}, {physSizes[k]}, [&](Value iv) {
    x.bind(placeholders[k], iv);
    emitPadding(k + 1);
  });
}

int64_t NestEmitter::emitTwoStreams(const llvm::SmallBitVector &fullActive,
                                    ArrayRef<AffineExpr> fullEnds) {
  // Streaming nests whose leaves are rows, padding elements or interleaved
  // rows: not those that may take transpose blocks (two planes at once
  // measured slower, docs/performance.md), nor those parallel at an inner
  // level.
  if (options.memoryStreams < 2 || !nontemporal || plan.parallelLevel > 0 ||
      placeholders.size() < 2 || (!plan.walksSource() && mayTransposeBlocks()))
    return 0;
  int64_t end = std::numeric_limits<int64_t>::max();
  for (AffineExpr e : fullEnds) {
    std::optional<int64_t> c = IndexExprs::getConstant(x.simplify(e));
    if (!c)
      return 0;
    end = std::min(end, *c);
  }
  int64_t h = end / 2;
  // Parallel at this level: the chunks of [0, h) in parallel, each thread
  // walking its chunks and their twins h on (two streams per thread); h a
  // whole number of chunks, so that the twins' chunks and the plain loops'
  // start on whole destination lines too. Too few chunks left for the
  // threads: one stream.
  if (plan.parallelLevel == 0) {
    h = h / plan.parallelChunk * plan.parallelChunk;
    if (h / plan.parallelChunk < kMinParallelChunks)
      return 0;
  }
  if (h < 1)
    return 0;
  emitLevelLoop(0, {}, {x.cst(h)}, [&](Value iv) {
    x.bind(placeholders.front(), iv);
    jamIv = iv;
    jamOffset = h;
    emitLevel(1, fullActive);
    jamOffset = 0;
    jamIv = Value();
  });
  return 2 * h;
}

bool NestEmitter::forEachStream(function_ref<bool()> leaf) {
  // The leaf itself takes one stream (a fallback nest it builds included).
  int64_t h = jamOffset;
  jamOffset = 0;
  bool built = leaf();
  if (built && h) {
    AffineExpr p0 = placeholders.front();
    x.bind(p0, x.materialize(p0 + h));
    leaf();
    x.bind(p0, jamIv);
  }
  jamOffset = h;
  return built;
}

void NestEmitter::emitLevel(unsigned k, const llvm::SmallBitVector &active) {
  unsigned n = placeholders.size();
  if (n == 0) {
    emitElement(destIndex,
                llvm::to_vector(llvm::map_range(
                    sources, [](const Source &s) { return s.index; })));
    return;
  }
  if (lanes && k + 1 < n && !plan.walksSource()) {
    // Blocks transposed or rows interleaved from above the parallel level:
    // that nest stays serial (no parallel region per block or row).
    int savedParallelLevel = plan.parallelLevel;
    if (static_cast<int>(k) < plan.parallelLevel)
      plan.parallelLevel = -1;
    // Under two streams (emitTwoStreams: no transposes in such a nest) an
    // interleaved row is a leaf, built for both. A walk reordered into
    // tiles takes only the transposes of its tiles' plane.
    bool interleave = !plan.reordersDest();
    bool done = jamOffset
                    ? interleave && forEachStream([&] {
                        return emitInterleavedRowOrLoops(k, active);
                      })
                    : emitTransposeBlocks(k, active) ||
                          (interleave && emitInterleavedRowOrLoops(k, active));
    plan.parallelLevel = savedParallelLevel;
    if (done)
      return;
  }
  emitLevelLoops(k, active);
}

bool NestEmitter::emitInterleavedRowOrLoops(
    unsigned k, const llvm::SmallBitVector &active) {
  KernelOutcome outcome = emitInterleavedRow(k, active);
  if (outcome.fallbackAt) {
    OpBuilder::InsertionGuard guard(x.b);
    x.b.restoreInsertionPoint(*outcome.fallbackAt);
    emitLevelLoops(k, active);
  }
  return outcome.taken;
}

void NestEmitter::emitLevelLoops(unsigned k,
                                 const llvm::SmallBitVector &active) {
  unsigned n = placeholders.size();
  // The checks this dim takes part in, with their full/valid limits.
  struct Split {
    unsigned check;
    AffineExpr full, valid;
    bool hasInner;
  };
  SmallVector<Split> splits;
  for (int j : active.set_bits()) {
    const Check &c = checks[j];
    int64_t a = c.form.coeffs[k];
    if (a == 0)
      continue;
    AffineExpr alpha = x.cst(c.form.constant);
    for (unsigned m = 0; m < k; ++m)
      alpha = alpha + placeholders[m] * c.form.coeffs[m];
    AffineExpr inner = x.cst(0);
    bool hasInner = false;
    for (unsigned m = k + 1; m < n; ++m)
      if (c.form.coeffs[m]) {
        inner = inner + (physSizes[m] - 1) * c.form.coeffs[m];
        hasInner = true;
      }
    AffineExpr full = (c.bound - alpha - inner - 1).floorDiv(a) + 1;
    AffineExpr valid = (c.bound - alpha - 1).floorDiv(a) + 1;
    splits.push_back({static_cast<unsigned>(j), x.simplify(full),
                      x.simplify(valid), hasInner});
  }
  AffineExpr size = physSizes[k];
  auto body = [&](const llvm::SmallBitVector &nextActive) {
    return [&, nextActive](Value iv) {
      x.bind(placeholders[k], iv);
      emitLevel(k + 1, nextActive);
    };
  };
  if (k + 1 == n) {
    // Innermost: the valid prefix, then padding.
    SmallVector<AffineExpr> ubs{size};
    for (const Split &s : splits)
      ubs.push_back(s.valid);
    forEachStream([&] {
      emitRow(ubs);
      return true;
    });
    return;
  }
  // The outermost loop may first walk two streams over the range where
  // every check is full; the plain loops below take the rest.
  int64_t start = 0;
  if (k == 0) {
    SmallVector<AffineExpr> fullEnds{size};
    llvm::SmallBitVector fullActive = active;
    for (const Split &s : splits) {
      fullEnds.push_back(s.full);
      fullActive.reset(s.check);
    }
    start = emitTwoStreams(fullActive, fullEnds);
  }
  if (splits.empty()) {
    SmallVector<AffineExpr> lbs;
    if (start)
      lbs.push_back(x.cst(start));
    emitLevelLoop(k, lbs, {size}, body(active));
  } else {
    // Each check is full or partial (partial only if inner dims can still
    // fail it): the ranges intersect.
    unsigned r = splits.size();
    for (unsigned mask = 0; mask < (1u << r); ++mask) {
      SmallVector<AffineExpr> lbs{x.cst(start)}, ubs{size};
      llvm::SmallBitVector nextActive = active;
      bool skip = false;
      for (unsigned i = 0; i < r; ++i) {
        bool partial = mask & (1u << i);
        if (partial && !splits[i].hasInner)
          skip = true;
        if (partial) {
          lbs.push_back(splits[i].full);
          ubs.push_back(splits[i].valid);
        } else {
          ubs.push_back(splits[i].full);
          nextActive.reset(splits[i].check);
        }
      }
      if (!skip)
        emitLevelLoop(k, lbs, ubs, body(nextActive));
    }
  }
  // Padding: the first check (in order) that fails for every inner value
  // (none when walking the source: its padding slots are skipped).
  for (unsigned i = 0; i < splits.size() && !plan.walksSource(); ++i) {
    SmallVector<AffineExpr> lbs{splits[i].valid}, ubs{size};
    if (start)
      lbs.push_back(x.cst(start));
    for (unsigned j = 0; j < i; ++j)
      ubs.push_back(splits[j].valid);
    emitLevelLoop(k, lbs, ubs, [&](Value iv) {
      x.bind(placeholders[k], iv);
      emitPadding(k + 1);
    });
  }
}

void NestEmitter::emitElement(ArrayRef<AffineExpr> destIndex,
                              ArrayRef<SmallVector<AffineExpr>> sourceIndices) {
  OpBuilder &b = x.b;
  report.add(NestKernel::Scalar);
  auto compute = [&] {
    SmallVector<Value> loaded;
    for (auto [s, index] : llvm::zip(sources, sourceIndices))
      loaded.push_back(x.load(s.view, index));
    x.store(fn(b, x.loc, loaded), destView, destIndex);
  };
  if (nonLinearChecks.empty()) {
    compute();
    return;
  }
  // Fallback for checks through a `*` split by a later tile level.
  Value cond;
  Value zero = arith::ConstantIndexOp::create(b, x.loc, 0);
  for (AffineExpr c : nonLinearChecks) {
    Value v = x.materialize(c);
    Value lt =
        arith::CmpIOp::create(b, x.loc, arith::CmpIPredicate::slt, v, zero);
    cond = cond ? arith::AndIOp::create(b, x.loc, cond, lt).getResult() : lt;
  }
  auto ifOp = scf::IfOp::create(b, x.loc, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  compute();
  b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  x.store(getPadValue(), destView, destIndex);
}

//===----------------------------------------------------------------------===//
// Public emitters
//===----------------------------------------------------------------------===//

Value mlir::layout::createPaddingValue(OpBuilder &b, Location loc,
                                       Type shapedType) {
  Type elementType = cast<ShapedType>(shapedType).getElementType();
  TypedAttr attr =
      getPaddingValueAttr(elementType, getPaddingValue(shapedType));
  if (auto intAttr = dyn_cast_if_present<IntegerAttr>(attr);
      intAttr && !elementType.isSignlessInteger() && !elementType.isIndex()) {
    // s*/u* integers: arith constants are signless; the same bits, viewed as
    // the element type.
    Type signless =
        IntegerType::get(b.getContext(), elementType.getIntOrFloatBitWidth());
    Value constant = arith::ConstantOp::create(
        b, loc, IntegerAttr::get(signless, intAttr.getValue()));
    return castElement(b, loc, constant, elementType);
  }
  if (attr)
    return arith::ConstantOp::create(b, loc, attr);
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    auto floatType = cast<FloatType>(complex.getElementType());
    Attribute zero = b.getFloatAttr(floatType, 0.0);
    return complex::ConstantOp::create(b, loc, complex,
                                       b.getArrayAttr({zero, zero}));
  }
  return ub::PoisonOp::create(b, loc, elementType);
}

FailureOr<SmallVector<OpFoldResult>>
mlir::layout::getLogicalSizes(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
      continue;
    }
    if (auto alloc = memref.getDefiningOp<memref::AllocOp>()) {
      sizes.push_back(alloc.getMixedSizes()[d]);
      continue;
    }
    if (auto alloca = memref.getDefiningOp<memref::AllocaOp>()) {
      sizes.push_back(alloca.getMixedSizes()[d]);
      continue;
    }
    // The logical size (also of a tiled memref: --layout-normalize-memrefs
    // rewrites it to the logical size the value carries).
    sizes.push_back(memref::DimOp::create(b, loc, memref, d).getResult());
  }
  return sizes;
}

LogicalResult mlir::layout::emitElementwiseLoops(
    OpBuilder &b, Location loc, LoopKind kind, Value dest,
    ArrayRef<OpFoldResult> destSizes, ArrayRef<LoopSource> sources,
    const ElementFunction &element,
    function_ref<InFlightDiagnostic()> emitError,
    const LoopEmitOptions &options, NestReport *report) {
  IndexExprs x(b, loc, kind);
  NestEmitter emitter(x, element, options);
  if (failed(emitter.prepare(dest, destSizes, sources, emitError)))
    return failure();
  emitter.emit();
  if (report)
    *report = emitter.report;
  // Non-temporal stores are weakly ordered: fence them before the buffer
  // is handed on (to another thread, say).
  if (emitter.usedNontemporal)
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
  return success();
}

LogicalResult mlir::layout::emitRelayoutLoops(
    OpBuilder &b, Location loc, LoopKind kind, Value src, Value dst,
    ArrayRef<OpFoldResult> sizes, function_ref<InFlightDiagnostic()> emitError,
    const LoopEmitOptions &options, NestReport *report) {
  int64_t rank = cast<MemRefType>(dst.getType()).getRank();
  LoopSource source{src, llvm::to_vector(llvm::seq<int64_t>(0, rank))};
  auto copyElement = [](OpBuilder &, Location, ValueRange loaded) {
    return loaded[0];
  };
  ElementFunction copy;
  copy.fn = copyElement;
  copy.vectorizable = true;
  copy.copiesElements = true;
  return emitElementwiseLoops(b, loc, kind, dst, sizes, source, copy, emitError,
                              options, report);
}
