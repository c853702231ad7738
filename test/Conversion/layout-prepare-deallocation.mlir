// RUN: layout-opt %s --layout-prepare-deallocation -split-input-file \
// RUN:   -allow-unregistered-dialect -verify-diagnostics | FileCheck %s

// A dealloc of a local allocation (directly or through a view) is erased:
// the deallocation pipeline frees the buffer after its last use.
// CHECK-LABEL: func.func @local
// CHECK: %[[A:.+]] = memref.alloc() : memref<4x4xf32>
// CHECK: %[[V:.+]] = memref.subview %[[A]]
// CHECK: memref.store %{{.+}}, %[[V]]
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @local(%x: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4x4xf32>
  %v = memref.subview %a[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  memref.store %x, %v[%c0, %c0] : memref<2x2xf32, strided<[4, 1]>>
  memref.dealloc %v : memref<2x2xf32, strided<[4, 1]>>
  return
}

// -----

// llvm.fence gets read/write effects (an external model), so it is accepted
// inside functions.
// CHECK-LABEL: func.func @fence
// CHECK-NEXT: llvm.fence release
func.func @fence() {
  llvm.fence release
  return
}

// -----

// Freeing a buffer that the function did not allocate: an error.
func.func @argument(%m: memref<4xf32>) {
  // expected-error @+1 {{--layout-lower-to-llvm: cannot free a buffer that was not allocated in this function together with automatic deallocation; use --layout-lower-to-llvm="deallocate=false" and free every buffer by hand}}
  memref.dealloc %m : memref<4xf32>
  return
}

// -----

// A buffer allocated in another function (returned to this one): an error.
func.func private @make() -> memref<4xf32>
func.func @foreign() {
  %m = func.call @make() : () -> memref<4xf32>
  // expected-error @+1 {{cannot free a buffer that was not allocated in this function}}
  memref.dealloc %m : memref<4xf32>
  return
}

// -----

// An op with unknown memory effects: frees cannot be placed around it.
func.func @unknown_effects() {
  // expected-error @+1 {{--layout-lower-to-llvm: 'test.opaque' has unknown memory effects: automatic deallocation cannot free buffers around it (--layout-lower-to-llvm="deallocate=false" turns it off)}}
  "test.opaque"() : () -> ()
  return
}

// -----

// A returned logical descriptor of a dynamic tiled memref (sizes logical,
// buffer physical: --layout-normalize-memrefs) of a buffer the function does
// not own: the physical view (ceil(d / 2) tiles of 2x2) is cloned and the
// clone described, so that upstream does not clone the descriptor (15 of
// Figure 1's 24 slots).
// CHECK-LABEL: func.func @return_argument
// CHECK-SAME: (%[[A:.+]]: memref<?x?xf32>, %[[R:.+]]: index, %[[C:.+]]: index)
// CHECK: %[[P:.+]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%{{.+}}, %{{.+}}, 2, 2], strides: [%{{.+}}, 4, 2, 1] : memref<?x?xf32> to memref<?x?x2x2xf32>
// CHECK: %[[COPY:.+]] = bufferization.clone %[[P]] : memref<?x?x2x2xf32> to memref<?x?x2x2xf32>
// CHECK: %[[D:.+]] = memref.reinterpret_cast %[[COPY]] to offset: [0], sizes: [%[[R]], %[[C]]], strides: [%[[C]], 1] {layout.logical_descriptor = memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>} : memref<?x?x2x2xf32> to memref<?x?xf32>
// CHECK: return %[[D]]
func.func @return_argument(%a: memref<?x?xf32>, %r: index, %c: index) -> memref<?x?xf32> {
  %d = memref.reinterpret_cast %a to offset: [0], sizes: [%r, %c], strides: [%c, 1] {layout.logical_descriptor = memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>} : memref<?x?xf32> to memref<?x?xf32>
  return %d : memref<?x?xf32>
}

// -----

// An owned buffer (allocated here) is returned as is.
// CHECK-LABEL: func.func @return_owned
// CHECK-NOT: bufferization.clone
func.func @return_owned(%n: index, %r: index, %c: index) -> memref<?x?xf32> {
  %b = memref.alloc(%n, %n) : memref<?x?x2x2xf32>
  %d = memref.reinterpret_cast %b to offset: [0], sizes: [%r, %c], strides: [%c, 1] {layout.logical_descriptor = memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>} : memref<?x?x2x2xf32> to memref<?x?xf32>
  return %d : memref<?x?xf32>
}
