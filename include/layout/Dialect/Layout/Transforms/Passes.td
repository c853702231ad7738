//===- Passes.td - layout dialect passes -------------------*- tablegen -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_TD
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LayoutNormalizeMemRefs : Pass<"layout-normalize-memrefs", "ModuleOp"> {
  let summary = "Rewrite #layout.tiled memrefs into their physical buffers";
  let description = [{
    Every memref whose layout is `#layout.tiled<...>` becomes its physical
    buffer: a memref with the identity layout over the physical (tiled) dims
    (`TiledLayoutMap::getPhysicalDims`), same element type and memory space.
    Index arithmetic becomes explicit:

    * `affine.load` / `affine.store`: the access map is composed with the
      layout's affine map (floordiv/mod per tile level);
    * `memref.load` / `memref.store`: the physical indices are computed with
      `arith` ops (`affine::expandAffineMap` of the layout map);
    * `memref.alloc` / `memref.alloca` allocate the physical shape (dynamic
      sizes are carried through the map: a dynamic logical size `n` of a
      tiled dim becomes `ceildiv(n, t)`), `memref.dealloc` frees it;
    * `layout.to_physical` / `layout.from_physical` become the identity;
    * `func.func` signatures, `func.call` and `func.return` follow the new
      types (all functions of the module are rewritten together). A tiled
      memref with a dynamic dim crosses them as its *logical descriptor*: an
      identity-layout memref of the logical shape whose sizes are the
      logical sizes and whose pointer is the physical buffer; the callee
      rebuilds the physical view (`memref.reinterpret_cast`, extents
      computed from the logical sizes through the layout map). Such
      functions may be external (the ABI is fixed);
    * `memref.dim` of a tiled memref is its logical size (from the
      allocation's operands, the descriptor, or the static shape), never
      the physical extent;
    * `memref.cast` between tiled memrefs of the same layout casts the
      physical buffers;
    * `memref.copy` between two memrefs with the same tiled layout copies
      the physical buffers (padding slots included).

    Sub-byte packing: a memref whose layout has `E(n)` with n < 8 (s4/u4 with
    `E(4)`, s2/u2 with `E(2)`, s1/u1 with `E(1)`, f4E2M1FN with `E(4)`)
    becomes `memref<B x i8>` with B = ceil(slots * n / 8), the slots in
    physical-buffer order and 8/n per byte, the first in the high bits (XLA's
    order, xla/util.h `PackIntN`). Its loads are a byte load and a shift, its
    stores read-modify-write their byte, except in row loops that fill whole
    bytes (unrolled by 8/n, each byte assembled and stored once); its
    physical views
    (`layout.to_physical`), the allocations viewed through
    `layout.from_physical` and `builtin.unrealized_conversion_cast` to or
    from exactly `memref<B x i8>` share the buffer. Other `E(n)` (on pred, as
    XLA's CPU/GPU backends refuse; not the element's bit width; dynamic
    shapes) are errors naming the op and the type.

    The allocation is the product of the physical dims: `L(n)` tail padding
    (slack after the last physical element) is not allocated, since nothing
    can address it. Any other use of a tiled memref (subviews, casts to
    other layouts, static tiled memrefs passed to external functions,
    `memref.dim` with a non-constant index, the logical sizes of a
    `layout.from_physical` of a dynamic buffer, vector transfers, ...) is an
    error that names the op; the IR is then left unchanged.

    Compared with upstream `-normalize-memrefs`, which uses the same
    `getAffineMap()`: upstream derives the new shape from the map's range,
    so legacy `PAD` (padding beyond the logical range) is dropped, and it
    gives up on dynamic dims of non-tiled maps; it silently skips memrefs it
    cannot normalize while this pass reports them.

    Example:

    ```mlir
    %a = memref.alloc() : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    memref.store %v, %a[%i, %j] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    ```
    becomes
    ```mlir
    %a = memref.alloc() : memref<2x3x2x2xf32>
    // %t0 = %i floordiv 2, %t1 = %j floordiv 2, %e0 = %i mod 2, %e1 = %j mod 2
    memref.store %v, %a[%t0, %t1, %e0, %e1] : memref<2x3x2x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
  ];
}

def LayoutFuse : Pass<"layout-fuse"> {
  let summary = "Fuse trees of elementwise, broadcast and relayout ops";
  let description = [{
    Groups trees of static tensor ops (the binary ops, `broadcast_in_dim`
    without `sizes`, tensor `layout.relayout`) into `layout.fusion` ops,
    which the loop conversions lower as one nest over the root's result:
    every leaf is read once through its composed index map, every interior
    value is computed in registers and never stored (XLA's loop fusion;
    docs/fusion.md). Run it after `--layout-expand-broadcasts`; the default
    `--layout-lower-to-llvm` pipeline does (`fusion=false` turns it off).

    Grouping, per block, from the last op up: an op that is not yet in a
    group starts one (its root). A producer joins the groups of its users
    when all its users are fusible ops of the same block in groups:
    * users all in one group: it joins that group (a value used twice in
      one tree is computed once per element);
    * users in k > 1 groups: the cost model (below) decides between
      recomputing it in each group and materializing it (it then roots its
      own group, read by the others as a leaf).

    Cost model, in bytes moved: materializing a value V costs
    `bytes(V) * (1 + k)` (written once, read by each of the k groups);
    recomputing it costs `k * sum(bytes(operand))` (each group reads V's
    operands). V is recomputed when that is cheaper: broadcasts and
    relayouts always (their operand is no larger than V), a binary op of
    one full-size operand and a smaller one (a broadcast vector), never a
    binary op of two full-size operands. Arithmetic is not counted: the
    nests are bound by memory.

    A value with any other user (`func.return`, a non-layout op, an op of
    another block) is materialized. A group of one op, or of one binary op
    and the single-use `broadcast_in_dim`s of its operands (which the loop
    lowering fuses already), is left as it is. Ops on dynamic shapes, on
    sub-byte packed (`E(n)`) layouts, and binary ops without a loop lowering
    for their element type are not fused.

    Example:

    ```mlir
    %s = layout.subtract %a, %b
        : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %m = layout.multiply %s, %c
        : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    ```
    becomes
    ```mlir
    %m = layout.fusion (%a, %b, %c) : (tensor<8xf32>, tensor<8xf32>,
        tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8xf32>):
      %0 = layout.subtract %x, %y
          : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %1 = layout.multiply %0, %z
          : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      layout.yield %1 : tensor<8xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def LayoutAssignLayouts : Pass<"layout-assign-layouts"> {
  let summary =
      "Choose the layouts of the intermediate tensors a function materializes";
  let description = [{
    Gives every *free* intermediate tensor the layout that minimizes the
    bytes the function's nests move (docs/fusion.md, "Layout choice"). Run
    it after `--layout-fuse` (the default `--layout-lower-to-llvm` does;
    `assign-layouts=false` turns it off): then the intermediates left are
    the values fusion materializes, and each is written once by one nest
    and read by others.

    A value is free when it is the result of a `layout.fusion`, a binary op
    or a `broadcast_in_dim`, static, written without an encoding, and every
    use reads it in a layout op or fusion of the same block. Everything else
    is pinned and keeps its layout: function arguments and results, values
    used by other ops, values whose type carries an encoding (the program
    wrote one), and the results of explicit `layout.relayout`s (a relayout
    pins its destination's layout).

    Candidates for a free value: its layout as written (row-major), and the
    layouts of the same-shape operands its producer reads and of the
    same-shape results of its users. Price of a function: every priced nest
    (fusion, binary op, broadcast, tensor relayout) writes its result's
    buffer (padding slots included) and reads each operand's buffer, twice
    its bytes when the two byte orders cross (the planner's
    `in-tile-transpose`, `interleave` and `strided-gather` classes: a
    transpose or a shuffle of sub-tile rows), once otherwise (`bitcast`,
    `chunk-copy`).

    The assignment is the exact minimum by enumeration when the candidates
    give at most `exhaustive-limit` combinations (trees and chains of a few
    materialized values), else coordinate descent from the layouts as
    written (each value in turn takes its cheapest candidate with the others
    fixed, until nothing changes). An assignment is applied only when it
    moves fewer bytes than the layouts as written, so the pass never
    increases the bytes moved. A fusion whose result changes layout writes
    it through a relayout at the end of its body (its nest writes the new
    layout directly).

    `report=true` emits a remark per block with the bytes moved before and
    after, and one per changed value with its layout; `report-exact=true`
    adds the exhaustive minimum (to measure the heuristic).
  }];
  let options =
      [Option<"exhaustiveLimit", "exhaustive-limit", "int64_t",
              /*default=*/"4096",
              "Enumerate every assignment up to this many combinations "
              "(0: always the heuristic)">,
       Option<"report", "report", "bool", /*default=*/"false",
              "Remarks: bytes moved before and after, each changed layout">,
       Option<"reportExact", "report-exact", "bool", /*default=*/"false",
              "With report: also the exhaustive minimum">,
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def LayoutExpandBroadcasts : Pass<"layout-expand-broadcasts"> {
  let summary = "Make the implicit broadcasting of binary ops explicit";
  let description = [{
    Every broadcasting binary op (`layout.add`, ..., `layout.compare`)
    becomes explicit `layout.broadcast_in_dim`s of its operands to the
    result shape, followed by the same op on operands of equal shapes and
    without `broadcast_dimensions` (XLA's builder expansion, docs/semantics.md §5: the
    lower-rank operand is mapped by `broadcast_dimensions` (InDim), and
    size-1 dims are expanded (degenerate) by the same `broadcast_in_dim`).
    Operands that already have the result shape are used as they are.

    Dynamic dims: the result's dynamic sizes are computed at run time from
    the operands' `tensor.dim`s by the degenerate rule
    (`size = lhs == 1 ? rhs : lhs`, `arith.cmpi` + `arith.select`) and
    passed as the `sizes` of every `broadcast_in_dim`. Since a dynamic size
    may be 1 at run time, an op on `tensor<?xf32>` operands is expanded too,
    unless both sizes are known to be the same value (the same `tensor.dim`
    or the same `sizes` operand), which also makes the rewrite idempotent.

    Example:

    ```mlir
    %r = layout.add %m, %v, dims = [1]
        : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
    becomes
    ```mlir
    %b = layout.broadcast_in_dim %v, dims = [1]
        : (tensor<3xf32>) -> tensor<2x3xf32>
    %r = layout.add %m, %b
        : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    ```

    The patterns are public: `populateLayoutExpandBroadcastsPatterns`
    (`layout/Dialect/Layout/Transforms/ExpandBroadcasts.h`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
  ];
}

def LayoutBufferize : Pass<"layout-bufferize", "ModuleOp"> {
  let summary = "One-Shot Bufferize with #layout.tiled encodings mapped to "
                "memref layouts";
  let description = [{
    Runs upstream One-Shot Module Bufferize (function boundaries included)
    so that a tensor with a `#layout.tiled` encoding becomes a memref with
    that layout (and memory space `S(n)`), everywhere: function arguments
    and results, `func.call`, allocations and the copies that bufferization
    inserts. Tensors without an encoding get the
    `function-boundary-type-conversion` / `unknown-type-conversion` layouts
    (identity by default).

    How: the tiled encoding is mapped by the bufferization options
    (`functionArgTypeConverterFn`, `unknownTypeConverterFn`,
    `defaultMemorySpaceFn`, see `addTiledEncodingTypeConversion`). Upstream
    allocations (`tensor.empty`, `bufferization.alloc_tensor`) always get the
    identity layout, so after the analysis has inserted its copies, every
    allocation of a tiled tensor becomes an allocation of the physical
    tensor viewed through `layout.from_physical` (a copy copies the physical
    buffers, padding included). `layout.relayout` becomes its memref form on
    the destination's buffer; `layout.to_physical` / `from_physical` become
    their memref views.

    ```mlir
    func.func private @f(%t: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
    ```
    becomes
    ```mlir
    func.func private @f(%t: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
    ```

    docs/bufferization.md shows what plain `-one-shot-bufferize` does with
    the same input.
  }];
  let options =
      [Option<"allowReturnAllocsFromLoops", "allow-return-allocs-from-loops",
              "bool", "false",
              "Allow returning/yielding new allocations from a loop (as "
              "-one-shot-bufferize)">,
       Option<
           "allowUnknownOps", "allow-unknown-ops", "bool", "false",
           "Allow ops without a bufferization model (as -one-shot-bufferize)">,
       Option<
           "functionBoundaryTypeConversion",
           "function-boundary-type-conversion", "std::string",
           "\"identity-layout-map\"",
           "Layout of non-tiled tensors on function boundaries: "
           "identity-layout-map, fully-dynamic-layout-map or infer-layout-map">,
       Option<"unknownTypeConversion", "unknown-type-conversion", "std::string",
              "\"identity-layout-map\"",
              "Layout of non-tiled tensors at unknown ops: identity-layout-map "
              "or fully-dynamic-layout-map">,
       Option<"bufferAlignment", "buffer-alignment", "uint64_t", "64",
              "Alignment of new allocations (as -one-shot-bufferize)">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
  ];
}

def LayoutDecomposeTiling : Pass<"layout-decompose-tiling"> {
  let summary = "Rewrite tensor relayouts as pad -> reshape -> transpose";
  let description = [{
    Rewrites every `layout.relayout` on tensors literally as XLA's tiling
    document describes it, with upstream tensor and linalg ops (see
    docs/decompose-tiling.md). From row-major to a tiled layout:

    1. legacy padding: `tensor.pad` in logical order (padding value `PV`);
    2. `minor_to_major`: `linalg.transpose` to physical order;
    3. per tile level: `tensor.expand_shape` to prepend size-1 dims if the
       tile is longer than the shape, `tensor.collapse_shape` for the `*`
       groups, `tensor.pad` to multiples of the tile (with the padding
       value), `tensor.expand_shape` splitting every tiled dim into
       (count, tile), `linalg.transpose` moving the within-tile dims to the
       minor end (order kept);
    4. `layout.from_physical` gives the tiled-encoded tensor.

    From a tiled layout to row-major, the inverse: `layout.to_physical`,
    transposes, `tensor.collapse_shape`, `tensor.extract_slice` dropping the
    padding, `tensor.expand_shape` undoing `*` groups. Tiled to tiled goes
    through the logical row-major tensor. `L(n)` slack is not represented
    (it is not part of the physical tensor). Relayouts with dynamic dims,
    and relayouts from or into a layout in another memory space (`S(n)`)
    or with sub-byte packing (`E(n)`) are left unchanged (the physical
    tensors are space-0, one element per slot).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
  ];
}

def LayoutFoldRelayouts : Pass<"layout-fold-relayouts"> {
  let summary = "Remove relayouts that move no data, compose the others";
  let description = [{
    Plans every tensor `layout.relayout` with the relayout algebra
    (`planRelayout`, docs/algebra.md) and:

    * a relayout whose every use reads only logical elements is eliminated:
      the uses read its source instead (same logical shape and element
      type). Logical readers are the operands of the broadcasting binary
      ops (`layout.add`, ...) and of `layout.broadcast_in_dim` (their
      verifiers accept any operand encoding; their result types stay), and
      the source of another tensor relayout. Any other use (for example
      `layout.to_physical`, `func.return`, `func.call`, an unknown op, the
      destination operand of a relayout) may observe the physical layout,
      and the relayout stays. A source with dynamic dims and an encoding is
      not sunk (its readers' loop lowering may not know its physical
      sizes). The readers then read the source's layout directly, which
      costs at most the relayout's own read, without its write and the
      second read;
    * a relayout whose plan is `bitcast` (the same bytes in the same order,
      memory space included) and whose destination has no padding slots (a
      relayout writes the padding value; a view would keep the source's
      padding bytes), between types without sub-byte packing (`E(n)`: a
      packed buffer cannot be reshaped), becomes a view that moves no data: `layout.to_physical` of the source,
      `tensor.collapse_shape` / `tensor.expand_shape` between the two
      physical shapes, `layout.from_physical` to the destination type;
    * two relayouts in a row become one (the second one's destination, so
      its padding value is the one written), as the op's canonicalization
      does.

    ```mlir
    %r = layout.relayout %src, %e : tensor<8x128xf32>,
        tensor<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>
        -> tensor<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>
    ```
    becomes (the physical shape of T(8,128) on 8x128 is 1x1x8x128)
    ```mlir
    %c = tensor.collapse_shape %src [[0, 1]]
        : tensor<8x128xf32> into tensor<1024xf32>
    %e = tensor.expand_shape %c [[0, 1, 2, 3]] output_shape [1, 1, 8, 128]
        : tensor<1024xf32> into tensor<1x1x8x128xf32>
    %r = layout.from_physical %e : tensor<1x1x8x128xf32>
        -> tensor<8x128xf32, #layout.tiled<{1,0:T(8,128)}>>
    ```
    and
    ```mlir
    !tiled = tensor<64x64xf32, #layout.tiled<{1,0:T(8,128)}>>
    %r = layout.relayout %x, %d : tensor<64x64xf32>, !tiled -> !tiled
    %a = layout.add %r, %b : (!tiled, tensor<64x64xf32>) -> tensor<64x64xf32>
    ```
    becomes `%a = layout.add %x, %b : (tensor<64x64xf32>, tensor<64x64xf32>)
    -> tensor<64x64xf32>`.

    Relayouts with dynamic shapes (except for the elimination), rank 0, and
    memref relayouts are left unchanged: a memref relayout writes an
    existing buffer that other ops (or aliases of it) may read through its
    physical layout, so neither the copy nor the write can be dropped
    without an alias analysis.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def LayoutAttachDims : Pass<"layout-attach-dims", "ModuleOp"> {
  let summary =
      "Give every dims-less `*` layout its dims, from the type's shape";
  let description = [{
    A `#layout.tiled` layout with a `*` combine may be written without dims
    (`memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>`): it takes the sizes
    from the shape, and every pass of the project builds its map from the
    type. `MemRefLayoutAttrInterface::getAffineMap()` has no shape, though,
    and for such a layout returns a non-affine placeholder that upstream
    analyses refuse (docs/dialect.md). This pass rewrites every memref
    layout and ranked tensor encoding of that kind, everywhere in the module
    (operand, result and block argument types, function types, type
    attributes), to the equivalent dims-carrying form
    `#layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>`, whose `getAffineMap()` is
    exact. Run it before upstream passes that read layout maps, e.g.
    `-normalize-memrefs`:

    ```mlir
    %a = memref.alloc() : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
    ```
    becomes
    ```mlir
    %a = memref.alloc() : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
    ```

    Layouts without `*`, and layouts that already carry dims, are left as
    written. Dynamic dims become `?` in the dims.
  }];
}

def LayoutRaiseFromLinalg : Pass<"layout-raise-from-linalg"> {
  let summary = "Raise linalg.pack/unpack/transpose/broadcast to layout ops";
  let description = [{
    Rewrites upstream's relayout-like linalg ops into the layout dialect's
    ops between the equivalent `#layout.tiled` layouts, so that the
    project's relayout and broadcast kernels run them (docs/embedding.md,
    "Raising linalg"):

    * tensor `linalg.pack`: the pack's destination viewed in the layout
      whose physical tensor is the pack's result (`tensor.expand_shape` of
      the size-1 dims the layout adds, see below, and
      `layout.from_physical`), a `layout.relayout` from row-major into
      it, then `layout.to_physical` (and `tensor.collapse_shape`): the
      destination stays the destination, so bufferization writes in place;
    * tensor `linalg.unpack`: `tensor.expand_shape` (if needed),
      `layout.from_physical` and `layout.relayout` into the destination,
      which reads only the logical elements (the unpadded part);
    * `linalg.transpose` (tensors and memrefs): a relayout into the init
      viewed in the layout `{reverse(permutation)}` (`layout.from_physical`),
      whose physical buffer is the transposed array;
    * tensor `linalg.broadcast`: `layout.broadcast_in_dim` whose
      `broadcast_dimensions` are the result dims not in `dimensions`.

    The pack's layout: physical order `outer_dims_perm` (minor_to_major is
    its reverse), one tile level over the minor suffix of the physical order
    that starts at the first tiled dim (untiled dims in that suffix get tile
    1 and add a size-1 dim), and, when `inner_dims_pos` orders the tiled
    dims differently from `outer_dims_perm`, further levels `T(t,1,...,1)`
    that each move one in-tile dim to the minor end (exact tiles: no
    padding, size-1 dims). `padding_value` becomes `PV(zero|one|lowest|
    highest)` when it is a constant equal to that value of the element type.
    Every computed layout is checked against the library's physical dims
    before anything is rewritten.

    Not raised, with a remark on the op that says why: dynamic shapes or
    inner tiles, a padding value that is not one of the `PV` constants (or
    not a constant) when a tile is incomplete, memref operands that are not
    identity-layout (transpose), memref `linalg.broadcast`
    (`layout.broadcast_in_dim` is tensor-only). Such ops stay as they are.
  }];
  let dependentDialects = ["::mlir::layout::LayoutDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect",
  ];
}

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_TD
