// Sub-byte packing E(n) in --layout-normalize-memrefs: a packed memref
// becomes ceil(slots * n / 8) bytes, the same count as layout-explain's
// allocated_bytes (E(n) packing honoured), and each access is a byte access
// plus shift/mask in XLA's order (docs/lowering.md, "Sub-byte storage").
// RUN: layout-opt %s --convert-layout-to-affine --layout-normalize-memrefs \
// RUN:   | FileCheck %s --check-prefixes=CHECK,WHOLE
// RUN: layout-explain sizes 's4[3,5]{1,0:T(2,4)E(4)}' | FileCheck %s --check-prefix=S4T24
// RUN: layout-explain sizes 'u4[3,5]{1,0:T(7)E(4)}' | FileCheck %s --check-prefix=U4T7
// RUN: layout-explain sizes 's2[2,3]{1,0:E(2)}' | FileCheck %s --check-prefix=S2
// RUN: layout-explain sizes 'u1[2,5]{1,0:E(1)}' | FileCheck %s --check-prefix=U1
// RUN: layout-explain sizes 's4[3,5]{1,0:T(2,4)E(8)}' | FileCheck %s --check-prefix=S4E8

// S4T24: physical_elements: 32
// S4T24: allocated_bytes: 16
// U4T7: physical_elements: 21
// U4T7: allocated_bytes: 11
// S2: physical_elements: 6
// S2: allocated_bytes: 2
// U1: physical_elements: 10
// U1: allocated_bytes: 2
// S4E8: physical_elements: 32
// S4E8: allocated_bytes: 32

// CHECK-LABEL: func.func @sizes
// CHECK: memref.alloc() : memref<16xi8>
// The bits after the last of the 21 slots are zeroed (byte 10).
// CHECK: %[[B:.+]] = memref.alloc() : memref<11xi8>
// CHECK: %[[Z:.+]] = arith.constant 0 : i8
// CHECK: %[[L:.+]] = arith.constant 10 : index
// CHECK: memref.store %[[Z]], %[[B]][%[[L]]] : memref<11xi8>
// CHECK: memref.alloc() : memref<2xi8>
// CHECK: memref.alloc() : memref<2xi8>
// E(8) on i4: one byte per element, as without E.
// CHECK: memref.alloc() : memref<2x2x2x4xi4>
!a = memref<3x5xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>
!b = memref<3x5xui4, #layout.tiled<{1,0:T(7)E(4)}>>
!c = memref<2x3xi2, #layout.tiled<{1,0:E(2)}>>
!d = memref<2x5xui1, #layout.tiled<{1,0:E(1)}>>
!e = memref<3x5xi4, #layout.tiled<{1,0:T(2,4)E(8)}>>
func.func @sizes() -> (!a, !b, !c, !d, !e) {
  %a = memref.alloc() : !a
  %b = memref.alloc() : !b
  %c = memref.alloc() : !c
  %d = memref.alloc() : !d
  %e = memref.alloc() : !e
  return %a, %b, %c, %d, %e : !a, !b, !c, !d, !e
}

// Slot s = 5i + j: byte s / 2, bit offset (1 - s mod 2) * 4 (the first slot
// of a byte in the high nibble). A store is read-modify-write of its byte.
// CHECK-LABEL: func.func @access
// CHECK-SAME: (%[[M:.+]]: memref<8xi8>, %[[I:.+]]: index, %[[J:.+]]: index, %[[V:.+]]: i4)
// CHECK: %[[S:.+]] = arith.addi %[[J]], %{{.+}} : index
// CHECK: %[[BYTE:.+]] = arith.divui %[[S]], %[[C2:.+]] : index
// CHECK: %[[R:.+]] = arith.remui %[[S]], %[[C2]] : index
// CHECK: %[[NEG:.+]] = arith.muli %[[R]], %{{.+}} : index
// CHECK: %[[J1:.+]] = arith.addi %[[NEG]], %{{.+}} : index
// CHECK: %[[OFF:.+]] = arith.muli %[[J1]], %{{.+}} : index
// CHECK: %[[OFF8:.+]] = arith.index_cast %[[OFF]] : index to i8
// CHECK: %[[OLD:.+]] = memref.load %[[M]][%[[BYTE]]] : memref<8xi8>
// CHECK: %[[W:.+]] = arith.extui %[[V]] : i4 to i8
// CHECK: %[[MASK:.+]] = arith.shli %{{.+}}, %[[OFF8]] : i8
// CHECK: %[[KEEP:.+]] = arith.xori %[[MASK]], %{{.+}} : i8
// CHECK: %[[KEPT:.+]] = arith.andi %[[OLD]], %[[KEEP]] : i8
// CHECK: %[[PUT:.+]] = arith.shli %[[W]], %[[OFF8]] : i8
// CHECK: %[[NEW:.+]] = arith.ori %[[KEPT]], %[[PUT]] : i8
// CHECK: memref.store %[[NEW]], %[[M]][%[[BYTE]]] : memref<8xi8>
// CHECK: %[[AOFF:.+]] = affine.apply #{{.+}}(%[[I]], %[[J]])
// CHECK: %[[AOFF8:.+]] = arith.index_cast %[[AOFF]] : index to i8
// CHECK: %[[AB:.+]] = affine.load %[[M]][(%[[I]] * 5 + %[[J]]) floordiv 2] : memref<8xi8>
// CHECK: %[[SH:.+]] = arith.shrui %[[AB]], %[[AOFF8]] : i8
// CHECK: %[[X:.+]] = arith.trunci %[[SH]] : i8 to i4
// CHECK: return %[[X]] : i4
func.func @access(%m: memref<3x5xi4, #layout.tiled<{1,0:E(4)}>>, %i: index,
                  %j: index, %v: i4) -> i4 {
  memref.store %v, %m[%i, %j] : memref<3x5xi4, #layout.tiled<{1,0:E(4)}>>
  %x = affine.load %m[%i, %j] : memref<3x5xi4, #layout.tiled<{1,0:E(4)}>>
  return %x : i4
}

// Casts between a packed memref and its byte buffer type become the
// identity (how packed bytes are handed in or read out).
// CHECK-LABEL: func.func @bytes
// CHECK-SAME: (%[[B:.+]]: memref<8xi8>) -> memref<8xi8>
// CHECK-NEXT: return %[[B]] : memref<8xi8>
func.func @bytes(%b: memref<8xi8>) -> memref<8xi8> {
  %m = builtin.unrealized_conversion_cast %b : memref<8xi8> to memref<3x5xi4, #layout.tiled<{1,0:E(4)}>>
  %c = builtin.unrealized_conversion_cast %m : memref<3x5xi4, #layout.tiled<{1,0:E(4)}>> to memref<8xi8>
  return %c : memref<8xi8>
}

// A relayout row that fills whole bytes stores them whole: the row loop over
// the 4 slots of a T(2,4) tile row is unrolled by 2 and each byte is
// assembled from its two elements (the first shifted by 4), no byte load.
// RUN: layout-opt %s --convert-layout-to-scf --layout-normalize-memrefs \
// RUN:   | FileCheck %s --check-prefix=WHOLE-SCF
// WHOLE-LABEL: func.func @relayout_rows
// WHOLE: affine.for %{{.+}} = 0 to 4 step 2 {
// WHOLE-NEXT: %[[A:.+]] = affine.load %{{.+}} : memref<4x8xi4>
// WHOLE-NEXT: %[[NEXT:.+]] = affine.apply
// WHOLE-NEXT: %[[B:.+]] = affine.load %{{.+}} : memref<4x8xi4>
// WHOLE-NEXT: %[[A8:.+]] = arith.extui %[[A]] : i4 to i8
// WHOLE-NEXT: %[[C4:.+]] = arith.constant 4 : i8
// WHOLE-NEXT: %[[HI:.+]] = arith.shli %[[A8]], %[[C4]] : i8
// WHOLE-NEXT: %[[B8:.+]] = arith.extui %[[B]] : i4 to i8
// WHOLE-NEXT: %[[C0:.+]] = arith.constant 0 : i8
// WHOLE-NEXT: %[[LO:.+]] = arith.shli %[[B8]], %[[C0]] : i8
// WHOLE-NEXT: %[[BYTE:.+]] = arith.ori %[[HI]], %[[LO]] : i8
// WHOLE-NEXT: affine.store %[[BYTE]], %{{.+}}[{{.+}} floordiv 2] : memref<16xi8>
// WHOLE-NEXT: }
// WHOLE-SCF-LABEL: func.func @relayout_rows
// WHOLE-SCF: scf.for
// WHOLE-SCF-NOT: memref.load %{{.+}} : memref<16xi8>
// WHOLE-SCF: arith.ori
// WHOLE-SCF: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<16xi8>
// WHOLE-SCF-NOT: memref.load %{{.+}} : memref<16xi8>
// WHOLE-SCF: return
func.func @relayout_rows(%s: memref<4x8xi4>,
                         %d: memref<4x8xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>) {
  layout.relayout %s, %d : memref<4x8xi4>, memref<4x8xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>
  return
}

// A buffer the function did not allocate, viewed as a packed memref that is
// only read (what --convert-layout-to-linalg makes of a relayout whose
// physical shape is the logical one): a packed copy, filled slot by slot.
// CHECK-LABEL: func.func @packed_copy
// CHECK-SAME: (%[[SRC:.+]]: memref<5xi4>) -> memref<3xi8>
// CHECK: %[[P:.+]] = memref.alloc() : memref<3xi8>
// CHECK: memref.store %{{.+}}, %[[P]][%{{.+}}] : memref<3xi8>
// CHECK: scf.for %[[I:.+]] =
// CHECK: %[[E:.+]] = memref.load %[[SRC]][%[[I]]] : memref<5xi4>
// CHECK: %[[B:.+]] = memref.load %[[P]][%{{.+}}] : memref<3xi8>
// CHECK: arith.ori
// CHECK: memref.store %{{.+}}, %[[P]][%{{.+}}] : memref<3xi8>
// CHECK: return %[[P]] : memref<3xi8>
func.func @packed_copy(%src: memref<5xi4>) -> memref<5xi4, #layout.tiled<{0:E(4)}>> {
  %m = layout.from_physical %src : memref<5xi4> -> memref<5xi4, #layout.tiled<{0:E(4)}>>
  return %m : memref<5xi4, #layout.tiled<{0:E(4)}>>
}
