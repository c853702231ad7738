//===- Broadcast.cpp - XLA broadcasting rules -----------------------------===//
//
// Semantics: docs/semantics.md §5.
//
// Ports of XLA's ShapeInference::InferElementwiseBinaryOpShape,
// InferInDimBroadcastShape and InferDegenerateDimensionBroadcastShape (error
// texts copied from xla/service/shape_inference.cc), and the StableHLO
// broadcast_in_dim constraints.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Broadcast.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <string>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::Twine;

namespace {
/// One dimension: its size (kUnboundedSize for `?`) and whether it is
/// dynamic (`<=N` or `?`).
struct DimInfo {
  int64_t size;
  bool dynamic;
  bool isUnbounded() const { return size == kUnboundedSize; }
};
using DimInfos = SmallVector<DimInfo, 6>;
} // namespace

static std::string dimText(int64_t size) {
  return size == kUnboundedSize ? std::string("?") : std::to_string(size);
}

static std::string dimsText(ArrayRef<DimInfo> dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      text += ",";
    if (dims[i].dynamic && !dims[i].isUnbounded())
      text += "<=";
    text += dimText(dims[i].size);
  }
  return text + "]";
}

/// XLA's ShapeUtil::HumanString: `f32[2,<=3,?]`, `(f32[2], s32[])`,
/// `token[]`. No layout.
static std::string humanString(const Shape &shape) {
  if (shape.isTuple()) {
    std::string text = "(";
    llvm::ListSeparator sep(", ");
    for (const Shape &element : shape.getTupleShapes())
      text += (Twine(sep) + humanString(element)).str();
    return text + ")";
  }
  std::string text = primitiveTypeName(shape.getElementType()).str();
  if (!shape.isArray())
    return text + "[]";
  DimInfos dims;
  for (int64_t i = 0; i < shape.getRank(); ++i)
    dims.push_back({shape.getDim(i), shape.isDynamicDim(i)});
  return text + dimsText(dims);
}

static DimInfos toDimInfos(ArrayRef<int64_t> dims) {
  DimInfos infos;
  for (int64_t d : dims)
    infos.push_back({d, d == kUnboundedSize});
  return infos;
}

static SmallVector<int64_t, 6> sizesOf(ArrayRef<DimInfo> dims) {
  return llvm::to_vector<6>(
      llvm::map_range(dims, [](const DimInfo &d) { return d.size; }));
}

/// "Binary op add" or, without an op name, XLA's newer "Binary op".
static std::string binaryOpPrefix(llvm::StringRef opName) {
  return opName.empty() ? std::string("Binary op")
                        : ("Binary op " + opName).str();
}

/// InferDegenerateDimensionBroadcastShape. Pre: equal ranks.
static llvm::Expected<DimInfos> inferDegenerate(llvm::StringRef opName,
                                                ArrayRef<DimInfo> lhs,
                                                ArrayRef<DimInfo> rhs,
                                                llvm::StringRef lhsText,
                                                llvm::StringRef rhsText) {
  DimInfos result;
  for (size_t i = 0; i < lhs.size(); ++i) {
    const DimInfo &l = lhs[i], &r = rhs[i];
    if (l.size == 1 || r.size == 1) {
      // 1 broadcasts to the other size, whatever its dynamism.
      result.push_back(l.size == 1 ? r : l);
    } else if (l.size == r.size) {
      result.push_back({l.size, l.dynamic || r.dynamic});
    } else if (l.isUnbounded() || r.isUnbounded()) {
      // `?` vs N: the known size wins.
      result.push_back(l.isUnbounded() ? r : l);
    } else {
      return makeError(binaryOpPrefix(opName) + " with incompatible shapes: " +
                       lhsText + " and " + rhsText + ".");
    }
  }
  return result;
}

/// InferInDimBroadcastShape: `larger` with the mapped dims replaced by
/// `smaller`'s.
static llvm::Expected<DimInfos> inferInDim(ArrayRef<DimInfo> smaller,
                                           ArrayRef<DimInfo> larger,
                                           ArrayRef<int64_t> broadcastDims,
                                           llvm::StringRef smallerText,
                                           llvm::StringRef largerText) {
  if (broadcastDims.empty() && !smaller.empty())
    // XLA rejects "magic" rank inference; dims must be explicit.
    return makeError("Shapes must be equal rank, but are " + smallerText +
                     " and " + largerText);
  if (broadcastDims.size() != smaller.size())
    return makeError(
        "Size of broadcast_dimensions has to match lower-rank operand's "
        "rank;  lower-rank operand's rank is " +
        Twine(smaller.size()) + ", size of broadcast_dimensions is " +
        Twine(broadcastDims.size()) + ".");
  DimInfos output(larger.begin(), larger.end());
  int64_t largerRank = static_cast<int64_t>(larger.size());
  for (size_t i = 0; i < smaller.size(); ++i) {
    int64_t dimToMatch = broadcastDims[i];
    if (dimToMatch < 0)
      return makeError("Broadcast dimension number (" + Twine(dimToMatch) +
                       ") cannot be negative.");
    if (dimToMatch >= largerRank)
      return makeError("Broadcast dimension number (" + Twine(dimToMatch) +
                       ") too large; higher-rank operand has rank " +
                       Twine(largerRank) + ".");
    const DimInfo &small = smaller[i];
    const DimInfo &large = larger[dimToMatch];
    // Compatible: equal or degenerate (expanded by the degenerate broadcast
    // that follows). As in XLA, the sizes are compared as numbers, so an
    // unbounded `?` (kUnboundedSize) matches only `?` or 1, and the message
    // prints it with %d.
    bool compatible =
        small.size == large.size || small.size == 1 || large.size == 1;
    if (!compatible)
      return makeError("Broadcast dimension " + Twine(i) + " mismatch: " +
                       Twine(small.size) + " != " + Twine(large.size) + "; " +
                       smallerText + " and " + largerText + ".");
    // A bounded `<=1` dim may be 0 or 1 at run time: it cannot stand for
    // a static size-1 broadcast (XLA's dynamism check, bounded dims only).
    if (small.dynamic != large.dynamic && !small.isUnbounded() &&
        !large.isUnbounded() && small.size != large.size &&
        !(small.size == 1 && !small.dynamic) &&
        !(large.size == 1 && !large.dynamic))
      return makeError("Broadcast dimension " + Twine(i) +
                       " dynamism mismatch: " + smallerText + " and " +
                       largerText + ".");
    if (i > 0 && broadcastDims[i - 1] >= dimToMatch)
      return makeError(
          "Broadcast dimensions order is wrong: " + Twine(dimToMatch) +
          " comes after " + Twine(broadcastDims[i - 1]) + ".");
    output[dimToMatch] = small;
  }
  return output;
}

/// InferElementwiseBinaryOpShape, dims part.
static llvm::Expected<DimInfos>
inferBinary(llvm::StringRef opName, ArrayRef<DimInfo> lhs,
            ArrayRef<DimInfo> rhs, ArrayRef<int64_t> broadcastDims,
            llvm::StringRef lhsText, llvm::StringRef rhsText) {
  if (lhs.size() == rhs.size()) {
    bool identity = llvm::all_of(llvm::enumerate(broadcastDims), [](auto it) {
      return it.value() == static_cast<int64_t>(it.index());
    });
    if (!broadcastDims.empty() &&
        (broadcastDims.size() != lhs.size() || !identity))
      return makeError("Broadcast dimensions field must either be not set or "
                       "be the identity on binary operations with operands "
                       "of the same rank.");
    return inferDegenerate(opName, lhs, rhs, lhsText, rhsText);
  }
  bool lhsIsLarger = lhs.size() > rhs.size();
  ArrayRef<DimInfo> larger = lhsIsLarger ? lhs : rhs;
  ArrayRef<DimInfo> smaller = lhsIsLarger ? rhs : lhs;
  llvm::StringRef largerText = lhsIsLarger ? lhsText : rhsText;
  llvm::StringRef smallerText = lhsIsLarger ? rhsText : lhsText;
  llvm::Expected<DimInfos> inDim =
      inferInDim(smaller, larger, broadcastDims, smallerText, largerText);
  if (!inDim)
    return inDim.takeError();
  // Cannot fail: InDim checked every mapped pair and left the rest equal.
  return inferDegenerate(opName, *inDim, larger, dimsText(*inDim), largerText);
}

llvm::Expected<SmallVector<int64_t, 6>> mlir::layout::inferBinaryOpDims(
    llvm::StringRef opName, ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs,
    ArrayRef<int64_t> broadcastDims, llvm::StringRef lhsText,
    llvm::StringRef rhsText) {
  DimInfos lhsDims = toDimInfos(lhs), rhsDims = toDimInfos(rhs);
  std::string lhsName = lhsText.empty() ? dimsText(lhsDims) : lhsText.str();
  std::string rhsName = rhsText.empty() ? dimsText(rhsDims) : rhsText.str();
  llvm::Expected<DimInfos> result =
      inferBinary(opName, lhsDims, rhsDims, broadcastDims, lhsName, rhsName);
  if (!result)
    return result.takeError();
  return sizesOf(*result);
}

llvm::Error mlir::layout::checkBinaryOpElementType(llvm::StringRef opName,
                                                   PrimitiveType lhs,
                                                   PrimitiveType rhs) {
  static constexpr llvm::StringLiteral kArithmeticOnly[] = {
      "subtract",           "divide",
      "remainder",          "power",
      "shift-left",         "shift-right-arithmetic",
      "shift-right-logical"};
  bool rejectsPred = llvm::is_contained(kArithmeticOnly, opName);
  if (rejectsPred && (lhs == PrimitiveType::Pred || rhs == PrimitiveType::Pred))
    return makeError("Expected element type in shape to be arithmetic type "
                     "for operation " +
                     opName + "; got PRED.");
  return llvm::Error::success();
}

llvm::Expected<Shape>
mlir::layout::inferBinaryOpShape(llvm::StringRef opName, const Shape &lhs,
                                 const Shape &rhs,
                                 ArrayRef<int64_t> broadcastDims) {
  for (auto [shape, side] :
       {std::pair<const Shape *, const char *>{&lhs, "lhs"}, {&rhs, "rhs"}})
    if (!shape->isArray())
      return makeError("Expected array argument for " + Twine(side) +
                       " of binary operation " + opName + ", but got " +
                       humanString(*shape) + ".");
  // XLA's InferElementwiseBinaryOpShape: floating-point operands may differ
  // in precision, and the result has the higher one (bf16 + f32 -> f32).
  if (!sameElementTypeIgnoringFpPrecision(lhs.getElementType(),
                                          rhs.getElementType()))
    return makeError(binaryOpPrefix(opName) +
                     " with different element types: " + humanString(lhs) +
                     " and " + humanString(rhs) + ".");
  if (llvm::Error err = checkBinaryOpElementType(opName, lhs.getElementType(),
                                                 rhs.getElementType()))
    return std::move(err);
  DimInfos lhsDims, rhsDims;
  for (int64_t i = 0; i < lhs.getRank(); ++i)
    lhsDims.push_back({lhs.getDim(i), lhs.isDynamicDim(i)});
  for (int64_t i = 0; i < rhs.getRank(); ++i)
    rhsDims.push_back({rhs.getDim(i), rhs.isDynamicDim(i)});
  llvm::Expected<DimInfos> result =
      inferBinary(opName, lhsDims, rhsDims, broadcastDims, humanString(lhs),
                  humanString(rhs));
  if (!result)
    return result.takeError();
  SmallVector<bool, 6> dynamic = llvm::to_vector<6>(
      llvm::map_range(*result, [](const DimInfo &d) { return d.dynamic; }));
  PrimitiveType elementType =
      higherPrecisionType(lhs.getElementType(), rhs.getElementType());
  Shape shape = Shape::makeArray(elementType, sizesOf(*result), dynamic);
  // Degenerate broadcasting can multiply sizes: f32[2^40,1] + f32[1,2^40].
  std::optional<int64_t> size = primitiveTypeByteWidth(elementType);
  for (int64_t d : shape.getDims())
    if (d != kUnboundedSize && size)
      size = llvm::checkedMul(*size, d);
  if (!size)
    return makeError(binaryOpPrefix(opName) + " result shape " +
                     humanString(shape) +
                     " has a size that may overflow int64.");
  return shape;
}

SmallVector<int64_t, 6>
mlir::layout::getInDimBroadcastShape(ArrayRef<int64_t> operandDims,
                                     ArrayRef<int64_t> outputDims,
                                     ArrayRef<int64_t> broadcastDims) {
  // Same rank: no InDim step; the operand keeps its own dims.
  if (operandDims.size() == outputDims.size())
    return SmallVector<int64_t, 6>(operandDims);
  SmallVector<int64_t, 6> dims(outputDims);
  // Entries that break the precondition are skipped rather than trusted.
  for (size_t i = 0; i < operandDims.size() && i < broadcastDims.size(); ++i) {
    int64_t dim = broadcastDims[i];
    if (dim >= 0 && dim < static_cast<int64_t>(dims.size()))
      dims[dim] = operandDims[i];
  }
  return dims;
}

llvm::Error mlir::layout::verifyBroadcastInDim(
    llvm::StringRef operandElementType, ArrayRef<int64_t> operandDims,
    llvm::StringRef resultElementType, ArrayRef<int64_t> resultDims,
    ArrayRef<int64_t> dims) {
  if (operandElementType != resultElementType)
    return makeError("C1: operand element type " + operandElementType +
                     " must equal result element type " + resultElementType);
  if (dims.size() != operandDims.size())
    return makeError(
        "C2: size(broadcast_dimensions) = " + Twine(dims.size()) +
        " must equal rank(operand) = " + Twine(operandDims.size()));
  int64_t resultRank = static_cast<int64_t>(resultDims.size());
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0 || dims[i] >= resultRank)
      return makeError(
          "C3: broadcast_dimensions[" + Twine(i) + "] = " + Twine(dims[i]) +
          " must be in [0, rank(result) = " + Twine(resultRank) + ")");
  for (size_t i = 0; i < dims.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (dims[i] == dims[j])
        return makeError("C4: broadcast_dimensions must be unique, but " +
                         Twine(dims[i]) + " appears at positions " + Twine(j) +
                         " and " + Twine(i));
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t operandSize = operandDims[i];
    int64_t resultSize = resultDims[dims[i]];
    // StableHLO's verifyBroadcastInDimOp checks C5 only for a static
    // operand dim, and then also against a dynamic result dim.
    if (operandSize == kUnboundedSize || operandSize == 1 ||
        operandSize == resultSize)
      continue;
    return makeError("C5: dim(operand, " + Twine(i) + ") = " +
                     dimText(operandSize) + " must be 1 or equal dim(result, " +
                     Twine(dims[i]) + ") = " + dimText(resultSize));
  }
  return llvm::Error::success();
}
