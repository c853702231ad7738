/*===- Layout.h - C API of the layout dialect ---------------------*- C -*-===*\
|*                                                                            *|
|* The C API of the layout dialect, in the conventions of MLIR's own C API   *|
|* (mlir-c/): the route for bindings in other languages. Link               *|
|* MLIRLayout::MLIRLayoutCAPI (find_package(MLIRLayout CONFIG)); it brings   *|
|* MLIR's C API (IR, passes, RegisterEverything) with it. docs/embedding.md. *|
|*                                                                            *|
|* Errors never abort: functions that build an attribute from text return a *|
|* null attribute (mlirAttributeIsNull) and report a diagnostic to the       *|
|* context's handlers; queries return -1 for invalid arguments.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef LAYOUT_C_DIALECT_LAYOUT_H
#define LAYOUT_C_DIALECT_LAYOUT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__layout__(): the `layout` dialect alone. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Layout, layout);

/* Inserts the layout dialect and the interface models it provides and needs
 * (One-Shot Bufferize of its ops, the upstream models --layout-lower-to-llvm
 * relies on): what mlir::layout::registerAllDialects does in C++. */
MLIR_CAPI_EXPORTED void
mlirLayoutRegisterAllDialects(MlirDialectRegistry registry);

/* Registers every layout pass, conversion pass and the layout-lower-to-llvm
 * pipeline, so that mlirParsePassPipeline accepts them. Idempotent. */
MLIR_CAPI_EXPORTED void mlirRegisterLayoutPasses(void);

/*===----------------------------------------------------------------------===*
 * #layout.tiled
 *===----------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsALayoutTiled(MlirAttribute attr);

/* `#layout.tiled` from XLA's layout text, e.g. "{1,0:T(8,128)}" (the text
 * is canonicalized). Bad text: a null attribute and an error diagnostic. */
MLIR_CAPI_EXPORTED MlirAttribute
mlirLayoutTiledAttrGet(MlirContext ctx, MlirStringRef xlaLayoutText);

/* The linear position of the logical `index` in the physical buffer of an
 * array of logical dims `shape` (both `rank` entries) stored in this layout
 * (docs/semantics.md §3). -1 for invalid input: not a #layout.tiled, a
 * rank that differs from the layout's, a negative or overflowing shape, an
 * index out of bounds, null pointers with rank > 0. */
MLIR_CAPI_EXPORTED int64_t
mlirLayoutTiledAttrGetPhysicalIndex(MlirAttribute attr, intptr_t rank,
                                    const int64_t *shape, const int64_t *index);

/* The layout's parts. Accessors return -1 for an attribute that is not a
 * #layout.tiled or a position out of range. */

/* Number of minor_to_major entries (the rank the layout is for). */
MLIR_CAPI_EXPORTED intptr_t mlirLayoutTiledAttrGetRank(MlirAttribute attr);
/* minor_to_major[pos] (most-minor first). */
MLIR_CAPI_EXPORTED int64_t
mlirLayoutTiledAttrGetMinorToMajor(MlirAttribute attr, intptr_t pos);
/* Number of tiling levels T(...)(...). */
MLIR_CAPI_EXPORTED intptr_t mlirLayoutTiledAttrGetNumTiles(MlirAttribute attr);
/* Number of entries of tile level `tile`. */
MLIR_CAPI_EXPORTED intptr_t mlirLayoutTiledAttrGetTileRank(MlirAttribute attr,
                                                           intptr_t tile);
/* Entry `pos` of tile level `tile`; a `*` (combine) entry is
 * mlirLayoutTiledAttrCombineDimension(). */
MLIR_CAPI_EXPORTED int64_t mlirLayoutTiledAttrGetTileDim(MlirAttribute attr,
                                                         intptr_t tile,
                                                         intptr_t pos);
/* The value of a `*` tile entry (XLA's -1). */
MLIR_CAPI_EXPORTED int64_t mlirLayoutTiledAttrCombineDimension(void);
/* E(n): element size in bits, 0 = the element type's width. */
MLIR_CAPI_EXPORTED int64_t
mlirLayoutTiledAttrGetElementSizeInBits(MlirAttribute attr);
/* S(n): memory space. */
MLIR_CAPI_EXPORTED int64_t
mlirLayoutTiledAttrGetMemorySpace(MlirAttribute attr);
/* L(n): tail padding alignment in elements (1 = none). */
MLIR_CAPI_EXPORTED int64_t
mlirLayoutTiledAttrGetTailPaddingAlignment(MlirAttribute attr);
/* PAD(...): number of legacy padded dimensions (0 = not padded). */
MLIR_CAPI_EXPORTED intptr_t
mlirLayoutTiledAttrGetNumPaddedDimensions(MlirAttribute attr);
/* PAD(...)[pos]. */
MLIR_CAPI_EXPORTED int64_t
mlirLayoutTiledAttrGetPaddedDimension(MlirAttribute attr, intptr_t pos);
/* PV(...): XLA's PaddingValue enum: 0 invalid (none), 1 zero, 2 one,
 * 3 lowest, 4 highest, 5 unknown. */
MLIR_CAPI_EXPORTED int64_t
mlirLayoutTiledAttrGetPaddingValue(MlirAttribute attr);

/*===----------------------------------------------------------------------===*
 * #layout.shape
 *===----------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsALayoutShape(MlirAttribute attr);

/* `#layout.shape` from XLA's shape text, e.g. "f32[3,5]{1,0:T(2,2)}" or
 * "(f32[2], s32[])". Bad text: a null attribute and an error diagnostic. */
MLIR_CAPI_EXPORTED MlirAttribute
mlirLayoutShapeAttrGet(MlirContext ctx, MlirStringRef xlaShapeText);

/* The canonical XLA text of a #layout.shape or #layout.tiled (owned by the
 * context); an empty string for other attributes. */
MLIR_CAPI_EXPORTED MlirStringRef mlirLayoutAttrGetText(MlirAttribute attr);

#ifdef __cplusplus
}
#endif

#endif /* LAYOUT_C_DIALECT_LAYOUT_H */
