#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang-22, ASan + UBSan) in
# ${BUILD_DIR:-build-asan} (the build scripts/sanitize.sh uses,
# scripts/sanitizer-flags.sh) and runs each for SECONDS (default 60) on its
# committed seed corpus and dictionary, one target after another (one
# process each: no -jobs/-workers). Prints executions and crashes per target;
# exits non-zero if any target crashed (the reproducer is in
# ${FUZZ_OUT:-$BUILD_DIR/fuzz-out}/<target>/artifacts/crash-*). With
# FUZZ_RESULTS=FILE it also writes "TARGETS_WITHOUT_CRASH TARGETS_WITH_CRASH"
# there (scripts/test-all.sh).
#
#   bash scripts/fuzz.sh [SECONDS]
#   FUZZ_TARGETS="index-map" bash scripts/fuzz.sh 600
set -uo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
source scripts/common.sh
source scripts/sanitizer-flags.sh
TARGETS=${FUZZ_TARGETS:-"shape-text index-map shape-util mlir-attr mlir-module"}
OUT=${FUZZ_OUT:-$BUILD_DIR/fuzz-out}

fuzzers=""
for t in $TARGETS; do fuzzers="$fuzzers $t-fuzzer"; done
BUILD_TARGETS="${fuzzers# }" bash scripts/build.sh "${SANITIZER_CMAKE_FLAGS[@]}" ||
  { echo "fuzz: build failed"
    write_result "${FUZZ_RESULTS:-}" 0 1; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
# The mlir-* targets link Debian's uninstrumented libMLIR.so: LLVM's inline
# allocator code (BumpPtrAllocator, compiled into our instrumented objects)
# poisons memory that the uninstrumented half then touches, giving false
# use-after-poison reports; allow_user_poisoning=0 ignores that manual
# poisoning (real heap errors are still reported). Modules are bigger than
# shapes: -max_len=2048 there.
MLIR_ASAN_OPTIONS=${MLIR_ASAN_OPTIONS:-$ASAN_OPTIONS:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_SYMBOLIZER_PATH=$LLVM/bin/llvm-symbolizer
rows=()
rc=0
clean=0
crashed=0
for t in $TARGETS; do
  mkdir -p "$OUT/$t/corpus" "$OUT/$t/artifacts"
  rm -f "$OUT/$t/artifacts"/*
  log="$OUT/$t/fuzz.log"
  echo "== fuzz: $t for ${SECONDS_PER_TARGET}s =="
  # New inputs go to the scratch corpus; the committed seeds are read only.
  asan=$ASAN_OPTIONS
  max_len=512
  case $t in
    mlir-attr) asan=$MLIR_ASAN_OPTIONS ;;
    mlir-module) asan=$MLIR_ASAN_OPTIONS max_len=2048 ;;
  esac
  ASAN_OPTIONS=$asan "$BUILD_DIR/fuzz/$t-fuzzer" "$OUT/$t/corpus" "fuzz/corpus/$t" \
    -dict="fuzz/$t.dict" -max_total_time="$SECONDS_PER_TARGET" \
    -max_len=$max_len -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$OUT/$t/artifacts/" >"$log" 2>&1
  frc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=$(find "$OUT/$t/artifacts" -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' | wc -l)
  if [ $frc -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes=1; fi
  if [ "$crashes" -eq 0 ]; then clean=$((clean + 1)); else crashed=$((crashed + 1)); fi
  if [ "$crashes" -ne 0 ]; then
    rc=1
    grep -m5 -E 'ERROR|SUMMARY|violated|runtime error' "$log"
    echo "fuzz: $t: see $log"
  fi
  rows+=("$(printf '%-12s %12s %8s %6ss' "$t" "${execs:-?}" "$crashes" "$SECONDS_PER_TARGET")")
done
echo
printf '%-12s %12s %8s %7s\n' target executions crashes time
printf '%s\n' "${rows[@]}"
write_result "${FUZZ_RESULTS:-}" "$clean" "$crashed"
[ $rc -eq 0 ] && echo "fuzz: no crashes" || echo "fuzz: CRASHES FOUND"
exit $rc
