//===- NestState.h - What a loop nest's kernels share -----------*- C++ -*-===//
//
// The state of one loop nest (NestEmitter.h): its plan (the walk and the
// parallel level, decided before any loop is built), the destination and
// source views with their physical index expressions over the nest's
// placeholders, the bound checks, the row vectorization facts and the
// state of the level being built (streams, staging row, realignment). The
// kernels (NestKernel.h) read it; prepare() and the level walk write it.
// Private to lib/Dialect/Layout/Utils.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_DIALECT_LAYOUT_UTILS_NESTSTATE_H
#define LAYOUT_LIB_DIALECT_LAYOUT_UTILS_NESTSTATE_H

#include "IndexExprs.h"

#include "layout/Dialect/Layout/Utils/NestKernel.h"

#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::layout::loops {

/// What a nest decided about its loops, apart from the IR that builds them:
/// the walk, and the parallel level with its chunk. Kernels answer from it.
struct NestPlan {
  enum class Walk {
    /// The destination's physical dims in order (padding slots written).
    Destination,
    /// The source's physical dims (prepareSourceWalk): checks that fail
    /// skip the slot (source padding) instead of writing the padding value.
    Source,
    /// The destination's physical dims in the source's order
    /// (prepareSourceWalkIntoTiles): placeholders are the levels, destIndex
    /// maps them back.
    SourceIntoTiles,
    /// The affine nest of the runs of a tiled -> tiled copy (RunWalk.cpp),
    /// a source walk over flat views.
    Runs,
  };
  Walk walk = Walk::Destination;
  bool walksSource() const { return walk == Walk::Source || walksRuns(); }
  bool walksRuns() const { return walk == Walk::Runs; }
  bool reordersDest() const { return walk == Walk::SourceIntoTiles; }
  /// Every run of the run walk starts and ends on a 64-byte boundary.
  bool runsWholeLines = false;
  /// The physical dim whose loops are parallel (-1: none) and the
  /// iterations of one parallel chunk (ParallelNest.cpp).
  int parallelLevel = -1;
  int64_t parallelChunk = 1;
  /// The chunks are single iterations that may meet inside a destination
  /// line (getLevelGranule, layout/Xla/KernelPlan.h); a blocked transpose
  /// at the parallel level itself cuts its own chunks of whole lines.
  bool midLineChunks = false;
};

/// What a kernel offered a level built: nothing (the level tries its next
/// strategy), the whole level, or the level with a fallback left to the
/// caller: the plain loops of the same level, at `fallbackAt` (for example
/// the misaligned branch of an interleaved row). A kernel never re-enters
/// the level walk itself.
struct KernelOutcome {
  bool taken = false;
  std::optional<OpBuilder::InsertPoint> fallbackAt;
  static KernelOutcome notTaken() { return {}; }
  static KernelOutcome done() { return {true, std::nullopt}; }
  static KernelOutcome withFallback(OpBuilder::InsertPoint at) {
    return {true, at};
  }
};

struct NestState {
  NestState(IndexExprs &x, const ElementFunction &element,
            const LoopEmitOptions &options)
      : x(x), fn(element.fn), vectorizableFn(element.vectorizable),
        copiesElements(element.copiesElements), options(options) {}

  struct Check {
    AffineExpr value;
    AffineExpr bound;
    LinearForm form;
  };
  struct Source {
    Value view;
    std::optional<TiledLayoutMap> map;
    SmallVector<int64_t> dimMap;
    SmallVector<AffineExpr> index; // physical, over the placeholders
  };

  IndexExprs &x;
  ElementFn fn;
  /// The facts of `fn` (ElementFunction).
  bool vectorizableFn, copiesElements;
  LoopEmitOptions options;
  Value destView, destMemRef;
  /// Vectorization of the rows (see LoopEmitOptions): lanes per vector (0:
  /// scalar rows), the destination's aligned pointer, its row strides
  /// (elements) and element size (bytes), non-temporal stores.
  int64_t lanes = 0, elementBytes = 0;
  AffineExpr destPointer;
  SmallVector<int64_t> destStrides;
  bool nontemporal = false;
  SmallVector<AffineExpr> placeholders, physSizes, logical;
  /// The destination view's index over the placeholders: the placeholders
  /// themselves, or (a source walk) the destination's physical index as an
  /// affine function of the source's.
  SmallVector<AffineExpr> destIndex;
  /// Interleaved stores (InterleavedStoreBlocks.cpp): while a blocked
  /// transpose builds the rows of a `(q,1)` sub-tiled destination's tiles
  /// without the sub-tile (the nest rewritten so), q; the destination's
  /// last three dims (column, row in the run, the sub-tile's one slot) hold
  /// each run of q rows in q consecutive slots. 0 otherwise.
  int64_t interleavedStores = 0;
  SmallVector<Check> checks;
  SmallVector<AffineExpr> nonLinearChecks; // value - bound, valid if < 0
  SmallVector<Source, 2> sources;
  Value padValue;
  /// Two memory streams (NestEmitter::emitTwoStreams): the outermost loop's
  /// IV and the offset h of its twin while the inner levels are built.
  Value jamIv;
  int64_t jamOffset = 0;
  /// Where per-thread allocations (staging rows) go: the start of the
  /// enclosing parallel chunk's body, or (null) after the destination view.
  Block *allocaBlock = nullptr;
  /// Where a vectorized row goes: the destination, or a staging row.
  struct RowTarget {
    Value memref;
    /// Byte address of the target element at p = 0.
    AffineExpr rowAddress;
    /// The target index with p bound.
    std::function<SmallVector<AffineExpr>()> index;
    bool nontemporal;
    /// No alignment peeling (a cache-resident target): vectors from the
    /// start of the range, a masked tail.
    bool unpeeled = false;
  };
  std::optional<RowTarget> stagingTarget;
  Value stagingRow;
  /// Realigned segments (RealignedRows.cpp): in a source walk from a tiled
  /// source whose segments (source rows, each a run of the destination row)
  /// land at destination addresses that are not vector-aligned, the vector
  /// that straddles two segments of one destination row is written once,
  /// whole and streaming, by the second segment (its head: the first
  /// segment's last elements and its own first ones), instead of as a
  /// masked tail and a masked head by cached stores.
  struct Realign {
    /// The logical dim that moves along the row (by one).
    int64_t movingDim;
    /// The source's flat view (built at the first realigned row).
    Value flatSource;
  };
  std::optional<Realign> realign;
  /// Whether a non-temporal store was emitted (the nest needs a fence).
  bool usedNontemporal = false;
  /// The kernels emitted (NestKernel.h).
  NestReport report;
  /// The nest's decisions: its walk and its parallel level.
  NestPlan plan;

  /// The parts of the nest a kernel may rewrite to plan over another view
  /// of it (TileRowBlocks.cpp: merged levels, a shifted slot), restored
  /// when the snapshot goes out of scope, whatever happened in between.
  class Snapshot {
  public:
    explicit Snapshot(NestState &state)
        : state(state), physSizes(state.physSizes), destIndex(state.destIndex),
          logical(state.logical), destStrides(state.destStrides),
          checks(state.checks), parallelChunk(state.plan.parallelChunk) {
      for (const Source &s : state.sources)
        sourceIndex.push_back(s.index);
    }
    Snapshot(const Snapshot &) = delete;
    Snapshot &operator=(const Snapshot &) = delete;
    ~Snapshot() {
      state.physSizes = std::move(physSizes);
      state.destIndex = std::move(destIndex);
      state.logical = std::move(logical);
      state.destStrides = std::move(destStrides);
      state.checks = std::move(checks);
      state.plan.parallelChunk = parallelChunk;
      for (auto [s, index] : llvm::zip(state.sources, sourceIndex))
        s.index = std::move(index);
    }

  private:
    NestState &state;
    SmallVector<AffineExpr> physSizes, destIndex, logical;
    SmallVector<int64_t> destStrides;
    SmallVector<Check> checks;
    int64_t parallelChunk;
    SmallVector<SmallVector<AffineExpr>> sourceIndex;
  };
};

} // namespace mlir::layout::loops

#endif // LAYOUT_LIB_DIALECT_LAYOUT_UTILS_NESTSTATE_H
