//===- DecomposeTiling.cpp - relayout as pad -> reshape -> transpose ------===//
//
// --layout-decompose-tiling: every static tensor `layout.relayout` becomes
// the literal construction of XLA's tiled-layout document (docs/semantics.md
// §3) with upstream ops, driven by TiledLayoutMap::getLevels():
//
//   row-major -> tiled: tensor.pad (legacy PAD, logical order)
//     -> linalg.transpose (minor_to_major: physical order)
//     -> per level: expand_shape (prepend 1s) -> collapse_shape (`*`)
//        -> tensor.pad (to tile multiples) -> expand_shape (d -> (d/t, t))
//        -> linalg.transpose (within-tile dims to the minor end)
//     -> layout.from_physical
//   tiled -> row-major: the inverse, starting from layout.to_physical, with
//   tensor.extract_slice dropping the padding; tiled -> tiled through the
//   logical row-major tensor. Padding slots get the layout's padding value.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Transforms/DecomposeTiling.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTDECOMPOSETILING
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {

/// Builds the op sequence on static tensors without encoding.
struct TilingBuilder {
  RewriterBase &rewriter;
  Location loc;
  Type elementType;
  Value padValue; // created lazily

  RankedTensorType tensorType(ArrayRef<int64_t> shape) const {
    return RankedTensorType::get(shape, elementType);
  }
  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }

  Value getPadValue(TypedAttr attr) {
    if (!padValue)
      padValue = arith::ConstantOp::create(rewriter, loc, attr);
    return padValue;
  }

  /// result[i] = input[perm[i]]; no-op for the identity.
  Value transpose(Value input, ArrayRef<int64_t> perm) {
    if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
      return input;
    ArrayRef<int64_t> shape = shapeOf(input);
    SmallVector<int64_t> resultShape;
    for (int64_t p : perm)
      resultShape.push_back(shape[p]);
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultShape, elementType);
    return linalg::TransposeOp::create(rewriter, loc, input, init, perm)
        ->getResult(0);
  }

  /// Pads the end of every dim up to `shape` with `value`.
  Value padHigh(Value input, ArrayRef<int64_t> shape, TypedAttr value) {
    if (shapeOf(input) == shape)
      return input;
    ArrayRef<int64_t> current = shapeOf(input);
    SmallVector<OpFoldResult> low(shape.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> high;
    for (auto [from, to] : llvm::zip_equal(current, shape))
      high.push_back(rewriter.getIndexAttr(to - from));
    return tensor::PadOp::create(rewriter, loc, tensorType(shape), input, low,
                                 high, getPadValue(value))
        .getResult();
  }

  /// The leading corner of `shape` (drops the padding at the end).
  Value sliceHigh(Value input, ArrayRef<int64_t> shape) {
    if (shapeOf(input) == shape)
      return input;
    SmallVector<OpFoldResult> offsets(shape.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(shape.size(), rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes;
    for (int64_t s : shape)
      sizes.push_back(rewriter.getIndexAttr(s));
    return tensor::ExtractSliceOp::create(rewriter, loc, tensorType(shape),
                                          input, offsets, sizes, strides)
        .getResult();
  }

  /// tensor.expand_shape / tensor.collapse_shape to `shape` (none if the
  /// shape is already that).
  template <typename ReshapeOp>
  Value reshape(Value input, ArrayRef<int64_t> shape,
                ArrayRef<ReassociationIndices> groups) {
    if (shapeOf(input) == shape)
      return input;
    return ReshapeOp::create(rewriter, loc, tensorType(shape), input, groups)
        .getResult();
  }
  Value expand(Value input, ArrayRef<int64_t> shape,
               ArrayRef<ReassociationIndices> groups) {
    return reshape<tensor::ExpandShapeOp>(input, shape, groups);
  }
  Value collapse(Value input, ArrayRef<int64_t> shape,
                 ArrayRef<ReassociationIndices> groups) {
    return reshape<tensor::CollapseShapeOp>(input, shape, groups);
  }
};

/// [[0..k], [k+1], [k+2], ...] over `rank + k` dims: `k` size-1 dims merged
/// into the first dim. A rank-0 tensor has no groups.
static SmallVector<ReassociationIndices> prependGroups(int64_t k,
                                                       int64_t rank) {
  SmallVector<ReassociationIndices> groups;
  if (rank == 0)
    return groups;
  ReassociationIndices first;
  for (int64_t i = 0; i <= k; ++i)
    first.push_back(i);
  groups.push_back(first);
  for (int64_t i = 1; i < rank; ++i)
    groups.push_back({k + i});
  return groups;
}

/// The `*` groups of a level as reassociation indices.
static SmallVector<ReassociationIndices> combineGroups(const TileLevel &level) {
  SmallVector<ReassociationIndices> groups;
  for (auto [begin, end] : level.groups) {
    ReassociationIndices group;
    for (int64_t d = begin; d < end; ++d)
      group.push_back(d);
    groups.push_back(group);
  }
  return groups;
}

/// Per level: the padded combined dims, the split shape (leading ++
/// (count_i, tile_i)...), the split groups and the transpose moving the tile
/// dims to the minor end.
struct LevelShapes {
  SmallVector<int64_t> padded, split;
  SmallVector<ReassociationIndices> splitGroups;
  SmallVector<int64_t> toMinor;
};

static LevelShapes getLevelShapes(const TileLevel &level) {
  LevelShapes s;
  int64_t numLeading =
      static_cast<int64_t>(level.combinedDims.size() - level.tile.size());
  int64_t numTiled = static_cast<int64_t>(level.tile.size());
  for (int64_t i = 0; i < numLeading; ++i) {
    s.padded.push_back(level.combinedDims[i]);
    s.split.push_back(level.combinedDims[i]);
    s.splitGroups.push_back({i});
    s.toMinor.push_back(i);
  }
  for (int64_t i = 0; i < numTiled; ++i) {
    int64_t d = level.combinedDims[numLeading + i], t = level.tile[i];
    int64_t count = (d + t - 1) / t;
    s.padded.push_back(count * t);
    int64_t pos = static_cast<int64_t>(s.split.size());
    s.split.append({count, t});
    s.splitGroups.push_back({pos, pos + 1});
  }
  for (int64_t i = 0; i < numTiled; ++i)
    s.toMinor.push_back(numLeading + 2 * i);
  for (int64_t i = 0; i < numTiled; ++i)
    s.toMinor.push_back(numLeading + 2 * i + 1);
  return s;
}

static SmallVector<int64_t> invert(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inverse(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = static_cast<int64_t>(i);
  return inverse;
}

/// Logical row-major `input` -> physical tensor of `map`.
static Value buildTile(TilingBuilder &b, Value input, const TiledLayoutMap &map,
                       TypedAttr padValue) {
  // Legacy padding, logical order.
  Value v = b.padHigh(input, map.getPaddedDims(), padValue);
  // minor_to_major: physical order, most major first.
  ArrayRef<int64_t> m2m = map.getMinorToMajor();
  SmallVector<int64_t> toPhysical(llvm::reverse(m2m));
  v = b.transpose(v, toPhysical);
  for (const TileLevel &level : map.getLevels()) {
    int64_t rank = static_cast<int64_t>(TilingBuilder::shapeOf(v).size());
    v = b.expand(v, level.inputDims,
                 prependGroups(level.numPrependedDims, rank));
    v = b.collapse(v, level.combinedDims, combineGroups(level));
    LevelShapes s = getLevelShapes(level);
    v = b.padHigh(v, s.padded, padValue);
    v = b.expand(v, s.split, s.splitGroups);
    v = b.transpose(v, s.toMinor);
  }
  return v;
}

/// Physical tensor of `map` -> logical row-major tensor.
static Value buildUntile(TilingBuilder &b, Value input,
                         const TiledLayoutMap &map) {
  Value v = input;
  for (const TileLevel &level : llvm::reverse(map.getLevels())) {
    LevelShapes s = getLevelShapes(level);
    v = b.transpose(v, invert(s.toMinor));
    v = b.collapse(v, s.padded, s.splitGroups);
    v = b.sliceHigh(v, level.combinedDims);
    v = b.expand(v, level.inputDims, combineGroups(level));
    int64_t rank =
        static_cast<int64_t>(level.inputDims.size()) - level.numPrependedDims;
    SmallVector<int64_t> unprepended(level.inputDims.begin() +
                                         level.numPrependedDims,
                                     level.inputDims.end());
    v = b.collapse(v, unprepended, prependGroups(level.numPrependedDims, rank));
  }
  ArrayRef<int64_t> m2m = map.getMinorToMajor();
  SmallVector<int64_t> toPhysical(llvm::reverse(m2m));
  v = b.transpose(v, invert(toPhysical));
  return b.sliceHigh(v, map.getLogicalDims());
}

} // namespace

Value mlir::layout::buildTiledPhysicalTensor(RewriterBase &rewriter,
                                             Location loc, Value logical,
                                             const TiledLayoutMap &map,
                                             TypedAttr padValue) {
  TilingBuilder b{rewriter, loc, getElementTypeOrSelf(logical.getType()),
                  Value()};
  return buildTile(b, logical, map, padValue);
}

Value mlir::layout::buildLogicalTensorFromPhysical(RewriterBase &rewriter,
                                                   Location loc, Value physical,
                                                   const TiledLayoutMap &map) {
  TilingBuilder b{rewriter, loc, getElementTypeOrSelf(physical.getType()),
                  Value()};
  return buildUntile(b, physical, map);
}

namespace {
struct DecomposeRelayout : OpRewritePattern<RelayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getResult())
      return rewriter.notifyMatchFailure(op, "memref relayout");
    auto sourceType = cast<RankedTensorType>(op.getSource().getType());
    auto destType = cast<RankedTensorType>(op.getDestination().getType());
    if (!sourceType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    TiledLayoutAttr sourceLayout = getTiledLayout(sourceType);
    TiledLayoutAttr destLayout = getTiledLayout(destType);
    if (sourceLayout == destLayout)
      return rewriter.notifyMatchFailure(op, "same layouts (folds)");
    // The physical tensors are plain tensors: in memory space 0 and one
    // element per slot. A layout in another memory space (S(n)) or with
    // sub-byte packing (E(n)) is left to the relayout's own lowering, which
    // keeps both (bufferization would otherwise view a space-0 or unpacked
    // physical buffer as the tiled one).
    for (RankedTensorType type : {sourceType, destType}) {
      TiledLayoutAttr layout = getTiledLayout(type);
      unsigned bits = 0;
      if (layout && (layout.getLayout().getMemorySpace() != 0 ||
                     !getSubBytePacking(type, bits).empty() || bits))
        return rewriter.notifyMatchFailure(
            op, "memory space or sub-byte packing (E(n))");
    }
    if (op.isPlainCopy()) {
      // Equivalent layouts without padding slots (a `*` layout with and
      // without its dims): the same buffer, viewed.
      Value view = createEquivalentLayoutView(rewriter, op.getLoc(),
                                              op.getSource(), destType);
      if (!view)
        return failure();
      rewriter.replaceOp(op, view);
      return success();
    }
    Type elementType = sourceType.getElementType();
    auto emitError = [&] { return op.emitOpError(); };

    TilingBuilder b{rewriter, op.getLoc(), elementType, Value()};
    // No elements: nothing to move, an empty destination (the steps below
    // would pad or slice a size-0 dim at offset 0, which tensor.pad's and
    // tensor.extract_slice's verifiers reject).
    if (sourceType.getNumElements() == 0) {
      SmallVector<int64_t> shape(destType.getShape());
      if (destLayout) {
        FailureOr<TiledLayoutMap> map = destLayout.getTiledLayoutMap(
            destType.getShape(), elementType, emitError);
        if (failed(map))
          return failure();
        shape.assign(map->getPhysicalDims().begin(),
                     map->getPhysicalDims().end());
      }
      Value empty =
          tensor::EmptyOp::create(rewriter, op.getLoc(), shape, elementType);
      rewriter.replaceOp(op, destLayout
                                 ? FromPhysicalOp::create(rewriter, op.getLoc(),
                                                          destType, empty)
                                       .getResult()
                                 : empty);
      return success();
    }
    Value logical = op.getSource();
    if (sourceLayout) {
      FailureOr<TiledLayoutMap> map = sourceLayout.getTiledLayoutMap(
          sourceType.getShape(), elementType, emitError);
      if (failed(map))
        return failure();
      Value physical = ToPhysicalOp::create(
          rewriter, op.getLoc(), b.tensorType(map->getPhysicalDims()),
          op.getSource());
      logical = buildUntile(b, physical, *map);
    }
    Value result = logical;
    if (destLayout) {
      FailureOr<TiledLayoutMap> map = destLayout.getTiledLayoutMap(
          destType.getShape(), elementType, emitError);
      if (failed(map))
        return failure();
      TypedAttr padValue = getPaddingValueAttr(
          elementType, destLayout.getLayout().getPaddingValue());
      if (!padValue ||
          !arith::ConstantOp::isBuildableWith(padValue, elementType))
        return rewriter.notifyMatchFailure(op, "no arith padding constant");
      Value physical = buildTile(b, logical, *map, padValue);
      result =
          FromPhysicalOp::create(rewriter, op.getLoc(), destType, physical);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LayoutDecomposeTilingPass
    : public mlir::layout::impl::LayoutDecomposeTilingBase<
          LayoutDecomposeTilingPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeRelayout>(&getContext());
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
