//===- InitAll.cpp - Register everything of the layout project ------------===//

#include "layout/InitAll.h"

#include "layout/Conversion/LayoutToLLVM/LayoutToLLVM.h"
#include "layout/Conversion/Passes.h"
#include "layout/Conversion/Pipelines/Pipelines.h"
#include "layout/Dialect/Layout/IR/LayoutDialect.h"
#include "layout/Dialect/Layout/Transforms/BufferizableOpInterfaceImpl.h"
#include "layout/Dialect/Layout/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::layout::registerAllDialects(DialectRegistry &registry) {
  registry.insert<LayoutDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);

  // The upstream interface models --layout-lower-to-llvm relies on, so that a
  // downstream compiler that registers only a few dialects can still run it:
  // One-Shot Bufferize of the tensor IR around our ops, and convert-to-llvm.
  // (Registering them again, e.g. after mlir::registerAllExtensions, is a
  // no-op.)
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);

  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertComplexToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertOpenMPToLLVMInterface(registry); // parallel loops
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  registerConvertLayoutToLLVMInterface(registry); // layout.bitcast_buffer
}

void mlir::layout::registerAllPasses() {
  registerLayoutPasses();
  registerLayoutConversionPasses();
  registerLayoutPipelines();
}
