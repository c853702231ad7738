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

#define GEN_PASS_DECL
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PASSES_H
