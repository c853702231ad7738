// layout.fusion lowers to one nest over its result (FusionLowering.cpp):
// each leaf read through its composed dim map, the body's ops per element
// in registers, no intermediate buffer; a relayout inside the tree is the
// identity, only the leaves' and the result's layouts are addressed.
// RUN: layout-opt %s --layout-expand-broadcasts --layout-fuse \
// RUN:   '--convert-layout-to-affine=vector-bytes=0 report-kernels=true' \
// RUN:   2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// Vector rows: the same nest with one vector op per body op.
// RUN: layout-opt %s --layout-expand-broadcasts --layout-fuse \
// RUN:   '--convert-layout-to-affine=vector-bytes=32 report-kernels=true' \
// RUN:   2>%t.vremarks | FileCheck %s --check-prefix=VEC
// RUN: FileCheck %s --check-prefix=VREMARK < %t.vremarks

// (a - b) * c + broadcast(v, dims 0), stored transposed ({0,1}): the
// vector v is read by row index, a, b and c by (i, j); one allocation, the
// result's.
// CHECK-LABEL: func.func @tree(
//   CHECK-DAG:   %[[A:.*]] = bufferization.to_buffer %arg0
//   CHECK-DAG:   %[[B:.*]] = bufferization.to_buffer %arg1
//   CHECK-DAG:   %[[C:.*]] = bufferization.to_buffer %arg2
//   CHECK-DAG:   %[[V:.*]] = bufferization.to_buffer %arg3
//       CHECK:   %[[R:.*]] = memref.alloc() : memref<4x8xf32, #layout.tiled<{0,1}>>
//       CHECK:   %[[P:.*]] = layout.to_physical %[[R]]
//       CHECK:   affine.for %[[J:.*]] = 0 to 8 {
//       CHECK:     affine.for %[[I:.*]] = 0 to 4 {
//   CHECK-DAG:       %[[X:.*]] = affine.load %[[A]][%[[I]], %[[J]]]
//   CHECK-DAG:       %[[Y:.*]] = affine.load %[[B]][%[[I]], %[[J]]]
//   CHECK-DAG:       %[[Z:.*]] = affine.load %[[C]][%[[I]], %[[J]]]
//   CHECK-DAG:       %[[W:.*]] = affine.load %[[V]][%[[I]]]
//       CHECK:       %[[S:.*]] = arith.subf %[[X]], %[[Y]]
//       CHECK:       %[[M:.*]] = arith.mulf %[[S]], %[[Z]]
//       CHECK:       %[[T:.*]] = arith.addf %[[M]], %[[W]]
//       CHECK:       affine.store %[[T]], %[[P]][%[[J]], %[[I]]]
//   CHECK-NOT:   memref.alloc
//       CHECK:   bufferization.to_tensor %[[R]]
// REMARK: remark: kernel: scalar
// VEC-LABEL: func.func @tree(
//       VEC:   arith.subf {{.*}} : vector<
//       VEC:   arith.mulf {{.*}} : vector<
//       VEC:   arith.addf {{.*}} : vector<
// VREMARK: remark: kernel: transpose-blocks
func.func @tree(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>, %v: tensor<4xf32>) -> tensor<4x8xf32, #layout.tiled<{0,1}>> {
  %0 = layout.subtract %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = layout.multiply %0, %c : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = layout.add %1, %v, dims = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32, #layout.tiled<{0,1}>>
  %3 = layout.relayout %2, %e : tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{0,1}>> -> tensor<4x8xf32, #layout.tiled<{0,1}>>
  return %3 : tensor<4x8xf32, #layout.tiled<{0,1}>>
}
