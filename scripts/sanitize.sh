#!/usr/bin/env bash
# Sanitizer tests: builds with ASan + UBSan (clang-22,
# -fno-sanitize-recover=all, LLVM and libstdc++ assertions on;
# scripts/sanitizer-flags.sh) in ${BUILD_DIR:-build-asan}, then runs the unit
# tests and lit tests. Any sanitizer report fails the run.
#
#   bash scripts/sanitize.sh --all    # everything: the library, the dialect,
#                                     # layout-opt, the plugin, the fuzzers;
#                                     # every unit and lit test (CI)
#   bash scripts/sanitize.sh          # quick: LayoutXla's unit tests and the
#                                     # layout-explain lit tests only
#
# Prints "sanitizer: N passed, N failed" (unit tests + lit tests) last; with
# SANITIZE_RESULTS=FILE it also writes "PASSED FAILED" there (test-all.sh).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh
source scripts/sanitizer-flags.sh
all=0
if [ "${1:-}" = --all ]; then all=1; fi

# halt_on_error: the first report aborts the process (and fails the test);
# detect_leaks: LeakSanitizer works here. lit passes these on (test/lit.cfg.py).
# allow_user_poisoning=0: the dialect's unit tests link Debian's uninstrumented
# libMLIR.so, and LLVM's inline BumpPtrAllocator code (compiled into our
# instrumented objects, e.g. an attribute storage's construct) poisons slabs
# that libMLIR.so then fills without unpoisoning: false use-after-poison
# reports (as in test/lit.cfg.py). Real heap errors are still reported.
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_SYMBOLIZER_PATH=$LLVM/bin/llvm-symbolizer

if [ $all = 1 ]; then
  unset BUILD_TARGETS
else
  export BUILD_TARGETS="LayoutXlaTests layout-explain"
fi
bash scripts/build.sh "${SANITIZER_CMAKE_FLAGS[@]}" ||
  { echo "sanitizer: build failed"; echo "sanitizer: 0 passed, 1 failed"
    write_result "${SANITIZE_RESULTS:-}" 0 1; exit 1; }

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
echo "== sanitizer: unit and lit tests (ASan+UBSan) =="
lit_paths=("$BUILD_DIR/test/layout-explain")
if [ $all = 1 ]; then lit_paths=("$BUILD_DIR/test"); fi
run_unit_and_lit "$BUILD_DIR" "$results" "${lit_paths[@]}"
tests_rc=$?
read -r up uf lp lf _ <<<"$(count_results "$results")"
passed=$((up + lp)) failed=$((uf + lf))
# A crash before any result was written still fails the run.
if [ $tests_rc -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
write_result "${SANITIZE_RESULTS:-}" "$passed" "$failed"
echo "sanitizer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
