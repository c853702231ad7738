// Staged destination rows (StagedDestinationRows.cpp, docs/lowering.md):
// i8[3,131,301] -> {1,2,0}, rows of 131 bytes back to back whose planes
// (301 x 131 = 39,431 bytes, odd) move their alignment by odd amounts: 64
// sets of row shifts, too many to realign. Each group of 256 rows (then
// one of 32) stores its blocks, cached, into one half of a per-thread stage
// of 2 x 33,600 bytes (256 x 131 + 64, whole lines), from the group's first
// row's shift S = (39431 p_0 + 131 p_k) mod 64: stage element m is the
// collapsed destination's 131 p_k - S + m. The half is the one the pending
// (previous) group does not use. After each p_r block the pending group
// streams up to 175 more lines (525 lines over 3 blocks); after the
// group, its first and last partial lines go element by element, the
// pending group's remaining lines stream, and the group becomes the
// pending one (its first whole line, its last, its origin, its half, its
// plane). The plane's end streams what is left.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 parallel-threshold-bytes=-1 vector-bytes=64 vector-register-bytes=2048 transpose-group-bytes=256' | FileCheck %s
// Cached stores (no streaming): no stage.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-bytes=64 vector-register-bytes=2048' | FileCheck %s --check-prefix=CACHED

// CHECK-DAG: #[[$GEND:.*]] = affine_map<(d0) -> (d0 + 256, 288)>
// CHECK-DAG: #[[$SHIFT:.*]] = affine_map<(d0, d1) -> ((d0 * 39431 + d1 * 131) mod 64)>
// CHECK-DAG: #[[$OTHER:.*]] = affine_map<(d0) -> (-d0 + 1)>
// CHECK-DAG: #[[$TICK:.*]] = affine_map<(d0, d1) -> (d0 + 11200, d1)>
// CHECK-DAG: #[[$AT:.*]] = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK-DAG: #[[$HEADEND:.*]] = affine_map<(d0, d1, d2) -> (((d2 + 63) floordiv 64) * 64, d0 * -131 + d1 * 131 + d2)>
// CHECK-DAG: #[[$DEST:.*]] = affine_map<(d0, d1, d2) -> (d0 * 131 - d1 + d2)>
// CHECK-DAG: #[[$FIRST:.*]] = affine_map<(d0) -> (((d0 + 63) floordiv 64) * 64)>
// CHECK-DAG: #[[$ORIGIN:.*]] = affine_map<(d0, d1) -> (d0 * 131 - d1)>
// CHECK-LABEL: func.func @staged_rows_i8
// CHECK: %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x33600xi8>
// CHECK: %[[PENDING:.*]] = memref.alloca() : memref<5xindex>
// CHECK: scf.for %[[P0:.*]] = %{{.*}} to %c3
// CHECK: scf.if
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : memref<3x301x131xi8> into memref<3x39431xi8>
// CHECK: scf.for %[[G:.*]] = %{{.*}} to %c288 step %c256
// CHECK: %[[END:.*]] = affine.min #[[$GEND]](%[[G]])
// CHECK: %[[S:.*]] = affine.apply #[[$SHIFT]](%[[P0]], %[[G]])
// CHECK: %[[PHALF:.*]] = memref.load %[[PENDING]][%c3{{.*}}] : memref<5xindex>
// CHECK: %[[HALF:.*]] = affine.apply #[[$OTHER]](%[[PHALF]])
// The blocks' rows go to the stage, cached.
// CHECK: vector.store %{{.*}}, %[[STAGE]][%[[HALF]], %{{.*}}] : memref<2x33600xi8>, vector<16xi8>
// CHECK-NOT: nontemporal
// A p_r block's tick: the pending group's next lines.
// CHECK: %[[NEXT:.*]] = memref.load %[[PENDING]][%c0{{.*}}] : memref<5xindex>
// CHECK: %[[LAST:.*]] = memref.load %[[PENDING]][%c1{{.*}}] : memref<5xindex>
// CHECK: %[[PORIGIN:.*]] = memref.load %[[PENDING]][%c2{{.*}}] : memref<5xindex>
// CHECK: %[[PH:.*]] = memref.load %[[PENDING]][%c3{{.*}}] : memref<5xindex>
// CHECK: %[[PPLANE:.*]] = memref.load %[[PENDING]][%c4{{.*}}] : memref<5xindex>
// CHECK: %[[TO:.*]] = affine.min #[[$TICK]](%[[NEXT]], %[[LAST]])
// CHECK: scf.for %[[M:.*]] = %[[NEXT]] to %[[TO]] step %c64
// CHECK: %[[LINE:.*]] = vector.load %[[STAGE]][%[[PH]], %[[M]]] {alignment = 64 : i64} : memref<2x33600xi8>, vector<64xi8>
// CHECK: %[[COL:.*]] = affine.apply #[[$AT]](%[[PORIGIN]], %[[M]])
// CHECK: vector.store %[[LINE]], %[[FLAT]][%[[PPLANE]], %[[COL]]] {alignment = 64 : i64, nontemporal = true}
// CHECK: memref.store %[[TO]], %[[PENDING]][%c0{{.*}}]
// The group's end: its head element by element (and its tail), ...
// CHECK: %[[HEADEND:.*]] = affine.min #[[$HEADEND]](%[[G]], %[[END]], %[[S]])
// CHECK: scf.for %[[H:.*]] = %[[S]] to %[[HEADEND]] step %c1
// CHECK: %[[E:.*]] = memref.load %[[STAGE]][%[[HALF]], %[[H]]] : memref<2x33600xi8>
// CHECK: %[[HCOL:.*]] = affine.apply #[[$DEST]](%[[G]], %[[S]], %[[H]])
// CHECK: memref.store %[[E]], %[[FLAT]][%[[P0]], %[[HCOL]]] : memref<3x39431xi8>
// CHECK: scf.for
// CHECK: memref.load %[[STAGE]][%[[HALF]]
// ... the pending group's other lines, and this group pending.
// CHECK: scf.for
// CHECK: nontemporal = true
// CHECK: %[[FIRSTLINE:.*]] = affine.apply #[[$FIRST]](%[[S]])
// CHECK: memref.store %[[FIRSTLINE]], %[[PENDING]][%c0{{.*}}]
// CHECK: memref.store %{{.*}}, %[[PENDING]][%c1{{.*}}]
// CHECK: %[[GORIGIN:.*]] = affine.apply #[[$ORIGIN]](%[[G]], %[[S]])
// CHECK: memref.store %[[GORIGIN]], %[[PENDING]][%c2{{.*}}]
// CHECK: memref.store %[[HALF]], %[[PENDING]][%c3{{.*}}]
// CHECK: memref.store %[[P0]], %[[PENDING]][%c4{{.*}}]
// The p_k edge block (rows 285 .. 300, the last 13 new) stores directly.
// CHECK: vector.store %{{.*}} : memref<3x301x131xi8>, vector<16xi8>
// The plane's end: the last group's lines.
// CHECK: scf.for
// CHECK: vector.load %[[STAGE]]
// CHECK: nontemporal = true
// CHECK: } else {
// CACHED-LABEL: func.func @staged_rows_i8
// CACHED-NOT: memref<2x
// CACHED-NOT: nontemporal
// CACHED: return
func.func @staged_rows_i8(%src: memref<3x131x301xi8>, %dst: memref<3x301x131xi8>) {
  %d = layout.from_physical %dst : memref<3x301x131xi8> -> memref<3x131x301xi8, #layout.tiled<{1,2,0}>>
  layout.relayout %src, %d : memref<3x131x301xi8>, memref<3x131x301xi8, #layout.tiled<{1,2,0}>>
  return
}
