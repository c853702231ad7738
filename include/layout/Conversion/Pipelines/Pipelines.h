//===- Pipelines.h - layout pass pipelines ----------------------*- C++ -*-===//

#ifndef LAYOUT_CONVERSION_PIPELINES_PIPELINES_H
#define LAYOUT_CONVERSION_PIPELINES_PIPELINES_H

#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::layout {

/// Options of --layout-lower-to-llvm (passed to the loop conversions).
struct LayoutLowerToLLVMOptions
    : public PassPipelineOptions<LayoutLowerToLLVMOptions> {
  Option<int64_t> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Bytes per vector of the innermost loops (0: scalar)"),
      llvm::cl::init(kDefaultVectorBytes)};
  Option<int64_t> nontemporalThresholdBytes{
      *this, "nontemporal-threshold-bytes",
      llvm::cl::desc("Destinations of at least this many bytes get "
                     "non-temporal vector stores (-1: never)"),
      llvm::cl::init(kDefaultNontemporalThresholdBytes)};
  Option<bool> maskedEdges{
      *this, "masked-edges",
      llvm::cl::desc("Edges of vector rows use masked loads/stores (fast "
                     "with AVX-512); false: overlapping full vectors (AVX2)"),
      llvm::cl::init(true)};
  Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("Free every buffer allocated in a function after its "
                     "last use (upstream's buffer-deallocation-pipeline); "
                     "hand-written memref.dealloc of local allocations are "
                     "replaced by it"),
      llvm::cl::init(true)};
};

/// Adds --layout-lower-to-llvm (docs/lowering.md): tensor- or memref-level
/// layout IR (or a mix) to the LLVM dialect, ending with a check that
/// reports anything left unconverted.
void buildLayoutLowerToLLVMPipeline(OpPassManager &pm);
void buildLayoutLowerToLLVMPipeline(OpPassManager &pm,
                                    const LayoutLowerToLLVMOptions &options);

/// Registers --layout-lower-to-llvm.
void registerLayoutPipelines();

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_PIPELINES_PIPELINES_H
