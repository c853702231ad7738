//===- PrepareDeallocation.cpp - --layout-prepare-deallocation ------------===//
//
// Before upstream's ownership-based deallocation, which rejects IR that
// already frees memory: a hand-written `memref.dealloc` of a buffer
// allocated (`memref.alloc`/`realloc`, possibly through views) in the same
// function only ends its lifetime, and the deallocation pass frees that
// buffer after its last use anyway, so it is erased. Freeing anything else
// (a function argument, a loaded memref) transfers ownership in a way the
// pass cannot model, and ops with unknown memory effects cannot have frees
// placed around them: both are errors naming the op and the way out.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"
#include "layout/Dialect/Layout/Utils/PhysicalSizes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTPREPAREDEALLOCATION
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

namespace {
/// `llvm.fence` (after our non-temporal stores) declares no memory effects,
/// and upstream's deallocation rejects every op with unknown effects. A
/// fence reads and writes memory in general (it orders every access).
struct FenceMemoryEffectsModel
    : MemoryEffectOpInterface::ExternalModel<FenceMemoryEffectsModel,
                                             LLVM::FenceOp> {
  void
  getEffects(Operation *,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

struct PrepareDeallocationPass
    : layout::impl::LayoutPrepareDeallocationBase<PrepareDeallocationPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    LayoutPrepareDeallocationBase::getDependentDialects(registry);
    registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
      LLVM::FenceOp::attachInterface<FenceMemoryEffectsModel>(*context);
    });
  }
  static bool isLocalAllocation(Value memref, Operation *dealloc) {
    while (true) {
      Operation *def = memref.getDefiningOp();
      if (!def)
        return false;
      if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
        memref = view.getViewSource();
        continue;
      }
      if (!isa<memref::AllocOp, memref::ReallocOp>(def))
        return false;
      auto allocFunc = def->getParentOfType<FunctionOpInterface>();
      return allocFunc &&
             allocFunc == dealloc->getParentOfType<FunctionOpInterface>();
    }
  }
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    bool ok = true;
    getOperation()->walk([&](Operation *op) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        if (isLocalAllocation(dealloc.getMemref(), op)) {
          deallocs.push_back(dealloc);
          return;
        }
        op->emitError() << "--layout-lower-to-llvm: cannot free a buffer "
                           "that was not allocated in this function together "
                           "with automatic deallocation; use "
                           "--layout-lower-to-llvm=\"deallocate=false\" and "
                           "free every buffer by hand";
        ok = false;
        return;
      }
      // What the deallocation pass visits: ops in function bodies.
      if (!op->getParentOfType<FunctionOpInterface>())
        return;
      if (op->getNumRegions() == 0 && !isa<MemoryEffectOpInterface>(op) &&
          !op->hasTrait<OpTrait::IsTerminator>() && !isa<CallOpInterface>(op)) {
        op->emitError() << "--layout-lower-to-llvm: '" << op->getName()
                        << "' has unknown memory effects: automatic "
                           "deallocation cannot free buffers around it "
                           "(--layout-lower-to-llvm=\"deallocate=false\" "
                           "turns it off)";
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    for (memref::DeallocOp op : deallocs)
      op.erase();
    cloneReturnedLogicalDescriptors();
  }

  /// Whether the function owns `memref`'s buffer in upstream's sense:
  /// allocated in it or returned by a call (through views).
  static bool isOwned(Value memref) {
    while (Operation *def = memref.getDefiningOp()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
        memref = view.getViewSource();
        continue;
      }
      return isa<memref::AllocOp, memref::ReallocOp, CallOpInterface>(def);
    }
    return false;
  }

  /// A returned dynamic tiled memref is a logical descriptor (sizes logical,
  /// buffer physical; --layout-normalize-memrefs). Upstream's deallocation
  /// returns a clone of a buffer the function does not own (an argument),
  /// and a clone of the descriptor would copy only the logical number of
  /// elements: clone its physical source instead, and return a descriptor
  /// of that (owned, so it is not cloned again).
  void cloneReturnedLogicalDescriptors() {
    getOperation()->walk([](Operation *op) {
      if (!op->hasTrait<OpTrait::ReturnLike>())
        return;
      for (OpOperand &operand : op->getOpOperands()) {
        auto descriptor =
            operand.get().getDefiningOp<memref::ReinterpretCastOp>();
        if (!descriptor)
          continue;
        auto tiled =
            descriptor->getAttrOfType<TypeAttr>(kLogicalDescriptorAttrName);
        if (!tiled || isOwned(descriptor.getSource()))
          continue;
        // Rebuild the physical view (folding may have bypassed the one the
        // descriptor was made of), clone it, describe the clone.
        OpBuilder builder(descriptor);
        Location loc = descriptor.getLoc();
        FailureOr<Value> physical = createPhysicalView(
            builder, loc, cast<MemRefType>(tiled.getValue()),
            descriptor.getSource(), descriptor.getMixedSizes(),
            [&] { return descriptor.emitError(); });
        if (failed(physical))
          continue;
        Value copy = bufferization::CloneOp::create(builder, loc, *physical);
        Operation *owned = builder.clone(*descriptor);
        owned->setOperand(0, copy);
        operand.set(owned->getResult(0));
      }
    });
  }
};
} // namespace
