//===- Commands.h - layout-explain's subcommands ----------------*- C++ -*-===//
//
// One handler per subcommand (the table is in layout-explain.cpp). Handlers
// get parsed arguments (Args.h) and call the LayoutXla library for the math.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TOOLS_LAYOUT_EXPLAIN_COMMANDS_H
#define LAYOUT_TOOLS_LAYOUT_EXPLAIN_COMMANDS_H

#include "Args.h"

#include "llvm/Support/raw_ostream.h"

namespace layout_explain {

Error runCanonical(const Args &args, Output &out);
Error runValidate(const Args &args, Output &out);
Error runIndex(const Args &args, Output &out);
Error runXlaIndex(const Args &args, Output &out);
Error runMultiIndex(const Args &args, Output &out);
Error runPhysicalShape(const Args &args, Output &out);
Error runSizes(const Args &args, Output &out);
Error runMemory(const Args &args, Output &out);
Error runBroadcast(const Args &args, Output &out);
Error runBroadcastInDim(const Args &args, Output &out);
Error runReshapeIsBitcast(const Args &args, Output &out);
Error runTransposeIsBitcast(const Args &args, Output &out);
Error runPermute(const Args &args, Output &out);
Error runAlignLayouts(const Args &args, Output &out);
Error runDeleteDims(const Args &args, Output &out);
Error runPlan(const Args &args, Output &out);
Error runCanonicalLayout(const Args &args, Output &out);
Error runSameByteOrder(const Args &args, Output &out);
Error runShow(const Args &args, Output &out); // Show.cpp
Error runSvg(const Args &args, Output &out);  // Svg.cpp

/// The kernel the lowering emits for the relayout shapes[0] -> shapes[1]
/// on the target of the --target-* / --vector-bytes / --num-threads options:
/// `kernel: NAME`
/// (JSON `kernel`, null when the lowering fails). Kernel.cpp.
Error addRelayoutKernel(const Args &args, Output &out);

/// `key: value` rows; a value of std::nullopt prints as `none` (JSON null).
using SizeRows = SmallVector<std::pair<std::string, std::optional<int64_t>>>;
Expected<SizeRows> computeSizes(const Shape &shape);
void printSizes(const SizeRows &rows, llvm::raw_ostream &os,
                StringRef indent = "");
json::Object sizesToJson(const SizeRows &rows);

} // namespace layout_explain

#endif // LAYOUT_TOOLS_LAYOUT_EXPLAIN_COMMANDS_H
