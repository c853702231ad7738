// --layout-fuse: grouping and the bytes-moved cost model (Passes.td).
// RUN: layout-opt %s --layout-fuse -split-input-file | FileCheck %s
// The fused IR parses back and is stable (round trip).
// RUN: layout-opt %s --layout-fuse -split-input-file \
// RUN:   | layout-opt -split-input-file | FileCheck %s

// A chain of four ops: one fusion whose leaves are the four arguments
// (%a read by two ops, passed once).
// CHECK-LABEL: func.func @chain(
//  CHECK-SAME:     %[[A:[a-z0-9]+]]: tensor<8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>, %[[C:[a-z0-9]+]]: tensor<8xf32>, %[[D:[a-z0-9]+]]: tensor<8xf32>)
//       CHECK:   %[[F:.*]] = layout.fusion(%[[A]], %[[B]], %[[C]], %[[D]])
//       CHECK:   ^bb0(%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>, %[[Z:.*]]: tensor<8xf32>, %[[W:.*]]: tensor<8xf32>):
//       CHECK:     %[[S:.*]] = layout.subtract %[[X]], %[[Y]]
//       CHECK:     %[[M:.*]] = layout.multiply %[[S]], %[[Z]]
//       CHECK:     %[[P:.*]] = layout.add %[[M]], %[[W]]
//       CHECK:     %[[R:.*]] = layout.maximum %[[P]], %[[X]]
//       CHECK:     layout.yield %[[R]]
//   CHECK-NOT:   layout.subtract
//       CHECK:   return %[[F]]
func.func @chain(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>, %d: tensor<8xf32>) -> tensor<8xf32> {
  %0 = layout.subtract %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = layout.multiply %0, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = layout.add %1, %d : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = layout.maximum %2, %a : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// -----

// A value used twice in one tree is one value of the body (computed once
// per element).
// CHECK-LABEL: func.func @dag(
//       CHECK:   layout.fusion(%{{.*}}, %{{.*}}) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
//       CHECK:     %[[S:.*]] = layout.subtract
//       CHECK:     %[[M:.*]] = layout.multiply %[[S]], %[[S]]
//       CHECK:     layout.add %[[M]], %[[S]]
func.func @dag(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = layout.subtract %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = layout.multiply %0, %0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = layout.add %1, %0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// -----

// A binary op of two full-size operands used by two groups is materialized
// (recomputing reads 2 x 32 bytes per group, materializing moves 3 x 32);
// a broadcast used by both is recomputed in each (its operand is smaller).
// CHECK-LABEL: func.func @shared(
//       CHECK:   %[[S:.*]] = layout.subtract %arg0, %arg1
//       CHECK:   %[[F1:.*]] = layout.fusion(%arg2, %[[S]], %arg0)
//       CHECK:     layout.broadcast_in_dim
//       CHECK:     layout.multiply
//       CHECK:     layout.add
//       CHECK:   %[[F2:.*]] = layout.fusion(%arg2, %[[S]], %arg1)
//       CHECK:     layout.broadcast_in_dim
//       CHECK:     layout.add
//       CHECK:     layout.maximum
//   CHECK-NOT:   layout.broadcast_in_dim
//       CHECK:   return %[[F1]], %[[F2]]
func.func @shared(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = layout.subtract %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %bv = layout.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %0 = layout.multiply %s, %bv : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = layout.add %0, %a : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = layout.add %s, %bv : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = layout.maximum %2, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// One binary op with its single-use broadcast operand is left to the loop
// lowering, which fuses that pair already; a lone relayout too.
// CHECK-LABEL: func.func @trivial(
//   CHECK-NOT:   layout.fusion
//       CHECK:   layout.broadcast_in_dim
//       CHECK:   layout.add
//       CHECK:   layout.relayout
//   CHECK-NOT:   layout.fusion
func.func @trivial(%a: tensor<4x8xf32>, %v: tensor<8xf32>, %t: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{0,1}>>) {
  %bv = layout.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %0 = layout.add %a, %bv : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32, #layout.tiled<{0,1}>>
  %1 = layout.relayout %t, %e : tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{0,1}>> -> tensor<4x8xf32, #layout.tiled<{0,1}>>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{0,1}>>
}

// -----

// Relayouts: a relayout of an elementwise result roots the tree (the
// result is written in its layout), a relayout of a leaf is read in place
// (the tiled source is a leaf of its own layout). The unused tensor.empty
// destinations go.
// CHECK-LABEL: func.func @relayouts(
//   CHECK-NOT:   tensor.empty
//       CHECK:   %[[F:.*]] = layout.fusion(%arg0, %arg1) : (tensor<16x8xf32, #layout.tiled<{1,0:T(8,4)}>>, tensor<16x8xf32>) -> tensor<16x8xf32, #layout.tiled<{0,1}>>
//       CHECK:     %[[E1:.*]] = tensor.empty() : tensor<16x8xf32>
//       CHECK:     %[[R1:.*]] = layout.relayout %{{.*}}, %[[E1]]
//       CHECK:     %[[P:.*]] = layout.add %[[R1]], %{{.*}}
//       CHECK:     %[[E2:.*]] = tensor.empty() : tensor<16x8xf32, #layout.tiled<{0,1}>>
//       CHECK:     %[[R2:.*]] = layout.relayout %[[P]], %[[E2]]
//       CHECK:     layout.yield %[[R2]]
//       CHECK:   return %[[F]]
func.func @relayouts(%t: tensor<16x8xf32, #layout.tiled<{1,0:T(8,4)}>>, %b: tensor<16x8xf32>) -> tensor<16x8xf32, #layout.tiled<{0,1}>> {
  %e1 = tensor.empty() : tensor<16x8xf32>
  %r = layout.relayout %t, %e1 : tensor<16x8xf32, #layout.tiled<{1,0:T(8,4)}>>, tensor<16x8xf32> -> tensor<16x8xf32>
  %s = layout.add %r, %b : (tensor<16x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %e2 = tensor.empty() : tensor<16x8xf32, #layout.tiled<{0,1}>>
  %o = layout.relayout %s, %e2 : tensor<16x8xf32>, tensor<16x8xf32, #layout.tiled<{0,1}>> -> tensor<16x8xf32, #layout.tiled<{0,1}>>
  return %o : tensor<16x8xf32, #layout.tiled<{0,1}>>
}

// -----

// Not fused: dynamic shapes, a value with another user (returned), and
// sub-byte packed layouts.
// CHECK-LABEL: func.func @unfused(
//   CHECK-NOT:   layout.fusion
//       CHECK:   layout.add
//       CHECK:   layout.multiply
//       CHECK:   %[[S:.*]] = layout.add
//       CHECK:   layout.fusion(%[[S]], %arg3)
//       CHECK:   layout.multiply
//   CHECK-NOT:   layout.fusion
//       CHECK:   layout.add
//       CHECK:   layout.multiply
//       CHECK:   return
func.func @unfused(%d: tensor<?xf32>, %a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xf32>, %p: tensor<8xi4, #layout.tiled<{0:E(4)}>>) -> (tensor<?xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi4, #layout.tiled<{0:E(4)}>>) {
  %0 = layout.add %d, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %1 = layout.multiply %0, %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %s = layout.add %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %m = layout.multiply %s, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %m2 = layout.multiply %m, %c : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %q = layout.add %p, %p : (tensor<8xi4, #layout.tiled<{0:E(4)}>>, tensor<8xi4, #layout.tiled<{0:E(4)}>>) -> tensor<8xi4, #layout.tiled<{0:E(4)}>>
  %q2 = layout.multiply %q, %p : (tensor<8xi4, #layout.tiled<{0:E(4)}>>, tensor<8xi4, #layout.tiled<{0:E(4)}>>) -> tensor<8xi4, #layout.tiled<{0:E(4)}>>
  return %1, %s, %m2, %q2 : tensor<?xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xi4, #layout.tiled<{0:E(4)}>>
}

// -----

// A relayout whose destination is an argument that the tree also reads:
// the argument stays a leaf, the relayout gets a tensor.empty of the body.
// CHECK-LABEL: func.func @dest_is_leaf(
//       CHECK:   layout.fusion(%arg0, %arg1) : (tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{0,1}>>) -> tensor<4x8xf32, #layout.tiled<{0,1}>>
//       CHECK:   ^bb0(%[[X:.*]]: tensor<4x8xf32>, %[[D:.*]]: tensor<4x8xf32, #layout.tiled<{0,1}>>):
//       CHECK:     %[[E:.*]] = tensor.empty() : tensor<4x8xf32, #layout.tiled<{0,1}>>
//       CHECK:     %[[R:.*]] = layout.relayout %[[X]], %[[E]]
//       CHECK:     layout.add %[[R]], %[[D]]
func.func @dest_is_leaf(%x: tensor<4x8xf32>, %d: tensor<4x8xf32, #layout.tiled<{0,1}>>) -> tensor<4x8xf32, #layout.tiled<{0,1}>> {
  %r = layout.relayout %x, %d : tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{0,1}>> -> tensor<4x8xf32, #layout.tiled<{0,1}>>
  %s = layout.add %r, %d : (tensor<4x8xf32, #layout.tiled<{0,1}>>, tensor<4x8xf32, #layout.tiled<{0,1}>>) -> tensor<4x8xf32, #layout.tiled<{0,1}>>
  return %s : tensor<4x8xf32, #layout.tiled<{0,1}>>
}
