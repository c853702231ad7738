// RUN: layout-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// layout.broadcast_in_dim: one case per constraint.
//===----------------------------------------------------------------------===//

func.func @broadcast_in_dim_c1(%x: tensor<3xf32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'layout.broadcast_in_dim' op C1: operand element type f32 must equal result element type i32}}
  %0 = layout.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @broadcast_in_dim_c2(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{C2: size(broadcast_dimensions) = 2 must equal rank(operand) = 1}}
  %0 = layout.broadcast_in_dim %x, dims = [0, 1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_in_dim_c3(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{C3: broadcast_dimensions[0] = 2 must be in [0, rank(result) = 2)}}
  %0 = layout.broadcast_in_dim %x, dims = [2] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_in_dim_c3_negative(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{C3: broadcast_dimensions[0] = -1 must be in [0, rank(result) = 2)}}
  %0 = layout.broadcast_in_dim %x, dims = [-1] : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_in_dim_c4(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{C4: broadcast_dimensions must be unique, but 1 appears at positions 0 and 1}}
  %0 = layout.broadcast_in_dim %x, dims = [1, 1] : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @broadcast_in_dim_c5(%x: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{C5: dim(operand, 0) = 3 must be 1 or equal dim(result, 1) = 4}}
  %0 = layout.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// StableHLO's verifyBroadcastInDimOp: a static operand dim must be 1 or equal
// the result dim, also when the result dim is dynamic.
func.func @broadcast_in_dim_c5_dynamic_result(%x: tensor<3xf32>, %n: index) -> tensor<?x3xf32> {
  // expected-error @+1 {{C5: dim(operand, 0) = 3 must be 1 or equal dim(result, 0) = ?}}
  %0 = layout.broadcast_in_dim %x, dims = [0] sizes(%n) : (tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// A dynamic operand dim is not checked; a static 1 broadcasts into `?`.
func.func @broadcast_in_dim_c5_dynamic_ok(%x: tensor<?x1xf32>, %n: index) -> tensor<?x?xf32> {
  %0 = layout.broadcast_in_dim %x, dims = [0, 1] sizes(%n, %n) : (tensor<?x1xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @broadcast_in_dim_c6(%x: tensor<?xf32>, %n: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{C6: size(sizes) = 1 must equal the number of dynamic dims of the result = 2}}
  %0 = layout.broadcast_in_dim %x, dims = [1] sizes(%n) : (tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @broadcast_in_dim_c7_unmapped(%x: tensor<?xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{C7: dim(result, 0) is dynamic and no operand dim maps to it; give its size with `sizes`}}
  %0 = layout.broadcast_in_dim %x, dims = [1] : (tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @broadcast_in_dim_c7_size_one(%x: tensor<1xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{C7: dim(result, 0) is dynamic and the operand dim that maps to it has size 1 (dim(operand, 0) = 1); give its size with `sizes`}}
  %0 = layout.broadcast_in_dim %x, dims = [0] : (tensor<1xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @broadcast_in_dim_unranked(%x: tensor<*xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = layout.broadcast_in_dim %x, dims = [0] : (tensor<*xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// expected-note @+1 {{prior use here}}
func.func @broadcast_in_dim_sizes_not_index(%x: tensor<?xf32>, %n: i64) -> tensor<?x?xf32> {
  // expected-error @+1 {{use of value '%n' expects different type than prior uses: 'index' vs 'i64'}}
  %0 = layout.broadcast_in_dim %x, dims = [1] sizes(%n) : (tensor<?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Binary ops: one case per XLA broadcasting error (XLA's wording).
//===----------------------------------------------------------------------===//

func.func @binary_dims_size_mismatch(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'layout.add' op Size of broadcast_dimensions has to match lower-rank operand's rank;  lower-rank operand's rank is 1, size of broadcast_dimensions is 2.}}
  %0 = layout.add %m, %v, dims = [0, 1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_dims_missing(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'layout.add' op Shapes must be equal rank, but are f32[3] and f32[2,3]}}
  %0 = layout.add %m, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_dims_on_scalar(%m: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{Size of broadcast_dimensions has to match lower-rank operand's rank;  lower-rank operand's rank is 0, size of broadcast_dimensions is 1.}}
  %0 = layout.multiply %m, %s, dims = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_dim_negative(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'layout.subtract' op Broadcast dimension number (-1) cannot be negative.}}
  %0 = layout.subtract %m, %v, dims = [-1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_dim_too_large(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'layout.add' op Broadcast dimension number (2) too large; higher-rank operand has rank 2.}}
  %0 = layout.add %m, %v, dims = [2] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_dim_mismatch(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'layout.add' op Broadcast dimension 0 mismatch: 3 != 2; f32[3] and f32[2,3].}}
  %0 = layout.add %m, %v, dims = [0] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_dims_order_wrong(%c: tensor<2x3x3xf32>, %m: tensor<3x3xf32>) -> tensor<2x3x3xf32> {
  // expected-error @+1 {{'layout.maximum' op Broadcast dimensions order is wrong: 1 comes after 2.}}
  %0 = layout.maximum %m, %c, dims = [2, 1] : (tensor<3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}

// -----

func.func @binary_same_rank_non_identity(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'layout.add' op Broadcast dimensions field must either be not set or be the identity on binary operations with operands of the same rank.}}
  %0 = layout.add %a, %b, dims = [1, 0] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Seed example 4: (7,2,5) and (7,2,6) are incompatible.
func.func @binary_incompatible_shapes(%a: tensor<7x2x5xf32>, %b: tensor<7x2x6xf32>) -> tensor<7x2x5xf32> {
  // expected-error @+1 {{'layout.add' op Binary op add with incompatible shapes: f32[7,2,5] and f32[7,2,6].}}
  %0 = layout.add %a, %b : (tensor<7x2x5xf32>, tensor<7x2x6xf32>) -> tensor<7x2x5xf32>
  return %0 : tensor<7x2x5xf32>
}

// -----

func.func @binary_incompatible_shapes_shift(%a: tensor<2xi32>, %b: tensor<3xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'layout.shift_right_logical' op Binary op shift-right-logical with incompatible shapes: s32[2] and s32[3].}}
  %0 = layout.shift_right_logical %a, %b : (tensor<2xi32>, tensor<3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// The result type is inferred when omitted: the error comes from the parser.
func.func @binary_incompatible_shapes_inferred(%a: tensor<2x?xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'layout.divide' op Binary op divide with incompatible shapes: f32[2,?] and f32[3,4].}}
  %0 = layout.divide %a, %b : (tensor<2x?xf32>, tensor<3x4xf32>)
  return
}

// -----

func.func @binary_different_element_types(%a: tensor<2x3xf32>, %b: tensor<3xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'layout.add' op Binary op add with different element types: f32[2,3] and s32[3].}}
  %0 = layout.add %a, %b, dims = [1] : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Floats may differ in precision (XLA's SameElementTypeIgnoringFpPrecision),
// integers and complex numbers may not.
func.func @compare_different_element_types(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xi1> {
  // expected-error @+1 {{'layout.compare' op Binary op compare with different element types: f32[2] and s32[2].}}
  %0 = layout.compare EQ, %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @add_signed_unsigned(%a: tensor<2xui8>, %b: tensor<2xsi8>) -> tensor<2xui8> {
  // expected-error @+1 {{'layout.add' op Binary op add with different element types: u8[2] and s8[2].}}
  %0 = layout.add %a, %b : (tensor<2xui8>, tensor<2xsi8>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// -----

func.func @add_complex_precision(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>> {
  // expected-error @+1 {{'layout.add' op Binary op add with different element types: c64[2] and c128[2].}}
  %0 = layout.add %a, %b : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  return %0 : tensor<2xcomplex<f64>>
}

// -----

// The result has the higher precision: bf16 + f32 is f32.
func.func @mixed_precision_result(%a: tensor<2xbf16>, %b: tensor<2xf32>) -> tensor<2xbf16> {
  // expected-error @+1 {{'layout.add' op result type 'tensor<2xbf16>' must be the inferred type 'tensor<2xf32>' (up to the encoding)}}
  %0 = layout.add %a, %b : (tensor<2xbf16>, tensor<2xf32>) -> tensor<2xbf16>
  return %0 : tensor<2xbf16>
}

// -----

func.func @binary_result_mismatch(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'layout.add' op result type 'tensor<3x3xf32>' must be the inferred type 'tensor<2x3xf32>' (up to the encoding)}}
  %0 = layout.add %m, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// An explicit result type may differ from the inferred one only by its
// encoding: a static size where `?` is inferred is an error.
func.func @binary_result_refined(%a: tensor<?xf32>, %b: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'layout.add' op result type 'tensor<4xf32>' must be the inferred type 'tensor<?xf32>' (up to the encoding)}}
  %0 = layout.add %a, %b : (tensor<?xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @binary_unranked(%a: tensor<*xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'layout.add' op operands must be ranked tensors, but got 'tensor<*xf32>' and 'tensor<2xf32>'}}
  %0 = layout.add %a, %b : (tensor<*xf32>, tensor<2xf32>)
  return
}

// -----

func.func @binary_memref(%a: memref<2xf32>, %b: memref<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'layout.add' op operand #0 must be ranked tensor of integer or floating-point or complex-type values, but got 'memref<2xf32>'}}
  %0 = layout.add %a, %b : (memref<2xf32>, memref<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @compare_bad_direction(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{expected comparison direction EQ, NE, LT, LE, GT or GE, but got 'LESS'}}
  %0 = layout.compare LESS, %a, %b : (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @compare_result_not_i1(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'layout.compare' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = layout.compare LT, %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @compare_complex_ordered(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) -> tensor<2xi1> {
  // expected-error @+1 {{'layout.compare' op complex operands support only EQ and NE, but got LT}}
  %0 = layout.compare LT, %a, %b : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

//===----------------------------------------------------------------------===//
// Element-type constraints per op family.
//===----------------------------------------------------------------------===//

// Shifts: integers.
func.func @shift_left_float(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'layout.shift_left' op operand #0 must be ranked tensor of integer values, but got 'tensor<2xf32>'}}
  %0 = layout.shift_left %a, %b : (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @shift_right_arithmetic_float(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'layout.shift_right_arithmetic' op operand #0 must be ranked tensor of integer values}}
  %0 = layout.shift_right_arithmetic %a, %b : (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

// and/or/xor: integers or i1.
func.func @and_float(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'layout.and' op operand #0 must be ranked tensor of integer values}}
  %0 = layout.and %a, %b : (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @xor_complex(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) {
  // expected-error @+1 {{'layout.xor' op operand #0 must be ranked tensor of integer values}}
  %0 = layout.xor %a, %b : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>)
  return
}

// -----

// atan2: floats or complex.
func.func @atan2_integer(%a: tensor<2xi32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{'layout.atan2' op operand #0 must be ranked tensor of floating-point or complex-type values, but got 'tensor<2xi32>'}}
  %0 = layout.atan2 %a, %b : (tensor<2xi32>, tensor<2xi32>)
  return
}

// -----

// remainder, maximum, minimum: integers or floats.
func.func @remainder_complex(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) {
  // expected-error @+1 {{'layout.remainder' op operand #0 must be ranked tensor of integer or floating-point values}}
  %0 = layout.remainder %a, %b : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>)
  return
}

// -----

func.func @maximum_complex(%a: tensor<2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) {
  // expected-error @+1 {{'layout.maximum' op operand #0 must be ranked tensor of integer or floating-point values}}
  %0 = layout.maximum %a, %b : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>)
  return
}

// -----

// Arithmetic: integers, floats or complex; not index.
func.func @add_index(%a: tensor<2xindex>, %b: tensor<2xindex>) {
  // expected-error @+1 {{'layout.add' op operand #0 must be ranked tensor of integer or floating-point or complex-type values, but got 'tensor<2xindex>'}}
  %0 = layout.add %a, %b : (tensor<2xindex>, tensor<2xindex>)
  return
}

// -----

// The generic form has no inference: the verifier reports the rule.
func.func @binary_generic_incompatible(%a: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'layout.add' op Broadcast dimension 0 mismatch: 3 != 2; f32[3] and f32[2,3].}}
  %0 = "layout.add"(%a, %v) <{broadcast_dimensions = array<i64: 0>}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_generic_operand_count(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'layout.add' op expected 2 operands, but found 1}}
  %0 = "layout.add"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// XLA rejects PRED operands of the arithmetic-only binary ops.

func.func @subtract_pred(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'layout.subtract' op Expected element type in shape to be arithmetic type for operation subtract; got PRED.}}
  %0 = layout.subtract %a, %b, dims = [1] : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @divide_pred(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'layout.divide' op Expected element type in shape to be arithmetic type for operation divide; got PRED.}}
  %0 = layout.divide %a, %b, dims = [1] : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @remainder_pred(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'layout.remainder' op Expected element type in shape to be arithmetic type for operation remainder; got PRED.}}
  %0 = layout.remainder %a, %b, dims = [1] : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @power_pred(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'layout.power' op Expected element type in shape to be arithmetic type for operation power; got PRED.}}
  %0 = layout.power %a, %b, dims = [1] : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @shift_left_pred(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'layout.shift_left' op Expected element type in shape to be arithmetic type for operation shift-left; got PRED.}}
  %0 = layout.shift_left %a, %b, dims = [1] : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @shift_right_arithmetic_pred(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'layout.shift_right_arithmetic' op Expected element type in shape to be arithmetic type for operation shift-right-arithmetic; got PRED.}}
  %0 = layout.shift_right_arithmetic %a, %b, dims = [1] : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @shift_right_logical_pred(%a: tensor<2x3xi1>, %b: tensor<3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'layout.shift_right_logical' op Expected element type in shape to be arithmetic type for operation shift-right-logical; got PRED.}}
  %0 = layout.shift_right_logical %a, %b, dims = [1] : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}
