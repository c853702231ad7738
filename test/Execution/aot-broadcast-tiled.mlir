// Ahead of time: --layout-lower-to-llvm, mlir-translate to LLVM IR,
// clang++-22 -O3 -c, linked with a C++ driver (Inputs/aot-driver.cpp) that
// calls _mlir_ciface_compute with StridedMemRefType descriptors and prints
// the physical buffer it gets back.
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: %clangxx -O3 -Wno-override-module -c %t.ll -o %t.o
// RUN: %clangxx -O2 -I%mlir_include_dir %S/Inputs/aot-driver.cpp %t.o -lm -o %t.exe
// RUN: %t.exe | FileCheck %s
// No leak: the temporary buffer of %r is freed (LeakSanitizer in the driver
// checks every malloc of the compiled code at exit). With deallocate=false
// the same program leaks it, so this check can fail.
// RUN: %clangxx -O1 -fsanitize=address -I%mlir_include_dir %S/Inputs/aot-driver.cpp %t.o -lm -o %t.asan.exe
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t.asan.exe | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm="deallocate=false" -o %t.leak.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.leak.mlir -o %t.leak.ll
// RUN: %clangxx -O3 -Wno-override-module -c %t.leak.ll -o %t.leak.o
// RUN: %clangxx -O1 -fsanitize=address -I%mlir_include_dir %S/Inputs/aot-driver.cpp %t.leak.o -lm -o %t.leak.exe
// RUN: env ASAN_OPTIONS=detect_leaks=1 not %t.leak.exe 2>&1 | FileCheck %s --check-prefix=LEAK
// The same with parallel nests (threshold 0: every nest with two chunks
// or more, streaming stores, 2 threads), linked with the OpenMP runtime
// the build found (%openmp_link; the CMake package exports it as
// MLIRLayout::OpenMPRuntime).
// RUN: layout-opt %s --layout-lower-to-llvm="parallel-threshold-bytes=0 nontemporal-threshold-bytes=0 num-threads=2" -o %t.par.mlir
// RUN: FileCheck %s --check-prefix=PAR < %t.par.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.par.mlir -o %t.par.ll
// RUN: %clangxx -O3 -Wno-override-module -c %t.par.ll -o %t.par.o
// RUN: %clangxx -O2 -I%mlir_include_dir %S/Inputs/aot-driver.cpp %t.par.o -lm %openmp_link -o %t.par.exe
// RUN: %t.par.exe | FileCheck %s
// PAR: omp.parallel num_threads
// PAR: omp.wsloop
// LEAK: ERROR: LeakSanitizer: detected memory leaks
// LEAK: SUMMARY: AddressSanitizer: 128 byte(s) leaked in 1 allocation(s).

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
