#!/usr/bin/env bash
# Configures and builds the project in ${BUILD_DIR:-build} with Ninja, clang-22,
# lld and ccache against Debian's LLVM/MLIR 22. Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
source scripts/common.sh
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld -DCMAKE_EXE_LINKER_FLAGS="-B$LLVM/bin" \
    -DCMAKE_SHARED_LINKER_FLAGS="-B$LLVM/bin" -DCMAKE_MODULE_LINKER_FLAGS="-B$LLVM/bin" \
    -DMLIR_DIR=$LLVM/lib/cmake/mlir -DLLVM_EXTERNAL_LIT=$LLVM/bin/lit \
    -DMLIR_LINK_MLIR_DYLIB=ON \
    "${launcher[@]}" "$@"
fi
cmake --build "$BUILD_DIR" ${BUILD_TARGETS:+--target $BUILD_TARGETS}
