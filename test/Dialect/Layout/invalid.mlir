// Every constraint of #layout.tiled, #layout.shape and the view ops, one per
// case (the view ops' cases are named after LayoutOps.td's C1..C5).
// RUN: layout-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{invalid XLA layout '{1,0:X(2)}': column 6: unknown layout attribute 'X'}}
func.func private @bad_text(memref<3x5xf32, #layout.tiled<{1,0:X(2)}>>)

// -----

// expected-error @+1 {{layout minor_to_major field contains 2 elements, but shape has 3 dimensions}}
func.func private @m2m_count(memref<3x5x7xf32, #layout.tiled<{1,0}>>)

// -----

// expected-error @+1 {{layout minor_to_major field has duplicate values}}
func.func private @m2m_dup(memref<3x5xf32, #layout.tiled<{1,1}>>)

// -----

// expected-error @+1 {{tile entries must be positive or '*'}}
func.func private @tile_zero(memref<3x5xf32, #layout.tiled<{1,0:T(0,2)}>>)

// -----

// expected-error @+1 {{'*' cannot be the last entry of a tile}}
func.func private @tile_star_last(memref<3x5xf32, #layout.tiled<{1,0:T(2,*)}, [3,5]>>)

// -----

// A `*` layout without dims takes the sizes from the shape; a dynamic inner
// dim of a combine is then the one size that cannot be known.
// expected-error @+1 {{a '*' combine needs a static size for every dimension but its most-major one (dimensions [3,2,?])}}
func.func private @combine_no_dims_dynamic(memref<3x2x?xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>)

// -----

// The same for a tensor encoding.
// expected-error @+1 {{a '*' combine needs a static size for every dimension but its most-major one (dimensions [3,2,?])}}
func.func private @combine_no_dims_tensor_dynamic(tensor<3x2x?xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>)

// -----

// A dims-less `*` layout is still validated against the shape's rank.
// expected-error @+1 {{layout minor_to_major field contains 3 elements, but shape has 2 dimensions}}
func.func private @combine_no_dims_rank(memref<3x2xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>)

// -----

// expected-error @+1 {{a '*' combine needs a static size for every dimension but its most-major one}}
func.func private @combine_dynamic(memref<3x2x?xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,?]>>)

// -----

// expected-error @+1 {{#layout.tiled dims [3,2,5] do not match the shape [3,2,6]}}
func.func private @dims_mismatch(memref<3x2x6xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,2,5]>>)

// -----

// expected-error @+1 {{layout padded_dimensions cannot pad the unbounded dynamic dimension 0}}
func.func private @pad_dynamic(memref<?x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>)

// -----

// expected-error @+1 {{padded sizes must be >= the dimension sizes}}
func.func private @pad_small(memref<4x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>)

// -----

// expected-error @+1 {{has sparse (D, #, *, P), split (SC) or metadata (M) fields}}
func.func private @sparse(memref<3x5xf32, #layout.tiled<{1,0:D(D,C)}>>)

// -----

// expected-error @+1 {{unknown layout attribute 'foo' (expected 'tiled' or 'shape')}}
func.func private @unknown(memref<3x5xf32, #layout.foo<{1,0}>>)

// -----

// expected-error @+1 {{unexpected 'junk' in #layout.tiled}}
func.func private @junk(memref<3x5xf32, #layout.tiled<{1,0} junk>>)

// -----

// expected-error @+1 {{expected a dimension size (an integer >= 0) or '?'}}
func.func private @bad_dims(memref<3x5xf32, #layout.tiled<{1,0}, [3,x]>>)

// -----

// `{}` is not a layout in XLA's parser: it is left over.
// expected-error @+1 {{invalid XLA shape 'f32[2]{}': column 7: Extra content after shape: '{}'}}
func.func private @shape_empty_layout() attributes {s = #layout.shape<f32[2]{}>}

// -----

// expected-error @+1 {{invalid XLA shape 'f32[]{}': column 6: Extra content after shape: '{}'}}
func.func private @scalar_empty_layout() attributes {s = #layout.shape<f32[]{}>}

// -----

// expected-error @+1 {{invalid XLA shape 'f32[2]{:S(1)}': layout minor_to_major field contains 0 elements, but shape has 1 dimensions}}
func.func private @shape_no_minor_to_major() attributes {s = #layout.shape<f32[2]{:S(1)}>}

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
func.func private @shape_bounded_unquoted() attributes {s = #layout.shape<f32[<=4]>}

// -----

// expected-error @+1 {{element type 'index' has no XLA equivalent for a #layout.tiled encoding}}
func.func private @tensor_elem(tensor<4xindex, #layout.tiled<{0}>>)

// -----

// expected-error @+1 {{layout minor_to_major field contains 1 elements, but shape has 2 dimensions}}
func.func private @tensor_rank(tensor<4x4xf32, #layout.tiled<{0}>>)

// -----

func.func @to_physical_c1(%m: memref<3x5xf32>) {
  // expected-error @+1 {{(C1) expects the source to have a #layout.tiled layout}}
  %p = layout.to_physical %m : memref<3x5xf32> -> memref<3x5xf32>
  return
}

// -----

func.func @to_physical_c2(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C2) expects the result type 'memref<2x3x2x2xf32>' (the physical dims of #layout.tiled<{1,0:T(2,2)}>), got 'memref<24xf32>'}}
  %p = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<24xf32>
  return
}

// -----

func.func @to_physical_c3(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C3) element type mismatch: source has 'f32' but result has 'f16'}}
  %p = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf16>
  return
}

// -----

func.func @to_physical_c4(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C4) memory space mismatch}}
  %p = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32, 1>
  return
}

// -----

func.func @to_physical_c4_s(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>>) {
  // expected-error @+1 {{(C4) memory space of 'memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>>' does not match the layout's S(1) (expected memory space 1)}}
  %p = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>> -> memref<2x3x2x2xf32>
  return
}

// -----

func.func @from_physical_c5(%p: memref<2x3x2x2xf32, strided<[12,4,2,1], offset: 1>>) {
  // expected-error @+1 {{(C5) expects the source to have the identity layout}}
  %m = layout.from_physical %p : memref<2x3x2x2xf32, strided<[12,4,2,1], offset: 1>> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// -----

func.func @from_physical_c2(%p: memref<2x3x2x3xf32>) {
  // expected-error @+1 {{(C2) expects the source type 'memref<2x3x2x2xf32>'}}
  %m = layout.from_physical %p : memref<2x3x2x3xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// -----

// A tiled tensor encoding is checked like a memref layout.
// expected-error @+1 {{tile entries must be positive or '*'}}
func.func private @tensor_tile(tensor<4x4xf32, #layout.tiled<{1,0:T(2,0)}>>)

// -----

// The quoted form is parsed as XLA text too.
// expected-error @+1 {{invalid XLA layout '{1,0:T(2,2)'}}
func.func private @quoted_bad(memref<3x5xf32, #layout.tiled<"{1,0:T(2,2)">>)

// -----

// A memref layout is verified without its element type (MemRefLayoutAttr-
// Interface::verifyLayout gets only the shape): the message names the dims and
// layout, not a made-up f32.
// expected-error @+1 {{layout minor_to_major field contains 2 elements, but shape has 1 dimensions: {0, 1}; shape: [3]{0,1}}}
func.func private @memref_i8_bad_layout(memref<3xi8, #layout.tiled<{0,1}>>)

// -----

// A tensor encoding is verified with its element type: the real XLA type.
// expected-error @+1 {{layout minor_to_major field contains 2 elements, but shape has 1 dimensions: {0, 1}; shape: s8[3]{0,1}}}
func.func private @tensor_i8_bad_layout(tensor<3xi8, #layout.tiled<{0,1}>>)
