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
// Dynamic sizes, and size-1 dims, which do not move a byte.
// CHECK-LABEL: func.func @dynamic(
//       CHECK:   memref.copy
func.func @dynamic(%a: tensor<?x8xf32, #layout.tiled<{1,0}>>, %o: memref<?x8xf32>) {
  bufferization.materialize_in_destination %a in restrict writable %o : (tensor<?x8xf32, #layout.tiled<{1,0}>>, memref<?x8xf32>) -> ()
  return
}
// CHECK-LABEL: func.func @unit_dim(
//       CHECK:   memref.copy
func.func @unit_dim(%a: tensor<1x8xf32, #layout.tiled<{0,1}>>, %o: memref<1x8xf32>) {
  bufferization.materialize_in_destination %a in restrict writable %o : (tensor<1x8xf32, #layout.tiled<{0,1}>>, memref<1x8xf32>) -> ()
  return
}
