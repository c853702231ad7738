// Scalar semantics and dynamic broadcasting, executed: compare yields i1;
// XLA's integer division/remainder by zero and INT_MIN / -1; integer power
// with negative exponents; shifts by
// out-of-range amounts; dynamic broadcast_in_dim (a run-time size 3, and a
// run-time size 1 that is replicated) through --convert-layout-to-scf.
// RUN: layout-opt %s --convert-layout-to-scf --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

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
  // Outer compare: b (2x1) < a (1x3).
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
  %eq = layout.compare EQ, %nan, %nan : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xi1>
  %eqd = tensor.cast %eq : tensor<1x3xi1> to tensor<?x?xi1>
  call @printBool(%eqd) : (tensor<?x?xi1>) -> ()
  // CHECK: sizes = [1, 3]
  // CHECK-NEXT: [0, 1, 1]

  // XLA: x / 0 = -1, INT_MIN / -1 = INT_MIN; x % 0 = x, INT_MIN % -1 = 0;
  // division rounds toward zero, the remainder has the dividend's sign.
  %n = arith.constant dense<[7, -7, -2147483648, 9]> : tensor<4xi32>
  %d = arith.constant dense<[0, 2, -1, -4]> : tensor<4xi32>
  %q = layout.divide %n, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %qd = tensor.cast %q : tensor<4xi32> to tensor<?xi32>
  call @printI32(%qd) : (tensor<?xi32>) -> ()
  // CHECK: [-1, -3, -2147483648, -2]
  %r = layout.remainder %n, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %rd = tensor.cast %r : tensor<4xi32> to tensor<?xi32>
  call @printI32(%rd) : (tensor<?xi32>) -> ()
  // CHECK: [7, -1, 0, 1]

  // Integer power: a negative exponent gives 0, except base 1 (1) and base
  // -1 (+-1 by parity); never a division by the base (base 0 is not UB).
  %pb = arith.constant dense<[2, 1, -1, -1, 0, 3, 5, -2]> : tensor<8xi32>
  %pe = arith.constant dense<[3, -5, -3, -4, -2, 0, -1, 5]> : tensor<8xi32>
  %pw = layout.power %pb, %pe : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %pwd = tensor.cast %pw : tensor<8xi32> to tensor<?xi32>
  call @printI32(%pwd) : (tensor<?xi32>) -> ()
  // CHECK: [8, 1, -1, 1, 0, 1, 0, -32]

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

  // Dynamic broadcast_in_dim with sizes: [7, 8, 9] as the rows of 2x3.
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = arith.constant dense<[7.0, 8.0, 9.0]> : tensor<3xf32>
  %vd = tensor.cast %v : tensor<3xf32> to tensor<?xf32>
  %rows = layout.broadcast_in_dim %vd, dims = [1] sizes(%c2, %c3) : (tensor<?xf32>) -> tensor<?x?xf32>
  %rm = bufferization.to_buffer %rows : tensor<?x?xf32> to memref<?x?xf32>
  %ru = memref.cast %rm : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%ru) : (memref<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [7, 8, 9]
  // CHECK-NEXT: [7, 8, 9]
  // A run-time size 1 is replicated (C5): [5] -> 2x3 of 5.
  %one = arith.constant dense<[5.0]> : tensor<1xf32>
  %oned = tensor.cast %one : tensor<1xf32> to tensor<?xf32>
  %fives = layout.broadcast_in_dim %oned, dims = [1] sizes(%c2, %c3) : (tensor<?xf32>) -> tensor<?x?xf32>
  %fm = bufferization.to_buffer %fives : tensor<?x?xf32> to memref<?x?xf32>
  %fu = memref.cast %fm : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [5, 5, 5]
  // CHECK-NEXT: [5, 5, 5]
  return
}
