//===- layout-plugin.cpp - layout dialect and passes for mlir-opt ---------===//
//
//   mlir-opt --load-dialect-plugin=lib/LayoutPlugin.so \
//            --load-pass-plugin=lib/LayoutPlugin.so \
//            --pass-pipeline='builtin.module(layout-normalize-memrefs)' in.mlir
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/Transforms/BroadcastBufferization.h"
#include "layout/Dialect/Layout/Transforms/BufferizableOpInterfaceImpl.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

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
            registry->insert<::mlir::layout::LayoutDialect>();
            ::mlir::layout::registerBufferizableOpInterfaceExternalModels(
                *registry);
            ::mlir::layout::registerBroadcastBufferizationExternalModels(
                *registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "LayoutPlugin", LLVM_VERSION_STRING,
          []() {
            ::mlir::layout::registerLayoutPasses();
            ::mlir::layout::registerLayoutConversionPasses();
            ::mlir::layout::registerLayoutPipelines();
          }};
}
