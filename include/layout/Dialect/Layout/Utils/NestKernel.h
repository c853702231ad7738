//===- NestKernel.h - The kernels a lowered layout op runs ------*- C++ -*-===//
//
// The strategies the loop lowering of a layout op may take, and the record
// of those one lowering took. The name of the primary kernel is a contract:
// `layout-explain plan`'s `kernel` field and the `kernel: NAME` remark of
// --convert-layout-to-scf/-affine with `report-kernels` print it
// (docs/lowering.md, "Which kernel when").
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_UTILS_NESTKERNEL_H
#define LAYOUT_DIALECT_LAYOUT_UTILS_NESTKERNEL_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::layout {

/// In order of precedence: a nest that takes several strategies (blocked
/// transposes in full tiles, vector rows in partial ones, say) is named
/// after the first of them in this order.
enum class NestKernel : uint8_t {
  /// memref.copy of the whole physical buffer (same layouts, no padding).
  Copy,
  /// Two relayouts through an intermediate layout (StagedRelayout.h), each
  /// lowered with its own kernel.
  Staged,
  /// memref.copy of each run (the planner's chunk-copy class, scalar rows).
  ChunkCopy,
  /// Tiled -> tiled copies walked run by run in the source's order.
  RunWalk,
  /// Copies that walk the source's physical dims (tiled -> untiled,
  /// permutations that keep the minor dim).
  SourceWalk,
  /// Untiled -> tiled copies walking the destination's physical dims in the
  /// source's order.
  SourceWalkIntoTiles,
  /// V x V blocks transposed in registers.
  TransposeBlocks,
  /// Rows of (2,1)-style sub-tiles, vectors interleaved in registers.
  InterleavedRows,
  /// Rows whose segments go through an aligned cache-resident staging row.
  StagedRows,
  /// Rows whose sources are read in runs (division once per run).
  RowsInRuns,
  /// Vector rows of a copy (relayout, broadcast_in_dim).
  RowCopy,
  /// Vector rows of an elementwise function.
  VectorRows,
  /// Scalar element loops.
  Scalar,
};
inline constexpr unsigned kNumNestKernels =
    static_cast<unsigned>(NestKernel::Scalar) + 1;

/// `copy`, `staged`, `chunk-copy`, `run-walk`, `source-walk`,
/// `source-walk-into-tiles`, `transpose-blocks`, `interleaved-rows`,
/// `staged-rows`, `rows-in-runs`, `row-copy`, `vector-rows`, `scalar`.
llvm::StringRef getNestKernelName(NestKernel kernel);

/// The kernels one lowering emitted.
class NestReport {
public:
  void add(NestKernel kernel) { used |= 1u << static_cast<unsigned>(kernel); }
  bool uses(NestKernel kernel) const {
    return used & (1u << static_cast<unsigned>(kernel));
  }
  bool empty() const { return used == 0; }
  /// TransposeBlocks when used (also inside a walk reordered into tiles),
  /// else the first kernel used in precedence order; Scalar when none was
  /// (a nest of padding stores only).
  NestKernel primary() const;
  /// The geometry of the nest's first blocked transpose (its block side,
  /// width, groups and variants; TransposeBlockKernel::describe), printed
  /// by `report-kernels` as the remark `transpose-blocks: TEXT` and by
  /// `layout-explain plan` as its `blocks` field; empty when none.
  void describeBlocks(std::string text) {
    if (blocks.empty())
      blocks = std::move(text);
  }
  llvm::StringRef getBlocks() const { return blocks; }

private:
  uint32_t used = 0;
  std::string blocks;
};

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_UTILS_NESTKERNEL_H
