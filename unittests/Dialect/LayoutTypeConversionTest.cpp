//===- LayoutTypeConversionTest.cpp - XLA shapes <-> MLIR types -----------===//
//
// The table of LayoutTypeConversion.h, entry by entry, both directions.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::layout;

namespace {

class LayoutTypeConversionTest : public ::testing::Test {
protected:
  LayoutTypeConversionTest() {
    context.loadDialect<LayoutDialect>();
    // Collect diagnostics instead of printing them.
    handler = context.getDiagEngine().registerHandler([this](Diagnostic &d) {
      diagnostics.push_back(d.str());
      return success();
    });
  }
  ~LayoutTypeConversionTest() override {
    context.getDiagEngine().eraseHandler(handler);
  }

  std::function<InFlightDiagnostic()> emitter() {
    return [this]() { return mlir::emitError(UnknownLoc::get(&context)); };
  }

  /// XLA text -> MLIR type text ("error: ..." on failure).
  std::string toType(StringRef text, ArrayTypeKind kind) {
    llvm::Expected<layout::Shape> shape = parseShape(text);
    if (!shape)
      return "parse error: " + llvm::toString(shape.takeError());
    FailureOr<Type> type =
        convertShapeToType(*shape, &context, kind, emitter());
    if (failed(type))
      return "error: " + (diagnostics.empty() ? "" : diagnostics.back());
    std::string s;
    llvm::raw_string_ostream os(s);
    type->print(os);
    return s;
  }

  /// MLIR type -> XLA text ("error: ..." on failure).
  std::string toShape(Type type) {
    FailureOr<layout::Shape> shape = convertTypeToShape(type, emitter());
    if (failed(shape))
      return "error: " + (diagnostics.empty() ? "" : diagnostics.back());
    return printShape(*shape);
  }

  MLIRContext context;
  DiagnosticEngine::HandlerID handler;
  std::vector<std::string> diagnostics;
};

TEST_F(LayoutTypeConversionTest, EveryElementTypeRoundTrips) {
  int converted = 0;
  for (int i = static_cast<int>(PrimitiveType::Pred);
       i <= static_cast<int>(PrimitiveType::F8E8M0FNU); ++i) {
    auto xla = static_cast<PrimitiveType>(i);
    Type mlir = convertElementType(xla, &context);
    ASSERT_TRUE(mlir) << primitiveTypeName(xla).str();
    std::optional<PrimitiveType> back = convertElementType(mlir);
    ASSERT_TRUE(back.has_value()) << primitiveTypeName(xla).str();
    EXPECT_EQ(*back, xla) << primitiveTypeName(xla).str();
    ++converted;
  }
  EXPECT_EQ(converted, 30); // every array element type of docs/semantics.md §1
  EXPECT_FALSE(convertElementType(PrimitiveType::Token, &context));
  EXPECT_FALSE(convertElementType(PrimitiveType::Tuple, &context));
}

TEST_F(LayoutTypeConversionTest, ElementTypeTable) {
  Builder b(&context);
  auto name = [&](PrimitiveType t) {
    std::string s;
    llvm::raw_string_ostream os(s);
    convertElementType(t, &context).print(os);
    return s;
  };
  EXPECT_EQ(name(PrimitiveType::Pred), "i1");
  EXPECT_EQ(name(PrimitiveType::S1), "si1");
  EXPECT_EQ(name(PrimitiveType::S4), "i4");
  EXPECT_EQ(name(PrimitiveType::S32), "i32");
  EXPECT_EQ(name(PrimitiveType::U8), "ui8");
  EXPECT_EQ(name(PrimitiveType::BF16), "bf16");
  EXPECT_EQ(name(PrimitiveType::F8E4M3FN), "f8E4M3FN");
  EXPECT_EQ(name(PrimitiveType::F4E2M1FN), "f4E2M1FN");
  EXPECT_EQ(name(PrimitiveType::C64), "complex<f32>");
  EXPECT_EQ(name(PrimitiveType::C128), "complex<f64>");
  // siN is accepted on the way in; index and f80 have no XLA equivalent.
  EXPECT_EQ(convertElementType(b.getIntegerType(16, /*isSigned=*/true)),
            PrimitiveType::S16);
  EXPECT_FALSE(convertElementType(b.getIndexType()).has_value());
  EXPECT_FALSE(convertElementType(b.getF80Type()).has_value());
}

TEST_F(LayoutTypeConversionTest, ArraysToTensorsAndMemRefs) {
  EXPECT_EQ(toType("f32[3,5]{1,0:T(2,2)}", ArrayTypeKind::Tensor),
            "tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>");
  EXPECT_EQ(toType("f32[3,5]{1,0:T(2,2)}", ArrayTypeKind::MemRef),
            "memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>");
  // The default layout is no encoding / the identity layout.
  EXPECT_EQ(toType("s32[2,3]", ArrayTypeKind::Tensor), "tensor<2x3xi32>");
  EXPECT_EQ(toType("u8[4]{0}", ArrayTypeKind::MemRef), "memref<4xui8>");
  // Column-major is a layout like any other.
  EXPECT_EQ(toType("f32[2,3]{0,1}", ArrayTypeKind::MemRef),
            "memref<2x3xf32, #layout.tiled<{0,1}>>");
  // Dynamic dims: `?` and `<=N` both become `?` (the bound is lost).
  EXPECT_EQ(toType("f32[?,<=4]", ArrayTypeKind::Tensor), "tensor<?x?xf32>");
  // S(n) is the memref memory space.
  EXPECT_EQ(toType("f32[8,8]{1,0:T(4,4)S(1)}", ArrayTypeKind::MemRef),
            "memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>");
  // `*` layouts get the dims (an exact getAffineMap() for upstream passes).
  EXPECT_EQ(toType("f32[2,3,4]{2,1,0:T(*,8)}", ArrayTypeKind::MemRef),
            "memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>");
  // Scalars and tuples.
  EXPECT_EQ(toType("pred[]", ArrayTypeKind::Tensor), "tensor<i1>");
  EXPECT_EQ(toType("(f32[2], s8[])", ArrayTypeKind::Tensor),
            "tuple<tensor<2xf32>, tensor<i8>>");
}

TEST_F(LayoutTypeConversionTest, TokenAndOpaqueHaveNoBuiltinType) {
  EXPECT_EQ(toType("token[]", ArrayTypeKind::Tensor).rfind("error: ", 0), 0u);
  EXPECT_EQ(toType("opaque[]", ArrayTypeKind::MemRef).rfind("error: ", 0), 0u);
}

TEST_F(LayoutTypeConversionTest, TypesToShapes) {
  Builder b(&context);
  Type f32 = b.getF32Type();
  auto tiled = TiledLayoutAttr::get(&context, "{1,0:T(2,2)}", {});
  EXPECT_EQ(toShape(MemRefType::get({3, 5}, f32, tiled)),
            "f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(toShape(RankedTensorType::get({3, 5}, f32, tiled)),
            "f32[3,5]{1,0:T(2,2)}");
  // A `*` layout with or without dims: the same shape.
  auto star = TiledLayoutAttr::get(&context, "{2,1,0:T(*,8)}", {});
  EXPECT_EQ(toShape(MemRefType::get({2, 3, 4}, f32, star)),
            "f32[2,3,4]{2,1,0:T(*,8)}");
  EXPECT_EQ(
      toShape(RankedTensorType::get({2, 3, 4}, f32, star.withDims({2, 3, 4}))),
      "f32[2,3,4]{2,1,0:T(*,8)}");
  EXPECT_EQ(toShape(MemRefType::get({2, 3}, b.getIntegerType(32))),
            "s32[2,3]{1,0}");
  EXPECT_EQ(toShape(RankedTensorType::get({ShapedType::kDynamic, 4}, f32)),
            "f32[?,4]{1,0}");
  EXPECT_EQ(toShape(b.getF64Type()), "f64[]");
  // An integer memory space joins the layout as S(n).
  auto space = b.getI64IntegerAttr(2);
  EXPECT_EQ(
      toShape(MemRefType::get({4}, f32, MemRefLayoutAttrInterface(), space)),
      "f32[4]{0:S(2)}");
  // A type whose element has no XLA equivalent is an error, not a crash.
  EXPECT_EQ(toShape(MemRefType::get({4}, b.getIndexType())).rfind("error: ", 0),
            0u);
}

TEST_F(LayoutTypeConversionTest, RoundTripThroughTypes) {
  for (StringRef text :
       {"f32[3,5]{1,0:T(2,2)}", "bf16[16,256]{1,0:T(8,128)(2,1)}",
        "f32[2,3]{0,1:PAD(3,5)PV(zero)}", "s8[4,?]{0,1}", "u64[7]{0:L(4)}"}) {
    llvm::Expected<layout::Shape> shape = parseShape(text);
    ASSERT_TRUE(static_cast<bool>(shape)) << llvm::toString(shape.takeError());
    FailureOr<Type> type =
        convertShapeToType(*shape, &context, ArrayTypeKind::MemRef, emitter());
    ASSERT_TRUE(succeeded(type)) << text.str();
    EXPECT_EQ(toShape(*type), printShape(*shape)) << text.str();
  }
}

} // namespace

namespace {
TEST_F(LayoutTypeConversionTest, StaticArrayShapeOnlyForStaticArrays) {
  Builder b(&context);
  Type f32 = b.getF32Type();
  auto tiled = TiledLayoutAttr::get(&context, "{1,0:T(2,2)}", {});
  ASSERT_TRUE(tiled);
  std::optional<layout::Shape> shape =
      getStaticArrayShape(MemRefType::get({3, 5}, f32, tiled));
  ASSERT_TRUE(shape);
  EXPECT_EQ(printShape(*shape), "f32[3,5]{1,0:T(2,2)}");
  shape = getStaticArrayShape(RankedTensorType::get({3, 5}, f32));
  ASSERT_TRUE(shape);
  EXPECT_EQ(printShape(*shape), "f32[3,5]{1,0}");
  // Dynamic, scalar, unranked, non-XLA element type, foreign encoding: none,
  // and no diagnostic either.
  EXPECT_FALSE(getStaticArrayShape(
      RankedTensorType::get({ShapedType::kDynamic, 5}, f32)));
  EXPECT_FALSE(getStaticArrayShape(RankedTensorType::get({}, f32)));
  EXPECT_FALSE(getStaticArrayShape(UnrankedTensorType::get(f32)));
  EXPECT_FALSE(
      getStaticArrayShape(RankedTensorType::get({4}, b.getIndexType())));
  EXPECT_FALSE(
      getStaticArrayShape(RankedTensorType::get({4}, f32, b.getUnitAttr())));
  EXPECT_TRUE(diagnostics.empty());
}
} // namespace
