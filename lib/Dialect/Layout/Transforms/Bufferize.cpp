//===- Bufferize.cpp - One-Shot Bufferize with #layout.tiled layouts ------===//
//
// --layout-bufferize: upstream One-Shot Module Bufferize, with the options
// that map #layout.tiled tensor encodings to memref layouts, and allocations
// of tiled tensors rewritten into physical allocations viewed through
// layout.from_physical (upstream allocations always get the identity layout).
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/BufferizableOpInterfaceImpl.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/PhysicalSizes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTBUFFERIZE
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;
using bufferization::LayoutMapOption;

static std::optional<LayoutMapOption> parseLayoutMapOption(StringRef s) {
  if (s == "identity-layout-map")
    return LayoutMapOption::IdentityLayoutMap;
  if (s == "fully-dynamic-layout-map")
    return LayoutMapOption::FullyDynamicLayoutMap;
  if (s == "infer-layout-map")
    return LayoutMapOption::InferLayoutMap;
  return std::nullopt;
}

/// Rewrites one allocation of a tiled tensor (tensor.empty or
/// bufferization.alloc_tensor, `copy` optional) into an allocation of its
/// physical tensor in memory space S(n), viewed through from_physical.
static LogicalResult rewriteTiledAllocation(RewriterBase &rewriter,
                                            Operation *op,
                                            RankedTensorType type,
                                            ValueRange dynamicSizes,
                                            Value copy) {
  auto attr = cast<TiledLayoutAttr>(type.getEncoding());
  FailureOr<TiledLayoutMap> map = attr.getTiledLayoutMap(
      type.getShape(), type.getElementType(), [&] { return op->emitError(); });
  if (failed(map))
    return failure();
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  if (!type.hasStaticShape()) {
    // A dynamic tiled memref must keep its logical sizes (a view of the
    // physical allocation would round them up to whole tiles): allocate the
    // tiled memref itself, which --layout-normalize-memrefs turns into the
    // physical allocation (docs/lowering.md, "Dynamic tiled memrefs at
    // function boundaries"). A copy takes the sizes of its source and
    // copies the physical buffer (padding included).
    MemRefType bufferType = getBufferType(type);
    if (!bufferType)
      return op->emitError() << "unsupported tensor encoding of " << type;
    SmallVector<Value> sizes(dynamicSizes);
    if (copy) {
      sizes.clear();
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          sizes.push_back(tensor::DimOp::create(rewriter, loc, copy, d));
    }
    Value buffer = memref::AllocOp::create(rewriter, loc, bufferType, sizes);
    if (copy) {
      Value source = bufferization::ToBufferOp::create(
          rewriter, loc, bufferType, copy, /*readOnly=*/true);
      memref::CopyOp::create(rewriter, loc, source, buffer);
    }
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
        op, type, buffer, /*restrict=*/true, /*writable=*/true);
    return success();
  }
  auto physicalType =
      RankedTensorType::get(map->getPhysicalDims(), type.getElementType());
  int64_t space = attr.getLayout().getMemorySpace();
  IntegerAttr memorySpace =
      space == 0 ? IntegerAttr() : rewriter.getI64IntegerAttr(space);
  Value physicalCopy;
  SmallVector<Value> physicalSizes;
  if (copy)
    physicalCopy = ToPhysicalOp::create(rewriter, loc, physicalType, copy);
  else
    physicalSizes =
        getPhysicalDynamicSizes(rewriter, loc, attr, type.getShape(),
                                map->getPhysicalDims(), dynamicSizes);
  auto alloc = bufferization::AllocTensorOp::create(
      rewriter, loc, physicalType, physicalSizes, physicalCopy, memorySpace);
  rewriter.replaceOpWithNewOp<FromPhysicalOp>(op, type, alloc.getResult());
  return success();
}

static LogicalResult rewriteTiledAllocations(Operation *root) {
  SmallVector<Operation *> worklist;
  root->walk([&](Operation *op) {
    if (!isa<tensor::EmptyOp, bufferization::AllocTensorOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (type && isa_and_nonnull<TiledLayoutAttr>(type.getEncoding()))
      worklist.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *op : worklist) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    LogicalResult result = success();
    if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
      result = rewriteTiledAllocation(rewriter, op, type,
                                      empty.getDynamicSizes(), Value());
    } else {
      auto alloc = cast<bufferization::AllocTensorOp>(op);
      if (alloc.getSizeHint())
        return op->emitError("size_hint on a #layout.tiled alloc_tensor is "
                             "not supported");
      if (alloc.getMemorySpace())
        return op->emitError(
            "the memory space of a #layout.tiled alloc_tensor is its "
            "layout's S(n); remove the memory_space attribute");
      result = rewriteTiledAllocation(rewriter, op, type,
                                      alloc.getDynamicSizes(), alloc.getCopy());
    }
    if (failed(result))
      return failure();
  }
  return success();
}

/// The physical order (minor to major) of the dims of a layout that is a
/// permutation of row-major without tiles or padding (null: row-major),
/// without the dims of static size 1 (which do not move a byte), else
/// nullopt.
static std::optional<SmallVector<int64_t>>
permutationOrder(Attribute layout, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> order;
  if (!layout) {
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d)
      order.push_back(d);
  } else {
    auto tiled = dyn_cast<TiledLayoutAttr>(layout);
    if (!tiled || !tiled.getLayout().isUntiled())
      return std::nullopt;
    llvm::append_range(order, tiled.getLayout().getMinorToMajor());
  }
  llvm::erase_if(order, [&](int64_t d) {
    return d < 0 || d >= static_cast<int64_t>(shape.size()) || shape[d] == 1;
  });
  return order;
}

/// A `bufferization.materialize_in_destination` writes its tensor into the
/// buffer as it is laid out: a tensor whose `#layout.tiled` encoding (none:
/// row-major) is another layout than the buffer's would be copied slot by
/// slot into the wrong places (and fails late, in
/// --layout-normalize-memrefs, as a copy between two memref types). An
/// error here, at the op the user wrote, with the way out.
static LogicalResult checkMaterializeLayouts(ModuleOp module) {
  WalkResult result =
      module.walk([&](bufferization::MaterializeInDestinationOp op) {
        auto tensor = dyn_cast<RankedTensorType>(op.getSource().getType());
        auto memref = dyn_cast<MemRefType>(op.getDest().getType());
        if (!tensor || !memref)
          return WalkResult::advance();
        Attribute layout = memref.getLayout();
        if (memref.getLayout().isIdentity())
          layout = {};
        else if (!isa<TiledLayoutAttr>(layout))
          return WalkResult::advance(); // strided views: not ours to judge
        Attribute encoding = tensor.getEncoding();
        if (encoding && !isa<TiledLayoutAttr>(encoding))
          return WalkResult::advance();
        if (areEquivalentLayouts(encoding, layout))
          return WalkResult::advance();
        std::optional<SmallVector<int64_t>> a =
            permutationOrder(encoding, tensor.getShape());
        std::optional<SmallVector<int64_t>> b =
            permutationOrder(layout, memref.getShape());
        if (a && b && *a == *b)
          return WalkResult::advance(); // one layout, spelled two ways
        op.emitError() << "writes a tensor of type " << tensor
                       << " into a buffer of type " << memref
                       << ", whose layout differs: relayout the tensor into "
                          "the buffer's layout first (layout.relayout into a "
                          "tensor.empty of that type)";
        return WalkResult::interrupt();
      });
  return failure(result.wasInterrupted());
}

namespace {
struct LayoutBufferizePass
    : public mlir::layout::impl::LayoutBufferizeBase<LayoutBufferizePass> {
  using LayoutBufferizeBase::LayoutBufferizeBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    LayoutBufferizeBase::getDependentDialects(registry);
    registerBufferizableOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<LayoutMapOption> functionLayout =
        parseLayoutMapOption(functionBoundaryTypeConversion);
    std::optional<LayoutMapOption> unknownLayout =
        parseLayoutMapOption(unknownTypeConversion);
    if (!functionLayout) {
      module.emitError() << "invalid function-boundary-type-conversion '"
                         << functionBoundaryTypeConversion << "'";
      return signalPassFailure();
    }
    if (!unknownLayout || *unknownLayout == LayoutMapOption::InferLayoutMap) {
      module.emitError() << "invalid unknown-type-conversion '"
                         << unknownTypeConversion
                         << "' (identity-layout-map or "
                            "fully-dynamic-layout-map)";
      return signalPassFailure();
    }

    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.allowReturnAllocsFromLoops = allowReturnAllocsFromLoops;
    options.allowUnknownOps = allowUnknownOps;
    options.bufferAlignment = bufferAlignment;
    options.setFunctionBoundaryTypeConversion(*functionLayout);
    if (*unknownLayout == LayoutMapOption::IdentityLayoutMap)
      options.unknownTypeConverterFn =
          [](TensorType tensor, Attribute memorySpace,
             const bufferization::BufferizationOptions &) {
            return bufferization::getMemRefTypeWithStaticIdentityLayout(
                tensor, memorySpace);
          };
    addTiledEncodingTypeConversion(options);
    if (failed(checkMaterializeLayouts(module)))
      return signalPassFailure();

    // One-Shot Module Bufferize, split where the tiled allocations must be
    // rewritten: after the analysis decided on (and inserted) its copies,
    // before any op is bufferized.
    bufferization::BufferizationState state;
    if (failed(bufferization::insertTensorCopies(module, options, state)))
      return signalPassFailure();
    if (failed(rewriteTiledAllocations(module)))
      return signalPassFailure();
    if (failed(bufferization::bufferizeModuleOp(module, options, state)))
      return signalPassFailure();
    bufferization::removeBufferizationAttributesInModule(module);
  }
};
} // namespace
