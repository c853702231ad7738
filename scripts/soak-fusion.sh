#!/usr/bin/env bash
# Fusion soak test (docs/fusion.md; off by default in CI): N random programs
# of test/Execution/Inputs/gen_fusion.py (trees and DAGs of 2-6 binary ops,
# broadcasts of vectors and scalars, relayouts of interior values, tiled
# layouts with padding, f32/bf16/i32, odd extents), from seed SEED * 100000
# on, in batches of BATCH programs per module. Each batch is compiled fused
# (--layout-lower-to-llvm) and unfused (fusion=false); both must print the
# generator's own logical checksums, and the same physical checksums
# (padding slots included).
#
#   bash scripts/soak-fusion.sh [N]         # default N=400, SEED=1
#   SEED=7 BATCH=50 bash scripts/soak-fusion.sh 2000
#   SOAK_OPTIONS="num-threads=2 parallel-threshold-bytes=0" \
#     bash scripts/soak-fusion.sh           # options of the fused pipeline
#
# Tools come from ${BUILD_DIR:-build-soak} (layout-opt; built there with
# scripts/build.sh, plain Release; SOAK_REBUILD=0 skips the build when it
# exists).
set -uo pipefail
cd "$(dirname "$0")/.."
N=${1:-400}
SEED=${SEED:-1}
BATCH=${BATCH:-100}
source scripts/common.sh
export BUILD_DIR=${BUILD_DIR:-build-soak}
OUT=${SOAK_OUT:-$BUILD_DIR/soak-fusion}
GEN=test/Execution/Inputs/gen_fusion.py
if [ ! -x "$BUILD_DIR/bin/layout-opt" ] || [ "${SOAK_REBUILD:-1}" = 1 ]; then
  BUILD_TARGETS="layout-opt" bash scripts/build.sh ||
    { echo "soak-fusion: build failed"; exit 1; }
fi
OPT=$BUILD_DIR/bin/layout-opt
LIBS=$LLVM/lib/libmlir_runner_utils.so,$LLVM/lib/libmlir_c_runner_utils.so
[ -e "$LLVM/lib/libomp.so" ] && LIBS=$LIBS,$LLVM/lib/libomp.so
mkdir -p "$OUT"

run=0
failed=0
while [ $run -lt "$N" ]; do
  count=$((N - run < BATCH ? N - run : BATCH))
  first=$((SEED * 100000 + run))
  dir=$OUT/batch-$first
  mkdir -p "$dir"
  python3 $GEN mlir $first $count >"$dir/programs.mlir" &&
    python3 $GEN check $first $count >"$dir/logical.check" ||
    { echo "soak-fusion: generator failed (first $first)"; exit 1; }
  ok=1
  for variant in unfused fused; do
    opts=${SOAK_OPTIONS:-}
    [ $variant = unfused ] && opts="fusion=false"
    if ! "$OPT" "$dir/programs.mlir" "--layout-lower-to-llvm${opts:+=$opts}" \
      -o "$dir/$variant.llvm.mlir" 2>"$dir/$variant.err" ||
      ! "$LLVM/bin/mlir-runner" "$dir/$variant.llvm.mlir" -e main \
        -entry-point-result=void -shared-libs="$LIBS" >"$dir/$variant.out" \
        2>>"$dir/$variant.err"; then
      echo "soak-fusion: batch $first ($variant): compile/run failed, see $dir/$variant.err"
      ok=0
      continue
    fi
    if ! "$LLVM/bin/FileCheck" "$dir/logical.check" \
      --input-file "$dir/$variant.out" >/dev/null 2>&1; then
      echo "soak-fusion: batch $first ($variant): a logical checksum differs from the generator's"
      ok=0
    fi
  done
  if [ $ok = 1 ] && ! cmp -s "$dir/unfused.out" "$dir/fused.out"; then
    echo "soak-fusion: batch $first: fused and unfused physical checksums differ:"
    diff "$dir/unfused.out" "$dir/fused.out" | head -5
    ok=0
  fi
  [ $ok = 0 ] && failed=$((failed + 1))
  [ $ok = 1 ] && rm -rf "$dir"
  run=$((run + count))
done
echo "soak-fusion: $run programs in $(((N + BATCH - 1) / BATCH)) batches, $failed batches failed"
[ $failed = 0 ]
