// Differential test of row-major -> tiled relayouts whose vector loops walk
// the source into the tiles (NestEmitter::prepareSourceWalkIntoTiles: the
// destination's physical dims in the order of their source strides): 40
// random shapes (deterministic seed; tiles T(1-8, 16-128), dims multiples of
// them or with partial tiles whose padding is written, some permuted, some
// with a repeated tile that keeps the destination walk). The iota goes row-major
// -> tiled -> a row-major buffer (or a permutation keeping the minor dim)
// filled with -7 first; both buffers are checked slot by slot against the
// library's index map (`layout-explain memory --json`).
// RUN: %python %S/Inputs/gen_relayout.py into-tiles layout-explain 20261125 40 > %t.cases.mlir
// Streaming stores everywhere, masked edges (AVX-512 style).
// RUN: layout-opt %t.cases.mlir --layout-lower-to-llvm=nontemporal-threshold-bytes=0 -o %t.llvm.mlir
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.out | FileCheck %s
// Parallel chunks of whole tile bands on 2 threads.
// RUN: layout-opt %t.cases.mlir --layout-lower-to-llvm="num-threads=2 parallel-threshold-bytes=0 nontemporal-threshold-bytes=0" -o %t.par.mlir
// RUN: grep -q omp.parallel %t.par.mlir
// RUN: mlir-runner %t.par.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.par.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.par.out | FileCheck %s
// AVX2-style edges: 32- and 64-byte vectors, overlapping unmasked edges.
// RUN: layout-opt %t.cases.mlir '--layout-lower-to-llvm=vector-bytes=32 masked-edges=false nontemporal-threshold-bytes=0' -o %t.edges.mlir
// RUN: mlir-runner %t.edges.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.edges.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.edges.out | FileCheck %s
// RUN: layout-opt %t.cases.mlir '--layout-lower-to-llvm=vector-bytes=64 masked-edges=false nontemporal-threshold-bytes=0' -o %t.edges64.mlir
// RUN: mlir-runner %t.edges64.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.edges64.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.edges64.out | FileCheck %s
// CHECK: differential: 40 cases, {{[0-9]+}} slots, 0 failures ({{[0-9]+}} buffers)
