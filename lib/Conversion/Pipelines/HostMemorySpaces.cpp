//===- HostMemorySpaces.cpp - --layout-host-memory-spaces -----------------===//
//
// On the CPU every memory space is host memory: integer memref memory
// spaces are mapped to the default one before the LLVM lowering (see the
// pass description in Pipelines/Passes.td).
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"

#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTHOSTMEMORYSPACES
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {
struct HostMemorySpacesPass
    : layout::impl::LayoutHostMemorySpacesBase<HostMemorySpacesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Report memory spaces that are not host memory before changing anything.
    bool ok = true;
    module.walk([&](Operation *op) {
      for (Type type :
           llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
        auto memref = dyn_cast<BaseMemRefType>(type);
        if (memref && memref.getMemorySpace() &&
            !isa<IntegerAttr>(memref.getMemorySpace())) {
          op->emitError() << "--layout-lower-to-llvm: memory space "
                          << memref.getMemorySpace() << " of " << type
                          << " is not an integer (host) memory space";
          ok = false;
          return;
        }
      }
    });
    if (!ok)
      return signalPassFailure();
    AttrTypeReplacer replacer;
    replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
      // A #layout.tiled memref keeps the space its S(n) names (the pipeline
      // runs this pass after --layout-normalize-memrefs removed them).
      if (!isa_and_present<IntegerAttr>(type.getMemorySpace()) ||
          isa<TiledLayoutAttr>(type.getLayout()))
        return std::nullopt;
      return MemRefType::get(type.getShape(), type.getElementType(),
                             type.getLayout(), Attribute());
    });
    replacer.addReplacement([](UnrankedMemRefType type) -> std::optional<Type> {
      if (!isa_and_present<IntegerAttr>(type.getMemorySpace()))
        return std::nullopt;
      return UnrankedMemRefType::get(type.getElementType(), Attribute());
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }
};
} // namespace
