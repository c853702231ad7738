//===- StagedTransposeBlocks.cpp - Crossing operands staged in L2 ---------===//
//
// Elementwise nests that read one operand in blocks (it crosses the
// result's rows) and another along the rows (in the result's order) walk
// the plane in tiles of kStageRows destination rows x kStageRowBytes
// bytes: the crossing operands' blocks of the tile are transposed into a
// per-thread buffer first, then each block of destination rows reads the
// buffer and the row operands and stores. Without the stage a group of
// destination rows reads the row operands as that many far-apart rows at
// once, more streams than the hardware prefetchers follow; with it the
// crossing operand is still read 1 KiB per source row visit and the row
// operands 16 rows at a time, 512 bytes each (docs/performance.md,
// "Staging the crossing operand").
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

bool TransposeBlockKernel::planStaged() {
  bool blocks = llvm::any_of(
      reads, [](const SourceRead &read) { return read.kind == Read::Block; });
  bool rows = llvm::any_of(
      reads, [](const SourceRead &read) { return read.kind == Read::Row; });
  // (Column chunks, planParallel, walk whole planes per thread; staged
  // tiles are chunked along p_k.)
  if (!blocks || !rows || !e.nontemporal || flatRows || realignRows ||
      mergedRows || alignedK || columnChunks ||
      llvm::any_of(reads, [](const SourceRead &read) { return read.alignedR; }))
    return false;
  std::optional<TransposeStagePlan> plan =
      planTransposeStage(sizeK, sizeR, v, width, e.elementBytes);
  if (!plan)
    return false;
  stageK = plan->rows;
  stageR = plan->columns;
  // Parallel p_k chunks of whole tiles.
  if (chunks >= 2) {
    chunkRows = std::max(stageK, chunkRows / stageK * stageK);
    chunks = sizeK / chunkRows;
  }
  return true;
}

void TransposeBlockKernel::makeStages() {
  if (!stageK)
    return;
  // The aligned and unaligned variants of a serial nest (emit) share the
  // buffers made at the same place; each parallel chunk body makes its own.
  if (!stages.empty() && stagesBlock == e.allocaBlock)
    return;
  stagesBlock = e.allocaBlock;
  stages.assign(e.sources.size(), Value());
  stageTypes.assign(e.sources.size(), Type());
  for (auto [n, read] : llvm::enumerate(reads))
    if (read.kind == Read::Block)
      stages[n] = allocateBuffer(stageK, stageR);
}

void TransposeBlockKernel::stagedPlane(AffineExpr start, AffineExpr end,
                                       bool alignedRows) {
  auto stageIndex = [&](AffineExpr k0, AffineExpr r0, int64_t j, int64_t w) {
    return SmallVector<Value>{x.materialize(pk - k0 + j),
                              x.materialize(pr - r0 + w * v)};
  };
  // The tile's blocks. Into the stage: each p_r block, its p_k blocks
  // (a crossing source's rows read along, 1 KiB each per tile). Out of it:
  // each p_k block of V destination rows, its p_r blocks.
  auto tileBlocks = [&](AffineExpr k0, AffineExpr r0, bool kOuter,
                        function_ref<void()> block) {
    struct Level {
      AffineExpr slot, lb;
      int64_t size, step;
    };
    Level levelK{pk, k0, stageK, v}, levelR{pr, r0, stageR, width};
    Level outer = kOuter ? levelK : levelR, inner = kOuter ? levelR : levelK;
    x.forLoop(
        {outer.lb}, {outer.lb + outer.size},
        [&](Value ivOuter) {
          x.bind(outer.slot, ivOuter);
          x.forLoop(
              {inner.lb}, {inner.lb + inner.size},
              [&](Value ivInner) {
                x.bind(inner.slot, ivInner);
                block();
              },
              inner.step);
        },
        outer.step);
  };
  x.forLoop(
      {start}, {end},
      [&](Value tileK) {
        AffineExpr k0 = x.value(tileK);
        x.forLoop(
            {}, {x.cst(sizeR)},
            [&](Value tileR) {
              AffineExpr r0 = x.value(tileR);
              // The crossing sources' blocks, transposed into the stage.
              tileBlocks(k0, r0, /*kOuter=*/false, [&] {
                for (unsigned n = 0; n < e.sources.size(); ++n) {
                  if (!stages[n])
                    continue;
                  SmallVector<SmallVector<Value>> parts =
                      readBlock(n, /*fullR=*/true);
                  stageTypes[n] = parts.front().front().getType();
                  for (int64_t w = 0; w < wide; ++w)
                    for (int64_t j = 0; j < v; ++j)
                      vector::StoreOp::create(b, loc, toBits(parts[w][j]),
                                              stages[n],
                                              stageIndex(k0, r0, j, w));
                }
              });
              // The destination rows: the staged blocks and the rows.
              tileBlocks(k0, r0, /*kOuter=*/true, [&] {
                SmallVector<SmallVector<SmallVector<Value>>> parts;
                for (unsigned n = 0; n < e.sources.size(); ++n) {
                  if (!stages[n]) {
                    parts.push_back(readBlock(n, /*fullR=*/true));
                    continue;
                  }
                  auto bits = VectorType::get(
                      {v},
                      IntegerType::get(b.getContext(), 8 * e.elementBytes));
                  SmallVector<SmallVector<Value>> staged;
                  for (int64_t w = 0; w < wide; ++w) {
                    SmallVector<Value> rows;
                    for (int64_t j = 0; j < v; ++j) {
                      Value row = vector::LoadOp::create(
                          b, loc, bits, stages[n], stageIndex(k0, r0, j, w));
                      if (stageTypes[n] != bits)
                        row = vector::BitCastOp::create(b, loc, stageTypes[n],
                                                        row);
                      rows.push_back(row);
                    }
                    staged.push_back(std::move(rows));
                  }
                  parts.push_back(std::move(staged));
                }
                storeRows(parts, alignedRows, {});
              });
            },
            stageR);
      },
      stageK);
}
