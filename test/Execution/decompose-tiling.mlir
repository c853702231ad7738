// --layout-decompose-tiling produces exactly the bytes of the direct
// lowering of layout.relayout. Each function relayouts a row-major constant
// (or a tiled tensor) and prints the destination's physical buffer; both
// paths are checked against the same lines, computed from docs/semantics.md §3 by an
// independent script (not copied from the output). Padding slots hold the
// destination's padding value (PV(one) -> 1, none -> 0). The input is at the
// tensor level: the pipeline of (b) and (c) must bufferize it.
//
// (a) the decomposition through upstream passes only (no relayout lowering
// involved): --layout-bufferize, linalg loops, --layout-normalize-memrefs.
// RUN: layout-opt %s --layout-decompose-tiling --layout-bufferize \
// RUN:   -convert-linalg-to-loops --layout-normalize-memrefs \
// RUN:   -expand-strided-metadata -lower-affine -convert-scf-to-cf \
// RUN:   -convert-to-llvm -reconcile-unrealized-casts -o %t.a.mlir
// RUN: mlir-runner %t.a.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// (b) decomposed into tensor/linalg ops, then the project's pipeline:
// RUN: layout-opt %s --layout-decompose-tiling --layout-lower-to-llvm -o %t.b.mlir
// RUN: mlir-runner %t.b.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// (c) the pipeline's direct lowering of layout.relayout:
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.c.mlir
// RUN: mlir-runner %t.c.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

/// Prints a physical tensor as one flat row.
func.func @print(%t: tensor<?xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<?xf32> to memref<?xf32>
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @fig1() {
  %src = arith.constant dense<[[2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0]]> : tensor<3x5xf32>
  %e = tensor.empty() : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>
  %r = layout.relayout %src, %e : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>
  %p = layout.to_physical %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>> -> tensor<2x3x2x2xf32>
  %flat = tensor.collapse_shape %p [[0, 1, 2, 3]] : tensor<2x3x2x2xf32> into tensor<24xf32>
  %dyn = tensor.cast %flat : tensor<24xf32> to tensor<?xf32>
  call @print(%dyn) : (tensor<?xf32>) -> ()
  return
}

func.func @fig2() {
  %src = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  %r = layout.relayout %src, %e : tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>> -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  %p = layout.to_physical %r : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>> -> tensor<2x2x1x4x2x1xf32>
  %flat = tensor.collapse_shape %p [[0, 1, 2, 3, 4, 5]] : tensor<2x2x1x4x2x1xf32> into tensor<32xf32>
  %dyn = tensor.cast %flat : tensor<32xf32> to tensor<?xf32>
  call @print(%dyn) : (tensor<?xf32>) -> ()
  return
}

func.func @combine() {
  %src = arith.constant dense<[[[2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0]], [[17.0, 18.0, 19.0, 20.0, 21.0], [22.0, 23.0, 24.0, 25.0, 26.0], [27.0, 28.0, 29.0, 30.0, 31.0]]]> : tensor<2x3x5xf32>
  %e = tensor.empty() : tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)PV(one)}, [2,3,5]>>
  %r = layout.relayout %src, %e : tensor<2x3x5xf32>, tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)PV(one)}, [2,3,5]>> -> tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)PV(one)}, [2,3,5]>>
  %p = layout.to_physical %r : tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)PV(one)}, [2,3,5]>> -> tensor<3x2x2x3xf32>
  %flat = tensor.collapse_shape %p [[0, 1, 2, 3]] : tensor<3x2x2x3xf32> into tensor<36xf32>
  %dyn = tensor.cast %flat : tensor<36xf32> to tensor<?xf32>
  call @print(%dyn) : (tensor<?xf32>) -> ()
  return
}

func.func @legacy() {
  %src = arith.constant dense<[[2.0, 3.0, 4.0], [5.0, 6.0, 7.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
  %r = layout.relayout %src, %e : tensor<2x3xf32>, tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>> -> tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
  %p = layout.to_physical %r : tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>> -> tensor<5x3xf32>
  %flat = tensor.collapse_shape %p [[0, 1]] : tensor<5x3xf32> into tensor<15xf32>
  %dyn = tensor.cast %flat : tensor<15xf32> to tensor<?xf32>
  call @print(%dyn) : (tensor<?xf32>) -> ()
  return
}

// Figure 1 -> column-major with a tile of 4 (through the logical tensor),
// and Figure 1 -> row-major.
func.func @tiled_to_tiled() {
  %src = arith.constant dense<[[2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0]]> : tensor<3x5xf32>
  %e = tensor.empty() : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>
  %t = layout.relayout %src, %e : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>
  %e2 = tensor.empty() : tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
  %c = layout.relayout %t, %e2 : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>, tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>> -> tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
  %p = layout.to_physical %c : tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>> -> tensor<5x1x4xf32>
  %flat = tensor.collapse_shape %p [[0, 1, 2]] : tensor<5x1x4xf32> into tensor<20xf32>
  %dyn = tensor.cast %flat : tensor<20xf32> to tensor<?xf32>
  call @print(%dyn) : (tensor<?xf32>) -> ()
  %e3 = tensor.empty() : tensor<3x5xf32>
  %row = layout.relayout %t, %e3 : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>, tensor<3x5xf32> -> tensor<3x5xf32>
  %flat2 = tensor.collapse_shape %row [[0, 1]] : tensor<3x5xf32> into tensor<15xf32>
  %dyn2 = tensor.cast %flat2 : tensor<15xf32> to tensor<?xf32>
  call @print(%dyn2) : (tensor<?xf32>) -> ()
  return
}

func.func @main() {
  call @fig1() : () -> ()
  call @fig2() : () -> ()
  call @combine() : () -> ()
  call @legacy() : () -> ()
  call @tiled_to_tiled() : () -> ()
  return
}

// f32[3,5]{1,0:T(2,2)PV(one)}, element (i,j) = i*5+j+2 (the document: (2,3) -> slot 17).
// CHECK: sizes = [24]
// CHECK-NEXT: [2, 3, 7, 8, 4, 5, 9, 10, 6, 1, 11, 1, 12, 13, 1, 1, 14, 15, 1, 1, 16, 1, 1, 1]
// f32[4,8]{1,0:T(2,4)(2,1)} (Figure 2), element (i,j) = i*8+j.
// CHECK: sizes = [32]
// CHECK-NEXT: [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 16, 24, 17, 25, 18, 26, 19, 27, 20, 28, 21, 29, 22, 30, 23, 31]
// f32[2,3,5]{2,1,0:T(*,2,3)PV(one)}: [2,3,5] -> [6,5] -> (3,2,2,3).
// CHECK: sizes = [36]
// CHECK-NEXT: [2, 3, 4, 7, 8, 9, 5, 6, 1, 10, 11, 1, 12, 13, 14, 17, 18, 19, 15, 16, 1, 20, 21, 1, 22, 23, 24, 27, 28, 29, 25, 26, 1, 30, 31, 1]
// The legacy padding example of XLA's shapes document: a 2x3 array, column-major, in a 3x5 box.
// CHECK: sizes = [15]
// CHECK-NEXT: [2, 5, 1, 3, 6, 1, 4, 7, 1, 1, 1, 1, 1, 1, 1]
// Figure 1 -> f32[3,5]{0,1:T(4)}: physical (5,1,4), tile padding 0.
// CHECK: sizes = [20]
// CHECK-NEXT: [2, 7, 12, 0, 3, 8, 13, 0, 4, 9, 14, 0, 5, 10, 15, 0, 6, 11, 16, 0]
// Figure 1 -> row-major.
// CHECK: sizes = [15]
// CHECK-NEXT: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
