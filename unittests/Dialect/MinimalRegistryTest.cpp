//===- MinimalRegistryTest.cpp - Passes in a downstream-sized context -----===//
//
// A downstream compiler registers what InitAll.h documents (our dialects and
// models via layout::registerAllDialects) plus the few upstream dialects its
// input uses. Every layout pass must then load what it creates itself: an
// op of a dialect that is not loaded is built as a null op (a crash in a
// release build of MLIR). Found by the mlir-module fuzzer: --layout-bufferize
// of a dynamic `layout.add` created scf.for without the SCF dialect
// (fuzz/corpus/mlir-module/regress-bufferize-unloaded-scf.txt).
//
// Each case parses a module in a fresh context with only func, arith and
// bufferization (the input's own dialects) registered next to ours, runs one
// pass or pipeline, and checks that it succeeds and the result verifies.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <gtest/gtest.h>
#include <string>

using namespace mlir;

namespace {

// The fuzzer's input: a dynamic binary op bufferizes to scf loops.
constexpr const char *kDynamicAdd = R"mlir(
func.func @dynamic(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = layout.add %a, %b : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
)mlir";

// Static broadcasting into a tiled encoding (affine loops, vector rows),
// and a dynamic relayout (scf loops).
constexpr const char *kTiled = R"mlir(
func.func @tiled(%m: tensor<4x8xf32>, %v: tensor<4xf32>)
    -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>> {
  %r = layout.add %m, %v, dims = [0]
      : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
  return %r : tensor<4x8xf32, #layout.tiled<{1,0:T(2,4)}>>
}
func.func @relayout(%s: tensor<?x5xf32>, %d: tensor<?x5xf32, #layout.tiled<{0,1:T(2)}>>)
    -> tensor<?x5xf32, #layout.tiled<{0,1:T(2)}>> {
  %r = layout.relayout %s, %d : tensor<?x5xf32>, tensor<?x5xf32, #layout.tiled<{0,1:T(2)}>>
      -> tensor<?x5xf32, #layout.tiled<{0,1:T(2)}>>
  return %r : tensor<?x5xf32, #layout.tiled<{0,1:T(2)}>>
}
)mlir";

struct Case {
  const char *name;
  std::function<void(PassManager &)> build;
  /// The diagnostic expected on kDynamicAdd, or nullptr: must succeed.
  const char *dynamicAddError = nullptr;
};

const Case kCases[] = {
    {"layout-expand-broadcasts",
     [](PassManager &pm) {
       pm.addPass(layout::createLayoutExpandBroadcasts());
     }},
    {"layout-decompose-tiling",
     [](PassManager &pm) {
       pm.addPass(layout::createLayoutDecomposeTiling());
     }},
    {"layout-bufferize",
     [](PassManager &pm) { pm.addPass(layout::createLayoutBufferize()); }},
    {"convert-layout-to-affine",
     [](PassManager &pm) { pm.addPass(layout::createConvertLayoutToAffine()); },
     "dynamic shapes need --convert-layout-to-scf"},
    {"convert-layout-to-scf",
     [](PassManager &pm) { pm.addPass(layout::createConvertLayoutToSCF()); }},
    {"convert-layout-to-linalg",
     [](PassManager &pm) { pm.addPass(layout::createConvertLayoutToLinalg()); },
     "linalg.broadcast cannot expand a dim chosen at run time"},
    {"layout-lower-to-llvm",
     [](PassManager &pm) { layout::buildLayoutLowerToLLVMPipeline(pm); }},
};

class MinimalRegistry : public ::testing::TestWithParam<size_t> {};

void runCase(const Case &c, const char *source,
             const char *expectedError = nullptr) {
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                  func::FuncDialect>();
  layout::registerAllDialects(registry);
  MLIRContext context(registry);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostics += d.str() + "\n";
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module) << diagnostics;
  PassManager pm(&context);
  c.build(pm);
  LogicalResult result = pm.run(*module);
  if (expectedError) {
    EXPECT_TRUE(failed(result)) << c.name;
    EXPECT_NE(diagnostics.find(expectedError), std::string::npos)
        << c.name << ":\n"
        << diagnostics;
    return;
  }
  ASSERT_TRUE(succeeded(result)) << c.name << ":\n" << diagnostics;
  EXPECT_TRUE(succeeded(verify(*module))) << c.name;
  // Nothing was built as an unregistered op.
  module->walk([&](Operation *op) {
    EXPECT_TRUE(op->isRegistered()) << c.name << " created the unregistered op "
                                    << op->getName().getStringRef().str();
  });
}

TEST_P(MinimalRegistry, DynamicAdd) {
  const Case &c = kCases[GetParam()];
  runCase(c, kDynamicAdd, c.dynamicAddError);
}
TEST_P(MinimalRegistry, TiledAndRelayout) {
  runCase(kCases[GetParam()], kTiled);
}

INSTANTIATE_TEST_SUITE_P(Passes, MinimalRegistry,
                         ::testing::Range<size_t>(0, std::size(kCases)),
                         [](const ::testing::TestParamInfo<size_t> &info) {
                           std::string name = kCases[info.param].name;
                           for (char &ch : name)
                             if (ch == '-')
                               ch = '_';
                           return name;
                         });

} // namespace
