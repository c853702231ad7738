//===- FlatTransposeRows.cpp - Short transposed rows, walked as one -------===//
//
// Blocked transposes whose streaming destination rows are not whole lines
// (f32[63,257,1021] -> {0,1,2}: rows of 252 bytes) walk each row together
// with the dim outside it as one flat row (shouldFlattenRows has the
// measurements): the destination through a memref.collapse_shape of the two
// dims (TransposeBlockKernel::emit), each block row's source row from the
// flat column's (row, offset). docs/lowering.md, "Flat rows".
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/DebugLog.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

#define DEBUG_TYPE "layout-nest"

bool TransposeBlockKernel::planFlatRows(const TransposePlaneFacts &facts) {
  // The dim r - 1 between p_k and p_r, its rows back to back in the
  // destination, and every source crossing with constant steps: no tiled
  // source (one crossing only inside aligned blocks sets maxSide) and no
  // row or splat reads (rowReads; their vectors would cross from one row
  // of the flat row into the next).
  if (r < k + 2 || facts.maxSide != 0 || facts.rowReads ||
      e.destStrides[r - 1] != sizeR)
    return false;
  std::optional<int64_t> sizeM = IndexExprs::getConstant(e.physSizes[r - 1]);
  if (!sizeM || !shouldFlattenRows(facts, *sizeM))
    return false;
  pm = e.placeholders[r - 1];
  // Each block row reads its own source row (flatRowIndices).
  for (SourceRead &read : reads) {
    read.globalR.reset();
    read.alignedR = false;
  }
  LDBG() << "transpose blocks at level " << k << ": rows of " << sizeR
         << " flattened with dim " << r - 1 << " (" << *sizeM << ")";
  pr = x.placeholder();
  flatRowSize = sizeR;
  sizeR *= *sizeM;
  rowOuter = r - 2;
  flatRows = true;
  return true;
}

DenseMap<AffineExpr, AffineExpr>
TransposeBlockKernel::splitFlat(AffineExpr column) {
  return {{pm, column.floorDiv(flatRowSize)},
          {e.placeholders[r], column % flatRowSize}};
}

SmallVector<Value> TransposeBlockKernel::flatRowIndices(unsigned n, int64_t t) {
  DenseMap<AffineExpr, AffineExpr> split;
  if (flatRowSize >= width) {
    // (f mod R) + t < 2 R: the row wraps into the next dim r - 1 at most
    // once, a compare and a select instead of a division per row (a
    // division per row spilled the registers of a 16 x 16 block).
    Value column = x.materialize(x.value(flatRem) + t);
    Value wraps = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, column,
        arith::ConstantIndexOp::create(b, loc, flatRowSize));
    AffineExpr wrap = x.value(arith::SelectOp::create(
        b, loc, wraps, arith::ConstantIndexOp::create(b, loc, 1),
        arith::ConstantIndexOp::create(b, loc, 0)));
    split = {{pm, x.value(flatQuotient) + wrap},
             {e.placeholders[r], x.value(column) - wrap * flatRowSize}};
  } else {
    split = splitFlat(pr + t);
  }
  SmallVector<Value> indices;
  for (AffineExpr ex : e.sources[n].index)
    indices.push_back(x.materialize(ex.replace(split)));
  return indices;
}
