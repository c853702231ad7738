// Relayouts between a sub-tiled layout and one whose byte order crosses it
// go through the sub-tiled layout without its last tile (kernel `staged`,
// docs/lowering.md) when their element groups are not taken
// (group-elements=false): i8 with (4,1) sub-tiles and i16 with (2,1), 6 x 20
// (rows and columns padded in the tiles). A column-major source goes into
// the sub-tiled buffer and back out into a row-major one; v[i][j] = 20 i + j
// must come back, and the sub-tiled buffer's padding slots (read through
// its physical view) must hold zeros. The same bytes with scalar loops, and
// by default as element groups into the sub-tiled buffers
// (GroupedRelayout.cpp: i16 pairs as i32, i8 pairs of the (4,1) sub-tiles
// as i16, whose 3 rows stage). The copies out into row-major rows of 20
// elements (not whole 64-byte lines) read the sub-tiles strided in one pass
// (rows-in-runs) either way.
// RUN: layout-opt %s --layout-lower-to-llvm=group-elements=false \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm="vector-bytes=0" \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm="num-threads=2 parallel-threshold-bytes=0 target-cpu=x86-64-v3 masked-edges=false group-elements=false" \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --convert-layout-to-scf="report-kernels=true group-elements=false" -o /dev/null 2>&1 \
// RUN:   | grep -o 'kernel: [a-z-]*' | sort | uniq -c | FileCheck %s --check-prefix=KERNEL
// KERNEL:      2 kernel: rows-in-runs
// KERNEL-NEXT: 2 kernel: staged
// RUN: layout-opt %s --convert-layout-to-scf=report-kernels=true -o /dev/null 2>&1 \
// RUN:   | grep -o 'kernel: [a-z-]*\|grouped elements: [0-9] x [a-z0-9]* as [a-z0-9]*' | sort | uniq -c \
// RUN:   | FileCheck %s --check-prefix=GROUPED
// GROUPED:      1 grouped elements: 2 x i16 as i32
// GROUPED-NEXT: 1 grouped elements: 2 x i8 as i16
// GROUPED-NEXT: 2 kernel: rows-in-runs
// GROUPED-NEXT: 1 kernel: source-walk-into-tiles
// GROUPED-NEXT: 1 kernel: staged

// i8, then i16: the row-major result, then the padding checksum (the sum
// of the physical buffer minus the sum of the values, 0 + ... + 119).
// CHECK:      [0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19],
// CHECK:      [100,   101,   102,   103,   104,   105,   106,   107,   108,   109,   110,   111,   112,   113,   114,   115,   116,   117,   118,   119]]
// CHECK:      padding: 0
// CHECK:      [0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   16,   17,   18,   19],
// CHECK:      [100,   101,   102,   103,   104,   105,   106,   107,   108,   109,   110,   111,   112,   113,   114,   115,   116,   117,   118,   119]]
// CHECK:      padding: 0

!c8 = memref<6x20xi8, #layout.tiled<{0,1}>>
!s8 = memref<6x20xi8, #layout.tiled<{1,0:T(8,128)(4,1)}>>
!c16 = memref<6x20xi16, #layout.tiled<{0,1}>>
!s16 = memref<6x20xi16, #layout.tiled<{1,0:T(8,128)(2,1)}>>

func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c20 = arith.constant 20 : index
  %c128 = arith.constant 128 : index
  %col8 = memref.alloc() : !c8
  %col16 = memref.alloc() : !c16
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c20 step %c1 {
      %t = arith.muli %i, %c20 : index
      %v = arith.addi %t, %j : index
      %v8 = arith.index_cast %v : index to i8
      %v16 = arith.index_cast %v : index to i16
      memref.store %v8, %col8[%i, %j] : !c8
      memref.store %v16, %col16[%i, %j] : !c16
    }
  }
  // i8
  %sub8 = memref.alloc() : !s8
  layout.relayout %col8, %sub8 : !c8, !s8
  %row8 = memref.alloc() : memref<6x20xi8>
  layout.relayout %sub8, %row8 : !s8, memref<6x20xi8>
  // (printed widened: printMemrefI8 prints characters)
  %wide8 = memref.alloc() : memref<6x20xi16>
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c20 step %c1 {
      %e = memref.load %row8[%i, %j] : memref<6x20xi8>
      %w = arith.extsi %e : i8 to i16
      memref.store %w, %wide8[%i, %j] : memref<6x20xi16>
    }
  }
  %u8 = memref.cast %wide8 : memref<6x20xi16> to memref<*xi16>
  func.call @printMemrefI16(%u8) : (memref<*xi16>) -> ()
  %p8 = layout.to_physical %sub8 : !s8 -> memref<1x1x2x128x4x1xi8>
  %sum8 = scf.for %a = %c0 to %c128 step %c1 iter_args(%acc = %c0) -> index {
    %in = scf.for %b = %c0 to %c8 step %c1 iter_args(%acc2 = %acc) -> index {
      %s0 = arith.constant 4 : index
      %gi = arith.divui %b, %s0 : index
      %li = arith.remui %b, %s0 : index
      %e = memref.load %p8[%c0, %c0, %gi, %a, %li, %c0] : memref<1x1x2x128x4x1xi8>
      %ei = arith.extsi %e : i8 to i64
      %eix = arith.index_cast %ei : i64 to index
      %n = arith.addi %acc2, %eix : index
      scf.yield %n : index
    }
    scf.yield %in : index
  }
  %values = arith.constant 7140 : index
  %pad8 = arith.subi %sum8, %values : index
  vector.print str "padding: "
  vector.print %pad8 : index
  // i16
  %sub16 = memref.alloc() : !s16
  layout.relayout %col16, %sub16 : !c16, !s16
  %row16 = memref.alloc() : memref<6x20xi16>
  layout.relayout %sub16, %row16 : !s16, memref<6x20xi16>
  %u16 = memref.cast %row16 : memref<6x20xi16> to memref<*xi16>
  func.call @printMemrefI16(%u16) : (memref<*xi16>) -> ()
  %p16 = layout.to_physical %sub16 : !s16 -> memref<1x1x4x128x2x1xi16>
  %sum16 = scf.for %a = %c0 to %c128 step %c1 iter_args(%acc = %c0) -> index {
    %in = scf.for %b = %c0 to %c8 step %c1 iter_args(%acc2 = %acc) -> index {
      %s0 = arith.constant 2 : index
      %gi = arith.divui %b, %s0 : index
      %li = arith.remui %b, %s0 : index
      %e = memref.load %p16[%c0, %c0, %gi, %a, %li, %c0] : memref<1x1x4x128x2x1xi16>
      %ei = arith.extsi %e : i16 to i64
      %eix = arith.index_cast %ei : i64 to index
      %n = arith.addi %acc2, %eix : index
      scf.yield %n : index
    }
    scf.yield %in : index
  }
  %pad16 = arith.subi %sum16, %values : index
  vector.print str "padding: "
  vector.print %pad16 : index
  return
}
