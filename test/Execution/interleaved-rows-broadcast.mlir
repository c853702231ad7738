// Interleaved rows (VectorRows.cpp) with a source that is constant along
// the vectorized dim but varies along the short inner dim: a vector
// broadcast along dims [1] of a 40x2 result (rows of 2 elements, 2 rows per
// 4-lane vector). Each vector must repeat the source's two elements
// ([a0, a1, a0, a1]); the kernel used to splat a0 (found by the fusion
// differential test, fusion-differential-a.test). result[i, j] = i*i + j.
// RUN: layout-opt %s --layout-lower-to-llvm=vector-bytes=16 \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s '--layout-lower-to-llvm=target-cpu=x86-64-v3 masked-edges=false' \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// The kernel taken (16-byte vectors):
// RUN: layout-opt %s --layout-expand-broadcasts \
// RUN:   '--convert-layout-to-affine=vector-bytes=16 report-kernels=true' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: remark: kernel: interleaved-rows

// CHECK:      [0,   1],
// CHECK-NEXT: [1,   2],
// CHECK-NEXT: [4,   5],
// CHECK-NEXT: [9,   10],
// CHECK:      [1444,   1445],
// CHECK-NEXT: [1521,   1522]]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c40 = arith.constant 40 : index
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<40xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    memref.store %f, %a[%i] : memref<2xf32>
  }
  scf.for %i = %c0 to %c40 step %c1 {
    %n = arith.index_cast %i : index to i32
    %m = arith.muli %n, %n : i32
    %f = arith.sitofp %m : i32 to f32
    memref.store %f, %b[%i] : memref<40xf32>
  }
  %ta = bufferization.to_tensor %a restrict : memref<2xf32> to tensor<2xf32>
  %tb = bufferization.to_tensor %b restrict : memref<40xf32> to tensor<40xf32>
  %ba = layout.broadcast_in_dim %ta, dims = [1] : (tensor<2xf32>) -> tensor<40x2xf32>
  %bb = layout.broadcast_in_dim %tb, dims = [0] : (tensor<40xf32>) -> tensor<40x2xf32>
  %r = layout.add %ba, %bb : (tensor<40x2xf32>, tensor<40x2xf32>) -> tensor<40x2xf32>
  %m = memref.alloc() : memref<40x2xf32>
  bufferization.materialize_in_destination %r in restrict writable %m : (tensor<40x2xf32>, memref<40x2xf32>) -> ()
  %u = memref.cast %m : memref<40x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
