// E(n) layouts that --layout-normalize-memrefs cannot store are reported with
// the op and the type (docs/lowering.md, "Sub-byte storage"); the IR is left
// unchanged.
// RUN: layout-opt %s --layout-normalize-memrefs -split-input-file -verify-diagnostics

func.func @pred_e1() {
  // expected-error @+1 {{'memref.alloc' op cannot normalize 'memref<8xi1, #layout.tiled<{0:E(1)}>>': E(1) on element type 'i1': XLA's CPU and GPU backends reject custom element sizes on PRED}}
  %m = memref.alloc() : memref<8xi1, #layout.tiled<{0:E(1)}>>
  return
}

// -----

func.func @byte_type(%m: memref<8xi8, #layout.tiled<{0:E(4)}>>) {
  // expected-error @-1 {{'func.func' op cannot normalize 'memref<8xi8, #layout.tiled<{0:E(4)}>>': E(4) on element type 'i8': only sub-byte integer and f4E2M1FN elements are packed; this type takes 8 bits per element (no E, or E(8))}}
  return
}

// -----

func.func @wider_than_float() {
  // expected-error @+1 {{'memref.alloc' op cannot normalize 'memref<4xf32, #layout.tiled<{0:E(16)}>>': E(16) on element type 'f32': only sub-byte integer and f4E2M1FN elements are packed; this type takes 32 bits per element (no E, or E(32))}}
  %m = memref.alloc() : memref<4xf32, #layout.tiled<{0:E(16)}>>
  return
}

// -----

func.func @not_the_bit_width() {
  // expected-error @+1 {{'memref.alloc' op cannot normalize 'memref<8xi2, #layout.tiled<{0:E(4)}>>': E(4) on element type 'i2': a packed element takes exactly its bit width, as XLA packs (xla/util.h PackIntN): use E(2) to pack or E(8) for one byte per element}}
  %m = memref.alloc() : memref<8xi2, #layout.tiled<{0:E(4)}>>
  return
}

// -----

func.func @straddles_bytes() {
  // expected-error @+1 {{'memref.alloc' op cannot normalize 'memref<8xi3, #layout.tiled<{0:E(3)}>>': E(3) on element type 'i3': 3-bit elements would straddle bytes; packing supports 1, 2 and 4-bit elements}}
  %m = memref.alloc() : memref<8xi3, #layout.tiled<{0:E(3)}>>
  return
}

// -----

func.func @dynamic(%n: index) {
  // expected-error @+1 {{'memref.alloc' op cannot normalize 'memref<?x4xi4, #layout.tiled<{1,0:E(4)}>>': E(4) on element type 'i4': packing of dynamic shapes is not supported yet}}
  %m = memref.alloc(%n) : memref<?x4xi4, #layout.tiled<{1,0:E(4)}>>
  return
}

// -----

!packed = memref<3x5xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>

func.func @view_collapsed(%m: !packed) {
  %p = layout.to_physical %m : !packed -> memref<2x2x2x4xi4>
  // expected-error @+1 {{'memref.collapse_shape' op uses 'memref<2x2x2x4xi4>', the physical view of a sub-byte packed (E(4)) buffer; layout-normalize-memrefs only rewrites its loads, stores, copies between packed buffers and deallocations}}
  %f = memref.collapse_shape %p [[0, 1, 2, 3]] : memref<2x2x2x4xi4> into memref<32xi4>
  return
}

// -----

!packed = memref<3x5xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>

func.func @written_view_of_argument(%p: memref<2x2x2x4xi4>, %v: i4) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'layout.from_physical' op views 'memref<2x2x2x4xi4>' as the sub-byte packed memref 'memref<3x5xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>', which is written or passed on; layout-normalize-memrefs packs in place only buffers allocated in the function (memref.alloc/alloca) or physical views of packed memrefs (a buffer from elsewhere is packed into a copy, which must only be read)}}
  %m = layout.from_physical %p : memref<2x2x2x4xi4> -> !packed
  memref.store %v, %m[%c0, %c0] : !packed
  return
}

// -----

!packed = memref<3x5xi4, #layout.tiled<{1,0:E(4)}>>

func.func @cast_wrong_size(%m: !packed) -> memref<15xi8> {
  // expected-error @+1 {{'builtin.unrealized_conversion_cast' op casts a #layout.tiled memref; layout-normalize-memrefs only rewrites casts between a sub-byte packed (E(n)) memref and its packed byte buffer type}}
  %b = builtin.unrealized_conversion_cast %m : !packed to memref<15xi8>
  return %b : memref<15xi8>
}
