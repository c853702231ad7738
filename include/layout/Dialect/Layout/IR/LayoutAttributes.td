//===- LayoutAttributes.td - layout dialect attributes -----*- tablegen -*-===//
//
// `#layout.tiled<...>` (a memref layout / tensor encoding) and
// `#layout.shape<...>` (a whole XLA shape).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTES_TD
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTES_TD

include "layout/Dialect/Layout/IR/LayoutDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/TensorEncoding.td"

class Layout_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Layout_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  // The body is XLA text, parsed verbatim by LayoutDialect::parseAttribute
  // (not token by token), see LayoutAttributes.cpp.
  let hasCustomAssemblyFormat = 1;
}

def Layout_TiledLayoutAttr
    : Layout_Attr<"TiledLayout", "tiled",
                  [DeclareAttrInterfaceMethods<
                       MemRefLayoutAttrInterface, ["verifyLayout",
                                                   "getStridesAndOffset"]>,
                   DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "An XLA layout (minor_to_major, tiles, padding) as a memref "
                "layout and tensor encoding";
  let description = [{
    Syntax:

    ```
    tiled-attr ::= `#layout.tiled<` xla-layout (`,` `[` dim (`,` dim)* `]`)? `>`
                 | `#layout.tiled<` string-literal (`,` `[` ... `]`)? `>`
    dim        ::= integer | `?`
    ```

    `xla-layout` is XLA's layout text `{minor_to_major:attrs}` (docs/semantics.md §4),
    including the project's legacy padding form `PAD(...)PV(...)`. It is
    stored and printed in canonical form, so two attributes with the same dims
    (or both without) are equal exactly when the layouts are equal. Examples:

    <!-- doc-example: types -->
    ```mlir
    // Figure 1 of XLA's tiling doc: element (2,3) lands at slot 17.
    memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    // Repeated tiling (Figure 2).
    memref<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>
    // `*` combines take the sizes from the shape (see below)...
    memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
    // ...or carry them, checked against the shape.
    memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>
    // Legacy padding: a 2x3 array stored column-major in a 3x5 box.
    memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>
    // Memory space S(1) must match the memref's memory space.
    memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>
    ```

    **Affine map.** `getAffineMap()` is the exact map from the logical index
    to the coordinates of the physical (tiled) shape, most major first:
    minor_to_major permutation, then for every tile level the `*` combines
    (row-major linearization) and a `floordiv`/`mod` pair per tiled dim. The
    map has one result per physical dimension, and the buffer is row-major in
    that physical shape (`TiledLayoutMap::getPhysicalDims`). Figure 1 gives
    `(d0, d1) -> (d0 floordiv 2, d1 floordiv 2, d0 mod 2, d1 mod 2)` with
    physical shape `2x3x2x2`.

    **`*` layouts and the optional dims `[...]`.** A `*` combine linearizes
    with the sizes of the inner dims, which the attribute alone does not know.
    Written without dims (`#layout.tiled<{2,1,0:T(*,8)}>`), the layout takes
    them from the memref (tensor) shape it is attached to: `verifyLayout` /
    `verifyEncoding` validate it against that shape, and
    `getAffineMapForShape(shape)` (used by every pass of the project) gives
    the exact map. `getAffineMap()` has no shape; for a dims-less `*` layout
    it returns a placeholder that is not affine (a combine multiplies by an
    index instead of a size), which affine analyses such as upstream
    `-normalize-memrefs` refuse, leaving such memrefs alone. Written with
    dims (`, [2,3,4]`, `?` for a dynamic dim), the map is exact on its own,
    and the dims must equal the shape. The two forms are distinct attributes
    (so distinct types) with the same layout: `areEquivalentLayouts` says so,
    and a relayout between them copies the buffer.

    **Dynamic dims.** A memref dim may be dynamic (`?`) unless it is one of the
    inner dims of a `*` combine, or the layout has legacy padding.

    **What the map does not show.** Legacy padding (`PAD`) and `L(n)` tail
    padding only enlarge the buffer: padding of the last index is beyond the
    logical range, and the `L` slack lies after the last physical element.
    `E(n)` (sub-byte packing) does not change the element index map: the
    memref still has one slot per physical element; `--layout-normalize-memrefs`
    stores n-bit elements 8/n per byte in XLA's order.

    **Memory space.** `S(n)` must equal the memref's memory space (an integer
    memory space `n`, absent for 0). `verifyLayout` cannot see the memory
    space, so the layout dialect's ops and passes check it;
    `mlir::layout::getMemRefType(shape, elementType, attr)` builds a
    consistent type.

    As a tensor encoding, the layout is verified against the tensor's shape
    and element type (`VerifiableTensorEncoding`).
  }];
  let parameters = (ins StringRefParameter<"canonical XLA layout text">:$text,
      OptionalArrayRefParameter<"int64_t",
                                "logical dims (optional; the shape's)">:$dims);
  let builders = [AttrBuilder<(ins "const ::mlir::layout::Layout &":$layout,
      CArg<"::llvm::ArrayRef<int64_t>", "{}">:$dims)>];
  let genVerifyDecl = 1;
  // The storage (lib/Dialect/Layout/IR/LayoutAttributeStorage.h) keeps the
  // parsed layout next to the canonical text it is uniqued by.
  let genStorageClass = 0;
  let storageNamespace = "::mlir::layout::detail";
  let extraClassDeclaration = [{
    /// The parsed layout, stored in the attribute (parsed once per context).
    /// Pre: the attribute verified; an empty layout otherwise.
    const ::mlir::layout::Layout &getLayout() const;

    /// The index map for a logical shape (memref dims, kDynamic for `?`):
    /// validates the layout against the shape with the library's messages.
    /// `elementType` may be null (memref layouts do not see it).
    ::llvm::FailureOr<::mlir::layout::TiledLayoutMap>
    getTiledLayoutMap(::llvm::ArrayRef<int64_t> shape, ::mlir::Type elementType,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;

    /// True if the index map depends on the logical sizes (the layout has a
    /// `*` combine); getAffineMap() is then exact only with dims.
    bool hasShapeDependentMap() const;

    /// The exact logical -> physical map for a logical shape (memref dims,
    /// kDynamic for `?`): getAffineMap() unless the map depends on the sizes
    /// and the attribute has no dims. Pre: verifyLayout(shape) succeeded;
    /// null otherwise.
    ::mlir::AffineMap getAffineMapForShape(::llvm::ArrayRef<int64_t> shape)
        const;

    /// The same layout with `dims` attached (empty: without dims).
    TiledLayoutAttr withDims(::llvm::ArrayRef<int64_t> dims) const;

    /// The physical (tiled) memref type this layout stores `type` in:
    /// physical dims, same element type and memory space, identity layout.
    ::llvm::FailureOr<::mlir::MemRefType> getPhysicalMemRefType(
        ::mlir::MemRefType type,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
  }];
}

def Layout_ShapeAttr : Layout_Attr<"Shape", "shape"> {
  let summary = "A whole XLA shape (arrays, tuples, dynamic dims)";
  let description = [{
    Syntax:

    ```
    shape-attr ::= `#layout.shape<` xla-shape `>`
                 | `#layout.shape<` string-literal `>`
    ```

    Holds any XLA shape text (docs/semantics.md §4) in canonical form: arrays with
    layouts, tuples, `token[]`, `opaque[]`, unbounded `?` and bounded `<=N`
    dims. Text containing `<` (bounded dims) must be quoted, and is printed
    quoted: `#layout.shape<"f32[<=4,3]">`.

    <!-- doc-example: attributes -->
    ```mlir
    #layout.shape<f32[3,5]{1,0:T(2,2)}>
    #layout.shape<(f32[2]{0}, s32[])>
    #layout.shape<"f32[<=4,?]{1,0}">
    ```

    `include/layout/Dialect/Layout/IR/LayoutTypeConversion.h` converts
    between shapes and MLIR types (docs/dialect.md has the table).
  }];
  let parameters = (ins StringRefParameter<"canonical XLA shape text">:$text);
  let builders = [AttrBuilder<(ins "const ::mlir::layout::Shape &":$shape)>];
  let genVerifyDecl = 1;
  let genStorageClass = 0;
  let storageNamespace = "::mlir::layout::detail";
  let extraClassDeclaration = [{
    /// The parsed shape, stored in the attribute (parsed once per context).
    /// Pre: the attribute verified; an empty shape otherwise.
    const ::mlir::layout::Shape &getShape() const;
  }];
}

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTATTRIBUTES_TD
