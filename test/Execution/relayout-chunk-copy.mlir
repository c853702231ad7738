// Relayouts whose plan is `chunk-copy` (runs of at least 64 bytes) are
// lowered to a memref.copy per run (llvm.memcpy) plus padding stores; the
// bytes, padding values included, are checked here (values by hand:
// element (i, j) of the source holds 16i + j; the destinations are
// pre-filled with -7, which no slot may keep).
// The run copies are chosen for scalar rows (vector-bytes=0); vector rows
// (the default) move the runs with whole vectors: both give these bytes.
// RUN: layout-opt %s --layout-lower-to-llvm=vector-bytes=0 -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.vec.mlir
// RUN: mlir-runner %t.vec.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// The kernel choice is visible in the loops and in the LLVM IR.
// RUN: layout-opt %s --convert-layout-to-affine=vector-bytes=0 | FileCheck %s --check-prefix=IR
// RUN: layout-opt %s --convert-layout-to-affine | FileCheck %s --check-prefix=VEC
// VEC-LABEL: func.func @to_tiled
// VEC-NOT: memref.copy
// VEC: vector.
// VEC-LABEL: func.func @from_tiled
// IR-LABEL: func.func @to_tiled
// IR-NOT: vector.
// IR: scf.for
// IR: memref.subview %{{.+}}[%{{.+}}] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: ?>>
// IR: memref.copy
// IR: scf.for
// IR: memref.store
// IR-LABEL: func.func @from_tiled
// IR: memref.copy
// IR-LABEL: func.func @main
// RUN: mlir-translate --mlir-to-llvmir %t.mlir | FileCheck %s --check-prefix=LLVM
// LLVM-LABEL: define void @to_tiled(
// LLVM: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 %{{[0-9]+}}, i1 false)
// LLVM-LABEL: define void @from_tiled(
// LLVM: call void @llvm.memcpy.p0.p0.i64(ptr {{.*}}, ptr {{.*}}, i64 %{{[0-9]+}}, i1 false)

!tiled = memref<4x16xf32, #layout.tiled<{1,0:T(2,32)PV(one)}>>
!tiled0 = memref<4x16xf32, #layout.tiled<{1,0:T(2,32)}>>

func.func private @printMemrefF32(memref<*xf32>)

// Row-major -> T(2,32): each tile row is one source row (16 elements, 64
// bytes) and 16 padding slots, which get PV(one) = 1.
func.func @to_tiled(%src: memref<4x16xf32>, %dst: memref<2x1x2x32xf32>) {
  %d = layout.from_physical %dst : memref<2x1x2x32xf32> -> !tiled
  layout.relayout %src, %d : memref<4x16xf32>, !tiled
  return
}

// And back: the source's padding slots (they hold 1) are not read.
func.func @from_tiled(%src: memref<2x1x2x32xf32>, %dst: memref<4x16xf32>) {
  %s = layout.from_physical %src : memref<2x1x2x32xf32> -> !tiled0
  layout.relayout %s, %dst : !tiled0, memref<4x16xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %m7 = arith.constant -7.0 : f32
  %src = memref.alloc() : memref<4x16xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %r = arith.muli %i, %c16 : index
      %l = arith.addi %r, %j : index
      %n = arith.index_cast %l : index to i64
      %v = arith.sitofp %n : i64 to f32
      memref.store %v, %src[%i, %j] : memref<4x16xf32>
    }
  }
  %phys = memref.alloc() : memref<2x1x2x32xf32>
  scf.for %a = %c0 to %c2 step %c1 {
    scf.for %b = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c32 step %c1 {
        memref.store %m7, %phys[%a, %c0, %b, %c] : memref<2x1x2x32xf32>
      }
    }
  }
  call @to_tiled(%src, %phys) : (memref<4x16xf32>, memref<2x1x2x32xf32>) -> ()
  %u = memref.cast %phys : memref<2x1x2x32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %back = memref.alloc() : memref<4x16xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %m7, %back[%i, %j] : memref<4x16xf32>
    }
  }
  call @from_tiled(%phys, %back) : (memref<2x1x2x32xf32>, memref<4x16xf32>) -> ()
  %ub = memref.cast %back : memref<4x16xf32> to memref<*xf32>
  call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
  memref.dealloc %src : memref<4x16xf32>
  memref.dealloc %phys : memref<2x1x2x32xf32>
  memref.dealloc %back : memref<4x16xf32>
  return
}

// CHECK: rank = 4 offset = 0 sizes = [2, 1, 2, 32]
// CHECK-NEXT: {{\[}}{{\[}}{{\[}}[0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT: [16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1]]],
// CHECK-NEXT: {{\[}}{{\[}}[32,   33,   34,   35,   36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT: [48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,   60,   61,   62,   63,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1,   1]]]]
// CHECK: rank = 2 offset = 0 sizes = [4, 16]
// CHECK-NEXT: {{\[}}[0,   1,   2,   3,   4,   5,   6,   7,   8,   9,   10,   11,   12,   13,   14,   15],
// CHECK-NEXT: [16,   17,   18,   19,   20,   21,   22,   23,   24,   25,   26,   27,   28,   29,   30,   31],
// CHECK-NEXT: [32,   33,   34,   35,   36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47],
// CHECK-NEXT: [48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,   60,   61,   62,   63]]
