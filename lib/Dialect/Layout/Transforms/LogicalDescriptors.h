//===- LogicalDescriptors.h - Dynamic tiled memrefs at boundaries -*- C++
//-*-===//
//
// The logical sizes of dynamic tiled memrefs in --layout-normalize-memrefs,
// and their logical descriptors at function boundaries: an identity-layout
// memref of the logical shape whose sizes are the logical sizes and whose
// pointer is the physical buffer (docs/lowering.md, "Dynamic tiled memrefs
// at function boundaries"). Private to the pass.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_DIALECT_LAYOUT_TRANSFORMS_LOGICALDESCRIPTORS_H
#define LAYOUT_DIALECT_LAYOUT_TRANSFORMS_LOGICALDESCRIPTORS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::layout {

/// A `#layout.tiled` memref type with a dynamic dim.
bool isDynamicTiledMemRef(Type type);
inline bool isDynamicTiledMemRef(Value value) {
  return isDynamicTiledMemRef(value.getType());
}

/// The boundary type of a dynamic tiled memref: the same logical shape with
/// the identity layout.
MemRefType getLogicalDescriptorType(MemRefType type);

/// Where the logical sizes of a dynamic tiled memref come from: a function
/// argument or call result (its logical descriptor), an allocation (its
/// operands), through casts and `from_physical(to_physical(x))`; null when
/// they are lost (a `from_physical` of another physical buffer).
Value getLogicalSizesOrigin(Value value);

/// The logical sizes of tiled memref values, built once where the value is
/// defined, and the conversions between a value and its descriptor.
class LogicalSizeTracker {
public:
  /// One size per dim (static dims as attributes). For a boundary value
  /// (argument, call result) the dynamic ones are `memref.dim`s of the value
  /// created after its definition, which keep reading the descriptor.
  ArrayRef<OpFoldResult> get(OpBuilder &builder, Value value);
  /// The logical descriptor of `value` (a `memref.reinterpret_cast` marked
  /// with kLogicalDescriptorAttrName and the tiled type): logical sizes,
  /// row-major logical strides (never read), offset 0.
  Value toDescriptor(OpBuilder &builder, Location loc, Value value);
  /// Retypes the boundary value `value` to its descriptor type and moves its
  /// other uses to the physical view (createPhysicalView) built at the
  /// builder's insertion point, which must follow the size reads.
  void fromDescriptor(OpBuilder &builder, Location loc, Value value);
  /// The last of the size reads that directly follow `op` (or `op`).
  Operation *skipReadsAfter(Operation *op) const;
  /// The first op from `op` on that is not a size read.
  Operation *firstAfterReads(Operation *op) const;

private:
  llvm::DenseMap<Value, SmallVector<OpFoldResult>> sizes;
  llvm::SmallPtrSet<Operation *, 8> descriptorReads;
};

} // namespace mlir::layout

#endif // LAYOUT_DIALECT_LAYOUT_TRANSFORMS_LOGICALDESCRIPTORS_H
