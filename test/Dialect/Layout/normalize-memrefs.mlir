// RUN: layout-opt %s --layout-normalize-memrefs -split-input-file | FileCheck %s
// The plugin runs the same pass in stock mlir-opt: test/Plugin/.

// The number of tiles of a dynamic dim, ceildiv(n, 2) (see @dynamic).
// CHECK: #[[CEIL:.+]] = affine_map<()[s0] -> ((s0 - 1) floordiv 2 + 1)>

!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

// memref.load/store: physical indices computed with arith (unsigned div/rem,
// since in-bounds indices are non-negative).
// CHECK-LABEL: func.func @memref_access
// CHECK-SAME: (%[[V:.+]]: f32, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK: %[[A:.+]] = memref.alloc() : memref<2x3x2x2xf32>
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[T0:.+]] = arith.divui %[[I]], %[[C2]] : index
// CHECK: %[[T1:.+]] = arith.divui %[[J]], %[[C2]] : index
// CHECK: %[[E0:.+]] = arith.remui %[[I]], %[[C2]] : index
// CHECK: %[[E1:.+]] = arith.remui %[[J]], %[[C2]] : index
// CHECK: memref.store %[[V]], %[[A]][%[[T0]], %[[T1]], %[[E0]], %[[E1]]] : memref<2x3x2x2xf32>
// CHECK: %[[X:.+]] = memref.load %[[A]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : memref<2x3x2x2xf32>
// CHECK: memref.dealloc %[[A]] : memref<2x3x2x2xf32>
// CHECK: return %[[X]]
func.func @memref_access(%v: f32, %i: index, %j: index) -> f32 {
  %a = memref.alloc() : !fig1
  memref.store %v, %a[%i, %j] : !fig1
  %x = memref.load %a[%i, %j] : !fig1
  memref.dealloc %a : !fig1
  return %x : f32
}

// affine.load/store: the access map is composed with the layout map.
// CHECK-LABEL: func.func @affine_access
// CHECK-SAME: (%[[V:.+]]: f32, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK: %[[A:.+]] = memref.alloca() : memref<2x3x2x2xf32>
// CHECK: affine.store %[[V]], %[[A]][%[[I]] floordiv 2, (%[[J]] + 1) floordiv 2, %[[I]] mod 2, %[[J]] - ((%[[J]] + 1) floordiv 2) * 2 + 1] : memref<2x3x2x2xf32>
// CHECK: affine.load %[[A]][%[[I]] floordiv 2, %[[J]] floordiv 2, %[[I]] mod 2, %[[J]] mod 2] : memref<2x3x2x2xf32>
func.func @affine_access(%v: f32, %i: index, %j: index) -> f32 {
  %a = memref.alloca() : !fig1
  affine.store %v, %a[%i, %j + 1] : !fig1
  %x = affine.load %a[%i, %j] : !fig1
  return %x : f32
}

// `*` combine: the two minor dims are linearized (b*5+c) before tiling.
// CHECK-LABEL: func.func @combine
// CHECK-SAME: (%[[V:.+]]: f32, %[[A:.+]]: index, %[[B:.+]]: index, %[[C:.+]]: index)
// CHECK: %[[M:.+]] = memref.alloc() : memref<2x3x2x4xf32>
// CHECK: %[[MUL:.+]] = arith.muli %[[B]], %{{.+}} : index
// CHECK: %[[E:.+]] = arith.addi %[[MUL]], %[[C]] : index
// CHECK: %[[T0:.+]] = arith.divui %[[A]], %{{.+}} : index
// CHECK: %[[T1:.+]] = arith.divui %[[E]], %{{.+}} : index
// CHECK: %[[E0:.+]] = arith.remui %[[A]], %{{.+}} : index
// CHECK: %[[E1:.+]] = arith.remui %[[E]], %{{.+}} : index
// CHECK: memref.store %[[V]], %[[M]][%[[T0]], %[[T1]], %[[E0]], %[[E1]]] : memref<2x3x2x4xf32>
func.func @combine(%v: f32, %a: index, %b: index, %c: index) {
  %m = memref.alloc() : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>
  memref.store %v, %m[%a, %b, %c] : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>
  return
}

// The same layout without dims: the sizes come from the memref shape, for
// memref and affine accesses and for the dynamic physical size; a copy to
// the dims-carrying form (an equivalent layout) copies the buffer.
// CHECK-LABEL: func.func @combine_without_dims
// CHECK-SAME: (%[[V:.+]]: f32, %[[A:.+]]: index, %[[B:.+]]: index, %[[C:.+]]: index, %[[N:.+]]: index)
// CHECK: %[[M:.+]] = memref.alloc() : memref<2x3x2x4xf32>
// CHECK: affine.store %[[V]], %[[M]][%[[A]] floordiv 2, (%[[B]] * 5 + %[[C]]) floordiv 4, %[[A]] mod 2, (%[[B]] * 5 + %[[C]]) mod 4] : memref<2x3x2x4xf32>
// CHECK: %[[MUL:.+]] = arith.muli %[[B]], %{{.+}} : index
// CHECK: %[[E:.+]] = arith.addi %[[MUL]], %[[C]] : index
// CHECK: %[[T0:.+]] = arith.divui %[[A]], %{{.+}} : index
// CHECK: %[[T1:.+]] = arith.divui %[[E]], %{{.+}} : index
// CHECK: %[[E0:.+]] = arith.remui %[[A]], %{{.+}} : index
// CHECK: %[[E1:.+]] = arith.remui %[[E]], %{{.+}} : index
// CHECK: memref.load %[[M]][%[[T0]], %[[T1]], %[[E0]], %[[E1]]] : memref<2x3x2x4xf32>
// CHECK: %[[TILES:.+]] = affine.apply #[[CEIL]]()[%[[N]]]
// CHECK: memref.alloc(%[[TILES]]) : memref<?x3x2x4xf32>
// CHECK: %[[W:.+]] = memref.alloc() : memref<2x3x2x4xf32>
// CHECK: memref.copy %[[M]], %[[W]] : memref<2x3x2x4xf32> to memref<2x3x2x4xf32>
func.func @combine_without_dims(%v: f32, %a: index, %b: index, %c: index, %n: index) -> f32 {
  %m = memref.alloc() : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>
  affine.store %v, %m[%a, %b, %c] : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>
  %x = memref.load %m[%a, %b, %c] : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>
  %d = memref.alloc(%n) : memref<?x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>
  %w = memref.alloc() : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>
  memref.copy %m, %w : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>> to memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>
  return %x : f32
}

// Legacy padding: the buffer has the padded dims in physical order (5x3).
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[V:.+]]: f32, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK: %[[M:.+]] = memref.alloc() : memref<5x3xf32>
// CHECK: affine.store %[[V]], %[[M]][%[[J]], %[[I]]] : memref<5x3xf32>
func.func @padded(%v: f32, %i: index, %j: index) {
  %m = memref.alloc() : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>
  affine.store %v, %m[%i, %j] : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>
  return
}

// A dynamic dim: the number of tiles is ceildiv(n, 2); attributes are kept.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[N:.+]]: index,
// CHECK: %[[TILES:.+]] = affine.apply #[[CEIL]]()[%[[N]]]
// CHECK: memref.alloc(%[[TILES]]) {alignment = 64 : i64} : memref<?x3x2x2xf32>
func.func @dynamic(%n: index, %v: f32, %i: index) {
  %m = memref.alloc(%n) {alignment = 64 : i64} : memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  affine.store %v, %m[%i, %i] : memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// Signatures, calls, returns, copies and views follow the physical type.
// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%[[M:.+]]: memref<2x3x2x2xf32>) -> memref<2x3x2x2xf32>
// CHECK-NEXT: return %[[M]] : memref<2x3x2x2xf32>
func.func @callee(%m: !fig1) -> !fig1 {
  return %m : !fig1
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[M:.+]]: memref<2x3x2x2xf32>, %[[N:.+]]: memref<2x3x2x2xf32>) -> memref<2x3x2x2xf32>
// CHECK-NEXT: %[[R:.+]] = call @callee(%[[M]]) : (memref<2x3x2x2xf32>) -> memref<2x3x2x2xf32>
// CHECK-NEXT: memref.copy %[[R]], %[[N]] : memref<2x3x2x2xf32> to memref<2x3x2x2xf32>
// CHECK-NEXT: return %[[R]] : memref<2x3x2x2xf32>
func.func @caller(%m: !fig1, %n: !fig1) -> memref<2x3x2x2xf32> {
  %r = call @callee(%m) : (!fig1) -> !fig1
  memref.copy %r, %n : !fig1 to !fig1
  %p = layout.to_physical %r : !fig1 -> memref<2x3x2x2xf32>
  return %p : memref<2x3x2x2xf32>
}

// from_physical becomes the identity; the memory space S(1) is kept.
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[P:.+]]: memref<2x3x2x2xf32, 1>, %[[V:.+]]: f32)
// CHECK-NOT: layout.
// CHECK: memref.store %[[V]], %[[P]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : memref<2x3x2x2xf32, 1>
func.func @views(%p: memref<2x3x2x2xf32, 1>, %v: f32) {
  %m = layout.from_physical %p : memref<2x3x2x2xf32, 1> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>, 1>
  %c1 = arith.constant 1 : index
  memref.store %v, %m[%c1, %c1] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>, 1>
  return
}

// -----

// Repeated tiling (Figure 2): six physical dims.
// CHECK-LABEL: func.func @figure2
// CHECK: %[[M:.+]] = memref.alloc() : memref<2x2x1x4x2x1xf32>
// CHECK: affine.store %{{.+}}, %[[M]][%[[I:.+]] floordiv 2, %[[J:.+]] floordiv 4, (%[[I]] mod 2) floordiv 2, %[[J]] mod 4, %[[I]] mod 2, 0]
func.func @figure2(%v: f32, %i: index, %j: index) {
  %m = memref.alloc() : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  affine.store %v, %m[%i, %j] : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  return
}

// Memrefs without #layout.tiled are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK: memref.alloc() : memref<3x5xf32>
func.func @untouched() {
  %m = memref.alloc() : memref<3x5xf32>
  return
}

// -----

// Dynamic tiled memrefs cross function boundaries as descriptors of their
// LOGICAL sizes (identity layout, offset 0) whose pointer is the physical
// buffer. The callee views the buffer with the physical extents computed
// from the logical sizes (ceildiv(n, 2) tiles); memref.dim is the logical
// size, never the physical extent.
// CHECK: #[[CEIL:.+]] = affine_map<()[s0] -> ((s0 - 1) floordiv 2 + 1)>
!dyn = memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>

// CHECK-LABEL: func.func @dyn_callee
// CHECK-SAME: (%[[M:.+]]: memref<?x?xf32>, %[[I:.+]]: index, %[[J:.+]]: index) -> (f32, index, index)
// CHECK-DAG: %[[R:.+]] = memref.dim %[[M]], %c0 : memref<?x?xf32>
// CHECK-DAG: %[[C:.+]] = memref.dim %[[M]], %c1 : memref<?x?xf32>
// CHECK-DAG: %[[T0:.+]] = affine.apply #[[CEIL]]()[%[[R]]]
// CHECK-DAG: %[[T1:.+]] = affine.apply #[[CEIL]]()[%[[C]]]
// CHECK-DAG: %[[S0:.+]] = arith.muli %[[T1]], %c4 : index
// CHECK: %[[P:.+]] = memref.reinterpret_cast %[[M]] to offset: [0], sizes: [%[[T0]], %[[T1]], 2, 2], strides: [%[[S0]], 4, 2, 1] : memref<?x?xf32> to memref<?x?x2x2xf32>
// CHECK: %[[V:.+]] = memref.load %[[P]][
// CHECK: return %[[V]], %[[R]], %[[C]] : f32, index, index
func.func @dyn_callee(%m: !dyn, %i: index, %j: index) -> (f32, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %m, %c0 : !dyn
  %c = memref.dim %m, %c1 : !dyn
  %v = memref.load %m[%i, %j] : !dyn
  return %v, %r, %c : f32, index, index
}

// The ABI is fixed, so an external function may take and return them.
// CHECK: func.func private @dyn_external(memref<?x?xf32>) -> memref<?x?xf32>
func.func private @dyn_external(!dyn) -> !dyn

// Call sites build the logical descriptor (here from a static allocation
// cast to the dynamic type: sizes 3 and 5) and view call results. The
// descriptor is marked with its tiled type (--layout-prepare-deallocation
// copies returned ones through their physical view).
// CHECK-LABEL: func.func @dyn_caller
// CHECK: %[[A:.+]] = memref.alloc() : memref<2x3x2x2xf32>
// CHECK: %[[D:.+]] = memref.cast %[[A]] : memref<2x3x2x2xf32> to memref<?x?x2x2xf32>
// CHECK: %[[L:.+]] = memref.reinterpret_cast %[[D]] to offset: [0], sizes: [3, 5], strides: [5, 1] {layout.logical_descriptor = memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>} : memref<?x?x2x2xf32> to memref<?x?xf32>
// CHECK: call @dyn_callee(%[[L]], %{{.+}}, %{{.+}}) : (memref<?x?xf32>, index, index) -> (f32, index, index)
// CHECK: %[[E:.+]] = call @dyn_external(%{{.+}}) : (memref<?x?xf32>) -> memref<?x?xf32>
// CHECK: %[[N:.+]] = memref.dim %[[E]], %{{.+}} : memref<?x?xf32>
// CHECK: %[[EP:.+]] = memref.reinterpret_cast %[[E]] to offset: [0], sizes: [%{{.+}}, %{{.+}}, 2, 2]
// CHECK: %[[EL:.+]] = memref.reinterpret_cast %[[EP]] to offset: [0], sizes: [%[[N]], %{{.+}}], strides: [%{{.+}}, 1] {layout.logical_descriptor = {{.+}}} : memref<?x?x2x2xf32> to memref<?x?xf32>
// CHECK: return %[[EL]], %[[N]] : memref<?x?xf32>, index
func.func @dyn_caller(%i: index) -> (!dyn, index) {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %d = memref.cast %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> to !dyn
  %v:3 = call @dyn_callee(%d, %i, %i) : (!dyn, index, index) -> (f32, index, index)
  %e = call @dyn_external(%d) : (!dyn) -> !dyn
  %n = memref.dim %e, %c0 : !dyn
  return %e, %n : !dyn, index
}

// -----

// memref.dim of a static tiled memref is its static logical size.
// CHECK-LABEL: func.func @static_dim
// CHECK-NOT: memref.dim
// CHECK: %[[C5:.+]] = arith.constant 5 : index
// CHECK-NEXT: return %[[C5]] : index
func.func @static_dim(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> index {
  %c1 = arith.constant 1 : index
  %d = memref.dim %m, %c1 : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %d : index
}

// -----

// A #layout.tiled memref whose layout is the identity ({1,0}: no tiles,
// padding or packing) only changes type: the vector loads and stores of the
// loop kernels keep their indices (found by the kernel table's relayouts
// from an explicit row-major layout, docs/lowering.md).
// CHECK-LABEL: func.func @identity_tiled_vectors
// CHECK-SAME: (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<4x8xf32>)
// CHECK: %[[V:.+]] = vector.load %[[A]][%{{.+}}, %{{.+}}] : memref<4x8xf32>, vector<8xf32>
// CHECK: vector.store %[[V]], %[[B]][%{{.+}}, %{{.+}}] : memref<4x8xf32>, vector<8xf32>
func.func @identity_tiled_vectors(%a: memref<4x8xf32, #layout.tiled<{1,0}>>, %b: memref<4x8xf32, #layout.tiled<{1,0}>>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c1, %c0] : memref<4x8xf32, #layout.tiled<{1,0}>>, vector<8xf32>
  vector.store %v, %b[%c1, %c0] : memref<4x8xf32, #layout.tiled<{1,0}>>, vector<8xf32>
  return
}
