// Automatic deallocation cannot model a function that frees what it does not
// own; --layout-lower-to-llvm says so and names the option that turns it off.
// RUN: layout-opt %s --layout-lower-to-llvm -verify-diagnostics -split-input-file
// RUN: layout-opt %s --layout-lower-to-llvm="deallocate=false" -split-input-file \
// RUN:   | FileCheck %s

// CHECK-LABEL: llvm.func @free_argument(
//       CHECK:   llvm.call @free
func.func @free_argument(%a: memref<4xf32>) {
  // expected-error @below {{--layout-lower-to-llvm: cannot free a buffer that was not allocated in this function together with automatic deallocation; use --layout-lower-to-llvm="deallocate=false" and free every buffer by hand}}
  memref.dealloc %a : memref<4xf32>
  return
}
