// --layout-lower-to-llvm frees what it allocates (upstream's
// buffer-deallocation-pipeline after the loops and normalization): a
// temporary is freed after its last use, a returned buffer is not (the
// caller owns it), a hand-written memref.dealloc of a local buffer is
// replaced by the automatic one (one free, not two).
// (fusion=false: with fusion the add and the relayout of @temps are one
// nest, and there is no temporary to free; reuse-buffers=false: with it a
// temporary lives in the function's cached arena,
// test/Conversion/layout-reuse-buffers.mlir.)
// RUN: layout-opt %s \
// RUN:   --layout-lower-to-llvm="fusion=false reuse-buffers=false" \
// RUN:   -split-input-file | FileCheck %s
// deallocate=false: nothing is freed but what
// the input frees itself.
// RUN: layout-opt %s --layout-lower-to-llvm="deallocate=false fusion=false" \
// RUN:   -split-input-file | FileCheck %s --check-prefix=OFF

// The tiled temporary of the broadcast add is freed; the relayouted result
// is returned without a free.
// CHECK-LABEL: llvm.func @temps(
//       CHECK:   llvm.call @malloc
//       CHECK:   llvm.call @malloc
//       CHECK:   llvm.call @free
//   CHECK-NOT:   llvm.call @free
//       CHECK:   llvm.return
// OFF-LABEL: llvm.func @temps(
//       OFF:   llvm.call @malloc
//       OFF:   llvm.call @malloc
//   OFF-NOT:   llvm.call @free
//       OFF:   llvm.return
func.func @temps(%m: tensor<4x8xf32>, %v: tensor<4xf32>) -> tensor<4x8xf32> {
  %s = layout.add %m, %v, dims = [0]
      : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = layout.relayout %s, %e
      : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A hand-written dealloc of a local tiled buffer: exactly one free either way.
// CHECK-LABEL: llvm.func @hand(
//       CHECK:   llvm.call @malloc
//       CHECK:   llvm.call @free
//   CHECK-NOT:   llvm.call @free
//       CHECK:   llvm.return
// OFF-LABEL: llvm.func @hand(
//       OFF:   llvm.call @malloc
//       OFF:   llvm.call @free
//   OFF-NOT:   llvm.call @free
//       OFF:   llvm.return
func.func @hand() -> f32 {
  %a = memref.alloc() : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  memref.store %f, %a[%c0, %c0] : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  %v = memref.load %a[%c0, %c0] : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  memref.dealloc %a : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  return %v : f32
}

// -----

// A buffer allocated in a loop body is freed in every iteration.
// CHECK-LABEL: llvm.func @loop(
//       CHECK:   ^bb{{[0-9]+}}
//       CHECK:   llvm.call @malloc
//       CHECK:   llvm.call @free
//       CHECK:   llvm.br
// OFF-LABEL: llvm.func @loop(
//       OFF:   llvm.call @malloc
//   OFF-NOT:   llvm.call @free
//       OFF:   llvm.return
func.func @loop(%n: index, %src: memref<4x8xf32>, %dst: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
    layout.relayout %src, %t : memref<4x8xf32>, memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
    layout.relayout %t, %dst : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>, memref<4x8xf32>
  }
  return
}

// -----

// Returning the destination argument: the caller must own what it gets
// back, so the result is a copy (bufferization.clone lowered to malloc +
// memcpy), not freed here; without deallocation the argument is returned.
// CHECK-LABEL: llvm.func @return_destination(
//       CHECK:   llvm.call @malloc
//       CHECK:   "llvm.intr.memcpy"
//   CHECK-NOT:   llvm.call @free
//       CHECK:   llvm.return
// OFF-LABEL: llvm.func @return_destination(
//   OFF-NOT:   llvm.call @malloc
//       OFF:   llvm.return
func.func @return_destination(%s: tensor<4x8xf32>,
    %d: tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>)
    -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>> {
  %r = layout.relayout %s, %d : tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
      -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  return %r : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
}
