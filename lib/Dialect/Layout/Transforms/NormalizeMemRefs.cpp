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
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"

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
#include "llvm/ADT/SmallPtrSet.h"
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

/// A tiled memref type with a dynamic dim: it crosses function boundaries as
/// a descriptor of its LOGICAL sizes (see docs/lowering.md, "Dynamic tiled
/// memrefs at function boundaries").
bool isDynamicTiled(Type type) {
  MemRefType memref = getTiledMemRefType(type);
  return memref && !memref.hasStaticShape();
}
bool isDynamicTiled(Value value) { return isDynamicTiled(value.getType()); }

/// The boundary type of a dynamic tiled memref: the same logical shape with
/// the identity layout (its descriptor's sizes are the logical sizes, its
/// pointer is the physical buffer).
MemRefType getLogicalDescriptorType(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         MemRefLayoutAttrInterface(), type.getMemorySpace());
}

std::string typeToString(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '\'' << type << '\'';
  return out;
}

/// The index algebra of TiledLayoutMap::apply over `index` values. Logical
/// indices of in-bounds accesses are non-negative, so division and remainder
/// are unsigned (cheaper than the signed floordiv/mod expansion). Constants
/// are shared and constant operands fold.
struct ArithIndexOps {
  ArithIndexOps(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  OpBuilder &builder;
  Location loc;
  llvm::DenseMap<int64_t, Value> constants;

  Value constant(int64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIndexOp::create(builder, loc, v);
    return c;
  }
  Value add(Value a, Value b) {
    return builder.createOrFold<arith::AddIOp>(loc, a, b);
  }
  Value mul(Value a, int64_t b) {
    return builder.createOrFold<arith::MulIOp>(loc, a, constant(b));
  }
  Value floorDiv(Value a, int64_t b) {
    return builder.createOrFold<arith::DivUIOp>(loc, a, constant(b));
  }
  Value mod(Value a, int64_t b) {
    return builder.createOrFold<arith::RemUIOp>(loc, a, constant(b));
  }
};

class NormalizeMemRefsPass
    : public ::mlir::layout::impl::LayoutNormalizeMemRefsBase<
          NormalizeMemRefsPass> {
public:
  void runOnOperation() override;

private:
  /// The physical type of every tiled memref type seen (computed and
  /// verified in the check phase).
  llvm::DenseMap<Type, MemRefType> physicalTypes;

  /// Logical sizes of dynamic tiled memref values (one per dim, static
  /// dims as attributes), built once where the value is defined.
  llvm::DenseMap<Value, SmallVector<OpFoldResult>> logicalSizes;
  /// The `memref.dim` ops that read a logical size from a boundary
  /// descriptor (function argument, call result): they keep reading the
  /// descriptor when the value's other uses move to the physical view.
  llvm::SmallPtrSet<Operation *, 8> descriptorReads;

  LogicalResult checkType(Type type, Operation *where);
  LogicalResult checkOp(Operation *op, SymbolTableCollection &symbols);
  LogicalResult checkLogicalSizesKnown(Value value, Operation *user);
  Type convertType(Type type) const;
  Type convertBoundaryType(Type type) const;
  FunctionType convertFunctionType(FunctionType type) const;
  ArrayRef<OpFoldResult> getLogicalSizes(OpBuilder &builder, Value value);
  Value toLogicalDescriptor(OpBuilder &builder, Location loc, Value value);
  void fromLogicalDescriptor(OpBuilder &builder, Location loc, Value value);
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
  physicalTypes[memref] = *physical;
  return success();
}

Type NormalizeMemRefsPass::convertType(Type type) const {
  auto it = physicalTypes.find(type);
  return it == physicalTypes.end() ? type : Type(it->second);
}

Type NormalizeMemRefsPass::convertBoundaryType(Type type) const {
  if (isDynamicTiled(type))
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

/// Where the logical sizes of a dynamic tiled memref come from: a function
/// argument or call result (its logical descriptor), an allocation (its
/// operands), a cast (its source), a `from_physical` of a `to_physical`.
static Value getLogicalSizesOrigin(Value value) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg;
    Operation *def = value.getDefiningOp();
    if (isa<memref::AllocOp, memref::AllocaOp, func::CallOp>(def))
      return value;
    if (auto castOp = dyn_cast<memref::CastOp>(def)) {
      value = castOp.getSource();
      continue;
    }
    if (auto from = dyn_cast<FromPhysicalOp>(def))
      if (auto to = from.getSource().getDefiningOp<ToPhysicalOp>()) {
        value = to.getSource();
        continue;
      }
    return {};
  }
}

LogicalResult NormalizeMemRefsPass::checkLogicalSizesKnown(Value value,
                                                           Operation *user) {
  if (!isDynamicTiled(value) || getLogicalSizesOrigin(value))
    return success();
  return user->emitOpError()
         << "needs the logical sizes of the dynamic #layout.tiled memref "
         << typeToString(value.getType())
         << ", which are lost: it is a layout.from_physical of a physical "
            "buffer (whose extents are rounded up to whole tiles); view a "
            "memref whose logical sizes are known instead";
}

ArrayRef<OpFoldResult> NormalizeMemRefsPass::getLogicalSizes(OpBuilder &builder,
                                                             Value value) {
  auto it = logicalSizes.find(value);
  if (it != logicalSizes.end())
    return it->second;
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t size : type.getShape())
    sizes.push_back(builder.getIndexAttr(size));
  Value origin = getLogicalSizesOrigin(value);
  if (origin != value) {
    // A view: the origin's sizes, where the view's own dims are dynamic.
    ArrayRef<OpFoldResult> originSizes = getLogicalSizes(builder, origin);
    for (auto [k, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        sizes[k] = originSizes[k];
  } else if (Operation *def = value.getDefiningOp();
             def && isa<memref::AllocOp, memref::AllocaOp>(def)) {
    unsigned next = 0;
    for (auto [k, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        sizes[k] = def->getOperand(next++);
  } else {
    // A boundary descriptor (function argument, call result): memref.dim of
    // the value, which becomes the logical descriptor in phase 3.
    OpBuilder::InsertionGuard guard(builder);
    if (auto arg = dyn_cast<BlockArgument>(value))
      builder.setInsertionPointToStart(arg.getOwner());
    else
      builder.setInsertionPointAfter(value.getDefiningOp());
    for (auto [k, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size)) {
        auto dim = memref::DimOp::create(builder, value.getLoc(), value,
                                         static_cast<int64_t>(k));
        descriptorReads.insert(dim);
        // Its index constant too: phase 3 inserts after this group.
        descriptorReads.insert(dim.getIndex().getDefiningOp());
        sizes[k] = dim.getResult();
      }
  }
  return logicalSizes[value] = sizes;
}

/// The logical descriptor of a dynamic tiled memref `value` (about to become
/// its physical buffer): the physical buffer's pointer with the logical
/// sizes and row-major logical strides (which nothing reads).
Value NormalizeMemRefsPass::toLogicalDescriptor(OpBuilder &builder,
                                                Location loc, Value value) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> sizes(getLogicalSizes(builder, value));
  SmallVector<OpFoldResult> strides = getRowMajorStrides(builder, loc, sizes);
  auto descriptor = memref::ReinterpretCastOp::create(
      builder, loc, getLogicalDescriptorType(type), value,
      builder.getIndexAttr(0), sizes, strides);
  // The tiled type, from which the physical extents can be rebuilt.
  descriptor->setAttr(kLogicalDescriptorAttrName, TypeAttr::get(type));
  return descriptor;
}

/// Retypes the boundary value `value` (a function argument or call result of
/// dynamic tiled type) to its logical descriptor and moves its uses to the
/// physical view built from it: extents from the logical sizes through the
/// layout map, row-major physical strides.
void NormalizeMemRefsPass::fromLogicalDescriptor(OpBuilder &builder,
                                                 Location loc, Value value) {
  auto type = cast<MemRefType>(value.getType());
  SmallVector<OpFoldResult> logical(getLogicalSizes(builder, value));
  value.setType(getLogicalDescriptorType(type));
  // The type was verified in phase 1.
  FailureOr<Value> view = createPhysicalView(builder, loc, type, value, logical,
                                             [&] { return emitError(loc); });
  llvm::SmallPtrSet<Operation *, 8> except(descriptorReads.begin(),
                                           descriptorReads.end());
  except.insert(view->getDefiningOp());
  value.replaceAllUsesExcept(*view, except);
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
        [](Type t) { return isTiled(t) && !isDynamicTiled(t); });
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
      .Case<func::CallOp>([&](func::CallOp call) {
        auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        bool staticTiled = llvm::any_of(
            llvm::concat<Value>(call.getOperands(), call.getResults()),
            [](Value v) { return isTiled(v) && !isDynamicTiled(v); });
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
        if (copy.getSource().getType() != copy.getTarget().getType())
          unsupported("copies between different memref types " +
                      typeToString(copy.getSource().getType()) + " and " +
                      typeToString(copy.getTarget().getType()) +
                      "; layout-normalize-memrefs only rewrites copies "
                      "between memrefs with the same #layout.tiled layout");
      })
      .Default([&](Operation *) {
        unsupported("uses a #layout.tiled memref; layout-normalize-memrefs "
                    "does not know how to rewrite this op (supported: "
                    "memref.alloc/alloca/dealloc/load/store/copy/cast/dim, "
                    "affine.load/store, layout.to_physical/from_physical, "
                    "func.func/call/return)");
      });
  return success(result);
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
  if (!ok)
    return signalPassFailure();
  if (physicalTypes.empty())
    return;

  // Phase 2: rewrite the accesses while the memref values still have their
  // logical types (their layout maps give the new indices).
  SmallVector<Operation *> worklist;
  module.walk([&](Operation *op) { worklist.push_back(op); });
  OpBuilder builder(&getContext());
  SmallVector<Operation *> toErase;
  auto expandIndices = [&](MemRefType type, ValueRange indices,
                           Location loc) -> SmallVector<Value> {
    // The map was built and verified in phase 1.
    auto attr = cast<TiledLayoutAttr>(type.getLayout());
    FailureOr<TiledLayoutMap> map = attr.getTiledLayoutMap(
        type.getShape(), type.getElementType(), [&] { return emitError(loc); });
    ArithIndexOps ops(builder, loc);
    SmallVector<Value> logical(indices);
    SmallVector<Value, 6> physical =
        map->apply<Value>(ArrayRef<Value>(logical), ops);
    return SmallVector<Value>(physical);
  };
  for (Operation *op : worklist) {
    builder.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (auto dim = dyn_cast<memref::DimOp>(op)) {
      // The logical size, never the physical buffer's extent.
      if (isTiled(dim.getSource())) {
        OpFoldResult size =
            getLogicalSizes(builder, dim.getSource())[*dim.getConstantIndex()];
        dim.replaceAllUsesWith(
            getValueOrCreateConstantIndexOp(builder, loc, size));
        toErase.push_back(op);
      }
    } else if (isa<func::CallOp, func::ReturnOp>(op)) {
      // Dynamic tiled operands leave as their logical descriptors.
      for (OpOperand &operand : op->getOpOperands())
        if (isDynamicTiled(operand.get()))
          operand.set(toLogicalDescriptor(builder, loc, operand.get()));
    } else if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (MemRefType type = getTiledMemRefType(load.getMemRef().getType())) {
        auto newLoad = memref::LoadOp::create(
            builder, loc, load.getMemRef(),
            expandIndices(type, load.getIndices(), loc), load.getNontemporal());
        load.replaceAllUsesWith(newLoad.getResult());
        toErase.push_back(op);
      }
    } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (MemRefType type = getTiledMemRefType(store.getMemRef().getType())) {
        memref::StoreOp::create(builder, loc, store.getValueToStore(),
                                store.getMemRef(),
                                expandIndices(type, store.getIndices(), loc),
                                store.getNontemporal());
        toErase.push_back(op);
      }
    } else if (auto load = dyn_cast<affine::AffineLoadOp>(op)) {
      if (MemRefType type = getTiledMemRefType(load.getMemRef().getType())) {
        AffineMap map = simplifyAffineMap(
            type.getLayout().getAffineMap().compose(load.getAffineMap()));
        auto newLoad = affine::AffineLoadOp::create(
            builder, loc, load.getMemRef(), map, load.getMapOperands());
        load.replaceAllUsesWith(newLoad.getResult());
        toErase.push_back(op);
      }
    } else if (auto store = dyn_cast<affine::AffineStoreOp>(op)) {
      if (MemRefType type = getTiledMemRefType(store.getMemRef().getType())) {
        AffineMap map = simplifyAffineMap(
            type.getLayout().getAffineMap().compose(store.getAffineMap()));
        affine::AffineStoreOp::create(builder, loc, store.getValueToStore(),
                                      store.getMemRef(), map,
                                      store.getMapOperands());
        toErase.push_back(op);
      }
    }
  }

  // Phase 3: retype the definitions (allocations, function arguments, call
  // results) and drop the views, which are now the identity.
  for (Operation *op : worklist) {
    builder.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      Value result = op->getResult(0);
      MemRefType type = getTiledMemRefType(result.getType());
      if (!type)
        continue;
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
          builder, loc, cast<TiledLayoutAttr>(type.getLayout()),
          type.getShape(), physical.getShape(), dynamicSizes);
      Value newAlloc =
          alloc ? memref::AllocOp::create(builder, loc, physical, sizes,
                                          symbolOperands, alignment)
                      .getResult()
                : memref::AllocaOp::create(builder, loc, physical, sizes,
                                           symbolOperands, alignment)
                      .getResult();
      result.replaceAllUsesWith(newAlloc);
      toErase.push_back(op);
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      SmallVector<Value> dynamicResults;
      for (Value result : call.getResults()) {
        if (isDynamicTiled(result)) {
          (void)getLogicalSizes(builder, result);
          dynamicResults.push_back(result);
        } else {
          result.setType(convertType(result.getType()));
        }
      }
      // After the call and the reads of its results' logical sizes.
      Operation *last = call;
      while (last->getNextNode() &&
             descriptorReads.contains(last->getNextNode()))
        last = last->getNextNode();
      builder.setInsertionPointAfter(last);
      for (Value result : dynamicResults)
        fromLogicalDescriptor(builder, loc, result);
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
        continue;
      SmallVector<BlockArgument> dynamicArgs;
      for (BlockArgument arg : func.getArguments()) {
        if (isDynamicTiled(arg)) {
          (void)getLogicalSizes(builder, arg);
          dynamicArgs.push_back(arg);
        } else {
          arg.setType(convertType(arg.getType()));
        }
      }
      // After the reads of the arguments' logical sizes.
      Operation *first = &func.front().front();
      while (descriptorReads.contains(first))
        first = first->getNextNode();
      builder.setInsertionPoint(first);
      for (BlockArgument arg : dynamicArgs)
        fromLogicalDescriptor(builder, arg.getLoc(), arg);
    }
  }
  for (Operation *op : llvm::reverse(toErase))
    op->erase();
}
