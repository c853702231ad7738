// Blocked transposes of 16-bit elements on planes of at least 512 rows
// prefetch each source row they read kTransposePrefetchRows (32) rows
// ahead (TransposeBlockPlan::prefetchRows). The block's 32 rows (two 16 x 16
// blocks side by side) are clamped as a whole: one base per block,
// min(p_r + 32, 512 - 32), and a constant offset per row, so the block's
// prefetches stay in the plane without a clamp per row.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1' | FileCheck %s

// CHECK-DAG: #[[$AHEAD:.*]] = affine_map<(d0) -> (d0 + 32, 480)>
// CHECK-DAG: #[[$PLUS1:.*]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-DAG: #[[$PLUS31:.*]] = affine_map<(d0) -> (d0 + 31)>
// CHECK-LABEL: func.func @prefetch_bf16
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c32
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[B0:.*]] = affine.min #[[$AHEAD]](%[[R]])
// CHECK-NEXT: memref.prefetch %arg0[%[[B0]], %[[K]]], read, locality<3>, data : memref<512x64xbf16>
// CHECK-NEXT: vector.load %arg0[%[[R]], %[[K]]] : memref<512x64xbf16>, vector<16xbf16>
// CHECK: %[[B1:.*]] = affine.min #[[$AHEAD]](%[[R]])
// CHECK-NEXT: %[[R1:.*]] = affine.apply #[[$PLUS1]](%[[B1]])
// CHECK-NEXT: memref.prefetch %arg0[%[[R1]], %[[K]]], read, locality<3>, data
// CHECK-COUNT-29: memref.prefetch
// CHECK: %[[B31:.*]] = affine.min #[[$AHEAD]](%[[R]])
// CHECK-NEXT: %[[R31:.*]] = affine.apply #[[$PLUS31]](%[[B31]])
// CHECK-NEXT: memref.prefetch %arg0[%[[R31]], %[[K]]], read, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @prefetch_bf16(%src: memref<512x64xbf16>, %dst: memref<64x512xbf16>) {
  %d = layout.from_physical %dst : memref<64x512xbf16> -> memref<512x64xbf16, #layout.tiled<{0,1}>>
  layout.relayout %src, %d : memref<512x64xbf16>, memref<512x64xbf16, #layout.tiled<{0,1}>>
  return
}
