//===- TransposeBlockStores.cpp - The rows of a transposed block ----------===//
//
// Each destination row of a blocked transpose (TransposeBlocks.cpp): the
// op on its vectors, then its `wide` parts stored side by side (aligned and
// streaming inside the plane, unaligned at the edges), as one
// concatenated line where LLVM would drop the streaming hint of the parts
// or where the parts are one register (transposeSideBySide), or realigned
// (RealignedTransposeRows.cpp) when the row starts off a line.
//
//===----------------------------------------------------------------------===//

#include "TransposeBlockKernel.h"
#include "TransposeBlocks.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::layout;
using namespace mlir::layout::loops;

int64_t TransposeBlockKernel::partsPerStore(bool alignedStores) {
  if (!alignedStores)
    return 1;
  // The `wide` parts of a row computed by an op into 16-bit floats, one
  // streaming store: LLVM 22 folds the op's f32 -> bf16 narrowing into the
  // store of each part (a truncating vpmovdw to memory) and drops the
  // non-temporal hint; the concatenated line narrows in registers
  // (vpermt2w) and streams (vmovntdq). AVX-512 only (masked edges): on
  // AVX2 LLVM splits a non-temporal <32 x i16> store into 16-bit stores.
  // add_cross_bf16 (bench/run.sh, Emerald Rapids, AVX-512, one thread, two
  // alternated runs): 5.3 -> 6.4 GB/s.
  if (e.nontemporal && wide > 1 && !e.copiesElements && e.options.maskedEdges &&
      e.elementBytes == 2 && isa<FloatType>(elementType))
    return wide;
  // Blocks transposed side by side in one register that is the whole row
  // are stored as that register, not as parts extracted from it (a
  // vextracti64x4 per part: AVX-512's 8-bit 16 x 16 blocks, four wide,
  // and 16-bit 16 x 16, two wide). A row of several registers (AVX2's 8-bit 16
  // x 16 blocks, four wide, two per register) keeps its parts: stored a
  // register at a time, u8[4096,4096] transposes ran 0.57 -> 0.54x memcpy
  // (bench/pairs, Emerald Rapids, AVX2 code, three alternated runs); its
  // realigned rows do gain (storeRealignedRow).
  int64_t parts = registerParts();
  return parts == wide ? parts : 1;
}

void TransposeBlockKernel::storeVector(Value value, ValueRange indices,
                                       int64_t bytes, bool aligned) {
  auto op = vector::StoreOp::create(b, loc, value, destView, indices);
  if (!aligned)
    return;
  op.setAlignment(static_cast<uint64_t>(bytes));
  if (e.nontemporal) {
    op.setNontemporal(true);
    e.usedNontemporal = true;
  }
}

int64_t TransposeBlockKernel::registerParts() const {
  bool knownRegister =
      e.options.maskedEdges || e.options.vectorRegisterBytes > 0;
  return e.nontemporal && blocksPerVector > 1 && knownRegister ? blocksPerVector
                                                               : 1;
}

void TransposeBlockKernel::storeRows(
    ArrayRef<SmallVector<SmallVector<Value>>> parts, bool alignedStores,
    ArrayRef<int64_t> rowShifts) {
  // Destination row j: the parts back to back (one whole line at 64-byte
  // vectors), one store each, or `perStore` of them concatenated where
  // partsPerStore says (computed 16-bit floats, parts of one register;
  // LLVM splits a non-temporal <32 x i16> store into 16-bit scalar stores
  // on AVX2).
  if (storeRuns) {
    storeInterleavedRows(parts, alignedStores);
    return;
  }
  int64_t perStore = partsPerStore(alignedStores);
  for (int64_t j = writtenRows; j < v; ++j) {
    auto result = [&](int64_t w) {
      // The op on destination row j's vectors (a copy: the moved vector).
      SmallVector<Value> loaded;
      for (const auto &source : parts)
        loaded.push_back(source[w][j]);
      return e.fromMoveType(e.fn(b, loc, loaded), elementType);
    };
    if (part == Part::Edge) {
      // (p_r = sizeR - W.)
      for (int64_t w = 0; w < wide; ++w)
        storeOutsideStream(result(w), j, sizeR - width + w * v, rowShifts[j]);
      continue;
    }
    SmallVector<Value> row;
    if (!rowShifts.empty() && rowShifts[j] != 0) {
      for (int64_t w = 0; w < wide; ++w)
        row.push_back(result(w));
      storeRealignedRow(j, row, rowShifts[j]);
      continue;
    }
    // (The destination's index, built before the value: its dims in its
    // order, also in a walk reordered into tiles.)
    auto store = [&](Value value, ValueRange indices, int64_t bytes) {
      storeVector(value, indices, bytes, alignedStores);
    };
    for (int64_t w = 0; w < wide; w += perStore) {
      SmallVector<Value> indices = destIndices(j, pr + w * v);
      for (int64_t m = 0; m < perStore; ++m)
        row.push_back(result(w + m));
      Value value =
          perStore == 1
              ? row.back()
              : concatenateVectors(b, loc, ArrayRef(row).take_back(perStore));
      store(value, indices, perStore * v * e.elementBytes);
    }
    // A row aligned in this set of shifts and shifted in another: the tail
    // after the blocks stores its carry whatever the last block's set.
    if (!rowShifts.empty() && isCarried(j))
      storeCarry(j, row);
  }
}
