// RUN: layout-opt %s --convert-layout-to-affine -split-input-file -verify-diagnostics | FileCheck %s

// Figure 1, row-major -> {1,0:T(2,2)}: the destination's physical view is
// walked tile by tile. Full tiles (rows 0-1, columns 0-3) run without
// checks; the partial column tile, the partial row tile and the padding
// slots have their own loops; padding gets 0 (no PV). The innermost loops
// have no floordiv/mod.
// CHECK-LABEL: func.func @to_figure1
// CHECK-SAME: (%[[SRC:.*]]: memref<3x5xf32>, %[[DST:.*]]: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK: %[[P:.*]] = layout.to_physical %[[DST]] {{.*}} -> memref<2x3x2x2xf32>
// CHECK: %[[PAD:.*]] = arith.constant 0.000000e+00 : f32
// Full tiles: tile row 0, tile columns 0 and 1.
// CHECK: affine.for %[[TJ:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 2 {
// CHECK-NOT: floordiv
// CHECK-NOT: mod
// CHECK: affine.for %[[C:.*]] = 0 to 2 {
// CHECK-NEXT: %[[V:.*]] = affine.load %[[SRC]][%{{.*}}, %[[C]] + %{{.*}}]
// CHECK-NEXT: affine.store %[[V]], %[[P]][0, %[[TJ]], %[[R]], %[[C]]]
// Partial column tile (column 4) and its padding column.
// CHECK: affine.store %{{.*}}, %[[P]][0, 2, %{{.*}}, 0]
// CHECK-NEXT: affine.store %[[PAD]], %[[P]][0, 2, %{{.*}}, 1]
// Partial row tile: row 2 valid, row 3 padding.
// CHECK: affine.store %[[PAD]], %[[P]][1, %{{.*}}, 1, %{{.*}}]
// CHECK: affine.store %[[PAD]], %[[P]][1, 2, 1, %{{.*}}]
// CHECK-NOT: layout.relayout
func.func @to_figure1(%a: memref<3x5xf32>, %b: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// -----

// Figure 1 -> row-major: the destination row is contiguous; the source's
// column index would need floordiv/mod per element, so the row is split into
// runs of 2 (getAffineRun): the division happens once per run, outside the
// innermost loop, which reads base + offset.
// CHECK-LABEL: func.func @from_figure1
// CHECK: %[[P:.*]] = layout.to_physical
// CHECK: affine.for %[[I:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[S:.*]] = 0 to 3 {
// CHECK: affine.apply
// CHECK: affine.for %[[J:.*]] = max
// CHECK-NOT: floordiv
// CHECK-NOT: mod
// CHECK: affine.load %[[P]]
// CHECK-NEXT: affine.store %{{.*}}[%[[I]], %[[J]]] : memref<3x5xf32>
// CHECK-NEXT: }
func.func @from_figure1(%a: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %b: memref<3x5xf32>) {
  layout.relayout %a, %b : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, memref<3x5xf32>
  return
}

// -----

// Exact tiles (bf16 T(8,128)(2,1) on 16x256): no checks, no padding loops,
// one nest over the physical dims (the size-1 dim is not a loop).
// CHECK-LABEL: func.func @exact_tiles
// CHECK-COUNT-5: affine.for
// CHECK-NOT: affine.for
// CHECK: affine.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, 0] : memref<2x2x4x128x2x1xbf16>
func.func @exact_tiles(%a: memref<16x256xbf16>, %b: memref<16x256xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>) {
  layout.relayout %a, %b : memref<16x256xbf16>, memref<16x256xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
  return
}

// -----

// A single-use broadcast_in_dim is fused into its consumer: its operand is
// read with the broadcast's index map, nothing is materialized.
// CHECK-LABEL: func.func @fused
// CHECK-SAME: (%[[M:.*]]: tensor<3x3xf32>, %[[V:.*]]: tensor<3xf32>)
// CHECK-DAG: %[[MB:.*]] = bufferization.to_buffer %[[M]] read_only : tensor<3x3xf32> to memref<3x3xf32>
// CHECK-DAG: %[[VB:.*]] = bufferization.to_buffer %[[V]] read_only : tensor<3xf32> to memref<3xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<3x3xf32>
// CHECK-NOT: memref.alloc
// CHECK: affine.for %[[I:.*]] = 0 to 3 {
// CHECK-NEXT: affine.for %[[J:.*]] = 0 to 3 {
// CHECK-NEXT: %[[A:.*]] = affine.load %[[MB]][%[[I]], %[[J]]]
// CHECK-NEXT: %[[B:.*]] = affine.load %[[VB]][%[[I]]]
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT: affine.store %[[S]], %[[OUT]][%[[I]], %[[J]]]
// CHECK: %[[R:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT: layout.broadcast_in_dim
// CHECK: return %[[R]]
func.func @fused(%m: tensor<3x3xf32>, %v: tensor<3xf32>) -> tensor<3x3xf32> {
  %b = layout.broadcast_in_dim %v, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
  %r = layout.multiply %m, %b : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// -----

// A broadcast with two uses is materialized once.
// CHECK-LABEL: func.func @two_uses
// CHECK-COUNT-3: memref.alloc()
// CHECK-NOT: layout.
func.func @two_uses(%m: tensor<2x3xf32>, %v: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %b = layout.broadcast_in_dim %v, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %r = layout.add %m, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = layout.subtract %m, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r, %s : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// XLA semantics of the scalar ops: compare gives i1 (signed on signless
// integers), integer division guards zero and INT_MIN / -1, shifts by an
// out-of-range amount give 0 (left, logical) or the sign (arithmetic).
// CHECK-LABEL: func.func @scalar_semantics
// CHECK: memref.alloc() : memref<4xi1>
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi eq
// CHECK: arith.divsi
// CHECK: arith.select
// CHECK: arith.cmpi ult
// CHECK: arith.shli
// CHECK: arith.select
// CHECK: arith.cmpi ult
// CHECK: arith.shrsi
func.func @scalar_semantics(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %c = layout.compare LT, %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %d = layout.divide %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %l = layout.shift_left %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %r = layout.shift_right_arithmetic %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %c, %d, %l, %r : tensor<4xi1>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

func.func @dynamic(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{cannot be lowered to loops: dynamic shapes need --convert-layout-to-scf}}
  %r = layout.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// 8-bit floats are computed in f32 and rounded back, as XLA does on the CPU
// (--layout-expand-narrow-floats lowers the extf/truncf later).
// CHECK-LABEL: func.func @f8_arith
// CHECK: affine.for
// CHECK: %[[A:.+]] = arith.extf %{{.+}} : f8E4M3FN to f32
// CHECK: %[[B:.+]] = arith.extf %{{.+}} : f8E4M3FN to f32
// CHECK: %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK: arith.truncf %[[S]] : f32 to f8E4M3FN
func.func @f8_arith(%a: tensor<4xf8E4M3FN>, %b: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  %r = layout.add %a, %b : (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %r : tensor<4xf8E4M3FN>
}

// -----

// A `*` layout without dims takes the sizes from the memref shape: the
// combined index t*4+e of dims (b, c) of 3x2x5 is split by the inner size 5.
// CHECK-LABEL: func.func @combine_without_dims
// CHECK: %[[P:.*]] = layout.to_physical %{{.*}} : memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>> -> memref<2x3x2x4xf32>
// CHECK: affine.for %[[T:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[R:.*]] = 0 to 2 {
// CHECK-NEXT: affine.for %[[E:.*]] = 0 to 4 {
// CHECK-NEXT: %[[V:.*]] = affine.load %{{.*}}[%[[R]], (%[[T]] * 4 + %[[E]]) floordiv 5, (%[[T]] * 4 + %[[E]]) mod 5] : memref<3x2x5xf32>
// CHECK-NEXT: affine.store %[[V]], %[[P]][0, %[[T]], %[[R]], %[[E]]] : memref<2x3x2x4xf32>
func.func @combine_without_dims(%src: memref<3x2x5xf32>, %dst: memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>) {
  layout.relayout %src, %dst : memref<3x2x5xf32>, memref<3x2x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}>>
  return
}
