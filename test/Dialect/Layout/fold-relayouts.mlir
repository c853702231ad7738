// RUN: layout-opt %s --layout-fold-relayouts | FileCheck %s

!row = tensor<8x128xf32>
!tile = tensor<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>

// T(8,128) on 8x128 is row-major order: the relayout becomes a view.
// CHECK-LABEL: func.func @to_tiled_bitcast
// CHECK-SAME: (%[[S:.+]]: tensor<8x128xf32>
// CHECK-NEXT: %[[F:.+]] = tensor.collapse_shape %[[S]] {{\[\[}}0, 1]] : tensor<8x128xf32> into tensor<1024xf32>
// CHECK-NEXT: %[[E:.+]] = tensor.expand_shape %[[F]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 1, 8, 128] : tensor<1024xf32> into tensor<1x1x8x128xf32>
// CHECK-NEXT: %[[R:.+]] = layout.from_physical %[[E]] : tensor<1x1x8x128xf32> -> tensor<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: layout.relayout
func.func @to_tiled_bitcast(%s: !row, %d: !tile) -> !tile {
  %r = layout.relayout %s, %d : !row, !tile -> !tile
  return %r : !tile
}

// And back.
// CHECK-LABEL: func.func @from_tiled_bitcast
// CHECK-NEXT: layout.to_physical
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NEXT: tensor.expand_shape
// CHECK-NEXT: return
func.func @from_tiled_bitcast(%s: !tile, %d: !row) -> !row {
  %r = layout.relayout %s, %d : !tile, !row -> !row
  return %r : !row
}

// A transpose moves data: it stays.
// CHECK-LABEL: func.func @transpose
// CHECK: layout.relayout
func.func @transpose(%s: tensor<64x64xf32>, %d: tensor<64x64xf32, #layout.tiled<{0,1}>>) -> tensor<64x64xf32, #layout.tiled<{0,1}>> {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, tensor<64x64xf32, #layout.tiled<{0,1}>> -> tensor<64x64xf32, #layout.tiled<{0,1}>>
  return %r : tensor<64x64xf32, #layout.tiled<{0,1}>>
}

// A destination with padding slots stays: the relayout writes PV there.
// CHECK-LABEL: func.func @padded
// CHECK: layout.relayout
func.func @padded(%s: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %d: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %r = layout.relayout %s, %d : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// Chains compose: row -> transposed -> tiled is one relayout row -> tiled,
// which is a bitcast and folds.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: layout.relayout
// CHECK: layout.from_physical
func.func @chain(%s: !row, %m: tensor<8x128xf32, #layout.tiled<{0,1}>>, %d: !tile) -> !tile {
  %a = layout.relayout %s, %m : !row, tensor<8x128xf32, #layout.tiled<{0,1}>> -> tensor<8x128xf32, #layout.tiled<{0,1}>>
  %b = layout.relayout %a, %d : tensor<8x128xf32, #layout.tiled<{0,1}>>, !tile -> !tile
  return %b : !tile
}

// Memref relayouts write an existing buffer: unchanged.
// CHECK-LABEL: func.func @memref
// CHECK: layout.relayout
func.func @memref(%s: memref<8x128xf32>, %d: memref<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>) {
  layout.relayout %s, %d : memref<8x128xf32>, memref<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>
  return
}
