//===- LayoutOps.td - layout dialect operations ------------*- tablegen -*-===//
//
// Views between a tiled memref (tensor) and its physical buffer, a view of
// a buffer's bits as another element type (`layout.bitcast_buffer`), and
// `layout.relayout`, the copy between two layouts.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_TD
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_TD

include "layout/Dialect/Layout/IR/LayoutDialect.td"
include "layout/Dialect/Layout/IR/LayoutAttributes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

def Layout_ToPhysicalOp
    : Layout_Op<"to_physical", [Pure, DeclareOpInterfaceMethods<
                                          ViewLikeOpInterface>]> {
  let summary = "View a tiled memref (tensor) as its physical buffer";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.to_physical` ssa-use attr-dict `:` type `->` type
    ```

    Memrefs: returns the buffer of a memref with a `#layout.tiled` layout as
    a memref with the identity layout over the physical (tiled) shape. No
    data moves: element `e` of the source is element `map(e)` of the result,
    where `map` is the layout's affine map. Padding slots (tile padding,
    legacy `PAD`) are visible in the view; their contents are unspecified
    unless written.

    Tensors (value semantics): the source is a tensor with a `#layout.tiled`
    encoding and the result the tensor of its physical buffer, without an
    encoding. It is the same reinterpretation: result[map(e)] = source[e],
    and the padding slots of the result hold whatever the source's padding
    slots hold (the destination layout's padding value after a
    `layout.relayout`, unspecified otherwise). One-Shot Bufferize turns the
    tensor form into the memref form (a view, no copy).

    Constraints:
    * (C1) the source layout (encoding) is `#layout.tiled` and valid for its
      shape;
    * (C2) the result has the physical dims (`TiledLayoutMap::getPhysicalDims`);
      `L(n)` tail slack is not part of the view;
    * (C3) same element type; (C4) memrefs: same memory space, equal to the
      layout's `S(n)`; (C5) the result has the identity layout (memrefs) or
      no encoding (tensors); (C6) both are memrefs or both are ranked tensors.

    ```mlir
    // f32[3,5]{1,0:T(2,2)}: 2x3 tiles of 2x2, 24 slots for 15 elements.
    %p = layout.to_physical %m
        : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
    %t = layout.to_physical %v
        : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<2x3x2x2xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyMemRef, AnyRankedTensor]>:$source);
  let results = (outs AnyTypeOf<[AnyMemRef, AnyRankedTensor]>:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Layout_FromPhysicalOp
    : Layout_Op<"from_physical", [Pure, DeclareOpInterfaceMethods<
                                            ViewLikeOpInterface>]> {
  let summary = "View a physical buffer as a tiled memref (tensor)";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.from_physical` ssa-use attr-dict `:` type `->` type
    ```

    The inverse of `layout.to_physical`: the source is the physical
    identity-layout buffer (a tensor without encoding) and the result the
    logical memref with a `#layout.tiled` layout (tensor with that
    encoding). The constraints are those of `layout.to_physical` with source
    and result swapped. On tensors, the result's padding slots are the
    source's elements at those slots.

    ```mlir
    %m = layout.from_physical %p
        : memref<2x3x2x2xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    %v = layout.from_physical %t
        : tensor<2x3x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyMemRef, AnyRankedTensor]>:$source);
  let results = (outs AnyTypeOf<[AnyMemRef, AnyRankedTensor]>:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Layout_BitcastBufferOp
    : Layout_Op<"bitcast_buffer", [Pure, DeclareOpInterfaceMethods<
                                             ViewLikeOpInterface>]> {
  let summary = "View a contiguous buffer's bits as another element type";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.bitcast_buffer` ssa-use attr-dict `:` type `->` type
    ```

    Returns the same bytes as a memref of another element type and shape:
    both memrefs are static, contiguous (identity layout) and row-major, so
    the result's element at linear index `i` is the source's bits from
    `i * w` to `(i + 1) * w` (w the result's element width), in memory
    order. No data moves. The relayout lowering uses it to move k elements
    of a layout that groups them (`layout/Xla/ElementGroups.h`) as one
    element of k times the width: a bf16 relayout between `{0,1}` and
    `{1,0:T(8,128)(2,1)}` becomes a 32-bit relayout between `{0,1}` and
    `{1,0:T(4,128)}` on the same buffers.

    Constraints:
    * (C1) both memrefs have static shapes and the identity layout;
    * (C2) both element types are integers or floats whose width is a
      whole number of bytes;
    * (C3) the same number of bits; (C4) the same memory space.

    ```mlir
    %u = layout.bitcast_buffer %p
        : memref<512x32x4x128x2x1xbf16> -> memref<512x32x4x128xi32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Layout_RelayoutOp
    : Layout_Op<
          "relayout", [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
                       DestinationStyleOpInterface]> {
  let summary = "Copy an array into another layout (pad, reorder, tile)";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.relayout` ssa-use `,` ssa-use attr-dict
                  `:` type `,` type (`->` tensor-type)?
    ```

    Copies the logical array `source` into `destination`, which has the same
    logical shape and element type but any other layout: row-major <->
    tiled, tiled <-> tiled with other tiles, another `minor_to_major`, `*`
    combines, legacy `PAD`. The layout of a tensor is its `#layout.tiled`
    encoding, of a memref its `#layout.tiled` layout; no encoding / the
    identity layout is the row-major default. For every logical index `e`:

    ```
    physical(destination)[map_dst(e)] = physical(source)[map_src(e)]
    ```

    and every padding slot of the destination (tile padding, legacy `PAD`
    slots; not the `L(n)` tail slack, which is not addressable) gets the
    destination layout's padding value `PV(...)`: `zero` -> 0, `one` -> 1,
    `lowest` -> the lowest finite value of the element type, `highest` ->
    the highest finite value; `invalid` and `unknown` (and layouts without
    `PV`) -> 0. (`mlir::layout::getPaddingValueAttr` gives that constant.)
    This holds also when both layouts are the same: the padding slots of the
    source are never copied, so a relayout between equal padded layouts
    still writes the padding value.

    The op is destination-passing (`DestinationStyleOpInterface`), like
    `linalg.copy`:
    * tensors: `destination` only provides the type (and the buffer after
      bufferization); the result is the new tensor, of the destination's
      type;
    * memrefs: the op writes `destination` and has no result.

    ```mlir
    // Row-major -> XLA's Figure 1 tiling (2x3 tiles of 2x2, 9 padding slots).
    %r = layout.relayout %src, %dst
        : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
        -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    // The same on buffers (generic form:
    // "layout.relayout"(%a, %b) : (memref<3x5xf32>, memref<...>) -> ()).
    layout.relayout %a, %b
        : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    ```

    Constraints (each diagnostic starts with its label):
    * (C1) `source` and `destination` are both ranked tensors or both
      memrefs;
    * (C2) same element type;
    * (C3) same shape; a dynamic (`?`) dim must be dynamic on both sides,
      and is allowed where the layouts allow it (not as an inner dim of a
      `*` combine, not with legacy `PAD`);
    * (C4) tensors: one result, of the destination's type; memrefs: no
      result;
    * (C5) each layout is `#layout.tiled` or the default (no tensor
      encoding; a strided memref layout, e.g. the identity) and is valid
      for the shape (the library's messages);
    * (C6) memrefs: a `#layout.tiled` memref's memory space equals its
      `S(n)`; other memrefs may use any memory space. Source and
      destination may live in different memory spaces.

    Undefined behaviour: dynamic sizes that differ between `source` and
    `destination` at run time; memrefs: `source` and `destination`
    overlapping.

    Canonicalization: a relayout between equal types whose layout has no
    padding slots folds to its source (tensors) or becomes `memref.copy`
    (memrefs); a relayout of a single-use relayout (tensors) skips the
    intermediate layout (the last destination's padding value is the one
    written).
  }];
  let arguments = (ins AnyTypeOf<[AnyMemRef, AnyRankedTensor]>:$source,
      AnyTypeOf<[AnyMemRef, AnyRankedTensor]>:$destination);
  let results = (outs Optional<AnyRankedTensor>:$result);
  let assemblyFormat = [{
    $source `,` $destination attr-dict `:` type($source) `,` type($destination)
    (`->` type($result)^)?
  }];
  let builders = [
      // Tensors get a result of the destination's type, memrefs none.
      OpBuilder<(ins "::mlir::Value":$source, "::mlir::Value":$destination)>];
  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getDestinationMutable();
    }
    /// True if both sides have the same layout (and shape).
    bool hasSameLayouts();
    /// True if the op is a copy of the physical buffer: the same layouts,
    /// and the layout has no padding slots for the op to write (for any
    /// value of the dynamic sizes).
    bool isPlainCopy();
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Layout_FusionOp
    : Layout_Op<"fusion", [IsolatedFromAbove, Pure, SingleBlock]> {
  let summary = "A tree of layout ops computed in one loop nest";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.fusion` `(` ssa-use-list `)` attr-dict
                  `:` functional-type region
    ```

    The result of the body's `layout.yield`, computed as one loop nest over
    the result's physical buffer: every element of the result reads the
    leaves (`inputs`, the body's arguments) through the composed index maps
    of the ops between them and the root, and computes the interior values
    in registers; no interior value is stored. This is XLA's loop fusion
    (a `kLoop` fusion instruction with its fused computation); the body is
    the fused computation. `--layout-fuse` forms these ops
    (docs/fusion.md), the loop conversions lower them, and
    `--convert-layout-to-linalg` inlines them.

    The body holds, on static tensors only:
    * the binary ops (`layout.add`, ..., `layout.compare`) on operands of
      the result's shape (explicit broadcasts: `--layout-expand-broadcasts`);
    * `layout.broadcast_in_dim` without `sizes`;
    * tensor `layout.relayout`, whose destination is a `tensor.empty` of the
      body (a relayout changes no logical element: inside the nest it is the
      identity, and only the leaves' and the result's layouts are read and
      written);
    * `tensor.empty`.

    ```mlir
    %r = layout.fusion (%a, %b, %v)
        : (tensor<64x64xf32>, tensor<64x64xf32, #layout.tiled<{0,1}>>,
           tensor<64xf32>) -> tensor<64x64xf32> {
    ^bb0(%x: tensor<64x64xf32>, %y: tensor<64x64xf32, #layout.tiled<{0,1}>>,
         %z: tensor<64xf32>):
      %s = layout.subtract %x, %y : (tensor<64x64xf32>,
          tensor<64x64xf32, #layout.tiled<{0,1}>>) -> tensor<64x64xf32>
      %bz = layout.broadcast_in_dim %z, dims = [1]
          : (tensor<64xf32>) -> tensor<64x64xf32>
      %m = layout.multiply %s, %bz
          : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      layout.yield %m : tensor<64x64xf32>
    }
    ```

    Constraints: the body's arguments have the types of `inputs`; the
    yielded value has the result's type; every type in the body is a
    static ranked tensor; the body holds only the ops above, and every
    relayout's destination is a `tensor.empty` of the body.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs);
  let results = (outs AnyRankedTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $result) $body
  }];
  let extraClassDeclaration = [{
    /// The value the body yields (the root of the tree).
    ::mlir::Value getRoot();
    /// Moves the body's ops before the op (the op-by-op form) and replaces
    /// the op with its root.
    void unfuse(::mlir::RewriterBase &rewriter);
  }];
  let hasVerifier = 1;
}

def Layout_YieldOp : Layout_Op<"yield", [Pure, Terminator, ReturnLike,
                                         HasParent<"FusionOp">]> {
  let summary = "The root of a layout.fusion body";
  let description = [{
    Ends the body of a `layout.fusion`: `value` is the fusion's result.
  }];
  let arguments = (ins AnyRankedTensor:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_TD
