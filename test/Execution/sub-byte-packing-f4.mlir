// f4e2m1fn with E(4): two 4-bit floats per byte, in XLA's order (the first
// slot of a byte in its high bits, xla/util.h PackIntN). The encodings
// (sign, 2 exponent bits, 1 mantissa bit; OCP MX / ml_dtypes float4_e2m1fn):
// 0.5 = 0001, 1.0 = 0010, 1.5 = 0011, 2.0 = 0100, 3.0 = 0101, 4.0 = 0110,
// 6.0 = 0111, -0.5 = 1001. Row-major slots give the bytes 0x12 0x34 0x56
// 0x79 = 18 52 86 121; unpacking gives the values back.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s

!t = tensor<2x4xf4E2M1FN, #layout.tiled<{1,0:E(4)}>>
!m = memref<2x4xf4E2M1FN, #layout.tiled<{1,0:E(4)}>>
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)
func.func @pack(%x: tensor<2x4xf4E2M1FN>) -> !t {
  %e = tensor.empty() : !t
  %r = layout.relayout %x, %e : tensor<2x4xf4E2M1FN>, !t -> !t
  return %r : !t
}
func.func @unpack(%x: !t) -> tensor<2x4xf4E2M1FN> {
  %e = tensor.empty() : tensor<2x4xf4E2M1FN>
  %r = layout.relayout %x, %e : !t, tensor<2x4xf4E2M1FN> -> tensor<2x4xf4E2M1FN>
  return %r : tensor<2x4xf4E2M1FN>
}
func.func @main() {
  %c = arith.constant dense<[[0.5, 1.0, 1.5, 2.0], [3.0, 4.0, 6.0, -0.5]]> : tensor<2x4xf4E2M1FN>
  %p = call @pack(%c) : (tensor<2x4xf4E2M1FN>) -> !t
  %m = bufferization.to_buffer %p : !t to !m
  %b = builtin.unrealized_conversion_cast %m : !m to memref<4xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %o = memref.alloc() : memref<4xi32>
  scf.for %k = %c0 to %c4 step %c1 {
    %v = memref.load %b[%k] : memref<4xi8>
    %w = arith.extui %v : i8 to i32
    memref.store %w, %o[%k] : memref<4xi32>
  }
  %u = memref.cast %o : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  // CHECK: [18,  52,  86,  121]
  %back = call @unpack(%p) : (!t) -> tensor<2x4xf4E2M1FN>
  %bm = bufferization.to_buffer %back : tensor<2x4xf4E2M1FN> to memref<2x4xf4E2M1FN>
  %f = memref.alloc() : memref<2x4xf32>
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %bm[%i, %j] : memref<2x4xf4E2M1FN>
      %w = arith.extf %v : f4E2M1FN to f32
      memref.store %w, %f[%i, %j] : memref<2x4xf32>
    }
  }
  %fu = memref.cast %f : memref<2x4xf32> to memref<*xf32>
  call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
  // CHECK:      [0.5,   1,   1.5,   2]
  // CHECK-NEXT: [3,   4,   6,   -0.5]
  return
}
