// A relayout whose bound-check splits include a range that no index
// reaches (a lower bound max(0, 1, 2 - i) against an upper bound
// min(2, 1, 3 - i)): the loop is not emitted. Emitted, upstream's affine.for
// canonicalization (inside --convert-linalg-to-loops of the pipeline) turned
// the bounds of the loop nested in it into an empty min map, and the
// pipeline failed verification (found by scripts/soak.sh, seed 1125).
// RUN: layout-opt %s --convert-layout-to-affine --canonicalize | FileCheck %s --check-prefix=AFFINE
// RUN: layout-opt %s --layout-lower-to-llvm | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt %s --layout-lower-to-llvm="parallel-threshold-bytes=0 num-threads=2" | FileCheck %s --check-prefix=LLVM
// AFFINE-LABEL: func.func @empty_split
// AFFINE-NOT: to min affine_map<{{.*}}> -> ()>
// AFFINE: return
// LLVM-LABEL: llvm.func @empty_split
// LLVM: llvm.return
func.func @empty_split(
    %a: memref<2x5xf32, #layout.tiled<{1,0:T(3,4)(4)(2,4)}>>,
    %b: memref<2x5xf32, #layout.tiled<{1,0:T(1,2)(4,2,4)(2)PAD(3,6)PV(one)}>>) {
  layout.relayout %a, %b
      : memref<2x5xf32, #layout.tiled<{1,0:T(3,4)(4)(2,4)}>>,
        memref<2x5xf32, #layout.tiled<{1,0:T(1,2)(4,2,4)(2)PAD(3,6)PV(one)}>>
  return
}
