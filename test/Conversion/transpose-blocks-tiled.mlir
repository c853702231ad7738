// Blocked transposes out of tiled sources (TransposeBlocks.cpp): a tiled
// source is affine in the destination's row only between tile boundaries
// (l floordiv 8, l mod 8 for T(8,...)), so the blocks are aligned: along
// the source's contiguous dim within its tiles (8 x 8 f32 from T(8,8)),
// two of them side by side filling a 64-byte destination line, each
// block's rows read at its first index plus constant steps; across the
// source's tile rows each row at its own constant offset (16 x 16 f32
// from T(8,128): two tile rows per block, getAlignedOffsets). The
// overlapping edge block along the row (not aligned) reads each row at its
// own index, and the rows past the last whole block along the
// source-contiguous dim (a block there would straddle a tile) are copied
// element by element. Into tiles from a crossing source, the tiles are
// walked in the source's order.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=-1 report-kernels' 2>&1 | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=0 report-kernels' 2>&1 | FileCheck %s --check-prefix=SCALAR

// CHECK: remark: kernel: transpose-blocks
// CHECK: remark: kernel: transpose-blocks
// CHECK: remark: kernel: transpose-blocks
// SCALAR: remark: kernel: rows-in-runs
// SCALAR: remark: kernel: rows-in-runs
// SCALAR: remark: kernel: scalar
// CHECK-DAG: #[[MOD1:.*]] = affine_map<(d0) -> (d0 mod 8 + 1)>
// CHECK-DAG: #[[MOD7:.*]] = affine_map<(d0) -> (d0 mod 8 + 7)>
// CHECK-DAG: #[[DIV1:.*]] = affine_map<(d0) -> (d0 floordiv 8 + 1)>

// f32[40,24]{1,0:T(8,8)} -> {0,1}.
// CHECK-LABEL: func.func @t8x8
// CHECK: %[[D:.*]] = layout.to_physical %arg1 {{.*}} -> memref<24x40xf32>
// CHECK: %[[S:.*]] = layout.to_physical %arg0 {{.*}} -> memref<5x3x8x8xf32>
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c8
// CHECK: vector.load %[[S]][%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<5x3x8x8xf32>, vector<8xf32>
// CHECK: %[[I1:.*]] = affine.apply #[[MOD1]](%[[R]])
// CHECK: vector.load %[[S]][%{{.*}}, %{{.*}}, %[[I1]], %{{.*}}] : memref<5x3x8x8xf32>, vector<8xf32>
// CHECK: %[[I7:.*]] = affine.apply #[[MOD7]](%[[R]])
// CHECK: vector.load %[[S]][%{{.*}}, %{{.*}}, %[[I7]], %{{.*}}] : memref<5x3x8x8xf32>, vector<8xf32>
// The second block of the line: its own aligned tile row (R + 8), read
// before the shuffles: the two blocks go through them side by side, each
// row pair one vector of 16 lanes (8 concatenations, 3 rounds of 8).
// CHECK: %[[T8:.*]] = affine.apply #[[DIV1]](%[[R]])
// CHECK: vector.load %[[S]][%[[T8]],
// CHECK-COUNT-8: vector.shuffle {{.*}} : vector<8xi32>, vector<8xi32>
// CHECK-COUNT-24: vector.shuffle {{.*}} : vector<16xi32>, vector<16xi32>
// CHECK: vector.store %{{.*}}, %[[D]][%[[K]], %[[R]]] : memref<24x40xf32>, vector<8xf32>
// CHECK: vector.store %{{.*}}, %[[D]][%[[K]], %{{.*}}] : memref<24x40xf32>, vector<8xf32>
// SCALAR-NOT: vector.
func.func @t8x8(%src: memref<40x24xf32, #layout.tiled<{1,0:T(8,8)}>>,
                %dst: memref<40x24xf32, #layout.tiled<{0,1}>>) {
  layout.relayout %src, %dst : memref<40x24xf32, #layout.tiled<{1,0:T(8,8)}>>, memref<40x24xf32, #layout.tiled<{0,1}>>
  return
}

// f32[29,291]{1,0:T(8,128)} -> {0,1}: padding slots in the source's tiles,
// odd extents along both dims of the plane.
// CHECK-LABEL: func.func @odd
// CHECK: %[[D:.*]] = layout.to_physical %arg1 {{.*}} -> memref<291x29xf32>
// CHECK: %[[S:.*]] = layout.to_physical %arg0 {{.*}} -> memref<4x3x8x128xf32>
// Whole 16 x 16 blocks along p_k (the destination's rows) up to 288; the
// first block's rows are the source's tile rows 0 and 1 (rows 7 and 8 at
// their own constant offsets, no division per row).
// CHECK: scf.for %[[K:.*]] = %c0 to %c288 step %c16
// CHECK: %[[TC:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK: %[[TI:.*]] = affine.apply #{{.*}}(%[[K]])
// CHECK: vector.load %[[S]][%c0{{.*}}, %[[TC]], %c7{{.*}}, %[[TI]]] : memref<4x3x8x128xf32>, vector<16xf32>
// CHECK: vector.load %[[S]][%c1{{.*}}, %[[TC]], %c0{{.*}}, %[[TI]]] : memref<4x3x8x128xf32>, vector<16xf32>
// The overlapping edge block along the row: destination columns 13..28.
// CHECK: vector.store %{{.*}}, %[[D]][%[[K]], %c13] : memref<291x29xf32>, vector<16xf32>
// Rows 288..290 element by element.
// CHECK: scf.for %[[J:.*]] = %c288{{.*}} to %c291 step %c1
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c29
// CHECK: %[[X:.*]] = memref.load %[[S]]
// CHECK: memref.store %[[X]], %[[D]][%[[J]], %[[I]]] : memref<291x29xf32>
func.func @odd(%src: memref<29x291xf32, #layout.tiled<{1,0:T(8,128)}>>,
               %dst: memref<29x291xf32, #layout.tiled<{0,1}>>) {
  layout.relayout %src, %dst : memref<29x291xf32, #layout.tiled<{1,0:T(8,128)}>>, memref<29x291xf32, #layout.tiled<{0,1}>>
  return
}

// f32[16,512]{0,1} -> {1,0:T(8,128)}: the destination's tiles in the
// source's order (the walk reordered into tiles: the 4 tile columns
// outermost; a tile row across all tile columns would touch a source page
// per column); with 16-lane vectors the 2 tile rows of 8 merge into 16 x 16
// blocks across them (TileRowBlocks.cpp): each block's first 8 rows go to
// tile row 0, the next 8 to tile row 1.
// CHECK-LABEL: func.func @cm
// CHECK: %[[D:.*]] = layout.to_physical %arg1 {{.*}} -> memref<2x4x8x128xf32>
// CHECK: %[[S:.*]] = layout.to_physical %arg0 {{.*}} -> memref<512x16xf32>
// CHECK: scf.for %[[T1:.*]] = %{{.*}} to %c4
// CHECK-NOT: scf.for
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c128 step %c16
// CHECK: vector.load %[[S]][%{{.*}}, %{{.*}}] : memref<512x16xf32>, vector<16xf32>
// CHECK: vector.shuffle
// CHECK: vector.store %{{.*}}, %[[D]][%c0{{(_[0-9]+)?}}, %[[T1]], %c0{{(_[0-9]+)?}}, %[[C]]] : memref<2x4x8x128xf32>, vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[D]][%c1{{(_[0-9]+)?}}, %[[T1]], %c7{{(_[0-9]+)?}}, %[[C]]] : memref<2x4x8x128xf32>, vector<16xf32>
func.func @cm(%src: memref<16x512xf32, #layout.tiled<{0,1}>>,
              %dst: memref<16x512xf32, #layout.tiled<{1,0:T(8,128)}>>) {
  layout.relayout %src, %dst : memref<16x512xf32, #layout.tiled<{0,1}>>, memref<16x512xf32, #layout.tiled<{1,0:T(8,128)}>>
  return
}

// bf16[300,260]{1,0:T(8,128)} -> {0,1:T(8,128)}: blocks across both layouts'
// tile rows (TileRowBlocks.cpp), the destination's tile columns a middle
// dim; its last tile column holds 44 of 128 columns (a check on the middle
// dim and the row), so it is peeled: the first two tile columns whole,
// then the last with blocks up to column 44 and padding vectors after.
// CHECK-LABEL: func.func @tt_odd
// CHECK: %[[D:.*]] = layout.to_physical %arg1 {{.*}} -> memref<33x3x8x128xbf16>
// CHECK: scf.for %[[TC:.*]] = %c0 to %c2 step %c1
// CHECK: vector.store %{{.*}}, %[[D]][%{{.*}}, %[[TC]], %{{.*}}, %{{.*}}] : memref<33x3x8x128xbf16>, vector<16xbf16>
// CHECK: scf.for %[[C:.*]] = %c44 to %c108 step %c32
// CHECK: vector.store %{{.*}}, %[[D]][%{{[0-9]+}}, %c2{{(_[0-9]+)?}}, %{{[0-9]+}}, %[[C]]] : memref<33x3x8x128xbf16>, vector<32xbf16>
// CHECK: vector.store %{{.*}}, %[[D]][%{{[0-9]+}}, %c2{{(_[0-9]+)?}}, %{{[0-9]+}}, %c16{{(_[0-9]+)?}}] : memref<33x3x8x128xbf16>, vector<16xbf16>
func.func @tt_odd(%src: memref<300x260xbf16, #layout.tiled<{1,0:T(8,128)}>>,
                  %dst: memref<300x260xbf16, #layout.tiled<{0,1:T(8,128)}>>) {
  layout.relayout %src, %dst : memref<300x260xbf16, #layout.tiled<{1,0:T(8,128)}>>, memref<300x260xbf16, #layout.tiled<{0,1:T(8,128)}>>
  return
}
