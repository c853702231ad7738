// Differential test of tiled -> tiled relayouts whose vector loops walk the
// affine nest of their runs in the source's order (NestEmitter::
// prepareRunWalk): 30 random pairs of tilings of one shape (deterministic
// seed; minor tile dims 16-128, mostly without padding slots; some with a
// permuted minor_to_major, a repeated tile or partial tiles, which take the
// destination walk). The iota goes row-major -> A -> B, B filled with -7
// first; both buffers are checked slot by slot against the library's index
// map (`layout-explain memory --json`).
// RUN: %python %S/Inputs/gen_relayout.py tiles layout-explain 20261125 30 > %t.cases.mlir
// Streaming stores everywhere, masked edges (AVX-512 style).
// RUN: layout-opt %t.cases.mlir --layout-lower-to-llvm=nontemporal-threshold-bytes=0 -o %t.llvm.mlir
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.out | FileCheck %s
// Parallel chunks of nest levels on 2 threads.
// RUN: layout-opt %t.cases.mlir --layout-lower-to-llvm="num-threads=2 parallel-threshold-bytes=0 nontemporal-threshold-bytes=0" -o %t.par.mlir
// RUN: grep -q omp.parallel %t.par.mlir
// RUN: mlir-runner %t.par.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.par.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.par.out | FileCheck %s
// AVX2-style edges: 32-byte vectors, overlapping unmasked edge vectors.
// RUN: layout-opt %t.cases.mlir '--layout-lower-to-llvm=vector-bytes=32 masked-edges=false nontemporal-threshold-bytes=0' -o %t.edges.mlir
// RUN: mlir-runner %t.edges.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.edges.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.edges.out | FileCheck %s
// CHECK: differential: 30 cases, {{[0-9]+}} slots, 0 failures ({{[0-9]+}} buffers)
