// layout.relayout folds and canonicalization patterns.
// RUN: layout-opt %s -canonicalize | FileCheck %s

!row = tensor<3x5xf32>
!fig1 = tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
!col = tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
!even = tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>
!fig1pv = tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>

// A relayout between equal tensor types without padding slots is its
// source.
// CHECK-LABEL: func.func @same_layout_tensor
// CHECK-SAME: (%[[S:[^:]+]]: tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: return %[[S]]
func.func @same_layout_tensor(%s: !even, %d: !even) -> !even {
  %r = layout.relayout %s, %d : !even, !even -> !even
  return %r : !even
}

// With padding slots it stays: the relayout writes the padding value into
// them, whatever the source holds there (XLA semantics).
// CHECK-LABEL: func.func @same_padded_layout_tensor
// CHECK-SAME: (%[[S:[^:]+]]: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %[[D:[^:]+]]: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK-NEXT: %[[R:.+]] = layout.relayout %[[S]], %[[D]]
// CHECK-NEXT: return %[[R]]
func.func @same_padded_layout_tensor(%s: !fig1, %d: !fig1) -> !fig1 {
  %r = layout.relayout %s, %d : !fig1, !fig1 -> !fig1
  return %r : !fig1
}

// A dynamic dim under a tile > 1 may pad: it stays.
// CHECK-LABEL: func.func @same_dynamic_layout_tensor
// CHECK: layout.relayout
func.func @same_dynamic_layout_tensor(%s: tensor<?x4xf32, #layout.tiled<{1,0:T(2,2)}>>, %d: tensor<?x4xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<?x4xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %r = layout.relayout %s, %d : tensor<?x4xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<?x4xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x4xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<?x4xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// On memrefs with equal layouts without padding slots it is a memref.copy.
// CHECK-LABEL: func.func @same_layout_memref
// CHECK-SAME: (%[[A:[^:]+]]: memref<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>, %[[B:[^:]+]]: memref<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NOT: layout.relayout
func.func @same_layout_memref(%a: memref<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>, %b: memref<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  layout.relayout %a, %b : memref<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>, memref<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// Equal padded memref layouts: a memref.copy would copy the source's padding
// bytes; the relayout stays and writes PV.
// CHECK-LABEL: func.func @same_padded_layout_memref
// CHECK-NEXT: layout.relayout
// CHECK-NOT: memref.copy
func.func @same_padded_layout_memref(%a: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>, %b: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>) {
  layout.relayout %a, %b : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>
  return
}

// Identity layouts in different memory spaces: still a copy.
// CHECK-LABEL: func.func @same_layout_spaces
// CHECK-NEXT: memref.copy
func.func @same_layout_spaces(%a: memref<3x5xf32>, %b: memref<3x5xf32, 1>) {
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, 1>
  return
}

// Different layouts stay.
// CHECK-LABEL: func.func @different_layouts
// CHECK: layout.relayout
// CHECK: layout.relayout
func.func @different_layouts(%a: memref<3x5xf32>, %b: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %s: !row, %d: !fig1) -> !fig1 {
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %r = layout.relayout %s, %d : !row, !fig1 -> !fig1
  return %r : !fig1
}

// relayout(relayout(x, d1), d2) -> relayout(x, d2).
// CHECK-LABEL: func.func @compose
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3x5xf32>, %[[D1:[^:]+]]: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %[[D2:[^:]+]]: tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>)
// CHECK-NEXT: %[[R:.+]] = layout.relayout %[[X]], %[[D2]] : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
// CHECK-NEXT: return %[[R]]
func.func @compose(%x: !row, %d1: !fig1, %d2: !col) -> !col {
  %a = layout.relayout %x, %d1 : !row, !fig1 -> !fig1
  %b = layout.relayout %a, %d2 : !fig1, !col -> !col
  return %b : !col
}

// A round trip back to the source's layout disappears entirely.
// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3x5xf32>
// CHECK-NEXT: return %[[X]]
func.func @round_trip(%x: !row, %d1: !fig1, %d2: !row) -> !row {
  %a = layout.relayout %x, %d1 : !row, !fig1 -> !fig1
  %b = layout.relayout %a, %d2 : !fig1, !row -> !row
  return %b : !row
}

// Composing into a padded layout keeps the last relayout, which writes its
// PV(...): relayout(relayout(x, col), fig1pv) with x : fig1pv is not x.
// CHECK-LABEL: func.func @compose_keeps_padding_value
// CHECK-SAME: (%[[X:[^:]+]]: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>, %{{[^:]+}}: tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>, %[[D2:[^:]+]]: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>)
// CHECK-NEXT: %[[R:.+]] = layout.relayout %[[X]], %[[D2]]
// CHECK-NEXT: return %[[R]]
func.func @compose_keeps_padding_value(%x: !fig1pv, %d1: !col, %d2: !fig1pv) -> !fig1pv {
  %a = layout.relayout %x, %d1 : !fig1pv, !col -> !col
  %b = layout.relayout %a, %d2 : !col, !fig1pv -> !fig1pv
  return %b : !fig1pv
}

// The intermediate has another use: it stays.
// CHECK-LABEL: func.func @compose_multi_use
// CHECK: %[[A:.+]] = layout.relayout %{{.*}}, %{{.*}} : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK: layout.relayout %[[A]], %{{.*}} : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
func.func @compose_multi_use(%x: !row, %d1: !fig1, %d2: !col) -> (!fig1, !col) {
  %a = layout.relayout %x, %d1 : !row, !fig1 -> !fig1
  %b = layout.relayout %a, %d2 : !fig1, !col -> !col
  return %a, %b : !fig1, !col
}

// Tensor view ops fold in inverse pairs like the memref forms.
// CHECK-LABEL: func.func @tensor_views
// CHECK-SAME: (%[[T:[^:]+]]: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK-NEXT: return %[[T]]
func.func @tensor_views(%t: !fig1) -> !fig1 {
  %p = layout.to_physical %t : !fig1 -> tensor<2x3x2x2xf32>
  %q = layout.from_physical %p : tensor<2x3x2x2xf32> -> !fig1
  return %q : !fig1
}

// A `*` layout with and without its dims: distinct types, equivalent
// layouts. Without padding slots the tensor relayout is a view of the same
// buffer.
// CHECK-LABEL: func.func @equivalent_layout_tensor
// CHECK-SAME: (%[[S:[^:]+]]: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>
// CHECK-NEXT: %[[P:.+]] = layout.to_physical %[[S]] : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>> -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[V:.+]] = layout.from_physical %[[P]] : tensor<2x3x4xf32> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>
// CHECK-NEXT: return %[[V]]
func.func @equivalent_layout_tensor(%s: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>, %d: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>) -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>> {
  %r = layout.relayout %s, %d : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>, tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>
  return %r : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>
}

// With padding slots ({2,1,0:T(*,8)}: 12 of every 16 slots hold elements)
// the relayout stays and writes the padding value.
// CHECK-LABEL: func.func @equivalent_padded_layout_tensor
// CHECK-NEXT: layout.relayout
// CHECK-NOT: layout.from_physical
func.func @equivalent_padded_layout_tensor(%s: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>, %d: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>) -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>> {
  %r = layout.relayout %s, %d : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>, tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
  return %r : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
}

// On memrefs: a memref.copy between the two types (the same physical buffer
// type after --layout-normalize-memrefs).
// CHECK-LABEL: func.func @equivalent_layout_memref
// CHECK-SAME: (%[[A:[^:]+]]: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>, %[[B:[^:]+]]: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>)
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NOT: layout.relayout
func.func @equivalent_layout_memref(%a: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>, %b: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>) {
  layout.relayout %a, %b : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>, memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>
  return
}
