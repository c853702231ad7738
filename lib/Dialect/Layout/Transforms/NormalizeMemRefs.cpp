//===- NormalizeMemRefs.cpp - layout-normalize-memrefs --------------------===//
//
// Rewrites every memref with a #layout.tiled layout into its physical
// identity-layout buffer, making the index arithmetic explicit. The pass
// first checks every use (and reports all unsupported ones) and only then
// mutates, so a failing run leaves the IR unchanged.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/ArithIndexOps.h"
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"
#include "layout/Dialect/Layout/Utils/PhysicalSizes.h"
#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "LogicalDescriptors.h"
#include "PackedMemRefs.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTNORMALIZEMEMREFS
#include "layout/Dialect/Layout/Transforms/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {

/// A memref type with a #layout.tiled layout, or null.
MemRefType getTiledMemRefType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (memref && isa<TiledLayoutAttr>(memref.getLayout()))
    return memref;
  return {};
}

bool isTiled(Type type) { return static_cast<bool>(getTiledMemRefType(type)); }
bool isTiled(Value value) { return isTiled(value.getType()); }

/// The exact layout map of a verified tiled memref type (a dims-less `*`
/// layout takes its sizes from the shape).
AffineMap getLayoutMap(MemRefType type) {
  return cast<TiledLayoutAttr>(type.getLayout())
      .getAffineMapForShape(type.getShape());
}

std::string typeToString(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '\'' << type << '\'';
  return out;
}

class NormalizeMemRefsPass
    : public ::mlir::layout::impl::LayoutNormalizeMemRefsBase<
          NormalizeMemRefsPass> {
public:
  void runOnOperation() override;

private:
  /// The physical type of every tiled memref type seen (computed and
  /// verified in the check phase).
  llvm::DenseMap<Type, MemRefType> physicalTypes;

  /// The logical sizes of dynamic tiled memrefs and their descriptors at
  /// function boundaries (LogicalDescriptors.h).
  LogicalSizeTracker logicalSizes;

  /// The sub-byte packed (E(n)) buffers and their accesses
  /// (PackedMemRefs.h).
  PackedMemRefs packing;

  LogicalResult checkType(Type type, Operation *where);
  LogicalResult checkOp(Operation *op, SymbolTableCollection &symbols);
  LogicalResult checkLogicalSizesKnown(Value value, Operation *user);
  /// Whether normalizing only retypes `op`'s memrefs: every #layout.tiled
  /// one has the identity layout (`{1,0}`, no tiles, padding or packing:
  /// the physical type is the logical one) and `op` makes no memref, so
  /// ops that index them (the loop kernels' vector loads and stores) keep
  /// their indices.
  bool onlyRetypes(Operation *op) const;
  Type convertType(Type type) const;
  Type convertBoundaryType(Type type) const;
  FunctionType convertFunctionType(FunctionType type) const;
  SmallVector<Value> retypeBoundaryValues(OpBuilder &builder,
                                          ValueRange values);
  /// The physical indices of `indices` into a tiled memref of `type`.
  SmallVector<Value> expandIndices(OpBuilder &builder, MemRefType type,
                                   ValueRange indices, Location loc);
  /// Phase 2 for one op: its accesses of tiled memrefs, rewritten while
  /// the memrefs still have their logical types.
  void rewriteAccess(OpBuilder &builder, Operation *op,
                     SmallVectorImpl<Operation *> &toErase);
  /// Phase 3 for one op: a definition (allocation, function argument, call
  /// result) retyped to the physical type, or a view dropped.
  void retypeDefinition(OpBuilder &builder, Operation *op,
                        SmallVectorImpl<Operation *> &toErase);
  void retypeAllocation(OpBuilder &builder, Operation *op,
                        SmallVectorImpl<Operation *> &toErase);
};

} // namespace

LogicalResult NormalizeMemRefsPass::checkType(Type type, Operation *where) {
  MemRefType memref = getTiledMemRefType(type);
  if (!memref || physicalTypes.count(memref))
    return success();
  auto emitError = [&] {
    return where->emitOpError() << "cannot normalize " << memref << ": ";
  };
  if (failed(verifyTiledMemRefType(memref, emitError)))
    return failure();
  auto attr = cast<TiledLayoutAttr>(memref.getLayout());
  FailureOr<MemRefType> physical =
      attr.getPhysicalMemRefType(memref, emitError);
  if (failed(physical))
    return failure();
  FailureOr<unsigned> bits = getSubBytePackingBits(memref, emitError);
  if (failed(bits))
    return failure();
  if (*bits) // E(n) packing: a buffer of ceil(slots * n / 8) bytes.
    physical = packing.addPackedType(memref, *physical, *bits);
  physicalTypes[memref] = *physical;
  return success();
}

bool NormalizeMemRefsPass::onlyRetypes(Operation *op) const {
  auto identityTiled = [&](Value v) {
    if (!isTiled(v))
      return true;
    auto type = cast<MemRefType>(v.getType());
    auto physical = dyn_cast<MemRefType>(convertType(type));
    return type.getLayout().isIdentity() && physical &&
           physical.getShape() == type.getShape() &&
           physical.getElementType() == type.getElementType();
  };
  return llvm::all_of(op->getOperands(), identityTiled) &&
         llvm::none_of(op->getResultTypes(), llvm::IsaPred<MemRefType>);
}

Type NormalizeMemRefsPass::convertType(Type type) const {
  auto it = physicalTypes.find(type);
  return it == physicalTypes.end() ? type : Type(it->second);
}

Type NormalizeMemRefsPass::convertBoundaryType(Type type) const {
  if (isDynamicTiledMemRef(type))
    return getLogicalDescriptorType(cast<MemRefType>(type));
  return convertType(type);
}

FunctionType
NormalizeMemRefsPass::convertFunctionType(FunctionType type) const {
  SmallVector<Type> inputs, results;
  for (Type t : type.getInputs())
    inputs.push_back(convertBoundaryType(t));
  for (Type t : type.getResults())
    results.push_back(convertBoundaryType(t));
  return FunctionType::get(type.getContext(), inputs, results);
}

/// Retypes function arguments or call results to their physical types,
/// except the dynamic tiled memrefs, whose logical sizes are read first
/// (they still have the descriptor's sizes) and which are returned, to be
/// retyped to their descriptors (LogicalSizeTracker::fromDescriptor).
SmallVector<Value>
NormalizeMemRefsPass::retypeBoundaryValues(OpBuilder &builder,
                                           ValueRange values) {
  SmallVector<Value> dynamic;
  for (Value value : values) {
    if (isDynamicTiledMemRef(value)) {
      (void)logicalSizes.get(builder, value);
      dynamic.push_back(value);
    } else {
      value.setType(convertType(value.getType()));
    }
  }
  return dynamic;
}

LogicalResult NormalizeMemRefsPass::checkLogicalSizesKnown(Value value,
                                                           Operation *user) {
  if (!isDynamicTiledMemRef(value) || getLogicalSizesOrigin(value))
    return success();
  return user->emitOpError()
         << "needs the logical sizes of the dynamic #layout.tiled memref "
         << typeToString(value.getType())
         << ", which are lost: it is a layout.from_physical of a physical "
            "buffer (whose extents are rounded up to whole tiles); view a "
            "memref whose logical sizes are known instead";
}

/// Checks that `op` only uses tiled memrefs in ways the pass rewrites.
LogicalResult NormalizeMemRefsPass::checkOp(Operation *op,
                                            SymbolTableCollection &symbols) {
  bool result = true;
  auto unsupported = [&](StringRef why) {
    op->emitOpError() << why;
    result = false;
  };
  for (Value v : op->getOperands())
    if (isTiled(v) && failed(checkType(v.getType(), op)))
      result = false;
  for (Value v : op->getResults())
    if (isTiled(v) && failed(checkType(v.getType(), op)))
      result = false;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments()) {
        if (!isTiled(arg))
          continue;
        if (failed(checkType(arg.getType(), op)))
          result = false;
        else if (!isa<func::FuncOp>(op) || !block.isEntryBlock())
          unsupported("has a block argument of #layout.tiled memref type " +
                      typeToString(arg.getType()) +
                      "; layout-normalize-memrefs only rewrites function "
                      "arguments");
      }
  if (!result)
    return failure();

  bool usesTiled =
      llvm::any_of(op->getOperands(), [](Value v) { return isTiled(v); }) ||
      llvm::any_of(op->getResults(), [](Value v) { return isTiled(v); });
  if (auto func = dyn_cast<func::FuncOp>(op)) {
    FunctionType type = func.getFunctionType();
    bool tiledSignature =
        llvm::any_of(type.getInputs(), [](Type t) { return isTiled(t); }) ||
        llvm::any_of(type.getResults(), [](Type t) { return isTiled(t); });
    for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
      if (failed(checkType(t, op)))
        return failure();
    // A dynamic tiled memref has a fixed ABI (the logical descriptor), a
    // static one is passed as its physical buffer, which the callee's
    // author must have agreed to: only the former may cross into an
    // external function.
    bool staticTiledSignature = llvm::any_of(
        llvm::concat<const Type>(type.getInputs(), type.getResults()),
        [](Type t) { return isTiled(t) && !isDynamicTiledMemRef(t); });
    if (tiledSignature && staticTiledSignature && func.isExternal())
      unsupported("is an external function with a static #layout.tiled "
                  "memref in its signature; layout-normalize-memrefs cannot "
                  "change the callee's ABI");
    return success(result);
  }
  if (!usesTiled)
    return success();

  llvm::TypeSwitch<Operation *>(op)
      .Case<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
            memref::LoadOp, memref::StoreOp, affine::AffineLoadOp,
            affine::AffineStoreOp, ToPhysicalOp, FromPhysicalOp>(
          [](Operation *) {})
      .Case<func::ReturnOp>([&](func::ReturnOp ret) {
        for (Value v : ret.getOperands())
          if (failed(checkLogicalSizesKnown(v, op)))
            result = false;
      })
      .Case<UnrealizedConversionCastOp>([&](UnrealizedConversionCastOp cast) {
        if (!packing.recordByteCast(cast))
          unsupported("casts a #layout.tiled memref; layout-normalize-memrefs "
                      "only rewrites casts between a sub-byte packed (E(n)) "
                      "memref and its packed byte buffer type");
      })
      .Case<func::CallOp>([&](func::CallOp call) {
        auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        bool staticTiled = llvm::any_of(
            llvm::concat<Value>(call.getOperands(), call.getResults()),
            [](Value v) { return isTiled(v) && !isDynamicTiledMemRef(v); });
        if (!callee || (callee.isExternal() && staticTiled))
          unsupported("passes a static #layout.tiled memref to a function "
                      "without a body in this module; layout-normalize-memrefs "
                      "cannot change its ABI");
        for (Value v : call.getOperands())
          if (failed(checkLogicalSizesKnown(v, op)))
            result = false;
      })
      .Case<memref::DimOp>([&](memref::DimOp dim) {
        if (!dim.getConstantIndex())
          unsupported("reads a size of a #layout.tiled memref with a "
                      "non-constant index; layout-normalize-memrefs rewrites "
                      "memref.dim with a constant index");
        else if (int64_t rank =
                     cast<MemRefType>(dim.getSource().getType()).getRank();
                 *dim.getConstantIndex() < 0 || *dim.getConstantIndex() >= rank)
          unsupported(("reads dim " + Twine(*dim.getConstantIndex()) +
                       " of a #layout.tiled memref of rank " + Twine(rank))
                          .str());
        else if (failed(checkLogicalSizesKnown(dim.getSource(), op)))
          result = false;
      })
      .Case<memref::CastOp>([&](memref::CastOp castOp) {
        Type source = castOp.getSource().getType();
        Type target = castOp.getType();
        if (!isTiled(source) || !isTiled(target) ||
            cast<MemRefType>(source).getLayout() !=
                cast<MemRefType>(target).getLayout())
          unsupported("casts between " + typeToString(source) + " and " +
                      typeToString(target) +
                      "; layout-normalize-memrefs only rewrites casts between "
                      "memrefs with the same #layout.tiled layout");
      })
      .Case<memref::CopyOp>([&](memref::CopyOp copy) {
        // Equivalent layouts (`*` with and without dims) share the
        // physical type, so the copy stays a copy of the buffer.
        auto source = cast<MemRefType>(copy.getSource().getType());
        auto target = cast<MemRefType>(copy.getTarget().getType());
        if (source != target &&
            (source.getShape() != target.getShape() ||
             source.getMemorySpace() != target.getMemorySpace() ||
             !areEquivalentLayouts(source.getLayout(), target.getLayout())))
          unsupported("copies between different memref types " +
                      typeToString(copy.getSource().getType()) + " and " +
                      typeToString(copy.getTarget().getType()) +
                      "; layout-normalize-memrefs only rewrites copies "
                      "between memrefs with the same #layout.tiled layout");
      })
      .Default([&](Operation *) {
        if (onlyRetypes(op))
          return;
        unsupported("uses a #layout.tiled memref; layout-normalize-memrefs "
                    "does not know how to rewrite this op (supported: "
                    "memref.alloc/alloca/dealloc/load/store/copy/cast/dim, "
                    "affine.load/store, layout.to_physical/from_physical, "
                    "func.func/call/return)");
      });
  return success(result);
}
SmallVector<Value> NormalizeMemRefsPass::expandIndices(OpBuilder &builder,
                                                       MemRefType type,
                                                       ValueRange indices,
                                                       Location loc) {
  // The map was built and verified in phase 1.
  auto attr = cast<TiledLayoutAttr>(type.getLayout());
  FailureOr<TiledLayoutMap> map = attr.getTiledLayoutMap(
      type.getShape(), type.getElementType(), [&] { return emitError(loc); });
  ArithIndexOps ops(builder, loc);
  SmallVector<Value> logical(indices);
  SmallVector<Value, 6> physical =
      map->apply<Value>(ArrayRef<Value>(logical), ops);
  return SmallVector<Value>(physical);
}

void NormalizeMemRefsPass::rewriteAccess(
    OpBuilder &builder, Operation *op, SmallVectorImpl<Operation *> &toErase) {
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (auto dim = dyn_cast<memref::DimOp>(op)) {
    // The logical size, never the physical buffer's extent.
    if (isTiled(dim.getSource())) {
      OpFoldResult size =
          logicalSizes.get(builder, dim.getSource())[*dim.getConstantIndex()];
      dim.replaceAllUsesWith(
          getValueOrCreateConstantIndexOp(builder, loc, size));
      toErase.push_back(op);
    }
    return;
  }
  if (isa<func::CallOp, func::ReturnOp>(op)) {
    // Dynamic tiled operands leave as their logical descriptors.
    for (OpOperand &operand : op->getOpOperands())
      if (isDynamicTiledMemRef(operand.get()))
        operand.set(logicalSizes.toDescriptor(builder, loc, operand.get()));
    return;
  }
  // Packed (E(n)) buffers: recorded here, rebuilt after retyping.
  if (packing.recordAccess(builder, op))
    return;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    if (MemRefType type = getTiledMemRefType(load.getMemRef().getType())) {
      auto newLoad = memref::LoadOp::create(
          builder, loc, load.getMemRef(),
          expandIndices(builder, type, load.getIndices(), loc),
          load.getNontemporal());
      load.replaceAllUsesWith(newLoad.getResult());
      toErase.push_back(op);
    }
  } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
    if (MemRefType type = getTiledMemRefType(store.getMemRef().getType())) {
      memref::StoreOp::create(
          builder, loc, store.getValueToStore(), store.getMemRef(),
          expandIndices(builder, type, store.getIndices(), loc),
          store.getNontemporal());
      toErase.push_back(op);
    }
  } else if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
    if (MemRefType type = getTiledMemRefType(load.getMemRef().getType())) {
      AffineMap map =
          simplifyAffineMap(getLayoutMap(type).compose(load.getAffineMap()));
      auto newLoad = affine::AffineLoadOp::create(
          builder, loc, load.getMemRef(), map, load.getMapOperands());
      load.replaceAllUsesWith(newLoad.getResult());
      toErase.push_back(op);
    }
  } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
    if (MemRefType type = getTiledMemRefType(store.getMemRef().getType())) {
      AffineMap map =
          simplifyAffineMap(getLayoutMap(type).compose(store.getAffineMap()));
      affine::AffineStoreOp::create(builder, loc, store.getValueToStore(),
                                    store.getMemRef(), map,
                                    store.getMapOperands());
      toErase.push_back(op);
    }
  }
}

void NormalizeMemRefsPass::retypeAllocation(
    OpBuilder &builder, Operation *op, SmallVectorImpl<Operation *> &toErase) {
  Location loc = op->getLoc();
  Value result = op->getResult(0);
  MemRefType type = getTiledMemRefType(result.getType());
  if (!type)
    return;
  auto physical = cast<MemRefType>(convertType(type));
  auto alloc = dyn_cast<memref::AllocOp>(op);
  auto alloca = dyn_cast<memref::AllocaOp>(op);
  ValueRange dynamicSizes =
      alloc ? alloc.getDynamicSizes() : alloca.getDynamicSizes();
  ValueRange symbolOperands =
      alloc ? alloc.getSymbolOperands() : alloca.getSymbolOperands();
  IntegerAttr alignment =
      alloc ? alloc.getAlignmentAttr() : alloca.getAlignmentAttr();
  SmallVector<Value> sizes = getPhysicalDynamicSizes(
      builder, loc, cast<TiledLayoutAttr>(type.getLayout()), type.getShape(),
      physical.getShape(), dynamicSizes);
  Value newAlloc = alloc
                       ? memref::AllocOp::create(builder, loc, physical, sizes,
                                                 symbolOperands, alignment)
                             .getResult()
                       : memref::AllocaOp::create(builder, loc, physical, sizes,
                                                  symbolOperands, alignment)
                             .getResult();
  packing.initAllocation(builder, loc, newAlloc, type);
  result.replaceAllUsesWith(newAlloc);
  toErase.push_back(op);
}

void NormalizeMemRefsPass::retypeDefinition(
    OpBuilder &builder, Operation *op, SmallVectorImpl<Operation *> &toErase) {
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (packing.rewriteDefinition(builder, op)) {
    toErase.push_back(op);
    return;
  }
  if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    retypeAllocation(builder, op, toErase);
  } else if (auto call = dyn_cast<func::CallOp>(op)) {
    SmallVector<Value> dynamicResults =
        retypeBoundaryValues(builder, call.getResults());
    // After the call and the reads of its results' logical sizes.
    builder.setInsertionPointAfter(logicalSizes.skipReadsAfter(call));
    for (Value result : dynamicResults)
      logicalSizes.fromDescriptor(builder, loc, result);
  } else if (auto castOp = dyn_cast<memref::CastOp>(op)) {
    if (isTiled(castOp.getType()))
      Value(castOp.getResult()).setType(convertType(castOp.getType()));
  } else if (auto to = dyn_cast<ToPhysicalOp>(op)) {
    to.replaceAllUsesWith(to.getSource());
    toErase.push_back(op);
  } else if (auto from = dyn_cast<FromPhysicalOp>(op)) {
    from.replaceAllUsesWith(from.getSource());
    toErase.push_back(op);
  } else if (auto func = dyn_cast<func::FuncOp>(op)) {
    func.setFunctionType(convertFunctionType(func.getFunctionType()));
    if (func.isExternal())
      return;
    SmallVector<Value> dynamicArgs =
        retypeBoundaryValues(builder, func.getArguments());
    // After the reads of the arguments' logical sizes.
    builder.setInsertionPoint(
        logicalSizes.firstAfterReads(&func.front().front()));
    for (Value arg : dynamicArgs)
      logicalSizes.fromDescriptor(builder, arg.getLoc(), arg);
  }
}

void NormalizeMemRefsPass::runOnOperation() {
  ModuleOp module = getOperation();
  SymbolTableCollection symbols;

  // Phase 1: check every op; report every problem, mutate nothing.
  bool ok = true;
  module.walk([&](Operation *op) {
    if (failed(checkOp(op, symbols)))
      ok = false;
  });
  if (!ok || failed(packing.collectViews(module)))
    return signalPassFailure();
  packing.groupWholeBytes(module);
  if (physicalTypes.empty())
    return;

  // Phase 2: rewrite the accesses while the memref values still have their
  // logical types (their layout maps give the new indices).
  SmallVector<Operation *> worklist;
  module.walk([&](Operation *op) { worklist.push_back(op); });
  OpBuilder builder(&getContext());
  SmallVector<Operation *> toErase;
  for (Operation *op : worklist)
    rewriteAccess(builder, op, toErase);

  // Phase 3: retype the definitions (allocations, function arguments, call
  // results) and drop the views, which are now the identity.
  for (Operation *op : worklist)
    retypeDefinition(builder, op, toErase);

  // Phase 4: the accesses of packed buffers, now of type memref<Bxi8>.
  packing.rewriteAccesses(builder, toErase);
  for (Operation *op : llvm::reverse(toErase))
    op->erase();
}
