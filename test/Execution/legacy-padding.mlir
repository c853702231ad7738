// The legacy padding example of XLA's shapes document: a 2x3 array `a b c / d e f` stored column-major
// ({0,1}) in a 3x5 box, [2,3]{0,1:PAD(3,5)PV(zero)}: memory
// `a d _ b e _ c f _ _ _ _ _ _ _` (15 slots). Element (i,j) holds i*3+j.
// RUN: layout-opt %s --layout-normalize-memrefs -expand-strided-metadata \
// RUN:   -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

!logical = memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c15 = arith.constant 15 : index
  %sentinel = arith.constant -1.0 : f32
  %m = memref.alloc() : !logical
  %p = layout.to_physical %m : !logical -> memref<5x3xf32>
  %flat = memref.collapse_shape %p [[0, 1]] : memref<5x3xf32> into memref<15xf32>
  scf.for %k = %c0 to %c15 step %c1 {
    memref.store %sentinel, %flat[%k] : memref<15xf32>
  }
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %row = arith.muli %i, %c3 : index
      %lin = arith.addi %row, %j : index
      %int = arith.index_cast %lin : index to i64
      %v = arith.sitofp %int : i64 to f32
      memref.store %v, %m[%i, %j] : !logical
    }
  }
  %u = memref.cast %flat : memref<15xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : !logical
  return
}

// CHECK: rank = 1 offset = 0 sizes = [15] strides = [1]
// CHECK-NEXT: [0, 3, -1, 1, 4, -1, 2, 5, -1, -1, -1, -1, -1, -1, -1]
