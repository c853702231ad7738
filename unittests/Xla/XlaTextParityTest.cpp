//===- XlaTextParityTest.cpp - HLO text and inference against XLA --------===//
//
// Behaviours checked against XLA's own sources, one test each:
// xla/shape_util.cc (PrintTupleShapes), xla/hlo/parser/hlo_parser.cc
// (ParseShape, ParseTiles, ParseSplitConfigs, ParseShapeOnly),
// xla/layout_util.cc (ValidateLayoutForShape), xla/layout.cc (Print),
// xla/service/shape_inference.cc (InferInDimBroadcastShape) and
// stablehlo/dialect/TypeInference.cpp (verifyBroadcastInDimOp). Expected
// strings are written from those sources, not from this project's output.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Broadcast.h"
#include "layout/Xla/Shape.h"

#include <gtest/gtest.h>

using namespace mlir::layout;

namespace {

std::string errorOf(llvm::Error err) {
  return err ? llvm::toString(std::move(err)) : std::string();
}

template <typename T> std::string errorOf(llvm::Expected<T> value) {
  return value ? std::string() : llvm::toString(value.takeError());
}

Shape array(llvm::ArrayRef<int64_t> dims) {
  return Shape::makeArray(PrimitiveType::F32, dims);
}

// PrintTupleShapes: ", /*index=N*/" before every fifth element.
TEST(XlaTextParity, LongTuplesPrintIndexComments) {
  std::vector<Shape> elements;
  for (int64_t i = 1; i <= 11; ++i)
    elements.push_back(array({i}));
  std::string text = printShape(Shape::makeTuple(elements));
  EXPECT_EQ(text, "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, f32[5]{0}, "
                  "/*index=5*/f32[6]{0}, f32[7]{0}, f32[8]{0}, f32[9]{0}, "
                  "f32[10]{0}, /*index=10*/f32[11]{0})");
  // Five elements: no comment.
  elements.resize(5);
  EXPECT_EQ(printShape(Shape::makeTuple(elements)).find("/*"),
            std::string::npos);
}

// XLA's lexer skips comments, so the printed text parses back.
TEST(XlaTextParity, IndexCommentsRoundTrip) {
  llvm::StringRef text = "(f32[1]{0}, f32[2]{0}, f32[3]{0}, f32[4]{0}, "
                         "f32[5]{0}, /*index=5*/f32[6]{0})";
  llvm::Expected<Shape> shape = parseShape(text);
  ASSERT_TRUE(static_cast<bool>(shape)) << errorOf(shape.takeError());
  ASSERT_EQ(shape->getTupleShapes().size(), 6u);
  EXPECT_EQ(shape->getTupleShapes()[5].getDims(), llvm::ArrayRef<int64_t>({6}));
  EXPECT_EQ(printShape(*shape), text);
  // An unterminated comment is not skipped.
  EXPECT_NE(errorOf(parseShape("(f32[1], /*index=1 f32[2])")), "");
}

// ParseTiles accepts an empty tile; ValidateLayoutForShape rejects it with
// "layout has invalid tiles: <shape>".
TEST(XlaTextParity, EmptyTileParsesAndValidationRejectsIt) {
  llvm::Expected<Layout> layout = parseLayout("{0:T()}");
  ASSERT_TRUE(static_cast<bool>(layout)) << errorOf(layout.takeError());
  ASSERT_EQ(layout->getTiles().size(), 1u);
  EXPECT_EQ(layout->getTiles()[0].size(), 0u);
  std::string message = errorOf(
      validateShape(Shape::makeArray(PrimitiveType::F32, {2}, *layout)));
  EXPECT_EQ(message.rfind("layout has invalid tiles: f32[2]{0:T()}", 0), 0u)
      << message;
  EXPECT_EQ(errorOf(parseShape("f32[2]{0:T()}"))
                .rfind("layout has invalid tiles: f32[2]{0:T()}", 0),
            0u);
}

// ParseShape takes `{` as a layout only before an integer or ':'; XLA's
// ParseShapeOnly then reports the brace as extra content.
TEST(XlaTextParity, BracesAfterAScalarAreExtraContent) {
  EXPECT_EQ(errorOf(parseShape("f32[]{}")),
            "column 6: Extra content after shape: '{}'");
  EXPECT_EQ(errorOf(parseShape("f32[2]{ }")),
            "column 7: Extra content after shape: '{ }'");
  // With a colon it is a layout (a scalar in memory space 1).
  llvm::Expected<Shape> spaced = parseShape("f32[]{:S(1)}");
  ASSERT_TRUE(static_cast<bool>(spaced)) << errorOf(spaced.takeError());
  EXPECT_EQ(spaced->getLayout().getMemorySpace(), 1);
  EXPECT_EQ(printShape(*spaced), "f32[]{:S(1)}");
  // A layout alone may still be empty (the scalar's layout).
  EXPECT_EQ(errorOf(parseLayout("{}")), "");
}

// `*` is XLA's kCombineDimension (-1); any other negative entry is refused
// and never confused with `*`.
TEST(XlaTextParity, NegativeTileDims) {
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:T(-2)}")),
            "column 12: tile dimension -2 is negative; tile entries must be "
            "positive or '*'");
  EXPECT_NE(errorOf(parseLayout("{0:T(2,-5)}")).find("tile dimension -5"),
            std::string::npos);
  llvm::Expected<Shape> combine = parseShape("f32[4,4]{1,0:T(*,2)}");
  ASSERT_TRUE(static_cast<bool>(combine)) << errorOf(combine.takeError());
  EXPECT_EQ(combine->getLayout().getTiles()[0].getDim(0),
            Tile::kCombineDimension);
  // Built programmatically, -3 is caught by validation.
  Layout layout = Layout::getDefault(1);
  layout.mutableTiles().push_back(Tile({-3}));
  EXPECT_NE(
      errorOf(validateShape(Shape::makeArray(PrimitiveType::F32, {4}, layout)))
          .find("tile entries must be positive or '*'"),
      std::string::npos);
}

// Layout::Print order D, T, L, #, *, E, S, SC, P, M; `#(..)` and `*(..)`
// round-trip on a sparse layout.
TEST(XlaTextParity, SparseOnlyFieldsRoundTrip) {
  for (llvm::StringRef text :
       {"f32[4]{0:D(C)#(u32)*(u16)}", "f32[4,4]{1,0:D(D,C+~)#(u8)*(u64)}",
        "f32[4,4]{1,0:D(D,C)#(u8)*(u64)S(1)P(s32[4,4]{1,0})}"}) {
    llvm::Expected<Shape> shape = parseShape(text);
    ASSERT_TRUE(static_cast<bool>(shape)) << errorOf(shape.takeError());
    EXPECT_EQ(printShape(*shape), text);
  }
  llvm::Expected<Shape> shape = parseShape("f32[4]{0:D(C)#(u32)*(u16)}");
  ASSERT_TRUE(static_cast<bool>(shape));
  EXPECT_EQ(shape->getLayout().getIndexPrimitiveType(), PrimitiveType::U32);
  EXPECT_EQ(shape->getLayout().getPointerPrimitiveType(), PrimitiveType::U16);
  // On a dense array XLA's validator refuses them.
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:#(u32)}")),
            "layout has a index_primitive_type, but is not a sparse array: "
            "f32[4]{0:#(u32)}");
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:*(u32)}")),
            "layout has a pointer_primitive_type, but is not a sparse array: "
            "f32[4]{0:*(u32)}");
}

// ParseSplitConfigs / ParseList messages, token names from TokKindToString.
TEST(XlaTextParity, SplitConfigMessages) {
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:SC}")),
            "column 12: expects split configs to start with kLparen");
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:SC(x:1)}")),
            "column 13: expects integer");
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:SC(0,1)}")),
            "column 14: expects a list starting with kColon");
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:SC(0:1,)}")),
            "column 17: expects integer");
  EXPECT_EQ(errorOf(parseShape("f32[4]{0:SC(0:1}")),
            "column 16: expects a list to end with kRparen");
  // Several configs follow one SC; printed as XLA's SplitConfig::ToString.
  llvm::Expected<Shape> shape = parseShape("f32[8,6]{1,0:SC(0:2,4)(1:3)}");
  ASSERT_TRUE(static_cast<bool>(shape)) << errorOf(shape.takeError());
  EXPECT_EQ(printShape(*shape), "f32[8,6]{1,0:SC(0:2,4)(1:3)}");
}

// InferInDimBroadcastShape compares the sizes as numbers: an unbounded `?`
// (kUnboundedSize, printed with %d) matches only itself or a 1.
TEST(XlaTextParity, UnboundedInDimMismatch) {
  Shape unbounded = Shape::makeArray(PrimitiveType::F32, {kUnboundedSize});
  Shape matrix = array({2, 3});
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", unbounded, matrix, {1})),
            "Broadcast dimension 0 mismatch: -9223372036854775808 != 3; "
            "f32[?] and f32[2,3].");
  EXPECT_EQ(
      errorOf(inferBinaryOpShape(
          "add", array({3}),
          Shape::makeArray(PrimitiveType::F32, {2, kUnboundedSize}), {1})),
      "Broadcast dimension 0 mismatch: 3 != -9223372036854775808; "
      "f32[3] and f32[2,?].");
  // `?` against `?` and against 1 are fine.
  EXPECT_EQ(
      errorOf(inferBinaryOpShape(
          "add", unbounded,
          Shape::makeArray(PrimitiveType::F32, {2, kUnboundedSize}), {1})),
      "");
  EXPECT_EQ(errorOf(inferBinaryOpShape("add", unbounded, array({2, 1}), {1})),
            "");
}

// verifyBroadcastInDimOp: a static operand dim must be 1 or equal the
// result dim, even when the result dim is dynamic; a dynamic operand dim is
// not checked.
TEST(XlaTextParity, BroadcastInDimIntoDynamicResult) {
  EXPECT_EQ(
      errorOf(verifyBroadcastInDim("f32", {3}, "f32", {kUnboundedSize}, {0})),
      "C5: dim(operand, 0) = 3 must be 1 or equal dim(result, 0) = ?");
  EXPECT_EQ(
      errorOf(verifyBroadcastInDim("f32", {1}, "f32", {kUnboundedSize}, {0})),
      "");
  EXPECT_EQ(
      errorOf(verifyBroadcastInDim("f32", {kUnboundedSize}, "f32", {5}, {0})),
      "");
  EXPECT_EQ(errorOf(verifyBroadcastInDim("f32", {kUnboundedSize}, "f32",
                                         {kUnboundedSize}, {0})),
            "");
}

} // namespace
