// Uses layout-normalize-memrefs cannot rewrite are reported (every one of
// them) and the IR is left unchanged.
// RUN: layout-opt %s --layout-normalize-memrefs -split-input-file -verify-diagnostics

!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

func.func @unknown_op(%m: !fig1) -> index {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.dim' op uses a #layout.tiled memref; layout-normalize-memrefs does not know how to rewrite this op}}
  %d = memref.dim %m, %c0 : !fig1
  return %d : index
}

// -----

!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

// expected-error @+1 {{'func.func' op is an external function with a #layout.tiled memref in its signature}}
func.func private @external(!fig1)

func.func @caller(%m: !fig1) {
  // expected-error @+1 {{'func.call' op passes a #layout.tiled memref to a function without a body in this module}}
  call @external(%m) : (!fig1) -> ()
  return
}

// -----

func.func @copy_mixed(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>, %n: memref<3x5xf32>) {
  // expected-error @+1 {{'memref.copy' op copies between different memref types}}
  memref.copy %m, %n : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> to memref<3x5xf32>
  return
}

// -----

// Same physical type (2x2x2x2), different layouts: not a copy of the buffer
// (only equivalent layouts, such as a `*` layout with and without its dims,
// are).
func.func @copy_other_layout(%m: memref<4x4xf32, #layout.tiled<{1,0:T(2,2)}>>, %n: memref<4x4xf32, #layout.tiled<{0,1:T(2,2)}>>) {
  // expected-error @+1 {{'memref.copy' op copies between different memref types}}
  memref.copy %m, %n : memref<4x4xf32, #layout.tiled<{1,0:T(2,2)}>> to memref<4x4xf32, #layout.tiled<{0,1:T(2,2)}>>
  return
}

// -----

// expected-error @+1 {{'func.func' op has a block argument of #layout.tiled memref type 'memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>'; layout-normalize-memrefs only rewrites function arguments}}
func.func @block_argument(%c: i1, %m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) {
  // expected-error @+1 {{'cf.br' op uses a #layout.tiled memref}}
  cf.br ^bb1(%m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
^bb1(%x: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>):
  return
}

// -----

// S(n) must match the memref's memory space (a memref layout cannot check it).
func.func @memory_space() {
  // expected-error @+1 {{'memref.alloc' op cannot normalize 'memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>>': memory space of}}
  %m = memref.alloc() : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>>
  return
}
