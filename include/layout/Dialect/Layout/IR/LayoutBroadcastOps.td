//===- LayoutBroadcastOps.td - broadcasting ops ------------*- tablegen -*-===//
//
// `layout.broadcast_in_dim` and the binary elementwise ops with XLA's
// implicit broadcasting (docs/semantics.md §5). Verification and type inference
// call the LayoutXla library (layout/Xla/Broadcast.h), so the messages are
// XLA's and the StableHLO constraint labels (C1..C5).
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_IR_LAYOUTBROADCASTOPS_TD
#define LAYOUT_DIALECT_LAYOUT_IR_LAYOUTBROADCASTOPS_TD

include "layout/Dialect/Layout/IR/LayoutDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Layout_BroadcastingOp<string mnemonic, list<Trait> traits = []>
    : Layout_Op<mnemonic, traits>;

//===----------------------------------------------------------------------===//
// broadcast_in_dim
//===----------------------------------------------------------------------===//

def Layout_BroadcastInDimOp
    : Layout_BroadcastingOp<"broadcast_in_dim", [Pure]> {
  let summary =
      "Expand a tensor into a larger one (StableHLO broadcast_in_dim)";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.broadcast_in_dim` ssa-use `,` `dims` `=` `[` dims `]`
                  (`sizes` `(` ssa-use-list `)`)? attr-dict
                  `:` `(` tensor-type `)` `->` tensor-type
    ```

    Expands the dimensions and/or rank of `operand` by duplicating its data:
    operand dimension `i` becomes result dimension `dims[i]`
    (`broadcast_dimensions`); result dimensions that no operand dimension
    maps to, and operand dimensions of size 1, are replicated:

    ```
    result[r] = operand[o]  with  o[i] = 0         if dim(operand, i) = 1
                                  o[i] = r[dims[i]] otherwise
    ```

    Constraints (StableHLO spec; the verifier is the shared
    `verifyBroadcastInDim` of `layout/Xla/Broadcast.h`, whose messages start
    with the label):
    * (C1) `element_type(operand) = element_type(result)`;
    * (C2) `size(dims) = rank(operand)`;
    * (C3) `0 <= dims[i] < rank(result)`;
    * (C4) `dims` has no duplicates (unlike XLA's HLO, any order);
    * (C5) `dim(operand, i) = 1` or `dim(operand, i) = dim(result, dims[i])`;
      as in StableHLO's verifier, a dynamic (`?`) operand dimension is not
      checked, and a static one must match even a dynamic result dimension
      (`tensor<3xf32>` cannot broadcast into `tensor<?xf32>`).

    Dynamic result sizes. A dynamic (`?`) result dimension needs a size at
    run time. Either all of them are given as `index` operands after
    `sizes`, in order, like `tensor.empty`, or none is, and then each is the
    size of the operand dimension that maps to it:
    * (C6) with `sizes`, `size(sizes)` = the number of dynamic dimensions of
      the result;
    * (C7) without `sizes`, every dynamic result dimension `d` is `dims[i]`
      for an operand dimension `i` whose size is not the static 1; the result
      then has `dim(operand, i)` elements along `d` (no replication).

    Undefined behaviour: a dynamic size that, at run time, breaks C5 (an
    operand dimension that is neither 1 nor the result's size). Operands
    and results may carry an encoding (e.g. `#layout.tiled`); it does not
    take part in the semantics.

    Folding: a broadcast with identity `dims` whose result type equals the
    operand type (and whose `sizes`, if any, are the operand's own
    `tensor.dim`s) is its operand. Canonicalization: a broadcast of a
    broadcast becomes one broadcast (`dims` composed); a broadcast of a
    splat constant becomes a splat constant of the result type.

    Examples:

    ```mlir
    // The vector [7,8,9] as every row of a 2x3 matrix (dims = [1]) ...
    %rows = layout.broadcast_in_dim %v, dims = [1]
        : (tensor<3xf32>) -> tensor<2x3xf32>
    // ... or as every column of a 3x3 matrix (dims = [0]).
    %cols = layout.broadcast_in_dim %v, dims = [0]
        : (tensor<3xf32>) -> tensor<3x3xf32>
    // Degenerate dims: 1x2 -> 4x2 (dimension 0 replicated).
    %m = layout.broadcast_in_dim %x, dims = [0, 1]
        : (tensor<1x2xf32>) -> tensor<4x2xf32>
    // Dynamic: dimension 0 of the result has %n elements; dimension 1 is
    // the operand's dimension 0 (C7 would allow omitting its size, but with
    // `sizes` every dynamic dimension is given).
    %d = layout.broadcast_in_dim %y, dims = [1] sizes(%n, %k)
        : (tensor<?xf32>) -> tensor<?x?xf32>
    // Dynamic without sizes: the result has dim(%y, 0) columns.
    %e = layout.broadcast_in_dim %y, dims = [1]
        : (tensor<?xf32>) -> tensor<4x?xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand,
      DenseI64ArrayAttr:$broadcast_dimensions, Variadic<Index>:$sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions (`sizes` `(` $sizes^ `)`)?
    attr-dict `:` `(` type($operand) `)` `->` type($result)
  }];
  let builders = [
      // No sizes: every dynamic result dim comes from the operand (C7).
      OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$operand,
                    "::llvm::ArrayRef<int64_t>":$dims),
                [{
      build($_builder, $_state, resultType, operand,
            $_builder.getDenseI64ArrayAttr(dims), ::mlir::ValueRange{});
    }]>];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Binary elementwise ops with XLA broadcasting
//===----------------------------------------------------------------------===//

def Layout_ComparisonDirection
    : I32EnumAttr<"ComparisonDirection",
                  "comparison direction of layout.compare",
                  [I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
                   I32EnumAttrCase<"LT", 2>, I32EnumAttrCase<"LE", 3>,
                   I32EnumAttrCase<"GT", 4>, I32EnumAttrCase<"GE", 5>]> {
  let cppNamespace = "::mlir::layout";
}

// Element-type families. AnyInteger includes i1 (XLA's pred) and the
// signed/unsigned integer types (XLA's sN/uN).
def Layout_IntFloatOrComplexTensor
    : RankedTensorOf<[AnyInteger, AnyFloat, AnyComplex]>;
def Layout_IntOrFloatTensor : RankedTensorOf<[AnyInteger, AnyFloat]>;
def Layout_FloatOrComplexTensor : RankedTensorOf<[AnyFloat, AnyComplex]>;
def Layout_IntTensor : RankedTensorOf<[AnyInteger]>;

// Verifies the XLA broadcasting rule (and reports it in XLA's wording) before
// InferTypeOpInterface compares the inferred type, so that an invalid op
// gets one message. Also marks the ops for --layout-expand-broadcasts.
def Layout_BroadcastingBinaryOpTrait : NativeOpTrait<"BroadcastingBinaryOp"> {
  let cppNamespace = "::mlir::layout::OpTrait";
}

// The shared base of the binary ops. Each op is
//   result = op(broadcast(lhs), broadcast(rhs))
// where the broadcasts are XLA's (InDim via `broadcast_dimensions`, then
// degenerate). The result type is inferred (inferBinaryOpDims); an explicit
// result type may differ from the inferred one only by its encoding.
class Layout_BroadcastingBinaryOp<
    string mnemonic, Type operandType, string semantics,
    Type resultType = operandType, dag leadingArgs = (ins)>
    : Layout_BroadcastingOp<mnemonic, [Layout_BroadcastingBinaryOpTrait, Pure,
                                       InferTypeOpAdaptorWithIsCompatible]> {
  let summary = "Elementwise "#mnemonic#" with XLA broadcasting";
  let description = [{
    Syntax:

    ```
    operation ::= `layout.}]#mnemonic#[{` }]#!if(!empty(leadingArgs), "", "direction `,` ")#[{ssa-use `,` ssa-use
                  (`,` `dims` `=` `[` dims `]`)? attr-dict
                  `:` `(` tensor-type `,` tensor-type `)` (`->` tensor-type)?
    ```

    }]#semantics#[{

    The operands are broadcast to a common shape as in XLA (docs/semantics.md §5;
    `inferBinaryOpDims` of `layout/Xla/Broadcast.h`, errors in XLA's
    wording):
    * same rank: `dims` (`broadcast_dimensions`) is absent or the identity;
      per dimension the sizes are equal or one of them is 1 (degenerate
      broadcasting, e.g. `(2,1)` and `(1,3)` give `(2,3)`);
    * different ranks: the lower-rank operand is a scalar (no `dims`) or
      `dims` maps its dimensions, strictly increasing, into the higher-rank
      operand's (InDim broadcasting), then degenerate broadcasting;
    * the element types are equal;
    * dynamic sizes: `?` and 1 give `?`, `?` and N give N, `?` and `?` give
      `?` (at run time the sizes must be equal or one of them 1).

    Operands may carry an encoding (e.g. `#layout.tiled`); the inferred
    result has none. The result type may be omitted (it is then inferred);
    it is always printed. `--layout-expand-broadcasts` rewrites a
    broadcasting op into explicit `layout.broadcast_in_dim`s and the same op
    on equal shapes.

    Example:

    ```mlir
    %r = layout.}]#mnemonic#" "#!if(!empty(leadingArgs), "", "LT, ")#[{%m, %v, dims = [1]
        : (tensor<2x3x}]#!if(!eq(mnemonic, "atan2"), "f32", "i32")#[{>, tensor<3x}]#!if(
      !eq(mnemonic, "atan2"), "f32",
      "i32")#[{>) -> tensor<2x3x}]#!if(!empty(leadingArgs),
                                       !if(!eq(mnemonic, "atan2"), "f32",
                                           "i32"),
                                       "i1")#[{>
    ```
  }];
  let arguments = !con(
      leadingArgs, (ins operandType:$lhs, operandType:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$broadcast_dimensions));
  let results = (outs resultType:$result);
  let hasCustomAssemblyFormat = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      return ::mlir::layout::inferBroadcastingBinaryOpType(
          location, getOperationName(), adaptor.getLhs().getType(),
          adaptor.getRhs().getType(), adaptor.getBroadcastDimensions(),
          inferredReturnTypes);
    }
    bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange l,
                                            ::mlir::TypeRange r) {
      return ::mlir::layout::areCompatibleIgnoringEncoding(l, r);
    }
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::mlir::layout::parseBroadcastingBinaryOp(parser, result);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &printer) {
      ::mlir::layout::printBroadcastingBinaryOp(printer, getOperation());
    }
  }];
}

def Layout_AddOp
    : Layout_BroadcastingBinaryOp<"add", Layout_IntFloatOrComplexTensor,
                                  "`lhs + rhs` (`or` on i1).">;
def Layout_SubtractOp
    : Layout_BroadcastingBinaryOp<"subtract", Layout_IntFloatOrComplexTensor,
                                  "`lhs - rhs`.">;
def Layout_MultiplyOp
    : Layout_BroadcastingBinaryOp<"multiply", Layout_IntFloatOrComplexTensor,
                                  "`lhs * rhs` (`and` on i1).">;
def Layout_DivideOp : Layout_BroadcastingBinaryOp<
                          "divide", Layout_IntFloatOrComplexTensor,
                          "`lhs / rhs`; integer division rounds toward zero.">;
def Layout_RemainderOp
    : Layout_BroadcastingBinaryOp<
          "remainder", Layout_IntOrFloatTensor,
          "`lhs - rhs * trunc(lhs / rhs)`: the sign of the dividend.">;
def Layout_MaximumOp
    : Layout_BroadcastingBinaryOp<"maximum", Layout_IntOrFloatTensor,
                                  "`max(lhs, rhs)` (NaN propagates).">;
def Layout_MinimumOp
    : Layout_BroadcastingBinaryOp<"minimum", Layout_IntOrFloatTensor,
                                  "`min(lhs, rhs)` (NaN propagates).">;
def Layout_PowerOp
    : Layout_BroadcastingBinaryOp<"power", Layout_IntFloatOrComplexTensor,
                                  "`lhs` raised to the power `rhs`.">;
def Layout_Atan2Op
    : Layout_BroadcastingBinaryOp<"atan2", Layout_FloatOrComplexTensor,
                                  "`atan2(lhs, rhs)`.">;
def Layout_AndOp
    : Layout_BroadcastingBinaryOp<"and", Layout_IntTensor,
                                  "Bitwise (logical on i1) `lhs & rhs`.">;
def Layout_OrOp
    : Layout_BroadcastingBinaryOp<"or", Layout_IntTensor,
                                  "Bitwise (logical on i1) `lhs | rhs`.">;
def Layout_XorOp
    : Layout_BroadcastingBinaryOp<"xor", Layout_IntTensor,
                                  "Bitwise (logical on i1) `lhs ^ rhs`.">;
def Layout_ShiftLeftOp
    : Layout_BroadcastingBinaryOp<
          "shift_left", Layout_IntTensor,
          "`lhs << rhs`; 0 when `rhs` is negative or at least the bit width.">;
def Layout_ShiftRightArithmeticOp
    : Layout_BroadcastingBinaryOp<
          "shift_right_arithmetic", Layout_IntTensor,
          "`lhs >> rhs` replicating the sign bit; all sign bits when `rhs` is "
          "negative or at least the bit width.">;
def Layout_ShiftRightLogicalOp
    : Layout_BroadcastingBinaryOp<"shift_right_logical", Layout_IntTensor,
                                  "`lhs >> rhs` shifting in zeros; 0 when "
                                  "`rhs` is negative or at least "
                                  "the bit width.">;
def Layout_CompareOp
    : Layout_BroadcastingBinaryOp<
          "compare", AnyRankedTensor,
          "`lhs <direction> rhs` as an i1 tensor. Integers compare signed "
          "unless "
          "their type is unsigned (`uiN`); floats compare ordered (`NE` is "
          "true "
          "for NaN); complex numbers support only `EQ` and `NE`.",
          RankedTensorOf<[I1]>,
          (ins Layout_ComparisonDirection:$comparison_direction)> {
  let hasVerifier = 1;
}

#endif // LAYOUT_DIALECT_LAYOUT_IR_LAYOUTBROADCASTOPS_TD
