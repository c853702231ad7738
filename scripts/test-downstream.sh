#!/usr/bin/env bash
# Installs the project from ${BUILD_DIR:-build} to a temporary prefix, builds
# examples/downstream (my-opt) against the installed MLIRLayout package, runs it
# on examples/downstream/input.mlir and on the flagship example (lowered with
# --layout-lower-to-llvm and executed) and my-c-tool (the C API), and
# FileChecks the results.
# Prints "downstream: 1 passed, 0 failed" (or 0 passed, 1 failed).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
source scripts/common.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# DOWNSTREAM_RESULTS=FILE: also write "PASSED FAILED" there (scripts/test-all.sh).
result() { write_result "${DOWNSTREAM_RESULTS:-}" "$1" "$2"; }
fail() { echo "downstream: FAILED: $*"; result 0 1; exit 1; }
cmake --install "$BUILD_DIR" --prefix "$work/prefix" >"$work/install.log" 2>&1 \
  || { cat "$work/install.log"; fail "cmake --install"; }
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -G Ninja -S examples/downstream -B "$work/build" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DMLIR_DIR=$LLVM/lib/cmake/mlir \
  -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22 "${launcher[@]}" \
  -DCMAKE_EXE_LINKER_FLAGS="-fuse-ld=lld -B$LLVM/bin" >"$work/configure.log" 2>&1 \
  || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$work/build" >"$work/build.log" 2>&1 \
  || { cat "$work/build.log"; fail "build"; }
"$work/build/my-opt" examples/downstream/input.mlir --layout-normalize-memrefs \
  >"$work/out.mlir" || fail "my-opt exited non-zero"
$LLVM/bin/FileCheck examples/downstream/input.mlir --input-file="$work/out.mlir" \
  || fail "FileCheck"
# The whole pipeline from a downstream driver, executed.
"$work/build/my-opt" examples/flagship.mlir --layout-lower-to-llvm \
  >"$work/flagship.mlir" || fail "my-opt --layout-lower-to-llvm"
$LLVM/bin/mlir-runner "$work/flagship.mlir" -e main -entry-point-result=void \
  -shared-libs=$LLVM/lib/libmlir_runner_utils.so,$LLVM/lib/libmlir_c_runner_utils.so \
  >"$work/flagship.out" || fail "mlir-runner on my-opt's output"
$LLVM/bin/FileCheck examples/downstream/flagship.check \
  --input-file="$work/flagship.out" || fail "FileCheck of the executed flagship"
# Parallel kernels (every nest an OpenMP loop, 2 threads) run with the
# OpenMP runtime the installed package exports (MLIRLayout::OpenMPRuntime).
[ -s "$work/build/openmp-runtime.txt" ] || fail "MLIRLayout::OpenMPRuntime not exported"
omp=$(cat "$work/build/openmp-runtime.txt")
"$work/build/my-opt" examples/flagship.mlir \
  --layout-lower-to-llvm="parallel-threshold-bytes=0 num-threads=2" \
  >"$work/flagship-par.mlir" || fail "my-opt --layout-lower-to-llvm (parallel)"
grep -q omp.parallel "$work/flagship-par.mlir" || fail "no parallel loop"
$LLVM/bin/mlir-runner "$work/flagship-par.mlir" -e main -entry-point-result=void \
  -shared-libs=$LLVM/lib/libmlir_runner_utils.so,$LLVM/lib/libmlir_c_runner_utils.so,$omp \
  >"$work/flagship-par.out" || fail "mlir-runner on the parallel kernels"
$LLVM/bin/FileCheck examples/downstream/flagship.check \
  --input-file="$work/flagship-par.out" || fail "FileCheck of the parallel flagship"
# A plain C program linked against MLIRLayout::MLIRLayoutCAPI.
"$work/build/my-c-tool" >"$work/c-tool.out" || fail "my-c-tool exited non-zero"
printf '17\nlowered: ok\n' | cmp -s - "$work/c-tool.out" \
  || { cat "$work/c-tool.out"; fail "my-c-tool output"; }
# The installed tools run from the prefix too.
"$work/prefix/bin/layout-explain" index 'f32[3,5]{1,0:T(2,2)}' 2,3 | grep -qx 17 \
  || fail "installed layout-explain"
"$work/prefix/bin/layout-opt" examples/downstream/input.mlir \
  --layout-normalize-memrefs >/dev/null || fail "installed layout-opt"
$LLVM/bin/mlir-opt --load-dialect-plugin="$work/prefix/lib/LayoutPlugin.so" \
  examples/downstream/input.mlir >/dev/null || fail "installed LayoutPlugin"
result 1 0
echo "downstream: OK (install, find_package, build, lower, run)"
