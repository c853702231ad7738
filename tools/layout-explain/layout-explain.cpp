//===- layout-explain.cpp - Explain XLA shapes, layouts and tiling -------===//
//
// A command-line calculator over the LayoutXla library: canonical text,
// validation, logical <-> physical indices, sizes, the memory image of a tiled
// layout, broadcasting, the ShapeUtil bitcast helpers (exact for tiled
// layouts), relayout plans and canonical layouts. See
// docs/layout-explain.md.
//
// Contract (scripts rely on it): each subcommand prints its answer on stdout
// and exits 0, or prints `error: <message>` on stderr, nothing on stdout, and
// exits 1. `--json` prints the same answer as one JSON object. No input may
// crash the tool: every argument is checked before the library is called.
//
// Structure: this file holds the subcommand table and the driver; Args.h the
// shared argument parsing, Commands.cpp and Show.cpp the handlers.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace layout_explain;

namespace {

constexpr ArgSpec kShape = {ArgKind::Shape, "shape"};
constexpr ArgSpec kInput = {ArgKind::Shape, "input"};
constexpr ArgSpec kOutput = {ArgKind::Shape, "output"};

const Command kCommands[] = {
    // name, synopsis, positionals, options, array noun, map, handler, text
    {"canonical",
     "SHAPE",
     {kShape},
     0,
     "",
     false,
     runCanonical,
     "canonical text of SHAPE"},
    {"validate",
     "SHAPE",
     {kShape},
     0,
     "",
     false,
     runValidate,
     "`valid`, or the validation error"},
    {"index",
     "SHAPE I0,I1,...",
     {kShape, {ArgKind::IntList, "index"}},
     0,
     "",
     true,
     runIndex,
     "physical linear index (in elements) of a logical index"},
    {"xla-index",
     "SHAPE I0,I1,...",
     {kShape, {ArgKind::IntList, "index"}},
     0,
     "",
     false,
     runXlaIndex,
     "XLA's LayoutUtil::LinearIndex (first tile only), for comparison"},
    {"multi-index",
     "SHAPE N",
     {kShape, {ArgKind::Int, "linear index"}},
     0,
     "",
     true,
     runMultiIndex,
     "logical index stored at physical slot N, or `padding`"},
    {"physical-shape",
     "SHAPE",
     {kShape},
     0,
     "",
     true,
     runPhysicalShape,
     "final tiled dims, then the allocated element count"},
    {"sizes",
     "SHAPE",
     {kShape},
     0,
     "",
     false,
     runSizes,
     "element counts and byte sizes, as `key: value` lines"},
    {"memory",
     "SHAPE",
     {kShape},
     0,
     "",
     true,
     runMemory,
     "the buffer in memory order: `(i,j,...)` per slot, `_` for padding"},
    {"broadcast",
     "LHS RHS [--dims D0,...] [--op NAME]",
     {{ArgKind::Shape, "lhs"}, {ArgKind::Shape, "rhs"}},
     kOptDims | kOptOp,
     "operands",
     false,
     runBroadcast,
     "result shape of a binary elementwise op (default add)"},
    {"broadcast-in-dim",
     "OPERAND RESULT --dims D0,...",
     {{ArgKind::Shape, "operand"}, {ArgKind::Shape, "result"}},
     kOptDims,
     "shapes",
     false,
     runBroadcastInDim,
     "`valid`, or the violated constraint C1-C5"},
    {"reshape-is-bitcast",
     "IN OUT [--ignore-element-type]",
     {kInput, kOutput},
     kOptIgnoreElementType,
     "shapes",
     false,
     runReshapeIsBitcast,
     "`true` or `false`"},
    {"transpose-is-bitcast",
     "IN OUT --perm P0,... [--ignore-element-type]",
     {kInput, kOutput},
     kOptPerm | kOptPermRequired | kOptIgnoreElementType,
     "shapes",
     false,
     runTransposeIsBitcast,
     "`true` or `false` (out dim i is in dim P[i])"},
    {"permute",
     "SHAPE --perm P0,...",
     {{ArgKind::ArrayShape, "shape"}},
     kOptPerm | kOptPermRequired,
     "",
     false,
     runPermute,
     "ShapeUtil::PermuteDimensions"},
    {"align-layouts",
     "IN D0,D1,...",
     {{ArgKind::ArrayShape, "input"}, {ArgKind::IntList, "output dims"}},
     0,
     "",
     false,
     runAlignLayouts,
     "the layout of output dims D making the reshape a bitcast, or `none`"},
    {"delete-dims",
     "SHAPE --dims D0,...",
     {{ArgKind::ArrayShape, "shape"}},
     kOptDims | kOptDimsRequired,
     "",
     false,
     runDeleteDims,
     "ShapeUtil::DeleteDimensions"},
    {"plan",
     "SRC DST",
     {{ArgKind::Shape, "source"}, {ArgKind::Shape, "destination"}},
     kOptTarget,
     "shapes",
     false,
     runPlan,
     "the relayout SRC -> DST: class, run and vector lengths, bytes moved, "
     "the kernel the lowering emits and, for blocked transposes, its blocks "
     "(for --target-cpu, "
     "--target-features, --vector-bytes, --num-threads; default: the host, "
     "the runtime's threads)"},
    {"canonical-layout",
     "SHAPE",
     {{ArgKind::ArrayShape, "shape"}},
     0,
     "",
     false,
     runCanonicalLayout,
     "the canonical layout of SHAPE's byte order, then `strided: true` if "
     "the form is complete (equal byte orders, equal forms)"},
    {"same-byte-order",
     "A B",
     {{ArgKind::Shape, "first"}, {ArgKind::Shape, "second"}},
     0,
     "shapes",
     false,
     runSameByteOrder,
     "`true` if A and B (one array, two layouts) have the same bytes in the "
     "same order"},
    {"svg",
     "SHAPE | --relayout SRC DST [-o FILE]",
     {kShape, {ArgKind::Shape, "destination"}},
     kOptOutput | kOptRelayout,
     "shapes",
     false,
     runSvg,
     "an SVG picture of the layout (grid and memory), or of a relayout"},
    {"show",
     "SHAPE",
     {kShape},
     0,
     "",
     true,
     runShow,
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

int fail(Error err) {
  std::string message = llvm::toString(std::move(err));
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

/// Flushes `os` and reports a failed write (a full disk, /dev/full) as the
/// documented `error: ...`. The error is cleared first: a raw_fd_ostream
/// destroyed with a pending error aborts with "LLVM ERROR: IO failure".
int finishWrite(llvm::raw_fd_ostream &os, const llvm::Twine &what) {
  os.flush();
  if (!os.has_error())
    return 0;
  std::error_code ec = os.error();
  os.clear_error();
  return fail(makeErr("cannot write " + what + ": " + ec.message()));
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
    return finishWrite(llvm::outs(), "standard output");
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
    return finishWrite(llvm::outs(), "standard output");
  }
  Expected<Args> args = parseArgs(*cmd, *opts);
  if (!args)
    return fail(args.takeError());
  Output out;
  out.json = opts->json;
  if (Error err = cmd->handler(*args, out))
    return fail(std::move(err));
  if (opts->output) {
    // -o FILE: the answer goes to the file, nothing to stdout.
    std::error_code ec;
    llvm::raw_fd_ostream file(*opts->output, ec);
    if (ec)
      return fail(
          makeErr("cannot write '" + *opts->output + "': " + ec.message()));
    file << out.text;
    return finishWrite(file, "'" + *opts->output + "'");
  }
  if (out.json)
    llvm::outs() << json::Value(std::move(out.object)) << "\n";
  else
    llvm::outs() << out.text;
  return finishWrite(llvm::outs(), "standard output");
}
