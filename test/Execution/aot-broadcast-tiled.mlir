// Ahead of time: --layout-lower-to-llvm, mlir-translate to LLVM IR,
// clang++-22 -O3 -c, linked with a C++ driver (Inputs/aot-driver.cpp) that
// calls _mlir_ciface_compute with StridedMemRefType descriptors and prints
// the physical buffer it gets back.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: %clangxx -O3 -Wno-override-module -c %t.ll -o %t.o
// RUN: %clangxx -O2 -I%mlir_include_dir %S/Inputs/aot-driver.cpp %t.o -lm -o %t.exe
// RUN: %t.exe | FileCheck %s

!tiled = memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>

// out (the physical buffer of f32[4,8]{1,0:T(2,4)}) = m + broadcast(v, dims (0)).
func.func @compute(%m: memref<4x8xf32>, %v: memref<4xf32>,
                   %out: memref<2x2x2x4xf32>) attributes {llvm.emit_c_interface} {
  %mt = bufferization.to_tensor %m restrict : memref<4x8xf32> to tensor<4x8xf32>
  %vt = bufferization.to_tensor %v restrict : memref<4xf32> to tensor<4xf32>
  %r = layout.add %mt, %vt, dims = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  %rm = bufferization.to_buffer %r read_only : tensor<4x8xf32> to memref<4x8xf32>
  %o = layout.from_physical %out : memref<2x2x2x4xf32> -> !tiled
  layout.relayout %rm, %o : memref<4x8xf32>, !tiled
  return
}

// m(i,j) = 8i + j, v(i) = 100 (i + 1): r(i,j) = 8i + j + 100(i + 1), stored
// in 2x4 tiles: tile (0,0) holds rows 0-1, columns 0-3, and so on.
// CHECK: 100 101 102 103 208 209 210 211
// CHECK-NEXT: 104 105 106 107 212 213 214 215
// CHECK-NEXT: 316 317 318 319 424 425 426 427
// CHECK-NEXT: 320 321 322 323 428 429 430 431
