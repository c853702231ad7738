// Rows along bf16 (2,1) sub-tiles (docs/lowering.md, "Which kernel when"):
// into the sub-tiles from a tiled source, whose reads are contiguous only
// within its tiles, the interleaved rows (two 16-lane reads, interleaved);
// out of them, strided rows (NestEmitter::RowRead): per 32-lane vector, 64
// lanes of the flat source from the sub-tile's first slot and the even or
// the odd lanes, picked by the row's slot in the sub-tile; between two equal
// sub-tiled buffers with padding slots, whole vectors of the flat source
// (no interleave); two equal ones without padding slots that stream, flat
// rows of 32 KiB (not rows of the physical innermost dim, one element).
// Row-major lines read the sub-tiles directly, 64-byte multiples or not
// (odd ones measured faster so than through the tiles, `staged`).
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=64 report-kernels' -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=64' | FileCheck %s

// KERNEL: :[[# @LINE + 18]]:3: remark: kernel: interleaved-rows
// KERNEL: :[[# @LINE + 31]]:3: remark: kernel: rows-in-runs
// KERNEL: :[[# @LINE + 41]]:3: remark: kernel: interleaved-rows
// KERNEL: :[[# @LINE + 49]]:3: remark: kernel: row-copy
// KERNEL: :[[# @LINE + 56]]:3: remark: kernel: rows-in-runs
// KERNEL: :[[# @LINE + 60]]:3: remark: kernel: rows-in-runs

!t = memref<64x256xbf16, #layout.tiled<{1,0:T(8,128)}>>
!s = memref<64x256xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
!so = memref<29x291xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
!sl = memref<2048x2048xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>

// CHECK-LABEL: func.func @tiled_to_subtiled
// CHECK: vector.load %{{.*}} : memref<8x2x8x128xbf16>, vector<16xbf16>
// CHECK: vector.load %{{.*}} : memref<8x2x8x128xbf16>, vector<16xbf16>
// CHECK: vector.interleave %{{.*}}, %{{.*}} : vector<16xi16> -> vector<32xi16>
// CHECK: vector.store %{{.*}} : memref<8x2x4x128x2x1xbf16>, vector<32xbf16>
func.func @tiled_to_subtiled(%a: !t, %b: !s) {
  layout.relayout %a, %b : !t, !s
  return
}

// CHECK-LABEL: func.func @subtiled_to_tiled
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3, 4, 5]] : memref<8x2x4x128x2x1xbf16> into memref<16384xbf16>
// CHECK: scf.for
// CHECK: %[[W:.+]] = vector.load %[[FLAT]][%{{.*}}] : memref<16384xbf16>, vector<64xbf16>
// CHECK: %[[WI:.+]] = vector.bitcast %[[W]] : vector<64xbf16> to vector<64xi16>
// CHECK: %[[EVEN:.+]] = vector.shuffle %[[WI]], %[[WI]] [0, 2, 4, {{.*}}, 62] : vector<64xi16>, vector<64xi16>
// CHECK: %[[ODD:.+]] = vector.shuffle %[[WI]], %[[WI]] [1, 3, 5, {{.*}}, 63] : vector<64xi16>, vector<64xi16>
// CHECK: arith.select %{{.*}}, %[[ODD]], %[[EVEN]] : vector<32xi16>
// CHECK: vector.store %{{.*}} {alignment = 64 : i64} : memref<8x2x8x128xbf16>, vector<32xbf16>
func.func @subtiled_to_tiled(%a: !s, %b: !t) {
  layout.relayout %a, %b : !s, !t
  return
}

// CHECK-LABEL: func.func @subtiled_same_odd
// CHECK-NOT: vector.interleave
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.*}} : memref<4x3x4x128x2x1xbf16> into memref<12288xbf16>
// CHECK: vector.load %[[FLAT]][%{{.*}}] : memref<12288xbf16>, vector<32xbf16>
// CHECK: vector.store %{{.*}} : memref<4x3x4x128x2x1xbf16>, vector<32xbf16>
// CHECK-LABEL: func.func @subtiled_same_large
func.func @subtiled_same_odd(%a: !so, %b: !so) {
  layout.relayout %a, %b : !so, !so
  return
}

// CHECK: %[[S:.+]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3, 4, 5]] : memref<256x16x4x128x2x1xbf16> into memref<256x16384xbf16>
// CHECK: %[[D:.+]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3, 4, 5]] : memref<256x16x4x128x2x1xbf16> into memref<256x16384xbf16>
// CHECK: vector.load %[[S]][%{{.*}}, %{{.*}}] : memref<256x16384xbf16>, vector<32xbf16>
// CHECK: vector.store %{{.*}}, %[[D]][%{{.*}}, %{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<256x16384xbf16>, vector<32xbf16>
func.func @subtiled_same_large(%a: !sl, %b: !sl) {
  layout.relayout %a, %b : !sl, !sl
  return
}

// CHECK-LABEL: func.func @subtiled_to_row_major
// CHECK: vector.load %{{.*}} : memref<16384xbf16>, vector<64xbf16>
// CHECK: vector.store %{{.*}}, %{{.*}} {alignment = 64 : i64} : memref<64x256xbf16>, vector<32xbf16>
func.func @subtiled_to_row_major(%a: !s, %b: memref<64x256xbf16>) {
  layout.relayout %a, %b : !s, memref<64x256xbf16>
  return
}

func.func @subtiled_to_odd_rows(%a: memref<64x250xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>, %b: memref<64x250xbf16>) {
  layout.relayout %a, %b : memref<64x250xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>, memref<64x250xbf16>
  return
}
