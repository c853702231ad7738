//===- LoopEmitOptions.cpp - Bounds of the loop lowering's options --------===//

#include "layout/Dialect/Layout/Utils/LoopEmitOptions.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout;

LogicalResult
LoopEmitOptions::verify(function_ref<void(const Twine &)> emitError) const {
  bool ok = true;
  auto error = [&](const Twine &message) {
    emitError(message);
    ok = false;
  };
  if (vectorBytes != 0 &&
      (vectorBytes < kMinVectorBytes || vectorBytes > kMaxVectorBytes ||
       !llvm::isPowerOf2_64(vectorBytes)))
    error("vector-bytes must be 0 (scalar loops) or a power of two from " +
          Twine(kMinVectorBytes) + " to " + Twine(kMaxVectorBytes) + ", got " +
          Twine(vectorBytes));
  if (nontemporalThresholdBytes < -1)
    error("nontemporal-threshold-bytes must be a size in bytes or -1 "
          "(never), got " +
          Twine(nontemporalThresholdBytes));
  if (parallelThresholdBytes < -1)
    error("parallel-threshold-bytes must be a size in bytes or -1 (never), "
          "got " +
          Twine(parallelThresholdBytes));
  if (vectorRegisterBytes < 0 || vectorRegisterBytes > kMaxVectorRegisterBytes)
    error("vector-register-bytes must be 0 (unknown) or a size in bytes up "
          "to " +
          Twine(kMaxVectorRegisterBytes) + ", got " +
          Twine(vectorRegisterBytes));
  if (transposeGroupBytes < kMinTransposeGroupBytes ||
      transposeGroupBytes > kMaxTransposeGroupBytes ||
      !llvm::isPowerOf2_64(transposeGroupBytes))
    error("transpose-group-bytes must be a power of two from " +
          Twine(kMinTransposeGroupBytes) + " to " +
          Twine(kMaxTransposeGroupBytes) + ", got " +
          Twine(transposeGroupBytes));
  if (prefetchedGroupBytes != 0 &&
      (prefetchedGroupBytes < kMinTransposeGroupBytes ||
       prefetchedGroupBytes > kMaxTransposeGroupBytes ||
       !llvm::isPowerOf2_64(prefetchedGroupBytes)))
    error("prefetched-group-bytes must be 0 (transpose-group-bytes) or a "
          "power of two from " +
          Twine(kMinTransposeGroupBytes) + " to " +
          Twine(kMaxTransposeGroupBytes) + ", got " +
          Twine(prefetchedGroupBytes));
  if (parallelThreads < 0 || parallelThreads > kMaxParallelThreads)
    error("parallel-threads must be 0 (not known) or a number of threads up "
          "to " +
          Twine(kMaxParallelThreads) + ", got " + Twine(parallelThreads));
  if (memoryStreams != 1 && memoryStreams != 2)
    error("memory-streams must be 1 or 2, got " + Twine(memoryStreams));
  return success(ok);
}
