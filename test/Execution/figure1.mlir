// Figure 1 of XLA's tiled layout doc: f32[3,5]{1,0:T(2,2)}. Element (i,j)
// holds i*5+j; the physical buffer has 2x3 tiles of 2x2 = 24 slots, padding
// slots keep the sentinel -1. memref.store goes through the arith path.
// RUN: layout-opt %s --layout-normalize-memrefs -expand-strided-metadata \
// RUN:   -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

!logical = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c24 = arith.constant 24 : index
  %sentinel = arith.constant -1.0 : f32
  %m = memref.alloc() : !logical
  %p = layout.to_physical %m : !logical -> memref<2x3x2x2xf32>
  %flat = memref.collapse_shape %p [[0, 1, 2, 3]]
      : memref<2x3x2x2xf32> into memref<24xf32>
  scf.for %k = %c0 to %c24 step %c1 {
    memref.store %sentinel, %flat[%k] : memref<24xf32>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %row = arith.muli %i, %c5 : index
      %lin = arith.addi %row, %j : index
      %int = arith.index_cast %lin : index to i64
      %v = arith.sitofp %int : i64 to f32
      memref.store %v, %m[%i, %j] : !logical
    }
  }
  %u = memref.cast %flat : memref<24xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : !logical
  return
}

// CHECK: rank = 1 offset = 0 sizes = [24] strides = [1]
// CHECK-NEXT: [0, 1, 5, 6, 2, 3, 7, 8, 4, -1, 9, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, -1, -1, -1]
