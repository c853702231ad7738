// Tiled -> tiled copies without padding slots walk the affine nest of their
// runs in the source's order (NestEmitter::prepareRunWalk, RunWalk.cpp):
// flat physical views, one loop per level of the nest, the run innermost as
// a vector row. The execution test is test/Execution/relayout-run-walk.mlir.
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=0 memory-streams=1' | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=parallel-threshold-bytes=0 nontemporal-threshold-bytes=0' | FileCheck %s --check-prefix=PAR

// f32[32,256] T(8,128) -> T(16,64): runs of 64 elements; the levels
// (outermost first) are the destination's tile rows (2), the source tile
// rows in one (2), the source tile columns (2), the 8 rows of a source tile
// and the two halves of a source tile row; (destination, source) steps
// (4096, 4096), (512, 2048), (2048, 1024), (64, 128), (1024, 64).
// CHECK-DAG: #[[SRC:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0 * 4096 + d1 * 2048 + d2 * 1024 + d3 * 128 + d4 * 64)>
// CHECK-DAG: #[[DST:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0 * 4096 + d1 * 512 + d2 * 2048 + d3 * 64 + d4 * 1024 + d5)>
// CHECK-LABEL: func.func @tiled_to_tiled
// CHECK: %[[D:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<2x4x16x64xf32> into memref<8192xf32>
// CHECK: %[[S:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3]] : memref<4x2x8x128xf32> into memref<8192xf32>
// CHECK: affine.for %[[I0:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I1:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I2:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[I3:.*]] = 0 to 8 {
// CHECK-NEXT: affine.for %[[I4:.*]] = 0 to 2 {
// CHECK: affine.apply #[[SRC]](%[[I0]], %[[I1]], %[[I2]], %[[I3]], %[[I4]])
// CHECK: scf.for %[[P:.*]] =
// CHECK: vector.load %[[S]][%{{.*}}] : memref<8192xf32>, vector<16xf32>
// CHECK: %[[AT:.*]] = affine.apply #[[DST]](%[[I0]], %[[I1]], %[[I2]], %[[I3]], %[[I4]], %[[P]])
// CHECK: vector.store %{{.*}}, %[[D]][%[[AT]]] {alignment = 64 : i64, nontemporal = true} : memref<8192xf32>, vector<16xf32>
// Every run is whole lines: the outermost level with at least 4 iterations
// (the source tile columns' level has 2, so the 8 rows) is parallel.
// PAR-LABEL: func.func @tiled_to_tiled
// PAR: scf.for %{{.*}} = %c0{{.*}} to %c2{{.*}} step %c1
// PAR: scf.for
// PAR: scf.for
// PAR: scf.parallel (%{{.*}}) = (%c0{{.*}}) to (%c8{{.*}}) step (%c1{{.*}})
// PAR: vector.store {{.*}}nontemporal = true
func.func @tiled_to_tiled(%src: memref<32x256xf32, #layout.tiled<{1,0:T(8,128)}>>,
                          %dst: memref<32x256xf32, #layout.tiled<{1,0:T(16,64)}>>) {
  layout.relayout %src, %dst : memref<32x256xf32, #layout.tiled<{1,0:T(8,128)}>>, memref<32x256xf32, #layout.tiled<{1,0:T(16,64)}>>
  return
}

// Partial tiles (padding slots: 30 rows of T(8,128) and T(16,64)) keep
// the destination walk, which writes the padding.
// CHECK-LABEL: func.func @padded
// CHECK-NOT: memref.collapse_shape
// CHECK: layout.to_physical %{{.*}} -> memref<2x4x16x64xf32>
// CHECK-NOT: memref.collapse_shape
// CHECK: return
func.func @padded(%src: memref<30x256xf32, #layout.tiled<{1,0:T(8,128)}>>,
                  %dst: memref<30x256xf32, #layout.tiled<{1,0:T(16,64)}>>) {
  layout.relayout %src, %dst : memref<30x256xf32, #layout.tiled<{1,0:T(8,128)}>>, memref<30x256xf32, #layout.tiled<{1,0:T(16,64)}>>
  return
}

// Runs shorter than a vector and a line (T(8,8) rows of 8 f32 into T(16,64)) keep the
// destination walk.
// CHECK-LABEL: func.func @short_runs
// CHECK-NOT: memref.collapse_shape
// CHECK: return
func.func @short_runs(%src: memref<32x256xf32, #layout.tiled<{1,0:T(8,8)}>>,
                      %dst: memref<32x256xf32, #layout.tiled<{1,0:T(16,64)}>>) {
  layout.relayout %src, %dst : memref<32x256xf32, #layout.tiled<{1,0:T(8,8)}>>, memref<32x256xf32, #layout.tiled<{1,0:T(16,64)}>>
  return
}
