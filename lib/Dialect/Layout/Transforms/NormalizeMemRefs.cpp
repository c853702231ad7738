//===- NormalizeMemRefs.cpp - layout-normalize-memrefs --------------------===//
//
// Rewrites every memref with a #layout.tiled layout into its physical
// identity-layout buffer, making the index arithmetic explicit. The pass
// first checks every use (and reports all unsupported ones) and only then
// mutates, so a failing run leaves the IR unchanged.
//
//===----------------------------------------------------------------------===//

#include "layout/Dialect/Layout/IR/AffineIndexOps.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/LoopEmitters.h"
#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "LogicalDescriptors.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
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

  /// The logical sizes of dynamic tiled memrefs and their descriptors at
  /// function boundaries (LogicalDescriptors.h).
  LogicalSizeTracker logicalSizes;

  // Sub-byte packing (E(n), docs/lowering.md "Sub-byte storage"): the
  // packed tiled types and their bits; the physical views and allocations
  // that share a packed buffer (to_physical results, from_physical
  // sources), with their packed type; the accesses rewritten last.
  struct PackedView {
    unsigned bits;
    MemRefType packedType;
    /// The physical dims (row-major slots) of the buffer.
    SmallVector<int64_t> physicalDims;
  };
  struct PackedAccess {
    Operation *op;
    unsigned bits;
    // Byte index: a value (memref.load/store) or a map over the access's
    // map operands (affine.load/store).
    Value byteIndex;
    AffineMap byteMap;
    Value bitOffset; // i8
  };
  llvm::DenseMap<Type, PackedView> packedTypes;
  llvm::DenseMap<Value, PackedView> packedViews;
  llvm::DenseSet<Operation *> packedPhysicalAllocs;
  llvm::DenseSet<Operation *> packedCasts;
  /// from_physical ops viewing a buffer not allocated here (a function
  /// argument, say) as a packed memref that is only read: packed copies.
  llvm::DenseSet<Operation *> packingCopies;
  /// Row loops unrolled by 8/n (groupWholeBytes): the stores of one byte's
  /// slots, keyed by the first, which writes the assembled byte.
  llvm::DenseMap<Operation *, SmallVector<Operation *>> wholeByteGroups;
  llvm::DenseSet<Operation *> wholeByteFollowers;
  SmallVector<PackedAccess> packedAccesses;

  LogicalResult checkType(Type type, Operation *where);
  LogicalResult collectPackedViews(ModuleOp module);
  void groupWholeBytes(ModuleOp module);
  std::optional<PackedView> getPackedView(Value memref) const;
  void recordPackedAccess(OpBuilder &builder, Operation *op, Value memref,
                          const PackedView &view);
  void rewritePackedAccess(OpBuilder &builder, const PackedAccess &access);
  void zeroTrailingBits(OpBuilder &builder, Location loc, Value buffer,
                        const PackedView &view);
  void emitPackingCopy(OpBuilder &builder, FromPhysicalOp op);
  bool isPackedByteCast(UnrealizedConversionCastOp cast) const;
  LogicalResult checkOp(Operation *op, SymbolTableCollection &symbols);
  LogicalResult checkLogicalSizesKnown(Value value, Operation *user);
  Type convertType(Type type) const;
  Type convertBoundaryType(Type type) const;
  FunctionType convertFunctionType(FunctionType type) const;
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
  if (*bits) {
    // E(n) packing: a buffer of ceil(slots * n / 8) bytes.
    SmallVector<int64_t> dims(physical->getShape());
    physical =
        MemRefType::get({getPackedByteCount(physical->getNumElements(), *bits)},
                        IntegerType::get(memref.getContext(), 8),
                        MemRefLayoutAttrInterface(), memref.getMemorySpace());
    packedTypes[memref] = PackedView{*bits, *physical, std::move(dims)};
  }
  physicalTypes[memref] = *physical;
  return success();
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
        if (isPackedByteCast(cast))
          packedCasts.insert(cast);
        else
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
        unsupported("uses a #layout.tiled memref; layout-normalize-memrefs "
                    "does not know how to rewrite this op (supported: "
                    "memref.alloc/alloca/dealloc/load/store/copy/cast/dim, "
                    "affine.load/store, layout.to_physical/from_physical, "
                    "func.func/call/return)");
      });
  return success(result);
}

//===----------------------------------------------------------------------===//
// Sub-byte packing (E(n)): the buffer is ceil(slots * n / 8) bytes, and every
// access is a byte access plus shift/mask in XLA's order (SubBytePacking.h).
//===----------------------------------------------------------------------===//

std::optional<NormalizeMemRefsPass::PackedView>
NormalizeMemRefsPass::getPackedView(Value memref) const {
  if (auto it = packedViews.find(memref); it != packedViews.end())
    return it->second;
  if (auto it = packedTypes.find(memref.getType()); it != packedTypes.end())
    return it->second;
  return std::nullopt;
}

/// builtin.unrealized_conversion_cast between a packed memref (or its
/// physical view) and exactly its byte buffer type, memref<B x i8>: how a
/// program (a test, an embedder) hands packed bytes in or reads them out. It
/// becomes the identity.
bool NormalizeMemRefsPass::isPackedByteCast(
    UnrealizedConversionCastOp cast) const {
  if (cast->getNumOperands() != 1 || cast->getNumResults() != 1)
    return false;
  Value in = cast.getOperand(0), out = cast.getResult(0);
  if (std::optional<PackedView> view = getPackedView(in))
    return out.getType() == view->packedType;
  auto it = packedTypes.find(out.getType());
  return it != packedTypes.end() && in.getType() == it->second.packedType;
}

/// Whether the packed memref `tiled` is only read (loads, physical views that
/// are only loaded, copies out of it, returns, deallocation, byte casts), so
/// that a packed copy of its buffer can stand for it.
static bool isOnlyRead(Value tiled) {
  auto isLoad = [](Operation *user) {
    return isa<memref::LoadOp, affine::AffineLoadOp>(user);
  };
  for (OpOperand &use : tiled.getUses()) {
    Operation *user = use.getOwner();
    if (isLoad(user) || isa<func::ReturnOp, memref::DeallocOp>(user))
      continue;
    if (auto copy = dyn_cast<memref::CopyOp>(user);
        copy && copy.getSource() == tiled)
      continue;
    if (auto view = dyn_cast<ToPhysicalOp>(user);
        view && llvm::all_of(view->getUsers(), isLoad))
      continue;
    return false;
  }
  return true;
}

/// Finds the physical views (to_physical results) and the allocations viewed
/// through from_physical (what --layout-bufferize makes of a tiled tensor)
/// that share the buffer of a packed memref, and checks that they are only
/// loaded, stored, copied and deallocated.
LogicalResult NormalizeMemRefsPass::collectPackedViews(ModuleOp module) {
  if (packedTypes.empty())
    return success();
  bool ok = true;
  module.walk([&](ToPhysicalOp op) {
    auto it = packedTypes.find(op.getSource().getType());
    if (it != packedTypes.end())
      packedViews[op.getResult()] = it->second;
  });
  module.walk([&](FromPhysicalOp op) {
    Value source = op.getSource();
    auto it = packedTypes.find(op.getType());
    auto existing = packedViews.find(source);
    if (it == packedTypes.end()) {
      if (existing != packedViews.end()) {
        op.emitOpError() << "views the buffer of a sub-byte packed memref as "
                         << op.getType()
                         << ", which does not have the same E(n) packing";
        ok = false;
      }
      return;
    }
    if (existing != packedViews.end()) {
      if (existing->second.packedType != it->second.packedType ||
          existing->second.bits != it->second.bits) {
        op.emitOpError() << "views one sub-byte packed buffer as "
                         << op.getType() << " with a different packing";
        ok = false;
      }
      return;
    }
    Operation *def = source.getDefiningOp();
    if (!isa_and_nonnull<memref::AllocOp, memref::AllocaOp>(def)) {
      // Not ours to repack in place: a packed copy, if nothing writes it.
      if (isOnlyRead(op.getResult())) {
        packingCopies.insert(op);
        return;
      }
      op.emitOpError() << "views " << source.getType()
                       << " as the sub-byte packed memref " << op.getType()
                       << ", which is written or passed on; "
                          "layout-normalize-memrefs packs in place only "
                          "buffers allocated in the function "
                          "(memref.alloc/alloca) or physical views of packed "
                          "memrefs (a buffer from elsewhere is packed into a "
                          "copy, which must only be read)";
      ok = false;
      return;
    }
    packedViews[source] = it->second;
    packedPhysicalAllocs.insert(def);
  });
  for (auto &entry : packedViews) {
    Value value = entry.first;
    const PackedView &view = entry.second;
    for (Operation *user : value.getUsers()) {
      bool supported =
          llvm::TypeSwitch<Operation *, bool>(user)
              .Case<memref::LoadOp, affine::AffineLoadOp, FromPhysicalOp,
                    memref::DeallocOp>([](Operation *) { return true; })
              .Case<UnrealizedConversionCastOp>(
                  [&](UnrealizedConversionCastOp cast) {
                    if (!isPackedByteCast(cast))
                      return false;
                    packedCasts.insert(cast);
                    return true;
                  })
              .Case<memref::StoreOp, affine::AffineStoreOp>(
                  [&](auto store) { return store.getMemRef() == value; })
              .Case<memref::CopyOp>([&](memref::CopyOp copy) {
                Value other = copy.getSource() == value ? copy.getTarget()
                                                        : copy.getSource();
                auto o = packedViews.find(other);
                return o != packedViews.end() &&
                       o->second.packedType == view.packedType;
              })
              .Default([](Operation *) { return false; });
      if (!supported) {
        user->emitOpError()
            << "uses " << value.getType()
            << ", the physical view of a sub-byte packed (E(" << view.bits
            << ")) buffer; layout-normalize-memrefs only rewrites its "
               "loads, stores, copies between packed buffers and "
               "deallocations";
        ok = false;
      }
    }
  }
  return success(ok);
}

/// Row loops that store every slot of whole bytes of a packed view are
/// unrolled by 8/n (unrollWholeByteRow): the stores of one iteration form a
/// group that rewritePackedAccess turns into one store of the assembled byte.
void NormalizeMemRefsPass::groupWholeBytes(ModuleOp module) {
  SmallVector<Operation *> stores;
  module.walk([&](Operation *op) {
    if (isa<memref::StoreOp, affine::AffineStoreOp>(op) &&
        packedViews.count(op->getOperand(1)))
      stores.push_back(op);
  });
  for (Operation *store : stores) {
    const PackedView &view = packedViews.find(store->getOperand(1))->second;
    SmallVector<Operation *> group =
        unrollWholeByteRow(store, view.physicalDims, view.bits);
    if (group.empty())
      continue;
    wholeByteFollowers.insert(std::next(group.begin()), group.end());
    wholeByteGroups[store] = std::move(group);
  }
}

/// Computes the byte and bit offset of a load/store of a packed memref
/// (logical indices of a tiled memref, or physical indices of a view) while
/// the memref still has its unpacked type; the access itself is rebuilt
/// after retyping (rewritePackedAccess).
void NormalizeMemRefsPass::recordPackedAccess(OpBuilder &builder, Operation *op,
                                              Value memref,
                                              const PackedView &view) {
  Location loc = op->getLoc();
  auto type = cast<MemRefType>(memref.getType());
  auto attr = dyn_cast<TiledLayoutAttr>(type.getLayout());
  PackedAccess access{op, view.bits, Value(), AffineMap(), Value()};
  // The first store of a whole-byte group needs no bit offset.
  bool wholeByte = wholeByteGroups.count(op);
  Value offset;
  if (isa<affine::AffineLoadOp, affine::AffineStoreOp>(op)) {
    AffineMap accessMap = isa<affine::AffineLoadOp>(op)
                              ? cast<affine::AffineLoadOp>(op).getAffineMap()
                              : cast<affine::AffineStoreOp>(op).getAffineMap();
    ValueRange operands =
        isa<affine::AffineLoadOp>(op)
            ? cast<affine::AffineLoadOp>(op).getMapOperands()
            : cast<affine::AffineStoreOp>(op).getMapOperands();
    AffineMap physical =
        attr ? attr.getAffineMap().compose(accessMap) : accessMap;
    AffineIndexOps ops{builder.getContext()};
    SmallVector<AffineExpr> results(physical.getResults());
    AffineExpr linear =
        linearizeIndex<AffineExpr>(results, view.physicalDims, ops);
    auto [byte, bitOffset] =
        getPackedPosition<AffineExpr>(linear, view.bits, ops);
    unsigned nd = physical.getNumDims(), ns = physical.getNumSymbols();
    access.byteMap = simplifyAffineMap(AffineMap::get(nd, ns, byte));
    if (!wholeByte)
      offset = affine::AffineApplyOp::create(
          builder, loc, simplifyAffineMap(AffineMap::get(nd, ns, bitOffset)),
          operands);
  } else {
    ValueRange indices = isa<memref::LoadOp>(op)
                             ? cast<memref::LoadOp>(op).getIndices()
                             : cast<memref::StoreOp>(op).getIndices();
    ArithIndexOps ops(builder, loc);
    SmallVector<Value> physical(indices);
    if (attr) {
      FailureOr<TiledLayoutMap> map =
          attr.getTiledLayoutMap(type.getShape(), type.getElementType(),
                                 [&] { return emitError(loc); });
      SmallVector<Value, 6> p =
          map->apply<Value>(ArrayRef<Value>(physical), ops);
      physical.assign(p.begin(), p.end());
    }
    Value linear = linearizeIndex<Value>(physical, view.physicalDims, ops);
    if (wholeByte) {
      access.byteIndex = ops.floorDiv(linear, 8 / view.bits);
    } else {
      auto [byte, bitOffset] = getPackedPosition<Value>(linear, view.bits, ops);
      access.byteIndex = byte;
      offset = bitOffset;
    }
  }
  if (offset)
    access.bitOffset = builder.createOrFold<arith::IndexCastOp>(
        loc, builder.getI8Type(), offset);
  packedAccesses.push_back(access);
}

/// Rebuilds a recorded access on the packed i8 buffer: a byte load and a
/// shift for loads; load, mask, or and store of the byte for stores.
void NormalizeMemRefsPass::rewritePackedAccess(OpBuilder &builder,
                                               const PackedAccess &access) {
  Operation *op = access.op;
  builder.setInsertionPoint(op);
  Location loc = op->getLoc();
  bool isAffine = static_cast<bool>(access.byteMap);
  Value buffer =
      isa<memref::LoadOp, memref::StoreOp>(op)
          ? (isa<memref::LoadOp>(op) ? cast<memref::LoadOp>(op).getMemRef()
                                     : cast<memref::StoreOp>(op).getMemRef())
          : (isa<affine::AffineLoadOp>(op)
                 ? cast<affine::AffineLoadOp>(op).getMemRef()
                 : cast<affine::AffineStoreOp>(op).getMemRef());
  SmallVector<Value> mapOperands;
  if (auto load = dyn_cast<affine::AffineLoadOp>(op))
    mapOperands.assign(load.getMapOperands().begin(),
                       load.getMapOperands().end());
  else if (auto store = dyn_cast<affine::AffineStoreOp>(op))
    mapOperands.assign(store.getMapOperands().begin(),
                       store.getMapOperands().end());
  auto storeByte = [&](Value newByte) {
    if (isAffine)
      affine::AffineStoreOp::create(builder, loc, newByte, buffer,
                                    access.byteMap, mapOperands);
    else
      memref::StoreOp::create(builder, loc, newByte, buffer,
                              ValueRange{access.byteIndex});
  };
  if (auto it = wholeByteGroups.find(op); it != wholeByteGroups.end()) {
    // The group's stores fill one byte: store it whole, after the last.
    SmallVector<Value> elements;
    for (Operation *store : it->second)
      elements.push_back(store->getOperand(0));
    builder.setInsertionPoint(it->second.back());
    storeByte(assemblePackedByte(builder, loc, elements));
    return;
  }
  auto loadByte = [&]() -> Value {
    if (isAffine)
      return affine::AffineLoadOp::create(builder, loc, buffer, access.byteMap,
                                          mapOperands);
    return memref::LoadOp::create(builder, loc, buffer,
                                  ValueRange{access.byteIndex});
  };
  Value byte = loadByte();
  if (op->getNumResults() == 1) {
    Value element = extractPackedElement(builder, loc, byte, access.bitOffset,
                                         op->getResult(0).getType());
    op->getResult(0).replaceAllUsesWith(element);
    return;
  }
  Value value = isa<memref::StoreOp>(op)
                    ? cast<memref::StoreOp>(op).getValueToStore()
                    : cast<affine::AffineStoreOp>(op).getValueToStore();
  storeByte(insertPackedElement(builder, loc, byte, access.bitOffset, value));
}

/// The bits after the last slot of a packed buffer (when slots * n is not a
/// multiple of 8) hold no slot; they are zeroed at allocation, as XLA's
/// PackIntN leaves them.
void NormalizeMemRefsPass::zeroTrailingBits(OpBuilder &builder, Location loc,
                                            Value buffer,
                                            const PackedView &view) {
  int64_t slots = 1;
  for (int64_t d : view.physicalDims)
    slots *= d;
  if (slots % (8 / view.bits) == 0)
    return;
  Value zero = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(builder.getI8Type(), 0));
  Value last = arith::ConstantIndexOp::create(
      builder, loc, view.packedType.getDimSize(0) - 1);
  memref::StoreOp::create(builder, loc, zero, buffer, ValueRange{last});
}

/// A from_physical of a buffer the function did not allocate, as a packed
/// memref that is only read: a new packed buffer filled from it slot by slot.
void NormalizeMemRefsPass::emitPackingCopy(OpBuilder &builder,
                                           FromPhysicalOp op) {
  Location loc = op.getLoc();
  const PackedView &view = packedTypes.find(op.getType())->second;
  builder.setInsertionPoint(op);
  Value packed = memref::AllocOp::create(builder, loc, view.packedType);
  zeroTrailingBits(builder, loc, packed, view);
  emitPackingLoops(builder, loc, op.getSource(), packed, view.physicalDims,
                   view.bits);
  op.replaceAllUsesWith(packed);
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
  if (!ok || failed(collectPackedViews(module)))
    return signalPassFailure();
  groupWholeBytes(module);
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
            logicalSizes.get(builder, dim.getSource())[*dim.getConstantIndex()];
        dim.replaceAllUsesWith(
            getValueOrCreateConstantIndexOp(builder, loc, size));
        toErase.push_back(op);
      }
      continue;
    }
    if (isa<func::CallOp, func::ReturnOp>(op)) {
      // Dynamic tiled operands leave as their logical descriptors.
      for (OpOperand &operand : op->getOpOperands())
        if (isDynamicTiledMemRef(operand.get()))
          operand.set(logicalSizes.toDescriptor(builder, loc, operand.get()));
      continue;
    }
    // Packed (E(n)) buffers: recorded here, rebuilt after retyping.
    if (isa<memref::LoadOp, memref::StoreOp, affine::AffineLoadOp,
            affine::AffineStoreOp>(op)) {
      Value memref = op->getOperand(
          isa<memref::StoreOp, affine::AffineStoreOp>(op) ? 1 : 0);
      if (std::optional<PackedView> view = getPackedView(memref)) {
        // A whole-byte group's other stores go with its first.
        if (!wholeByteFollowers.contains(op))
          recordPackedAccess(builder, op, memref, *view);
        continue;
      }
    }
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
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

  // Phase 3: retype the definitions (allocations, function arguments, call
  // results) and drop the views, which are now the identity.
  for (Operation *op : worklist) {
    builder.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (packedPhysicalAllocs.contains(op)) {
      // A physical buffer viewed as a packed memref (from_physical).
      Value result = op->getResult(0);
      const PackedView &view = packedViews.find(result)->second;
      auto alloc = dyn_cast<memref::AllocOp>(op);
      IntegerAttr alignment =
          alloc ? alloc.getAlignmentAttr()
                : cast<memref::AllocaOp>(op).getAlignmentAttr();
      Value newAlloc = alloc ? memref::AllocOp::create(
                                   builder, loc, view.packedType, alignment)
                                   .getResult()
                             : memref::AllocaOp::create(
                                   builder, loc, view.packedType, alignment)
                                   .getResult();
      zeroTrailingBits(builder, loc, newAlloc, view);
      result.replaceAllUsesWith(newAlloc);
      toErase.push_back(op);
      continue;
    }
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
      if (auto packed = packedTypes.find(type); packed != packedTypes.end())
        zeroTrailingBits(builder, loc, newAlloc, packed->second);
      result.replaceAllUsesWith(newAlloc);
      toErase.push_back(op);
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      SmallVector<Value> dynamicResults;
      for (Value result : call.getResults()) {
        if (isDynamicTiledMemRef(result)) {
          (void)logicalSizes.get(builder, result);
          dynamicResults.push_back(result);
        } else {
          result.setType(convertType(result.getType()));
        }
      }
      // After the call and the reads of its results' logical sizes.
      builder.setInsertionPointAfter(logicalSizes.skipReadsAfter(call));
      for (Value result : dynamicResults)
        logicalSizes.fromDescriptor(builder, loc, result);
    } else if (auto castOp = dyn_cast<memref::CastOp>(op)) {
      if (isTiled(castOp.getType()))
        Value(castOp.getResult()).setType(convertType(castOp.getType()));
    } else if (packedCasts.contains(op)) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      toErase.push_back(op);
    } else if (auto to = dyn_cast<ToPhysicalOp>(op)) {
      to.replaceAllUsesWith(to.getSource());
      toErase.push_back(op);
    } else if (auto from = dyn_cast<FromPhysicalOp>(op)) {
      if (packingCopies.contains(op))
        emitPackingCopy(builder, from);
      else
        from.replaceAllUsesWith(from.getSource());
      toErase.push_back(op);
    } else if (auto func = dyn_cast<func::FuncOp>(op)) {
      func.setFunctionType(convertFunctionType(func.getFunctionType()));
      if (func.isExternal())
        continue;
      SmallVector<BlockArgument> dynamicArgs;
      for (BlockArgument arg : func.getArguments()) {
        if (isDynamicTiledMemRef(arg)) {
          (void)logicalSizes.get(builder, arg);
          dynamicArgs.push_back(arg);
        } else {
          arg.setType(convertType(arg.getType()));
        }
      }
      // After the reads of the arguments' logical sizes.
      builder.setInsertionPoint(
          logicalSizes.firstAfterReads(&func.front().front()));
      for (BlockArgument arg : dynamicArgs)
        logicalSizes.fromDescriptor(builder, arg.getLoc(), arg);
    }
  }

  // Phase 4: the accesses of packed buffers, now of type memref<Bxi8>.
  for (const PackedAccess &access : packedAccesses) {
    rewritePackedAccess(builder, access);
    toErase.push_back(access.op);
    if (auto it = wholeByteGroups.find(access.op); it != wholeByteGroups.end())
      toErase.append(std::next(it->second.begin()), it->second.end());
  }
  for (Operation *op : llvm::reverse(toErase))
    op->erase();
}
