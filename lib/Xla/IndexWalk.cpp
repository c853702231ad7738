//===- IndexWalk.cpp - Row-major walk of logical indices ------------------===//

#include "layout/Xla/IndexWalk.h"

#include <algorithm>
#include <cassert>

bool mlir::layout::bumpIndices(llvm::ArrayRef<int64_t> dims,
                               llvm::MutableArrayRef<int64_t> indices) {
  assert(dims.size() == indices.size() && "one index per dim");
  for (int64_t dim = static_cast<int64_t>(indices.size()) - 1; dim >= 0;
       --dim) {
    int64_t limit = dims[dim];
    if (limit > 0 && indices[dim] >= 0 && indices[dim] < limit - 1) {
      ++indices[dim];
      std::fill(indices.begin() + dim + 1, indices.end(), 0);
      return true;
    }
  }
  std::fill(indices.begin(), indices.end(), 0);
  return false;
}
