// --convert-layout-to-linalg inlines layout.fusion (the body's ops take the
// ordinary conversions); upstream's elementwise fusion fuses the chain into
// one linalg.generic again.
// RUN: layout-opt %s --layout-fuse --convert-layout-to-linalg | FileCheck %s
// RUN: layout-opt %s --layout-fuse --convert-layout-to-linalg \
// RUN:   --linalg-generalize-named-ops --linalg-fuse-elementwise-ops \
// RUN:   | FileCheck %s --check-prefix=FUSED

// CHECK-LABEL: func.func @chain(
//   CHECK-NOT:   layout.
//       CHECK:   linalg.sub
//       CHECK:   linalg.mul
//       CHECK:   linalg.add
//       CHECK:   linalg.max
//   CHECK-NOT:   layout.
// FUSED-LABEL: func.func @chain(
//       FUSED:   linalg.generic
//       FUSED:     arith.subf
//       FUSED:     arith.mulf
//       FUSED:     arith.addf
//       FUSED:     arith.maximumf
//   FUSED-NOT:   linalg.generic
//       FUSED:   return
func.func @chain(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>, %d: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = layout.subtract %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = layout.multiply %0, %c : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = layout.add %1, %d : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %3 = layout.maximum %2, %a : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %3 : tensor<64x64xf32>
}
