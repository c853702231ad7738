// --layout-attach-dims: every dims-less `*` layout gets the dims of its
// type's shape (memref layouts, tensor encodings, function types, block
// arguments), so getAffineMap() is exact for upstream passes.
// RUN: layout-opt %s --layout-attach-dims | FileCheck %s
// Upstream -normalize-memrefs then builds the tiled-layout document's
// (56,37,2,3) buffer, which it refuses for the dims-less form
// (upstream-normalize-memrefs.mlir).
// RUN: layout-opt %s --layout-attach-dims -normalize-memrefs | FileCheck %s --check-prefix=UPSTREAM

// CHECK-LABEL: func.func @memrefs
// CHECK-SAME: (%{{.+}}: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>,
// CHECK-SAME: %{{.+}}: memref<?x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [?,3,4]>>,
// CHECK-SAME: %{{.+}}: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>,
// CHECK-SAME: %{{.+}}: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>)
// CHECK-SAME: -> memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
// CHECK: memref.alloc() : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
// CHECK: return %{{.+}} : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
func.func @memrefs(%a: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>,
                   %b: memref<?x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>,
                   %c: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>,
                   %d: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>)
    -> memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>> {
  %m = memref.alloc() : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
  return %m : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
}

// CHECK-LABEL: func.func @tensors
// CHECK-SAME: (%[[S:.+]]: tensor<2x3x4xf32>) -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
// CHECK: tensor.empty() : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
// CHECK: layout.relayout %[[S]], %{{.+}} : tensor<2x3x4xf32>, tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
func.func @tensors(%s: tensor<2x3x4xf32>) -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>> {
  %e = tensor.empty() : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
  %r = layout.relayout %s, %e : tensor<2x3x4xf32>, tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
  return %r : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
}

// UPSTREAM-LABEL: func.func @document
// UPSTREAM: memref.alloc() : memref<56x37x2x3xf32>
func.func @document(%v: f32, %i: index) {
  %a = memref.alloc() : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
  affine.store %v, %a[%i, %i, %i, %i, %i] : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
  memref.dealloc %a : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
  return
}
