//===- RegisterTranspose.cpp - V x V transposes in registers --------------===//
//
// The transpose is built from two-source vector.shuffles rather than
// vector.transpose: upstream's default lowering of a 2-D vector.transpose
// (convert-vector-to-llvm) extracts and inserts single elements (llc:
// vpextrd/vpinsrd). The block-swap rounds of transposeInRegisters were
// measured with llc against rounds that interleave whole halves (a perfect
// shuffle): 16 x 16 i32 on AVX2 (x86-64-v3) takes about 130 shuffles and
// blends instead of about 430 vpermps/vblendps plus spills, 8 x 8 i32 32
// instead of 48, 16 x 16 i16 about 130 instead of 510; on AVX-512 both are
// about 64 two-source permutes per 16 x 16 block. 8-bit blocks of 16-byte
// rows take perfect-shuffle rounds instead (interleaveRounds): each is one
// in-lane byte interleave there.
//
//===----------------------------------------------------------------------===//

#include "TransposeBlocks.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::layout::loops;

/// The type a vector of `type` is shuffled as: 16-bit floats as integers of
/// the same width (LLVM 22 scalarizes shuffles of <16 x bfloat> on x86
/// without AVX512-BF16: a vpinsrw per lane; add_cross_bf16, bench/run.sh,
/// Emerald Rapids, AVX-512, one thread, two alternated runs: 4.7 -> 5.3
/// GB/s). Null where the vector is shuffled as it is.
static VectorType getShuffleBitsType(VectorType type) {
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  if (!floatType || floatType.getWidth() >= 32)
    return {};
  return type.clone(IntegerType::get(type.getContext(), floatType.getWidth()));
}

/// `value` as `type`, or unchanged where `type` is null.
static Value bitcastIf(OpBuilder &b, Location loc, VectorType type,
                       Value value) {
  return type ? vector::BitCastOp::create(b, loc, type, value) : value;
}

/// Round g (g = V/2, V/4, ..., 1): for rows r < r + g with bit g of r
/// clear, the g x g blocks above the diagonal of each 2g x 2g block trade
/// places with those below it:
///   r'     = a[0..g) b[0..g)   a[2g..3g) b[2g..3g) ...
///   r + g' = a[g..2g) b[g..2g) a[3g..4g) b[3g..4g) ...
/// (a, b rows r and r + g). After the log2(V) rounds element (i, j) is at
/// (j, i). Large g first: on a target narrower than the vector the first
/// round only renames registers, and each round is one instruction per
/// vector on AVX2 (vperm2f128, vunpcklpd/vshufps, blend + shuffle) and
/// AVX-512 (vshufi64x2, vpermt2d/q/w).
static void swapRounds(OpBuilder &b, Location loc, SmallVector<Value> &current,
                       int64_t n) {
  int64_t v = current.size();
  for (int64_t g = v / 2; g >= 1; g /= 2) {
    SmallVector<int64_t> low, high;
    for (int64_t p = 0; p < n; ++p) {
      int64_t j = p % v;
      bool second = j & g;
      low.push_back(second ? n + p - g : p);
      high.push_back(second ? n + p : p + g);
    }
    for (int64_t r = 0; r < v; ++r) {
      if (r & g)
        continue;
      Value a = current[r], c = current[r + g];
      current[r] = vector::ShuffleOp::create(b, loc, a, c, low);
      current[r + g] = vector::ShuffleOp::create(b, loc, a, c, high);
    }
  }
}

/// 8-bit blocks of 16-byte rows (one x86 128-bit lane per block): log2(V)
/// rounds of the perfect shuffle, each taking rows i and i + V/2 to
///   2i'     = a[0] b[0] a[1] b[1] ... a[V/2 - 1] b[V/2 - 1]
///   2i + 1' = a[V/2] b[V/2] ... a[V - 1] b[V - 1]
/// per block (a, b rows i and i + V/2); after them element (i, j) is at
/// (j, i). Each is one in-lane byte interleave, vpunpcklbw/vpunpckhbw on
/// SSE, AVX2 and AVX-512 alike, without the index vectors and byte
/// shuffles of the swap rounds at g = 2 and 1 (AVX2: vpshufb and blends;
/// AVX-512: vpermt2b/w).
static void interleaveRounds(OpBuilder &b, Location loc,
                             SmallVector<Value> &current, int64_t n) {
  int64_t v = current.size();
  // The same masks every round.
  SmallVector<int64_t> low, high;
  for (int64_t base = 0; base < n; base += v)
    for (int64_t q = 0; q < v / 2; ++q) {
      low.append({base + q, n + base + q});
      high.append({base + v / 2 + q, n + base + v / 2 + q});
    }
  for (int64_t rounds = llvm::Log2_64(v); rounds > 0; --rounds) {
    SmallVector<Value> next(v);
    for (int64_t i = 0; i < v / 2; ++i) {
      Value a = current[i], c = current[i + v / 2];
      next[2 * i] = vector::ShuffleOp::create(b, loc, a, c, low);
      next[2 * i + 1] = vector::ShuffleOp::create(b, loc, a, c, high);
    }
    current = std::move(next);
  }
}

SmallVector<Value>
mlir::layout::loops::transposeInRegisters(OpBuilder &b, Location loc,
                                          ArrayRef<Value> rows) {
  int64_t v = rows.size();
  assert(llvm::isPowerOf2_64(v) && "a power-of-two block");
  // Vectors of n = m V lanes hold m blocks side by side (segments of V
  // lanes): each round's masks repeat per segment.
  int64_t n = cast<VectorType>(rows.front().getType()).getDimSize(0);
  assert(n % v == 0 && "whole blocks side by side");
  // The rounds: swapRounds, or interleaveRounds for 8-bit blocks of 16
  // bytes (other widths of 16-byte rows, SSE's, keep the swaps:
  // unmeasured). 16-bit floats (the blocks of an elementwise op's bf16
  // operand; copies move integers already) are shuffled as integers
  // (getShuffleBitsType).
  auto type = cast<VectorType>(rows.front().getType());
  VectorType bits = getShuffleBitsType(type);
  SmallVector<Value> current;
  for (Value row : rows)
    current.push_back(bitcastIf(b, loc, bits, row));
  unsigned elementBits = cast<VectorType>(current.front().getType())
                             .getElementType()
                             .getIntOrFloatBitWidth();
  if (elementBits == 8 && v * elementBits == 128)
    interleaveRounds(b, loc, current, n);
  else
    swapRounds(b, loc, current, n);
  if (bits)
    for (Value &row : current)
      row = vector::BitCastOp::create(b, loc, type, row);
  return current;
}

Value mlir::layout::loops::concatenateVectors(OpBuilder &b, Location loc,
                                              ArrayRef<Value> parts) {
  // (16-bit floats stay floats: a concatenation is no permutation, LLVM
  // inserts the halves.)
  SmallVector<Value> halves(parts);
  while (halves.size() > 1) {
    SmallVector<Value> next;
    for (size_t h = 0; h < halves.size(); h += 2) {
      int64_t n = cast<VectorType>(halves[h].getType()).getDimSize(0);
      next.push_back(vector::ShuffleOp::create(
          b, loc, halves[h], halves[h + 1],
          llvm::to_vector(llvm::seq<int64_t>(0, 2 * n))));
    }
    halves = std::move(next);
  }
  return halves.front();
}

SmallVector<SmallVector<Value>>
mlir::layout::loops::transposeSideBySide(OpBuilder &b, Location loc,
                                         ArrayRef<SmallVector<Value>> blocks,
                                         int64_t batch) {
  assert(batch >= 1 && blocks.size() % batch == 0 && "whole batches");
  SmallVector<SmallVector<Value>> result;
  if (batch == 1) {
    for (const SmallVector<Value> &rows : blocks)
      result.push_back(transposeInRegisters(b, loc, rows));
    return result;
  }
  int64_t v = blocks.front().size();
  // (16-bit floats concatenated and split as integers, as in
  // transposeInRegisters.)
  auto type = cast<VectorType>(blocks.front().front().getType());
  VectorType bits = getShuffleBitsType(type);
  for (size_t w = 0; w < blocks.size(); w += batch) {
    // Row r of the batch's blocks back to back: one vector of batch V
    // lanes, transposed segment by segment.
    SmallVector<Value> rows;
    for (int64_t r = 0; r < v; ++r) {
      SmallVector<Value> parts;
      for (int64_t m = 0; m < batch; ++m) {
        parts.push_back(bitcastIf(b, loc, bits, blocks[w + m][r]));
      }
      rows.push_back(concatenateVectors(b, loc, parts));
    }
    SmallVector<Value> transposed = transposeInRegisters(b, loc, rows);
    for (int64_t m = 0; m < batch; ++m) {
      SmallVector<Value> part;
      for (Value row : transposed) {
        Value segment = vector::ShuffleOp::create(
            b, loc, row, row,
            llvm::to_vector(llvm::seq<int64_t>(m * v, (m + 1) * v)));
        part.push_back(bits ? vector::BitCastOp::create(b, loc, type, segment)
                            : segment);
      }
      result.push_back(std::move(part));
    }
  }
  return result;
}

Value mlir::layout::loops::interleaveVectors(OpBuilder &b, Location loc,
                                             ArrayRef<Value> parts) {
  if (parts.size() == 1)
    return parts.front();
  SmallVector<Value> even, odd;
  for (auto [i, part] : llvm::enumerate(parts))
    (i % 2 ? odd : even).push_back(part);
  return vector::InterleaveOp::create(b, loc, interleaveVectors(b, loc, even),
                                      interleaveVectors(b, loc, odd));
}
