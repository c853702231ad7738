// Realigned rows whose shifts move with p_k and with the planes
// (docs/lowering.md, "Realigned rows"): bf16[3,67,41] -> {1,2,0}, rows of
// 67 elements in planes of 41 x 67 = 2747 (odd), 16 x 16 blocks two wide
// (lines of W = 32 elements, pinned by the options). Block row j starts
// S + 67 j elements past a line (mod 32), S = (2747 p_0 + 67 p_k) mod 32
// the block's first row's shift: all 32 values occur, and each block's
// stores take one scf.index_switch case per value with the row shifts as
// constants, after the block's loads and transposes (not one copy of the
// plane per base shift). The head block, the body blocks, the carries'
// flush and the edge block each switch once. Case 1 in the body: row 0
// streams the vector starting 1 element before its block (lanes 15.. of
// the carry and the new vector), at column p_r + 0 - 1 of the row.
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 vector-bytes=64 vector-register-bytes=512 masked-edges=false' | FileCheck %s
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=0 vector-bytes=64 vector-register-bytes=512 masked-edges=false' | grep -c 'scf.index_switch' | FileCheck %s --check-prefix=COUNT

// CHECK: #[[SHIFT:.+]] = affine_map<(d0, d1) -> ((d0 * 2747 + d1 * 67) mod 32)>
// CHECK-LABEL: func.func @bf16_moving
// The head block's switch (p_r = 0), then the body's (its one block at
// p_r = 32, the loop folded).
// CHECK: %[[S:.+]] = affine.apply #[[SHIFT]](%{{.*}}, %{{.*}})
// CHECK-NEXT: scf.index_switch %[[S]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32{{.*}} step %c16
// CHECK: vector.shuffle
// CHECK: %[[B:.+]] = affine.apply #[[SHIFT]](%{{.*}}, %{{.*}})
// CHECK-NEXT: scf.index_switch %[[B]]
// CHECK-NEXT: case 1 {
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30] : vector<16xi16>, vector<16xi16>
// CHECK-NEXT: vector.bitcast
// CHECK-NEXT: %[[C31:.+]] = arith.constant 31 : index
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %[[C31]]] {alignment = 32 : i64, nontemporal = true}
// CHECK: case 31 {
// CHECK: default {
// CHECK: return
// COUNT: 4
func.func @bf16_moving(%src: memref<3x67x41xbf16>, %dst: memref<3x41x67xbf16>) {
  %d = layout.from_physical %dst : memref<3x41x67xbf16> -> memref<3x67x41xbf16, #layout.tiled<{1,2,0}>>
  layout.relayout %src, %d : memref<3x67x41xbf16>, memref<3x67x41xbf16, #layout.tiled<{1,2,0}>>
  return
}
