// RUN: layout-opt %s --layout-lower-linalg-pack -split-input-file \
// RUN:   -verify-diagnostics | FileCheck %s

// Figure 1's tiling as a pack: pad 3x5 to 4x6, expand to 2x2x3x2, then
// transpose to the tile-major 2x3x2x2.
// CHECK-LABEL: func.func @pack
// CHECK-SAME: (%[[S:.+]]: tensor<3x5xf32>, %[[D:.+]]: tensor<2x3x2x2xf32>)
// CHECK: %[[P:.+]] = tensor.pad %[[S]] low[0, 0] high[1, 1]
// CHECK: tensor<3x5xf32> to tensor<4x6xf32>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 2, 3, 2] : tensor<4x6xf32> into tensor<2x2x3x2xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<2x2x3x2xf32>) outs(%[[D]] : tensor<2x3x2x2xf32>) permutation = [0, 2, 1, 3]
// CHECK-NOT: linalg.pack
// CHECK: return %[[T]]
func.func @pack(%s: tensor<3x5xf32>, %d: tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %p = linalg.pack %s padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}

// -----

// The inverse: unpack extracts the 3x5 array from the transposed tiles.
// CHECK-LABEL: func.func @unpack
// CHECK: linalg.transpose
// CHECK: tensor.collapse_shape
// CHECK: tensor.extract_slice
// CHECK-NOT: linalg.unpack
func.func @unpack(%p: tensor<2x3x2x2xf32>, %d: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<2x3x2x2xf32> -> tensor<3x5xf32>
  return %u : tensor<3x5xf32>
}

// -----

// Complex elements without a padding value: upstream would build an
// invalid arith zero.
func.func @complex(%s: tensor<4x4xcomplex<f32>>, %d: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  // expected-error @+1 {{--layout-lower-to-llvm: cannot lower 'linalg.pack' of element type 'complex<f32>' without a padding value}}
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<4x4xcomplex<f32>> -> tensor<2x2x2x2xcomplex<f32>>
  return %p : tensor<2x2x2x2xcomplex<f32>>
}

// -----

// Dynamic inner tiles cannot be lowered.
func.func @dynamic_tile(%s: tensor<8xf32>, %d: tensor<?x?xf32>, %t: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{--layout-lower-to-llvm: cannot lower 'linalg.pack' (dynamic inner tiles)}}
  %p = linalg.pack %s inner_dims_pos = [0] inner_tiles = [%t] into %d : tensor<8xf32> -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
