// Kernels for vectorize-isa.test: 16-bit float relayouts whose rows are
// whole 64-byte vectors (a permutation that keeps the minor dim, walked
// along the source, and a blocked transpose), with streaming stores.
func.func @rows_bf16(%src: memref<4x8x64xbf16>, %dst: memref<8x4x64xbf16>) {
  %d = layout.from_physical %dst : memref<8x4x64xbf16> -> memref<4x8x64xbf16, #layout.tiled<{2,0,1}>>
  layout.relayout %src, %d : memref<4x8x64xbf16>, memref<4x8x64xbf16, #layout.tiled<{2,0,1}>>
  return
}
func.func @rows_f16(%src: memref<4x8x64xf16>, %dst: memref<8x4x64xf16>) {
  %d = layout.from_physical %dst : memref<8x4x64xf16> -> memref<4x8x64xf16, #layout.tiled<{2,0,1}>>
  layout.relayout %src, %d : memref<4x8x64xf16>, memref<4x8x64xf16, #layout.tiled<{2,0,1}>>
  return
}
func.func @transpose_bf16(%src: memref<64x64xbf16>, %dst: memref<64x64xbf16>) {
  %d = layout.from_physical %dst : memref<64x64xbf16> -> memref<64x64xbf16, #layout.tiled<{0,1}>>
  layout.relayout %src, %d : memref<64x64xbf16>, memref<64x64xbf16, #layout.tiled<{0,1}>>
  return
}
// Rows of 37 elements from tiles: masked heads and tails (AVX-512 masked
// edges), of bf16 and of f16.
func.func @edges_bf16(%src: memref<1x1x8x128xbf16>, %dst: memref<5x37xbf16>) {
  %s = layout.from_physical %src : memref<1x1x8x128xbf16> -> memref<5x37xbf16, #layout.tiled<{1,0:T(8,128)}>>
  layout.relayout %s, %dst : memref<5x37xbf16, #layout.tiled<{1,0:T(8,128)}>>, memref<5x37xbf16>
  return
}
func.func @edges_f16(%src: memref<1x1x8x128xf16>, %dst: memref<5x37xf16>) {
  %s = layout.from_physical %src : memref<1x1x8x128xf16> -> memref<5x37xf16, #layout.tiled<{1,0:T(8,128)}>>
  layout.relayout %s, %dst : memref<5x37xf16, #layout.tiled<{1,0:T(8,128)}>>, memref<5x37xf16>
  return
}
