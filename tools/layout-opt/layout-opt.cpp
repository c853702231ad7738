//===- layout-opt.cpp - mlir-opt with the layout dialect ------------------===//
//
// Upstream's dialects, passes and extensions plus everything of the layout
// project, registered through the same API downstream compilers use
// (layout/InitAll.h, via tools/common/ToolRegistration.h). Linking
// libMLIR.so makes registering all of upstream cheap.
//
//===----------------------------------------------------------------------===//

#include "../common/ToolRegistration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::layout::tools::registerToolPasses();
  mlir::DialectRegistry registry;
  mlir::layout::tools::registerToolDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "layout optimizer driver\n", registry));
}
