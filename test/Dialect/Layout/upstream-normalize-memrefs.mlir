// Upstream -normalize-memrefs works on #layout.tiled through
// MemRefLayoutAttrInterface::getAffineMap(). It derives the new shape from the
// map's range, so it agrees with --layout-normalize-memrefs on plain tiling and
// `*` combines and differs on legacy padding and dynamic dims
// (docs/dialect.md).
// Loads the plugin into stock mlir-opt (below), which a sanitized build cannot do.
// UNSUPPORTED: sanitizers
// RUN: layout-opt %s -normalize-memrefs | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%layout_lib_dir/LayoutPlugin%shlibext -normalize-memrefs | FileCheck %s

// Same as ours.
// CHECK-LABEL: func.func @figure1
// CHECK-SAME: (%[[V:.+]]: f32, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK: %[[A:.+]] = memref.alloc() : memref<2x3x2x2xf32>
// CHECK: affine.store %[[V]], %[[A]][symbol(%[[I]]) floordiv 2, symbol(%[[J]]) floordiv 2, symbol(%[[I]]) mod 2, symbol(%[[J]]) mod 2] : memref<2x3x2x2xf32>
func.func @figure1(%v: f32, %i: index, %j: index) {
  %a = memref.alloc() : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  affine.store %v, %a[%i, %j] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  memref.dealloc %a : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// Same as ours: the map range of the combine gives the tiled-layout document's (56,37,2,3).
// CHECK-LABEL: func.func @combine
// CHECK: memref.alloc() : memref<56x37x2x3xf32>
func.func @combine(%v: f32, %i: index) {
  %a = memref.alloc() : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>
  affine.store %v, %a[%i, %i, %i, %i, %i] : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>
  return
}

// Differs: without dims, getAffineMap() of a `*` layout is a non-affine
// placeholder (docs/dialect.md), which upstream cannot flatten: the memref is
// left as written instead of getting a wrong buffer (ours: 56x37x2x3).
// CHECK-LABEL: func.func @combine_without_dims
// CHECK: memref.alloc() : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
// CHECK: affine.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
func.func @combine_without_dims(%v: f32, %i: index) {
  %a = memref.alloc() : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
  affine.store %v, %a[%i, %i, %i, %i, %i] : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
  return
}

// Differs: legacy PAD(3,5) is not in the map, so upstream allocates the
// unpadded 3x2 (ours: 5x3, the document's 15 slots).
// CHECK-LABEL: func.func @padded
// CHECK: memref.alloc() : memref<3x2xf32>
func.func @padded(%v: f32, %i: index) {
  %a = memref.alloc() : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>
  affine.store %v, %a[%i, %i] : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>
  return
}

// Differs: with a dynamic dim upstream makes every dim of the tiled group
// dynamic (?x3x?x2; ours: ?x3x2x2).
// CHECK-LABEL: func.func @dynamic
// CHECK: memref.alloc(%{{.+}}, %{{.+}}) : memref<?x3x?x2xf32>
func.func @dynamic(%n: index, %v: f32, %i: index) {
  %a = memref.alloc(%n) : memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  affine.store %v, %a[%i, %i] : memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// Differs: upstream rewrites memref.dim to query the physical buffer, so dim 0
// of the logical 3x5 memref would read 2 (--layout-normalize-memrefs rejects
// it, see normalize-memrefs-errors.mlir).
// CHECK-LABEL: func.func @dim
// CHECK-SAME: (%[[M:.+]]: memref<2x3x2x2xf32>)
// CHECK: memref.dim %[[M]], %{{.+}} : memref<2x3x2x2xf32>
func.func @dim(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> index {
  %c0 = arith.constant 0 : index
  %d = memref.dim %m, %c0 : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %d : index
}
