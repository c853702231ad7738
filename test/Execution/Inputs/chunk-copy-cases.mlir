// Chunk-copy relayouts for relayout-chunk-copy-differential.mlir, in
// gen_relayout.py's format (`check` mode). Generated once from the
// case list in that test's header with gen_relayout.py's helpers.
func.func private @printMemrefF32(memref<*xf32>)
// CASE 0 f32[16,64]{1,0:T(8,32)} => f32[16,64]{1,0:T(4,64)}
func.func @case0() {
  %a = memref.alloc() : memref<16x64xf32>
  affine.for %i0 = 0 to 16 {
    affine.for %i1 = 0 to 64 {
      %l = affine.apply affine_map<(d0, d1) -> (d0 * 64 + d1 * 1 + 1)>(%i0, %i1)
      %n = arith.index_cast %l : index to i64
      %v = arith.sitofp %n : i64 to f32
      affine.store %v, %a[%i0, %i1] : memref<16x64xf32>
    }
  }
  %b0 = memref.alloc() : memref<16x64xf32, #layout.tiled<{1,0:T(8,32)}>>
  layout.relayout %a, %b0 : memref<16x64xf32>, memref<16x64xf32, #layout.tiled<{1,0:T(8,32)}>>
  %b1 = memref.alloc() : memref<16x64xf32, #layout.tiled<{1,0:T(4,64)}>>
  layout.relayout %b0, %b1 : memref<16x64xf32, #layout.tiled<{1,0:T(8,32)}>>, memref<16x64xf32, #layout.tiled<{1,0:T(4,64)}>>
  %p0 = layout.to_physical %b0 : memref<16x64xf32, #layout.tiled<{1,0:T(8,32)}>> -> memref<2x2x8x32xf32>
  %f0 = memref.collapse_shape %p0 [[0, 1, 2, 3]] : memref<2x2x8x32xf32> into memref<1024xf32>
  %u0 = memref.cast %f0 : memref<1024xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %p1 = layout.to_physical %b1 : memref<16x64xf32, #layout.tiled<{1,0:T(4,64)}>> -> memref<4x1x4x64xf32>
  %f1 = memref.collapse_shape %p1 [[0, 1, 2, 3]] : memref<4x1x4x64xf32> into memref<1024xf32>
  %u1 = memref.cast %f1 : memref<1024xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  return
}
// CASE 1 f32[16,16]{1,0:T(8,32)PV(one)}
func.func @case1() {
  %a = memref.alloc() : memref<16x16xf32>
  affine.for %i0 = 0 to 16 {
    affine.for %i1 = 0 to 16 {
      %l = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 1 + 1)>(%i0, %i1)
      %n = arith.index_cast %l : index to i64
      %v = arith.sitofp %n : i64 to f32
      affine.store %v, %a[%i0, %i1] : memref<16x16xf32>
    }
  }
  %b0 = memref.alloc() : memref<16x16xf32, #layout.tiled<{1,0:T(8,32)PV(one)}>>
  layout.relayout %a, %b0 : memref<16x16xf32>, memref<16x16xf32, #layout.tiled<{1,0:T(8,32)PV(one)}>>
  %p0 = layout.to_physical %b0 : memref<16x16xf32, #layout.tiled<{1,0:T(8,32)PV(one)}>> -> memref<2x1x8x32xf32>
  %f0 = memref.collapse_shape %p0 [[0, 1, 2, 3]] : memref<2x1x8x32xf32> into memref<512xf32>
  %u0 = memref.cast %f0 : memref<512xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  return
}
// CASE 2 f32[4,8,16]{2,1,0:T(2,32)}
func.func @case2() {
  %a = memref.alloc() : memref<4x8x16xf32>
  affine.for %i0 = 0 to 4 {
    affine.for %i1 = 0 to 8 {
      affine.for %i2 = 0 to 16 {
        %l = affine.apply affine_map<(d0, d1, d2) -> (d0 * 128 + d1 * 16 + d2 * 1 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %l : index to i64
        %v = arith.sitofp %n : i64 to f32
        affine.store %v, %a[%i0, %i1, %i2] : memref<4x8x16xf32>
      }
    }
  }
  %b0 = memref.alloc() : memref<4x8x16xf32, #layout.tiled<{2,1,0:T(2,32)}>>
  layout.relayout %a, %b0 : memref<4x8x16xf32>, memref<4x8x16xf32, #layout.tiled<{2,1,0:T(2,32)}>>
  %p0 = layout.to_physical %b0 : memref<4x8x16xf32, #layout.tiled<{2,1,0:T(2,32)}>> -> memref<4x4x1x2x32xf32>
  %f0 = memref.collapse_shape %p0 [[0, 1, 2, 3, 4]] : memref<4x4x1x2x32xf32> into memref<1024xf32>
  %u0 = memref.cast %f0 : memref<1024xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  return
}
// CASE 3 f32[16,4,32]{2,0,1} => f32[16,4,32]{2,1,0:T(2,32)}
func.func @case3() {
  %a = memref.alloc() : memref<16x4x32xf32>
  affine.for %i0 = 0 to 16 {
    affine.for %i1 = 0 to 4 {
      affine.for %i2 = 0 to 32 {
        %l = affine.apply affine_map<(d0, d1, d2) -> (d0 * 128 + d1 * 32 + d2 * 1 + 1)>(%i0, %i1, %i2)
        %n = arith.index_cast %l : index to i64
        %v = arith.sitofp %n : i64 to f32
        affine.store %v, %a[%i0, %i1, %i2] : memref<16x4x32xf32>
      }
    }
  }
  %b0 = memref.alloc() : memref<16x4x32xf32, #layout.tiled<{2,0,1}>>
  layout.relayout %a, %b0 : memref<16x4x32xf32>, memref<16x4x32xf32, #layout.tiled<{2,0,1}>>
  %b1 = memref.alloc() : memref<16x4x32xf32, #layout.tiled<{2,1,0:T(2,32)}>>
  layout.relayout %b0, %b1 : memref<16x4x32xf32, #layout.tiled<{2,0,1}>>, memref<16x4x32xf32, #layout.tiled<{2,1,0:T(2,32)}>>
  %p0 = layout.to_physical %b0 : memref<16x4x32xf32, #layout.tiled<{2,0,1}>> -> memref<4x16x32xf32>
  %f0 = memref.collapse_shape %p0 [[0, 1, 2]] : memref<4x16x32xf32> into memref<2048xf32>
  %u0 = memref.cast %f0 : memref<2048xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %p1 = layout.to_physical %b1 : memref<16x4x32xf32, #layout.tiled<{2,1,0:T(2,32)}>> -> memref<16x2x1x2x32xf32>
  %f1 = memref.collapse_shape %p1 [[0, 1, 2, 3, 4]] : memref<16x2x1x2x32xf32> into memref<2048xf32>
  %u1 = memref.cast %f1 : memref<2048xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  return
}
// CASE 4 f32[8,48]{1,0:T(8,16)} => f32[8,48]{1,0}
func.func @case4() {
  %a = memref.alloc() : memref<8x48xf32>
  affine.for %i0 = 0 to 8 {
    affine.for %i1 = 0 to 48 {
      %l = affine.apply affine_map<(d0, d1) -> (d0 * 48 + d1 * 1 + 1)>(%i0, %i1)
      %n = arith.index_cast %l : index to i64
      %v = arith.sitofp %n : i64 to f32
      affine.store %v, %a[%i0, %i1] : memref<8x48xf32>
    }
  }
  %b0 = memref.alloc() : memref<8x48xf32, #layout.tiled<{1,0:T(8,16)}>>
  layout.relayout %a, %b0 : memref<8x48xf32>, memref<8x48xf32, #layout.tiled<{1,0:T(8,16)}>>
  %b1 = memref.alloc() : memref<8x48xf32, #layout.tiled<{1,0}>>
  layout.relayout %b0, %b1 : memref<8x48xf32, #layout.tiled<{1,0:T(8,16)}>>, memref<8x48xf32, #layout.tiled<{1,0}>>
  %p0 = layout.to_physical %b0 : memref<8x48xf32, #layout.tiled<{1,0:T(8,16)}>> -> memref<1x3x8x16xf32>
  %f0 = memref.collapse_shape %p0 [[0, 1, 2, 3]] : memref<1x3x8x16xf32> into memref<384xf32>
  %u0 = memref.cast %f0 : memref<384xf32> to memref<*xf32>
  call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %p1 = layout.to_physical %b1 : memref<8x48xf32, #layout.tiled<{1,0}>> -> memref<8x48xf32>
  %f1 = memref.collapse_shape %p1 [[0, 1]] : memref<8x48xf32> into memref<384xf32>
  %u1 = memref.cast %f1 : memref<384xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  return
}
func.func @main() {
  call @case0() : () -> ()
  call @case1() : () -> ()
  call @case2() : () -> ()
  call @case3() : () -> ()
  call @case4() : () -> ()
  return
}
