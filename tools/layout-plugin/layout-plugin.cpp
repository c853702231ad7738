//===- layout-plugin.cpp - layout dialect and passes for mlir-opt ---------===//
//
//   mlir-opt --load-dialect-plugin=lib/LayoutPlugin.so \
//            --load-pass-plugin=lib/LayoutPlugin.so \
//            --pass-pipeline='builtin.module(layout-normalize-memrefs)' in.mlir
//
//===----------------------------------------------------------------------===//

#include "layout/InitAll.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "LayoutPlugin", LLVM_VERSION_STRING,
          [](::mlir::DialectRegistry *registry) {
            ::mlir::layout::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "LayoutPlugin", LLVM_VERSION_STRING,
          []() { ::mlir::layout::registerAllPasses(); }};
}
