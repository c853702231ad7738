// `report-kernels`: every layout op --convert-layout-to-scf/-affine lowers
// gets a remark `kernel: NAME` naming the kernel its loops took (the names
// of NestKernel.h); without the option there is no remark.
// RUN: layout-opt %s --convert-layout-to-scf=report-kernels=true -split-input-file -verify-diagnostics -o /dev/null
// RUN: layout-opt %s --convert-layout-to-affine=report-kernels=true -split-input-file -verify-diagnostics -o /dev/null
// The pipeline has the option too (x86-64-v4: 64-byte vectors, as the
// conversions' default).
// RUN: layout-opt %s --layout-lower-to-llvm="report-kernels=true target-cpu=x86-64-v4" -split-input-file -verify-diagnostics -o /dev/null
// (The expectations are renamed first, which layout-opt would otherwise
// report as not produced.)
// RUN: sed 's/expected-remark/no-remark/' %s | layout-opt --convert-layout-to-scf -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: sed 's/expected-remark/no-remark/' %s | layout-opt --convert-layout-to-affine=report-kernels=false -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: remark
// QUIET-NOT: kernel:

// Same layouts, no padding: a copy of the physical buffer.
!t = memref<16x256xf32, #layout.tiled<{1,0:T(8,128)}>>
func.func @same_layout(%src: !t, %dst: !t) {
  // expected-remark @below {{kernel: copy}}
  layout.relayout %src, %dst : !t, !t
  return
}

// -----

// The same from the streaming-store size on (nontemporal-threshold-bytes,
// 4 MiB): the nest's vector rows with streaming stores, not memcpy, over
// the physical buffers as flat rows.
!t = memref<1024x1024xf32, #layout.tiled<{1,0:T(8,128)}>>
func.func @same_layout_large(%src: !t, %dst: !t) {
  // expected-remark @below {{kernel: row-copy}}
  layout.relayout %src, %dst : !t, !t
  return
}

// -----

!r = memref<1024x1024xf32>
func.func @same_row_major_large(%src: !r, %dst: !r) {
  // expected-remark @below {{kernel: row-copy}}
  layout.relayout %src, %dst : !r, !r
  return
}

// -----

// A transpose of f32 rows: 16 x 16 blocks in registers, and a second
// remark with the blocks' geometry (TransposeBlockKernel::describe).
func.func @transpose(%src: memref<64x64xf32>,
                     %dst: memref<64x64xf32, #layout.tiled<{0,1}>>) {
  // expected-remark @below {{kernel: transpose-blocks}}
  // expected-remark @below {{transpose-blocks: 16 x 16 blocks, 1 wide, groups of 64 rows}}
  layout.relayout %src, %dst
      : memref<64x64xf32>, memref<64x64xf32, #layout.tiled<{0,1}>>
  return
}

// -----

// Row-major into (8,128) tiles: the destination's physical dims walked in
// the source's order.
!t = memref<16x256xf32, #layout.tiled<{1,0:T(8,128)}>>
func.func @into_tiles(%src: memref<16x256xf32>, %dst: !t) {
  // expected-remark @below {{kernel: source-walk-into-tiles}}
  layout.relayout %src, %dst : memref<16x256xf32>, !t
  return
}

// -----

// Elementwise: vector rows of the add; a broadcast fused into its user is
// not lowered on its own (no remark of its own).
func.func @add(%a: tensor<4x64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %bb = layout.broadcast_in_dim %b, dims = [1]
      : (tensor<64xf32>) -> tensor<4x64xf32>
  // expected-remark @below {{kernel: vector-rows}}
  %r = layout.add %a, %bb : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// -----

// A broadcast_in_dim on its own: vector rows of a copy.
func.func @broadcast(%b: tensor<64xf32>) -> tensor<4x64xf32> {
  // expected-remark @below {{kernel: row-copy}}
  %bb = layout.broadcast_in_dim %b, dims = [1]
      : (tensor<64xf32>) -> tensor<4x64xf32>
  return %bb : tensor<4x64xf32>
}

// -----

// An element function that takes no vectors (integer remainder: XLA's
// division by zero): scalar loops.
func.func @rem(%a: tensor<4x64xi32>, %b: tensor<4x64xi32>) -> tensor<4x64xi32> {
  // expected-remark @below {{kernel: scalar}}
  %r = layout.remainder %a, %b : (tensor<4x64xi32>, tensor<4x64xi32>) -> tensor<4x64xi32>
  return %r : tensor<4x64xi32>
}

// -----

// Tiled -> tiled past the planner's 2^24 slots: the run walk's bound is on
// its runs (kMaxRunWalkStarts, 2^22), not on the slots: 2^25 slots in 2^19
// runs of 64 elements.
!s = memref<8192x4096xf32, #layout.tiled<{1,0:T(8,128)}>>
!d = memref<8192x4096xf32, #layout.tiled<{1,0:T(16,64)}>>
func.func @run_walk_large(%src: !s, %dst: !d) {
  // expected-remark @below {{kernel: run-walk}}
  layout.relayout %src, %dst : !s, !d
  return
}

// -----

// 2^23 runs: over the bound, the destination's rows in runs.
!s = memref<16384x32768xf32, #layout.tiled<{1,0:T(8,128)}>>
!d = memref<16384x32768xf32, #layout.tiled<{1,0:T(16,64)}>>
func.func @run_walk_too_many_runs(%src: !s, %dst: !d) {
  // expected-remark @below {{kernel: rows-in-runs}}
  layout.relayout %src, %dst : !s, !d
  return
}
