// Differential test of the chunk-copy kernel (memref.copy per run, padding
// stores; chosen with scalar rows): relayouts row-major -> A -> B whose
// plans are all `chunk-copy` (Inputs/chunk-copy-cases.mlir: f32[16,64]
// T(8,32) -> T(4,64) (a two-level nest of runs), f32[16,16] T(8,32)PV(one)
// (padding runs), a 3-D tiled layout, {2,0,1} -> tiled (runs of a permuted
// layout), T(8,16) -> row-major), every physical slot checked against the
// library's index map (`layout-explain memory --json`): an element slot
// holds its row-major position + 1, a padding slot the padding value.
// RUN: layout-opt %S/Inputs/chunk-copy-cases.mlir --convert-layout-to-affine=vector-bytes=0 \
// RUN:   | FileCheck %s --check-prefix=IR
// IR-COUNT-8: memref.copy
// RUN: layout-opt %S/Inputs/chunk-copy-cases.mlir --layout-lower-to-llvm=vector-bytes=0 -o %t.llvm.mlir
// RUN: mlir-runner %t.llvm.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs > %t.out
// RUN: %python %S/Inputs/gen_relayout.py check layout-explain %S/Inputs/chunk-copy-cases.mlir %t.out | FileCheck %s
// CHECK: differential: 5 cases, {{[0-9]+}} slots, 0 failures (8 buffers)
