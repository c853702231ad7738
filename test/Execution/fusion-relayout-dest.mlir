// A fused relayout whose destination operand is also read by the tree
// (--layout-fuse keeps it a leaf; the relayout's type comes from a
// tensor.empty of the body): r = relayout(x into d's layout) + d, with
// x[i][j] = 10 i + j and d[i][j] = 100 (i + 1), so r[i][j] = 110 i + j + 100.
// RUN: layout-opt %s --layout-lower-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm=fusion=false \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// CHECK:      [100,   101,   102,   103],
// CHECK-NEXT: [210,   211,   212,   213],
// CHECK-NEXT: [320,   321,   322,   323]]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %x = memref.alloc() : memref<3x4xf32>
  %d = memref.alloc() : memref<3x4xf32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %c10 = arith.constant 10 : i32
      %c100 = arith.constant 100 : i32
      %t = arith.muli %ii, %c10 : i32
      %v = arith.addi %t, %jj : i32
      %vf = arith.sitofp %v : i32 to f32
      memref.store %vf, %x[%i, %j] : memref<3x4xf32>
      %one = arith.constant 1 : i32
      %i2 = arith.addi %ii, %one : i32
      %w = arith.muli %i2, %c100 : i32
      %wf = arith.sitofp %w : i32 to f32
      memref.store %wf, %d[%i, %j] : memref<3x4xf32>
    }
  }
  %dm = memref.alloc() : memref<3x4xf32, #layout.tiled<{0,1}>>
  layout.relayout %d, %dm : memref<3x4xf32>, memref<3x4xf32, #layout.tiled<{0,1}>>
  %xt = bufferization.to_tensor %x restrict : memref<3x4xf32> to tensor<3x4xf32>
  %dt = bufferization.to_tensor %dm restrict : memref<3x4xf32, #layout.tiled<{0,1}>> to tensor<3x4xf32, #layout.tiled<{0,1}>>
  %r = layout.relayout %xt, %dt : tensor<3x4xf32>, tensor<3x4xf32, #layout.tiled<{0,1}>> -> tensor<3x4xf32, #layout.tiled<{0,1}>>
  %s = layout.add %r, %dt : (tensor<3x4xf32, #layout.tiled<{0,1}>>, tensor<3x4xf32, #layout.tiled<{0,1}>>) -> tensor<3x4xf32, #layout.tiled<{0,1}>>
  %sm = memref.alloc() : memref<3x4xf32, #layout.tiled<{0,1}>>
  bufferization.materialize_in_destination %s in restrict writable %sm : (tensor<3x4xf32, #layout.tiled<{0,1}>>, memref<3x4xf32, #layout.tiled<{0,1}>>) -> ()
  %row = memref.alloc() : memref<3x4xf32>
  layout.relayout %sm, %row : memref<3x4xf32, #layout.tiled<{0,1}>>, memref<3x4xf32>
  %u = memref.cast %row : memref<3x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
