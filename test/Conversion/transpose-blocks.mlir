// Copies whose destination rows read the source with a constant stride
// != 1 (the planner's in-tile-transpose class) become V x V blocks: V
// source vectors contiguous along the source's minor dim, log2(V) rounds of
// two-source vector.shuffles (rows r and r + g trade their off-diagonal
// g x g blocks, g = V/2 .. 1), V destination vectors. Floats move as same-width integers. Sizes that are
// not multiples of V take one more, overlapping block; dims shorter than V
// keep the scalar loops.
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=0' | FileCheck %s --check-prefixes=CHECK,NT
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=-1' | FileCheck %s --check-prefixes=CHECK,CACHED
// RUN: layout-opt %s '--convert-layout-to-affine=vector-bytes=32' | FileCheck %s --check-prefix=V32
// RUN: layout-opt %s '--convert-layout-to-affine=vector-bytes=0' | FileCheck %s --check-prefix=SCALAR
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=-1 vector-register-bytes=2048' | FileCheck %s --check-prefix=WIDE
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=-1' | FileCheck %s --check-prefix=NARROW
// RUN: not layout-opt %s '--convert-layout-to-affine=vector-register-bytes=-1' 2>&1 | FileCheck %s --check-prefix=BADREG
// BADREG: error: --convert-layout-to-affine: vector-register-bytes must be 0 (unknown) or a size in bytes up to 8192, got -1

// f32[64,64]{1,0} -> {0,1}: 16 x 16 blocks, 4 shuffle rounds of 16; with
// non-temporal stores the blocks are built twice, aligned streaming stores
// when the destination is 64-byte aligned at run time, plain stores
// otherwise.
// CHECK-LABEL: func.func @t64
// CHECK: %[[P:.*]] = layout.to_physical
// NT: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[P]]
// NT: scf.if
// Rows of 256 bytes: the p_k blocks in groups of 4 (64 columns, the whole
// plane here) inside the p_r blocks.
// CHECK: scf.for %[[D:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: %[[R0:.*]] = vector.load %{{.*}}[%[[D]], %[[J]]] : memref<64x64xf32>, vector<16xf32>
// CHECK: vector.bitcast %[[R0]] : vector<16xf32> to vector<16xi32>
// CHECK-COUNT-15: vector.load {{.*}} : memref<64x64xf32>, vector<16xf32>
// CHECK: vector.shuffle {{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xi32>, vector<16xi32>
// CHECK-NEXT: vector.shuffle {{.*}} [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xi32>, vector<16xi32>
// CHECK-COUNT-46: vector.shuffle
// CHECK: vector.shuffle {{.*}} [0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26, 12, 28, 14, 30] : vector<16xi32>, vector<16xi32>
// CHECK-NEXT: vector.shuffle {{.*}} [1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27, 13, 29, 15, 31] : vector<16xi32>, vector<16xi32>
// CHECK-COUNT-14: vector.shuffle
// CHECK-NOT: vector.shuffle
// CHECK: vector.bitcast {{.*}} : vector<16xi32> to vector<16xf32>
// NT-NEXT: vector.store {{.*}}, %[[P]][%[[J]], %[[D]]] {alignment = 64 : i64, nontemporal = true} : memref<64x64xf32>, vector<16xf32>
// CACHED-NEXT: vector.store {{.*}}, %[[P]][%[[J]], %[[D]]] : memref<64x64xf32>, vector<16xf32>
// NT-COUNT-15: nontemporal = true
// NT: } else {
// NT-NOT: nontemporal
// NT: llvm.fence seq_cst
// CACHED-NOT: llvm.fence
// CHECK: return
// V32-LABEL: func.func @t64
// V32: vector.load {{.*}} : memref<64x64xf32>, vector<8xf32>
// V32: vector.shuffle {{.*}} [0, 1, 2, 3, 8, 9, 10, 11] : vector<8xi32>, vector<8xi32>
// V32: vector.store {{.*}} : memref<64x64xf32>, vector<8xf32>
// SCALAR-LABEL: func.func @t64
// SCALAR-NOT: vector.
// SCALAR: return
func.func @t64(%src: memref<64x64xf32>,
               %dst: memref<64x64xf32, #layout.tiled<{0,1}>>) {
  layout.relayout %src, %dst
      : memref<64x64xf32>, memref<64x64xf32, #layout.tiled<{0,1}>>
  return
}

// A 3-D reversal with edges: physical [40,20,18]; per index of the
// middle dim (outermost), a plane of blocks over dims 0 (the source's minor
// dim: 0 and 16, then an overlapping block at 24 that stores only its
// rows from 32 on, the others stored already) and 2 (the row: 0, then
// an overlapping block at 2, innermost). Rows of 72 bytes are never all
// aligned: plain stores only. Streaming (NT), the rows are flattened with
// the middle dim instead (transpose-blocks-flat.mlir).
// CHECK-LABEL: func.func @perm3_210_edges
// NT: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<40x20x18xf32> into memref<40x360xf32>
// CACHED: %[[P:.*]] = layout.to_physical
// CACHED-NOT: scf.if
// CACHED: scf.for %[[M:.*]] = %{{.*}} to %c20 step %c1
// CACHED: scf.for %[[J:.*]] = %{{.*}} to %c32 step %c16
// CACHED: vector.load %{{.*}}[%c0{{.*}}, %[[M]], %[[J]]] : memref<18x20x40xf32>, vector<16xf32>
// CACHED: vector.store {{.*}}, %[[P]][%[[J]], %[[M]], %c0{{.*}}] : memref<40x20x18xf32>, vector<16xf32>
// CACHED: vector.load %{{.*}}[%c2{{.*}}, %[[M]], %[[J]]] : memref<18x20x40xf32>, vector<16xf32>
// CACHED: vector.store {{.*}}, %[[P]][%[[J]], %[[M]], %c2{{.*}}] : memref<40x20x18xf32>, vector<16xf32>
// CACHED: }
// CACHED: vector.load %{{.*}}[%c0{{.*}}, %[[M]], %c24{{.*}}] : memref<18x20x40xf32>, vector<16xf32>
// CACHED-NOT: vector.store {{.*}}, %[[P]][%c24
// CACHED: vector.store {{.*}}, %[[P]][%c32{{.*}}, %[[M]], %c0{{.*}}] : memref<40x20x18xf32>, vector<16xf32>
// CHECK: return
func.func @perm3_210_edges(%src: memref<18x20x40xf32>,
                           %dst: memref<18x20x40xf32, #layout.tiled<{0,1,2}>>) {
  layout.relayout %src, %dst
      : memref<18x20x40xf32>, memref<18x20x40xf32, #layout.tiled<{0,1,2}>>
  return
}

// bf16: 64-byte vectors would give 32 x 32 blocks (2 KiB, more than the
// register file); the transposes are 16 x 16 on i16 lanes, two side by side
// along the row and in each 32-lane register (row r of both blocks back to
// back). Streaming, each destination line is that register, one store;
// cached, its halves are stored back to back.
// CHECK-LABEL: func.func @t_bf16
// CHECK: vector.load {{.*}} : memref<32x64xbf16>, vector<16xbf16>
// CHECK: vector.bitcast {{.*}} : vector<16xbf16> to vector<16xi16>
// CHECK-COUNT-31: vector.load {{.*}} : memref<32x64xbf16>, vector<16xbf16>
// CHECK: vector.shuffle {{.*}} : vector<16xi16>, vector<16xi16>
// CHECK: vector.shuffle {{.*}} : vector<32xi16>, vector<32xi16>
// NT: vector.shuffle {{.*}} : vector<16xbf16>, vector<16xbf16>
// NT-NEXT: vector.store {{.*}}[%{{.*}}, %c0{{.*}}] {alignment = 64 : i64, nontemporal = true} : memref<64x32xbf16>, vector<32xbf16>
// CACHED: vector.bitcast {{.*}} : vector<16xi16> to vector<16xbf16>
// CACHED-NEXT: vector.store {{.*}}[%[[J:.*]], %c0{{.*}}] : memref<64x32xbf16>, vector<16xbf16>
// CACHED: vector.bitcast {{.*}} : vector<16xi16> to vector<16xbf16>
// CACHED-NEXT: vector.store {{.*}}[%[[J]], %c16{{.*}}] : memref<64x32xbf16>, vector<16xbf16>
// CHECK: return
func.func @t_bf16(%src: memref<32x64xbf16>,
                  %dst: memref<32x64xbf16, #layout.tiled<{0,1}>>) {
  layout.relayout %src, %dst
      : memref<32x64xbf16>, memref<32x64xbf16, #layout.tiled<{0,1}>>
  return
}

// The destination's rows (5 elements) are shorter than 16: 4 x 4 blocks
// (the row: one at 0, one overlapping at 1). Streaming, flattened with the
// middle dim into rows of 35: 16 x 16 blocks.
// CHECK-LABEL: func.func @short
// NT: memref.collapse_shape %{{.*}} : memref<40x7x5xf32> into memref<40x35xf32>
// NT: vector.load {{.*}} : memref<5x7x40xf32>, vector<16xf32>
// CACHED: vector.load {{.*}} : memref<5x7x40xf32>, vector<4xf32>
// CACHED: vector.shuffle {{.*}} [0, 1, 4, 5] : vector<4xi32>, vector<4xi32>
// CACHED: vector.store {{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %c0{{.*}}] : memref<40x7x5xf32>, vector<4xf32>
// CACHED: vector.store {{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %c1{{.*}}] : memref<40x7x5xf32>, vector<4xf32>
// CHECK: return
func.func @short(%src: memref<5x7x40xf32>,
                 %dst: memref<5x7x40xf32, #layout.tiled<{0,1,2}>>) {
  layout.relayout %src, %dst
      : memref<5x7x40xf32>, memref<5x7x40xf32, #layout.tiled<{0,1,2}>>
  return
}

// Rows of 3 elements: no block fits, the scalar nest. Streaming, the flat
// rows of 21 take 16 x 16 blocks.
// CHECK-LABEL: func.func @tiny
// CACHED-NOT: vector.
// NT: memref.collapse_shape %{{.*}} : memref<40x7x3xf32> into memref<40x21xf32>
// NT: vector.load {{.*}} : memref<3x7x40xf32>, vector<16xf32>
// CHECK: return
func.func @tiny(%src: memref<3x7x40xf32>,
                %dst: memref<3x7x40xf32, #layout.tiled<{0,1,2}>>) {
  layout.relayout %src, %dst
      : memref<3x7x40xf32>, memref<3x7x40xf32, #layout.tiled<{0,1,2}>>
  return
}

// Cached stores into destination rows 1 KiB apart (f32[256,64] -> {0,1}):
// with a register file that holds two 16 x 16 blocks (AVX-512: 2048 bytes),
// two blocks side by side along the row, each destination row's two parts
// stored back to back; with an unknown register file, one block.
// WIDE-LABEL: func.func @pow2_rows
// WIDE: scf.for %[[R:.*]] = %c0{{.*}} to %c256{{.*}} step %c32
// WIDE: scf.for %[[K:.*]] = %c0{{.*}} to %c64{{.*}} step %c16
// WIDE-COUNT-32: vector.load %arg0
// WIDE: vector.store %{{.*}}, %{{.*}}[%[[K]], %[[R]]] : memref<64x256xf32>, vector<16xf32>
// WIDE-NOT: vector.load
// WIDE: vector.store %{{.*}}, %{{.*}}[%[[K]], %{{.*}}] : memref<64x256xf32>, vector<16xf32>
// WIDE: return
// NARROW-LABEL: func.func @pow2_rows
// NARROW: scf.for %{{.*}} = %c0{{.*}} to %c256{{.*}} step %c16
// NARROW-COUNT-16: vector.load %arg0
// NARROW-NOT: vector.load %arg0
// NARROW: vector.store
// NARROW: return
func.func @pow2_rows(%src: memref<256x64xf32>, %dst: memref<64x256xf32>) {
  %d = layout.from_physical %dst : memref<64x256xf32> -> memref<256x64xf32, #layout.tiled<{0,1}>>
  layout.relayout %src, %d : memref<256x64xf32>, memref<256x64xf32, #layout.tiled<{0,1}>>
  return
}
