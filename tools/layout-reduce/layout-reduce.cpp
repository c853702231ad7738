//===- layout-reduce.cpp - mlir-reduce with the layout dialect ------------===//
//
// Upstream's test-case reducer (mlir-reduce: an interestingness script
// decides which reduced candidates keep the failure) with the dialects and
// passes layout-opt registers.
//
//===----------------------------------------------------------------------===//

#include "../common/ToolRegistration.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

int main(int argc, char **argv) {
  mlir::layout::tools::registerToolPasses();
  mlir::DialectRegistry registry;
  mlir::layout::tools::registerToolDialects(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context)) ? 1 : 0;
}
