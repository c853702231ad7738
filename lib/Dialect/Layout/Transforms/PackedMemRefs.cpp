//===- PackedMemRefs.cpp - E(n) buffers in layout-normalize-memrefs -------===//
//
// Sub-byte packing (E(n)): the buffer is ceil(slots * n / 8) bytes, and every
// access is a byte access plus shift/mask in XLA's order (SubBytePacking.h).
//
//===----------------------------------------------------------------------===//

#include "PackedMemRefs.h"

#include "layout/Dialect/Layout/IR/AffineIndexOps.h"
#include "layout/Dialect/Layout/IR/LayoutAttributes.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"
#include "layout/Dialect/Layout/Utils/ArithIndexOps.h"
#include "layout/Dialect/Layout/Utils/SubBytePacking.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::layout;

MemRefType PackedMemRefs::addPackedType(MemRefType type, MemRefType physical,
                                        unsigned bits) {
  SmallVector<int64_t> dims(physical.getShape());
  auto packed =
      MemRefType::get({getPackedByteCount(physical.getNumElements(), bits)},
                      IntegerType::get(type.getContext(), 8),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  packedTypes[type] = PackedView{bits, packed, std::move(dims)};
  return packed;
}

bool PackedMemRefs::recordByteCast(UnrealizedConversionCastOp cast) {
  if (!isPackedByteCast(cast))
    return false;
  packedCasts.insert(cast);
  return true;
}

std::optional<PackedMemRefs::PackedView>
PackedMemRefs::getPackedView(Value memref) const {
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
bool PackedMemRefs::isPackedByteCast(UnrealizedConversionCastOp cast) const {
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
LogicalResult PackedMemRefs::collectViews(ModuleOp module) {
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
                    return recordByteCast(cast);
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
void PackedMemRefs::groupWholeBytes(ModuleOp module) {
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
void PackedMemRefs::recordPackedAccess(OpBuilder &builder, Operation *op,
                                       Value memref, const PackedView &view) {
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
void PackedMemRefs::rewritePackedAccess(OpBuilder &builder,
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
void PackedMemRefs::zeroTrailingBits(OpBuilder &builder, Location loc,
                                     Value buffer, const PackedView &view) {
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
void PackedMemRefs::emitPackingCopy(OpBuilder &builder, FromPhysicalOp op) {
  Location loc = op.getLoc();
  const PackedView &view = packedTypes.find(op.getType())->second;
  builder.setInsertionPoint(op);
  Value packed = memref::AllocOp::create(builder, loc, view.packedType);
  zeroTrailingBits(builder, loc, packed, view);
  emitPackingLoops(builder, loc, op.getSource(), packed, view.physicalDims,
                   view.bits);
  op.replaceAllUsesWith(packed);
}
bool PackedMemRefs::recordAccess(OpBuilder &builder, Operation *op) {
  if (!isa<memref::LoadOp, memref::StoreOp, affine::AffineLoadOp,
           affine::AffineStoreOp>(op))
    return false;
  Value memref =
      op->getOperand(isa<memref::StoreOp, affine::AffineStoreOp>(op) ? 1 : 0);
  std::optional<PackedView> view = getPackedView(memref);
  if (!view)
    return false;
  // A whole-byte group's other stores go with its first.
  if (!wholeByteFollowers.contains(op))
    recordPackedAccess(builder, op, memref, *view);
  return true;
}

bool PackedMemRefs::rewriteDefinition(OpBuilder &builder, Operation *op) {
  Location loc = op->getLoc();
  if (packedPhysicalAllocs.contains(op)) {
    // A physical buffer viewed as a packed memref (from_physical).
    Value result = op->getResult(0);
    const PackedView &view = packedViews.find(result)->second;
    auto alloc = dyn_cast<memref::AllocOp>(op);
    IntegerAttr alignment = alloc
                                ? alloc.getAlignmentAttr()
                                : cast<memref::AllocaOp>(op).getAlignmentAttr();
    Value newAlloc =
        alloc
            ? memref::AllocOp::create(builder, loc, view.packedType, alignment)
                  .getResult()
            : memref::AllocaOp::create(builder, loc, view.packedType, alignment)
                  .getResult();
    zeroTrailingBits(builder, loc, newAlloc, view);
    result.replaceAllUsesWith(newAlloc);
    return true;
  }
  if (packedCasts.contains(op)) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    return true;
  }
  if (packingCopies.contains(op)) {
    emitPackingCopy(builder, cast<FromPhysicalOp>(op));
    return true;
  }
  return false;
}

void PackedMemRefs::initAllocation(OpBuilder &builder, Location loc,
                                   Value buffer, MemRefType type) const {
  if (auto packed = packedTypes.find(type); packed != packedTypes.end())
    zeroTrailingBits(builder, loc, buffer, packed->second);
}

void PackedMemRefs::rewriteAccesses(OpBuilder &builder,
                                    SmallVectorImpl<Operation *> &toErase) {
  for (const PackedAccess &access : packedAccesses) {
    rewritePackedAccess(builder, access);
    toErase.push_back(access.op);
    if (auto it = wholeByteGroups.find(access.op); it != wholeByteGroups.end())
      toErase.append(std::next(it->second.begin()), it->second.end());
  }
}
