//===- Args.cpp - layout-explain's command line ---------------------------===//

#include "Args.h"

#include "llvm/ADT/Twine.h"

using namespace layout_explain;
using namespace mlir::layout;

Error layout_explain::makeErr(const llvm::Twine &message) {
  return makeError(message);
}

std::string layout_explain::joinInts(ArrayRef<int64_t> values, StringRef sep) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      s += sep;
    s += values[i] == kUnboundedSize ? "?" : std::to_string(values[i]);
  }
  return s;
}

json::Array layout_explain::toJson(ArrayRef<int64_t> values) {
  json::Array array;
  for (int64_t v : values)
    array.push_back(v);
  return array;
}

std::string layout_explain::slotText(const std::optional<IntList> &index) {
  return index ? "(" + joinInts(*index) + ")" : "_";
}

void layout_explain::setShapeAnswer(const Shape &shape, Output &out) {
  std::string text = printShape(shape);
  out.text = text + "\n";
  out.object["shape"] = text;
}

unsigned Command::numPositional() const {
  unsigned n = 0;
  for (const ArgSpec &spec : positional)
    n += spec.kind != ArgKind::None;
  return n;
}

unsigned Command::numPositional(const Options &options) const {
  unsigned n = numPositional();
  if ((this->options & kOptRelayout) && !options.relayout)
    --n;
  return n;
}

namespace {
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
Expected<IntList> parseIntList(StringRef text, StringRef what) {
  StringRef list = text.trim();
  if (list.starts_with("(") || list.ends_with(")")) {
    if (!list.consume_front("(") || !list.consume_back(")"))
      return makeErr(what + " '" + text + "' has unbalanced parentheses");
    list = list.trim();
  }
  IntList values;
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

/// Parses a required or optional list option (`--dims`, `--perm`).
Error parseListOption(const Command &cmd, std::optional<StringRef> text,
                      StringRef name, StringRef metavar, bool required,
                      std::optional<IntList> &result) {
  if (!text) {
    if (required)
      return makeErr(cmd.name + " needs " + name + " " + metavar);
    return Error::success();
  }
  Expected<IntList> list = parseIntList(*text, name);
  if (!list)
    return list.takeError();
  result = std::move(*list);
  return Error::success();
}
} // namespace

Expected<Args> layout_explain::parseArgs(const Command &cmd,
                                         const Options &options) {
  Args args{options,      {},           {},          std::nullopt,
            std::nullopt, std::nullopt, std::nullopt};
  for (auto [spec, text] : llvm::zip(cmd.positional, options.positional)) {
    switch (spec.kind) {
    case ArgKind::None:
      break;
    case ArgKind::Shape:
    case ArgKind::ArrayShape: {
      Expected<Shape> shape = parseShapeArg(text, spec.what);
      if (!shape)
        return shape.takeError();
      if (spec.kind == ArgKind::ArrayShape && !shape->isArray())
        return makeErr(cmd.name + " needs an array shape, got " +
                       printShape(*shape));
      args.shapes.push_back(std::move(*shape));
      break;
    }
    case ArgKind::IntList: {
      Expected<IntList> list = parseIntList(text, spec.what);
      if (!list)
        return list.takeError();
      args.lists.push_back(std::move(*list));
      break;
    }
    case ArgKind::Int: {
      Expected<int64_t> value = parseInt(text, spec.what);
      if (!value)
        return value.takeError();
      args.integer = *value;
      break;
    }
    }
  }
  if (!cmd.arrayNoun.empty() &&
      llvm::any_of(args.shapes, [](const Shape &s) { return !s.isArray(); })) {
    if (args.shapes.size() == 1)
      return makeErr(cmd.name + " needs an array shape, got " +
                     printShape(args.shapes[0]));
    return makeErr(cmd.name + " needs array " + cmd.arrayNoun + ", got " +
                   printShape(args.shapes[0]) + " and " +
                   printShape(args.shapes[1]));
  }
  if (Error err = parseListOption(cmd, options.perm, "--perm", "P0,P1,...",
                                  cmd.options & kOptPermRequired, args.perm))
    return std::move(err);
  if (Error err = parseListOption(cmd, options.dims, "--dims", "D0,D1,...",
                                  cmd.options & kOptDimsRequired, args.dims))
    return std::move(err);
  if (cmd.needsMap) {
    Expected<TiledLayoutMap> map = TiledLayoutMap::get(args.shapes[0]);
    if (!map)
      return map.takeError();
    args.map = std::move(*map);
  }
  return args;
}

Expected<Options> layout_explain::parseOptions(const Command &cmd,
                                               ArrayRef<const char *> args) {
  Options opts;
  bool onlyPositional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (!onlyPositional && arg == "-o")
      arg = "--output";
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
                        {"--op", kOptOp, &opts.op},
                        {"--output", kOptOutput, &opts.output},
                        {"--target-cpu", kOptTarget, &opts.targetCpu},
                        {"--target-features", kOptTarget, &opts.targetFeatures},
                        {"--vector-bytes", kOptTarget, &opts.vectorBytes},
                        {"--num-threads", kOptTarget, &opts.numThreads}};
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
    if (arg == "--relayout") {
      if (!(cmd.options & kOptRelayout))
        return makeErr("'" + cmd.name + "' does not take " + arg);
      opts.relayout = true;
      continue;
    }
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
  unsigned expected = cmd.numPositional(opts);
  if (opts.positional.size() != expected)
    return makeErr("'" + cmd.name + "' expects " + llvm::Twine(expected) +
                   " argument" + (expected == 1 ? "" : "s") + " (" + cmd.name +
                   " " + cmd.synopsis + "), got " +
                   llvm::Twine(opts.positional.size()));
  return opts;
}
