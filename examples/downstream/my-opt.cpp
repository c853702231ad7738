//===- my-opt.cpp - A downstream compiler embedding the layout dialect ----===//
//
// Registers a few upstream dialects plus everything of the layout project
// (layout/InitAll.h) and runs as an mlir-opt-style driver.
//
//===----------------------------------------------------------------------===//

#include "layout/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                  mlir::tensor::TensorDialect>();
  mlir::layout::registerAllDialects(registry);
  mlir::layout::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "my-opt: a downstream layout user\n", registry));
}
