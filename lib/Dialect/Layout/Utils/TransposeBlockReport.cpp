//===- TransposeBlockReport.cpp - What a blocked transpose built ----------===//
//
// The geometry and variants of one blocked transpose as built, for the
// `report-kernels` remark `transpose-blocks: TEXT` and `layout-explain
// plan`'s `blocks` field: users see which of the kernel's variants their
// layout pair takes on their target (docs/lowering.md, "Which kernel when").
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

std::string TransposeBlockKernel::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << v << " x " << v << " blocks, " << wide << " wide, groups of " << group
     << " rows";
  if (prefetchRows)
    os << ", prefetch " << prefetchRows << " rows ahead";
  if (wrapPrefetch)
    os << " (into the next group)";
  if (rowPrefetch)
    os << ", row reads prefetched " << rowPrefetch << " ahead";
  if (lineSpan)
    os << ", source lines staged " << lineSpan * e.elementBytes
       << " bytes at a time";
  if (linePrefetchRows)
    os << " and prefetched " << linePrefetchRows << " rows ahead";
  if (stageK)
    os << ", staged tiles of " << stageK << " x " << stageR;
  if (flatRows)
    os << ", flat rows of " << flatRowSize;
  if (mergedRows)
    os << ", across tiles of " << mergedRows << " rows";
  for (const SourceRead &read : reads)
    if (read.interleave > 1) {
      os << ", interleaved runs of " << read.interleave << " rows";
      break;
    }
  if (storeRuns)
    os << ", interleaved stores of " << storeRuns << " rows";
  if (rowSlots)
    os << ", rows of " << sizeR << " elements then " << rowSlots - sizeR
       << " padding slots";
  if (kSlots)
    os << ", " << sizeK << " rows then " << kSlots - sizeK << " padding rows";
  if (e.nontemporal)
    os << ", streaming stores";
  if (realigned)
    os << ", realigned rows";
  if (stagedRowsBuilt)
    os << ", destination rows staged per group";
  if (junctions)
    os << ", junction lines";
  if (middleChunks)
    os << ", parallel middle chunks of " << middleChunk;
  else if (chunks)
    os << ", parallel chunks of " << chunkRows << " rows";
  else if (columnChunks)
    os << ", parallel chunks of " << chunkColumns << " columns";
  if (blocksPerVector > 1)
    os << ", " << blocksPerVector << " blocks per vector";
  return text;
}
