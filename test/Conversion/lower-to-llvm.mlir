// RUN: layout-opt %s --layout-lower-to-llvm="deallocate=false" -split-input-file \
// RUN:   -allow-unregistered-dialect -verify-diagnostics | FileCheck %s
// Without -verify-diagnostics the leftover makes the pipeline exit non-zero.
// RUN: not layout-opt %s --layout-lower-to-llvm="deallocate=false" -split-input-file \
// RUN:   -allow-unregistered-dialect -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: --layout-lower-to-llvm: 'test.unknown' was not converted to the LLVM dialect
// With deallocation (the default) an op of unknown memory effects is
// reported before the deallocation pass would reject it.
// RUN: not layout-opt %s --layout-lower-to-llvm -split-input-file \
// RUN:   -allow-unregistered-dialect -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEALLOC
// DEALLOC: error: --layout-lower-to-llvm: 'test.unknown' has unknown memory effects: automatic deallocation cannot free buffers around it (--layout-lower-to-llvm="deallocate=false" turns it off)

// Tensor-level and memref-level IR in one module: broadcasting, a tiled
// relayout, affine loops over a tiled memref and a runtime call. Everything
// ends in the LLVM dialect.
// CHECK-LABEL: llvm.func @mixed
// CHECK-NOT: layout.
// CHECK-NOT: affine.
// CHECK-NOT: memref.
// CHECK-NOT: bufferization.
// CHECK: llvm.call @printMemrefF32
// CHECK-LABEL: llvm.func @_mlir_ciface_mixed
func.func private @printMemrefF32(memref<*xf32>)
func.func @mixed(%m: memref<4x8xf32>) attributes {llvm.emit_c_interface} {
  %t = bufferization.to_tensor %m restrict : memref<4x8xf32> to tensor<4x8xf32>
  %v = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %r = layout.add %t, %v, dims = [0] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  %rb = bufferization.to_buffer %r read_only : tensor<4x8xf32> to memref<4x8xf32>
  %tiled = memref.alloc() : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  layout.relayout %rb, %tiled : memref<4x8xf32>, memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 4 {
    affine.store %one, %tiled[%i, %i] : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  }
  %p = layout.to_physical %tiled : memref<4x8xf32, #layout.tiled<{1,0:T(2,4)}>> -> memref<2x2x2x4xf32>
  %u = memref.cast %p : memref<2x2x2x4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// Something nothing in the pipeline converts is reported (convert-to-llvm
// alone would leave it and exit 0); the pipeline fails.
func.func @leftover() {
  // expected-error @below {{--layout-lower-to-llvm: 'test.unknown' was not converted to the LLVM dialect}}
  "test.unknown"() : () -> ()
  return
}
