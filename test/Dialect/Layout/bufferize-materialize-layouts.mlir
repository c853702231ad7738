// One layout spelled two ways is not a conflict: `#layout.tiled<{1,0}>` is
// row-major, `{0,1}` on a memref is the strided layout of the same bytes.
// RUN: layout-opt %s --layout-bufferize | FileCheck %s
// CHECK-LABEL: func.func @same(
//       CHECK:   memref.copy
func.func @same(%a: tensor<4x8xf32, #layout.tiled<{1,0}>>, %o: memref<4x8xf32>) {
  bufferization.materialize_in_destination %a in restrict writable %o : (tensor<4x8xf32, #layout.tiled<{1,0}>>, memref<4x8xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @strided(
//       CHECK:   memref.copy
func.func @strided(%a: tensor<4x8xf32, #layout.tiled<{0,1}>>, %o: memref<4x8xf32, strided<[1, 4]>>) {
  bufferization.materialize_in_destination %a in restrict writable %o : (tensor<4x8xf32, #layout.tiled<{0,1}>>, memref<4x8xf32, strided<[1, 4]>>) -> ()
  return
}
