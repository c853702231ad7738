// RUN: layout-opt %s --layout-bufferize -split-input-file -verify-diagnostics
// RUN: layout-opt %s --layout-lower-to-llvm -split-input-file -verify-diagnostics
// A program whose value is pinned to one layout but written into a result
// buffer of another: an error at the materialize the user wrote (before,
// it failed late, as a memref.copy between two types in
// --layout-normalize-memrefs).

func.func @conflict(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %o: memref<4x8xf32>) {
  %s = layout.add %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32, #layout.tiled<{0,1}>>
  // expected-error @+1 {{writes a tensor of type 'tensor<4x8xf32, #layout.tiled<{0,1}>>' into a buffer of type 'memref<4x8xf32>', whose layout differs: relayout the tensor into the buffer's layout first (layout.relayout into a tensor.empty of that type)}}
  bufferization.materialize_in_destination %s in restrict writable %o : (tensor<4x8xf32, #layout.tiled<{0,1}>>, memref<4x8xf32>) -> ()
  return
}

// -----

func.func @tiled_conflict(%a: tensor<16x256xf32, #layout.tiled<{1,0:T(8,128)}>>, %o: memref<16x256xf32, #layout.tiled<{0,1:T(8,128)}>>) {
  // expected-error @+1 {{writes a tensor of type 'tensor<16x256xf32, #layout.tiled<{1,0:T(8,128)}>>' into a buffer of type 'memref<16x256xf32, #layout.tiled<{0,1:T(8,128)}>>', whose layout differs}}
  bufferization.materialize_in_destination %a in restrict writable %o : (tensor<16x256xf32, #layout.tiled<{1,0:T(8,128)}>>, memref<16x256xf32, #layout.tiled<{0,1:T(8,128)}>>) -> ()
  return
}
