// f16, f64 and complex arithmetic with broadcasting, executed through
// --layout-lower-to-llvm (docs/lowering.md, "Element types").
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s

func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefC32(memref<*xcomplex<f32>>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  // f16: a 2x3 matrix plus a row vector (InDim broadcast along dim 1).
  %m = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>
  %v = arith.constant dense<[0.5, 0.25, -1.0]> : tensor<3xf16>
  %s = layout.add %m, %v {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
  %sm = bufferization.to_buffer %s : tensor<2x3xf16> to memref<2x3xf16>
  %sc = memref.cast %sm : memref<2x3xf16> to memref<*xf16>
  call @printMemrefF16(%sc) : (memref<*xf16>) -> ()
  // CHECK: [1.5, 2.25, 2]
  // CHECK-NEXT: [4.5, 5.25, 5]

  // f64: divide by a scalar, then maximum.
  %d = arith.constant dense<[1.0, -3.0, 10.0]> : tensor<3xf64>
  %two = arith.constant dense<4.0> : tensor<f64>
  %q = layout.divide %d, %two : (tensor<3xf64>, tensor<f64>) -> tensor<3xf64>
  %qm = bufferization.to_buffer %q : tensor<3xf64> to memref<3xf64>
  %qc = memref.cast %qm : memref<3xf64> to memref<*xf64>
  call @printMemrefF64(%qc) : (memref<*xf64>) -> ()
  // CHECK: [0.25, -0.75, 2.5]

  // complex<f32>: (1+2i) * (3-i) = 5+5i; (4+2i) / (1+i) = 3-i; sums.
  %ca = complex.constant [1.0 : f32, 2.0 : f32] : complex<f32>
  %cb = complex.constant [3.0 : f32, -1.0 : f32] : complex<f32>
  %cc = complex.constant [4.0 : f32, 2.0 : f32] : complex<f32>
  %cd = complex.constant [1.0 : f32, 1.0 : f32] : complex<f32>
  %x = tensor.from_elements %ca, %cc : tensor<2xcomplex<f32>>
  %y = tensor.from_elements %cb, %cd : tensor<2xcomplex<f32>>
  %p = layout.multiply %x, %y : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  %pm = bufferization.to_buffer %p : tensor<2xcomplex<f32>> to memref<2xcomplex<f32>>
  %pc = memref.cast %pm : memref<2xcomplex<f32>> to memref<*xcomplex<f32>>
  call @printMemrefC32(%pc) : (memref<*xcomplex<f32>>) -> ()
  // CHECK: [(5,5), (2,6)]
  %dv = layout.divide %x, %y : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  %dm = bufferization.to_buffer %dv : tensor<2xcomplex<f32>> to memref<2xcomplex<f32>>
  %dc = memref.cast %dm : memref<2xcomplex<f32>> to memref<*xcomplex<f32>>
  call @printMemrefC32(%dc) : (memref<*xcomplex<f32>>) -> ()
  // CHECK: [(0.1,0.7), (3,-1)]
  %e = layout.compare EQ, %x, %x : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
  %ne = layout.compare NE, %x, %y : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xi1>
  %em = bufferization.to_buffer %e : tensor<2xi1> to memref<2xi1>
  %nm = bufferization.to_buffer %ne : tensor<2xi1> to memref<2xi1>
  %o = memref.alloc() : memref<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %a = memref.load %em[%i] : memref<2xi1>
    %b = memref.load %nm[%i] : memref<2xi1>
    %ai = arith.extui %a : i1 to i32
    %bi = arith.extui %b : i1 to i32
    %j = arith.addi %i, %c2 : index
    memref.store %ai, %o[%i] : memref<4xi32>
    memref.store %bi, %o[%j] : memref<4xi32>
  }
  %oc = memref.cast %o : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%oc) : (memref<*xi32>) -> ()
  // CHECK: [1, 1, 1, 1]
  return
}
