// Differential test: ~30 random shapes and layouts (deterministic seed),
// relayouted from row-major by the generated loops, every physical slot
// checked against the library's index map (`layout-explain memory --json`).
// RUN: %python %S/Inputs/gen_relayout.py gen layout-explain 20260523 30 > %t.cases.mlir
// RUN: layout-opt %t.cases.mlir --layout-lower-to-llvm -o %t.llvm.mlir
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.out | FileCheck %s
// The same cases through the scf loops.
// RUN: layout-opt %t.cases.mlir --convert-layout-to-scf --layout-lower-to-llvm -o %t.scf.mlir
// RUN: mlir-runner %t.scf.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.scf.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.scf.out | FileCheck %s
// Parallel nests (docs/performance.md): every nest with at least two
// chunks of whole cache lines is an OpenMP loop (threshold 0), on 2 threads
// (num-threads=2) and on the runtime's default set by OMP_NUM_THREADS=3,
// with streaming stores (threshold 0) where the rows are vectors.
// RUN: layout-opt %t.cases.mlir --layout-lower-to-llvm="num-threads=2 parallel-threshold-bytes=0 nontemporal-threshold-bytes=0" -o %t.par.mlir
// RUN: grep -q omp.parallel %t.par.mlir
// RUN: mlir-runner %t.par.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.par.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.par.out | FileCheck %s
// RUN: layout-opt %t.cases.mlir --convert-layout-to-scf="parallel-threshold-bytes=0 nontemporal-threshold-bytes=0" --layout-lower-to-llvm -o %t.scfpar.mlir
// RUN: env OMP_NUM_THREADS=3 mlir-runner %t.scfpar.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.scfpar.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.scfpar.out | FileCheck %s
// The same cases with the edges chosen for AVX2 (32-byte vectors, no masks:
// overlapping vectors, scalar edges where no vector fits) and streaming
// stores everywhere.
// RUN: layout-opt %t.cases.mlir '--layout-lower-to-llvm=vector-bytes=32 masked-edges=false nontemporal-threshold-bytes=0' -o %t.edges.mlir
// RUN: mlir-runner %t.edges.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.edges.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.edges.out | FileCheck %s
// Serial nests with streaming stores take two memory streams (memory-streams,
// docs/lowering.md): every nest's outermost loop in two halves at once, rows
// and padding of both; and the same with one stream.
// RUN: layout-opt %t.cases.mlir --layout-lower-to-llvm=nontemporal-threshold-bytes=0 -o %t.streams.mlir
// RUN: mlir-runner %t.streams.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.streams.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.streams.out | FileCheck %s
// RUN: layout-opt %t.cases.mlir '--layout-lower-to-llvm=nontemporal-threshold-bytes=0 memory-streams=1' -o %t.one.mlir
// RUN: mlir-runner %t.one.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.one.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.cases.mlir %t.one.out | FileCheck %s
// The same cases as tensor relayouts, through the pipeline alone and after
// --layout-fold-relayouts, which turns the 5 bitcast cases into views: the
// same bytes either way.
// RUN: %python %S/Inputs/gen_relayout.py gen-tensor layout-explain 20260523 30 > %t.tensor.mlir
// RUN: layout-opt %t.tensor.mlir --layout-fold-relayouts | grep -c 'layout.relayout' | FileCheck %s --check-prefix=FOLDED
// FOLDED: {{^}}25{{$}}
// RUN: layout-opt %t.tensor.mlir --layout-lower-to-llvm -o %t.tensor.llvm.mlir
// RUN: mlir-runner %t.tensor.llvm.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.tensor.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.tensor.mlir %t.tensor.out | FileCheck %s
// RUN: layout-opt %t.tensor.mlir --layout-fold-relayouts --layout-lower-to-llvm -o %t.fold.mlir
// RUN: mlir-runner %t.fold.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.fold.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %t.tensor.mlir %t.fold.out | FileCheck %s
// CHECK: differential: 30 cases, {{[0-9]+}} slots, 0 failures
