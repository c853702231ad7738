// A relayout of a tensor without elements writes nothing: the conversion
// makes an empty physical tensor instead of a linalg.pack (whose
// decomposition took a subview at offset 0 of an empty buffer, "offset 0 is
// out-of-bounds", on an op the user never wrote), and reads no unpack.
// RUN: layout-opt %s --convert-layout-to-linalg | FileCheck %s
// RUN: layout-opt %s --convert-layout-to-linalg --layout-lower-to-llvm | FileCheck %s --check-prefix=LLVM

!row = tensor<0x5xf32>
!tiled = tensor<0x5xf32, #layout.tiled<{1,0:T(2,2)}>>
!other = tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>>

// CHECK-LABEL: func.func @to_tiled
// CHECK-NOT: linalg.pack
// CHECK: %[[E:.+]] = tensor.empty() : tensor<0x3x2x2xf32>
// CHECK-NEXT: %[[R:.+]] = layout.from_physical %[[E]] : tensor<0x3x2x2xf32> -> tensor<0x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: return %[[R]]
// LLVM-LABEL: llvm.func @to_tiled
func.func @to_tiled(%s: !row, %d: !tiled) -> !tiled {
  %r = layout.relayout %s, %d : !row, !tiled -> !tiled
  return %r : !tiled
}

// CHECK-LABEL: func.func @between_tiled
// CHECK-NOT: linalg.unpack
// CHECK-NOT: linalg.pack
// CHECK: %[[E:.+]] = tensor.empty() : tensor<3x0x2x1xf32>
// CHECK-NEXT: %[[R:.+]] = layout.from_physical %[[E]] : tensor<3x0x2x1xf32> -> tensor<0x5xf32, #layout.tiled<{0,1:T(2,1)}>>
// CHECK-NEXT: return %[[R]]
// LLVM-LABEL: llvm.func @between_tiled
func.func @between_tiled(%s: !tiled, %d: !other) -> !other {
  %r = layout.relayout %s, %d : !tiled, !other -> !other
  return %r : !other
}

// CHECK-LABEL: func.func @to_row
// CHECK-NOT: linalg.unpack
// CHECK: %[[E:.+]] = tensor.empty() : tensor<0x5xf32>
// CHECK-NEXT: return %[[E]]
// LLVM-LABEL: llvm.func @to_row
func.func @to_row(%s: !tiled, %d: !row) -> !row {
  %r = layout.relayout %s, %d : !tiled, !row -> !row
  return %r : !row
}
