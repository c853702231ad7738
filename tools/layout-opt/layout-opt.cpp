//===- layout-opt.cpp - mlir-opt with the layout dialect ------------------===//
//
// Upstream's dialects, passes and extensions plus the layout dialect and its
// passes (libMLIR.so makes registering everything cheap).
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/Transforms/BroadcastBufferization.h"
#include "layout/Dialect/Layout/Transforms/BufferizableOpInterfaceImpl.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::layout::registerLayoutPasses();
  mlir::layout::registerLayoutConversionPasses();
  mlir::layout::registerLayoutPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::layout::LayoutDialect>();
  mlir::layout::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::layout::registerBroadcastBufferizationExternalModels(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "layout optimizer driver\n", registry));
}
