// RUN: layout-opt %s | FileCheck %s
// The same checks after a round trip through the generic form, which holds
// the result types the parser inferred.
// RUN: layout-opt %s -mlir-print-op-generic | layout-opt | FileCheck %s

// Result types of the binary ops are omitted below: the parser infers them
// (inferBinaryOpDims) and the printer prints them. Every `return` type also
// checks the inferred type. Expected types are computed by hand from XLA's
// broadcasting document (openxla.org/xla/broadcasting), whose examples are all here.

// Seed: |1 2 3| + |7 8 9|, a (2,3) matrix and a (3) vector with dims (1).
// CHECK-LABEL: func.func @doc_matrix_plus_vector
func.func @doc_matrix_plus_vector(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = layout.add %m, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  return %0 : tensor<2x3xf32>
}

// Seed: |1 2 3; 4 5 6| + 7, a scalar needs no dims.
// CHECK-LABEL: func.func @doc_scalar
func.func @doc_scalar(%m: tensor<2x3xf32>, %s: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  // CHECK: layout.add %{{.+}}, %{{.+}} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = layout.add %m, %s : (tensor<2x3xf32>, tensor<f32>)
  // The scalar may be either operand; empty dims are the scalar's.
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [] : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = layout.add %s, %m, dims = [] : (tensor<f32>, tensor<2x3xf32>)
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// Seed: a (3) vector and a (3,3) matrix, dims (1) (rows) or dims (0)
// (columns); both are 3x3.
// CHECK-LABEL: func.func @doc_square_both_ways
func.func @doc_square_both_ways(%m: tensor<3x3xi32>, %v: tensor<3xi32>) -> (tensor<3x3xi32>, tensor<3x3xi32>) {
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [1] : (tensor<3x3xi32>, tensor<3xi32>) -> tensor<3x3xi32>
  %0 = layout.add %m, %v, dims = [1] : (tensor<3x3xi32>, tensor<3xi32>)
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [0] : (tensor<3x3xi32>, tensor<3xi32>) -> tensor<3x3xi32>
  %1 = layout.add %m, %v, dims = [0] : (tensor<3x3xi32>, tensor<3xi32>)
  return %0, %1 : tensor<3x3xi32>, tensor<3x3xi32>
}

// Seed: a 2x3x4 cuboid and a 3x4 matrix with dims (1,2).
// CHECK-LABEL: func.func @doc_cuboid_plus_matrix
func.func @doc_cuboid_plus_matrix(%c: tensor<2x3x4xf32>, %m: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %0 = layout.add %c, %m, dims = [1, 2] : (tensor<2x3x4xf32>, tensor<3x4xf32>)
  return %0 : tensor<2x3x4xf32>
}

// Seed, formal definition: a vector T against MxNxPxQ (here 2x3x4x5) at
// each dim, and a TxV matrix at dims (2,3), (1,2), (0,3).
// CHECK-LABEL: func.func @doc_formal_definition
func.func @doc_formal_definition(%a: tensor<2x3x4x5xf32>, %t5: tensor<5xf32>, %t4: tensor<4xf32>, %t3: tensor<3xf32>, %t2: tensor<2xf32>, %tv45: tensor<4x5xf32>, %tv34: tensor<3x4xf32>, %tv25: tensor<2x5xf32>) {
  // CHECK: dims = [3] : (tensor<2x3x4x5xf32>, tensor<5xf32>) -> tensor<2x3x4x5xf32>
  %0 = layout.multiply %a, %t5, dims = [3] : (tensor<2x3x4x5xf32>, tensor<5xf32>)
  // CHECK: dims = [2] : (tensor<2x3x4x5xf32>, tensor<4xf32>) -> tensor<2x3x4x5xf32>
  %1 = layout.multiply %a, %t4, dims = [2] : (tensor<2x3x4x5xf32>, tensor<4xf32>)
  // CHECK: dims = [1] : (tensor<2x3x4x5xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  %2 = layout.multiply %a, %t3, dims = [1] : (tensor<2x3x4x5xf32>, tensor<3xf32>)
  // CHECK: dims = [0] : (tensor<2x3x4x5xf32>, tensor<2xf32>) -> tensor<2x3x4x5xf32>
  %3 = layout.multiply %a, %t2, dims = [0] : (tensor<2x3x4x5xf32>, tensor<2xf32>)
  // CHECK: dims = [2, 3] : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %4 = layout.multiply %a, %tv45, dims = [2, 3] : (tensor<2x3x4x5xf32>, tensor<4x5xf32>)
  // CHECK: dims = [1, 2] : (tensor<2x3x4x5xf32>, tensor<3x4xf32>) -> tensor<2x3x4x5xf32>
  %5 = layout.multiply %a, %tv34, dims = [1, 2] : (tensor<2x3x4x5xf32>, tensor<3x4xf32>)
  // CHECK: dims = [0, 3] : (tensor<2x3x4x5xf32>, tensor<2x5xf32>) -> tensor<2x3x4x5xf32>
  %6 = layout.multiply %a, %tv25, dims = [0, 3] : (tensor<2x3x4x5xf32>, tensor<2x5xf32>)
  return
}

// Seed, degenerate examples 1-3 (4 is in broadcast-invalid.mlir).
// CHECK-LABEL: func.func @doc_degenerate
func.func @doc_degenerate(%a: tensor<2x1xf32>, %b: tensor<2x3xf32>, %c: tensor<1x2x5xf32>, %d: tensor<7x2x5xf32>, %e: tensor<7x1x5xf32>) -> (tensor<2x3xf32>, tensor<7x2x5xf32>, tensor<7x2x5xf32>) {
  // CHECK: layout.subtract %{{.+}}, %{{.+}} : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = layout.subtract %a, %b : (tensor<2x1xf32>, tensor<2x3xf32>)
  // CHECK: layout.subtract %{{.+}}, %{{.+}} : (tensor<1x2x5xf32>, tensor<7x2x5xf32>) -> tensor<7x2x5xf32>
  %1 = layout.subtract %c, %d : (tensor<1x2x5xf32>, tensor<7x2x5xf32>)
  // CHECK: layout.subtract %{{.+}}, %{{.+}} : (tensor<7x2x5xf32>, tensor<7x1x5xf32>) -> tensor<7x2x5xf32>
  %2 = layout.subtract %d, %e : (tensor<7x2x5xf32>, tensor<7x1x5xf32>)
  return %0, %1, %2 : tensor<2x3xf32>, tensor<7x2x5xf32>, tensor<7x2x5xf32>
}

// Seed: the outer operation (2,1) and (1,3) -> (2,3).
// CHECK-LABEL: func.func @doc_outer
func.func @doc_outer(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // CHECK: layout.multiply %{{.+}}, %{{.+}} : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %0 = layout.multiply %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>)
  return %0 : tensor<2x3xf32>
}

// Seed, composition: |1 2 3 4| + [5 6] (a 1x2 matrix) with dims (0) -> 4x2.
// CHECK-LABEL: func.func @doc_composition_vector
func.func @doc_composition_vector(%v: tensor<4xf32>, %m: tensor<1x2xf32>) -> tensor<4x2xf32> {
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [0] : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  %0 = layout.add %v, %m, dims = [0] : (tensor<4xf32>, tensor<1x2xf32>)
  return %0 : tensor<4x2xf32>
}

// Seed, composition: a 1x2 matrix and a 4x3x1 array with dims (1,2):
// InDim gives 4x1x2, degenerate broadcasting 4x3x2.
// CHECK-LABEL: func.func @doc_composition_matrix
func.func @doc_composition_matrix(%m: tensor<1x2xf32>, %a: tensor<4x3x1xf32>) -> tensor<4x3x2xf32> {
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  %0 = layout.add %m, %a, dims = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>)
  return %0 : tensor<4x3x2xf32>
}

// Same-rank operands may spell the identity as dims.
// CHECK-LABEL: func.func @identity_dims
func.func @identity_dims(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> tensor<2x3xf32> {
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [0, 1] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %0 = layout.add %a, %b, dims = [0, 1] : (tensor<2x3xf32>, tensor<2x1xf32>)
  return %0 : tensor<2x3xf32>
}

// Dynamic sizes: `?` and 1 give `?`, `?` and N give N, `?` and `?` give `?`.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%a: tensor<?x1x?xf32>, %b: tensor<1x4x?xf32>, %c: tensor<?xf32>, %d: tensor<3x?xf32>) -> (tensor<?x4x?xf32>, tensor<3x?xf32>, tensor<3x5xf32>) {
  // CHECK: layout.add %{{.+}}, %{{.+}} : (tensor<?x1x?xf32>, tensor<1x4x?xf32>) -> tensor<?x4x?xf32>
  %0 = layout.add %a, %b : (tensor<?x1x?xf32>, tensor<1x4x?xf32>)
  // CHECK: layout.maximum %{{.+}}, %{{.+}}, dims = [1] : (tensor<3x?xf32>, tensor<?xf32>) -> tensor<3x?xf32>
  %1 = layout.maximum %d, %c, dims = [1] : (tensor<3x?xf32>, tensor<?xf32>)
  // CHECK: layout.maximum %{{.+}}, %{{.+}} : (tensor<3x?xf32>, tensor<1x5xf32>) -> tensor<3x5xf32>
  %e = tensor.empty() : tensor<1x5xf32>
  %2 = layout.maximum %d, %e : (tensor<3x?xf32>, tensor<1x5xf32>)
  return %0, %1, %2 : tensor<?x4x?xf32>, tensor<3x?xf32>, tensor<3x5xf32>
}

// compare yields i1 elements; the direction is printed first.
// CHECK-LABEL: func.func @compare
func.func @compare(%m: tensor<2x3xf32>, %v: tensor<3xf32>, %z: tensor<2xcomplex<f32>>) -> (tensor<2x3xi1>, tensor<2xi1>) {
  // CHECK: layout.compare GE, %{{.+}}, %{{.+}}, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %0 = layout.compare GE, %m, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: layout.compare NE, %{{.+}}, %{{.+}} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
  %1 = layout.compare NE, %z, %z : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>)
  return %0, %1 : tensor<2x3xi1>, tensor<2xi1>
}

// Every binary op infers like add; element types per family.
// CHECK-LABEL: func.func @all_ops
func.func @all_ops(%f: tensor<2x3xf32>, %fv: tensor<3xf32>, %i: tensor<2x3xi8>, %iv: tensor<3xi8>, %p: tensor<2x1xi1>, %pv: tensor<1x3xi1>, %u: tensor<2x3xui16>, %uv: tensor<3xui16>) {
  // CHECK: layout.add {{.*}} -> tensor<2x3xi8>
  %0 = layout.add %i, %iv, dims = [1] : (tensor<2x3xi8>, tensor<3xi8>)
  // CHECK: layout.subtract {{.*}} -> tensor<2x3xui16>
  %1 = layout.subtract %u, %uv, dims = [1] : (tensor<2x3xui16>, tensor<3xui16>)
  // CHECK: layout.multiply {{.*}} -> tensor<2x3xf32>
  %2 = layout.multiply %f, %fv, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: layout.divide {{.*}} -> tensor<2x3xi8>
  %3 = layout.divide %i, %iv, dims = [1] : (tensor<2x3xi8>, tensor<3xi8>)
  // CHECK: layout.remainder {{.*}} -> tensor<2x3xf32>
  %4 = layout.remainder %f, %fv, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: layout.maximum {{.*}} -> tensor<2x3xi8>
  %5 = layout.maximum %i, %iv, dims = [1] : (tensor<2x3xi8>, tensor<3xi8>)
  // CHECK: layout.minimum {{.*}} -> tensor<2x3xf32>
  %6 = layout.minimum %f, %fv, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: layout.power {{.*}} -> tensor<2x3xf32>
  %7 = layout.power %f, %fv, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: layout.atan2 {{.*}} -> tensor<2x3xf32>
  %8 = layout.atan2 %f, %fv, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>)
  // CHECK: layout.and {{.*}} -> tensor<2x3xi1>
  %9 = layout.and %p, %pv : (tensor<2x1xi1>, tensor<1x3xi1>)
  // CHECK: layout.or {{.*}} -> tensor<2x3xi8>
  %10 = layout.or %i, %iv, dims = [1] : (tensor<2x3xi8>, tensor<3xi8>)
  // CHECK: layout.xor {{.*}} -> tensor<2x3xi1>
  %11 = layout.xor %p, %pv : (tensor<2x1xi1>, tensor<1x3xi1>)
  // CHECK: layout.shift_left {{.*}} -> tensor<2x3xi8>
  %12 = layout.shift_left %i, %iv, dims = [1] : (tensor<2x3xi8>, tensor<3xi8>)
  // CHECK: layout.shift_right_arithmetic {{.*}} -> tensor<2x3xi8>
  %13 = layout.shift_right_arithmetic %i, %iv, dims = [1] : (tensor<2x3xi8>, tensor<3xi8>)
  // CHECK: layout.shift_right_logical {{.*}} -> tensor<2x3xui16>
  %14 = layout.shift_right_logical %u, %uv, dims = [1] : (tensor<2x3xui16>, tensor<3xui16>)
  // CHECK: layout.compare EQ, {{.*}} -> tensor<2x3xi1>
  %15 = layout.compare EQ, %u, %uv, dims = [1] : (tensor<2x3xui16>, tensor<3xui16>)
  return
}

// Operands may carry a #layout.tiled encoding; the inferred result has
// none, and an explicit result type may add one.
// CHECK-LABEL: func.func @encoding
func.func @encoding(%a: tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, %v: tensor<8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>) {
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [0] : (tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, tensor<8xf32>) -> tensor<8x8xf32>{{$}}
  %0 = layout.add %a, %v, dims = [0] : (tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, tensor<8xf32>)
  // CHECK: layout.add %{{.+}}, %{{.+}}, dims = [0] : (tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, tensor<8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
  %1 = layout.add %a, %v, dims = [0] : (tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>, tensor<8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
  return %0, %1 : tensor<8x8xf32>, tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)}>>
}
