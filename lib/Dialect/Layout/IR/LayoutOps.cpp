//===- LayoutOps.cpp - layout dialect operations --------------------------===//
//
// `layout.to_physical` / `layout.from_physical`: one shared verifier whose
// checks are labelled with the constraints of LayoutOps.td (C1..C6);
// `layout.relayout`: verifier (C1..C6), folder and canonicalization patterns;
// the padding value helpers.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::layout;

/// Verifies a view between `logical` (a #layout.tiled memref, or a tensor
/// with a #layout.tiled encoding) and `physical` (its identity-layout buffer,
/// or the tensor of that buffer).
static LogicalResult verifyPhysicalView(Operation *op, Type logicalType,
                                        Type physicalType,
                                        StringRef logicalRole,
                                        StringRef physicalRole) {
  auto emitError = [&] { return op->emitOpError(); };
  // C6: both tensors or both memrefs.
  if (isa<RankedTensorType>(logicalType) != isa<RankedTensorType>(physicalType))
    return op->emitOpError()
           << "(C6) expects both sides to be ranked tensors or both memrefs, "
              "got "
           << logicalType << " and " << physicalType;
  if (auto logical = dyn_cast<RankedTensorType>(logicalType)) {
    auto physical = cast<RankedTensorType>(physicalType);
    // C1: a tiled encoding, valid for the logical shape.
    auto attr = dyn_cast_or_null<TiledLayoutAttr>(logical.getEncoding());
    if (!attr)
      return op->emitOpError()
             << "(C1) expects the " << logicalRole
             << " to have a #layout.tiled encoding, got " << logical;
    FailureOr<TiledLayoutMap> map = attr.getTiledLayoutMap(
        logical.getShape(), logical.getElementType(), emitError);
    if (failed(map))
      return failure();
    // C5: the physical tensor has no encoding.
    if (physical.getEncoding())
      return op->emitOpError() << "(C5) expects the " << physicalRole
                               << " to have no encoding, got " << physical;
    // C3: element type.
    if (physical.getElementType() != logical.getElementType())
      return op->emitOpError()
             << "(C3) element type mismatch: " << logicalRole << " has "
             << logical.getElementType() << " but " << physicalRole << " has "
             << physical.getElementType();
    // C2: the physical dims.
    auto expected =
        RankedTensorType::get(map->getPhysicalDims(), logical.getElementType());
    if (physical != expected)
      return op->emitOpError()
             << "(C2) expects the " << physicalRole << " type " << expected
             << " (the physical dims of " << attr << "), got " << physical;
    return success();
  }
  auto logical = dyn_cast<MemRefType>(logicalType);
  auto physical = dyn_cast<MemRefType>(physicalType);
  if (!logical || !physical)
    return op->emitOpError() << "expects ranked memrefs, got " << logicalType
                             << " and " << physicalType;
  // C1: a tiled layout, valid for the logical shape.
  auto attr = dyn_cast<TiledLayoutAttr>(logical.getLayout());
  if (!attr)
    return op->emitOpError()
           << "(C1) expects the " << logicalRole
           << " to have a #layout.tiled layout, got " << logical;
  FailureOr<MemRefType> expected =
      attr.getPhysicalMemRefType(logical, emitError);
  if (failed(expected))
    return failure();
  // C5: the physical buffer is plain row-major.
  if (!physical.getLayout().isIdentity())
    return op->emitOpError()
           << "(C5) expects the " << physicalRole
           << " to have the identity layout, got " << physical;
  // C3: element type.
  if (physical.getElementType() != logical.getElementType())
    return op->emitOpError()
           << "(C3) element type mismatch: " << logicalRole << " has "
           << logical.getElementType() << " but " << physicalRole << " has "
           << physical.getElementType();
  // C4: memory spaces agree with each other and with S(n).
  if (physical.getMemorySpace() != logical.getMemorySpace())
    return op->emitOpError()
           << "(C4) memory space mismatch: " << logical << " vs " << physical;
  if (failed(verifyTiledMemRefType(
          logical, [&] { return op->emitOpError() << "(C4) "; })))
    return failure();
  // C2: the physical dims.
  if (physical.getShape() != expected->getShape())
    return op->emitOpError()
           << "(C2) expects the " << physicalRole << " type " << *expected
           << " (the physical dims of " << attr << "), got " << physical;
  return success();
}

//===----------------------------------------------------------------------===//
// ToPhysicalOp
//===----------------------------------------------------------------------===//

LogicalResult ToPhysicalOp::verify() {
  return verifyPhysicalView(*this, getSource().getType(), getType(), "source",
                            "result");
}

OpFoldResult ToPhysicalOp::fold(FoldAdaptor) {
  // to_physical(from_physical(x)) -> x
  if (auto from = getSource().getDefiningOp<FromPhysicalOp>())
    if (from.getSource().getType() == getType())
      return from.getSource();
  return {};
}

Value ToPhysicalOp::getViewSource() { return getSource(); }

//===----------------------------------------------------------------------===//
// FromPhysicalOp
//===----------------------------------------------------------------------===//

LogicalResult FromPhysicalOp::verify() {
  return verifyPhysicalView(*this, getType(), getSource().getType(), "result",
                            "source");
}

OpFoldResult FromPhysicalOp::fold(FoldAdaptor) {
  // from_physical(to_physical(x)) -> x
  if (auto to = getSource().getDefiningOp<ToPhysicalOp>())
    if (to.getSource().getType() == getType())
      return to.getSource();
  return {};
}

Value FromPhysicalOp::getViewSource() { return getSource(); }

//===----------------------------------------------------------------------===//
// BitcastBufferOp
//===----------------------------------------------------------------------===//

LogicalResult BitcastBufferOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto result = cast<MemRefType>(getType());
  std::optional<int64_t> bits[2];
  MemRefType types[2] = {source, result};
  for (auto [i, type] : llvm::enumerate(types)) {
    StringRef role = i == 0 ? "source" : "result";
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return emitOpError() << "(C1) expects the " << role
                           << " to have a static shape and the identity "
                              "layout, got "
                           << type;
    Type element = type.getElementType();
    if (!isa<IntegerType, FloatType>(element) ||
        element.getIntOrFloatBitWidth() % 8 != 0)
      return emitOpError() << "(C2) expects the " << role
                           << "'s element type to be an integer or float "
                              "of whole bytes, got "
                           << element;
    bits[i] = element.getIntOrFloatBitWidth();
    for (int64_t d : type.getShape())
      bits[i] = bits[i] ? llvm::checkedMul(*bits[i], d) : std::nullopt;
    if (!bits[i])
      return emitOpError() << "(C3) the " << role << " " << type
                           << " has more than 2^63 bits";
  }
  if (*bits[0] != *bits[1])
    return emitOpError() << "(C3) expects as many bits in the result as in "
                            "the source, got "
                         << *bits[1] << " and " << *bits[0];
  if (source.getMemorySpace() != result.getMemorySpace())
    return emitOpError() << "(C4) expects the same memory space, got " << source
                         << " and " << result;
  return success();
}

Value BitcastBufferOp::getViewSource() { return getSource(); }

//===----------------------------------------------------------------------===//
// Padding values and layout helpers
//===----------------------------------------------------------------------===//

TypedAttr mlir::layout::getPaddingValueAttr(Type elementType,
                                            PaddingValue value) {
  if (auto floatType = dyn_cast<FloatType>(elementType)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (value) {
    case PaddingValue::One:
      return FloatAttr::get(floatType, llvm::APFloat::getOne(sem));
    case PaddingValue::Lowest:
      // Unsigned formats (f8E8M0FNU): the smallest positive value.
      if (!llvm::APFloat::semanticsHasSignedRepr(sem))
        return FloatAttr::get(floatType,
                              llvm::APFloat::getSmallestNormalized(sem));
      return FloatAttr::get(floatType,
                            llvm::APFloat::getLargest(sem, /*Negative=*/true));
    case PaddingValue::Highest:
      return FloatAttr::get(floatType, llvm::APFloat::getLargest(sem));
    default: {
      // Formats without a zero (f8E8M0FNU) get their smallest value.
      if (!llvm::APFloat::semanticsHasZero(sem))
        return FloatAttr::get(floatType,
                              llvm::APFloat::getSmallestNormalized(sem));
      return FloatAttr::get(floatType, llvm::APFloat::getZero(sem));
    }
    }
  }
  if (isa<IndexType>(elementType)) {
    switch (value) {
    case PaddingValue::One:
      return IntegerAttr::get(elementType, 1);
    case PaddingValue::Lowest:
      return IntegerAttr::get(elementType, std::numeric_limits<int64_t>::min());
    case PaddingValue::Highest:
      return IntegerAttr::get(elementType, std::numeric_limits<int64_t>::max());
    default:
      return IntegerAttr::get(elementType, 0);
    }
  }
  if (auto intType = dyn_cast<IntegerType>(elementType)) {
    unsigned width = intType.getWidth();
    // Signless i1 is XLA's pred (false < true); `ui` are unsigned; other
    // signless and `si` integers are XLA's signed sN.
    bool isUnsigned =
        intType.isUnsigned() || (intType.isSignless() && width == 1);
    llvm::APInt bits(width, 0);
    switch (value) {
    case PaddingValue::One:
      bits = llvm::APInt(width, 1);
      break;
    case PaddingValue::Lowest:
      bits = isUnsigned ? llvm::APInt::getMinValue(width)
                        : llvm::APInt::getSignedMinValue(width);
      break;
    case PaddingValue::Highest:
      bits = isUnsigned ? llvm::APInt::getMaxValue(width)
                        : llvm::APInt::getSignedMaxValue(width);
      break;
    default:
      break;
    }
    return IntegerAttr::get(intType, bits);
  }
  return {};
}

TiledLayoutAttr mlir::layout::getTiledLayout(Type shapedType) {
  if (auto tensor = dyn_cast<RankedTensorType>(shapedType))
    return dyn_cast_or_null<TiledLayoutAttr>(tensor.getEncoding());
  if (auto memref = dyn_cast<MemRefType>(shapedType))
    return dyn_cast<TiledLayoutAttr>(memref.getLayout());
  return {};
}

Value mlir::layout::createEquivalentLayoutView(OpBuilder &builder, Location loc,
                                               Value source, Type type) {
  auto shaped = cast<ShapedType>(type);
  TiledLayoutAttr attr = getTiledLayout(type);
  auto emitError = [&] { return mlir::emitError(loc); };
  FailureOr<TiledLayoutMap> map = attr.getTiledLayoutMap(
      shaped.getShape(), shaped.getElementType(), emitError);
  if (failed(map))
    return {};
  Type physical;
  if (isa<RankedTensorType>(type))
    physical =
        RankedTensorType::get(map->getPhysicalDims(), shaped.getElementType());
  else
    physical = MemRefType::get(map->getPhysicalDims(), shaped.getElementType(),
                               MemRefLayoutAttrInterface(),
                               cast<MemRefType>(type).getMemorySpace());
  Value buffer = ToPhysicalOp::create(builder, loc, physical, source);
  return FromPhysicalOp::create(builder, loc, type, buffer);
}

PaddingValue mlir::layout::getPaddingValue(Type shapedType) {
  if (TiledLayoutAttr attr = getTiledLayout(shapedType))
    return attr.getLayout().getPaddingValue();
  return PaddingValue::Invalid;
}

//===----------------------------------------------------------------------===//
// RelayoutOp
//===----------------------------------------------------------------------===//

void RelayoutOp::build(OpBuilder &builder, OperationState &state, Value source,
                       Value destination) {
  Type resultType = isa<RankedTensorType>(destination.getType())
                        ? destination.getType()
                        : Type();
  build(builder, state, resultType, source, destination);
}

/// C5/C6 for one side: the layout is the default or a valid #layout.tiled.
static LogicalResult verifyRelayoutSide(RelayoutOp op, Type type,
                                        StringRef role) {
  auto emitC5 = [&] { return op.emitOpError() << "(C5) "; };
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    Attribute encoding = tensor.getEncoding();
    if (!encoding)
      return success();
    auto attr = dyn_cast<TiledLayoutAttr>(encoding);
    if (!attr)
      return op.emitOpError()
             << "(C5) expects the " << role
             << " to have no encoding or a #layout.tiled encoding, got "
             << tensor;
    return attr.getTiledLayoutMap(tensor.getShape(), tensor.getElementType(),
                                  emitC5);
  }
  auto memref = cast<MemRefType>(type);
  auto attr = dyn_cast<TiledLayoutAttr>(memref.getLayout());
  if (!attr) {
    // Identity and strided layouts (e.g. bufferized function arguments with
    // fully dynamic layouts) address logical elements directly.
    if (!memref.getLayout().isIdentity() &&
        !isa<StridedLayoutAttr>(memref.getLayout()) && !memref.isStrided())
      return op.emitOpError()
             << "(C5) expects the " << role
             << " to have a strided (e.g. identity) layout or a "
                "#layout.tiled layout, got "
             << memref;
    return success();
  }
  if (failed(attr.getTiledLayoutMap(memref.getShape(), memref.getElementType(),
                                    emitC5)))
    return failure();
  return verifyTiledMemRefType(memref,
                               [&] { return op.emitOpError() << "(C6) "; });
}

LogicalResult RelayoutOp::verify() {
  Type sourceType = getSource().getType();
  Type destType = getDestination().getType();
  // C1: both tensors or both memrefs.
  bool sourceIsTensor = isa<RankedTensorType>(sourceType);
  if (sourceIsTensor != isa<RankedTensorType>(destType))
    return emitOpError() << "(C1) expects source and destination to be both "
                            "ranked tensors or both memrefs, got "
                         << sourceType << " and " << destType;
  auto source = cast<ShapedType>(sourceType);
  auto dest = cast<ShapedType>(destType);
  // C2: element type.
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "(C2) element type mismatch: source has "
                         << source.getElementType() << " but destination has "
                         << dest.getElementType();
  // C3: shape (a dynamic dim is dynamic on both sides).
  if (source.getShape() != dest.getShape())
    return emitOpError() << "(C3) shape mismatch: source is " << sourceType
                         << " but destination is " << destType;
  // C4: the result (also checked by DestinationStyleOpInterface).
  if (sourceIsTensor) {
    if (!getResult() || getResult().getType() != destType)
      return emitOpError()
             << "(C4) expects one result of the destination's type "
             << destType;
  } else if (getResult()) {
    return emitOpError() << "(C4) expects no result on memrefs";
  }
  // C5, C6: each layout.
  if (failed(verifyRelayoutSide(*this, sourceType, "source")) ||
      failed(verifyRelayoutSide(*this, destType, "destination")))
    return failure();
  return success();
}

bool RelayoutOp::hasSameLayouts() {
  Type sourceType = getSource().getType();
  Type destType = getDestination().getType();
  // Equivalent, not identical: a `*` layout with and without its dims is
  // the same layout.
  if (auto source = dyn_cast<RankedTensorType>(sourceType))
    return areEquivalentLayouts(source.getEncoding(),
                                cast<RankedTensorType>(destType).getEncoding());
  auto source = cast<MemRefType>(sourceType);
  auto dest = cast<MemRefType>(destType);
  return areEquivalentLayouts(source.getLayout(), dest.getLayout());
}

bool RelayoutOp::isPlainCopy() {
  if (!hasSameLayouts())
    return false;
  auto type = cast<ShapedType>(getDestination().getType());
  Attribute layout;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    layout = tensor.getEncoding();
  else
    layout = cast<MemRefType>(type).getLayout();
  auto tiled = dyn_cast_if_present<TiledLayoutAttr>(layout);
  if (!tiled)
    return true; // Row-major or strided: no padding slots.
  // The element type does not change which slots are padding.
  llvm::Expected<TiledLayoutMap> map = TiledLayoutMap::get(
      Shape::makeArray(PrimitiveType::F32, type.getShape(), tiled.getLayout()),
      /*allowDynamic=*/true);
  if (!map) {
    // Unverified op: not provably a copy.
    llvm::consumeError(map.takeError());
    return false;
  }
  return !map->mayHavePaddingSlots();
}

void RelayoutOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Tensors: pure. Memrefs: reads the source, writes the destination.
  if (!isa<MemRefType>(getSource().getType()))
    return;
  effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getDestinationMutable(),
                       SideEffects::DefaultResource::get());
}

LogicalResult RelayoutOp::fold(FoldAdaptor,
                               SmallVectorImpl<OpFoldResult> &results) {
  // A relayout between equal tensor types is its source, unless it writes
  // padding slots the source may hold other values in.
  if (!getResult() || getSource().getType() != getResult().getType() ||
      !isPlainCopy())
    return failure();
  results.push_back(getSource());
  return success();
}

namespace {
/// memref: relayout between equal layouts without padding slots ->
/// memref.copy (a padded layout's padding is written, not copied).
struct RelayoutToCopy : OpRewritePattern<RelayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getSource().getType()) || !op.isPlainCopy())
      return failure();
    // The memref dialect is loaded with the layout dialect (dependent
    // dialect); stay safe if a context was built otherwise.
    if (!op->getContext()->getLoadedDialect<memref::MemRefDialect>())
      return failure();
    rewriter.replaceOpWithNewOp<memref::CopyOp>(op, op.getSource(),
                                                op.getDestination());
    return success();
  }
};

/// tensor: relayout between equivalent layouts without padding slots (a `*`
/// layout with and without its dims) -> a view of the same buffer.
struct RelayoutToView : OpRewritePattern<RelayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getResult() ||
        op.getSource().getType() == op.getResult().getType() ||
        !op.isPlainCopy() || !getTiledLayout(op.getSource().getType()))
      return failure();
    Value view = createEquivalentLayoutView(
        rewriter, op.getLoc(), op.getSource(), op.getResult().getType());
    if (!view)
      return failure();
    rewriter.replaceOp(op, view);
    return success();
  }
};

/// tensor: relayout(relayout(x, d1), d2) -> relayout(x, d2) when the
/// intermediate relayout has no other use.
struct ComposeRelayouts : OpRewritePattern<RelayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RelayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getSource().getDefiningOp<RelayoutOp>();
    if (!producer || !producer.getResult() || !producer->hasOneUse())
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getSourceMutable().assign(producer.getSource()); });
    rewriter.eraseOp(producer);
    return success();
  }
};
} // namespace

void RelayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<RelayoutToCopy, RelayoutToView, ComposeRelayouts>(context);
}

#define GET_OP_CLASSES
#include "layout/Dialect/Layout/IR/LayoutOps.cpp.inc"
