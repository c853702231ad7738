//===- IndexMapFuzzer.cpp - properties of TiledLayoutMap ------------------===//
//
// Input: HLO shape text, optionally followed by '|' and comma-separated
// integers (probe values for indices and physical slots).
//
// For every input whose shape parses and whose TiledLayoutMap::get succeeds:
// - small maps (at most kMaxAllocated allocated elements), exhaustively:
//   logical -> physical (checkedLinearIndex) is injective and lands in
//   [0, allocated); physicalIndex stays inside getPhysicalDims();
//   logicalIndex inverts it; the non-padding slot count equals the element
//   count, and every non-padding slot maps back to itself;
// - any size: the corner indices land in [0, allocated); out-of-range
//   indices built from the shape and the probes (negative, == size,
//   INT64_MIN/MAX, wrong rank) give an error, never a crash; logicalIndex of
//   probe slots either is padding or maps back to the slot;
// - the XLA compatibility functions and the dynamic map never crash, and
//   xlaLinearIndex agrees with the map for one untiled-or-simply-tiled level;
// - the walk math of the loop emitters (TiledLayoutWalk.h), on small maps:
//   applyInverse at every physical coordinate (row-major order == slot
//   order) agrees with logicalIndex, its bound checks hold exactly on the
//   non-padding slots; every affine run getAffineRun reports moves exactly
//   one physical coordinate by its stride inside each run.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "layout/Xla/Shape.h"
#include "layout/Xla/TiledLayoutMap.h"
#include "layout/Xla/TiledLayoutWalk.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <limits>
#include <vector>

using namespace mlir::layout;
using namespace layout_fuzz;
using llvm::ArrayRef;
using llvm::SmallVector;

static constexpr int64_t kMaxAllocated = 4096;
static constexpr size_t kMaxProbes = 16;

static SmallVector<int64_t, 16> parseProbes(llvm::StringRef text) {
  SmallVector<int64_t, 16> probes;
  SmallVector<llvm::StringRef, 16> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    int64_t value;
    if (probes.size() < kMaxProbes && !part.trim().getAsInteger(10, value))
      probes.push_back(value);
  }
  return probes;
}

static bool inBounds(ArrayRef<int64_t> index, ArrayRef<int64_t> dims) {
  if (index.size() != dims.size())
    return false;
  for (size_t i = 0; i < dims.size(); ++i)
    if (index[i] < 0 || index[i] >= dims[i])
      return false;
  return true;
}

/// checkedLinearIndex on any index: an error exactly when out of bounds, else
/// a slot in [0, allocated).
static void probeIndex(const TiledLayoutMap &map, ArrayRef<int64_t> index) {
  llvm::Expected<int64_t> linear = map.checkedLinearIndex(index);
  bool valid = inBounds(index, map.getLogicalDims());
  if (!linear) {
    llvm::consumeError(linear.takeError());
    check(!valid, "checkedLinearIndex rejected an in-bounds index");
    return;
  }
  check(valid, "checkedLinearIndex accepted an out-of-bounds index");
  check(*linear >= 0 && *linear < map.getAllocatedElements(),
        "linear index " + llvm::Twine(*linear) + " outside [0, " +
            llvm::Twine(map.getAllocatedElements()) + ")");
}

static void probeSlot(const TiledLayoutMap &map, int64_t slot) {
  std::optional<SmallVector<int64_t, 6>> logical = map.logicalIndex(slot);
  if (!logical)
    return;
  check(slot >= 0 && slot < map.getAllocatedElements(),
        "logicalIndex accepted slot " + llvm::Twine(slot) + " out of range");
  check(inBounds(*logical, map.getLogicalDims()),
        "logicalIndex returned an out-of-bounds index");
  check(map.linearIndex(*logical) == slot,
        "linearIndex(logicalIndex(" + llvm::Twine(slot) + ")) != slot");
}

/// Next index in row-major order; false after the last one.
static bool bumpIndex(llvm::SmallVectorImpl<int64_t> &index,
                      ArrayRef<int64_t> dims) {
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (++index[d] < dims[d])
      return true;
    index[d] = 0;
  }
  return false;
}

static void checkExhaustive(const Shape &shape, const TiledLayoutMap &map) {
  int64_t allocated = map.getAllocatedElements();
  int64_t count = map.getElementCount();
  check(count <= allocated, "element count > allocated elements");
  std::vector<int64_t> owner(allocated, -1);
  ArrayRef<int64_t> dims = map.getLogicalDims();
  ArrayRef<int64_t> physicalDims = map.getPhysicalDims();
  SmallVector<int64_t, 6> index(dims.size(), 0);
  int64_t visited = 0;
  if (count > 0) {
    do {
      llvm::Expected<int64_t> linear = map.checkedLinearIndex(index);
      if (!linear)
        fail("checkedLinearIndex failed on an in-bounds index: " +
             llvm::toString(linear.takeError()));
      check(*linear >= 0 && *linear < allocated,
            "linear index " + llvm::Twine(*linear) + " outside [0, " +
                llvm::Twine(allocated) + ")");
      check(owner[*linear] == -1,
            "two logical indices share slot " + llvm::Twine(*linear));
      owner[*linear] = visited;
      SmallVector<int64_t, 6> physical = map.physicalIndex(index);
      check(physical.size() == physicalDims.size(),
            "physicalIndex has the wrong rank");
      for (size_t i = 0; i < physical.size(); ++i)
        check(physical[i] >= 0 && physical[i] < physicalDims[i],
              "physicalIndex component " + llvm::Twine(i) +
                  " outside the physical dims");
      std::optional<SmallVector<int64_t, 6>> back = map.logicalIndex(*linear);
      check(back && ArrayRef<int64_t>(*back) == ArrayRef<int64_t>(index),
            "logicalIndex does not invert linearIndex at slot " +
                llvm::Twine(*linear));
      ++visited;
    } while (bumpIndex(index, dims));
  }
  check(visited == count, "visited " + llvm::Twine(visited) +
                              " indices, element count " + llvm::Twine(count));
  int64_t nonPadding = 0;
  for (int64_t slot = 0; slot < allocated; ++slot) {
    std::optional<SmallVector<int64_t, 6>> logical = map.logicalIndex(slot);
    check(logical.has_value() == (owner[slot] != -1),
          "logicalIndex disagrees with linearIndex about slot " +
              llvm::Twine(slot));
    if (logical)
      ++nonPadding;
  }
  check(nonPadding == count, "non-padding slots " + llvm::Twine(nonPadding) +
                                 " != element count " + llvm::Twine(count));
  (void)shape;
}

/// applyInverse (the loop emitters' inverse map) agrees with logicalIndex on
/// every slot, and every reported affine run is affine with its stride.
static void checkWalk(const TiledLayoutMap &map) {
  ArrayRef<int64_t> physicalDims = map.getPhysicalDims();
  ArrayRef<int64_t> dims = map.getLogicalDims();
  IntegerIndexOps ops;
  if (map.getPhysicalElementCount() > 0) {
    SmallVector<int64_t, 6> physical(physicalDims.size(), 0);
    int64_t slot = 0;
    do {
      InverseIndex<int64_t> inverse =
          applyInverse<int64_t>(map, ArrayRef<int64_t>(physical), ops);
      bool holds = llvm::all_of(
          inverse.checks, [](const auto &c) { return c.value < c.bound; });
      std::optional<SmallVector<int64_t, 6>> expected = map.logicalIndex(slot);
      check(holds == expected.has_value(),
            "applyInverse's checks disagree with logicalIndex about slot " +
                llvm::Twine(slot));
      if (expected)
        check(ArrayRef<int64_t>(inverse.logical) ==
                  ArrayRef<int64_t>(*expected),
              "applyInverse != logicalIndex at slot " + llvm::Twine(slot));
      ++slot;
    } while (bumpIndex(physical, physicalDims));
  }
  if (map.getElementCount() == 0)
    return;
  for (int64_t dim = 0; dim < static_cast<int64_t>(dims.size()); ++dim) {
    std::optional<AffineRun> run = getAffineRun(map, dim);
    if (!run)
      continue;
    check(run->length >= 0, "negative affine run length");
    check(run->physicalDim >= -1 &&
              run->physicalDim < static_cast<int64_t>(physicalDims.size()),
          "affine run names a physical dim out of range");
    std::optional<std::string> violation =
        findAffineRunViolation(map, dim, *run);
    check(!violation, violation ? *violation : "");
  }
}

/// XLA's LinearIndex equals the full map when there is at most one tile
/// level without '*', no longer than the rank, no legacy padding, rank >= 2.
static void checkXlaLinearIndex(const Shape &shape, const TiledLayoutMap &map,
                                ArrayRef<int64_t> index) {
  llvm::Expected<int64_t> xla = xlaLinearIndex(shape, index);
  if (!xla) {
    llvm::consumeError(xla.takeError());
    return;
  }
  const Layout &layout = shape.getLayout();
  ArrayRef<Tile> tiles = layout.getTiles();
  bool comparable = shape.getRank() >= 2 && tiles.size() <= 1 &&
                    layout.getPaddedDimensions().empty() &&
                    (tiles.empty() || (!tiles[0].hasCombine() &&
                                       static_cast<int64_t>(tiles[0].size()) <=
                                           shape.getRank()));
  if (comparable)
    check(*xla == map.linearIndex(index),
          "xlaLinearIndex " + llvm::Twine(*xla) + " != linearIndex " +
              llvm::Twine(map.linearIndex(index)));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  auto [shapeText, probeText] = input.split('|');
  std::optional<Shape> shape = ok(parseShape(shapeText));
  if (!shape)
    return 0;
  SmallVector<int64_t, 16> probes = parseProbes(probeText);

  // Sizes and the XLA compatibility functions: errors are fine, crashes not.
  (void)ok(getAllocatedBytes(*shape));
  (void)ok(xlaByteSizeOf(*shape));
  (void)ok(xlaArraySize(*shape));
  if (std::optional<TiledLayoutMap> dynamicMap =
          ok(TiledLayoutMap::get(*shape, /*allowDynamic=*/true)))
    (void)dynamicMap->getPhysicalDims();

  // XLA's LinearIndex on corner indices, also for shapes the map rejects
  // (its own arithmetic must not overflow either).
  if (shape->isArray() && !shape->hasUnboundedDim()) {
    SmallVector<int64_t, 6> high;
    for (int64_t d : shape->getDims())
      high.push_back(d - 1);
    (void)ok(xlaLinearIndex(*shape, high));
    for (int64_t probe : probes)
      (void)ok(xlaLinearIndex(
          *shape, SmallVector<int64_t, 6>(shape->getRank(), probe)));
  }

  std::optional<TiledLayoutMap> map = ok(TiledLayoutMap::get(*shape));
  if (!map)
    return 0;
  ArrayRef<int64_t> dims = map->getLogicalDims();
  int64_t rank = static_cast<int64_t>(dims.size());
  check(map->getAllocatedElements() >= map->getElementCount(),
        "allocated elements < element count");
  check(map->getPhysicalElementCount() <= map->getAllocatedElements(),
        "physical elements > allocated elements");

  if (map->getAllocatedElements() <= kMaxAllocated) {
    checkExhaustive(*shape, *map);
    checkWalk(*map);
  }

  // Corners (any size): all zeros and all size-1.
  if (map->getElementCount() > 0) {
    SmallVector<int64_t, 6> low(rank, 0), high;
    for (int64_t d : dims)
      high.push_back(d - 1);
    probeIndex(*map, low);
    probeIndex(*map, high);
    checkXlaLinearIndex(*shape, *map, low);
    checkXlaLinearIndex(*shape, *map, high);
  }

  // Out-of-range indices from the shape and the probes.
  SmallVector<int64_t, 24> values = {-1, std::numeric_limits<int64_t>::min(),
                                     std::numeric_limits<int64_t>::max()};
  values.append(probes.begin(), probes.end());
  for (int64_t i = 0; i < rank; ++i) {
    int64_t next =
        dims[i] == std::numeric_limits<int64_t>::max() ? dims[i] : dims[i] + 1;
    for (int64_t v : {dims[i], next}) {
      SmallVector<int64_t, 6> index(rank, 0);
      index[i] = v;
      probeIndex(*map, index);
    }
    for (int64_t v : values) {
      SmallVector<int64_t, 6> index(rank, 0);
      index[i] = v;
      probeIndex(*map, index);
      (void)ok(xlaLinearIndex(*shape, index));
    }
  }
  probeIndex(*map, SmallVector<int64_t, 6>(rank + 1, 0));
  if (rank > 0)
    probeIndex(*map, SmallVector<int64_t, 6>(rank - 1, 0));
  if (static_cast<int64_t>(probes.size()) == rank)
    probeIndex(*map, probes);

  // Physical slots from the probes (and the ends of the buffer).
  for (int64_t slot : values)
    probeSlot(*map, slot);
  probeSlot(*map, map->getAllocatedElements());
  probeSlot(*map, map->getAllocatedElements() - 1);
  probeSlot(*map, map->getPhysicalElementCount() - 1);
  return 0;
}
