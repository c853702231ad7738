//===- BroadcastingOpLowering.cpp - Whole-op loop lowerings ---------------===//
//
// broadcast_in_dim and the binary ops on tensors (operand buffers, fused
// broadcasts, the result buffer or the destination it is materialized in)
// and memref relayouts, as loop nests.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/Utils/BroadcastingOpLowering.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutBroadcastOps.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/BinaryOpSemantics.h"
#include "layout/Dialect/Layout/Utils/ChunkCopy.h"
#include "layout/Dialect/Layout/Utils/GroupedRelayout.h"
#include "layout/Dialect/Layout/Utils/NestKernel.h"
#include "layout/Dialect/Layout/Utils/StagedRelayout.h"
#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace mlir::layout;

//===----------------------------------------------------------------------===//
// Whole ops
//===----------------------------------------------------------------------===//

Operation *mlir::layout::getFusableBroadcast(Value operand, Operation *user) {
  auto broadcast = operand.getDefiningOp<BroadcastInDimOp>();
  if (!broadcast || !broadcast->hasOneUse() ||
      *broadcast->getUsers().begin() != user)
    return nullptr;
  return broadcast;
}

SizeKey mlir::layout::getSizeKey(Value size) {
  if (auto dim = size.getDefiningOp<tensor::DimOp>())
    if (std::optional<int64_t> index = dim.getConstantIndex())
      return {dim.getSource(), *index};
  return {size, -1};
}

Value mlir::layout::getBroadcastSize(Value tensor, int64_t dim) {
  auto broadcast = tensor.getDefiningOp<BroadcastInDimOp>();
  if (!broadcast || broadcast.getSizes().empty())
    return {};
  RankedTensorType type = broadcast.getType();
  int64_t index = llvm::count_if(llvm::seq<int64_t>(0, dim), [&](int64_t d) {
    return type.isDynamicDim(d);
  });
  return broadcast.getSizes()[index];
}

SizeKey mlir::layout::getDimKey(Value tensor, int64_t dim) {
  if (Value size = getBroadcastSize(tensor, dim))
    return getSizeKey(size);
  return {tensor, dim};
}

/// The run-time size of dim `dim` of a tensor, looking through
/// broadcast_in_dim (so that a fused broadcast needs no `tensor.dim`).
static OpFoldResult getTensorSize(OpBuilder &b, Location loc, Value tensor,
                                  int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  if (auto broadcast = tensor.getDefiningOp<BroadcastInDimOp>()) {
    if (!broadcast.getSizes().empty()) {
      int64_t index =
          llvm::count_if(llvm::seq<int64_t>(0, dim),
                         [&](int64_t d) { return type.isDynamicDim(d); });
      return broadcast.getSizes()[index];
    }
    for (auto [i, d] : llvm::enumerate(broadcast.getBroadcastDimensions()))
      if (d == dim)
        return getTensorSize(b, loc, broadcast.getOperand(), i);
  }
  return tensor::DimOp::create(b, loc, tensor, dim).getResult();
}

SmallVector<int64_t> mlir::layout::getOperandToResult(Operation *op,
                                                      unsigned operand) {
  auto type = cast<RankedTensorType>(op->getOperand(operand).getType());
  int64_t rank = cast<RankedTensorType>(op->getResult(0).getType()).getRank();
  if (type.getRank() == rank)
    return llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (type.getRank() == 0)
    return {};
  auto dims = op->getAttrOfType<DenseI64ArrayAttr>("broadcast_dimensions");
  return llvm::to_vector(dims.asArrayRef());
}

SmallVector<OpFoldResult>
mlir::layout::getBroadcastingOpResultSizes(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    if (isa<BroadcastInDimOp>(op)) {
      sizes.push_back(getTensorSize(b, loc, op->getResult(0), d));
      continue;
    }
    // Binary op: the degenerate rule over the operands that map to d.
    SmallVector<OpFoldResult> candidates;
    for (unsigned k = 0; k < 2; ++k) {
      Value operand = op->getOperand(k);
      auto type = cast<RankedTensorType>(operand.getType());
      for (auto [i, r] : llvm::enumerate(getOperandToResult(op, k)))
        if (r == d && type.getDimSize(i) != 1)
          candidates.push_back(getTensorSize(b, loc, operand, i));
    }
    if (candidates.size() == 1 ||
        (candidates.size() == 2 && candidates[0] == candidates[1])) {
      sizes.push_back(candidates[0]);
      continue;
    }
    if (candidates.empty()) {
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    // lhs == 1 ? rhs : lhs, computed at run time.
    Value lhs = getValueOrCreateConstantIndexOp(b, loc, candidates[0]);
    Value rhs = getValueOrCreateConstantIndexOp(b, loc, candidates[1]);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value isOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, one);
    sizes.push_back(
        arith::SelectOp::create(b, loc, isOne, rhs, lhs).getResult());
  }
  return sizes;
}

/// A stride-0 view of an untiled `memref` along `dims` whose run-time size
/// is 1 (replicated dims of unknown size).
static Value getBroadcastView(OpBuilder &b, Location loc, Value memref,
                              ArrayRef<int64_t> dims) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  SmallVector<OpFoldResult> sizes, strides;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size = metadata.getSizes()[d];
    Value stride = metadata.getStrides()[d];
    sizes.push_back(size);
    if (llvm::is_contained(dims, d)) {
      Value isOne =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one);
      stride = arith::SelectOp::create(b, loc, isOne, zero, stride);
    }
    strides.push_back(stride);
  }
  SmallVector<int64_t> dynamic(type.getRank(), ShapedType::kDynamic);
  auto viewType = MemRefType::get(
      dynamic, type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, dynamic),
      type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(), metadata.getOffset(), sizes,
      strides);
}

namespace {
/// How one source of a broadcasting op is read.
struct SourcePlan {
  Value tensor; // the tensor read (the fused broadcast's operand, or the op's)
  SmallVector<int64_t> dimMap;
  SmallVector<int64_t> mayBroadcast; // dynamic dims that may be 1 at run time
};
} // namespace

/// The sources of a broadcasting op: dims mapped to the result, size-1 dims
/// replicated, fused broadcasts composed in.
static SmallVector<SourcePlan> planSources(Operation *op, bool fuse) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<SourcePlan> plans;
  // Without `sizes`, a dynamic broadcast_in_dim result dim is the operand's
  // own size: it is not replicated.
  auto broadcastOp = dyn_cast<BroadcastInDimOp>(op);
  bool sizesFromOperand = broadcastOp && broadcastOp.getSizes().empty();
  // `othersSize(i, r)`: whether another operand can make result dim r
  // larger than this source's dim i (null: assume it can).
  auto addSource = [&](Value tensor, ArrayRef<int64_t> toResult,
                       function_ref<bool(int64_t, int64_t)> othersSize =
                           nullptr) {
    auto type = cast<RankedTensorType>(tensor.getType());
    SourcePlan plan;
    plan.tensor = tensor;
    for (int64_t i = 0; i < type.getRank(); ++i) {
      int64_t r = toResult[i];
      bool replicated =
          r < 0 || (type.getDimSize(i) == 1 && resultType.getDimSize(r) != 1);
      plan.dimMap.push_back(replicated ? -1 : r);
      if (!replicated && type.isDynamicDim(i) &&
          resultType.getDimSize(r) != 1 &&
          !(sizesFromOperand && resultType.isDynamicDim(r)) &&
          (!othersSize || othersSize(i, r)))
        plan.mayBroadcast.push_back(i);
    }
    plans.push_back(std::move(plan));
  };
  if (auto broadcast = dyn_cast<BroadcastInDimOp>(op)) {
    addSource(broadcast.getOperand(), broadcast.getBroadcastDimensions());
    return plans;
  }
  for (unsigned k = 0; k < 2; ++k) {
    Value operand = op->getOperand(k);
    SmallVector<int64_t> toResult = getOperandToResult(op, k);
    auto operandType = cast<RankedTensorType>(operand.getType());
    // An operand dim of static size 1 is replicated along the result dim.
    for (auto [i, r] : llvm::enumerate(toResult))
      if (operandType.getDimSize(i) == 1 && resultType.getDimSize(r) != 1)
        r = -1;
    auto broadcast = fuse ? dyn_cast_or_null<BroadcastInDimOp>(
                                getFusableBroadcast(operand, op))
                          : BroadcastInDimOp();
    if (!broadcast) {
      // A dynamic dim cannot broadcast where the other operand maps no dim
      // of size other than 1 to the same result dim (the result's size is
      // this operand's), nor where that dim has provably the same run-time
      // size (the same tensor's dim, or a broadcast to `tensor.dim` of this
      // operand, as --layout-expand-broadcasts builds for a scalar).
      Value other = op->getOperand(1 - k);
      auto otherType = cast<RankedTensorType>(other.getType());
      SmallVector<int64_t> otherToResult = getOperandToResult(op, 1 - k);
      auto othersSize = [&](int64_t i, int64_t r) {
        for (auto [j, s] : llvm::enumerate(otherToResult))
          if (s == r && otherType.getDimSize(j) != 1 &&
              getDimKey(other, j) != getDimKey(operand, i))
            return true;
        return false;
      };
      addSource(operand, toResult, othersSize);
      continue;
    }
    SmallVector<int64_t> composed;
    for (int64_t d : broadcast.getBroadcastDimensions())
      composed.push_back(toResult[d]);
    addSource(broadcast.getOperand(), composed);
  }
  return plans;
}

static bool isStatic(Type t) { return cast<ShapedType>(t).hasStaticShape(); }

/// Whether `op` can be lowered; with `report`, emits why not.
static LogicalResult canLower(Operation *op, LoopKind kind, bool report) {
  auto fail = [&](const Twine &why) {
    if (report)
      op->emitOpError() << "cannot be lowered to loops: " << why;
    return failure();
  };
  if (auto relayout = dyn_cast<RelayoutOp>(op);
      !relayout || isa<MemRefType>(relayout.getSource().getType())) {
    // E(n) layouts the lowering cannot store (SubBytePacking.h).
    for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults()))
      if (auto type = dyn_cast<ShapedType>(v.getType())) {
        unsigned bits;
        std::string why = getSubBytePacking(type, bits);
        if (!why.empty())
          return fail(why);
      }
  }
  if (auto relayout = dyn_cast<RelayoutOp>(op)) {
    if (!isa<MemRefType>(relayout.getSource().getType()))
      return fail("tensor relayouts are bufferized first (--layout-bufferize)");
    if (kind == LoopKind::Affine &&
        (!isStatic(relayout.getSource().getType()) ||
         !isStatic(relayout.getDestination().getType())))
      return fail("dynamic shapes need --convert-layout-to-scf");
    return success();
  }
  if (!isa<BroadcastInDimOp>(op) &&
      !op->hasTrait<layout::OpTrait::BroadcastingBinaryOp>())
    return fail("not a layout op with a loop lowering");
  if (!isa<BroadcastInDimOp>(op)) {
    std::string why = whyBinaryUnsupported(op);
    if (!why.empty())
      return fail(why);
  }
  for (Value v : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type)
      continue;
    if (!getBufferType(type))
      return fail("unsupported tensor encoding");
    if (kind == LoopKind::Affine && !type.hasStaticShape())
      return fail("dynamic shapes need --convert-layout-to-scf");
  }
  for (const SourcePlan &plan : planSources(op, /*fuse=*/true)) {
    auto type = cast<RankedTensorType>(plan.tensor.getType());
    if (!getBufferType(type))
      return fail("unsupported tensor encoding");
    if (kind == LoopKind::Affine && !type.hasStaticShape())
      return fail("dynamic shapes need --convert-layout-to-scf");
  }
  return success();
}

LogicalResult mlir::layout::checkLowerable(Operation *op, LoopKind kind) {
  return canLower(op, kind, /*report=*/true);
}

bufferization::MaterializeInDestinationOp
mlir::layout::getDestinationOfResult(Operation *op, MemRefType bufferType) {
  if (!op->getResult(0).hasOneUse())
    return nullptr;
  auto materialize = dyn_cast<bufferization::MaterializeInDestinationOp>(
      *op->getResult(0).getUsers().begin());
  if (!materialize || !materialize.getRestrict() ||
      !materialize.getWritable() ||
      materialize.getDest().getType() != bufferType)
    return nullptr;
  Value dest = materialize.getDest();
  if (auto arg = dyn_cast<BlockArgument>(dest)) {
    if (!arg.getOwner()->getParentOp()->isProperAncestor(op))
      return nullptr;
  } else {
    Operation *def = dest.getDefiningOp();
    if (def->getBlock() != op->getBlock() || !def->isBeforeInBlock(op))
      return nullptr;
  }
  return materialize;
}

void mlir::layout::reportKernel(Operation *op, NestKernel kernel) {
  op->emitRemark() << "kernel: " << getNestKernelName(kernel);
}

void mlir::layout::reportKernel(Operation *op, const NestReport &report) {
  reportKernel(op, report.primary());
  if (!report.getBlocks().empty())
    op->emitRemark() << "transpose-blocks: " << report.getBlocks();
}

LogicalResult mlir::layout::emitBroadcastingOpLoops(
    OpBuilder &b, Operation *op, LoopKind kind,
    ArrayRef<BroadcastingOpOperand> operands, Value dest,
    ArrayRef<OpFoldResult> destSizes, const LoopEmitOptions &options) {
  Location loc = op->getLoc();
  SmallVector<LoopSource> sources;
  SmallVector<Value> temporaries;
  SmallVector<SourcePlan> plans = planSources(op, /*fuse=*/false);
  for (auto [i, operand] : llvm::enumerate(operands)) {
    SourcePlan plan;
    if (operand.fusedBroadcast) {
      // Recompute the plan with this operand fused.
      SmallVector<SourcePlan> fused = planSources(op, /*fuse=*/true);
      plan = fused[i];
    } else {
      plan = plans[i];
    }
    Value buffer = operand.buffer;
    if (!plan.mayBroadcast.empty()) {
      auto type = cast<MemRefType>(buffer.getType());
      if (isa<TiledLayoutAttr>(type.getLayout())) {
        // A tiled operand whose dynamic dim may be 1 at run time and
        // broadcast has no stride-0 view: it is relayouted into a row-major
        // temporary first (one copy of the operand), read through that
        // temporary's view and freed after the loops.
        FailureOr<SmallVector<OpFoldResult>> sizes =
            getLogicalSizes(b, loc, buffer);
        if (failed(sizes))
          return op->emitOpError()
                 << "cannot find the logical sizes of " << type;
        SmallVector<Value> dynamicSizes;
        for (auto [d, size] : llvm::enumerate(*sizes))
          if (type.isDynamicDim(d))
            dynamicSizes.push_back(
                getValueOrCreateConstantIndexOp(b, loc, size));
        auto tempType =
            MemRefType::get(type.getShape(), type.getElementType(),
                            MemRefLayoutAttrInterface(), type.getMemorySpace());
        Value temp = memref::AllocOp::create(b, loc, tempType, dynamicSizes);
        if (failed(emitRelayoutLoops(
                b, loc, kind, buffer, temp, *sizes,
                [op] { return op->emitOpError(); }, options)))
          return failure();
        temporaries.push_back(temp);
        buffer = temp;
      }
      buffer = getBroadcastView(b, loc, buffer, plan.mayBroadcast);
    }
    sources.push_back({buffer, plan.dimMap});
  }
  auto emitError = [op] { return op->emitOpError(); };
  auto copyElement = [](OpBuilder &, Location, ValueRange loaded) {
    return loaded[0];
  };
  auto binaryElement = [op](OpBuilder &builder, Location l, ValueRange loaded) {
    if (isa<VectorType>(loaded[0].getType()))
      return emitVectorBinaryElement(builder, l, op, loaded[0], loaded[1]);
    // Floats of different precision: both in the compute type first.
    Type compute =
        getBinaryOpComputeType(loaded[0].getType(), loaded[1].getType());
    return emitBinaryElement(builder, l, op,
                             castElement(builder, l, loaded[0], compute),
                             castElement(builder, l, loaded[1], compute));
  };
  ElementFunction element;
  element.vectorizable = isVectorizableElement(op);
  element.copiesElements = isa<BroadcastInDimOp>(op);
  if (element.copiesElements)
    element.fn = copyElement;
  else
    element.fn = binaryElement;
  NestReport report;
  LogicalResult result =
      emitElementwiseLoops(b, loc, kind, dest, destSizes, sources, element,
                           emitError, options, &report);
  if (succeeded(result) && options.reportKernels)
    reportKernel(op, report);
  for (Value temp : temporaries)
    memref::DeallocOp::create(b, loc, temp);
  return result;
}

FailureOr<Value> mlir::layout::emitBroadcastingOpIntoNewBuffer(
    OpBuilder &b, Operation *op, LoopKind kind,
    ArrayRef<BroadcastingOpOperand> operands, const LoopEmitOptions &options) {
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  MemRefType bufferType = getBufferType(resultType);
  if (!bufferType)
    return op->emitOpError() << "unsupported result encoding";
  // Result sizes: the broadcasting rule over the operands' sizes.
  SmallVector<OpFoldResult> sizes = getBroadcastingOpResultSizes(b, op);
  SmallVector<Value> dynamicSizes;
  for (auto [d, size] : llvm::enumerate(sizes))
    if (resultType.isDynamicDim(d))
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
  Value alloc = memref::AllocOp::create(b, loc, bufferType, dynamicSizes);
  if (failed(emitBroadcastingOpLoops(b, op, kind, operands, alloc, sizes,
                                     options)))
    return failure();
  return alloc;
}

LogicalResult
mlir::layout::lowerBroadcastingOp(RewriterBase &rewriter, Operation *op,
                                  LoopKind kind,
                                  const LoopEmitOptions &options) {
  if (failed(canLower(op, kind, /*report=*/false)))
    return failure();
  // A broadcast that its only user will fuse is left to that user.
  if (isa<BroadcastInDimOp>(op) && op->hasOneUse()) {
    Operation *user = *op->getUsers().begin();
    if (user->hasTrait<layout::OpTrait::BroadcastingBinaryOp>() &&
        succeeded(canLower(user, kind, /*report=*/false)))
      return failure();
  }
  Location loc = op->getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  SmallVector<BroadcastingOpOperand> operands;
  SmallVector<Operation *> fused;
  unsigned numSources = isa<BroadcastInDimOp>(op) ? 1 : 2;
  for (unsigned k = 0; k < numSources; ++k) {
    Value tensor = op->getOperand(k);
    BroadcastingOpOperand operand;
    operand.tensor = tensor;
    Value read = tensor;
    if (numSources == 2)
      if (Operation *broadcast = getFusableBroadcast(tensor, op)) {
        operand.fusedBroadcast = broadcast;
        read = broadcast->getOperand(0);
        fused.push_back(broadcast);
      }
    auto type = cast<RankedTensorType>(read.getType());
    operand.buffer = bufferization::ToBufferOp::create(
        rewriter, loc, getBufferType(type), read, rewriter.getUnitAttr());
    operands.push_back(operand);
  }
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  MemRefType bufferType = getBufferType(resultType);
  if (auto materialize = getDestinationOfResult(op, bufferType)) {
    // Destination passing: write the materialization's memref.
    SmallVector<OpFoldResult> sizes =
        getBroadcastingOpResultSizes(rewriter, op);
    if (failed(emitBroadcastingOpLoops(rewriter, op, kind, operands,
                                       materialize.getDest(), sizes, options)))
      return failure();
    rewriter.eraseOp(materialize);
    rewriter.eraseOp(op);
    for (Operation *broadcast : fused)
      if (broadcast->use_empty())
        rewriter.eraseOp(broadcast);
    return success();
  }
  FailureOr<Value> alloc =
      emitBroadcastingOpIntoNewBuffer(rewriter, op, kind, operands, options);
  if (failed(alloc))
    return failure();
  Value result = bufferization::ToTensorOp::create(
      rewriter, loc, resultType, *alloc, /*restrict=*/true, /*writable=*/true);
  rewriter.replaceOp(op, result);
  for (Operation *broadcast : fused)
    if (broadcast->use_empty())
      rewriter.eraseOp(broadcast);
  return success();
}

/// Whether a plain copy (RelayoutOp::isPlainCopy) is better left to the
/// nest than to `memref.copy` (glibc memcpy): when its rows are vectorized
/// and it is large enough for streaming stores, the nest copies whole rows
/// with non-temporal stores (and in parallel chunks over the threads),
/// where glibc's memcpy runs on one thread and, on the machines measured,
/// at about half the streaming copy's speed (docs/performance.md, "Layout
/// pair matrix").
static bool streamsPlainCopy(RelayoutOp relayout,
                             const LoopEmitOptions &options) {
  auto type = cast<MemRefType>(relayout.getDestination().getType());
  Type element = type.getElementType();
  if (options.vectorBytes <= 0 || options.nontemporalThresholdBytes < 0 ||
      !type.hasStaticShape() || !element.isIntOrFloat())
    return false;
  // Widths the vector rows take (not i24, f80, i128: memcpy is faster than
  // their scalar nests).
  unsigned width = element.getIntOrFloatBitWidth();
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return false;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  for (int64_t dim : type.getShape()) {
    if (dim != 0 && bytes > std::numeric_limits<int64_t>::max() / dim)
      return true; // larger than any threshold
    bytes *= dim;
  }
  return bytes >= options.nontemporalThresholdBytes;
}

/// A streamed plain copy of a tiled layout as a copy of its physical
/// buffers, collapsed into rows of at least 4 KiB (or all but the outer
/// physical dim): the nest over the physical dims copies rows of the
/// innermost one, which for sub-tiles (bf16 T(8,128)(2,1): [..., 128, 2, 1])
/// holds one element. The flat rows are whole vectors streamed out.
static LogicalResult emitFlatPlainCopy(RewriterBase &rewriter,
                                       RelayoutOp relayout, LoopKind kind,
                                       const LoopEmitOptions &options) {
  auto type = cast<MemRefType>(relayout.getDestination().getType());
  auto tiled = dyn_cast<TiledLayoutAttr>(type.getLayout());
  if (!tiled || !isa<MemRefType>(relayout.getSource().getType()))
    return failure();
  FailureOr<MemRefType> phys =
      tiled.getPhysicalMemRefType(type, [&] { return relayout.emitOpError(); });
  if (failed(phys) || !phys->getLayout().isIdentity() ||
      !phys->hasStaticShape() || phys->getRank() < 2)
    return failure();
  ArrayRef<int64_t> shape = phys->getShape();
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t split = static_cast<int64_t>(shape.size()) - 1;
  std::optional<int64_t> rowBytes =
      llvm::checkedMul(shape.back(), elementBytes);
  while (rowBytes && split > 1 && *rowBytes < 4096)
    rowBytes = llvm::checkedMul(*rowBytes, shape[--split]);
  if (!rowBytes)
    return failure(); // rows beyond int64 bytes: the nest reports them
  SmallVector<ReassociationIndices> groups(2);
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    groups[d < split ? 0 : 1].push_back(d);
  Location loc = relayout.getLoc();
  auto flatten = [&](Value memref) -> Value {
    Value view = ToPhysicalOp::create(rewriter, loc, *phys, memref);
    return memref::CollapseShapeOp::create(rewriter, loc, view, groups);
  };
  auto copy = RelayoutOp::create(rewriter, loc, flatten(relayout.getSource()),
                                 flatten(relayout.getDestination()));
  if (failed(lowerMemRefRelayout(rewriter, copy, kind, options))) {
    rewriter.eraseOp(copy);
    return failure();
  }
  rewriter.eraseOp(relayout);
  return success();
}

/// `relayout` as two relayouts through a buffer in `staging`, each lowered
/// here (without its own kernel remark); the buffer is freed after them.
/// On failure the direct nest follows; what is left of the attempt writes
/// only the temporary.
static LogicalResult emitStagedRelayout(RewriterBase &rewriter,
                                        RelayoutOp relayout,
                                        TiledLayoutAttr staging, LoopKind kind,
                                        const LoopEmitOptions &options) {
  Location loc = relayout.getLoc();
  auto type = cast<MemRefType>(relayout.getDestination().getType());
  auto tempType = MemRefType::get(type.getShape(), type.getElementType(),
                                  staging, type.getMemorySpace());
  Value temp = memref::AllocOp::create(rewriter, loc, tempType);
  auto first = RelayoutOp::create(rewriter, loc, relayout.getSource(), temp);
  auto second =
      RelayoutOp::create(rewriter, loc, temp, relayout.getDestination());
  auto dealloc = memref::DeallocOp::create(rewriter, loc, temp);
  LoopEmitOptions inner = options;
  inner.reportKernels = false;
  if (succeeded(lowerMemRefRelayout(rewriter, first, kind, inner))) {
    if (succeeded(lowerMemRefRelayout(rewriter, second, kind, inner)))
      return success();
    // (The first step's loops stay: they only write the temporary, which
    // is freed; the direct nest then writes the destination.)
  } else {
    rewriter.eraseOp(first);
  }
  rewriter.eraseOp(second);
  rewriter.eraseOp(dealloc);
  if (temp.use_empty())
    rewriter.eraseOp(temp.getDefiningOp());
  return failure();
}

LogicalResult
mlir::layout::lowerMemRefRelayout(RewriterBase &rewriter, Operation *op,
                                  LoopKind kind,
                                  const LoopEmitOptions &options) {
  auto relayout = dyn_cast<RelayoutOp>(op);
  if (!relayout || failed(canLower(op, kind, /*report=*/false)))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  Value src = relayout.getSource(), dst = relayout.getDestination();
  if (relayout.isPlainCopy() && !streamsPlainCopy(relayout, options)) {
    // Same layouts without padding slots: a copy of the physical buffer.
    // (With padding slots the nest below writes the padding value.)
    if (options.reportKernels)
      reportKernel(op, NestKernel::Copy);
    rewriter.replaceOpWithNewOp<memref::CopyOp>(op, src, dst);
    return success();
  }
  if (relayout.isPlainCopy() &&
      succeeded(emitFlatPlainCopy(rewriter, relayout, kind, options)))
    return success();
  // Element groups that both layouts keep together, moved as one wider
  // element (GroupedRelayout.h): a sub-tiled bf16 layout against a
  // crossing one becomes one 32-bit transpose.
  if (options.vectorBytes > 0 && options.groupElements &&
      succeeded(emitGroupedRelayout(rewriter, relayout, kind, options)))
    return success();
  // A sub-tiled layout against one whose byte order crosses it: through
  // the sub-tiled layout without its last tile, two kernels that move whole
  // vectors (StagedRelayout.h), not one that copies element by element.
  if (options.vectorBytes > 0 && isa<MemRefType>(src.getType()))
    if (std::optional<TiledLayoutAttr> staging = getStagingLayout(
            cast<MemRefType>(src.getType()), cast<MemRefType>(dst.getType()),
            options.vectorBytes))
      if (succeeded(emitStagedRelayout(rewriter, relayout, *staging, kind,
                                       options))) {
        if (options.reportKernels)
          reportKernel(op, NestKernel::Staged);
        rewriter.eraseOp(op);
        return success();
      }
  // The planner's kernel choice: a chunk copy copies its runs (memcpy),
  // unless the nest vectorizes its rows, which moves each run with whole
  // vectors and streaming stores and measured faster (docs/algebra.md).
  if (options.vectorBytes == 0 &&
      succeeded(emitChunkCopyRelayout(rewriter, loc, src, dst))) {
    if (options.reportKernels)
      reportKernel(op, NestKernel::ChunkCopy);
    rewriter.eraseOp(op);
    return success();
  }
  FailureOr<SmallVector<OpFoldResult>> sizes =
      getLogicalSizes(rewriter, loc, dst);
  if (failed(sizes))
    sizes = getLogicalSizes(rewriter, loc, src);
  if (failed(sizes))
    return failure();
  NestReport report;
  if (failed(emitRelayoutLoops(
          rewriter, loc, kind, src, dst, *sizes,
          [op] { return op->emitOpError(); }, options, &report)))
    return failure();
  if (options.reportKernels)
    reportKernel(op, report);
  rewriter.eraseOp(op);
  return success();
}

void mlir::layout::loadLoopEmitterDialects(MLIRContext &context) {
  context
      .loadDialect<affine::AffineDialect, arith::ArithDialect,
                   bufferization::BufferizationDialect, complex::ComplexDialect,
                   math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                   ub::UBDialect, vector::VectorDialect, LLVM::LLVMDialect>();
}
