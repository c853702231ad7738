// More element types end to end (--layout-lower-to-llvm, executed):
// * u16/s16 relayouts into Figure 1's tiling: padding slots get PV(highest)
//   (65535, printed as the signed -1) and PV(lowest) (-32768);
// * bf16 + f32 computes in f32, XLA's higher precision;
// * f4E2M1FN (computed in f32 and rounded back): 1.5 * 2 = 3, 4 * 1.5 = 6.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s

!u16 = memref<3x5xui16, #layout.tiled<{1,0:T(2,2)PV(highest)}>>
!s16 = memref<3x5xsi16, #layout.tiled<{1,0:T(2,2)PV(lowest)}>>

func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(memref<*xf32>)

func.func @iota16(%m: memref<3x5xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %r = arith.muli %i, %c5 : index
      %l = arith.addi %r, %j : index
      %v = arith.index_cast %l : index to i16
      memref.store %v, %m[%i, %j] : memref<3x5xi16>
    }
  }
  return
}

func.func @main() {
  %src = memref.alloc() : memref<3x5xi16>
  call @iota16(%src) : (memref<3x5xi16>) -> ()
  // The same buffer seen as u16 and s16.
  %su = builtin.unrealized_conversion_cast %src : memref<3x5xi16> to memref<3x5xui16>
  %ss = builtin.unrealized_conversion_cast %src : memref<3x5xi16> to memref<3x5xsi16>
  %u = memref.alloc() : !u16
  layout.relayout %su, %u : memref<3x5xui16>, !u16
  %up = layout.to_physical %u : !u16 -> memref<2x3x2x2xui16>
  %uf = memref.collapse_shape %up [[0, 1, 2, 3]] : memref<2x3x2x2xui16> into memref<24xui16>
  %uc = memref.cast %uf : memref<24xui16> to memref<*xui16>
  %ui = builtin.unrealized_conversion_cast %uc : memref<*xui16> to memref<*xi16>
  call @printMemrefI16(%ui) : (memref<*xi16>) -> ()
  // CHECK: [0, 1, 5, 6, 2, 3, 7, 8, 4, -1, 9, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, -1, -1, -1]
  %s = memref.alloc() : !s16
  layout.relayout %ss, %s : memref<3x5xsi16>, !s16
  %sp = layout.to_physical %s : !s16 -> memref<2x3x2x2xsi16>
  %sf = memref.collapse_shape %sp [[0, 1, 2, 3]] : memref<2x3x2x2xsi16> into memref<24xsi16>
  %sc = memref.cast %sf : memref<24xsi16> to memref<*xsi16>
  %si = builtin.unrealized_conversion_cast %sc : memref<*xsi16> to memref<*xi16>
  call @printMemrefI16(%si) : (memref<*xi16>) -> ()
  // CHECK: [0, 1, 5, 6, 2, 3, 7, 8, 4, -32768, 9, -32768, 10, 11, -32768, -32768, 12, 13, -32768, -32768, 14, -32768, -32768, -32768]

  // bf16 + f32 -> f32 (bf16 values are exact in both).
  %h = arith.constant dense<[1.5, 2.25, -4.0, 0.125]> : tensor<4xbf16>
  %f = arith.constant dense<[0.25, 0.5, 1.0, 3.0]> : tensor<4xf32>
  %sum = layout.add %h, %f : (tensor<4xbf16>, tensor<4xf32>) -> tensor<4xf32>
  %sm = bufferization.to_buffer %sum : tensor<4xf32> to memref<4xf32>
  %smc = memref.cast %sm : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%smc) : (memref<*xf32>) -> ()
  // CHECK: [1.75, 2.75, -3, 3.125]

  // f4E2M1FN multiply, printed through f32 (scalar loads and stores: one
  // byte per element, as the loops read them).
  %a4 = memref.alloc() : memref<4xf4E2M1FN>
  %b4 = memref.alloc() : memref<4xf4E2M1FN>
  %av = arith.constant dense<[1.5, 4.0, 0.5, 1.0]> : tensor<4xf32>
  %bv = arith.constant dense<[2.0, 1.5, 3.0, 0.5]> : tensor<4xf32>
  %avm = bufferization.to_buffer %av : tensor<4xf32> to memref<4xf32>
  %bvm = bufferization.to_buffer %bv : tensor<4xf32> to memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %avm[%i] : memref<4xf32>
    %y = memref.load %bvm[%i] : memref<4xf32>
    %x4 = arith.truncf %x : f32 to f4E2M1FN
    %y4 = arith.truncf %y : f32 to f4E2M1FN
    memref.store %x4, %a4[%i] : memref<4xf4E2M1FN>
    memref.store %y4, %b4[%i] : memref<4xf4E2M1FN>
  }
  %a4t = bufferization.to_tensor %a4 restrict : memref<4xf4E2M1FN> to tensor<4xf4E2M1FN>
  %b4t = bufferization.to_tensor %b4 restrict : memref<4xf4E2M1FN> to tensor<4xf4E2M1FN>
  %p4 = layout.multiply %a4t, %b4t : (tensor<4xf4E2M1FN>, tensor<4xf4E2M1FN>) -> tensor<4xf4E2M1FN>
  %p4m = bufferization.to_buffer %p4 : tensor<4xf4E2M1FN> to memref<4xf4E2M1FN>
  %o = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %p = memref.load %p4m[%i] : memref<4xf4E2M1FN>
    %p32 = arith.extf %p : f4E2M1FN to f32
    memref.store %p32, %o[%i] : memref<4xf32>
  }
  %oc = memref.cast %o : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%oc) : (memref<*xf32>) -> ()
  // CHECK: [3, 6, 1.5, 0.5]
  return
}
