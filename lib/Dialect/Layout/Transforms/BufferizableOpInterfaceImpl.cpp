//===- BufferizableOpInterfaceImpl.cpp - One-Shot Bufferize models --------===//
//
// `layout.relayout` is destination-passing: it reads its source, fully
// overwrites its destination (padding slots included) and its result is the
// destination's buffer. `layout.to_physical` / `layout.from_physical` on
// tensors are views: the result is the operand's buffer seen through the
// other type, with no read, no write and no copy.
//
// broadcast_in_dim and the binary ops read their operands and write a new
// buffer: no aliasing, the result is a fresh allocation (of the result
// encoding's layout) filled by the dialect's loop emitters (affine loops for
// static shapes, scf loops otherwise). Unlike --convert-layout-to-affine,
// nothing is fused here: each op is bufferized on its own.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Transforms/BufferizableOpInterfaceImpl.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::layout;

MemRefType mlir::layout::getTiledBufferType(TensorType tensorType) {
  auto ranked = dyn_cast<RankedTensorType>(tensorType);
  if (!ranked || !isa_and_present<TiledLayoutAttr>(ranked.getEncoding()))
    return {};
  return getBufferType(ranked);
}

void mlir::layout::addTiledEncodingTypeConversion(
    OneShotBufferizationOptions &options) {
  BufferizationOptions::FunctionArgTypeConverterFn previousArgFn =
      options.functionArgTypeConverterFn;
  options.functionArgTypeConverterFn =
      [previousArgFn](TensorLikeType type, Attribute memorySpace,
                      func::FuncOp funcOp,
                      const BufferizationOptions &opts) -> BufferLikeType {
    if (auto tensor = dyn_cast<TensorType>(type))
      if (MemRefType tiled = getTiledBufferType(tensor))
        return cast<BufferLikeType>(tiled);
    if (previousArgFn)
      return previousArgFn(type, memorySpace, funcOp, opts);
    // Upstream's default for builtin tensors.
    return cast<BufferLikeType>(getMemRefTypeWithFullyDynamicLayout(
        cast<TensorType>(type), memorySpace));
  };
  BufferizationOptions::UnknownTypeConverterFn previousUnknownFn =
      options.unknownTypeConverterFn;
  options.unknownTypeConverterFn =
      [previousUnknownFn](TensorType tensor, Attribute memorySpace,
                          const BufferizationOptions &opts) -> BaseMemRefType {
    if (MemRefType tiled = getTiledBufferType(tensor))
      return tiled;
    if (previousUnknownFn)
      return previousUnknownFn(tensor, memorySpace, opts);
    return getMemRefTypeWithFullyDynamicLayout(tensor, memorySpace);
  };
  BufferizationOptions::DefaultMemorySpaceFn previousSpaceFn =
      options.defaultMemorySpaceFn;
  options.defaultMemorySpaceFn =
      [previousSpaceFn](TensorType tensor) -> std::optional<Attribute> {
    if (MemRefType tiled = getTiledBufferType(tensor))
      return tiled.getMemorySpace();
    if (previousSpaceFn)
      return previousSpaceFn(tensor);
    return Attribute();
  };
}

namespace {

/// The buffer type of a view's result: `resultTensorType`'s memref with the
/// source buffer's memory space; the logical side gets the #layout.tiled
/// layout.
static FailureOr<BufferLikeType>
getViewBufferType(Operation *op, Value source, TensorType resultTensorType,
                  const BufferizationOptions &options,
                  const BufferizationState &state,
                  SmallVector<Value> &invocationStack) {
  FailureOr<BaseMemRefType> sourceType = bufferization::detail::asMemRefType(
      bufferization::getBufferType(source, options, state, invocationStack));
  if (failed(sourceType))
    return failure();
  Attribute memorySpace = sourceType->getMemorySpace();
  auto ranked = cast<RankedTensorType>(resultTensorType);
  if (auto attr = dyn_cast_or_null<TiledLayoutAttr>(ranked.getEncoding()))
    return cast<BufferLikeType>(MemRefType::get(
        ranked.getShape(), ranked.getElementType(), attr, memorySpace));
  return cast<BufferLikeType>(
      MemRefType::get(ranked.getShape(), ranked.getElementType(),
                      MemRefLayoutAttrInterface(), memorySpace));
}

/// Shared model of the two view ops (tensor forms).
template <typename OpTy>
struct PhysicalViewOpInterface : public BufferizableOpInterface::ExternalModel<
                                     PhysicalViewOpInterface<OpTy>, OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return false;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &,
                                      const AnalysisState &) const {
    return {{op->getResult(0), BufferRelation::Equivalent}};
  }
  FailureOr<BufferLikeType>
  getBufferType(Operation *op, Value value, const BufferizationOptions &options,
                const BufferizationState &state,
                SmallVector<Value> &invocationStack) const {
    auto viewOp = cast<OpTy>(op);
    return getViewBufferType(op, viewOp.getSource(),
                             cast<TensorType>(value.getType()), options, state,
                             invocationStack);
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto viewOp = cast<OpTy>(op);
    FailureOr<Value> source =
        getBuffer(rewriter, viewOp.getSource(), options, state);
    if (failed(source))
      return failure();
    // The source buffer must carry the layout the view needs: a tiled memref
    // (to_physical) or an identity-layout one (from_physical).
    auto sourceType = cast<MemRefType>(source->getType());
    auto resultTensor = cast<RankedTensorType>(viewOp.getType());
    Type resultType;
    if (auto attr =
            dyn_cast_or_null<TiledLayoutAttr>(resultTensor.getEncoding())) {
      if (!sourceType.getLayout().isIdentity())
        return op->emitOpError()
               << "needs an identity-layout source buffer, got " << sourceType;
      resultType = MemRefType::get(resultTensor.getShape(),
                                   resultTensor.getElementType(), attr,
                                   sourceType.getMemorySpace());
    } else {
      if (!isa<TiledLayoutAttr>(sourceType.getLayout()))
        return op->emitOpError()
               << "needs a #layout.tiled source buffer, got " << sourceType
               << " (bufferize with --layout-bufferize, which maps "
                  "#layout.tiled encodings to memref layouts)";
      resultType = MemRefType::get(
          resultTensor.getShape(), resultTensor.getElementType(),
          MemRefLayoutAttrInterface(), sourceType.getMemorySpace());
    }
    Value view = OpTy::create(rewriter, op->getLoc(), resultType, *source);
    replaceOpWithBufferizedValues(rewriter, op, view);
    return success();
  }
};

/// layout.relayout: upstream's DPS model, except that the destination is not
/// read (every slot, padding included, is overwritten).
struct RelayoutOpInterface
    : public DstBufferizableOpInterfaceExternalModel<RelayoutOpInterface,
                                                     RelayoutOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&opOperand);
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto relayout = cast<RelayoutOp>(op);
    if (!relayout.getResult())
      return success(); // Already on memrefs.
    FailureOr<Value> source =
        getBuffer(rewriter, relayout.getSource(), options, state);
    if (failed(source))
      return failure();
    FailureOr<Value> dest =
        getBuffer(rewriter, relayout.getDestination(), options, state);
    if (failed(dest))
      return failure();
    // Plain -one-shot-bufferize drops the encodings (identity layouts):
    // a relayout between the wrong buffers would silently be a plain copy.
    for (auto [tensor, buffer] :
         {std::make_pair(relayout.getSource(), *source),
          std::make_pair(relayout.getDestination(), *dest)}) {
      TiledLayoutAttr expected = getTiledLayout(tensor.getType());
      TiledLayoutAttr actual = getTiledLayout(buffer.getType());
      if (!areEquivalentLayouts(expected, actual))
        return op->emitOpError()
               << "operand " << tensor.getType() << " bufferized to "
               << buffer.getType()
               << ", which does not carry its layout (bufferize with "
                  "--layout-bufferize, which maps #layout.tiled encodings to "
                  "memref layouts)";
    }
    RelayoutOp::create(rewriter, op->getLoc(), *source, *dest);
    replaceOpWithBufferizedValues(rewriter, op, *dest);
    return success();
  }
};

template <typename OpTy>
struct BroadcastingOpModel
    : public BufferizableOpInterface::ExternalModel<BroadcastingOpModel<OpTy>,
                                                    OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }

  FailureOr<BufferLikeType> getBufferType(Operation *op, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    MemRefType type =
        mlir::layout::getBufferType(cast<RankedTensorType>(value.getType()));
    if (!type)
      return op->emitOpError() << "unsupported result encoding";
    return cast<BufferLikeType>(type);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    LoopKind kind = resultType.hasStaticShape() &&
                            llvm::all_of(op->getOperandTypes(),
                                         [](Type t) {
                                           auto s = dyn_cast<ShapedType>(t);
                                           return !s || s.hasStaticShape();
                                         })
                        ? LoopKind::Affine
                        : LoopKind::SCF;
    if (failed(checkLowerable(op, kind)))
      return failure();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    unsigned numSources = isa<BroadcastInDimOp>(op) ? 1 : 2;
    SmallVector<BroadcastingOpOperand> operands;
    for (unsigned k = 0; k < numSources; ++k) {
      FailureOr<Value> buffer =
          getBuffer(rewriter, op->getOperand(k), options, state);
      if (failed(buffer))
        return failure();
      operands.push_back({*buffer, op->getOperand(k), nullptr});
    }
    FailureOr<Value> alloc = emitBroadcastingOpIntoNewBuffer(
        rewriter, op, kind, operands, LoopEmitOptions::scalarLoops());
    if (failed(alloc))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, *alloc);
    return success();
  }
};

template <typename... OpTys> void attachBroadcastingOpModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<BroadcastingOpModel<OpTys>>(*ctx), ...);
}

} // namespace

void mlir::layout::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, LayoutDialect *) {
    RelayoutOp::attachInterface<RelayoutOpInterface>(*ctx);
    ToPhysicalOp::attachInterface<PhysicalViewOpInterface<ToPhysicalOp>>(*ctx);
    FromPhysicalOp::attachInterface<PhysicalViewOpInterface<FromPhysicalOp>>(
        *ctx);
    // bufferize() of the broadcasting ops emits loops: load what they are
    // made of now, while the context may still load dialects (as upstream's
    // tensor models do).
    loadLoopEmitterDialects(*ctx);
    attachBroadcastingOpModels<
        BroadcastInDimOp, AddOp, SubtractOp, MultiplyOp, DivideOp, RemainderOp,
        MaximumOp, MinimumOp, PowerOp, Atan2Op, AndOp, OrOp, XorOp, ShiftLeftOp,
        ShiftRightArithmeticOp, ShiftRightLogicalOp, CompareOp>(ctx);
  });
}
