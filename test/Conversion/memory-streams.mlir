// Two memory streams (memory-streams, default 2; docs/lowering.md, "Two
// memory streams"): a serial nest with streaming stores takes its outermost
// loop in two halves at once, each leaf (row, interleaved row, padding
// element) emitted for index t and t + h; the rest (an odd last iteration,
// partial tiles) keeps the plain loops; parallel nests take [0, h) in
// parallel chunks (when at least 4 are left). One stream: memory-streams=1,
// cached stores (below the non-temporal threshold), small parallel nests and
// blocked transposes.
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=0' | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=0 memory-streams=1' | FileCheck %s --check-prefix=ONE
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=-1' | FileCheck %s --check-prefix=ONE
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 parallel-threshold-bytes=0' | FileCheck %s --check-prefix=PAR

// CHECK-DAG: #[[PLUS2:.*]] = affine_map<(d0) -> (d0 + 2)>
// PAR-DAG: #[[PLUS10:.*]] = affine_map<(d0) -> (d0 + 10)>

// Five tile rows: rows t and t + 2 together for t < 2, then tile row 4.
!t = memref<40x300xf32, #layout.tiled<{1,0:T(8,128)}>>
// CHECK-LABEL: func.func @from_tiled
// CHECK:      affine.for %[[T:.*]] = 0 to 2 {
// CHECK-NEXT:   affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT:     affine.for %[[R:.*]] = 0 to 8 {
// CHECK:            vector.load %{{.*}}[%[[T]], %[[C]], %[[R]], %{{.*}}] : memref<5x3x8x128xf32>, vector<16xf32>
// CHECK:            vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true}
// CHECK:            %[[T2:.*]] = affine.apply #[[PLUS2]](%[[T]])
// CHECK:            vector.load %{{.*}}[%[[T2]], %[[C]], %[[R]], %{{.*}}] : memref<5x3x8x128xf32>, vector<16xf32>
// CHECK:            vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true}
// Tile row 4 alone.
// CHECK:      affine.for %{{.*}} = 0 to 2 {
// CHECK-NEXT:   affine.for %{{.*}} = 0 to 8 {
// CHECK-NOT:  #[[PLUS2]]
// CHECK:      llvm.fence
// ONE-LABEL: func.func @from_tiled
// ONE-NEXT:  memref.extract_aligned_pointer_as_index
// ONE-NOT:   affine.apply #{{.*}}(%arg2)
// ONE:       affine.for %[[T:.*]] = 0 to 5 {
// PAR-LABEL: func.func @from_tiled
// PAR:       scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
func.func @from_tiled(%src: memref<5x3x8x128xf32>, %dst: memref<40x300xf32>) {
  %s = layout.from_physical %src : memref<5x3x8x128xf32> -> !t
  layout.relayout %s, %dst : !t, memref<40x300xf32>
  return
}

// 37 rows into T(8,128): four full tile rows in two streams (padding
// columns of both stored), then the partial tile row 4 with its padding
// rows.
!u = memref<37x300xf32, #layout.tiled<{1,0:T(8,128)}>>
// CHECK-LABEL: func.func @into_tiles
// CHECK:      affine.for %[[T:.*]] = 0 to 2 {
// CHECK-NEXT:   affine.for %[[R:.*]] = 0 to 8 {
// CHECK-NEXT:     affine.for %[[C:.*]] = 0 to 2 {
// CHECK:            vector.store %{{.*}}, %{{.*}}[%[[T]], %[[C]], %[[R]], %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK:            %[[T2:.*]] = affine.apply #[[PLUS2]](%[[T]])
// CHECK:            vector.store %{{.*}}, %{{.*}}[%[[T2]], %[[C]], %[[R]], %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK:        affine.for %[[P:.*]] = 44 to 128 {
// CHECK-NEXT:     affine.store %{{.*}}, %{{.*}}[%[[T]], 2, %[[R]], %[[P]]]
// CHECK:        %[[U2:.*]] = affine.apply #[[PLUS2]](%[[T]])
// CHECK:        affine.for %[[Q:.*]] = 44 to 128 {
// CHECK-NEXT:     affine.store %{{.*}}, %{{.*}}[%[[U2]], 2, %[[R]], %[[Q]]]
// CHECK:      affine.for %{{.*}} = 0 to 5 {
// CHECK:      affine.for %[[PR:.*]] = 5 to 8 {
// CHECK:          affine.store %{{.*}}, %{{.*}}[4, %{{.*}}, %[[PR]], %{{.*}}]
// ONE-LABEL: func.func @into_tiles
// ONE-NOT:   affine.for %{{.*}} = 0 to 2 {
// ONE:       affine.for %{{.*}} = 0 to 4 {
// PAR-LABEL: func.func @into_tiles
// PAR:       scf.parallel
func.func @into_tiles(%src: memref<37x300xf32>, %dst: memref<5x3x8x128xf32>) {
  %d = layout.from_physical %dst : memref<5x3x8x128xf32> -> !u
  layout.relayout %src, %d : memref<37x300xf32>, !u
  return
}

// Interleaved rows (bf16 T(8,128)(2,1), a destination walk): four tile rows,
// the interleaved rows of t and t + 2 (each with its scalar fallback for
// misaligned rows) in one loop.
!b = memref<32x256xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
// CHECK-LABEL: func.func @interleaved
// CHECK:      affine.for %[[T:.*]] = 0 to 2 {
// CHECK:        vector.store %{{.*}}, %{{.*}}[%[[T]], {{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<4x2x4x128x2x1xbf16>, vector<32xbf16>
// CHECK:        %[[T2:.*]] = affine.apply #[[PLUS2]](%[[T]])
// CHECK:        vector.store %{{.*}}, %{{.*}}[%[[T2]], {{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<4x2x4x128x2x1xbf16>, vector<32xbf16>
// ONE-LABEL: func.func @interleaved
// ONE:       affine.for %{{.*}} = 0 to 4 {
func.func @interleaved(%src: memref<32x256xbf16>, %dst: memref<4x2x4x128x2x1xbf16>) {
  %d = layout.from_physical %dst : memref<4x2x4x128x2x1xbf16> -> !b
  layout.relayout %src, %d : memref<32x256xbf16>, !b
  return
}

// Blocked transposes keep one stream: the plane of 16 x 16 blocks as it is.
!p = memref<64x64xf32, #layout.tiled<{0,1}>>
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:   affine.for
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         vector.shuffle
// CHECK-NOT:   func.func
// CHECK-NOT:   affine.for %{{.*}} = 0 to 32
// CHECK:       return
func.func @transpose(%src: memref<64x64xf32>, %dst: memref<64x64xf32>) {
  %d = layout.from_physical %dst : memref<64x64xf32> -> !p
  layout.relayout %src, %d : memref<64x64xf32>, !p
  return
}

// Parallel at the outermost level (20 tile rows, chunks of one): the chunks
// of [0, 10) in parallel, each with its twin 10 on.
!q = memref<160x300xf32, #layout.tiled<{1,0:T(8,128)}>>
// PAR-LABEL: func.func @from_tiled_parallel
// PAR:       scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[C10:.*]]) step
// PAR:         vector.load %{{.*}}[%[[T]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<20x3x8x128xf32>, vector<16xf32>
// PAR:         %[[T2:.*]] = affine.apply #[[PLUS10]](%[[T]])
// PAR:         vector.load %{{.*}}[%[[T2]], %{{.*}}, %{{.*}}, %{{.*}}] : memref<20x3x8x128xf32>, vector<16xf32>
// PAR:         llvm.fence
// PAR:         scf.reduce
// PAR-NOT:   scf.parallel
// PAR:       return
func.func @from_tiled_parallel(%src: memref<20x3x8x128xf32>, %dst: memref<160x300xf32>) {
  %s = layout.from_physical %src : memref<20x3x8x128xf32> -> !q
  layout.relayout %s, %dst : !q, memref<160x300xf32>
  return
}
