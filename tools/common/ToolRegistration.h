//===- ToolRegistration.h - What every layout tool registers ----*- C++ -*-===//
//
// The one list of dialects, extensions and passes of layout-opt,
// layout-lsp-server and layout-reduce: upstream's (cheap with libMLIR.so)
// plus everything of the layout project (layout/InitAll.h). A tool that
// registers less would reject IR that layout-opt accepts.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_TOOLS_COMMON_TOOLREGISTRATION_H
#define LAYOUT_TOOLS_COMMON_TOOLREGISTRATION_H

#include "layout/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

namespace mlir::layout::tools {

/// Registers upstream's and the layout project's passes and pipelines in the
/// global registry (idempotent).
inline void registerToolPasses() {
  mlir::registerAllPasses();
  mlir::layout::registerAllPasses();
}

/// Adds upstream's and the layout project's dialects and extensions.
inline void registerToolDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::layout::registerAllDialects(registry);
}

} // namespace mlir::layout::tools

#endif // LAYOUT_TOOLS_COMMON_TOOLREGISTRATION_H
