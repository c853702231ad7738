//===- PackedMemRefs.h - Sub-byte buffers in normalize-memrefs --*- C++ -*-===//
//
// Sub-byte packing (E(n), docs/lowering.md "Sub-byte storage") in
// --layout-normalize-memrefs: a packed #layout.tiled memref becomes a buffer
// of ceil(slots * n / 8) bytes, memref<B x i8>, and every access a byte
// access plus shift/mask in XLA's order (the helpers of
// layout/Dialect/Layout/Utils/SubBytePacking.h). The packed tiled types, the
// physical views and allocations that share a packed buffer (to_physical
// results, from_physical sources) and the accesses, rewritten after the
// buffers are retyped. Private to the pass.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PACKEDMEMREFS_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PACKEDMEMREFS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir::layout {

class FromPhysicalOp;

class PackedMemRefs {
public:
  /// Records the tiled type `type`, packed with `bits` bits per slot, whose
  /// unpacked physical type is `physical`; returns its byte buffer type.
  MemRefType addPackedType(MemRefType type, MemRefType physical, unsigned bits);

  /// Whether `cast` is a builtin.unrealized_conversion_cast between a packed
  /// memref (or its physical view) and exactly its byte buffer type; such a
  /// cast is recorded and becomes the identity.
  bool recordByteCast(UnrealizedConversionCastOp cast);

  /// After every op is checked: finds the physical views and the
  /// allocations that share a packed buffer and reports their unsupported
  /// uses.
  LogicalResult collectViews(ModuleOp module);

  /// Unrolls the row loops that store whole bytes of a packed view
  /// (unrollWholeByteRow) and groups their stores.
  void groupWholeBytes(ModuleOp module);

  /// Phase 2 (the memrefs still have their logical types): if `op` is a
  /// load or store of a packed memref or view, records its byte and bit
  /// offset (built at the builder's insertion point) and returns true.
  bool recordAccess(OpBuilder &builder, Operation *op);

  /// Phase 3: rebuilds a definition of a packed buffer (a physical
  /// allocation viewed as a packed memref, a byte cast, a from_physical
  /// that becomes a packed copy) at the builder's insertion point; returns
  /// true if `op` was one (it is then dead and must be erased).
  bool rewriteDefinition(OpBuilder &builder, Operation *op);

  /// Phase 3: zeroes the trailing bits of `buffer`, the new allocation of
  /// the tiled type `type`, if that type is packed.
  void initAllocation(OpBuilder &builder, Location loc, Value buffer,
                      MemRefType type) const;

  /// Phase 4 (the buffers are memref<B x i8>): rebuilds the recorded
  /// accesses and appends the ops they replace to `toErase`.
  void rewriteAccesses(OpBuilder &builder,
                       SmallVectorImpl<Operation *> &toErase);

private:
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

  std::optional<PackedView> getPackedView(Value memref) const;
  bool isPackedByteCast(UnrealizedConversionCastOp cast) const;
  void recordPackedAccess(OpBuilder &builder, Operation *op, Value memref,
                          const PackedView &view);
  void rewritePackedAccess(OpBuilder &builder, const PackedAccess &access);
  static void zeroTrailingBits(OpBuilder &builder, Location loc, Value buffer,
                               const PackedView &view);
  void emitPackingCopy(OpBuilder &builder, FromPhysicalOp op);

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
};

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_PACKEDMEMREFS_H
