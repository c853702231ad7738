// Tensor relayout between two equal padded layouts writes the destination's
// padding value, never the source's padding bytes (XLA semantics), through
// both --convert-layout-to-linalg and the project's own lowering. The source
// is Figure 1's f32[3,5]{1,0:T(2,2)PV(one)} built with layout.from_physical
// from a physical tensor whose every slot holds the slot number, padding
// slots included (9, 11, 14, 15, 18, 19, 21, 22, 23 are padding: element
// (i,j) sits at slot ((i/2)*3 + j/2)*4 + (i%2)*2 + j%2). After the relayout
// the elements keep their slot values and every padding slot holds PV(one) = 1.
// RUN: layout-opt %s --convert-layout-to-linalg -o %t.linalg.mlir
// RUN: layout-opt %t.linalg.mlir --layout-lower-to-llvm -o %t.a.mlir
// RUN: mlir-runner %t.a.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.b.mlir
// RUN: mlir-runner %t.b.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// The linalg conversion does not fold the relayout into the source:
// RUN: FileCheck %s --check-prefix=IR < %t.linalg.mlir
// IR-LABEL: func.func @main
// IR: linalg.unpack
// IR: linalg.pack

!fig1 = tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)PV(one)}>>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %slots = arith.constant dense<[[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]],
                                   [[8.0, 9.0], [10.0, 11.0]]],
                                  [[[12.0, 13.0], [14.0, 15.0]], [[16.0, 17.0], [18.0, 19.0]],
                                   [[20.0, 21.0], [22.0, 23.0]]]]> : tensor<2x3x2x2xf32>
  %src = layout.from_physical %slots : tensor<2x3x2x2xf32> -> !fig1
  %empty = tensor.empty() : !fig1
  %r = layout.relayout %src, %empty : !fig1, !fig1 -> !fig1
  %p = layout.to_physical %r : !fig1 -> tensor<2x3x2x2xf32>
  %flat = tensor.collapse_shape %p [[0, 1, 2, 3]] : tensor<2x3x2x2xf32> into tensor<24xf32>
  %m = bufferization.to_buffer %flat : tensor<24xf32> to memref<24xf32>
  %u = memref.cast %m : memref<24xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
// CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  8,  1,  10,  1,  12,  13,  1,  1,  16,  17,  1,  1,  20,  1,  1,  1]
