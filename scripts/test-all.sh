#!/usr/bin/env bash
# README command 2: install dependencies, build everything, run every test
# (GoogleTest unit tests + lit tests), and end with one pass/fail summary line.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh || exit 1
bash scripts/build.sh || { echo "summary: build failed"; exit 1; }
BUILD_DIR=${BUILD_DIR:-build}
LLVM=/usr/lib/llvm-22
results=$(mktemp -d)

echo "== unit tests =="
unit_rc=0
for t in "$BUILD_DIR"/unittests/*Tests; do
  name=$(basename "$t")
  "$t" --gtest_brief=1 --gtest_output="json:$results/$name.json" || unit_rc=1
done

echo "== lit tests =="
"$LLVM/bin/lit" -sv --xunit-xml-output="$results/lit.xml" "$BUILD_DIR/test"
lit_rc=$?

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

python3 - "$results" <<'PY'
import json, glob, os, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
passed = failed = skipped = 0
for f in glob.glob(os.path.join(d, "*.json")):
    j = json.load(open(f))
    for suite in j.get("testsuites", []):
        for t in suite.get("testsuite", []):
            if t.get("result") == "SKIPPED" or t.get("status") == "NOTRUN":
                skipped += 1
            elif t.get("failures"):
                failed += 1
            else:
                passed += 1
unit = (passed, failed)
lit = os.path.join(d, "lit.xml")
lp = lf = ls = 0
if os.path.exists(lit):
    for tc in ET.parse(lit).getroot().iter("testcase"):
        if tc.find("failure") is not None or tc.find("error") is not None:
            lf += 1
        elif tc.find("skipped") is not None:
            ls += 1
        else:
            lp += 1
print(f"unit tests: {unit[0]} passed, {unit[1]} failed")
print(f"lit tests: {lp} passed, {lf} failed, {ls} unsupported")
extra = []
for name, label in (("downstream.txt", "downstream"), ("sanitizer.txt", "sanitizer"),
                    ("fuzz.txt", "fuzz targets")):
    f = os.path.join(d, name)
    if os.path.exists(f):
        p, q = (int(x) for x in open(f).read().split())
        print(f"{label}: {p} passed, {q} failed")
        extra.append((p, q))
ep = sum(p for p, _ in extra)
ef = sum(q for _, q in extra)
print(f"summary: {unit[0] + lp + ep} passed, {unit[1] + lf + ef} failed")
PY
if [ $unit_rc -ne 0 ] || [ $lit_rc -ne 0 ] || [ $san_rc -ne 0 ] ||
   [ $downstream_rc -ne 0 ] ||
   [ $fuzz_rc -ne 0 ]; then
  echo "RESULT: FAIL"
  exit 1
fi
echo "RESULT: PASS"
