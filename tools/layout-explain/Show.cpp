//===- Show.cpp - layout-explain show -------------------------------------===//
//
// `show`: the grid of physical positions, the memory image, the tiling steps
// (pad -> reshape -> transpose per tile level) and the sizes of one shape.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "layout/Xla/ShapeUtil.h"

#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace layout_explain;
using namespace mlir::layout;
using llvm::MutableArrayRef;

namespace {
/// `show` prints the grid and memory image only up to this many slots.
constexpr int64_t kMaxShowSlots = 4096;
/// `show` wraps the memory image after this many slots per line.
constexpr int64_t kMaxSlotsPerLine = 16;

std::string bracketed(ArrayRef<int64_t> values) {
  return "[" + joinInts(values) + "]";
}

std::string padLeft(StringRef s, size_t width) {
  return std::string(width > s.size() ? width - s.size() : 0, ' ') + s.str();
}

std::string padRight(StringRef s, size_t width) {
  return s.str() + std::string(width > s.size() ? width - s.size() : 0, ' ');
}

/// One step row: `label  [a,b] -> [c,d]`.
void printStep(llvm::raw_ostream &os, StringRef label, ArrayRef<int64_t> from,
               ArrayRef<int64_t> to, StringRef note = "") {
  os << "    " << padRight(label, 11) << bracketed(from) << " -> "
     << bracketed(to);
  if (!note.empty())
    os << "  " << note;
  os << "\n";
}

/// The pad and reshape shapes of one level (the transpose result is
/// `level.outputDims`). A padded size that overflows int64 shows as `?`.
void padAndReshape(const TileLevel &level, SmallVector<int64_t, 6> &padded,
                   SmallVector<int64_t, 6> &reshaped) {
  size_t numTiled = level.tile.size();
  size_t numLeading = level.combinedDims.size() - numTiled;
  padded.assign(level.combinedDims.begin(),
                level.combinedDims.begin() + numLeading);
  reshaped = padded;
  for (size_t i = 0; i < numTiled; ++i) {
    int64_t d = level.combinedDims[numLeading + i], t = level.tile[i];
    int64_t count = llvm::divideCeil(d, t);
    std::optional<int64_t> size = llvm::checkedMul(count, t);
    padded.push_back(size ? *size : kUnboundedSize);
    reshaped.push_back(count);
    reshaped.push_back(t);
  }
}

bool hasCombine(const TileLevel &level) {
  return llvm::any_of(
      level.groups, [](auto group) { return group.second - group.first > 1; });
}

/// The logical grid: for each 2-D slice of the two minor-most logical dims,
/// every element's physical linear index.
void printGrid(const Shape &shape, const TiledLayoutMap &map,
               llvm::raw_ostream &os) {
  ArrayRef<int64_t> dims = shape.getDims();
  int64_t rank = shape.getRank();
  if (rank == 0) {
    os << "  () -> " << map.linearIndex({}) << "\n";
    return;
  }
  if (map.getElementCount() == 0) {
    os << "  (no elements)\n";
    return;
  }
  int64_t rows = rank >= 2 ? dims[rank - 2] : 1;
  int64_t cols = dims[rank - 1];
  ArrayRef<int64_t> leadingDims = dims.drop_back(rank >= 2 ? 2 : 1);
  SmallVector<int64_t, 6> leading(leadingDims.size(), 0);
  size_t width = std::to_string(map.getPhysicalElementCount() - 1).size();
  width = std::max(width, std::to_string(cols - 1).size());
  size_t rowWidth = std::to_string(rows - 1).size();
  while (true) {
    if (!leading.empty()) {
      os << "  slice (" << joinInts(leading);
      os << (rank >= 2 ? ",:,:)" : ",:)") << ":\n";
    }
    os << "  " << std::string(rowWidth + 1, ' ');
    for (int64_t c = 0; c < cols; ++c)
      os << " " << padLeft(std::to_string(c), width);
    os << "\n";
    SmallVector<int64_t, 6> index(leading.begin(), leading.end());
    index.append(rank >= 2 ? 2 : 1, 0);
    for (int64_t r = 0; r < rows; ++r) {
      os << "  "
         << padLeft(rank >= 2 ? std::to_string(r) : std::string(), rowWidth)
         << ":";
      for (int64_t c = 0; c < cols; ++c) {
        if (rank >= 2)
          index[rank - 2] = r;
        index[rank - 1] = c;
        os << " " << padLeft(std::to_string(map.linearIndex(index)), width);
      }
      os << "\n";
    }
    // Next slice (row-major over the leading dims).
    if (!bumpIndices(leadingDims, leading))
      break;
  }
}

/// The memory image, one line per tile of the last level (or per row of the
/// minor-most physical dim when untiled), at most kMaxSlotsPerLine per line.
void printMemoryImage(const TiledLayoutMap &map, llvm::raw_ostream &os) {
  int64_t slots = map.getAllocatedElements();
  int64_t perLine = 1;
  if (!map.getLevels().empty()) {
    // Checked: tiles such as T(2^40,2^40) on an empty shape are valid, and
    // their product overflows int64_t.
    for (int64_t t : map.getLevels().back().tile) {
      std::optional<int64_t> product = llvm::checkedMul(perLine, t);
      if (!product || *product <= 0 || *product > kMaxSlotsPerLine) {
        perLine = kMaxSlotsPerLine;
        break;
      }
      perLine = *product;
    }
  } else if (!map.getPhysicalDims().empty()) {
    perLine = map.getPhysicalDims().back();
  }
  if (perLine <= 0 || perLine > kMaxSlotsPerLine)
    perLine = kMaxSlotsPerLine;
  std::vector<std::string> texts;
  size_t width = 1;
  for (int64_t slot = 0; slot < slots; ++slot) {
    texts.push_back(slotText(map.logicalIndex(slot)));
    width = std::max(width, texts.back().size());
  }
  size_t offsetWidth = std::to_string(std::max<int64_t>(slots - 1, 0)).size();
  for (int64_t slot = 0; slot < slots; slot += perLine) {
    std::string line = "  " + padLeft(std::to_string(slot), offsetWidth) + ":";
    for (int64_t s = slot; s < std::min(slots, slot + perLine); ++s)
      line += " " + padRight(texts[s], width);
    os << StringRef(line).rtrim() << "\n";
  }
}

void printSteps(const Shape &shape, const TiledLayoutMap &map,
                llvm::raw_ostream &os) {
  const Layout &layout = shape.getLayout();
  os << "  logical dims " << bracketed(map.getLogicalDims())
     << ", minor_to_major {" << joinInts(map.getMinorToMajor()) << "}\n";
  if (!layout.getPaddedDimensions().empty())
    os << "  legacy padding (logical order) " << bracketed(map.getLogicalDims())
       << " -> " << bracketed(map.getPaddedDims()) << ", padding value "
       << paddingValueName(layout.getPaddingValue()) << "\n";
  os << "  physical order (most-major first) "
     << bracketed(map.getPermutedDims()) << "\n";
  ArrayRef<Tile> tiles = layout.getTiles();
  for (auto [i, level] : llvm::enumerate(map.getLevels())) {
    os << "  level " << i + 1 << ": T" << printTile(tiles[i]) << "\n";
    if (level.numPrependedDims > 0) {
      ArrayRef<int64_t> before =
          ArrayRef<int64_t>(level.inputDims).drop_front(level.numPrependedDims);
      printStep(os, "prepend 1s", before, level.inputDims);
    }
    if (hasCombine(level))
      printStep(os, "combine *", level.inputDims, level.combinedDims);
    SmallVector<int64_t, 6> padded, reshaped;
    padAndReshape(level, padded, reshaped);
    printStep(os, "pad", level.combinedDims, padded,
              "(tile " + bracketed(level.tile) + " on the minor suffix)");
    printStep(os, "reshape", padded, reshaped, "(bitcast)");
    printStep(os, "transpose", reshaped, level.outputDims,
              "(within-tile dims to the minor end)");
  }
  os << "  physical shape " << bracketed(map.getPhysicalDims()) << ": "
     << map.getPhysicalElementCount() << " elements";
  if (layout.getTailPaddingAlignment() != 1)
    os << ", L(" << layout.getTailPaddingAlignment() << ") -> "
       << map.getAllocatedElements() << " allocated";
  os << "\n";
}

json::Array levelsToJson(const Shape &shape, const TiledLayoutMap &map) {
  json::Array levels;
  ArrayRef<Tile> tiles = shape.getLayout().getTiles();
  for (auto [i, level] : llvm::enumerate(map.getLevels())) {
    SmallVector<int64_t, 6> padded, reshaped;
    padAndReshape(level, padded, reshaped);
    levels.push_back(json::Object{
        {"tile", "T" + printTile(tiles[i])},
        {"prepended_dims", level.numPrependedDims},
        {"input", toJson(level.inputDims)},
        {"combined", toJson(level.combinedDims)},
        {"padded", toJson(padded)},
        {"reshaped", toJson(reshaped)},
        {"transposed", toJson(level.outputDims)},
    });
  }
  return levels;
}
} // namespace

Error layout_explain::runShow(const Args &args, Output &out) {
  const Shape *shape = &args.shapes[0];
  const TiledLayoutMap *map = &*args.map;
  Expected<SizeRows> sizes = computeSizes(*shape);
  if (!sizes)
    return sizes.takeError();
  bool small = map->getAllocatedElements() <= kMaxShowSlots;

  std::string canonical = printShape(*shape);
  out.object["shape"] = canonical;
  out.object["physical_dims"] = toJson(map->getPhysicalDims());
  out.object["levels"] = levelsToJson(*shape, *map);
  out.object["sizes"] = sizesToJson(*sizes);
  if (small) {
    // Positions in logical row-major order; slots in memory order.
    json::Array positions, slots;
    SmallVector<int64_t, 6> index(shape->getRank(), 0);
    if (map->getElementCount() > 0) {
      do
        positions.push_back(map->linearIndex(index));
      while (bumpIndices(shape->getDims(), index));
    }
    for (int64_t slot = 0; slot < map->getAllocatedElements(); ++slot) {
      std::optional<SmallVector<int64_t, 6>> logical = map->logicalIndex(slot);
      slots.push_back(logical ? json::Value(toJson(*logical))
                              : json::Value(nullptr));
    }
    out.object["positions"] = std::move(positions);
    out.object["memory"] = std::move(slots);
  }

  llvm::raw_string_ostream os(out.text);
  os << canonical << "\n\n";
  if (small) {
    int64_t rank = shape->getRank();
    os << "physical linear index of each element";
    if (rank >= 2)
      os << " (rows: dim " << rank - 2 << ", columns: dim " << rank - 1 << ")";
    else if (rank == 1)
      os << " (columns: dim 0)";
    os << ":\n";
    printGrid(*shape, *map, os);
    os << "\nmemory order (" << map->getAllocatedElements() << " slot"
       << (map->getAllocatedElements() == 1 ? "" : "s") << ", _ = padding):\n";
    printMemoryImage(*map, os);
  } else {
    os << "(grid and memory image omitted: " << map->getAllocatedElements()
       << " slots > " << kMaxShowSlots << ")\n";
  }
  os << "\nsteps (pad -> reshape -> transpose per tile level):\n";
  printSteps(*shape, *map, os);
  os << "\nsizes:\n";
  printSizes(*sizes, os, "  ");
  return Error::success();
}
