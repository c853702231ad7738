//===- LayoutDialect.td - The layout dialect ---------------*- tablegen -*-===//
//
// The `layout` dialect: XLA shapes and tiled layouts as MLIR attributes, and
// views between logical and physical (tiled) memrefs.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD

include "mlir/IR/DialectBase.td"

def Layout_Dialect : Dialect {
  let name = "layout";
  let cppNamespace = "::mlir::layout";
  // Canonicalization turns memref relayouts into memref.copy.
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let summary = "XLA shapes and tiled layouts for MLIR memrefs and tensors";
  let description = [{
    The `layout` dialect carries XLA's array layouts (minor_to_major, repeated
    tiling with `*` combines, legacy padding, `L`/`E`/`S` fields) into MLIR:

    * `#layout.tiled<...>` is a memref layout (`MemRefLayoutAttrInterface`)
      and a verified tensor encoding whose affine map is the exact
      logical -> physical index map of XLA's tiling algorithm;
    * `#layout.shape<...>` holds a whole XLA shape (tuples, dynamic dims);
    * `layout.to_physical` / `layout.from_physical` view a tiled memref as its
      physical identity-layout buffer and back, without copying;
    * `--layout-normalize-memrefs` rewrites tiled memrefs into their physical
      buffers with explicit index arithmetic.

    The attribute bodies are XLA text, parsed and printed by the project's
    `LayoutXla` library. Bodies that the MLIR lexer cannot scan as a balanced
    pretty-dialect body (they contain `<`, e.g. `<=4` bounded dims, or `"`)
    are written and printed as a quoted string: `#layout.shape<"f32[<=4]">`.
  }];
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;

  private:
    void registerAttributes();
  }];
}

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD
