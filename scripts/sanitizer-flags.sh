# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: the one instrumented
# build both use (default build-asan). Everything is compiled with ASan +
# UBSan (-fno-sanitize-recover=all) and libFuzzer's coverage instrumentation
# (-fsanitize=fuzzer-no-link), with LLVM and libstdc++ assertions on; the
# fuzz/ targets are linked with libFuzzer's main, the tools and unit tests
# with the sanitizer runtimes only (coverage callbacks are no-ops there). One
# build instead of two saves CI a whole instrumented build of the project.
SANITIZER_CMAKE_FLAGS=(
  -DLAYOUT_ENABLE_SANITIZERS=ON
  -DLAYOUT_ENABLE_FUZZERS=ON
  -DLLVM_ENABLE_ASSERTIONS=ON
  "-DCMAKE_CXX_FLAGS=-gline-tables-only -D_GLIBCXX_ASSERTIONS"
)
export BUILD_DIR=${BUILD_DIR:-build-asan}
export BUILD_TYPE=Release
