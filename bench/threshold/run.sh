#!/usr/bin/env bash
# Serial vs parallel (2 threads) to_tiled kernels at 64 KiB .. 4 MiB, hot in
# cache: the data behind the default of parallel-threshold-bytes
# (docs/performance.md, "Parallel kernels"). Env: BUILD_DIR (default build),
# OUT (default $BUILD_DIR/bench-threshold).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-$BUILD_DIR/bench-threshold}
L=/usr/lib/llvm-22
mkdir -p "$OUT"
for pre in s p; do
  for r in 128 256 512 1024; do
    p0=$((r / 8)) p1=$((r / 128))
    cat <<MLIR
func.func @${pre}_$r(%src: memref<${r}x${r}xf32>, %dst: memref<${p0}x${p1}x8x128xf32>)
    attributes {llvm.emit_c_interface} {
  %d = layout.from_physical %dst : memref<${p0}x${p1}x8x128xf32> -> memref<${r}x${r}xf32, #layout.tiled<{1,0:T(8,128)}>>
  layout.relayout %src, %d : memref<${r}x${r}xf32>, memref<${r}x${r}xf32, #layout.tiled<{1,0:T(8,128)}>>
  return
}
MLIR
  done >"$OUT/k_$pre.mlir"
done
"$BUILD_DIR/bin/layout-opt" "$OUT/k_s.mlir" --layout-lower-to-llvm=num-threads=1 \
  -o "$OUT/k_s.llvm.mlir"
"$BUILD_DIR/bin/layout-opt" "$OUT/k_p.mlir" \
  --layout-lower-to-llvm="parallel-threshold-bytes=0 num-threads=2" -o "$OUT/k_p.llvm.mlir"
for pre in s p; do
  "$L/bin/mlir-translate" --mlir-to-llvmir "$OUT/k_$pre.llvm.mlir" -o "$OUT/k_$pre.ll"
  clang++-22 -O3 -march=native -Wno-override-module -c "$OUT/k_$pre.ll" -o "$OUT/k_$pre.o"
done
clang++-22 -O2 -std=c++17 -I"$L/include" bench/threshold/driver.cpp "$OUT/k_s.o" \
  "$OUT/k_p.o" "$L/lib/libomp.so" -Wl,-rpath,"$L/lib" -o "$OUT/driver"
"$OUT/driver"
