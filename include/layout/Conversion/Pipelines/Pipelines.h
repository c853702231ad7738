//===- Pipelines.h - layout pass pipelines ----------------------*- C++ -*-===//

#ifndef LAYOUT_CONVERSION_PIPELINES_PIPELINES_H
#define LAYOUT_CONVERSION_PIPELINES_PIPELINES_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::layout {

/// Adds --layout-lower-to-llvm (docs/lowering.md): tensor- or memref-level
/// layout IR (or a mix) to the LLVM dialect, ending with a check that
/// reports anything left unconverted.
void buildLayoutLowerToLLVMPipeline(OpPassManager &pm);

/// Registers --layout-lower-to-llvm.
void registerLayoutPipelines();

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_PIPELINES_PIPELINES_H
