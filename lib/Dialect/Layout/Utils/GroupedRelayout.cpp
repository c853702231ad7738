//===- GroupedRelayout.cpp - Relayouts of element groups ------------------===//
//
// A sub-tiled bf16 layout such as `{1,0:T(8,128)(2,1)}` holds row pairs in
// 32-bit units. Against a layout whose byte order crosses it but keeps the
// same pairs together (`{0,1}`, `{0,1:T(8,128)}`: rows along the minor
// dim), each element kernel would move 16-bit lanes through two kernels
// (a transpose and an interleave, StagedRelayout.h). As pairs the copy is
// one blocked transpose of 32-bit units, the f32 kernel (docs/lowering.md,
// "Grouped elements").
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/GroupedRelayout.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"
#include "layout/Xla/ElementGroups.h"

#include "layout/Dialect/Layout/Utils/ArithIndexOps.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::layout;

/// The map of `shape` with the groups' dim rounded up to whole groups
/// (ElementGroups::tailSlots: the same physical dims), or nullopt.
static std::optional<TiledLayoutMap>
getRoundedMap(const Shape &shape, const ElementGroups &groups) {
  llvm::Expected<TiledLayoutMap> map =
      TiledLayoutMap::get(getRoundedShape(shape, groups.dim, groups.tailSlots));
  if (!map) {
    llvm::consumeError(map.takeError());
    return std::nullopt;
  }
  return std::move(*map);
}

/// The padding slots of the last group along the groups' dim (an odd
/// extent, ElementGroups::tailSlots), which the relayout of the groups
/// wrote from the source's: `pad`, one scalar store each, through `map`
/// (getRoundedMap). (k - 1) / n_d of the slots at most, 1/16 by
/// groupRelayout's bound.
static void writeTailSlots(RewriterBase &rewriter, Location loc,
                           const TiledLayoutMap &map,
                           const ElementGroups &groups, Value buffer,
                           Value pad) {
  ArrayRef<int64_t> dims = map.getLogicalDims();
  int64_t extent = dims[groups.dim] - groups.tailSlots;
  SmallVector<Value> lbs, ubs, steps;
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (auto [d, size] : llvm::enumerate(dims)) {
    lbs.push_back(static_cast<int64_t>(d) == groups.dim
                      ? arith::ConstantIndexOp::create(rewriter, loc, extent)
                      : zero);
    ubs.push_back(arith::ConstantIndexOp::create(rewriter, loc, size));
    steps.push_back(one);
  }
  scf::buildLoopNest(rewriter, loc, lbs, ubs, steps,
                     [&](OpBuilder &b, Location loc, ValueRange ivs) {
                       ArithIndexOps ops(b, loc);
                       SmallVector<Value> logical(ivs);
                       SmallVector<Value, 6> physical =
                           map.apply<Value>(ArrayRef<Value>(logical), ops);
                       memref::StoreOp::create(b, loc, pad, buffer, physical);
                     });
}

LogicalResult
mlir::layout::emitGroupedRelayout(RewriterBase &rewriter, RelayoutOp relayout,
                                  LoopKind kind,
                                  const LoopEmitOptions &options) {
  auto srcType = dyn_cast<MemRefType>(relayout.getSource().getType());
  auto dstType = dyn_cast<MemRefType>(relayout.getDestination().getType());
  if (!srcType || !dstType || srcType.getShape() != dstType.getShape() ||
      srcType.getElementType() != dstType.getElementType())
    return failure();
  Type element = srcType.getElementType();
  if (!isa<IntegerType, FloatType>(element))
    return failure();
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits != 8 && bits != 16)
    return failure();
  std::optional<Shape> srcShape = getStorageShape(srcType);
  std::optional<Shape> dstShape = getStorageShape(dstType);
  if (!srcShape || !dstShape)
    return failure();
  std::optional<GroupedRelayout> groups = groupRelayout(*srcShape, *dstShape);
  if (!groups)
    return failure();
  int64_t k = groups->k;
  const ElementGroups &srcGroups = groups->source, &dstGroups = groups->dest;

  MLIRContext *context = rewriter.getContext();
  Location loc = relayout.getLoc();
  auto wide = IntegerType::get(context, bits * k);
  SmallVector<Operation *> created;
  // The memref's buffer as groups, under the grouped layout; `buffer` the
  // physical buffer itself.
  auto groupView = [&](Value memref, MemRefType type,
                       const ElementGroups &groups, Value &buffer) -> Value {
    auto emitError = [&] { return relayout.emitOpError(); };
    buffer = memref;
    if (auto tiled = dyn_cast<TiledLayoutAttr>(type.getLayout())) {
      FailureOr<MemRefType> physical =
          tiled.getPhysicalMemRefType(type, emitError);
      if (failed(physical))
        return {};
      buffer = ToPhysicalOp::create(rewriter, loc, *physical, memref);
      created.push_back(buffer.getDefiningOp());
    }
    const Layout &layout = groups.shape.getLayout();
    ArrayRef<int64_t> dims = groups.shape.getDims();
    if (layout == Layout::getDefault(groups.shape.getRank())) {
      auto rowMajor = MemRefType::get(dims, wide, MemRefLayoutAttrInterface(),
                                      type.getMemorySpace());
      Value view = BitcastBufferOp::create(rewriter, loc, rowMajor, buffer);
      created.push_back(view.getDefiningOp());
      return view;
    }
    auto attr = TiledLayoutAttr::get(context, layout);
    auto logical = MemRefType::get(dims, wide, attr, type.getMemorySpace());
    FailureOr<MemRefType> physical =
        attr.getPhysicalMemRefType(logical, emitError);
    if (failed(physical))
      return {};
    Value bits = BitcastBufferOp::create(rewriter, loc, *physical, buffer);
    created.push_back(bits.getDefiningOp());
    Value view = FromPhysicalOp::create(rewriter, loc, logical, bits);
    created.push_back(view.getDefiningOp());
    return view;
  };
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(relayout);
  auto undo = [&] {
    for (Operation *op : llvm::reverse(created))
      if (op->use_empty())
        rewriter.eraseOp(op);
    return failure();
  };
  // (Built before anything is: groupElements built it already.)
  std::optional<TiledLayoutMap> tailMap;
  if (dstGroups.tailSlots > 0) {
    tailMap = getRoundedMap(*dstShape, dstGroups);
    if (!tailMap)
      return failure();
  }
  Value srcBuffer, dstBuffer;
  Value src = groupView(relayout.getSource(), srcType, srcGroups, srcBuffer);
  Value dst =
      src ? groupView(relayout.getDestination(), dstType, dstGroups, dstBuffer)
          : Value();
  if (!src || !dst)
    return undo();
  auto grouped = RelayoutOp::create(rewriter, loc, src, dst);
  if (failed(lowerMemRefRelayout(rewriter, grouped, kind, options))) {
    rewriter.eraseOp(grouped);
    return undo();
  }
  if (tailMap)
    writeTailSlots(rewriter, loc, *tailMap, dstGroups, dstBuffer,
                   createPaddingValue(rewriter, loc, dstType));
  if (options.reportKernels) {
    std::string from, to;
    llvm::raw_string_ostream(from) << element;
    llvm::raw_string_ostream(to) << wide;
    relayout.emitRemark() << "grouped elements: " << k << " x " << from
                          << " as " << to << " along dim " << srcGroups.dim;
  }
  rewriter.eraseOp(relayout);
  return success();
}
