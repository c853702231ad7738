#!/usr/bin/env bash
# README command 2: install dependencies, build everything, run every test
# (GoogleTest unit tests + lit tests), and end with one pass/fail summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh || exit 1
bash scripts/build.sh || { echo "summary: build failed"; exit 1; }
BUILD_DIR=${BUILD_DIR:-build}
source scripts/common.sh
results=$(mktemp -d)

echo "== unit and lit tests =="
run_unit_and_lit "$BUILD_DIR" "$results"
tests_rc=$?

# Sanitizer CI (scripts/sanitize.sh --all): everything rebuilt with ASan +
# UBSan in build-asan, every unit and lit test run again under it.
# LAYOUT_CI_SANITIZERS=0 skips it; LAYOUT_CI_SANITIZERS=quick runs only the
# library's unit tests and the layout-explain lit tests.
san_rc=0
if [ "${LAYOUT_CI_SANITIZERS:-1}" != 0 ]; then
  echo "== sanitizer tests (ASan+UBSan) =="
  san_args=(--all)
  [ "${LAYOUT_CI_SANITIZERS:-1}" = quick ] && san_args=()
  BUILD_DIR=build-asan SANITIZE_RESULTS="$results/sanitizer.txt" \
    bash scripts/sanitize.sh "${san_args[@]}" || san_rc=1
fi
# Fuzzing (scripts/fuzz.sh): each libFuzzer target for
# LAYOUT_CI_FUZZ_SECONDS (default 60; 0 skips it); one test per target. The
# fuzzers come from the same instrumented build (build-asan).
fuzz_rc=0
if [ "${LAYOUT_CI_FUZZ_SECONDS:-60}" != 0 ]; then
  echo "== fuzz (${LAYOUT_CI_FUZZ_SECONDS:-60}s per target) =="
  BUILD_DIR=build-asan FUZZ_RESULTS="$results/fuzz.txt" \
    bash scripts/fuzz.sh "${LAYOUT_CI_FUZZ_SECONDS:-60}" || fuzz_rc=1
fi

# Packaging (scripts/test-downstream.sh): install to a temporary prefix, build
# examples/downstream against find_package(MLIRLayout), run our pipeline.
echo "== downstream package test =="
DOWNSTREAM_RESULTS="$results/downstream.txt" bash scripts/test-downstream.sh
downstream_rc=$?

read -r up uf lp lf ls <<<"$(count_results "$results")"
echo "unit tests: $up passed, $uf failed"
echo "lit tests: $lp passed, $lf failed, $ls unsupported"
passed=$((up + lp)) failed=$((uf + lf))
for part in "downstream:downstream" "sanitizer:sanitizer" "fuzz:fuzz targets"; do
  file="$results/${part%%:*}.txt"
  [ -f "$file" ] || continue
  read -r p f <"$file"
  echo "${part#*:}: $p passed, $f failed"
  passed=$((passed + p)) failed=$((failed + f))
done
echo "summary: $passed passed, $failed failed"
if [ $tests_rc -ne 0 ] || [ $san_rc -ne 0 ] ||
   [ $downstream_rc -ne 0 ] ||
   [ $fuzz_rc -ne 0 ]; then
  echo "RESULT: FAIL"
  exit 1
fi
echo "RESULT: PASS"
