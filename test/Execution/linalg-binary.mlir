// Binary ops through --convert-layout-to-linalg (named linalg ops where
// their semantics are XLA's, linalg.generic with the loop lowering's scalar
// code otherwise) and through the project's own lowering
// (--layout-lower-to-llvm alone), against the same hand-computed lines:
// compare yields i1; XLA's integer division/remainder by zero and
// INT_MIN / -1; shifts by out-of-range amounts; i1 add is `or`; a tiled
// result (the flagship's f32[4,8]{1,0:T(2,4)}) built by linalg.pack.
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

// IR-NOT: layout.{{(add|compare|divide|remainder|shift)}}
// IR: linalg.generic
// IR: linalg.pack

func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @printBool(%t: tensor<?x?xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = bufferization.to_buffer %t : tensor<?x?xi1> to memref<?x?xi1>
  %d0 = memref.dim %m, %c0 : memref<?x?xi1>
  %d1 = memref.dim %m, %c1 : memref<?x?xi1>
  %o = memref.alloc(%d0, %d1) : memref<?x?xi32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %b = memref.load %m[%i, %j] : memref<?x?xi1>
      %x = arith.extui %b : i1 to i32
      memref.store %x, %o[%i, %j] : memref<?x?xi32>
    }
  }
  %u = memref.cast %o : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @printI32(%t: tensor<?xi32>) {
  %m = bufferization.to_buffer %t : tensor<?xi32> to memref<?xi32>
  %u = memref.cast %m : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func @main() {
  // Outer compare: b (2x1) < a (1x3): [2 < 1, 2 < 5, 2 < 3], [4 < 1, ...].
  %a = arith.constant dense<[[1, 5, 3]]> : tensor<1x3xi32>
  %b = arith.constant dense<[[2], [4]]> : tensor<2x1xi32>
  %lt = layout.compare LT, %b, %a : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
  %ltd = tensor.cast %lt : tensor<2x3xi1> to tensor<?x?xi1>
  call @printBool(%ltd) : (tensor<?x?xi1>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [0, 1, 1]
  // CHECK-NEXT: [0, 1, 0]

  // Floats compare ordered, NE is true for NaN.
  %nan = arith.constant dense<[[0x7FC00000, 1.0, 2.0]]> : tensor<1x3xf32>
  %ne = layout.compare NE, %nan, %nan : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xi1>
  %ned = tensor.cast %ne : tensor<1x3xi1> to tensor<?x?xi1>
  call @printBool(%ned) : (tensor<?x?xi1>) -> ()
  // CHECK: sizes = [1, 3]
  // CHECK-NEXT: [1, 0, 0]

  // i1 add is `or` (arith.addi would be xor): [1|1, 1|0, 0|0].
  %p = arith.constant dense<[[true, true, false]]> : tensor<1x3xi1>
  %q = arith.constant dense<[[true, false, false]]> : tensor<1x3xi1>
  %or = layout.add %p, %q : (tensor<1x3xi1>, tensor<1x3xi1>) -> tensor<1x3xi1>
  %ord = tensor.cast %or : tensor<1x3xi1> to tensor<?x?xi1>
  call @printBool(%ord) : (tensor<?x?xi1>) -> ()
  // CHECK: sizes = [1, 3]
  // CHECK-NEXT: [1, 1, 0]

  // XLA: x / 0 = -1, INT_MIN / -1 = INT_MIN; x % 0 = x, INT_MIN % -1 = 0;
  // division rounds toward zero, the remainder has the dividend's sign.
  %n = arith.constant dense<[7, -7, -2147483648, 9]> : tensor<4xi32>
  %d = arith.constant dense<[0, 2, -1, -4]> : tensor<4xi32>
  %qt = layout.divide %n, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %qd = tensor.cast %qt : tensor<4xi32> to tensor<?xi32>
  call @printI32(%qd) : (tensor<?xi32>) -> ()
  // CHECK: [-1, -3, -2147483648, -2]
  %r = layout.remainder %n, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %rd = tensor.cast %r : tensor<4xi32> to tensor<?xi32>
  call @printI32(%rd) : (tensor<?xi32>) -> ()
  // CHECK: [7, -1, 0, 1]

  // Shifts: amounts 1, 32 (= bit width), -1 (huge unsigned), 31.
  %x = arith.constant dense<[-8, -8, -8, 1]> : tensor<4xi32>
  %s = arith.constant dense<[1, 32, -1, 31]> : tensor<4xi32>
  %shl = layout.shift_left %x, %s : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %shld = tensor.cast %shl : tensor<4xi32> to tensor<?xi32>
  call @printI32(%shld) : (tensor<?xi32>) -> ()
  // CHECK: [-16, 0, 0, -2147483648]
  %sra = layout.shift_right_arithmetic %x, %s : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %srad = tensor.cast %sra : tensor<4xi32> to tensor<?xi32>
  call @printI32(%srad) : (tensor<?xi32>) -> ()
  // CHECK: [-4, -1, -1, 0]
  %srl = layout.shift_right_logical %x, %s : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %srld = tensor.cast %srl : tensor<4xi32> to tensor<?xi32>
  call @printI32(%srld) : (tensor<?xi32>) -> ()
  // -8 >>> 1 = 0x7FFFFFFC = 2147483644.
  // CHECK: [2147483644, 0, 0, 0]

  // Maximum/minimum (linalg.max/min): signed on i32.
  %mx = layout.maximum %x, %s : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %mxd = tensor.cast %mx : tensor<4xi32> to tensor<?xi32>
  call @printI32(%mxd) : (tensor<?xi32>) -> ()
  // CHECK: [1, 32, -1, 31]

  // The flagship: m (4x8, m[i][j] = 8i + j) + v (dims (0), v[i] = 100i)
  // into f32[4,8]{1,0:T(2,4)}: 2x4 tiles, tile (I, J) holds rows 2I..2I+1,
  // columns 4J..4J+3; element = 108i + j.
  %m = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0], [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<4x8xf32>
  %v = arith.constant dense<[0.0, 100.0, 200.0, 300.0]> : tensor<4xf32>
  %t = layout.add %m, %v, dims = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  %tp = layout.to_physical %t : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>> -> tensor<2x2x2x4xf32>
  %tf = tensor.collapse_shape %tp [[0, 1, 2, 3]] : tensor<2x2x2x4xf32> into tensor<32xf32>
  %tm = bufferization.to_buffer %tf : tensor<32xf32> to memref<32xf32>
  %tu = memref.cast %tm : memref<32xf32> to memref<*xf32>
  call @printMemrefF32(%tu) : (memref<*xf32>) -> ()
  // CHECK: sizes = [32]
  // CHECK-NEXT: [0, 1, 2, 3, 108, 109, 110, 111, 4, 5, 6, 7, 112, 113, 114, 115, 216, 217, 218, 219, 324, 325, 326, 327, 220, 221, 222, 223, 328, 329, 330, 331]
  return
}
