//===- BufferBytes.h - The one definition of "same bytes" -------*- C++ -*-===//
//
// Two array shapes describe the same bytes when a buffer written for one can
// be read as the other without moving or rewriting anything. Every query
// that answers "is this a bitcast" (planRelayout's `bitcast` class,
// sameByteOrder, ReshapeIsBitcast, TransposeIsBitcast and the layouts
// AlignLayouts builds) decides it with the functions below plus its own
// element map (which slot holds which element):
//
//   * the stored bits per element: E(n) when set, else the type's whole
//     bytes (E(32) on f32 and no E store the same bits; E(8) on s4 and no
//     E too);
//   * the memory space S(n) and the dynamic metadata prefix M(n);
//   * the physical slot count (so padding slots coincide once the element
//     maps agree) and the allocated BYTES (L on a packed type may add slots
//     that fit in the last byte: s4[3]{0:E(4)} and {0:L(4)E(4)} both take
//     2 bytes);
//   * with padding slots, the padding value WRITTEN, not its name: no PV,
//     PV(zero) and PV(unknown) all write zero (docs/semantics.md §3), and
//     for unsigned and pred types PV(lowest) writes zero too.
// docs/algebra.md ("Same bytes") has the examples.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_XLA_BUFFERBYTES_H
#define LAYOUT_XLA_BUFFERBYTES_H

#include "layout/Xla/Shape.h"

#include <cstdint>

namespace mlir::layout {

class TiledLayoutMap;

/// Bits one element takes in a buffer of `shape`: E(n) when set, else 8
/// times the type's byte width. Pre: an array shape.
int64_t storedElementBits(const Shape &shape);

/// The padding value written into padding slots of a buffer of `type` for
/// the layout's `value`, as the first of zero, one, lowest, highest that
/// writes the same bits: Invalid and Unknown write zero; for pred and
/// unsigned integers lowest is zero; for pred and u1 highest is one; for s2
/// highest is one and for s1 one is lowest and highest is zero (two's
/// complement); for f8e8m0fnu (no zero, unsigned) zero and lowest are both
/// the smallest normal value. Two (type, value) pairs write the same bits
/// iff the types agree and the results are equal.
PaddingValue writtenPaddingValue(PrimitiveType type, PaddingValue value);

/// Same memory space and metadata prefix and, when `compareBits`, the same
/// stored element bits: the part of "same bytes" that needs no index map.
/// Pre: array shapes with layouts.
bool sameElementEncoding(const Shape &a, const Shape &b, bool compareBits);

/// Everything in "same bytes" but the element map: sameElementEncoding,
/// equal physical slot counts, equal allocated bytes (allocated elements
/// when !compareBits: the element types are ignored), and with padding
/// slots the same written padding value. Pre: `am`, `bm` are the maps of
/// `a`, `b`, with the same element count.
bool sameBufferFrame(const Shape &a, const TiledLayoutMap &am, const Shape &b,
                     const TiledLayoutMap &bm, bool compareBits = true);

} // namespace mlir::layout

#endif // LAYOUT_XLA_BUFFERBYTES_H
