//===- Passes.h - passes of the LLVM pipeline -------------------*- C++ -*-===//
//
// --layout-lower-linalg-pack, --layout-prepare-deallocation,
// --layout-host-memory-spaces, --layout-reuse-buffers,
// --layout-expand-narrow-floats and --layout-check-lowered-to-llvm: the helper
// passes of
// --layout-lower-to-llvm (Pipelines.h), declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PIPELINES_PASSES_H
#define LAYOUT_CONVERSION_PIPELINES_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace bufferization {
class BufferizationDialect;
} // namespace bufferization
namespace arith {
class ArithDialect;
} // namespace arith
namespace linalg {
class LinalgDialect;
} // namespace linalg
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace memref {
class MemRefDialect;
} // namespace memref
namespace scf {
class SCFDialect;
} // namespace scf
namespace tensor {
class TensorDialect;
} // namespace tensor
} // namespace mlir

namespace mlir::layout {

#define GEN_PASS_DECL
#include "layout/Conversion/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "layout/Conversion/Pipelines/Passes.h.inc"

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_PIPELINES_PASSES_H
