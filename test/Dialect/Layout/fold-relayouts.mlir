// RUN: layout-opt %s --layout-fold-relayouts --allow-unregistered-dialect | FileCheck %s

!row = tensor<8x128xf32>
!tile = tensor<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>

// T(8,128) on 8x128 is row-major order: the relayout becomes a view.
// CHECK-LABEL: func.func @to_tiled_bitcast
// CHECK-SAME: (%[[S:.+]]: tensor<8x128xf32>
// CHECK-NEXT: %[[F:.+]] = tensor.collapse_shape %[[S]] {{\[\[}}0, 1]] : tensor<8x128xf32> into tensor<1024xf32>
// CHECK-NEXT: %[[E:.+]] = tensor.expand_shape %[[F]] {{\[\[}}0, 1, 2, 3]] output_shape [1, 1, 8, 128] : tensor<1024xf32> into tensor<1x1x8x128xf32>
// CHECK-NEXT: %[[R:.+]] = layout.from_physical %[[E]] : tensor<1x1x8x128xf32> -> tensor<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: layout.relayout
func.func @to_tiled_bitcast(%s: !row, %d: !tile) -> !tile {
  %r = layout.relayout %s, %d : !row, !tile -> !tile
  return %r : !tile
}

// And back.
// CHECK-LABEL: func.func @from_tiled_bitcast
// CHECK-NEXT: layout.to_physical
// CHECK-NEXT: tensor.collapse_shape
// CHECK-NEXT: tensor.expand_shape
// CHECK-NEXT: return
func.func @from_tiled_bitcast(%s: !tile, %d: !row) -> !row {
  %r = layout.relayout %s, %d : !tile, !row -> !row
  return %r : !row
}

// A transpose moves data: it stays.
// CHECK-LABEL: func.func @transpose
// CHECK: layout.relayout
func.func @transpose(%s: tensor<64x64xf32>, %d: tensor<64x64xf32, #layout.tiled<{0,1}>>) -> tensor<64x64xf32, #layout.tiled<{0,1}>> {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, tensor<64x64xf32, #layout.tiled<{0,1}>> -> tensor<64x64xf32, #layout.tiled<{0,1}>>
  return %r : tensor<64x64xf32, #layout.tiled<{0,1}>>
}

// A destination with padding slots stays: the relayout writes PV there.
// CHECK-LABEL: func.func @padded
// CHECK: layout.relayout
func.func @padded(%s: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %d: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %r = layout.relayout %s, %d : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// Chains compose: row -> transposed -> tiled is one relayout row -> tiled,
// which is a bitcast and folds.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: layout.relayout
// CHECK: layout.from_physical
func.func @chain(%s: !row, %m: tensor<8x128xf32, #layout.tiled<{0,1}>>, %d: !tile) -> !tile {
  %a = layout.relayout %s, %m : !row, tensor<8x128xf32, #layout.tiled<{0,1}>> -> tensor<8x128xf32, #layout.tiled<{0,1}>>
  %b = layout.relayout %a, %d : tensor<8x128xf32, #layout.tiled<{0,1}>>, !tile -> !tile
  return %b : !tile
}

// Memref relayouts write an existing buffer: unchanged.
// CHECK-LABEL: func.func @memref
// CHECK: layout.relayout
func.func @memref(%s: memref<8x128xf32>, %d: memref<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>) {
  layout.relayout %s, %d : memref<8x128xf32>, memref<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>
  return
}

// Sinking: a relayout whose every use reads logical elements dies; the
// users read its source (whose encoding their verifiers accept).
!t22 = tensor<64x64xf32, #layout.tiled<{1,0:T(8,128)}>>
!tr = tensor<64x64xf32, #layout.tiled<{0,1}>>

// CHECK-LABEL: func.func @sink_into_add
// CHECK-SAME: (%[[S:[^:]+]]: tensor<64x64xf32>, %{{[^:]+}}: tensor<64x64xf32, #layout.tiled<{1,0:T(8,128)}>>, %[[B:[^:]+]]: tensor<64x64xf32>)
// CHECK-NOT: layout.relayout
// CHECK: %[[R:.+]] = layout.add %[[S]], %[[B]] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32, #layout.tiled<{0,1}>>
// CHECK-NEXT: return %[[R]]
func.func @sink_into_add(%s: tensor<64x64xf32>, %d: !t22, %b: tensor<64x64xf32>) -> !tr {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, !t22 -> !t22
  %a = layout.add %r, %b : (!t22, tensor<64x64xf32>) -> !tr
  return %a : !tr
}

// Several logical readers (both operands of one op, a broadcast, a
// relayout's source): all read the source.
// CHECK-LABEL: func.func @sink_many
// CHECK-SAME: (%[[S:[^:]+]]: tensor<64x64xf32, #layout.tiled<{0,1}>>
// CHECK-DAG: layout.multiply %[[S]], %[[S]]
// CHECK-DAG: layout.broadcast_in_dim %[[S]], dims = [1, 2]
// CHECK-DAG: layout.relayout %[[S]], %{{.+}} : tensor<64x64xf32, #layout.tiled<{0,1}>>, tensor<64x64xf32> -> tensor<64x64xf32>
func.func @sink_many(%s: !tr, %d: !t22, %e: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<2x64x64xf32>, tensor<64x64xf32>) {
  %r = layout.relayout %s, %d : !tr, !t22 -> !t22
  %m = layout.multiply %r, %r : (!t22, !t22) -> tensor<64x64xf32>
  %b = layout.broadcast_in_dim %r, dims = [1, 2] : (!t22) -> tensor<2x64x64xf32>
  %c = layout.relayout %r, %e : !t22, tensor<64x64xf32> -> tensor<64x64xf32>
  return %m, %b, %c : tensor<64x64xf32>, tensor<2x64x64xf32>, tensor<64x64xf32>
}

// Negative: a use that observes the physical layout keeps the relayout
// (and the logical readers keep reading it).
// CHECK-LABEL: func.func @keep_to_physical
// CHECK: %[[R:.+]] = layout.relayout
// CHECK: layout.add %[[R]]
// CHECK: layout.to_physical %[[R]]
func.func @keep_to_physical(%s: tensor<64x64xf32>, %d: !t22) -> (tensor<64x64xf32>, tensor<8x1x8x128xf32>) {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, !t22 -> !t22
  %a = layout.add %r, %r : (!t22, !t22) -> tensor<64x64xf32>
  %p = layout.to_physical %r : !t22 -> tensor<8x1x8x128xf32>
  return %a, %p : tensor<64x64xf32>, tensor<8x1x8x128xf32>
}

// Negative: returned (the caller sees the layout).
// CHECK-LABEL: func.func @keep_returned
// CHECK: %[[R:.+]] = layout.relayout
// CHECK: layout.add %[[R]]
// CHECK: return %{{.+}}, %[[R]]
func.func @keep_returned(%s: tensor<64x64xf32>, %d: !t22) -> (tensor<64x64xf32>, !t22) {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, !t22 -> !t22
  %a = layout.add %r, %r : (!t22, !t22) -> tensor<64x64xf32>
  return %a, %r : tensor<64x64xf32>, !t22
}

// Negative: passed to a call.
func.func private @callee(!t22)
// CHECK-LABEL: func.func @keep_called
// CHECK: %[[R:.+]] = layout.relayout
// CHECK: call @callee(%[[R]])
func.func @keep_called(%s: tensor<64x64xf32>, %d: !t22) -> tensor<64x64xf32> {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, !t22 -> !t22
  %a = layout.add %r, %r : (!t22, !t22) -> tensor<64x64xf32>
  func.call @callee(%r) : (!t22) -> ()
  return %a : tensor<64x64xf32>
}

// Negative: an op the pass does not know.
// CHECK-LABEL: func.func @keep_unknown
// CHECK: %[[R:.+]] = layout.relayout
// CHECK: "test.unknown"(%[[R]])
func.func @keep_unknown(%s: tensor<64x64xf32>, %d: !t22) -> tensor<64x64xf32> {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, !t22 -> !t22
  %a = layout.add %r, %r : (!t22, !t22) -> tensor<64x64xf32>
  "test.unknown"(%r) : (!t22) -> ()
  return %a : tensor<64x64xf32>
}

// Negative: the destination of another relayout (its type is the result's).
// CHECK-LABEL: func.func @keep_destination
// CHECK: %[[R:.+]] = layout.relayout %{{.+}}, %{{.+}} : tensor<64x64xf32>, tensor<64x64xf32, #layout.tiled<{1,0:T(8,128)}>>
// CHECK: layout.relayout %{{.+}}, %[[R]]
func.func @keep_destination(%s: tensor<64x64xf32>, %t: !tr, %d: !t22) -> !t22 {
  %r = layout.relayout %s, %d : tensor<64x64xf32>, !t22 -> !t22
  %q = layout.relayout %t, %r : !tr, !t22 -> !t22
  return %q : !t22
}

// Dynamic dims: an untiled source is read directly ...
// CHECK-LABEL: func.func @sink_dynamic_untiled
// CHECK-SAME: (%[[S:[^:]+]]: tensor<?x64xf32>
// CHECK-NOT: layout.relayout
// CHECK: layout.add %[[S]], %[[S]]
func.func @sink_dynamic_untiled(%s: tensor<?x64xf32>, %d: tensor<?x64xf32, #layout.tiled<{0,1}>>) -> tensor<?x64xf32> {
  %r = layout.relayout %s, %d : tensor<?x64xf32>, tensor<?x64xf32, #layout.tiled<{0,1}>> -> tensor<?x64xf32, #layout.tiled<{0,1}>>
  %a = layout.add %r, %r : (tensor<?x64xf32, #layout.tiled<{0,1}>>, tensor<?x64xf32, #layout.tiled<{0,1}>>) -> tensor<?x64xf32>
  return %a : tensor<?x64xf32>
}

// ... a dynamic encoded one is not (its readers' loops may not know its
// physical sizes).
// CHECK-LABEL: func.func @keep_dynamic_encoded
// CHECK: %[[R:.+]] = layout.relayout
// CHECK: layout.add %[[R]], %[[R]]
func.func @keep_dynamic_encoded(%s: tensor<?x64xf32, #layout.tiled<{0,1}>>, %d: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %r = layout.relayout %s, %d : tensor<?x64xf32, #layout.tiled<{0,1}>>, tensor<?x64xf32> -> tensor<?x64xf32>
  %a = layout.add %r, %r : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %a : tensor<?x64xf32>
}

// 2^25 slots, past the planner's materialized bound (2^24): layouts
// without `*` are compared along each axis (sameByteOrder), so this is
// still a bitcast and still a view.
// CHECK-LABEL: func.func @large_bitcast
// CHECK-NOT: layout.relayout
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1, 2, 3]] output_shape [32768, 1, 8, 128] : tensor<33554432xf32> into tensor<32768x1x8x128xf32>
// CHECK-NEXT: layout.from_physical
// CHECK-NOT: layout.relayout
// CHECK: return
func.func @large_bitcast(%s: tensor<262144x128xf32>, %d: tensor<262144x128xf32, #layout.tiled<{1,0:T(8,128)}>>) -> tensor<262144x128xf32, #layout.tiled<{1,0:T(8,128)}>> {
  %r = layout.relayout %s, %d : tensor<262144x128xf32>, tensor<262144x128xf32, #layout.tiled<{1,0:T(8,128)}>> -> tensor<262144x128xf32, #layout.tiled<{1,0:T(8,128)}>>
  return %r : tensor<262144x128xf32, #layout.tiled<{1,0:T(8,128)}>>
}

// A large transpose moves data: it stays (the planner refuses to
// materialize 2^25 slots; the pattern does not match, no error).
// CHECK-LABEL: func.func @large_transpose
// CHECK: layout.relayout
func.func @large_transpose(%s: tensor<8192x4096xf32>, %d: tensor<8192x4096xf32, #layout.tiled<{0,1}>>) -> tensor<8192x4096xf32, #layout.tiled<{0,1}>> {
  %r = layout.relayout %s, %d : tensor<8192x4096xf32>, tensor<8192x4096xf32, #layout.tiled<{0,1}>> -> tensor<8192x4096xf32, #layout.tiled<{0,1}>>
  return %r : tensor<8192x4096xf32, #layout.tiled<{0,1}>>
}
