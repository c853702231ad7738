//===- layout-explain.cpp - Explain XLA shapes, layouts and tiling -------===//
//
// A command-line calculator over the LayoutXla library: canonical text,
// validation, logical <-> physical indices, sizes, the memory image of a tiled
// layout, broadcasting and the ShapeUtil bitcast helpers. See
// docs/layout-explain.md.
//
// Contract (scripts rely on it): each subcommand prints its answer on stdout
// and exits 0, or prints `error: <message>` on stderr, nothing on stdout, and
// exits 1. `--json` prints the same answer as one JSON object. No input may
// crash the tool: every argument is checked before the library is called.
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/Broadcast.h"
#include "layout/Xla/Shape.h"
#include "layout/Xla/ShapeUtil.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace mlir::layout;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
using llvm::MutableArrayRef;
using llvm::SmallVector;
using llvm::StringRef;
namespace json = llvm::json;

namespace {

/// `memory` refuses buffers with more slots than this.
constexpr int64_t kMaxMemorySlots = int64_t(1) << 20;
/// `show` prints the grid and memory image only up to this many slots.
constexpr int64_t kMaxShowSlots = 4096;
/// `show` wraps the memory image after this many slots per line.
constexpr int64_t kMaxSlotsPerLine = 16;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

enum OptionMask : unsigned {
  kOptDims = 1 << 0,
  kOptPerm = 1 << 1,
  kOptOp = 1 << 2,
  kOptIgnoreElementType = 1 << 3,
};

struct Options {
  std::vector<StringRef> positional;
  std::optional<StringRef> dims, perm, op;
  bool ignoreElementType = false;
  bool json = false;
  bool help = false;
};

/// The answer of a subcommand: text for people, or one JSON object.
struct Output {
  bool json = false;
  std::string text;
  json::Object object;
};

using Handler = Error (*)(const Options &, Output &);

struct Command {
  StringRef name;
  StringRef synopsis; // arguments, for the usage text
  unsigned numPositional;
  unsigned options; // OptionMask bits accepted
  Handler handler;
  StringRef description;
};

Error makeErr(const llvm::Twine &message) { return makeError(message); }

std::string joinInts(ArrayRef<int64_t> values, StringRef sep = ",") {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      s += sep;
    s += values[i] == kUnboundedSize ? "?" : std::to_string(values[i]);
  }
  return s;
}

std::string bracketed(ArrayRef<int64_t> values) {
  return "[" + joinInts(values) + "]";
}

json::Array toJson(ArrayRef<int64_t> values) {
  json::Array array;
  for (int64_t v : values)
    array.push_back(v);
  return array;
}

/// Parses one int64 with overflow checks (no sign, space or radix prefix
/// tricks: what StringRef::getAsInteger accepts in base 10).
Expected<int64_t> parseInt(StringRef text, StringRef what) {
  int64_t value;
  StringRef trimmed = text.trim();
  if (trimmed.empty())
    return makeErr(what + " is empty; expected an integer");
  if (trimmed.getAsInteger(10, value))
    return makeErr(what + " '" + text +
                   "' is not an integer in the int64 range");
  return value;
}

/// Parses `I0,I1,...` (optionally in parentheses, as `memory` prints
/// indices). The empty string is the empty list (a scalar's index).
Expected<SmallVector<int64_t, 6>> parseIntList(StringRef text, StringRef what) {
  StringRef list = text.trim();
  if (list.starts_with("(") || list.ends_with(")")) {
    if (!list.consume_front("(") || !list.consume_back(")"))
      return makeErr(what + " '" + text + "' has unbalanced parentheses");
    list = list.trim();
  }
  SmallVector<int64_t, 6> values;
  if (list.empty())
    return values;
  SmallVector<StringRef, 6> parts;
  list.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (StringRef part : parts) {
    StringRef entry = part.trim();
    if (entry.empty())
      return makeErr(what + " '" + text +
                     "' has an empty entry; expected comma-separated "
                     "integers like 1,2,3");
    int64_t value;
    if (entry.getAsInteger(10, value))
      return makeErr(what + " '" + text + "': '" + entry +
                     "' is not an integer in the int64 range");
    values.push_back(value);
  }
  return values;
}

Expected<Shape> parseShapeArg(StringRef text, StringRef what) {
  Expected<Shape> shape = parseShape(text);
  if (!shape)
    return makeErr(what + " '" + text +
                   "': " + llvm::toString(shape.takeError()));
  return shape;
}

/// Parses an array shape and builds its (static) tiled layout map.
Expected<TiledLayoutMap> getMap(const Shape &shape) {
  return TiledLayoutMap::get(shape);
}

//===----------------------------------------------------------------------===//
// Sizes
//===----------------------------------------------------------------------===//

/// `key: value` rows; a value of std::nullopt prints as `none` (JSON null).
using SizeRows = SmallVector<std::pair<std::string, std::optional<int64_t>>>;

Expected<SizeRows> computeSizes(const Shape &shape) {
  SizeRows rows;
  if (!shape.isArray()) {
    // Tuples, tokens, opaque: XLA's pointer-per-element sizes only.
    if (shape.isTuple())
      rows.push_back({"tuple_elements",
                      static_cast<int64_t>(shape.getTupleShapes().size())});
    Expected<int64_t> bytes = xlaByteSizeOf(shape);
    if (!bytes)
      return bytes.takeError();
    rows.push_back({"byte_size", *bytes});
    Expected<int64_t> allocated = getAllocatedBytes(shape);
    if (!allocated)
      return allocated.takeError();
    rows.push_back({"allocated_bytes", *allocated});
    return rows;
  }
  Expected<TiledLayoutMap> map = getMap(shape);
  if (!map)
    return map.takeError();
  const Layout &layout = shape.getLayout();
  int64_t bits = layout.getElementSizeInBits()
                     ? layout.getElementSizeInBits()
                     : 8 * primitiveTypeByteWidth(shape.getElementType());
  rows.push_back({"rank", shape.getRank()});
  rows.push_back({"true_rank", shape.getTrueRank()});
  rows.push_back({"element_bits", bits});
  rows.push_back({"elements", map->getElementCount()});
  rows.push_back({"physical_elements", map->getPhysicalElementCount()});
  rows.push_back({"allocated_elements", map->getAllocatedElements()});
  Expected<int64_t> byteSize = xlaByteSizeOf(shape);
  if (!byteSize)
    return byteSize.takeError();
  rows.push_back({"byte_size", *byteSize});
  rows.push_back({"allocated_bytes", map->getAllocatedBytes()});
  // XLA's ArraySize does not support a `*` in the first tile: `none`.
  Expected<int64_t> arraySize = xlaArraySize(shape);
  if (arraySize) {
    rows.push_back({"xla_array_size", *arraySize});
  } else {
    llvm::consumeError(arraySize.takeError());
    rows.push_back({"xla_array_size", std::nullopt});
  }
  return rows;
}

void printSizes(const SizeRows &rows, llvm::raw_ostream &os,
                StringRef indent = "") {
  for (const auto &[key, value] : rows) {
    os << indent << key << ": ";
    if (value)
      os << *value;
    else
      os << "none";
    os << "\n";
  }
}

json::Object sizesToJson(const SizeRows &rows) {
  json::Object object;
  for (const auto &[key, value] : rows)
    object[key] = value ? json::Value(*value) : json::Value(nullptr);
  return object;
}

//===----------------------------------------------------------------------===//
// Subcommands
//===----------------------------------------------------------------------===//

Error runCanonical(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  std::string text = printShape(*shape);
  out.text = text + "\n";
  out.object["canonical"] = text;
  return Error::success();
}

Error runValidate(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  // parseShape validates; validate again in case a future parser does not.
  if (Error err = validateShape(*shape))
    return err;
  out.text = "valid\n";
  out.object["valid"] = true;
  out.object["canonical"] = printShape(*shape);
  return Error::success();
}

Error runIndex(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  Expected<SmallVector<int64_t, 6>> index =
      parseIntList(opts.positional[1], "index");
  if (!index)
    return index.takeError();
  Expected<TiledLayoutMap> map = getMap(*shape);
  if (!map)
    return map.takeError();
  Expected<int64_t> linear = map->checkedLinearIndex(*index);
  if (!linear)
    return linear.takeError();
  out.text = std::to_string(*linear) + "\n";
  out.object["index"] = *linear;
  out.object["physical_index"] = toJson(map->physicalIndex(*index));
  out.object["physical_dims"] = toJson(map->getPhysicalDims());
  return Error::success();
}

Error runXlaIndex(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  Expected<SmallVector<int64_t, 6>> index =
      parseIntList(opts.positional[1], "index");
  if (!index)
    return index.takeError();
  Expected<int64_t> linear = xlaLinearIndex(*shape, *index);
  if (!linear)
    return linear.takeError();
  out.text = std::to_string(*linear) + "\n";
  out.object["xla_index"] = *linear;
  return Error::success();
}

Error runMultiIndex(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  Expected<int64_t> linear = parseInt(opts.positional[1], "linear index");
  if (!linear)
    return linear.takeError();
  Expected<TiledLayoutMap> map = getMap(*shape);
  if (!map)
    return map.takeError();
  if (*linear < 0 || *linear >= map->getAllocatedElements())
    return makeErr("linear index " + llvm::Twine(*linear) +
                   " is out of range [0, " +
                   llvm::Twine(map->getAllocatedElements()) + ") of " +
                   printShape(*shape));
  std::optional<SmallVector<int64_t, 6>> index = map->logicalIndex(*linear);
  out.object["linear"] = *linear;
  if (!index) {
    out.text = "padding\n";
    out.object["padding"] = true;
    out.object["index"] = nullptr;
    return Error::success();
  }
  out.text = joinInts(*index) + "\n";
  out.object["padding"] = false;
  out.object["index"] = toJson(*index);
  return Error::success();
}

Error runPhysicalShape(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  Expected<TiledLayoutMap> map = getMap(*shape);
  if (!map)
    return map.takeError();
  out.text = joinInts(map->getPhysicalDims()) + "\n" +
             std::to_string(map->getAllocatedElements()) + "\n";
  out.object["physical_dims"] = toJson(map->getPhysicalDims());
  out.object["allocated_elements"] = map->getAllocatedElements();
  return Error::success();
}

Error runSizes(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  Expected<SizeRows> rows = computeSizes(*shape);
  if (!rows)
    return rows.takeError();
  llvm::raw_string_ostream os(out.text);
  printSizes(*rows, os);
  out.object = sizesToJson(*rows);
  return Error::success();
}

std::string slotText(const std::optional<SmallVector<int64_t, 6>> &index) {
  return index ? "(" + joinInts(*index) + ")" : "_";
}

Error runMemory(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  Expected<TiledLayoutMap> map = getMap(*shape);
  if (!map)
    return map.takeError();
  int64_t slots = map->getAllocatedElements();
  if (slots > kMaxMemorySlots)
    return makeErr(printShape(*shape) + " has " + llvm::Twine(slots) +
                   " slots; memory prints at most " +
                   llvm::Twine(kMaxMemorySlots));
  llvm::raw_string_ostream os(out.text);
  json::Array array;
  for (int64_t slot = 0; slot < slots; ++slot) {
    std::optional<SmallVector<int64_t, 6>> index = map->logicalIndex(slot);
    if (opts.json)
      array.push_back(index ? json::Value(toJson(*index))
                            : json::Value(nullptr));
    else
      os << slotText(index) << "\n";
  }
  out.object["slots"] = std::move(array);
  return Error::success();
}

/// The two array shapes of a binary subcommand (positional 0 and 1).
Expected<std::pair<Shape, Shape>>
parseArrayPair(const Options &opts, StringRef command, StringRef first,
               StringRef second, StringRef noun = "shapes") {
  Expected<Shape> a = parseShapeArg(opts.positional[0], first);
  if (!a)
    return a.takeError();
  Expected<Shape> b = parseShapeArg(opts.positional[1], second);
  if (!b)
    return b.takeError();
  if (!a->isArray() || !b->isArray())
    return makeErr(command + " needs array " + noun + ", got " +
                   printShape(*a) + " and " + printShape(*b));
  return std::make_pair(std::move(*a), std::move(*b));
}

/// The optional `--dims` list (empty when absent).
Expected<SmallVector<int64_t, 6>> parseOptionalDims(const Options &opts) {
  if (!opts.dims)
    return SmallVector<int64_t, 6>();
  return parseIntList(*opts.dims, "--dims");
}

Error runBroadcast(const Options &opts, Output &out) {
  Expected<std::pair<Shape, Shape>> shapes =
      parseArrayPair(opts, "broadcast", "lhs", "rhs", "operands");
  if (!shapes)
    return shapes.takeError();
  Expected<SmallVector<int64_t, 6>> dims = parseOptionalDims(opts);
  if (!dims)
    return dims.takeError();
  StringRef op = opts.op ? *opts.op : StringRef("add");
  if (op.empty())
    return makeErr("--op needs a non-empty op name");
  Expected<Shape> result =
      inferBinaryOpShape(op, shapes->first, shapes->second, *dims);
  if (!result)
    return result.takeError();
  std::string text = printShape(*result);
  out.text = text + "\n";
  out.object["shape"] = text;
  out.object["dims"] = toJson(result->getDims());
  return Error::success();
}

Error runBroadcastInDim(const Options &opts, Output &out) {
  Expected<std::pair<Shape, Shape>> shapes =
      parseArrayPair(opts, "broadcast-in-dim", "operand", "result");
  if (!shapes)
    return shapes.takeError();
  Expected<SmallVector<int64_t, 6>> dims = parseOptionalDims(opts);
  if (!dims)
    return dims.takeError();
  const Shape &operand = shapes->first, &result = shapes->second;
  if (Error err = verifyBroadcastInDim(
          primitiveTypeName(operand.getElementType()), operand.getDims(),
          primitiveTypeName(result.getElementType()), result.getDims(), *dims))
    return err;
  out.text = "valid\n";
  out.object["valid"] = true;
  return Error::success();
}

void printBool(bool value, StringRef key, Output &out) {
  out.text = value ? "true\n" : "false\n";
  out.object[key] = value;
}

Error runReshapeIsBitcast(const Options &opts, Output &out) {
  Expected<std::pair<Shape, Shape>> shapes =
      parseArrayPair(opts, "reshape-is-bitcast", "input", "output");
  if (!shapes)
    return shapes.takeError();
  const Shape *in = &shapes->first, *outShape = &shapes->second;
  Expected<bool> result =
      reshapeIsBitcast(*in, *outShape, opts.ignoreElementType);
  if (!result)
    return result.takeError();
  printBool(*result, "bitcast", out);
  return Error::success();
}

Error runTransposeIsBitcast(const Options &opts, Output &out) {
  Expected<std::pair<Shape, Shape>> shapes =
      parseArrayPair(opts, "transpose-is-bitcast", "input", "output");
  if (!shapes)
    return shapes.takeError();
  const Shape *in = &shapes->first, *outShape = &shapes->second;
  if (!opts.perm)
    return makeErr("transpose-is-bitcast needs --perm P0,P1,...");
  Expected<SmallVector<int64_t, 6>> perm = parseIntList(*opts.perm, "--perm");
  if (!perm)
    return perm.takeError();
  // The library's precondition: a permutation matching both ranks.
  if (static_cast<int64_t>(perm->size()) != in->getRank() ||
      static_cast<int64_t>(perm->size()) != outShape->getRank())
    return makeErr("--perm has " + llvm::Twine(perm->size()) +
                   " entries, but the shapes have ranks " +
                   llvm::Twine(in->getRank()) + " and " +
                   llvm::Twine(outShape->getRank()));
  if (!isPermutation(*perm))
    return makeErr("--perm " + joinInts(*perm) +
                   " is not a permutation of 0.." +
                   llvm::Twine(static_cast<int64_t>(perm->size()) - 1));
  Expected<bool> result =
      transposeIsBitcast(*in, *outShape, *perm, opts.ignoreElementType);
  if (!result)
    return result.takeError();
  printBool(*result, "bitcast", out);
  return Error::success();
}

Error runPermute(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  if (!shape->isArray())
    return makeErr("permute needs an array shape, got " + printShape(*shape));
  if (!opts.perm)
    return makeErr("permute needs --perm P0,P1,...");
  Expected<SmallVector<int64_t, 6>> perm = parseIntList(*opts.perm, "--perm");
  if (!perm)
    return perm.takeError();
  if (static_cast<int64_t>(perm->size()) != shape->getRank() ||
      !isPermutation(*perm))
    return makeErr(
        "--perm " + joinInts(*perm) + " is not a permutation of the " +
        llvm::Twine(shape->getRank()) + " dimensions of " + printShape(*shape));
  Expected<Shape> result = permuteDimensions(*perm, *shape);
  if (!result)
    return result.takeError();
  std::string text = printShape(*result);
  out.text = text + "\n";
  out.object["shape"] = text;
  return Error::success();
}

Error runAlignLayouts(const Options &opts, Output &out) {
  Expected<Shape> in = parseShapeArg(opts.positional[0], "input");
  if (!in)
    return in.takeError();
  if (!in->isArray())
    return makeErr("align-layouts needs an array shape, got " +
                   printShape(*in));
  Expected<SmallVector<int64_t, 6>> dims =
      parseIntList(opts.positional[1], "output dims");
  if (!dims)
    return dims.takeError();
  for (int64_t d : *dims)
    if (d < 0)
      return makeErr("output dims " + joinInts(*dims) +
                     ": dimension sizes must be >= 0");
  Shape output = Shape::makeArray(in->getElementType(), *dims);
  if (Error err = validateShape(output))
    return makeErr("output shape " + printShape(output) + ": " +
                   llvm::toString(std::move(err)));
  Expected<std::optional<Shape>> result = alignLayouts(*in, output);
  if (!result)
    return result.takeError();
  if (!*result) {
    out.text = "none\n";
    out.object["shape"] = nullptr;
    return Error::success();
  }
  std::string text = printShape(**result);
  out.text = text + "\n";
  out.object["shape"] = text;
  return Error::success();
}

Error runDeleteDims(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  if (!shape->isArray())
    return makeErr("delete-dims needs an array shape, got " +
                   printShape(*shape));
  if (!opts.dims)
    return makeErr("delete-dims needs --dims D0,D1,...");
  Expected<SmallVector<int64_t, 6>> dims = parseIntList(*opts.dims, "--dims");
  if (!dims)
    return dims.takeError();
  Expected<Shape> result = deleteDimensions(*dims, *shape);
  if (!result)
    return result.takeError();
  std::string text = printShape(*result);
  out.text = text + "\n";
  out.object["shape"] = text;
  return Error::success();
}

//===----------------------------------------------------------------------===//
// show
//===----------------------------------------------------------------------===//

std::string padLeft(StringRef s, size_t width) {
  return std::string(width > s.size() ? width - s.size() : 0, ' ') + s.str();
}

std::string padRight(StringRef s, size_t width) {
  return s.str() + std::string(width > s.size() ? width - s.size() : 0, ' ');
}

/// One step row: `label  [a,b] -> [c,d]`.
void printStep(llvm::raw_ostream &os, StringRef label, ArrayRef<int64_t> from,
               ArrayRef<int64_t> to, StringRef note = "") {
  os << "    " << padRight(label, 11) << bracketed(from) << " -> "
     << bracketed(to);
  if (!note.empty())
    os << "  " << note;
  os << "\n";
}

/// The pad and reshape shapes of one level (the transpose result is
/// `level.outputDims`). A padded size that overflows int64 shows as `?`.
void padAndReshape(const TileLevel &level, SmallVector<int64_t, 6> &padded,
                   SmallVector<int64_t, 6> &reshaped) {
  size_t numTiled = level.tile.size();
  size_t numLeading = level.combinedDims.size() - numTiled;
  padded.assign(level.combinedDims.begin(),
                level.combinedDims.begin() + numLeading);
  reshaped = padded;
  for (size_t i = 0; i < numTiled; ++i) {
    int64_t d = level.combinedDims[numLeading + i], t = level.tile[i];
    int64_t count = llvm::divideCeil(d, t);
    std::optional<int64_t> size = llvm::checkedMul(count, t);
    padded.push_back(size ? *size : kUnboundedSize);
    reshaped.push_back(count);
    reshaped.push_back(t);
  }
}

/// Advances `index` in logical row-major order; false after the last one.
bool nextIndex(ArrayRef<int64_t> dims, MutableArrayRef<int64_t> index) {
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (++index[d] < dims[d])
      return true;
    index[d] = 0;
  }
  return false;
}

bool hasCombine(const TileLevel &level) {
  return llvm::any_of(
      level.groups, [](auto group) { return group.second - group.first > 1; });
}

/// The logical grid: for each 2-D slice of the two minor-most logical dims,
/// every element's physical linear index.
void printGrid(const Shape &shape, const TiledLayoutMap &map,
               llvm::raw_ostream &os) {
  ArrayRef<int64_t> dims = shape.getDims();
  int64_t rank = shape.getRank();
  if (rank == 0) {
    os << "  () -> " << map.linearIndex({}) << "\n";
    return;
  }
  if (map.getElementCount() == 0) {
    os << "  (no elements)\n";
    return;
  }
  int64_t rows = rank >= 2 ? dims[rank - 2] : 1;
  int64_t cols = dims[rank - 1];
  ArrayRef<int64_t> leadingDims = dims.drop_back(rank >= 2 ? 2 : 1);
  SmallVector<int64_t, 6> leading(leadingDims.size(), 0);
  size_t width = std::to_string(map.getPhysicalElementCount() - 1).size();
  width = std::max(width, std::to_string(cols - 1).size());
  size_t rowWidth = std::to_string(rows - 1).size();
  while (true) {
    if (!leading.empty()) {
      os << "  slice (" << joinInts(leading);
      os << (rank >= 2 ? ",:,:)" : ",:)") << ":\n";
    }
    os << "  " << std::string(rowWidth + 1, ' ');
    for (int64_t c = 0; c < cols; ++c)
      os << " " << padLeft(std::to_string(c), width);
    os << "\n";
    SmallVector<int64_t, 6> index(leading.begin(), leading.end());
    index.append(rank >= 2 ? 2 : 1, 0);
    for (int64_t r = 0; r < rows; ++r) {
      os << "  "
         << padLeft(rank >= 2 ? std::to_string(r) : std::string(), rowWidth)
         << ":";
      for (int64_t c = 0; c < cols; ++c) {
        if (rank >= 2)
          index[rank - 2] = r;
        index[rank - 1] = c;
        os << " " << padLeft(std::to_string(map.linearIndex(index)), width);
      }
      os << "\n";
    }
    // Next slice (row-major over the leading dims).
    int64_t d = static_cast<int64_t>(leading.size()) - 1;
    for (; d >= 0; --d) {
      if (++leading[d] < leadingDims[d])
        break;
      leading[d] = 0;
    }
    if (d < 0)
      break;
  }
}

/// The memory image, one line per tile of the last level (or per row of the
/// minor-most physical dim when untiled), at most kMaxSlotsPerLine per line.
void printMemoryImage(const TiledLayoutMap &map, llvm::raw_ostream &os) {
  int64_t slots = map.getAllocatedElements();
  int64_t perLine = 1;
  if (!map.getLevels().empty()) {
    // Checked: tiles such as T(2^40,2^40) on an empty shape are valid, and
    // their product overflows int64_t.
    for (int64_t t : map.getLevels().back().tile) {
      std::optional<int64_t> product = llvm::checkedMul(perLine, t);
      if (!product || *product <= 0 || *product > kMaxSlotsPerLine) {
        perLine = kMaxSlotsPerLine;
        break;
      }
      perLine = *product;
    }
  } else if (!map.getPhysicalDims().empty()) {
    perLine = map.getPhysicalDims().back();
  }
  if (perLine <= 0 || perLine > kMaxSlotsPerLine)
    perLine = kMaxSlotsPerLine;
  std::vector<std::string> texts;
  size_t width = 1;
  for (int64_t slot = 0; slot < slots; ++slot) {
    texts.push_back(slotText(map.logicalIndex(slot)));
    width = std::max(width, texts.back().size());
  }
  size_t offsetWidth = std::to_string(std::max<int64_t>(slots - 1, 0)).size();
  for (int64_t slot = 0; slot < slots; slot += perLine) {
    std::string line = "  " + padLeft(std::to_string(slot), offsetWidth) + ":";
    for (int64_t s = slot; s < std::min(slots, slot + perLine); ++s)
      line += " " + padRight(texts[s], width);
    os << StringRef(line).rtrim() << "\n";
  }
}

void printSteps(const Shape &shape, const TiledLayoutMap &map,
                llvm::raw_ostream &os) {
  const Layout &layout = shape.getLayout();
  os << "  logical dims " << bracketed(map.getLogicalDims())
     << ", minor_to_major {" << joinInts(map.getMinorToMajor()) << "}\n";
  if (!layout.getPaddedDimensions().empty())
    os << "  legacy padding (logical order) " << bracketed(map.getLogicalDims())
       << " -> " << bracketed(map.getPaddedDims()) << ", padding value "
       << paddingValueName(layout.getPaddingValue()) << "\n";
  os << "  physical order (most-major first) "
     << bracketed(map.getPermutedDims()) << "\n";
  ArrayRef<Tile> tiles = layout.getTiles();
  for (auto [i, level] : llvm::enumerate(map.getLevels())) {
    os << "  level " << i + 1 << ": T" << printTile(tiles[i]) << "\n";
    if (level.numPrependedDims > 0) {
      ArrayRef<int64_t> before =
          ArrayRef<int64_t>(level.inputDims).drop_front(level.numPrependedDims);
      printStep(os, "prepend 1s", before, level.inputDims);
    }
    if (hasCombine(level))
      printStep(os, "combine *", level.inputDims, level.combinedDims);
    SmallVector<int64_t, 6> padded, reshaped;
    padAndReshape(level, padded, reshaped);
    printStep(os, "pad", level.combinedDims, padded,
              "(tile " + bracketed(level.tile) + " on the minor suffix)");
    printStep(os, "reshape", padded, reshaped, "(bitcast)");
    printStep(os, "transpose", reshaped, level.outputDims,
              "(within-tile dims to the minor end)");
  }
  os << "  physical shape " << bracketed(map.getPhysicalDims()) << ": "
     << map.getPhysicalElementCount() << " elements";
  if (layout.getTailPaddingAlignment() != 1)
    os << ", L(" << layout.getTailPaddingAlignment() << ") -> "
       << map.getAllocatedElements() << " allocated";
  os << "\n";
}

json::Array levelsToJson(const Shape &shape, const TiledLayoutMap &map) {
  json::Array levels;
  ArrayRef<Tile> tiles = shape.getLayout().getTiles();
  for (auto [i, level] : llvm::enumerate(map.getLevels())) {
    SmallVector<int64_t, 6> padded, reshaped;
    padAndReshape(level, padded, reshaped);
    levels.push_back(json::Object{
        {"tile", "T" + printTile(tiles[i])},
        {"prepended_dims", level.numPrependedDims},
        {"input", toJson(level.inputDims)},
        {"combined", toJson(level.combinedDims)},
        {"padded", toJson(padded)},
        {"reshaped", toJson(reshaped)},
        {"transposed", toJson(level.outputDims)},
    });
  }
  return levels;
}

Error runShow(const Options &opts, Output &out) {
  Expected<Shape> shape = parseShapeArg(opts.positional[0], "shape");
  if (!shape)
    return shape.takeError();
  Expected<TiledLayoutMap> map = getMap(*shape);
  if (!map)
    return map.takeError();
  Expected<SizeRows> sizes = computeSizes(*shape);
  if (!sizes)
    return sizes.takeError();
  bool small = map->getAllocatedElements() <= kMaxShowSlots;

  std::string canonical = printShape(*shape);
  out.object["shape"] = canonical;
  out.object["physical_dims"] = toJson(map->getPhysicalDims());
  out.object["levels"] = levelsToJson(*shape, *map);
  out.object["sizes"] = sizesToJson(*sizes);
  if (small) {
    // Positions in logical row-major order; slots in memory order.
    json::Array positions, slots;
    SmallVector<int64_t, 6> index(shape->getRank(), 0);
    if (map->getElementCount() > 0) {
      do
        positions.push_back(map->linearIndex(index));
      while (nextIndex(shape->getDims(), index));
    }
    for (int64_t slot = 0; slot < map->getAllocatedElements(); ++slot) {
      std::optional<SmallVector<int64_t, 6>> logical = map->logicalIndex(slot);
      slots.push_back(logical ? json::Value(toJson(*logical))
                              : json::Value(nullptr));
    }
    out.object["positions"] = std::move(positions);
    out.object["memory"] = std::move(slots);
  }

  llvm::raw_string_ostream os(out.text);
  os << canonical << "\n\n";
  if (small) {
    int64_t rank = shape->getRank();
    os << "physical linear index of each element";
    if (rank >= 2)
      os << " (rows: dim " << rank - 2 << ", columns: dim " << rank - 1 << ")";
    else if (rank == 1)
      os << " (columns: dim 0)";
    os << ":\n";
    printGrid(*shape, *map, os);
    os << "\nmemory order (" << map->getAllocatedElements() << " slot"
       << (map->getAllocatedElements() == 1 ? "" : "s") << ", _ = padding):\n";
    printMemoryImage(*map, os);
  } else {
    os << "(grid and memory image omitted: " << map->getAllocatedElements()
       << " slots > " << kMaxShowSlots << ")\n";
  }
  os << "\nsteps (pad -> reshape -> transpose per tile level):\n";
  printSteps(*shape, *map, os);
  os << "\nsizes:\n";
  printSizes(*sizes, os, "  ");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

const Command kCommands[] = {
    {"canonical", "SHAPE", 1, 0, runCanonical, "canonical text of SHAPE"},
    {"validate", "SHAPE", 1, 0, runValidate,
     "`valid`, or the validation error"},
    {"index", "SHAPE I0,I1,...", 2, 0, runIndex,
     "physical linear index (in elements) of a logical index"},
    {"xla-index", "SHAPE I0,I1,...", 2, 0, runXlaIndex,
     "XLA's LayoutUtil::LinearIndex (first tile only), for comparison"},
    {"multi-index", "SHAPE N", 2, 0, runMultiIndex,
     "logical index stored at physical slot N, or `padding`"},
    {"physical-shape", "SHAPE", 1, 0, runPhysicalShape,
     "final tiled dims, then the allocated element count"},
    {"sizes", "SHAPE", 1, 0, runSizes,
     "element counts and byte sizes, as `key: value` lines"},
    {"memory", "SHAPE", 1, 0, runMemory,
     "the buffer in memory order: `(i,j,...)` per slot, `_` for padding"},
    {"broadcast", "LHS RHS [--dims D0,...] [--op NAME]", 2, kOptDims | kOptOp,
     runBroadcast, "result shape of a binary elementwise op (default add)"},
    {"broadcast-in-dim", "OPERAND RESULT --dims D0,...", 2, kOptDims,
     runBroadcastInDim, "`valid`, or the violated constraint C1-C5"},
    {"reshape-is-bitcast", "IN OUT [--ignore-element-type]", 2,
     kOptIgnoreElementType, runReshapeIsBitcast, "`true` or `false`"},
    {"transpose-is-bitcast", "IN OUT --perm P0,... [--ignore-element-type]", 2,
     kOptPerm | kOptIgnoreElementType, runTransposeIsBitcast,
     "`true` or `false` (out dim i is in dim P[i])"},
    {"permute", "SHAPE --perm P0,...", 1, kOptPerm, runPermute,
     "ShapeUtil::PermuteDimensions"},
    {"align-layouts", "IN D0,D1,...", 2, 0, runAlignLayouts,
     "the layout of output dims D making the reshape a bitcast, or `none`"},
    {"delete-dims", "SHAPE --dims D0,...", 1, kOptDims, runDeleteDims,
     "ShapeUtil::DeleteDimensions"},
    {"show", "SHAPE", 1, 0, runShow,
     "grid of physical positions, memory image, tiling steps and sizes"},
};

void printUsage(llvm::raw_ostream &os) {
  os << "usage: layout-explain SUBCOMMAND ARGS... [--json]\n\n"
        "Explains XLA shapes and layouts (text like 'f32[3,5]{1,0:T(2,2)}').\n"
        "Integer lists are comma-separated: 2,3 (or (2,3)); '' is empty.\n"
        "Answers go to stdout (exit 0); errors print 'error: ...' on stderr\n"
        "(exit 1). --json prints the answer as one JSON object.\n\n"
        "subcommands:\n";
  for (const Command &cmd : kCommands) {
    os << "  " << cmd.name << " " << cmd.synopsis << "\n      "
       << cmd.description << "\n";
  }
  os << "  help\n      this text\n";
}

/// Splits argv into positionals and options; rejects unknown or repeated
/// options and options the subcommand does not take.
Expected<Options> parseOptions(const Command &cmd,
                               ArrayRef<const char *> args) {
  Options opts;
  bool onlyPositional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (onlyPositional || !arg.starts_with("--")) {
      opts.positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      onlyPositional = true;
      continue;
    }
    if (arg == "--json") {
      opts.json = true;
      continue;
    }
    if (arg == "--help") {
      opts.help = true;
      continue;
    }
    auto [name, inlineValue] = arg.split('=');
    bool hasInlineValue = arg.contains('=');
    struct ValueOption {
      StringRef name;
      unsigned bit;
      std::optional<StringRef> *slot;
    } valueOptions[] = {{"--dims", kOptDims, &opts.dims},
                        {"--perm", kOptPerm, &opts.perm},
                        {"--op", kOptOp, &opts.op}};
    bool matched = false;
    for (ValueOption &option : valueOptions) {
      if (name != option.name)
        continue;
      matched = true;
      if (!(cmd.options & option.bit))
        return makeErr("'" + cmd.name + "' does not take " + option.name);
      if (*option.slot)
        return makeErr(option.name + " given more than once");
      if (hasInlineValue) {
        *option.slot = inlineValue;
      } else {
        if (i + 1 >= args.size())
          return makeErr(option.name + " needs a value");
        *option.slot = StringRef(args[++i]);
      }
    }
    if (matched)
      continue;
    if (arg == "--ignore-element-type") {
      if (!(cmd.options & kOptIgnoreElementType))
        return makeErr("'" + cmd.name + "' does not take " + arg);
      opts.ignoreElementType = true;
      continue;
    }
    return makeErr("unknown option '" + arg + "'");
  }
  if (opts.help)
    return opts;
  if (opts.positional.size() != cmd.numPositional)
    return makeErr(
        "'" + cmd.name + "' expects " + llvm::Twine(cmd.numPositional) +
        " argument" + (cmd.numPositional == 1 ? "" : "s") + " (" + cmd.name +
        " " + cmd.synopsis + "), got " + llvm::Twine(opts.positional.size()));
  return opts;
}

int fail(Error err) {
  std::string message = llvm::toString(std::move(err));
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // `--json` may also come before the subcommand.
  bool leadingJson = false;
  int first = 1;
  while (first < argc && StringRef(argv[first]) == "--json") {
    leadingJson = true;
    ++first;
  }
  if (first >= argc)
    return fail(makeErr("missing subcommand; run 'layout-explain help'"));
  StringRef name = argv[first];
  if (name == "help" || name == "--help" || name == "-h") {
    if (argc > first + 1)
      return fail(makeErr("'help' takes no arguments"));
    printUsage(llvm::outs());
    return 0;
  }
  const Command *cmd = llvm::find_if(
      kCommands, [&](const Command &c) { return c.name == name; });
  if (cmd == std::end(kCommands))
    return fail(makeErr("unknown subcommand '" + name +
                        "'; run 'layout-explain help'"));
  Expected<Options> opts =
      parseOptions(*cmd, ArrayRef<const char *>(argv + first + 1, argv + argc));
  if (!opts)
    return fail(opts.takeError());
  opts->json |= leadingJson;
  if (opts->help) {
    llvm::outs() << "usage: layout-explain " << cmd->name << " "
                 << cmd->synopsis << " [--json]\n  " << cmd->description
                 << "\n";
    return 0;
  }
  Output out;
  out.json = opts->json;
  if (Error err = cmd->handler(*opts, out))
    return fail(std::move(err));
  if (out.json)
    llvm::outs() << json::Value(std::move(out.object)) << "\n";
  else
    llvm::outs() << out.text;
  llvm::outs().flush();
  return 0;
}
