//===- LayoutAttributeStorageTest.cpp - parsed values kept in attributes --===//
//
// `#layout.tiled` and `#layout.shape` are uniqued by their canonical text and
// keep the parsed value in their storage: equal text gives the same
// attribute, queries return the stored object (no re-parse), and invalid text
// is diagnosed by the verifier instead of reaching the storage.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::layout;

namespace {

class LayoutAttributeStorageTest : public ::testing::Test {
protected:
  LayoutAttributeStorageTest() {
    context.loadDialect<LayoutDialect>();
    handler = context.getDiagEngine().registerHandler([this](Diagnostic &d) {
      diagnostics.push_back(d.str());
      return success();
    });
  }
  ~LayoutAttributeStorageTest() override {
    context.getDiagEngine().eraseHandler(handler);
  }

  std::function<InFlightDiagnostic()> emitter() {
    return [this]() { return mlir::emitError(UnknownLoc::get(&context)); };
  }

  MLIRContext context;
  DiagnosticEngine::HandlerID handler;
  std::vector<std::string> diagnostics;
};

TEST_F(LayoutAttributeStorageTest, TiledKeepsTheParsedLayout) {
  auto a = TiledLayoutAttr::get(&context, "{1,0:T(2,2)}", {});
  auto b = TiledLayoutAttr::get(&context, "{1,0:T(2,2)}", {});
  ASSERT_EQ(a, b);
  // The same stored object, twice: the query does not re-parse.
  const Layout &first = a.getLayout();
  EXPECT_EQ(&first, &b.getLayout());
  EXPECT_EQ(first.getMinorToMajor(), (ArrayRef<int64_t>{1, 0}));
  ASSERT_EQ(first.getTiles().size(), 1u);
  EXPECT_EQ(printLayout(first), "{1,0:T(2,2)}");
  // The affine map comes from the stored index map: XLA's Figure 1.
  AffineMap map = a.getAffineMap();
  AffineExpr d0 = getAffineDimExpr(0, &context);
  AffineExpr d1 = getAffineDimExpr(1, &context);
  EXPECT_EQ(map, AffineMap::get(
                     2, 0, {d0.floorDiv(2), d1.floorDiv(2), d0 % 2, d1 % 2},
                     &context));
}

TEST_F(LayoutAttributeStorageTest, BuiltFromALayoutValueIsCanonical) {
  llvm::Expected<Layout> parsed = parseLayout("{1,0:T(2,2)}");
  ASSERT_TRUE(static_cast<bool>(parsed));
  auto fromValue = TiledLayoutAttr::get(&context, *parsed);
  auto fromText = TiledLayoutAttr::get(&context, "{1,0:T(2,2)}", {});
  EXPECT_EQ(fromValue, fromText);
  // Dims are part of the key: with dims it is another attribute.
  auto withDims = TiledLayoutAttr::get(&context, *parsed, {3, 5});
  EXPECT_NE(withDims, fromText);
  EXPECT_EQ(withDims.getDims(), (ArrayRef<int64_t>{3, 5}));
}

TEST_F(LayoutAttributeStorageTest, CombineUsesTheStoredDims) {
  auto attr = TiledLayoutAttr::get(&context, "{1,0:T(*,2)}", {3, 4});
  // `*` linearizes d0 and d1 with the stored sizes: (d0 * 4 + d1).
  AffineMap map = attr.getAffineMap();
  EXPECT_EQ(map.getNumResults(), 2u);
  AffineExpr d0 = getAffineDimExpr(0, &context);
  AffineExpr d1 = getAffineDimExpr(1, &context);
  EXPECT_EQ(map.getResult(0), (d0 * 4 + d1).floorDiv(2));
  EXPECT_EQ(map.getResult(1), (d0 * 4 + d1) % 2);
}

TEST_F(LayoutAttributeStorageTest, CombineWithoutDimsTakesTheShape) {
  auto noDims = TiledLayoutAttr::get(&context, "{1,0:T(*,2)}", {});
  ASSERT_TRUE(TiledLayoutAttr::getChecked(emitter(), &context,
                                          StringRef("{1,0:T(*,2)}"), {}));
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_TRUE(noDims.hasShapeDependentMap());
  AffineExpr d0 = getAffineDimExpr(0, &context);
  AffineExpr d1 = getAffineDimExpr(1, &context);
  // The exact map comes from the shape: 3x4 gives d0 * 4 + d1, 3x5 d0 * 5.
  AffineMap map34 = noDims.getAffineMapForShape({3, 4});
  ASSERT_TRUE(map34);
  EXPECT_EQ(map34.getResult(0), (d0 * 4 + d1).floorDiv(2));
  EXPECT_EQ(map34.getResult(1), (d0 * 4 + d1) % 2);
  EXPECT_EQ(map34, TiledLayoutAttr::get(&context, "{1,0:T(*,2)}", {3, 4})
                       .getAffineMapForShape({3, 4}));
  EXPECT_EQ(noDims.getAffineMapForShape({3, 5}).getResult(0),
            (d0 * 5 + d1).floorDiv(2));
  // A dynamic inner dim of the combine has no map.
  EXPECT_FALSE(noDims.getAffineMapForShape({3, ShapedType::kDynamic}));
  // getAffineMap() has no shape: a placeholder with the same result count
  // and no symbols, but not affine (upstream analyses refuse it).
  AffineMap placeholder = noDims.getAffineMap();
  EXPECT_EQ(placeholder.getNumDims(), 2u);
  EXPECT_EQ(placeholder.getNumSymbols(), 0u);
  EXPECT_EQ(placeholder.getNumResults(), 2u);
  EXPECT_FALSE(placeholder.getResult(0).isPureAffine());
  // Without `*` the map never depends on the shape.
  auto plain = TiledLayoutAttr::get(&context, "{1,0:T(2,2)}", {});
  EXPECT_FALSE(plain.hasShapeDependentMap());
  EXPECT_EQ(plain.getAffineMapForShape({3, 5}), plain.getAffineMap());
}

TEST_F(LayoutAttributeStorageTest, WithAndWithoutDimsAreEquivalentLayouts) {
  auto noDims = TiledLayoutAttr::get(&context, "{2,1,0:T(*,8)}", {});
  auto dims = noDims.withDims({2, 3, 4});
  EXPECT_NE(noDims, dims);
  EXPECT_EQ(dims.getDims(), (ArrayRef<int64_t>{2, 3, 4}));
  EXPECT_EQ(dims.withDims({}), noDims);
  EXPECT_TRUE(areEquivalentLayouts(noDims, dims));
  EXPECT_TRUE(areEquivalentLayouts(dims, noDims));
  EXPECT_TRUE(areEquivalentLayouts(Attribute(), Attribute()));
  // Different dims, different text, or the default layout: not equivalent.
  EXPECT_FALSE(areEquivalentLayouts(dims, noDims.withDims({2, 3, 5})));
  EXPECT_FALSE(areEquivalentLayouts(
      noDims, TiledLayoutAttr::get(&context, "{2,1,0:T(*,4)}", {})));
  EXPECT_FALSE(areEquivalentLayouts(noDims, Attribute()));
  // The memref types are distinct; their layouts are the same.
  Type f32 = Float32Type::get(&context);
  auto a = MemRefType::get({2, 3, 4}, f32, noDims);
  auto b = MemRefType::get({2, 3, 4}, f32, dims);
  EXPECT_NE(a, b);
  EXPECT_EQ(noDims.getAffineMapForShape(a.getShape()),
            b.getLayout().getAffineMap());
}

TEST_F(LayoutAttributeStorageTest, InvalidTextIsAVerifierError) {
  EXPECT_FALSE(TiledLayoutAttr::getChecked(emitter(), &context,
                                           StringRef("{1,0:T(2,"), {}));
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_NE(diagnostics[0].find("invalid XLA layout '{1,0:T(2,'"),
            std::string::npos)
      << diagnostics[0];
  EXPECT_FALSE(ShapeAttr::getChecked(emitter(), &context, StringRef("f32[3")));
  ASSERT_EQ(diagnostics.size(), 2u);
  EXPECT_NE(diagnostics[1].find("invalid XLA shape 'f32[3'"), std::string::npos)
      << diagnostics[1];
}

TEST_F(LayoutAttributeStorageTest, ParsedAttributesShareTheStorage) {
  Attribute parsed = parseAttribute("#layout.tiled<{1,0:T(2,2)}>", &context);
  auto direct = TiledLayoutAttr::get(&context, "{1,0:T(2,2)}", {});
  EXPECT_EQ(parsed, direct);
  EXPECT_EQ(&cast<TiledLayoutAttr>(parsed).getLayout(), &direct.getLayout());
}

TEST_F(LayoutAttributeStorageTest, ShapeKeepsTheParsedShape) {
  auto a = ShapeAttr::get(&context, "(f32[2]{0}, s32[])");
  auto b = ShapeAttr::get(&context, "(f32[2]{0}, s32[])");
  ASSERT_EQ(a, b);
  const Shape &shape = a.getShape();
  EXPECT_EQ(&shape, &b.getShape());
  EXPECT_TRUE(shape.isTuple());
  EXPECT_EQ(printShape(shape), "(f32[2]{0}, s32[])");
}

} // namespace
