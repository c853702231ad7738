//===- LayoutCanonical.cpp - Canonical layouts and exact bitcasts ---------===//
//
// The byte order of a layout is its index map (TiledLayoutMap, docs/
// semantics.md §3) plus the counts, bits and padding value that make two
// buffers interchangeable; docs/algebra.md explains the canonical forms and
// the exact bitcast queries built on it.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/LayoutCanonical.h"
#include "layout/Xla/BufferBytes.h"
#include "layout/Xla/IndexWalk.h"
#include "layout/Xla/LayoutAlgebra.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <functional>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

/// Calls `fn` on every in-bounds index of `dims` in row-major order (last
/// dim fastest) until it returns false; returns false if `fn` did.
bool forEachIndex(ArrayRef<int64_t> dims,
                  llvm::function_ref<bool(ArrayRef<int64_t>)> fn) {
  for (int64_t d : dims)
    if (d == 0)
      return true;
  SmallVector<int64_t, 6> index(dims.size(), 0);
  do {
    if (!fn(index))
      return false;
  } while (bumpIndices(dims, index));
  return true;
}

/// Errors when `map`'s byte order is too large to materialize (more than
/// kMaxPlannedSlots physical slots).
llvm::Error checkMaterializable(const Shape &shape, const TiledLayoutMap &map,
                                llvm::StringRef what,
                                llvm::StringRef note = "") {
  if (map.getPhysicalElementCount() > kMaxPlannedSlots)
    return makeError(what + ": " + printShape(shape) + " has " +
                     llvm::Twine(map.getPhysicalElementCount()) +
                     " slots; byte orders are materialized up to " +
                     llvm::Twine(kMaxPlannedSlots) + note);
  return llvm::Error::success();
}

/// The map of a shape whose byte order is compared: an array with a dense
/// layout, valid, and (when `bounded`) at most kMaxPlannedSlots physical
/// slots.
llvm::Expected<TiledLayoutMap>
getPlaceableMap(const Shape &shape, llvm::StringRef what, bool bounded = true) {
  if (!shape.isArray() || !shape.hasLayout())
    return makeError(what + " needs an array shape with a layout, got " +
                     printShape(shape));
  const Layout &layout = shape.getLayout();
  if (layout.isSparse() || !layout.getSplitConfigs().empty())
    return makeError(what + ": " + printShape(shape) +
                     " has a sparse layout or split configs, which are not "
                     "the byte order of one buffer");
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  if (!map)
    return map.takeError();
  if (!bounded)
    return map;
  if (llvm::Error err = checkMaterializable(shape, *map, what))
    return std::move(err);
  return map;
}

/// Every element sits at the same slot in `a` and in `b`, b's dim i being
/// a's dim mapping[i] (the identity when `mapping` is empty). Separable maps
/// (TiledLayoutMap::isSeparable: linearIndex(e) = sum_d f_d(e_d), f_d(0) =
/// 0) are compared along each axis only: the difference of two such sums
/// is a sum of one function per dim, zero on the whole box iff zero on
/// every axis. Others element by element.
bool sameElementSlots(const TiledLayoutMap &a, const TiledLayoutMap &b,
                      ArrayRef<int64_t> mapping = {}) {
  ArrayRef<int64_t> dims = a.getLogicalDims();
  SmallVector<int64_t, 6> bIndex(dims.size(), 0);
  auto same = [&](ArrayRef<int64_t> index) {
    for (size_t i = 0; i < index.size(); ++i)
      bIndex[i] = mapping.empty() ? index[i] : index[mapping[i]];
    return a.linearIndex(index) == b.linearIndex(bIndex);
  };
  if (!a.isSeparable() || !b.isSeparable())
    return forEachIndex(dims, same);
  if (llvm::is_contained(dims, 0))
    return true;
  SmallVector<int64_t, 6> index(dims.size(), 0);
  for (size_t d = 0; d < dims.size(); ++d) {
    for (int64_t x = 1; x < dims[d]; ++x) {
      index[d] = x;
      if (!same(index))
        return false;
    }
    index[d] = 0;
  }
  return true;
}

/// The maps of two shapes whose element slots are compared
/// (sameElementSlots): when both are separable, up to kMaxPlannedSlots
/// evaluations along the axes (the sum of the dims: f32[65536,65536] is
/// 131,072), else bounded as getPlaceableMap.
llvm::Error getComparableMaps(const Shape &a, const Shape &b,
                              llvm::StringRef what,
                              std::optional<TiledLayoutMap> &am,
                              std::optional<TiledLayoutMap> &bm) {
  llvm::Expected<TiledLayoutMap> x = getPlaceableMap(a, what, false);
  if (!x)
    return x.takeError();
  llvm::Expected<TiledLayoutMap> y = getPlaceableMap(b, what, false);
  if (!y)
    return y.takeError();
  for (auto [shape, map] : {std::pair{&a, &*x}, std::pair{&b, &*y}}) {
    if (!map->isSeparable()) {
      // The other one cannot be compared along the axes either.
      std::string note = "; " + printShape(*shape) +
                         " combines two dims' indices with `*`, so the "
                         "byte orders are compared element by element";
      if (llvm::Error err = checkMaterializable(a, *x, what, note))
        return err;
      if (llvm::Error err = checkMaterializable(b, *y, what, note))
        return err;
      break;
    }
    int64_t axes = 0;
    for (int64_t d : map->getLogicalDims())
      axes += d;
    if (axes > kMaxPlannedSlots)
      return makeError(what + ": " + printShape(*shape) + " has dims " +
                       "summing to " + llvm::Twine(axes) +
                       "; byte orders are compared along at most " +
                       llvm::Twine(kMaxPlannedSlots) + " axis positions");
  }
  am = std::move(*x);
  bm = std::move(*y);
  return llvm::Error::success();
}

/// The smallest L giving the allocated bytes of `map` with `bits` per slot
/// (on packed types several L give the same bytes).
int64_t smallestTailAlignment(const TiledLayoutMap &map, int64_t bits) {
  int64_t physical = map.getPhysicalElementCount();
  for (int64_t l = 1; l < map.getAllocatedElements(); ++l)
    if (static_cast<int64_t>(llvm::divideCeil(llvm::alignTo(physical, l) * bits,
                                              8)) == map.getAllocatedBytes())
      return l;
  return std::max<int64_t>(1, map.getAllocatedElements());
}

/// E, PV and L in normal form (they do not move elements).
Layout normalizeScalars(const Shape &shape, const TiledLayoutMap &map) {
  Layout layout = shape.getLayout();
  if (layout.getElementSizeInBits() ==
      8 * primitiveTypeByteWidth(shape.getElementType()))
    layout.setElementSizeInBits(0);
  // The padding value as written (BufferBytes.h), none for zero.
  PaddingValue written =
      writtenPaddingValue(shape.getElementType(), layout.getPaddingValue());
  layout.setPaddingValue(map.getPhysicalElementCount() ==
                                     map.getElementCount() ||
                                 written == PaddingValue::Zero
                             ? PaddingValue::Invalid
                             : written);
  layout.setTailPaddingAlignment(
      smallestTailAlignment(map, storedElementBits(shape)));
  return layout;
}

Shape withLayout(const Shape &shape, const Layout &layout) {
  Shape result = shape;
  result.setLayout(layout);
  return result;
}

/// The layout of `shape`'s dims with the byte order of `reference`, if
/// `layout` is valid and has it.
bool keepsByteOrder(const Shape &shape, const Layout &layout,
                    const TiledLayoutMap &reference) {
  Shape candidate = withLayout(shape, layout);
  if (llvm::Error err = validateShape(candidate)) {
    llvm::consumeError(std::move(err));
    return false;
  }
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(candidate);
  if (!map) {
    llvm::consumeError(map.takeError());
    return false;
  }
  return map->getPhysicalElementCount() ==
             reference.getPhysicalElementCount() &&
         map->getAllocatedBytes() == reference.getAllocatedBytes() &&
         sameElementSlots(reference, *map);
}

/// minor_to_major with the dims of `nonUnitMinorFirst` in the slots the
/// default (row-major) layout gives the non-unit dims, unit dims in their
/// default slots.
SmallVector<int64_t, 6> fillDefaultSlots(ArrayRef<int64_t> dims,
                                         ArrayRef<int64_t> nonUnitMinorFirst) {
  int64_t rank = static_cast<int64_t>(dims.size());
  SmallVector<int64_t, 6> m2m;
  size_t next = 0;
  for (int64_t k = 0; k < rank; ++k) {
    int64_t dim = rank - 1 - k;
    m2m.push_back(dims[dim] == 1 ? dim : nonUnitMinorFirst[next++]);
  }
  return m2m;
}

/// Case 1: the layout built from a strided byte order alone, or
/// std::nullopt if the byte order is not strided.
std::optional<Layout> stridedLayout(const Shape &shape,
                                    const TiledLayoutMap &map,
                                    const Layout &scalars) {
  ArrayRef<int64_t> dims = shape.getDims();
  int64_t rank = shape.getRank();
  int64_t physical = map.getPhysicalElementCount();
  Layout layout = scalars;
  layout.mutableTiles().clear();
  layout.mutablePaddedDimensions().clear();
  if (map.getElementCount() == 0 && physical == 0) {
    // No element: every layout of the dims has the same (empty) buffer.
    Layout empty = Layout::getDefault(rank);
    empty.setMemorySpace(scalars.getMemorySpace());
    empty.setElementSizeInBits(scalars.getElementSizeInBits());
    empty.setDynamicShapeMetadataPrefixBytes(
        scalars.getDynamicShapeMetadataPrefixBytes());
    return empty;
  }
  if (map.getElementCount() == 0)
    return std::nullopt; // Legacy padding of a size-0 dim: all padding.
  SmallVector<int64_t, 6> zero(rank, 0);
  if (map.linearIndex(zero) != 0)
    return std::nullopt;
  // Strides of the non-unit dims, read from their unit indices.
  SmallVector<std::pair<int64_t, int64_t>, 6> strides; // (stride, dim)
  for (int64_t d = 0; d < rank; ++d) {
    if (dims[d] == 1)
      continue;
    SmallVector<int64_t, 6> unit(rank, 0);
    unit[d] = 1;
    strides.push_back({map.linearIndex(unit), d});
  }
  llvm::sort(strides);
  // The chain s_{k+1} = s_k * p_k, p_k >= n_k; the last p is physical / s.
  SmallVector<int64_t, 6> padded(dims.begin(), dims.end());
  SmallVector<int64_t, 6> order;
  int64_t current = 1;
  // Slots below the smallest stride (or all slots but the first when every
  // dim is 1) are a unit dim padded minor-most: the last unit dim, or
  // without one a unit dim made by a first tile level (1).
  int64_t firstStride = strides.empty() ? physical : strides.front().first;
  std::optional<int64_t> gap;
  bool virtualGap = false;
  if (firstStride != 1) {
    for (int64_t d = rank - 1; d >= 0 && !gap; --d)
      if (dims[d] == 1)
        gap = d;
    if (gap)
      padded[*gap] = firstStride;
    virtualGap = !gap;
    current = firstStride;
  }
  for (size_t k = 0; k < strides.size(); ++k) {
    auto [stride, dim] = strides[k];
    if (stride != current)
      return std::nullopt;
    int64_t next = k + 1 < strides.size() ? strides[k + 1].first : physical;
    if (next % stride != 0 || next / stride < dims[dim])
      return std::nullopt;
    padded[dim] = next / stride;
    order.push_back(dim);
    current = next;
  }
  SmallVector<int64_t, 6> m2m = fillDefaultSlots(dims, order);
  if (gap) {
    llvm::erase(m2m, *gap);
    m2m.insert(m2m.begin(), *gap);
  }
  layout.mutableMinorToMajor().assign(m2m.begin(), m2m.end());
  // One tile from the major-most padded dim to the minor end.
  SmallVector<int64_t, 6> physicalOrder(m2m.rbegin(), m2m.rend());
  auto firstPadded = llvm::find_if(
      physicalOrder, [&](int64_t d) { return padded[d] != dims[d]; });
  SmallVector<int64_t, 6> tile;
  for (auto it = firstPadded; it != physicalOrder.end(); ++it)
    tile.push_back(padded[*it]);
  if (virtualGap) {
    // (1) appends a unit physical dim; the tile pads it to the gap. A
    // scalar's tile prepends the unit dim itself.
    if (rank > 0)
      layout.mutableTiles().push_back(Tile({1}));
    tile.push_back(firstStride);
  }
  if (!tile.empty())
    layout.mutableTiles().push_back(Tile(tile));
  if (!keepsByteOrder(shape, layout, map))
    return std::nullopt; // Not strided beyond the unit indices.
  return layout;
}

/// digitLayout searches the orders of at most this many dims of size > 1.
constexpr size_t kMaxSearchedDims = 7;

/// One mixed-radix digit of a logical dim in a digit-permutation byte
/// order: `radix` values (the dim's major digit may be partial), stride
/// `stride` slots, padded to `padded` values in the physical chain.
struct Digit {
  int64_t dim;
  int64_t radix;
  int64_t stride;
  int64_t padded = 0;
};

/// The digits (minor first) of the slots `g` of one dim's indices 0..n-1
/// (g(0) = 0): g(i) = sum_k stride_k * digit_k(i) with the digits merged
/// maximally (each run g(i) = i * stride is as long as possible). Appends
/// to `digits`; false if g is not of that form.
bool decomposeDim(int64_t dim, SmallVector<int64_t, 8> g,
                  SmallVector<Digit, 8> &digits) {
  while (g.size() > 1) {
    int64_t n = static_cast<int64_t>(g.size());
    int64_t s = g[1];
    if (s <= 0)
      return false;
    int64_t run = 1;
    while (run < n && g[run] == run * s)
      ++run;
    digits.push_back({dim, std::min(run, n), s});
    if (run == n)
      return true;
    if (run < 2)
      return false;
    SmallVector<int64_t, 8> major;
    for (int64_t i = 0; i < n; ++i) {
      if (g[i] != g[i / run * run] + (i % run) * s)
        return false;
      if (i % run == 0)
        major.push_back(g[i]);
    }
    g = std::move(major);
  }
  return true;
}

/// Case 2a: a byte order that permutes mixed-radix digits of the indices
/// (element e at sum_d g_d(e_d), each g_d a mixed-radix digit map with
/// maximal digits, the digits of all dims one padded stride chain, each
/// dim's digits in order), rebuilt from the byte order alone. The digits,
/// major first, are cut into blocks: a new block starts when the dim does
/// not follow the previous digit's dim in the physical dim order, and a
/// padded digit (chain gap above it) starts at least two blocks after its
/// dim's previous digit (block 0, the tile grid, pads nothing). The dim
/// order (and the owner of the gap below the smallest stride) is the one
/// with the fewest blocks, the first in lexicographic order on ties. Block
/// k > 0 is tile level k; a dim's entry there is its digit's padded count
/// times the entry below, or without a digit the extent used below, so a
/// padded digit is an entry larger than the level above it. Leading 1
/// entries are dropped. Slots below the smallest stride are a radix-1 digit
/// of the last unit dim (moved minor-most), else of the dim with the fewest
/// blocks. std::nullopt if the byte order is not of this form or the
/// layout built does not have it (checked by materialization).
/// The digits of digitLayout's byte order, major first, with the gap digit
/// (slots below the smallest stride) and the unit dim that owns it.
struct DigitOrder {
  SmallVector<Digit, 8> digits;
  bool gap = false;
  std::optional<int64_t> unitGap;
};

/// The digits of `map`'s byte order, or std::nullopt when it is not a sum of
/// per-dim mixed-radix digit maps forming one padded stride chain.
std::optional<DigitOrder> getDigitOrder(const Shape &shape,
                                        const TiledLayoutMap &map) {
  ArrayRef<int64_t> dims = shape.getDims();
  int64_t rank = shape.getRank();
  int64_t physical = map.getPhysicalElementCount();
  if (rank == 0 || map.getElementCount() == 0)
    return std::nullopt;
  SmallVector<int64_t, 6> zero(rank, 0);
  if (map.linearIndex(zero) != 0)
    return std::nullopt;
  // Per-dim slot maps; the byte order must be their sum.
  SmallVector<SmallVector<int64_t, 8>, 6> g(rank);
  for (int64_t d = 0; d < rank; ++d) {
    SmallVector<int64_t, 6> index(rank, 0);
    for (int64_t i = 0; i < dims[d]; ++i) {
      index[d] = i;
      g[d].push_back(map.linearIndex(index));
    }
  }
  bool separable = forEachIndex(dims, [&](ArrayRef<int64_t> index) {
    int64_t sum = 0;
    for (int64_t d = 0; d < rank; ++d)
      sum += g[d][index[d]];
    return sum == map.linearIndex(index);
  });
  if (!separable)
    return std::nullopt;
  DigitOrder order;
  SmallVector<Digit, 8> &digits = order.digits;
  for (int64_t d = 0; d < rank; ++d) {
    size_t first = digits.size();
    if (!decomposeDim(d, g[d], digits))
      return std::nullopt;
    // Each dim's digits are minor first: strides must increase.
    for (size_t k = first + 1; k < digits.size(); ++k)
      if (digits[k].stride <= digits[k - 1].stride)
        return std::nullopt;
  }
  if (digits.empty())
    return std::nullopt; // Every dim is 1: strided handles it.
  llvm::sort(digits, [](const Digit &a, const Digit &b) {
    return a.stride < b.stride;
  });
  // Slots below the smallest stride: a radix-1 digit padded minor-most, of
  // the last unit dim (moved minor-most), else of the dim with the fewest
  // blocks (a tile entry larger than the one above it).
  order.gap = digits.front().stride != 1;
  if (order.gap) {
    for (int64_t d = rank - 1; d >= 0 && !order.unitGap; --d)
      if (dims[d] == 1)
        order.unitGap = d;
    digits.insert(digits.begin(),
                  Digit{order.unitGap.value_or(rank - 1), 1, 1});
  }
  for (size_t k = 0; k < digits.size(); ++k) {
    int64_t next = k + 1 < digits.size() ? digits[k + 1].stride : physical;
    if (next % digits[k].stride != 0 ||
        next / digits[k].stride < digits[k].radix)
      return std::nullopt;
    digits[k].padded = next / digits[k].stride;
  }
  // Major first.
  std::reverse(digits.begin(), digits.end());
  return order;
}

/// The tile level (block) of each digit for the physical dim order `order`.
SmallVector<int64_t, 8> getDigitBlocks(ArrayRef<Digit> digits, int64_t rank,
                                       ArrayRef<int64_t> order) {
  // Position of each dim in the physical order (the gap dim last).
  SmallVector<int64_t, 6> pos(rank, rank);
  for (size_t i = 0; i < order.size(); ++i)
    pos[order[i]] = static_cast<int64_t>(i);
  SmallVector<int64_t, 6> previous(rank, -1); // the dim's last block
  SmallVector<int64_t, 8> block;
  int64_t current = 0, last = -1;
  for (const Digit &digit : digits) {
    if (pos[digit.dim] <= last)
      ++current;
    // A padded digit is a tile entry larger than the level above it:
    // its dim has no digit in the block before (block 0 pads nothing).
    if (digit.padded != digit.radix)
      current = std::max(current, previous[digit.dim] + 2);
    last = pos[digit.dim];
    previous[digit.dim] = current;
    block.push_back(current);
  }
  return block;
}

/// The physical order of the non-unit dims with the fewest blocks (and the
/// gap's owner), and the blocks of the digits; std::nullopt past
/// kMaxSearchedDims dims of size > 1.
std::optional<std::pair<SmallVector<int64_t, 6>, SmallVector<int64_t, 8>>>
chooseDigitBlocks(ArrayRef<int64_t> dims, DigitOrder &order) {
  int64_t rank = static_cast<int64_t>(dims.size());
  SmallVector<Digit, 8> &digits = order.digits;
  SmallVector<int64_t, 6> nonUnit;
  for (int64_t d = 0; d < rank; ++d)
    if (dims[d] != 1)
      nonUnit.push_back(d);
  // The search tries every order of the dims of size > 1: up to 7 of them
  // (5040 orders); more fall back to the rules (not complete).
  if (nonUnit.size() > kMaxSearchedDims)
    return std::nullopt;
  SmallVector<int64_t, 6> owners;
  if (order.gap && !order.unitGap)
    for (int64_t d = rank - 1; d >= 0; --d)
      owners.push_back(d);
  else
    owners.push_back(digits.back().dim);
  SmallVector<int64_t, 6> best;
  SmallVector<int64_t, 8> bestBlocks;
  int64_t bestOwner = owners.front();
  for (int64_t owner : owners) {
    digits.back().dim = order.gap ? owner : digits.back().dim;
    SmallVector<int64_t, 6> candidate = nonUnit;
    do {
      SmallVector<int64_t, 8> blocks = getDigitBlocks(digits, rank, candidate);
      if (best.empty() || blocks.back() < bestBlocks.back()) {
        best = candidate;
        bestBlocks = blocks;
        bestOwner = owner;
      }
    } while (std::next_permutation(candidate.begin(), candidate.end()));
  }
  if (order.gap)
    digits.back().dim = bestOwner;
  return std::make_pair(best, bestBlocks);
}

/// The tile levels 1..levels of digitLayout, in `physicalOrder`.
void addDigitTiles(Layout &layout, int64_t rank, ArrayRef<Digit> digits,
                   ArrayRef<int64_t> blocks, ArrayRef<int64_t> physicalOrder) {
  int64_t levels = blocks.back();
  // Tile extents per dim, innermost level first: a level with the dim's
  // digit x is x's padded count times the level below, and uses its radix
  // times it; a level without one is the extent the level below uses.
  SmallVector<SmallVector<int64_t, 4>, 6> extent(
      rank, SmallVector<int64_t, 4>(levels + 2, 1));
  for (int64_t d = 0; d < rank; ++d) {
    int64_t used = 1;
    for (int64_t level = levels; level >= 1; --level) {
      const Digit *x = nullptr;
      for (size_t k = 0; k < digits.size(); ++k)
        if (digits[k].dim == d && blocks[k] == level)
          x = &digits[k];
      int64_t below = extent[d][level + 1];
      if (x) {
        extent[d][level] = x->padded * below;
        used = x->radix * below;
      } else {
        extent[d][level] = used;
      }
    }
  }
  for (int64_t level = 1; level <= levels; ++level) {
    SmallVector<int64_t, 6> entries;
    for (int64_t d : physicalOrder)
      entries.push_back(extent[d][level]);
    size_t lead = 0;
    while (lead + 1 < entries.size() && entries[lead] == 1)
      ++lead;
    layout.mutableTiles().push_back(
        Tile(ArrayRef<int64_t>(entries).drop_front(lead)));
  }
}

std::optional<Layout> digitLayout(const Shape &shape, const TiledLayoutMap &map,
                                  const Layout &scalars) {
  ArrayRef<int64_t> dims = shape.getDims();
  std::optional<DigitOrder> order = getDigitOrder(shape, map);
  if (!order)
    return std::nullopt;
  auto choice = chooseDigitBlocks(dims, *order);
  if (!choice)
    return std::nullopt;
  auto &[best, blocks] = *choice;
  SmallVector<int64_t, 6> m2m = fillDefaultSlots(
      dims, SmallVector<int64_t, 6>(best.rbegin(), best.rend()));
  if (order->unitGap) {
    llvm::erase(m2m, *order->unitGap);
    m2m.insert(m2m.begin(), *order->unitGap);
  }
  Layout layout = scalars;
  layout.mutableTiles().clear();
  layout.mutablePaddedDimensions().clear();
  layout.mutableMinorToMajor().assign(m2m.begin(), m2m.end());
  SmallVector<int64_t, 6> physicalOrder(m2m.rbegin(), m2m.rend());
  addDigitTiles(layout, shape.getRank(), order->digits, blocks, physicalOrder);
  if (!keepsByteOrder(shape, layout, map))
    return std::nullopt;
  return layout;
}

/// Case 2: rules checked against the byte order, to a fixpoint.
Layout rewriteLayout(const Shape &shape, const TiledLayoutMap &map,
                     Layout layout) {
  auto tryAccept = [&](const Layout &candidate) {
    if (!keepsByteOrder(shape, candidate, map))
      return false;
    layout = candidate;
    return true;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    // Drop a tile level (the last ones first).
    for (size_t l = layout.getTiles().size(); l-- > 0 && !changed;) {
      Layout candidate = layout;
      candidate.mutableTiles().erase(candidate.mutableTiles().begin() + l);
      changed = tryAccept(candidate);
    }
    // Drop the major-most entry of a tile.
    for (size_t l = 0; l < layout.getTiles().size() && !changed; ++l) {
      ArrayRef<int64_t> entries = layout.getTiles()[l].getDims();
      if (entries.size() < 2)
        continue;
      Layout candidate = layout;
      candidate.mutableTiles()[l] = Tile(entries.drop_front());
      changed = tryAccept(candidate);
    }
    // Unit dims in their default slots, the other dims in their order.
    if (!changed) {
      SmallVector<int64_t, 6> nonUnit;
      for (int64_t d : layout.getMinorToMajor())
        if (shape.getDim(d) != 1)
          nonUnit.push_back(d);
      SmallVector<int64_t, 6> m2m = fillDefaultSlots(shape.getDims(), nonUnit);
      if (ArrayRef<int64_t>(m2m) != layout.getMinorToMajor()) {
        Layout candidate = layout;
        candidate.mutableMinorToMajor().assign(m2m.begin(), m2m.end());
        // Legacy padding belongs to logical dims: it does not move.
        changed = tryAccept(candidate);
      }
    }
  }
  return layout;
}

} // namespace

llvm::Expected<CanonicalLayout>
mlir::layout::canonicalizeLayout(const Shape &shape) {
  llvm::Expected<TiledLayoutMap> map =
      getPlaceableMap(shape, "canonicalizeLayout");
  if (!map)
    return map.takeError();
  Layout scalars = normalizeScalars(shape, *map);
  CanonicalLayout result;
  if (std::optional<Layout> strided = stridedLayout(shape, *map, scalars)) {
    result.shape = withLayout(shape, *strided);
    result.strided = true;
    result.complete = true;
    return result;
  }
  if (std::optional<Layout> digit = digitLayout(shape, *map, scalars)) {
    result.shape = withLayout(shape, *digit);
    result.complete = true;
    return result;
  }
  result.shape = withLayout(shape, rewriteLayout(shape, *map, scalars));
  return result;
}

llvm::Expected<bool> mlir::layout::sameByteOrder(const Shape &a,
                                                 const Shape &b) {
  std::optional<TiledLayoutMap> am, bm;
  if (llvm::Error err = getComparableMaps(a, b, "sameByteOrder", am, bm))
    return std::move(err);
  if (a.getElementType() != b.getElementType() || a.getDims() != b.getDims())
    return makeError(
        "sameByteOrder needs the same dims and element type, got " +
        printShape(a) + " and " + printShape(b));
  return sameBufferFrame(a, *am, b, *bm) && sameElementSlots(*am, *bm);
}

llvm::Expected<bool>
mlir::layout::exactReshapeIsBitcast(const Shape &input, const Shape &output,
                                    bool ignoreElementType) {
  llvm::Expected<TiledLayoutMap> in =
      getPlaceableMap(input, "reshapeIsBitcast");
  if (!in)
    return in.takeError();
  llvm::Expected<TiledLayoutMap> out =
      getPlaceableMap(output, "reshapeIsBitcast");
  if (!out)
    return out.takeError();
  if (in->getElementCount() != out->getElementCount())
    return false;
  if (!sameBufferFrame(input, *in, output, *out, !ignoreElementType))
    return false;
  // Walk both in row-major order: the k-th elements correspond.
  SmallVector<int64_t, 6> outIndex(output.getRank(), 0);
  ArrayRef<int64_t> outDims = output.getDims();
  return forEachIndex(input.getDims(), [&](ArrayRef<int64_t> index) {
    if (in->linearIndex(index) != out->linearIndex(outIndex))
      return false;
    (void)bumpIndices(outDims, outIndex);
    return true;
  });
}

llvm::Expected<bool>
mlir::layout::exactTransposeIsBitcast(const Shape &input, const Shape &output,
                                      ArrayRef<int64_t> dimMapping,
                                      bool ignoreElementType) {
  std::optional<TiledLayoutMap> in, out;
  if (llvm::Error err =
          getComparableMaps(input, output, "transposeIsBitcast", in, out))
    return std::move(err);
  if (!sameBufferFrame(input, *in, output, *out, !ignoreElementType))
    return false;
  return sameElementSlots(*in, *out, dimMapping);
}

llvm::Expected<std::optional<SmallVector<int64_t, 6>>>
mlir::layout::transposeMappingFromByteOrder(const Shape &input,
                                            const Shape &output) {
  // One map evaluation per dim (the candidate is checked by the caller,
  // exactTransposeIsBitcast): any size.
  llvm::Expected<TiledLayoutMap> in =
      getPlaceableMap(input, "deduceTransposeDimensionsForBitcast", false);
  if (!in)
    return in.takeError();
  llvm::Expected<TiledLayoutMap> out =
      getPlaceableMap(output, "deduceTransposeDimensionsForBitcast", false);
  if (!out)
    return out.takeError();
  int64_t rank = input.getRank();
  if (output.getRank() != rank || in->getElementCount() == 0 ||
      in->getElementCount() != out->getElementCount())
    return std::nullopt;
  SmallVector<int64_t, 6> mapping(rank, -1);
  SmallVector<bool, 6> used(rank, false);
  for (int64_t i = 0; i < rank; ++i) {
    if (output.getDim(i) == 1)
      continue;
    SmallVector<int64_t, 6> unit(rank, 0);
    unit[i] = 1;
    int64_t slot = out->linearIndex(unit);
    if (slot >= in->getAllocatedElements())
      return std::nullopt;
    std::optional<SmallVector<int64_t, 6>> e = in->logicalIndex(slot);
    if (!e || llvm::count(*e, 0) != rank - 1)
      return std::nullopt;
    int64_t j = llvm::find(*e, 1) - e->begin();
    if (j >= rank || used[j] || input.getDim(j) != output.getDim(i))
      return std::nullopt;
    mapping[i] = j;
    used[j] = true;
  }
  // Unit dims pair up in order.
  int64_t nextUnit = 0;
  for (int64_t i = 0; i < rank; ++i) {
    if (mapping[i] >= 0)
      continue;
    while (nextUnit < rank && (used[nextUnit] || input.getDim(nextUnit) != 1))
      ++nextUnit;
    if (nextUnit >= rank)
      return std::nullopt;
    mapping[i] = nextUnit;
    used[nextUnit] = true;
  }
  return mapping;
}
