// The plugin's verifiers run in stock mlir-opt.
// The sanitized plugin cannot load into stock (uninstrumented) mlir-opt.
// UNSUPPORTED: sanitizers
// RUN: mlir-opt %s --load-dialect-plugin=%layout_lib_dir/LayoutPlugin%shlibext -split-input-file -verify-diagnostics

// expected-error @+1 {{layout minor_to_major field contains 2 elements, but shape has 3 dimensions}}
func.func private @m2m_count(memref<3x5x7xf32, #layout.tiled<{1,0}>>)

// -----

func.func @to_physical_c2(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C2) expects the result type 'memref<2x3x2x2xf32>'}}
  %p = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<3x5xf32>
  return
}
