// RUN: layout-opt %s -canonicalize -split-input-file | FileCheck %s

// Identity: same type, dims [0, 1, ...]: the operand.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]] : tensor<2x3xf32>
func.func @identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Dynamic identity without sizes: each dynamic size is the operand's (C7).
// CHECK-LABEL: func.func @identity_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>)
// CHECK-NEXT: return %[[X]] : tensor<?x3xf32>
func.func @identity_dynamic(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [0, 1] : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Dynamic identity whose sizes are the operand's own tensor.dim.
// CHECK-LABEL: func.func @identity_own_sizes
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>)
// CHECK-NOT: layout.broadcast_in_dim
// CHECK: return %[[X]] : tensor<?x?xf32>
func.func @identity_own_sizes(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %0 = layout.broadcast_in_dim %x, dims = [0, 1] sizes(%d0, %d1) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Not an identity: other sizes may replicate a dynamic size-1 dim.
// CHECK-LABEL: func.func @not_identity_other_sizes
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>, %[[N:.+]]: index)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[X]], dims = [0] sizes(%[[N]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT: return %[[B]]
func.func @not_identity_other_sizes(%x: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [0] sizes(%n) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Not an identity: a transpose, or a change of encoding.
// CHECK-LABEL: func.func @not_identity
// CHECK: layout.broadcast_in_dim %{{.+}}, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
// CHECK: layout.broadcast_in_dim %{{.+}}, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
func.func @not_identity(%x: tensor<3x3xf32>, %y: tensor<8x8xf32>) -> (tensor<3x3xf32>, tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>) {
  %0 = layout.broadcast_in_dim %x, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = layout.broadcast_in_dim %y, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
  return %0, %1 : tensor<3x3xf32>, tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
}

// -----

// A broadcast of a broadcast: one broadcast, dims composed
// (outer[inner[i]]): 3 -> 2x3 (dims [1]) -> 4x2x3 (dims [1, 2]) is
// 3 -> 4x2x3 with dims [2].
// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[X]], dims = [2] : (tensor<3xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<3xf32>) -> tensor<4x2x3xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = layout.broadcast_in_dim %0, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// With a transpose: 3 -> 2x3 (dims [1]) -> 3x5x2 (dims [2, 0]) is
// 3 -> 3x5x2 with dims [0].
// CHECK-LABEL: func.func @broadcast_of_broadcast_transposed
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[X]], dims = [0] : (tensor<3xf32>) -> tensor<3x5x2xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast_transposed(%x: tensor<3xf32>) -> tensor<3x5x2xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = layout.broadcast_in_dim %0, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x5x2xf32>
  return %1 : tensor<3x5x2xf32>
}

// -----

// A chain of three with dynamic sizes: the outer sizes are kept. The inner
// results stay only while used.
// CHECK-LABEL: func.func @broadcast_of_broadcast_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>, %[[N:.+]]: index, %[[M:.+]]: index)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[X]], dims = [2] sizes(%[[M]], %[[N]]) : (tensor<?xf32>) -> tensor<?x3x?xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast_dynamic(%x: tensor<?xf32>, %n: index, %m: index) -> tensor<?x3x?xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [0] sizes(%n) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = layout.broadcast_in_dim %0, dims = [1] : (tensor<?xf32>) -> tensor<3x?xf32>
  %2 = layout.broadcast_in_dim %1, dims = [1, 2] sizes(%m, %n) : (tensor<3x?xf32>) -> tensor<?x3x?xf32>
  return %2 : tensor<?x3x?xf32>
}

// -----

// Not composed: without outer sizes, the dynamic result size is the
// intermediate's run-time size: %n (the inner sizes), not dim(%x, 0).
// (A static intermediate such as tensor<5xf32> cannot broadcast into a `?`
// result: StableHLO's C5, tested in broadcast-invalid.mlir.)
// CHECK-LABEL: func.func @broadcast_of_broadcast_kept_inner_sizes
// CHECK: %[[A:.+]] = layout.broadcast_in_dim %{{.+}}, dims = [0] sizes(%{{.+}}) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK: layout.broadcast_in_dim %[[A]], dims = [1] : (tensor<?xf32>) -> tensor<3x?xf32>
func.func @broadcast_of_broadcast_kept_inner_sizes(%x: tensor<?xf32>, %n: index) -> tensor<3x?xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [0] sizes(%n) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = layout.broadcast_in_dim %0, dims = [1] : (tensor<?xf32>) -> tensor<3x?xf32>
  return %1 : tensor<3x?xf32>
}

// -----

// Composed without sizes: the intermediate's dynamic size is the source's.
// CHECK-LABEL: func.func @broadcast_of_broadcast_dynamic_no_sizes
// CHECK-SAME: (%[[X:.+]]: tensor<?x1xf32>)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[X]], dims = [2, 0] : (tensor<?x1xf32>) -> tensor<4x3x?xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_broadcast_dynamic_no_sizes(%x: tensor<?x1xf32>) -> tensor<4x3x?xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [0, 1] : (tensor<?x1xf32>) -> tensor<?x4xf32>
  %1 = layout.broadcast_in_dim %0, dims = [2, 0] : (tensor<?x4xf32>) -> tensor<4x3x?xf32>
  return %1 : tensor<4x3x?xf32>
}

// -----

// A broadcast of a splat constant is a splat constant.
// CHECK-LABEL: func.func @splat
// CHECK-DAG: %[[F:.+]] = arith.constant dense<1.500000e+00> : tensor<2x3xf32>
// CHECK-DAG: %[[I:.+]] = arith.constant dense<7> : tensor<4x1x2xi32>
// CHECK-NOT: layout.broadcast_in_dim
// CHECK: return %[[F]], %[[I]]
func.func @splat() -> (tensor<2x3xf32>, tensor<4x1x2xi32>) {
  %c = arith.constant dense<1.5> : tensor<3xf32>
  %0 = layout.broadcast_in_dim %c, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %s = arith.constant dense<7> : tensor<i32>
  %1 = layout.broadcast_in_dim %s, dims = [] : (tensor<i32>) -> tensor<4x1x2xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<4x1x2xi32>
}

// -----

// Not folded: a non-splat constant, or a dynamic result.
// CHECK-LABEL: func.func @not_splat
// CHECK-DAG: %[[C:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[S:.+]] = arith.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK: layout.broadcast_in_dim %[[C]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: layout.broadcast_in_dim %[[S]], dims = [1] sizes(%{{.+}}) : (tensor<3xf32>) -> tensor<?x3xf32>
func.func @not_splat(%n: index) -> (tensor<2x3xf32>, tensor<?x3xf32>) {
  %c = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = layout.broadcast_in_dim %c, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %s = arith.constant dense<1.0> : tensor<3xf32>
  %1 = layout.broadcast_in_dim %s, dims = [1] sizes(%n) : (tensor<3xf32>) -> tensor<?x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<?x3xf32>
}
