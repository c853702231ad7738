// Figure 2 of XLA's tiled layout doc: a 4x8 array with repeated tiling
// {1,0:T(2,4)(2,1)}. Element (i,j) holds i*8+j; the 2x1 tiles interleave the
// two rows of each 2x4 tile. affine.store goes through the composed-map path.
// RUN: layout-opt %s --layout-normalize-memrefs -expand-strided-metadata \
// RUN:   -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

!logical = memref<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
!physical = memref<2x2x1x4x2x1xf32>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %sentinel = arith.constant -1.0 : f32
  %m = memref.alloc() : !logical
  %p = layout.to_physical %m : !logical -> !physical
  %flat = memref.collapse_shape %p [[0, 1, 2, 3, 4, 5]] : !physical into memref<32xf32>
  affine.for %k = 0 to 32 {
    affine.store %sentinel, %flat[%k] : memref<32xf32>
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %lin = affine.apply affine_map<(i, j) -> (i * 8 + j)>(%i, %j)
      %int = arith.index_cast %lin : index to i64
      %v = arith.sitofp %int : i64 to f32
      affine.store %v, %m[%i, %j] : !logical
    }
  }
  %u = memref.cast %flat : memref<32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : !logical
  return
}

// CHECK: rank = 1 offset = 0 sizes = [32] strides = [1]
// CHECK-NEXT: [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 16, 24, 17, 25, 18, 26, 19, 27, 20, 28, 21, 29, 22, 30, 23, 31]
