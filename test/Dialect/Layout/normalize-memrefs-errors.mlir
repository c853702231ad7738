// Uses layout-normalize-memrefs cannot rewrite are reported (every one of
// them) and the IR is left unchanged.
// RUN: layout-opt %s --layout-normalize-memrefs -split-input-file -verify-diagnostics

!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

func.func @unknown_op(%m: !fig1) -> memref<15xf32> {
  // expected-error @+1 {{'memref.reinterpret_cast' op uses a #layout.tiled memref; layout-normalize-memrefs does not know how to rewrite this op (supported: memref.alloc/alloca/dealloc/load/store/copy/cast/dim}}
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [15], strides: [1] : !fig1 to memref<15xf32>
  return %r : memref<15xf32>
}

// -----

// memref.dim of a tiled memref is its logical size; the index must be known.
func.func @dim_dynamic_index(%m: memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>, %i: index) -> index {
  // expected-error @+1 {{'memref.dim' op reads a size of a #layout.tiled memref with a non-constant index}}
  %d = memref.dim %m, %i : memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %d : index
}

// -----

// A constant index past the rank (found by the mlir-module fuzzer: it read
// past the logical sizes) is refused.
func.func @dim_out_of_range(%m: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> index {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'memref.dim' op reads dim 5 of a #layout.tiled memref of rank 2}}
  %d = memref.dim %m, %c5 : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %d : index
}

// -----

// A physical buffer viewed as a dynamic tiled memref has lost the logical
// sizes (its extents are whole tiles).
func.func @lost_sizes(%p: memref<?x?x2x2xf32>) -> index {
  %c0 = arith.constant 0 : index
  %m = layout.from_physical %p : memref<?x?x2x2xf32> -> memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
  // expected-error @+1 {{'memref.dim' op needs the logical sizes of the dynamic #layout.tiled memref 'memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>', which are lost: it is a layout.from_physical of a physical buffer}}
  %d = memref.dim %m, %c0 : memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %d : index
}

// -----

func.func @lost_sizes_return(%p: memref<?x?x2x2xf32>) -> memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %m = layout.from_physical %p : memref<?x?x2x2xf32> -> memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
  // expected-error @+1 {{'func.return' op needs the logical sizes of the dynamic #layout.tiled memref}}
  return %m : memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// -----

func.func @cast_unranked(%m: memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>) -> memref<*xf32> {
  // expected-error @+1 {{'memref.cast' op casts between 'memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>' and 'memref<*xf32>'; layout-normalize-memrefs only rewrites casts between memrefs with the same #layout.tiled layout}}
  %c = memref.cast %m : memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>> to memref<*xf32>
  return %c : memref<*xf32>
}

// -----

!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

// expected-error @+1 {{'func.func' op is an external function with a static #layout.tiled memref in its signature}}
func.func private @external(!fig1)

func.func @caller(%m: !fig1) {
  // expected-error @+1 {{'func.call' op passes a static #layout.tiled memref to a function without a body in this module}}
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

// -----

// vector.load of a packed E(4) memref (an identity index map, but packed
// bytes) is refused.
func.func @vector_load_packed(%m: memref<4x8xi4, #layout.tiled<{1,0:E(4)}>>) -> vector<2xi4> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'vector.load' op uses a #layout.tiled memref; layout-normalize-memrefs does not know how to rewrite this op}}
  %v = vector.load %m[%c0, %c0] : memref<4x8xi4, #layout.tiled<{1,0:E(4)}>>, vector<2xi4>
  return %v : vector<2xi4>
}
