//===- BroadcastTest.cpp - Tests for Broadcast.h --------------------------===//

#include "layout/Xla/Broadcast.h"
#include "TestHelpers.h"

#include "llvm/Support/Error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using llvm::SmallVector;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace {

constexpr int64_t kDyn = kUnboundedSize;

SmallVector<int64_t, 6> infer(llvm::ArrayRef<int64_t> lhs,
                              llvm::ArrayRef<int64_t> rhs,
                              llvm::ArrayRef<int64_t> dims = {}) {
  return valueOf(inferBinaryOpDims("add", lhs, rhs, dims));
}

std::string inferError(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
                       llvm::ArrayRef<int64_t> dims = {}) {
  return errorOf(inferBinaryOpDims("add", lhs, rhs, dims));
}

//===----------------------------------------------------------------------===//
// The examples of XLA's broadcasting document
//===----------------------------------------------------------------------===//

TEST(BroadcastSeed, VectorToMatrixRows) {
  // (2,3) + (3) with dims (1): the vector is added to every row.
  EXPECT_THAT(infer({2, 3}, {3}, {1}), ElementsAre(2, 3));
  // Either operand order.
  EXPECT_THAT(infer({3}, {2, 3}, {1}), ElementsAre(2, 3));
}

TEST(BroadcastSeed, ScalarToMatrix) {
  EXPECT_THAT(infer({}, {2, 3}), ElementsAre(2, 3));
  EXPECT_THAT(infer({2, 3}, {}), ElementsAre(2, 3));
}

TEST(BroadcastSeed, SquareMatrixBothDimensions) {
  EXPECT_THAT(infer({3, 3}, {3}, {0}), ElementsAre(3, 3));
  EXPECT_THAT(infer({3, 3}, {3}, {1}), ElementsAre(3, 3));
}

TEST(BroadcastSeed, OuterOperation) {
  // (2,1) + (1,3) -> (2,3): degenerate broadcasting.
  EXPECT_THAT(infer({2, 1}, {1, 3}), ElementsAre(2, 3));
}

TEST(BroadcastSeed, Composition) {
  // [4] + [1,2] with dims (0) -> [4,2].
  EXPECT_THAT(infer({4}, {1, 2}, {0}), ElementsAre(4, 2));
  // [1,2] + [4,3,1] with dims (1,2) -> [4,3,2].
  EXPECT_THAT(infer({1, 2}, {4, 3, 1}, {1, 2}), ElementsAre(4, 3, 2));
}

TEST(BroadcastSeed, IncompatibleShapes) {
  // (2,3) + (4): with dims (1) the sizes 4 and 3 mismatch.
  EXPECT_EQ(inferError({2, 3}, {4}, {1}),
            "Broadcast dimension 0 mismatch: 4 != 3; [4] and [2,3].");
  // Same rank, neither size is 1.
  EXPECT_EQ(inferError({2, 3}, {4, 3}),
            "Binary op add with incompatible shapes: [2,3] and [4,3].");
}

//===----------------------------------------------------------------------===//
// XLA's InDim examples (shape_inference.cc comment table)
//===----------------------------------------------------------------------===//

TEST(BroadcastInDim, XlaTable) {
  EXPECT_THAT(infer({3}, {4, 3}, {1}), ElementsAre(4, 3));
  EXPECT_THAT(infer({2, 3}, {2, 3, 4}, {0, 1}), ElementsAre(2, 3, 4));
  EXPECT_THAT(infer({2, 1}, {2, 3, 4}, {0, 2}), ElementsAre(2, 3, 4));
  EXPECT_THAT(infer({2, 3}, {2, 1, 4}, {0, 1}), ElementsAre(2, 3, 4));
}

TEST(BroadcastInDim, XlaInvalidExamples) {
  EXPECT_THAT(inferError({3}, {4, 3}, {0}),
              HasSubstr("Broadcast dimension 0 mismatch: 3 != 4"));
  EXPECT_THAT(inferError({2, 1}, {2, 3, 4}, {1, 2}),
              HasSubstr("Broadcast dimension 0 mismatch: 2 != 3"));
}

//===----------------------------------------------------------------------===//
// Errors, one per XLA message
//===----------------------------------------------------------------------===//

TEST(BroadcastErrors, SameRankNeedsIdentityDims) {
  const char *message =
      "Broadcast dimensions field must either be not set or be the identity "
      "on binary operations with operands of the same rank.";
  EXPECT_EQ(inferError({2, 3}, {2, 3}, {1, 0}), message);
  EXPECT_EQ(inferError({2, 3}, {2, 3}, {0}), message);
  EXPECT_EQ(inferError({2, 3}, {2, 3}, {0, 1, 2}), message);
  // The identity is accepted.
  EXPECT_THAT(infer({2, 3}, {2, 3}, {0, 1}), ElementsAre(2, 3));
}

TEST(BroadcastErrors, MissingDimsForNonScalar) {
  EXPECT_EQ(inferError({3}, {2, 3}),
            "Shapes must be equal rank, but are [3] and [2,3]");
}

TEST(BroadcastErrors, SizeOfBroadcastDimensions) {
  EXPECT_EQ(inferError({2, 3}, {2, 3, 4}, {0}),
            "Size of broadcast_dimensions has to match lower-rank operand's "
            "rank;  lower-rank operand's rank is 2, size of "
            "broadcast_dimensions is 1.");
  // A scalar takes no broadcast dimensions (XLA).
  EXPECT_THAT(inferError({}, {2, 3}, {0}),
              HasSubstr("lower-rank operand's rank is 0, size of "
                        "broadcast_dimensions is 1."));
}

TEST(BroadcastErrors, NegativeDimension) {
  EXPECT_EQ(inferError({3}, {2, 3}, {-1}),
            "Broadcast dimension number (-1) cannot be negative.");
}

TEST(BroadcastErrors, DimensionTooLarge) {
  EXPECT_EQ(inferError({3}, {2, 3}, {2}),
            "Broadcast dimension number (2) too large; higher-rank operand "
            "has rank 2.");
}

TEST(BroadcastErrors, DimensionMismatchNamesOperands) {
  EXPECT_EQ(errorOf(inferBinaryOpDims("multiply", {2, 3, 4}, {5}, {2},
                                      "tensor<2x3x4xf32>", "tensor<5xf32>")),
            "Broadcast dimension 0 mismatch: 5 != 4; tensor<5xf32> and "
            "tensor<2x3x4xf32>.");
}

TEST(BroadcastErrors, OrderIsWrong) {
  // XLA's tests: tensor8_8_8 + matrix8_8 with {0, 0} and {1, 0}.
  EXPECT_EQ(inferError({8, 8, 8}, {8, 8}, {0, 0}),
            "Broadcast dimensions order is wrong: 0 comes after 0.");
  EXPECT_EQ(inferError({8, 8, 8}, {8, 8}, {1, 0}),
            "Broadcast dimensions order is wrong: 0 comes after 1.");
  // XLA's "broadcasting dimensions don't match in this order": the size
  // check comes first.
  EXPECT_THAT(inferError({8, 8, 4}, {4, 8}, {2, 1}),
              HasSubstr("Broadcast dimensions order is wrong: 1 comes after "
                        "2."));
  EXPECT_THAT(inferError({3, 4, 8}, {8, 4}, {2, 1}),
              HasSubstr("Broadcast dimensions order is wrong"));
}

TEST(BroadcastErrors, IncompatibleWithCallerText) {
  EXPECT_EQ(errorOf(inferBinaryOpDims("subtract", {2, 3}, {2, 4}, {},
                                      "tensor<2x3xf32>", "tensor<2x4xf32>")),
            "Binary op subtract with incompatible shapes: tensor<2x3xf32> and "
            "tensor<2x4xf32>.");
  // No op name: current XLA's wording.
  EXPECT_EQ(errorOf(inferBinaryOpDims("", {2}, {3}, {})),
            "Binary op with incompatible shapes: [2] and [3].");
}

//===----------------------------------------------------------------------===//
// Dynamic dims
//===----------------------------------------------------------------------===//

TEST(BroadcastDynamic, Degenerate) {
  // `?` vs 1 -> `?`; `?` vs N -> N; `?` vs `?` -> `?`.
  EXPECT_THAT(infer({kDyn, 3}, {1, 3}), ElementsAre(kDyn, 3));
  EXPECT_THAT(infer({1, 3}, {kDyn, 3}), ElementsAre(kDyn, 3));
  EXPECT_THAT(infer({kDyn, 3}, {5, 3}), ElementsAre(5, 3));
  EXPECT_THAT(infer({5, kDyn}, {kDyn, 3}), ElementsAre(5, 3));
  EXPECT_THAT(infer({kDyn, kDyn}, {kDyn, 1}), ElementsAre(kDyn, kDyn));
}

TEST(BroadcastDynamic, InDim) {
  // XLA's InferInDimBroadcastShape compares sizes as numbers: `?` vs 3 is a
  // mismatch (XlaTextParityTest checks the message).
  EXPECT_FALSE(static_cast<bool>(
      inferBinaryOpShape("add", Shape::makeArray(PrimitiveType::F32, {kDyn}),
                         Shape::makeArray(PrimitiveType::F32, {2, 3}), {1})));
  EXPECT_THAT(infer({kDyn}, {kDyn, kDyn}, {1}), ElementsAre(kDyn, kDyn));
  EXPECT_THAT(infer({1}, {2, kDyn}, {1}), ElementsAre(2, kDyn));
  EXPECT_THAT(infer({kDyn}, {2, 1}, {1}), ElementsAre(2, kDyn));
  EXPECT_THAT(infer({}, {kDyn, 2}), ElementsAre(kDyn, 2));
}

TEST(BroadcastDynamic, ErrorsPrintQuestionMarks) {
  EXPECT_EQ(inferError({kDyn, 2}, {kDyn, 3}),
            "Binary op add with incompatible shapes: [?,2] and [?,3].");
  EXPECT_EQ(inferError({kDyn, 3}, {4}, {1}),
            "Broadcast dimension 0 mismatch: 4 != 3; [4] and [?,3].");
}

//===----------------------------------------------------------------------===//
// inferBinaryOpShape
//===----------------------------------------------------------------------===//

TEST(BroadcastShape, ResultHasDefaultLayout) {
  Shape lhs = Shape::makeArray(PrimitiveType::F32, {2, 3}, Layout({0, 1}));
  Shape rhs = Shape::makeArray(PrimitiveType::F32, {3});
  Shape result = valueOf(inferBinaryOpShape("add", lhs, rhs, {1}));
  EXPECT_EQ(result, Shape::makeArray(PrimitiveType::F32, {2, 3}));
  EXPECT_THAT(result.getLayout().getMinorToMajor(), ElementsAre(1, 0));
}

TEST(BroadcastShape, DocExamples) {
  auto f32 = [](llvm::ArrayRef<int64_t> dims) {
    return Shape::makeArray(PrimitiveType::F32, dims);
  };
  EXPECT_EQ(valueOf(inferBinaryOpShape("add", f32({4}), f32({1, 2}), {0})),
            f32({4, 2}));
  EXPECT_EQ(
      valueOf(inferBinaryOpShape("add", f32({1, 2}), f32({4, 3, 1}), {1, 2})),
      f32({4, 3, 2}));
  EXPECT_EQ(valueOf(inferBinaryOpShape("add", f32({}), f32({2, 3}), {})),
            f32({2, 3}));
}

TEST(BroadcastShape, BoundedDynamism) {
  // <=4 vs 4 -> <=4; <=4 vs 1 -> <=4; 1 vs <=4 -> <=4.
  Shape bounded = Shape::makeArray(PrimitiveType::F32, {4, 3}, {true, false});
  Shape staticShape = Shape::makeArray(PrimitiveType::F32, {4, 3});
  Shape ones = Shape::makeArray(PrimitiveType::F32, {1, 3});
  for (const Shape &other : {staticShape, ones}) {
    Shape result = valueOf(inferBinaryOpShape("add", bounded, other, {}));
    EXPECT_THAT(result.getDims(), ElementsAre(4, 3));
    EXPECT_TRUE(result.isDynamicDim(0));
    EXPECT_FALSE(result.isDynamicDim(1));
    result = valueOf(inferBinaryOpShape("add", other, bounded, {}));
    EXPECT_TRUE(result.isDynamicDim(0));
  }
  // `?` vs <=4 -> <=4 (XLA's code).
  Shape unbounded = Shape::makeArray(PrimitiveType::F32, {kDyn, 3});
  Shape result = valueOf(inferBinaryOpShape("add", unbounded, bounded, {}));
  EXPECT_THAT(result.getDims(), ElementsAre(4, 3));
  EXPECT_TRUE(result.isDynamicDim(0));
  // `?` vs `?` stays unbounded.
  result = valueOf(inferBinaryOpShape("add", unbounded, unbounded, {}));
  EXPECT_TRUE(result.isUnboundedDim(0));
}

TEST(BroadcastShape, BoundedDynamismMismatch) {
  // A bounded <=1 dim is not a static 1: it cannot broadcast to 3.
  Shape smaller = Shape::makeArray(PrimitiveType::F32, {1}, {true});
  Shape larger = Shape::makeArray(PrimitiveType::F32, {2, 3});
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", smaller, larger, {1})),
            "Broadcast dimension 0 dynamism mismatch: f32[<=1] and f32[2,3].");
  // <=3 vs 3 is fine.
  Shape bounded3 = Shape::makeArray(PrimitiveType::F32, {3}, {true});
  Shape result = valueOf(inferBinaryOpShape("add", bounded3, larger, {1}));
  EXPECT_TRUE(result.isDynamicDim(1));
}

TEST(BroadcastShape, Errors) {
  Shape f32 = Shape::makeArray(PrimitiveType::F32, {2, 3});
  Shape s32 = Shape::makeArray(PrimitiveType::S32, {2, 3});
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", f32, s32, {})),
            "Binary op add with different element types: f32[2,3] and "
            "s32[2,3].");
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", Shape::makeToken(), f32, {})),
            "Expected array argument for lhs of binary operation add, but got "
            "token[].");
  EXPECT_EQ(
      errorOf(inferBinaryOpShape(
          "add", f32,
          Shape::makeTuple({f32, Shape::makeArray(PrimitiveType::S32, {})}),
          {})),
      "Expected array argument for rhs of binary operation add, but got "
      "(f32[2,3], s32[]).");
  Shape f32v = Shape::makeArray(PrimitiveType::F32, {4});
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", f32, f32v, {1})),
            "Broadcast dimension 0 mismatch: 4 != 3; f32[4] and f32[2,3].");
  Shape f32w = Shape::makeArray(PrimitiveType::F32, {2, 4});
  EXPECT_EQ(errorOf(inferBinaryOpShape("maximum", f32, f32w, {})),
            "Binary op maximum with incompatible shapes: f32[2,3] and "
            "f32[2,4].");
}

//===----------------------------------------------------------------------===//
// getInDimBroadcastShape
//===----------------------------------------------------------------------===//

TEST(BroadcastExpansion, InDimShape) {
  // [4] + [1,2] dims (0): broadcast_in_dim(lhs) to [4,2] directly.
  EXPECT_THAT(getInDimBroadcastShape({4}, {4, 2}, {0}), ElementsAre(4, 2));
  // [1,2] + [4,3,1] dims (1,2) -> output [4,3,2]: the operand is first
  // broadcast to [4,1,2], then its size-1 dim is expanded.
  EXPECT_THAT(getInDimBroadcastShape({1, 2}, {4, 3, 2}, {1, 2}),
              ElementsAre(4, 1, 2));
  // Scalar: straight to the output.
  EXPECT_THAT(getInDimBroadcastShape({}, {2, 3}, {}), ElementsAre(2, 3));
  // Same rank: the operand keeps its dims (degenerate expansion only).
  EXPECT_THAT(getInDimBroadcastShape({2, 1}, {2, 3}, {}), ElementsAre(2, 1));
  // Out-of-range entries (precondition broken) are ignored, never UB.
  EXPECT_THAT(getInDimBroadcastShape({5}, {2, 3}, {7}), ElementsAre(2, 3));
  EXPECT_THAT(getInDimBroadcastShape({5, 6}, {2, 3, 4}, {0}),
              ElementsAre(5, 3, 4));
}

TEST(BroadcastExpansion, AgreesWithInference) {
  // The in-dim shape is degenerate-compatible with the inferred output.
  struct Case {
    SmallVector<int64_t, 4> operand, other, dims;
  };
  for (const Case &c :
       {Case{{3}, {2, 3}, {1}}, Case{{1, 2}, {4, 3, 1}, {1, 2}},
        Case{{4}, {1, 2}, {0}}, Case{{2, 1}, {2, 3, 4}, {0, 2}}}) {
    SmallVector<int64_t, 6> output = infer(c.operand, c.other, c.dims);
    SmallVector<int64_t, 6> inDim =
        getInDimBroadcastShape(c.operand, output, c.dims);
    EXPECT_THAT(infer(inDim, output), testing::ElementsAreArray(output));
  }
}

//===----------------------------------------------------------------------===//
// verifyBroadcastInDim (StableHLO C1-C5)
//===----------------------------------------------------------------------===//

TEST(BroadcastInDimVerify, ValidCases) {
  auto ok = [](llvm::ArrayRef<int64_t> operand, llvm::ArrayRef<int64_t> result,
               llvm::ArrayRef<int64_t> dims) {
    llvm::Error err = verifyBroadcastInDim("f32", operand, "f32", result, dims);
    bool failed = static_cast<bool>(err);
    if (failed)
      ADD_FAILURE() << llvm::toString(std::move(err));
    return !failed;
  };
  EXPECT_TRUE(ok({1, 3}, {2, 3, 2}, {0, 1}));
  EXPECT_TRUE(ok({3}, {2, 3}, {1}));
  EXPECT_TRUE(ok({}, {2, 3}, {}));
  // Unordered but unique dims are fine (StableHLO; XLA's HLO needs order).
  EXPECT_TRUE(ok({3, 2}, {2, 3}, {1, 0}));
  // A dynamic operand dim is not checked (StableHLO); a static one must
  // match even a dynamic result dim (XlaTextParityTest).
  EXPECT_TRUE(ok({kDyn}, {2, 3}, {1}));
  EXPECT_TRUE(ok({1}, {2, kDyn}, {1}));
}

TEST(BroadcastInDimVerify, C1ElementType) {
  EXPECT_EQ(errorOf(verifyBroadcastInDim("f32", {3}, "f64", {3}, {0})),
            "C1: operand element type f32 must equal result element type f64");
}

TEST(BroadcastInDimVerify, C2Size) {
  EXPECT_EQ(errorOf(verifyBroadcastInDim("f32", {2, 3}, "f32", {2, 3}, {0})),
            "C2: size(broadcast_dimensions) = 1 must equal rank(operand) = 2");
}

TEST(BroadcastInDimVerify, C3Range) {
  EXPECT_EQ(errorOf(verifyBroadcastInDim("f32", {3}, "f32", {2, 3}, {2})),
            "C3: broadcast_dimensions[0] = 2 must be in [0, rank(result) = "
            "2)");
  EXPECT_THAT(errorOf(verifyBroadcastInDim("f32", {3}, "f32", {2, 3}, {-1})),
              HasSubstr("C3: broadcast_dimensions[0] = -1"));
}

TEST(BroadcastInDimVerify, C4Unique) {
  EXPECT_EQ(
      errorOf(verifyBroadcastInDim("f32", {3, 3}, "f32", {3, 3}, {1, 1})),
      "C4: broadcast_dimensions must be unique, but 1 appears at positions 0 "
      "and 1");
}

TEST(BroadcastInDimVerify, C5Sizes) {
  EXPECT_EQ(errorOf(verifyBroadcastInDim("f32", {3}, "f32", {3, 4}, {1})),
            "C5: dim(operand, 0) = 3 must be 1 or equal dim(result, 1) = 4");
}

} // namespace

// XLA's InferElementwiseBinaryOpShape: SameElementTypeIgnoringFpPrecision and
// HigherPrecisionElementType.
TEST(BroadcastShape, MixedFloatPrecision) {
  auto array = [](PrimitiveType type) {
    return Shape::makeArray(type, {2, 3});
  };
  auto resultType = [&](PrimitiveType a, PrimitiveType b) {
    return valueOf(inferBinaryOpShape("add", array(a), array(b), {}))
        .getElementType();
  };
  EXPECT_EQ(resultType(PrimitiveType::BF16, PrimitiveType::F32),
            PrimitiveType::F32);
  EXPECT_EQ(resultType(PrimitiveType::F32, PrimitiveType::BF16),
            PrimitiveType::F32);
  EXPECT_EQ(resultType(PrimitiveType::F64, PrimitiveType::F16),
            PrimitiveType::F64);
  // Range before precision: bf16 (max exponent 128) beats f16 (16).
  EXPECT_EQ(resultType(PrimitiveType::F16, PrimitiveType::BF16),
            PrimitiveType::BF16);
  // Equal range, more precision: f8e4m3fn (9, 4) vs f8e4m3 (8, 4), and
  // f8e5m2 (16, 3) beats both on range.
  EXPECT_EQ(resultType(PrimitiveType::F8E4M3FN, PrimitiveType::F8E4M3),
            PrimitiveType::F8E4M3FN);
  EXPECT_EQ(resultType(PrimitiveType::F8E4M3FN, PrimitiveType::F8E5M2),
            PrimitiveType::F8E5M2);
  EXPECT_EQ(resultType(PrimitiveType::F4E2M1FN, PrimitiveType::F16),
            PrimitiveType::F16);
  // Complex and integer types must match exactly.
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", array(PrimitiveType::C64),
                                       array(PrimitiveType::C128), {})),
            "Binary op add with different element types: c64[2,3] and "
            "c128[2,3].");
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", array(PrimitiveType::U8),
                                       array(PrimitiveType::S8), {})),
            "Binary op add with different element types: u8[2,3] and "
            "s8[2,3].");
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", array(PrimitiveType::F32),
                                       array(PrimitiveType::C64), {})),
            "Binary op add with different element types: f32[2,3] and "
            "c64[2,3].");
}

TEST(PrimitiveTypePrecision, NumericLimits) {
  // std::numeric_limits<T>::max_exponent and ::digits of the C++ types and
  // of ml_dtypes' f8/f4 types.
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::F32), 128);
  EXPECT_EQ(primitiveTypeSignificandWidth(PrimitiveType::F32), 24);
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::F64), 1024);
  EXPECT_EQ(primitiveTypeSignificandWidth(PrimitiveType::F64), 53);
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::F16), 16);
  EXPECT_EQ(primitiveTypeSignificandWidth(PrimitiveType::F16), 11);
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::BF16), 128);
  EXPECT_EQ(primitiveTypeSignificandWidth(PrimitiveType::BF16), 8);
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::F8E4M3FN), 9);
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::F8E5M2), 16);
  EXPECT_EQ(primitiveTypeSignificandWidth(PrimitiveType::F8E5M2), 3);
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::F4E2M1FN), 3);
  EXPECT_EQ(primitiveTypeSignificandWidth(PrimitiveType::F8E8M0FNU), 1);
  EXPECT_EQ(primitiveTypeOverflowExponent(PrimitiveType::S32), std::nullopt);
  EXPECT_EQ(primitiveTypeSignificandWidth(PrimitiveType::C64), std::nullopt);
}
