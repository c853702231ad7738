//===- layout-lsp-server.cpp - MLIR language server with the layout dialect
//===//
//
// Upstream's mlir-lsp-server (diagnostics, hover, go-to-definition, ...) for
// IR that uses the layout dialect: the dialects layout-opt registers.
// Editors start it over stdin/stdout (docs/embedding.md).
//
//===----------------------------------------------------------------------===//

#include "../common/ToolRegistration.h"

#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::layout::tools::registerToolDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
