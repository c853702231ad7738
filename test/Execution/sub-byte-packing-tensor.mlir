// Sub-byte packing at the tensor level: a tensor relayout into
// s4[3,5]{1,0:T(2,4)E(4)} and back, a layout.add of two packed tensors
// (XLA's s4 wraps modulo 16) and of a packed row broadcast over them, through --layout-lower-to-llvm. The second RUN
// bufferizes first, so the packed buffer is a memref.alloc of the physical
// shape viewed through layout.from_physical (--layout-bufferize), which
// --layout-normalize-memrefs packs. The bytes are derived by hand in
// sub-byte-packing.mlir (same values and layout): XLA's order puts the first
// slot of a byte in its high bits (xla/util.h PackIntN).
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s --layout-bufferize --layout-lower-to-llvm -o %t.b.mlir
// RUN: mlir-runner %t.b.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// The same through the upstream-op lowerings (linalg.pack/unpack on the
// physical tensors; pad + reshape + transpose).
// RUN: layout-opt %s --convert-layout-to-linalg --layout-lower-to-llvm -o %t.l.mlir
// RUN: mlir-runner %t.l.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s
// RUN: layout-opt %s --layout-decompose-tiling --layout-lower-to-llvm -o %t.d.mlir
// RUN: mlir-runner %t.d.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %s

!t = tensor<3x5xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>
!m = memref<3x5xi4, #layout.tiled<{1,0:T(2,4)E(4)}>>
func.func private @printMemrefI32(memref<*xi32>)
func.func @printBytes(%b: memref<16xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %o = memref.alloc() : memref<16xi32>
  scf.for %k = %c0 to %c16 step %c1 {
    %v = memref.load %b[%k] : memref<16xi8>
    %w = arith.extui %v : i8 to i32
    memref.store %w, %o[%k] : memref<16xi32>
  }
  %u = memref.cast %o : memref<16xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func @pack(%x: tensor<3x5xi4>) -> !t {
  %e = tensor.empty() : !t
  %r = layout.relayout %x, %e : tensor<3x5xi4>, !t -> !t
  return %r : !t
}
func.func @unpack(%x: !t) -> tensor<3x5xi4> {
  %e = tensor.empty() : tensor<3x5xi4>
  %r = layout.relayout %x, %e : !t, tensor<3x5xi4> -> tensor<3x5xi4>
  return %r : tensor<3x5xi4>
}
func.func @printSigned(%m: memref<3x5xi4>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %o = memref.alloc() : memref<3x5xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %v = memref.load %m[%i, %j] : memref<3x5xi4>
      %w = arith.extsi %v : i4 to i32
      memref.store %w, %o[%i, %j] : memref<3x5xi32>
    }
  }
  %u = memref.cast %o : memref<3x5xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func @double(%x: !t) -> !t {
  %r = "layout.add"(%x, %x) : (!t, !t) -> !t
  return %r : !t
}
!row = tensor<5xi4, #layout.tiled<{0:E(4)}>>
func.func @packRow(%x: tensor<5xi4>) -> !row {
  %e = tensor.empty() : !row
  %r = layout.relayout %x, %e : tensor<5xi4>, !row -> !row
  return %r : !row
}
// XLA broadcasting of a packed row over a packed matrix.
func.func @addRow(%x: !t, %v: !row) -> !t {
  %r = layout.add %x, %v {broadcast_dimensions = array<i64: 1>} : (!t, !row) -> !t
  return %r : !t
}
func.func @main() {
  %c = arith.constant dense<[[-8, -7, -6, -5, -4], [-3, -2, -1, 0, 1], [2, 3, 4, 5, 6]]> : tensor<3x5xi4>
  %p = call @pack(%c) : (tensor<3x5xi4>) -> !t
  %m = bufferization.to_buffer %p : !t to !m
  %b = builtin.unrealized_conversion_cast %m : !m to memref<16xi8>
  call @printBytes(%b) : (memref<16xi8>) -> ()
  // CHECK: [137,  171,  222,  240,  192,  0,  16,  0,  35,  69,  0,  0,  96,  0,  0,  0]
  %u = call @unpack(%p) : (!t) -> tensor<3x5xi4>
  %um = bufferization.to_buffer %u : tensor<3x5xi4> to memref<3x5xi4>
  call @printSigned(%um) : (memref<3x5xi4>) -> ()
  // CHECK:      [-8,   -7,   -6,   -5,   -4]
  // CHECK-NEXT: [-3,   -2,   -1,   0,   1]
  // CHECK-NEXT: [2,   3,   4,   5,   6]
  // 2x modulo 16 as s4: -16 -> 0, -14 -> 2, ..., 8 -> -8, 12 -> -4.
  %d = call @double(%p) : (!t) -> !t
  %du = call @unpack(%d) : (!t) -> tensor<3x5xi4>
  %dm = bufferization.to_buffer %du : tensor<3x5xi4> to memref<3x5xi4>
  call @printSigned(%dm) : (memref<3x5xi4>) -> ()
  // CHECK:      [0,   2,   4,   6,   -8]
  // CHECK-NEXT: [-6,   -4,   -2,   0,   2]
  // CHECK-NEXT: [4,   6,   -8,   -6,   -4]
  // Plus the row [1, 2, 3, 4, 5] (5 + 4 = 9 and 6 + 5 = 11 wrap to -7, -5).
  %rowc = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi4>
  %row = call @packRow(%rowc) : (tensor<5xi4>) -> !row
  %a = call @addRow(%p, %row) : (!t, !row) -> !t
  %au = call @unpack(%a) : (!t) -> tensor<3x5xi4>
  %am = bufferization.to_buffer %au : tensor<3x5xi4> to memref<3x5xi4>
  call @printSigned(%am) : (memref<3x5xi4>) -> ()
  // CHECK:      [-7,   -5,   -3,   -1,   1]
  // CHECK-NEXT: [-2,   0,   2,   4,   6]
  // CHECK-NEXT: [3,   5,   7,   -7,   -5]
  return
}
