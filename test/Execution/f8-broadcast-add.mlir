// The example of docs/lowering.md ("Element types"): f8E4M3FN arithmetic is
// computed in f32 and rounded back to f8E4M3FN (round to nearest even; a sum
// above the largest value, 448, becomes NaN: the format has no infinity).
// A 4x8 matrix plus a broadcast 8-vector through --layout-lower-to-llvm,
// printed through f32.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// Rows vectorize: the conversions are arith code on vectors too.
// RUN: layout-opt %s --convert-layout-to-affine="vector-bytes=8" | FileCheck %s --check-prefix=VEC
// VEC-LABEL: func.func @add
// VEC: %[[A:.+]] = arith.extf %{{.+}} : vector<8xf8E4M3FN> to vector<8xf32>
// VEC: %[[B:.+]] = arith.extf %{{.+}} : vector<8xf8E4M3FN> to vector<8xf32>
// VEC: %[[S:.+]] = arith.addf %[[A]], %[[B]] : vector<8xf32>
// VEC: arith.truncf %[[S]] : vector<8xf32> to vector<8xf8E4M3FN>

func.func private @printMemrefF32(memref<*xf32>)

func.func @add(%m: tensor<4x8xf8E4M3FN>, %v: tensor<8xf8E4M3FN>) -> tensor<4x8xf8E4M3FN> {
  %s = "layout.add"(%m, %v) {broadcast_dimensions = array<i64: 1>} : (tensor<4x8xf8E4M3FN>, tensor<8xf8E4M3FN>) -> tensor<4x8xf8E4M3FN>
  return %s : tensor<4x8xf8E4M3FN>
}

func.func @main() {
  %m = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                             [0.5, 0.25, 0.125, -1.0, -2.0, -4.0, 448.0, -448.0],
                             [10.0, 12.0, 14.0, 16.0, 18.0, 20.0, 24.0, 28.0],
                             [0.001953125, 0.00390625, 0.0, -0.0, 1.125, 240.0, 256.0, 320.0]]> : tensor<4x8xf8E4M3FN>
  %v = arith.constant dense<[0.0625, 1.0, 0.5, 1.0, 0.25, 8.0, 32.0, 64.0]> : tensor<8xf8E4M3FN>
  %s = call @add(%m, %v) : (tensor<4x8xf8E4M3FN>, tensor<8xf8E4M3FN>) -> tensor<4x8xf8E4M3FN>
  %sm = bufferization.to_buffer %s : tensor<4x8xf8E4M3FN> to memref<4x8xf8E4M3FN>
  %o = memref.alloc() : memref<4x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %e = memref.load %sm[%i, %j] : memref<4x8xf8E4M3FN>
      %w = arith.extf %e : f8E4M3FN to f32
      memref.store %w, %o[%i, %j] : memref<4x8xf32>
    }
  }
  %oc = memref.cast %o : memref<4x8xf32> to memref<*xf32>
  call @printMemrefF32(%oc) : (memref<*xf32>) -> ()
  // 1 + 0.0625 is a tie between 1 and 1.125: even, 1. 7 + 32 = 39 -> 40.
  // CHECK: [1, 3, 3.5, 5, 5, 14, 40, 72]
  // 448 + 32 = 480 > 464 (the tie above 448): NaN.
  // CHECK-NEXT: [0.5625, 1.25, 0.625, 0, -1.75, 4, nan, -384]
  // Ties 14.5 -> 14, 17 -> 16, 92 -> 96 (even mantissas).
  // CHECK-NEXT: [10, 13, 14, 16, 18, 28, 56, 96]
  // 2^-9 (the smallest subnormal) + 0.0625 -> 0.0625; 248 -> 256 (tie).
  // CHECK-NEXT: [0.0625, 1, 0.5, 1, 1.375, 256, 288, 384]
  return
}
