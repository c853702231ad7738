//===- FuzzCheck.h - Helpers shared by the LayoutXla fuzzers ----*- C++ -*-===//
//
// A failed property prints what broke and traps, so that libFuzzer records
// the input as a crash (__builtin_trap also stops at -fno-sanitize-recover
// builds without a sanitizer).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_FUZZ_FUZZCHECK_H
#define LAYOUT_FUZZ_FUZZCHECK_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>

namespace layout_fuzz {

[[noreturn]] inline void fail(const llvm::Twine &what) {
  llvm::errs() << "fuzz property violated: " << what << "\n";
  llvm::errs().flush();
  __builtin_trap();
}

inline void check(bool condition, const llvm::Twine &what) {
  if (!condition)
    fail(what);
}

/// The value of `value`, or std::nullopt after dropping its error.
template <typename T> std::optional<T> ok(llvm::Expected<T> value) {
  if (!value) {
    llvm::consumeError(value.takeError());
    return std::nullopt;
  }
  return std::move(*value);
}

/// True (and the error dropped) if `err` is an error.
inline bool failed(llvm::Error err) {
  if (!err)
    return false;
  llvm::consumeError(std::move(err));
  return true;
}

} // namespace layout_fuzz

#endif // LAYOUT_FUZZ_FUZZCHECK_H
