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
