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
print(f"summary: {unit[0] + lp} passed, {unit[1] + lf} failed")
PY
if [ $unit_rc -ne 0 ] || [ $lit_rc -ne 0 ]; then
  echo "RESULT: FAIL"
  exit 1
fi
echo "RESULT: PASS"
