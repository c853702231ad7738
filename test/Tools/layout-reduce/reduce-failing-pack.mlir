// layout-reduce shrinks this module to the op that makes
// --layout-lower-linalg-pack fail (Inputs/lower-pack-fails.sh decides):
// the other ops and functions, including a valid pack and a layout.relayout
// that the reducer must parse, are removed.
// RUN: not layout-opt %s --layout-lower-linalg-pack 2>&1 | FileCheck %s --check-prefix=FAILS
// FAILS: cannot lower 'linalg.pack' of element type 'complex<f32>'
// RUN: layout-reduce %s -reduction-tree='traversal-mode=0 test=%S/Inputs/lower-pack-fails.sh' | FileCheck %s

// CHECK: module {
// CHECK-NEXT: func.func @complex(%[[S:.+]]: tensor<4x4xcomplex<f32>>, %[[D:.+]]: tensor<2x2x2x2xcomplex<f32>>)
// CHECK-NEXT: linalg.pack %[[S]] inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %[[D]]
// CHECK-NEXT: return
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: func.func
// CHECK-NOT: layout.relayout
func.func @relayout(%s: tensor<3x5xf32>, %d: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %r = layout.relayout %s, %d : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

func.func @complex(%s: tensor<4x4xcomplex<f32>>, %d: tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> {
  %c = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<4x4xcomplex<f32>> -> tensor<2x2x2x2xcomplex<f32>>
  return %p : tensor<2x2x2x2xcomplex<f32>>
}

func.func @valid_pack(%s: tensor<3x5xf32>, %d: tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %p = linalg.pack %s padding_value(%zero : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %d : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}
