//===- ChunkCopy.cpp - Relayouts planned as chunk copies ------------------===//
//
// A memref relayout whose plan (planRelayout, docs/algebra.md) is
// `chunk-copy` as copies of its runs: the slot map (composeRelayout) is cut
// into runs of one common length, the runs' (destination, source) start
// offsets are factored into an affine nest (innermost level first: the
// longest arithmetic progression whose length divides the count), and each
// run becomes a `memref.copy` of two 1-D subviews of the flat physical
// buffers, which upstream's MemRef-to-LLVM lowering turns into the
// `llvm.memcpy` intrinsic (contiguous memrefs). The destination's padding
// runs are factored the same way and get the padding value.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/ChunkCopy.h"

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/IR/LayoutTypeConversion.h"
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"
#include "layout/Xla/LayoutAlgebra.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>
#include <numeric>

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Both shapes, or std::nullopt.
std::optional<std::pair<Shape, Shape>> getShapes(Value src, Value dst) {
  auto srcType = dyn_cast<MemRefType>(src.getType());
  auto dstType = dyn_cast<MemRefType>(dst.getType());
  if (!srcType || !dstType)
    return std::nullopt;
  std::optional<Shape> s = getStaticArrayShape(srcType),
                       d = getStaticArrayShape(dstType);
  if (!s || !d)
    return std::nullopt;
  return std::make_pair(std::move(*s), std::move(*d));
}

/// The physical type of `memref` if it is an identity memref of `slots`
/// elements; null otherwise.
MemRefType getFlatPhysicalType(Value memref, int64_t slots) {
  auto type = cast<MemRefType>(memref.getType());
  MemRefType physType = type;
  if (auto attr = dyn_cast<TiledLayoutAttr>(type.getLayout())) {
    // Verified types have a physical type.
    FailureOr<MemRefType> phys = attr.getPhysicalMemRefType(
        type, [&] { return mlir::emitError(memref.getLoc()); });
    if (failed(phys))
      return {};
    physType = *phys;
  }
  if (!physType.getLayout().isIdentity() || !physType.hasStaticShape() ||
      physType.getNumElements() != slots)
    return {};
  return physType;
}

/// The physical buffer of `memref` (of type `physType`) as a 1-D memref.
Value getFlatBuffer(OpBuilder &b, Location loc, Value memref,
                    MemRefType physType) {
  Value view = memref;
  if (physType != memref.getType())
    view = ToPhysicalOp::create(b, loc, physType, memref);
  return getFlatView(b, loc, view);
}
} // namespace

Value mlir::layout::getFlatView(OpBuilder &b, Location loc, Value view) {
  auto type = cast<MemRefType>(view.getType());
  if (type.getRank() == 1)
    return view;
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return memref::CollapseShapeOp::create(b, loc, view,
                                         ArrayRef<ReassociationIndices>{all});
}

namespace {
/// Destination slots sampled by mayBeChunkCopy.
constexpr int64_t kSampleSlots = 8192;

/// A necessary condition for a `chunk-copy` plan, from the first
/// kSampleSlots destination slots only: every run that ends inside the
/// sample is at least kDefaultChunkBytes long. Rejects permutations and
/// other gathers without materializing the slot map of a large buffer
/// (planRelayout does, up to kMaxPlannedSlots slots: ~0.5 s at 2^24).
bool mayBeChunkCopy(const Shape &src, const Shape &dst) {
  llvm::Expected<TiledLayoutMap> srcMap = TiledLayoutMap::get(src);
  llvm::Expected<TiledLayoutMap> dstMap = TiledLayoutMap::get(dst);
  if (!srcMap || !dstMap) {
    llvm::consumeError(srcMap.takeError());
    llvm::consumeError(dstMap.takeError());
    return false;
  }
  int64_t bytes =
      std::max<int64_t>(1, primitiveTypeByteWidth(src.getElementType()));
  int64_t minRun = (kDefaultChunkBytes + bytes - 1) / bytes;
  int64_t n = std::min(dstMap->getAllocatedElements(), kSampleSlots);
  int64_t runStart = 0, prev = kPaddingSlot;
  for (int64_t i = 0; i < n; ++i) {
    std::optional<SmallVector<int64_t, 6>> logical = dstMap->logicalIndex(i);
    int64_t slot = logical ? srcMap->linearIndex(*logical) : kPaddingSlot;
    bool continues =
        i > 0 &&
        ((slot == kPaddingSlot && prev == kPaddingSlot) ||
         (slot != kPaddingSlot && prev != kPaddingSlot && slot == prev + 1));
    if (!continues) {
      if (i > 0 && prev != kPaddingSlot && i - runStart < minRun)
        return false;
      runStart = i;
    }
    prev = slot;
  }
  return true;
}

/// Index constants, all created before the loops (so that every loop and
/// body can use them).
struct IndexConstants {
  DenseMap<int64_t, Value> values;
  void add(OpBuilder &b, Location loc, int64_t v) {
    if (!values.count(v))
      values[v] = arith::ConstantIndexOp::create(b, loc, v);
  }
  void add(OpBuilder &b, Location loc, const RunNest &nest) {
    add(b, loc, 0);
    add(b, loc, 1);
    for (int64_t v : nest.base)
      add(b, loc, v);
    for (const RunNest::Level &level : nest.levels) {
      add(b, loc, level.count);
      for (int64_t v : level.stride)
        add(b, loc, v);
    }
  }
  Value operator()(int64_t v) const {
    Value c = values.lookup(v);
    assert(c && "constant created up front");
    return c;
  }
};

/// Emits scf loops over `nest` (its constants in `cst`) and calls `body`
/// with the two start offsets.
void emitNest(OpBuilder &b, Location loc, const RunNest &nest,
              const IndexConstants &cst,
              function_ref<void(OpBuilder &, Value, Value)> body) {
  std::function<void(OpBuilder &, int, Value, Value)> level =
      [&](OpBuilder &b, int k, Value off0, Value off1) {
        if (k < 0)
          return body(b, off0, off1);
        int64_t count = nest.levels[k].count;
        std::array<int64_t, 2> stride = nest.levels[k].stride;
        scf::ForOp::create(
            b, loc, cst(0), cst(count), cst(1), ValueRange{},
            [&](OpBuilder &b, Location loc, Value iv, ValueRange) {
              auto add = [&](Value off, int64_t s) {
                if (s == 0)
                  return off;
                return arith::AddIOp::create(
                           b, loc, off,
                           arith::MulIOp::create(b, loc, iv, cst(s)))
                    .getResult();
              };
              level(b, k - 1, add(off0, stride[0]), add(off1, stride[1]));
              scf::YieldOp::create(b, loc);
            });
      };
  level(b, int(nest.levels.size()) - 1, cst(nest.base[0]), cst(nest.base[1]));
}
} // namespace

LogicalResult mlir::layout::emitChunkCopyRelayout(OpBuilder &b, Location loc,
                                                  Value src, Value dst) {
  std::optional<std::pair<Shape, Shape>> shapes = getShapes(src, dst);
  if (!shapes)
    return failure();
  // Padding values of signed/unsigned element types need the nest's
  // signless views; those stay with the nest.
  Type elementType = cast<MemRefType>(dst.getType()).getElementType();
  if (!isa<FloatType, ComplexType>(elementType) &&
      !elementType.isSignlessInteger())
    return failure();
  const auto &[srcShape, dstShape] = *shapes;
  // E(n): packed buffers (SubBytePacking.h) are written through byte loads
  // and stores, not element runs; other E(n) keep whole storage units whose
  // size the plan's byte counts do not describe. Neither is a run copy.
  if (srcShape.getLayout().getElementSizeInBits() ||
      dstShape.getLayout().getElementSizeInBits())
    return failure();
  if (!mayBeChunkCopy(srcShape, dstShape))
    return failure();
  llvm::Expected<RelayoutPlan> plan = planRelayout(srcShape, dstShape);
  if (!plan) {
    llvm::consumeError(plan.takeError());
    return failure();
  }
  if (plan->cls != RelayoutClass::ChunkCopy)
    return failure();
  llvm::Expected<SmallVector<int64_t>> map =
      composeRelayout(srcShape, dstShape);
  if (!map) {
    llvm::consumeError(map.takeError());
    return failure();
  }
  // Maximal data and padding runs, then their common lengths.
  struct Run {
    int64_t dst, src, length;
  };
  std::vector<Run> data, padding;
  int64_t dataLength = 0, paddingLength = 0, srcSlots = 0;
  const SmallVector<int64_t> &slots = *map;
  for (size_t i = 0, n = slots.size(); i < n;) {
    size_t j = i + 1;
    if (slots[i] == kPaddingSlot) {
      while (j < n && slots[j] == kPaddingSlot)
        ++j;
      padding.push_back({int64_t(i), 0, int64_t(j - i)});
      paddingLength = std::gcd(paddingLength, int64_t(j - i));
    } else {
      while (j < n && slots[j] == slots[j - 1] + 1)
        ++j;
      data.push_back({int64_t(i), slots[i], int64_t(j - i)});
      dataLength = std::gcd(dataLength, int64_t(j - i));
      srcSlots = std::max(srcSlots, slots[j - 1] + 1);
    }
    i = j;
  }
  if (data.empty())
    return failure();
  auto split = [](const std::vector<Run> &runs, int64_t length) {
    std::vector<std::array<int64_t, 2>> starts;
    for (const Run &run : runs)
      for (int64_t k = 0; k < run.length; k += length)
        starts.push_back({run.dst + k, run.src + k});
    return starts;
  };
  std::optional<RunNest> dataNest = factorRunNest(split(data, dataLength));
  std::optional<RunNest> paddingNest =
      factorRunNest(split(padding, paddingLength));
  if (!dataNest || !paddingNest)
    return failure();
  // The source's physical buffer may be longer than its last element
  // (padding slots).
  llvm::Expected<TiledLayoutMap> srcMap = TiledLayoutMap::get(srcShape);
  if (!srcMap) {
    llvm::consumeError(srcMap.takeError());
    return failure();
  }
  int64_t srcBuffer = 1;
  for (int64_t d : srcMap->getPhysicalDims())
    srcBuffer *= d;
  if (srcBuffer < srcSlots)
    return failure();
  MemRefType srcPhys = getFlatPhysicalType(src, srcBuffer);
  MemRefType dstPhys = getFlatPhysicalType(dst, int64_t(slots.size()));
  if (!srcPhys || !dstPhys)
    return failure();
  // Nothing was built up to here.
  Value srcFlat = getFlatBuffer(b, loc, src, srcPhys);
  Value dstFlat = getFlatBuffer(b, loc, dst, dstPhys);
  IndexConstants cst;
  cst.add(b, loc, *dataNest);
  if (!padding.empty()) {
    cst.add(b, loc, *paddingNest);
    cst.add(b, loc, paddingLength);
  }
  emitNest(b, loc, *dataNest, cst,
           [&](OpBuilder &b, Value dstOff, Value srcOff) {
             SmallVector<OpFoldResult> size{b.getIndexAttr(dataLength)};
             SmallVector<OpFoldResult> unit{b.getIndexAttr(1)};
             Value from = memref::SubViewOp::create(
                 b, loc, srcFlat, ArrayRef<OpFoldResult>{srcOff}, size, unit);
             Value to = memref::SubViewOp::create(
                 b, loc, dstFlat, ArrayRef<OpFoldResult>{dstOff}, size, unit);
             memref::CopyOp::create(b, loc, from, to);
           });
  if (padding.empty())
    return success();
  Value pad = createPaddingValue(b, loc, dst.getType());
  emitNest(b, loc, *paddingNest, cst, [&](OpBuilder &b, Value dstOff, Value) {
    Value end = arith::AddIOp::create(b, loc, dstOff, cst(paddingLength));
    scf::ForOp::create(b, loc, dstOff, end, cst(1), ValueRange{},
                       [&](OpBuilder &b, Location loc, Value i, ValueRange) {
                         memref::StoreOp::create(b, loc, pad, dstFlat, i);
                         scf::YieldOp::create(b, loc);
                       });
  });
  return success();
}
