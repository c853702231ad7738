// `*` layouts written without their dims (docs/dialect.md): the layout takes
// the sizes from the memref / tensor shape. Executed through
// --layout-lower-to-llvm (and through scf loops, the tensor decomposition,
// linalg and the bitcast folding),
// with the physical buffers printed. Expected values follow docs/semantics.md
// §3 by hand (and the tiled-layout document's combine example):
// - f32[2,3,4]{2,1,0:T(*,8)}: dims 1 and 2 merge into one of size 12 (index
//   j*4+k), tiled by 8 -> physical 2x2x8; each row e0 holds its 12 elements
//   then 4 padding slots (0, no PV).
// - f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}: [112,110] (r = e0*56+e1*8+e2,
//   s = e3*10+e4) tiled by (2,3) -> physical 56x37x2x3; slot
//   ((r/2)*37 + s/3)*6 + (r%2)*3 + s%3 holds the iota value 1 + r*110 + s,
//   and s = 110 (the last column of each 2x3 tile row) is padding.
// The dims-less and the dims-carrying forms are equivalent layouts: the
// relayout between them copies the buffer and writes the padding.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --convert-layout-to-scf --layout-lower-to-llvm -o %t.scf.mlir
// RUN: mlir-runner %t.scf.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-decompose-tiling --layout-lower-to-llvm -o %t.dec.mlir
// RUN: mlir-runner %t.dec.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --convert-layout-to-linalg --layout-lower-to-llvm -o %t.linalg.mlir
// RUN: mlir-runner %t.linalg.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-fold-relayouts --layout-lower-to-llvm -o %t.fold.mlir
// RUN: mlir-runner %t.fold.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s

!rm = memref<2x3x4xf32>
!s8 = memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
!s8d = memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
!doc = memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
!docrm = memref<2x7x8x11x10xf32>
!ts8 = tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
!ts8d = tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>

func.func private @printMemrefF32(memref<*xf32>)
func.func private @printI64(i64)
func.func private @printNewline()

// Fills a 1-d buffer with 1..N (or with a constant when %c is given).
func.func @iota(%m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %k = arith.index_cast %i1 : index to i64
    %v = arith.sitofp %k : i64 to f32
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

func.func @fill(%m: memref<?xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

func.func @print1(%m: memref<?xf32, strided<[1], offset: ?>>) {
  %u = memref.cast %m : memref<?xf32, strided<[1], offset: ?>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// Number of elements where a and b differ.
func.func @mismatches(%a: memref<?xf32>, %b: memref<?xf32>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %n = memref.dim %a, %c0 : memref<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> i64 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = memref.load %b[%i] : memref<?xf32>
    %ne = arith.cmpf une, %x, %y : f32
    %inc = arith.select %ne, %one, %z : i64
    %s = arith.addi %acc, %inc : i64
    scf.yield %s : i64
  }
  return %r : i64
}

// Tensors: row-major -> dims-less -> dims-carrying -> row-major.
func.func @tensors(%x: tensor<2x3x4xf32>) -> (tensor<2x2x8xf32>, tensor<2x2x8xf32>, tensor<2x3x4xf32>) {
  %e = tensor.empty() : !ts8
  %a = layout.relayout %x, %e : tensor<2x3x4xf32>, !ts8 -> !ts8
  %pa = layout.to_physical %a : !ts8 -> tensor<2x2x8xf32>
  %e2 = tensor.empty() : !ts8d
  %b = layout.relayout %a, %e2 : !ts8, !ts8d -> !ts8d
  %pb = layout.to_physical %b : !ts8d -> tensor<2x2x8xf32>
  %e3 = tensor.empty() : tensor<2x3x4xf32>
  %back = layout.relayout %b, %e3 : !ts8d, tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  return %pa, %pb, %back : tensor<2x2x8xf32>, tensor<2x2x8xf32>, tensor<2x3x4xf32>
}

func.func @main() {
  %minus1 = arith.constant -1.0 : f32

  // {2,1,0:T(*,8)} on memrefs, in, across to the dims-carrying form, out.
  %flat = memref.alloc() : memref<24xf32>
  %flatd = memref.cast %flat : memref<24xf32> to memref<?xf32>
  call @iota(%flatd) : (memref<?xf32>) -> ()
  %rm = memref.expand_shape %flat [[0, 1, 2]] output_shape [2, 3, 4] : memref<24xf32> into !rm
  %a = memref.alloc() : !s8
  layout.relayout %rm, %a : !rm, !s8
  %pa = layout.to_physical %a : !s8 -> memref<2x2x8xf32>
  %fa = memref.collapse_shape %pa [[0, 1, 2]] : memref<2x2x8xf32> into memref<32xf32>
  %fad = memref.cast %fa : memref<32xf32> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%fad) : (memref<?xf32, strided<[1], offset: ?>>) -> ()
  %b = memref.alloc() : !s8d
  %pb = layout.to_physical %b : !s8d -> memref<2x2x8xf32>
  %fb = memref.collapse_shape %pb [[0, 1, 2]] : memref<2x2x8xf32> into memref<32xf32>
  %fbd = memref.cast %fb : memref<32xf32> to memref<?xf32>
  call @fill(%fbd, %minus1) : (memref<?xf32>, f32) -> ()
  layout.relayout %a, %b : !s8, !s8d
  %fbs = memref.cast %fb : memref<32xf32> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%fbs) : (memref<?xf32, strided<[1], offset: ?>>) -> ()
  %back = memref.alloc() : memref<24xf32>
  %backrm = memref.expand_shape %back [[0, 1, 2]] output_shape [2, 3, 4] : memref<24xf32> into !rm
  layout.relayout %b, %backrm : !s8d, !rm
  %backs = memref.cast %back : memref<24xf32> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%backs) : (memref<?xf32, strided<[1], offset: ?>>) -> ()

  // The tiled-layout document's combine example, dims-less.
  %big = memref.alloc() : memref<12320xf32>
  %bigd = memref.cast %big : memref<12320xf32> to memref<?xf32>
  call @iota(%bigd) : (memref<?xf32>) -> ()
  %x = memref.expand_shape %big [[0, 1, 2, 3, 4]] output_shape [2, 7, 8, 11, 10] : memref<12320xf32> into !docrm
  %d = memref.alloc() : !doc
  layout.relayout %x, %d : !docrm, !doc
  %pd = layout.to_physical %d : !doc -> memref<56x37x2x3xf32>
  %fd = memref.collapse_shape %pd [[0, 1, 2, 3]] : memref<56x37x2x3xf32> into memref<12432xf32>
  %first = memref.subview %fd[0] [222] [1] : memref<12432xf32> to memref<222xf32, strided<[1]>>
  %firstd = memref.cast %first : memref<222xf32, strided<[1]>> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%firstd) : (memref<?xf32, strided<[1], offset: ?>>) -> ()
  %last = memref.subview %fd[12210] [222] [1] : memref<12432xf32> to memref<222xf32, strided<[1], offset: 12210>>
  %lastd = memref.cast %last : memref<222xf32, strided<[1], offset: 12210>> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%lastd) : (memref<?xf32, strided<[1], offset: ?>>) -> ()
  %out = memref.alloc() : memref<12320xf32>
  %outrm = memref.expand_shape %out [[0, 1, 2, 3, 4]] output_shape [2, 7, 8, 11, 10] : memref<12320xf32> into !docrm
  layout.relayout %d, %outrm : !doc, !docrm
  %outd = memref.cast %out : memref<12320xf32> to memref<?xf32>
  %mis = call @mismatches(%bigd, %outd) : (memref<?xf32>, memref<?xf32>) -> i64
  call @printI64(%mis) : (i64) -> ()
  call @printNewline() : () -> ()

  // Tensor encodings.
  %t = bufferization.to_tensor %rm restrict : !rm to tensor<2x3x4xf32>
  %tp:3 = call @tensors(%t) : (tensor<2x3x4xf32>) -> (tensor<2x2x8xf32>, tensor<2x2x8xf32>, tensor<2x3x4xf32>)
  %tpa = bufferization.to_buffer %tp#0 : tensor<2x2x8xf32> to memref<2x2x8xf32>
  %tpaf = memref.collapse_shape %tpa [[0, 1, 2]] : memref<2x2x8xf32> into memref<32xf32>
  %tpad = memref.cast %tpaf : memref<32xf32> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%tpad) : (memref<?xf32, strided<[1], offset: ?>>) -> ()
  %tpb = bufferization.to_buffer %tp#1 : tensor<2x2x8xf32> to memref<2x2x8xf32>
  %tpbf = memref.collapse_shape %tpb [[0, 1, 2]] : memref<2x2x8xf32> into memref<32xf32>
  %tpbd = memref.cast %tpbf : memref<32xf32> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%tpbd) : (memref<?xf32, strided<[1], offset: ?>>) -> ()
  %tpc = bufferization.to_buffer %tp#2 : tensor<2x3x4xf32> to memref<2x3x4xf32>
  %tpcf = memref.collapse_shape %tpc [[0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
  %tpcd = memref.cast %tpcf : memref<24xf32> to memref<?xf32, strided<[1], offset: ?>>
  call @print1(%tpcd) : (memref<?xf32, strided<[1], offset: ?>>) -> ()

  memref.dealloc %flat : memref<24xf32>
  memref.dealloc %a : !s8
  memref.dealloc %b : !s8d
  memref.dealloc %back : memref<24xf32>
  memref.dealloc %big : memref<12320xf32>
  memref.dealloc %d : !doc
  memref.dealloc %out : memref<12320xf32>
  return
}

// {2,1,0:T(*,8)}: into the dims-less layout, across to the dims-carrying one
// (its -1 padding overwritten with 0), back to row-major.
// CHECK: sizes = [32]
// CHECK-NEXT: {{\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0, 0, 0, 0]
// CHECK: sizes = [32]
// CHECK-NEXT: {{\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0, 0, 0, 0]
// CHECK: sizes = [24]
// CHECK-NEXT: {{\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]
// The document's example: tile rows 0 (r = 0,1) and 55 (r = 110,111).
// CHECK: sizes = [222]
// CHECK-NEXT: {{\[}}1, 2, 3, 111, 112, 113, 4, 5, 6, 114, 115, 116, 7, 8, 9, 117, 118, 119, 10, 11, 12, 120, 121, 122, 13, 14, 15, 123, 124, 125, 16, 17, 18, 126, 127, 128, 19, 20, 21, 129, 130, 131, 22, 23, 24, 132, 133, 134, 25, 26, 27, 135, 136, 137, 28, 29, 30, 138, 139, 140, 31, 32, 33, 141, 142, 143, 34, 35, 36, 144, 145, 146, 37, 38, 39, 147, 148, 149, 40, 41, 42, 150, 151, 152, 43, 44, 45, 153, 154, 155, 46, 47, 48, 156, 157, 158, 49, 50, 51, 159, 160, 161, 52, 53, 54, 162, 163, 164, 55, 56, 57, 165, 166, 167, 58, 59, 60, 168, 169, 170, 61, 62, 63, 171, 172, 173, 64, 65, 66, 174, 175, 176, 67, 68, 69, 177, 178, 179, 70, 71, 72, 180, 181, 182, 73, 74, 75, 183, 184, 185, 76, 77, 78, 186, 187, 188, 79, 80, 81, 189, 190, 191, 82, 83, 84, 192, 193, 194, 85, 86, 87, 195, 196, 197, 88, 89, 90, 198, 199, 200, 91, 92, 93, 201, 202, 203, 94, 95, 96, 204, 205, 206, 97, 98, 99, 207, 208, 209, 100, 101, 102, 210, 211, 212, 103, 104, 105, 213, 214, 215, 106, 107, 108, 216, 217, 218, 109, 110, 0, 219, 220, 0]
// CHECK: sizes = [222]
// CHECK-NEXT: {{\[}}12101, 12102, 12103, 12211, 12212, 12213, 12104, 12105, 12106, 12214, 12215, 12216, 12107, 12108, 12109, 12217, 12218, 12219, 12110, 12111, 12112, 12220, 12221, 12222, 12113, 12114, 12115, 12223, 12224, 12225, 12116, 12117, 12118, 12226, 12227, 12228, 12119, 12120, 12121, 12229, 12230, 12231, 12122, 12123, 12124, 12232, 12233, 12234, 12125, 12126, 12127, 12235, 12236, 12237, 12128, 12129, 12130, 12238, 12239, 12240, 12131, 12132, 12133, 12241, 12242, 12243, 12134, 12135, 12136, 12244, 12245, 12246, 12137, 12138, 12139, 12247, 12248, 12249, 12140, 12141, 12142, 12250, 12251, 12252, 12143, 12144, 12145, 12253, 12254, 12255, 12146, 12147, 12148, 12256, 12257, 12258, 12149, 12150, 12151, 12259, 12260, 12261, 12152, 12153, 12154, 12262, 12263, 12264, 12155, 12156, 12157, 12265, 12266, 12267, 12158, 12159, 12160, 12268, 12269, 12270, 12161, 12162, 12163, 12271, 12272, 12273, 12164, 12165, 12166, 12274, 12275, 12276, 12167, 12168, 12169, 12277, 12278, 12279, 12170, 12171, 12172, 12280, 12281, 12282, 12173, 12174, 12175, 12283, 12284, 12285, 12176, 12177, 12178, 12286, 12287, 12288, 12179, 12180, 12181, 12289, 12290, 12291, 12182, 12183, 12184, 12292, 12293, 12294, 12185, 12186, 12187, 12295, 12296, 12297, 12188, 12189, 12190, 12298, 12299, 12300, 12191, 12192, 12193, 12301, 12302, 12303, 12194, 12195, 12196, 12304, 12305, 12306, 12197, 12198, 12199, 12307, 12308, 12309, 12200, 12201, 12202, 12310, 12311, 12312, 12203, 12204, 12205, 12313, 12314, 12315, 12206, 12207, 12208, 12316, 12317, 12318, 12209, 12210, 0, 12319, 12320, 0]
// Back to row-major: no element differs.
// CHECK-NEXT: 0
// Tensors: the same two buffers and the round trip.
// CHECK: sizes = [32]
// CHECK-NEXT: {{\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0, 0, 0, 0]
// CHECK: sizes = [32]
// CHECK-NEXT: {{\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 0, 0, 0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 0, 0, 0, 0]
// CHECK: sizes = [24]
// CHECK-NEXT: {{\[}}1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]
