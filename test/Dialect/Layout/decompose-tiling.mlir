// --layout-decompose-tiling: tensor relayouts become XLA's pad -> reshape ->
// transpose with upstream ops (test/Execution/decompose-tiling.mlir checks
// the bytes).
// RUN: layout-opt %s --layout-decompose-tiling | FileCheck %s

// Figure 1: pad 3x5 to 4x6, split into (2,2)x(3,2), tile dims to the end.
// CHECK-LABEL: func.func @figure1
// CHECK-SAME: (%[[S:[^:]+]]: tensor<3x5xf32>
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PAD:.+]] = tensor.pad %[[S]] low[0, 0] high[1, 1]
// CHECK: tensor.yield %[[ZERO]]
// CHECK: } : tensor<3x5xf32> to tensor<4x6xf32>
// CHECK-NEXT: %[[SPLIT:.+]] = tensor.expand_shape %[[PAD]] {{\[}}[0, 1], [2, 3]] output_shape [2, 2, 3, 2] : tensor<4x6xf32> into tensor<2x2x3x2xf32>
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty() : tensor<2x3x2x2xf32>
// CHECK-NEXT: %[[T:.+]] = linalg.transpose ins(%[[SPLIT]] : tensor<2x2x3x2xf32>) outs(%[[INIT]] : tensor<2x3x2x2xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[R:.+]] = layout.from_physical %[[T]] : tensor<2x3x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: return %[[R]]
func.func @figure1(%s: tensor<3x5xf32>, %d: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %r = layout.relayout %s, %d : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// Figure 2: two levels; the second tile (2,1) splits the within-tile dims
// of the first. No padding: no tensor.pad.
// CHECK-LABEL: func.func @figure2
// CHECK-SAME: (%[[S:[^:]+]]: tensor<4x8xbf16>
// CHECK-NOT: tensor.pad
// CHECK: %[[E1:.+]] = tensor.expand_shape %[[S]] {{\[}}[0, 1], [2, 3]] output_shape [2, 2, 2, 4] : tensor<4x8xbf16> into tensor<2x2x2x4xbf16>
// CHECK: %[[T1:.+]] = linalg.transpose ins(%[[E1]] : tensor<2x2x2x4xbf16>) outs(%{{.+}} : tensor<2x2x2x4xbf16>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[E2:.+]] = tensor.expand_shape %[[T1]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [2, 2, 1, 2, 4, 1] : tensor<2x2x2x4xbf16> into tensor<2x2x1x2x4x1xbf16>
// CHECK: %[[T2:.+]] = linalg.transpose ins(%[[E2]] : tensor<2x2x1x2x4x1xbf16>) outs(%{{.+}} : tensor<2x2x1x4x2x1xbf16>) permutation = [0, 1, 2, 4, 3, 5]
// CHECK-NEXT: layout.from_physical %[[T2]] : tensor<2x2x1x4x2x1xbf16> -> tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>
func.func @figure2(%s: tensor<4x8xbf16>, %d: tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>) -> tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>> {
  %r = layout.relayout %s, %d : tensor<4x8xbf16>, tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>> -> tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  return %r : tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>
}

// The `*` example of XLA's tiled-layout document: [2,7,8,11,10] combines to [112,110] (collapse
// before padding), pads 110 to 111, tiles to (56,37,2,3). PV(highest) pads
// with the largest finite f32.
// CHECK-LABEL: func.func @combine
// CHECK-SAME: (%[[S:[^:]+]]: tensor<2x7x8x11x10xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1, 2], [3, 4]] : tensor<2x7x8x11x10xf32> into tensor<112x110xf32>
// CHECK: %[[MAX:.+]] = arith.constant 3.40282347E+38 : f32
// CHECK: %[[P:.+]] = tensor.pad %[[C]] low[0, 0] high[0, 1]
// CHECK: tensor.yield %[[MAX]]
// CHECK: } : tensor<112x110xf32> to tensor<112x111xf32>
// CHECK-NEXT: %[[E:.+]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2, 3]] output_shape [56, 2, 37, 3] : tensor<112x111xf32> into tensor<56x2x37x3xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<56x2x37x3xf32>) outs(%{{.+}} : tensor<56x37x2x3xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: layout.from_physical %[[T]] : tensor<56x37x2x3xf32>
!combined = tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)PV(highest)}, [2,7,8,11,10]>>
func.func @combine(%s: tensor<2x7x8x11x10xf32>, %d: !combined) -> !combined {
  %r = layout.relayout %s, %d : tensor<2x7x8x11x10xf32>, !combined -> !combined
  return %r : !combined
}

// The same layout without dims: the sizes come from the tensor shape.
// CHECK-LABEL: func.func @combine_without_dims
// CHECK-SAME: (%[[S:[^:]+]]: tensor<2x7x8x11x10xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1, 2], [3, 4]] : tensor<2x7x8x11x10xf32> into tensor<112x110xf32>
// CHECK: } : tensor<112x110xf32> to tensor<112x111xf32>
// CHECK-NEXT: %[[E:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2, 3]] output_shape [56, 2, 37, 3] : tensor<112x111xf32> into tensor<56x2x37x3xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<56x2x37x3xf32>) outs(%{{.+}} : tensor<56x37x2x3xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: layout.from_physical %[[T]] : tensor<56x37x2x3xf32> -> tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
!combinedNoDims = tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
func.func @combine_without_dims(%s: tensor<2x7x8x11x10xf32>, %d: !combinedNoDims) -> !combinedNoDims {
  %r = layout.relayout %s, %d : tensor<2x7x8x11x10xf32>, !combinedNoDims -> !combinedNoDims
  return %r : !combinedNoDims
}

// Between a `*` layout with and without its dims (equivalent layouts, no
// padding slots): a view of the same buffer, no data movement.
// CHECK-LABEL: func.func @equivalent_layouts
// CHECK-SAME: (%[[S:[^:]+]]: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>
// CHECK-NEXT: %[[P:.+]] = layout.to_physical %[[S]] : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>> -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[V:.+]] = layout.from_physical %[[P]] : tensor<2x3x4xf32> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>
// CHECK-NEXT: return %[[V]]
func.func @equivalent_layouts(%s: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>, %d: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>) -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>> {
  %r = layout.relayout %s, %d : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}, [2,3,4]>>, tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>
  return %r : tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,4)}>>
}

// A tile longer than the shape prepends size-1 dims first.
// CHECK-LABEL: func.func @prepend
// CHECK-SAME: (%[[S:[^:]+]]: tensor<6xi32>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[S]] {{\[}}[0, 1]] output_shape [1, 6] : tensor<6xi32> into tensor<1x6xi32>
// CHECK: %[[P:.+]] = tensor.pad %[[E]] low[0, 0] high[1, 2]
// CHECK: } : tensor<1x6xi32> to tensor<2x8xi32>
// CHECK-NEXT: tensor.expand_shape %[[P]] {{\[}}[0, 1], [2, 3]] output_shape [1, 2, 2, 4] : tensor<2x8xi32> into tensor<1x2x2x4xi32>
// CHECK: layout.from_physical %{{.+}} : tensor<1x2x2x4xi32> -> tensor<6xi32, #layout.tiled<{0:T(2,4)}>>
func.func @prepend(%s: tensor<6xi32>, %d: tensor<6xi32, #layout.tiled<{0:T(2,4)}>>) -> tensor<6xi32, #layout.tiled<{0:T(2,4)}>> {
  %r = layout.relayout %s, %d : tensor<6xi32>, tensor<6xi32, #layout.tiled<{0:T(2,4)}>> -> tensor<6xi32, #layout.tiled<{0:T(2,4)}>>
  return %r : tensor<6xi32, #layout.tiled<{0:T(2,4)}>>
}

// Legacy padding (logical order, PV(one)) before the minor_to_major
// transpose (column-major).
// CHECK-LABEL: func.func @legacy_padding
// CHECK-SAME: (%[[S:[^:]+]]: tensor<2x3xf32>
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[P:.+]] = tensor.pad %[[S]] low[0, 0] high[1, 2]
// CHECK: tensor.yield %[[ONE]]
// CHECK: } : tensor<2x3xf32> to tensor<3x5xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[P]] : tensor<3x5xf32>) outs(%{{.+}} : tensor<5x3xf32>) permutation = [1, 0]
// CHECK-NEXT: layout.from_physical %[[T]] : tensor<5x3xf32> -> tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
func.func @legacy_padding(%s: tensor<2x3xf32>, %d: tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>) -> tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>> {
  %r = layout.relayout %s, %d : tensor<2x3xf32>, tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>> -> tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
  return %r : tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
}

// Column-major tiled -> row-major: the inverse sequence, starting from the
// physical tensor and dropping the padding with extract_slice.
// CHECK-LABEL: func.func @column_major_to_row
// CHECK-SAME: (%[[S:[^:]+]]: tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>
// CHECK-NEXT: %[[P:.+]] = layout.to_physical %[[S]] : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>> -> tensor<3x2x2x2xf32>
// CHECK-NEXT: tensor.empty() : tensor<3x2x2x2xf32>
// CHECK-NEXT: %[[T:.+]] = linalg.transpose ins(%[[P]] : tensor<3x2x2x2xf32>) outs(%{{.+}} : tensor<3x2x2x2xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1], [2, 3]] : tensor<3x2x2x2xf32> into tensor<6x4xf32>
// CHECK-NEXT: %[[X:.+]] = tensor.extract_slice %[[C]][0, 0] [5, 3] [1, 1] : tensor<6x4xf32> to tensor<5x3xf32>
// CHECK-NEXT: tensor.empty() : tensor<3x5xf32>
// CHECK-NEXT: %[[R:.+]] = linalg.transpose ins(%[[X]] : tensor<5x3xf32>) outs(%{{.+}} : tensor<3x5xf32>) permutation = [1, 0]
// CHECK-NEXT: return %[[R]]
func.func @column_major_to_row(%s: tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>, %d: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = layout.relayout %s, %d : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>, tensor<3x5xf32> -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// Tiled -> tiled goes through the logical tensor; `*` is undone with
// expand_shape.
// CHECK-LABEL: func.func @tiled_to_tiled
// CHECK: layout.to_physical
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2, 3]] : tensor<3x2x2x3xf32> into tensor<6x6xf32>
// CHECK: tensor.extract_slice %{{.+}}[0, 0] [6, 5] [1, 1] : tensor<6x6xf32> to tensor<6x5xf32>
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2]] output_shape [2, 3, 5] : tensor<6x5xf32> into tensor<2x3x5xf32>
// CHECK: tensor.pad
// CHECK: layout.from_physical %{{.+}} : tensor<2x1x3x4x2xf32> -> tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(4,2)}>>
// CHECK-NOT: layout.relayout
!star = tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)}, [2,3,5]>>
!other = tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(4,2)}>>
func.func @tiled_to_tiled(%s: !star, %d: !other) -> !other {
  %r = layout.relayout %s, %d : !star, !other -> !other
  return %r : !other
}

// Dynamic shapes and memrefs are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK: layout.relayout
// CHECK: layout.relayout
func.func @untouched(%s: tensor<?x5xf32>, %d: tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>,
                     %a: memref<3x5xf32>, %b: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %r = layout.relayout %s, %d : tensor<?x5xf32>, tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}
