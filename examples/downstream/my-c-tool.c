/* A plain C program on the installed C API (MLIRLayout::MLIRLayoutCAPI):
 * builds XLA's Figure 1 layout, prints the physical index of element (2,3)
 * of f32[3,5]{1,0:T(2,2)} (17, docs/semantics.md §3), and lowers a module
 * with the layout-lower-to-llvm pipeline. */
#include "layout-c/Dialect/Layout.h"

#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirLayoutRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterLayoutPasses();

  MlirAttribute fig1 = mlirLayoutTiledAttrGet(
      ctx, mlirStringRefCreateFromCString("{1,0:T(2,2)}"));
  int64_t shape[2] = {3, 5}, index[2] = {2, 3};
  printf("%lld\n",
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(fig1, 2, shape, index));

  MlirModule module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%a: tensor<3x5xf32>) -> tensor<3x5xf32, "
               "#layout.tiled<{1,0:T(2,2)}>> {\n"
               "  %e = tensor.empty() : tensor<3x5xf32, "
               "#layout.tiled<{1,0:T(2,2)}>>\n"
               "  %r = layout.relayout %a, %e : tensor<3x5xf32>, "
               "tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> "
               "tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>\n"
               "  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>\n"
               "}\n"));
  if (mlirModuleIsNull(module))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                mlirStringRefCreateFromCString(
                                    "builtin.module(layout-lower-to-llvm)"),
                                NULL, NULL)))
    return 1;
  int ok = mlirLogicalResultIsSuccess(
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  printf("lowered: %s\n", ok ? "ok" : "failed");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return ok ? 0 : 1;
}
