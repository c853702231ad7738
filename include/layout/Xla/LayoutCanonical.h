//===- LayoutCanonical.h - Canonical layouts and exact bitcasts -*- C++ -*-===//
//
// Byte order: two layouts of one array shape have the same byte order when
// their buffers are interchangeable byte for byte: every logical element
// sits at the same slot (TiledLayoutMap's linear index) and the buffers
// have the same bytes otherwise (BufferBytes.h, sameBufferFrame: stored
// element bits, S(n), M(n), slot count, allocated bytes, padding value
// written). planRelayout's `bitcast` class and the bitcast queries of
// ShapeUtil.h use the same definition.
//
// canonicalizeLayout picks one layout per byte order:
//   1. Strided byte orders: element e sits at sum_d e_d * s_d, and the
//      strides of the dims of size n_d > 1, sorted, divide each other with
//      s_{k+1} / s_k >= n_k, and the slot count P is a multiple of the
//      largest one with P / s_last >= n_last. The canonical form is built
//      from the byte order alone, so it is COMPLETE there: same byte order
//      <=> same canonical form. minor_to_major: the dims of size > 1 by
//      stride, in the slots the default layout gives them, unit dims in
//      their default slots; no tile without padding slots, else one tile
//      from the major-most padded dim to the minor end (p_k = s_{k+1} /
//      s_k, the last P / s_last: `T(8,128)` on f32[5,100]; legacy
//      `PAD(...)` becomes that tile). Slots below the smallest stride are
//      the last unit dim padded and moved minor-most, or, without a unit
//      dim, a first level `(1)` and one more tile entry. Every layout
//      without padding whose tiles divide their dims into row-major order
//      (`T(8,128)` on f32[8,128], `T(1,128)` on f32[5,128]) is here, and so
//      is every untiled layout with legacy padding.
//   2. Digit permutations: element e sits at sum_d g_d(e_d), each g_d
//      splits e_d into mixed-radix digits (maximal: a run g(i) = i * s as
//      long as possible, then the same on the runs), all digits of all
//      dims form one padded stride chain, and each dim's digits keep their
//      order (major digit at the larger stride). The layout is rebuilt
//      from the digits alone (LayoutCanonical.cpp, digitLayout): the
//      physical dim order with the fewest tile levels, each level a block
//      of digits, a padded digit a tile entry larger than the one above
//      it; kept only if it has the byte order (materialized). So it is
//      COMPLETE there too (for up to 7 dims of size > 1; the search over
//      dim orders stops there). `T(2,2)` on f32[2,4] and `{0,1:T(2,1)}` both
//      become `{1,0:T(2,2)}`; `T(3,4,2)` and `T(2,*,2)(2)(3,4)` on
//      f32[1,5] both become `{1,0:T(2)(24)}`.
//   3. Other byte orders: `*` combines two dims into one index before
//      tiling (`T(4,*,3)` on f32[4,4]), a sub-tile that neither divides
//      nor covers the level above (`T(3)(2,2)` on f32[4]), or tiles that
//      put a dim's minor digit above its major one (`T(2)(3,1)` on f32[4]
//      puts i at 3 (i%2) + i/2). The layout is rewritten by rules that
//      are each checked against the byte order (drop a tile level, drop a
//      tile's major entry, move unit dims to their default slots) until
//      none applies. SOUND (never changes the byte order) and idempotent,
//      but two layouts with one byte order may keep different forms
//      (`T(4,*,3)` and `T(1,*,3)(3,4)` on f32[4,4]); `sameByteOrder`
//      decides those exactly. CanonicalLayout::complete tells the cases
//      apart; it is a property of the byte order.
// In all cases E(n) equal to the stored width becomes E(0), the padding
// value becomes the one it writes (writtenPaddingValue) and is dropped
// when that is zero or without padding slots, and L becomes the smallest
// alignment giving the same allocated bytes.
//
// The bitcast queries of ShapeUtil.h (ReshapeIsBitcast, TransposeIsBitcast,
// DeduceTransposeDimensionsForBitcast, AlignLayouts) use the functions
// below for tiled, padded and L layouts. docs/algebra.md has examples.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_LAYOUTCANONICAL_H
#define LAYOUT_XLA_LAYOUTCANONICAL_H

#include "layout/Xla/Shape.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace mlir::layout {

struct CanonicalLayout {
  /// The input shape with the canonical layout (same dims, element type).
  Shape shape;
  /// True when the byte order is strided (case 1): the form is complete
  /// there (equal byte orders give equal forms).
  bool strided = false;
  /// True when the form is built from the byte order alone (strided, or a
  /// permutation of mixed-radix digits): equal byte orders give equal
  /// forms. False only for the rewritten forms of case 3.
  bool complete = false;
};

/// The canonical layout of a static, dense array shape. Errors: non-array,
/// dynamic dims, sparse layouts or split configs (their placement is not a
/// byte order of one buffer), invalid layouts, more than kMaxPlannedSlots
/// physical slots (the check materializes the byte order).
llvm::Expected<CanonicalLayout> canonicalizeLayout(const Shape &shape);

/// True iff `a` and `b` have the same byte order (see above). Errors: as
/// canonicalizeLayout, and shapes of different dims or element types;
/// layouts in which no `*` mixes two dims' indices
/// (TiledLayoutMap::isSeparable) are compared along each axis instead, up
/// to kMaxPlannedSlots positions (the sum of the dims), at any slot count.
llvm::Expected<bool> sameByteOrder(const Shape &a, const Shape &b);

/// Exact tiled ReshapeIsBitcast: the element with row-major (logical)
/// linear index k of `input` and of `output` sit at the same slot for every
/// k, the physical and allocated element counts are equal, the element bits
/// are equal (unless `ignoreElementType`) and so are the padding values written
/// when there are padding slots. Pre: array shapes with layouts, equal element
/// counts. Errors: invalid layouts, dynamic dims, more than
/// kMaxPlannedSlots slots.
llvm::Expected<bool> exactReshapeIsBitcast(const Shape &input,
                                           const Shape &output,
                                           bool ignoreElementType);

/// Exact tiled TransposeIsBitcast: input element e and output element o
/// with o[i] = e[dimMapping[i]] sit at the same slot, and the counts, bits
/// and padding values agree as for exactReshapeIsBitcast. Pre:
/// output dims = Permute(input dims, dimMapping). Errors as
/// exactReshapeIsBitcast; separable layouts along the axes, as sameByteOrder.
llvm::Expected<bool> exactTransposeIsBitcast(const Shape &input,
                                             const Shape &output,
                                             llvm::ArrayRef<int64_t> dimMapping,
                                             bool ignoreElementType);

/// The only dim mapping that can make `input` -> `output` (same rank) a
/// bitcast transpose, read off the byte orders: output dim i (size > 1) is
/// the input dim whose unit index sits at the slot of output's unit index
/// i; size-1 dims pair up in order. std::nullopt if the slots do not hold
/// unit indices or the sizes do not match. Errors as exactReshapeIsBitcast.
llvm::Expected<std::optional<llvm::SmallVector<int64_t, 6>>>
transposeMappingFromByteOrder(const Shape &input, const Shape &output);

} // namespace mlir::layout

#endif // LAYOUT_XLA_LAYOUTCANONICAL_H
