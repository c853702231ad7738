// The examples of XLA's broadcasting document (, with the
// results it documents) through --convert-layout-to-linalg (expansion to
// broadcast_in_dim, linalg.broadcast with tensor.collapse_shape of expanded
// size-1 dims, linalg.add) and, as the reference, through the project's own
// lowering (--layout-lower-to-llvm alone): both against the same lines.
// RUN: layout-opt %s --convert-layout-to-linalg -o %t.linalg.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.linalg.mlir
// RUN: layout-opt %t.linalg.mlir --layout-lower-to-llvm -o %t.a.mlir
// RUN: mlir-runner %t.a.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.b.mlir
// RUN: mlir-runner %t.b.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

// IR-NOT: layout.add
// IR-NOT: layout.broadcast_in_dim
// IR: linalg.broadcast
// IR: linalg.add
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %x23 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %v = arith.constant dense<[7.0, 8.0, 9.0]> : tensor<3xf32>

  // |1 2 3| + |7 8 9| = | 8 10 12|
  // |4 5 6|             |11 13 15|   (dims (1))
  %a = layout.add %x23, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %am = bufferization.to_buffer %a : tensor<2x3xf32> to memref<2x3xf32>
  %au = memref.cast %am : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%au) : (memref<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [8, 10, 12]
  // CHECK-NEXT: [11, 13, 15]

  // Scalar: |1 2 3| + 7 = | 8  9 10|
  //         |4 5 6|       |11 12 13|
  %s = arith.constant dense<7.0> : tensor<f32>
  %b = layout.add %x23, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %bm = bufferization.to_buffer %b : tensor<2x3xf32> to memref<2x3xf32>
  %bu = memref.cast %bm : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%bu) : (memref<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [8, 9, 10]
  // CHECK-NEXT: [11, 12, 13]

  // (3,3) + (3): dims (1) makes [7 8 9] every row, dims (0) every column.
  %x33 = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %rows = layout.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<3x3xf32>
  %rm = bufferization.to_buffer %rows : tensor<3x3xf32> to memref<3x3xf32>
  %ru = memref.cast %rm : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%ru) : (memref<*xf32>) -> ()
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: [7, 8, 9]
  // CHECK-NEXT: [7, 8, 9]
  // CHECK-NEXT: [7, 8, 9]
  %cols = layout.broadcast_in_dim %v, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
  %cm = bufferization.to_buffer %cols : tensor<3x3xf32> to memref<3x3xf32>
  %cu = memref.cast %cm : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: [7, 7, 7]
  // CHECK-NEXT: [8, 8, 8]
  // CHECK-NEXT: [9, 9, 9]
  %c1 = layout.add %x33, %v, dims = [1] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  %c1m = bufferization.to_buffer %c1 : tensor<3x3xf32> to memref<3x3xf32>
  %c1u = memref.cast %c1m : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%c1u) : (memref<*xf32>) -> ()
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: [8, 10, 12]
  // CHECK-NEXT: [11, 13, 15]
  // CHECK-NEXT: [14, 16, 18]
  %c0 = layout.add %x33, %v, dims = [0] : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  %c0m = bufferization.to_buffer %c0 : tensor<3x3xf32> to memref<3x3xf32>
  %c0u = memref.cast %c0m : memref<3x3xf32> to memref<*xf32>
  call @printMemrefF32(%c0u) : (memref<*xf32>) -> ()
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: [8, 9, 10]
  // CHECK-NEXT: [12, 13, 14]
  // CHECK-NEXT: [16, 17, 18]

  // Degenerate: (2,1) + (2,3) -> (2,3).
  %x21 = arith.constant dense<[[100.0], [200.0]]> : tensor<2x1xf32>
  %d = layout.add %x21, %x23 : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %dm = bufferization.to_buffer %d : tensor<2x3xf32> to memref<2x3xf32>
  %du = memref.cast %dm : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%du) : (memref<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [101, 102, 103]
  // CHECK-NEXT: [204, 205, 206]

  // Outer operation: (2,1) + (1,3) -> (2,3).
  %y13 = arith.constant dense<[[10.0, 20.0, 30.0]]> : tensor<1x3xf32>
  %x21b = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %o = layout.add %x21b, %y13 : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  %om = bufferization.to_buffer %o : tensor<2x3xf32> to memref<2x3xf32>
  %ou = memref.cast %om : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%ou) : (memref<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [11, 21, 31]
  // CHECK-NEXT: [12, 22, 32]

  // |1 2 3 4| + [5 6] with dims (0): a 4x2 result
  //   |1 1|   |5 6|   | 6  7|
  //   |2 2| + |5 6| = | 7  8|
  //   |3 3|   |5 6|   | 8  9|
  //   |4 4|   |5 6|   | 9 10|
  %v4 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %m12 = arith.constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
  %e = layout.add %v4, %m12, dims = [0] : (tensor<4xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  %em = bufferization.to_buffer %e : tensor<4x2xf32> to memref<4x2xf32>
  %eu = memref.cast %em : memref<4x2xf32> to memref<*xf32>
  call @printMemrefF32(%eu) : (memref<*xf32>) -> ()
  // CHECK: sizes = [4, 2]
  // CHECK-NEXT: [6, 7]
  // CHECK-NEXT: [7, 8]
  // CHECK-NEXT: [8, 9]
  // CHECK-NEXT: [9, 10]

  // [1,2] + [4,3,1] with dims (1,2): 1x2 -> 4x1x2, then degenerate -> 4x3x2.
  // lhs = [[10, 20]]; rhs[i][j][0] = 3i + j + 1; result[i][j][k] =
  // rhs[i][j][0] + lhs[0][k].
  %l12 = arith.constant dense<[[10.0, 20.0]]> : tensor<1x2xf32>
  %r431 = arith.constant dense<[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]],
                                [[7.0], [8.0], [9.0]], [[10.0], [11.0], [12.0]]]> : tensor<4x3x1xf32>
  %f = layout.add %l12, %r431, dims = [1, 2] : (tensor<1x2xf32>, tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  %fm = bufferization.to_buffer %f : tensor<4x3x2xf32> to memref<4x3x2xf32>
  %fu = memref.cast %fm : memref<4x3x2xf32> to memref<*xf32>
  call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
  // CHECK: sizes = [4, 3, 2]
  // CHECK-NEXT: [11, 21]
  // CHECK-NEXT: [12, 22]
  // CHECK-NEXT: [13, 23]
  // CHECK: [14, 24]
  // CHECK-NEXT: [15, 25]
  // CHECK-NEXT: [16, 26]
  // CHECK: [17, 27]
  // CHECK-NEXT: [18, 28]
  // CHECK-NEXT: [19, 29]
  // CHECK: [20, 30]
  // CHECK-NEXT: [21, 31]
  // CHECK-NEXT: [22, 32]
  return
}
