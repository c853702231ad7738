// The vectorized rows of the loop conversions (LoopEmitOptions): the
// innermost loop of a contiguous destination row becomes a masked head up
// to the first 64-byte-aligned destination address, aligned 16 x f32
// vectors, and a masked tail; non-temporal stores when the destination has
// at least `nontemporal-threshold-bytes` (default 4 MiB; here 0 and -1);
// scalar loops with vector-bytes=0.
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=0 memory-streams=1' | FileCheck %s --check-prefixes=CHECK,NT
// RUN: layout-opt %s '--convert-layout-to-scf=nontemporal-threshold-bytes=-1' | FileCheck %s --check-prefixes=CHECK,CACHED
// RUN: layout-opt %s '--convert-layout-to-affine=vector-bytes=0' | FileCheck %s --check-prefix=SCALAR
// masked-edges=false (targets without fast masked stores, e.g. AVX2): the
// edges of a copy are full unaligned, cached vectors at min(i, end - 16)
// (overlapping the aligned body), scalar where no vector fits; the edges of
// other functions are scalar; misaligned interleaved rows store unaligned
// vectors.
// RUN: layout-opt %s '--convert-layout-to-affine=nontemporal-threshold-bytes=0 masked-edges=false memory-streams=1' | FileCheck %s --check-prefix=EDGES
// A value that is not a boolean is an error of the option parser.
// RUN: not layout-opt %s '--layout-lower-to-llvm=masked-edges=maybe' 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: for the --masked-edges option: 'maybe' is invalid value for boolean argument

// One tile column (12x128: the second tile row is half padding): the
// destination's order is the source's, and the nest walks the destination.
// (With more tile columns it walks the source into the tiles, below.)
// CHECK-LABEL: func.func @to_tiled
// CHECK: %[[P:.*]] = layout.to_physical
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[P]]
// Every row stride is a multiple of 64 bytes, so a row's alignment is the
// base's: the head count is computed from %[[PTR]] alone (invariant in the
// nest: LLVM hoists it; IndexExprs::dropMultiples).
// CHECK: affine.min #{{[a-z0-9]+}}(%[[PTR]]){{$}}
// CHECK: scf.if
// CHECK: vector.maskedload
// CHECK: vector.maskedstore %[[P]]
// CHECK: scf.for {{.*}} step %c16
// CHECK: vector.load {{.*}} : memref<12x128xf32>, vector<16xf32>
// NT: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<2x1x8x128xf32>, vector<16xf32>
// CACHED: vector.store {{.*}} {alignment = 64 : i64} : memref<2x1x8x128xf32>, vector<16xf32>
// CHECK: vector.maskedstore %[[P]]
// NT: llvm.fence seq_cst
// CACHED-NOT: llvm.fence
// CHECK: return
// SCALAR-LABEL: func.func @to_tiled
// SCALAR-NOT: vector.
// SCALAR: return
// EDGES-LABEL: func.func @to_tiled
// EDGES-NOT: vector.masked
// EDGES: %[[HEAD:.*]] = affine.min
// EDGES: scf.if
// With streaming stores the edges' vectors stay out of the streaming
// lines: the body starts a vector after the row's start at least (so the
// head's vectors fit when there is a body, `arith.ori`).
// EDGES: %[[FITS:.*]] = arith.cmpi sge
// EDGES: %[[ANY:.*]] = arith.ori %{{.*}}, %[[FITS]]
// EDGES: scf.if %[[ANY]]
// EDGES: scf.for %[[I:.*]] = %{{.*}} to %[[HEAD]] step
// EDGES: %[[AT:.*]] = affine.min #{{.*}}({{.*}}%[[I]])
// EDGES: vector.store %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %[[AT]]] : memref<2x1x8x128xf32>, vector<16xf32>
// EDGES: } else {
// EDGES: memref.store
// EDGES: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
// EDGES: vector.store {{.*}} : memref<2x1x8x128xf32>, vector<16xf32>
// EDGES: } else {
// EDGES: memref.store
// EDGES-NOT: vector.masked
// EDGES: return
func.func @to_tiled(%src: memref<12x128xf32>,
                    %dst: memref<12x128xf32, #layout.tiled<{1,0:T(8,128)}>>) {
  layout.relayout %src, %dst
      : memref<12x128xf32>, memref<12x128xf32, #layout.tiled<{1,0:T(8,128)}>>
  return
}

// A row-major -> tiled copy with several tile columns walks the source into
// the tiles (NestEmitter::prepareSourceWalkIntoTiles): the destination's
// physical dims [2, 2, 8, 128] in the order of their source strides (tile
// row, row in the tile, tile column), so each source row is read in order
// and its 512-byte runs go to consecutive tiles. Otherwise a destination
// walk: the bound check of the partial tile row (12 rows) splits the row
// level, and the padding rows are written.
// NT-LABEL: func.func @to_tiled_source_order
// NT: %[[P:.*]] = layout.to_physical {{.*}} -> memref<2x2x8x128xf32>
// NT: affine.for %[[Y:.*]] = 0 to 8 {
// NT-NEXT: affine.for %[[C:.*]] = 0 to 2 {
// NT: vector.load %arg0[%[[Y]], %{{.*}}] : memref<12x256xf32>, vector<16xf32>
// NT: vector.store %{{.*}}, %[[P]][%{{.*}}, %[[C]], %[[Y]], %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// NT: affine.for %[[Y2:.*]] = 0 to 4 {
// NT-NEXT: affine.for %[[C2:.*]] = 0 to 2 {
// NT: vector.store %{{.*}}, %[[P]][%{{.*}}, %[[C2]], %[[Y2]], %{{.*}}] {alignment = 64 : i64, nontemporal = true}
// NT: affine.for %[[Y3:.*]] = 4 to 8 {
// NT-NEXT: affine.for %[[C3:.*]] = 0 to 2 {
// NT-NEXT: affine.for %[[X3:.*]] = 0 to 128 {
// NT-NEXT: affine.store %{{.*}}, %[[P]][1, %[[C3]], %[[Y3]], %[[X3]]]
// NT: llvm.fence seq_cst
// NT: return
func.func @to_tiled_source_order(%src: memref<12x256xf32>,
    %dst: memref<12x256xf32, #layout.tiled<{1,0:T(8,128)}>>) {
  layout.relayout %src, %dst
      : memref<12x256xf32>, memref<12x256xf32, #layout.tiled<{1,0:T(8,128)}>>
  return
}

// A row-major destination whose rows are not vector-aligned (stride 291),
// from a tiled source whose tile rows are at least a vector: the nest walks
// the SOURCE's physical dims (tile by tile, each tile's rows in order;
// NestEmitter::prepareSourceWalk) and writes each tile row as a vector row
// of the destination: masked (or overlapping) edges, aligned streaming
// vectors between them. Source padding is skipped, not written.
// Realigned segments (streaming rows only): a segment that starts inside a
// line writes that whole line when it lies in its destination row: the
// previous segment's last m elements (lanes < m, masked load from the flat
// source) and its own first ones, one aligned streaming store; the
// previous segment then leaves its tail to it (no masked store).
// CHECK-LABEL: func.func @from_tiled_odd
// CHECK-NOT: memref.alloca
// CHECK: %[[PHYS:.*]] = layout.to_physical %{{.*}} -> memref<4x3x8x128xf32>
// NT: %[[FLAT:.*]] = memref.collapse_shape %[[PHYS]] {{\[\[}}0, 1, 2, 3]] : memref<4x3x8x128xf32> into memref<12288xf32>
// NT: scf.if %{{.*}} {
// NT: %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<16xi32>
// NT: %[[PREV:.*]] = vector.maskedload %[[FLAT]][%{{.*}}], %[[MASK]], %{{.*}} : memref<12288xf32>
// NT: %[[CUR:.*]] = vector.load %[[FLAT]][%{{.*}}] : memref<12288xf32>, vector<16xf32>
// NT: arith.select %[[MASK]], %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xi32>
// NT: vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<29x291xf32>, vector<16xf32>
// NT: } else {
// CACHED-NOT: memref.collapse_shape
// CHECK: vector.maskedload %[[PHYS]][%[[I:.*]], %[[J:.*]], %[[K:.*]], %{{.*}}]
// CHECK: vector.maskedstore %{{.*}} : memref<29x291xf32>
// Tile rows of 8 vectors or more: 4 vectors per iteration, then one.
// CHECK: scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step %c64
// CHECK: vector.load %[[PHYS]][%[[I]], %[[J]], %[[K]], %[[Q]]] : memref<4x3x8x128xf32>, vector<16xf32>
// CHECK-COUNT-3: vector.load %[[PHYS]]
// CHECK-NOT: vector.load
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c16
// CHECK: vector.load %[[PHYS]][%[[I]], %[[J]], %[[K]], %{{.*}}] : memref<4x3x8x128xf32>, vector<16xf32>
// NT: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<29x291xf32>
// NT: scf.if %{{.*}} {
// NT-NEXT: } else {
// NT: vector.maskedstore
// CACHED: vector.store {{.*}} {alignment = 64 : i64} : memref<29x291xf32>
// The last tile column (35 valid elements of 128), in its own loop.
// CHECK: vector.load %[[PHYS]][%[[I]], %c2{{.*}}, %{{.*}}, %{{.*}}] : memref<4x3x8x128xf32>, vector<16xf32>
// CHECK-NOT: memref.alloca
// CHECK: return
// EDGES-LABEL: func.func @from_tiled_odd
// EDGES-NOT: vector.masked
// EDGES-NOT: memref.alloca
// Without masked loads, the previous segment is read with a full vector
// (the head also checks that it stays in the source buffer).
// EDGES: %[[FLAT:.*]] = memref.collapse_shape
// EDGES: scf.if
// EDGES: %[[PREV:.*]] = vector.load %[[FLAT]][%{{.*}}] : memref<12288xf32>, vector<16xf32>
// EDGES: %[[CUR:.*]] = vector.load %[[FLAT]][%{{.*}}] : memref<12288xf32>, vector<16xf32>
// EDGES: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi1>, vector<16xi32>
// EDGES: vector.store %{{.*}} {alignment = 64 : i64, nontemporal = true} : memref<29x291xf32>, vector<16xf32>
// EDGES: vector.load {{.*}} : memref<4x3x8x128xf32>, vector<16xf32>
// EDGES: vector.store {{.*}} : memref<29x291xf32>, vector<16xf32>
// EDGES: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<29x291xf32>
// EDGES-NOT: vector.masked
// EDGES: return
// SCALAR-LABEL: func.func @from_tiled_odd
// SCALAR-NOT: vector.
// SCALAR-NOT: memref.alloca
// SCALAR: return
func.func @from_tiled_odd(%src: memref<29x291xf32, #layout.tiled<{1,0:T(8,128)}>>,
                          %dst: memref<29x291xf32>) {
  layout.relayout %src, %dst
      : memref<29x291xf32, #layout.tiled<{1,0:T(8,128)}>>, memref<29x291xf32>
  return
}

// A permutation that keeps the minor dim (rows copied whole): the nest
// walks the source's dims in order (reads in order, the streaming stores
// jump) and stores each row at its permuted place; rows of 4 vectors take
// 4 per iteration.
// CHECK-LABEL: func.func @permute_rows
// CHECK: %[[D:.*]] = layout.to_physical %{{.*}} -> memref<8x4x64xf32>
// CHECK: step %c64
// CHECK: vector.load %{{.*}}[%[[I:.*]], %[[J:.*]], %{{.*}}] : memref<4x8x64xf32>, vector<16xf32>
// CHECK: vector.store %{{.*}}, %[[D]][%[[J]], %[[I]], %{{.*}}] {alignment = 64 : i64
// SCALAR-LABEL: func.func @permute_rows
// SCALAR-NOT: vector.
// SCALAR: return
func.func @permute_rows(%src: memref<4x8x64xf32>,
                        %dst: memref<4x8x64xf32, #layout.tiled<{2,0,1}>>) {
  layout.relayout %src, %dst
      : memref<4x8x64xf32>, memref<4x8x64xf32, #layout.tiled<{2,0,1}>>
  return
}

// The same with tile rows shorter than a vector (T(8,8): 32 bytes): the
// nest walks the destination, whose rows read the source in runs of 8;
// the segments go to an aligned staging row (memref.alloca), copied to the
// destination once per row. Contiguous runs are not prefetched
// (planRunPrefetch: sub-tiles only).
// CHECK-LABEL: func.func @from_short_tiles_odd
// CHECK: %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<307xf32>
// CHECK-NOT: memref.prefetch
// CHECK: vector.store {{.*}}, %[[STAGE]]
// CHECK: vector.load %[[STAGE]]
// NT: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<29x291xf32>
// EDGES-LABEL: func.func @from_short_tiles_odd
// EDGES-NOT: vector.masked
// EDGES: %[[STAGE:.*]] = memref.alloca() {alignment = 64 : i64} : memref<307xf32>
// EDGES: vector.store {{.*}}, %[[STAGE]]
// EDGES: vector.load %[[STAGE]]
// EDGES: vector.store {{.*}} : memref<29x291xf32>, vector<16xf32>
// EDGES: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<29x291xf32>
// EDGES-NOT: vector.masked
// EDGES: return
// SCALAR-LABEL: func.func @from_short_tiles_odd
// SCALAR-NOT: vector.
// SCALAR-NOT: memref.alloca
// SCALAR: return
func.func @from_short_tiles_odd(%src: memref<29x291xf32, #layout.tiled<{1,0:T(8,8)}>>,
                                %dst: memref<29x291xf32>) {
  layout.relayout %src, %dst
      : memref<29x291xf32, #layout.tiled<{1,0:T(8,8)}>>, memref<29x291xf32>
  return
}

// bf16 T(8,128)(2,1): physical [2,2,4,128,2,1], the innermost dims are
// short. Two source rows are read as vector<16xbf16> and interleaved into
// one aligned vector<32xbf16> per 64 bytes of the destination (rows whose
// address is not aligned at run time take the scalar nest). A copy moves the
// bits as i16 lanes: no target has to legalize bf16 shuffles (AVX2 would
// scalarize them).
// CHECK-LABEL: func.func @to_tiled_bf16
// CHECK: scf.if
// CHECK: scf.for {{.*}} step %c16
// CHECK: %[[A:.*]] = vector.load {{.*}} : memref<16x256xbf16>, vector<16xbf16>
// CHECK: %[[AI:.*]] = vector.bitcast %[[A]] : vector<16xbf16> to vector<16xi16>
// CHECK: %[[B:.*]] = vector.load {{.*}} : memref<16x256xbf16>, vector<16xbf16>
// CHECK: %[[BI:.*]] = vector.bitcast %[[B]] : vector<16xbf16> to vector<16xi16>
// CHECK: %[[II:.*]] = vector.interleave %[[AI]], %[[BI]] : vector<16xi16> -> vector<32xi16>
// CHECK: %[[I:.*]] = vector.bitcast %[[II]] : vector<32xi16> to vector<32xbf16>
// NT: vector.store %[[I]], {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<2x2x4x128x2x1xbf16>, vector<32xbf16>
// CACHED: vector.store %[[I]], {{.*}} {alignment = 64 : i64} : memref<2x2x4x128x2x1xbf16>, vector<32xbf16>
// CHECK: } else {
// EDGES-LABEL: func.func @to_tiled_bf16
// EDGES: vector.store {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<2x2x4x128x2x1xbf16>, vector<32xbf16>
// EDGES: } else {
// EDGES-NOT: memref.store
// EDGES: scf.for
// EDGES: vector.interleave
// EDGES: vector.store {{.*}} : memref<2x2x4x128x2x1xbf16>, vector<32xbf16>
// EDGES-NOT: memref.store
// EDGES: return
// SCALAR-LABEL: func.func @to_tiled_bf16
// SCALAR-NOT: vector.
// SCALAR: return
func.func @to_tiled_bf16(%src: memref<16x256xbf16>,
                         %dst: memref<16x256xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>) {
  layout.relayout %src, %dst
      : memref<16x256xbf16>, memref<16x256xbf16, #layout.tiled<{1,0:T(8,128)(2,1)}>>
  return
}

// Broadcast add into the destination given by materialize_in_destination
// (no allocation, no copy); the row-constant operand is broadcast.
// CHECK-LABEL: func.func @bcast_add
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<4x64xf32>
// CHECK-NOT: memref.alloc
// CHECK: memref.load
// CHECK: vector.broadcast
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: vector.store {{.*}}, %[[OUT]]
// CHECK-NOT: bufferization.materialize_in_destination
// CHECK: return
// EDGES-LABEL: func.func @bcast_add
// EDGES-NOT: vector.masked
// EDGES: arith.addf {{.*}} : f32
// EDGES: arith.addf {{.*}} : vector<16xf32>
// EDGES: arith.addf {{.*}} : f32
// EDGES-NOT: vector.masked
// EDGES: return
func.func @bcast_add(%m: tensor<4x64xf32>, %v: tensor<4xf32>, %out: memref<4x64xf32>) {
  %r = layout.add %m, %v, dims = [0] : (tensor<4x64xf32>, tensor<4xf32>) -> tensor<4x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out
      : (tensor<4x64xf32>, memref<4x64xf32>) -> ()
  return
}
