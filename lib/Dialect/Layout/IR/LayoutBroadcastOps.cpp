//===- LayoutBroadcastOps.cpp - broadcasting ops --------------------------===//
//
// Verification and type inference delegate to layout/Xla/Broadcast.h so the
// dialect and the library share one rule (and one wording).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"
#include "layout/Xla/Broadcast.h"
#include "layout/Xla/PrimitiveType.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;

static constexpr llvm::StringLiteral kBroadcastDimensionsName =
    "broadcast_dimensions";
static constexpr llvm::StringLiteral kComparisonDirectionName =
    "comparison_direction";

static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static bool isIdentity(ArrayRef<int64_t> dims) {
  return llvm::all_of(llvm::enumerate(dims), [](auto it) {
    return it.value() == static_cast<int64_t>(it.index());
  });
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

std::string mlir::layout::getXlaOpName(StringRef operationName) {
  StringRef mnemonic = operationName;
  mnemonic.consume_front("layout.");
  std::string name = mnemonic.str();
  llvm::replace(name, '_', '-');
  return name;
}

std::string mlir::layout::getXlaTypeText(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return typeText(type);
  std::string text;
  if (std::optional<PrimitiveType> primitive =
          convertElementType(shaped.getElementType()))
    text = primitiveTypeName(*primitive).str();
  else
    text = typeText(shaped.getElementType());
  text += "[";
  llvm::ListSeparator sep(",");
  for (int64_t size : shaped.getShape()) {
    text += sep;
    text +=
        ShapedType::isDynamic(size) ? std::string("?") : std::to_string(size);
  }
  return text + "]";
}

Type mlir::layout::getBinaryOpComputeType(Type lhs, Type rhs) {
  if (lhs == rhs)
    return lhs;
  std::optional<PrimitiveType> l = convertElementType(lhs);
  std::optional<PrimitiveType> r = convertElementType(rhs);
  if (!l || !r || !sameElementTypeIgnoringFpPrecision(*l, *r))
    return {};
  return convertElementType(higherPrecisionType(*l, *r), lhs.getContext());
}

/// The broadcasting rule: the result type, or the message (XLA wording).
static FailureOr<Type> inferResultType(StringRef opName, Type lhsType,
                                       Type rhsType,
                                       std::optional<ArrayRef<int64_t>> dims,
                                       std::string &message) {
  auto lhs = dyn_cast<RankedTensorType>(lhsType);
  auto rhs = dyn_cast<RankedTensorType>(rhsType);
  if (!lhs || !rhs) {
    message = "operands must be ranked tensors, but got '" + typeText(lhsType) +
              "' and '" + typeText(rhsType) + "'";
    return failure();
  }
  std::string xlaName = getXlaOpName(opName);
  std::string lhsText = getXlaTypeText(lhs), rhsText = getXlaTypeText(rhs);
  // XLA: the element types are equal, or both floating point, and the
  // result has the higher precision (bf16 + f32 is f32).
  Type elementType =
      getBinaryOpComputeType(lhs.getElementType(), rhs.getElementType());
  if (!elementType) {
    message = "Binary op " + xlaName +
              " with different element types: " + lhsText + " and " + rhsText +
              ".";
    return failure();
  }
  std::optional<PrimitiveType> primitive = convertElementType(elementType);
  if (primitive) {
    if (llvm::Error err =
            checkBinaryOpElementType(xlaName, *primitive, *primitive)) {
      message = llvm::toString(std::move(err));
      return failure();
    }
  }
  llvm::Expected<SmallVector<int64_t, 6>> resultDims =
      inferBinaryOpDims(xlaName, lhs.getShape(), rhs.getShape(),
                        dims.value_or(ArrayRef<int64_t>()), lhsText, rhsText);
  if (!resultDims) {
    message = llvm::toString(resultDims.takeError());
    return failure();
  }
  if (opName == CompareOp::getOperationName())
    elementType = IntegerType::get(lhs.getContext(), 1);
  return Type(RankedTensorType::get(*resultDims, elementType));
}

LogicalResult mlir::layout::inferBroadcastingBinaryOpType(
    std::optional<Location> location, StringRef opName, Type lhsType,
    Type rhsType, std::optional<ArrayRef<int64_t>> broadcastDimensions,
    SmallVectorImpl<Type> &inferredTypes) {
  std::string message;
  FailureOr<Type> type =
      inferResultType(opName, lhsType, rhsType, broadcastDimensions, message);
  if (failed(type))
    return emitOptionalError(location, "'", opName, "' op ", message);
  inferredTypes.push_back(*type);
  return success();
}

LogicalResult mlir::layout::verifyBroadcastingBinaryOp(Operation *op) {
  std::optional<ArrayRef<int64_t>> dims;
  if (auto attr =
          op->getAttrOfType<DenseI64ArrayAttr>(kBroadcastDimensionsName))
    dims = attr.asArrayRef();
  if (op->getNumOperands() != 2 || op->getNumResults() != 1)
    return op->emitOpError("expects 2 operands and 1 result");
  std::string message;
  FailureOr<Type> inferred =
      inferResultType(op->getName().getStringRef(), op->getOperand(0).getType(),
                      op->getOperand(1).getType(), dims, message);
  if (failed(inferred))
    return op->emitOpError(message);
  // Checked here rather than by InferTypeOpInterface's verifier, which would
  // add a second, vaguer error.
  Type resultType = op->getResult(0).getType();
  if (!areCompatibleIgnoringEncoding(*inferred, resultType))
    return op->emitOpError("result type ")
           << resultType << " must be the inferred type " << *inferred
           << " (up to the encoding)";
  return success();
}

bool mlir::layout::areCompatibleIgnoringEncoding(TypeRange lhs, TypeRange rhs) {
  if (lhs.size() != rhs.size())
    return false;
  for (auto [l, r] : llvm::zip_equal(lhs, rhs)) {
    if (l == r)
      continue;
    auto lt = dyn_cast<RankedTensorType>(l), rt = dyn_cast<RankedTensorType>(r);
    if (!lt || !rt || lt.getShape() != rt.getShape() ||
        lt.getElementType() != rt.getElementType())
      return false;
  }
  return true;
}

ParseResult mlir::layout::parseBroadcastingBinaryOp(OpAsmParser &parser,
                                                    OperationState &result) {
  MLIRContext *context = parser.getContext();
  if (result.name.getStringRef() == CompareOp::getOperationName()) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<ComparisonDirection> direction =
        symbolizeComparisonDirection(keyword);
    if (!direction)
      return parser.emitError(loc, "expected comparison direction EQ, NE, "
                                   "LT, LE, GT or GE, but got '")
             << keyword << "'";
    result.addAttribute(kComparisonDirectionName,
                        ComparisonDirectionAttr::get(context, *direction));
    if (parser.parseComma())
      return failure();
  }
  OpAsmParser::UnresolvedOperand lhs, rhs;
  if (parser.parseOperand(lhs) || parser.parseComma() ||
      parser.parseOperand(rhs))
    return failure();
  std::optional<ArrayRef<int64_t>> broadcastDimensions;
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("dims") || parser.parseEqual())
      return failure();
    auto dims = llvm::dyn_cast_or_null<DenseI64ArrayAttr>(
        DenseI64ArrayAttr::parse(parser, Type()));
    if (!dims)
      return failure();
    result.addAttribute(kBroadcastDimensionsName, dims);
    broadcastDimensions = dims.asArrayRef();
  }
  Type lhsType, rhsType, resultType;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseLParen() || parser.parseType(lhsType) ||
      parser.parseComma() || parser.parseType(rhsType) || parser.parseRParen())
    return failure();
  if (succeeded(parser.parseOptionalArrow()) && parser.parseType(resultType))
    return failure();
  if (parser.resolveOperand(lhs, lhsType, result.operands) ||
      parser.resolveOperand(rhs, rhsType, result.operands))
    return failure();
  if (!resultType) {
    SmallVector<Type, 1> inferred;
    if (failed(inferBroadcastingBinaryOpType(
            result.location, result.name.getStringRef(), lhsType, rhsType,
            broadcastDimensions, inferred)))
      return failure();
    resultType = inferred.front();
  }
  result.addTypes(resultType);
  return success();
}

void mlir::layout::printBroadcastingBinaryOp(OpAsmPrinter &printer,
                                             Operation *op) {
  printer << ' ';
  if (auto direction =
          op->getAttrOfType<ComparisonDirectionAttr>(kComparisonDirectionName))
    printer << stringifyComparisonDirection(direction.getValue()) << ", ";
  printer << op->getOperand(0) << ", " << op->getOperand(1);
  if (auto dims =
          op->getAttrOfType<DenseI64ArrayAttr>(kBroadcastDimensionsName)) {
    printer << ", dims = ";
    dims.print(printer);
  }
  printer.printOptionalAttrDict(
      op->getAttrs(), {kBroadcastDimensionsName, kComparisonDirectionName});
  printer << " : (" << op->getOperand(0).getType() << ", "
          << op->getOperand(1).getType() << ") -> "
          << op->getResult(0).getType();
}

//===----------------------------------------------------------------------===//
// BroadcastInDimOp
//===----------------------------------------------------------------------===//

std::string mlir::layout::checkBroadcastInDimSizes(RankedTensorType operandType,
                                                   RankedTensorType resultType,
                                                   ArrayRef<int64_t> dims,
                                                   size_t numSizes) {
  int64_t numDynamic = resultType.getNumDynamicDims();
  if (numSizes != 0) {
    if (static_cast<int64_t>(numSizes) == numDynamic)
      return "";
    return ("C6: size(sizes) = " + Twine(numSizes) +
            " must equal the number of dynamic dims of the result = " +
            Twine(numDynamic))
        .str();
  }
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (!resultType.isDynamicDim(d))
      continue;
    const int64_t *it = llvm::find(dims, d);
    if (it == dims.end())
      return ("C7: dim(result, " + Twine(d) +
              ") is dynamic and no operand dim maps to it; give its size "
              "with `sizes`")
          .str();
    int64_t i = it - dims.begin();
    if (operandType.getDimSize(i) == 1)
      return ("C7: dim(result, " + Twine(d) +
              ") is dynamic and the operand dim that maps to it has size 1 "
              "(dim(operand, " +
              Twine(i) + ") = 1); give its size with `sizes`")
          .str();
  }
  return "";
}

LogicalResult BroadcastInDimOp::verify() {
  RankedTensorType operandType = getOperand().getType();
  RankedTensorType resultType = getType();
  ArrayRef<int64_t> dims = getBroadcastDimensions();
  if (llvm::Error error = verifyBroadcastInDim(
          typeText(operandType.getElementType()), operandType.getShape(),
          typeText(resultType.getElementType()), resultType.getShape(), dims))
    return emitOpError(llvm::toString(std::move(error)));
  std::string sizesError = checkBroadcastInDimSizes(operandType, resultType,
                                                    dims, getSizes().size());
  if (!sizesError.empty())
    return emitOpError(sizesError);
  return success();
}

/// True if `size` is `tensor.dim %source, dim` (matched by name: the IR
/// library does not depend on the tensor dialect).
static bool isDimOf(Value size, Value source, int64_t dim) {
  Operation *def = size.getDefiningOp();
  if (!def || def->getName().getStringRef() != "tensor.dim" ||
      def->getNumOperands() != 2 || def->getOperand(0) != source)
    return false;
  APInt index;
  return matchPattern(def->getOperand(1), m_ConstantInt(&index)) &&
         index.getSExtValue() == dim;
}

OpFoldResult BroadcastInDimOp::fold(FoldAdaptor) {
  RankedTensorType operandType = getOperand().getType();
  if (operandType != getType() || !isIdentity(getBroadcastDimensions()))
    return {};
  // With sizes, the operand may be replicated along a dynamic dim unless
  // each size is the operand's own.
  if (!getSizes().empty()) {
    unsigned next = 0;
    for (int64_t d = 0; d < operandType.getRank(); ++d)
      if (operandType.isDynamicDim(d) &&
          !isDimOf(getSizes()[next++], getOperand(), d))
        return {};
  }
  return getOperand();
}

namespace {
/// broadcast_in_dim(broadcast_in_dim(x, inner), outer)
///   -> broadcast_in_dim(x, outer[inner[i]]) with the outer sizes.
struct ComposeBroadcastInDim : OpRewritePattern<BroadcastInDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastInDimOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<BroadcastInDimOp>();
    if (!inner)
      return failure();
    ArrayRef<int64_t> innerDims = inner.getBroadcastDimensions();
    ArrayRef<int64_t> outerDims = op.getBroadcastDimensions();
    SmallVector<int64_t> dims;
    for (int64_t d : innerDims)
      dims.push_back(outerDims[d]);
    RankedTensorType sourceType = inner.getOperand().getType();
    RankedTensorType resultType = op.getType();
    // The composition is valid for static sizes; a dynamic result dim that
    // came from the inner sizes cannot be expressed without them (C7).
    if (llvm::Error error = verifyBroadcastInDim(
            typeText(sourceType.getElementType()), sourceType.getShape(),
            typeText(resultType.getElementType()), resultType.getShape(),
            dims)) {
      llvm::consumeError(std::move(error));
      return failure();
    }
    if (!checkBroadcastInDimSizes(sourceType, resultType, dims,
                                  op.getSizes().size())
             .empty())
      return failure();
    // Without outer sizes, a dynamic result dim has the run-time size of the
    // intermediate dim j that maps to it; the composed op gives it the size
    // of the source dim i that maps to j. They are equal only if j's size is
    // the source's (no inner sizes), or both are the same static size.
    if (op.getSizes().empty()) {
      RankedTensorType midType = inner.getType();
      for (int64_t d = 0; d < resultType.getRank(); ++d) {
        if (!resultType.isDynamicDim(d))
          continue;
        const int64_t *j = llvm::find(outerDims, d);
        const int64_t *i = llvm::find(innerDims, j - outerDims.begin());
        if (j == outerDims.end() || i == innerDims.end())
          return failure();
        int64_t midSize = midType.getDimSize(j - outerDims.begin());
        int64_t sourceSize = sourceType.getDimSize(i - innerDims.begin());
        if (ShapedType::isDynamic(midSize) ? !inner.getSizes().empty()
                                           : sourceSize != midSize)
          return failure();
      }
    }
    rewriter.replaceOpWithNewOp<BroadcastInDimOp>(
        op, resultType, inner.getOperand(), rewriter.getDenseI64ArrayAttr(dims),
        op.getSizes());
    return success();
  }
};

/// broadcast_in_dim(splat constant) -> splat constant of the result type,
/// built by the constant's own dialect (e.g. arith.constant).
struct FoldBroadcastInDimOfSplat : OpRewritePattern<BroadcastInDimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastInDimOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getType();
    DenseElementsAttr value;
    if (!resultType.hasStaticShape() ||
        !matchPattern(op.getOperand(), m_Constant(&value)) || !value.isSplat())
      return failure();
    Operation *constant = op.getOperand().getDefiningOp();
    Attribute splat =
        DenseElementsAttr::get(resultType, value.getSplatValue<Attribute>());
    Operation *folded = constant->getDialect()->materializeConstant(
        rewriter, splat, resultType, op.getLoc());
    if (!folded)
      return failure();
    rewriter.replaceOp(op, folded->getResults());
    return success();
  }
};
} // namespace

void BroadcastInDimOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<ComposeBroadcastInDim, FoldBroadcastInDimOfSplat>(context);
}

//===----------------------------------------------------------------------===//
// CompareOp
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::verify() {
  ComparisonDirection direction = getComparisonDirection();
  if (isa<ComplexType>(getLhs().getType().getElementType()) &&
      direction != ComparisonDirection::EQ &&
      direction != ComparisonDirection::NE)
    return emitOpError("complex operands support only EQ and NE, but got ")
           << stringifyComparisonDirection(direction);
  return success();
}

#include "layout/Dialect/Layout/IR/LayoutBroadcastOpsEnums.cpp.inc"

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.cpp.inc"
