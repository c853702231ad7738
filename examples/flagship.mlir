// The flagship example: XLA broadcasting, compute, store in a tiled layout.
//
//   r = 2 * (m + broadcast(v, dims (0)))      m: f32[4,8], v: f32[4]
//
// `layout.add` broadcasts the [4]-vector along the rows (XLA's
// broadcast_dimensions = (0)); `layout.multiply` broadcasts the scalar 2;
// its result is stored in XLA's tiled layout f32[4,8]{1,0:T(2,4)} (2x4
// tiles). The program prints the logical result (relayouted back to
// row-major) and the physical buffer (tile by tile).
//
// Run it with examples/run-main.sh BUILD_DIR, or by hand:
//   layout-opt examples/flagship.mlir --layout-lower-to-llvm -o /tmp/f.mlir
//   mlir-runner /tmp/f.mlir -e main -entry-point-result=void \
//     -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so

!tiled = memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %m = arith.constant dense<[[ 0.0,  1.0,  2.0,  3.0,  4.0,  5.0,  6.0,  7.0],
                             [ 8.0,  9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0],
                             [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0],
                             [24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<4x8xf32>
  %v = arith.constant dense<[100.0, 200.0, 300.0, 400.0]> : tensor<4xf32>
  %two = arith.constant dense<2.0> : tensor<f32>

  // Broadcast + compute; the result lives in the tiled layout.
  %s = layout.add %m, %v, dims = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  %r = layout.multiply %s, %two
      : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>

  // The logical result: relayout to row-major.
  %rt = bufferization.to_buffer %r read_only
      : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>> to !tiled
  %logical = memref.alloc() : memref<4x8xf32>
  layout.relayout %rt, %logical : !tiled, memref<4x8xf32>
  %lu = memref.cast %logical : memref<4x8xf32> to memref<*xf32>
  call @printMemrefF32(%lu) : (memref<*xf32>) -> ()

  // The physical buffer: 2x2 tiles of 2x4, one tile per printed row.
  %p = layout.to_physical %rt : !tiled -> memref<2x2x2x4xf32>
  %tiles = memref.collapse_shape %p [[0, 1], [2, 3]]
      : memref<2x2x2x4xf32> into memref<4x8xf32>
  %pu = memref.cast %tiles : memref<4x8xf32> to memref<*xf32>
  call @printMemrefF32(%pu) : (memref<*xf32>) -> ()
  memref.dealloc %logical : memref<4x8xf32>
  return
}
