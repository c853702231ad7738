// layout.relayout: one case per constraint of LayoutOps.td (C1..C6), named
// after it; the tensor forms of the view ops follow (C1..C6 of to_physical).
// RUN: layout-opt %s -split-input-file -verify-diagnostics

func.func @relayout_c1(%a: tensor<3x5xf32>, %b: memref<3x5xf32>) {
  // expected-error @+1 {{(C1) expects source and destination to be both ranked tensors or both memrefs}}
  "layout.relayout"(%a, %b) : (tensor<3x5xf32>, memref<3x5xf32>) -> ()
  return
}

// -----

func.func @relayout_c2(%a: memref<3x5xf32>, %b: memref<3x5xf16>) {
  // expected-error @+1 {{(C2) element type mismatch: source has 'f32' but destination has 'f16'}}
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf16>
  return
}

// -----

func.func @relayout_c3(%a: memref<3x5xf32>, %b: memref<5x3xf32>) {
  // expected-error @+1 {{(C3) shape mismatch}}
  layout.relayout %a, %b : memref<3x5xf32>, memref<5x3xf32>
  return
}

// -----

func.func @relayout_c3_dynamic(%a: tensor<?x5xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{(C3) shape mismatch}}
  %r = layout.relayout %a, %b : tensor<?x5xf32>, tensor<3x5xf32> -> tensor<3x5xf32>
  return
}

// -----

func.func @relayout_c4_tensor_no_result(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{(C4) expects one result of the destination's type 'tensor<3x5xf32>'}}
  "layout.relayout"(%a, %b) : (tensor<3x5xf32>, tensor<3x5xf32>) -> ()
  return
}

// -----

func.func @relayout_c4_result_type(%a: tensor<3x5xf32>, %b: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C4) expects one result of the destination's type 'tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>'}}
  %r = layout.relayout %a, %b : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32>
  return
}

// -----

func.func @relayout_c4_memref_result(%a: memref<3x5xf32>, %b: memref<3x5xf32>) {
  // expected-error @+1 {{result #0 must be}}
  %r = "layout.relayout"(%a, %b) : (memref<3x5xf32>, memref<3x5xf32>) -> memref<3x5xf32>
  return
}

// -----

func.func @relayout_c5_encoding(%a: tensor<3x5xf32, "other">, %b: tensor<3x5xf32>) {
  // expected-error @+1 {{(C5) expects the source to have no encoding or a #layout.tiled encoding}}
  %r = layout.relayout %a, %b : tensor<3x5xf32, "other">, tensor<3x5xf32> -> tensor<3x5xf32>
  return
}

// -----

func.func @relayout_c5_affine_map(%a: memref<3x5xf32>, %b: memref<3x5xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>) {
  // expected-error @+1 {{(C5) expects the destination to have a strided (e.g. identity) layout or a #layout.tiled layout}}
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, affine_map<(d0, d1) -> (d0 floordiv 2, d1)>>
  return
}

// -----

// A layout that is invalid for the shape is already rejected by the type
// (verifyLayout / verifyEncoding, with the library's message).
// expected-error @+1 {{layout padded_dimensions cannot pad the unbounded dynamic dimension 0}}
func.func private @relayout_c5_dynamic_pad(memref<?x3xf32>, memref<?x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>)

// -----

func.func @relayout_c6(%a: memref<8x8xf32>, %b: memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>>) {
  // expected-error @+1 {{(C6) memory space of 'memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>>' does not match the layout's S(1)}}
  layout.relayout %a, %b : memref<8x8xf32>, memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>>
  return
}

// -----

func.func @to_physical_tensor_c1(%t: tensor<3x5xf32>) {
  // expected-error @+1 {{(C1) expects the source to have a #layout.tiled encoding}}
  %p = layout.to_physical %t : tensor<3x5xf32> -> tensor<3x5xf32>
  return
}

// -----

func.func @to_physical_tensor_c2(%t: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C2) expects the result type 'tensor<2x3x2x2xf32>' (the physical dims of #layout.tiled<{1,0:T(2,2)}>), got 'tensor<24xf32>'}}
  %p = layout.to_physical %t : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<24xf32>
  return
}

// -----

func.func @to_physical_tensor_c3(%t: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C3) element type mismatch: source has 'f32' but result has 'f16'}}
  %p = layout.to_physical %t : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<2x3x2x2xf16>
  return
}

// -----

func.func @from_physical_tensor_c5(%t: tensor<2x3x2x2xf32, #layout.tiled<{3,2,1,0}>>) {
  // expected-error @+1 {{(C5) expects the source to have no encoding}}
  %p = layout.from_physical %t : tensor<2x3x2x2xf32, #layout.tiled<{3,2,1,0}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// -----

func.func @to_physical_c6(%t: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{(C6) expects both sides to be ranked tensors or both memrefs}}
  %p = layout.to_physical %t : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
  return
}
