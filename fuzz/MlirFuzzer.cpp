//===- MlirFuzzer.cpp - The layout dialect through the MLIR parser --------===//
//
// Two libFuzzer targets built from this file (docs/reliability.md):
//
// mlir-attr (LAYOUT_FUZZ_MODULE=0): the input is an attribute or a type,
//   `#layout.tiled<...>`, `#layout.shape<...>`, `memref<4x4xf32,
//   #layout.tiled<...>>`, `tensor<...>`. Bare XLA text (no `#` and no
//   `memref<`/`tensor<` prefix) is wrapped as `#layout.tiled<INPUT>` and
//   `#layout.shape<INPUT>`. Properties: parsing never crashes; a parsed
//   attribute/type prints, and the printed text parses back to the very same
//   (uniqued) attribute/type; a memref with a layout attribute whose layout
//   verifies has an affine map with one input per dim.
//
// mlir-module (LAYOUT_FUZZ_MODULE=1): the input is a module (layout ops,
//   func/arith/memref/tensor). Properties: parsing + verification never
//   crash; a module that verifies prints, and the printed text parses and
//   verifies again; every layout pass and conversion, each on its own copy
//   of the module, either fails with a diagnostic or produces IR that
//   verifies (the pass manager's own verifier is off so that a broken
//   result is a property violation here, not a swallowed pass failure):
//   --layout-expand-broadcasts + --layout-normalize-memrefs,
//   --layout-decompose-tiling, --layout-bufferize, --layout-fold-relayouts,
//   --layout-attach-dims, --layout-expand-broadcasts + --layout-fuse +
//   --layout-assign-layouts, --layout-reuse-buffers (with and without the
//   cache), --convert-layout-to-affine,
//   --convert-layout-to-scf (also with streaming stores at every size),
//   --convert-layout-to-linalg, and the whole
//   --layout-lower-to-llvm pipeline (whose last pass reports anything left
//   unconverted, so a success must be LLVM dialect IR). Pipeline chains:
//   on a module the pipeline lowers, each of --layout-fold-relayouts,
//   --layout-decompose-tiling, --layout-expand-broadcasts,
//   --layout-attach-dims, --layout-bufferize and --layout-expand-broadcasts
//   + --layout-fuse followed by the pipeline must lower it too.
//
// Diagnostics are swallowed. Every input gets a fresh MLIRContext (threading
// off) so that a crash never depends on earlier inputs.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/InitAll.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <string>

#ifndef LAYOUT_FUZZ_MODULE
#define LAYOUT_FUZZ_MODULE 0
#endif

using namespace mlir;
using layout_fuzz::check;

namespace {

const DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    r->insert<affine::AffineDialect, arith::ArithDialect, func::FuncDialect,
              memref::MemRefDialect, tensor::TensorDialect>();
    // What layout-opt registers for our passes (InitAll.h): the dialect,
    // its bufferization models and the upstream models the pipeline needs.
    layout::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

/// A fresh context with our dialects loaded and every diagnostic swallowed.
struct FuzzContext {
  MLIRContext context;
  ScopedDiagnosticHandler handler;
  FuzzContext()
      : context(getRegistry(), MLIRContext::Threading::DISABLED),
        handler(&context, [](Diagnostic &) { return success(); }) {
    context.loadAllAvailableDialects();
  }
};

template <typename T> std::string print(T value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.print(os);
  return text;
}

#if !LAYOUT_FUZZ_MODULE

void checkType(MLIRContext &context, Type type) {
  std::string text = print(type);
  Type again = parseType(text, &context);
  check(again == type, "type '" + text + "' does not parse back to itself");
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!isa<layout::TiledLayoutAttr>(memref.getLayout()))
      return;
    AffineMap map = memref.getLayout().getAffineMap();
    check(map.getNumDims() == static_cast<unsigned>(memref.getRank()),
          "affine map of '" + text + "' has the wrong number of dims");
    int64_t offset;
    SmallVector<int64_t> strides;
    (void)memref.getStridesAndOffset(strides, offset);
  }
}

void checkAttr(MLIRContext &context, Attribute attr) {
  std::string text = print(attr);
  Attribute again = parseAttribute(text, &context);
  check(again == attr,
        "attribute '" + text + "' does not parse back to itself");
}

void fuzzText(llvm::StringRef text) {
  FuzzContext fuzz;
  MLIRContext &context = fuzz.context;
  if (text.starts_with("memref<") || text.starts_with("tensor<") ||
      text.starts_with("!")) {
    size_t read = 0;
    if (Type type = parseType(text, &context, &read, /*isKnownNullTerminated=*/
                              false))
      checkType(context, type);
    return;
  }
  if (text.starts_with("#")) {
    if (Attribute attr = parseAttribute(text, &context))
      checkAttr(context, attr);
    return;
  }
  for (const char *kind : {"#layout.tiled<", "#layout.shape<"}) {
    std::string wrapped = (kind + text + ">").str();
    if (Attribute attr = parseAttribute(wrapped, &context)) {
      checkAttr(context, attr);
      // The layout on a few memref shapes: verifyLayout and the affine map.
      if (isa<layout::TiledLayoutAttr>(attr)) {
        for (const char *dims : {"4x4", "3x5x7", "?x5", "8", "2x3x4x5"}) {
          std::string memref =
              (llvm::Twine("memref<") + dims + "xf32, " + wrapped + ">").str();
          if (Type type = parseType(memref, &context))
            checkType(context, type);
        }
      }
    }
  }
}

#else

/// Runs the passes `build` adds on a copy of `module`; returns whether they
/// succeeded (a success must verify).
bool runPipeline(MLIRContext &context, ModuleOp module, llvm::StringRef name,
                 llvm::function_ref<void(PassManager &)> build) {
  PassManager pm(&context);
  pm.enableVerifier(false);
  build(pm);
  OwningOpRef<ModuleOp> copy = module.clone();
  if (failed(pm.run(*copy)))
    return false;
  check(succeeded(verify(*copy)),
        "'" + name + "' succeeded but its result does not verify");
  return true;
}

/// `first` then --layout-lower-to-llvm on a module the pipeline lowers:
/// must succeed too.
void runPipelineChain(MLIRContext &context, ModuleOp module,
                      llvm::StringRef first,
                      llvm::function_ref<void(PassManager &)> build) {
  std::string name = (first + ",layout-lower-to-llvm").str();
  bool lowers = runPipeline(context, module, name, [&](PassManager &pm) {
    build(pm);
    layout::buildLayoutLowerToLLVMPipeline(pm);
  });
  check(lowers,
        "'" + name + "' fails on a module that layout-lower-to-llvm lowers");
}

void runPasses(MLIRContext &context, ModuleOp module) {
  runPipeline(context, module,
              "layout-expand-broadcasts,layout-normalize-memrefs",
              [](PassManager &pm) {
                pm.addPass(layout::createLayoutExpandBroadcasts());
                pm.addPass(layout::createLayoutNormalizeMemRefs());
              });
  runPipeline(context, module, "layout-decompose-tiling", [](PassManager &pm) {
    pm.addPass(layout::createLayoutDecomposeTiling());
  });
  runPipeline(context, module, "layout-bufferize", [](PassManager &pm) {
    pm.addPass(layout::createLayoutBufferize());
  });
  runPipeline(context, module, "layout-fold-relayouts", [](PassManager &pm) {
    pm.addPass(layout::createLayoutFoldRelayouts());
  });
  runPipeline(context, module, "layout-attach-dims", [](PassManager &pm) {
    pm.addPass(layout::createLayoutAttachDims());
  });
  runPipeline(context, module,
              "layout-expand-broadcasts,layout-fuse,layout-assign-layouts",
              [](PassManager &pm) {
                pm.addPass(layout::createLayoutExpandBroadcasts());
                pm.addPass(layout::createLayoutFuse());
                pm.addPass(layout::createLayoutAssignLayouts());
              });
  // Arenas for the module's own allocs and deallocs (memref-level input).
  runPipeline(context, module, "layout-reuse-buffers", [](PassManager &pm) {
    pm.addPass(layout::createLayoutReuseBuffers());
  });
  runPipeline(context, module, "layout-reuse-buffers{cache=false}",
              [](PassManager &pm) {
                layout::LayoutReuseBuffersOptions options;
                options.cache = false;
                pm.addPass(layout::createLayoutReuseBuffers(options));
              });
  // The loop emitters (memref relayouts, broadcasts on memrefs).
  runPipeline(context, module, "convert-layout-to-affine", [](PassManager &pm) {
    pm.addPass(layout::createConvertLayoutToAffine());
  });
  runPipeline(context, module, "convert-layout-to-scf", [](PassManager &pm) {
    pm.addPass(layout::createConvertLayoutToSCF());
  });
  // Streaming stores at every size: vector rows, transposes and two memory
  // streams (memory-streams) on the small shapes fuzz inputs have.
  runPipeline(context, module, "convert-layout-to-scf{nontemporal=0}",
              [](PassManager &pm) {
                layout::ConvertLayoutToSCFOptions options;
                options.nontemporalThresholdBytes = 0;
                pm.addPass(layout::createConvertLayoutToSCF(options));
              });
  runPipeline(context, module, "convert-layout-to-linalg", [](PassManager &pm) {
    pm.addPass(layout::createConvertLayoutToLinalg());
  });
  bool lowers =
      runPipeline(context, module, "layout-lower-to-llvm", [](PassManager &pm) {
        layout::buildLayoutLowerToLLVMPipeline(pm);
      });
  // Pipeline chains: every layout pass in front of the pipeline lowers
  // whatever the pipeline alone lowers.
  if (!lowers)
    return;
  runPipelineChain(
      context, module, "layout-fold-relayouts",
      [](PassManager &pm) { pm.addPass(layout::createLayoutFoldRelayouts()); });
  runPipelineChain(context, module, "layout-decompose-tiling",
                   [](PassManager &pm) {
                     pm.addPass(layout::createLayoutDecomposeTiling());
                   });
  runPipelineChain(context, module, "layout-expand-broadcasts",
                   [](PassManager &pm) {
                     pm.addPass(layout::createLayoutExpandBroadcasts());
                   });
  runPipelineChain(context, module, "layout-attach-dims", [](PassManager &pm) {
    pm.addPass(layout::createLayoutAttachDims());
  });
  runPipelineChain(context, module, "layout-bufferize", [](PassManager &pm) {
    pm.addPass(layout::createLayoutBufferize());
  });
  // (The pipeline fuses by default; fused twice, the second run finds the
  // fusions formed and must leave a module that still lowers.)
  runPipelineChain(context, module, "layout-expand-broadcasts,layout-fuse",
                   [](PassManager &pm) {
                     pm.addPass(layout::createLayoutExpandBroadcasts());
                     pm.addPass(layout::createLayoutFuse());
                   });
}

void fuzzText(llvm::StringRef text) {
  FuzzContext fuzz;
  MLIRContext &context = fuzz.context;
  ParserConfig config(&context, /*verifyAfterParse=*/true);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module)
    return;
  std::string printed = print(*module);
  {
    FuzzContext second;
    ParserConfig config2(&second.context, /*verifyAfterParse=*/true);
    OwningOpRef<ModuleOp> again = parseSourceString<ModuleOp>(printed, config2);
    check(static_cast<bool>(again),
          "a module that verifies does not parse back after printing:\n" +
              printed);
  }
  runPasses(context, *module);
}

#endif

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The MLIR lexer wants a null-terminated buffer; parseSourceString copies.
  std::string text(reinterpret_cast<const char *>(data), size);
  if (text.find('\0') != std::string::npos)
    return 0;
  fuzzText(text);
  return 0;
}
