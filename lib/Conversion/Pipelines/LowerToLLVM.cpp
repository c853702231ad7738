//===- LowerToLLVM.cpp - --layout-lower-to-llvm ---------------------------===//
//
// One pipeline from tensor-level (or memref-level, or mixed) layout IR to
// the LLVM dialect. docs/lowering.md explains the order.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::layout;

namespace {
/// The last step: everything must be LLVM dialect now. convert-to-llvm
/// leaves what it cannot convert in place (and may still exit 0), so the
/// pipeline names each leftover op and fails.
struct CheckLoweredToLLVMPass
    : PassWrapper<CheckLoweredToLLVMPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckLoweredToLLVMPass)
  StringRef getArgument() const override {
    return "layout-check-lowered-to-llvm";
  }
  StringRef getDescription() const override {
    return "Report every op that is not in the LLVM dialect";
  }
  void runOnOperation() override {
    bool ok = true;
    getOperation()->walk([&](Operation *op) {
      Dialect *dialect = op->getDialect(); // null for unregistered ops
      if (op == getOperation() || isa_and_nonnull<LLVM::LLVMDialect>(dialect))
        return;
      op->emitError() << "--layout-lower-to-llvm: '" << op->getName()
                      << "' was not converted to the LLVM dialect";
      ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};

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

/// Before upstream's ownership-based deallocation, which rejects IR that
/// already frees memory: a hand-written `memref.dealloc` of a buffer
/// allocated (`memref.alloc`/`realloc`, possibly through views) in the same
/// function only ends its lifetime, and the deallocation pass frees that
/// buffer after its last use anyway, so it is erased. Freeing anything else
/// (a function argument, a loaded memref) transfers ownership in a way the
/// pass cannot model, and ops with unknown memory effects cannot have frees
/// placed around them: both are errors naming the op and the way out.
struct PrepareDeallocationPass
    : PassWrapper<PrepareDeallocationPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PrepareDeallocationPass)
  StringRef getArgument() const override {
    return "layout-prepare-deallocation";
  }
  StringRef getDescription() const override {
    return "Erase memref.dealloc of local allocations before automatic "
           "deallocation";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<LLVM::LLVMDialect, memref::MemRefDialect>();
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
  }
};

/// linalg.pack / linalg.unpack (e.g. from --convert-layout-to-linalg) have
/// no bufferization model upstream: lower them to pad + expand_shape +
/// transpose (extract_slice) with upstream's lowerPack / lowerUnPack first.
struct LowerLinalgPackPass : PassWrapper<LowerLinalgPackPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerLinalgPackPass)
  StringRef getArgument() const override { return "layout-lower-linalg-pack"; }
  StringRef getDescription() const override {
    return "Lower linalg.pack/unpack to pad, reshape and transpose";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<linalg::LinalgDialect, tensor::TensorDialect>();
  }
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      // lowerPack builds an arith zero when there is no padding value, which
      // aborts for other element types (complex).
      auto pack = dyn_cast<linalg::PackOp>(op);
      Type elementType = getElementTypeOrSelf(op->getOperand(0).getType());
      if (pack && !pack.getPaddingValue() &&
          !isa<IntegerType, FloatType, IndexType>(elementType)) {
        op->emitError() << "--layout-lower-to-llvm: cannot lower "
                           "'linalg.pack' of element type "
                        << elementType << " without a padding value";
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      bool lowered =
          isa<linalg::PackOp>(op)
              ? succeeded(linalg::lowerPack(rewriter, cast<linalg::PackOp>(op)))
              : succeeded(
                    linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)));
      if (!lowered) {
        op->emitError() << "--layout-lower-to-llvm: cannot lower '"
                        << op->getName() << "' (dynamic inner tiles)";
        return signalPassFailure();
      }
    }
  }
};
} // namespace

void mlir::layout::buildLayoutLowerToLLVMPipeline(OpPassManager &pm) {
  buildLayoutLowerToLLVMPipeline(pm, LayoutLowerToLLVMOptions());
}

void mlir::layout::buildLayoutLowerToLLVMPipeline(
    OpPassManager &pm, const LayoutLowerToLLVMOptions &options) {
  // 1. Tensor level: explicit broadcasts, then loops (fusing single-use
  //    broadcasts into their consumer) over bufferization.to_buffer /
  //    memref.alloc / bufferization.to_tensor.
  pm.addPass(createLayoutExpandBroadcasts());
  ConvertLayoutToAffineOptions staticOnly;
  staticOnly.skipDynamic = true;
  staticOnly.vectorBytes = options.vectorBytes;
  staticOnly.nontemporalThresholdBytes = options.nontemporalThresholdBytes;
  ConvertLayoutToSCFOptions scfOptions;
  scfOptions.vectorBytes = options.vectorBytes;
  scfOptions.nontemporalThresholdBytes = options.nontemporalThresholdBytes;
  pm.addPass(createConvertLayoutToAffine(staticOnly));
  pm.addPass(createConvertLayoutToSCF(scfOptions));
  // 2. Bufferize the rest (function boundaries, tensor relayouts, the
  //    to_tensor/to_buffer pairs); tiled encodings become tiled layouts.
  pm.addPass(std::make_unique<LowerLinalgPackPass>());
  pm.addPass(createLayoutBufferize());
  //    Upstream linalg ops (e.g. from --layout-decompose-tiling, or written
  //    by the user) become loops too.
  pm.addPass(createConvertLinalgToLoopsPass());
  // 3. Memref relayouts (written or from bufferization) to loops over the
  //    physical views.
  pm.addPass(createConvertLayoutToAffine(staticOnly));
  pm.addPass(createConvertLayoutToSCF(scfOptions));
  // 4. Tiled memrefs to their physical buffers; the views disappear.
  pm.addPass(createLayoutNormalizeMemRefs());
  // 5. Standard lowering to LLVM.
  pm.addPass(createConvertComplexToStandardPass());
  pm.addPass(createLowerAffinePass());
  //    Deallocation (upstream's ownership-based pipeline) needs structured
  //    control flow, and plain memrefs for its base-pointer checks: here,
  //    every buffer allocated in a function (by bufferization, by our loops,
  //    by hand) is freed after its last use; returned buffers are owned by
  //    the caller.
  if (options.deallocate) {
    pm.addPass(std::make_unique<PrepareDeallocationPass>());
    bufferization::buildBufferDeallocationPipeline(pm);
    // A returned buffer that aliases an argument is cloned (the caller owns
    // what it gets back): bufferization.clone -> memref.alloc + memref.copy.
    pm.addPass(createConvertBufferizationToMemRefPass());
  }
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<CheckLoweredToLLVMPass>());
}

void mlir::layout::registerLayoutPipelines() {
  PassPipelineRegistration<LayoutLowerToLLVMOptions>(
      "layout-lower-to-llvm",
      "Lower tensor- or memref-level layout IR to the LLVM dialect "
      "(docs/lowering.md)",
      [](OpPassManager &pm, const LayoutLowerToLLVMOptions &options) {
        buildLayoutLowerToLLVMPipeline(pm, options);
      });
}
