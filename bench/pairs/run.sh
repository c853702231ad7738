#!/usr/bin/env bash
# Builds and runs the layout pair matrix (docs/performance.md, "Layout pair
# matrix"):
#   bash bench/pairs/run.sh [--rounds N] [--check-only] [--threads N|all]
#     [--json FILE] [--only f32,bf16,f32_odd,bf16_odd,bf16_narrow,u8_odd,f64_odd]
# Every relayout of gen_pairs.py is compiled with the default
# --layout-lower-to-llvm and, as the reference it is checked against, with
# vector-bytes=0 (scalar loops). Env as bench/run.sh: BUILD_DIR, OUT,
# SIZE=large|small, PIPELINE_OPTIONS, MARCH.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-$BUILD_DIR/bench}/pairs
SIZE=${SIZE:-large}
L=/usr/lib/llvm-22
LAYOUT_OPT=${LAYOUT_OPT:-$BUILD_DIR/bin/layout-opt}
LAYOUT_EXPLAIN=${LAYOUT_EXPLAIN:-$(dirname "$LAYOUT_OPT")/layout-explain}
CXX=${CXX:-clang++-22}
MARCH=${MARCH:-native}
mkdir -p "$OUT"
python3 bench/pairs/gen_pairs.py "$SIZE" "$LAYOUT_EXPLAIN" "$OUT"

args=("$@")
source bench/options.sh

compile() { # NAME PREFIX PIPELINE-OPTIONS
  local name=$1 prefix=$2 pipeline=$3
  sed "s/func.func @/func.func @${prefix}/" "$OUT/pairs.mlir" \
    > "$OUT/$name.mlir"
  "$LAYOUT_OPT" "$OUT/$name.mlir" "--layout-lower-to-llvm=$pipeline" \
    -o "$OUT/$name.llvm.mlir"
  "$L/bin/mlir-translate" --mlir-to-llvmir "$OUT/$name.llvm.mlir" \
    -o "$OUT/$name.ll"
  "$CXX" -O3 -march="$MARCH" -Wno-override-module -c "$OUT/$name.ll" \
    -o "$OUT/$name.o"
}
compile ours "" "$options"
compile scalar scalar_ "$options vector-bytes=0"

"$CXX" -O3 -march="$MARCH" -std=c++17 -fopenmp -I"$OUT" \
  bench/pairs/pairs.cpp "$OUT/ours.o" "$OUT/scalar.o" -L"$L/lib" \
  -Wl,-rpath,"$L/lib" -lmlir_c_runner_utils -lm -o "$OUT/pairs"
"$OUT/pairs" "$@" | tee "$OUT/pairs.txt"
