// A relayout between two equal padded layouts writes the destination's
// padding value, never the source's padding bytes (XLA semantics): the
// source's padding slots hold garbage (-7), the destination's start as -3,
// and after the relayout they hold PV(one) = 1. Figure 1's f32[3,5]{1,0:T(2,2)}:
// element (i,j) = i*5+j lands at slot ((i/2)*3 + j/2)*4 + (i%2)*2 + j%2.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// The canonicalizer keeps the op (no memref.copy of the padding bytes).
// RUN: layout-opt %s -canonicalize | FileCheck %s --check-prefix=CANON
// CANON-LABEL: func.func @main
// CANON: layout.relayout
// CANON-NOT: memref.copy

!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>

func.func private @printMemrefF32(memref<*xf32>)

func.func @fill(%m: !fig1, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c24 = arith.constant 24 : index
  %p = layout.to_physical %m : !fig1 -> memref<2x3x2x2xf32>
  %flat = memref.collapse_shape %p [[0, 1, 2, 3]] : memref<2x3x2x2xf32> into memref<24xf32>
  scf.for %k = %c0 to %c24 step %c1 {
    memref.store %v, %flat[%k] : memref<24xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %garbage = arith.constant -7.0 : f32
  %stale = arith.constant -3.0 : f32
  %src = memref.alloc() : !fig1
  %dst = memref.alloc() : !fig1
  call @fill(%src, %garbage) : (!fig1, f32) -> ()
  call @fill(%dst, %stale) : (!fig1, f32) -> ()
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %row = arith.muli %i, %c5 : index
      %lin = arith.addi %row, %j : index
      %int = arith.index_cast %lin : index to i64
      %v = arith.sitofp %int : i64 to f32
      memref.store %v, %src[%i, %j] : !fig1
    }
  }
  layout.relayout %src, %dst : !fig1, !fig1
  %p = layout.to_physical %dst : !fig1 -> memref<2x3x2x2xf32>
  %flat = memref.collapse_shape %p [[0, 1, 2, 3]] : memref<2x3x2x2xf32> into memref<24xf32>
  %u = memref.cast %flat : memref<24xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %src : !fig1
  memref.dealloc %dst : !fig1
  return
}

// CHECK: rank = 1 offset = 0 sizes = [24] strides = [1]
// CHECK-NEXT: [0, 1, 5, 6, 2, 3, 7, 8, 4, 1, 9, 1, 10, 11, 1, 1, 12, 13, 1, 1, 14, 1, 1, 1]
