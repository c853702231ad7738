//===- NestKernel.cpp - The kernels a lowered layout op runs --------------===//

#include "layout/Dialect/Layout/Utils/NestKernel.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mlir::layout;

llvm::StringRef mlir::layout::getNestKernelName(NestKernel kernel) {
  switch (kernel) {
  case NestKernel::Copy:
    return "copy";
  case NestKernel::Staged:
    return "staged";
  case NestKernel::ChunkCopy:
    return "chunk-copy";
  case NestKernel::RunWalk:
    return "run-walk";
  case NestKernel::SourceWalk:
    return "source-walk";
  case NestKernel::SourceWalkIntoTiles:
    return "source-walk-into-tiles";
  case NestKernel::TransposeBlocks:
    return "transpose-blocks";
  case NestKernel::InterleavedRows:
    return "interleaved-rows";
  case NestKernel::StagedRows:
    return "staged-rows";
  case NestKernel::RowsInRuns:
    return "rows-in-runs";
  case NestKernel::RowCopy:
    return "row-copy";
  case NestKernel::VectorRows:
    return "vector-rows";
  case NestKernel::Scalar:
    return "scalar";
  }
  llvm_unreachable("unknown nest kernel");
}

NestKernel NestReport::primary() const {
  // A walk reordered into tiles whose tiles' plane is transposed in blocks
  // (cm_to_tiled): the blocks move the data, the walk only orders them.
  if (used & (1u << static_cast<unsigned>(NestKernel::TransposeBlocks)))
    return NestKernel::TransposeBlocks;
  for (unsigned k = 0; k < kNumNestKernels; ++k)
    if (used & (1u << k))
      return static_cast<NestKernel>(k);
  return NestKernel::Scalar;
}
