// An elementwise op whose operands' byte orders differ (TransposeBlocks.cpp):
// the result walks its own rows; the operand that crosses them (row-major
// into a {0,1} result) is read in V x V blocks transposed in registers, the
// operand contiguous along the result's rows as one vector per row, and
// the op runs on whole vectors: no element-by-element gather.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=-1 report-kernels' 2>&1 | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=vector-bytes=0 report-kernels' 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0' | FileCheck %s --check-prefix=NT
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 masked-edges=false' | FileCheck %s --check-prefix=NT-UNMASKED

// CHECK: remark: kernel: transpose-blocks
// SCALAR: remark: kernel: scalar
// SCALAR-NOT: vector.
// CHECK-LABEL: func.func @add_transposed
// CHECK: %[[A:.*]] = bufferization.to_buffer %{{.*}} : tensor<64x64xf32> to memref<64x64xf32>
// CHECK: %[[OUT:.*]] = layout.to_physical %alloc
// CHECK: %[[B:.*]] = layout.to_physical
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16
// The crossing operand: 16 rows of a, along the result's column.
// CHECK: vector.load %[[A]][%[[R]], %[[K]]] : memref<64x64xf32>, vector<16xf32>
// CHECK-COUNT-15: vector.load %[[A]][%{{.*}}, %[[K]]] : memref<64x64xf32>, vector<16xf32>
// CHECK-COUNT-64: vector.shuffle
// The operand in the result's order: one vector per result row.
// CHECK: %[[B0:.*]] = vector.load %[[B]][%[[K]], %[[R]]] : memref<64x64xf32>, vector<16xf32>
// CHECK-COUNT-15: vector.load %[[B]][%{{.*}}, %[[R]]] : memref<64x64xf32>, vector<16xf32>
// CHECK: %[[S0:.*]] = arith.addf %{{.*}}, %[[B0]] : vector<16xf32>
// CHECK: vector.store %[[S0]], %[[OUT]][%[[K]], %[[R]]] : memref<64x64xf32>, vector<16xf32>
// CHECK-COUNT-15: arith.addf
// The prefetch distance of add_transposed_long below (its maps come first).
// NT: #[[$AHEAD:map[0-9]*]] = affine_map<(d0) -> (d0 + 128, 1023)>
// Rows of 64 f32 (256 bytes), no longer than the prefetch distance.
// NT-LABEL: func.func @add_transposed(
// NT-NOT: memref.prefetch
// NT: return
func.func @add_transposed(%a: tensor<64x64xf32>,
                          %b: tensor<64x64xf32, #layout.tiled<{0,1}>>)
    -> tensor<64x64xf32, #layout.tiled<{0,1}>> {
  %r = layout.add %a, %b : (tensor<64x64xf32>, tensor<64x64xf32, #layout.tiled<{0,1}>>) -> tensor<64x64xf32, #layout.tiled<{0,1}>>
  return %r : tensor<64x64xf32, #layout.tiled<{0,1}>>
}

// bf16 operands: the crossing operand's blocks are shuffled as i16 lanes
// (LLVM scalarizes shuffles of bfloat vectors on x86 without AVX512-BF16,
// one vpinsrw per lane) and the op gets bf16 vectors back.
// CHECK-LABEL: func.func @add_transposed_bf16
// CHECK: vector.load %{{.*}} : memref<64x64xbf16>, vector<16xbf16>
// CHECK: vector.bitcast %{{.*}} : vector<16xbf16> to vector<16xi16>
// CHECK-NOT: vector.shuffle {{.*}} : vector<16xbf16>
// CHECK: vector.shuffle {{.*}} : vector<16xi16>, vector<16xi16>
// CHECK-NOT: vector.shuffle {{.*}} : vector<16xbf16>
// CHECK: vector.bitcast %{{.*}} : vector<16xi16> to vector<16xbf16>
// CHECK-NOT: vector.shuffle {{.*}} : vector<16xbf16>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<16xbf16>
// CHECK-NOT: vector.shuffle {{.*}} : vector<16xbf16>
// CHECK: return
// Streaming, each result row's two 16-element parts are concatenated into
// one 64-byte store (LLVM folds the bf16 narrowing into per-part stores and
// drops the non-temporal hint); not without masked edges (AVX2).
// NT-LABEL: func.func @add_transposed_bf16
// NT-NOT: memref.prefetch
// NT: %[[LINE:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xbf16>, vector<16xbf16>
// NT: vector.store %[[LINE]], %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<64x64xbf16>, vector<32xbf16>
// NT-NOT: nontemporal = true} : memref<64x64xbf16>, vector<16xbf16>
// NT: return
// NT-UNMASKED-LABEL: func.func @add_transposed_bf16
// NT-UNMASKED-NOT: vector<32xbf16>
// NT-UNMASKED: {alignment = 32 : i64, nontemporal = true} : memref<64x64xbf16>, vector<16xbf16>
// NT-UNMASKED-NOT: vector<32xbf16>
// NT-UNMASKED: return
func.func @add_transposed_bf16(%a: tensor<64x64xbf16>,
                               %b: tensor<64x64xbf16, #layout.tiled<{0,1}>>)
    -> tensor<64x64xbf16, #layout.tiled<{0,1}>> {
  %r = layout.add %a, %b : (tensor<64x64xbf16>, tensor<64x64xbf16, #layout.tiled<{0,1}>>) -> tensor<64x64xbf16, #layout.tiled<{0,1}>>
  return %r : tensor<64x64xbf16, #layout.tiled<{0,1}>>
}

// Streaming, the operand read along the result's rows (b, one line of 16
// far-apart rows per block) is prefetched into L2 (locality 1) 512 bytes
// (128 f32) ahead along the row, clamped to the row's last element; the
// crossing operand's blocks are not. Cached nests, and rows no longer than
// the distance (add_transposed above, rows of 64 f32), take none.
// CHECK-LABEL: func.func @add_transposed_long
// CHECK-NOT: memref.prefetch
// CHECK: return
// NT-LABEL: func.func @add_transposed_long
// NT: %[[A:.*]] = bufferization.to_buffer %{{.*}} : tensor<1024x32xf32> to memref<1024x32xf32>
// NT: layout.to_physical %alloc
// NT: %[[B:.*]] = layout.to_physical
// NT: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %c16
// NT: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16
// NT-COUNT-16: vector.load %[[A]][%{{.*}}, %[[K]]] : memref<1024x32xf32>, vector<16xf32>
// NT-NOT: memref.prefetch
// NT: %[[AHEAD:.*]] = affine.min #[[$AHEAD]](%[[R]])
// NT-NEXT: memref.prefetch %[[B]][%[[K]], %[[AHEAD]]], read, locality<1>, data : memref<32x1024xf32>
// NT-NEXT: vector.load %[[B]][%[[K]], %[[R]]] : memref<32x1024xf32>, vector<16xf32>
// NT-NEXT: %[[AHEAD1:.*]] = affine.min #[[$AHEAD]](%[[R]])
// NT-NEXT: %[[K1:.*]] = affine.apply #{{.*}}(%[[K]])
// NT-NEXT: memref.prefetch %[[B]][%[[K1]], %[[AHEAD1]]], read, locality<1>, data
// NT-NEXT: vector.load %[[B]][%[[K1]], %[[R]]]
// NT-COUNT-14: memref.prefetch %[[B]][%{{.*}}, %{{.*}}], read, locality<1>, data
// NT-NOT: memref.prefetch
// The same kernel for a destination that does not start on a line.
// NT: } else {
// NT-COUNT-16: memref.prefetch %[[B]][%{{.*}}, %{{.*}}], read, locality<1>, data
// NT-NOT: memref.prefetch
// NT: return
func.func @add_transposed_long(%a: tensor<1024x32xf32>,
                               %b: tensor<1024x32xf32, #layout.tiled<{0,1}>>)
    -> tensor<1024x32xf32, #layout.tiled<{0,1}>> {
  %r = layout.add %a, %b : (tensor<1024x32xf32>, tensor<1024x32xf32, #layout.tiled<{0,1}>>) -> tensor<1024x32xf32, #layout.tiled<{0,1}>>
  return %r : tensor<1024x32xf32, #layout.tiled<{0,1}>>
}

// A plane of whole staged tiles (2 x 2 tiles of 256 result rows x 128
// f32), streaming:
// per tile, the crossing operand's blocks are transposed into a 256 x 128
// buffer (one, shared by the aligned and unaligned variants), walking each
// of its rows along (p_r blocks outside, p_k blocks inside); then each
// block of 16 result rows reads the buffer and the row operand and
// streams. Cached nests are not staged (add_transposed_long's checks).
// NT-LABEL: func.func @add_transposed_staged
// NT: %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256x128xi32>
// NT-NOT: memref.alloca
// NT: scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %c256
// NT: scf.for %[[R0:.*]] = %{{.*}} to %{{.*}} step %c128
// NT: scf.for %[[R:.*]] = %[[R0]] to %{{.*}} step %c16
// NT: scf.for %[[K:.*]] = %[[K0]] to %{{.*}} step %c16
// NT-COUNT-64: vector.shuffle
// NT-COUNT-16: vector.store %{{.*}}, %[[STAGE]][%{{.*}}, %{{.*}}] : memref<256x128xi32>, vector<16xi32>
// NT: scf.for %[[K2:.*]] = %[[K0]] to %{{.*}} step %c16
// NT: scf.for %[[R2:.*]] = %[[R0]] to %{{.*}} step %c16
// NT-NOT: vector.shuffle
// NT: vector.load %[[STAGE]][%{{.*}}, %{{.*}}] : memref<256x128xi32>, vector<16xi32>
// NT: arith.addf
// NT: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<512x256xf32>, vector<16xf32>
// NT: } else {
// NT-NOT: memref.alloca
// NT: vector.store %{{.*}}, %[[STAGE]]
// NT: return
func.func @add_transposed_staged(%a: tensor<256x512xf32>,
                                 %b: tensor<256x512xf32, #layout.tiled<{0,1}>>)
    -> tensor<256x512xf32, #layout.tiled<{0,1}>> {
  %r = layout.add %a, %b : (tensor<256x512xf32>, tensor<256x512xf32, #layout.tiled<{0,1}>>) -> tensor<256x512xf32, #layout.tiled<{0,1}>>
  return %r : tensor<256x512xf32, #layout.tiled<{0,1}>>
}
