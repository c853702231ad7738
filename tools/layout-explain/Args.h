//===- Args.h - layout-explain's command line -------------------*- C++ -*-===//
//
// The subcommand table's types and the shared argument handling: every
// subcommand declares its positional arguments (kind and name) and options;
// the dispatcher parses them with one set of messages and hands the handler
// parsed values (Args), so handlers hold only what differs.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TOOLS_LAYOUT_EXPLAIN_ARGS_H
#define LAYOUT_TOOLS_LAYOUT_EXPLAIN_ARGS_H

#include "layout/Xla/Shape.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace layout_explain {

using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
using llvm::SmallVector;
using llvm::StringRef;
using mlir::layout::Shape;
using mlir::layout::TiledLayoutMap;
namespace json = llvm::json;

using IntList = SmallVector<int64_t, 6>;

/// Options a subcommand accepts (bits of Command::options).
enum OptionMask : unsigned {
  kOptDims = 1 << 0,
  kOptPerm = 1 << 1,
  kOptOp = 1 << 2,
  kOptIgnoreElementType = 1 << 3,
  /// --dims / --perm must be given (checked after the positionals).
  kOptDimsRequired = 1 << 4,
  kOptPermRequired = 1 << 5,
  /// -o/--output FILE: the answer goes to FILE.
  kOptOutput = 1 << 6,
  /// --relayout: the last positional (ArgKind of positional[1]) is only
  /// taken with it.
  kOptRelayout = 1 << 7,
  /// --target-cpu / --target-features / --vector-bytes / --num-threads: the
  /// target of the lowering `plan` asks for its kernel
  /// (--layout-lower-to-llvm's options).
  kOptTarget = 1 << 8,
};

/// What a positional argument is, and how it is parsed.
enum class ArgKind {
  None,
  Shape,      // any shape
  ArrayShape, // a shape that must be an array ("<cmd> needs an array shape")
  IntList,    // I0,I1,... (or (I0,I1)); '' is the empty list
  Int,        // one int64
};

struct ArgSpec {
  ArgKind kind = ArgKind::None;
  /// The name in messages ("shape", "index", "lhs", ...).
  StringRef what;
};

/// The raw command line of a subcommand.
struct Options {
  std::vector<StringRef> positional;
  std::optional<StringRef> dims, perm, op, output;
  std::optional<StringRef> targetCpu, targetFeatures, vectorBytes, numThreads;
  bool ignoreElementType = false;
  bool relayout = false;
  bool json = false;
  bool help = false;
};

/// The parsed arguments a handler gets, in positional order.
struct Args {
  const Options &options;
  SmallVector<Shape, 2> shapes;
  SmallVector<IntList, 2> lists;
  std::optional<int64_t> integer;
  /// --dims / --perm when given (parsed with "--dims" / "--perm").
  std::optional<IntList> dims, perm;
  /// The tiled layout map of shapes[0] when the command asks for it.
  std::optional<TiledLayoutMap> map;
};

/// The answer of a subcommand: text for people, or one JSON object.
struct Output {
  bool json = false;
  std::string text;
  json::Object object;
};

using Handler = Error (*)(const Args &, Output &);

struct Command {
  StringRef name;
  StringRef synopsis; // arguments, for the usage text
  ArgSpec positional[2];
  unsigned options; // OptionMask bits
  /// Both shapes must be arrays: "<name> needs array <arrayNoun>, got A and
  /// B" (empty: no check).
  StringRef arrayNoun;
  /// Build the tiled layout map of the first shape.
  bool needsMap;
  Handler handler;
  StringRef description;

  unsigned numPositional() const;
  /// The positionals `options` call for (kOptRelayout: one more with
  /// --relayout).
  unsigned numPositional(const Options &options) const;
};

Error makeErr(const llvm::Twine &message);
std::string joinInts(ArrayRef<int64_t> values, StringRef sep = ",");
json::Array toJson(ArrayRef<int64_t> values);
/// A memory slot: `(i,j,...)` for an element, `_` for padding.
std::string slotText(const std::optional<IntList> &index);
/// Sets the answer to a shape's canonical text (`shape` in JSON).
void setShapeAnswer(const Shape &shape, Output &out);

/// Splits argv into positionals and options; rejects unknown or repeated
/// options and options the subcommand does not take.
Expected<Options> parseOptions(const Command &cmd, ArrayRef<const char *> args);

/// Parses the positionals and options of `cmd` (in order, first error
/// wins) into Args.
Expected<Args> parseArgs(const Command &cmd, const Options &options);

} // namespace layout_explain

#endif // LAYOUT_TOOLS_LAYOUT_EXPLAIN_ARGS_H
