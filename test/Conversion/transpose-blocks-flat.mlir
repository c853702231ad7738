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
