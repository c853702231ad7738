//===- Svg.cpp - layout-explain svg ---------------------------------------===//
//
// Pictures of layouts in the style of XLA's tiled-layout document: the
// logical array as a grid (rows: the second-to-last dim, with the leading
// dims stacked; columns: the last dim), every element labelled with its
// physical position and coloured by the memory chunk (innermost tile, or
// physical row) it lands in, chunk borders drawn thick; below it the memory
// in order, one chunk per line, each slot labelled with its logical index,
// padding slots grey. With --relayout SRC DST both layouts are drawn and
// every element keeps the colour of its chunk in SRC, so a reader sees where
// each element goes. Self-contained SVG 1.1 (no scripts, no external fonts).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "layout/Xla/ShapeUtil.h"

#include "llvm/Support/raw_ostream.h"

using namespace layout_explain;
using namespace mlir::layout;

namespace {
/// `svg` draws at most this many slots per layout.
constexpr int64_t kMaxSvgSlots = 4096;
constexpr int kCellWidth = 44, kCellHeight = 26, kMargin = 16;
constexpr int kMaxSlotsPerMemoryLine = 32;
/// Room for the captions.
constexpr int kMinWidth = 380;
/// The largest side, in pixels, of the picture as declared: larger drawings
/// are scaled down to fit (a viewBox keeps their coordinates). Renderers
/// have limits (librsvg refuses images over 32767 pixels on a side); a
/// 4096-slot row drawn at full size is 180,256 pixels wide.
constexpr int64_t kMaxSvgPixels = 16384;

/// Pastel fills, one per memory chunk (cycled).
constexpr const char *kPalette[] = {"#a6cee3", "#b2df8a", "#fb9a99", "#fdbf6f",
                                    "#cab2d6", "#ffff99", "#8dd3c7", "#bebada",
                                    "#fb8072", "#80b1d3", "#fdb462", "#b3de69"};

/// Slots per memory chunk: the innermost tile, or the minor physical dim.
int64_t chunkSlots(const TiledLayoutMap &map) {
  int64_t slots = 1;
  if (!map.getLevels().empty()) {
    for (int64_t t : map.getLevels().back().tile)
      slots *= t;
  } else if (!map.getPhysicalDims().empty()) {
    slots = map.getPhysicalDims().back();
  }
  return std::max<int64_t>(1, std::min<int64_t>(slots, kMaxSlotsPerMemoryLine));
}

std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

/// One layout: grid and memory strip at vertical offset `top`; `colorOf`
/// gives the palette index of a logical element (row-major number).
/// Returns the height used.
int drawLayout(llvm::raw_ostream &os, const Shape &shape,
               const TiledLayoutMap &map, int top,
               llvm::function_ref<int64_t(int64_t)> colorOf, int &width) {
  ArrayRef<int64_t> dims = shape.getDims();
  int64_t rank = shape.getRank();
  int64_t cols = rank ? dims.back() : 1;
  int64_t rows = cols ? map.getElementCount() / cols : 0;
  int64_t chunk = chunkSlots(map);
  os << "<text x=\"" << kMargin << "\" y=\"" << top + 14
     << "\" font-weight=\"bold\">" << escape(printShape(shape)) << "</text>\n";
  int gridTop = top + 24;
  // Logical element number -> physical slot, and the reverse.
  SmallVector<int64_t> slotOf(map.getElementCount());
  SmallVector<int64_t> chunkOf(map.getElementCount());
  SmallVector<int64_t, 6> index(rank, 0);
  for (int64_t e = 0; e < map.getElementCount(); ++e) {
    slotOf[e] = map.linearIndex(index);
    chunkOf[e] = slotOf[e] / chunk;
    (void)bumpIndices(dims, index);
  }
  os << "<g font-size=\"11\" text-anchor=\"middle\">\n";
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t e = r * cols + c;
      int x = kMargin + static_cast<int>(c) * kCellWidth;
      int y = gridTop + static_cast<int>(r) * kCellHeight;
      os << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCellWidth
         << "\" height=\"" << kCellHeight << "\" fill=\""
         << kPalette[colorOf(e) % std::size(kPalette)]
         << "\" stroke=\"#777\" stroke-width=\"0.5\"/>";
      os << "<text x=\"" << x + kCellWidth / 2 << "\" y=\"" << y + 17 << "\">"
         << slotOf[e] << "</text>\n";
      // Thick borders where the memory chunk changes.
      auto edge = [&](bool differs, int x1, int y1, int x2, int y2) {
        if (differs)
          os << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2
             << "\" y2=\"" << y2 << "\" stroke=\"#000\" stroke-width=\"2\"/>";
      };
      edge(c == 0 || chunkOf[e - 1] != chunkOf[e], x, y, x, y + kCellHeight);
      edge(c + 1 == cols || chunkOf[e + 1] != chunkOf[e], x + kCellWidth, y,
           x + kCellWidth, y + kCellHeight);
      edge(r == 0 || chunkOf[e - cols] != chunkOf[e], x, y, x + kCellWidth, y);
      edge(r + 1 == rows || chunkOf[e + cols] != chunkOf[e], x, y + kCellHeight,
           x + kCellWidth, y + kCellHeight);
      os << "\n";
    }
  os << "</g>\n";
  int memoryTop = gridTop + static_cast<int>(rows) * kCellHeight + 28;
  os << "<text x=\"" << kMargin << "\" y=\"" << memoryTop - 8
     << "\" font-size=\"12\">memory order (" << map.getPhysicalElementCount()
     << " slots, grey = padding)</text>\n";
  os << "<g font-size=\"10\" text-anchor=\"middle\">\n";
  int64_t slots = map.getPhysicalElementCount();
  for (int64_t s = 0; s < slots; ++s) {
    int x = kMargin + static_cast<int>(s % chunk) * kCellWidth;
    int y = memoryTop + static_cast<int>(s / chunk) * kCellHeight;
    std::optional<SmallVector<int64_t, 6>> logical = map.logicalIndex(s);
    std::string fill = "#dddddd";
    std::string label = "pad";
    if (logical) {
      int64_t e = 0;
      for (int64_t d = 0; d < rank; ++d)
        e = e * dims[d] + (*logical)[d];
      fill = kPalette[colorOf(e) % std::size(kPalette)];
      label = joinInts(*logical);
    }
    os << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << kCellWidth
       << "\" height=\"" << kCellHeight << "\" fill=\"" << fill
       << "\" stroke=\"#555\" stroke-width=\"0.5\"/>";
    os << "<text x=\"" << x + kCellWidth / 2 << "\" y=\"" << y + 16 << "\">"
       << label << "</text>\n";
  }
  os << "</g>\n";
  width = std::max<int>(width,
                        2 * kMargin + static_cast<int>(std::max(cols, chunk)) *
                                          kCellWidth);
  int64_t memoryLines = (slots + chunk - 1) / chunk;
  return memoryTop + static_cast<int>(memoryLines) * kCellHeight + kMargin -
         top;
}

Expected<TiledLayoutMap> drawableMap(const Shape &shape) {
  Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
  if (!map)
    return map.takeError();
  if (map->getPhysicalElementCount() > kMaxSvgSlots)
    return makeErr(printShape(shape) + " has " +
                   llvm::Twine(map->getPhysicalElementCount()) +
                   " slots; svg draws at most " + llvm::Twine(kMaxSvgSlots));
  return map;
}
} // namespace

Error layout_explain::runSvg(const Args &args, Output &out) {
  const Shape &source = args.shapes[0];
  Expected<TiledLayoutMap> sourceMap = drawableMap(source);
  if (!sourceMap)
    return sourceMap.takeError();
  std::optional<TiledLayoutMap> destMap;
  if (args.shapes.size() == 2) {
    const Shape &dest = args.shapes[1];
    if (dest.getDims() != source.getDims() ||
        dest.getElementType() != source.getElementType())
      return makeErr("svg --relayout needs the same dims and element type, "
                     "got " +
                     printShape(source) + " and " + printShape(dest));
    Expected<TiledLayoutMap> map = drawableMap(dest);
    if (!map)
      return map.takeError();
    destMap = std::move(*map);
  }
  // Every element keeps the colour of its memory chunk in the source.
  int64_t chunk = chunkSlots(*sourceMap);
  SmallVector<int64_t> colors(sourceMap->getElementCount());
  {
    SmallVector<int64_t, 6> index(source.getRank(), 0);
    for (int64_t e = 0; e < sourceMap->getElementCount(); ++e) {
      colors[e] = sourceMap->linearIndex(index) / chunk;
      (void)bumpIndices(source.getDims(), index);
    }
  }
  auto colorOf = [&](int64_t e) { return colors[e]; };
  std::string body;
  llvm::raw_string_ostream os(body);
  int width = kMinWidth;
  int height = drawLayout(os, source, *sourceMap, 0, colorOf, width);
  if (destMap) {
    os << "<text x=\"" << kMargin << "\" y=\"" << height + 4
       << "\" font-size=\"12\">relayout: colours follow each element from "
          "the first layout</text>\n";
    height += 12;
    height += drawLayout(os, args.shapes[1], *destMap, height, colorOf, width);
  }
  // Scale a drawing whose longer side exceeds kMaxSvgPixels down to it,
  // keeping the aspect ratio (each side at least 1 pixel).
  std::string size = "width=\"" + std::to_string(width) + "\" height=\"" +
                     std::to_string(height) + "\"";
  int64_t longest = std::max(width, height);
  if (longest > kMaxSvgPixels) {
    int64_t scaledWidth =
        std::max<int64_t>(1, int64_t(width) * kMaxSvgPixels / longest);
    int64_t scaledHeight =
        std::max<int64_t>(1, int64_t(height) * kMaxSvgPixels / longest);
    size = "width=\"" + std::to_string(scaledWidth) + "\" height=\"" +
           std::to_string(scaledHeight) + "\" viewBox=\"0 0 " +
           std::to_string(width) + " " + std::to_string(height) + "\"";
  }
  out.text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" " +
             size +
             " font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
             "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n" +
             body + "</svg>\n";
  out.object["svg"] = out.text;
  return Error::success();
}
