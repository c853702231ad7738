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

// A tile's plane (128 rows along p_r: bf16 permuted -> T(8,128)) with AVX2's
// register file (vector-register-bytes=512) prefetches into the next group
// (TransposeBlockPlan::wrapPrefetch): the block's rows 32 ahead mod 128
// (clamped to the last block, 96), at p_k one group (512 rows) further
// once they pass the plane's end (clamped to the last block, 1000 - 16).
// With AVX-512's register file the same plane takes none.
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-register-bytes=512' | FileCheck %s --check-prefix=WRAP
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=-1 vector-register-bytes=2048' | FileCheck %s --check-prefix=NOWRAP
// WRAP-DAG: #[[$ROW:.*]] = affine_map<(d0) -> (d0 - ((d0 + 32) floordiv 128) * 128 + 32, 96)>
// WRAP-DAG: #[[$K:.*]] = affine_map<(d0, d1) -> (d0 + ((d1 + 32) floordiv 128) * 512, 984)>
// WRAP-LABEL: func.func @wrap_bf16
// WRAP: scf.for %[[G:.*]] = %{{.*}} to %{{.*}} step %c512
// WRAP: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c32
// WRAP: scf.for %[[K:.*]] = %[[G]] to %{{.*}} step %c16
// WRAP: %[[B0:.*]] = affine.min #[[$ROW]](%[[R]])
// WRAP-NEXT: %[[K0:.*]] = affine.min #[[$K]](%[[K]], %[[R]])
// WRAP-NEXT: memref.prefetch %{{.*}}[%[[B0]], %[[K0]]], read, locality<3>, data
// NOWRAP-LABEL: func.func @wrap_bf16
// NOWRAP-NOT: memref.prefetch
// NOWRAP: return
func.func @wrap_bf16(%src: memref<128x1000xbf16>, %dst: memref<125x1x8x128xbf16>) {
  %d = layout.from_physical %dst : memref<125x1x8x128xbf16> -> memref<1000x128xbf16, #layout.tiled<{1,0:T(8,128)}>>
  %s = layout.from_physical %src : memref<128x1000xbf16> -> memref<1000x128xbf16, #layout.tiled<{0,1}>>
  layout.relayout %s, %d : memref<1000x128xbf16, #layout.tiled<{0,1}>>, memref<1000x128xbf16, #layout.tiled<{1,0:T(8,128)}>>
  return
}
