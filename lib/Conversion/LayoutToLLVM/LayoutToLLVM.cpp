//===- LayoutToLLVM.cpp - Layout ops that reach the LLVM dialect ----------===//

#include "layout/Conversion/LayoutToLLVM/LayoutToLLVM.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/IR/LayoutOps.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::layout;

namespace {
/// The result's descriptor: the source's allocated and aligned pointers,
/// offset 0 (both are identity-layout memrefs: verified), the result's
/// static sizes and row-major strides.
struct BitcastBufferToLLVM : ConvertOpToLLVMPattern<BitcastBufferOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BitcastBufferOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<MemRefType>(op.getType());
    Type descriptorType = getTypeConverter()->convertType(type);
    if (!descriptorType)
      return rewriter.notifyMatchFailure(op, "result type not convertible");
    Location loc = op.getLoc();
    MemRefDescriptor source(adaptor.getSource());
    auto result = MemRefDescriptor::poison(rewriter, loc, descriptorType);
    result.setAllocatedPtr(rewriter, loc, source.allocatedPtr(rewriter, loc));
    result.setAlignedPtr(rewriter, loc, source.alignedPtr(rewriter, loc));
    result.setConstantOffset(rewriter, loc, 0);
    ArrayRef<int64_t> shape = type.getShape();
    uint64_t stride = 1;
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      result.setConstantSize(rewriter, loc, d, shape[d]);
      result.setConstantStride(rewriter, loc, d, stride);
      stride *= static_cast<uint64_t>(shape[d]);
    }
    rewriter.replaceOp(op, {result});
    return success();
  }
};

struct LayoutToLLVMInterface : ConvertToLLVMPatternInterface {
  using ConvertToLLVMPatternInterface::ConvertToLLVMPatternInterface;
  void populateConvertToLLVMConversionPatterns(
      ConversionTarget &target, LLVMTypeConverter &converter,
      RewritePatternSet &patterns) const final {
    populateLayoutToLLVMConversionPatterns(converter, patterns);
  }
};
} // namespace

void mlir::layout::populateLayoutToLLVMConversionPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<BitcastBufferToLLVM>(converter);
}

void mlir::layout::registerConvertLayoutToLLVMInterface(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, LayoutDialect *dialect) {
    dialect->addInterfaces<LayoutToLLVMInterface>();
  });
}
