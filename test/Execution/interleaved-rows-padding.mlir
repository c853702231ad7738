// Interleaved rows into tiles that are partly outside the array: bf16-sized
// (i16) [256,64] into T(8,128)(2,1) holds 64 elements and 64 padding slots
// per tile row. The rows interleave up to column 64, then store whole
// vectors of the padding value (InterleavedRows.cpp, validRows). The
// physical buffer starts as -1 everywhere; the sum of slot * value over
// it is then the sum of the element slots (every element is 1) exactly
// when every padding slot was written with 0:
//   sum over r < 256, c < 64 of 1024 (r / 8) + 2 (128 ((r % 8) / 2) + c)
//   + r % 2 = 267378688.
// Default, AVX2 with unmasked edges and streaming stores, 32-byte vectors,
// and scalar loops.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.default.mlir
// RUN: mlir-runner %t.default.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s '--layout-lower-to-llvm=target-cpu=x86-64-v3 masked-edges=false nontemporal-threshold-bytes=0' -o %t.avx2.mlir
// RUN: mlir-runner %t.avx2.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm=vector-bytes=32 -o %t.v32.mlir
// RUN: mlir-runner %t.v32.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm=vector-bytes=0 -o %t.scalar.mlir
// RUN: mlir-runner %t.scalar.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// The kernel is the interleaved rows, not scalar loops.
// RUN: layout-opt %s '--layout-lower-to-llvm=target-cpu=x86-64-v3 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KERNEL
// KERNEL: remark: kernel: interleaved-rows
// KERNEL-NOT: kernel: scalar

// CHECK: 267378688
func.func @main() {
  %a = memref.alloc() {alignment = 64} : memref<256x64xi16>
  %p = memref.alloc() {alignment = 64} : memref<32x1x4x128x2x1xi16>
  %c1 = arith.constant 1 : i16
  %m1 = arith.constant -1 : i16
  linalg.fill ins(%c1 : i16) outs(%a : memref<256x64xi16>)
  linalg.fill ins(%m1 : i16) outs(%p : memref<32x1x4x128x2x1xi16>)
  %b = layout.from_physical %p : memref<32x1x4x128x2x1xi16> -> memref<256x64xi16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
  layout.relayout %a, %b : memref<256x64xi16>, memref<256x64xi16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
  %flat = memref.collapse_shape %p [[0,1,2,3,4,5]] : memref<32x1x4x128x2x1xi16> into memref<32768xi16>
  %c0 = arith.constant 0 : index
  %n = arith.constant 32768 : index
  %one = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %s = scf.for %i = %c0 to %n step %one iter_args(%acc = %z) -> i64 {
    %v = memref.load %flat[%i] : memref<32768xi16>
    %w = arith.extsi %v : i16 to i64
    %iw = arith.index_cast %i : index to i64
    %t = arith.muli %w, %iw : i64
    %r = arith.addi %acc, %t : i64
    scf.yield %r : i64
  }
  vector.print %s : i64
  return
}
