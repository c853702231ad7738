#!/usr/bin/env bash
# Builds and runs the relayout/broadcast benchmark (docs/performance.md).
#   bash bench/run.sh [--rounds N] [--only a,b] [--check-only]
#                     [--threads N|all] [--json FILE] [--misalign BYTES]
#                     [--huge-pages]
# --threads: memcpy, the streaming copy (the ceiling) and OpenMP kernels run
# on N threads (all: every CPU); --json: machine + per-case results;
# --huge-pages: every buffer on transparent 2 MiB pages (an ablation).
# Env: BUILD_DIR (default build; needs bin/layout-opt), OUT (default
#      $BUILD_DIR/bench), SIZE=large|small (small: the lit test's shapes),
#      PIPELINE_OPTIONS (options of --layout-lower-to-llvm, e.g.
#      "nontemporal-threshold-bytes=-1"), NUMPY=0 to skip the numpy part,
#      PROGRAMS=0 to skip the program benchmark (bench/programs/run.sh),
#      PAIRS=0 to skip the layout pair matrix (bench/pairs/run.sh),
#      COMPILE_TIME=1 to also time the pipeline on 1,000/2,000 functions,
#      MARCH (default native; e.g. x86-64-v3 for AVX2 code on any x86-64,
#      with PIPELINE_OPTIONS="target-cpu=x86-64-v3": 64-byte vectors,
#      unmasked edges).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT=${OUT:-$BUILD_DIR/bench}
SIZE=${SIZE:-large}
L=/usr/lib/llvm-22
LAYOUT_OPT=${LAYOUT_OPT:-$BUILD_DIR/bin/layout-opt}
CXX=${CXX:-clang++-22}
MARCH=${MARCH:-native}
mkdir -p "$OUT"
python3 bench/gen_kernels.py "$SIZE" "$OUT"

# Our kernels: the project's pipeline, on as many threads as the ceiling
# (--threads N: num-threads=N, all: 0 = every core; default 1: serial
# kernels), unless PIPELINE_OPTIONS sets num-threads itself.
args=("$@")
source bench/options.sh
"$LAYOUT_OPT" "$OUT/ours.mlir" "--layout-lower-to-llvm=$options" \
  -o "$OUT/ours.llvm.mlir"
"$L/bin/mlir-translate" --mlir-to-llvmir "$OUT/ours.llvm.mlir" -o "$OUT/ours.ll"
"$CXX" -O3 -march="$MARCH" -Wno-override-module -c "$OUT/ours.ll" -o "$OUT/ours.o"
# The planner's kernels: relayouts folded first (bitcasts become views).
# deallocate=0: upstream's ownership-based deallocation would clone the
# view that bitcast_view returns (results are owned by the caller); the
# file allocates nothing.
"$LAYOUT_OPT" "$OUT/planner.mlir" --layout-fold-relayouts \
  "--layout-lower-to-llvm=deallocate=0 $options" \
  -o "$OUT/planner.llvm.mlir"
"$L/bin/mlir-translate" --mlir-to-llvmir "$OUT/planner.llvm.mlir" -o "$OUT/planner.ll"
"$CXX" -O3 -march="$MARCH" -Wno-override-module -c "$OUT/planner.ll" -o "$OUT/planner.o"

# Upstream's linalg.pack/unpack functions raised to our kernels
# (--layout-raise-from-linalg; the raised_* rows).
"$LAYOUT_OPT" "$OUT/raised.mlir" \
  "--layout-lower-to-llvm=raise-from-linalg=true $options" \
  -o "$OUT/raised.llvm.mlir"
"$L/bin/mlir-translate" --mlir-to-llvmir "$OUT/raised.llvm.mlir" -o "$OUT/raised.ll"
"$CXX" -O3 -march="$MARCH" -Wno-override-module -c "$OUT/raised.ll" -o "$OUT/raised.o"

# Upstream: lower_pack/lower_unpack, one-shot-bufferize (with upstream's
# deallocation pipeline, so the temporaries are freed), linalg loops, LLVM.
"$L/bin/mlir-opt" "$OUT/upstream.mlir" \
  --transform-preload-library=transform-library-paths=bench/upstream/schedule.mlir \
  --transform-interpreter -canonicalize -one-shot-bufferize \
  -buffer-deallocation-pipeline -convert-linalg-to-loops -expand-strided-metadata \
  -lower-affine -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
  -o "$OUT/upstream.llvm.mlir"
"$L/bin/mlir-translate" --mlir-to-llvmir "$OUT/upstream.llvm.mlir" -o "$OUT/upstream.ll"
"$CXX" -O3 -march="$MARCH" -Wno-override-module -c "$OUT/upstream.ll" -o "$OUT/upstream.o"

small=()
[ "$SIZE" = small ] && small=(-DBENCH_SMALL)
# OpenMP: Debian's LLVM runtime (libomp-22-dev, scripts/install-deps.sh).
"$CXX" -O3 -march="$MARCH" -std=c++17 -fopenmp "${small[@]}" -I"$L/include" \
  -I"$OUT" bench/bench.cpp "$OUT/ours.o" "$OUT/planner.o" "$OUT/raised.o" "$OUT/upstream.o" -L"$L/lib" \
  -Wl,-rpath,"$L/lib" -lmlir_c_runner_utils -lmlir_float16_utils -lm -o "$OUT/bench"

if [[ " $* " != *" --check-only "* ]]; then
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cpus," \
    "ISA: $(grep -q avx512f /proc/cpuinfo && echo avx512 || (grep -q avx2 /proc/cpuinfo && echo avx2 || echo sse2)), code built with -march=$MARCH;" \
    "load average before: $(uptime | sed 's/.*load average: //')"
fi
"$OUT/bench" "$@" | tee "$OUT/bench.txt"
if [ "${NUMPY:-1}" != 0 ] && [[ " $* " != *" --check-only "* ]]; then
  # Debian's python3-numpy lives in /usr/bin/python3's dist-packages.
  PY=python3
  python3 -c 'import numpy' 2>/dev/null || PY=/usr/bin/python3
  if "$PY" -c 'import numpy' 2>/dev/null; then
    "$PY" bench/numpy_bench.py --ours "$OUT/bench.txt" "$@"
  else
    echo "numpy: not installed (apt-get install python3-numpy); skipped"
  fi
fi
# Runs bench/NAME/run.sh with this script's arguments, --json F passed on
# as F's name with -NAME (same build, shapes, compiler and target).
sub_benchmark() { # NAME
  local pargs=() a i
  for ((i = 0; i < ${#args[@]}; i++)); do
    a=${args[$i]}
    if [ "$a" = --json ] && [ $((i + 1)) -lt ${#args[@]} ]; then
      i=$((i + 1))
      pargs+=(--json "${args[$i]%.json}-$1.json")
    else
      pargs+=("$a")
    fi
  done
  BUILD_DIR="$BUILD_DIR" OUT="$OUT" SIZE="$SIZE" LAYOUT_OPT="$LAYOUT_OPT" \
    CXX="$CXX" MARCH="$MARCH" bash "bench/$1/run.sh" "${pargs[@]}"
}
# Whole functions of layout ops (bench/programs: fused, unfused, upstream's
# path) on the same thread count.
if [ "${PROGRAMS:-1}" != 0 ]; then
  sub_benchmark programs
fi
# The layout pair matrix (bench/pairs: every source layout class into every
# destination class).
if [ "${PAIRS:-1}" != 0 ]; then
  sub_benchmark pairs
fi
# Compile-time scaling of --layout-lower-to-llvm (1,000 and 2,000 functions).
if [ "${COMPILE_TIME:-0}" = 1 ]; then
  python3 bench/compile_time.py "$LAYOUT_OPT" --sizes 1000,2000 --repeat 3
fi
