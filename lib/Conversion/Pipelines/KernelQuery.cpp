//===- KernelQuery.cpp - Which kernel the lowering emits ------------------===//
//
// A dry run of the real pipeline rather than a second model of its choices:
// the answer cannot drift from what the lowering does.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/KernelQuery.h"

#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;

/// The memref type of `shape`, printed.
static FailureOr<std::string> getMemRefText(MLIRContext &context,
                                            const Shape &shape,
                                            std::string &diagnostic) {
  FailureOr<Type> type =
      convertShapeToType(shape, &context, ArrayTypeKind::MemRef,
                         [&] { return emitError(UnknownLoc::get(&context)); });
  if (failed(type) || !isa<MemRefType>(*type)) {
    if (diagnostic.empty())
      diagnostic = "no memref type for " + printShape(shape);
    return failure();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  type->print(os);
  return text;
}

FailureOr<KernelAnswer> mlir::layout::queryRelayoutKernel(
    MLIRContext &context, const Shape &source, const Shape &destination,
    StringRef pipelineOptions, function_ref<void(const Twine &)> emitError) {
  // Diagnostics of the scratch module are collected, never printed: the
  // remark is the answer, an error is the lowering's failure.
  std::string kernel, blocks, groupedElements, firstError;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    std::string message = diag.str();
    StringRef text(message);
    bool remark = diag.getSeverity() == DiagnosticSeverity::Remark;
    if (remark && text.consume_front("kernel: ") && kernel.empty())
      kernel = text.str();
    else if (remark && text.consume_front("transpose-blocks: ") &&
             blocks.empty())
      blocks = text.str();
    else if (remark && text.consume_front("grouped elements: ") &&
             groupedElements.empty())
      groupedElements = text.str();
    else if (diag.getSeverity() == DiagnosticSeverity::Error &&
             firstError.empty())
      firstError = message;
    return success();
  });

  // The types below need the layout dialect loaded (not just registered).
  if (!context.getOrLoadDialect("layout")) {
    emitError("the layout dialect is not registered in the context");
    return failure();
  }
  FailureOr<std::string> srcType = getMemRefText(context, source, firstError);
  FailureOr<std::string> dstType =
      getMemRefText(context, destination, firstError);
  if (failed(srcType) || failed(dstType)) {
    emitError(firstError);
    return failure();
  }

  LayoutLowerToLLVMOptions options;
  std::string optionsText = (pipelineOptions + " report-kernels=true").str();
  if (failed(options.parseFromString(optionsText))) {
    emitError("invalid pipeline options '" + pipelineOptions + "'");
    return failure();
  }
  std::string optionErrors;
  if (failed(verifyLayoutLowerToLLVMOptions(options, [&](const Twine &m) {
        if (!optionErrors.empty())
          optionErrors += "; ";
        optionErrors += m.str();
      }))) {
    emitError(optionErrors);
    return failure();
  }

  std::string moduleText = "func.func @relayout(%src: " + *srcType +
                           ", %dst: " + *dstType +
                           ") {\n  layout.relayout %src, %dst : " + *srcType +
                           ", " + *dstType + "\n  return\n}\n";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(moduleText, ParserConfig(&context));
  KernelAnswer answer;
  if (!module) {
    answer.error =
        firstError.empty() ? "the scratch module does not parse" : firstError;
    return answer;
  }
  PassManager pm(&context);
  buildLayoutLowerToLLVMPipeline(pm, options);
  if (failed(pm.run(*module))) {
    answer.error = firstError.empty() ? "the lowering fails" : firstError;
    return answer;
  }
  if (kernel.empty()) {
    answer.error = "the lowering reported no kernel";
    return answer;
  }
  answer.kernel = std::move(kernel);
  answer.blocks = std::move(blocks);
  answer.groupedElements = std::move(groupedElements);
  return answer;
}
