// Parallel chunks of a blocked transpose (TransposeBlockKernel::planParallel,
// mayChunkMiddleDim): along the outermost middle dim when its chunks are at
// least 4 KiB of destination, even when the dim outside it (p_k) is not
// whole lines apart (threads then share one line per chunk boundary, with
// disjoint bytes); else along p_k.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 parallel-threshold-bytes=0' | FileCheck %s

// f32[31,63,32,33] -> {0,1,2,3}: physical 33 x 32 x 63 x 31, flat rows of
// 63 x 31 under the middle dim 32 (7,812 bytes each: chunks of 16, 125 KiB),
// p_k 33 outermost (249,984 bytes apart, not whole lines): two chunks of
// the middle dim, each walking every p_k block.
// CHECK-LABEL: func.func @middle_chunks
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : memref<33x32x63x31xf32> into memref<33x32x1953xf32>
// CHECK: scf.parallel (%[[C:.*]]) = (%c0{{.*}}) to (%c2{{.*}}) step
// CHECK: %[[LO:.*]] = affine.apply #{{.*}}(%[[C]])
// CHECK: %[[HI:.*]] = affine.apply #{{.*}}(%[[C]])
// CHECK: scf.for %[[M:.*]] = %[[LO]] to %[[HI]] step %c1
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c32{{.*}} step %c16
// CHECK: vector.maskedstore %{{.*}}[%[[K]], %[[M]], %c0{{.*}}]
func.func @middle_chunks(%src: memref<31x63x32x33xf32>,
                         %dst: memref<31x63x32x33xf32, #layout.tiled<{0,1,2,3}>>) {
  layout.relayout %src, %dst
      : memref<31x63x32x33xf32>, memref<31x63x32x33xf32, #layout.tiled<{0,1,2,3}>>
  return
}

// f32[31,2,33,33] -> {0,1,2,3}: the middle dim's rows are 248 bytes, its
// chunks 1,984 bytes and p_k's stride not whole lines: chunks of p_k, the
// middle dim walked whole inside each.
// CHECK-LABEL: func.func @k_chunks
// CHECK: scf.parallel (%[[C:.*]]) = (%c0{{.*}}) to (%c2{{.*}}) step
// CHECK: scf.for %[[M:.*]] = %c0{{.*}} to %c33{{.*}} step %c1
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %c16
// CHECK: vector.maskedstore %{{.*}}[%[[K]], %[[M]], %c0{{.*}}]
func.func @k_chunks(%src: memref<31x2x33x33xf32>,
                    %dst: memref<31x2x33x33xf32, #layout.tiled<{0,1,2,3}>>) {
  layout.relayout %src, %dst
      : memref<31x2x33x33xf32>, memref<31x2x33x33xf32, #layout.tiled<{0,1,2,3}>>
  return
}
