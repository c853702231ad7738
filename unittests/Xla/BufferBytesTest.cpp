//===- BufferBytesTest.cpp - One definition of "same bytes" ---------------===//
//
// The padding value written, derived by hand per type; the issue's
// examples; and properties over element widths 1 (pred), 4, 8, 16, 32 and
// 64 bits with random E(n), L, PV and S(n): sameByteOrder, planRelayout's
// `bitcast` class, ReshapeIsBitcast, TransposeIsBitcast and AlignLayouts
// all agree with a brute force that paints every bit of both buffers
// (element index and bit, or the padding value's bit computed with APInt /
// APFloat, or unspecified).
//
//===----------------------------------------------------------------------===//

#include "layout/Xla/BufferBytes.h"
#include "layout/Xla/LayoutAlgebra.h"
#include "layout/Xla/LayoutCanonical.h"
#include "layout/Xla/ShapeUtil.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "RandomLayouts.h"
#include "TestHelpers.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <gtest/gtest.h>

#include <array>
#include <numeric>

using namespace mlir::layout;
using namespace mlir::layout::unittest;
using llvm::SmallVector;

namespace {

Shape parse(llvm::StringRef text) { return valueOf(parseShape(text)); }

//===----------------------------------------------------------------------===//
// The padding value written
//===----------------------------------------------------------------------===//

PaddingValue written(PrimitiveType type, PaddingValue value) {
  return writtenPaddingValue(type, value);
}

TEST(BufferBytes, WrittenPaddingValueByHand) {
  using PV = PaddingValue;
  using PT = PrimitiveType;
  // No PV and PV(unknown) write zero, for every type.
  for (PT type : {PT::F32, PT::S8, PT::U8, PT::Pred, PT::BF16, PT::C64}) {
    EXPECT_EQ(written(type, PV::Invalid), PV::Zero);
    EXPECT_EQ(written(type, PV::Unknown), PV::Zero);
    EXPECT_EQ(written(type, PV::Zero), PV::Zero);
  }
  // f32: 0.0, 1.0, -FLT_MAX, FLT_MAX are four values.
  EXPECT_EQ(written(PT::F32, PV::One), PV::One);
  EXPECT_EQ(written(PT::F32, PV::Lowest), PV::Lowest);
  EXPECT_EQ(written(PT::F32, PV::Highest), PV::Highest);
  // s8: 0, 1, -128, 127.
  EXPECT_EQ(written(PT::S8, PV::Lowest), PV::Lowest);
  EXPECT_EQ(written(PT::S8, PV::Highest), PV::Highest);
  // u8: the lowest is 0; the highest 255.
  EXPECT_EQ(written(PT::U8, PV::Lowest), PV::Zero);
  EXPECT_EQ(written(PT::U8, PV::Highest), PV::Highest);
  EXPECT_EQ(written(PT::U64, PV::Lowest), PV::Zero);
  // pred and u1: false and true only.
  EXPECT_EQ(written(PT::Pred, PV::Lowest), PV::Zero);
  EXPECT_EQ(written(PT::Pred, PV::Highest), PV::One);
  EXPECT_EQ(written(PT::U1, PV::Highest), PV::One);
  // s2: 1 is the highest (bits 01); s1: 1 is bit 1, which is -1, the
  // lowest, and the highest is 0.
  EXPECT_EQ(written(PT::S2, PV::Highest), PV::One);
  EXPECT_EQ(written(PT::S2, PV::Lowest), PV::Lowest);
  EXPECT_EQ(written(PT::S1, PV::One), PV::One);
  EXPECT_EQ(written(PT::S1, PV::Lowest), PV::One);
  EXPECT_EQ(written(PT::S1, PV::Highest), PV::Zero);
  // f8e8m0fnu has no zero and no sign: zero and lowest are both 2^-127.
  EXPECT_EQ(written(PT::F8E8M0FNU, PV::Lowest), PV::Zero);
  EXPECT_EQ(written(PT::F8E8M0FNU, PV::Highest), PV::Highest);
}

TEST(BufferBytes, StoredBitsAndFrame) {
  EXPECT_EQ(storedElementBits(parse("f32[3]{0:E(32)}")), 32);
  EXPECT_EQ(storedElementBits(parse("s4[3]{0}")), 8);
  EXPECT_EQ(storedElementBits(parse("s4[3]{0:E(4)}")), 4);
  EXPECT_EQ(storedElementBits(parse("pred[3]{0}")), 8);
  // Memory space and metadata prefix.
  EXPECT_FALSE(sameElementEncoding(parse("f32[3]{0:S(1)}"), parse("f32[3]{0}"),
                                   /*compareBits=*/true));
  EXPECT_FALSE(sameElementEncoding(parse("f32[3]{0:M(8)}"), parse("f32[3]{0}"),
                                   /*compareBits=*/true));
  // Bits are ignored with the element type.
  EXPECT_TRUE(sameElementEncoding(parse("f32[3]{0}"), parse("f16[3]{0}"),
                                  /*compareBits=*/false));
  EXPECT_FALSE(sameElementEncoding(parse("f32[3]{0}"), parse("f16[3]{0}"),
                                   /*compareBits=*/true));
  // Allocated bytes, not elements: 3 and 4 packed nibbles are 2 bytes.
  Shape a = parse("s4[3]{0:E(4)}"), b = parse("s4[3]{0:L(4)E(4)}");
  EXPECT_TRUE(sameBufferFrame(a, getMap(a), b, getMap(b)));
  Shape c = parse("f32[3]{0}"), d = parse("f32[3]{0:L(4)}");
  EXPECT_FALSE(sameBufferFrame(c, getMap(c), d, getMap(d)));
}

//===----------------------------------------------------------------------===//
// The issue's examples: every query gives one answer
//===----------------------------------------------------------------------===//

bool isPlanBitcast(llvm::StringRef a, llvm::StringRef b) {
  return valueOf(planRelayout(parse(a), parse(b))).cls ==
         RelayoutClass::Bitcast;
}

TEST(BufferBytes, QueriesAgreeOnTheIssueExamples) {
  auto same = [](llvm::StringRef a, llvm::StringRef b) {
    return valueOf(sameByteOrder(parse(a), parse(b)));
  };
  auto reshape = [](llvm::StringRef a, llvm::StringRef b) {
    return valueOf(reshapeIsBitcast(parse(a), parse(b)));
  };
  // E(32) on f32 stores what no E stores.
  EXPECT_TRUE(reshape("f32[3]{0:T(2)E(32)}", "f32[3]{0:T(2)}"));
  EXPECT_TRUE(same("f32[3]{0:T(2)E(32)}", "f32[3]{0:T(2)}"));
  EXPECT_TRUE(isPlanBitcast("f32[3]{0:T(2)E(32)}", "f32[3]{0:T(2)}"));
  EXPECT_TRUE(reshape("s4[6]{0:E(8)}", "s4[2,3]{1,0}"));
  EXPECT_FALSE(reshape("s4[6]{0:E(4)}", "s4[2,3]{1,0}"));
  EXPECT_TRUE(valueOf(transposeIsBitcast(parse("f32[2,3]{1,0:E(32)}"),
                                         parse("f32[3,2]{0,1}"), {1, 0})));
  // L on a packed type: allocated bytes.
  EXPECT_TRUE(same("s4[3]{0:E(4)}", "s4[3]{0:L(4)E(4)}"));
  EXPECT_TRUE(isPlanBitcast("s4[3]{0:E(4)}", "s4[3]{0:L(4)E(4)}"));
  // Padding values by value.
  EXPECT_TRUE(same("f32[3]{0:T(2)}", "f32[3]{0:T(2)PV(zero)}"));
  EXPECT_TRUE(same("f32[3]{0:T(2)PV(unknown)}", "f32[3]{0:T(2)PV(zero)}"));
  EXPECT_TRUE(isPlanBitcast("f32[3]{0:T(2)PV(unknown)}", "f32[3]{0:T(2)}"));
  EXPECT_TRUE(same("u8[3]{0:T(2)PV(lowest)}", "u8[3]{0:T(2)PV(zero)}"));
  EXPECT_TRUE(same("pred[3]{0:T(2)PV(lowest)}", "pred[3]{0:T(2)}"));
  EXPECT_FALSE(same("s8[3]{0:T(2)PV(lowest)}", "s8[3]{0:T(2)PV(zero)}"));
  // The memory space.
  EXPECT_FALSE(reshape("f32[2,3]{1,0:S(1)}", "f32[6]{0}"));
  EXPECT_FALSE(isPlanBitcast("f32[4]{0}", "f32[4]{0:S(1)}"));
  // AlignLayouts keeps E and S.
  std::optional<Shape> aligned =
      valueOf(alignLayouts(parse("s4[2,3]{1,0:E(4)S(1)}"), parse("s4[6]")));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_EQ(printShape(*aligned), "s4[6]{0:E(4)S(1)}");
  // E(4) describes s4: an s8 output keeps its own width (and stays valid),
  // and the reshape ignoring element types is a bitcast.
  aligned =
      valueOf(alignLayouts(parse("s4[2,3]{1,0:E(4)S(1)}"), parse("s8[6]")));
  ASSERT_TRUE(aligned.has_value());
  EXPECT_EQ(printShape(*aligned), "s8[6]{0:S(1)}");
  EXPECT_TRUE(valueOf(reshapeIsBitcast(parse("s4[2,3]{1,0:E(4)S(1)}"), *aligned,
                                       /*ignoreElementType=*/true)));
}

//===----------------------------------------------------------------------===//
// Brute force over element widths
//===----------------------------------------------------------------------===//

/// The bits a padding slot of `type` gets, from APInt / APFloat.
llvm::APInt paddingBits(PrimitiveType type, PaddingValue value) {
  bool zero = value == PaddingValue::Invalid ||
              value == PaddingValue::Unknown || value == PaddingValue::Zero;
  const llvm::fltSemantics *sem = nullptr;
  switch (type) {
  case PrimitiveType::F16:
    sem = &llvm::APFloat::IEEEhalf();
    break;
  case PrimitiveType::BF16:
    sem = &llvm::APFloat::BFloat();
    break;
  case PrimitiveType::F32:
    sem = &llvm::APFloat::IEEEsingle();
    break;
  case PrimitiveType::F64:
    sem = &llvm::APFloat::IEEEdouble();
    break;
  default:
    break;
  }
  if (sem) {
    llvm::APFloat v = llvm::APFloat::getZero(*sem);
    if (value == PaddingValue::One)
      v = llvm::APFloat::getOne(*sem);
    else if (value == PaddingValue::Lowest)
      v = llvm::APFloat::getLargest(*sem, /*Negative=*/true);
    else if (value == PaddingValue::Highest)
      v = llvm::APFloat::getLargest(*sem);
    return v.bitcastToAPInt();
  }
  unsigned width = primitiveTypeBitWidth(type);
  bool isSigned = isSignedIntegralType(type);
  if (zero)
    return llvm::APInt(width, 0);
  if (value == PaddingValue::One)
    return llvm::APInt(width, 1);
  if (value == PaddingValue::Lowest)
    return isSigned ? llvm::APInt::getSignedMinValue(width)
                    : llvm::APInt::getMinValue(width);
  return isSigned ? llvm::APInt::getSignedMaxValue(width)
                  : llvm::APInt::getMaxValue(width);
}

/// Every bit of the buffer of `shape` (allocated bytes * 8): {0, k, b} for
/// bit b of the element with label k, {1, bit, 0} for a padding slot's bit
/// (the value written; bits above the type's width are 0), {2, 0, 0} for
/// L's tail and the unused end of the last byte (unspecified).
using Bit = std::array<int64_t, 3>;
std::vector<Bit>
paintBits(const Shape &shape,
          llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> label) {
  TiledLayoutMap map = getMap(shape);
  int64_t e = shape.getLayout().getElementSizeInBits();
  int64_t bits = e ? e : 8 * primitiveTypeByteWidth(shape.getElementType());
  int64_t slots = map.getAllocatedElements();
  int64_t bytes = (slots * bits + 7) / 8;
  llvm::APInt pad =
      paddingBits(shape.getElementType(), shape.getLayout().getPaddingValue());
  std::vector<Bit> image(bytes * 8, Bit{2, 0, 0});
  for (int64_t s = 0; s < slots; ++s) {
    std::optional<SmallVector<int64_t, 6>> index = map.logicalIndex(s);
    for (int64_t b = 0; b < bits; ++b) {
      Bit &bit = image[s * bits + b];
      if (index)
        bit = {0, label(*index), b};
      else if (s < map.getPhysicalElementCount())
        bit = {1, b < pad.getBitWidth() ? int64_t(pad[b]) : 0, 0};
    }
  }
  return image;
}

int64_t rowMajor(const Shape &shape, llvm::ArrayRef<int64_t> index) {
  int64_t k = 0;
  for (int64_t d = 0; d < shape.getRank(); ++d)
    k = k * shape.getDim(d) + index[d];
  return k;
}

bool bruteSameBytes(const Shape &a, const Shape &b,
                    llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> la,
                    llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)> lb) {
  return a.getLayout().getMemorySpace() == b.getLayout().getMemorySpace() &&
         paintBits(a, la) == paintBits(b, lb);
}

/// Random element types (1 to 64 bits), E(n), padding values and memory
/// spaces on the generator's layouts.
class TypedLayouts {
public:
  explicit TypedLayouts(uint64_t seed)
      : gen({seed, /*minRank=*/1, /*maxRank=*/3, /*maxDim=*/5,
             /*tailPadding=*/true, /*maxAllocated=*/400}) {}

  RandomLayoutGenerator gen;

  PrimitiveType type() {
    static const PrimitiveType types[] = {
        PrimitiveType::Pred, PrimitiveType::S4,   PrimitiveType::U4,
        PrimitiveType::S8,   PrimitiveType::U8,   PrimitiveType::S16,
        PrimitiveType::F16,  PrimitiveType::BF16, PrimitiveType::F32,
        PrimitiveType::S64,  PrimitiveType::U64,  PrimitiveType::F64};
    return types[gen.uniform(0, std::size(types) - 1)];
  }

  /// `layout` on `dims` of `type` with random E, PV (where there is
  /// padding) and S; std::nullopt if that is not a valid shape.
  std::optional<Shape> retype(PrimitiveType type, llvm::ArrayRef<int64_t> dims,
                              Layout layout) {
    int64_t width = primitiveTypeBitWidth(type);
    switch (gen.uniform(0, 3)) {
    case 0:
      layout.setElementSizeInBits(8 * primitiveTypeByteWidth(type));
      break;
    case 1:
      if (width < 8)
        layout.setElementSizeInBits(width);
      break;
    default:
      layout.setElementSizeInBits(0);
    }
    layout.setPaddingValue(static_cast<PaddingValue>(gen.uniform(0, 5)));
    layout.setMemorySpace(gen.uniform(0, 5) == 0 ? 1 : 0);
    Shape shape = Shape::makeArray(type, dims, layout);
    if (llvm::Error err = validateShape(shape)) {
      llvm::consumeError(std::move(err));
      return std::nullopt;
    }
    llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(shape);
    if (!map) {
      llvm::consumeError(map.takeError());
      return std::nullopt;
    }
    return shape;
  }
};

TEST(BufferBytesProperty, SameByteOrderAndPlanAgreeWithBruteForce) {
  TypedLayouts typed(20261127);
  int pairs = 0, same = 0, packedSame = 0, paddedSame = 0;
  while (pairs < 4000) {
    Shape a0 = typed.gen.next();
    Shape other = typed.gen.next();
    if (other.getRank() != a0.getRank())
      continue;
    PrimitiveType type = typed.type();
    std::optional<Shape> a = typed.retype(type, a0.getDims(), a0.getLayout());
    // Half the pairs share a's placement and only change E, PV, S, L.
    Layout layout =
        typed.gen.uniform(0, 1) ? a0.getLayout() : other.getLayout();
    if (typed.gen.uniform(0, 3) == 0)
      layout.setTailPaddingAlignment(typed.gen.uniform(1, 4));
    std::optional<Shape> b = typed.retype(type, a0.getDims(), layout);
    if (!a || !b)
      continue;
    ++pairs;
    SCOPED_TRACE(printShape(*a) + " vs " + printShape(*b));
    auto label = [&](llvm::ArrayRef<int64_t> i) { return rowMajor(*a, i); };
    bool brute = bruteSameBytes(*a, *b, label, label);
    EXPECT_EQ(valueOf(sameByteOrder(*a, *b)), brute);
    EXPECT_EQ(valueOf(planRelayout(*a, *b)).cls == RelayoutClass::Bitcast,
              brute);
    // The canonical forms keep the bytes.
    CanonicalLayout ca = valueOf(canonicalizeLayout(*a));
    EXPECT_TRUE(bruteSameBytes(*a, ca.shape, label, label))
        << printShape(ca.shape);
    same += brute;
    packedSame += brute && storedElementBits(*a) < 8;
    paddedSame += brute && getMap(*a).getPhysicalElementCount() !=
                               getMap(*a).getElementCount();
  }
  EXPECT_GT(same, 300);
  EXPECT_GT(packedSame, 10);
  EXPECT_GT(paddedSame, 20);
}

TEST(BufferBytesProperty, BitcastQueriesAgreeWithBruteForce) {
  TypedLayouts typed(20261128);
  int reshapes = 0, reshapeBitcasts = 0, transposes = 0, transposeBitcasts = 0,
      aligned = 0;
  while (reshapes < 1500 || transposes < 1500) {
    Shape a0 = typed.gen.next();
    PrimitiveType type = typed.type();
    std::optional<Shape> a = typed.retype(type, a0.getDims(), a0.getLayout());
    if (!a)
      continue;
    SCOPED_TRACE(printShape(*a));
    auto labelA = [&](llvm::ArrayRef<int64_t> i) { return rowMajor(*a, i); };
    // Reshape: two dims merged, or the last one split; row-major layout,
    // untiled or with one tile over the minor dim.
    SmallVector<int64_t, 6> dims(a->getDims());
    if (dims.size() >= 2 && typed.gen.uniform(0, 1)) {
      int64_t d = typed.gen.uniform(0, dims.size() - 2);
      dims[d] *= dims[d + 1];
      dims.erase(dims.begin() + d + 1);
    } else if (dims.back() % 2 == 0) {
      dims.back() /= 2;
      dims.push_back(2);
    }
    Layout layout = Layout::getDefault(dims.size());
    if (typed.gen.uniform(0, 1))
      layout.mutableTiles().push_back(Tile({dims.back()}));
    if (std::optional<Shape> b = typed.retype(type, dims, layout)) {
      ++reshapes;
      auto labelB = [&](llvm::ArrayRef<int64_t> i) { return rowMajor(*b, i); };
      bool brute = bruteSameBytes(*a, *b, labelA, labelB);
      EXPECT_EQ(valueOf(reshapeIsBitcast(*a, *b)), brute) << printShape(*b);
      reshapeBitcasts += brute;
    }
    // AlignLayouts' answer is a bitcast.
    if (a->getLayout().isUntiled()) {
      std::optional<Shape> out =
          valueOf(alignLayouts(*a, Shape::makeArray(type, dims, Layout())));
      if (out) {
        ++aligned;
        auto labelB = [&](llvm::ArrayRef<int64_t> i) {
          return rowMajor(*out, i);
        };
        EXPECT_TRUE(valueOf(reshapeIsBitcast(*a, *out))) << printShape(*out);
        EXPECT_TRUE(bruteSameBytes(*a, *out, labelA, labelB))
            << printShape(*out);
      }
    }
    // Transpose: PermuteDimensions (the same placement) with E, PV, S
    // chosen again.
    SmallVector<int64_t, 6> perm(a->getRank());
    std::iota(perm.begin(), perm.end(), 0);
    for (int64_t k = 0; k < a->getRank(); ++k)
      std::swap(perm[k], perm[typed.gen.uniform(k, a->getRank() - 1)]);
    Shape permuted = valueOf(permuteDimensions(perm, *a));
    std::optional<Shape> b =
        typed.retype(type, permuted.getDims(), permuted.getLayout());
    if (!b)
      continue;
    ++transposes;
    // Output element o is input element e with e[perm[i]] = o[i].
    auto labelB = [&](llvm::ArrayRef<int64_t> o) {
      SmallVector<int64_t, 6> e(o.size());
      for (size_t i = 0; i < o.size(); ++i)
        e[perm[i]] = o[i];
      return rowMajor(*a, e);
    };
    bool brute = bruteSameBytes(*a, *b, labelA, labelB);
    EXPECT_EQ(valueOf(transposeIsBitcast(*a, *b, perm)), brute)
        << printShape(*b);
    transposeBitcasts += brute;
  }
  EXPECT_GT(reshapeBitcasts, 100);
  EXPECT_GT(transposeBitcasts, 100);
  EXPECT_GT(aligned, 100);
}

} // namespace
