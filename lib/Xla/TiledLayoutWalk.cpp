//===- TiledLayoutWalk.cpp - Affine runs of a tiled layout ----------------===//
//
// getAffineRun follows one logical index e through the tile levels. At every
// step the coordinate holding e is `m * e + o`, where o does not depend on e
// and is known to be a multiple of `align` (0: o is exactly 0). Tiling that
// coordinate by t:
//   * t divides m: floor((m e + o) / t) = (m/t) e + floor(o/t) everywhere;
//     the in-tile coordinate no longer depends on e.
//   * m divides t: the count is constant between the points where m e + o
//     crosses a multiple of t; those are multiples of gcd(align, t) / m in e
//     (t / m when o is a multiple of t), which bounds the run length; inside
//     a run, the in-tile coordinate is m e + (o mod t).
// A `*` group multiplies e by the sizes of the more minor members and adds
// their arbitrary indices (align becomes 1) unless e is the most minor
// member (align becomes gcd(align, size of e's dim)).
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/TiledLayoutWalk.h"
#include "layout/Xla/IndexWalk.h"

#include <numeric>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;

std::optional<AffineRun> mlir::layout::getAffineRun(const TiledLayoutMap &map,
                                                    int64_t logicalDim) {
  llvm::ArrayRef<int64_t> minorToMajor = map.getMinorToMajor();
  int64_t rank = static_cast<int64_t>(minorToMajor.size());
  if (logicalDim < 0 || logicalDim >= rank)
    return std::nullopt;
  int64_t pos = -1;
  for (int64_t k = 0; k < rank; ++k)
    if (minorToMajor[rank - 1 - k] == logicalDim)
      pos = k;
  int64_t m = 1, align = 0, length = 0;
  for (const TileLevel &level : map.getLevels()) {
    pos += level.numPrependedDims;
    // The `*` group holding e.
    int64_t group = -1;
    for (auto [g, range] : llvm::enumerate(level.groups))
      if (range.first <= pos && pos < range.second)
        group = static_cast<int64_t>(g);
    if (group < 0)
      return std::nullopt;
    auto [begin, end] = level.groups[group];
    if (end - begin > 1) {
      if (pos == end - 1) {
        int64_t size = level.inputDims[pos];
        if (size == kUnboundedSize || size <= 0)
          return std::nullopt;
        align = std::gcd(align, size);
      } else {
        int64_t stride = 1;
        for (int64_t d = pos + 1; d < end; ++d) {
          if (level.inputDims[d] == kUnboundedSize || level.inputDims[d] <= 0)
            return std::nullopt;
          stride *= level.inputDims[d];
        }
        m *= stride;
        align = 1;
      }
    }
    pos = group;
    int64_t numTiled = static_cast<int64_t>(level.tile.size());
    int64_t numLeading =
        static_cast<int64_t>(level.combinedDims.size()) - numTiled;
    if (pos < numLeading)
      continue;
    int64_t i = pos - numLeading;
    int64_t t = level.tile[i];
    if (m % t == 0) {
      m /= t;
      align = align == 0 ? 0 : (align % t == 0 ? align / t : 1);
      pos = numLeading + i;
      continue;
    }
    if (t % m != 0)
      return std::nullopt;
    int64_t boundaryAlign = std::gcd(align, t); // gcd(0, t) == t
    if (boundaryAlign % m != 0)
      return std::nullopt;
    length = std::gcd(length, boundaryAlign / m); // gcd(0, x) == x
    align = boundaryAlign;
    pos = numLeading + numTiled + i;
  }
  return AffineRun{length, pos, m};
}

std::optional<std::string>
mlir::layout::findAffineRunViolation(const TiledLayoutMap &map,
                                     int64_t logicalDim, const AffineRun &run) {
  ArrayRef<int64_t> dims = map.getLogicalDims();
  if (map.getElementCount() == 0)
    return std::nullopt;
  SmallVector<int64_t, 6> index(dims.size(), 0);
  while (true) {
    int64_t e = index[logicalDim];
    bool inRun = e + 1 < dims[logicalDim] &&
                 (run.length == 0 || (e + 1) % run.length != 0);
    if (inRun) {
      SmallVector<int64_t, 6> here = map.physicalIndex(index);
      ++index[logicalDim];
      SmallVector<int64_t, 6> next = map.physicalIndex(index);
      --index[logicalDim];
      for (size_t k = 0; k < here.size(); ++k) {
        int64_t expected =
            static_cast<int64_t>(k) == run.physicalDim ? run.stride : 0;
        if (next[k] - here[k] != expected)
          return "affine run of dim " + std::to_string(logicalDim) +
                 " is not affine at element " + std::to_string(e) +
                 " (physical coordinate " + std::to_string(k) + " moves by " +
                 std::to_string(next[k] - here[k]) + ", expected " +
                 std::to_string(expected) + ")";
      }
    }
    // Next logical index, row-major.
    if (!bumpIndices(dims, index))
      return std::nullopt;
  }
}
