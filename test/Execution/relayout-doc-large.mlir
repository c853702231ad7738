// Two larger layouts of the table, checked by checksums and spot slots:
// * docs/semantics.md §3's `*` example F32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)} (as i32):
//   combined to [112,110], tiled to (56,37,2,3) = 12432 slots;
// * bf16 [16,256]{1,0:T(8,128)(2,1)} (the TPU-style bf16 tiling).
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// The same with parallel nests on 2 threads (threshold 0) and streaming
// stores: the same slots.
// RUN: layout-opt %s --layout-lower-to-llvm="num-threads=2 parallel-threshold-bytes=0 nontemporal-threshold-bytes=0" -o %t.par.mlir
// RUN: grep -q omp.parallel %t.par.mlir
// RUN: mlir-runner %t.par.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s

!combine = memref<2x7x8x11x10xi32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>
!bf = memref<16x256xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>

func.func private @printI64(i64)
func.func private @printNewline()
func.func private @printMemrefF32(memref<*xf32>)

func.func @docCombine() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cN = arith.constant 12320 : index
  %cS = arith.constant 12432 : index
  %a = memref.alloc() : memref<2x7x8x11x10xi32>
  %af = memref.collapse_shape %a [[0, 1, 2, 3, 4]] : memref<2x7x8x11x10xi32> into memref<12320xi32>
  scf.for %k = %c0 to %cN step %c1 {
    %k1 = arith.addi %k, %c1 : index
    %v = arith.index_cast %k1 : index to i32
    memref.store %v, %af[%k] : memref<12320xi32>
  }
  %b = memref.alloc() : !combine
  layout.relayout %a, %b : memref<2x7x8x11x10xi32>, !combine
  %p = layout.to_physical %b : !combine -> memref<56x37x2x3xi32>
  %pf = memref.collapse_shape %p [[0, 1, 2, 3]] : memref<56x37x2x3xi32> into memref<12432xi32>
  // Sum and number of non-zero (element) slots.
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %sum, %cnt = scf.for %k = %c0 to %cS step %c1 iter_args(%s = %z, %n = %z) -> (i64, i64) {
    %x = memref.load %pf[%k] : memref<12432xi32>
    %x64 = arith.extsi %x : i32 to i64
    %s2 = arith.addi %s, %x64 : i64
    %c0i = arith.constant 0 : i32
    %nz = arith.cmpi ne, %x, %c0i : i32
    %inc = arith.select %nz, %one, %z : i64
    %n2 = arith.addi %n, %inc : i64
    scf.yield %s2, %n2 : i64, i64
  }
  call @printI64(%sum) : (i64) -> ()
  call @printNewline() : () -> ()
  call @printI64(%cnt) : (i64) -> ()
  call @printNewline() : () -> ()
  // The first 12 slots: tile (0,0) rows 0-1 (combined), then tile (0,1).
  %c12 = arith.constant 12 : index
  %first = memref.alloc() : memref<12xf32>
  scf.for %k = %c0 to %c12 step %c1 {
    %x = memref.load %pf[%k] : memref<12432xi32>
    %f = arith.sitofp %x : i32 to f32
    memref.store %f, %first[%k] : memref<12xf32>
  }
  %fu = memref.cast %first : memref<12xf32> to memref<*xf32>
  call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
  // Round trip.
  %c = memref.alloc() : memref<2x7x8x11x10xi32>
  layout.relayout %b, %c : !combine, memref<2x7x8x11x10xi32>
  %cf = memref.collapse_shape %c [[0, 1, 2, 3, 4]] : memref<2x7x8x11x10xi32> into memref<12320xi32>
  %bad = scf.for %k = %c0 to %cN step %c1 iter_args(%n = %z) -> i64 {
    %x = memref.load %af[%k] : memref<12320xi32>
    %y = memref.load %cf[%k] : memref<12320xi32>
    %ne = arith.cmpi ne, %x, %y : i32
    %inc = arith.select %ne, %one, %z : i64
    %n2 = arith.addi %n, %inc : i64
    scf.yield %n2 : i64
  }
  call @printI64(%bad) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
// 1 + ... + 12320 = 12320 * 12321 / 2; padding is 0.
// CHECK: 75897360
// CHECK-NEXT: 12320
// Slot = combined (row, col) in tiles of (2,3); value = row * 110 + col + 1.
// CHECK-NEXT: Unranked Memref
// CHECK-NEXT: [1, 2, 3, 111, 112, 113, 4, 5, 6, 114, 115, 116]
// CHECK-NEXT: 0

func.func @bf16Tiles() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %c251 = arith.constant 251 : index
  %a = memref.alloc() : memref<16x256xbf16>
  // v(i,j) = (256 i + j) mod 251 + 1: integers <= 251 are exact in bf16.
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c256 step %c1 {
      %r = arith.muli %i, %c256 : index
      %l = arith.addi %r, %j : index
      %m = arith.remui %l, %c251 : index
      %m1 = arith.addi %m, %c1 : index
      %n = arith.index_cast %m1 : index to i32
      %v = arith.sitofp %n : i32 to bf16
      memref.store %v, %a[%i, %j] : memref<16x256xbf16>
    }
  }
  %b = memref.alloc() : !bf
  layout.relayout %a, %b : memref<16x256xbf16>, !bf
  %p = layout.to_physical %b : !bf -> memref<2x2x4x128x2x1xbf16>
  %pf = memref.collapse_shape %p [[0, 1, 2, 3, 4, 5]] : memref<2x2x4x128x2x1xbf16> into memref<4096xbf16>
  // Slots 0-7 and 256-257 as f32.
  %spots = memref.alloc() : memref<10xf32>
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c248 = arith.constant 248 : index
  scf.for %k = %c0 to %c10 step %c1 {
    %lo = arith.cmpi ult, %k, %c8 : index
    %hi = arith.addi %k, %c248 : index
    %slot = arith.select %lo, %k, %hi : index
    %x = memref.load %pf[%slot] : memref<4096xbf16>
    %f = arith.extf %x : bf16 to f32
    memref.store %f, %spots[%k] : memref<10xf32>
  }
  %su = memref.cast %spots : memref<10xf32> to memref<*xf32>
  call @printMemrefF32(%su) : (memref<*xf32>) -> ()
  %c = memref.alloc() : memref<16x256xbf16>
  layout.relayout %b, %c : !bf, memref<16x256xbf16>
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bad = scf.for %i = %c0 to %c16 step %c1 iter_args(%n = %z) -> i64 {
    %row = scf.for %j = %c0 to %c256 step %c1 iter_args(%m = %n) -> i64 {
      %x = memref.load %a[%i, %j] : memref<16x256xbf16>
      %y = memref.load %c[%i, %j] : memref<16x256xbf16>
      %ne = arith.cmpf une, %x, %y : bf16
      %inc = arith.select %ne, %one, %z : i64
      %m2 = arith.addi %m, %inc : i64
      scf.yield %m2 : i64
    }
    scf.yield %row : i64
  }
  call @printI64(%bad) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
// Element (i,j) is at ((((i/8)*2 + j/128)*4 + (i%8)/2)*128 + j%128)*2 + i%2:
// slots 0-7 are (0,0) (1,0) (0,1) (1,1) (0,2) (1,2) (0,3) (1,3), slots
// 256-257 are (2,0) (3,0); v = (256 i + j) mod 251 + 1.
// CHECK: [1, 6, 2, 7, 3, 8, 4, 9, 11, 16]
// CHECK-NEXT: 0

func.func @main() {
  call @docCombine() : () -> ()
  call @bf16Tiles() : () -> ()
  return
}
