// --layout-bufferize: #layout.tiled encodings become memref layouts across
// function boundaries; relayout becomes its memref form; the tensor views
// become memref views; allocations of tiled tensors allocate the physical
// buffer.
// RUN: layout-opt %s --layout-bufferize -split-input-file | FileCheck %s
// Plain -one-shot-bufferize drops the encodings; the relayout model refuses
// to turn that into a silent plain copy.
// RUN: not layout-opt %s -one-shot-bufferize=bufferize-function-boundaries -split-input-file 2>&1 | FileCheck %s --check-prefix=UPSTREAM

!fig1 = tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

// CHECK-LABEL: func.func @callee
// CHECK-SAME: (%[[A:.+]]: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: return %[[A]] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func @callee(%t: !fig1) -> !fig1 {
  return %t : !fig1
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[S:.+]]: memref<3x5xf32>) -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: %[[ALLOC:.+]] = memref.alloc() {{.*}}: memref<2x3x2x2xf32>
// CHECK-NEXT: %[[D:.+]] = layout.from_physical %[[ALLOC]] : memref<2x3x2x2xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: layout.relayout %[[S]], %[[D]] : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>{{$}}
// CHECK-NEXT: %[[R:.+]] = call @callee(%[[D]]) : (memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: return %[[R]]
// UPSTREAM: error: 'layout.relayout' op operand 'tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>' bufferized to 'memref<3x5xf32>', which does not carry its layout
func.func @caller(%src: tensor<3x5xf32>) -> !fig1 {
  %e = tensor.empty() : !fig1
  %r = layout.relayout %src, %e : tensor<3x5xf32>, !fig1 -> !fig1
  %c = func.call @callee(%r) : (!fig1) -> !fig1
  return %c : !fig1
}

// -----

// Tensor views become memref views of the same buffer.
// Upstream's default fully dynamic layouts are not views' layouts either.
// UPSTREAM: error: 'layout.{{(to|from)}}_physical' op needs {{a #layout.tiled|an identity-layout}} source buffer, got 'memref<{{.*}}strided<[?
// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[A:.+]]: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> memref<2x3x2x2xf32>
// CHECK-NEXT: %[[P:.+]] = layout.to_physical %[[A]] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
// CHECK-NEXT: return %[[P]]
func.func @views(%t: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<2x3x2x2xf32> {
  %p = layout.to_physical %t : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<2x3x2x2xf32>
  return %p : tensor<2x3x2x2xf32>
}

// CHECK-LABEL: func.func @from_view
// CHECK-SAME: (%[[P:.+]]: memref<2x3x2x2xf32>) -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: %[[L:.+]] = layout.from_physical %[[P]] : memref<2x3x2x2xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: return %[[L]]
func.func @from_view(%p: tensor<2x3x2x2xf32>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %t = layout.from_physical %p : tensor<2x3x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %t : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// -----

// A write into a tiled tensor that is still read elsewhere: the copy that
// One-Shot Bufferize inserts copies the physical buffer, padding included,
// and keeps the layout.
// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[A:.+]]: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %[[V:.+]]: f32)
// CHECK: %[[P:.+]] = layout.to_physical %[[A]] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
// CHECK-NEXT: %[[ALLOC:.+]] = memref.alloc() {{.*}}: memref<2x3x2x2xf32>
// CHECK-NEXT: memref.copy %[[P]], %[[ALLOC]] : memref<2x3x2x2xf32> to memref<2x3x2x2xf32>
// CHECK-NEXT: %[[B:.+]] = layout.from_physical %[[ALLOC]] : memref<2x3x2x2xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: memref.store %[[V]], %[[B]][%{{.+}}, %{{.+}}] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @copy(%t: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %v: f32)
    -> (tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  %c0 = arith.constant 0 : index
  %i = tensor.insert %v into %t[%c0, %c0] : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %t, %i : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// -----

// S(1): the buffer lives in memory space 1.
// CHECK-LABEL: func.func @space
// CHECK-SAME: -> memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>
// CHECK-NEXT: %[[ALLOC:.+]] = memref.alloc() {{.*}}: memref<2x2x4x4xf32, 1>
// CHECK-NEXT: layout.from_physical %[[ALLOC]] : memref<2x2x4x4xf32, 1> -> memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>
func.func @space(%src: tensor<8x8xf32>) -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>> {
  %e = tensor.empty() : tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>>
  %r = layout.relayout %src, %e : tensor<8x8xf32>, tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>> -> tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>>
  return %r : tensor<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>>
}

// -----

// Dynamic dims: the tiled memref itself is allocated with its logical sizes
// (a view of the physical allocation would lose them);
// --layout-normalize-memrefs allocates ceil(d / 2) tiles.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[S:.+]]: memref<?x5xf32>)
// CHECK: %[[D:.+]] = memref.dim %[[S]], %{{.+}} : memref<?x5xf32>
// CHECK-NEXT: %[[T:.+]] = memref.alloc(%[[D]]) : memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-NEXT: layout.relayout %[[S]], %[[T]]
// CHECK-NEXT: return %[[T]]
func.func @dynamic(%src: tensor<?x5xf32>) -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %src, %c0 : tensor<?x5xf32>
  %e = tensor.empty(%d) : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  %r = layout.relayout %src, %e : tensor<?x5xf32>, tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}
