// E(n) layouts the lowering cannot store are refused by the loop conversion,
// naming the user's op and the type (docs/lowering.md, "Sub-byte storage").
// RUN: layout-opt %s --layout-lower-to-llvm -split-input-file -verify-diagnostics

!t = tensor<8xi1, #layout.tiled<{0:E(1)}>>

// XLA's CPU/GPU backends reject E(n) on PRED.
func.func @pred_e1(%x: tensor<8xi1>) -> !t {
  %e = tensor.empty() : !t
  // expected-error @+1 {{'layout.relayout' op cannot be lowered to loops: E(1) on element type 'i1': XLA's CPU and GPU backends reject custom element sizes on PRED}}
  %r = layout.relayout %x, %e : tensor<8xi1>, !t -> !t
  return %r : !t
}

// -----

!m = memref<8xi2, #layout.tiled<{0:E(4)}>>

func.func @wider_slot(%x: memref<8xi2>, %y: !m) {
  // expected-error @+1 {{'layout.relayout' op cannot be lowered to loops: E(4) on element type 'i2': a packed element takes exactly its bit width, as XLA packs (xla/util.h PackIntN): use E(2) to pack or E(8) for one byte per element}}
  layout.relayout %x, %y : memref<8xi2>, !m
  return
}

// -----

!t = tensor<4x8xsi8, #layout.tiled<{1,0:E(4)}>>

func.func @byte_type_add(%a: !t, %b: !t) -> !t {
  // expected-error @+1 {{'layout.add' op cannot be lowered to loops: E(4) on element type 'si8': only sub-byte integer and f4E2M1FN elements are packed; this type takes 8 bits per element (no E, or E(8))}}
  %r = "layout.add"(%a, %b) : (!t, !t) -> !t
  return %r : !t
}

// -----

!m = memref<?x8xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>

func.func @dynamic(%x: memref<?x8xi4>, %n: index) -> !m {
  %y = memref.alloc(%n) : !m
  // expected-error @+1 {{'layout.relayout' op cannot be lowered to loops: E(4) on element type 'i4': packing of dynamic shapes is not supported yet}}
  layout.relayout %x, %y : memref<?x8xi4>, !m
  return %y : !m
}
