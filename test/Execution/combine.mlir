// A `*` combine: f32[3,2,5]{2,1,0:T(2,*,4)} merges the two minor dims into one
// of size 10 (index b*5+c), then tiles [3,10] by (2,4): physical 2x3x2x4 = 48
// slots. Element (a,b,c) holds a*10+b*5+c; padding keeps the sentinel -1.
// RUN: layout-opt %s --layout-normalize-memrefs -expand-strided-metadata \
// RUN:   -lower-affine -convert-scf-to-cf -convert-to-llvm \
// RUN:   -reconcile-unrealized-casts -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

!logical = memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>
!physical = memref<2x3x2x4xf32>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %sentinel = arith.constant -1.0 : f32
  %m = memref.alloc() : !logical
  %p = layout.to_physical %m : !logical -> !physical
  %flat = memref.collapse_shape %p [[0, 1, 2, 3]] : !physical into memref<48xf32>
  affine.for %k = 0 to 48 {
    affine.store %sentinel, %flat[%k] : memref<48xf32>
  }
  affine.for %a = 0 to 3 {
    affine.for %b = 0 to 2 {
      affine.for %c = 0 to 5 {
        %lin = affine.apply affine_map<(a, b, c) -> (a * 10 + b * 5 + c)>(%a, %b, %c)
        %int = arith.index_cast %lin : index to i64
        %v = arith.sitofp %int : i64 to f32
        affine.store %v, %m[%a, %b, %c] : !logical
      }
    }
  }
  %u = memref.cast %flat : memref<48xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : !logical
  return
}

// Tile rows (a = 0,1), then (a = 2, padding row a = 3); columns e = b*5+c in
// tiles of 4: [0..3], [4..7], [8, 9, pad, pad].
// CHECK: rank = 1 offset = 0 sizes = [48] strides = [1]
// CHECK-NEXT: [0, 1, 2, 3, 10, 11, 12, 13, 4, 5, 6, 7, 14, 15, 16, 17, 8, 9, -1, -1, 18, 19, -1, -1, 20, 21, 22, 23, -1, -1, -1, -1, 24, 25, 26, 27, -1, -1, -1, -1, 28, 29, -1, -1, -1, -1, -1, -1]
