//===- LayoutDialect.td - The layout dialect ---------------*- tablegen -*-===//
//
// The `layout` dialect: XLA shapes and tiled layouts as MLIR attributes,
// views, relayouts and ops with XLA's implicit broadcasting; and the base
// class of its ops.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD

include "mlir/IR/DialectBase.td"
include "mlir/IR/OpBase.td"

def Layout_Dialect : Dialect {
  let name = "layout";
  let cppNamespace = "::mlir::layout";
  // Canonicalization turns memref relayouts into memref.copy.
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
  let summary = "XLA shapes and tiled layouts for MLIR memrefs and tensors";
  let description = [{
    The `layout` dialect carries XLA's shapes, array layouts and implicit
    broadcasting into MLIR. What it has:

    * **`#layout.tiled<...>`**: an XLA layout (minor_to_major, repeated tiling
      with `*` combines, legacy padding `PAD`/`PV`, `L`/`E`/`S` fields). It is
      a builtin memref layout (`MemRefLayoutAttrInterface`; its affine map is
      the exact logical -> physical index map of XLA's tiling) and a verified
      tensor encoding (`VerifiableTensorEncoding`).
    * **`#layout.shape<...>`**: a whole XLA shape (tuples, `token[]`,
      unbounded `?` and bounded `<=N` dims).
    * **Views**: `layout.to_physical` / `layout.from_physical` reinterpret a
      tiled memref or tensor as its physical identity-layout buffer and back,
      without copying (`ViewLikeOpInterface` on memrefs).
    * **`layout.relayout`**: the copy between two layouts of one logical
      array, destination-passing (`DestinationStyleOpInterface`), on tensors
      and memrefs; it writes the destination's padding slots with its padding
      value (`PV`, zero by default).
    * **`layout.broadcast_in_dim`**: StableHLO's explicit broadcast.
    * **16 binary elementwise ops** with XLA's implicit broadcasting (InDim,
      degenerate dims, scalars, and their composition): `add`, `subtract`,
      `multiply`, `divide`, `remainder`, `maximum`, `minimum`, `power`,
      `atan2`, `and`, `or`, `xor`, `shift_left`, `shift_right_arithmetic`,
      `shift_right_logical` and `compare`. Result types are inferred
      (`InferTypeOpInterface`) by XLA's shape inference, with XLA's messages.

    Every op is bufferizable (the `BufferizableOpInterface` models of
    `layout/Dialect/Layout/Transforms/BufferizableOpInterfaceImpl.h`), and
    the passes of
    docs/lowering.md lower the dialect to affine/SCF loops and to LLVM.

    The attribute bodies are XLA text, parsed and printed by the project's
    IR-free `LayoutXla` library; the attributes keep the parsed value. Bodies
    that the MLIR lexer cannot scan as a balanced pretty-dialect body (they
    contain `<`, e.g. `<=4` bounded dims, or `"`) are written and printed as a
    quoted string: `#layout.shape<"f32[<=4]">`.

    More: docs/dialect.md (types and attributes), docs/broadcasting.md (the
    broadcasting rules), docs/lowering.md (passes and pipelines).
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

/// The base class of every op of the dialect (LayoutOps.td,
/// LayoutBroadcastOps.td).
class Layout_Op<string mnemonic, list<Trait> traits = []>
    : Op<Layout_Dialect, mnemonic, traits>;

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD
