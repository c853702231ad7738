// RUN: layout-opt %s --layout-raise-from-linalg -split-input-file \
// RUN:   -verify-diagnostics | FileCheck %s

// Figure 1 as a pack: one tile level, padding 0 -> PV(zero). The pack's
// destination, viewed in the layout, is the relayout's destination.
// CHECK-LABEL: func.func @pack
// CHECK-SAME: (%[[S:.+]]: tensor<3x5xf32>, %[[D:.+]]: tensor<2x3x2x2xf32>)
// CHECK: %[[E:.+]] = layout.from_physical %[[D]] : tensor<2x3x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(zero)}>>
// CHECK: %[[R:.+]] = layout.relayout %[[S]], %[[E]] : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(zero)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(zero)}>>
// CHECK: %[[P:.+]] = layout.to_physical %[[R]] : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(zero)}>> -> tensor<2x3x2x2xf32>
// CHECK-NOT: linalg.pack
// CHECK: return %[[P]]
func.func @pack(%s: tensor<3x5xf32>, %d: tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %p = linalg.pack %s padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}

// -----

// Exact tiles: no padding value is needed, none is set.
// CHECK-LABEL: func.func @pack_exact
// CHECK: layout.from_physical %{{.+}} : tensor<2x2x2x3xf32> -> tensor<4x6xf32, #layout.tiled<{1,0:T(2,3)}>>
func.func @pack_exact(%s: tensor<4x6xf32>, %d: tensor<2x2x2x3xf32>) -> tensor<2x2x2x3xf32> {
  %one = arith.constant 1.0 : f32
  %p = linalg.pack %s padding_value(%one : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 3] into %d : tensor<4x6xf32> -> tensor<2x2x2x3xf32>
  return %p : tensor<2x2x2x3xf32>
}

// -----

// Column-major outer order: minor_to_major = reverse(outer_dims_perm) and
// the tile follows the physical order; padding 1 -> PV(one).
// CHECK-LABEL: func.func @pack_outer_perm
// CHECK: layout.to_physical %{{.+}} : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)PV(one)}>> -> tensor<3x2x2x2xf32>
// CHECK-NOT: tensor.collapse_shape
func.func @pack_outer_perm(%s: tensor<3x5xf32>, %d: tensor<3x2x2x2xf32>) -> tensor<3x2x2x2xf32> {
  %one = arith.constant 1.0 : f32
  %p = linalg.pack %s padding_value(%one : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<3x2x2x2xf32>
  return %p : tensor<3x2x2x2xf32>
}

// -----

// inner_dims_pos against the physical order: a second level T(2,1) moves
// dim 0's in-tile dim to the minor end; the size-1 dims it adds are
// collapsed away. Lowest f32 -> PV(lowest).
// CHECK-LABEL: func.func @pack_inner_swapped
// CHECK-SAME: (%{{.+}}: tensor<3x5xf32>, %[[D:.+]]: tensor<2x3x2x2xf32>)
// CHECK: %[[X:.+]] = tensor.expand_shape %[[D]] {{\[\[}}0], [1, 2], [3], [4, 5]] output_shape [2, 3, 1, 2, 2, 1] : tensor<2x3x2x2xf32> into tensor<2x3x1x2x2x1xf32>
// CHECK: layout.from_physical %[[X]] : tensor<2x3x1x2x2x1xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)(2,1)PV(lowest)}>>
// CHECK: %[[P:.+]] = layout.to_physical %{{.+}} : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)(2,1)PV(lowest)}>> -> tensor<2x3x1x2x2x1xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[P]] {{\[\[}}0], [1, 2], [3], [4, 5]] : tensor<2x3x1x2x2x1xf32> into tensor<2x3x2x2xf32>
// CHECK: return %[[C]]
func.func @pack_inner_swapped(%s: tensor<3x5xf32>, %d: tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32> {
  %low = arith.constant -3.40282347E+38 : f32
  %p = linalg.pack %s padding_value(%low : f32) inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}

// -----

// A tiled dim that is not the most minor: untiled minor dims get tile 1.
// Highest -> PV(highest).
// CHECK-LABEL: func.func @pack_major_dim
// CHECK: layout.to_physical %{{.+}} : tensor<3x5x7xf32, #layout.tiled<{2,1,0:T(2,1,1)PV(highest)}>> -> tensor<2x5x7x2x1x1xf32>
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1], [2], [3, 4, 5]] : tensor<2x5x7x2x1x1xf32> into tensor<2x5x7x2xf32>
func.func @pack_major_dim(%s: tensor<3x5x7xf32>, %d: tensor<2x5x7x2xf32>) -> tensor<2x5x7x2xf32> {
  %high = arith.constant 3.40282347E+38 : f32
  %p = linalg.pack %s padding_value(%high : f32) inner_dims_pos = [0] inner_tiles = [2] into %d : tensor<3x5x7xf32> -> tensor<2x5x7x2xf32>
  return %p : tensor<2x5x7x2xf32>
}

// -----

// Integers: the padding constant is compared in the element type.
// CHECK-LABEL: func.func @pack_i32
// CHECK: #layout.tiled<{0:T(4)PV(lowest)}>
func.func @pack_i32(%s: tensor<6xi32>, %d: tensor<2x4xi32>) -> tensor<2x4xi32> {
  %min = arith.constant -2147483648 : i32
  %p = linalg.pack %s padding_value(%min : i32) inner_dims_pos = [0] inner_tiles = [4] into %d : tensor<6xi32> -> tensor<2x4xi32>
  return %p : tensor<2x4xi32>
}

// -----

// Unpack: the packed tensor viewed in the layout, relayout into the
// destination (only the logical elements are read).
// CHECK-LABEL: func.func @unpack
// CHECK-SAME: (%[[P:.+]]: tensor<2x3x2x2xf32>, %[[D:.+]]: tensor<3x5xf32>)
// CHECK: %[[X:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1, 2], [3], [4, 5]] output_shape [2, 3, 1, 2, 2, 1] : tensor<2x3x2x2xf32> into tensor<2x3x1x2x2x1xf32>
// CHECK: %[[V:.+]] = layout.from_physical %[[X]] : tensor<2x3x1x2x2x1xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)(2,1)}>>
// CHECK: %[[R:.+]] = layout.relayout %[[V]], %[[D]] : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)(2,1)}>>, tensor<3x5xf32> -> tensor<3x5xf32>
// CHECK: return %[[R]]
func.func @unpack(%p: tensor<2x3x2x2xf32>, %d: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %u = linalg.unpack %p inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %d : tensor<2x3x2x2xf32> -> tensor<3x5xf32>
  return %u : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_tensor
// CHECK-SAME: (%{{.+}}: tensor<2x3x4xf32>, %[[B:.+]]: tensor<3x4x2xf32>)
// CHECK: %[[E:.+]] = layout.from_physical %[[B]] : tensor<3x4x2xf32> -> tensor<2x3x4xf32, #layout.tiled<{0,2,1}>>
// CHECK: %[[R:.+]] = layout.relayout %{{.+}}, %[[E]]
// CHECK: layout.to_physical %[[R]] : tensor<2x3x4xf32, #layout.tiled<{0,2,1}>> -> tensor<3x4x2xf32>
func.func @transpose_tensor(%a: tensor<2x3x4xf32>, %b: tensor<3x4x2xf32>) -> tensor<3x4x2xf32> {
  %t = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%b : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  return %t : tensor<3x4x2xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_memref
// CHECK-SAME: (%[[A:.+]]: memref<3x5xf32>, %[[B:.+]]: memref<5x3xf32>)
// CHECK: %[[V:.+]] = layout.from_physical %[[B]] : memref<5x3xf32> -> memref<3x5xf32, #layout.tiled<{0,1}>>
// CHECK: layout.relayout %[[A]], %[[V]] : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{0,1}>>
// CHECK-NOT: linalg.transpose
func.func @transpose_memref(%a: memref<3x5xf32>, %b: memref<5x3xf32>) {
  linalg.transpose ins(%a : memref<3x5xf32>) outs(%b : memref<5x3xf32>) permutation = [1, 0]
  return
}

// -----

// The operand dims are the result dims not in `dimensions`.
// CHECK-LABEL: func.func @broadcast
// CHECK: layout.broadcast_in_dim %{{.+}}, dims = [1] : (tensor<3xf32>) -> tensor<2x3x4xf32>
func.func @broadcast(%a: tensor<3xf32>, %b: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = linalg.broadcast ins(%a : tensor<3xf32>) outs(%b : tensor<2x3x4xf32>) dimensions = [0, 2]
  return %r : tensor<2x3x4xf32>
}

// -----

// Not raised: a padding value the layout cannot express.
// CHECK-LABEL: func.func @pad_seven
// CHECK: linalg.pack
func.func @pad_seven(%s: tensor<3x5xf32>, %d: tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32> {
  %seven = arith.constant 7.0 : f32
  // expected-remark @+1 {{not raised to layout ops: the padding value is not a constant equal to zero, one, or the lowest or highest value of the element type (the layout's PV values)}}
  %p = linalg.pack %s padding_value(%seven : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}

// -----

// Not raised: -0.0 is not the layout's zero (bit patterns differ).
// CHECK-LABEL: func.func @pad_negative_zero
// CHECK: linalg.pack
func.func @pad_negative_zero(%s: tensor<3x5xf32>, %d: tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32> {
  %nz = arith.constant -0.0 : f32
  // expected-remark @+1 {{not raised to layout ops: the padding value is not a constant}}
  %p = linalg.pack %s padding_value(%nz : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}

// -----

// Not raised: a padding value known only at run time.
func.func @pad_argument(%s: tensor<3x5xf32>, %d: tensor<2x3x2x2xf32>, %v: f32) -> tensor<2x3x2x2xf32> {
  // expected-remark @+1 {{not raised to layout ops: the padding value is not a constant}}
  %p = linalg.pack %s padding_value(%v : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}

// -----

// Not raised: dynamic inner tiles.
func.func @dynamic_tile(%s: tensor<8xf32>, %d: tensor<?x?xf32>, %t: index) -> tensor<?x?xf32> {
  // expected-remark @+1 {{not raised to layout ops: dynamic inner tiles}}
  %p = linalg.pack %s inner_dims_pos = [0] inner_tiles = [%t] into %d : tensor<8xf32> -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

// -----

// Not raised: dynamic shapes.
func.func @dynamic_unpack(%p: tensor<?x2xf32>, %d: tensor<?xf32>) -> tensor<?xf32> {
  // expected-remark @+1 {{not raised to layout ops: dynamic shapes}}
  %u = linalg.unpack %p inner_dims_pos = [0] inner_tiles = [2] into %d : tensor<?x2xf32> -> tensor<?xf32>
  return %u : tensor<?xf32>
}

// -----

// Not raised: a strided (non-identity) memref.
func.func @transpose_strided(%a: memref<3x5xf32, strided<[10, 1]>>, %b: memref<5x3xf32>) {
  // expected-remark @+1 {{not raised to layout ops: operands with a layout, an encoding or a memory space (only identity-layout memrefs and plain tensors)}}
  linalg.transpose ins(%a : memref<3x5xf32, strided<[10, 1]>>) outs(%b : memref<5x3xf32>) permutation = [1, 0]
  return
}

// -----

// Not raised: layout.broadcast_in_dim has no memref form.
func.func @broadcast_memref(%a: memref<3xf32>, %b: memref<2x3xf32>) {
  // expected-remark @+1 {{not raised to layout ops: memref operands (layout.broadcast_in_dim is tensor-only)}}
  linalg.broadcast ins(%a : memref<3xf32>) outs(%b : memref<2x3xf32>) dimensions = [0]
  return
}

// -----

// Not raised: dynamic broadcast.
func.func @broadcast_dynamic(%a: tensor<?xf32>, %b: tensor<2x?xf32>) -> tensor<2x?xf32> {
  // expected-remark @+1 {{not raised to layout ops: dynamic shapes}}
  %r = linalg.broadcast ins(%a : tensor<?xf32>) outs(%b : tensor<2x?xf32>) dimensions = [0]
  return %r : tensor<2x?xf32>
}
