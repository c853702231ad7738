// --layout-decompose-tiling followed by --layout-lower-to-llvm lowers what
// --layout-lower-to-llvm alone lowers: relayouts into another memory space
// (S(1)) or with sub-byte packing (E(4)) stay relayouts (their physical
// tensors would bufferize to space-0, unpacked buffers).
// RUN: layout-opt %s --layout-decompose-tiling | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt %s --layout-decompose-tiling --layout-lower-to-llvm | FileCheck %s --check-prefix=LLVM

!space = tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>>
!packed = tensor<2x4xf4E2M1FN, #layout.tiled<{1,0:E(4)}>>

// CHECK-LABEL: func.func @into_space
// CHECK: layout.relayout
// CHECK-NOT: linalg.transpose
// LLVM-LABEL: llvm.func @into_space
func.func @into_space(%s: tensor<8x8xf32>) -> !space {
  %e = tensor.empty() : !space
  %r = layout.relayout %s, %e : tensor<8x8xf32>, !space -> !space
  return %r : !space
}

// CHECK-LABEL: func.func @pack
// CHECK: layout.relayout
// CHECK-NOT: layout.from_physical
// LLVM-LABEL: llvm.func @pack
func.func @pack(%s: tensor<2x4xf4E2M1FN>) -> !packed {
  %e = tensor.empty() : !packed
  %r = layout.relayout %s, %e : tensor<2x4xf4E2M1FN>, !packed -> !packed
  return %r : !packed
}

// Space 0 without packing still decomposes.
// CHECK-LABEL: func.func @tiles
// CHECK-NOT: layout.relayout
// CHECK: linalg.transpose
// LLVM-LABEL: llvm.func @tiles
func.func @tiles(%s: tensor<8x8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>> {
  %e = tensor.empty() : tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
  %r = layout.relayout %s, %e : tensor<8x8xf32>, tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>> -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
  return %r : tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
}
