// Into (q,1) sub-tiles from an untiled source that crosses them along the
// dim they interleave, at row counts that form no element groups
// (InterleavedStoreBlocks.cpp, docs/lowering.md "Interleaved stores"): the
// blocks of the plain crossing into the tiles without the sub-tile, each
// run of q block rows interleaved and stored as one vector through the
// destination's [column, u, 1] dims collapsed.
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=64 nontemporal-threshold-bytes=0 report-kernels=true' -canonicalize -cse 2>&1 | FileCheck %s
// 16-byte vectors hold no tile's rows: staged.
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=16 report-kernels=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NARROW

// u8[45,40] into T(32,128)(4,1): 64 merged rows, 45 of them elements.
// CHECK: remark: transpose-blocks: 16 x 16 blocks, 1 wide, groups of 32 rows, across tiles of 32 rows, interleaved stores of 4 rows, rows of 40 elements then 88 padding slots, 45 rows then 19 padding rows, streaming stores
// (bf16[37,40] into T(8,128)(2,1): two blocks side by side.)
// CHECK: remark: transpose-blocks: 16 x 16 blocks, 2 wide, groups of 32 rows, across tiles of 8 rows, interleaved stores of 2 rows, rows of 40 elements then 88 padding slots, 37 rows then 3 padding rows, streaming stores, 2 blocks per vector
// The aligned variant checks the destination for a whole piece, 64 bytes
// (the store of four 16-byte block rows' runs), not a block row's 16.
// CHECK: #[[$MOD64:.*]] = affine_map<()[s0] -> (s0 mod 64)>
// CHECK-LABEL: func.func @quads
// CHECK-DAG:   %[[PAD16:.*]] = arith.constant dense<0> : vector<16xi8>
// CHECK-DAG:   %[[PAD64:.*]] = arith.constant dense<0> : vector<64xi8>
// CHECK:       %[[RUNS:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4, 5]] : memref<2x1x8x128x4x1xi8> into memref<2x1x8x512xi8>
// CHECK:       %[[MIS:.*]] = affine.apply #[[$MOD64]]()[%{{.*}}]
// CHECK:       %[[OK:.*]] = arith.cmpi eq, %[[MIS]], %c0
// CHECK:       scf.if %[[OK]] {
// The padding columns 40..127 of the runs that hold rows 0..47 (slots
// 160..511 of each run), then the padding runs 48..63, whole lines.
// CHECK:       scf.for %[[R:.*]] = %c0 to %c48 step %c4 {
// CHECK:         scf.for %{{.*}} = %c160 to %c480 step %c64 {
// CHECK:           vector.store %[[PAD64]], %[[RUNS]]
// CHECK:       scf.for %{{.*}} = %c48 to %c64 step %c4 {
// CHECK:         scf.for %{{.*}} = %c0 to %c512 step %c64 {
// CHECK:           vector.store %[[PAD64]], %[[RUNS]][{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<2x1x8x512xi8>, vector<64xi8>
// A full block: four runs of four rows, each one line.
// CHECK:       %[[A:.*]] = vector.interleave %{{.*}}, %{{.*}} : vector<16xi8> -> vector<32xi8>
// CHECK:       %[[B:.*]] = vector.interleave %{{.*}}, %{{.*}} : vector<16xi8> -> vector<32xi8>
// CHECK:       %[[QUAD:.*]] = vector.interleave %[[A]], %[[B]] : vector<32xi8> -> vector<64xi8>
// CHECK:       vector.store %[[QUAD]], %[[RUNS]][{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<2x1x8x512xi8>, vector<64xi8>
// The edge block (rows 29..44, the first three stored by the last full
// block): the runs of rows 32..47 of tile 1, the last one row 44 and three
// rows of padding.
// CHECK:       vector.store %{{.*}}, %[[RUNS]][%c1, %c0, %c0, %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK:       vector.store %{{.*}}, %[[RUNS]][%c1, %c0, %c1, %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK:       vector.store %{{.*}}, %[[RUNS]][%c1, %c0, %c2, %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// CHECK:       %[[LO:.*]] = vector.interleave %{{.*}}, %[[PAD16]] : vector<16xi8> -> vector<32xi8>
// CHECK:       %[[HI:.*]] = vector.interleave %[[PAD16]], %[[PAD16]] : vector<16xi8> -> vector<32xi8>
// CHECK:       %[[TAIL:.*]] = vector.interleave %[[LO]], %[[HI]] : vector<32xi8> -> vector<64xi8>
// CHECK:       vector.store %[[TAIL]], %[[RUNS]][%c1, %c0, %c3, %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// No element-by-element store after the blocks.
// CHECK-NOT:   memref.store
// NARROW: remark: kernel: staged{{$}}
// NARROW: remark: kernel: staged{{$}}
!s8 = memref<45x40xi8, #layout.tiled<{0,1}>>
!d8 = memref<45x40xi8, #layout.tiled<{1,0:T(32,128)(4,1)}>>
func.func @quads(%s: !s8, %d: !d8) {
  layout.relayout %s, %d : !s8, !d8
  return
}

// bf16[37,40] into T(8,128)(2,1): each part's run of two rows one line of
// 32 bf16.
// CHECK-LABEL: func.func @pairs
// CHECK:       %[[PRUNS:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4, 5]] : memref<5x1x4x128x2x1xbf16> into memref<5x1x4x256xbf16>
// CHECK:       %[[P0:.*]] = vector.interleave %{{.*}}, %{{.*}} : vector<16xbf16> -> vector<32xbf16>
// CHECK:       %[[P1:.*]] = vector.interleave %{{.*}}, %{{.*}} : vector<16xbf16> -> vector<32xbf16>
// CHECK:       vector.store %[[P0]], %[[PRUNS]][%{{.*}}, %c0, %{{.*}}, %[[C0:.*]]] {alignment = 64 : i64, nontemporal = true} : memref<5x1x4x256xbf16>, vector<32xbf16>
// CHECK:       vector.store %[[P1]], %[[PRUNS]][%{{.*}}, %c0, %{{.*}}, %[[C1:.*]]] {alignment = 64 : i64, nontemporal = true} : memref<5x1x4x256xbf16>, vector<32xbf16>
!s16 = memref<37x40xbf16, #layout.tiled<{0,1}>>
!d16 = memref<37x40xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
func.func @pairs(%s: !s16, %d: !d16) {
  layout.relayout %s, %d : !s16, !d16
  return
}
