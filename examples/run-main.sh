#!/usr/bin/env bash
# The main job: the flagship example (examples/flagship.mlir) -- XLA
# broadcasting, compute, a tiled layout -- lowered with layout-opt
# --layout-lower-to-llvm and executed with mlir-runner; then layout-explain
# shows the layout it used.
set -euo pipefail
BUILD_DIR=${1:-build}
HERE="$(cd "$(dirname "$0")" && pwd)"
LLVM=/usr/lib/llvm-22
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

echo "\$ layout-opt examples/flagship.mlir --layout-lower-to-llvm -o flagship.llvm.mlir"
"$BUILD_DIR/bin/layout-opt" "$HERE/flagship.mlir" --layout-lower-to-llvm \
  -o "$OUT/flagship.llvm.mlir"
echo "\$ mlir-runner flagship.llvm.mlir -e main ..."
echo "# r = 2 * (m + broadcast(v, dims (0))): logical, then physical ({1,0:T(2,4)}, one 2x4 tile per row)"
"$LLVM/bin/mlir-runner" "$OUT/flagship.llvm.mlir" -e main -entry-point-result=void \
  -shared-libs="$LLVM/lib/libmlir_runner_utils.so,$LLVM/lib/libmlir_c_runner_utils.so"
echo
echo "\$ layout-explain show 'f32[4,8]{1,0:T(2,4)}'"
"$BUILD_DIR/bin/layout-explain" show 'f32[4,8]{1,0:T(2,4)}'
