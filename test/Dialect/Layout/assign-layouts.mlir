// --layout-assign-layouts: free intermediates get the layout that moves the
// fewest bytes; pinned values keep theirs (Transforms/Passes.td).
// RUN: layout-opt %s --layout-fuse '--layout-assign-layouts=report=true' \
// RUN:   -split-input-file 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// t = a - b is materialized (two groups read it); its operands and both
// consumers' results are {0,1}: written row-major it costs two transposed
// writes/reads, in {0,1} none.
// CHECK-LABEL: func.func @shared_transposed(
//       CHECK:   %[[T:.*]] = layout.subtract {{.*}} -> tensor<64x32xf32, #layout.tiled<{0,1}>>
//       CHECK:   layout.multiply %[[T]], {{.*}} : (tensor<64x32xf32, #layout.tiled<{0,1}>>,
//       CHECK:   layout.add %[[T]], {{.*}} : (tensor<64x32xf32, #layout.tiled<{0,1}>>,
// REMARK: remark: layout: 'tensor<64x32xf32, #layout.tiled<{0,1}>>'
// REMARK: remark: layouts assigned: bytes moved 106496 -> 73728
func.func @shared_transposed(%a: tensor<64x32xf32, #layout.tiled<{0,1}>>, %b: tensor<64x32xf32, #layout.tiled<{0,1}>>, %c: tensor<64x32xf32, #layout.tiled<{0,1}>>) -> (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) {
  %t = layout.subtract %a, %b : (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32>
  %m = layout.multiply %t, %c : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  %p = layout.add %t, %a : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  return %m, %p : tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>
}

// -----

// A fusion's result as a free value: its body writes the chosen layout
// through a relayout before the yield; the readers' body arguments follow.
// CHECK-LABEL: func.func @fused_producer(
//       CHECK:   %[[F:.*]] = layout.fusion(%arg0, %arg1, %arg2) : ({{.*}}) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
//       CHECK:     layout.multiply
//       CHECK:     %[[E:.*]] = tensor.empty() : tensor<64x32xf32, #layout.tiled<{0,1}>>
//       CHECK:     %[[R:.*]] = layout.relayout %{{.*}}, %[[E]]
//       CHECK:     layout.yield %[[R]] : tensor<64x32xf32, #layout.tiled<{0,1}>>
//       CHECK:   layout.fusion(%[[F]], %arg2)
//       CHECK:   ^bb0(%{{.*}}: tensor<64x32xf32, #layout.tiled<{0,1}>>,
//       CHECK:   layout.fusion(%[[F]], %arg0)
//       CHECK:   ^bb0(%{{.*}}: tensor<64x32xf32, #layout.tiled<{0,1}>>,
// REMARK: remark: layouts assigned: bytes moved
func.func @fused_producer(%a: tensor<64x32xf32, #layout.tiled<{0,1}>>, %b: tensor<64x32xf32, #layout.tiled<{0,1}>>, %c: tensor<64x32xf32, #layout.tiled<{0,1}>>) -> (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) {
  %s = layout.subtract %a, %b : (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32>
  %t = layout.multiply %s, %c : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32>
  %m = layout.multiply %t, %c : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32>
  %m2 = layout.add %m, %c : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  %p = layout.add %t, %a : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32>
  %p2 = layout.subtract %p, %a : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  return %m2, %p2 : tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>
}

// -----

// Pinned: a returned value, a value with an encoding the program wrote,
// and a relayout's result keep their layouts (no remark, nothing changes).
// CHECK-LABEL: func.func @pinned(
//       CHECK:   layout.subtract {{.*}} -> tensor<64x32xf32>
//       CHECK:   layout.add {{.*}} -> tensor<64x32xf32, #layout.tiled<{1,0:T(8,8)}>>
//       CHECK:   layout.relayout {{.*}} -> tensor<64x32xf32>
// REMARK-NOT: remark: layout:
func.func @pinned(%a: tensor<64x32xf32, #layout.tiled<{0,1}>>, %b: tensor<64x32xf32, #layout.tiled<{0,1}>>) -> (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) {
  %t = layout.subtract %a, %b : (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32>
  %u = layout.add %a, %b : (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{1,0:T(8,8)}>>
  %m = layout.multiply %t, %u : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{1,0:T(8,8)}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  %e = tensor.empty() : tensor<64x32xf32>
  %r = layout.relayout %a, %e : tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32> -> tensor<64x32xf32>
  %p = layout.add %r, %b : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  %q = layout.add %r, %a : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  return %t, %m, %p : tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>
}

// -----

// A value that is also a relayout's destination gives that relayout its
// type: pinned.
// CHECK-LABEL: func.func @relayout_destination(
//       CHECK:   %[[T:.*]] = layout.subtract {{.*}} -> tensor<64x32xf32>
//       CHECK:   layout.relayout %[[T]], %[[T]] : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
func.func @relayout_destination(%a: tensor<64x32xf32, #layout.tiled<{0,1}>>, %b: tensor<64x32xf32, #layout.tiled<{0,1}>>) -> (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32>) {
  %t = layout.subtract %a, %b : (tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32>
  %m = layout.multiply %t, %a : (tensor<64x32xf32>, tensor<64x32xf32, #layout.tiled<{0,1}>>) -> tensor<64x32xf32, #layout.tiled<{0,1}>>
  %r = layout.relayout %t, %t : tensor<64x32xf32>, tensor<64x32xf32> -> tensor<64x32xf32>
  return %m, %r : tensor<64x32xf32, #layout.tiled<{0,1}>>, tensor<64x32xf32>
}
