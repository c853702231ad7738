// Blocked transposes into destination rows that start off vector
// boundaries, with streaming stores (TransposeBlockPlan::realignRows,
// docs/lowering.md "Realigned transpose rows"): rows of 37 f32, so block row
// j starts 37 j mod 16 = 5 j mod 16 elements past a 64-byte boundary. Under
// the run-time alignment check of the buffer, the carry buffer (allocated
// next to the destination, or per parallel chunk) holds every block row's
// last vector; the head block (p_r = 0) stores the shifted rows cached,
// masked to the lanes before their first streamed line (row 1: 11 lanes),
// and the aligned ones (row 0) streaming; each later block streams the
// aligned vector made of the carry's last lanes and the new vector's first
// (row 1: lanes 11..15 of the carry, 0..10 of the new vector, at column
// 16 - 5 = 11); after the full blocks the carries are stored where they end
// (column 32 - 16 = 16), masked to the lanes after the stream (row 1: from
// column 32 - 5 = 27, lanes 11..15), then the overlapping edge block
// (column 37 - 16 = 21), masked the same way (row 0: from column 32). No
// line of a block row is both streamed and stored cached (the overlapping
// last p_k block, past sizeK / V * V, rewrites its rows cached, later). Without
// masked edges (AVX2) the
// head, carries and edge store whole vectors. An unaligned buffer takes the
// unaligned stores. Cached stores (no streaming) never realign.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0' | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=-1' | FileCheck %s --check-prefix=CACHED
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 masked-edges=false' | FileCheck %s --check-prefix=UNMASKED

// CHECK-LABEL: func.func @realigned
// CHECK: %[[CARRY:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16x16xi32>
// CHECK: scf.if
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16
// Head: row 0 streams, row 1 is stored masked (lanes 0..10) and carried.
// CHECK: vector.store %{{.*}}, %[[DST:.*]][%[[K]], %c0{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<40x37xf32>, vector<16xf32>
// CHECK: %[[HM:.*]] = arith.constant dense<[true, true, true, true, true, true, true, true, true, true, true, false, false, false, false, false]> : vector<16xi1>
// CHECK: vector.maskedstore %[[DST]][%[[ROW1:.*]], %c0{{.*}}], %[[HM]], %{{.*}} : memref<40x37xf32>, vector<16xi1>, vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[CARRY]][%c1{{.*}}, %c0{{.*}}] : memref<16x16xi32>, vector<16xi32>
// Second block: row 0 at column 16; row 1 realigned at column 11.
// CHECK: vector.store %{{.*}}, %[[DST]][%[[K]], %c16{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK: vector.load %[[CARRY]][%c1{{.*}}, %c0{{.*}}] : memref<16x16xi32>, vector<16xi32>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26] : vector<16xi32>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[DST]][%[[ROW1]], %c11{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK: vector.store %{{.*}}, %[[CARRY]][%c1{{.*}}, %c0{{.*}}]
// Row 2 (shift 10): lanes 6..15 of the carry, at column 6.
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]
// CHECK: vector.store %{{.*}}, %[[DST]][%{{.*}}, %c6{{.*}}] {alignment = 64 : i64, nontemporal = true}
// The carries, where they end, masked; then the edge block at column 21.
// CHECK: vector.load %[[CARRY]][%c1{{.*}}, %c0{{.*}}]
// CHECK: %[[CM:.*]] = arith.constant dense<[false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true]> : vector<16xi1>
// CHECK: vector.maskedstore %[[DST]][%[[ROW1]], %c16{{.*}}], %[[CM]], %{{.*}} : memref<40x37xf32>, vector<16xi1>, vector<16xf32>
// CHECK: %[[EM:.*]] = arith.constant dense<[false, false, false, false, false, false, false, false, false, false, false, true, true, true, true, true]> : vector<16xi1>
// CHECK: vector.maskedstore %[[DST]][%[[K]], %c21{{.*}}], %[[EM]], %{{.*}} : memref<40x37xf32>, vector<16xi1>, vector<16xf32>
// CHECK: } else {
// CHECK-NOT: nontemporal = true
// CHECK: return

// UNMASKED-LABEL: func.func @realigned
// UNMASKED-NOT: vector.maskedstore
// UNMASKED: vector.store %{{.*}}, %[[DST:.*]][%[[ROW1:.*]], %c0{{.*}}] : memref<40x37xf32>, vector<16xf32>
// UNMASKED: vector.shuffle %{{.*}}, %{{.*}} [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26]
// UNMASKED-NOT: vector.maskedstore
// UNMASKED: vector.store %{{.*}}, %[[DST]][%{{.*}}, %c16{{.*}}] : memref<40x37xf32>, vector<16xf32>
// UNMASKED-NOT: vector.maskedstore
// UNMASKED: vector.store %{{.*}}, %[[DST]][%{{.*}}, %c21{{.*}}] : memref<40x37xf32>, vector<16xf32>
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
