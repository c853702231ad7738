// Staged source lines (TransposeBlockPlan::lineStageBytes,
// StagedSourceLines.cpp): 8-bit blocks four wide read 64 source rows at
// once; each group's p_k blocks go in spans of 256 bytes, the span's 64 x
// 256 bytes copied first (whole vectors) into a per-thread buffer that the
// span's blocks read. p_k 1100: full blocks up to 1088, groups of 1024; the
// second group's span [1024, 1088) copies the span that ends at 1088,
// from min(1024, 1088 - 256) = 832.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-bytes=64 vector-register-bytes=2048 transpose-group-bytes=1024' | FileCheck %s
// Groups of 128 rows are not whole spans: no stage.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-bytes=64 vector-register-bytes=2048 transpose-group-bytes=128' | FileCheck %s --check-prefix=NOSTAGE

// CHECK-DAG: #[[$GROUP:.*]] = affine_map<(d0) -> (d0 + 1024, 1088)>
// CHECK-DAG: #[[$LAST:.*]] = affine_map<(d0) -> (d0, 832)>
// CHECK-DAG: #[[$START:.*]] = affine_map<(d0) -> (d0, 0)>
// CHECK-DAG: #[[$SPAN:.*]] = affine_map<(d0, d1) -> (d1 + 256, d0 + 1024, 1088)>
// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1) -> (d0 - d1)>
// CHECK-LABEL: func.func @staged_i8
// CHECK: %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64x256xi8>
// CHECK: scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step %c1024
// CHECK: %[[GEND:.*]] = affine.min #[[$GROUP]](%[[G]])
// CHECK: scf.for %[[S:.*]] = %[[G]] to %[[GEND]] step %c256
// CHECK: %[[L:.*]] = affine.min #[[$LAST]](%[[S]])
// CHECK: %[[START:.*]] = affine.max #[[$START]](%[[L]])
// CHECK: scf.for %[[ROW:.*]] = %{{.*}} to %c64
// CHECK: %[[V0:.*]] = vector.load %arg0[%[[ROW]], %[[START]]] : memref<80x1100xi8>, vector<64xi8>
// CHECK: vector.store %[[V0]], %[[STAGE]][%[[ROW]], %{{.*}}] : memref<64x256xi8>, vector<64xi8>
// CHECK-COUNT-3: vector.store %{{.*}}, %[[STAGE]]
// CHECK: %[[SEND:.*]] = affine.min #[[$SPAN]](%[[G]], %[[S]])
// CHECK: scf.for %[[K:.*]] = %[[S]] to %[[SEND]] step %c16
// CHECK: %[[AT:.*]] = affine.apply #[[$IN]](%[[K]], %[[START]])
// CHECK: vector.load %[[STAGE]][%{{.*}}, %[[AT]]] : memref<64x256xi8>, vector<16xi8>
// CHECK-NOT: vector.load %arg0
// CHECK: vector.store
// NOSTAGE-LABEL: func.func @staged_i8
// NOSTAGE-NOT: memref.alloca
// NOSTAGE: return
func.func @staged_i8(%src: memref<80x1100xi8>, %dst: memref<1100x80xi8>) {
  %d = layout.from_physical %dst : memref<1100x80xi8> -> memref<80x1100xi8, #layout.tiled<{0,1}>>
  layout.relayout %src, %d : memref<80x1100xi8>, memref<80x1100xi8, #layout.tiled<{0,1}>>
  return
}

// A plane of 512 rows along p_r prefetches 64 rows ahead: into L2 where
// the lines are staged (locality 1, prefetcht2), not L1.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-bytes=64 vector-register-bytes=2048 transpose-group-bytes=1024' | FileCheck %s --check-prefix=PREFETCH
// PREFETCH-LABEL: func.func @staged_prefetch
// PREFETCH: memref.alloca() {alignment = 64 : i64} : memref<64x256xi8>
// PREFETCH: memref.prefetch %arg0[%{{.*}}, %{{.*}}], read, locality<1>, data : memref<512x1100xi8>
// PREFETCH-NOT: locality<3>
// PREFETCH: return
func.func @staged_prefetch(%src: memref<512x1100xi8>, %dst: memref<1100x512xi8>) {
  %d = layout.from_physical %dst : memref<1100x512xi8> -> memref<512x1100xi8, #layout.tiled<{0,1}>>
  layout.relayout %src, %d : memref<512x1100xi8>, memref<512x1100xi8, #layout.tiled<{0,1}>>
  return
}

// A row-major source into {0,1:T(8,128)} tiles: a tile's plane of 128 rows
// along p_r, shorter than kTransposePrefetchPlane, whose blocks prefetch
// nothing with AVX-512's register file. Streaming (STAGEDPF), the span's
// copy prefetches each line it copies 64 rows (one block width) further
// along p_r, into L2 (locality 1), each index clamped to its dim: the row
// p_tile * 128 + p_r + t + 64 (past the tile's plane, the next tile's
// rows) at most 299, the column the copy's own. Cached (STAGEDNOPF),
// none.
// The plane of 512 rows above, whose blocks prefetch 64 rows ahead
// themselves, copies without prefetches.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-bytes=64 vector-register-bytes=2048 transpose-group-bytes=256 nontemporal-threshold-bytes=0 report-kernels' 2>&1 | FileCheck %s --check-prefix=STAGEDPF
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-bytes=64 vector-register-bytes=2048 transpose-group-bytes=256 nontemporal-threshold-bytes=-1 report-kernels' 2>&1 | FileCheck %s --check-prefix=STAGEDNOPF
// STAGEDPF: remark: transpose-blocks: 16 x 16 blocks, 4 wide, groups of 1024 rows, prefetch 64 rows ahead, source lines staged 256 bytes at a time, streaming stores, 4 blocks per vector
// STAGEDPF: remark: transpose-blocks: 16 x 16 blocks, 4 wide, groups of 256 rows, source lines staged 256 bytes at a time and prefetched 64 rows ahead, across tiles of 8 rows, 301 rows then 3 padding rows, streaming stores, 4 blocks per vector
// STAGEDPF-DAG: #[[$AHEAD:.*]] = affine_map<(d0, d1, d2) -> (d0 * 128 + d1 + d2 + 64, 299)>
// STAGEDPF-LABEL: func.func @staged_prefetch
// STAGEDPF: %[[PSTAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64x256xi8>
// STAGEDPF: vector.store %{{.*}}, %[[PSTAGE]][%[[PROW:.*]], %c0{{[_0-9]*}}] : memref<64x256xi8>
// STAGEDPF-NOT: memref.prefetch
// STAGEDPF: vector.store %{{.*}}, %[[PSTAGE]][%[[PROW]], %c192{{[_0-9]*}}] : memref<64x256xi8>
// STAGEDPF-LABEL: func.func @staged_into_tiles
// STAGEDPF: %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64x256xi8>
// STAGEDPF: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// STAGEDPF: scf.for %[[P:.*]] = %{{.*}} to %{{.*}} step %c64
// STAGEDPF: %[[S:.*]] = affine.max
// STAGEDPF: scf.for %[[ROW:.*]] = %{{.*}} to %c64
// STAGEDPF: %[[V:.*]] = vector.load %arg0[%{{.*}}, %[[S]]] : memref<300x301xi8>, vector<64xi8>
// STAGEDPF: vector.store %[[V]], %[[STAGE]][%[[ROW]], %c0{{[_0-9]*}}]
// STAGEDPF: %[[R:.*]] = affine.min #[[$AHEAD]](%[[T]], %[[P]], %[[ROW]])
// STAGEDPF-NEXT: memref.prefetch %arg0[%[[R]], %[[S]]], read, locality<1>, data : memref<300x301xi8>
// STAGEDPF-COUNT-2: memref.prefetch %arg0[%{{.*}}, %{{.*}}], read, locality<1>, data
// STAGEDPF: %[[S3:.*]] = affine.apply #{{.*}}(%[[S]])
// STAGEDPF: vector.load %arg0[%{{.*}}, %[[S3]]]
// STAGEDPF: %[[R3:.*]] = affine.min #[[$AHEAD]](%[[T]], %[[P]], %[[ROW]])
// STAGEDPF-NEXT: memref.prefetch %arg0[%[[R3]], %[[S3]]], read, locality<1>, data : memref<300x301xi8>
// STAGEDPF-NOT: memref.prefetch
// STAGEDPF: vector.load %[[STAGE]]
// STAGEDNOPF: remark: transpose-blocks: 16 x 16 blocks, 4 wide, groups of 256 rows, source lines staged 256 bytes at a time, across tiles of 8 rows, 301 rows then 3 padding rows, 4 blocks per vector
// STAGEDNOPF-LABEL: func.func @staged_into_tiles
// STAGEDNOPF-NOT: memref.prefetch
// STAGEDNOPF: return
// 32-byte vectors (AVX2's) copy each line in two: one prefetch per line,
// after the copy of its first half.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-bytes=32 vector-register-bytes=512 transpose-group-bytes=256 nontemporal-threshold-bytes=0' | FileCheck %s --check-prefix=STAGED32
// STAGED32-LABEL: func.func @staged_into_tiles
// STAGED32: %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<64x256xi8>
// STAGED32: vector.store %{{.*}}, %[[STAGE]][%[[ROW:.*]], %c0{{[_0-9]*}}] : memref<64x256xi8>, vector<32xi8>
// STAGED32-NEXT: affine.min
// STAGED32-NEXT: memref.prefetch %arg0
// STAGED32-NOT: memref.prefetch
// STAGED32: vector.store %{{.*}}, %[[STAGE]][%[[ROW]], %c32{{[_0-9]*}}] : memref<64x256xi8>, vector<32xi8>
// STAGED32-NOT: memref.prefetch
// STAGED32: vector.store %{{.*}}, %[[STAGE]][%[[ROW]], %c64{{[_0-9]*}}] : memref<64x256xi8>, vector<32xi8>
// STAGED32-NEXT: affine.min
// STAGED32-NEXT: memref.prefetch %arg0
// STAGED32-COUNT-2: memref.prefetch %arg0
// STAGED32-NOT: memref.prefetch
// STAGED32: vector.store %{{.*}}, %[[STAGE]][%[[ROW]], %c224{{[_0-9]*}}] : memref<64x256xi8>, vector<32xi8>
// STAGED32-NOT: memref.prefetch
// STAGED32: vector.load %[[STAGE]]
func.func @staged_into_tiles(%src: memref<300x301xi8>, %dst: memref<300x301xi8, #layout.tiled<{0,1:T(8,128)}>>) {
  layout.relayout %src, %dst : memref<300x301xi8>, memref<300x301xi8, #layout.tiled<{0,1:T(8,128)}>>
  return
}
