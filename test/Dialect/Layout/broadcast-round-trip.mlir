// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s -mlir-print-op-generic | layout-opt | FileCheck %s
// RUN: layout-opt %s -emit-bytecode | layout-opt | FileCheck %s
// RUN: layout-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK-SAME: (%[[V:.+]]: tensor<3xf32>, %[[Y:.+]]: tensor<?xf32>, %[[N:.+]]: index, %[[K:.+]]: index)
// GENERIC-LABEL: sym_name = "broadcast_in_dim"
func.func @broadcast_in_dim(%v: tensor<3xf32>, %y: tensor<?xf32>, %n: index, %k: index) {
  // CHECK: layout.broadcast_in_dim %[[V]], dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // GENERIC: "layout.broadcast_in_dim"(%{{.+}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<3xf32>) -> tensor<2x3xf32>
  %0 = layout.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: layout.broadcast_in_dim %[[Y]], dims = [1] sizes(%[[N]], %[[K]]) : (tensor<?xf32>) -> tensor<?x?xf32>
  // GENERIC: "layout.broadcast_in_dim"(%{{.+}}, %{{.+}}, %{{.+}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<?xf32>, index, index) -> tensor<?x?xf32>
  %1 = layout.broadcast_in_dim %y, dims = [1] sizes(%n, %k) : (tensor<?xf32>) -> tensor<?x?xf32>
  // CHECK: layout.broadcast_in_dim %[[Y]], dims = [1] : (tensor<?xf32>) -> tensor<4x?xf32>
  %2 = layout.broadcast_in_dim %y, dims = [1] : (tensor<?xf32>) -> tensor<4x?xf32>
  // A scalar: no dims. Any order of dims (C4 asks only uniqueness).
  // CHECK: layout.broadcast_in_dim %{{.+}}, dims = [] : (tensor<f32>) -> tensor<2xf32>
  %s = tensor.empty() : tensor<f32>
  %3 = layout.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2xf32>
  // CHECK: layout.broadcast_in_dim %{{.+}}, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %4 = layout.broadcast_in_dim %0, dims = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // Encodings and discardable attributes are kept.
  // CHECK: layout.broadcast_in_dim %[[V]], dims = [0] {tag = "x"} : (tensor<3xf32>) -> tensor<3x8xf32, #layout.tiled<{1,0:T(1,8)}>>
  %5 = layout.broadcast_in_dim %v, dims = [0] {tag = "x"} : (tensor<3xf32>) -> tensor<3x8xf32, #layout.tiled<{1,0:T(1,8)}>>
  return
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[M:.+]]: tensor<2x3xf32>, %[[V:.+]]: tensor<3xf32>, %[[I:.+]]: tensor<2x3xi32>)
// GENERIC-LABEL: sym_name = "binary"
func.func @binary(%m: tensor<2x3xf32>, %v: tensor<3xf32>, %i: tensor<2x3xi32>) {
  // CHECK: layout.add %[[M]], %[[V]], dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // GENERIC: "layout.add"(%{{.+}}, %{{.+}}) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = layout.add %m, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: layout.subtract %[[M]], %[[M]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "layout.subtract"(%{{.+}}, %{{.+}}) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = layout.subtract %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: layout.multiply %[[M]], %[[V]], dims = [1] {tag} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = layout.multiply %m, %v, dims = [1] {tag} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: layout.divide %[[I]], %[[I]]
  %3 = layout.divide %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  // CHECK: layout.remainder %[[I]], %[[I]]
  %4 = layout.remainder %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  // CHECK: layout.maximum %[[M]], %[[M]]
  %5 = layout.maximum %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: layout.minimum %[[M]], %[[M]]
  %6 = layout.minimum %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: layout.power %[[M]], %[[M]]
  %7 = layout.power %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: layout.atan2 %[[M]], %[[M]]
  %8 = layout.atan2 %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: layout.and %[[I]], %[[I]]
  %9 = layout.and %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  // CHECK: layout.or %[[I]], %[[I]]
  %10 = layout.or %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  // CHECK: layout.xor %[[I]], %[[I]]
  %11 = layout.xor %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  // CHECK: layout.shift_left %[[I]], %[[I]]
  %12 = layout.shift_left %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  // CHECK: layout.shift_right_arithmetic %[[I]], %[[I]]
  %13 = layout.shift_right_arithmetic %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  // CHECK: layout.shift_right_logical %[[I]], %[[I]]
  %14 = layout.shift_right_logical %i, %i : (tensor<2x3xi32>, tensor<2x3xi32>)
  return
}

// CHECK-LABEL: func.func @compare
// GENERIC-LABEL: sym_name = "compare"
func.func @compare(%m: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // CHECK: layout.compare EQ, %{{.+}}, %{{.+}}, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // GENERIC: "layout.compare"(%{{.+}}, %{{.+}}) <{broadcast_dimensions = array<i64: 1>, comparison_direction = 0 : i32}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %0 = layout.compare EQ, %m, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: layout.compare NE, %{{.+}}, %{{.+}} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // GENERIC: comparison_direction = 1 : i32
  %1 = layout.compare NE, %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: layout.compare LT,
  // GENERIC: comparison_direction = 2 : i32
  %2 = layout.compare LT, %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: layout.compare LE,
  // GENERIC: comparison_direction = 3 : i32
  %3 = layout.compare LE, %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: layout.compare GT,
  // GENERIC: comparison_direction = 4 : i32
  %4 = layout.compare GT, %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  // CHECK: layout.compare GE,
  // GENERIC: comparison_direction = 5 : i32
  %5 = layout.compare GE, %m, %m : (tensor<2x3xf32>, tensor<2x3xf32>)
  return
}
