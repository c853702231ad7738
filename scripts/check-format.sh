#!/usr/bin/env bash
# Fails on C++ and TableGen files that clang-format-22 (.clang-format) would
# change, and names them.
#   bash scripts/check-format.sh         # files changed by the last commit
#                                        # (HEAD~1..HEAD; every file if HEAD
#                                        # has no parent)
#   bash scripts/check-format.sh --all   # every tracked .cpp/.h/.td file
set -uo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT=${CLANG_FORMAT:-clang-format-22}
if ! command -v "$CLANG_FORMAT" >/dev/null; then
  echo "check-format: $CLANG_FORMAT not found (scripts/install-deps.sh installs it)"
  exit 1
fi
patterns=('*.cpp' '*.h' '*.td')
if [ "${1:-}" = --all ] || ! git rev-parse -q --verify HEAD~1 >/dev/null; then
  mapfile -t files < <(git ls-files -- "${patterns[@]}")
else
  mapfile -t files < <(git diff --name-only --diff-filter=ACMR HEAD~1 HEAD -- \
    "${patterns[@]}")
fi
bad=()
for f in "${files[@]}"; do
  "$CLANG_FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "check-format: ${#bad[@]} of ${#files[@]} files are not formatted (run $CLANG_FORMAT -i on them):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
