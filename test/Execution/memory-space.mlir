// Memory spaces on the CPU: a relayout from a memref in memory space 1 into
// a tiled `S(1)` memref, with allocation and deallocation, through the
// default --layout-lower-to-llvm (every space is host memory:
// --layout-host-memory-spaces). Element (i,j) = i*8+j of an 8x8 array in
// 4x4 tiles: the first tile holds rows 0-3 of columns 0-3.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s

!tiled = memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8x8xf32, 1>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %r = arith.muli %i, %c8 : index
      %l = arith.addi %r, %j : index
      %n = arith.index_cast %l : index to i64
      %v = arith.sitofp %n : i64 to f32
      memref.store %v, %a[%i, %j] : memref<8x8xf32, 1>
    }
  }
  %b = memref.alloc() : !tiled
  layout.relayout %a, %b : memref<8x8xf32, 1>, !tiled
  %p = layout.to_physical %b : !tiled -> memref<2x2x4x4xf32, 1>
  %t = memref.subview %p[0, 0, 0, 0] [1, 1, 4, 4] [1, 1, 1, 1] : memref<2x2x4x4xf32, 1> to memref<4x4xf32, strided<[4, 1]>, 1>
  %o = memref.alloc() : memref<4x4xf32>
  memref.copy %t, %o : memref<4x4xf32, strided<[4, 1]>, 1> to memref<4x4xf32>
  %u = memref.cast %o : memref<4x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<8x8xf32, 1>
  memref.dealloc %b : !tiled
  memref.dealloc %o : memref<4x4xf32>
  return
}

// CHECK: sizes = [4, 4]
// CHECK-NEXT: [0, 1, 2, 3]
// CHECK-NEXT: [8, 9, 10, 11]
// CHECK-NEXT: [16, 17, 18, 19]
// CHECK-NEXT: [24, 25, 26, 27]
