// RUN: layout-opt %s --layout-expand-broadcasts | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: layout-opt %s --layout-expand-broadcasts --layout-expand-broadcasts | FileCheck %s

// Seed: (2,3) + (3) with dims (1). The vector goes through one
// broadcast_in_dim whose dims are the op's broadcast_dimensions.
// CHECK-LABEL: func.func @matrix_plus_vector
// CHECK-SAME: (%[[M:.+]]: tensor<2x3xf32>, %[[V:.+]]: tensor<3xf32>)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[V]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[R:.+]] = layout.add %[[M]], %[[B]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @matrix_plus_vector(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = layout.add %m, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  return %0 : tensor<2x3xf32>
}

// Seed: (3,3) + (3) with dims (0): the vector becomes the columns.
// CHECK-LABEL: func.func @square_columns
// CHECK-SAME: (%[[M:.+]]: tensor<3x3xf32>, %[[V:.+]]: tensor<3xf32>)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[V]], dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[R:.+]] = layout.subtract %[[M]], %[[B]] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
func.func @square_columns(%m: tensor<3x3xf32>, %v: tensor<3xf32>) -> tensor<3x3xf32> {
  %0 = layout.subtract %m, %v, dims = [0] : (tensor<3x3xf32>, tensor<3xf32>)
  return %0 : tensor<3x3xf32>
}

// A scalar (either side) broadcasts with empty dims.
// CHECK-LABEL: func.func @scalar
// CHECK-SAME: (%[[S:.+]]: tensor<f32>, %[[M:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[S]], dims = [] : (tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT: layout.multiply %[[B]], %[[M]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @scalar(%s: tensor<f32>, %m: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = layout.multiply %s, %m : (tensor<f32>, tensor<2x3xf32>)
  return %0 : tensor<2x3xf32>
}

// Seed, outer operation: (2,1) and (1,3); both operands expand
// (degenerate). compare keeps its direction and i1 result.
// CHECK-LABEL: func.func @outer_compare
// CHECK-SAME: (%[[A:.+]]: tensor<2x1xi32>, %[[B:.+]]: tensor<1x3xi32>)
// CHECK-NEXT: %[[BA:.+]] = layout.broadcast_in_dim %[[A]], dims = [0, 1] : (tensor<2x1xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %[[BB:.+]] = layout.broadcast_in_dim %[[B]], dims = [0, 1] : (tensor<1x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT: %[[R:.+]] = layout.compare LT, %[[BA]], %[[BB]] : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT: return %[[R]]
func.func @outer_compare(%a: tensor<2x1xi32>, %b: tensor<1x3xi32>) -> tensor<2x3xi1> {
  %0 = layout.compare LT, %a, %b : (tensor<2x1xi32>, tensor<1x3xi32>)
  return %0 : tensor<2x3xi1>
}

// Seed, composition: [4] + [1,2] with dims (0) -> [4,2]: InDim for the
// vector, degenerate for the 1x2 matrix.
// CHECK-LABEL: func.func @composition_vector
// CHECK-SAME: (%[[V:.+]]: tensor<4xf32>, %[[M:.+]]: tensor<1x2xf32>)
// CHECK-NEXT: %[[BV:.+]] = layout.broadcast_in_dim %[[V]], dims = [0] : (tensor<4xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[BM:.+]] = layout.broadcast_in_dim %[[M]], dims = [0, 1] : (tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: layout.add %[[BV]], %[[BM]] : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
func.func @composition_vector(%v: tensor<4xf32>, %m: tensor<1x2xf32>) -> tensor<4x2xf32> {
  %0 = layout.add %v, %m, dims = [0] : (tensor<4xf32>, tensor<1x2xf32>)
  return %0 : tensor<4x2xf32>
}

// Seed, composition: [1,2] + [4,3,1] with dims (1,2) -> [4,3,2].
// CHECK-LABEL: func.func @composition_matrix
// CHECK-SAME: (%[[M:.+]]: tensor<1x2xf32>, %[[A:.+]]: tensor<4x3x1xf32>)
// CHECK-NEXT: %[[BM:.+]] = layout.broadcast_in_dim %[[M]], dims = [1, 2] : (tensor<1x2xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT: %[[BA:.+]] = layout.broadcast_in_dim %[[A]], dims = [0, 1, 2] : (tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
// CHECK-NEXT: layout.add %[[BM]], %[[BA]] : (tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
func.func @composition_matrix(%m: tensor<1x2xf32>, %a: tensor<4x3x1xf32>) -> tensor<4x3x2xf32> {
  %0 = layout.add %m, %a, dims = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>)
  return %0 : tensor<4x3x2xf32>
}

// Nothing broadcasts: the op stays; an identity dims is dropped. An
// operand of the result shape keeps its encoding, and the op its result type.
// CHECK-LABEL: func.func @no_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[T:.+]]: tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, %[[V:.+]]: tensor<8xf32>)
// CHECK-NEXT: layout.add %[[A]], %[[A]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: layout.add %[[A]], %[[A]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[V]], dims = [0] : (tensor<8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT: layout.maximum %[[T]], %[[B]] : (tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, tensor<8x8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
func.func @no_broadcast(%a: tensor<2x3xf32>, %t: tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, %v: tensor<8xf32>) {
  %0 = layout.add %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>)
  %1 = layout.add %a, %a, dims = [0, 1] : (tensor<2x3xf32>, tensor<2x3xf32>)
  %2 = layout.maximum %t, %v, dims = [0] : (tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, tensor<8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
  return
}

// Dynamic: the result's dynamic size is the matrix's own; the matrix is
// used as it is, the vector gets that size.
// CHECK-LABEL: func.func @dynamic_matrix_plus_vector
// CHECK-SAME: (%[[M:.+]]: tensor<?x3xf32>, %[[V:.+]]: tensor<3xf32>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.+]] = tensor.dim %[[M]], %[[C0]] : tensor<?x3xf32>
// CHECK-NEXT: %[[B:.+]] = layout.broadcast_in_dim %[[V]], dims = [1] sizes(%[[D]]) : (tensor<3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: %[[R:.+]] = layout.add %[[M]], %[[B]] : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @dynamic_matrix_plus_vector(%m: tensor<?x3xf32>, %v: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = layout.add %m, %v, dims = [1] : (tensor<?x3xf32>, tensor<3xf32>)
  return %0 : tensor<?x3xf32>
}

// `?` and `?`: either may be 1 at run time, so the size is
// lhs == 1 ? rhs : lhs and both operands are broadcast to it.
// CHECK-LABEL: func.func @dynamic_both
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK-DAG: %[[DA:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?xf32>
// CHECK-DAG: %[[DB:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<?xf32>
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[IS1:.+]] = arith.cmpi eq, %[[DA]], %[[ONE]] : index
// CHECK-NEXT: %[[N:.+]] = arith.select %[[IS1]], %[[DB]], %[[DA]] : index
// CHECK-NEXT: %[[BA:.+]] = layout.broadcast_in_dim %[[A]], dims = [0] sizes(%[[N]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT: %[[BB:.+]] = layout.broadcast_in_dim %[[B]], dims = [0] sizes(%[[N]]) : (tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT: layout.add %[[BA]], %[[BB]] : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
func.func @dynamic_both(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = layout.add %a, %b : (tensor<?xf32>, tensor<?xf32>)
  return %0 : tensor<?xf32>
}

// `?` and 1 give `?` (the lhs's size); `?` and 4 give 4, so the `?`
// operand is broadcast to the static 4 (it may be 1 at run time).
// CHECK-LABEL: func.func @dynamic_mixed
// CHECK-SAME: (%[[A:.+]]: tensor<?x1x4xf32>, %[[B:.+]]: tensor<1x?x?xf32>)
// CHECK: %[[D0:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x1x4xf32>
// CHECK: %[[D1:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<1x?x?xf32>
// CHECK-NEXT: %[[BA:.+]] = layout.broadcast_in_dim %[[A]], dims = [0, 1, 2] sizes(%[[D0]], %[[D1]]) : (tensor<?x1x4xf32>) -> tensor<?x?x4xf32>
// CHECK-NEXT: %[[BB:.+]] = layout.broadcast_in_dim %[[B]], dims = [0, 1, 2] sizes(%[[D0]], %[[D1]]) : (tensor<1x?x?xf32>) -> tensor<?x?x4xf32>
// CHECK-NEXT: layout.add %[[BA]], %[[BB]] : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
func.func @dynamic_mixed(%a: tensor<?x1x4xf32>, %b: tensor<1x?x?xf32>) -> tensor<?x?x4xf32> {
  %0 = layout.add %a, %b : (tensor<?x1x4xf32>, tensor<1x?x?xf32>)
  return %0 : tensor<?x?x4xf32>
}

// `?` and 1: the `?` operand keeps its size and is used as it is.
// CHECK-LABEL: func.func @dynamic_and_one
// CHECK-SAME: (%[[A:.+]]: tensor<?xi32>, %[[B:.+]]: tensor<1xi32>)
// CHECK: %[[D:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?xi32>
// CHECK-NEXT: %[[BB:.+]] = layout.broadcast_in_dim %[[B]], dims = [0] sizes(%[[D]]) : (tensor<1xi32>) -> tensor<?xi32>
// CHECK-NEXT: layout.shift_left %[[A]], %[[BB]] : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
func.func @dynamic_and_one(%a: tensor<?xi32>, %b: tensor<1xi32>) -> tensor<?xi32> {
  %0 = layout.shift_left %a, %b : (tensor<?xi32>, tensor<1xi32>)
  return %0 : tensor<?xi32>
}

// `?` and 4: the result is static; only the dynamic operand is broadcast.
// CHECK-LABEL: func.func @dynamic_and_static
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK-NEXT: %[[BA:.+]] = layout.broadcast_in_dim %[[A]], dims = [0] : (tensor<?xf32>) -> tensor<4xf32>
// CHECK-NEXT: layout.divide %[[BA]], %[[B]] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @dynamic_and_static(%a: tensor<?xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = layout.divide %a, %b : (tensor<?xf32>, tensor<4xf32>)
  return %0 : tensor<4xf32>
}

// The same tensor on both sides has the same sizes: nothing to do.
// CHECK-LABEL: func.func @dynamic_same_value
// CHECK-SAME: (%[[A:.+]]: tensor<?x?xf32>)
// CHECK-NEXT: layout.power %[[A]], %[[A]] : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT: return
func.func @dynamic_same_value(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = layout.power %a, %a : (tensor<?x?xf32>, tensor<?x?xf32>)
  return %0 : tensor<?x?xf32>
}
