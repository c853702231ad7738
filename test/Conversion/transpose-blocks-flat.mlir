// Flat rows (shouldFlattenRows, docs/lowering.md "Flat rows"): a blocked
// transpose whose streaming destination rows are not whole lines walks
// each row together with the dim outside it as one flat row, stored
// through a memref.collapse_shape of the two dims. Each block row reads
// its own source row: the flat column's (row, offset) once per block and,
// per block row, a compare and a select where the offset passes the row's
// end (rows at least a block row wide), else a floordiv and a mod.
// Cached stores keep the rows one by one.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0' -canonicalize -cse | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=-1' | FileCheck %s --check-prefix=CACHED
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 parallel-threshold-bytes=0 parallel-threads=2' -canonicalize -cse | FileCheck %s --check-prefix=PAR
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 parallel-threshold-bytes=0 parallel-threads=2 masked-edges=false' -canonicalize -cse | FileCheck %s --check-prefix=PARU

// f32[20,9,48] -> {0,1,2}: physical [48,9,20], rows of 80 bytes, flat
// rows of 180 elements (720 bytes, 16 past a line: realigned). Block row t
// of the block at flat column F reads source row (F mod 20 + t - 20 w,
// F floordiv 20 + w, p_k), w = (F mod 20 + t >= 20).
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0 * -20 + d1 mod 20)>
// CHECK-DAG: #[[MID:.*]] = affine_map<(d0, d1) -> (d0 + d1 floordiv 20)>
// CHECK-DAG: #[[REM1:.*]] = affine_map<(d0) -> (d0 mod 20 + 1)>
// CHECK-DAG: #[[ROW1:.*]] = affine_map<(d0, d1) -> (d0 * -20 + d1 mod 20 + 1)>
// CHECK-DAG: #[[OFF1:.*]] = affine_map<(d0) -> (d0 - ((d0 + 1) floordiv 5) * 5 + 1)>
// CHECK-DAG: #[[MID1:.*]] = affine_map<(d0) -> ((d0 + 1) floordiv 5)>
// CHECK-LABEL: func.func @flat_select
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<48x9x20xf32> into memref<48x180xf32>
// CHECK: scf.if
// The realigned body after the head block, the whole plane along p_k
// inside (one group):
// CHECK: scf.for %[[F:.*]] = %c16 to %c176 step %c16 {
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c48 step %c16 {
// CHECK-NEXT: %[[REM:.*]] = affine.apply #{{.*}}(%[[F]])
// CHECK-NEXT: %[[WRAPS:.*]] = arith.cmpi uge, %[[REM]], %c20 : index
// CHECK-NEXT: %[[WRAP:.*]] = arith.select %[[WRAPS]], %c1, %c0 : index
// CHECK-NEXT: %[[I:.*]] = affine.apply #[[ROW]](%[[WRAP]], %[[F]])
// CHECK-NEXT: %[[J:.*]] = affine.apply #[[MID]](%[[WRAP]], %[[F]])
// CHECK-NEXT: vector.load %arg0[%[[I]], %[[J]], %[[K]]] : memref<20x9x48xf32>, vector<16xf32>
// CHECK-NEXT: vector.bitcast
// CHECK-NEXT: %[[REM_1:.*]] = affine.apply #[[REM1]](%[[F]])
// CHECK-NEXT: %[[WRAPS_1:.*]] = arith.cmpi uge, %[[REM_1]], %c20 : index
// CHECK-NEXT: %[[WRAP_1:.*]] = arith.select %[[WRAPS_1]], %c1, %c0 : index
// CHECK-NEXT: %[[I_1:.*]] = affine.apply #[[ROW1]](%[[WRAP_1]], %[[F]])
// CHECK-NEXT: %[[J_1:.*]] = affine.apply #[[MID]](%[[WRAP_1]], %[[F]])
// CHECK-NEXT: vector.load %arg0[%[[I_1]], %[[J_1]], %[[K]]] : memref<20x9x48xf32>, vector<16xf32>
// CHECK: vector.store {{.*}}, %[[FLAT]][%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<48x180xf32>, vector<16xf32>
// CHECK: vector.maskedstore %[[FLAT]][
// CHECK: return
// CACHED-LABEL: func.func @flat_select
// CACHED-NOT: collapse_shape
// CACHED: return
func.func @flat_select(%src: memref<20x9x48xf32>,
                       %dst: memref<20x9x48xf32, #layout.tiled<{0,1,2}>>) {
  layout.relayout %src, %dst
      : memref<20x9x48xf32>, memref<20x9x48xf32, #layout.tiled<{0,1,2}>>
  return
}

// Rows of 5 (shorter than a block row: a block row may pass several row
// ends): each block row's (offset, row) by a mod and a floordiv.
// CHECK-LABEL: func.func @flat_divide
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<48x7x5xf32> into memref<48x35xf32>
// The rows without realignment (the destination not 64-byte aligned;
// flat rows under 256 bytes take no groups):
// CHECK: } else {
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c48 step %c16 {
// CHECK-NEXT: scf.for %[[F:.*]] = %c0 to %c32 step %c16 {
// CHECK: %[[I:.*]] = affine.apply #[[OFF1]](%[[F]])
// CHECK-NEXT: %[[J:.*]] = affine.apply #[[MID1]](%[[F]])
// CHECK-NEXT: vector.load %arg0[%[[I]], %[[J]], %[[K]]] : memref<5x7x48xf32>, vector<16xf32>
// CHECK: return
func.func @flat_divide(%src: memref<5x7x48xf32>,
                       %dst: memref<5x7x48xf32, #layout.tiled<{0,1,2}>>) {
  layout.relayout %src, %dst
      : memref<5x7x48xf32>, memref<5x7x48xf32, #layout.tiled<{0,1,2}>>
  return
}

// 4-D: the row (17 elements) flattens with the dim just outside it (3);
// the dim between (20) stays a loop outside the plane.
// CHECK-LABEL: func.func @flat_4d
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : memref<18x20x3x17xf32> into memref<18x20x51xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c20 step %c1
// CHECK: return
func.func @flat_4d(%src: memref<17x3x20x18xf32>,
                   %dst: memref<17x3x20x18xf32, #layout.tiled<{0,1,2,3}>>) {
  layout.relayout %src, %dst
      : memref<17x3x20x18xf32>, memref<17x3x20x18xf32, #layout.tiled<{0,1,2,3}>>
  return
}

// Rows of whole lines (16 f32) stream row by row; 2-D transposes have no
// dim to flatten with (their rows, back to back, realign with junction
// lines: a collapse of both dims inside the aligned branch only).
// CHECK-LABEL: func.func @whole_lines
// CHECK-NOT: collapse_shape
// CHECK: return
func.func @whole_lines(%src: memref<16x20x40xf32>,
                       %dst: memref<16x20x40xf32, #layout.tiled<{0,1,2}>>) {
  layout.relayout %src, %dst
      : memref<16x20x40xf32>, memref<16x20x40xf32, #layout.tiled<{0,1,2}>>
  return
}
// CHECK-LABEL: func.func @two_d
// CHECK-NOT: collapse_shape
// CHECK: scf.if
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<67x45xf32> into memref<3015xf32>
// CHECK: return
func.func @two_d(%src: memref<45x67xf32>,
                 %dst: memref<45x67xf32, #layout.tiled<{0,1}>>) {
  layout.relayout %src, %dst
      : memref<45x67xf32>, memref<45x67xf32, #layout.tiled<{0,1}>>
  return
}

// Parallel flat rows (planTransposeChunks): f32[63,5,37] -> {0,1,2} on 2
// threads, physical [37,5,63], flat rows of 315 in 19 full blocks of 16.
// Chunks of p_k (16 of 37 rows) would cut the group (32 rows): 4 column
// chunks of 5 blocks instead (80 columns), the last one of 4 (up to 304)
// and the overlapping edge block at 299. Each chunk is a realigned row of
// its own, storing only its own columns: its head at its first column,
// its body from one block on, its carry flushed before its last column.
// Block row 1 starts 11 elements past a line (f32 rows of 315: 1260
// bytes): its head keeps lanes 0-4 (the chunk's first 5 columns, before
// its stream), its carry lanes 5-15 (the chunk's last 11, after it):
// the first masked head and carry.
// PAR-DAG: #[[START:.*]] = affine_map<(d0) -> (d0 * 80)>
// PAR-DAG: #[[BODY:.*]] = affine_map<(d0) -> (d0 * 80 + 16)>
// PAR-DAG: #[[END:.*]] = affine_map<(d0) -> (d0 * 80 - ((d0 + 1) floordiv 4) * 16 + 80)>
// PAR-DAG: #[[CARRY:.*]] = affine_map<(d0) -> (d0 * 80 - ((d0 + 1) floordiv 4) * 16 + 64)>
// PAR-LABEL: func.func @flat_column_chunks
// PAR-DAG: %[[HEADLANES:.*]] = arith.constant dense<[true, true, true, true, true, false, false, false, false, false, false, false, false, false, false, false]> : vector<16xi1>
// PAR-DAG: %[[TAILLANES:.*]] = arith.constant dense<[false, false, false, false, false, true, true, true, true, true, true, true, true, true, true, true]> : vector<16xi1>
// PAR: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<37x5x63xf32> into memref<37x315xf32>
// PAR: scf.if
// PAR-NEXT: scf.parallel (%[[C:.*]]) = (%c0) to (%c4) step (%c1) {
// PAR-NEXT: memref.alloca() {alignment = 64 : i64} : memref<32x16xi32>
// PAR-NEXT: %[[LAST:.*]] = arith.cmpi eq, %[[C]], %c3 : index
// PAR-NEXT: %[[HEAD:.*]] = affine.apply #[[START]](%[[C]])
// PAR: vector.maskedstore %[[FLAT]][%{{.*}}, %[[HEAD]]], %[[HEADLANES]]
// PAR: %[[FIRST:.*]] = affine.apply #[[BODY]](%[[C]])
// PAR-NEXT: %[[LIMIT:.*]] = affine.apply #[[END]](%[[C]])
// PAR-NEXT: scf.for %{{.*}} = %[[FIRST]] to %[[LIMIT]] step %c16 {
// PAR: vector.store %{{.*}}, %[[FLAT]][%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// PAR: %[[TAIL:.*]] = affine.apply #[[CARRY]](%[[C]])
// PAR-NEXT: vector.maskedstore %[[FLAT]][%{{.*}}, %[[TAIL]]], %[[TAILLANES]]
// PAR: scf.if %[[LAST]] {
// PAR: vector.maskedstore %[[FLAT]][%{{.*}}, %c299]
// PAR: scf.reduce
// PAR: return
// Without masked edges (AVX2) the head and the carry are whole vectors of
// the chunk's own columns, cached.
// PARU-DAG: #[[START:.*]] = affine_map<(d0) -> (d0 * 80)>
// PARU-DAG: #[[CARRY:.*]] = affine_map<(d0) -> (d0 * 80 - ((d0 + 1) floordiv 4) * 16 + 64)>
// PARU-LABEL: func.func @flat_column_chunks
// PARU-NOT: vector.maskedstore
// PARU: scf.parallel (%[[C:.*]]) = (%c0) to (%c4) step (%c1) {
// PARU: %[[HEAD:.*]] = affine.apply #[[START]](%[[C]])
// PARU: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %[[HEAD]]] : memref<37x315xf32>, vector<16xf32>
// PARU: %[[TAIL:.*]] = affine.apply #[[CARRY]](%[[C]])
// PARU-NEXT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %[[TAIL]]] : memref<37x315xf32>, vector<16xf32>
// PARU-NOT: vector.maskedstore
// PARU: return
func.func @flat_column_chunks(%src: memref<63x5x37xf32>,
                              %dst: memref<63x5x37xf32, #layout.tiled<{0,1,2}>>) {
  layout.relayout %src, %dst
      : memref<63x5x37xf32>, memref<63x5x37xf32, #layout.tiled<{0,1,2}>>
  return
}
