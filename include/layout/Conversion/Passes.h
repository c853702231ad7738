//===- Passes.h - layout conversion passes ----------------------*- C++ -*-===//
//
// --convert-layout-to-affine, --convert-layout-to-scf and the
// --layout-lower-to-llvm pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PASSES_H
#define LAYOUT_CONVERSION_PASSES_H

#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace affine {
class AffineDialect;
} // namespace affine
namespace arith {
class ArithDialect;
} // namespace arith
namespace bufferization {
class BufferizationDialect;
} // namespace bufferization
namespace complex {
class ComplexDialect;
} // namespace complex
namespace linalg {
class LinalgDialect;
} // namespace linalg
namespace math {
class MathDialect;
} // namespace math
namespace memref {
class MemRefDialect;
} // namespace memref
namespace scf {
class SCFDialect;
} // namespace scf
namespace tensor {
class TensorDialect;
} // namespace tensor
namespace ub {
class UBDialect;
} // namespace ub
} // namespace mlir

namespace mlir::layout {

#define GEN_PASS_DECL
#include "layout/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "layout/Conversion/Passes.h.inc"

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_PASSES_H
