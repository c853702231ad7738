// --layout-fold-relayouts eliminates a padded relayout whose only users read
// logical elements (add, multiply, broadcast_in_dim): they read its source.
// The printed numbers are the same with and without the pass (values
// derived by hand: s[i][j] = 5i + j, v[j] = 10j, m = (s + v) * s).
// RUN: layout-opt %s --layout-fold-relayouts --layout-lower-to-llvm -o %t.fold.mlir
// RUN: mlir-runner %t.fold.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.loops.mlir
// RUN: mlir-runner %t.loops.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-fold-relayouts | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @compute
// IR-NOT: layout.relayout
// IR: layout.add %arg0, %arg1
// IR: layout.multiply %{{.+}}, %arg0
// IR: layout.broadcast_in_dim %arg0
// IR-NOT: layout.relayout
// IR-LABEL: func.func @main
// Without the pass the relayout is there (the test compares two programs).
// RUN: layout-opt %s | FileCheck %s --check-prefix=NOFOLD
// NOFOLD: layout.relayout

!tile = tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

func.func private @printMemrefF32(memref<*xf32>)

func.func @compute(%s: tensor<3x5xf32>, %v: tensor<5xf32>)
    -> (tensor<3x5xf32>, tensor<2x3x5xf32>) {
  %e = tensor.empty() : !tile
  %r = layout.relayout %s, %e : tensor<3x5xf32>, !tile -> !tile
  %a = layout.add %r, %v, dims = [1] : (!tile, tensor<5xf32>) -> tensor<3x5xf32>
  %m = layout.multiply %a, %r : (tensor<3x5xf32>, !tile) -> tensor<3x5xf32>
  %b = layout.broadcast_in_dim %r, dims = [1, 2] : (!tile) -> tensor<2x3x5xf32>
  return %m, %b : tensor<3x5xf32>, tensor<2x3x5xf32>
}

func.func @main() {
  %s = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0],
                             [5.0, 6.0, 7.0, 8.0, 9.0],
                             [10.0, 11.0, 12.0, 13.0, 14.0]]> : tensor<3x5xf32>
  %v = arith.constant dense<[0.0, 10.0, 20.0, 30.0, 40.0]> : tensor<5xf32>
  %m, %b = call @compute(%s, %v)
      : (tensor<3x5xf32>, tensor<5xf32>) -> (tensor<3x5xf32>, tensor<2x3x5xf32>)
  %mm = bufferization.to_buffer %m : tensor<3x5xf32> to memref<3x5xf32>
  %mu = memref.cast %mm : memref<3x5xf32> to memref<*xf32>
  call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
  %bm = bufferization.to_buffer %b : tensor<2x3x5xf32> to memref<2x3x5xf32>
  %bu = memref.cast %bm : memref<2x3x5xf32> to memref<*xf32>
  call @printMemrefF32(%bu) : (memref<*xf32>) -> ()
  return
}

// CHECK: rank = 2 offset = 0 sizes = [3, 5]
// CHECK-NEXT: {{\[}}[0,   11,   44,   99,   176],
// CHECK-NEXT: [25,   96,   189,   304,   441],
// CHECK-NEXT: [100,   231,   384,   559,   756]]
// CHECK: rank = 3 offset = 0 sizes = [2, 3, 5]
// CHECK-NEXT: {{\[}}{{\[}}[0,   1,   2,   3,   4],
// CHECK-NEXT: [5,   6,   7,   8,   9],
// CHECK-NEXT: [10,   11,   12,   13,   14]],
// CHECK-NEXT: {{\[}}[0,   1,   2,   3,   4],
// CHECK-NEXT: [5,   6,   7,   8,   9],
// CHECK-NEXT: [10,   11,   12,   13,   14]]]
