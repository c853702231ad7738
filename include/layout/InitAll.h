//===- InitAll.h - Register everything of the layout project ----*- C++ -*-===//
//
// The one call a downstream MLIR compiler makes to use the layout project:
//
//   mlir::DialectRegistry registry;
//   mlir::layout::registerAllDialects(registry); // dialect + interface models
//   mlir::layout::registerAllPasses();           // passes, conversions and
//                                                // --layout-lower-to-llvm
//
// Link MLIRLayout::MLIRLayout (find_package(MLIRLayout CONFIG)). The upstream
// dialects our passes create (affine, arith, bufferization, func, linalg,
// memref, scf, tensor, LLVM, ...) are loaded by the passes themselves;
// registering upstream's own dialects and passes is the caller's choice.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_INITALL_H
#define LAYOUT_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::layout {

/// Registers the layout dialect, the external interface models it provides
/// (One-Shot Bufferize support for its ops), and the upstream models that
/// --layout-lower-to-llvm needs (bufferization of arith/func/cf/linalg/scf/
/// tensor, ConvertToLLVM interfaces of the dialects the lowering produces).
void registerAllDialects(DialectRegistry &registry);

/// Registers every layout pass, conversion pass and pass pipeline.
void registerAllPasses();

} // namespace mlir::layout

#endif // LAYOUT_INITALL_H
