// RUN: layout-opt %s --convert-layout-to-linalg -split-input-file -verify-diagnostics | FileCheck %s

// Figure 1: f32[3,5]{1,0:T(2,2)}: one pack, incomplete tiles padded with 0.
// CHECK-LABEL: func.func @fig1
// CHECK-SAME: (%[[SRC:.+]]: tensor<3x5xf32>)
// CHECK-NOT: tensor.empty() : tensor<3x5xf32
// CHECK-DAG: %[[INIT:.+]] = tensor.empty() : tensor<2x3x2x2xf32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[P:.+]] = linalg.pack %[[SRC]] padding_value(%[[ZERO]] : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %[[INIT]] : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
// CHECK: %[[R:.+]] = layout.from_physical %[[P]] : tensor<2x3x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK: return %[[R]]
func.func @fig1(%src: tensor<3x5xf32>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %e = tensor.empty() : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %r = layout.relayout %src, %e : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// PV(highest) is the padding value; an exact tiling needs none.
// CHECK-LABEL: func.func @padding_values
// CHECK: %[[MAX:.+]] = arith.constant 2147483647 : i32
// CHECK: linalg.pack %{{.+}} padding_value(%[[MAX]] : i32) inner_dims_pos = [0, 1] inner_tiles = [2, 2]
// CHECK: linalg.pack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %{{.+}} : tensor<4x4xi32> -> tensor<2x2x2x2xi32>
func.func @padding_values(%a: tensor<3x5xi32>, %b: tensor<4x4xi32>) -> (tensor<3x5xi32, #layout.tiled<{1,0:T(2,2)PV(highest)}>>, tensor<4x4xi32, #layout.tiled<{1,0:T(2,2)}>>) {
  %e = tensor.empty() : tensor<3x5xi32, #layout.tiled<{1,0:T(2,2)PV(highest)}>>
  %r = layout.relayout %a, %e : tensor<3x5xi32>, tensor<3x5xi32, #layout.tiled<{1,0:T(2,2)PV(highest)}>> -> tensor<3x5xi32, #layout.tiled<{1,0:T(2,2)PV(highest)}>>
  %e2 = tensor.empty() : tensor<4x4xi32, #layout.tiled<{1,0:T(2,2)}>>
  %r2 = layout.relayout %b, %e2 : tensor<4x4xi32>, tensor<4x4xi32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<4x4xi32, #layout.tiled<{1,0:T(2,2)}>>
  return %r, %r2 : tensor<3x5xi32, #layout.tiled<{1,0:T(2,2)PV(highest)}>>, tensor<4x4xi32, #layout.tiled<{1,0:T(2,2)}>>
}

// Column-major: minor_to_major {0,1} is outer_dims_perm = [1, 0], the tiled
// minor suffix (dim 1, dim 0) is inner_dims_pos = [1, 0]; rank-3 {0,2,1}
// with a 2-entry tile covers only dims 2 and 0.
// CHECK-LABEL: func.func @column_major
// CHECK: linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %{{.+}} : tensor<3x5xf32> -> tensor<3x2x2x2xf32>
// CHECK: layout.from_physical %{{.+}} : tensor<3x2x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>
// CHECK: linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [1, 2, 0] inner_dims_pos = [2, 0] inner_tiles = [4, 2] into %{{.+}} : tensor<3x5x6xf32> -> tensor<5x2x2x4x2xf32>
func.func @column_major(%a: tensor<3x5xf32>, %b: tensor<3x5x6xf32>) -> (tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>, tensor<3x5x6xf32, #layout.tiled<{0,2,1:T(4,2)}>>) {
  %e = tensor.empty() : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>
  %r = layout.relayout %a, %e : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>
  %e2 = tensor.empty() : tensor<3x5x6xf32, #layout.tiled<{0,2,1:T(4,2)}>>
  %r2 = layout.relayout %b, %e2 : tensor<3x5x6xf32>, tensor<3x5x6xf32, #layout.tiled<{0,2,1:T(4,2)}>> -> tensor<3x5x6xf32, #layout.tiled<{0,2,1:T(4,2)}>>
  return %r, %r2 : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>, tensor<3x5x6xf32, #layout.tiled<{0,2,1:T(4,2)}>>
}

// Tiled -> row-major: layout.to_physical, then linalg.unpack.
// CHECK-LABEL: func.func @unpack
// CHECK-SAME: (%[[SRC:.+]]: tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>)
// CHECK: %[[P:.+]] = layout.to_physical %[[SRC]] : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>> -> tensor<3x2x2x2xf32>
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<3x5xf32>
// CHECK: %[[U:.+]] = linalg.unpack %[[P]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %[[INIT]] : tensor<3x2x2x2xf32> -> tensor<3x5xf32>
// CHECK: return %[[U]]
func.func @unpack(%src: tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %r = layout.relayout %src, %e : tensor<3x5xf32, #layout.tiled<{0,1:T(2,2)}>>, tensor<3x5xf32> -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

// Tiled -> tiled: a pack of an unpack.
// CHECK-LABEL: func.func @tiled_to_tiled
// CHECK: layout.to_physical
// CHECK: %[[U:.+]] = linalg.unpack {{.+}} inner_dims_pos = [0, 1] inner_tiles = [2, 2]
// CHECK: %[[P:.+]] = linalg.pack %[[U]] {{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [0] inner_tiles = [4]
// CHECK: layout.from_physical %[[P]] : tensor<5x1x4xf32> -> tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
func.func @tiled_to_tiled(%src: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>> {
  %e = tensor.empty() : tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
  %r = layout.relayout %src, %e : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>> -> tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
  return %r : tensor<3x5xf32, #layout.tiled<{0,1:T(4)}>>
}

// Dynamic outer dims are fine for a pack: the destination's count is
// ceildiv(d, 2), and a dynamic tiled dim always gets the padding value.
// CHECK-LABEL: func.func @dynamic_pack
// CHECK-SAME: (%[[SRC:.+]]: tensor<?x5xf32>,
// CHECK: %[[D:.+]] = tensor.dim %[[SRC]], %{{.+}} : tensor<?x5xf32>
// CHECK: %[[N:.+]] = affine.apply #{{.+}}()[%[[D]]]
// CHECK: %[[INIT:.+]] = tensor.empty(%[[N]]) : tensor<?x3x2x2xf32>
// CHECK: %[[P:.+]] = linalg.pack %[[SRC]] padding_value(%{{.+}} : f32) inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %[[INIT]] : tensor<?x5xf32> -> tensor<?x3x2x2xf32>
// CHECK: layout.from_physical %[[P]] : tensor<?x3x2x2xf32> -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func @dynamic_pack(%src: tensor<?x5xf32>, %n: index) -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %e = tensor.empty(%n) : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %r = layout.relayout %src, %e : tensor<?x5xf32>, tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// Figure 2: T(2,4)(2,1) has two tile levels: pad -> reshape -> transpose
// per level (no padding here: 4x8 is a multiple of 2x4).
// CHECK-LABEL: func.func @fig2
// CHECK-NOT: linalg.pack
// CHECK: %[[E1:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2, 3]] output_shape [2, 2, 2, 4] : tensor<4x8xf32> into tensor<2x2x2x4xf32>
// CHECK: %[[T1:.+]] = linalg.transpose ins(%[[E1]] : tensor<2x2x2x4xf32>) outs(%{{.+}} : tensor<2x2x2x4xf32>) permutation = [0, 2, 1, 3]
// CHECK: %[[E2:.+]] = tensor.expand_shape %[[T1]] {{\[}}[0], [1], [2, 3], [4, 5]] output_shape [2, 2, 1, 2, 4, 1] : tensor<2x2x2x4xf32> into tensor<2x2x1x2x4x1xf32>
// CHECK: %[[T2:.+]] = linalg.transpose ins(%[[E2]] : tensor<2x2x1x2x4x1xf32>) outs(%{{.+}} : tensor<2x2x1x4x2x1xf32>) permutation = [0, 1, 2, 4, 3, 5]
// CHECK: layout.from_physical %[[T2]] : tensor<2x2x1x4x2x1xf32> -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
func.func @fig2(%src: tensor<4x8xf32>) -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>> {
  %e = tensor.empty() : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  %r = layout.relayout %src, %e : tensor<4x8xf32>, tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>> -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  return %r : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
}

// `*` combines dims before tiling: collapse_shape, pad, expand, transpose.
// CHECK-LABEL: func.func @combine
// CHECK-NOT: linalg.pack
// CHECK: %[[C:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<2x3x5xf32> into tensor<6x5xf32>
// CHECK: %[[P:.+]] = tensor.pad %[[C]] low[0, 0] high[0, 1]
// CHECK: tensor<6x5xf32> to tensor<6x6xf32>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2, 3]] output_shape [3, 2, 2, 3]
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<3x2x2x3xf32>) outs(%{{.+}} : tensor<3x2x2x3xf32>) permutation = [0, 2, 1, 3]
// CHECK: layout.from_physical %[[T]] : tensor<3x2x2x3xf32> -> tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)}, [2,3,5]>>
func.func @combine(%src: tensor<2x3x5xf32>) -> tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)}, [2,3,5]>> {
  %e = tensor.empty() : tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)}, [2,3,5]>>
  %r = layout.relayout %src, %e : tensor<2x3x5xf32>, tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)}, [2,3,5]>> -> tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)}, [2,3,5]>>
  return %r : tensor<2x3x5xf32, #layout.tiled<{2,1,0:T(*,2,3)}, [2,3,5]>>
}

// Legacy padding: tensor.pad in logical order (PV(one)), then the
// minor_to_major transpose.
// CHECK-LABEL: func.func @legacy
// CHECK-NOT: linalg.pack
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0] high[1, 2]
// CHECK: tensor.yield %[[ONE]]
// CHECK: tensor<2x3xf32> to tensor<3x5xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[P]] : tensor<3x5xf32>) outs(%{{.+}} : tensor<5x3xf32>) permutation = [1, 0]
// CHECK: layout.from_physical %[[T]] : tensor<5x3xf32> -> tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
func.func @legacy(%src: tensor<2x3xf32>) -> tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>> {
  %e = tensor.empty() : tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
  %r = layout.relayout %src, %e : tensor<2x3xf32>, tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>> -> tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
  return %r : tensor<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(one)}>>
}

// A tile longer than the rank (XLA prepends size-1 dims): the decomposition.
// CHECK-LABEL: func.func @long_tile
// CHECK-NOT: linalg.pack
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [1, 5] : tensor<5xf32> into tensor<1x5xf32>
func.func @long_tile(%src: tensor<5xf32>) -> tensor<5xf32, #layout.tiled<{0:T(2,2)}>> {
  %e = tensor.empty() : tensor<5xf32, #layout.tiled<{0:T(2,2)}>>
  %r = layout.relayout %src, %e : tensor<5xf32>, tensor<5xf32, #layout.tiled<{0:T(2,2)}>> -> tensor<5xf32, #layout.tiled<{0:T(2,2)}>>
  return %r : tensor<5xf32, #layout.tiled<{0:T(2,2)}>>
}

// Same layouts without padding slots: the source (the physical buffer as is).
// CHECK-LABEL: func.func @same
// CHECK-SAME: (%[[SRC:.+]]: tensor
// CHECK-NEXT: return %[[SRC]]
func.func @same(%src: tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %e = tensor.empty() : tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>
  %r = layout.relayout %src, %e : tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<4x6xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// Same layouts with padding slots: the relayout writes the padding value,
// so the source's padding is not copied: unpack, then pack with the pad.
// CHECK-LABEL: func.func @same_padded
// CHECK: linalg.unpack
// CHECK: linalg.pack {{.+}} padding_value
func.func @same_padded(%src: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %e = tensor.empty() : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %r = layout.relayout %src, %e : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// Memref relayouts are left for the loop lowerings.
// CHECK-LABEL: func.func @memref
// CHECK: layout.relayout
func.func @memref(%a: memref<3x5xf32>, %b: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// -----

// broadcast_in_dim: operand dims of size 1 that are expanded are collapsed
// away (linalg.broadcast only adds dims).
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[X:.+]]: tensor<1x2xf32>, %[[Y:.+]]: tensor<4x3x1xf32>)
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<1x2xf32> into tensor<2xf32>
// CHECK: %[[I:.+]] = tensor.empty() : tensor<4x3x2xf32>
// CHECK: %[[B:.+]] = linalg.broadcast ins(%[[C]] : tensor<2xf32>) outs(%[[I]] : tensor<4x3x2xf32>) dimensions = [0, 1]
// CHECK: %[[C2:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0], [1, 2]] : tensor<4x3x1xf32> into tensor<4x3xf32>
// CHECK: %[[B2:.+]] = linalg.broadcast ins(%[[C2]] : tensor<4x3xf32>) outs(%{{.+}} : tensor<4x3x2xf32>) dimensions = [2]
// CHECK: return %[[B]], %[[B2]]
func.func @broadcast(%x: tensor<1x2xf32>, %y: tensor<4x3x1xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>) {
  %a = layout.broadcast_in_dim %x, dims = [1, 2] : (tensor<1x2xf32>) -> tensor<4x3x2xf32>
  %b = layout.broadcast_in_dim %y, dims = [0, 1, 2] : (tensor<4x3x1xf32>) -> tensor<4x3x2xf32>
  return %a, %b : tensor<4x3x2xf32>, tensor<4x3x2xf32>
}

// Non-increasing dims: the operand is transposed first; a scalar gets
// every dim; a kept size-1 dim stays.
// CHECK-LABEL: func.func @broadcast_transpose
// CHECK: %[[T:.+]] = linalg.transpose ins(%{{.+}} : tensor<2x3xf32>) outs(%{{.+}} : tensor<3x2xf32>) permutation = [1, 0]
// CHECK: linalg.broadcast ins(%[[T]] : tensor<3x2xf32>) outs(%{{.+}} : tensor<3x4x2xf32>) dimensions = [1]
// CHECK: linalg.broadcast ins(%{{.+}} : tensor<f32>) outs(%{{.+}} : tensor<2x3xf32>) dimensions = [0, 1]
// CHECK: linalg.broadcast ins(%{{.+}} : tensor<1x3xf32>) outs(%{{.+}} : tensor<1x3x5xf32>) dimensions = [2]
func.func @broadcast_transpose(%x: tensor<2x3xf32>, %s: tensor<f32>, %o: tensor<1x3xf32>) -> (tensor<3x4x2xf32>, tensor<2x3xf32>, tensor<1x3x5xf32>) {
  %a = layout.broadcast_in_dim %x, dims = [2, 0] : (tensor<2x3xf32>) -> tensor<3x4x2xf32>
  %b = layout.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
  %c = layout.broadcast_in_dim %o, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<1x3x5xf32>
  return %a, %b, %c : tensor<3x4x2xf32>, tensor<2x3xf32>, tensor<1x3x5xf32>
}

// Dynamic sizes: tensor.empty with the `sizes` operands; a dynamic operand
// dim that the result takes (no sizes) is kept.
// CHECK-LABEL: func.func @broadcast_dynamic
// CHECK-SAME: (%[[V:.+]]: tensor<3xf32>, %[[N:.+]]: index, %[[Y:.+]]: tensor<?xf32>)
// CHECK: %[[I:.+]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK: linalg.broadcast ins(%[[V]] : tensor<3xf32>) outs(%[[I]] : tensor<?x3xf32>) dimensions = [0]
// CHECK: %[[D:.+]] = tensor.dim %[[Y]]
// CHECK: %[[I2:.+]] = tensor.empty(%[[D]]) : tensor<4x?xf32>
// CHECK: linalg.broadcast ins(%[[Y]] : tensor<?xf32>) outs(%[[I2]] : tensor<4x?xf32>) dimensions = [0]
func.func @broadcast_dynamic(%v: tensor<3xf32>, %n: index, %y: tensor<?xf32>) -> (tensor<?x3xf32>, tensor<4x?xf32>) {
  %a = layout.broadcast_in_dim %v, dims = [1] sizes(%n) : (tensor<3xf32>) -> tensor<?x3xf32>
  %b = layout.broadcast_in_dim %y, dims = [1] : (tensor<?xf32>) -> tensor<4x?xf32>
  return %a, %b : tensor<?x3xf32>, tensor<4x?xf32>
}

// A tiled result: broadcast into row-major, then pack.
// CHECK-LABEL: func.func @broadcast_tiled
// CHECK: %[[B:.+]] = linalg.broadcast
// CHECK: %[[P:.+]] = linalg.pack %[[B]] inner_dims_pos = [0, 1] inner_tiles = [2, 4]
// CHECK: layout.from_physical %[[P]]
func.func @broadcast_tiled(%v: tensor<4xf32>) -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>> {
  %a = layout.broadcast_in_dim %v, dims = [0] : (tensor<4xf32>) -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  return %a : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
}

// -----

// Binary ops: implicit broadcasting is expanded first; named ops where their
// arith bodies are XLA's semantics.
// CHECK-LABEL: func.func @named
// CHECK-SAME: (%[[M:.+]]: tensor<2x3xf32>, %[[V:.+]]: tensor<3xf32>, %[[A:.+]]: tensor<4xi32>, %[[B:.+]]: tensor<4xi32>)
// CHECK: %[[BV:.+]] = linalg.broadcast ins(%[[V]] : tensor<3xf32>) outs(%{{.+}} : tensor<2x3xf32>) dimensions = [0]
// CHECK: %[[I:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[ADD:.+]] = linalg.add ins(%[[M]], %[[BV]] : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[I]] : tensor<2x3xf32>)
// CHECK: linalg.sub ins(%[[ADD]], %[[M]]
// CHECK: linalg.mul
// CHECK: linalg.div ins(%{{.+}}, %[[M]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: linalg.max
// CHECK: linalg.min
// CHECK: linalg.powf
// CHECK: linalg.add ins(%[[A]], %[[B]] : tensor<4xi32>, tensor<4xi32>)
// CHECK: linalg.max ins(%[[A]], %[[B]] : tensor<4xi32>, tensor<4xi32>)
func.func @named(%m: tensor<2x3xf32>, %v: tensor<3xf32>, %a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>) {
  %0 = layout.add %m, %v, dims = [1] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = layout.subtract %0, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = layout.multiply %1, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = layout.divide %2, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = layout.maximum %3, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = layout.minimum %4, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = layout.power %5, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = layout.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %8 = layout.maximum %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %6, %7, %8 : tensor<2x3xf32>, tensor<4xi32>, tensor<4xi32>
}

// Otherwise linalg.generic with the loop lowering's scalar code: XLA's
// integer divide (x / 0 = -1), compare to i1, i1 add = or, shifts.
// CHECK-LABEL: func.func @generic
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<4xi32>, tensor<4xi32>) outs(%{{.+}} : tensor<4xi32>)
// CHECK: arith.divsi
// CHECK: arith.select
// CHECK: linalg.yield
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<4xi1>)
// CHECK: arith.cmpf olt
// CHECK: linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<4xi1>, tensor<4xi1>)
// CHECK: arith.ori
// CHECK: linalg.generic
// CHECK: arith.shli
func.func @generic(%a: tensor<4xi32>, %b: tensor<4xi32>, %f: tensor<4xf32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>) {
  %0 = layout.divide %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = layout.compare LT, %f, %f : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = layout.add %p, %p : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = layout.shift_left %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>
}

// Tiled operands are unpacked first, tiled results packed.
// CHECK-LABEL: func.func @tiled_operands
// CHECK: %[[U:.+]] = linalg.unpack
// CHECK: %[[ADD:.+]] = linalg.add ins(%[[U]], %{{.+}} : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK: %[[P:.+]] = linalg.pack %[[ADD]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [4, 2]
// CHECK: layout.from_physical %[[P]] : tensor<2x2x4x2xf32> -> tensor<4x8xf32, #layout.tiled<{0,1:T(4,2)}>>
func.func @tiled_operands(%a: tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>, %b: tensor<4x8xf32>) -> tensor<4x8xf32, #layout.tiled<{0,1:T(4,2)}>> {
  %0 = layout.add %a, %b : (tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>, tensor<4x8xf32>) -> tensor<4x8xf32, #layout.tiled<{0,1:T(4,2)}>>
  return %0 : tensor<4x8xf32, #layout.tiled<{0,1:T(4,2)}>>
}

// -----

func.func @dynamic_fig2(%src: tensor<?x8xf32>, %n: index) -> tensor<?x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>> {
  %e = tensor.empty(%n) : tensor<?x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  // expected-error @+1 {{'layout.relayout' op cannot be converted to linalg: destination: dynamic shape tensor<?x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>: the layout is not one linalg.pack (repeated tiling (more than one tile level)) and the pad/reshape/transpose form needs static shapes}}
  %r = layout.relayout %src, %e : tensor<?x8xf32>, tensor<?x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>> -> tensor<?x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
  return %r : tensor<?x8xf32, #layout.tiled<{1,0:T(2,4)(2,1)}>>
}

// -----

func.func @complex_padding(%src: tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>, #layout.tiled<{1,0:T(2,2)}>> {
  %e = tensor.empty() : tensor<3x5xcomplex<f32>, #layout.tiled<{1,0:T(2,2)}>>
  // expected-error @+1 {{cannot be converted to linalg: destination: no arith.constant padding value for element type complex<f32> (incomplete tiles of tensor<3x5xcomplex<f32>, #layout.tiled<{1,0:T(2,2)}>>)}}
  %r = layout.relayout %src, %e : tensor<3x5xcomplex<f32>>, tensor<3x5xcomplex<f32>, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xcomplex<f32>, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<3x5xcomplex<f32>, #layout.tiled<{1,0:T(2,2)}>>
}

// -----

func.func @runtime_broadcast(%y: tensor<?xf32>, %n: index, %k: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'layout.broadcast_in_dim' op cannot be converted to linalg: operand dim 0 is dynamic and may be 1 at run time while result dim 1 is not}}
  %b = layout.broadcast_in_dim %y, dims = [1] sizes(%n, %k) : (tensor<?xf32>) -> tensor<?x?xf32>
  return %b : tensor<?x?xf32>
}

// -----

// 8-bit floats are computed in f32 and rounded back (XLA on the CPU).
// CHECK-LABEL: func.func @f8
// CHECK: linalg.generic
// CHECK: %[[A:.+]] = arith.extf %{{.+}} : f8E5M2 to f32
// CHECK: %[[B:.+]] = arith.extf %{{.+}} : f8E5M2 to f32
// CHECK: %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK: %[[T:.+]] = arith.truncf %[[S]] : f32 to f8E5M2
// CHECK: linalg.yield %[[T]] : f8E5M2
func.func @f8(%a: tensor<4xf8E5M2>, %b: tensor<4xf8E5M2>) -> tensor<4xf8E5M2> {
  %0 = layout.add %a, %b : (tensor<4xf8E5M2>, tensor<4xf8E5M2>) -> tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}
