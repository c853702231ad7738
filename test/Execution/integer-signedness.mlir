// XLA's s*/u* integer types (si*/ui* in MLIR) through --layout-lower-to-llvm:
// the ops run on a signless view with the type's signedness, relayouts write
// the type's padding value. printMemrefI32/I8 print the bits as signed
// numbers: -294967296 is the u32 4000000000, -1 is 0xFFFFFFFF.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s

func.func private @printMemrefI32(memref<*xui32>)

func.func @printU32(%t: tensor<4xui32>) {
  %m = bufferization.to_buffer %t : tensor<4xui32> to memref<4xui32>
  %u = memref.cast %m : memref<4xui32> to memref<*xui32>
  call @printMemrefI32(%u) : (memref<*xui32>) -> ()
  return
}

func.func @printS32(%t: tensor<4xsi32>) {
  %m = bufferization.to_buffer %t : tensor<4xsi32> to memref<4xsi32>
  %u = memref.cast %m : memref<4xsi32> to memref<*xsi32>
  // The same bits for the printer.
  %v = builtin.unrealized_conversion_cast %u : memref<*xsi32> to memref<*xui32>
  call @printMemrefI32(%v) : (memref<*xui32>) -> ()
  return
}

func.func @main() {
  %a = arith.constant dense<[4000000000, 4000000000, 9, 2147483648]> : tensor<4xui32>
  %b = arith.constant dense<[7, 0, 0, 1]> : tensor<4xui32>
  // Unsigned division; x / 0 is all ones.
  %q = layout.divide %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  call @printU32(%q) : (tensor<4xui32>) -> ()
  // CHECK: [571428571, -1, -1, -2147483648]
  // Unsigned remainder; x % 0 is x.
  %r = layout.remainder %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  call @printU32(%r) : (tensor<4xui32>) -> ()
  // CHECK: [3, -294967296, 9, 0]
  // Unsigned maximum and minimum.
  %mx = layout.maximum %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  call @printU32(%mx) : (tensor<4xui32>) -> ()
  // CHECK: [-294967296, -294967296, 9, -2147483648]
  %mn = layout.minimum %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  call @printU32(%mn) : (tensor<4xui32>) -> ()
  // CHECK: [7, 0, 0, 1]
  // Shifts of 0x80000000 by 1: arithmetic (XLA: the sign bit, also on u32)
  // and logical.
  %one = arith.constant dense<1> : tensor<4xui32>
  %sra = layout.shift_right_arithmetic %a, %one : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  call @printU32(%sra) : (tensor<4xui32>) -> ()
  // CHECK: [-147483648, -147483648, 4, -1073741824]
  %srl = layout.shift_right_logical %a, %one : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  call @printU32(%srl) : (tensor<4xui32>) -> ()
  // CHECK: [2000000000, 2000000000, 4, 1073741824]
  // Unsigned power: exponents with the top bit set are not negative.
  %pb = arith.constant dense<[2, 3, 5, 7]> : tensor<4xui32>
  %pe = arith.constant dense<[3, 2147483649, 4294967295, 0]> : tensor<4xui32>
  %pw = layout.power %pb, %pe : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  call @printU32(%pw) : (tensor<4xui32>) -> ()
  // CHECK: [8, 3, -858993459, 1]
  // Unsigned compare: 4000000000 > 7 (a signed compare would say false).
  %gt = layout.compare GT, %a, %b : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xi1>
  %gtm = bufferization.to_buffer %gt : tensor<4xi1> to memref<4xi1>
  %o = memref.alloc() : memref<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %gtm[%i] : memref<4xi1>
    %w = arith.extui %v : i1 to i32
    memref.store %w, %o[%i] : memref<4xi32>
  }
  %ou = memref.cast %o : memref<4xi32> to memref<*xi32>
  %ouu = builtin.unrealized_conversion_cast %ou : memref<*xi32> to memref<*xui32>
  call @printMemrefI32(%ouu) : (memref<*xui32>) -> ()
  // CHECK: [1, 1, 1, 1]

  // Signed: INT_MIN / -1 is INT_MIN, x / 0 is -1; signed maximum.
  %sa = arith.constant dense<[-2147483648, -7, 100, -1]> : tensor<4xsi32>
  %sb = arith.constant dense<[-1, 2, 0, 1]> : tensor<4xsi32>
  %sq = layout.divide %sa, %sb : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  call @printS32(%sq) : (tensor<4xsi32>) -> ()
  // CHECK: [-2147483648, -3, -1, -1]
  %smx = layout.maximum %sa, %sb : (tensor<4xsi32>, tensor<4xsi32>) -> tensor<4xsi32>
  call @printS32(%smx) : (tensor<4xsi32>) -> ()
  // CHECK: [-1, 2, 100, 1]
  return
}
