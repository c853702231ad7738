//===- ShapeTextTest.cpp - HLO shape text: parse, print, round-trip -------===//
//
// Canonical printing, parse -> print -> parse round trips, whitespace
// tolerance, and one test per parser error path (exact message substring).
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Shape.h"

#include <gtest/gtest.h>

using namespace mlir::layout;

namespace {

/// Parses `text`, failing the test with the error message if it does not.
Shape parseOk(llvm::StringRef text) {
  llvm::Expected<Shape> shape = parseShape(text);
  if (!shape) {
    ADD_FAILURE() << "parseShape(\"" << text.str()
                  << "\") failed: " << llvm::toString(shape.takeError());
    return Shape();
  }
  return *shape;
}

/// The error message of parsing `text` ("" if it parses).
std::string parseError(llvm::StringRef text) {
  llvm::Expected<Shape> shape = parseShape(text);
  if (shape)
    return "";
  return llvm::toString(shape.takeError());
}

std::string layoutError(llvm::StringRef text) {
  llvm::Expected<Layout> layout = parseLayout(text);
  if (layout)
    return "";
  return llvm::toString(layout.takeError());
}

#define EXPECT_PARSE_ERROR(text, substring)                                    \
  do {                                                                         \
    std::string message = parseError(text);                                    \
    EXPECT_NE(message, "") << "expected an error for " << text;                \
    EXPECT_NE(message.find(substring), std::string::npos)                      \
        << "message for " << text << ": " << message;                          \
  } while (false)

//===----------------------------------------------------------------------===//
// Parsed values
//===----------------------------------------------------------------------===//

TEST(ShapeText, HeaderTour) {
  Shape s = parseOk("f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(s.getElementType(), PrimitiveType::F32);
  EXPECT_EQ(s.getDims(), llvm::ArrayRef<int64_t>({3, 5}));
  EXPECT_EQ(s.getLayout().getMinorToMajor(), llvm::ArrayRef<int64_t>({1, 0}));
  ASSERT_EQ(s.getLayout().getTiles().size(), 1u);
  EXPECT_EQ(s.getLayout().getTiles()[0].getDims(),
            llvm::ArrayRef<int64_t>({2, 2}));
  EXPECT_EQ(printShape(s), "f32[3,5]{1,0:T(2,2)}");
}

TEST(ShapeText, MissingLayoutIsDefault) {
  Shape s = parseOk("f32[3,5,7]");
  ASSERT_TRUE(s.hasLayout());
  EXPECT_EQ(s.getLayout(), Layout::getDefault(3));
  EXPECT_EQ(printShape(s), "f32[3,5,7]{2,1,0}");
  EXPECT_EQ(s, parseOk("f32[3,5,7]{2,1,0}"));
}

TEST(ShapeText, Scalar) {
  Shape s = parseOk("f32[]");
  EXPECT_TRUE(s.isScalar());
  ASSERT_TRUE(s.hasLayout());
  EXPECT_TRUE(s.getLayout().getMinorToMajor().empty());
  EXPECT_EQ(printShape(s), "f32[]");
  // `{}` is not a layout in XLA's parser (XlaTextParityTest).
  EXPECT_EQ(printShape(parseOk("s32[]{:S(1)}")), "s32[]{:S(1)}");
  // An empty layout of an array prints as `{:}`, the form that parses back
  // (`{}` after a shape is left over), also inside a layout's physical shape
  // P(...), which parseLayout does not validate.
  llvm::Expected<Layout> layout = parseLayout("{:P(s64[16]{:})}");
  ASSERT_TRUE(static_cast<bool>(layout)) << llvm::toString(layout.takeError());
  EXPECT_EQ(printLayout(*layout), "{:P(s64[16]{:})}");
  llvm::Expected<Layout> reparsed = parseLayout(printLayout(*layout));
  ASSERT_TRUE(static_cast<bool>(reparsed))
      << llvm::toString(reparsed.takeError());
  EXPECT_EQ(*reparsed, *layout);
}

TEST(ShapeText, DynamicDims) {
  Shape s = parseOk("f32[<=5,?,3]");
  EXPECT_EQ(s.getDim(0), 5);
  EXPECT_TRUE(s.isDynamicDim(0));
  EXPECT_TRUE(s.isUnboundedDim(1));
  EXPECT_TRUE(s.isDynamicDim(1));
  EXPECT_FALSE(s.isDynamicDim(2));
  EXPECT_EQ(printShape(s), "f32[<=5,?,3]{2,1,0}");
}

TEST(ShapeText, TupleTokenOpaque) {
  Shape t = parseOk("(f32[2], (s32[], token[]), opaque[], ())");
  ASSERT_TRUE(t.isTuple());
  ASSERT_EQ(t.getTupleShapes().size(), 4u);
  EXPECT_FALSE(t.hasLayout());
  EXPECT_TRUE(t.getTupleShapes()[1].isTuple());
  EXPECT_TRUE(t.getTupleShapes()[1].getTupleShapes()[1].isToken());
  EXPECT_FALSE(t.getTupleShapes()[1].getTupleShapes()[1].hasLayout());
  EXPECT_TRUE(t.getTupleShapes()[2].isOpaque());
  EXPECT_TRUE(t.getTupleShapes()[3].isTuple());
  EXPECT_TRUE(t.getTupleShapes()[3].getTupleShapes().empty());
  EXPECT_EQ(printShape(t), "(f32[2]{0}, (s32[], token[]), opaque[], ())");
  EXPECT_EQ(printShape(parseOk("()")), "()");
}

TEST(ShapeText, TileCombine) {
  Shape s = parseOk("f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}");
  const Tile &tile = s.getLayout().getTiles()[0];
  EXPECT_EQ(tile.getDim(0), Tile::kCombineDimension);
  EXPECT_TRUE(tile.hasCombine());
  EXPECT_EQ(printTile(tile), "(*,*,2,*,3)");
}

TEST(ShapeText, AllAttributes) {
  Shape s = parseOk("f32[4,8]{0,1:T(2,4)(2,1)L(4)E(32)S(2)SC(0:2)M(8)"
                    "PAD(6,8)PV(highest)}");
  const Layout &l = s.getLayout();
  EXPECT_EQ(l.getTiles().size(), 2u);
  EXPECT_EQ(l.getTailPaddingAlignment(), 4);
  EXPECT_EQ(l.getElementSizeInBits(), 32);
  EXPECT_EQ(l.getMemorySpace(), 2);
  ASSERT_EQ(l.getSplitConfigs().size(), 1u);
  EXPECT_EQ(l.getSplitConfigs()[0].dimension, 0);
  EXPECT_EQ(l.getSplitConfigs()[0].splitIndices, llvm::ArrayRef<int64_t>({2}));
  EXPECT_EQ(l.getDynamicShapeMetadataPrefixBytes(), 8);
  EXPECT_EQ(l.getPaddedDimensions(), llvm::ArrayRef<int64_t>({6, 8}));
  EXPECT_EQ(l.getPaddingValue(), PaddingValue::Highest);
}

TEST(ShapeText, LegacyPaddingDocExample) {
  Shape s = parseOk("f32[2,3]{0,1:PAD(3,5)PV(zero)}");
  EXPECT_EQ(s.getLayout().getMinorToMajor(), llvm::ArrayRef<int64_t>({0, 1}));
  EXPECT_EQ(s.getLayout().getPaddedDimensions(),
            llvm::ArrayRef<int64_t>({3, 5}));
  EXPECT_EQ(s.getLayout().getPaddingValue(), PaddingValue::Zero);
  EXPECT_EQ(printShape(s), "f32[2,3]{0,1:PAD(3,5)PV(zero)}");
  // PV(invalid) is the default and is not printed.
  EXPECT_EQ(printShape(parseOk("f32[2,3]{0,1:PAD(3,5)PV(invalid)}")),
            "f32[2,3]{0,1:PAD(3,5)}");
}

TEST(ShapeText, SparseFields) {
  // XLA's spelling: '+' = not unique, '~' = not ordered.
  Shape s = parseOk("f32[4,5]{1,0:D(D,C+~)#(u32)*(u16)}");
  const Layout &l = s.getLayout();
  ASSERT_EQ(l.getDimLevels().size(), 2u);
  EXPECT_EQ(l.getDimLevels()[0].type, DimLevelType::Dense);
  EXPECT_EQ(l.getDimLevels()[1].type, DimLevelType::Compressed);
  EXPECT_FALSE(l.getDimLevels()[1].unique);
  EXPECT_FALSE(l.getDimLevels()[1].ordered);
  EXPECT_EQ(l.getIndexPrimitiveType(), PrimitiveType::U32);
  EXPECT_EQ(l.getPointerPrimitiveType(), PrimitiveType::U16);
  EXPECT_TRUE(l.isSparse());
  EXPECT_EQ(printShape(s), "f32[4,5]{1,0:D(D,C+~)#(u32)*(u16)}");

  Shape p = parseOk("f32[4,5]{1,0:D(C,S~)P((s32[7]{0}, f32[7]))}");
  ASSERT_NE(p.getLayout().getPhysicalShape(), nullptr);
  EXPECT_TRUE(p.getLayout().getPhysicalShape()->isTuple());
  EXPECT_EQ(printShape(p), "f32[4,5]{1,0:D(C,S~)P((s32[7]{0}, f32[7]{0}))}");
  EXPECT_EQ(printShape(parseOk("f32[2,3]{1,0:D(H,H+)}")),
            "f32[2,3]{1,0:D(H,H+)}");
}

TEST(ShapeText, AllDenseDimLevelsAreDropped) {
  // D(D,D) means the same as no D(...); one representation.
  Shape s = parseOk("f32[2,3]{1,0:D(D,D)}");
  EXPECT_TRUE(s.getLayout().getDimLevels().empty());
  EXPECT_EQ(s, parseOk("f32[2,3]"));
  EXPECT_EQ(printShape(s), "f32[2,3]{1,0}");
}

//===----------------------------------------------------------------------===//
// Canonical printing and round trips
//===----------------------------------------------------------------------===//

TEST(ShapeText, CanonicalRoundTrip) {
  const char *canonical[] = {
      "f32[]",
      "pred[]",
      "f32[3,5]{1,0}",
      "f32[3,5]{0,1}",
      "f32[0]{0}",
      "s4[16]{0:E(4)}",
      "f32[3,5]{1,0:T(2,2)}",
      "f32[4,8]{1,0:T(2,4)(2,1)}",
      "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
      "bf16[128,256]{1,0:T(8,128)(2,1)L(1024)}",
      "f32[16]{0:S(1)}",
      "f32[]{:S(1)}",
      "f32[]{:M(16)}",
      "u8[100]{0:SC(0:25,50,75)}",
      "f32[8,6]{1,0:SC(0:4)(1:3)}",
      "f32[<=5,?]{1,0}",
      "f32[<=5,3]{0,1:T(4)}",
      "f32[2,3]{0,1:PAD(3,5)PV(zero)}",
      "f32[2,3]{1,0:T(2,2)PAD(2,4)PV(lowest)}",
      "f32[4]{0:T(2)L(4)E(32)S(3)SC(0:2)M(8)PAD(6)PV(unknown)}",
      "(f32[2]{0}, s32[])",
      "((f32[2,2]{0,1}, ()), token[], opaque[])",
      "()",
      "token[]",
      "opaque[]",
      "f8e4m3fn[2,2]{1,0}",
      "f4e2m1fn[32]{0:E(4)}",
      "c128[3]{0}",
      "f32[4,5]{1,0:D(D,C)#(u32)*(u32)}",
      "f32[4,5]{1,0:D(C,S+~)P(s32[7]{0})}",
  };
  for (const char *text : canonical) {
    Shape s = parseOk(text);
    EXPECT_EQ(printShape(s), text);
    EXPECT_EQ(parseOk(printShape(s)), s) << text;
  }
}

TEST(ShapeText, NonCanonicalInputsPrintCanonically) {
  std::pair<const char *, const char *> cases[] = {
      {"f32[3,5]", "f32[3,5]{1,0}"},
      {"f32[3,5]{1,0:}", "f32[3,5]{1,0}"},
      {"f32[3]{0:L(1)E(0)S(0)M(0)}", "f32[3]{0}"},
      {"(f32[2],s32[])", "(f32[2]{0}, s32[])"},
      {"f32[4,4]{1,0:T(-1,2)}", "f32[4,4]{1,0:T(*,2)}"},
  };
  for (auto [input, expected] : cases) {
    Shape s = parseOk(input);
    EXPECT_EQ(printShape(s), expected) << input;
    EXPECT_EQ(parseOk(expected), s) << input;
  }
}

TEST(ShapeText, Whitespace) {
  EXPECT_EQ(printShape(parseOk("  f32[3, 5]{1, 0 : T(2, 2) (1,1) L( 2 )}  ")),
            "f32[3,5]{1,0:T(2,2)(1,1)L(2)}");
  EXPECT_EQ(printShape(parseOk("( f32[2] ,s32[ ] , ( ) )")),
            "(f32[2]{0}, s32[], ())");
  EXPECT_EQ(printShape(parseOk("f32 [ <= 5 , ? ]")), "f32[<=5,?]{1,0}");
  EXPECT_EQ(printShape(parseOk("\tf32[2,3]{0,1: PAD(3, 5) PV( zero )}\n")),
            "f32[2,3]{0,1:PAD(3,5)PV(zero)}");
  EXPECT_EQ(printShape(parseOk("u8[8]{0 : SC( 0 : 2 , 4 )}")),
            "u8[8]{0:SC(0:2,4)}");
}

TEST(ShapeText, PrintUnvalidatedShapes) {
  // printShape never crashes: error messages print invalid shapes.
  EXPECT_EQ(printShape(Shape()), "invalid");
  Shape noLayout = Shape::makeArray(PrimitiveType::F32, {2, 3});
  noLayout.clearLayout();
  EXPECT_EQ(printShape(noLayout), "f32[2,3]");
  EXPECT_EQ(printShape(Shape::makeArray(PrimitiveType::F32, {2},
                                        Layout(llvm::ArrayRef<int64_t>{}))),
            "f32[2]{:}");
  EXPECT_EQ(
      printShape(Shape::makeArray(PrimitiveType::F32, {-3, 2}, Layout({5, 5}))),
      "f32[-3,2]{5,5}");
  Layout weird({0});
  weird.mutableTiles().push_back(Tile());
  weird.setTailPaddingAlignment(-2);
  weird.setDynamicShapeMetadataPrefixBytes(-1);
  EXPECT_EQ(printLayout(weird), "{0:T()L(-2)M(-1)}");
  Shape tupleWithLayout = Shape::makeTuple({});
  tupleWithLayout.setLayout(Layout());
  EXPECT_EQ(printShape(tupleWithLayout), "(){}");
}

TEST(ShapeText, ParseLayoutAlone) {
  llvm::Expected<Layout> layout = parseLayout(" {1,0:T(8,128)(2,1)} ");
  ASSERT_TRUE(static_cast<bool>(layout)) << llvm::toString(layout.takeError());
  EXPECT_EQ(printLayout(*layout), "{1,0:T(8,128)(2,1)}");
  // No validation against a shape here.
  llvm::Expected<Layout> unchecked = parseLayout("{7,7:T(0)}");
  ASSERT_TRUE(static_cast<bool>(unchecked))
      << llvm::toString(unchecked.takeError());
  EXPECT_EQ(printLayout(*unchecked), "{7,7:T(0)}");
  llvm::Expected<Layout> empty = parseLayout("{}");
  ASSERT_TRUE(static_cast<bool>(empty)) << llvm::toString(empty.takeError());
  EXPECT_EQ(*empty, Layout());
  EXPECT_NE(layoutError("{1,0} x").find("Extra content after layout: 'x'"),
            std::string::npos);
  EXPECT_NE(layoutError("1,0").find("expects layout to start with '{'"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Syntax errors, one per path
//===----------------------------------------------------------------------===//

TEST(ShapeTextErrors, Empty) {
  EXPECT_PARSE_ERROR("", "column 1: expected primitive type, saw end of input");
  EXPECT_PARSE_ERROR("   ", "expected primitive type, saw end of input");
}

TEST(ShapeTextErrors, UnknownElementType) {
  EXPECT_PARSE_ERROR("f33[2]",
                     "column 1: expected primitive type, saw unknown element "
                     "type 'f33'");
  EXPECT_PARSE_ERROR("tuple[]", "unknown element type 'tuple'");
  EXPECT_PARSE_ERROR("F32[2]", "unknown element type 'F32'");
  EXPECT_PARSE_ERROR("[2]", "expected primitive type, saw '['");
}

TEST(ShapeTextErrors, Truncated) {
  EXPECT_PARSE_ERROR("f32", "column 4: expects '[' to start dimensions, saw "
                            "end of input");
  EXPECT_PARSE_ERROR("f32[3,",
                     "column 7: expects a dimension size (INT, '<=' INT or "
                     "'?'), saw end of input");
  EXPECT_PARSE_ERROR("f32[3",
                     "expects ']' to end dimensions, saw end of input");
  EXPECT_PARSE_ERROR("f32[3]{1", "expects layout to end with '}'");
  EXPECT_PARSE_ERROR("f32[3]{0:T(2", "expects a list to end with ')'");
  EXPECT_PARSE_ERROR("(f32[3]", "expects ')' at the end of tuple");
  EXPECT_PARSE_ERROR("(", "expected primitive type, saw end of input");
  EXPECT_PARSE_ERROR("f32[<=]", "expects integer, saw ']'");
}

TEST(ShapeTextErrors, BadDimensions) {
  EXPECT_PARSE_ERROR("f32[-1]", "column 5: Negative dimension at index 0: -1.");
  EXPECT_PARSE_ERROR("f32[2,-3]", "Negative dimension at index 1: -3.");
  EXPECT_PARSE_ERROR("f32[<=-3]", "Negative dimension at index 0: -3.");
  EXPECT_PARSE_ERROR("f32[a]", "expects a dimension size");
  EXPECT_PARSE_ERROR("f32[2;3]", "expects ']' to end dimensions, saw ';'");
  EXPECT_PARSE_ERROR("f32[< =3]", "expects a dimension size");
}

TEST(ShapeTextErrors, IntegerOverflow) {
  EXPECT_PARSE_ERROR("f32[99999999999999999999]",
                     "column 5: integer literal out of range for int64: "
                     "'99999999999999999999'");
  EXPECT_PARSE_ERROR("f32[9223372036854775808]",
                     "out of range for int64: '9223372036854775808'");
  EXPECT_PARSE_ERROR("f32[2]{0:S(99999999999999999999)}",
                     "integer literal out of range for int64");
  EXPECT_PARSE_ERROR("f32[2]{-99999999999999999999}",
                     "integer literal out of range for int64");
  // INT64_MAX itself lexes; INT64_MIN lexes as a layout entry.
  EXPECT_PARSE_ERROR("f32[2]{-9223372036854775808}",
                     "out-of-bounds value: {-9223372036854775808}");
}

TEST(ShapeTextErrors, ElementCountOverflow) {
  EXPECT_PARSE_ERROR("f32[9223372036854775807,4]",
                     "Shape f32[9223372036854775807,4]{1,0} size may overflow");
  // One element of 4 bytes already overflows: XLA counts bytes.
  EXPECT_PARSE_ERROR("f32[9223372036854775807]", "may overflow");
  EXPECT_PARSE_ERROR("s8[4294967296,4294967296]", "may overflow");
  EXPECT_EQ(parseError("s8[4294967296,2147483647]"), "");
  EXPECT_EQ(parseError("s8[?,9223372036854775807]"), "")
      << "unbounded dims do not count";
}

TEST(ShapeTextErrors, TokenAndOpaque) {
  EXPECT_PARSE_ERROR("token[2]",
                     "expects ']': token shapes have no dimensions");
  EXPECT_PARSE_ERROR("opaque", "expects '[' to start dimensions");
  EXPECT_PARSE_ERROR("token[]{}", "a token shape has no layout");
  EXPECT_PARSE_ERROR("(f32[2]){}", "a tuple shape has no layout of its own");
}

TEST(ShapeTextErrors, ExtraText) {
  EXPECT_PARSE_ERROR("f32[2] f32[3]", "column 8: Extra content after shape: "
                                      "'f32[3]'");
  EXPECT_PARSE_ERROR("f32[2]{0}}", "Extra content after shape: '}'");
  EXPECT_PARSE_ERROR("(f32[2]) x", "Extra content after shape: 'x'");
}

TEST(ShapeTextErrors, AttributesOutOfOrder) {
  EXPECT_PARSE_ERROR("f32[3,5]{1,0:S(1)T(2,2)}",
                     "column 18: layout attribute 'T' is out of order: it "
                     "must come before 'S'");
  EXPECT_PARSE_ERROR("f32[3]{0:M(1)SC(0:1)}", "'SC' is out of order");
  EXPECT_PARSE_ERROR("f32[3]{0:PV(zero)PAD(3)}", "'PAD' is out of order");
  EXPECT_PARSE_ERROR("f32[3]{0:E(4)L(2)}", "'L' is out of order");
}

TEST(ShapeTextErrors, AttributesRepeated) {
  EXPECT_PARSE_ERROR("f32[3]{0:S(1)S(2)}",
                     "column 14: layout attribute 'S' appears more than once");
  EXPECT_PARSE_ERROR("f32[4]{0:T(2)L(2)T(2)}", "'T' appears more than once");
  EXPECT_PARSE_ERROR("f32[4]{0:PV(zero)PV(one)}",
                     "'PV' appears more than once");
}

TEST(ShapeTextErrors, UnknownAttribute) {
  EXPECT_PARSE_ERROR("f32[3]{0:X(1)}", "column 10: unknown layout attribute "
                                       "'X'");
  EXPECT_PARSE_ERROR("f32[3]{0:T(2)?}", "expects layout to end with '}', saw "
                                        "'?'");
  EXPECT_PARSE_ERROR("f32[3]{0 1}", "expects layout to end with '}', saw '1'");
}

TEST(ShapeTextErrors, AttributePayloads) {
  EXPECT_PARSE_ERROR("f32[3]{0:T}", "expects a list starting with '('");
  EXPECT_PARSE_ERROR("f32[3]{0:T(a)}", "expects integer or '*' in tile");
  EXPECT_PARSE_ERROR("f32[3]{0:L}",
                     "expects multiple padded to in elements to start with "
                     "'('");
  EXPECT_PARSE_ERROR("f32[3]{0:E(x)}",
                     "expects integer for element size in bits, saw 'x'");
  EXPECT_PARSE_ERROR("f32[3]{0:S(1}", "expects memory space to end with ')'");
  EXPECT_PARSE_ERROR("f32[3]{0:M}",
                     "expects dynamic shape metadata prefix bytes to start "
                     "with '('");
  EXPECT_PARSE_ERROR("f32[3]{0:SC}",
                     "column 12: expects split configs to start with kLparen");
  EXPECT_PARSE_ERROR("f32[3]{0:SC(0,1)}",
                     "column 14: expects a list starting with kColon");
  EXPECT_PARSE_ERROR("f32[3]{0:D(X)}",
                     "expected a DimLevelType abbreviation (D, C, S, or H), "
                     "saw 'X'");
  EXPECT_PARSE_ERROR("f32[3]{0:D(C)#(s32)}",
                     "expecting an unsigned integer type, saw 's32'");
  EXPECT_PARSE_ERROR("f32[3]{0:D(C)#(q)}", "expected primitive type, saw 'q'");
  EXPECT_PARSE_ERROR("f32[3]{0:D(C)#u32}", "expects '#' to be followed by '('");
  EXPECT_PARSE_ERROR("f32[3]{0:D(C)*(u32}",
                     "expects pointer primitive type to be followed by ')'");
  EXPECT_PARSE_ERROR("f32[3]{0:D(C)P(f32[3]}",
                     "expects physical shape to end with ')'");
  EXPECT_PARSE_ERROR("f32[3]{0:D(C)P f32[3]}",
                     "expects physical shape to start with '('");
  EXPECT_PARSE_ERROR("f32[3]{0:PAD 3}",
                     "expects padded dimensions to start with '('");
  EXPECT_PARSE_ERROR("f32[3]{0:PV(two)}",
                     "expects a padding value (zero, one, lowest, highest, "
                     "unknown or invalid), saw 'two'");
}

TEST(ShapeTextErrors, RecursionLimit) {
  std::string deep(1000, '(');
  deep += std::string(1000, ')');
  EXPECT_PARSE_ERROR(deep, "maximum recursion depth exceeded");
  std::string ok(100, '(');
  ok += std::string(100, ')');
  EXPECT_EQ(parseError(ok), "");
}

//===----------------------------------------------------------------------===//
// Errors found by validation of the parsed shape
//===----------------------------------------------------------------------===//

TEST(ShapeTextErrors, EmptyLayoutOnArray) {
  // `{}` is extra content (XLA's parser); `{:...}` is a layout without
  // minor_to_major.
  EXPECT_PARSE_ERROR("f32[2]{}", "Extra content after shape: '{}'");
  EXPECT_PARSE_ERROR("f32[2]{:S(1)}", "layout minor_to_major field contains 0 "
                                      "elements, but shape has 1 dimensions");
}

TEST(ShapeTextErrors, MinorToMajor) {
  EXPECT_PARSE_ERROR("f32[2,3]{0}", "layout minor_to_major field contains 1 "
                                    "elements, but shape has 2 dimensions: "
                                    "{0}; shape: f32[2,3]{0}");
  EXPECT_PARSE_ERROR("f32[2,3]{0,0}",
                     "layout minor_to_major field has duplicate values: "
                     "{0, 0}");
  EXPECT_PARSE_ERROR("f32[2,3]{0,2}",
                     "layout minor_to_major field has out-of-bounds value: "
                     "{0, 2}");
  EXPECT_PARSE_ERROR("f32[2,3]{-1,0}", "out-of-bounds value: {-1, 0}");
  EXPECT_PARSE_ERROR("f32[]{0}", "contains 1 elements, but shape has 0 "
                                 "dimensions");
}

TEST(ShapeTextErrors, BadTiles) {
  EXPECT_PARSE_ERROR("f32[4,4]{1,0:T()}",
                     "layout has invalid tiles: f32[4,4]{1,0:T()}: tile (): a "
                     "tile must have at least one entry");
  EXPECT_PARSE_ERROR("f32[4,4]{1,0:T(0,2)}",
                     "layout has invalid tiles: f32[4,4]{1,0:T(0,2)}: tile "
                     "(0,2): tile entries must be positive or '*'");
  EXPECT_PARSE_ERROR("f32[4,4]{1,0:T(2,*)}",
                     "tile (2,*): '*' cannot be the last entry of a tile");
  EXPECT_PARSE_ERROR("f32[4,4]{1,0:T(2,2)(-2)}",
                     "column 21: tile dimension -2 is negative; tile entries "
                     "must be positive or '*'");
}

TEST(ShapeTextErrors, BadIntAttributes) {
  EXPECT_PARSE_ERROR("f32[4]{0:L(0)}",
                     "layout tail_padding_alignment_in_elements field is <= "
                     "0: {0}");
  EXPECT_PARSE_ERROR("f32[4]{0:E(-1)}",
                     "layout element_size_in_bits field is negative: -1");
  EXPECT_PARSE_ERROR("f32[4]{0:S(-1)}",
                     "layout memory_space field is negative: -1");
  EXPECT_PARSE_ERROR("f32[4]{0:M(-8)}",
                     "layout dynamic_shape_metadata_prefix_bytes field is "
                     "negative: -8");
}

TEST(ShapeTextErrors, BadSplitConfigs) {
  EXPECT_PARSE_ERROR("f32[4]{0:SC(1:2)}", "has out-of-bounds dimension 1");
  EXPECT_PARSE_ERROR("f32[4]{0:SC(0:2,2)}",
                     "split indices that are not positive and strictly "
                     "increasing");
  EXPECT_PARSE_ERROR("f32[4]{0:SC(0:0)}", "not positive");
  EXPECT_PARSE_ERROR("f32[4]{0:SC(0:4)}",
                     "splits at 4, outside the split dimension of size 4");
  // SC's dimension is physical, most-major first: 0 is logical dim 0 here.
  EXPECT_EQ(parseError("f32[8,2]{1,0:SC(0:4)}"), "");
  EXPECT_PARSE_ERROR("f32[8,2]{0,1:SC(0:4)}", "size 2");
  EXPECT_PARSE_ERROR("f32[8,2]{1,0:SC(0:2)(0:4)}",
                     "more than one split config for dimension 0");
}

TEST(ShapeTextErrors, BadLegacyPadding) {
  EXPECT_PARSE_ERROR("f32[2,3]{0,1:PAD(3)}",
                     "layout padded_dimensions field contains 1 elements, but "
                     "shape has 2 dimensions");
  EXPECT_PARSE_ERROR("f32[2,3]{0,1:PAD(3,2)}",
                     "padded_dimensions field has value 2 for dimension 1 of "
                     "size 3");
  EXPECT_PARSE_ERROR("f32[?,3]{0,1:PAD(3,3)}",
                     "cannot pad the unbounded dynamic dimension 0");
  EXPECT_PARSE_ERROR("f32[2]{0:PAD(9223372036854775807)}",
                     "padded size may overflow");
  EXPECT_EQ(parseError("f32[<=2,3]{0,1:PAD(4,3)}"), "");
}

TEST(ShapeTextErrors, SparseRules) {
  EXPECT_PARSE_ERROR("f32[4,5]{1,0:D(C)}",
                     "layout dim_level_types field contains 1 elements, but "
                     "shape is rank 2");
  // An all-dense D(...) is dropped, but its length is still checked.
  EXPECT_PARSE_ERROR("f32[4,5]{1,0:D(D)}",
                     "layout dim_level_types field contains 1 elements, but "
                     "shape is rank 2");
  EXPECT_PARSE_ERROR("f32[4,5]{1,0:D(D+,C)}",
                     "layout dimension 0 has invalid level encoding "
                     "DIM_DENSE, non-unique");
  EXPECT_PARSE_ERROR("f32[4,5]{1,0:D(D,C)T(2,2)}",
                     "layout has tiles, but the shape is a sparse array");
  EXPECT_PARSE_ERROR("f32[4]{0:#(u32)}",
                     "layout has a index_primitive_type, but is not a sparse "
                     "array");
  EXPECT_PARSE_ERROR("f32[4]{0:*(u32)}",
                     "layout has a pointer_primitive_type, but is not a "
                     "sparse array");
  EXPECT_PARSE_ERROR("f32[4]{0:P(f32[4])}",
                     "layout has a physical_shape, but is not a sparse array");
  EXPECT_PARSE_ERROR("f32[4]{0:D(C)P(f32[4]{:S(1)})}",
                     "layout minor_to_major field contains 0 elements");
  EXPECT_PARSE_ERROR("f32[4]{0:D(C)P(f32[4]{0:D(C)P(u8[1])})}",
                     "whose layout also has a physical shape");
}

TEST(ShapeTextErrors, TupleElementsAreValidated) {
  EXPECT_PARSE_ERROR("(f32[2], (s32[3]{:S(1)}))",
                     "layout minor_to_major field contains 0 elements, but "
                     "shape has 1 dimensions");
}

} // namespace

// Absurd layouts are refused up front (kMaxTileLevels, kMaxPhysicalRank)
// instead of being ground through by every consumer.
TEST(ShapeText, RefusesAbsurdTilings) {
  std::string levels = "f32[4]{0:T";
  for (int i = 0; i < kMaxTileLevels; ++i)
    levels += "(1)";
  EXPECT_EQ(parseError(levels + "}"), "");
  EXPECT_PARSE_ERROR(levels + "(1)}",
                     "layout has 17 tile levels, more than the supported 16");
  std::string wide = "f32[4]{0:T(";
  for (int i = 0; i < kMaxPhysicalRank; ++i)
    wide += i ? ",1" : "1";
  EXPECT_PARSE_ERROR(wide + ")}", "layout has a physical rank of up to 129 "
                                  "(rank plus tile entries), more than the "
                                  "supported 128");
}
