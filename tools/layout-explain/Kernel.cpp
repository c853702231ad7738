//===- Kernel.cpp - `plan`'s kernel: a dry run of the lowering ------------===//
//
// The only part of layout-explain that needs MLIR: it asks the pipeline
// (layout/Conversion/Pipelines/KernelQuery.h) which kernel it emits, so the
// answer is the lowering's own, for the target the options name.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "layout/Conversion/Pipelines/KernelQuery.h"
#include "layout/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringExtras.h"

using namespace layout_explain;
using llvm::Twine;

namespace {
/// Checks an option value that goes into the pipeline's option text: no
/// spaces, quotes or braces that would change what the pipeline parses.
Error checkOptionValue(StringRef name, StringRef value) {
  if (value.empty())
    return makeErr(name + " is empty; give a value (e.g. " + name +
                   "=x86-64-v3) or leave the option out for the host");
  for (char c : value)
    if (!llvm::isAlnum(c) && !StringRef("_-+.,").contains(c))
      return makeErr(name + " '" + value + "' has the character '" + Twine(c) +
                     "'; expected letters, digits and _-+.,");
  return Error::success();
}
} // namespace

Error layout_explain::addRelayoutKernel(const Args &args, Output &out) {
  std::string pipelineOptions;
  // Integer options, checked here (the pipeline checks their ranges).
  struct {
    StringRef flag, option;
    const std::optional<StringRef> &value;
  } integers[] = {{"--vector-bytes", "vector-bytes", args.options.vectorBytes},
                  {"--num-threads", "num-threads", args.options.numThreads}};
  for (auto &integer : integers) {
    if (!integer.value)
      continue;
    int64_t value;
    // (Untrimmed: ' 16' is as malformed here as in the pipeline's text.)
    StringRef text = *integer.value;
    if (text.empty() || text.getAsInteger(10, value))
      return makeErr(integer.flag + " '" + text +
                     "' is not an integer in the int64 range");
    pipelineOptions += (" " + integer.option + "=" + llvm::Twine(value)).str();
  }
  struct {
    StringRef flag, option;
    const std::optional<StringRef> &value;
  } targets[] = {
      {"--target-cpu", "target-cpu", args.options.targetCpu},
      {"--target-features", "target-features", args.options.targetFeatures}};
  for (auto &target : targets) {
    if (!target.value)
      continue;
    if (Error err = checkOptionValue(target.flag, *target.value))
      return err;
    pipelineOptions += (" " + target.option + "=" + *target.value).str();
  }

  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::memref::MemRefDialect>();
  mlir::layout::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  std::string error;
  llvm::FailureOr<mlir::layout::KernelAnswer> answer =
      mlir::layout::queryRelayoutKernel(
          context, args.shapes[0], args.shapes[1], pipelineOptions,
          [&](const Twine &message) { error = message.str(); });
  if (failed(answer))
    return makeErr(error);
  if (answer->kernel.empty()) {
    out.text += "kernel: none (the lowering fails: " + answer->error + ")\n";
    out.object["kernel"] = nullptr;
    out.object["kernel_error"] = answer->error;
    return Error::success();
  }
  out.text += "kernel: " + answer->kernel + "\n";
  out.object["kernel"] = answer->kernel;
  if (!answer->groupedElements.empty()) {
    out.text += "grouped_elements: " + answer->groupedElements + "\n";
    out.object["grouped_elements"] = answer->groupedElements;
  }
  if (!answer->blocks.empty()) {
    out.text += "blocks: " + answer->blocks + "\n";
    out.object["blocks"] = answer->blocks;
  }
  return Error::success();
}
