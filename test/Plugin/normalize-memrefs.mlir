// The plugin's pass runs in stock mlir-opt through --pass-pipeline (a plugin
// The sanitized plugin cannot load into stock (uninstrumented) mlir-opt.
// UNSUPPORTED: sanitizers
// pass is not a plain -flag there, llvm-project issue 78020).
// RUN: mlir-opt %s --load-dialect-plugin=%layout_lib_dir/LayoutPlugin%shlibext \
// RUN:   --load-pass-plugin=%layout_lib_dir/LayoutPlugin%shlibext \
// RUN:   --pass-pipeline='builtin.module(layout-normalize-memrefs)' | FileCheck %s

// CHECK-LABEL: func.func @figure1
// CHECK-SAME: (%[[V:.+]]: f32, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK: %[[A:.+]] = memref.alloc() : memref<2x3x2x2xf32>
// CHECK: affine.store %[[V]], %[[A]][%[[I]] floordiv 2, %[[J]] floordiv 2, %[[I]] mod 2, %[[J]] mod 2] : memref<2x3x2x2xf32>
// CHECK-NOT: layout.to_physical
// CHECK: return %[[A]] : memref<2x3x2x2xf32>
func.func @figure1(%v: f32, %i: index, %j: index) -> memref<2x3x2x2xf32> {
  %a = memref.alloc() : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  affine.store %v, %a[%i, %j] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %p = layout.to_physical %a : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
  return %p : memref<2x3x2x2xf32>
}

// A `*` layout without dims, in stock mlir-opt: the sizes come from the
// memref shape (the tiled-layout document's (56,37,2,3)).
// CHECK-LABEL: func.func @combine_without_dims
// CHECK: %[[A:.+]] = memref.alloc() : memref<56x37x2x3xf32>
// CHECK-NOT: layout.to_physical
// CHECK: return %[[A]] : memref<56x37x2x3xf32>
func.func @combine_without_dims() -> memref<56x37x2x3xf32> {
  %a = memref.alloc() : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
  %p = layout.to_physical %a : memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>> -> memref<56x37x2x3xf32>
  return %p : memref<56x37x2x3xf32>
}
