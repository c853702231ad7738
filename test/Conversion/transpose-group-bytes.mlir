// transpose-group-bytes: the bytes of each source row a blocked transpose
// reads per visit (its p_k blocks in groups of that many bytes). The
// pipeline takes it from the target: 1 KiB on znver4, emeraldrapids and
// every CPU with AMX (AVX-512), 256 bytes elsewhere
// (docs/performance.md, "Groups of 1 KiB"); an explicit value wins, except
// for the blocks that prefetch plain rows (prefetched-group-bytes, below).
// f32[512,512]{1,0} -> {0,1}: blocks of 16 x 16, so groups of 16 x 4 = 64
// rows read 256 bytes, groups of 256 rows 1 KiB.
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=znver4 num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=KIB
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=emeraldrapids num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=KIB
// Measured with AVX-512 code only: znver4 with AVX2 code keeps 256 bytes.
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=znver4 target-features=-avx512f num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=QUARTER
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=znver5 num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=QUARTER
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=sapphirerapids num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=KIB
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=graniterapids num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=KIB
// AMX is what counts (a VM's CPUID may give another name), with AVX-512 code.
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=icelake-server target-features=+amx-tile num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=KIB
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=icelake-server num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=QUARTER
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=sapphirerapids target-features=-avx512f num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=QUARTER
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=znver4 transpose-group-bytes=256 num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=QUARTER
// RUN: layout-opt %s --convert-layout-to-scf="parallel-threshold-bytes=-1" | FileCheck %s --check-prefix=QUARTER
// RUN: layout-opt %s --convert-layout-to-scf="transpose-group-bytes=1024 parallel-threshold-bytes=-1" | FileCheck %s --check-prefix=KIB
// RUN: layout-opt %s --convert-layout-to-scf="transpose-group-bytes=64 parallel-threshold-bytes=-1" | FileCheck %s --check-prefix=LINE

// The group loop, then the row's blocks, then the group's blocks.
// KIB-LABEL: func.func @transpose
// KIB: scf.for %{{.*}} = %c0 to %c512 step %c256 {
// KIB: scf.for
// KIB: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// QUARTER-LABEL: func.func @transpose
// QUARTER: scf.for %{{.*}} = %c0 to %c512 step %c64 {
// QUARTER: scf.for
// QUARTER: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// 64 bytes: one block per group (no group loop).
// LINE-LABEL: func.func @transpose(
// LINE: scf.for %{{.*}} = %c0 to %c512 step %c16 {
// LINE-NOT: step %c64
// LINE-LABEL: func.func @transpose_bf16
func.func @transpose(%a: memref<512x512xf32>,
                     %b: memref<512x512xf32, #layout.tiled<{0,1}>>) {
  layout.relayout %a, %b : memref<512x512xf32>, memref<512x512xf32, #layout.tiled<{0,1}>>
  return
}

// prefetched-group-bytes: blocks that prefetch plain source rows (16-bit
// elements, planes of at least 512 rows along p_r here) read 1 KiB of each source
// row per visit whatever the target's groups (docs/performance.md, "Groups of
// prefetched rows"); 0 takes transpose-group-bytes. bf16[512,1024]{1,0} ->
// {0,1}: 16 x 16 blocks, groups of 512 elements (1 KiB) or 128 (256 bytes).
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=znver5 num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=PFKIB
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=znver4 transpose-group-bytes=256 num-threads=1" --mlir-print-ir-after=convert-layout-to-affine 2>&1 | FileCheck %s --check-prefix=PFKIB
// RUN: layout-opt %s --convert-layout-to-scf="parallel-threshold-bytes=-1" | FileCheck %s --check-prefix=PFKIB
// RUN: layout-opt %s --convert-layout-to-scf="prefetched-group-bytes=0 parallel-threshold-bytes=-1" | FileCheck %s --check-prefix=PFQUARTER
// RUN: layout-opt %s --convert-layout-to-scf="prefetched-group-bytes=0 transpose-group-bytes=1024 parallel-threshold-bytes=-1" | FileCheck %s --check-prefix=PFKIB
// PFKIB-LABEL: func.func @transpose_bf16
// PFKIB: scf.for %{{.*}} = %c0 to %c1024 step %c512 {
// PFKIB: prefetch
// PFQUARTER-LABEL: func.func @transpose_bf16
// PFQUARTER: scf.for %{{.*}} = %c0 to %c1024 step %c128 {
// PFQUARTER: prefetch
func.func @transpose_bf16(%a: memref<512x1024xbf16>,
                          %b: memref<512x1024xbf16, #layout.tiled<{0,1}>>) {
  layout.relayout %a, %b : memref<512x1024xbf16>, memref<512x1024xbf16, #layout.tiled<{0,1}>>
  return
}
