// Dynamic tiled memrefs across function boundaries (docs/lowering.md,
// "Dynamic tiled memrefs at function boundaries"): a function takes
// memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>, whose descriptor carries the
// LOGICAL sizes and points at the physical buffer; the callee derives the
// physical extents (ceildiv per tile) itself. The same functions run on two
// shapes, so nothing is baked in from an allocation site.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// Without automatic deallocation (no clones of returned arguments).
// RUN: layout-opt %s --layout-lower-to-llvm="deallocate=false" -o %t.nodealloc.mlir
// RUN: mlir-runner %t.nodealloc.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

!dyn = memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
!dyn_t = memref<?x?xf32, #layout.tiled<{0,1:T(4,2)}>>
!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()

// Relayouts a dynamic tiled argument into a fresh row-major buffer of its
// logical sizes (memref.dim of the tiled argument is its logical size).
func.func @to_row_major(%t: !dyn) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.dim %t, %c0 : !dyn
  %c = memref.dim %t, %c1 : !dyn
  %out = memref.alloc(%r, %c) : memref<?x?xf32>
  layout.relayout %t, %out : !dyn, memref<?x?xf32>
  return %out : memref<?x?xf32>
}

// Row-major into a dynamic tiled destination argument (padding gets 0).
func.func @from_row_major(%src: memref<?x?xf32>, %dst: !dyn) {
  layout.relayout %src, %dst : memref<?x?xf32>, !dyn
  return
}

// Dynamic tiled to dynamic tiled, both arguments.
func.func @retile(%src: !dyn, %dst: !dyn_t) {
  layout.relayout %src, %dst : !dyn, !dyn_t
  return
}

// Binary ops on dynamic tiled operands where no dim can broadcast: the
// same tensor twice (equal sizes), and a scalar (expanded to a broadcast
// to the tiled operand's own sizes). Results row-major and tiled.
!tdyn = tensor<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func @double(%a: !dyn, %out: memref<?x?xf32>) {
  %ta = bufferization.to_tensor %a restrict : !dyn to !tdyn
  %r = layout.add %ta, %ta : (!tdyn, !tdyn) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

func.func @scale(%a: !dyn, %out: !dyn) {
  %ta = bufferization.to_tensor %a restrict : !dyn to !tdyn
  %s = arith.constant dense<10.0> : tensor<f32>
  %r = layout.multiply %ta, %s : (!tdyn, tensor<f32>) -> !tdyn
  bufferization.materialize_in_destination %r in restrict writable %out
      : (!tdyn, !dyn) -> ()
  return
}

// Two dynamic tiled operands: either may have a dim of size 1 at run time
// that broadcasts. A tiled operand has no stride-0 view, so such operands
// are relayouted into a row-major temporary first (one copy each).
func.func @add2(%a: !dyn, %b: !dyn, %out: memref<?x?xf32>) {
  %ta = bufferization.to_tensor %a restrict : !dyn to !tdyn
  %tb = bufferization.to_tensor %b restrict : !dyn to !tdyn
  %r = layout.add %ta, %tb : (!tdyn, !tdyn) -> tensor<?x?xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<?x?xf32>, memref<?x?xf32>) -> ()
  return
}

// Tensor level (bufferized by --layout-bufferize): a row-major tensor
// relayouted into a new dynamic tiled tensor, doubled, returned.
func.func @tile_and_double(%a: tensor<?x?xf32>) -> !tdyn {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : !tdyn
  %t = layout.relayout %a, %e : tensor<?x?xf32>, !tdyn -> !tdyn
  %r = layout.add %t, %t : (!tdyn, !tdyn) -> !tdyn
  return %r : !tdyn
}

// Overwrites a copy of the tiled argument %a (it is also returned as is):
// the bufferization's copy of a dynamic tiled tensor.
func.func @overwrite(%a: !tdyn, %b: tensor<?x?xf32>) -> (!tdyn, !tdyn) {
  %r = layout.relayout %b, %a : tensor<?x?xf32>, !tdyn -> !tdyn
  return %a, %r : !tdyn, !tdyn
}

// A `*` combine with a dynamic most-major dim: f32[?,3]{1,0:T(*,2)}.
!star = memref<?x3xf32, #layout.tiled<{1,0:T(*,2)}, [?,3]>>
func.func @star_to_row_major(%m: !star, %o: memref<?x3xf32>) {
  layout.relayout %m, %o : !star, memref<?x3xf32>
  return
}

// Returns a new dynamic tiled memref of n x m holding i*m+j+1 (a call
// result: the caller gets the logical descriptor).
func.func @make_tiled(%n: index, %m: index) -> !dyn {
  %rm = memref.alloc(%n, %m) : memref<?x?xf32>
  call @iota2(%rm) : (memref<?x?xf32>) -> ()
  %t = memref.alloc(%n, %m) : !dyn
  layout.relayout %rm, %t : memref<?x?xf32>, !dyn
  memref.dealloc %rm : memref<?x?xf32>
  return %t : !dyn
}

// Fills a row-major 2-d buffer with 1..N.
func.func @iota2(%m: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xf32>
  %d1 = memref.dim %m, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %r = arith.muli %i, %d1 : index
      %l = arith.addi %r, %j : index
      %l1 = arith.addi %l, %c1 : index
      %n = arith.index_cast %l1 : index to i64
      %v = arith.sitofp %n : i64 to f32
      memref.store %v, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}

func.func @print2(%m: memref<?x?xf32>) {
  %u = memref.cast %m : memref<?x?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @print1(%m: memref<?xf32>) {
  %u = memref.cast %m : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c24 = arith.constant 24 : index
  %sentinel = arith.constant -1.0 : f32

  // 1. Figure 1 written through logical indices (element (i,j) = i*5+j,
  // padding slots -1, as in figure1.mlir), then read by a function that
  // only sees the dynamic type.
  %m = memref.alloc() : !fig1
  %p = layout.to_physical %m : !fig1 -> memref<2x3x2x2xf32>
  %flat = memref.collapse_shape %p [[0, 1, 2, 3]]
      : memref<2x3x2x2xf32> into memref<24xf32>
  scf.for %k = %c0 to %c24 step %c1 {
    memref.store %sentinel, %flat[%k] : memref<24xf32>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %row = arith.muli %i, %c5 : index
      %lin = arith.addi %row, %j : index
      %int = arith.index_cast %lin : index to i64
      %v = arith.sitofp %int : i64 to f32
      memref.store %v, %m[%i, %j] : !fig1
    }
  }
  %flatd = memref.cast %flat : memref<24xf32> to memref<?xf32>
  call @print1(%flatd) : (memref<?xf32>) -> ()
  // CHECK: sizes = [24]
  // CHECK-NEXT: [0, 1, 5, 6, 2, 3, 7, 8, 4, -1, 9, -1, 10, 11, -1, -1, 12, 13, -1, -1, 14, -1, -1, -1]
  %md = memref.cast %m : !fig1 to !dyn
  %rm = call @to_row_major(%md) : (!dyn) -> memref<?x?xf32>
  call @print2(%rm) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: [0, 1, 2, 3, 4]
  // CHECK-NEXT: [5, 6, 7, 8, 9]
  // CHECK-NEXT: [10, 11, 12, 13, 14]

  // 2. Row-major 1..15 into the dynamic tiled destination: the padding
  // slots (-1 before) become 0.
  %src = memref.alloc() : memref<3x5xf32>
  %srcd = memref.cast %src : memref<3x5xf32> to memref<?x?xf32>
  call @iota2(%srcd) : (memref<?x?xf32>) -> ()
  call @from_row_major(%srcd, %md) : (memref<?x?xf32>, !dyn) -> ()
  call @print1(%flatd) : (memref<?xf32>) -> ()
  // CHECK: sizes = [24]
  // CHECK-NEXT: [1, 2, 6, 7, 3, 4, 8, 9, 5, 0, 10, 0, 11, 12, 0, 0, 13, 14, 0, 0, 15, 0, 0, 0]

  // 3. A 7x2 array made by a callee, returned as a dynamic tiled memref:
  // 4x1 tiles of 2x2 (the last row tile half padding).
  %t = call @make_tiled(%c7, %c2) : (index, index) -> !dyn
  %tp = layout.to_physical %t : !dyn -> memref<?x?x2x2xf32>
  %tf = memref.collapse_shape %tp [[0, 1, 2, 3]]
      : memref<?x?x2x2xf32> into memref<?xf32>
  call @print1(%tf) : (memref<?xf32>) -> ()
  // CHECK: sizes = [16]
  // CHECK-NEXT: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 0]
  %trm = call @to_row_major(%t) : (!dyn) -> memref<?x?xf32>
  call @print2(%trm) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [7, 2]
  // CHECK-NEXT: [1, 2]
  // CHECK-NEXT: [3, 4]
  // CHECK-NEXT: [5, 6]
  // CHECK-NEXT: [7, 8]
  // CHECK-NEXT: [9, 10]
  // CHECK-NEXT: [11, 12]
  // CHECK-NEXT: [13, 14]

  // 4. Dynamic tiled to dynamic tiled: Figure 1's 1..15 (part 2) into
  // f32[3,5]{0,1:T(4,2)}: physical [ceil(5/4), ceil(3/2), 4, 2] = 2x2x4x2.
  %u = memref.alloc(%c3, %c5) : !dyn_t
  call @retile(%md, %u) : (!dyn, !dyn_t) -> ()
  %up = layout.to_physical %u : !dyn_t -> memref<?x?x4x2xf32>
  %uf = memref.collapse_shape %up [[0, 1, 2, 3]]
      : memref<?x?x4x2xf32> into memref<?xf32>
  call @print1(%uf) : (memref<?xf32>) -> ()
  // CHECK: sizes = [32]
  // CHECK-NEXT: [1, 6, 2, 7, 3, 8, 4, 9, 11, 0, 12, 0, 13, 0, 14, 0, 5, 10, 0, 0, 0, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0]

  // 5. 1..15 + itself, into a row-major 3x5 destination.
  %dbl = memref.alloc() : memref<3x5xf32>
  %dbld = memref.cast %dbl : memref<3x5xf32> to memref<?x?xf32>
  call @double(%md, %dbld) : (!dyn, memref<?x?xf32>) -> ()
  call @print2(%dbld) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: [2, 4, 6, 8, 10]
  // CHECK-NEXT: [12, 14, 16, 18, 20]
  // CHECK-NEXT: [22, 24, 26, 28, 30]

  // 6. 1..15 times 10 into a tiled destination whose padding was -1: the
  // padding slots get 0.
  %w = memref.alloc() : !fig1
  %wp = layout.to_physical %w : !fig1 -> memref<2x3x2x2xf32>
  %wf = memref.collapse_shape %wp [[0, 1, 2, 3]]
      : memref<2x3x2x2xf32> into memref<24xf32>
  scf.for %k = %c0 to %c24 step %c1 {
    memref.store %sentinel, %wf[%k] : memref<24xf32>
  }
  %wd = memref.cast %w : !fig1 to !dyn
  call @scale(%md, %wd) : (!dyn, !dyn) -> ()
  %wfd = memref.cast %wf : memref<24xf32> to memref<?xf32>
  call @print1(%wfd) : (memref<?xf32>) -> ()
  // CHECK: sizes = [24]
  // CHECK-NEXT: [10, 20, 60, 70, 30, 40, 80, 90, 50, 0, 100, 0, 110, 120, 0, 0, 130, 140, 0, 0, 150, 0, 0, 0]

  // 7. `*`: 3x3 combined into 9 elements, tiles of 2 (5 tiles, the last
  // half padding); the callee reads it back row-major.
  %sr = memref.alloc() : memref<3x3xf32>
  %srd = memref.cast %sr : memref<3x3xf32> to memref<?x?xf32>
  call @iota2(%srd) : (memref<?x?xf32>) -> ()
  %st = memref.alloc(%c3) : !star
  %sr3 = memref.cast %sr : memref<3x3xf32> to memref<?x3xf32>
  layout.relayout %sr3, %st : memref<?x3xf32>, !star
  %stp = layout.to_physical %st : !star -> memref<?x2xf32>
  %stf = memref.collapse_shape %stp [[0, 1]] : memref<?x2xf32> into memref<?xf32>
  call @print1(%stf) : (memref<?xf32>) -> ()
  // CHECK: sizes = [10]
  // CHECK-NEXT: [1, 2, 3, 4, 5, 6, 7, 8, 9, 0]
  %so = memref.alloc() : memref<3x3xf32>
  %sod = memref.cast %so : memref<3x3xf32> to memref<?x3xf32>
  call @star_to_row_major(%st, %sod) : (!star, memref<?x3xf32>) -> ()
  %so2 = memref.cast %so : memref<3x3xf32> to memref<?x?xf32>
  call @print2(%so2) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: [1, 2, 3]
  // CHECK-NEXT: [4, 5, 6]
  // CHECK-NEXT: [7, 8, 9]

  // 8. 1..15 (3x5) + a 1x5 tiled row 1..5 (broadcast along dim 0 at run
  // time), + a 1x1 tiled 100 (both dims), + itself (no broadcast).
  %row = memref.alloc() : memref<1x5xf32>
  %rowd = memref.cast %row : memref<1x5xf32> to memref<?x?xf32>
  call @iota2(%rowd) : (memref<?x?xf32>) -> ()
  %rowt = memref.alloc() : memref<1x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  layout.relayout %row, %rowt : memref<1x5xf32>, memref<1x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %rowtd = memref.cast %rowt : memref<1x5xf32, #layout.tiled<{1,0:T(2,2)}>> to !dyn
  call @add2(%md, %rowtd, %dbld) : (!dyn, !dyn, memref<?x?xf32>) -> ()
  call @print2(%dbld) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: [2, 4, 6, 8, 10]
  // CHECK-NEXT: [7, 9, 11, 13, 15]
  // CHECK-NEXT: [12, 14, 16, 18, 20]
  %c100 = arith.constant 100.0 : f32
  %one = memref.alloc() : memref<1x1xf32, #layout.tiled<{1,0:T(2,2)}>>
  memref.store %c100, %one[%c0, %c0] : memref<1x1xf32, #layout.tiled<{1,0:T(2,2)}>>
  %oned = memref.cast %one : memref<1x1xf32, #layout.tiled<{1,0:T(2,2)}>> to !dyn
  call @add2(%oned, %md, %dbld) : (!dyn, !dyn, memref<?x?xf32>) -> ()
  call @print2(%dbld) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: [101, 102, 103, 104, 105]
  // CHECK-NEXT: [106, 107, 108, 109, 110]
  // CHECK-NEXT: [111, 112, 113, 114, 115]
  call @add2(%md, %md, %dbld) : (!dyn, !dyn, memref<?x?xf32>) -> ()
  call @print2(%dbld) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: [2, 4, 6, 8, 10]
  // CHECK-NEXT: [12, 14, 16, 18, 20]
  // CHECK-NEXT: [22, 24, 26, 28, 30]

  // 9. Tensor functions: 1..15 tiled and doubled (padding 0), then the
  // tiled tensor (still 1..15) returned as is next to a copy overwritten
  // with 2..30.
  %srct = bufferization.to_tensor %srcd restrict : memref<?x?xf32> to tensor<?x?xf32>
  %dt = call @tile_and_double(%srct) : (tensor<?x?xf32>) -> !tdyn
  %db = bufferization.to_buffer %dt read_only : !tdyn to !dyn
  %dbp = layout.to_physical %db : !dyn -> memref<?x?x2x2xf32>
  %dbf = memref.collapse_shape %dbp [[0, 1, 2, 3]]
      : memref<?x?x2x2xf32> into memref<?xf32>
  call @print1(%dbf) : (memref<?xf32>) -> ()
  // CHECK: sizes = [24]
  // CHECK-NEXT: [2, 4, 12, 14, 6, 8, 16, 18, 10, 0, 20, 0, 22, 24, 0, 0, 26, 28, 0, 0, 30, 0, 0, 0]
  %mt = bufferization.to_tensor %md restrict : !dyn to !tdyn
  %twice = bufferization.to_tensor %dbld restrict : memref<?x?xf32> to tensor<?x?xf32>
  %same, %over = call @overwrite(%mt, %twice) : (!tdyn, tensor<?x?xf32>) -> (!tdyn, !tdyn)
  %sameb = bufferization.to_buffer %same read_only : !tdyn to !dyn
  %samer = call @to_row_major(%sameb) : (!dyn) -> memref<?x?xf32>
  call @print2(%samer) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: [1, 2, 3, 4, 5]
  // CHECK-NEXT: [6, 7, 8, 9, 10]
  // CHECK-NEXT: [11, 12, 13, 14, 15]
  %overb = bufferization.to_buffer %over read_only : !tdyn to !dyn
  %overr = call @to_row_major(%overb) : (!dyn) -> memref<?x?xf32>
  call @print2(%overr) : (memref<?x?xf32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: [2, 4, 6, 8, 10]
  // CHECK-NEXT: [12, 14, 16, 18, 20]
  // CHECK-NEXT: [22, 24, 26, 28, 30]
  return
}
