// The relayout table through --convert-layout-to-linalg (linalg.pack /
// linalg.unpack where one pack expresses the layout, else the
// pad -> expand_shape -> transpose form) and, as the reference, through the
// project's own lowering (--layout-lower-to-llvm alone). Both runs are
// checked against the same lines, computed by hand from docs/semantics.md §3 (the
// physical index of each element and the destination's padding value),
// not copied from the output.
// RUN: layout-opt %s --convert-layout-to-linalg -o %t.linalg.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.linalg.mlir
// RUN: layout-opt %t.linalg.mlir --layout-lower-to-llvm -o %t.a.mlir
// RUN: mlir-runner %t.a.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.b.mlir
// RUN: mlir-runner %t.b.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

// The conversion really took the linalg.pack path where it should:
// IR-LABEL: func.func @fig1
// IR: linalg.pack {{.*}}padding_value
// IR-LABEL: func.func @fig2
// IR-NOT: linalg.pack
// IR: tensor.expand_shape
// IR-LABEL: func.func @bf16_fig2
// IR-NOT: linalg.pack
// IR-LABEL: func.func @combine
// IR-NOT: linalg.pack
// IR: tensor.collapse_shape
// IR-LABEL: func.func @column_major
// IR: linalg.pack {{.*}}outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]
// IR: linalg.unpack {{.*}}outer_dims_perm = [1, 0] inner_dims_pos = [1, 0]
// IR-LABEL: func.func @legacy
// IR-NOT: linalg.pack
// IR: tensor.pad
// IR-LABEL: func.func @tiled_to_tiled
// IR: linalg.pack
// IR: linalg.unpack
// IR: linalg.pack
// IR: linalg.unpack
// IR-NOT: layout.relayout

func.func private @printMemrefF32(memref<*xf32>)

/// Prints a tensor as one flat row.
func.func @print(%t: tensor<?xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<?xf32> to memref<?xf32>
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// f32[3,5]{1,0:T(2,2)PV(one)} (Figure 1), element (i,j) = i*5+j+2: tiles
// (0,0)..(1,2) of 2x2, padding 1. The document's (2,3) -> slot 17 holds 15.
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
// CHECK-LABEL: sizes = [24]
// CHECK-NEXT: [2, 3, 7, 8, 4, 5, 9, 10, 6, 1, 11, 1, 12, 13, 1, 1, 14, 15, 1, 1, 16, 1, 1, 1]

// f32[4,8]{1,0:T(2,4)(2,1)} (Figure 2), element (i,j) = i*8+j: in each 2x4
// tile, the (2,1) level stores the columns one after the other.
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
// CHECK-LABEL: sizes = [32]
// CHECK-NEXT: [0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15, 16, 24, 17, 25, 18, 26, 19, 27, 20, 28, 21, 29, 22, 30, 23, 31]

// bf16[3,5]{1,0:T(8,128)(2,1)}, element (i,j) = i*5+j+1: physical
// (1,1,4,128,2,1), 1024 slots; slot ((i/2)*128 + j)*2 + i%2 holds (i,j).
// Printed as f32: the slots [0:2, 0:5, 0:2] of (4,128,2) (rows 0-1, then
// row 2 next to the padding row 3), then the sum of all 1024 slots: 120 =
// 1+...+15, so every other slot is 0.
func.func @bf16_fig2() {
  %src = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<3x5xbf16>
  %e = tensor.empty() : tensor<3x5xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
  %r = layout.relayout %src, %e : tensor<3x5xbf16>, tensor<3x5xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>> -> tensor<3x5xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
  %p = layout.to_physical %r : tensor<3x5xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>> -> tensor<1x1x4x128x2x1xbf16>
  %corner = tensor.extract_slice %p[0, 0, 0, 0, 0, 0] [1, 1, 2, 5, 2, 1] [1, 1, 1, 1, 1, 1] : tensor<1x1x4x128x2x1xbf16> to tensor<2x5x2xbf16>
  %cflat = tensor.collapse_shape %corner [[0, 1, 2]] : tensor<2x5x2xbf16> into tensor<20xbf16>
  %cinit = tensor.empty() : tensor<20xf32>
  %cf = linalg.map { arith.extf } ins(%cflat : tensor<20xbf16>) outs(%cinit : tensor<20xf32>)
  %cdyn = tensor.cast %cf : tensor<20xf32> to tensor<?xf32>
  call @print(%cdyn) : (tensor<?xf32>) -> ()
  %all = tensor.collapse_shape %p [[0, 1, 2, 3, 4, 5]] : tensor<1x1x4x128x2x1xbf16> into tensor<1024xbf16>
  %ainit = tensor.empty() : tensor<1024xf32>
  %af = linalg.map { arith.extf } ins(%all : tensor<1024xbf16>) outs(%ainit : tensor<1024xf32>)
  %zero = arith.constant 0.0 : f32
  %sinit = tensor.empty() : tensor<1xf32>
  %sfill = linalg.fill ins(%zero : f32) outs(%sinit : tensor<1xf32>) -> tensor<1xf32>
  %s0 = tensor.collapse_shape %sfill [] : tensor<1xf32> into tensor<f32>
  %sum = linalg.reduce { arith.addf } ins(%af : tensor<1024xf32>) outs(%s0 : tensor<f32>) dimensions = [0]
  %s1 = tensor.expand_shape %sum [] output_shape [1] : tensor<f32> into tensor<1xf32>
  %sdyn = tensor.cast %s1 : tensor<1xf32> to tensor<?xf32>
  call @print(%sdyn) : (tensor<?xf32>) -> ()
  return
}
// CHECK-LABEL: sizes = [20]
// CHECK-NEXT: [1, 6, 2, 7, 3, 8, 4, 9, 5, 10, 11, 0, 12, 0, 13, 0, 14, 0, 15, 0]
// CHECK-LABEL: sizes = [1]
// CHECK-NEXT: [120]

// f32[2,2,3,2,4]{4,3,2,1,0:T(*,*,2,*,3)PV(one)}, element = row-major
// position + 1: dims 0-2 combine into a = 6*i0 + 3*i1 + i2 (12), dims 3-4
// into b = 4*i3 + i4 (8), value a*8 + b + 1; tiles (2,3) over (12,8) give
// (6,3,2,3); b = 8 in the last tile column is padding (1).
func.func @combine() {
  %src = arith.constant dense<[[[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], [[9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]], [[17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0]]], [[[25.0, 26.0, 27.0, 28.0], [29.0, 30.0, 31.0, 32.0]], [[33.0, 34.0, 35.0, 36.0], [37.0, 38.0, 39.0, 40.0]], [[41.0, 42.0, 43.0, 44.0], [45.0, 46.0, 47.0, 48.0]]]], [[[[49.0, 50.0, 51.0, 52.0], [53.0, 54.0, 55.0, 56.0]], [[57.0, 58.0, 59.0, 60.0], [61.0, 62.0, 63.0, 64.0]], [[65.0, 66.0, 67.0, 68.0], [69.0, 70.0, 71.0, 72.0]]], [[[73.0, 74.0, 75.0, 76.0], [77.0, 78.0, 79.0, 80.0]], [[81.0, 82.0, 83.0, 84.0], [85.0, 86.0, 87.0, 88.0]], [[89.0, 90.0, 91.0, 92.0], [93.0, 94.0, 95.0, 96.0]]]]]> : tensor<2x2x3x2x4xf32>
  %e = tensor.empty() : tensor<2x2x3x2x4xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)PV(one)}, [2,2,3,2,4]>>
  %r = layout.relayout %src, %e : tensor<2x2x3x2x4xf32>, tensor<2x2x3x2x4xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)PV(one)}, [2,2,3,2,4]>> -> tensor<2x2x3x2x4xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)PV(one)}, [2,2,3,2,4]>>
  %p = layout.to_physical %r : tensor<2x2x3x2x4xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)PV(one)}, [2,2,3,2,4]>> -> tensor<6x3x2x3xf32>
  %flat = tensor.collapse_shape %p [[0, 1, 2, 3]] : tensor<6x3x2x3xf32> into tensor<108xf32>
  %dyn = tensor.cast %flat : tensor<108xf32> to tensor<?xf32>
  call @print(%dyn) : (tensor<?xf32>) -> ()
  return
}
// CHECK-LABEL: sizes = [108]
// CHECK-NEXT: [1, 2, 3, 9, 10, 11, 4, 5, 6, 12, 13, 14, 7, 8, 1, 15, 16, 1, 17, 18, 19, 25, 26, 27, 20, 21, 22, 28, 29, 30, 23, 24, 1, 31, 32, 1, 33, 34, 35, 41, 42, 43, 36, 37, 38, 44, 45, 46, 39, 40, 1, 47, 48, 1, 49, 50, 51, 57, 58, 59, 52, 53, 54, 60, 61, 62, 55, 56, 1, 63, 64, 1, 65, 66, 67, 73, 74, 75, 68, 69, 70, 76, 77, 78, 71, 72, 1, 79, 80, 1, 81, 82, 83, 89, 90, 91, 84, 85, 86, 92, 93, 94, 87, 88, 1, 95, 96, 1]

// f32[3,5]{0,1:T(2,2)}, element (i,j) = i*5+j+2: physical order (j, i),
// tiles (j/2, i/2) of (j%2, i%2), padding 0; then back to row-major
// (linalg.unpack with the same outer_dims_perm).
func.func @column_major() {
  %src = arith.constant dense<[[2.0, 3.0, 4.0, 5.0, 6.0], [7.0, 8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0, 16.0]]> : tensor<3x5xf32>
  %e = tensor.empty() : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>
  %r = layout.relayout %src, %e : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>
  %p = layout.to_physical %r : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>> -> tensor<3x2x2x2xf32>
  %flat = tensor.collapse_shape %p [[0, 1, 2, 3]] : tensor<3x2x2x2xf32> into tensor<24xf32>
  %dyn = tensor.cast %flat : tensor<24xf32> to tensor<?xf32>
  call @print(%dyn) : (tensor<?xf32>) -> ()
  %e2 = tensor.empty() : tensor<3x5xf32>
  %row = layout.relayout %r, %e2 : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>, tensor<3x5xf32> -> tensor<3x5xf32>
  %flat2 = tensor.collapse_shape %row [[0, 1]] : tensor<3x5xf32> into tensor<15xf32>
  %dyn2 = tensor.cast %flat2 : tensor<15xf32> to tensor<?xf32>
  call @print(%dyn2) : (tensor<?xf32>) -> ()
  return
}
// CHECK-LABEL: sizes = [24]
// CHECK-NEXT: [2, 7, 3, 8, 12, 0, 13, 0, 4, 9, 5, 10, 14, 0, 15, 0, 6, 11, 0, 0, 16, 0, 0, 0]
// CHECK-LABEL: sizes = [15]
// CHECK-NEXT: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]

// The legacy padding example of XLA's shapes document: f32[2,3]{0,1:PAD(3,5)PV(one)}, a 2x3 array
// (element i*3+j+2) column-major in a 3x5 box of ones.
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
// CHECK-LABEL: sizes = [15]
// CHECK-NEXT: [2, 5, 1, 3, 6, 1, 4, 7, 1, 1, 1, 1, 1, 1, 1]

// Figure 1 -> f32[3,5]{0,1:T(4)} (an unpack, then a pack: physical (5,1,4),
// column j holds i = 0..2 and one padding 0) and Figure 1 -> row-major.
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
// CHECK-LABEL: sizes = [20]
// CHECK-NEXT: [2, 7, 12, 0, 3, 8, 13, 0, 4, 9, 14, 0, 5, 10, 15, 0, 6, 11, 16, 0]
// CHECK-LABEL: sizes = [15]
// CHECK-NEXT: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]

func.func @main() {
  call @fig1() : () -> ()
  call @fig2() : () -> ()
  call @bf16_fig2() : () -> ()
  call @combine() : () -> ()
  call @column_major() : () -> ()
  call @legacy() : () -> ()
  call @tiled_to_tiled() : () -> ()
  return
}
