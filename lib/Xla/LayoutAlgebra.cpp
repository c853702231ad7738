//===- LayoutAlgebra.cpp - Relayouts as slot maps, classified -------------===//
//
// Semantics: docs/semantics.md §3; the algebra: docs/algebra.md.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/LayoutAlgebra.h"
#include "layout/Xla/BufferBytes.h"
#include "layout/Xla/ElementGroups.h"
#include "layout/Xla/LayoutCanonical.h"
#include "layout/Xla/StagingLayout.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::layout;
using llvm::SmallVector;

llvm::Expected<SmallVector<int64_t>>
mlir::layout::composeRelayout(const Shape &source, const Shape &dest) {
  if (!source.isArray() || !dest.isArray())
    return makeError("a relayout needs two array shapes, got " +
                     printShape(source) + " and " + printShape(dest));
  if (source.getElementType() != dest.getElementType() ||
      source.getDims() != dest.getDims())
    return makeError("a relayout needs the same dims and element type, got " +
                     printShape(source) + " and " + printShape(dest));
  llvm::Expected<TiledLayoutMap> src = TiledLayoutMap::get(source);
  if (!src)
    return src.takeError();
  llvm::Expected<TiledLayoutMap> dst = TiledLayoutMap::get(dest);
  if (!dst)
    return dst.takeError();
  int64_t slots = dst->getPhysicalElementCount();
  if (slots > kMaxPlannedSlots)
    return makeError(printShape(dest) + " has " + llvm::Twine(slots) +
                     " slots; the planner materializes at most " +
                     llvm::Twine(kMaxPlannedSlots));
  SmallVector<int64_t> map(slots, kPaddingSlot);
  for (int64_t slot = 0; slot < slots; ++slot)
    if (std::optional<SmallVector<int64_t, 6>> e = dst->logicalIndex(slot))
      map[slot] = src->linearIndex(*e);
  return map;
}

llvm::StringRef mlir::layout::relayoutClassName(RelayoutClass cls) {
  switch (cls) {
  case RelayoutClass::Bitcast:
    return "bitcast";
  case RelayoutClass::ChunkCopy:
    return "chunk-copy";
  case RelayoutClass::InTileTranspose:
    return "in-tile-transpose";
  case RelayoutClass::Interleave:
    return "interleave";
  case RelayoutClass::StridedGather:
    return "strided-gather";
  }
  llvm_unreachable("unknown relayout class");
}

namespace {
/// The shortest run of elements: consecutive destination slots reading
/// consecutive source slots; 0 without elements.
int64_t shortestRun(llvm::ArrayRef<int64_t> map) {
  int64_t shortest = 0, length = 0;
  auto close = [&] {
    if (length)
      shortest = shortest ? std::min(shortest, length) : length;
    length = 0;
  };
  for (size_t i = 0; i < map.size(); ++i) {
    if (map[i] == kPaddingSlot) {
      close();
      continue;
    }
    if (length && map[i] != map[i - 1] + 1)
      close();
    ++length;
  }
  close();
  return shortest;
}

/// CuTe's max_common_vector over the slot map.
int64_t commonVector(llvm::ArrayRef<int64_t> map) {
  int64_t n = static_cast<int64_t>(map.size());
  int64_t best = 1;
  for (int64_t v = 2; v <= n && n % v == 0; v *= 2) {
    bool ok = true;
    for (int64_t g = 0; g < n && ok; g += v) {
      bool padding = map[g] == kPaddingSlot;
      if (!padding && map[g] % v != 0)
        ok = false;
      for (int64_t i = 1; i < v && ok; ++i)
        ok = padding ? map[g + i] == kPaddingSlot : map[g + i] == map[g] + i;
    }
    if (!ok)
      break;
    best = v;
  }
  return best;
}

/// Every destination row (`rowLength` slots) reads the source with one
/// constant stride other than 1 inside each aligned block of `block` slots
/// (padding slots end the row's elements); the strides of different blocks
/// may differ. Blocks shorter than the row must read the source at least
/// `block` apart: a block's source rows hold a whole block each (a block x
/// block transpose), not interleaved pairs (the (2,1) sub-tiles of bf16
/// read at stride 2: a de-interleave).
bool isBlockTranspose(llvm::ArrayRef<int64_t> map, int64_t rowLength,
                      int64_t block) {
  if (rowLength < 2 || block < 2)
    return false;
  bool sawStride = false;
  for (size_t row = 0; row + rowLength <= map.size(); row += rowLength) {
    std::optional<int64_t> stride;
    for (int64_t i = 1; i < rowLength; ++i) {
      if (i % block == 0) {
        stride.reset();
        continue;
      }
      int64_t a = map[row + i - 1], b = map[row + i];
      if (a == kPaddingSlot || b == kPaddingSlot)
        continue;
      int64_t s = b - a;
      if (s == 1 || (stride && s != *stride) ||
          (block < rowLength && std::abs(s) < block))
        return false;
      stride = s;
      sawStride = true;
    }
  }
  return sawStride;
}

/// The largest block (the whole row, else a power of two from 64 down to
/// 4) inside which every destination row reads the source with one stride
/// other than 1, or 0. Rows that read a tiled source cross into the next
/// tile row every tile height: T(8,128) -> {0,1} rows have one stride only
/// within aligned blocks of 8 (the lowering's blocks within tiles,
/// TransposeBlocks.cpp).
int64_t getTransposeBlock(llvm::ArrayRef<int64_t> map, int64_t rowLength) {
  if (isBlockTranspose(map, rowLength, rowLength))
    return rowLength;
  for (int64_t block = 64; block >= 4; block /= 2)
    if (block < rowLength && isBlockTranspose(map, rowLength, block))
      return block;
  return 0;
}

/// Every aligned block of k * block destination slots interleaves k source
/// runs of `block` elements: slot i * k + l reads base_l + i (padding slots
/// read nothing), each lane of a block with elements holding at least half
/// the block (a tile mostly padding, f32[2,3] in T(8,128), interleaves
/// nothing). Rows in (2,1)/(4,1) sub-tiles from rows or tiles.
bool isInterleave(llvm::ArrayRef<int64_t> map, int64_t k, int64_t block) {
  int64_t span = k * block;
  int64_t n = static_cast<int64_t>(map.size());
  if (n == 0 || n % span != 0)
    return false;
  bool sawElement = false;
  for (int64_t start = 0; start < n; start += span) {
    for (int64_t lane = 0; lane < k; ++lane) {
      std::optional<int64_t> base;
      int64_t count = 0;
      for (int64_t i = 0; i < block; ++i) {
        int64_t from = map[start + i * k + lane];
        if (from == kPaddingSlot)
          continue;
        if (base && from != *base + i)
          return false;
        base = from - i;
        ++count;
        sawElement = true;
      }
      if (count && 2 * count < block)
        return false;
    }
  }
  return sawElement;
}

/// Every destination row (`rowLength` slots) reads the source at stride k
/// inside each aligned block of `block` slots from the row's start (padding
/// slots read nothing): k interleaved source rows split, (2,1)/(4,1)
/// sub-tiles into rows.
bool isDeinterleave(llvm::ArrayRef<int64_t> map, int64_t rowLength, int64_t k,
                    int64_t block) {
  if (rowLength < 2)
    return false;
  bool sawStride = false;
  for (size_t row = 0; row + rowLength <= map.size(); row += rowLength) {
    for (int64_t i = 1; i < rowLength; ++i) {
      int64_t a = map[row + i - 1], b = map[row + i];
      if (i % block == 0 || a == kPaddingSlot || b == kPaddingSlot)
        continue;
      if (b - a != k)
        return false;
      sawStride = true;
    }
  }
  return sawStride;
}

/// The interleave of a relayout: the lane count k (2 or 4) and the largest
/// block (a power of two from 128 down to 4; down to 8 for the rows read at
/// stride k: 4 x 4 tiles read across are transposes) for which isInterleave
/// or, over the destination rows, isDeinterleave holds; k = 0 if neither.
struct InterleaveForm {
  int64_t k = 0, block = 0;
  bool split = false;
};
InterleaveForm getInterleave(llvm::ArrayRef<int64_t> map, int64_t rowLength) {
  for (int64_t k : {2, 4})
    for (int64_t block = 128; block >= 4; block /= 2) {
      if (isInterleave(map, k, block))
        return {k, block, false};
      if (block >= 8 && block <= rowLength &&
          isDeinterleave(map, rowLength, k, block))
        return {k, block, true};
    }
  return {};
}
} // namespace

/// The class and explanation of a relayout whose byte orders cross (no
/// view, no repacking, no element groups, no chunk copy): staged through a
/// sub-tiled layout, interleaved runs, a transpose within blocks, an
/// interleave, or element by element, in the order the lowering tries its
/// kernels. Fills `plan.cls`, `plan.explanation` and `plan.staging`.
static llvm::Error classifyCrossing(const Shape &source, const Shape &dest,
                                    llvm::ArrayRef<int64_t> map,
                                    int64_t rowLength,
                                    const std::string &runText,
                                    int64_t chunkBytes, RelayoutPlan &plan) {
  // Sub-tiles read at stride k also pass as transposes within blocks of k:
  // an interleave names their kernels (shuffles of k rows); transposes of
  // whole rows stay transposes.
  // (Computed only for the pairs that get that far.)
  std::optional<InterleaveForm> interleave;
  auto getInterleaveForm = [&]() -> const InterleaveForm & {
    if (!interleave)
      interleave = getInterleave(map, rowLength);
    return *interleave;
  };
  if (std::optional<Layout> staging = getStagingLayout(source, dest)) {
    // The lowering takes two kernels through the staging layout
    // (StagedRelayout.cpp), after the element groups and before any other
    // kernel: the plan is theirs, the class the one of the step that
    // crosses the byte orders.
    Shape middle = dest;
    middle.setLayout(*staging);
    llvm::Expected<RelayoutPlan> first =
        planRelayout(source, middle, chunkBytes);
    if (!first)
      return first.takeError();
    llvm::Expected<RelayoutPlan> second =
        planRelayout(middle, dest, chunkBytes);
    if (!second)
      return second.takeError();
    auto crosses = [](RelayoutClass cls) {
      return cls == RelayoutClass::InTileTranspose ||
             cls == RelayoutClass::StridedGather;
    };
    plan.cls =
        crosses(first->cls) || !crosses(second->cls) ? first->cls : second->cls;
    plan.staging = *staging;
    plan.explanation = "two relayouts through " + printLayout(*staging) +
                       " (the sub-tiled layout without its last tile): " +
                       relayoutClassName(first->cls).str() + ", then " +
                       relayoutClassName(second->cls).str();
  } else if (int64_t runs = getInterleavedRuns(source, dest)) {
    // The lowering's blocked transpose of interleaved runs
    // (TransposeBlocks.cpp): not a one-stride row, still a transpose.
    plan.cls = RelayoutClass::InTileTranspose;
    plan.explanation =
        "each destination row of " + std::to_string(rowLength) +
        " slots reads the source's (" + std::to_string(runs) +
        ",1) sub-tiles across runs of " + std::to_string(runs) +
        " rows: a 2-D transpose inside tiles, each run one vector picked "
        "apart by vector shuffles";
  } else if (int64_t runs = getInterleavedStores(source, dest)) {
    // The lowering's blocked transpose of the tiles without the sub-tile,
    // each run of rows stored interleaved (InterleavedStoreBlocks.cpp).
    plan.cls = RelayoutClass::InTileTranspose;
    plan.explanation =
        "the rows of the tiles without the (" + std::to_string(runs) +
        ",1) sub-tile read the source with one stride: a 2-D transpose "
        "inside tiles, each run of " +
        std::to_string(runs) +
        " of its rows stored interleaved as one vector (vector shuffles)";
  } else if (int64_t block = getTransposeBlock(map, rowLength);
             block && (block == rowLength || !getInterleaveForm().k)) {
    plan.cls = RelayoutClass::InTileTranspose;
    plan.explanation = "each destination row of " + std::to_string(rowLength) +
                       " slots reads the source with one stride" +
                       (block == rowLength ? std::string()
                                           : " within aligned blocks of " +
                                                 std::to_string(block)) +
                       ": a 2-D transpose inside tiles (vector shuffles)";
  } else if (const InterleaveForm &form = getInterleaveForm(); form.k) {
    plan.cls = RelayoutClass::Interleave;
    std::string k = std::to_string(form.k), block = std::to_string(form.block);
    plan.explanation =
        form.split
            ? "each destination row of " + std::to_string(rowLength) +
                  " slots reads the source at stride " + k +
                  " within aligned blocks of " + block + ": " + k +
                  " interleaved source rows split in registers (vector "
                  "shuffles)"
            : "each aligned block of " + std::to_string(form.k * form.block) +
                  " destination slots interleaves " + k + " source runs of " +
                  block +
                  " elements: rows interleaved in registers (vector "
                  "shuffles)";
  } else {
    plan.cls = RelayoutClass::StridedGather;
    plan.explanation =
        "contiguous runs of " + runText + " at the shortest, under the " +
        std::to_string(chunkBytes) +
        "-byte chunk, and destination rows that do not read one stride: "
        "element by element";
  }
  return llvm::Error::success();
}

static constexpr const char *kBitcastExplanation =
    "same bytes in the same order: a view, no data moves";

/// The plan of a bitcast too large to materialize, without padding slots:
/// sameByteOrder decides separable layouts at any size (LayoutCanonical.h),
/// and the identity map's runs and vectors follow from the slot count.
/// std::nullopt for anything else (the map decides).
static std::optional<RelayoutPlan> planLargeBitcast(const Shape &source,
                                                    const Shape &dest) {
  llvm::Expected<TiledLayoutMap> dst = TiledLayoutMap::get(dest);
  if (!dst) {
    llvm::consumeError(dst.takeError());
    return std::nullopt;
  }
  int64_t slots = dst->getPhysicalElementCount();
  if (slots <= kMaxPlannedSlots || dst->mayHavePaddingSlots())
    return std::nullopt;
  llvm::Expected<bool> same = sameByteOrder(source, dest);
  if (!same) {
    llvm::consumeError(same.takeError());
    return std::nullopt;
  }
  if (!*same)
    return std::nullopt;
  RelayoutPlan plan;
  plan.cls = RelayoutClass::Bitcast;
  // One run of every element; the largest power of two dividing the count
  // (commonVector of the identity).
  plan.runElements = slots;
  plan.vectorElements = slots & -slots;
  plan.bytesMoved = 0;
  plan.explanation = kBitcastExplanation;
  return plan;
}

llvm::Expected<RelayoutPlan> mlir::layout::planRelayout(const Shape &source,
                                                        const Shape &dest,
                                                        int64_t chunkBytes) {
  if (std::optional<RelayoutPlan> bitcast = planLargeBitcast(source, dest))
    return *bitcast;
  llvm::Expected<SmallVector<int64_t>> map = composeRelayout(source, dest);
  if (!map)
    return map.takeError();
  llvm::Expected<TiledLayoutMap> src = TiledLayoutMap::get(source);
  llvm::Expected<TiledLayoutMap> dst = TiledLayoutMap::get(dest);
  if (!src || !dst) // Both were built by composeRelayout.
    return makeError("unreachable: layouts validated by composeRelayout");
  RelayoutPlan plan;
  int64_t bits = storedElementBits(dest);
  plan.runElements = shortestRun(*map);
  plan.vectorElements = commonVector(*map);
  plan.bytesMoved = dst->getAllocatedBytes();
  bool identity = true;
  for (auto [slot, from] : llvm::enumerate(*map))
    if (from != kPaddingSlot && from != static_cast<int64_t>(slot))
      identity = false;
  // Same bits, memory space, counts and written padding (BufferBytes.h):
  // with the identity map below, the same bytes.
  bool samePadding = sameBufferFrame(source, *src, dest, *dst);
  if (identity && samePadding) {
    for (int64_t slot = 0; slot < src->getPhysicalElementCount() && identity;
         ++slot)
      identity =
          src->logicalIndex(slot).has_value() == ((*map)[slot] != kPaddingSlot);
  }
  llvm::ArrayRef<int64_t> physical = dst->getPhysicalDims();
  int64_t rowLength = physical.empty() ? 1 : physical.back();
  std::string runText = std::to_string(plan.runElements) + " element" +
                        (plan.runElements == 1 ? "" : "s");
  int64_t sourceBits = storedElementBits(source);
  if (identity && samePadding) {
    plan.cls = RelayoutClass::Bitcast;
    plan.bytesMoved = 0;
    plan.explanation = kBitcastExplanation;
  } else if (sourceBits != bits) {
    // E(n) packing on one side only: no run of source bytes is a run of
    // destination bytes, whatever the element order.
    plan.cls = RelayoutClass::StridedGather;
    plan.explanation =
        "elements change their stored width (" + std::to_string(sourceBits) +
        " -> " + std::to_string(bits) + " bits): each element is repacked";
  } else if (std::optional<GroupedRelayout> groups =
                 groupRelayout(source, dest)) {
    // The lowering moves the groups (GroupedRelayout.cpp): their plan is
    // the kernel's.
    llvm::Expected<RelayoutPlan> inner =
        planRelayout(groups->source.shape, groups->dest.shape, chunkBytes);
    if (!inner)
      return inner.takeError();
    plan.cls = inner->cls;
    plan.groupedElements = groups->k;
    plan.groupedDim = groups->source.dim;
    plan.explanation = std::to_string(groups->k) + " elements along dim " +
                       std::to_string(groups->source.dim) + " in each " +
                       std::to_string(groups->k * bits) +
                       "-bit unit of both layouts, " +
                       "moved as units: " + inner->explanation;
    if (groups->dest.tailSlots > 0)
      plan.explanation += "; the last unit along dim " +
                          std::to_string(groups->dest.dim) + " holds " +
                          std::to_string(groups->dest.tailSlots) +
                          " padding slot(s) of both layouts, written with "
                          "the padding value after";
  } else if (plan.runElements > 0 &&
             static_cast<int64_t>(
                 llvm::divideCeil(plan.runElements * bits, 8)) >= chunkBytes) {
    plan.cls = RelayoutClass::ChunkCopy;
    plan.explanation =
        "contiguous runs of at least " + runText + ": memcpy of the runs";
  } else if (llvm::Error err = classifyCrossing(source, dest, *map, rowLength,
                                                runText, chunkBytes, plan)) {
    return std::move(err);
  }
  return plan;
}

std::optional<RunNest>
mlir::layout::factorRunNest(std::vector<std::array<int64_t, 2>> cur,
                            unsigned maxLevels) {
  RunNest nest;
  if (cur.empty())
    return nest;
  auto delta = [&](size_t i) {
    return std::array<int64_t, 2>{cur[i][0] - cur[i - 1][0],
                                  cur[i][1] - cur[i - 1][1]};
  };
  while (cur.size() > 1) {
    if (nest.levels.size() == maxLevels)
      return std::nullopt;
    size_t m = cur.size();
    std::array<int64_t, 2> step = delta(1);
    size_t n = 2;
    while (n < m && delta(n) == step)
      ++n;
    size_t count = 0;
    for (size_t c = n; c >= 2 && !count; --c) {
      if (m % c)
        continue;
      bool ok = true;
      for (size_t block = 0; ok && block < m; block += c)
        for (size_t i = 1; ok && i < c; ++i)
          ok = delta(block + i) == step;
      if (ok)
        count = c;
    }
    if (!count)
      return std::nullopt;
    nest.levels.push_back({int64_t(count), step});
    std::vector<std::array<int64_t, 2>> next;
    next.reserve(m / count);
    for (size_t i = 0; i < m; i += count)
      next.push_back(cur[i]);
    cur = std::move(next);
  }
  nest.base = cur[0];
  return nest;
}
