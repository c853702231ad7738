//===- layout-opt.cpp - mlir-opt with the layout dialect ------------------===//
//
// Upstream's dialects, passes and extensions plus everything of the layout
// project, registered through the same API downstream compilers use
// (layout/InitAll.h). Linking libMLIR.so makes registering all of upstream
// cheap.
//
//===----------------------------------------------------------------------===//

#include "layout/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::layout::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::layout::registerAllDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "layout optimizer driver\n", registry));
}
