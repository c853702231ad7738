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
LLVM=/usr/lib/llvm-22
source scripts/sanitizer-flags.sh
all=0
if [ "${1:-}" = --all ]; then all=1; fi

# halt_on_error: the first report aborts the process (and fails the test);
# detect_leaks: LeakSanitizer works here. lit passes these on (test/lit.cfg.py).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
export ASAN_SYMBOLIZER_PATH=$LLVM/bin/llvm-symbolizer

if [ $all = 1 ]; then
  unset BUILD_TARGETS
else
  export BUILD_TARGETS="LayoutXlaTests layout-explain"
fi
bash scripts/build.sh "${SANITIZER_CMAKE_FLAGS[@]}" ||
  { echo "sanitizer: build failed"; echo "sanitizer: 0 passed, 1 failed"; 
    [ -n "${SANITIZE_RESULTS:-}" ] && echo "0 1" >"$SANITIZE_RESULTS"; exit 1; }

results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
echo "== sanitizer: unit tests (ASan+UBSan) =="
unit_rc=0
for t in "$BUILD_DIR"/unittests/*Tests; do
  [ -x "$t" ] || continue
  "$t" --gtest_brief=1 --gtest_output="json:$results/$(basename "$t").json" ||
    unit_rc=1
done

echo "== sanitizer: lit tests (ASan+UBSan) =="
lit_paths=("$BUILD_DIR/test/layout-explain")
if [ $all = 1 ]; then lit_paths=("$BUILD_DIR/test"); fi
"$LLVM/bin/lit" -sv --xunit-xml-output="$results/lit.xml" "${lit_paths[@]}"
lit_rc=$?

counts=$(python3 - "$results" <<'PY'
import glob, json, os, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
p = f = 0
for name in glob.glob(os.path.join(d, "*.json")):
    for suite in json.load(open(name)).get("testsuites", []):
        for t in suite.get("testsuite", []):
            if t.get("result") == "SKIPPED" or t.get("status") == "NOTRUN":
                continue
            if t.get("failures"):
                f += 1
            else:
                p += 1
lit = os.path.join(d, "lit.xml")
if os.path.exists(lit):
    for tc in ET.parse(lit).getroot().iter("testcase"):
        if tc.find("failure") is not None or tc.find("error") is not None:
            f += 1
        elif tc.find("skipped") is None:
            p += 1
print(p, f)
PY
)
read -r passed failed <<<"$counts"
# A crash before any result was written still fails the run.
if [ $unit_rc -ne 0 ] || [ $lit_rc -ne 0 ]; then
  [ "$failed" -eq 0 ] && failed=1
fi
[ -n "${SANITIZE_RESULTS:-}" ] && echo "$passed $failed" >"$SANITIZE_RESULTS"
echo "sanitizer: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
