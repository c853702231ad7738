// Parallel outer loops (docs/performance.md, "Parallel kernels"): the
// nest's outermost level with enough chunks of whole destination cache lines
// becomes affine.parallel / scf.parallel over chunks, and
// --layout-lower-to-llvm lowers them with upstream's convert-scf-to-openmp.
// RUN: layout-opt %s --convert-layout-to-affine="parallel-threshold-bytes=0" | FileCheck %s --check-prefix=AFFINE
// RUN: layout-opt %s --convert-layout-to-scf="parallel-threshold-bytes=0" | FileCheck %s --check-prefix=SCF
// RUN: layout-opt %s --layout-lower-to-llvm="parallel-threshold-bytes=0 nontemporal-threshold-bytes=0 num-threads=2" | FileCheck %s --check-prefix=OMP
// Default threshold (1 MiB): only @large is parallel; num-threads=1: none.
// RUN: layout-opt %s --convert-layout-to-affine | FileCheck %s --check-prefix=DEFAULT
// RUN: layout-opt %s --layout-lower-to-llvm="num-threads=1 parallel-threshold-bytes=0" | FileCheck %s --check-prefix=SERIAL
// Streaming, the transposes' per-thread buffers in each chunk:
// RUN: layout-opt %s --convert-layout-to-scf="parallel-threshold-bytes=0 nontemporal-threshold-bytes=0" | FileCheck %s --check-prefix=SCFNT

!t = memref<64x256xf32, #layout.tiled<{1,0:T(8,128)}>>
!u = memref<61x259xf32, #layout.tiled<{1,0:T(8,128)}>>

// Destination f32[64,256]{1,0:T(8,128)}: physical [8, 2, 8, 128], a tile
// row (8 KiB) is a whole number of cache lines: one chunk per tile row.
// Inside it the nest walks the source into the tiles (rows in the tile
// row, then tile columns: NestEmitter::prepareSourceWalkIntoTiles).
// AFFINE-LABEL: func.func @to_tiled
// AFFINE: affine.parallel (%{{.*}}) = (0) to (8) {
// AFFINE-NEXT: affine.for %{{.*}} = 0 to 8 {
// AFFINE-NEXT: affine.for %{{.*}} = 0 to 2 {
// SCF-LABEL: func.func @to_tiled
// SCF: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// OMP-LABEL: llvm.func @to_tiled
// OMP: omp.parallel num_threads(%{{.*}} : i32) {
// OMP-NEXT: omp.wsloop {
// OMP-NEXT: omp.loop_nest
// Each chunk fences its streaming stores before the region's barrier.
// OMP: llvm.store {{.*}} {alignment = 64 : i64, nontemporal}
// OMP: llvm.fence seq_cst
// OMP-NEXT: omp.yield
// OMP: omp.terminator
// DEFAULT-LABEL: func.func @to_tiled
// DEFAULT-NOT: affine.parallel
// DEFAULT: return
// SERIAL-NOT: omp.
func.func @to_tiled(%src: memref<64x256xf32>, %dst: !t) {
  layout.relayout %src, %dst : memref<64x256xf32>, !t
  return
}

// Row-major f32[61,259] from T(8,128): the nest walks the source's tiles
// (NestEmitter::prepareSourceWalk); a band of 8 rows is 8288 bytes, so
// chunks of 2 bands (259 cache lines) start on a line: 4 chunks over the
// 7 full bands, the partial band after them.
// AFFINE-LABEL: func.func @from_tiled_rows
// AFFINE: layout.to_physical {{.*}} -> memref<8x3x8x128xf32>
// AFFINE: affine.parallel (%[[C:.*]]) = (0) to (4) {
// AFFINE-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[C]]) to min #{{.*}}(%[[C]]) {
// AFFINE-NOT: memref.alloca
// OMP-LABEL: llvm.func @from_tiled_rows
// OMP: omp.loop_nest
// OMP: llvm.fence
// OMP: omp.yield
func.func @from_tiled_rows(%src: !u, %dst: memref<61x259xf32>) {
  layout.relayout %src, %dst : !u, memref<61x259xf32>
  return
}

// Row-major f32[61,259] from T(8,8) (tile rows of 32 bytes: the nest walks
// the destination): chunks of 16 rows (4 chunks), each with its own staging
// row (the rows are not vector-aligned) and, lowered, a
// stacksave/stackrestore per chunk.
// AFFINE-LABEL: func.func @from_short_tiles_rows
// AFFINE: affine.parallel (%[[C:.*]]) = (0) to (4) {
// AFFINE-NEXT: memref.alloca() {alignment = 64 : i64} : memref<275xf32>
// AFFINE-NEXT: affine.for %{{.*}} = max #{{.*}}(%[[C]]) to min #{{.*}}(%[[C]]) {
// OMP-LABEL: llvm.func @from_short_tiles_rows
// OMP: omp.loop_nest
// OMP-NEXT: %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// OMP: llvm.alloca %{{.*}} x f32 {alignment = 64 : i64}
// OMP: llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// OMP-NEXT: omp.yield
func.func @from_short_tiles_rows(%src: memref<61x259xf32, #layout.tiled<{1,0:T(8,8)}>>,
                                 %dst: memref<61x259xf32>) {
  layout.relayout %src, %dst : memref<61x259xf32, #layout.tiled<{1,0:T(8,8)}>>, memref<61x259xf32>
  return
}

// Transposes of 64 KiB: serial with the default threshold; of 1 MiB:
// parallel. They take the blocked transposes (TransposeBlocks.cpp), whose
// parallel chunks are whole groups of 16-row blocks (transpose-group-bytes
// 256: 4 blocks, 64 rows): lcm(2 rows, 64) = 64 rows, 8 chunks, each a
// serial loop over its blocks.
// DEFAULT-LABEL: func.func @small
// DEFAULT-NOT: parallel
// DEFAULT: return
func.func @small(%a: memref<128x128xf32>, %b: memref<128x128xf32, #layout.tiled<{0,1}>>) {
  layout.relayout %a, %b : memref<128x128xf32>, memref<128x128xf32, #layout.tiled<{0,1}>>
  return
}
// DEFAULT-LABEL: func.func @large
// DEFAULT: %[[C8:.+]] = arith.constant 8 : index
// DEFAULT: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C8]]) step (%{{.*}}) {
// DEFAULT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[C16:.+]] {
// DEFAULT: vector.shuffle
func.func @large(%a: memref<512x512xf32>, %b: memref<512x512xf32, #layout.tiled<{0,1}>>) {
  layout.relayout %a, %b : memref<512x512xf32>, memref<512x512xf32, #layout.tiled<{0,1}>>
  return
}

// Planes that are not whole lines (getLevelGranule, layout/Xla/KernelPlan.h):
// f32[5,129,131] -> {1,2,0}, planes of 131 x 129 x 4 = 67,596 bytes (12 mod
// 64): whole lines take 16 planes, no chunk of 5; each plane is over 64 KiB
// (kMidLineChunkBytes), so the chunks are single planes that meet inside a
// line, each thread transposing whole planes with its own carry and gaps
// buffers (the rows' heads and tails masked, never streamed). Planes of
// 131 x 120 x 4 = 62,880 bytes stay serial, each split along its rows under
// a parallel loop of its own.
// AFFINE-LABEL: func.func @planes_mid_line
// AFFINE: affine.parallel (%{{.*}}) = (0) to (5) {
// AFFINE-NOT: parallel
// AFFINE-LABEL: func.func @planes_below_64k
// SCFNT-LABEL: func.func @planes_mid_line
// SCFNT-NOT: scf.for
// SCFNT: %[[C5:.*]] = arith.constant 5 : index
// SCFNT-NOT: scf.for
// SCFNT: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C5]]) step (%{{.*}}) {
// SCFNT-NEXT: memref.alloca() {alignment = 64 : i64} : memref<65x64xi32>
// SCFNT-NEXT: memref.alloca() {alignment = 64 : i64} : memref<64x16xi32>
// SCFNT: vector.maskedstore
// SCFNT: llvm.fence seq_cst
// SCFNT-NEXT: scf.reduce
// SCFNT-LABEL: func.func @planes_below_64k
func.func @planes_mid_line(%a: memref<5x129x131xf32>, %b: memref<5x129x131xf32, #layout.tiled<{1,2,0}>>) {
  layout.relayout %a, %b : memref<5x129x131xf32>, memref<5x129x131xf32, #layout.tiled<{1,2,0}>>
  return
}
// AFFINE: affine.for %{{.*}} = 0 to 5 {
// AFFINE-NOT: func.func
// AFFINE: scf.parallel
func.func @planes_below_64k(%a: memref<5x120x131xf32>, %b: memref<5x120x131xf32, #layout.tiled<{1,2,0}>>) {
  layout.relayout %a, %b : memref<5x120x131xf32>, memref<5x120x131xf32, #layout.tiled<{1,2,0}>>
  return
}

// Elements narrower than a byte keep chunks of whole lines: s4[17,65537]
// packed two to a byte (E(4)) has rows of 65,537 elements, which a
// boundary between single rows would split inside a byte, rewritten whole
// by both threads. Whole lines take 64 rows: none of 17, so the nest stays
// serial.
// SCF-LABEL: func.func @packed_sub_byte
// SCF-NOT: scf.parallel
// SCF: return
func.func @packed_sub_byte(%a: memref<17x65537xi4>, %b: memref<17x65537xi4, #layout.tiled<{1,0:E(4)}>>) {
  layout.relayout %a, %b : memref<17x65537xi4>, memref<17x65537xi4, #layout.tiled<{1,0:E(4)}>>
  return
}
