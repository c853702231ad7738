//===- Passes.td - layout conversion passes ----------------*- tablegen -*-===//
//
// Every conversion pass of the project (one file, as in CIRCT); each lives
// in lib/Conversion/<A>To<B>/ with a public populate...Patterns function.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PASSES_TD
#define LAYOUT_CONVERSION_PASSES_TD

include "layout/Dialect/Layout/Utils/LoopEmitOptions.td"
include "mlir/Pass/PassBase.td"

def ConvertLayoutToAffine : Pass<"convert-layout-to-affine"> {
  let summary = "Lower layout ops with static shapes to affine loop nests";
  let description = [{
    Lowers, for static shapes:

    * memref `layout.relayout` to an affine loop nest that walks the
      destination's physical buffer (its `layout.to_physical` view: tile
      loops outside, in-tile loops inside, the innermost loop contiguous in
      the destination and free of division). Full tiles run without bound
      checks; partial tiles and padding slots have their own loops, and
      padding slots get the destination's padding value (`PV`, else 0). The
      source is read through its physical view; where its index would need
      division in the innermost loop, the loop is split into runs
      (`getAffineRun`) that divide once per run.
    * tensor `layout.broadcast_in_dim` and the binary ops (`layout.add`,
      ..., `layout.compare`) to `bufferization.to_buffer` of the operands,
      `memref.alloc` of the result (with the result encoding's layout), the
      same destination-driven nest, and `bufferization.to_tensor restrict
      writable`. A `broadcast_in_dim` operand with a single use is fused:
      its operand is read through the broadcast's index map, nothing is
      materialized. Implicit broadcasting (`broadcast_dimensions`, size-1
      dims) is handled the same way, so `--layout-expand-broadcasts` is
      optional.

    Ops with dynamic shapes are an error unless `skip-dynamic` is set (then
    they are left for `--convert-layout-to-scf`).

    ```mlir
    %r = layout.add %m, %v, dims = [1]
        : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    ```
    becomes
    <!-- doc-example: skip sketch: the tensor types of to_buffer are elided -->
    ```mlir
    %0 = bufferization.to_buffer %m read_only : ... to memref<2x3xf32>
    %1 = bufferization.to_buffer %v read_only : ... to memref<3xf32>
    %alloc = memref.alloc() : memref<2x3xf32>
    affine.for %i = 0 to 2 {
      affine.for %j = 0 to 3 {
        %a = affine.load %0[%i, %j] : memref<2x3xf32>
        %b = affine.load %1[%j] : memref<3xf32>
        %s = arith.addf %a, %b : f32
        affine.store %s, %alloc[%i, %j] : memref<2x3xf32>
      }
    }
    %r = bufferization.to_tensor %alloc restrict writable : ...
    ```

    Patterns: `populateLayoutToAffinePatterns`
    (`layout/Conversion/LayoutToAffine/LayoutToAffine.h`).
  }];
  let options = !listconcat(
      [Option<"skipDynamic", "skip-dynamic", "bool", /*default=*/"false",
              "Leave ops with dynamic shapes (for --convert-layout-to-scf) "
              "instead of reporting them">],
      LoopEmitPassOptions);
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::complex::ComplexDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect", "::mlir::ub::UBDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
  ];
}

def ConvertLayoutToSCF : Pass<"convert-layout-to-scf"> {
  let summary = "Lower layout ops (any shapes) to scf loop nests";
  let description = [{
    The lowering of `--convert-layout-to-affine` with `scf.for` loops,
    `memref.load`/`memref.store` and `affine.apply`/`affine.min`/
    `affine.max` index math, so that dynamic dims work: loop bounds come from
    `memref.dim` of the physical views, `tensor.dim` of the operands, the
    `sizes` of `broadcast_in_dim`, or XLA's degenerate rule at run time
    (`lhs == 1 ? rhs : lhs`). A dynamic operand dim that may be 1 at run
    time while the result's is not (implicit or explicit broadcasting) is
    read through a view whose stride is 0 when the size is 1 (untiled
    operands only). The logical size of a dynamic tiled memref comes from
    its `memref.alloc`; `memref.dim` of a tiled memref is avoided, since
    normalization cannot keep it.

    Patterns: `populateLayoutToSCFPatterns`
    (`layout/Conversion/LayoutToSCF/LayoutToSCF.h`).
  }];
  let options = LoopEmitPassOptions;
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::complex::ComplexDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::ub::UBDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
  ];
}

def ConvertLayoutToLinalg : Pass<"convert-layout-to-linalg"> {
  let summary = "Convert tensor-level layout ops to upstream linalg/tensor ops";
  let description = [{
    Rewrites the tensor-level layout ops into upstream ops, so that any
    tensor compiler (tiling, fusion, bufferization) can take them
    (docs/convert-to-linalg.md):

    * tensor `layout.relayout`: row-major -> tiled becomes `linalg.pack`
      followed by `layout.from_physical` when one pack expresses the layout
      (one tile level, no `*`, no legacy `PAD`, a tile not longer than the
      rank): `minor_to_major` gives `outer_dims_perm`, the tiled minor
      suffix `inner_dims_pos`, the tile `inner_tiles` and the layout's `PV`
      the `padding_value`. Tiled -> row-major is `layout.to_physical`
      followed by `linalg.unpack`; tiled -> tiled goes through row-major.
      Other layouts use the pad -> expand_shape -> transpose form of
      `--layout-decompose-tiling` (static shapes only).
    * `layout.broadcast_in_dim` becomes `linalg.broadcast` into a
      `tensor.empty` of the result sizes, after a `tensor.collapse_shape`
      dropping operand dims of size 1 that are expanded (and a
      `linalg.transpose` if `broadcast_dimensions` is not increasing).
    * the binary ops, after the patterns of `--layout-expand-broadcasts`,
      become `linalg.add/sub/mul/div/max/min/powf` where those have XLA's
      semantics for the element type, else `linalg.generic` with the scalar
      code of the loop lowering (XLA's integer division by zero, shifts,
      compare).

    * `layout.fusion` (`--layout-fuse`) is inlined first: its body's ops
      take the conversions above, and upstream's elementwise fusion
      (`--linalg-generalize-named-ops --linalg-fuse-elementwise-ops`)
      fuses the resulting linalg ops again.

    Tiled operands are converted to row-major first and tiled results from
    row-major. An op that cannot be converted (e.g. a dynamic shape with a
    layout that is not one pack) is reported and the pass fails; memref
    relayouts are left for `--convert-layout-to-affine`/`-scf`.

    ```mlir
    %r = layout.relayout %src, %dst
        : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
        -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    ```
    becomes
    ```mlir
    %pad = arith.constant 0.000000e+00 : f32
    %e = tensor.empty() : tensor<2x3x2x2xf32>
    %p = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [0, 1]
        inner_tiles = [2, 2] into %e : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
    %r = layout.from_physical %p
        : tensor<2x3x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
    ```

    Patterns: `populateLayoutToLinalgPatterns`
    (`layout/Conversion/LayoutToLinalg/LayoutToLinalg.h`).
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::complex::ComplexDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect",
  ];
}

#endif // LAYOUT_CONVERSION_PASSES_TD
