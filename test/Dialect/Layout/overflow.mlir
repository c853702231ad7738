// Sizes that overflow int64 get a diagnostic naming the shape, never IR whose
// emitted size, stride or index arithmetic wraps (docs/reliability.md,
// "Emitted-code overflow checks"). Static sizes only: the physical element
// count, the allocated element count times the element width, and the byte
// size of element types without an XLA equivalent (vectors).
// RUN: layout-opt %s -split-input-file -verify-diagnostics
// RUN: layout-opt %s -split-input-file -verify-diagnostics --layout-normalize-memrefs
// RUN: layout-opt %s -split-input-file -verify-diagnostics --convert-layout-to-affine

// The logical element count overflows.
// expected-error @+1 {{Shape [9223372036854775807,4]{1,0} size may overflow int64_t. (checked with 4-byte elements: the element type is not known to memref layout verification)}}
func.func private @elements(memref<9223372036854775807x4xf32, #layout.tiled<{1,0}>>)

// -----

// Tiling rounds the dim up: 2^57 + 1 elements fit (in bits of the validation
// type f32), the 2^58 physical slots do not.
// expected-error @+1 {{shape [144115188075855873]{0:T(144115188075855872)} has a physical size that may overflow int64 (checked with 4-byte elements: the element type is not known to memref layout verification)}}
func.func private @tile_rounding(memref<144115188075855873xf32, #layout.tiled<{0:T(144115188075855872)}>>)

// -----

// The element count fits but its size in bits does not (a memref layout is
// validated with 4-byte elements, since MemRefLayoutAttrInterface's
// verifyLayout gets no element type; the message names no element type
// rather than a made-up one, and the ops check the real element type).
func.func @bytes_f64() {
  // expected-error @+1 {{shape [1152921504606846975,2]{0,1} has a physical size that may overflow int64 (checked with 4-byte elements: the element type is not known to memref layout verification)}}
  %m = memref.alloc() : memref<1152921504606846975x2xf64, #layout.tiled<{0,1}>>
  return
}

// -----

// Legacy padding multiplies the padded dims.
// expected-error @+1 {{overflow}}
func.func private @pad(memref<2x3xf32, #layout.tiled<{0,1:PAD(4611686018427387904,4)}>>)

// -----

// L(n) rounds the allocation up past int64.
// expected-error @+1 {{overflow}}
func.func private @tail_alignment(memref<288230376151711743xf32, #layout.tiled<{0:L(288230376151711744)}>>)

// -----

// A vector element type has no XLA equivalent (the layout is validated with
// f32); 2^57 - 1 elements of 512 bytes overflow int64 in bytes.
func.func @vector_bytes(%m: memref<144115188075855871xvector<64xf64>, #layout.tiled<{0:T(2)}>>) {
  // expected-error @+1 {{'layout.to_physical' op the physical buffer of shape [144115188075855871] with element type 'vector<64xf64>' and layout {0:T(2)} (144115188075855872 elements) has a size that overflows int64}}
  %p = layout.to_physical %m : memref<144115188075855871xvector<64xf64>, #layout.tiled<{0:T(2)}>> -> memref<72057594037927936x2xvector<64xf64>>
  return
}

// -----

func.func @vector_relayout(%a: memref<144115188075855871xvector<64xf64>>, %b: memref<144115188075855871xvector<64xf64>, #layout.tiled<{0}>>) {
  // expected-error @+1 {{has a size that overflows int64}}
  layout.relayout %a, %b : memref<144115188075855871xvector<64xf64>>, memref<144115188075855871xvector<64xf64>, #layout.tiled<{0}>>
  return
}

// -----

// The same vector type with a small shape is fine (no diagnostic).
func.func @vector_ok(%m: memref<4x4xvector<64xf64>, #layout.tiled<{1,0:T(2,2)}>>) -> memref<2x2x2x2xvector<64xf64>> {
  %p = layout.to_physical %m : memref<4x4xvector<64xf64>, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x2x2x2xvector<64xf64>>
  return %p : memref<2x2x2x2xvector<64xf64>>
}

// -----

// The element's own size overflows: one element is too big.
func.func @vector_element(%m: memref<1xvector<4611686018427387904x4xf64>, #layout.tiled<{0}>>) {
  // expected-error @+1 {{has a size that overflows int64}}
  %p = layout.to_physical %m : memref<1xvector<4611686018427387904x4xf64>, #layout.tiled<{0}>> -> memref<1xvector<4611686018427387904x4xf64>>
  return
}
