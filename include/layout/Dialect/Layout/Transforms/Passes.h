//===- Passes.h - layout dialect passes -------------------------*- C++ -*-===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace affine {
class AffineDialect;
} // namespace affine
namespace arith {
class ArithDialect;
} // namespace arith
namespace memref {
class MemRefDialect;
} // namespace memref
namespace tensor {
class TensorDialect;
} // namespace tensor
} // namespace mlir

namespace mlir::layout {

/// Marks the `memref.reinterpret_cast` that --layout-normalize-memrefs
/// builds for the logical descriptor of a dynamic tiled memref (call
/// operand, returned value); the value is the tiled memref type. Its sizes
/// are the logical sizes, while the buffer holds the physical extents, so a
/// copy of the descriptor (`bufferization.clone`) would copy too few
/// elements; --layout-prepare-deallocation copies the physical view
/// instead.
inline constexpr llvm::StringLiteral kLogicalDescriptorAttrName =
    "layout.logical_descriptor";

#define GEN_PASS_DECL
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_H
