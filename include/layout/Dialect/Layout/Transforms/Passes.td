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
      types (all functions of the module are rewritten together);
    * `memref.copy` between two memrefs with the same tiled layout copies
      the physical buffers (padding slots included).

    The allocation is the product of the physical dims: `L(n)` tail padding
    (slack after the last physical element) is not allocated, since nothing
    can address it. Any other use of a tiled memref (subviews, casts, calls
    into external functions, vector transfers, ...) is an error that names
    the op; the IR is then left unchanged.

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
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def LayoutExpandBroadcasts : Pass<"layout-expand-broadcasts"> {
  let summary = "Make the implicit broadcasting of binary ops explicit";
  let description = [{
    Every broadcasting binary op (`layout.add`, ..., `layout.compare`)
    becomes explicit `layout.broadcast_in_dim`s of its operands to the
    result shape, followed by the same op on operands of equal shapes and
    without `broadcast_dimensions` (XLA's builder expansion, SPEC §5: the
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
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_TD
