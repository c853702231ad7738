//===- TestHelpers.h - helpers shared by the LayoutXla tests ----*- C++ -*-===//
//
// Unwrapping llvm::Expected / llvm::Error in GoogleTest: a value that should
// be there (a failure otherwise), or the message of an expected error; the
// map of a shape and the row-major walk of its indices.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_UNITTESTS_XLA_TESTHELPERS_H
#define LAYOUT_UNITTESTS_XLA_TESTHELPERS_H

#include "layout/Xla/Shape.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

#include <string>

namespace mlir::layout::unittest {

/// The message of an expected error; a test failure if there is a value.
template <typename T> std::string errorOf(llvm::Expected<T> value) {
  if (value) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(value.takeError());
}

/// The message of an expected error; a test failure on success.
inline std::string errorOf(llvm::Error err) {
  if (!err) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(std::move(err));
}

/// The value; a test failure (and T()) on an error.
template <typename T> T valueOf(llvm::Expected<T> value) {
  if (!value) {
    ADD_FAILURE() << llvm::toString(value.takeError());
    return T();
  }
  return std::move(*value);
}

/// The tiled layout map of a valid static array shape.
inline TiledLayoutMap getMap(const Shape &shape) {
  return valueOf(TiledLayoutMap::get(shape));
}

/// The multi-index of the `n`-th element of `dims` in row-major order.
inline void delinearize(llvm::ArrayRef<int64_t> dims, int64_t n,
                        llvm::SmallVectorImpl<int64_t> &index) {
  index.resize(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    index[d] = n % dims[d];
    n /= dims[d];
  }
}
inline void delinearize(const Shape &shape, int64_t n,
                        llvm::SmallVectorImpl<int64_t> &index) {
  delinearize(shape.getDims(), n, index);
}

} // namespace mlir::layout::unittest

#endif // LAYOUT_UNITTESTS_XLA_TESTHELPERS_H
