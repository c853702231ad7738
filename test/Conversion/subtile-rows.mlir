// Rows along bf16 (2,1) sub-tiles (docs/lowering.md, "Which kernel when"):
// into the sub-tiles from a tiled source, whose reads are contiguous only
// within its tiles, the interleaved rows (two 16-lane reads, interleaved);
// out of them, strided rows (NestEmitter::RowRead): per 32-lane vector, 64
// lanes of the flat source from the sub-tile's first slot and the even or
// the odd lanes, picked by the row's slot in the sub-tile; between two equal
// sub-tiled buffers with padding slots, whole vectors of the flat source
// (no interleave); two equal ones without padding slots that stream, flat
// rows of 32 KiB (not rows of the physical innermost dim, one element).
// Row-major lines read the sub-tiles directly, whole vectors or not (odd
// ones measured faster so than through the tiles, `staged`); rows whose
// stride is not a multiple of the vector through an aligned staging row
// (`staged-rows`), copied out once the row is staged. Where the stores
// stream (STREAM), each run of the sub-tiles is prefetched 8 rows ahead
// (kRunPrefetchRows), clamped to the last row, into L2
// (kRunPrefetchLocality: locality 2), at the sub-tile's first slot (the
// line's start, in every slot's case): one prefetch per line of
// the run (128 elements x 2 slots of bf16, 8 lines; 128 x 4 slots of u8,
// 8 lines; not f64's 32 lines, more than kRunPrefetchLines). Rows of tiles
// prefetch their runs in the tile 8 KiB of destination ahead instead
// (kRunPrefetchTileBytes, @subtiled_u8_to_tiles).
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=64 report-kernels' -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=64' | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=64 nontemporal-threshold-bytes=0' | FileCheck %s --check-prefix=STREAM

// KERNEL: :[[# @LINE + 45]]:3: remark: kernel: interleaved-rows
// KERNEL: :[[# @LINE + 74]]:3: remark: kernel: rows-in-runs
// KERNEL: :[[# @LINE + 84]]:3: remark: kernel: interleaved-rows
// KERNEL: :[[# @LINE + 92]]:3: remark: kernel: row-copy
// KERNEL: :[[# @LINE + 99]]:3: remark: kernel: rows-in-runs
// KERNEL: :[[# @LINE + 147]]:3: remark: kernel: staged-rows
// KERNEL: :[[# @LINE + 183]]:3: remark: kernel: staged-rows
// KERNEL: :[[# @LINE + 194]]:3: remark: kernel: staged-rows
// KERNEL: :[[# @LINE + 205]]:3: remark: kernel: staged-rows
// KERNEL: :[[# @LINE + 226]]:3: remark: kernel: row-copy
// KERNEL: :[[# @LINE + 263]]:3: remark: kernel: rows-in-runs
// KERNEL: :[[# @LINE + 284]]:3: remark: kernel: rows-in-runs
// KERNEL: :[[# @LINE + 294]]:3: remark: kernel: transpose-blocks

// The prefetched rows of @subtiled_to_odd_rows and
// @subtiled_u8_to_odd_rows: 8 rows ahead, at most the last one.
// STREAM-DAG: #[[$AHEAD:.+]] = affine_map<(d0) -> (d0 + 8, 63)>
// STREAM-DAG: #[[$SLOT2S:.+]] = affine_map<(d0) -> (d0 mod 2)>
// STREAM-DAG: #[[$SLOT4:.+]] = affine_map<(d0) -> (d0 mod 4)>
// STREAM-DAG: #[[$AHEAD66:.+]] = affine_map<(d0) -> (d0 + 8, 66)>
// The prefetched tiles and runs of @subtiled_u8_to_tiles.
// STREAM-DAG: #[[$TILES8:.+]] = affine_map<(d0, d1) -> (d0 * 9 + d1 + 8, 80)>
// STREAM-DAG: #[[$RUN8:.+]] = affine_map<(d0, d1, d2) -> (d1 * 4096 - (d1 floordiv 9) * 36864 + ((d0 + (d1 floordiv 9) * 8) floordiv 32) * 36864 + (d2 floordiv 128) * 4096 + (((d0 + (d1 floordiv 9) * 8) mod 32) floordiv 4) * 512, 110143)>
// STREAM-DAG: #[[$LINE1:.+]] = affine_map<(d0) -> (d0 + 64)>
// STREAM-DAG: #[[$LINE7:.+]] = affine_map<(d0) -> (d0 + 448)>
// The clamps of @subtiled_u8_to_tall_tiles: tile 5 of 2 x 3 at most (from
// the first row of tiles, its whole ones: tile 0 + the column); the run's
// first line at most 15360 - 1 - 3 x 64.
// STREAM-DAG: #[[$TILES2:.+]] = affine_map<(d0) -> (d0 + 2, 5)>
// STREAM-DAG: #[[$RUN4:.+]] = affine_map<(d0, d1, d2) -> (d1 * 1024 + (d1 floordiv 3) * 9216 + (d0 floordiv 8) * 3072 + (d2 floordiv 128) * 1024 + ((d0 mod 8) floordiv 2) * 256, 15167)>

// The slot of a row in its (2,1) sub-tile.
// CHECK-DAG: #[[$SLOT2:.+]] = affine_map<(d0) -> (d0 mod 2)>

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

// The row's slot (i mod 2) is the same along it: the row is built once
// per slot, under a switch on it, each with its one shuffle.
// CHECK-LABEL: func.func @subtiled_to_tiled
// CHECK: %[[SLOT:.+]] = affine.apply #[[$SLOT2]](%{{.+}})
// CHECK-NEXT: scf.index_switch %[[SLOT]]
// CHECK-NEXT: case 0 {
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2, 3, 4, 5]] : memref<8x2x4x128x2x1xbf16> into memref<16384xbf16>
// CHECK: scf.for
// CHECK: %[[W:.+]] = vector.load %[[FLAT]][%{{.*}}] : memref<16384xbf16>, vector<64xbf16>
// CHECK: %[[WI:.+]] = vector.bitcast %[[W]] : vector<64xbf16> to vector<64xi16>
// CHECK: vector.shuffle %[[WI]], %[[WI]] [0, 2, 4, {{.*}}, 62] : vector<64xi16>, vector<64xi16>
// CHECK-NOT: arith.select
// CHECK: vector.store %{{.*}} {alignment = 64 : i64} : memref<8x2x8x128xbf16>, vector<32xbf16>
// CHECK: default {
// CHECK: %[[W1:.+]] = vector.load %{{.*}} : memref<16384xbf16>, vector<64xbf16>
// CHECK: %[[WI1:.+]] = vector.bitcast %[[W1]] : vector<64xbf16> to vector<64xi16>
// CHECK: vector.shuffle %[[WI1]], %[[WI1]] [1, 3, 5, {{.*}}, 63] : vector<64xi16>, vector<64xi16>
// CHECK-NOT: arith.select
// CHECK: vector.store %{{.*}} {alignment = 64 : i64} : memref<8x2x8x128xbf16>, vector<32xbf16>
// CHECK: return
// Read in order, a source tile per destination tile (whole tiles one after
// the other): not prefetched where the stores stream.
// STREAM-LABEL: func.func @subtiled_to_tiled
// STREAM-NOT: memref.prefetch
// STREAM: return
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

// CHECK-LABEL: func.func @subtiled_to_odd_rows
// CHECK: %[[STAGE:.+]] = memref.alloca() {alignment = 64 : i64} : memref<282xbf16>
// CHECK: %[[SRC:.+]] = layout.to_physical
// CHECK: scf.for %[[ROW:.+]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: memref.prefetch
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[SRC]] {{\[\[}}0, 1, 2, 3, 4, 5]] : memref<8x2x4x128x2x1xbf16> into memref<16384xbf16>
// CHECK-NOT: memref.prefetch
// CHECK: scf.for
// CHECK: vector.load %[[FLAT]][%{{.*}}] : memref<16384xbf16>, vector<64xbf16>
// CHECK: vector.store %{{.*}}, %[[STAGE]][%{{.*}}] : memref<282xbf16>, vector<32xbf16>
// CHECK: vector.maskedstore %[[STAGE]]
// The whole row is copied once it is staged (after the segment loop):
// the masked head from 0, the aligned body, the masked tail.
// CHECK: vector.maskedload %[[STAGE]][%c0{{.*}}]
// CHECK: vector.maskedstore %{{.*}}[%[[ROW]], %c0{{.*}}]
// CHECK: scf.for
// CHECK-NEXT: vector.load %[[STAGE]][%{{.*}}] : memref<282xbf16>, vector<32xbf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%[[ROW]], %{{.*}}] {alignment = 64 : i64} : memref<64x250xbf16>, vector<32xbf16>
// CHECK: vector.maskedload %[[STAGE]]
// CHECK: vector.maskedstore %{{.*}}[%[[ROW]], %{{.*}}]
// CHECK-NOT: memref<282xbf16>
// CHECK: return
// STREAM-LABEL: func.func @subtiled_to_odd_rows
// STREAM: %[[SRC:.+]] = layout.to_physical
// STREAM: scf.for %[[ROW:.+]] = %{{.*}} to %{{.*}} step
// STREAM: %[[AHEAD:.+]] = affine.min #[[$AHEAD]](%[[ROW]])
// STREAM: %[[SLOT:.+]] = affine.apply #[[$SLOT2S]](%[[ROW]])
// STREAM-NEXT: scf.index_switch %[[SLOT]]
// STREAM-NEXT: case 0 {
// STREAM: scf.for
// STREAM: %[[T:.+]] = affine.apply #{{.+}}(%[[AHEAD]])
// STREAM: memref.prefetch %[[SRC]][%[[T]], %{{.*}}, %{{.*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}], read, locality<2>, data : memref<8x2x4x128x2x1xbf16>
// STREAM-COUNT-6: memref.prefetch %[[SRC]][%[[T]],
// STREAM: memref.prefetch %[[SRC]][%[[T]], %{{.*}}, %{{.*}}, %c112, %{{.*}}, %c0{{.*}}]
// STREAM-NOT: memref.prefetch
// STREAM: default {
// STREAM: scf.for
// STREAM: %[[T1:.+]] = affine.apply #{{.+}}(%[[AHEAD]])
// STREAM: memref.prefetch %[[SRC]][%[[T1]], %{{.*}}, %{{.*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}], read, locality<2>
// STREAM-COUNT-7: memref.prefetch %[[SRC]][%[[T1]], {{.*}} locality<2>
// STREAM-NOT: memref.prefetch
// STREAM: vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<64x250xbf16>, vector<32xbf16>
// STREAM-NOT: memref.prefetch
// STREAM: return
func.func @subtiled_to_odd_rows(%a: memref<64x250xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>, %b: memref<64x250xbf16>) {
  layout.relayout %a, %b : memref<64x250xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>, memref<64x250xbf16>
  return
}

// u8 T(32,128)(4,1) into odd rows: four slots a sub-tile, 16 of its
// elements a line.
// STREAM-LABEL: func.func @subtiled_u8_to_odd_rows
// STREAM: memref.alloca() {alignment = 64 : i64} : memref<1093xi8>
// STREAM: %[[SRC:.+]] = layout.to_physical
// STREAM: scf.for %[[ROW:.+]] = %{{.*}} to %{{.*}} step
// STREAM: %[[AHEAD:.+]] = affine.min #[[$AHEAD66]](%[[ROW]])
// STREAM: %[[SLOT:.+]] = affine.apply #[[$SLOT4]](%[[ROW]])
// STREAM-NEXT: scf.index_switch %[[SLOT]]
// STREAM-NEXT: case 0 {
// STREAM: %[[T:.+]] = affine.apply #{{.+}}(%[[AHEAD]])
// STREAM: memref.prefetch %[[SRC]][%[[T]], %{{.*}}, %{{.*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}], read, locality<2>, data : memref<3x9x8x128x4x1xi8>
// STREAM-COUNT-6: memref.prefetch %[[SRC]][%[[T]],
// STREAM: memref.prefetch %[[SRC]][%[[T]], %{{.*}}, %{{.*}}, %c112, %{{.*}}, %c0{{.*}}]
// STREAM-NOT: memref.prefetch
// STREAM: %[[W:.+]] = vector.load %{{.*}} : memref<110592xi8>, vector<256xi8>
// STREAM-NEXT: vector.shuffle %[[W]], %[[W]] [0, 4, 8, {{.*}}, 252] : vector<256xi8>, vector<256xi8>
// STREAM-NOT: arith.select
// STREAM: case 1 {
// STREAM: memref.prefetch %[[SRC]][%{{.*}}, %{{.*}}, %{{.*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}, %c0{{[_0-9]*}}], read, locality<2>
// STREAM: %[[W1:.+]] = vector.load %{{.*}} : memref<110592xi8>, vector<256xi8>
// STREAM-NEXT: vector.shuffle %[[W1]], %[[W1]] [1, 5, 9, {{.*}}, 253] : vector<256xi8>, vector<256xi8>
// STREAM-NOT: arith.select
// STREAM: case 2 {
// STREAM: %[[W2:.+]] = vector.load %{{.*}} : memref<110592xi8>, vector<256xi8>
// STREAM-NEXT: vector.shuffle %[[W2]], %[[W2]] [2, 6, 10, {{.*}}, 254] : vector<256xi8>, vector<256xi8>
// STREAM-NOT: arith.select
// STREAM: default {
// STREAM: %[[W3:.+]] = vector.load %{{.*}} : memref<110592xi8>, vector<256xi8>
// STREAM-NEXT: vector.shuffle %[[W3]], %[[W3]] [3, 7, 11, {{.*}}, 255] : vector<256xi8>, vector<256xi8>
// STREAM-NOT: arith.select
// STREAM: return
func.func @subtiled_u8_to_odd_rows(%a: memref<67x1029xi8, #layout.tiled<{1,0:T(32,128)(4,1)}>>, %b: memref<67x1029xi8>) {
  layout.relayout %a, %b : memref<67x1029xi8, #layout.tiled<{1,0:T(32,128)(4,1)}>>, memref<67x1029xi8>
  return
}

// A tiled destination's rows of 200 bytes: staged, not prefetched (the
// rows-in-tile level is not a dim of the array: 8 rows ahead would leave
// its last, partial tile).
// STREAM-LABEL: func.func @subtiled_to_odd_tile_rows
// STREAM: memref.alloca() {alignment = 64 : i64} : memref<132xbf16>
// STREAM-NOT: memref.prefetch
// STREAM: return
func.func @subtiled_to_odd_tile_rows(%a: memref<37x300xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>, %b: memref<37x300xbf16, #layout.tiled<{1,0:T(8,100)}>>) {
  layout.relayout %a, %b : memref<37x300xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>, memref<37x300xbf16, #layout.tiled<{1,0:T(8,100)}>>
  return
}

// f64 (2,1): 16 bytes a step, 32 lines a run: staged, not prefetched.
// STREAM-LABEL: func.func @subtiled_f64_to_odd_rows
// STREAM: memref.alloca() {alignment = 64 : i64} : memref<{{[0-9]+}}xf64>
// STREAM-NOT: memref.prefetch
// STREAM: vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<13x140xf64>, vector<8xf64>
// STREAM-NOT: memref.prefetch
// STREAM: return
func.func @subtiled_f64_to_odd_rows(%a: memref<13x140xf64, #layout.tiled<{1,0:T(8,128)(2,1)}>>, %b: memref<13x140xf64>) {
  layout.relayout %a, %b : memref<13x140xf64, #layout.tiled<{1,0:T(8,128)(2,1)}>>, memref<13x140xf64>
  return
}

// (4,1) sub-tiles without outer tiles: the rows need no runs (row-copy),
// and are built once per slot all the same, one shuffle each.
// CHECK-LABEL: func.func @plain_subtiles_to_rows
// CHECK: scf.for %[[ROW:.+]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: %[[SLOT:.+]] = affine.apply #{{.+}}(%[[ROW]])
// CHECK-NEXT: scf.index_switch %[[SLOT]]
// CHECK-NEXT: case 0 {
// CHECK: %[[W:.+]] = vector.load %{{.*}} : memref<6400xi8>, vector<256xi8>
// CHECK-NEXT: vector.shuffle %[[W]], %[[W]] [0, 4, 8, {{.*}}, 252] : vector<256xi8>, vector<256xi8>
// CHECK-NOT: arith.select
// CHECK: case 1 {
// CHECK: case 2 {
// CHECK: default {
// CHECK: %[[W3:.+]] = vector.load %{{.*}} : memref<6400xi8>, vector<256xi8>
// CHECK-NEXT: vector.shuffle %[[W3]], %[[W3]] [3, 7, 11, {{.*}}, 255] : vector<256xi8>, vector<256xi8>
// CHECK-NOT: arith.select
// CHECK: return
func.func @plain_subtiles_to_rows(%a: memref<30x200xi8, #layout.tiled<{1,0:T(4,1)}>>, %b: memref<30x200xi8>) {
  layout.relayout %a, %b : memref<30x200xi8, #layout.tiled<{1,0:T(4,1)}>>, memref<30x200xi8>
  return
}

// Rows of tiles out of (4,1) sub-tiles (u8 T(32,128)(4,1) -> T(8,128): each
// row 512 bytes of a 4 KiB source tile, the next tile's a page further).
// Where the stores stream, each run is prefetched in the tile 8 KiB of
// destination ahead (kRunPrefetchTileBytes: 8 tiles of 1 KiB), on into the
// next row of tiles and clamped to the last tile (80 of 9 x 9), at the
// sub-tile's first slot, the source's flat offset clamped so that the
// run's last line is the source's (110592 - 1 - 7 x 64), into L2, in every
// slot's case; not where the stores are cached.
// CHECK-LABEL: func.func @subtiled_u8_to_tiles
// CHECK-NOT: memref.prefetch
// CHECK: return
// STREAM-LABEL: func.func @subtiled_u8_to_tiles
// STREAM: scf.for %[[TR:.+]] = %c0{{.*}} to %c8
// STREAM: scf.for %[[TC:.+]] = %c0{{.*}} to %c8
// STREAM: scf.for %[[R:.+]] = %c0{{.*}} to %c8
// STREAM: %[[AHEAD:.+]] = affine.min #[[$TILES8]](%[[TR]], %[[TC]])
// STREAM: scf.index_switch
// STREAM-NEXT: case 0 {
// STREAM: %[[FIRST:.+]] = affine.min #[[$RUN8]](%[[R]], %[[AHEAD]], %{{.+}})
// STREAM-NEXT: %[[FLAT:.+]] = memref.collapse_shape %{{.*}} : memref<3x9x8x128x4x1xi8> into memref<110592xi8>
// STREAM-NEXT: memref.prefetch %[[FLAT]][%[[FIRST]]], read, locality<2>, data : memref<110592xi8>
// STREAM-NEXT: %[[L1:.+]] = affine.apply #[[$LINE1]](%[[FIRST]])
// STREAM-NEXT: memref.prefetch %[[FLAT]][%[[L1]]], read, locality<2>, data
// STREAM-COUNT-5: memref.prefetch %[[FLAT]]
// STREAM: %[[L7:.+]] = affine.apply #[[$LINE7]](%[[FIRST]])
// STREAM-NEXT: memref.prefetch %[[FLAT]][%[[L7]]], read, locality<2>, data
// STREAM-NOT: memref.prefetch
// STREAM: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<9x9x8x128xi8>, vector<64xi8>
// STREAM: default {
// STREAM: %[[FIRST3:.+]] = affine.min #[[$RUN8]](%[[R]], %[[AHEAD]], %{{.+}})
// STREAM-NEXT: %[[FLAT3:.+]] = memref.collapse_shape
// STREAM-NEXT: memref.prefetch %[[FLAT3]][%[[FIRST3]]], read, locality<2>, data : memref<110592xi8>
// STREAM: return
func.func @subtiled_u8_to_tiles(%a: memref<67x1029xi8, #layout.tiled<{1,0:T(32,128)(4,1)}>>, %b: memref<67x1029xi8, #layout.tiled<{1,0:T(8,128)}>>) {
  layout.relayout %a, %b : memref<67x1029xi8, #layout.tiled<{1,0:T(32,128)(4,1)}>>, memref<67x1029xi8, #layout.tiled<{1,0:T(8,128)}>>
  return
}

// Into tiles taller than the source's (u8 T(8,128)(2,1) -> T(32,128): four
// source tiles per destination tile, 2 tiles of 4 KiB ahead): the position
// ahead may be a padding row the source does not hold (rows 37-63 of 40),
// and the clamp of the flat offset takes effect (the row 31 of tile 3
// would be at 22272).
// STREAM-LABEL: func.func @subtiled_u8_to_tall_tiles
// STREAM: scf.for %[[TC:.+]] = %c0{{.*}} to %c2
// STREAM: scf.for %[[R:.+]] = %c0{{.*}} to %c32
// STREAM: %[[AHEAD:.+]] = affine.min #[[$TILES2]](%[[TC]])
// STREAM: scf.index_switch
// STREAM-NEXT: case 0 {
// STREAM: %[[FIRST:.+]] = affine.min #[[$RUN4]](%[[R]], %[[AHEAD]], %{{.+}})
// STREAM-NEXT: %[[FLAT:.+]] = memref.collapse_shape %{{.*}} : memref<5x3x4x128x2x1xi8> into memref<15360xi8>
// STREAM-NEXT: memref.prefetch %[[FLAT]][%[[FIRST]]], read, locality<2>, data : memref<15360xi8>
// STREAM-COUNT-3: memref.prefetch %[[FLAT]]
// STREAM-NOT: memref.prefetch
// STREAM: vector.store
func.func @subtiled_u8_to_tall_tiles(%a: memref<37x300xi8, #layout.tiled<{1,0:T(8,128)(2,1)}>>, %b: memref<37x300xi8, #layout.tiled<{1,0:T(32,128)}>>) {
  layout.relayout %a, %b : memref<37x300xi8, #layout.tiled<{1,0:T(8,128)(2,1)}>>, memref<37x300xi8, #layout.tiled<{1,0:T(32,128)}>>
  return
}

// Not sub-tiles: the edge column of a tiled-permuted source into tiles
// (rows in runs of single elements, each a row of its own tile) is not
// prefetched.
// STREAM-LABEL: func.func @tiled_permuted_to_tiled
// STREAM-NOT: memref.prefetch
// STREAM: return
func.func @tiled_permuted_to_tiled(%a: memref<67x131xf32, #layout.tiled<{0,1:T(8,128)}>>, %b: memref<67x131xf32, #layout.tiled<{1,0:T(8,128)}>>) {
  layout.relayout %a, %b : memref<67x131xf32, #layout.tiled<{0,1:T(8,128)}>>, memref<67x131xf32, #layout.tiled<{1,0:T(8,128)}>>
  return
}
