// --layout-decompose-tiling followed by --layout-lower-to-llvm lowers what
// --layout-lower-to-llvm alone lowers: relayouts into another memory space
// (S(1)) or with sub-byte packing (E(4)) stay relayouts (their physical
// tensors would bufferize to space-0, unpacked buffers); relayouts of
// tensors without elements become an empty destination (padding or slicing
// a size-0 dim at offset 0 does not verify; found by the module fuzzer).
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

// CHECK-LABEL: func.func @zero_size_between_tiled
// CHECK: %[[E:.+]] = tensor.empty() : tensor<3x0x2x1xf32>
// CHECK: %[[R:.+]] = layout.from_physical %[[E]] : tensor<3x0x2x1xf32> -> tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>>
// CHECK: return %[[R]]
// LLVM-LABEL: llvm.func @zero_size_between_tiled
func.func @zero_size_between_tiled(%s: tensor<0x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %d: tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>>) -> tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>> {
  %r = layout.relayout %s, %d : tensor<0x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>> -> tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>>
  return %r : tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>>
}

// CHECK-LABEL: func.func @zero_size_to_row
// CHECK: %[[E:.+]] = tensor.empty() : tensor<0x5xf32>
// CHECK: return %[[E]]
// LLVM-LABEL: llvm.func @zero_size_to_row
func.func @zero_size_to_row(%s: tensor<0x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %d: tensor<0x5xf32>) -> tensor<0x5xf32> {
  %r = layout.relayout %s, %d : tensor<0x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<0x5xf32> -> tensor<0x5xf32>
  return %r : tensor<0x5xf32>
}
