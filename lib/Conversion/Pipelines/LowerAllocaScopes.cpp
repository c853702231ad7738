//===- LowerAllocaScopes.cpp - --layout-lower-alloca-scopes ---------------===//
//
// memref.alloca_scope (from convert-scf-to-openmp) inlined, with
// stacksave/stackrestore when it allocates, before convert-scf-to-cf (which
// would otherwise give the scope's region several blocks). Upstream's
// memref-to-LLVM lowering does the same, but only after scf-to-cf.
//
//===----------------------------------------------------------------------===//

#include "layout/Conversion/Pipelines/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::layout {
#define GEN_PASS_DEF_LAYOUTLOWERALLOCASCOPES
#include "layout/Conversion/Pipelines/Passes.h.inc"
} // namespace mlir::layout

using namespace mlir;
using namespace mlir::layout;

/// Whether `scope` itself owns an allocation: a memref.alloca whose nearest
/// automatic allocation scope is `scope`.
static bool allocates(memref::AllocaScopeOp scope) {
  return scope
      ->walk([&](memref::AllocaOp alloca) {
        return alloca->getParentWithTrait<
                   OpTrait::AutomaticAllocationScope>() == scope.getOperation()
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct LowerAllocaScopesPass
    : layout::impl::LayoutLowerAllocaScopesBase<LowerAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    // Outer scopes first: an allocation of a nested scope stays that
    // scope's (one stacksave/stackrestore around it, not two).
    getOperation()->walk<WalkOrder::PreOrder>(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    for (memref::AllocaScopeOp scope : scopes) {
      Location loc = scope.getLoc();
      OpBuilder b(scope);
      Value stack;
      if (allocates(scope))
        stack = LLVM::StackSaveOp::create(
            b, loc, LLVM::LLVMPointerType::get(&getContext()));
      Block *body = &scope.getBodyRegion().front();
      auto ret = cast<memref::AllocaScopeReturnOp>(body->getTerminator());
      SmallVector<Value> results(ret.getResults());
      if (stack) {
        b.setInsertionPoint(ret);
        LLVM::StackRestoreOp::create(b, loc, stack);
      }
      ret.erase();
      scope->getBlock()->getOperations().splice(Block::iterator(scope),
                                                body->getOperations());
      scope->replaceAllUsesWith(results);
      scope.erase();
    }
  }
};
} // namespace
