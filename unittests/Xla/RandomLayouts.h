//===- RandomLayouts.h - Deterministic random shapes for property tests ---===//
//
// One generator of random array shapes with random layouts (minor_to_major,
// up to three tile levels with `*` entries, legacy padding, L), shared by the
// property tests. Every shape it returns has a valid TiledLayoutMap with at
// most `maxAllocated` slots.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_UNITTESTS_XLA_RANDOMLAYOUTS_H
#define LAYOUT_UNITTESTS_XLA_RANDOMLAYOUTS_H

#include "layout/Xla/TiledLayoutMap.h"

#include <algorithm>
#include <numeric>
#include <random>

namespace mlir::layout::unittest {

struct RandomLayoutOptions {
  uint64_t seed = 20261122;
  int64_t minRank = 0;
  int64_t maxRank = 4;
  int64_t maxDim = 7;      // dims are 1..maxDim (sometimes 1)
  bool tailPadding = true; // sometimes set L(n)
  int64_t maxAllocated = 20000;
};

class RandomLayoutGenerator {
public:
  explicit RandomLayoutGenerator(RandomLayoutOptions options = {})
      : options(options), rng(options.seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }

  Shape next() {
    for (;;) {
      int64_t rank = uniform(options.minRank, options.maxRank);
      llvm::SmallVector<int64_t, 4> dims;
      for (int64_t i = 0; i < rank; ++i)
        dims.push_back(uniform(0, 9) == 0 ? 1 : uniform(1, options.maxDim));
      llvm::SmallVector<int64_t, 4> m2m(rank);
      std::iota(m2m.begin(), m2m.end(), 0);
      std::shuffle(m2m.begin(), m2m.end(), rng);
      Layout layout(m2m);
      int64_t levels = uniform(0, 3);
      for (int64_t l = 0; l < levels; ++l) {
        int64_t n = uniform(1, rank + 1);
        llvm::SmallVector<int64_t, 4> t;
        for (int64_t j = 0; j < n; ++j)
          t.push_back(j + 1 < n && uniform(0, 4) == 0 ? Tile::kCombineDimension
                                                      : uniform(1, 4));
        layout.mutableTiles().push_back(Tile(t));
      }
      if (rank && uniform(0, 4) == 0) {
        for (int64_t d : dims)
          layout.mutablePaddedDimensions().push_back(d + uniform(0, 2));
        layout.setPaddingValue(PaddingValue::Zero);
      }
      if (options.tailPadding && uniform(0, 4) == 0)
        layout.setTailPaddingAlignment(uniform(1, 5));
      Shape shape = Shape::makeArray(PrimitiveType::F32, dims, layout);
      llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
      if (!map) {
        llvm::consumeError(map.takeError());
        continue;
      }
      if (map->getAllocatedElements() > options.maxAllocated)
        continue; // keep brute-force checks fast
      return shape;
    }
  }

private:
  RandomLayoutOptions options;
  std::mt19937_64 rng;
};

} // namespace mlir::layout::unittest

#endif // LAYOUT_UNITTESTS_XLA_RANDOMLAYOUTS_H
