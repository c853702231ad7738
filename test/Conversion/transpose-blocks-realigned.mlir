// Blocked transposes into destination rows that start off vector
// boundaries, with streaming stores (TransposeBlockPlan::realignRows,
// docs/lowering.md "Realigned transpose rows"): rows of 37 f32, so block row
// j starts 37 j mod 16 = 5 j mod 16 elements past a 64-byte boundary. Under
// the run-time alignment check of the buffer, the carry buffer (allocated
// next to the destination, or per parallel chunk) holds every block row's
// last vector; the head block (p_r = 0) streams the aligned rows (row 0)
// and gathers the lanes of the shifted ones before their first streamed
// line (row 1: 11 lanes) in the gaps buffer (rows back to back: junction
// lines), in the gap after the row before, past its tail (row 0's 5
// elements: column 16 + 5 = 21); each later block streams the aligned
// vector made of the carry's last lanes and the new vector's first (row 1:
// lanes 11..15 of the carry, 0..10 of the new vector, at column 16 - 5 =
// 11); after the full blocks the carries' lanes after the stream (row 1:
// columns 27..31, lanes 11..15 of the carry stored at column 16) go to the
// gap after their row, where column c of the row is at 16 + c - (32 -
// shift) (row 1: the store at gap column 5, its lane 11 at 16), then the
// overlapping edge block's (column 37 - 16 = 21). Then each gap's whole lines stream from the buffer into the
// destination collapsed to one dim (one or two per row: the tail plus the
// next row's head), and the group's first head and last tail are stored
// masked (they share lines with rows outside the group). No line is both
// streamed and stored cached (the overlapping last p_k block, past sizeK /
// V * V, rewrites its rows cached, later). Without masked edges (AVX2) the
// lanes go into the gaps buffer by load, select and store, and the group's
// first head and last tail element by element. An
// unaligned buffer takes the unaligned stores. Cached stores (no
// streaming) never realign.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0' | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=-1' | FileCheck %s --check-prefix=CACHED
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 masked-edges=false' | FileCheck %s --check-prefix=UNMASKED

// CHECK-LABEL: func.func @realigned
// CHECK: %[[GAPS:.*]] = memref.alloca() {alignment = 64 : i64} : memref<17x64xi32>
// CHECK: %[[CARRY:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16x16xi32>
// CHECK: scf.if
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[DST:.*]] {{\[}}[0, 1]] : memref<40x37xf32> into memref<1480xf32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16
// Head: row 0 streams, row 1's head goes to the gap after row 0 (lanes
// 0..10 at column 21) and is carried.
// CHECK: vector.store %{{.*}}, %[[DST]][%[[K]], %c0{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<40x37xf32>, vector<16xf32>
// CHECK: %[[HM:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false]> : vector<16xi1>
// CHECK: vector.maskedstore %[[GAPS]][%c1{{.*}}, %c21{{.*}}], %[[HM]], %{{.*}} : memref<17x64xi32>, vector<16xi1>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[CARRY]][%c1{{.*}}, %c0{{.*}}] : memref<16x16xi32>, vector<16xi32>
// Second block: row 0 at column 16; row 1 realigned at column 11.
// CHECK: vector.store %{{.*}}, %[[DST]][%[[K]], %c16{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK: vector.load %[[CARRY]][%c1{{.*}}, %c0{{.*}}] : memref<16x16xi32>, vector<16xi32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26] : vector<16xi32>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[DST]][%[[ROW1:.*]], %c11{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK: vector.store %{{.*}}, %[[CARRY]][%c1{{.*}}, %c0{{.*}}]
// Row 2 (shift 10): lanes 6..15 of the carry, at column 6.
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]
// CHECK: vector.store %{{.*}}, %[[DST]][%{{.*}}, %c6{{.*}}] {alignment = 64 : i64, nontemporal = true}
// The carries' lanes after the stream into the gap after their row (row
// 1: gap column 16 + 16 - 27 = 5), then the edge block's (row 0: columns
// 32..36, lanes 11..15 at column 21, gap column 16 + 21 - 32 = 5).
// CHECK: vector.load %[[CARRY]][%c1{{.*}}, %c0{{.*}}]
// CHECK: %[[CM:.*]] = arith.constant dense<[false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true]> : vector<16xi1>
// CHECK: vector.maskedstore %[[GAPS]][%c2{{.*}}, %c5{{.*}}], %[[CM]], %{{.*}} : memref<17x64xi32>, vector<16xi1>, vector<16xi32>
// CHECK: %[[EM:.*]] = arith.constant dense<[false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true]> : vector<16xi1>
// CHECK: vector.maskedstore %[[GAPS]][%c1{{.*}}, %c5{{.*}}], %[[EM]], %{{.*}} : memref<17x64xi32>, vector<16xi1>, vector<16xi32>
// The junction lines: rows K .. K + 14, one or two lines each, streamed.
// CHECK: scf.for %{{.*}} = %[[K]] to %{{.*}} step %c1
// CHECK: arith.cmpi sge, %{{.*}}, %c16
// CHECK: vector.load %[[GAPS]][%{{.*}}, %c16{{.*}}] : memref<17x64xi32>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[FLAT]][%{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<1480xf32>, vector<16xf32>
// CHECK: arith.cmpi sge, %{{.*}}, %c32
// CHECK: vector.load %[[GAPS]][%{{.*}}, %c32{{.*}}] : memref<17x64xi32>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[FLAT]][%{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<1480xf32>, vector<16xf32>
// The last row's tail and the first row's head, masked at run time.
// CHECK: vector.load %[[GAPS]][%c16{{.*}}, %c16{{.*}}]
// CHECK: arith.cmpi slt
// CHECK: vector.maskedstore %[[FLAT]][%{{.*}}], %{{.*}}, %{{.*}} : memref<1480xf32>, vector<16xi1>, vector<16xf32>
// CHECK: vector.load %[[GAPS]][%c0{{.*}}, %{{.*}}]
// CHECK: vector.maskedstore %[[FLAT]][%{{.*}}], %{{.*}}, %{{.*}} : memref<1480xf32>, vector<16xi1>, vector<16xf32>
// CHECK: } else {
// CHECK-NOT: nontemporal = true
// CHECK: return

// UNMASKED-LABEL: func.func @realigned
// UNMASKED: %[[GAPS:.*]] = memref.alloca() {alignment = 64 : i64} : memref<17x64xi32>
// UNMASKED: %[[FLAT:.*]] = memref.collapse_shape
// Row 1's head merged into the gap after row 0 (column 21) without a masked
// store: load, select, store (the buffer is the thread's own).
// UNMASKED-NOT: vector.maskedstore
// UNMASKED: %[[OLD:.*]] = vector.load %[[GAPS]][%c1{{.*}}, %c21{{.*}}] : memref<17x64xi32>, vector<16xi32>
// UNMASKED: %[[NEW:.*]] = arith.select %{{.*}}, %{{.*}}, %[[OLD]] : vector<16xi1>, vector<16xi32>
// UNMASKED: vector.store %[[NEW]], %[[GAPS]][%c1{{.*}}, %c21{{.*}}] : memref<17x64xi32>, vector<16xi32>
// UNMASKED-NOT: vector.maskedstore
// The junction lines stream; the group's last tail (row 16's gap) and
// first head go element by element from the gaps buffer (run-time counts,
// into lines shared with other rows): no masked store at all.
// UNMASKED: vector.store %{{.*}}, %[[FLAT]][%{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<1480xf32>, vector<16xf32>
// UNMASKED: scf.for
// UNMASKED: %[[E:.*]] = memref.load %[[GAPS]][%c16{{.*}}, %{{.*}}] : memref<17x64xi32>
// UNMASKED: %[[F:.*]] = arith.bitcast %[[E]] : i32 to f32
// UNMASKED: memref.store %[[F]], %[[FLAT]][%{{.*}}] : memref<1480xf32>
// UNMASKED-NOT: vector.maskedstore
// UNMASKED: memref.load %[[GAPS]][%c0{{.*}}, %{{.*}}] : memref<17x64xi32>
// UNMASKED-NOT: vector.maskedstore
// UNMASKED: } else {
// UNMASKED-NOT: vector.maskedstore
// UNMASKED: return

// CACHED-LABEL: func.func @realigned
// CACHED-NOT: memref.alloca
// CACHED-NOT: nontemporal = true
// CACHED-NOT: vector.shuffle %{{.*}}, %{{.*}} [11, 12, 13, 14, 15, 16,
// CACHED: return
func.func @realigned(%src: memref<37x40xf32>, %dst: memref<40x37xf32>) {
  %d = layout.from_physical %dst : memref<40x37xf32> -> memref<37x40xf32, #layout.tiled<{0,1}>>
  layout.relayout %src, %d : memref<37x40xf32>, memref<37x40xf32, #layout.tiled<{0,1}>>
  return
}
