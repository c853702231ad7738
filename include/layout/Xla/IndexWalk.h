//===- IndexWalk.h - Row-major walk of logical indices ----------*- C++ -*-===//
//
// The walk of every logical index of a box of dims in row-major order (last
// dim fastest), below everything else of the library: the exact algebra
// (LayoutCanonical.h, TiledLayoutWalk.h) walks indices with it, and the
// port of XLA's IndexUtil (ShapeUtil.h) builds bumpIndices of a Shape on it.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_INDEXWALK_H
#define LAYOUT_XLA_INDEXWALK_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace mlir::layout {

/// Advances `indices` to the next index of the dims `dims`
/// (indices.size() == dims.size()) in row-major order: the walk of logical
/// indices shared by the library and the tools. Returns false (indices all
/// zero) after the last index and when a dim is not positive. Pre: indices
/// in bounds.
bool bumpIndices(llvm::ArrayRef<int64_t> dims,
                 llvm::MutableArrayRef<int64_t> indices);

} // namespace mlir::layout

#endif // LAYOUT_XLA_INDEXWALK_H
