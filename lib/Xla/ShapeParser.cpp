//===- ShapeParser.cpp - HLO shape and layout text ------------------------===//
//
// Semantics: docs/semantics.md §4.
//
// A recursive-descent parser for XLA's HLO shape syntax plus the project's
// legacy padding attributes:
//
//   shape  := '(' [shape {',' shape}] ')' | PTYPE '[' [dim {',' dim}] ']'
//             [layout] | 'token' '[' ']' | 'opaque' '[' ']'
//   dim    := INT | '<=' INT | '?'
//   layout := '{' [INT {',' INT}] [':' attrs] '}'
//   attrs  := [D(..)] [T(..)..] [L(n)] [#(t)] [*(t)] [E(n)] [S(n)] [SC(..)..]
//             [P(shape)] [M(n)] [PAD(..)] [PV(name)]
//
// Like XLA's lexer, whitespace may separate any two tokens. Unlike XLA's
// parser, attributes that are out of order or repeated are errors rather
// than silently left unparsed. Messages follow XLA's hlo_parser.cc wording
// where it has one and start with the 1-based column ("column 7: ...").
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Shape.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir::layout;

namespace {

/// Nesting limit for tuples and P(shape), so that hostile input cannot
/// exhaust the stack (XLA has the same guard).
constexpr int kMaxRecursionDepth = 256;

/// Layout attributes in the order they must appear.
enum class Attr { D, T, L, Index, Pointer, E, S, SC, P, M, PAD, PV, Count };

constexpr llvm::StringLiteral kAttrNames[] = {"D", "T",  "L", "#", "*",   "E",
                                              "S", "SC", "P", "M", "PAD", "PV"};

std::optional<Attr> lookupAttr(llvm::StringRef name) {
  for (int i = 0; i < static_cast<int>(Attr::Count); ++i)
    if (kAttrNames[i] == name)
      return static_cast<Attr>(i);
  return std::nullopt;
}

std::string attrOrder() {
  std::string order;
  for (int i = 0; i < static_cast<int>(Attr::Count); ++i) {
    if (i)
      order += ' ';
    order += kAttrNames[i].str();
  }
  return order;
}

bool isIdentStart(char c) { return llvm::isAlpha(c) || c == '_'; }
bool isIdentChar(char c) { return llvm::isAlnum(c) || c == '_'; }

class Parser {
public:
  explicit Parser(llvm::StringRef text) : text(text) {}

  llvm::Expected<Shape> parseShape(int depth);
  /// `rank` is known when the layout belongs to a parsed array shape.
  llvm::Expected<Layout> parseLayout(std::optional<int64_t> rank, int depth);
  llvm::Error expectEnd(llvm::StringRef what);

private:
  llvm::Error error(size_t at, const llvm::Twine &message) const {
    return makeError("column " + llvm::Twine(at + 1) + ": " + message);
  }
  llvm::Error error(const llvm::Twine &message) const {
    return error(pos, message);
  }

  /// Skips whitespace and `/*...*/` comments, as XLA's lexer does (XLA
  /// prints `/*index=N*/` inside long tuples).
  void skipSpace() {
    while (pos < text.size()) {
      if (llvm::isSpace(text[pos])) {
        ++pos;
        continue;
      }
      if (!text.substr(pos).starts_with("/*"))
        return;
      size_t end = text.find("*/", pos + 2);
      if (end == llvm::StringRef::npos)
        return; // Unterminated: reported as an unexpected '/'.
      pos = end + 2;
    }
  }
  /// Skips whitespace and reports whether the next character is `c`.
  bool peek(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }
  bool peek(llvm::StringRef s) {
    skipSpace();
    return text.substr(pos).starts_with(s);
  }
  bool consumeIf(char c) {
    if (!peek(c))
      return false;
    ++pos;
    return true;
  }
  llvm::Error expect(char c, const llvm::Twine &message) {
    if (consumeIf(c))
      return llvm::Error::success();
    return error(message + ", saw " + describeNext());
  }

  /// The next token, for messages: `'f33'`, `']'` or "end of input".
  std::string describeNext() {
    skipSpace();
    if (pos >= text.size())
      return "end of input";
    size_t end = pos;
    if (isIdentChar(text[pos]) || text[pos] == '-')
      while (end < text.size() && (isIdentChar(text[end]) || end == pos))
        ++end;
    else
      end = pos + 1;
    return "'" + text.slice(pos, end).str() + "'";
  }

  /// [A-Za-z_][A-Za-z0-9_]*, or an empty string.
  llvm::StringRef lexIdent() {
    skipSpace();
    size_t start = pos;
    if (pos < text.size() && isIdentStart(text[pos]))
      while (pos < text.size() && isIdentChar(text[pos]))
        ++pos;
    return text.slice(start, pos);
  }

  /// XLA's ParseShape takes `{` as the start of a layout only if the next
  /// token is an integer or ':' (hlo_parser.cc); otherwise, e.g. `f32[]{}`,
  /// the brace is left over ("Extra content after shape").
  bool startsLayout() {
    if (!peek('{'))
      return false;
    size_t saved = pos++;
    skipSpace();
    bool layout = pos < text.size() && (llvm::isDigit(text[pos]) ||
                                        text[pos] == '-' || text[pos] == ':');
    pos = saved;
    return layout;
  }

  llvm::Expected<int64_t> parseInt(llvm::StringRef what);
  llvm::Error parseIntList(char close, llvm::SmallVectorImpl<int64_t> &out,
                           llvm::StringRef what);
  llvm::Error parseIntAttr(int64_t &out, llvm::StringRef description);
  llvm::Error parseDimensions(Shape &shape);
  llvm::Error parseDimLevels(Layout &layout);
  llvm::Error parseTiles(Layout &layout);
  llvm::Error parseIndexType(PrimitiveType &out, char sigil,
                             llvm::StringRef description);
  llvm::Error parseSplitConfigs(Layout &layout);
  llvm::Error parseAttr(Attr attr, Layout &layout, int depth);

  llvm::StringRef text;
  size_t pos = 0;
};

llvm::Expected<int64_t> Parser::parseInt(llvm::StringRef what) {
  skipSpace();
  size_t start = pos;
  bool negative = pos < text.size() && text[pos] == '-';
  size_t digits = negative ? pos + 1 : pos;
  size_t end = digits;
  while (end < text.size() && llvm::isDigit(text[end]))
    ++end;
  if (end == digits)
    return error("expects integer" +
                 (what.empty() ? std::string() : " for " + what.str()) +
                 ", saw " + describeNext());
  // Accumulate negatively so that INT64_MIN is representable.
  int64_t value = 0;
  for (size_t i = digits; i < end; ++i) {
    int64_t digit = text[i] - '0';
    if (value < (std::numeric_limits<int64_t>::min() + digit) / 10)
      return error(start, "integer literal out of range for int64: '" +
                              text.slice(start, end) + "'");
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == std::numeric_limits<int64_t>::min())
      return error(start, "integer literal out of range for int64: '" +
                              text.slice(start, end) + "'");
    value = -value;
  }
  pos = end;
  return value;
}

// '(' [INT {',' INT}] `close` with the '(' already consumed.
llvm::Error Parser::parseIntList(char close,
                                 llvm::SmallVectorImpl<int64_t> &out,
                                 llvm::StringRef what) {
  if (consumeIf(close))
    return llvm::Error::success();
  do {
    llvm::Expected<int64_t> value = parseInt(what);
    if (!value)
      return value.takeError();
    out.push_back(*value);
  } while (consumeIf(','));
  return expect(close,
                "expects a list to end with '" + llvm::Twine(close) + "'");
}

// attr_value ::= '(' INT ')'
llvm::Error Parser::parseIntAttr(int64_t &out, llvm::StringRef description) {
  if (llvm::Error err =
          expect('(', "expects " + description + " to start with '('"))
    return err;
  llvm::Expected<int64_t> value = parseInt(description);
  if (!value)
    return value.takeError();
  out = *value;
  return expect(')', "expects " + description + " to end with ')'");
}

// dimension_sizes ::= '[' [dim {',' dim}] ']'; dim ::= INT | '<=' INT | '?'
llvm::Error Parser::parseDimensions(Shape &shape) {
  if (llvm::Error err = expect('[', "expects '[' to start dimensions"))
    return err;
  llvm::SmallVector<int64_t, 4> dims;
  llvm::SmallVector<bool, 4> dynamic;
  if (!consumeIf(']')) {
    do {
      skipSpace();
      size_t start = pos;
      if (consumeIf('?')) {
        dims.push_back(kUnboundedSize);
        dynamic.push_back(true);
        continue;
      }
      bool isDynamic = false;
      if (peek("<=")) {
        pos += 2;
        isDynamic = true;
      } else if (pos >= text.size() ||
                 !(llvm::isDigit(text[pos]) || text[pos] == '-')) {
        return error("expects a dimension size (INT, '<=' INT or '?'), saw " +
                     describeNext());
      }
      llvm::Expected<int64_t> size = parseInt("");
      if (!size)
        return size.takeError();
      if (*size < 0)
        return error(start, "Negative dimension at index " +
                                llvm::Twine(dims.size()) + ": " +
                                llvm::Twine(*size) + ".");
      dims.push_back(*size);
      dynamic.push_back(isDynamic);
    } while (consumeIf(','));
    if (llvm::Error err = expect(']', "expects ']' to end dimensions"))
      return err;
  }
  Layout layout = Layout::getDefault(static_cast<int64_t>(dims.size()));
  shape = Shape::makeArray(shape.getElementType(), dims, layout, dynamic);
  return llvm::Error::success();
}

// dim_level_types ::= '(' [dlt {',' dlt}] ')'; dlt ::= (D|C|S|H) ['+'] ['~']
// XLA's spelling: '+' marks "not unique", '~' "not ordered".
llvm::Error Parser::parseDimLevels(Layout &layout) {
  if (llvm::Error err = expect('(', "expects a list starting with '('"))
    return err;
  llvm::SmallVectorImpl<DimLevel> &levels = layout.mutableDimLevels();
  if (consumeIf(')'))
    return llvm::Error::success();
  do {
    size_t start = pos;
    llvm::StringRef name = lexIdent();
    DimLevel level;
    if (name == "D")
      level.type = DimLevelType::Dense;
    else if (name == "C")
      level.type = DimLevelType::Compressed;
    else if (name == "S")
      level.type = DimLevelType::Singleton;
    else if (name == "H")
      level.type = DimLevelType::LooseCompressed;
    else {
      pos = start;
      return error("expected a DimLevelType abbreviation (D, C, S, or H), "
                   "saw " +
                   describeNext());
    }
    if (consumeIf('+'))
      level.unique = false;
    if (consumeIf('~'))
      level.ordered = false;
    levels.push_back(level);
  } while (consumeIf(','));
  return expect(')', "expects a list to end with ')'");
}

// tiles ::= ('(' [tdim {',' tdim}] ')')+; tdim ::= INT | '*'
llvm::Error Parser::parseTiles(Layout &layout) {
  if (!peek('('))
    return error("expects a list starting with '(', saw " + describeNext());
  while (consumeIf('(')) {
    llvm::SmallVector<int64_t, 4> dims;
    if (!consumeIf(')')) {
      do {
        if (consumeIf('*')) {
          dims.push_back(Tile::kCombineDimension);
          continue;
        }
        skipSpace();
        if (pos >= text.size() ||
            !(llvm::isDigit(text[pos]) || text[pos] == '-'))
          return error("expects integer or '*' in tile, saw " + describeNext());
        size_t start = pos;
        llvm::Expected<int64_t> value = parseInt("tile");
        if (!value)
          return value.takeError();
        // XLA stores `*` as -1 (Tile::kCombineDimension) and its parser
        // reads `-1` as `*`; any other negative entry would be printed as
        // "Invalid value N" by XLA's Tile::ToString, and is refused here.
        if (*value < 0 && *value != Tile::kCombineDimension)
          return error(start, "tile dimension " + llvm::Twine(*value) +
                                  " is negative; tile entries must be "
                                  "positive or '*'");
        dims.push_back(*value);
      } while (consumeIf(','));
      if (llvm::Error err = expect(')', "expects a list to end with ')'"))
        return err;
    }
    layout.mutableTiles().push_back(Tile(dims));
  }
  return llvm::Error::success();
}

// '#' '(' unsigned-type ')' and '*' '(' unsigned-type ')'
llvm::Error Parser::parseIndexType(PrimitiveType &out, char sigil,
                                   llvm::StringRef description) {
  if (llvm::Error err = expect('(', "expects '" + llvm::Twine(sigil) +
                                        "' to be followed by '('"))
    return err;
  size_t start = pos;
  llvm::StringRef name = lexIdent();
  std::optional<PrimitiveType> type = parsePrimitiveTypeName(name);
  if (!type) {
    pos = start;
    return error("expected primitive type, saw " + describeNext());
  }
  if (!isUnsignedIntegralType(*type))
    return error(start,
                 "expecting an unsigned integer type, saw '" + name + "'");
  out = *type;
  return expect(')', "expects " + description + " to be followed by ')'");
}

// split_configs ::= ('(' INT ':' [INT {',' INT}] ')')+
// Messages are XLA's own (hlo_parser.cc ParseSplitConfigs and ParseList,
// which name tokens with TokKindToString: kLparen, kColon, kRparen; and
// ParseInt64's "expects integer").
llvm::Error Parser::parseSplitConfigs(Layout &layout) {
  do {
    if (!consumeIf('('))
      return error("expects split configs to start with kLparen");
    SplitConfig config;
    skipSpace();
    if (pos >= text.size() || !(llvm::isDigit(text[pos]) || text[pos] == '-'))
      return error("expects integer");
    llvm::Expected<int64_t> dimension = parseInt("");
    if (!dimension)
      return dimension.takeError();
    config.dimension = *dimension;
    if (!consumeIf(':'))
      return error("expects a list starting with kColon");
    if (!consumeIf(')')) {
      do {
        skipSpace();
        if (pos >= text.size() ||
            !(llvm::isDigit(text[pos]) || text[pos] == '-'))
          return error("expects integer");
        llvm::Expected<int64_t> index = parseInt("");
        if (!index)
          return index.takeError();
        config.splitIndices.push_back(*index);
      } while (consumeIf(','));
      if (!consumeIf(')'))
        return error("expects a list to end with kRparen");
    }
    layout.mutableSplitConfigs().push_back(std::move(config));
  } while (peek('('));
  return llvm::Error::success();
}

// One attribute's payload, after its name.
llvm::Error Parser::parseAttr(Attr attr, Layout &layout, int depth) {
  switch (attr) {
  case Attr::D:
    return parseDimLevels(layout);
  case Attr::T:
    return parseTiles(layout);
  case Attr::L: {
    int64_t value = 1;
    if (llvm::Error err = parseIntAttr(value, "multiple padded to in elements"))
      return err;
    layout.setTailPaddingAlignment(value);
    return llvm::Error::success();
  }
  case Attr::Index: {
    PrimitiveType type = PrimitiveType::Invalid;
    if (llvm::Error err = parseIndexType(type, '#', "index primitive type"))
      return err;
    layout.setIndexPrimitiveType(type);
    return llvm::Error::success();
  }
  case Attr::Pointer: {
    PrimitiveType type = PrimitiveType::Invalid;
    if (llvm::Error err = parseIndexType(type, '*', "pointer primitive type"))
      return err;
    layout.setPointerPrimitiveType(type);
    return llvm::Error::success();
  }
  case Attr::E: {
    int64_t value = 0;
    if (llvm::Error err = parseIntAttr(value, "element size in bits"))
      return err;
    layout.setElementSizeInBits(value);
    return llvm::Error::success();
  }
  case Attr::S: {
    int64_t value = 0;
    if (llvm::Error err = parseIntAttr(value, "memory space"))
      return err;
    layout.setMemorySpace(value);
    return llvm::Error::success();
  }
  case Attr::SC:
    return parseSplitConfigs(layout);
  case Attr::P: {
    if (llvm::Error err =
            expect('(', "expects physical shape to start with '('"))
      return err;
    llvm::Expected<Shape> physical = parseShape(depth + 1);
    if (!physical)
      return physical.takeError();
    layout.setPhysicalShape(*physical);
    return expect(')', "expects physical shape to end with ')'");
  }
  case Attr::M: {
    int64_t value = 0;
    if (llvm::Error err =
            parseIntAttr(value, "dynamic shape metadata prefix bytes"))
      return err;
    layout.setDynamicShapeMetadataPrefixBytes(value);
    return llvm::Error::success();
  }
  case Attr::PAD:
    if (llvm::Error err =
            expect('(', "expects padded dimensions to start with '('"))
      return err;
    return parseIntList(')', layout.mutablePaddedDimensions(),
                        "padded dimension");
  case Attr::PV: {
    if (llvm::Error err =
            expect('(', "expects padding value to start with '('"))
      return err;
    size_t start = pos;
    std::optional<PaddingValue> value = parsePaddingValueName(lexIdent());
    if (!value) {
      pos = start;
      return error("expects a padding value (zero, one, lowest, highest, "
                   "unknown or invalid), saw " +
                   describeNext());
    }
    layout.setPaddingValue(*value);
    return expect(')', "expects padding value to end with ')'");
  }
  case Attr::Count:
    break;
  }
  return llvm::Error::success();
}

llvm::Expected<Layout> Parser::parseLayout(std::optional<int64_t> rank,
                                           int depth) {
  Layout layout;
  if (llvm::Error err = expect('{', "expects layout to start with '{'"))
    return std::move(err);
  skipSpace();
  if (pos < text.size() && (llvm::isDigit(text[pos]) || text[pos] == '-')) {
    do {
      llvm::Expected<int64_t> dim = parseInt("minor_to_major");
      if (!dim)
        return dim.takeError();
      layout.mutableMinorToMajor().push_back(*dim);
    } while (consumeIf(','));
  }
  if (consumeIf(':')) {
    bool seen[static_cast<int>(Attr::Count)] = {};
    std::optional<Attr> last;
    while (!peek('}')) {
      size_t start = pos;
      llvm::StringRef name;
      if (pos < text.size() && (text[pos] == '#' || text[pos] == '*'))
        name = text.substr(pos++, 1);
      else
        name = lexIdent();
      if (name.empty()) {
        pos = start;
        return error("expects layout to end with '}', saw " + describeNext());
      }
      std::optional<Attr> attr = lookupAttr(name);
      if (!attr)
        return error(start, "unknown layout attribute '" + name +
                                "' (expected one of " + attrOrder() + ")");
      if (seen[static_cast<int>(*attr)])
        return error(start,
                     "layout attribute '" + name + "' appears more than once");
      if (last && *attr < *last)
        return error(start, "layout attribute '" + name +
                                "' is out of order: it must come before '" +
                                kAttrNames[static_cast<int>(*last)] +
                                "' (order: " + attrOrder() + ")");
      seen[static_cast<int>(*attr)] = true;
      last = attr;

      if (llvm::Error err = parseAttr(*attr, layout, depth))
        return std::move(err);
    }
  }
  if (llvm::Error err = expect('}', "expects layout to end with '}'"))
    return std::move(err);

  // An all-dense D(...) means the same as none; keep one representation so
  // that parse(print(x)) == x. Check its length first, since it is dropped.
  llvm::ArrayRef<DimLevel> levels = layout.getDimLevels();
  if (!levels.empty() && llvm::all_of(levels, [](const DimLevel &l) {
        return l.type == DimLevelType::Dense && l.unique && l.ordered;
      })) {
    if (rank && static_cast<int64_t>(levels.size()) != *rank)
      return makeError("layout dim_level_types field contains " +
                       llvm::Twine(levels.size()) +
                       " elements, but shape is rank " + llvm::Twine(*rank));
    layout.mutableDimLevels().clear();
  }
  return layout;
}

llvm::Expected<Shape> Parser::parseShape(int depth) {
  if (depth > kMaxRecursionDepth)
    return error("maximum recursion depth exceeded");
  skipSpace();
  size_t start = pos;

  if (consumeIf('(')) {
    std::vector<Shape> elements;
    if (!consumeIf(')')) {
      do {
        llvm::Expected<Shape> element = parseShape(depth + 1);
        if (!element)
          return element.takeError();
        elements.push_back(std::move(*element));
      } while (consumeIf(','));
      if (llvm::Error err = expect(')', "expects ')' at the end of tuple"))
        return std::move(err);
    }
    if (peek('{'))
      return error("a tuple shape has no layout of its own");
    return Shape::makeTuple(elements);
  }

  llvm::StringRef name = lexIdent();
  std::optional<PrimitiveType> type = parsePrimitiveTypeName(name);
  if (!type) {
    pos = start;
    if (name.empty())
      return error("expected primitive type, saw " + describeNext());
    return error("expected primitive type, saw unknown element type '" + name +
                 "'");
  }

  if (*type == PrimitiveType::Token || *type == PrimitiveType::Opaque) {
    if (llvm::Error err = expect('[', "expects '[' to start dimensions"))
      return std::move(err);
    if (llvm::Error err =
            expect(']', "expects ']': " + name + " shapes have no dimensions"))
      return std::move(err);
    if (peek('{'))
      return error("a " + name + " shape has no layout");
    return *type == PrimitiveType::Token ? Shape::makeToken()
                                         : Shape::makeOpaque();
  }

  Shape shape = Shape::makeArray(*type, {});
  if (llvm::Error err = parseDimensions(shape))
    return std::move(err);
  if (startsLayout()) {
    llvm::Expected<Layout> layout = parseLayout(shape.getRank(), depth);
    if (!layout)
      return layout.takeError();
    shape.setLayout(*layout);
  }
  return shape;
}

llvm::Error Parser::expectEnd(llvm::StringRef what) {
  skipSpace();
  if (pos == text.size())
    return llvm::Error::success();
  // XLA's ParseShapeOnly / ParseLayoutOnly: "Extra content after shape".
  return error("Extra content after " + what + ": '" + text.substr(pos) + "'");
}

} // namespace

llvm::Expected<Shape> mlir::layout::parseShape(llvm::StringRef text) {
  Parser parser(text);
  llvm::Expected<Shape> shape = parser.parseShape(0);
  if (!shape)
    return shape.takeError();
  if (llvm::Error err = parser.expectEnd("shape"))
    return std::move(err);
  if (llvm::Error err = validateShape(*shape))
    return std::move(err);
  return shape;
}

llvm::Expected<Layout> mlir::layout::parseLayout(llvm::StringRef text) {
  Parser parser(text);
  llvm::Expected<Layout> layout = parser.parseLayout(std::nullopt, 0);
  if (!layout)
    return layout.takeError();
  if (llvm::Error err = parser.expectEnd("layout"))
    return std::move(err);
  return layout;
}
