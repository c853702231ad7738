//===- NestEmitter.h - The destination-driven loop nest ---------*- C++ -*-===//
//
// The nest of emitElementwiseLoops (LoopEmitters.h): loops over the
// destination's physical dims, split at the bound checks of its inverse
// index map; rows of the innermost dim are vectorized (VectorRows.cpp).
// Private to lib/Dialect/Layout/Utils.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_DIALECT_LAYOUT_UTILS_NESTEMITTER_H
#define LAYOUT_LIB_DIALECT_LAYOUT_UTILS_NESTEMITTER_H

#include "NestState.h"

#include "layout/Xla/KernelPlan.h"
#include "layout/Xla/TiledLayoutWalk.h"

#include "llvm/ADT/SmallBitVector.h"

namespace mlir::layout::loops {

/// The physical view a walk reads or writes: an identity memref `type`
/// itself (no map), or the physical type and index map of a tiled one;
/// false for other layouts and tiled types without a static physical type.
bool getWalkView(MemRefType type, MemRefType &physType,
                 std::optional<TiledLayoutMap> &map);

class TransposeBlockKernel;
class VectorRowKernel;

/// The nest's builder: prepare() fills the NestState and its plan, emit()
/// walks the levels and hands rows and levels to the kernels (NestKernel.h).
class NestEmitter : public NestState {
  friend class TransposeBlockKernel;
  friend class VectorRowKernel;

public:
  NestEmitter(IndexExprs &x, const ElementFunction &element,
              const LoopEmitOptions &options)
      : NestState(x, element, options) {}

  LogicalResult prepare(Value dest, ArrayRef<OpFoldResult> destSizes,
                        ArrayRef<LoopSource> loopSources,
                        function_ref<InFlightDiagnostic()> emitError);
  void emit() { emitLevel(0, llvm::SmallBitVector(checks.size(), true)); }

private:
  /// The source walk of a copy from a tiled source into an untiled
  /// destination, or of a permutation that keeps the minor dim; false
  /// (nothing set) when it does not apply.
  bool prepareSourceWalk(Value dest, ArrayRef<LoopSource> loopSources);
  /// The bound checks of a walk's inverse map, linear over the walk's
  /// placeholders (static bounds); false if one is not.
  bool getWalkChecks(ArrayRef<BoundCheck<AffineExpr>> inverseChecks,
                     ArrayRef<AffineExpr> walk,
                     SmallVectorImpl<Check> &walkChecks);
  /// The slots of `level` (>= from) at which check `c` holds, counted from
  /// 0, when among the levels from `from` on only `level` moves it, upwards
  /// (levels of one slot aside: a (2,1) sub-tile's column dim, always 0),
  /// and the levels before `from` leave it static (of one slot); nullopt
  /// otherwise (an outer level of several slots: the last tile column of
  /// an odd array keeps its check). The rows of a tile partly outside the
  /// array: elements up to the result, then padding slots.
  std::optional<int64_t> getValidSlots(const Check &c, unsigned from,
                                       unsigned level);
  /// The source walk of a copy from an untiled source into a tiled
  /// destination: the destination's physical dims in the order of their
  /// source strides; false (nothing set) when it does not apply or is the
  /// destination walk itself.
  bool prepareSourceWalkIntoTiles(Value dest, ArrayRef<LoopSource> loopSources);
  /// The element size of a copy the source and run walks may take: one
  /// source of the destination's static shape and element type (whole
  /// bytes), dims in order, vector rows; nullopt otherwise.
  std::optional<int64_t>
  getWalkedCopyElementBytes(Value dest, ArrayRef<LoopSource> loopSources);
  /// The source walk of a copy between two tilings without padding slots,
  /// over the affine nest of its runs (RunWalk.cpp): flat physical views,
  /// one dim per level of the nest, the run innermost; false (nothing set)
  /// when it does not apply.
  bool prepareRunWalk(Value dest, ArrayRef<LoopSource> loopSources);
  /// prepareParallel of a run walk (`bytes` written).
  void prepareParallelRunWalk(int64_t bytes);
  /// prepareParallel of a source walk: the outermost source dim (levels of
  /// one slot skipped), when each of its values owns whole destination
  /// rows.
  void prepareParallelSourceWalk(ArrayRef<int64_t> iterationBytes);
  /// Takes `level` (of `size` iterations) as the parallel level, in chunks
  /// of a multiple of `granule` iterations.
  void setParallelLevel(int level, int64_t size, int64_t granule);

  Value getPadValue() {
    if (!padValue) {
      OpBuilder::InsertionGuard guard(x.b);
      x.b.setInsertionPointAfterValue(destView);
      padValue = createPaddingValue(x.b, x.loc, destMemRef.getType());
    }
    return padValue;
  }

  /// Level k of the nest: a kernel that takes the dims k.. whole
  /// (transpose blocks, interleaved rows), else emitLevelLoops.
  void emitLevel(unsigned k, const llvm::SmallBitVector &active);
  /// The plain loops of level k, split at its bound checks, around
  /// emitLevel(k + 1) (or the rows, at the innermost level).
  void emitLevelLoops(unsigned k, const llvm::SmallBitVector &active);
  /// Two memory streams (LoopEmitOptions::memoryStreams): the outermost
  /// loop walks [0, h) and [h, 2h) together; `jamIv` is its IV and
  /// `jamOffset` h while the inner levels are built (0 otherwise). Returns
  /// the first iteration left to the plain loops (2h, or 0 when the nest
  /// takes one stream).
  int64_t emitTwoStreams(const llvm::SmallBitVector &active,
                         ArrayRef<AffineExpr> fullEnds);
  /// Builds `leaf` (a row, a padding element or an interleaved row) for the
  /// outermost index bound now and, when it built something and the nest
  /// takes two streams, again for it + jamOffset. Returns what `leaf` did.
  bool forEachStream(function_ref<bool()> leaf);
  /// The loop of level k over [max(lbs), min(ubs)): parallel at
  /// parallelLevel, else serial.
  void emitLevelLoop(unsigned k, ArrayRef<AffineExpr> lbs,
                     ArrayRef<AffineExpr> ubs, function_ref<void(Value)> body);
  void prepareParallel();
  void emitParallelLoop(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                        function_ref<void(Value)> body);
  /// The parallel loop over chunks [max(chunkLbs), min(chunkUbs)): each
  /// chunk gets its own staging row and, after non-temporal stores, its own
  /// fence. `chunkBody` builds one chunk's loops.
  void emitParallelChunks(ArrayRef<AffineExpr> chunkLbs,
                          ArrayRef<AffineExpr> chunkUbs,
                          function_ref<void(Value)> chunkBody);
  void emitPadding(unsigned k);
  /// One row of the innermost physical dim (valid elements, then padding);
  /// `ubs[0]` is the row's end, `ubs[1..]` bound its valid elements.
  void emitRow(ArrayRef<AffineExpr> ubs);
  /// The constant step of `e` along the row's IV, or nullopt when `e` is not
  /// affine in it.
  std::optional<int64_t> rowStep(AffineExpr e);
  /// How a source reads along the row.
  struct RowRead {
    enum Kind {
      Constant,   // a broadcast: one scalar, splat
      Contiguous, // unit step in its last dim: vector loads
      Strided,    // unit step in dim `dim`, whose inner dims (static,
                  // `stride` slots) stay fixed: every stride-th slot of the
                  // flat buffer (sub-tiles: bf16 (2,1), 8-bit (4,1))
    } kind = Constant;
    unsigned dim = 0;
    int64_t stride = 1;
  };
  /// How a source with physical `index` reads along the row (identity
  /// layouts for the vector kinds), nullopt if no kind applies (no vector
  /// row).
  std::optional<RowRead> classifyRowSource(MemRefType viewType,
                                           ArrayRef<AffineExpr> index);
  /// Sources whose index needs division along the row are read in runs.
  struct RowRuns {
    /// The destination's logical dim the row's IV moves by one (-1: none,
    /// -2: several or not affine).
    int64_t movingDim = -1;
    /// gcd of the runs' lengths (0 or 1: no runs).
    int64_t runLength = 0;
    SmallVector<std::optional<AffineRun>> runs;
  };
  RowRuns analyzeRowRuns();
  std::function<AffineExpr()> hoistAlongRow(AffineExpr e);
  using IndexFns = SmallVector<std::function<AffineExpr()>>;
  /// The loop (or vector row) over [max(lbs), min(ubs)) of the row.
  void emitRowBody(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                   ArrayRef<IndexFns> sourceIndex);
  /// The position whose runs a row prefetches: each placeholder of
  /// `ahead` replaced by its expression; the sources prefetched;
  /// `clampFlat`: the run's first line at a flat offset clamped so that
  /// its last line is inside the source (a position that may lie outside
  /// the source's physical dims).
  struct RunPrefetchAt {
    SmallVector<std::pair<AffineExpr, AffineExpr>> ahead;
    llvm::SmallBitVector sources;
    bool clampFlat = false;
  };
  /// One segment (run) of a row read in runs.
  struct RunSegment {
    AffineExpr base, sigma;
    SmallVector<IndexFns> hoisted;
    bool singleRun = false;
    std::optional<AffineExpr> stageShift;
    /// Rows whose runs are prefetched: where (prefetchRunsAhead).
    std::optional<RunPrefetchAt> prefetchAt;
  };
  bool isSingleRun(const RowRuns &r);
  std::optional<AffineExpr> prepareStagedRow(const RowRuns &r);
  /// Prefetches of sub-tiled runs ahead: source i's
  /// (layout::planRunPrefetch); for staged rows the row they read, for
  /// rows of tiles the tile (none: no source prefetches); a segment's
  /// prefetches at `start`.
  RunPrefetchPlan planRunPrefetch(const RowRuns &r, unsigned i);
  /// The sources with run prefetches (planRunPrefetch's lines).
  llvm::SmallBitVector getRunPrefetchSources(const RowRuns &r);
  /// Whether the row (the innermost level) takes vectors.
  bool isVectorRow();
  std::optional<RunPrefetchAt> getRunPrefetchRow(const RowRuns &r);
  /// (`reads`: classifyRowRuns' for the row; a source's read strided
  /// only where it is read in runs.)
  std::optional<RunPrefetchAt> getRunPrefetchTile(const RowRuns &r,
                                                  ArrayRef<RowRead> reads);
  void prefetchRunsAhead(const RowRuns &r, AffineExpr start,
                         const RunPrefetchAt &at);
  void emitRunSegment(const RowRuns &r, const RunSegment &seg,
                      ArrayRef<AffineExpr> ubs, Value iv);
  void emitRowInRuns(ArrayRef<AffineExpr> ubs, const RowRuns &r);
  /// Per source, how a row in runs reads it (its run, or its index along
  /// the row: classifyRowSource); nullopt if one takes no vector kind.
  std::optional<SmallVector<RowRead>> classifyRowRuns(const RowRuns &r);
  /// A strided read's slot in its sub-tile: the index of the dims after
  /// `dim`, linearized over the view's shape.
  static AffineExpr getSubTileSlot(MemRefType viewType,
                                   ArrayRef<AffineExpr> index, unsigned dim);
  /// Sources read strided through sub-tiles (`reads`, per source; nullopt
  /// when the row takes no vectors) whose slot is a run-time value of the
  /// row (a (4,1) source's i mod 4): `body` is built once per slot under
  /// an scf.index_switch on it, with the slot's index a constant (one
  /// shuffle per vector instead of one per slot and selects). Else `body`
  /// once.
  void dispatchSubTileSlots(const std::optional<SmallVector<RowRead>> &reads,
                            function_ref<void()> body);
  void emitRowPadding(ArrayRef<AffineExpr> ubs);
  /// Copies move floats as same-width integers (ElementFunction::
  /// copiesElements): the vector type data moves in, and the conversions
  /// to and from it (vector.bitcast; identity when not a float copy).
  VectorType getMoveType(VectorType type);
  Value toMoveType(Value vector);
  Value fromMoveType(Value vector, Type elementType);
  /// The interleaved rows of the dims k.. (emitInterleavedRow): `m` inner
  /// slots per element of dim k, each source's `m` reads (contiguous along
  /// dim k, or constant: `contiguous` false).
  struct InterleavedRows {
    int64_t m = 1;
    SmallVector<SmallVector<SmallVector<AffineExpr>>> reads; // [source][j]
    SmallVector<bool> contiguous;
    /// Per source: its flat index when it is read in the destination's
    /// order (whole vectors, no interleave); null otherwise.
    SmallVector<AffineExpr> sameOrder;
    /// Rows whose tile is only partly inside the array (a padding check
    /// along dim k, e.g. bf16[256,64] in T(8,128)(2,1)): p_k values below
    /// `validRows` hold elements, the rest padding. Static, a multiple of
    /// the vectors' step along p_k; nullopt when every p_k holds elements.
    std::optional<int64_t> validRows;
  };
  AffineExpr getSameOrderIndex(unsigned k, const Source &s, int64_t part);
  std::optional<InterleavedRows>
  planInterleavedRow(unsigned k, const llvm::SmallBitVector &active);
  /// The interleaved rows of the dims k.. when planInterleavedRow finds
  /// them; misaligned rows fall back to the plain loops of level k, whose
  /// insertion point the outcome returns.
  KernelOutcome emitInterleavedRow(unsigned k,
                                   const llvm::SmallBitVector &active);
  /// emitInterleavedRow, and the plain loops where it falls back; whether
  /// it was taken.
  bool emitInterleavedRowOrLoops(unsigned k,
                                 const llvm::SmallBitVector &active);
  /// Blocked in-register transposes of the dims k.. (TransposeBlocks.cpp);
  /// false, building nothing, when they are not such a copy.
  bool emitTransposeBlocks(unsigned k, const llvm::SmallBitVector &active);
  /// Blocked transposes over the rows of consecutive tiles
  /// (TileRowBlocks.cpp): levels k (tile rows) and n - 2 (the rows inside a
  /// tile, no more than a vector's lanes; any levels between them middle
  /// dims) merged into one p_k, when every source and check reads them
  /// only through rows * p_k + p_in; a middle dim whose last slot the array
  /// cuts is peeled. False, building nothing and leaving the nest as it
  /// was, otherwise.
  bool emitTileRowBlocks(unsigned k, const llvm::SmallBitVector &active);
  /// Blocked transposes into a `(q,1)` sub-tiled destination
  /// (InterleavedStoreBlocks.cpp): its levels ... run row, column, q, 1
  /// (T(32,128)(4,1)) rewritten as the rows and columns of the tiles without
  /// the sub-tile (row = q x run row + u), emitTileRowBlocks over them, and
  /// each run of q block rows stored interleaved (interleavedStores). False,
  /// building nothing and leaving the nest as it was, otherwise.
  bool emitInterleavedStoreBlocks(unsigned k,
                                  const llvm::SmallBitVector &active);
  /// The levels emitTileRowBlocks merges: k (tile rows, `tiles` of them)
  /// and j (`rows` in a tile), the destination dims they index (with
  /// interleaved stores, dimIn is level j itself: the row is in two dims).
  struct MergedRows {
    unsigned k, j;
    int64_t rows, tiles;
    unsigned dimK, dimIn;
  };
  /// The nest rewritten with `merged` as one p_k, the blocked transpose
  /// planned and built over it, the nest restored; false (nothing built)
  /// when the kernel does not take it or its blocks are shorter than a
  /// tile and than kMinFractionBlockSide (16) elements.
  bool emitMergedBlocks(const MergedRows &merged,
                        const llvm::SmallBitVector &active);
  /// Builds a planned kernel's blocks (SCF loops) and reports them.
  void emitPlannedBlocks(TransposeBlockKernel &kernel);
  /// Whether emitTransposeBlocks may take some level of this nest (a
  /// superset: false means none will).
  bool mayTransposeBlocks();
  /// Copies the staging row to the destination row over [max(lbs),
  /// min(ubs)).
  void emitStagedCopy(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                      AffineExpr shift) {
    AffineExpr p = placeholders.back();
    IndexFns stageIndex{[=] { return shift + p; }};
    std::optional<RowTarget> saved = stagingTarget;
    stagingTarget.reset();
    bool ok = emitVectorRow(
        lbs, ubs, {stagingRow}, {stageIndex},
        [](OpBuilder &, Location, ValueRange loaded) { return loaded[0]; },
        getDestTarget(), /*copiedFrom=*/x.cst(0));
    (void)ok;
    assert(ok && "the staging row is contiguous");
    stagingTarget = saved;
  }
  void prepareVectorization();
  /// A cache-resident row of `size` elements (alloca, 64-byte aligned).
  Value getStagingRow(int64_t size) {
    if (!stagingRow) {
      OpBuilder::InsertionGuard guard(x.b);
      if (allocaBlock)
        x.b.setInsertionPointToStart(allocaBlock);
      else
        x.b.setInsertionPointAfterValue(destView);
      auto type = MemRefType::get(
          {size}, cast<MemRefType>(destView.getType()).getElementType());
      stagingRow =
          memref::AllocaOp::create(x.b, x.loc, type, x.b.getI64IntegerAttr(64));
    }
    return stagingRow;
  }
  RowTarget getDestTarget();
  void prepareRealign();
  /// The edges of one realigned segment [lo, hi) (lo = 0) whose row starts
  /// at byte address `row`: `m` elements of the straddling vector before
  /// lo, `d` after the last aligned position; whether the head is the
  /// whole straddling vector, and whether the tail is left to the next
  /// segment (the same condition, seen from the other side).
  struct RealignedEdges {
    AffineExpr m, d, prevFlat, headFlat;
    Value headWhole, tailLeft;
  };
  RealignedEdges getRealignedEdges(AffineExpr lo, AffineExpr hi, AffineExpr row,
                                   ArrayRef<IndexFns> sourceIndex);
  /// The straddling vector at lo - m: lanes < m from the previous segment,
  /// the others from this one; one aligned streaming store.
  void emitRealignedHead(const RealignedEdges &edges, AffineExpr lo,
                         const RowTarget &target);
  /// lane < count, as a vector of i1 (arith and vector.broadcast only,
  /// which every LLVM lowering converts).
  Value lanesBelow(Value count);
  std::optional<SmallVector<RowRead>>
  classifyRowSources(ArrayRef<Value> views, ArrayRef<IndexFns> sourceIndex);
  /// `copiedFrom`: the row is a copy (of the staging row) whose target
  /// elements from this position up to the range are already written, so
  /// overlapping edge vectors (LoopEmitOptions::maskedEdges = false) may
  /// start there.
  bool emitVectorRow(ArrayRef<AffineExpr> lbs, ArrayRef<AffineExpr> ubs,
                     ArrayRef<Value> views, ArrayRef<IndexFns> sourceIndex,
                     ElementFn f, const RowTarget &target,
                     std::optional<AffineExpr> copiedFrom = std::nullopt);
  /// Destination rows are peeled to this many bytes: the vector, or for
  /// streaming stores with unmasked edges a whole 64-byte line (no line is
  /// written both by a cached edge and by streaming stores).
  int64_t peelBytes(bool nontemporalTarget) const {
    return getPeelBytes(options.vectorBytes, options.maskedEdges,
                        nontemporalTarget);
  }
  void emitElement(ArrayRef<AffineExpr> destIndex,
                   ArrayRef<SmallVector<AffineExpr>> sourceIndices);
};

} // namespace mlir::layout::loops

#endif // LAYOUT_LIB_DIALECT_LAYOUT_UTILS_NESTEMITTER_H
