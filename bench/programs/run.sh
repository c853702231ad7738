#!/usr/bin/env bash
# Builds and runs the program benchmark (docs/performance.md, "Programs"):
#   bash bench/programs/run.sh [--rounds N] [--only a,b] [--check-only]
#                              [--threads N|all] [--json FILE]
# Each function of gen_programs.py is compiled four ways: fused (the
# default --layout-lower-to-llvm), unfused (fusion=false
# assign-layouts=false reuse-buffers=false: one nest per op, a fresh buffer
# per op and call), upstream's path (--convert-layout-to-linalg,
# --linalg-generalize-named-ops, --linalg-fuse-elementwise-ops, then the
# pipeline's bufferization and loops, without our buffer reuse) and no-reuse
# (the default with reuse-buffers=false). Env as bench/run.sh: BUILD_DIR, OUT, SIZE=large|small,
# PIPELINE_OPTIONS, MARCH.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-$BUILD_DIR/bench}/programs
SIZE=${SIZE:-large}
L=/usr/lib/llvm-22
LAYOUT_OPT=${LAYOUT_OPT:-$BUILD_DIR/bin/layout-opt}
CXX=${CXX:-clang++-22}
MARCH=${MARCH:-native}
mkdir -p "$OUT"
python3 bench/programs/gen_programs.py "$SIZE" "$OUT"

args=("$@")
source bench/options.sh

compile() { # NAME PREFIX PRE-PASSES... (then the pipeline with $2's options)
  local name=$1 prefix=$2 pipeline=$3
  shift 3
  sed "s/func.func @/func.func @${prefix}_/" "$OUT/programs.mlir" \
    > "$OUT/$name.mlir"
  "$LAYOUT_OPT" "$OUT/$name.mlir" "$@" "--layout-lower-to-llvm=$pipeline" \
    -o "$OUT/$name.llvm.mlir"
  "$L/bin/mlir-translate" --mlir-to-llvmir "$OUT/$name.llvm.mlir" \
    -o "$OUT/$name.ll"
  "$CXX" -O3 -march="$MARCH" -Wno-override-module -c "$OUT/$name.ll" \
    -o "$OUT/$name.o"
}
compile fused fused "$options"
compile unfused unfused \
  "fusion=false assign-layouts=false reuse-buffers=false $options"
compile upstream up "reuse-buffers=false $options" --convert-layout-to-linalg \
  --linalg-generalize-named-ops --linalg-fuse-elementwise-ops
compile noreuse noreuse "reuse-buffers=false $options"

"$CXX" -O3 -march="$MARCH" -std=c++17 -fopenmp -I"$OUT" \
  bench/programs/programs.cpp "$OUT/fused.o" "$OUT/unfused.o" \
  "$OUT/upstream.o" "$OUT/noreuse.o" -L"$L/lib" -Wl,-rpath,"$L/lib" \
  -lmlir_c_runner_utils \
  -lm -o "$OUT/programs"
"$OUT/programs" "$@" | tee "$OUT/programs.txt"
