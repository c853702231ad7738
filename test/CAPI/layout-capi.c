/*===- layout-capi.c - C API test of the layout dialect -------------------===*\
|*                                                                            *|
|* A plain C program: builds and queries #layout.tiled / #layout.shape,      *|
|* parses a module, runs the layout-lower-to-llvm pipeline through           *|
|* mlirPassManagerRunOnOp, and exercises the error paths. The expected       *|
|* physical indices come from docs/semantics.md §3 (f32[3,5]{1,0:T(2,2)}:    *|
|* element (2,3) is at 17), not from the library.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

// RUN: layout-capi-test 2>&1 | FileCheck %s

#include "layout-c/Dialect/Layout.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <string.h>

static void printToStdout(MlirStringRef s, void *userData) {
  (void)userData;
  fwrite(s.data, 1, s.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  fprintf(stdout, "diagnostic: ");
  mlirDiagnosticPrint(d, printToStdout, NULL);
  fprintf(stdout, "\n");
  return mlirLogicalResultSuccess();
}

static void printAttr(const char *what, MlirAttribute a) {
  printf("%s: ", what);
  mlirAttributePrint(a, printToStdout, NULL);
  printf("\n");
}

static void testHandle(MlirContext ctx) {
  // The dialect handle: its namespace, and loading through it.
  MlirDialectHandle handle = mlirGetDialectHandle__layout__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  MlirDialect dialect = mlirDialectHandleLoadDialect(handle, ctx);
  printf("dialect %.*s loaded %d\n", (int)ns.length, ns.data,
         !mlirDialectIsNull(dialect));
  // CHECK: dialect layout loaded 1
}

static void testTiled(MlirContext ctx) {
  // CHECK-LABEL: testTiled
  printf("testTiled\n");
  MlirAttribute a = mlirLayoutTiledAttrGet(
      ctx, mlirStringRefCreateFromCString("{1,0:T(2,2)}"));
  printAttr("fig1", a);
  // CHECK: fig1: #layout.tiled<{1,0:T(2,2)}>
  printf("isa tiled %d shape %d\n", mlirAttributeIsALayoutTiled(a),
         mlirAttributeIsALayoutShape(a));
  // CHECK: isa tiled 1 shape 0
  int64_t shape[2] = {3, 5};
  int64_t index[2] = {2, 3};
  printf("index(2,3) = %lld\n",
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(a, 2, shape, index));
  // CHECK: index(2,3) = 17
  index[0] = 0;
  index[1] = 2;
  printf("index(0,2) = %lld\n",
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(a, 2, shape, index));
  // Tile (0,1) starts at 4; (0,2) is its first element.
  // CHECK: index(0,2) = 4

  // The parts of a layout with every field set.
  MlirAttribute b = mlirLayoutTiledAttrGet(
      ctx, mlirStringRefCreateFromCString("{0,1:T(8,128)(2,1)L(4)E(16)S(1)}"));
  printAttr("full", b);
  // CHECK: full: #layout.tiled<{0,1:T(8,128)(2,1)L(4)E(16)S(1)}>
  printf("rank %ld m2m %lld %lld tiles %ld\n",
         (long)mlirLayoutTiledAttrGetRank(b),
         (long long)mlirLayoutTiledAttrGetMinorToMajor(b, 0),
         (long long)mlirLayoutTiledAttrGetMinorToMajor(b, 1),
         (long)mlirLayoutTiledAttrGetNumTiles(b));
  // CHECK: rank 2 m2m 0 1 tiles 2
  printf("tile0 (%lld,%lld) tile1 rank %ld (%lld,%lld)\n",
         (long long)mlirLayoutTiledAttrGetTileDim(b, 0, 0),
         (long long)mlirLayoutTiledAttrGetTileDim(b, 0, 1),
         (long)mlirLayoutTiledAttrGetTileRank(b, 1),
         (long long)mlirLayoutTiledAttrGetTileDim(b, 1, 0),
         (long long)mlirLayoutTiledAttrGetTileDim(b, 1, 1));
  // CHECK: tile0 (8,128) tile1 rank 2 (2,1)
  printf("E %lld S %lld L %lld\n",
         (long long)mlirLayoutTiledAttrGetElementSizeInBits(b),
         (long long)mlirLayoutTiledAttrGetMemorySpace(b),
         (long long)mlirLayoutTiledAttrGetTailPaddingAlignment(b));
  // CHECK: E 16 S 1 L 4

  MlirAttribute c = mlirLayoutTiledAttrGet(
      ctx, mlirStringRefCreateFromCString("{1,0:T(*,2)PAD(3,5)PV(one)}"));
  printf("combine %d pad %ld (%lld,%lld) pv %lld none-pv %lld\n",
         mlirLayoutTiledAttrGetTileDim(c, 0, 0) ==
             mlirLayoutTiledAttrCombineDimension(),
         (long)mlirLayoutTiledAttrGetNumPaddedDimensions(c),
         (long long)mlirLayoutTiledAttrGetPaddedDimension(c, 0),
         (long long)mlirLayoutTiledAttrGetPaddedDimension(c, 1),
         (long long)mlirLayoutTiledAttrGetPaddingValue(c),
         (long long)mlirLayoutTiledAttrGetPaddingValue(a));
  // CHECK: combine 1 pad 2 (3,5) pv 2 none-pv 0

  // Invalid queries: -1, never an abort.
  int64_t badIndex[2] = {3, 0};
  int64_t negShape[2] = {-1, 5};
  MlirAttribute unit = mlirUnitAttrGet(ctx);
  printf("errors %lld %lld %lld %lld %lld %lld %lld %lld %ld %lld\n",
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(a, 2, shape, badIndex),
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(a, 1, shape, index),
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(a, 2, negShape, index),
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(a, 2, NULL, index),
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(unit, 2, shape, index),
         (long long)mlirLayoutTiledAttrGetPhysicalIndex((MlirAttribute){NULL},
                                                        2, shape, index),
         (long long)mlirLayoutTiledAttrGetMinorToMajor(a, 2),
         (long long)mlirLayoutTiledAttrGetTileDim(a, 1, 0),
         (long)mlirLayoutTiledAttrGetRank(unit),
         (long long)mlirLayoutTiledAttrGetPaddedDimension(a, 0));
  // CHECK: errors -1 -1 -1 -1 -1 -1 -1 -1 -1 -1

  // Bad text: a null attribute and a diagnostic.
  MlirAttribute bad =
      mlirLayoutTiledAttrGet(ctx, mlirStringRefCreateFromCString("{1,x}"));
  // CHECK: diagnostic: invalid XLA layout '{1,x}'
  printf("bad null %d\n", mlirAttributeIsNull(bad));
  // CHECK: bad null 1
  // Without a shape, {1,1} is only text; it fails where a shape meets it.
  MlirAttribute dup =
      mlirLayoutTiledAttrGet(ctx, mlirStringRefCreateFromCString("{1,1}"));
  printf("dup null %d index %lld\n", mlirAttributeIsNull(dup),
         (long long)mlirLayoutTiledAttrGetPhysicalIndex(dup, 2, shape, index));
  // CHECK: dup null 0 index -1
  bad = mlirLayoutTiledAttrGet(ctx, mlirStringRefCreateFromCString("{1,0:T(2"));
  // CHECK: diagnostic: invalid XLA layout '{1,0:T(2'
  printf("bad null %d\n", mlirAttributeIsNull(bad));
  // CHECK: bad null 1
  // Parses, but #layout.tiled cannot carry sparse fields.
  bad = mlirLayoutTiledAttrGet(ctx, mlirStringRefCreateFromCString("{0:D(C)}"));
  // CHECK: diagnostic: layout '{0:D(C)}' has sparse
  printf("bad null %d\n", mlirAttributeIsNull(bad));
  // CHECK: bad null 1
}

static void testShape(MlirContext ctx) {
  // CHECK-LABEL: testShape
  printf("testShape\n");
  MlirAttribute s = mlirLayoutShapeAttrGet(
      ctx, mlirStringRefCreateFromCString("(f32[3,5]{1,0:T(2,2)}, s32[])"));
  printAttr("shape", s);
  // CHECK: shape: #layout.shape<(f32[3,5]{1,0:T(2,2)}, s32[])>
  MlirStringRef text = mlirLayoutAttrGetText(s);
  printf("isa shape %d tiled %d text %.*s\n", mlirAttributeIsALayoutShape(s),
         mlirAttributeIsALayoutTiled(s), (int)text.length, text.data);
  // CHECK: isa shape 1 tiled 0 text (f32[3,5]{1,0:T(2,2)}, s32[])
  MlirAttribute bad =
      mlirLayoutShapeAttrGet(ctx, mlirStringRefCreateFromCString("f32[2]{}"));
  // CHECK: diagnostic: invalid XLA shape 'f32[2]{}'
  printf("bad null %d text %zu\n", mlirAttributeIsNull(bad),
         mlirLayoutAttrGetText(mlirUnitAttrGet(ctx)).length);
  // CHECK: bad null 1 text 0
}

static const char *kModule =
    "func.func @relayout(%s: tensor<3x5xf32>) -> tensor<3x5xf32, "
    "#layout.tiled<{1,0:T(2,2)}>> {\n"
    "  %d = tensor.empty() : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>\n"
    "  %r = layout.relayout %s, %d : tensor<3x5xf32>, tensor<3x5xf32, "
    "#layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, "
    "#layout.tiled<{1,0:T(2,2)}>>\n"
    "  return %r : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>\n"
    "}\n";

/// Runs `pipeline` on `module`; prints what happened.
static void runPipeline(MlirContext ctx, MlirOperation module,
                        const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsFailure(
          mlirParsePassPipeline(opm, mlirStringRefCreateFromCString(pipeline),
                                printToStdout, NULL))) {
    printf("pipeline rejected\n");
    mlirPassManagerDestroy(pm);
    return;
  }
  MlirLogicalResult result = mlirPassManagerRunOnOp(pm, module);
  printf("run %s\n", mlirLogicalResultIsSuccess(result) ? "ok" : "failed");
  mlirPassManagerDestroy(pm);
}

static void testPipeline(MlirContext ctx) {
  // CHECK-LABEL: testPipeline
  printf("testPipeline\n");
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  printf("parsed %d\n", !mlirModuleIsNull(module));
  // CHECK: parsed 1
  MlirOperation op = mlirModuleGetOperation(module);
  runPipeline(ctx, op, "builtin.module(layout-lower-to-llvm)");
  // CHECK: run ok
  mlirOperationPrint(op, printToStdout, NULL);
  // CHECK: llvm.func @relayout
  // CHECK-NOT: layout.relayout
  // CHECK-NOT: func.func
  mlirModuleDestroy(module);

  // A single pass with an option, and unknown names.
  MlirModule again =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModule));
  runPipeline(ctx, mlirModuleGetOperation(again),
              "builtin.module(layout-lower-to-llvm{num-threads=1})");
  // CHECK: run ok
  runPipeline(ctx, mlirModuleGetOperation(again),
              "builtin.module(layout-no-such-pass)");
  // CHECK: 'layout-no-such-pass' does not refer to a registered pass or pass
  // pipeline CHECK: pipeline rejected
  mlirModuleDestroy(again);

  // A pass that fails: the pipeline reports it (a diagnostic and failure).
  MlirModule failing = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%s: tensor<4x4xcomplex<f32>>, %d: "
               "tensor<2x2x2x2xcomplex<f32>>) -> tensor<2x2x2x2xcomplex<f32>> "
               "{\n  %p = linalg.pack %s inner_dims_pos = [0, 1] inner_tiles "
               "= [2, 2] into %d : tensor<4x4xcomplex<f32>> -> "
               "tensor<2x2x2x2xcomplex<f32>>\n  return %p : "
               "tensor<2x2x2x2xcomplex<f32>>\n}\n"));
  runPipeline(ctx, mlirModuleGetOperation(failing),
              "builtin.module(layout-lower-to-llvm)");
  // CHECK: diagnostic: --layout-lower-to-llvm: cannot lower 'linalg.pack' of
  // element type 'complex<f32>' without a padding value CHECK: run failed
  mlirModuleDestroy(failing);

  // Text that does not parse: a null module and a diagnostic.
  MlirModule broken = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @g(%a: memref<3xf32, #layout.tiled<{0,0}>>)"));
  // CHECK: diagnostic: layout minor_to_major field contains 2 elements, but
  // shape has 1 dimensions
  printf("broken null %d\n", mlirModuleIsNull(broken));
  // CHECK: broken null 1
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirLayoutRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  mlirRegisterLayoutPasses();

  testHandle(ctx);
  testTiled(ctx);
  testShape(ctx);
  testPipeline(ctx);
  mlirContextDestroy(ctx);
  return 0;
}
