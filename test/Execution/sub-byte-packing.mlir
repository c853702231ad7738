// Sub-byte storage E(n): relayouts between unpacked and packed layouts, the
// packed bytes printed and checked bit for bit. The expected bytes are
// derived by hand in the comments from XLA's packing order: slot j of a byte
// (slots in physical-buffer order) sits at bit 8 - n*(j+1), so the first
// slot of a byte is in its HIGH bits (xla/util.h PackIntN: `<< n * (8/n - j -
// 1)`; xla/service/llvm_ir/ir_array.cc: even linear index = high-order
// bits). Bits after the last slot are 0. Bytes are printed as unsigned
// numbers (extui to i32). Static relayouts take the affine path; the second
// RUN takes the scf path (memref.load/store through arith index math).
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s --convert-layout-to-scf --layout-lower-to-llvm -o %t.scf.mlir
// RUN: mlir-runner %t.scf.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s

!s4 = memref<3x5xi4>
!s4_e4 = memref<3x5xi4, #layout.tiled<{1,0:E(4)}>>
!s4_t24 = memref<3x5xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>
!u4 = memref<3x5xui4>
!u4_t7 = memref<3x5xui4, #layout.tiled<{1,0:T(7)E(4)PV(highest)}>>
!s4_cm = memref<2x3xi4, #layout.tiled<{0,1:E(4)}>>
!s2_e2 = memref<2x3xi2, #layout.tiled<{1,0:E(2)}>>
!u1_e1 = memref<2x5xui1, #layout.tiled<{1,0:E(1)}>>

memref.global "private" constant @handmade : memref<3xi8> = dense<[127, -127, 46]>

func.func private @printMemrefI32(memref<*xi32>)

// Prints bytes as unsigned numbers.
func.func @printBytes(%b: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %b, %c0 : memref<?xi8>
  %o = memref.alloc(%n) : memref<?xi32>
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %b[%k] : memref<?xi8>
    %w = arith.extui %v : i8 to i32
    memref.store %w, %o[%k] : memref<?xi32>
  }
  %u = memref.cast %o : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %o : memref<?xi32>
  return
}

// Prints a row-major i4/i2 (signed) or unsigned buffer as i32 values.
func.func @printSigned(%m: memref<?x?xi4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xi4>
  %d1 = memref.dim %m, %c1 : memref<?x?xi4>
  %o = memref.alloc(%d0, %d1) : memref<?x?xi32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %v = memref.load %m[%i, %j] : memref<?x?xi4>
      %w = arith.extsi %v : i4 to i32
      memref.store %w, %o[%i, %j] : memref<?x?xi32>
    }
  }
  %u = memref.cast %o : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %o : memref<?x?xi32>
  return
}

func.func @printUnsigned(%m: memref<?x?xi4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %m, %c0 : memref<?x?xi4>
  %d1 = memref.dim %m, %c1 : memref<?x?xi4>
  %o = memref.alloc(%d0, %d1) : memref<?x?xi32>
  scf.for %i = %c0 to %d0 step %c1 {
    scf.for %j = %c0 to %d1 step %c1 {
      %v = memref.load %m[%i, %j] : memref<?x?xi4>
      %w = arith.extui %v : i4 to i32
      memref.store %w, %o[%i, %j] : memref<?x?xi32>
    }
  }
  %u = memref.cast %o : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %o : memref<?x?xi32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %eight = arith.constant 8 : i4

  // s4[3,5]: element (i,j) = 5i + j - 8, i.e. -8..6.
  %s = memref.alloc() : !s4
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %r = arith.muli %i, %c5 : index
      %l = arith.addi %r, %j : index
      %n = arith.index_cast %l : index to i4
      %v = arith.subi %n, %eight : i4
      memref.store %v, %s[%i, %j] : !s4
    }
  }

  // {1,0:E(4)}: 15 slots in row-major order, 2 per byte, 8 bytes. The
  // nibbles (two's complement of -8..6) are 8 9 A B C D E F 0 1 2 3 4 5 6,
  // then 4 zero bits after the last slot:
  // 0x89 0xAB 0xCD 0xEF 0x01 0x23 0x45 0x60.
  %p1 = memref.alloc() : !s4_e4
  layout.relayout %s, %p1 : !s4, !s4_e4
  %b1 = builtin.unrealized_conversion_cast %p1 : !s4_e4 to memref<8xi8>
  %b1d = memref.cast %b1 : memref<8xi8> to memref<?xi8>
  call @printBytes(%b1d) : (memref<?xi8>) -> ()
  // CHECK: [137,  171,  205,  239,  1,  35,  69,  96]

  // {1,0:T(2,4)E(4)}: 2x2 tiles of 2x4 = 32 slots, 16 bytes. Tile (0,0)
  // holds rows 0-1, cols 0-3: 8 9 A B / D E F 0; tile (0,1) holds col 4 of
  // rows 0-1 and padding: C _ _ _ / 1 _ _ _; tile (1,0): row 2 cols 0-3 and
  // a padding row: 2 3 4 5 / _ _ _ _; tile (1,1): 6 _ _ _ / _ _ _ _.
  // Padding slots hold 0 (no PV):
  // 0x89 0xAB 0xDE 0xF0 | 0xC0 0x00 0x10 0x00 | 0x23 0x45 0x00 0x00 |
  // 0x60 0x00 0x00 0x00.
  %p2 = memref.alloc() : !s4_t24
  layout.relayout %s, %p2 : !s4, !s4_t24
  %b2 = builtin.unrealized_conversion_cast %p2 : !s4_t24 to memref<16xi8>
  %b2d = memref.cast %b2 : memref<16xi8> to memref<?xi8>
  call @printBytes(%b2d) : (memref<?xi8>) -> ()
  // CHECK: [137,  171,  222,  240,  192,  0,  16,  0,  35,  69,  0,  0,  96,  0,  0,  0]

  // Packed -> packed (unpack one slot, pack it into the other layout):
  // the same 16 bytes.
  %p3 = memref.alloc() : !s4_t24
  layout.relayout %p1, %p3 : !s4_e4, !s4_t24
  %b3 = builtin.unrealized_conversion_cast %p3 : !s4_t24 to memref<16xi8>
  %b3d = memref.cast %b3 : memref<16xi8> to memref<?xi8>
  call @printBytes(%b3d) : (memref<?xi8>) -> ()
  // CHECK: [137,  171,  222,  240,  192,  0,  16,  0,  35,  69,  0,  0,  96,  0,  0,  0]

  // Round trips back to row-major: the input, -8..6.
  %r1 = memref.alloc() : !s4
  layout.relayout %p1, %r1 : !s4_e4, !s4
  %r1d = memref.cast %r1 : !s4 to memref<?x?xi4>
  call @printSigned(%r1d) : (memref<?x?xi4>) -> ()
  // CHECK:      [-8,   -7,   -6,   -5,   -4]
  // CHECK-NEXT: [-3,   -2,   -1,   0,   1]
  // CHECK-NEXT: [2,   3,   4,   5,   6]
  %r2 = memref.alloc() : !s4
  layout.relayout %p2, %r2 : !s4_t24, !s4
  %r2d = memref.cast %r2 : !s4 to memref<?x?xi4>
  call @printSigned(%r2d) : (memref<?x?xi4>) -> ()
  // CHECK:      [-8,   -7,   -6,   -5,   -4]
  // CHECK-NEXT: [-3,   -2,   -1,   0,   1]
  // CHECK-NEXT: [2,   3,   4,   5,   6]

  // u4[3,5]{1,0:T(7)E(4)PV(highest)}: rows padded to 7 slots, 21 slots
  // (odd), 11 bytes; padding slots hold u4's highest, 0xF. Element (i,j) =
  // 5i + j: nibbles 0 1 2 3 4 F F | 5 6 7 8 9 F F | A B C D E F F, then 4
  // zero bits: 0x01 0x23 0x4F 0xF5 0x67 0x89 0xFF 0xAB 0xCD 0xEF 0xF0.
  %us = builtin.unrealized_conversion_cast %s : !s4 to !u4
  %ua = memref.alloc() : !s4
  %ub = builtin.unrealized_conversion_cast %ua : !s4 to !u4
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %r = arith.muli %i, %c5 : index
      %l = arith.addi %r, %j : index
      %n = arith.index_cast %l : index to i4
      memref.store %n, %ua[%i, %j] : !s4
    }
  }
  %p4 = memref.alloc() : !u4_t7
  layout.relayout %ub, %p4 : !u4, !u4_t7
  %b4 = builtin.unrealized_conversion_cast %p4 : !u4_t7 to memref<11xi8>
  %b4d = memref.cast %b4 : memref<11xi8> to memref<?xi8>
  call @printBytes(%b4d) : (memref<?xi8>) -> ()
  // CHECK: [1,  35,  79,  245,  103,  137,  255,  171,  205,  239,  240]
  %r4 = memref.alloc() : !s4
  %r4u = builtin.unrealized_conversion_cast %r4 : !s4 to !u4
  layout.relayout %p4, %r4u : !u4_t7, !u4
  %r4d = memref.cast %r4 : !s4 to memref<?x?xi4>
  call @printUnsigned(%r4d) : (memref<?x?xi4>) -> ()
  // CHECK:      [0,   1,   2,   3,   4]
  // CHECK-NEXT: [5,   6,   7,   8,   9]
  // CHECK-NEXT: [10,   11,   12,   13,   14]

  // Unpacking bytes written by hand: s4[2,3]{0,1:E(4)} (column-major slots
  // (0,0) (1,0) (0,1) (1,1) (0,2) (1,2)) from the bytes 0x7F 0x81 0x2E
  // (127, -127, 46 as i8): nibbles 7 F 8 1 2 E = 7 -1 -8 1 2 -2, so the
  // matrix is [[7, -8, 2], [-1, 1, -2]].
  %g = memref.get_global @handmade : memref<3xi8>
  %cm = builtin.unrealized_conversion_cast %g : memref<3xi8> to !s4_cm
  %r5 = memref.alloc() : memref<2x3xi4>
  layout.relayout %cm, %r5 : !s4_cm, memref<2x3xi4>
  %r5d = memref.cast %r5 : memref<2x3xi4> to memref<?x?xi4>
  call @printSigned(%r5d) : (memref<?x?xi4>) -> ()
  // CHECK:      [7,   -8,   2]
  // CHECK-NEXT: [-1,   1,   -2]

  // s2[2,3]{1,0:E(2)}: 4 slots per byte. Element (i,j) = (3i + j) mod 4 - 2:
  // -2 -1 0 1 -2 -1, in 2 bits 10 11 00 01 10 11, then 4 zero bits:
  // 0b10110001 = 0xB1, 0b10110000 = 0xB0.
  %s2 = memref.alloc() : memref<2x3xi2>
  %two = arith.constant 2 : i2
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %r = arith.muli %i, %c3 : index
      %l = arith.addi %r, %j : index
      %n = arith.index_cast %l : index to i2
      %v = arith.subi %n, %two : i2
      memref.store %v, %s2[%i, %j] : memref<2x3xi2>
    }
  }
  %p6 = memref.alloc() : !s2_e2
  layout.relayout %s2, %p6 : memref<2x3xi2>, !s2_e2
  %b6 = builtin.unrealized_conversion_cast %p6 : !s2_e2 to memref<2xi8>
  %b6d = memref.cast %b6 : memref<2xi8> to memref<?xi8>
  call @printBytes(%b6d) : (memref<?xi8>) -> ()
  // CHECK: [177,  176]

  // u1[2,5]{1,0:E(1)}: 8 slots per byte. Element (i,j) = (5i + j) mod 2:
  // 0 1 0 1 0 1 0 1 | 0 1, then 6 zero bits: 0b01010101 = 0x55,
  // 0b01000000 = 0x40.
  %s1 = memref.alloc() : memref<2x5xi1>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %r = arith.muli %i, %c5 : index
      %l = arith.addi %r, %j : index
      %n = arith.index_cast %l : index to i1
      memref.store %n, %s1[%i, %j] : memref<2x5xi1>
    }
  }
  %s1u = builtin.unrealized_conversion_cast %s1 : memref<2x5xi1> to memref<2x5xui1>
  %p7 = memref.alloc() : !u1_e1
  layout.relayout %s1u, %p7 : memref<2x5xui1>, !u1_e1
  %b7 = builtin.unrealized_conversion_cast %p7 : !u1_e1 to memref<2xi8>
  %b7d = memref.cast %b7 : memref<2xi8> to memref<?xi8>
  call @printBytes(%b7d) : (memref<?xi8>) -> ()
  // CHECK: [85,  64]

  memref.dealloc %s : !s4
  memref.dealloc %p1 : !s4_e4
  memref.dealloc %p2 : !s4_t24
  memref.dealloc %p3 : !s4_t24
  memref.dealloc %r1 : !s4
  memref.dealloc %r2 : !s4
  memref.dealloc %ua : !s4
  memref.dealloc %p4 : !u4_t7
  memref.dealloc %r4 : !s4
  memref.dealloc %r5 : memref<2x3xi4>
  memref.dealloc %s2 : memref<2x3xi2>
  memref.dealloc %p6 : !s2_e2
  memref.dealloc %s1 : memref<2x5xi1>
  memref.dealloc %p7 : !u1_e1
  return
}
