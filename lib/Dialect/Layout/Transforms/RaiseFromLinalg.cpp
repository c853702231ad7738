//===- RaiseFromLinalg.cpp - --layout-raise-from-linalg -------------------===//
//
// linalg.pack / unpack / transpose / broadcast become layout.relayout and
// layout.broadcast_in_dim between the equivalent #layout.tiled layouts (see
// the pass description in Transforms/Passes.td). Upstream's semantics
// (mlir/Dialect/Linalg/IR/LinalgRelayoutOps.td): pack result =
// permute(outer dims, outer_dims_perm) ++ inner_tiles, where outer dim i is
// ceil(dim_i / tile) for the tiled dims (inner_dims_pos) and the inner dims
// follow the order of inner_dims_pos.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Xla/TiledLayoutMap.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/TypeSwitch.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTRAISEFROMLINALG
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {

/// The layout of a pack and how its physical dims map onto the pack's
/// result dims: `groups[i]` are the physical dims that form result dim i
/// (one real dim plus the size-1 dims the layout adds).
struct PackLayout {
  Layout layout;
  SmallVector<int64_t> physicalDims;
  SmallVector<ReassociationIndices> groups;
  bool needsReshape = false;
};

/// One physical dim while the tile levels are built: its size and the pack
/// result dim it is (-1: a size-1 dim the layout adds).
struct LabeledDim {
  int64_t size;
  int64_t label;
};

/// The layout whose physical tensor is the pack's result (up to size-1
/// dims), or a reason why there is none.
FailureOr<PackLayout> getPackLayout(ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> innerDimsPos,
                                    ArrayRef<int64_t> innerTiles,
                                    ArrayRef<int64_t> outerDimsPerm,
                                    std::string &why) {
  int64_t rank = shape.size(), k = innerDimsPos.size();
  SmallVector<int64_t> order = llvm::to_vector(outerDimsPerm);
  if (order.empty())
    order = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  // Result dim j < rank is outer position j; rank + q is inner tile q.
  SmallVector<int64_t> tileOf(rank, 0);
  for (auto [q, dim] : llvm::enumerate(innerDimsPos))
    tileOf[dim] = innerTiles[q];
  int64_t first = rank;
  for (int64_t j = 0; j < rank; ++j)
    if (tileOf[order[j]] != 0)
      first = std::min(first, j);

  SmallVector<LabeledDim> dims;
  for (int64_t j = 0; j < rank; ++j)
    dims.push_back({shape[order[j]], j});
  Layout layout(llvm::to_vector(llvm::reverse(order)));
  if (k > 0) {
    // Level 1 over the physical suffix from the first tiled dim; the
    // in-tile dims come in physical order.
    SmallVector<int64_t> tile, labels;
    for (int64_t j = first; j < rank; ++j) {
      int64_t t = tileOf[order[j]];
      tile.push_back(t ? t : 1);
      int64_t q = llvm::find(innerDimsPos, order[j]) - innerDimsPos.begin();
      labels.push_back(t ? rank + q : -1);
    }
    // Untiled dims in the suffix keep their size as count dims.
    SmallVector<LabeledDim> next(dims.begin(), dims.begin() + first);
    for (int64_t j = first; j < rank; ++j)
      next.push_back({static_cast<int64_t>(
                          llvm::divideCeil(dims[j].size, tile[j - first])),
                      dims[j].label});
    for (auto [t, label] : llvm::zip_equal(tile, labels))
      next.push_back({t, label});
    dims = std::move(next);
    layout.mutableTiles().push_back(Tile(tile));

    // The in-tile dims must follow inner_dims_pos. Those already in order
    // (a prefix of inner_dims_pos that is a subsequence of the physical
    // order) stay; each other one, in inner_dims_pos order, is moved to
    // the minor end by a level (size, 1, ..., 1) over the suffix from it.
    SmallVector<int64_t> inTile;
    for (int64_t label : labels)
      if (label >= 0)
        inTile.push_back(label - rank);
    int64_t kept = 0;
    for (int64_t q : inTile)
      if (kept < k && q == kept)
        ++kept;
    for (int64_t q = kept; q < k; ++q) {
      int64_t pos =
          llvm::find_if(
              dims, [&](const LabeledDim &d) { return d.label == rank + q; }) -
          dims.begin();
      // Count dims: 1 for the moved dim, the others unchanged (tile 1);
      // in-tile dims: the moved one, then size-1 dims.
      SmallVector<int64_t> moveTile(dims.size() - pos, 1);
      moveTile[0] = dims[pos].size;
      SmallVector<LabeledDim> next(dims.begin(), dims.end());
      next[pos] = {1, -1};
      next.push_back({moveTile[0], rank + q});
      next.append(moveTile.size() - 1, LabeledDim{1, -1});
      dims = std::move(next);
      layout.mutableTiles().push_back(Tile(moveTile));
      if (static_cast<int64_t>(layout.getTiles().size()) > kMaxTileLevels) {
        why = "the layout would need too many tile levels";
        return failure();
      }
    }
  }

  // Group the size-1 dims with a real dim; the real dims must come in
  // result order.
  PackLayout result;
  result.layout = std::move(layout);
  int64_t expected = 0;
  ReassociationIndices leading; // size-1 dims before the first real dim
  for (auto [i, d] : llvm::enumerate(dims)) {
    result.physicalDims.push_back(d.size);
    if (d.label < 0) {
      result.needsReshape = true;
      (result.groups.empty() ? leading : result.groups.back()).push_back(i);
      continue;
    }
    if (d.label != expected++) {
      why = "internal: the layout's dims are not in the pack's order";
      return failure();
    }
    ReassociationIndices group = std::exchange(leading, {});
    group.push_back(i);
    result.groups.push_back(group);
  }
  if (expected != rank + k) {
    why = "internal: the layout lost a dim of the pack";
    return failure();
  }
  return result;
}

/// Checks `pack` against the layout library: the physical dims of the
/// layout for `shape` must be the ones computed, and the real ones the
/// packed type's.
LogicalResult checkPackLayout(const PackLayout &pack, ArrayRef<int64_t> shape,
                              ArrayRef<int64_t> packedShape, std::string &why) {
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(
      Shape::makeArray(PrimitiveType::F32, shape, pack.layout));
  if (!map) {
    why = "the layout library rejects the layout: " +
          llvm::toString(map.takeError());
    return failure();
  }
  if (map->getPhysicalDims() != ArrayRef<int64_t>(pack.physicalDims)) {
    why = "internal: the layout's physical dims differ";
    return failure();
  }
  SmallVector<int64_t> real;
  for (const ReassociationIndices &group : pack.groups) {
    int64_t size = 1;
    for (int64_t i : group)
      size *= pack.physicalDims[i];
    real.push_back(size);
  }
  if (real != packedShape) {
    why = "the packed type is not the layout's physical tensor";
    return failure();
  }
  return success();
}

/// The PV(...) whose constant equals `padding` for `elementType`.
std::optional<PaddingValue> matchPaddingValue(Value padding, Type elementType) {
  Attribute value;
  if (!matchPattern(padding, m_Constant(&value)))
    return std::nullopt;
  for (PaddingValue pv : {PaddingValue::Zero, PaddingValue::One,
                          PaddingValue::Lowest, PaddingValue::Highest})
    if (TypedAttr attr = getPaddingValueAttr(elementType, pv);
        attr && attr == value)
      return pv;
  return std::nullopt;
}

/// True if some tile of `pack` is incomplete (the padding value is used).
bool hasPartialTiles(ArrayRef<int64_t> shape, ArrayRef<int64_t> innerDimsPos,
                     ArrayRef<int64_t> innerTiles) {
  for (auto [dim, tile] : llvm::zip_equal(innerDimsPos, innerTiles))
    if (shape[dim] % tile != 0)
      return true;
  return false;
}

/// The layout of a pack or unpack, or a remark on `op` and failure.
FailureOr<PackLayout> getRelayoutLayout(Operation *op,
                                        RankedTensorType unpacked,
                                        RankedTensorType packed,
                                        ArrayRef<int64_t> innerDimsPos,
                                        ArrayRef<int64_t> innerTiles,
                                        ArrayRef<int64_t> outerDimsPerm) {
  auto notRaised = [&](const Twine &why) {
    op->emitRemark() << "not raised to layout ops: " << why;
    return failure();
  };
  if (ShapedType::isDynamicShape(innerTiles))
    return notRaised("dynamic inner tiles");
  if (!unpacked.hasStaticShape() || !packed.hasStaticShape())
    return notRaised("dynamic shapes");
  if (unpacked.getEncoding() || packed.getEncoding())
    return notRaised("a tensor with an encoding");
  std::string why;
  FailureOr<PackLayout> layout = getPackLayout(
      unpacked.getShape(), innerDimsPos, innerTiles, outerDimsPerm, why);
  if (failed(layout) || failed(checkPackLayout(*layout, unpacked.getShape(),
                                               packed.getShape(), why)))
    return notRaised(why);
  return layout;
}

LogicalResult raisePack(linalg::PackOp op, RewriterBase &rewriter) {
  RankedTensorType srcType = op.getSourceType(), dstType = op.getDestType();
  FailureOr<PackLayout> pack =
      getRelayoutLayout(op, srcType, dstType, op.getInnerDimsPos(),
                        op.getStaticInnerTiles(), op.getOuterDimsPerm());
  if (failed(pack))
    return failure();
  if (hasPartialTiles(srcType.getShape(), op.getInnerDimsPos(),
                      op.getStaticInnerTiles())) {
    std::optional<PaddingValue> pv =
        op.getPaddingValue()
            ? matchPaddingValue(op.getPaddingValue(), srcType.getElementType())
            : std::nullopt;
    if (!pv)
      return op.emitRemark()
             << "not raised to layout ops: the padding value is not a "
                "constant equal to zero, one, or the lowest or highest "
                "value of the element type (the layout's PV values)";
    pack->layout.setPaddingValue(*pv);
  }
  Location loc = op.getLoc();
  auto tiled = TiledLayoutAttr::get(op.getContext(), pack->layout);
  rewriter.setInsertionPoint(op);
  // The pack's destination, viewed in the layout, is the relayout's
  // destination, so that bufferization writes the result in place (as
  // upstream's destination-passing pack does).
  auto physType =
      RankedTensorType::get(pack->physicalDims, srcType.getElementType());
  Value dest = op.getDest();
  if (pack->needsReshape)
    dest = tensor::ExpandShapeOp::create(rewriter, loc, physType, dest,
                                         pack->groups);
  auto tiledType = RankedTensorType::get(srcType.getShape(),
                                         srcType.getElementType(), tiled);
  Value view = FromPhysicalOp::create(rewriter, loc, tiledType, dest);
  Value relayout =
      RelayoutOp::create(rewriter, loc, op.getSource(), view)->getResult(0);
  Value result = ToPhysicalOp::create(rewriter, loc, physType, relayout);
  if (pack->needsReshape)
    result = tensor::CollapseShapeOp::create(rewriter, loc, dstType, result,
                                             pack->groups);
  rewriter.replaceOp(op, result);
  return success();
}

LogicalResult raiseUnpack(linalg::UnPackOp op, RewriterBase &rewriter) {
  RankedTensorType packedType = op.getSourceType(), dstType = op.getDestType();
  FailureOr<PackLayout> pack =
      getRelayoutLayout(op, dstType, packedType, op.getInnerDimsPos(),
                        op.getStaticInnerTiles(), op.getOuterDimsPerm());
  if (failed(pack))
    return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value phys = op.getSource();
  if (pack->needsReshape)
    phys = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(pack->physicalDims, dstType.getElementType()),
        phys, pack->groups);
  auto tiled = TiledLayoutAttr::get(op.getContext(), pack->layout);
  auto tiledType = RankedTensorType::get(dstType.getShape(),
                                         dstType.getElementType(), tiled);
  Value view = FromPhysicalOp::create(rewriter, loc, tiledType, phys);
  rewriter.replaceOp(
      op, RelayoutOp::create(rewriter, loc, view, op.getDest())->getResults());
  return success();
}

LogicalResult raiseTranspose(linalg::TransposeOp op, RewriterBase &rewriter) {
  auto inType = cast<ShapedType>(op.getInput().getType());
  auto outType = cast<ShapedType>(op.getInit().getType());
  auto notRaised = [&](const Twine &why) {
    return op.emitRemark() << "not raised to layout ops: " << why;
  };
  if (!inType.hasStaticShape())
    return notRaised("dynamic shapes");
  auto isPlain = [](ShapedType type) {
    if (auto memref = dyn_cast<MemRefType>(type))
      return memref.getLayout().isIdentity() && !memref.getMemorySpace();
    return !cast<RankedTensorType>(type).getEncoding();
  };
  if (!isPlain(inType) || !isPlain(outType))
    return notRaised("operands with a layout, an encoding or a memory space "
                     "(only identity-layout memrefs and plain tensors)");
  // Result dim j is input dim permutation[j]: the result is the input's
  // physical buffer in the layout with physical order `permutation`.
  Layout layout(llvm::to_vector(llvm::reverse(op.getPermutation())));
  auto tiled = TiledLayoutAttr::get(op.getContext(), layout);
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  if (auto memrefType = dyn_cast<MemRefType>(inType)) {
    MemRefType viewType = getMemRefType(memrefType.getShape(),
                                        memrefType.getElementType(), tiled);
    Value view = FromPhysicalOp::create(rewriter, loc, viewType, op.getInit());
    RelayoutOp::create(rewriter, loc, op.getInput(), view);
    rewriter.eraseOp(op);
    return success();
  }
  // The init, viewed in the layout, is the destination (in place).
  auto tiledType =
      RankedTensorType::get(inType.getShape(), inType.getElementType(), tiled);
  Value view = FromPhysicalOp::create(rewriter, loc, tiledType, op.getInit());
  Value relayout =
      RelayoutOp::create(rewriter, loc, op.getInput(), view)->getResult(0);
  rewriter.replaceOp(
      op, ToPhysicalOp::create(rewriter, loc, outType, relayout)->getResults());
  return success();
}

LogicalResult raiseBroadcast(linalg::BroadcastOp op, RewriterBase &rewriter) {
  auto notRaised = [&](const Twine &why) {
    return op.emitRemark() << "not raised to layout ops: " << why;
  };
  auto inType = dyn_cast<RankedTensorType>(op.getInput().getType());
  auto outType = dyn_cast<RankedTensorType>(op.getInit().getType());
  if (!inType || !outType)
    return notRaised("memref operands (layout.broadcast_in_dim is "
                     "tensor-only)");
  if (!inType.hasStaticShape() || !outType.hasStaticShape())
    return notRaised("dynamic shapes");
  if (inType.getEncoding() || outType.getEncoding())
    return notRaised("a tensor with an encoding");
  // Input dim i is the i-th result dim not in `dimensions`.
  SmallVector<int64_t> dims;
  for (int64_t r = 0; r < outType.getRank(); ++r)
    if (!llvm::is_contained(op.getDimensions(), r))
      dims.push_back(r);
  rewriter.setInsertionPoint(op);
  rewriter.replaceOp(op, BroadcastInDimOp::create(rewriter, op.getLoc(),
                                                  outType, op.getInput(), dims)
                             ->getResults());
  return success();
}

struct LayoutRaiseFromLinalgPass
    : layout::impl::LayoutRaiseFromLinalgBase<LayoutRaiseFromLinalgPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp, linalg::TransposeOp,
              linalg::BroadcastOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops)
      (void)llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](linalg::PackOp o) { return raisePack(o, rewriter); })
          .Case([&](linalg::UnPackOp o) { return raiseUnpack(o, rewriter); })
          .Case([&](linalg::TransposeOp o) {
            return raiseTranspose(o, rewriter);
          })
          .Case([&](linalg::BroadcastOp o) {
            return raiseBroadcast(o, rewriter);
          });
  }
};

} // namespace
