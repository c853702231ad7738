//===- LayoutToLinalg.cpp - --convert-layout-to-linalg --------------------===//
//
// Tensor-level layout ops as upstream tensor/linalg ops
// (docs/convert-to-linalg.md):
//
//   relayout         row-major -> tiled: linalg.pack + layout.from_physical
//                    when one pack expresses the layout (one tile level, no
//                    `*`, no legacy PAD, tile not longer than the rank), else
//                    the pad -> expand_shape -> transpose form of
//                    --layout-decompose-tiling; tiled -> row-major the
//                    inverse (layout.to_physical + linalg.unpack);
//                    tiled -> tiled through row-major.
//   broadcast_in_dim linalg.broadcast (tensor.collapse_shape drops operand
//                    dims of size 1 that are expanded, linalg.transpose
//                    orders the kept dims).
//   binary ops       named elementwise ops where their semantics are XLA's,
//                    else linalg.generic with the loop lowering's scalar
//                    emitter (emitBinaryElement).
//
// Tiled operands of broadcast_in_dim and the binary ops are converted to
// row-major first, tiled results from row-major.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/LayoutToLinalg/LayoutToLinalg.h"
#include "layout/Conversion/Passes.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/DecomposeTiling.h"
#include "layout/Dialect/Layout/Transforms/ExpandBroadcasts.h"
#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::layout {
#define GEN_PASS_DEF_CONVERTLAYOUTTOLINALG
#include "layout/Conversion/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Layouts: linalg.pack or the decomposition
//===----------------------------------------------------------------------===//

namespace {
/// The attributes of the one linalg.pack (unpack) that builds (reads) the
/// physical tensor of a layout from (into) the logical row-major tensor.
struct PackSpec {
  SmallVector<int64_t> innerDimsPos, innerTiles;
  /// Empty for the identity (minor_to_major = {n-1, ..., 0}).
  SmallVector<int64_t> outerDimsPerm;
};

/// A tiled tensor type and its index map.
struct TiledTensor {
  RankedTensorType type;
  TiledLayoutAttr attr;
  TiledLayoutMap map;

  Layout layout() const { return attr.getLayout(); }
  RankedTensorType physicalType() const {
    return RankedTensorType::get(map.getPhysicalDims(), type.getElementType());
  }
  RankedTensorType logicalType() const {
    return RankedTensorType::get(type.getShape(), type.getElementType());
  }
};
} // namespace

/// The tiled description of `type`, or std::nullopt without a
/// `#layout.tiled` encoding (or if the map cannot be built: the encoding is
/// verified, so that does not happen for verified IR).
static std::optional<TiledTensor> getTiledTensor(RankedTensorType type) {
  TiledLayoutAttr attr = getTiledLayout(type);
  if (!attr)
    return std::nullopt;
  // Errors are swallowed: a verified encoding always has a map.
  FailureOr<TiledLayoutMap> map = attr.getTiledLayoutMap(
      type.getShape(), type.getElementType(), [ctx = type.getContext()] {
        InFlightDiagnostic diag = emitError(UnknownLoc::get(ctx));
        diag.abandon();
        return diag;
      });
  if (failed(map))
    return std::nullopt;
  return TiledTensor{type, attr, std::move(*map)};
}

/// Why one linalg.pack cannot express the layout, or the empty string.
static std::string whyNotOnePack(const TiledTensor &t) {
  Layout layout = t.layout();
  if (!layout.getPaddedDimensions().empty())
    return "legacy padding (PAD) adds whole rows/columns, not partial tiles";
  ArrayRef<TileLevel> levels = t.map.getLevels();
  if (levels.empty())
    return "no tiles (a transpose, not a pack)";
  if (levels.size() > 1)
    return "repeated tiling (more than one tile level)";
  if (layout.getTiles()[0].hasCombine())
    return "`*` combines dims before tiling";
  if (levels[0].numPrependedDims != 0)
    return "the tile is longer than the rank (XLA prepends size-1 dims)";
  return "";
}

/// Pre: whyNotOnePack(t) is empty. The physical order of the dims is
/// reverse(minor_to_major); the tile covers its minor suffix.
static PackSpec getPackSpec(const TiledTensor &t) {
  ArrayRef<int64_t> m2m = t.map.getMinorToMajor();
  SmallVector<int64_t> physicalOrder(llvm::reverse(m2m));
  const TileLevel &level = t.map.getLevels()[0];
  int64_t rank = static_cast<int64_t>(physicalOrder.size());
  int64_t numTiled = static_cast<int64_t>(level.tile.size());
  PackSpec spec;
  spec.innerDimsPos.assign(physicalOrder.begin() + (rank - numTiled),
                           physicalOrder.end());
  spec.innerTiles.assign(level.tile.begin(), level.tile.end());
  if (!llvm::equal(physicalOrder, llvm::seq<int64_t>(0, rank)))
    spec.outerDimsPerm = physicalOrder;
  return spec;
}

/// Whether the pack has incomplete tiles (needs a padding value).
static bool packNeedsPadding(const TiledTensor &t, const PackSpec &spec) {
  for (auto [pos, tile] : llvm::zip_equal(spec.innerDimsPos, spec.innerTiles)) {
    int64_t size = t.type.getDimSize(pos);
    if (ShapedType::isDynamic(size) || size % tile != 0)
      return true;
  }
  return false;
}

/// The padding constant of the layout, or null if arith cannot build it.
static TypedAttr getPadAttr(const TiledTensor &t) {
  Type elementType = t.type.getElementType();
  TypedAttr attr =
      getPaddingValueAttr(elementType, t.layout().getPaddingValue());
  if (!attr || !arith::ConstantOp::isBuildableWith(attr, elementType))
    return nullptr;
  return attr;
}

/// Why a tensor of `type` cannot be built from (`tiling`) or read into
/// row-major, or the empty string.
static std::string whyLayoutUnsupported(RankedTensorType type, bool tiling) {
  if (!getTiledLayout(type))
    return "";
  std::optional<TiledTensor> t = getTiledTensor(type);
  if (!t)
    return "invalid layout";
  std::string notPack = whyNotOnePack(*t);
  std::string why;
  llvm::raw_string_ostream os(why);
  if (notPack.empty()) {
    if (tiling && packNeedsPadding(*t, getPackSpec(*t)) && !getPadAttr(*t))
      os << "no arith.constant padding value for element type "
         << type.getElementType() << " (incomplete tiles of " << type << ")";
    return why;
  }
  if (!type.hasStaticShape()) {
    os << "dynamic shape " << type << ": the layout is not one linalg.pack ("
       << notPack << ") and the pad/reshape/transpose form needs static shapes";
    return why;
  }
  if (tiling && t->map.getPhysicalElementCount() > t->map.getElementCount() &&
      !getPadAttr(*t))
    os << "no arith.constant padding value for element type "
       << type.getElementType() << " (padding slots of " << type << ")";
  return why;
}

/// A static tensor type without elements (a size-0 dim).
static bool hasNoElements(RankedTensorType type) {
  return type.hasStaticShape() && type.getNumElements() == 0;
}

/// Row-major `logical` (no encoding) -> a tensor of the tiled `type`.
/// Pre: whyLayoutUnsupported(type, /*tiling=*/true) is empty.
static Value buildTiled(RewriterBase &rewriter, Location loc, Value logical,
                        const TiledTensor &t) {
  Value physical;
  if (hasNoElements(t.physicalType())) {
    // Nothing to write: linalg.pack's decomposition would take a subview at
    // offset 0 of an empty buffer, which the memref verifier rejects.
    physical = tensor::EmptyOp::create(
        rewriter, loc, t.physicalType().getShape(), t.type.getElementType());
  } else if (whyNotOnePack(t).empty()) {
    PackSpec spec = getPackSpec(t);
    SmallVector<OpFoldResult> tiles =
        getAsIndexOpFoldResult(rewriter.getContext(), spec.innerTiles);
    Value dest = linalg::PackOp::createDestinationTensor(
        rewriter, loc, logical, tiles, spec.innerDimsPos, spec.outerDimsPerm);
    std::optional<Value> padding;
    if (packNeedsPadding(t, spec))
      padding = arith::ConstantOp::create(rewriter, loc, getPadAttr(t));
    physical =
        linalg::PackOp::create(rewriter, loc, logical, dest, spec.innerDimsPos,
                               tiles, padding, spec.outerDimsPerm)
            .getResult();
  } else {
    TypedAttr padAttr;
    if (t.map.getPhysicalElementCount() > t.map.getElementCount())
      padAttr = getPadAttr(t);
    physical = buildTiledPhysicalTensor(rewriter, loc, logical, t.map, padAttr);
  }
  if (physical.getType() != t.physicalType())
    physical =
        tensor::CastOp::create(rewriter, loc, t.physicalType(), physical);
  return FromPhysicalOp::create(rewriter, loc, t.type, physical);
}

/// A tensor of the tiled type `t` -> its row-major logical tensor.
/// Pre: whyLayoutUnsupported(t.type, /*tiling=*/false) is empty.
static Value buildRowMajor(RewriterBase &rewriter, Location loc, Value tiled,
                           const TiledTensor &t) {
  if (hasNoElements(t.logicalType()))
    return tensor::EmptyOp::create(rewriter, loc, t.type.getShape(),
                                   t.type.getElementType());
  Value physical = ToPhysicalOp::create(rewriter, loc, t.physicalType(), tiled);
  if (!whyNotOnePack(t).empty())
    return buildLogicalTensorFromPhysical(rewriter, loc, physical, t.map);
  PackSpec spec = getPackSpec(t);
  SmallVector<OpFoldResult> tiles =
      getAsIndexOpFoldResult(rewriter.getContext(), spec.innerTiles);
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < t.type.getRank(); ++d)
    if (t.type.isDynamicDim(d))
      dynamicSizes.push_back(tensor::DimOp::create(rewriter, loc, tiled, d));
  Value dest = tensor::EmptyOp::create(rewriter, loc, t.type.getShape(),
                                       t.type.getElementType(), dynamicSizes);
  return linalg::UnPackOp::create(rewriter, loc, physical, dest,
                                  spec.innerDimsPos, tiles, spec.outerDimsPerm)
      .getResult();
}

/// `value` in row-major (no encoding).
static Value toRowMajor(RewriterBase &rewriter, Location loc, Value value) {
  std::optional<TiledTensor> t =
      getTiledTensor(cast<RankedTensorType>(value.getType()));
  return t ? buildRowMajor(rewriter, loc, value, *t) : value;
}

/// Row-major `value` as a tensor of `type` (same shape up to static sizes).
static Value fromRowMajor(RewriterBase &rewriter, Location loc, Value value,
                          RankedTensorType type) {
  if (std::optional<TiledTensor> t = getTiledTensor(type)) {
    if (value.getType() != t->logicalType())
      value = tensor::CastOp::create(rewriter, loc, t->logicalType(), value);
    return buildTiled(rewriter, loc, value, *t);
  }
  if (value.getType() != type)
    value = tensor::CastOp::create(rewriter, loc, type, value);
  return value;
}

//===----------------------------------------------------------------------===//
// relayout
//===----------------------------------------------------------------------===//

static std::string whyRelayoutUnsupported(RelayoutOp op) {
  if (!op.getResult())
    return "memref relayout (linalg.pack works on tensors; the loop "
           "lowerings handle memrefs)";
  auto sourceType = cast<RankedTensorType>(op.getSource().getType());
  auto destType = cast<RankedTensorType>(op.getDestination().getType());
  if (op.isPlainCopy())
    return "";
  std::string why = whyLayoutUnsupported(sourceType, /*tiling=*/false);
  if (!why.empty())
    return "source: " + why;
  why = whyLayoutUnsupported(destType, /*tiling=*/true);
  if (!why.empty())
    return "destination: " + why;
  return "";
}

namespace {
struct ConvertRelayout : OpRewritePattern<RelayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    std::string why = whyRelayoutUnsupported(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Value source = op.getSource();
    Value destination = op.getDestination();
    auto destType = cast<RankedTensorType>(op.getResult().getType());
    if (op.isPlainCopy()) {
      // Same layout without padding slots: the physical buffer is copied as
      // is (the op's folder); between a `*` layout with and without dims,
      // through the views. With padding slots the relayout writes the
      // destination's padding value, so it goes through the logical tensor
      // like any other relayout (never a copy of the source's padding).
      if (source.getType() != destType)
        source =
            createEquivalentLayoutView(rewriter, op.getLoc(), source, destType);
      rewriter.replaceOp(op, source);
    } else {
      Value logical = toRowMajor(rewriter, op.getLoc(), source);
      rewriter.replaceOp(
          op, fromRowMajor(rewriter, op.getLoc(), logical, destType));
    }
    // The destination only gave the type: drop an unused tensor.empty.
    if (auto empty = destination.getDefiningOp<tensor::EmptyOp>();
        empty && empty->use_empty())
      rewriter.eraseOp(empty);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// broadcast_in_dim
//===----------------------------------------------------------------------===//

/// Whether `size` is `tensor.dim %tensor, dim`.
static bool isDimOf(Value size, Value tensor, int64_t dim) {
  auto dimOp = size.getDefiningOp<tensor::DimOp>();
  if (!dimOp || dimOp.getSource() != tensor)
    return false;
  std::optional<int64_t> index = dimOp.getConstantIndex();
  return index && *index == dim;
}

/// Per operand dim: whether it is a size-1 dim that is expanded (dropped
/// before linalg.broadcast), or the reason the op cannot be converted.
static FailureOr<SmallVector<bool>> getDroppedDims(BroadcastInDimOp op,
                                                   std::string &why) {
  auto operandType = cast<RankedTensorType>(op.getOperand().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  ArrayRef<int64_t> dims = op.getBroadcastDimensions();
  SmallVector<bool> dropped;
  for (auto [i, r] : llvm::enumerate(dims)) {
    int64_t size = operandType.getDimSize(i);
    int64_t resultSize = resultType.getDimSize(r);
    if (size == 1 && resultSize != 1) {
      dropped.push_back(true);
      continue;
    }
    dropped.push_back(false);
    if (!ShapedType::isDynamic(size))
      continue; // equal to the result's size (C5), or the result is `?`
    // A dynamic operand dim is kept only if it is known to be the result's
    // size: the result takes it (no `sizes`), or `sizes` is its tensor.dim.
    if (resultType.isDynamicDim(r)) {
      if (op.getSizes().empty())
        continue;
      int64_t index = llvm::count_if(llvm::seq<int64_t>(0, r), [&](int64_t d) {
        return resultType.isDynamicDim(d);
      });
      if (isDimOf(op.getSizes()[index], op.getOperand(), i))
        continue;
    }
    llvm::raw_string_ostream(why)
        << "operand dim " << i
        << " is dynamic and may be 1 at run time while result dim " << r
        << " is not (linalg.broadcast cannot expand a dim chosen at run "
           "time)";
    return failure();
  }
  return dropped;
}

static std::string whyBroadcastUnsupported(BroadcastInDimOp op) {
  std::string why;
  if (failed(getDroppedDims(op, why)))
    return why;
  why = whyLayoutUnsupported(cast<RankedTensorType>(op.getOperand().getType()),
                             /*tiling=*/false);
  if (!why.empty())
    return "operand: " + why;
  why = whyLayoutUnsupported(cast<RankedTensorType>(op.getResult().getType()),
                             /*tiling=*/true);
  if (!why.empty())
    return "result: " + why;
  return "";
}

namespace {
struct ConvertBroadcastInDim : OpRewritePattern<BroadcastInDimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(BroadcastInDimOp op,
                                PatternRewriter &rewriter) const override {
    std::string why = whyBroadcastUnsupported(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type elementType = resultType.getElementType();
    ArrayRef<int64_t> dims = op.getBroadcastDimensions();
    SmallVector<bool> dropped = *getDroppedDims(op, why);
    // Sizes first: they may read the operand through tensor.dim.
    SmallVector<OpFoldResult> resultSizes =
        getBroadcastingOpResultSizes(rewriter, op);

    Value v = toRowMajor(rewriter, loc, op.getOperand());
    // Drop the expanded size-1 dims: each joins the next kept dim (trailing
    // ones the last kept dim); all dropped gives a rank-0 tensor.
    SmallVector<int64_t> keptResultDims;
    SmallVector<ReassociationIndices> groups;
    ReassociationIndices pending;
    for (auto [i, isDropped] : llvm::enumerate(dropped)) {
      pending.push_back(static_cast<int64_t>(i));
      if (isDropped)
        continue;
      keptResultDims.push_back(dims[i]);
      groups.push_back(pending);
      pending.clear();
    }
    if (!groups.empty())
      groups.back().append(pending.begin(), pending.end());
    if (keptResultDims.size() != dropped.size())
      v = tensor::CollapseShapeOp::create(rewriter, loc, v, groups);

    // linalg.broadcast maps the input dims to the result dims in order.
    SmallVector<int64_t> order =
        llvm::to_vector(llvm::seq<int64_t>(0, keptResultDims.size()));
    llvm::sort(order, [&](int64_t a, int64_t b) {
      return keptResultDims[a] < keptResultDims[b];
    });
    if (!llvm::equal(order, llvm::seq<int64_t>(0, order.size()))) {
      SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, v);
      SmallVector<OpFoldResult> permuted;
      for (int64_t p : order)
        permuted.push_back(sizes[p]);
      Value init =
          tensor::EmptyOp::create(rewriter, loc, permuted, elementType);
      v = linalg::TransposeOp::create(rewriter, loc, v, init, order)
              ->getResult(0);
    }

    SmallVector<int64_t> added;
    for (int64_t r = 0; r < resultType.getRank(); ++r)
      if (!llvm::is_contained(keptResultDims, r))
        added.push_back(r);
    if (!added.empty()) {
      // A kept dim's size is the operand's (a dim that is not expanded
      // equals the result's), so a static operand dim stays static where the
      // result type has `?`: linalg.broadcast requires the input and init
      // sizes to agree statically (the fuzzer's `dims = [0] sizes(%n)` case).
      ArrayRef<int64_t> inputShape =
          cast<RankedTensorType>(v.getType()).getShape();
      SmallVector<OpFoldResult> initSizes(resultSizes);
      for (auto [j, r] : llvm::enumerate(llvm::make_filter_range(
               llvm::seq<int64_t>(0, resultType.getRank()), [&](int64_t d) {
                 return llvm::is_contained(keptResultDims, d);
               })))
        if (!ShapedType::isDynamic(inputShape[j]))
          initSizes[r] = rewriter.getIndexAttr(inputShape[j]);
      Value init =
          tensor::EmptyOp::create(rewriter, loc, initSizes, elementType);
      v = linalg::BroadcastOp::create(rewriter, loc, v, init, added)
              ->getResult(0);
    }
    rewriter.replaceOp(op, fromRowMajor(rewriter, loc, v, resultType));
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

static bool isBinaryOp(Operation *op) {
  return op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>();
}

static std::string whyBinaryOpUnsupported(Operation *op) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  for (Value operand : op->getOperands())
    if (cast<RankedTensorType>(operand.getType()).getShape() !=
        resultType.getShape())
      return "operand shapes differ from the result's (implicit "
             "broadcasting): run --layout-expand-broadcasts first";
  std::string why = whyBinaryUnsupported(op);
  if (!why.empty())
    return why;
  for (Value operand : op->getOperands()) {
    why = whyLayoutUnsupported(cast<RankedTensorType>(operand.getType()),
                               /*tiling=*/false);
    if (!why.empty())
      return "operand: " + why;
  }
  why = whyLayoutUnsupported(resultType, /*tiling=*/true);
  if (!why.empty())
    return "result: " + why;
  return "";
}

/// The named linalg op with the op's XLA semantics on this element type, or
/// null. Integer divide (x / 0 = -1), i1 add/multiply (or/and) and i1
/// max/min (unsigned) differ from the named ops' arith bodies.
static Operation *createNamedOp(OpBuilder &b, Location loc, Operation *op,
                                Value lhs, Value rhs, Value init) {
  Type t = getElementTypeOrSelf(lhs.getType());
  // Named ops only for one element type that LLVM computes on: mixed
  // precision, s*/u* integers and 8-bit floats take the generic body.
  if (getElementTypeOrSelf(rhs.getType()) != t ||
      getElementTypeOrSelf(init.getType()) != t || isComputedInF32(t))
    return nullptr;
  bool isFloat = isa<FloatType>(t);
  bool isInt = t.isSignlessInteger() && !t.isInteger(1);
  if (!isFloat && !isInt)
    return nullptr;
  Type initType = init.getType();
  TypeRange types(initType);
  SmallVector<Value, 2> inputs = {lhs, rhs};
  ValueRange ins(inputs), outs(init);
  return llvm::TypeSwitch<Operation *, Operation *>(op)
      .Case([&](AddOp) {
        return linalg::AddOp::create(b, loc, types, ins, outs);
      })
      .Case([&](SubtractOp) {
        return linalg::SubOp::create(b, loc, types, ins, outs);
      })
      .Case([&](MultiplyOp) {
        return linalg::MulOp::create(b, loc, types, ins, outs);
      })
      .Case([&](DivideOp) -> Operation * {
        if (!isFloat)
          return nullptr;
        return linalg::DivOp::create(b, loc, types, ins, outs);
      })
      .Case([&](MaximumOp) {
        return linalg::MaxOp::create(b, loc, types, ins, outs);
      })
      .Case([&](MinimumOp) {
        return linalg::MinOp::create(b, loc, types, ins, outs);
      })
      .Case([&](PowerOp) -> Operation * {
        if (!isFloat)
          return nullptr;
        return linalg::PowFOp::create(b, loc, types, ins, outs);
      })
      .Default([](Operation *) { return nullptr; });
}

namespace {
struct ConvertBinaryOp : RewritePattern {
  ConvertBinaryOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isBinaryOp(op))
      return failure();
    std::string why = whyBinaryOpUnsupported(op);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Value lhs = toRowMajor(rewriter, loc, op->getOperand(0));
    Value rhs = toRowMajor(rewriter, loc, op->getOperand(1));
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, lhs),
        resultType.getElementType());
    Operation *named = createNamedOp(rewriter, loc, op, lhs, rhs, init);
    Value result;
    if (named) {
      result = named->getResult(0);
    } else {
      int64_t rank = resultType.getRank();
      AffineMap id = rewriter.getMultiDimIdentityMap(rank);
      SmallVector<utils::IteratorType> iterators(rank,
                                                 utils::IteratorType::parallel);
      result =
          linalg::GenericOp::create(
              rewriter, loc, TypeRange(init.getType()), ValueRange{lhs, rhs},
              ValueRange{init}, ArrayRef<AffineMap>{id, id, id}, iterators,
              [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
                // Floats of different precision: both in the compute type.
                Type compute = getBinaryOpComputeType(args[0].getType(),
                                                      args[1].getType());
                Value element = emitBinaryElement(
                    b, bodyLoc, op, castElement(b, bodyLoc, args[0], compute),
                    castElement(b, bodyLoc, args[1], compute));
                linalg::YieldOp::create(b, bodyLoc, element);
              })
              ->getResult(0);
    }
    rewriter.replaceOp(op, fromRowMajor(rewriter, loc, result, resultType));
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::string mlir::layout::whyNotConvertibleToLinalg(Operation *op) {
  if (auto relayout = dyn_cast<RelayoutOp>(op))
    return whyRelayoutUnsupported(relayout);
  if (auto broadcast = dyn_cast<BroadcastInDimOp>(op))
    return whyBroadcastUnsupported(broadcast);
  if (isBinaryOp(op))
    return whyBinaryOpUnsupported(op);
  return "not a layout relayout, broadcast_in_dim or binary op";
}

void mlir::layout::populateLayoutToLinalgPatterns(RewritePatternSet &patterns) {
  populateLayoutExpandBroadcastsPatterns(patterns);
  patterns.add<ConvertRelayout, ConvertBroadcastInDim, ConvertBinaryOp>(
      patterns.getContext());
}

namespace {
struct ConvertLayoutToLinalgPass
    : layout::impl::ConvertLayoutToLinalgBase<ConvertLayoutToLinalgPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();
    // 0. Fusions (--layout-fuse) become the op-by-op form: upstream's
    //    elementwise fusion (linalg-generalize-named-ops, then
    //    linalg-fuse-elementwise-ops) fuses the resulting linalg ops again.
    {
      SmallVector<FusionOp> fusions;
      root->walk([&](FusionOp fusion) { fusions.push_back(fusion); });
      IRRewriter rewriter(context);
      for (FusionOp fusion : fusions) {
        rewriter.setInsertionPoint(fusion);
        fusion.unfuse(rewriter);
      }
    }
    // 1. Explicit broadcasting: binary ops on equal shapes.
    {
      RewritePatternSet patterns(context);
      populateLayoutExpandBroadcastsPatterns(patterns);
      walkAndApplyPatterns(root, std::move(patterns));
    }
    // 2. Everything must be convertible; report each op that is not.
    bool ok = true;
    root->walk([&](Operation *op) {
      if (auto relayout = dyn_cast<RelayoutOp>(op);
          relayout && !relayout.getResult())
        return; // memref relayouts are left for the loop lowerings
      if (!isa<RelayoutOp, BroadcastInDimOp>(op) && !isBinaryOp(op))
        return;
      std::string why = whyNotConvertibleToLinalg(op);
      if (why.empty())
        return;
      op->emitOpError() << "cannot be converted to linalg: " << why;
      ok = false;
    });
    if (!ok)
      return signalPassFailure();
    // 3. Convert.
    RewritePatternSet patterns(context);
    patterns.add<ConvertRelayout, ConvertBroadcastInDim, ConvertBinaryOp>(
        context);
    walkAndApplyPatterns(root, std::move(patterns));
  }
};
} // namespace
