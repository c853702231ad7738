//===- TransposeBlockKernel.h - The blocked transpose kernel ----*- C++ -*-===//
//
// The kernel behind NestEmitter::emitTransposeBlocks: its plan (block
// geometry, loop order, parallel chunks: TransposeBlockPlanning.cpp;
// realigned rows: RealignedTransposeRows.cpp; flat rows:
// FlatTransposeRows.cpp; staged tiles: StagedTransposeBlocks.cpp; staged
// source lines: StagedSourceLines.cpp; staged destination rows:
// StagedDestinationRows.cpp; interleaved stores:
// InterleavedStoreBlocks.cpp) and its emission, TransposeBlocks.cpp,
// TransposeBlockReads.cpp, TransposeBlockStores.cpp and the same six
// variant files. Private to lib/Dialect/Layout/Utils.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_LIB_DIALECT_LAYOUT_UTILS_TRANSPOSEBLOCKKERNEL_H
#define LAYOUT_LIB_DIALECT_LAYOUT_UTILS_TRANSPOSEBLOCKKERNEL_H

#include "NestEmitter.h"

#include "llvm/ADT/SmallBitVector.h"

#include <optional>

namespace mlir::layout::loops {
/// The blocked transpose of the dims k.. of one nest: plan() checks the
/// copy and fixes the block geometry, the loop order and the parallel
/// chunks without building IR; emit() builds the blocks.
class TransposeBlockKernel {
public:
  /// `mergedRows`: the nest's levels k and `mergedLevel` (r - 1) were
  /// merged into level k (NestEmitter::emitTileRowBlocks: the rows of
  /// consecutive tiles as one p_k, mergedRows of them per tile;
  /// `mergedLevel` is left with one slot).
  TransposeBlockKernel(NestEmitter &e, unsigned k, int64_t mergedRows = 0,
                       unsigned mergedLevel = 0)
      : e(e), x(e.x), b(e.x.b), loc(e.x.loc), k(k),
        r(e.placeholders.size() - 1), mergedRows(mergedRows),
        mergedLevel(mergedLevel) {}
  /// The block side V (after plan()).
  int64_t getSide() const { return v; }
  /// False when the dims k.. are not such a copy (nothing built).
  bool plan(const llvm::SmallBitVector &active);
  void emit();
  /// The kernel's geometry as built (after emit()), for `report-kernels`:
  /// `V x V blocks, W wide, groups of G rows` then the variants taken
  /// (TransposeBlockReport.cpp).
  std::string describe() const;

private:
  using Bounds = std::pair<AffineExpr, AffineExpr>;
  /// Each check left that involves the dims k.. holds on the whole buffer
  /// (a permutation's `l < size`), or is a static bound along p_r alone
  /// (validR) or along p_k alone (validK): the blocks stop there, padding
  /// fills the rest.
  bool checksHoldOnPlane(const llvm::SmallBitVector &active);
  /// The padding columns [sizeR, rowSlots) of the plane's rows p_k in
  /// [start, end) (rows cut by a bound check: checksHoldOnPlane).
  void padRows(AffineExpr start, AffineExpr end, bool alignedRows);
  /// The padding rows [sizeK, kSlots) (p_k cut by a bound check), whole.
  void padKRows(bool alignedRows);
  /// Columns [from, to) of the rows p_k in [start, end): whole vectors of
  /// the padding value, streaming where the blocks stream and the vector
  /// is aligned, the last one overlapping the one before it (fewer slots
  /// than a vector: one by one). With interleaved stores, the runs' slots.
  void padSlots(AffineExpr start, AffineExpr end, int64_t from, int64_t to,
                bool alignedRows);
  /// How each source is read (classifyReads) and the block side V.
  bool planBlock();
  /// Each source's Read; the largest block side the crossing ones allow
  /// (0: any), or nullopt when a source is none of the three.
  std::optional<int64_t> classifyReads();
  /// TransposePlaneFacts::lineStridedRows of the classified reads.
  bool hasLineStridedRows() const;
  /// TransposePlaneFacts::plainRows of the classified reads.
  bool hasPlainRows() const;
  /// The dims r - 1 and r at flat column `column`.
  DenseMap<AffineExpr, AffineExpr> splitFlat(AffineExpr column);
  /// Source n's index at the flat row's column p_r + t (t < width).
  SmallVector<Value> flatRowIndices(unsigned n, int64_t t);
  /// The crossing sources' steps inside blocks of the chosen V.
  bool planAlignedSteps();
  /// Flattened rows (shouldFlattenRows): p_r becomes the flat index f of
  /// the dims r - 1 and r, each source's index reads them as f floordiv
  /// sizeR and f mod sizeR, and the destination is stored through a view
  /// that collapses them. False (nothing changed) when the copy does not
  /// qualify.
  bool planFlatRows(const TransposePlaneFacts &facts);
  /// The blocks side by side along the row (`wide`) and their store size.
  void planWidth();
  void orderMiddleDims();
  void planParallel();
  void emitBlock(bool fullR, bool alignedStores);
  /// Realigned destination rows (TransposeBlockPlan::realignRows): the
  /// shift of each block row's start past a vector boundary, one of at most
  /// kMaxRowShiftCases sets of constants (planRowShifts; false: the rows
  /// take unaligned stores).
  bool planRealign();
  /// An scf.index_switch on `selector` (values 0 .. count - 1, 0 the
  /// default region) with `body(c)` built in case c.
  void emitCases(Value selector, int64_t count,
                 function_ref<void(int64_t)> body);
  /// `body` with each block row's shifts: one scf.index_switch case per
  /// value of the block's first row's shift when they depend on it
  /// (shiftCase).
  void emitShiftCases(function_ref<void(ArrayRef<int64_t>)> body);
  /// Destination row j's index at p_r = `column`.
  SmallVector<Value> destIndices(int64_t j, AffineExpr column);
  /// A cached store of `value` at row j's constant `column` in a realigned
  /// row starting `shift` elements past a line: with masked edges, only
  /// the lanes outside the lines the row streams (a line both streamed and
  /// stored cached is read for ownership and written twice; rows of 63
  /// f32 ran 4x slower than rows of 64 that way). Unmasked: every lane.
  void storeOutsideStream(Value value, int64_t j, int64_t column,
                          int64_t shift);
  /// How many of a block row's `wide` parts each aligned store takes, as
  /// one concatenated vector: all of them for computed 16-bit floats
  /// (AVX-512), the parts of one register (registerParts), or 1.
  int64_t partsPerStore(bool alignedStores);
  /// The parts of one register (blocksPerVector) where streaming rows,
  /// aligned or realigned, store each register whole; 1 where they store
  /// part by part. Only where the register is known to be one (masked
  /// edges: AVX-512, or a known register file): LLVM splits a
  /// non-temporal store wider than the target's registers into element
  /// stores.
  int64_t registerParts() const;
  /// A store of `value` at `indices` of the destination; `aligned`: of
  /// `bytes` alignment, streaming where the kernel streams.
  void storeVector(Value value, ValueRange indices, int64_t bytes,
                   bool aligned);
  /// The destination rows of a block: [source][w][j] the sources' vectors;
  /// `rowShifts` (realigned blocks) each row's shift.
  void storeRows(ArrayRef<SmallVector<SmallVector<Value>>> parts,
                 bool alignedStores, ArrayRef<int64_t> rowShifts);
  /// Interleaved stores (InterleavedStoreBlocks.cpp; storeRuns,
  /// NestState::interleavedStores): the block's rows from writtenRows on,
  /// q at a time (a run: its first row a multiple of q), each part's q row
  /// vectors interleaved (lane q t + u from row u; rows past the block,
  /// past sizeK, the padding value), the parts' runs joined and stored in
  /// vectors of runPiece() slots through destView, the destination with its
  /// last three dims collapsed.
  void storeInterleavedRows(ArrayRef<SmallVector<SmallVector<Value>>> parts,
                            bool alignedStores);
  /// destView's index at the run of block row j (a multiple of q from the
  /// run's first row), `column` of the tiles' rows, plus `offset` slots.
  SmallVector<Value> runIndices(int64_t j, AffineExpr column,
                                AffineExpr offset);
  /// The slots of each interleaved store: a register's (vectorBytes with
  /// masked edges, AVX-512; else at most 32 bytes), at least a block row's,
  /// at most the `wide` parts' runs joined (q x width).
  int64_t runPiece() const;
  /// The alignment (bytes) the aligned variant checks on the destination
  /// and every row (or run) start keeps: storeBytes, or with interleaved
  /// stores also a piece's.
  int64_t getStoreAlignment() const;
  /// Whether every destination row (run) starts on getStoreAlignment().
  bool rowsStartAligned() const;
  /// Destination row j's vectors `row` (at p_r + w V) of a realigned block,
  /// the row starting `shift` elements past a line: the head block stores
  /// them unaligned; later blocks store the aligned vectors that end inside
  /// them, made of the carry's and theirs. Then `row` is the carry.
  void storeRealignedRow(int64_t j, ArrayRef<Value> row, int64_t shift);
  /// Block row j's carry (its last `wide` vectors) in the carry buffer.
  SmallVector<Value> carryIndex(int64_t j, int64_t w);
  /// `vector` as integers of the element's width.
  Value toBits(Value vector);
  SmallVector<Value> loadCarry(int64_t j);
  /// Whether block row j shifts in some set (and keeps a carry).
  bool isCarried(int64_t j);
  /// Junction lines (RealignedTransposeRows.cpp): whether the realigned
  /// rows follow each other in memory (p_k just outside p_r, rows of
  /// sizeR elements back to back) and the target masks stores, so that
  /// the lines between one row's stream and the next's are gathered in the
  /// per-thread `gaps` buffer and streamed whole.
  bool planJunctions();
  /// Whether the destination rows follow each other in memory: p_k just
  /// outside p_r, rows of sizeR elements back to back (no flat rows).
  bool junctionLayout() const;
  /// junctionView: the destination with the (p_k, p_r) dims collapsed.
  void collapseRows();
  /// Staged destination rows (StagedDestinationRows.cpp): where streaming
  /// rows back to back (not `rowsAligned`) take too many sets of row
  /// shifts to realign, each group's blocks store into one half of a
  /// per-thread stage laid out as the destination's lines, streamed out
  /// while the next group fills the other half. May shrink the group (and
  /// drop staged source lines): called before planParallel.
  bool planStagedRows(bool rowsAligned);
  /// Around a group's blocks (groupStart, groupEnd): the blocks' stores go
  /// to the stage; then its partial lines are stored, the previous group's
  /// remaining lines streamed, and the group becomes the pending one.
  void beginStagedGroup();
  void endStagedGroup();
  /// The per-thread stage and pending state (before the kernel's loops).
  void allocateStage();
  /// The pending (previous) group's next `lines` whole lines (all with
  /// nullopt), streamed from the stage.
  void streamPending(std::optional<int64_t> lines);
  /// After a thread's last group: its lines.
  void finishStagedRows();
  /// The pending group's state, slot by slot.
  Value getPending(int64_t slot);
  void setPending(int64_t slot, Value value);
  /// Lines of the pending group streamed after each p_r block.
  int64_t stageLinesPerBlock() const;
  /// `value` (row j's vector at `column`, the row `shift` elements past a
  /// line), the lanes `mask` sets, into the gap before (head) or after
  /// (tail) the row.
  void storeGap(Value value, int64_t j, int64_t column, int64_t shift,
                Value mask);
  /// The group's junction lines, streamed from `gaps` after its blocks;
  /// the first row's head and the last row's tail, which share lines with
  /// rows outside the group, masked and cached.
  void writeJunctions();
  /// The collapsed destination's index at `column` of the (p_k, p_r) dim.
  SmallVector<Value> junctionIndices(AffineExpr column);
  void storeCarry(int64_t j, ArrayRef<Value> row);
  /// The p_r blocks of a plane; `eachK` runs its argument at each p_k
  /// block of the group, `reads` when it reads the sources (blocks; not
  /// the realigned rows' carry flush).
  void rowBlocks(function_ref<void(function_ref<void()>, bool reads)> eachK,
                 bool alignedRows);
  /// One source's vectors of the block: [w][j], destination row j.
  SmallVector<SmallVector<Value>> readBlock(unsigned n, bool fullR);
  /// Row `row` (of the `wide` parts' rows) of an interleaved source's
  /// block (SourceRead::interleave): lanes u, u + q, ... of its run's
  /// vector, loaded (and prefetched ahead) once per block (runs).
  Value readInterleavedRow(unsigned n, int64_t row, bool fullR);
  /// The runs' vectors of the block being read, by the run's first row.
  DenseMap<int64_t, Value> runs;
  void prefetchRow(unsigned n, int64_t row);
  void prefetchAlongRow(unsigned n, int64_t row, int64_t ahead);
  /// The p_k rows past the last whole block when p_k is contiguous only
  /// within aligned blocks (alignedK): element by element.
  void edgeKRows();
  void blockLoop(AffineExpr slot, int64_t size, int64_t step,
                 function_ref<void(bool full)> body);
  void groupedBlocks(AffineExpr start, AffineExpr end, bool alignedRows);
  void edgeKBlock(bool alignedRows);
  void emitPlanes(function_ref<void()> kBlocks,
                  std::optional<Bounds> firstMiddle = std::nullopt);
  void allKBlocks(bool alignedRows);
  Bounds chunkBounds(AffineExpr c, int64_t size, int64_t count, int64_t total);
  void emitBlocks(bool alignedRows);
  Value allocateBuffer(int64_t rows, int64_t columns, Type element = {});
  /// Staged tiles (StagedTransposeBlocks.cpp): planned when some sources
  /// take blocks and others rows, the per-thread buffers of the Block
  /// sources, and the tiles of p_k in [start, end) of a plane.
  bool planStaged();
  void makeStages();
  /// Staged source lines (StagedSourceLines.cpp; planned:
  /// TransposeBlockPlan::lineStageBytes): the p_k blocks of [g0, min(g0 +
  /// group, end)) span by span, each span's copy of the block's source
  /// rows, and a block row's vector read from the buffer.
  void spanBlocks(AffineExpr g0, AffineExpr end, function_ref<void()> block);
  void copyLines(AffineExpr start);
  /// Prefetches into L2 the line the copy of staged row `row` reads at p_k
  /// = `at`, linePrefetchRows rows further along p_r (clamped).
  void prefetchLineAhead(AffineExpr row, AffineExpr at);
  Value readStagedLine(VectorType vectorType, int64_t row);
  void stagedPlane(AffineExpr start, AffineExpr end, bool alignedRows);

  NestEmitter &e;
  IndexExprs &x;
  OpBuilder &b;
  Location loc;
  unsigned k, r;
  /// Interleaved stores of runs of this many rows (0: none): see
  /// storeInterleavedRows.
  int64_t storeRuns = 0;
  /// Merged tile rows (see the constructor): the stores index the
  /// destination through its index expressions (p_k floordiv mergedRows,
  /// p_k mod mergedRows), not by level; no flat rows, realigned rows or
  /// staged tiles.
  int64_t mergedRows = 0;
  unsigned mergedLevel = 0;
  /// How a source is read per block: a crossing source as V vectors along
  /// p_k transposed in registers (Block), a source contiguous along the
  /// row as one vector per destination row (Row), a source constant along
  /// the row as one element per destination row, broadcast (Splat). An
  /// elementwise op with a transposed operand: the transposed operand
  /// takes blocks, the others rows or splats.
  enum class Read { Block, Row, Splat };
  struct SourceRead {
    Read kind = Read::Block;
    /// Blocks: the steps hold only inside aligned V blocks (a tiled
    /// source) along p_k / p_r; `stepsR` are those along p_r, or when the
    /// block's rows cross the source's tiles (rows of T(8,128) in blocks of
    /// 32), `offsetsR` each row's constant offset [t][dim] from the
    /// block's first (getAlignedOffsets).
    bool alignedK = false, alignedR = false;
    /// Runs of `interleave` rows in consecutive slots (a `(q,1)` sub-tile,
    /// getInterleave in TransposeBlockReads.cpp): each run is one vector of
    /// q V slots of the source's flat view (`flatView`, made by emit()),
    /// its rows picked by shuffles (readInterleavedRow); the steps hold
    /// inside aligned blocks (alignedK, alignedR, offsetsR). 1: rows of
    /// their own.
    int64_t interleave = 1;
    Value flatView;
    std::optional<SmallVector<int64_t>> globalK, globalR;
    SmallVector<int64_t> stepsR;
    SmallVector<SmallVector<int64_t>, 0> offsetsR;
  };
  SmallVector<SourceRead> reads;
  /// The destination view the blocks store to: the nest's, or with flat
  /// rows its collapse of the dims r - 1 and r (built by emit()).
  Value destView;
  /// Flat rows: p_r is the flat index over the dims r - 1 (pm) and r, and
  /// the row's outer neighbour is the dim r - 2 (rowOuter; else r - 1).
  bool flatRows = false;
  AffineExpr pm;
  /// Flat rows: the destination row's extent (sizeR is the flat one), and
  /// the current block's first column as (row, offset) in the dims r - 1
  /// and r (rows at least a block row wide: flatRowIndices).
  int64_t flatRowSize = 0;
  Value flatQuotient, flatRem;
  unsigned rowOuter = 0;
  /// The first crossing source (the middle dims follow its strides).
  const NestEmitter::Source *s = nullptr;
  MemRefType viewType;
  AffineExpr pk, pr;
  int64_t v = 0, sizeK = 0, sizeR = 0, wide = 1, width = 0, storeBytes = 0;
  /// The `wide` blocks transposed side by side in vectors of this many
  /// blocks (planWidth; transposeSideBySide).
  int64_t blocksPerVector = 1;
  /// Rows cut by a bound check (a tile partly outside the array): the
  /// check's bound in slots (validR), and then the row's extent (rowSlots;
  /// sizeR is the valid part, the blocks' row). 0: whole rows.
  std::optional<int64_t> validR;
  int64_t rowSlots = 0;
  /// The same along p_k (the last tile row partly outside the array): the
  /// bound (validK), then p_k's extent (kSlots; sizeK is the valid part).
  std::optional<int64_t> validK;
  int64_t kSlots = 0;
  int64_t group = 0, prefetchRows = 0, rowPrefetch = 0;
  /// TransposeBlockPlan::wrapPrefetch.
  bool wrapPrefetch = false;
  /// Realigned rows: planned (realignRows), and while the realigned
  /// variant is built (realigning) the shifts, the per-thread carry buffer
  /// (group x W), the current group's first p_k and the part of the row
  /// being built (Head: p_r = 0; Body: the aligned vectors after it;
  /// Edge: the overlapping last block).
  bool realignRows = false, realigning = false;
  /// The realigned variant was built (for aligned buffers; describe()).
  bool realigned = false;
  /// planRealign found more sets of row shifts than kMaxRowShiftCases.
  bool tooManyRowShifts = false;
  /// Staged destination rows: planned (stagedRowsPlanned), being built
  /// (stagedRows), built (describe()), inside a group (staging: destView is
  /// the stage); the per-thread stage (2 x (group sizeR + W) elements,
  /// rounded to whole lines), the pending group's state, the group's
  /// first row's shift and half, the destination's own view.
  bool stagedRowsPlanned = false, stagedRows = false, stagedRowsBuilt = false,
       staging = false;
  Value stage, realDestView, pendingStage;
  AffineExpr stageShift, stageHalf;
  static constexpr int64_t kPendingOuter = 4;
  /// Each block row's shift, per value of the block's first row's shift
  /// (one set when it is constant), and the index of the set at the
  /// current block (null with one set).
  SmallVector<SmallVector<int64_t>> shifts;
  AffineExpr shiftCase;
  Value carry;
  AffineExpr groupStart;
  /// Junction lines: planned, the destination's flat index (placeholders),
  /// the gaps buffer ((group + 1) x 4W: slot i + 1 holds the gap after the
  /// group's row i, from element W), the collapsed destination and the
  /// current group's end.
  bool junctions = false;
  AffineExpr destFlat;
  Value gaps, junctionView;
  AffineExpr groupEnd;
  enum class Part { Head, Body, Edge };
  std::optional<Part> part;
  /// Some crossing source is contiguous along p_k only inside aligned V
  /// blocks: the rows past the last whole block go element by element.
  bool alignedK = false;
  Type elementType;
  /// The overlapping last p_k block: its first rows, already stored by the
  /// last full block, are not stored again.
  int64_t writtenRows = 0;
  SmallVector<unsigned> middle;
  int64_t middleChunk = 0, middleChunks = 0, chunkRows = 0, chunks = 0;
  /// Parallel chunks along p_r instead (planParallel: p_k chunks would
  /// read less than a source line per row visit, or cut a flat row's
  /// group): columnChunks chunks of chunkColumns columns (a multiple of W)
  /// over the row's full blocks, the last one also taking the remainder
  /// (or shorter) and the overlapping edge block; while one is built, its
  /// bounds.
  int64_t chunkColumns = 0, columnChunks = 0;
  std::optional<Bounds> columnRange;
  /// In a column chunk of a row with an edge block: whether it is the last
  /// chunk (i1; null otherwise).
  Value lastColumnChunk;
  /// Whether parallel chunk `chunk` (an index) is the last of `count`.
  Value isLastChunk(Value chunk, int64_t count);
  /// `body` under an scf.if on `condition`, or in place when it is null
  /// (lastColumnChunk without column chunks).
  void emitIf(Value condition, function_ref<void()> body);
  /// While a realigned row's head or carry is stored: the offset of its
  /// columns from those of a whole row's (storeOutsideStream): a column
  /// chunk's first column for its head, its end minus the row's full
  /// blocks for its carry; 0 or null otherwise.
  AffineExpr columnOrigin;
  /// The p_r blocks of the rows at the current p_k: [0, sizeR) in blocks
  /// of W (blockLoop), or the current column chunk's.
  void columnBlocks(function_ref<void(bool full)> body);
  /// Staged tiles: their p_k rows and p_r extent (0: not staged), and per
  /// source its buffer (Block sources) and its vectors' type.
  int64_t stageK = 0, stageR = 0;
  SmallVector<Value> stages;
  SmallVector<Type> stageTypes;
  Block *stagesBlock = nullptr;
  /// Staged source lines: the span in elements (0: not staged), the
  /// per-thread buffer (width x lineSpan) and where it was made (shared
  /// like the stages), the current span's first p_k while its blocks are
  /// built.
  int64_t lineSpan = 0;
  /// TransposeBlockPlan::linePrefetchRows.
  int64_t linePrefetchRows = 0;
  Value lineStage;
  Block *lineStageBlock = nullptr;
  std::optional<AffineExpr> lineStart;
};
} // namespace mlir::layout::loops

#endif // LAYOUT_LIB_DIALECT_LAYOUT_UTILS_TRANSPOSEBLOCKKERNEL_H
