// The ABI of dynamic tiled memrefs (docs/lowering.md, "Dynamic tiled
// memrefs at function boundaries"), called ahead of time from C++
// (Inputs/aot-dynamic-tiled-driver.cpp): a memref<?x?xf32,
// #layout.tiled<{1,0:T(2,2)}>> argument is a StridedMemRefType<float, 2>
// whose sizes are the LOGICAL sizes (3, 5) and whose pointer is the
// physical buffer (Figure 1 of XLA's tiled layout document: 24 slots).
// The driver's buffers are heap arrays of exactly the physical size, so the
// AddressSanitizer run fails if the compiled code's physical extents are
// wrong.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: %clangxx -O3 -Wno-override-module -c %t.ll -o %t.o
// RUN: %clangxx -O1 -fsanitize=address -I%mlir_include_dir %S/Inputs/aot-dynamic-tiled-driver.cpp %t.o -lm -o %t.exe
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t.exe | FileCheck %s

!dyn = memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>

// Tiled -> row-major.
func.func @untile(%t: !dyn, %out: memref<?x?xf32>) attributes {llvm.emit_c_interface} {
  layout.relayout %t, %out : !dyn, memref<?x?xf32>
  return
}

// Row-major -> tiled (padding slots get 0).
func.func @tile(%in: memref<?x?xf32>, %t: !dyn) attributes {llvm.emit_c_interface} {
  layout.relayout %in, %t : memref<?x?xf32>, !dyn
  return
}

// The logical sizes the callee sees, and element (i, j) read through the
// tiled layout.
func.func @query(%t: !dyn, %i: index, %j: index) -> f32 attributes {llvm.emit_c_interface} {
  %v = memref.load %t[%i, %j] : !dyn
  return %v : f32
}

func.func @rows(%t: !dyn) -> index attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %d = memref.dim %t, %c0 : !dyn
  return %d : index
}

func.func @cols(%t: !dyn) -> index attributes {llvm.emit_c_interface} {
  %c1 = arith.constant 1 : index
  %d = memref.dim %t, %c1 : !dyn
  return %d : index
}

// CHECK: untile 3x5:
// CHECK-NEXT: 0 1 2 3 4
// CHECK-NEXT: 5 6 7 8 9
// CHECK-NEXT: 10 11 12 13 14
// CHECK-NEXT: dims 3 5
// CHECK-NEXT: element (2,3) = 13
// CHECK-NEXT: tile 3x5: 1 2 6 7 3 4 8 9 5 0 10 0 11 12 0 0 13 14 0 0 15 0 0 0
// CHECK-NEXT: slot 17 = 14
// CHECK-NEXT: tile 1x1: 1 0 0 0
