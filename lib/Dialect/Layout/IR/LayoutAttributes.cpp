//===- LayoutAttributes.cpp - layout dialect attributes -------------------===//
//
// `#layout.tiled<...>` and `#layout.shape<...>`: parsing and printing of the
// XLA text bodies, verification through the LayoutXla library, and the
// MemRefLayoutAttrInterface / VerifiableTensorEncoding implementations.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/AffineIndexOps.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"

#include "LayoutAttributeStorage.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;

#define GET_ATTRDEF_CLASSES
#include "layout/Dialect/Layout/IR/LayoutAttributes.cpp.inc"

void LayoutDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "layout/Dialect/Layout/IR/LayoutAttributes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string errorText(llvm::Error err) {
  return llvm::toString(std::move(err));
}

static std::string formatDims(ArrayRef<int64_t> dims) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '[';
  llvm::interleave(
      dims, os,
      [&](int64_t d) {
        if (ShapedType::isDynamic(d))
          os << '?';
        else
          os << d;
      },
      ",");
  os << ']';
  return out;
}

/// Size in bits of an element type without an XLA equivalent: index (64),
/// complex and vectors of sized types; -1 if it overflows int64, std::nullopt
/// if unknown.
static std::optional<int64_t> getElementBitWidth(Type type) {
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  if (isa<IndexType>(type))
    return 64;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<int64_t> bits = getElementBitWidth(complex.getElementType());
    if (!bits || *bits < 0)
      return bits;
    return llvm::checkedMul<int64_t>(*bits, 2).value_or(-1);
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return std::nullopt;
    std::optional<int64_t> bits = getElementBitWidth(vector.getElementType());
    for (int64_t d : vector.getShape())
      if (bits && *bits >= 0)
        bits = llvm::checkedMul(*bits, d).value_or(-1);
    return bits;
  }
  return std::nullopt;
}

/// Element type used to validate a layout when the MLIR element type is not
/// known (memref layouts) or has no XLA equivalent.
static PrimitiveType validationElementType(Type elementType) {
  if (elementType)
    if (std::optional<PrimitiveType> p = convertElementType(elementType))
      return *p;
  return PrimitiveType::F32;
}

/// Library messages name the shape they checked. When that shape's element
/// type is validationElementType's f32 stand-in rather than the real one,
/// name the real one instead: the MLIR element type before the dims
/// (`vector<4xf32>[3]{0}`), or no element type when it is unknown
/// (`[3]{0,1}`: MemRefLayoutAttrInterface::verifyLayout gets only the
/// shape). Such byte sizes were checked as 4-byte elements; an overflow
/// message says so.
static std::string honestShapeText(std::string message, const Shape &checked,
                                   Type elementType) {
  if (elementType && convertElementType(elementType))
    return message;
  std::string standIn = printShape(checked);
  std::string typeText;
  if (elementType)
    llvm::raw_string_ostream(typeText) << elementType;
  std::string honest =
      typeText +
      standIn.substr(primitiveTypeName(checked.getElementType()).size());
  for (size_t at = message.find(standIn); at != std::string::npos;
       at = message.find(standIn, at + honest.size()))
    message.replace(at, standIn.size(), honest);
  if (message.find("overflow") != std::string::npos)
    message += " (checked with 4-byte elements: the element type " +
               (elementType ? "has no XLA equivalent"
                            : std::string("is not known to memref layout "
                                          "verification")) +
               ")";
  return message;
}

std::optional<int64_t>
mlir::layout::getIntegerMemorySpace(BaseMemRefType type) {
  Attribute space = type.getMemorySpace();
  if (!space)
    return 0;
  if (auto intAttr = dyn_cast<IntegerAttr>(space))
    return intAttr.getInt();
  return std::nullopt;
}

MemRefType mlir::layout::getMemRefType(ArrayRef<int64_t> shape,
                                       Type elementType,
                                       TiledLayoutAttr layout) {
  MLIRContext *ctx = elementType.getContext();
  int64_t space = layout.getLayout().getMemorySpace();
  Attribute memorySpace =
      space == 0 ? Attribute()
                 : IntegerAttr::get(IntegerType::get(ctx, 64), space);
  return MemRefType::get(shape, elementType, layout, memorySpace);
}

std::optional<Layout> mlir::layout::getXlaLayout(MemRefType type) {
  if (auto tiled = dyn_cast<TiledLayoutAttr>(type.getLayout()))
    return tiled.getLayout();
  if (!type.getLayout().isIdentity())
    return std::nullopt;
  // The memory space S(n) of an identity memref is its integer memory space.
  std::optional<int64_t> space = getIntegerMemorySpace(type);
  if (!space)
    return std::nullopt;
  Layout layout = Layout::getDefault(type.getRank());
  layout.setMemorySpace(*space);
  return layout;
}

std::optional<Shape> mlir::layout::getStorageShape(MemRefType type) {
  std::optional<Layout> layout = getXlaLayout(type);
  if (!type.hasStaticShape() || !layout ||
      !type.getElementType().isIntOrFloat())
    return std::nullopt;
  unsigned bits = type.getElementTypeBitWidth();
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return std::nullopt;
  std::optional<PrimitiveType> element = unsignedTypeOfBitWidth(bits);
  if (!element)
    return std::nullopt;
  return Shape::makeArray(*element, type.getShape(), *layout);
}

MemRefType mlir::layout::getBufferType(RankedTensorType type) {
  Attribute encoding = type.getEncoding();
  if (!encoding)
    return MemRefType::get(type.getShape(), type.getElementType());
  if (auto tiled = dyn_cast<TiledLayoutAttr>(encoding))
    return getMemRefType(type.getShape(), type.getElementType(), tiled);
  return {};
}

LogicalResult mlir::layout::verifyTiledMemRefType(
    MemRefType type, llvm::function_ref<InFlightDiagnostic()> emitError) {
  auto attr = dyn_cast<TiledLayoutAttr>(type.getLayout());
  if (!attr)
    return emitError() << "expected a memref with a #layout.tiled layout, got "
                       << type;
  if (failed(attr.getTiledLayoutMap(type.getShape(), type.getElementType(),
                                    emitError)))
    return failure();
  int64_t layoutSpace = attr.getLayout().getMemorySpace();
  std::optional<int64_t> space = getIntegerMemorySpace(type);
  if (!space || *space != layoutSpace)
    return emitError() << "memory space of " << type
                       << " does not match the layout's S(" << layoutSpace
                       << ") (expected "
                       << (layoutSpace == 0
                               ? std::string("no memory space")
                               : "memory space " + std::to_string(layoutSpace))
                       << ")";
  return success();
}

bool mlir::layout::canPrintUnquoted(StringRef body) {
  // Mirrors the MLIR lexer's scan of a pretty dialect symbol body: the text
  // must keep `<...>` balanced and close exactly at its end.
  if (body.empty())
    return false;
  SmallVector<char, 8> nesting{'<'};
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    switch (c) {
    case '"':
    case '\0':
      return false;
    case '<':
    case '[':
    case '(':
    case '{':
      nesting.push_back(c);
      break;
    case '-':
      if (i + 1 < body.size() && body[i + 1] == '>')
        ++i;
      break;
    case '>':
    case ']':
    case ')':
    case '}': {
      char open = c == '>' ? '<' : c == ']' ? '[' : c == ')' ? '(' : '{';
      if (nesting.back() != open || nesting.size() == 1)
        return false;
      nesting.pop_back();
      break;
    }
    default:
      break;
    }
  }
  return nesting.size() == 1;
}

static void printBody(AsmPrinter &printer, StringRef text) {
  if (canPrintUnquoted(text)) {
    printer.getStream() << text;
    return;
  }
  printer.getStream() << '"';
  llvm::printEscapedString(text, printer.getStream());
  printer.getStream() << '"';
}

//===----------------------------------------------------------------------===//
// Raw body scanning (the body is XLA text, not MLIR tokens)
//===----------------------------------------------------------------------===//

namespace {
/// A cursor over the raw text of an attribute body, with diagnostics located
/// in the source buffer.
class BodyScanner {
public:
  BodyScanner(DialectAsmParser &parser, StringRef text)
      : parser(parser), text(text) {}

  SMLoc loc() const { return SMLoc::getFromPointer(text.data() + pos); }
  SMLoc locAt(size_t p) const { return SMLoc::getFromPointer(text.data() + p); }
  InFlightDiagnostic emitError() { return parser.emitError(loc()); }
  InFlightDiagnostic emitErrorAt(size_t p) {
    return parser.emitError(locAt(p));
  }

  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool atEnd() {
    skipSpace();
    return pos >= text.size();
  }
  bool consumeIf(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  char peek() {
    skipSpace();
    return pos < text.size() ? text[pos] : '\0';
  }

  /// Parses a string literal (MLIR escapes: \" \\ \n \t \XX).
  ParseResult parseString(std::string &out) {
    size_t start = pos;
    if (!consumeIf('"'))
      return emitError() << "expected a string literal";
    while (pos < text.size()) {
      char c = text[pos++];
      if (c == '"')
        return success();
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos >= text.size())
        break;
      char e = text[pos++];
      if (e == '"' || e == '\\') {
        out.push_back(e);
      } else if (e == 'n') {
        out.push_back('\n');
      } else if (e == 't') {
        out.push_back('\t');
      } else if (llvm::isHexDigit(e) && pos < text.size() &&
                 llvm::isHexDigit(text[pos])) {
        out.push_back(static_cast<char>(llvm::hexDigitValue(e) * 16 +
                                        llvm::hexDigitValue(text[pos++])));
      } else {
        return emitErrorAt(pos - 2) << "unknown escape in string literal";
      }
    }
    return emitErrorAt(start) << "unterminated string literal";
  }

  /// Takes a balanced `{...}` group (XLA layout text) verbatim.
  ParseResult takeBraces(StringRef &out) {
    skipSpace();
    size_t start = pos;
    if (pos >= text.size() || text[pos] != '{')
      return emitError() << "expected XLA layout text '{...}' or a string";
    int depth = 0;
    for (; pos < text.size(); ++pos) {
      if (text[pos] == '{')
        ++depth;
      else if (text[pos] == '}' && --depth == 0) {
        ++pos;
        out = text.slice(start, pos);
        return success();
      }
    }
    return emitErrorAt(start) << "unbalanced '{' in layout text";
  }

  /// Parses `[d, d, ...]` with d an integer >= 0 or `?`.
  ParseResult parseDims(SmallVectorImpl<int64_t> &dims) {
    if (!consumeIf('['))
      return emitError() << "expected '[' starting the logical dims";
    if (consumeIf(']'))
      return success();
    do {
      skipSpace();
      if (consumeIf('?')) {
        dims.push_back(ShapedType::kDynamic);
        continue;
      }
      size_t start = pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      int64_t value;
      if (start == pos || text.slice(start, pos).getAsInteger(10, value))
        return emitErrorAt(start)
               << "expected a dimension size (an integer >= 0) or '?'";
      dims.push_back(value);
    } while (consumeIf(','));
    if (!consumeIf(']'))
      return emitError() << "expected ',' or ']' in the logical dims";
    return success();
  }

  size_t position() const { return pos; }
  StringRef rest() const { return text.drop_front(pos); }

private:
  DialectAsmParser &parser;
  StringRef text;
  size_t pos = 0;
};
} // namespace

static Attribute parseTiledBody(DialectAsmParser &parser, StringRef body) {
  BodyScanner scanner(parser, body);
  scanner.skipSpace();
  size_t textPos = scanner.position();
  std::string layoutText;
  if (scanner.peek() == '"') {
    if (failed(scanner.parseString(layoutText)))
      return {};
  } else {
    StringRef raw;
    if (failed(scanner.takeBraces(raw)))
      return {};
    layoutText = raw.str();
  }
  SmallVector<int64_t> dims;
  bool hasDims = false;
  if (scanner.consumeIf(',')) {
    hasDims = true;
    if (failed(scanner.parseDims(dims)))
      return {};
  }
  if (!scanner.atEnd()) {
    scanner.emitError() << "unexpected '" << scanner.rest()
                        << "' in #layout.tiled (expected ', [dims]' or '>')";
    return {};
  }
  llvm::Expected<Layout> layout = parseLayout(layoutText);
  if (!layout) {
    scanner.emitErrorAt(textPos) << "invalid XLA layout '" << layoutText
                                 << "': " << errorText(layout.takeError());
    return {};
  }
  if (hasDims && dims.empty()) {
    scanner.emitErrorAt(textPos) << "logical dims must not be empty; omit "
                                    "', []' for a layout without dims";
    return {};
  }
  auto emitError = [&] { return scanner.emitErrorAt(textPos); };
  return TiledLayoutAttr::getChecked(
      llvm::function_ref<InFlightDiagnostic()>(emitError), parser.getContext(),
      *layout, ArrayRef<int64_t>(dims));
}

static Attribute parseShapeBody(DialectAsmParser &parser, StringRef body) {
  BodyScanner scanner(parser, body);
  scanner.skipSpace();
  size_t textPos = scanner.position();
  std::string shapeText;
  if (scanner.peek() == '"') {
    if (failed(scanner.parseString(shapeText)))
      return {};
    if (!scanner.atEnd()) {
      scanner.emitError() << "unexpected '" << scanner.rest()
                          << "' after the shape string";
      return {};
    }
  } else {
    shapeText = body.str();
  }
  llvm::Expected<Shape> shape = parseShape(shapeText);
  if (!shape) {
    scanner.emitErrorAt(textPos)
        << "invalid XLA shape '" << StringRef(shapeText).trim()
        << "': " << errorText(shape.takeError());
    return {};
  }
  auto emitError = [&] { return scanner.emitErrorAt(textPos); };
  return ShapeAttr::getChecked(
      llvm::function_ref<InFlightDiagnostic()>(emitError), parser.getContext(),
      *shape);
}

Attribute LayoutDialect::parseAttribute(DialectAsmParser &parser,
                                        Type type) const {
  // The body is XLA text (`{1,0:T(2,2)}`, `f32[3]{0}`), not MLIR tokens, so
  // it is taken verbatim from the symbol spec `mnemonic<body>` that the MLIR
  // lexer already delimited by bracket balance.
  StringRef spec = parser.getFullSymbolSpec();
  SMLoc specLoc = SMLoc::getFromPointer(spec.data());
  size_t lt = spec.find('<');
  StringRef mnemonic = spec.take_front(lt).trim();
  if (mnemonic != "tiled" && mnemonic != "shape") {
    // Let the generated dispatcher have its say (it knows the mnemonics).
    StringRef parsedMnemonic;
    Attribute attr;
    OptionalParseResult result =
        generatedAttributeParser(parser, &parsedMnemonic, type, attr);
    if (result.has_value())
      return succeeded(*result) ? attr : Attribute();
    parser.emitError(specLoc) << "unknown layout attribute '" << mnemonic
                              << "' (expected 'tiled' or 'shape')";
    return {};
  }
  if (lt == StringRef::npos || !spec.ends_with(">")) {
    parser.emitError(specLoc) << "expected '<' after #layout." << mnemonic;
    return {};
  }
  if (type) {
    parser.emitError(specLoc)
        << "#layout." << mnemonic << " does not take a type";
    return {};
  }
  StringRef body = spec.slice(lt + 1, spec.size() - 1);
  if (mnemonic == "tiled")
    return parseTiledBody(parser, body);
  return parseShapeBody(parser, body);
}

void LayoutDialect::printAttribute(Attribute attr,
                                   DialectAsmPrinter &printer) const {
  llvm::TypeSwitch<Attribute>(attr).Case<TiledLayoutAttr, ShapeAttr>(
      [&](auto) { (void)generatedAttributePrinter(attr, printer); });
}

/// The ODS `parse` hooks serve parsers that read attributes token by token
/// (e.g. an op's assembly format). XLA text is not MLIR tokens, so the
/// attributes are only parsed through the dialect hook above.
static Attribute parseUnsupported(AsmParser &parser, StringRef mnemonic) {
  parser.emitError(parser.getCurrentLocation())
      << "#layout." << mnemonic
      << " must be written as a dialect attribute, '#layout." << mnemonic
      << "<...>'";
  return {};
}

Attribute TiledLayoutAttr::parse(AsmParser &parser, Type) {
  return parseUnsupported(parser, getMnemonic());
}

void TiledLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printBody(printer, getText());
  if (!getDims().empty())
    printer << ", " << formatDims(getDims());
  printer << ">";
}

Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  return parseUnsupported(parser, getMnemonic());
}

void ShapeAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printBody(printer, getText());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// TiledLayoutAttr
//===----------------------------------------------------------------------===//

TiledLayoutAttr TiledLayoutAttr::get(MLIRContext *context, const Layout &layout,
                                     ArrayRef<int64_t> dims) {
  return Base::get(context, StringRef(printLayout(layout)), dims);
}

TiledLayoutAttr
TiledLayoutAttr::getChecked(llvm::function_ref<InFlightDiagnostic()> emitError,
                            MLIRContext *context, const Layout &layout,
                            ArrayRef<int64_t> dims) {
  return Base::getChecked(emitError, context, StringRef(printLayout(layout)),
                          dims);
}

LogicalResult
TiledLayoutAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                        StringRef text, ArrayRef<int64_t> dims) {
  llvm::Expected<Layout> layout = parseLayout(text);
  if (!layout)
    return emitError() << "invalid XLA layout '" << text
                       << "': " << errorText(layout.takeError());
  std::string canonical = printLayout(*layout);
  if (canonical != text)
    return emitError() << "layout text '" << text
                       << "' is not canonical (expected '" << canonical << "')";
  if (layout->isSparse() || !layout->getSplitConfigs().empty() ||
      layout->getDynamicShapeMetadataPrefixBytes() != 0)
    return emitError() << "layout '" << text
                       << "' has sparse (D, #, *, P), split (SC) or metadata "
                          "(M) fields, which #layout.tiled cannot express as "
                          "an index map; use #layout.shape to carry it";
  // A `*` layout without dims is valid: its map depends on the sizes, which
  // verifyLayout / verifyEncoding take from the memref (tensor) shape.
  if (!dims.empty()) {
    for (int64_t d : dims)
      if (d < 0 && !ShapedType::isDynamic(d))
        return emitError() << "logical dims must be >= 0 or '?', got "
                           << formatDims(dims);
    Shape shape = Shape::makeArray(PrimitiveType::F32, dims, *layout);
    llvm::Expected<TiledLayoutMap> map =
        TiledLayoutMap::get(shape, /*allowDynamic=*/true);
    if (!map)
      return emitError() << errorText(map.takeError());
  }
  return success();
}

// Accessors of the hand-written storage (TableGen does not generate them with
// genStorageClass = 0).
StringRef TiledLayoutAttr::getText() const { return getImpl()->text; }
ArrayRef<int64_t> TiledLayoutAttr::getDims() const { return getImpl()->dims; }
StringRef ShapeAttr::getText() const { return getImpl()->text; }

const Layout &TiledLayoutAttr::getLayout() const {
  static const Layout kInvalid;
  return getImpl()->layout ? *getImpl()->layout : kInvalid;
}

FailureOr<TiledLayoutMap> TiledLayoutAttr::getTiledLayoutMap(
    ArrayRef<int64_t> shape, Type elementType,
    llvm::function_ref<InFlightDiagnostic()> emitError) const {
  if (!getDims().empty() && getDims() != shape)
    return emitError() << "#layout.tiled dims " << formatDims(getDims())
                       << " do not match the shape " << formatDims(shape);
  Shape xlaShape =
      Shape::makeArray(validationElementType(elementType), shape, getLayout());
  llvm::Expected<TiledLayoutMap> map =
      TiledLayoutMap::get(xlaShape, /*allowDynamic=*/true);
  if (!map)
    return emitError() << honestShapeText(errorText(map.takeError()), xlaShape,
                                          elementType);
  // The library checked the byte size with the XLA element type (f32 for
  // types without one). Wider element types without an XLA equivalent
  // (vectors) need their own check: the buffer's byte size must fit int64,
  // or the emitted allocation size and addresses wrap.
  if (elementType && !convertElementType(elementType) &&
      llvm::none_of(shape, ShapedType::isDynamic)) {
    std::optional<int64_t> bits = getElementBitWidth(elementType);
    if (bits &&
        (*bits < 0 ||
         (*bits > 32 && !llvm::checkedMul(map->getAllocatedElements(), *bits))))
      return emitError() << "the physical buffer of shape " << formatDims(shape)
                         << " with element type " << elementType
                         << " and layout " << printLayout(getLayout()) << " ("
                         << map->getAllocatedElements()
                         << " elements) has a size that overflows int64";
  }
  return std::move(*map);
}

FailureOr<MemRefType> TiledLayoutAttr::getPhysicalMemRefType(
    MemRefType type, llvm::function_ref<InFlightDiagnostic()> emitError) const {
  FailureOr<TiledLayoutMap> map =
      getTiledLayoutMap(type.getShape(), type.getElementType(), emitError);
  if (failed(map))
    return failure();
  return MemRefType::get(map->getPhysicalDims(), type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

/// The map of `map` as an AffineMap over `rank` dims, built with `ops`.
template <typename Ops>
static AffineMap buildAffineMap(const TiledLayoutMap &map, int64_t rank,
                                Ops &ops, MLIRContext *ctx) {
  SmallVector<AffineExpr> inputs;
  for (int64_t i = 0; i < rank; ++i)
    inputs.push_back(getAffineDimExpr(i, ctx));
  SmallVector<AffineExpr, 6> results =
      map.apply<AffineExpr>(ArrayRef<AffineExpr>(inputs), ops);
  return AffineMap::get(rank, 0, results, ctx);
}

namespace {
/// The index algebra of a dims-less `*` layout's placeholder map: a combine
/// multiplies by the unknown size of its inner dims, written as the product
/// with the inner index itself. The result is not an affine map (dims times
/// dims), which affine analyses refuse instead of trusting a wrong map.
struct UnknownSizeIndexOps : AffineIndexOps {
  AffineExpr mul(AffineExpr a, int64_t) { return a * a; }
};
} // namespace

bool TiledLayoutAttr::hasShapeDependentMap() const {
  return llvm::any_of(getLayout().getTiles(),
                      [](const Tile &t) { return t.hasCombine(); });
}

AffineMap TiledLayoutAttr::getAffineMap() const {
  MLIRContext *ctx = getContext();
  const std::optional<TiledLayoutMap> &map = getImpl()->indexMap;
  int64_t rank = static_cast<int64_t>(getLayout().getMinorToMajor().size());
  if (map) {
    AffineIndexOps ops{ctx};
    return buildAffineMap(*map, rank, ops, ctx);
  }
  if (getImpl()->layout && getDims().empty() && hasShapeDependentMap()) {
    // A dims-less `*` layout: the exact map needs the shape
    // (getAffineMapForShape). The interface has none and must not return
    // null; symbols for the sizes would make every memref.alloc of the type
    // need symbol operands. Return the placeholder instead, built over
    // sizes 1 (valid for every layout) with the combines non-affine.
    SmallVector<int64_t> ones(rank, 1);
    llvm::Expected<TiledLayoutMap> placeholder = TiledLayoutMap::get(
        Shape::makeArray(PrimitiveType::F32, ones, getLayout()),
        /*allowDynamic=*/true);
    if (placeholder) {
      UnknownSizeIndexOps ops{{ctx}};
      return buildAffineMap(*placeholder, rank, ops, ctx);
    }
    llvm::consumeError(placeholder.takeError());
  }
  // Unverified attribute; the interface must not return null.
  return AffineMap::getMultiDimIdentityMap(rank, ctx);
}

AffineMap TiledLayoutAttr::getAffineMapForShape(ArrayRef<int64_t> shape) const {
  if (!getDims().empty() || !hasShapeDependentMap())
    return getAffineMap();
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(
      Shape::makeArray(PrimitiveType::F32, shape, getLayout()),
      /*allowDynamic=*/true);
  if (!map) {
    llvm::consumeError(map.takeError());
    return {};
  }
  AffineIndexOps ops{getContext()};
  return buildAffineMap(*map, static_cast<int64_t>(shape.size()), ops,
                        getContext());
}

TiledLayoutAttr TiledLayoutAttr::withDims(ArrayRef<int64_t> dims) const {
  return get(getContext(), getText(), dims);
}

bool mlir::layout::areEquivalentLayouts(Attribute lhs, Attribute rhs) {
  if (lhs == rhs)
    return true;
  auto a = dyn_cast_if_present<TiledLayoutAttr>(lhs);
  auto b = dyn_cast_if_present<TiledLayoutAttr>(rhs);
  if (!a || !b || a.getText() != b.getText())
    return false;
  // Dims are a checked copy of the type's shape: with the same text, two
  // layouts differ only if both carry dims and the dims differ.
  return a.getDims().empty() || b.getDims().empty() ||
         a.getDims() == b.getDims();
}

LogicalResult TiledLayoutAttr::verifyLayout(
    ArrayRef<int64_t> shape,
    llvm::function_ref<InFlightDiagnostic()> emitError) const {
  return getTiledLayoutMap(shape, Type(), emitError);
}

LogicalResult
TiledLayoutAttr::getStridesAndOffset(ArrayRef<int64_t> shape,
                                     SmallVectorImpl<int64_t> &strides,
                                     int64_t &offset) const {
  // Only untiled, unpadded layouts are strided: a permutation of row-major.
  const Layout &layout = getLayout();
  if (!layout.getTiles().empty() || !layout.getPaddedDimensions().empty() ||
      layout.getMinorToMajor().size() != shape.size())
    return failure();
  strides.assign(shape.size(), 0);
  int64_t stride = 1;
  for (int64_t dim : layout.getMinorToMajor()) {
    strides[dim] = stride;
    if (ShapedType::isDynamic(stride) || ShapedType::isDynamic(shape[dim]))
      stride = ShapedType::kDynamic;
    else
      stride *= shape[dim];
  }
  offset = 0;
  return success();
}

LogicalResult TiledLayoutAttr::verifyEncoding(
    ArrayRef<int64_t> shape, Type elementType,
    llvm::function_ref<InFlightDiagnostic()> emitError) const {
  if (!convertElementType(elementType))
    return emitError() << "element type " << elementType
                       << " has no XLA equivalent for a #layout.tiled encoding";
  return getTiledLayoutMap(shape, elementType, emitError);
}

//===----------------------------------------------------------------------===//
// ShapeAttr
//===----------------------------------------------------------------------===//

ShapeAttr ShapeAttr::get(MLIRContext *context, const Shape &shape) {
  return Base::get(context, StringRef(printShape(shape)));
}

ShapeAttr
ShapeAttr::getChecked(llvm::function_ref<InFlightDiagnostic()> emitError,
                      MLIRContext *context, const Shape &shape) {
  return Base::getChecked(emitError, context, StringRef(printShape(shape)));
}

LogicalResult
ShapeAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                  StringRef text) {
  llvm::Expected<Shape> shape = parseShape(text);
  if (!shape)
    return emitError() << "invalid XLA shape '" << text
                       << "': " << errorText(shape.takeError());
  std::string canonical = printShape(*shape);
  if (canonical != text)
    return emitError() << "shape text '" << text
                       << "' is not canonical (expected '" << canonical << "')";
  return success();
}

const Shape &ShapeAttr::getShape() const {
  static const Shape kInvalid;
  return getImpl()->shape ? *getImpl()->shape : kInvalid;
}
