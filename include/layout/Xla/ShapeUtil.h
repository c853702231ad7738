//===- ShapeUtil.h - XLA IndexUtil / ShapeUtil equivalents ------*- C++ -*-===//
//
// The utilities of docs/semantics.md §6 on the value types of Shape.h.
// Conventions are XLA's: Permute(v, p)[i] = v[p[i]], Compose(p1, p2)[i] =
// p1[p2[i]]. Like XLA, the strides work on minor_to_major; the bitcast
// checks give XLA's answers for untiled layouts and are exact for tiled,
// padded and L layouts (through the byte orders of LayoutCanonical.h, up to
// kMaxPlannedSlots slots, or along each axis where no `*` mixes two dims'
// indices); all return errors instead of CHECK-failing.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_SHAPEUTIL_H
#define LAYOUT_XLA_SHAPEUTIL_H

#include "layout/Xla/IndexWalk.h"
#include "layout/Xla/Shape.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace mlir::layout {

//===----------------------------------------------------------------------===//
// Permutations
//===----------------------------------------------------------------------===//

/// True if `perm` is a permutation of 0..perm.size()-1.
bool isPermutation(llvm::ArrayRef<int64_t> perm);
/// Inverse permutation. Pre: isPermutation(perm) (else returns an empty
/// vector; the same holds for composePermutations and permute below).
llvm::SmallVector<int64_t, 6> inversePermutation(llvm::ArrayRef<int64_t> perm);
/// Compose(p1, p2)[i] = p1[p2[i]]. Pre: same sizes, p2 values index p1.
llvm::SmallVector<int64_t, 6> composePermutations(llvm::ArrayRef<int64_t> p1,
                                                  llvm::ArrayRef<int64_t> p2);
/// Permute(v, p)[i] = v[p[i]]. Pre: same sizes, p values index v.
llvm::SmallVector<int64_t, 6> permute(llvm::ArrayRef<int64_t> values,
                                      llvm::ArrayRef<int64_t> perm);

//===----------------------------------------------------------------------===//
// IndexUtil
//===----------------------------------------------------------------------===//

/// XLA's IndexUtil::GetDimensionStride: the stride, in elements, of logical
/// dimension `dim` in an untiled layout (product of the more-minor dims).
/// Errors: non-array, tiled layout, dim out of range, overflow.
llvm::Expected<int64_t> getDimensionStride(const Shape &shape, int64_t dim);

/// XLA's ShapeUtil::ByteStrides: per logical dim, the stride in bytes, for an
/// untiled dense layout. Errors as getDimensionStride.
llvm::Expected<llvm::SmallVector<int64_t, 6>>
getByteStrides(const Shape &shape);

/// XLA's IndexUtil::BumpIndices: advances `indices` to the next index in
/// logical row-major order (last dim fastest). Returns false (and leaves
/// indices all zero; XLA leaves them at the last index) after the last index,
/// for a zero-element shape, and when indices.size() != rank.
/// Pre: indices in bounds. (The walk over plain dims: IndexWalk.h.)
bool bumpIndices(const Shape &shape, llvm::MutableArrayRef<int64_t> indices);

//===----------------------------------------------------------------------===//
// ShapeUtil
//===----------------------------------------------------------------------===//

/// XLA's ShapeUtil::PermuteDimensions: dims = Permute(dims, perm),
/// minor_to_major = Compose(Inverse(perm), minor_to_major); tiles kept.
/// Always a bitcast. Errors: perm not a permutation of the rank.
llvm::Expected<Shape> permuteDimensions(llvm::ArrayRef<int64_t> perm,
                                        const Shape &shape);

/// XLA's ShapeUtil::TransposeIsBitcast: out dim i is in dim dimMapping[i].
/// Both sides need the same S(n), M(n) and (unless the element type is
/// ignored) stored element bits (BufferBytes.h: E(32) on f32 is no E).
/// Untiled layouts: XLA's answer, true iff Compose(dimMapping,
/// out.minor_to_major) == in.minor_to_major. Tiles, legacy padding or L on
/// either side: exact, true iff every input element e and output element o with
/// o[i] = e[dimMapping[i]] share a slot, the slot and allocated counts are
/// equal, the element bits (unless ignored) and, with padding slots, the
/// padding values written are equal (exactTransposeIsBitcast); a tile can hide
/// the transpose. Errors: non-array or missing/invalid layouts, dimMapping not
/// a permutation of the rank, output dims != Permute(input dims,
/// dimMapping), a tiled side with more than kMaxPlannedSlots slots whose
/// tiles and physical order differ, unless both maps are separable
/// (TiledLayoutMap::isSeparable; compared along the axes).
llvm::Expected<bool> transposeIsBitcast(const Shape &input, const Shape &output,
                                        llvm::ArrayRef<int64_t> dimMapping,
                                        bool ignoreElementType = false);

/// XLA's ShapeUtil::ReshapeIsBitcast: same element count (and type unless
/// ignored), S(n), M(n) and stored element bits (BufferBytes.h). Untiled
/// layouts: XLA's answer, every unit index maps to the same physical offset
/// both ways. Identical dims and layouts are a bitcast even when tiled.
/// Otherwise, with tiles, legacy padding or L != 1 on either side: exact
/// (exactReshapeIsBitcast), true iff the k-th elements in row-major order share
/// a slot for every k, the slot and allocated counts are equal, and the element
/// bits (unless ignored) and, with padding slots, the padding values written
/// are equal. Sparse layouts stay false. Errors: non-array, missing/invalid
/// layouts, unbounded dims, a tiled side with more than kMaxPlannedSlots slots
/// (not decided).
llvm::Expected<bool> reshapeIsBitcast(const Shape &input, const Shape &output,
                                      bool ignoreElementType = false);

/// XLA's ShapeUtil::DeduceTransposeDimensionsForBitcast: the dim mapping
/// that makes `input` -> `output` a transpose that is a bitcast, or
/// std::nullopt if none exists. Untiled: XLA's candidate (from the
/// minor_to_majors). Tiled: that candidate, else the mapping read off the
/// byte orders (transposeMappingFromByteOrder), checked exactly.
llvm::Expected<std::optional<llvm::SmallVector<int64_t, 6>>>
deduceTransposeDimensionsForBitcast(const Shape &input, const Shape &output);

/// XLA's ShapeUtil::AlignLayouts: the shape `output` (dims used, layout
/// replaced) with the layout that makes reshape(input) -> output a bitcast
/// (input's S(n), M(n) and, for the same element type, E(n) kept), or
/// std::nullopt if none exists. A tiled input whose canonical layout is untiled
/// (LayoutCanonical.h: e.g. T(8,128) on f32[16,128]) is aligned as that layout.
/// Errors: non-array, invalid input layout, input layout without an untiled
/// byte order, unbounded dims, different element counts.
llvm::Expected<std::optional<Shape>> alignLayouts(const Shape &input,
                                                  const Shape &output);

/// XLA's ShapeUtil::DeleteDimension(s): removes the dims (any order,
/// negatives allowed, no duplicates) and renumbers minor_to_major. Errors:
/// out of range, duplicates, a tiled or padded layout.
llvm::Expected<Shape> deleteDimensions(llvm::ArrayRef<int64_t> dims,
                                       const Shape &shape);

} // namespace mlir::layout

#endif // LAYOUT_XLA_SHAPEUTIL_H
