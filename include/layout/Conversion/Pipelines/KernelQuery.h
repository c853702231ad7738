//===- KernelQuery.h - Which kernel the lowering emits ----------*- C++ -*-===//
//
// The name of the kernel --layout-lower-to-llvm emits for a relayout between
// two XLA shapes: the pipeline runs, with `report-kernels`, on a scratch
// module holding one memref `layout.relayout`, and the `kernel: NAME` remark
// is the answer. `layout-explain plan` prints it (docs/lowering.md, "Which
// kernel when"); the names are NestKernel.h's.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PIPELINES_KERNELQUERY_H
#define LAYOUT_CONVERSION_PIPELINES_KERNELQUERY_H

#include "layout/Xla/Shape.h"

#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace mlir::layout {

/// What the lowering of one relayout did.
struct KernelAnswer {
  /// The kernel's name; empty when the lowering failed.
  std::string kernel;
  /// The blocked transpose's geometry and variants (the remark
  /// `transpose-blocks: TEXT`); empty when the kernel built none.
  std::string blocks;
  /// The element groups the relayout moved as wider elements (the remark
  /// `grouped elements: TEXT`, docs/lowering.md "Grouped elements"); empty
  /// when it moved each element.
  std::string groupedElements;
  /// The lowering's first error when it failed.
  std::string error;
};

/// Lowers `layout.relayout` from a memref of shape `source` into one of
/// shape `destination` with --layout-lower-to-llvm{`pipelineOptions`
/// report-kernels=true} and returns the kernel it reported. Failure
/// (through `emitError`) for shapes without a memref type, or for options
/// the pipeline rejects; a failing lowering is an answer with `error` set.
/// `context` must have the layout dialects registered (layout/InitAll.h)
/// and the func and memref dialects.
FailureOr<KernelAnswer>
queryRelayoutKernel(MLIRContext &context, const Shape &source,
                    const Shape &destination, StringRef pipelineOptions,
                    function_ref<void(const Twine &)> emitError);

} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_PIPELINES_KERNELQUERY_H
