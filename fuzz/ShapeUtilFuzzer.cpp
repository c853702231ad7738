//===- ShapeUtilFuzzer.cpp - ShapeUtil and broadcasting never crash -------===//
//
// Input: `shapeA|shapeB|ints1|ints2`: two HLO shape texts and two
// comma-separated integer lists (permutations, broadcast dimensions,
// dimensions to delete, ...). Missing parts are empty.
//
// Every ShapeUtil/Broadcast function must return a value or an error, never
// crash; where cheap, the documented laws are checked:
// - permuteDimensions(perm, a) validates and is a bitcast:
//   transposeIsBitcast(a, permuted, perm) == true;
// - reshapeIsBitcast is symmetric, and reshapeIsBitcast(a, a) == true;
// - a deduced transpose is a bitcast (transposeIsBitcast == true);
// - alignLayouts(a, b) validates and reshapeIsBitcast(a, result) == true;
// - deleteDimensions validates and removes exactly the listed dims;
// - inferBinaryOpShape validates, agrees with inferBinaryOpDims, and has
//   the higher operand rank; verifyBroadcastInDim's C5 holds when it passes;
// - isPermutation(p) => Compose(p, Inverse(p)) is the identity;
// - groupElements(a, k) validates, and every element sits at k times its
//   group's slot plus its digit (checked on up to 2^16 elements).
// The byte-order queries (the bitcast laws, alignLayouts) are checked on
// shapes of at most kMaxFuzzedSlots physical slots: they hold at any size,
// but proving that two layouts place every element alike enumerates the
// elements (f32[12847,864]{1,0:T(2,4)}: 1.4 s in a release build, 22 s
// under ASan, past the fuzzer's 10 s per input).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "layout/Xla/Broadcast.h"
#include "layout/Xla/ElementGroups.h"
#include "layout/Xla/Shape.h"
#include "layout/Xla/ShapeUtil.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir::layout;
using namespace layout_fuzz;
using llvm::ArrayRef;
using llvm::SmallVector;

using Ints = SmallVector<int64_t, 8>;

static Ints parseInts(llvm::StringRef text) {
  Ints values;
  SmallVector<llvm::StringRef, 8> parts;
  text.split(parts, ',');
  for (llvm::StringRef part : parts) {
    int64_t value;
    if (values.size() < 16 && !part.trim().getAsInteger(10, value))
      values.push_back(value);
  }
  return values;
}

static void checkValid(const Shape &shape, llvm::StringRef what) {
  if (llvm::Error err = validateShape(shape))
    fail(what + " result " + printShape(shape) +
         " does not validate: " + llvm::toString(std::move(err)));
}

static void checkPermutations(ArrayRef<int64_t> perm, ArrayRef<int64_t> other) {
  SmallVector<int64_t, 6> inverse = inversePermutation(perm);
  (void)composePermutations(perm, other);
  (void)permute(other, perm);
  if (!isPermutation(perm)) {
    check(inverse.empty() || perm.empty(),
          "inversePermutation of a non-permutation is not empty");
    return;
  }
  SmallVector<int64_t, 6> identity = composePermutations(perm, inverse);
  for (size_t i = 0; i < identity.size(); ++i)
    check(identity[i] == static_cast<int64_t>(i),
          "Compose(p, Inverse(p)) is not the identity");
  check(identity.size() == perm.size(), "Compose changed the size");
}

constexpr int64_t kMaxFuzzedSlots = int64_t(1) << 20;

/// More physical slots than the byte-order laws are checked on (an invalid
/// shape is not: its queries fail fast).
static bool tooManySlots(const Shape &s) {
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(s);
  if (!map) {
    llvm::consumeError(map.takeError());
    return false;
  }
  return map->getPhysicalElementCount() > kMaxFuzzedSlots;
}

/// groupElements' law, on shapes of at most 2^16 elements.
static void checkGroups(const Shape &a, int64_t k) {
  std::optional<ElementGroups> groups = groupElements(a, k);
  if (!groups)
    return;
  // (Of an invalid shape, groupElements promises nothing.)
  std::optional<TiledLayoutMap> map = ok(TiledLayoutMap::get(a));
  if (!map)
    return;
  checkValid(groups->shape, "groupElements");
  std::optional<TiledLayoutMap> unit = ok(TiledLayoutMap::get(groups->shape));
  check(unit.has_value(),
        "groupElements of " + printShape(a) +
            " has no index map: " + printShape(groups->shape));
  std::optional<int64_t> groupedSlots =
      llvm::checkedMul(k, unit->getPhysicalElementCount());
  check(groupedSlots && *groupedSlots == map->getPhysicalElementCount(),
        "groupElements changed the slot count of " + printShape(a));
  // (Element counts past 2^16 are not enumerated; the product stops there.)
  int64_t count = 1;
  for (int64_t d : a.getDims()) {
    if (d > (int64_t(1) << 16) || count > (int64_t(1) << 16))
      return;
    count *= d;
  }
  if (count > (int64_t(1) << 16))
    return;
  Ints e(a.getRank(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t rest = n;
    for (int64_t d = a.getRank() - 1; d >= 0; --d) {
      e[d] = rest % a.getDim(d);
      rest /= a.getDim(d);
    }
    Ints g(e);
    g[groups->dim] /= k;
    check(map->linearIndex(e) == k * unit->linearIndex(g) + e[groups->dim] % k,
          "groupElements(" + printShape(a) + ", " + std::to_string(k) +
              ") = " + printShape(groups->shape) + " misplaces an element");
  }
}

static void checkUnary(const Shape &a, ArrayRef<int64_t> ints) {
  if (std::optional<Shape> permuted = ok(permuteDimensions(ints, a))) {
    checkValid(*permuted, "permuteDimensions");
    if (a.hasLayout() && !tooManySlots(a)) {
      std::optional<bool> bitcast = ok(transposeIsBitcast(a, *permuted, ints));
      check(bitcast && *bitcast,
            "permuteDimensions result is not a bitcast: " + printShape(a) +
                " -> " + printShape(*permuted));
    }
  }
  if (std::optional<Shape> deleted = ok(deleteDimensions(ints, a))) {
    checkValid(*deleted, "deleteDimensions");
    check(deleted->getRank() + static_cast<int64_t>(ints.size()) == a.getRank(),
          "deleteDimensions removed the wrong number of dims");
  }
  for (int64_t dim : ints)
    (void)ok(getDimensionStride(a, dim));
  (void)ok(getByteStrides(a));
  if (a.hasLayout() && !tooManySlots(a)) {
    std::optional<bool> self = ok(reshapeIsBitcast(a, a));
    check(!a.isArray() || a.hasUnboundedDim() || (self && *self),
          "reshapeIsBitcast(a, a) is not true for " + printShape(a));
  }
  Ints index(ints.begin(), ints.end());
  for (int i = 0; i < 4 && bumpIndices(a, index); ++i) {
  }
  for (int64_t k : {2, 4})
    checkGroups(a, k);
}

static void checkBinary(const Shape &a, const Shape &b, ArrayRef<int64_t> ints,
                        ArrayRef<int64_t> ints2) {
  // Broadcasting.
  if (std::optional<Shape> result = ok(inferBinaryOpShape("add", a, b, ints))) {
    checkValid(*result, "inferBinaryOpShape");
    check(result->getRank() == std::max(a.getRank(), b.getRank()),
          "inferBinaryOpShape result rank is not the higher operand rank");
    std::optional<SmallVector<int64_t, 6>> dims =
        ok(inferBinaryOpDims("add", a.getDims(), b.getDims(), ints));
    check(dims && ArrayRef<int64_t>(*dims) == result->getDims(),
          "inferBinaryOpDims disagrees with inferBinaryOpShape");
    ArrayRef<int64_t> lower =
        a.getRank() < b.getRank() ? a.getDims() : b.getDims();
    (void)getInDimBroadcastShape(lower, *dims, ints);
  }
  (void)getInDimBroadcastShape(a.getDims(), b.getDims(), ints);
  if (!failed(
          verifyBroadcastInDim("f32", a.getDims(), "f32", b.getDims(), ints))) {
    for (size_t i = 0; i < ints.size(); ++i) {
      int64_t operand = a.getDim(i), result = b.getDim(ints[i]);
      check(operand == 1 || operand == result || operand == kUnboundedSize ||
                result == kUnboundedSize,
            "verifyBroadcastInDim accepted a C5 violation");
    }
  }

  // Bitcasts.
  if (!a.isArray() || !b.isArray() || !a.hasLayout() || !b.hasLayout() ||
      tooManySlots(a) || tooManySlots(b))
    return;
  std::optional<bool> ab = ok(reshapeIsBitcast(a, b));
  std::optional<bool> ba = ok(reshapeIsBitcast(b, a));
  check(ab.has_value() == ba.has_value() && (!ab || *ab == *ba),
        "reshapeIsBitcast is not symmetric for " + printShape(a) + " and " +
            printShape(b));
  (void)ok(transposeIsBitcast(a, b, ints));
  (void)ok(transposeIsBitcast(a, b, ints2, /*ignoreElementType=*/true));
  if (std::optional<std::optional<SmallVector<int64_t, 6>>> perm =
          ok(deduceTransposeDimensionsForBitcast(a, b));
      perm && *perm) {
    std::optional<bool> bitcast =
        ok(transposeIsBitcast(a, b, **perm, /*ignoreElementType=*/true));
    check(bitcast && *bitcast, "deduced transpose is not a bitcast");
  }
  if (std::optional<std::optional<Shape>> aligned = ok(alignLayouts(a, b));
      aligned && *aligned) {
    checkValid(**aligned, "alignLayouts");
    std::optional<bool> bitcast =
        ok(reshapeIsBitcast(a, **aligned, /*ignoreElementType=*/true));
    check(bitcast && *bitcast, "alignLayouts result " + printShape(**aligned) +
                                   " is not a reshape bitcast of " +
                                   printShape(a));
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  SmallVector<llvm::StringRef, 4> parts;
  input.split(parts, '|', /*MaxSplit=*/3);
  parts.resize(4);
  Ints ints = parseInts(parts[2]), ints2 = parseInts(parts[3]);
  checkPermutations(ints, ints2);
  (void)ok(inferBinaryOpDims("", ints, ints2, {}));
  std::optional<Shape> a = ok(parseShape(parts[0]));
  if (!a)
    return 0;
  checkUnary(*a, ints);
  std::optional<Shape> b = ok(parseShape(parts[1]));
  if (!b)
    return 0;
  checkBinary(*a, *b, ints, ints2);
  checkBinary(*b, *a, ints2, ints);
  return 0;
}
