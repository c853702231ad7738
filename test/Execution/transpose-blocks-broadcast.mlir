// broadcast_in_dim is a copy too: a transposing one (dims = [2, 0], a new
// middle dim) takes the blocked transposes (16 x 16 blocks over the
// destination's dims 0 and 2, overlapping edge blocks for 20 and 36). Every
// element of one broadcast slice is compared with the source in explicit
// loops (sum of absolute differences), and one element is printed.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s --convert-layout-to-affine | FileCheck %s --check-prefix=IR
// IR: vector.shuffle {{.*}} : vector<16xi32>, vector<16xi32>
// CHECK: 0
// CHECK-NEXT: 37
// CHECK-NEXT: 719

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %src = memref.alloc() : memref<20x36xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  %c36 = arith.constant 36 : index
  scf.for %i = %c0 to %c20 step %c1 {
    scf.for %j = %c0 to %c36 step %c1 {
      %l = affine.apply affine_map<(i, j) -> (i * 36 + j)>(%i, %j)
      %li = arith.index_cast %l : index to i64
      %f = arith.sitofp %li : i64 to f32
      memref.store %f, %src[%i, %j] : memref<20x36xf32>
    }
  }
  %t = bufferization.to_tensor %src restrict : memref<20x36xf32> to tensor<20x36xf32>
  %b = layout.broadcast_in_dim %t, dims = [2, 0] : (tensor<20x36xf32>) -> tensor<36x3x20xf32>
  %m = bufferization.to_buffer %b : tensor<36x3x20xf32> to memref<36x3x20xf32>
  %z = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %c20 step %c1 iter_args(%s0 = %z) -> f32 {
    %s1 = scf.for %j = %c0 to %c36 step %c1 iter_args(%a = %s0) -> f32 {
      %x = memref.load %src[%i, %j] : memref<20x36xf32>
      %c2 = arith.constant 2 : index
      %y = memref.load %m[%j, %c2, %i] : memref<36x3x20xf32>
      %d = arith.subf %x, %y : f32
      %ad = math.absf %d : f32
      %n = arith.addf %a, %ad : f32
      scf.yield %n : f32
    }
    scf.yield %s1 : f32
  }
  vector.print %sum : f32
  %e = memref.load %m[%c1, %c1, %c1] : memref<36x3x20xf32>
  vector.print %e : f32
  %c19 = arith.constant 19 : index
  %c35 = arith.constant 35 : index
  %g = memref.load %m[%c35, %c0, %c19] : memref<36x3x20xf32>
  vector.print %g : f32
  return
}
