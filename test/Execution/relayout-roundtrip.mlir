// Relayout round trips over a table of layouts: an iota (1..N, so 0 marks
// padding: no PV means 0) goes row-major -> layout B -> row-major. The
// physical buffer of B is printed (expected values from the figures of XLA's tiled-layout document /
// docs/semantics.md §3, with +1 for the iota), and the round trip must be the identity
// (mismatch count 0). Memref relayouts, through --layout-lower-to-llvm.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// The same through scf loops (dynamic-capable path) for the static shapes.
// RUN: layout-opt %s --convert-layout-to-scf --layout-lower-to-llvm -o %t.scf.mlir
// RUN: mlir-runner %t.scf.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()

// Fills a row-major 2-d buffer with 1..N.
func.func @iota2(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %r = arith.muli %i, %d1 : index
      %l = arith.addi %r, %j : index
      %l1 = arith.addi %l, %c1 : index
      %n = arith.index_cast %l1 : index to i64
      %v = arith.sitofp %n : i64 to f32
      memref.store %v, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

// Number of elements where a and b differ.
func.func @mismatches2(%a: memref<?x?xf32>, %b: memref<?x?xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %d0 = memref.dim %a, %c0 : memref<?x?xf32>
  %d1 = memref.dim %a, %c1 : memref<?x?xf32>
  %n = scf.for %i = %c0 to %d0 step %c1 iter_args(%acc = %z) -> i64 {
    %m = scf.for %j = %c0 to %d1 step %c1 iter_args(%acc2 = %acc) -> i64 {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = memref.load %b[%i, %j] : memref<?x?xf32>
      %ne = arith.cmpf une, %x, %y : f32
      %inc = arith.select %ne, %one, %z : i64
      %s = arith.addi %acc2, %inc : i64
      scf.yield %s : i64
    }
    scf.yield %m : i64
  }
  return %n : i64
}

func.func @print1(%m: memref<?xf32>) {
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// Figure 1: f32[3,5]{1,0:T(2,2)}.
func.func @figure1() {
  %a = memref.alloc() : memref<3x5xf32>
  %ad = memref.cast %a : memref<3x5xf32> to memref<?x?xf32>
  call @iota2(%ad) : (memref<?x?xf32>) -> ()
  %b = memref.alloc() : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %p = layout.to_physical %b : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
  %f = memref.collapse_shape %p [[0, 1, 2, 3]] : memref<2x3x2x2xf32> into memref<24xf32>
  %fd = memref.cast %f : memref<24xf32> to memref<?xf32>
  call @print1(%fd) : (memref<?xf32>) -> ()
  %c = memref.alloc() : memref<3x5xf32>
  layout.relayout %b, %c : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, memref<3x5xf32>
  %cd = memref.cast %c : memref<3x5xf32> to memref<?x?xf32>
  %n = call @mismatches2(%ad, %cd) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  call @printI64(%n) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
// CHECK-LABEL: sizes = [24]
// CHECK-NEXT: [1, 2, 6, 7, 3, 4, 8, 9, 5, 0, 10, 0, 11, 12, 0, 0, 13, 14, 0, 0, 15, 0, 0, 0]
// CHECK-NEXT: 0

// Figure 2: 4x8 {1,0:T(2,4)(2,1)}; then to Figure 2's column-major
// sibling {0,1:T(4,2)} directly (tiled -> tiled) and back.
func.func @figure2() {
  %a = memref.alloc() : memref<4x8xf32>
  %ad = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
  call @iota2(%ad) : (memref<?x?xf32>) -> ()
  %b = memref.alloc() : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  layout.relayout %a, %b : memref<4x8xf32>, memref<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  %p = layout.to_physical %b : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>> -> memref<2x2x1x4x2x1xf32>
  %f = memref.collapse_shape %p [[0, 1, 2, 3, 4, 5]] : memref<2x2x1x4x2x1xf32> into memref<32xf32>
  %fd = memref.cast %f : memref<32xf32> to memref<?xf32>
  call @print1(%fd) : (memref<?xf32>) -> ()
  // Tiled -> tiled: {0,1:T(4,2)} stores columns-major 4x2 tiles of the
  // transposed (8x4 physical) array.
  %t = memref.alloc() : memref<4x8xf32, #layout.tiled<{0,1:T(4,2)}>>
  layout.relayout %b, %t : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>, memref<4x8xf32, #layout.tiled<{0,1:T(4,2)}>>
  %tp = layout.to_physical %t : memref<4x8xf32, #layout.tiled<{0,1:T(4,2)}>> -> memref<2x2x4x2xf32>
  %tf = memref.collapse_shape %tp [[0, 1, 2, 3]] : memref<2x2x4x2xf32> into memref<32xf32>
  %tfd = memref.cast %tf : memref<32xf32> to memref<?xf32>
  call @print1(%tfd) : (memref<?xf32>) -> ()
  %c = memref.alloc() : memref<4x8xf32>
  layout.relayout %t, %c : memref<4x8xf32, #layout.tiled<{0,1:T(4,2)}>>, memref<4x8xf32>
  %cd = memref.cast %c : memref<4x8xf32> to memref<?x?xf32>
  %n = call @mismatches2(%ad, %cd) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  call @printI64(%n) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
// CHECK-LABEL: sizes = [32]
// CHECK-NEXT: [1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 8, 16, 17, 25, 18, 26, 19, 27, 20, 28, 21, 29, 22, 30, 23, 31, 24, 32]
// Physical order of {0,1:T(4,2)}: physical dims [8 (j), 4 (i)] tiled by
// (4,2): tiles (j/4, i/2), inside (j%4, i%2): element (i,j) = 8i+j+1.
// CHECK: sizes = [32]
// CHECK-NEXT: [1, 9, 2, 10, 3, 11, 4, 12, 17, 25, 18, 26, 19, 27, 20, 28, 5, 13, 6, 14, 7, 15, 8, 16, 21, 29, 22, 30, 23, 31, 24, 32]
// CHECK-NEXT: 0

// Column-major {0,1} and the legacy padding example of XLA's shapes document {0,1:PAD(3,5)PV(zero)}.
func.func @columnMajorAndLegacy() {
  %a = memref.alloc() : memref<2x3xf32>
  %ad = memref.cast %a : memref<2x3xf32> to memref<?x?xf32>
  call @iota2(%ad) : (memref<?x?xf32>) -> ()
  %b = memref.alloc() : memref<2x3xf32, #layout.tiled<{0,1}>>
  layout.relayout %a, %b : memref<2x3xf32>, memref<2x3xf32, #layout.tiled<{0,1}>>
  %p = layout.to_physical %b : memref<2x3xf32, #layout.tiled<{0,1}>> -> memref<3x2xf32>
  %f = memref.collapse_shape %p [[0, 1]] : memref<3x2xf32> into memref<6xf32>
  %fd = memref.cast %f : memref<6xf32> to memref<?xf32>
  call @print1(%fd) : (memref<?xf32>) -> ()
  %l = memref.alloc() : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
  layout.relayout %b, %l : memref<2x3xf32, #layout.tiled<{0,1}>>, memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
  %lp = layout.to_physical %l : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>> -> memref<5x3xf32>
  %lf = memref.collapse_shape %lp [[0, 1]] : memref<5x3xf32> into memref<15xf32>
  %lfd = memref.cast %lf : memref<15xf32> to memref<?xf32>
  call @print1(%lfd) : (memref<?xf32>) -> ()
  %c = memref.alloc() : memref<2x3xf32>
  layout.relayout %l, %c : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>, memref<2x3xf32>
  %cd = memref.cast %c : memref<2x3xf32> to memref<?x?xf32>
  %n = call @mismatches2(%ad, %cd) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  call @printI64(%n) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
// CHECK-LABEL: sizes = [6]
// CHECK-NEXT: [1, 4, 2, 5, 3, 6]
// XLA's example: memory `a d _ b e _ c f _ _ _ _ _ _ _`, padding PV(one) = 1.
// CHECK-LABEL: sizes = [15]
// CHECK-NEXT: [1, 4, 1, 2, 5, 1, 3, 6, 1, 1, 1, 1, 1, 1, 1]
// CHECK-NEXT: 0

// A `*` combine: f32[3,2,5]{2,1,0:T(2,*,4)} (see combine.mlir).
func.func @combine() {
  %a = memref.alloc() : memref<3x2x5xf32>
  %a2 = memref.collapse_shape %a [[0], [1, 2]] : memref<3x2x5xf32> into memref<3x10xf32>
  %ad = memref.cast %a2 : memref<3x10xf32> to memref<?x?xf32>
  call @iota2(%ad) : (memref<?x?xf32>) -> ()
  %b = memref.alloc() : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>
  layout.relayout %a, %b : memref<3x2x5xf32>, memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>
  %p = layout.to_physical %b : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>> -> memref<2x3x2x4xf32>
  %f = memref.collapse_shape %p [[0, 1, 2, 3]] : memref<2x3x2x4xf32> into memref<48xf32>
  %fd = memref.cast %f : memref<48xf32> to memref<?xf32>
  call @print1(%fd) : (memref<?xf32>) -> ()
  %c = memref.alloc() : memref<3x2x5xf32>
  layout.relayout %b, %c : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>, memref<3x2x5xf32>
  %c2 = memref.collapse_shape %c [[0], [1, 2]] : memref<3x2x5xf32> into memref<3x10xf32>
  %cd = memref.cast %c2 : memref<3x10xf32> to memref<?x?xf32>
  %n = call @mismatches2(%ad, %cd) : (memref<?x?xf32>, memref<?x?xf32>) -> i64
  call @printI64(%n) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
// CHECK-LABEL: sizes = [48]
// CHECK-NEXT: [1, 2, 3, 4, 11, 12, 13, 14, 5, 6, 7, 8, 15, 16, 17, 18, 9, 10, 0, 0, 19, 20, 0, 0, 21, 22, 23, 24, 0, 0, 0, 0, 25, 26, 27, 28, 0, 0, 0, 0, 29, 30, 0, 0, 0, 0, 0, 0]
// CHECK-NEXT: 0

func.func @main() {
  call @figure1() : () -> ()
  call @figure2() : () -> ()
  call @columnMajorAndLegacy() : () -> ()
  call @combine() : () -> ()
  return
}
