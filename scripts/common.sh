# Sourced by the scripts in scripts/: what they share.
#   LLVM                    the Debian LLVM/MLIR 22 prefix (not on PATH)
#   run_unit_and_lit DIR RESULTS [LIT_PATH...]
#                           runs every unit test binary of build DIR and lit
#                           (default DIR/test), writing GoogleTest JSON and lit
#                           xunit files into RESULTS; returns non-zero if any
#                           failed or crashed
#   count_results RESULTS   prints "UNIT_PASSED UNIT_FAILED LIT_PASSED
#                           LIT_FAILED LIT_UNSUPPORTED" from those files
#   write_result FILE P F   writes "P F" to FILE if FILE is not empty (the
#                           per-part result files test-all.sh sums up)

LLVM=${LLVM:-/usr/lib/llvm-22}

run_unit_and_lit() {
  local dir=$1 results=$2 rc=0 t
  shift 2
  local lit_paths=("$@")
  [ ${#lit_paths[@]} -eq 0 ] && lit_paths=("$dir/test")
  for t in "$dir"/unittests/*Tests; do
    [ -x "$t" ] || continue
    "$t" --gtest_brief=1 --gtest_output="json:$results/$(basename "$t").json" ||
      rc=1
  done
  # A test that hangs (a miscompiled kernel spinning, a deadlocked runner)
  # fails after LIT_TIMEOUT seconds instead of stalling the run; lit needs
  # psutil in the interpreter of its shebang for that.
  local timeout_args=() lit_python
  lit_python=$(head -1 "$LLVM/bin/lit" | sed 's/^#! *//')
  if "$lit_python" -c 'import psutil' 2>/dev/null; then
    timeout_args=(--timeout "${LIT_TIMEOUT:-1200}")
  else
    echo "run_unit_and_lit: no psutil for $lit_python: lit tests run without a timeout"
  fi
  "$LLVM/bin/lit" -sv "${timeout_args[@]}" --xunit-xml-output="$results/lit.xml" \
    "${lit_paths[@]}" || rc=1
  return $rc
}

count_results() {
  python3 - "$1" <<'PY'
import glob, json, os, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
up = uf = 0
for name in glob.glob(os.path.join(d, "*.json")):
    for suite in json.load(open(name)).get("testsuites", []):
        for t in suite.get("testsuite", []):
            if t.get("result") == "SKIPPED" or t.get("status") == "NOTRUN":
                continue
            if t.get("failures"):
                uf += 1
            else:
                up += 1
lp = lf = ls = 0
lit = os.path.join(d, "lit.xml")
if os.path.exists(lit):
    for tc in ET.parse(lit).getroot().iter("testcase"):
        if tc.find("failure") is not None or tc.find("error") is not None:
            lf += 1
        elif tc.find("skipped") is not None:
            ls += 1
        else:
            lp += 1
print(up, uf, lp, lf, ls)
PY
}

write_result() {
  [ -n "${1:-}" ] && echo "$2 $3" >"$1"
  true
}
