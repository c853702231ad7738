// --layout-fold-relayouts followed by --layout-lower-to-llvm lowers what
// --layout-lower-to-llvm alone lowers. Two relayouts that the algebra calls
// bitcasts stay relayouts: one into S(1) (another memory space: the bytes
// move, BufferBytes.h), one between E(4)-packed tensors (a view would
// reshape the packed buffer, which layout-normalize-memrefs refuses).
// RUN: layout-opt %s --layout-fold-relayouts | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt %s --layout-fold-relayouts --layout-lower-to-llvm | FileCheck %s --check-prefix=LLVM

!row = tensor<2x4xf32>
!space = tensor<2x4xf32, #layout.tiled<{1,0:T(2,4)S(1)}>>
!packed = tensor<2x4xi4, #layout.tiled<{1,0:E(4)}>>
!packedTile = tensor<2x4xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>

// CHECK-LABEL: func.func @into_space
// CHECK: layout.relayout
// CHECK-NOT: tensor.expand_shape
// LLVM-LABEL: llvm.func @into_space
func.func @into_space(%s: !row, %d: !space) -> !space {
  %r = layout.relayout %s, %d : !row, !space -> !space
  return %r : !space
}

// CHECK-LABEL: func.func @packed
// CHECK: layout.relayout
// CHECK-NOT: tensor.collapse_shape
// LLVM-LABEL: llvm.func @packed
func.func @packed(%s: !packed, %d: !packedTile) -> !packedTile {
  %r = layout.relayout %s, %d : !packed, !packedTile -> !packedTile
  return %r : !packedTile
}

// The same bytes in memory space 0 still fold into a view.
// CHECK-LABEL: func.func @same_space
// CHECK-NOT: layout.relayout
// CHECK: tensor.expand_shape
// LLVM-LABEL: llvm.func @same_space
func.func @same_space(%s: !row, %d: tensor<2x4xf32, #layout.tiled<{1,0:T(2,4)}>>) -> tensor<2x4xf32, #layout.tiled<{1,0:T(2,4)}>> {
  %r = layout.relayout %s, %d : !row, tensor<2x4xf32, #layout.tiled<{1,0:T(2,4)}>> -> tensor<2x4xf32, #layout.tiled<{1,0:T(2,4)}>>
  return %r : tensor<2x4xf32, #layout.tiled<{1,0:T(2,4)}>>
}
