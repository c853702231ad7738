// RUN: layout-opt %s --convert-layout-to-scf -split-input-file | FileCheck %s

// Dynamic broadcast_in_dim with sizes: the result is allocated with the
// given sizes; the operand's dynamic dim may be 1 at run time, so it is
// read through a view whose stride is 0 then.
// CHECK-LABEL: func.func @broadcast_sizes
// CHECK-SAME: (%[[Y:.*]]: tensor<?xf32>, %[[N:.*]]: index, %[[K:.*]]: index)
// CHECK: %[[YB:.*]] = bufferization.to_buffer %[[Y]] read_only
// CHECK: %[[OUT:.*]] = memref.alloc(%[[N]], %[[K]]) : memref<?x?xf32>
// CHECK: memref.extract_strided_metadata %[[YB]]
// CHECK: arith.cmpi eq
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[K]]
// CHECK: %[[X:.*]] = memref.load %[[VIEW]][%[[J]]]
// CHECK: memref.store %[[X]], %[[OUT]][%[[I]], %[[J]]]
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
func.func @broadcast_sizes(%y: tensor<?xf32>, %n: index, %k: index) -> tensor<?x?xf32> {
  %b = layout.broadcast_in_dim %y, dims = [1] sizes(%n, %k) : (tensor<?xf32>) -> tensor<?x?xf32>
  return %b : tensor<?x?xf32>
}

// -----

// Implicit degenerate broadcasting with dynamic sizes: the result size is
// `lhs == 1 ? rhs : lhs` at run time.
// CHECK-LABEL: func.func @dynamic_add
// CHECK: %[[L:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?xf32>
// CHECK: %[[R:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?xf32>
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[L]]
// CHECK: %[[SIZE:.*]] = arith.select %[[ONE]], %[[R]], %[[L]]
// CHECK: memref.alloc(%[[SIZE]]) : memref<?xf32>
// CHECK: scf.for
// CHECK: arith.addf
func.func @dynamic_add(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = layout.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Dynamic relayout into Figure 1's tiling: the logical size comes from the
// memref.alloc (no memref.dim of the tiled memref); the tile loop is split
// into full row tiles, the partial row tile, and padding.
// CHECK-LABEL: func.func @dynamic_relayout
// CHECK-SAME: (%[[A:.*]]: memref<?x5xf32>, %[[N:.*]]: index)
// CHECK: %[[B:.*]] = memref.alloc(%[[N]])
// CHECK: %[[P:.*]] = layout.to_physical %[[B]] {{.*}} -> memref<?x3x2x2xf32>
// CHECK-NOT: memref.dim %[[B]]
// CHECK: affine.min {{.*}}(%{{.*}}, %[[N]])
// CHECK: scf.for
// CHECK: affine.max {{.*}}(%[[N]])
// CHECK-NOT: layout.relayout
func.func @dynamic_relayout(%a: memref<?x5xf32>, %n: index) {
  %b = memref.alloc(%n) : memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  layout.relayout %a, %b : memref<?x5xf32>, memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// -----

// A dynamic tiled destination argument: its logical sizes are memref.dim of
// the tiled memref (--layout-normalize-memrefs keeps them with the value).
// CHECK-LABEL: func.func @dynamic_tiled_argument
// CHECK-SAME: (%[[T:.*]]: memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>, %[[O:.*]]: memref<?x?xf32>)
// CHECK-DAG: memref.dim %[[T]], %c0{{.*}} : memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-DAG: memref.dim %[[T]], %c1{{.*}} : memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK: scf.for
// CHECK-NOT: layout.relayout
func.func @dynamic_tiled_argument(%t: memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>, %o: memref<?x?xf32>) {
  layout.relayout %o, %t : memref<?x?xf32>, memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// -----

// Binary ops on dynamic tiled operands. The same tensor twice cannot
// broadcast: read in place, no temporary.
// CHECK-LABEL: func.func @dynamic_tiled_same
// CHECK-COUNT-1: memref.alloc
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.reinterpret_cast
func.func @dynamic_tiled_same(%a: tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<?x?xf32> {
  %r = layout.add %a, %a : (tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Two different ones may broadcast (a dim of run-time size 1): each tiled
// operand is relayouted into a row-major temporary, read through a view
// whose stride is 0 where the size is 1, and freed after the loops.
// CHECK-LABEL: func.func @dynamic_tiled_may_broadcast
// CHECK: %[[RES:.*]] = memref.alloc({{.*}}) : memref<?x?xf32>
// CHECK: %[[TA:.*]] = memref.alloc({{.*}}) : memref<?x?xf32>
// CHECK: memref.reinterpret_cast {{.*}} to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[TB:.*]] = memref.alloc({{.*}}) : memref<?x?xf32>
// CHECK: memref.reinterpret_cast {{.*}} to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: arith.addf
// CHECK: memref.dealloc %[[TA]]
// CHECK: memref.dealloc %[[TB]]
func.func @dynamic_tiled_may_broadcast(%a: tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>, %b: tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<?x?xf32> {
  %r = layout.add %a, %b : (tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A `*` layout without dims on a dynamic outer dim (the inner dims of the
// combine are static): the physical view is ?x3x2x4 and the combined index
// is split by the inner size 5.
// CHECK-DAG: #[[DIV:.+]] = affine_map<(d0, d1) -> ((d0 * 4 + d1) floordiv 5)>
// CHECK-DAG: #[[MOD:.+]] = affine_map<(d0, d1) -> ((d0 * 4 + d1) mod 5)>
// CHECK-LABEL: func.func @combine_without_dims_dynamic
// CHECK: layout.to_physical %{{.*}} : memref<?x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>> -> memref<?x3x2x4xf32>
// CHECK: affine.apply #[[DIV]](
// CHECK: affine.apply #[[MOD]](
func.func @combine_without_dims_dynamic(%a: memref<?x2x5xf32>, %n: index) {
  %b = memref.alloc(%n) : memref<?x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>
  layout.relayout %a, %b : memref<?x2x5xf32>, memref<?x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>
  return
}
