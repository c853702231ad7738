//===- LayoutOps.td - layout dialect operations ------------*- tablegen -*-===//
//
// Views between a tiled memref and its physical buffer.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_TD
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_TD

include "layout/Dialect/Layout/IR/LayoutDialect.td"
include "layout/Dialect/Layout/IR/LayoutAttributes.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"

class Layout_Op<string mnemonic, list<Trait> traits = []>
    : Op<Layout_Dialect, mnemonic, traits>;

def Layout_ToPhysicalOp : Layout_Op<"to_physical", [
    Pure, DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "View a tiled memref as its physical buffer";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.to_physical` ssa-use attr-dict `:` memref-type `->` memref-type
    ```

    Returns the buffer of a memref with a `#layout.tiled` layout as a memref
    with the identity layout over the physical (tiled) shape. No data moves:
    element `e` of the source is element `map(e)` of the result, where `map`
    is the layout's affine map. Padding slots (tile padding, legacy `PAD`)
    are visible in the view; their contents are unspecified unless written.

    Constraints:
    * (C1) the source layout is `#layout.tiled` and valid for its shape;
    * (C2) the result has the physical dims (`TiledLayoutMap::getPhysicalDims`);
      `L(n)` tail slack is not part of the view;
    * (C3) same element type; (C4) same memory space, equal to the layout's
      `S(n)`; (C5) the result has the identity layout.

    ```mlir
    // f32[3,5]{1,0:T(2,2)}: 2x3 tiles of 2x2, 24 slots for 15 elements.
    %p = layout.to_physical %m
        : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Layout_FromPhysicalOp : Layout_Op<"from_physical", [
    Pure, DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "View a physical buffer as a tiled memref";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.from_physical` ssa-use attr-dict `:` memref-type `->` memref-type
    ```

    The inverse of `layout.to_physical`: the source is the physical
    identity-layout buffer and the result the logical memref with a
    `#layout.tiled` layout. The constraints are those of `layout.to_physical`
    with source and result swapped.

    ```mlir
    %m = layout.from_physical %p
        : memref<2x3x2x2xf32> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    ```
  }];
  let arguments = (ins AnyMemRef:$source);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTOPS_TD
