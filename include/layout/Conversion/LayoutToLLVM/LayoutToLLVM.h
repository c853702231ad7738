//===- LayoutToLLVM.h - Layout ops that reach the LLVM dialect --*- C++ -*-===//
//
// The layout ops that survive the loop lowerings (layout.bitcast_buffer, a
// view) lowered to the LLVM dialect, as patterns and as the dialect's
// convert-to-llvm interface.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_LAYOUTTOLLVM_LAYOUTTOLLVM_H
#define LAYOUT_CONVERSION_LAYOUTTOLLVM_LAYOUTTOLLVM_H

namespace mlir {
class DialectRegistry;
class LLVMTypeConverter;
class RewritePatternSet;
} // namespace mlir

namespace mlir::layout {
/// layout.bitcast_buffer -> a memref descriptor with the source's
/// pointers and the result's static sizes and strides.
void populateLayoutToLLVMConversionPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns);
/// Makes convert-to-llvm lower the layout dialect's remaining ops.
void registerConvertLayoutToLLVMInterface(DialectRegistry &registry);
} // namespace mlir::layout

#endif // LAYOUT_CONVERSION_LAYOUTTOLLVM_LAYOUTTOLLVM_H
