// RUN: layout-opt %s --layout-host-memory-spaces -split-input-file \
// RUN:   -verify-diagnostics | FileCheck %s

// Integer memory spaces become the default one everywhere: signatures,
// allocations, casts; #layout.tiled memrefs keep their S(n).
// CHECK-LABEL: func.func @spaces
// CHECK-SAME: (%[[A:.+]]: memref<8xf32>, %[[T:.+]]: memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>) -> memref<*xf32>
// CHECK: %[[B:.+]] = memref.alloc() : memref<8xf32>
// CHECK: memref.copy %[[A]], %[[B]] : memref<8xf32> to memref<8xf32>
// CHECK: %[[U:.+]] = memref.cast %[[B]] : memref<8xf32> to memref<*xf32>
// CHECK: return %[[U]] : memref<*xf32>
func.func @spaces(%a: memref<8xf32, 1>, %t: memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>) -> memref<*xf32, 1> {
  %b = memref.alloc() : memref<8xf32, 1>
  memref.copy %a, %b : memref<8xf32, 1> to memref<8xf32, 1>
  %u = memref.cast %b : memref<8xf32, 1> to memref<*xf32, 1>
  return %u : memref<*xf32, 1>
}

// -----

// A memory space that is not an integer is not host memory.
func.func @gpu_space(%a: memref<8xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{--layout-lower-to-llvm: memory space #gpu.address_space<workgroup> of 'memref<8xf32, #gpu.address_space<workgroup>>' is not an integer (host) memory space}}
  %v = memref.load %a[%c0] : memref<8xf32, #gpu.address_space<workgroup>>
  return
}
