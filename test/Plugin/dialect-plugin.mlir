// Stock mlir-opt parses and prints the layout dialect from the plugin.
// The sanitized plugin cannot load into stock (uninstrumented) mlir-opt.
// UNSUPPORTED: sanitizers
// RUN: mlir-opt %s --load-dialect-plugin=%layout_lib_dir/LayoutPlugin%shlibext | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%layout_lib_dir/LayoutPlugin%shlibext -mlir-print-op-generic \
// RUN:   | mlir-opt --load-dialect-plugin=%layout_lib_dir/LayoutPlugin%shlibext | FileCheck %s

// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[M:.+]]: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK-SAME: attributes {shape = #layout.shape<"f32[<=4,3]{1,0:T(2,2)}">}
// CHECK: %[[P:.+]] = layout.to_physical %[[M]] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
// CHECK: layout.from_physical %[[P]] : memref<2x3x2x2xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func @views(%m: memref<3x5xf32, #layout.tiled<{ 1,0 : T(2,2) }>>) -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    attributes {shape = #layout.shape<"f32[<=4,3]{1,0:T(2,2)}">} {
  %p = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
  %n = layout.from_physical %p : memref<2x3x2x2xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %n : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}
