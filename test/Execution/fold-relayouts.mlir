// --layout-fold-relayouts turns a bitcast relayout into a view; the bytes
// are the same as with the relayout's loops.
// RUN: layout-opt %s --layout-fold-relayouts --layout-lower-to-llvm -o %t.fold.mlir
// RUN: mlir-runner %t.fold.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.loops.mlir
// RUN: mlir-runner %t.loops.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-fold-relayouts | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @tile
// IR-NOT: layout.relayout
// IR: tensor.collapse_shape
// IR: tensor.expand_shape
// IR-NOT: layout.relayout

!tile = tensor<2x128xf32, #layout.tiled<{1,0:T(2,128)}>>

func.func private @printMemrefF32(memref<*xf32>)

func.func @tile(%s: tensor<2x128xf32>) -> tensor<1x1x2x128xf32> {
  %e = tensor.empty() : !tile
  %r = layout.relayout %s, %e : tensor<2x128xf32>, !tile -> !tile
  %p = layout.to_physical %r : !tile -> tensor<1x1x2x128xf32>
  return %p : tensor<1x1x2x128xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %m = memref.alloc() : memref<2x128xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c128 step %c1 {
      %r = arith.muli %i, %c128 : index
      %l = arith.addi %r, %j : index
      %n = arith.index_cast %l : index to i64
      %v = arith.sitofp %n : i64 to f32
      memref.store %v, %m[%i, %j] : memref<2x128xf32>
    }
  }
  %t = bufferization.to_tensor %m restrict : memref<2x128xf32> to tensor<2x128xf32>
  %p = call @tile(%t) : (tensor<2x128xf32>) -> tensor<1x1x2x128xf32>
  %pm = bufferization.to_buffer %p : tensor<1x1x2x128xf32> to memref<1x1x2x128xf32>
  %u = memref.cast %pm : memref<1x1x2x128xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// CHECK: rank = 4 offset = 0 sizes = [1, 1, 2, 128]
// CHECK: {{\[}}[0, 1, 2, 3,
// CHECK-SAME: 126, 127],
// CHECK: [128, 129, 130,
// CHECK-SAME: 254, 255]
