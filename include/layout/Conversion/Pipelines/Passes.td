//===- Passes.td - passes of the LLVM pipeline -------------*- tablegen -*-===//
//
// The helper passes --layout-lower-to-llvm runs between upstream passes
// (lib/Conversion/Pipelines, one .cpp each). Each is also a flag of
// layout-opt and of mlir-opt with the plugin, for testing and for pipelines
// that users assemble themselves.
//
//===----------------------------------------------------------------------===//

#ifndef LAYOUT_CONVERSION_PIPELINES_PASSES_TD
#define LAYOUT_CONVERSION_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def LayoutLowerLinalgPack : Pass<"layout-lower-linalg-pack"> {
  let summary = "Lower linalg.pack/unpack to pad, reshape and transpose";
  let description = [{
    `linalg.pack` and `linalg.unpack` (for example from
    `--convert-layout-to-linalg`) have no bufferization model upstream. This
    pass rewrites them with upstream's `linalg::lowerPack` /
    `linalg::lowerUnPack` into `tensor.pad` + `tensor.expand_shape` +
    `linalg.transpose` (and the inverse with `tensor.extract_slice`), which
    bufferize. `--layout-lower-to-llvm` runs it before bufferization.

    ```mlir
    %p = linalg.pack %src padding_value(%zero : f32) inner_dims_pos = [0, 1]
        inner_tiles = [2, 2] into %e : tensor<3x5xf32> -> tensor<2x3x2x2xf32>
    ```
    becomes a `tensor.pad` to 4x6, a `tensor.expand_shape` to 2x2x3x2 and a
    `linalg.transpose` to 2x3x2x2.

    Errors: a `linalg.pack` of an element type other than integer, float or
    index without a padding value (upstream would build an invalid zero), and
    packs with dynamic inner tiles.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
  ];
}

def LayoutPrepareDeallocation
    : Pass<"layout-prepare-deallocation", "::mlir::ModuleOp"> {
  let summary = "Erase memref.dealloc of local allocations before automatic "
                "deallocation";
  let description = [{
    Upstream's ownership-based deallocation
    (`bufferization::buildBufferDeallocationPipeline`) rejects IR that already
    frees memory and ops with unknown memory effects. `--layout-lower-to-llvm`
    runs this pass right before it (with `deallocate=true`, the default):

    * a `memref.dealloc` of a buffer allocated (`memref.alloc`/`realloc`,
      possibly through views) in the same function only ends its lifetime;
      the deallocation pipeline frees the buffer after its last use anyway,
      so the dealloc is erased;
    * a `memref.dealloc` of anything else (a function argument, a loaded
      memref) transfers ownership in a way the deallocation cannot model: an
      error naming the op and the way out (`deallocate=false`);
    * an op inside a function with unknown memory effects (no
      `MemoryEffectOpInterface`, no regions, not a terminator or call): an
      error, since frees cannot be placed around it.

    It also gives `llvm.fence` (emitted after non-temporal stores) its memory
    effects, read and write (it orders every access), as an external model:
    upstream declares none, which the deallocation would reject.

    A returned logical descriptor of a dynamic tiled memref (sizes logical,
    buffer physical, built by `--layout-normalize-memrefs`) whose buffer the
    function does not own (an argument) is returned as a descriptor of a
    `bufferization.clone` of its physical memref: upstream would clone the
    descriptor, copying only the logical number of elements.

    <!-- doc-example: skip sketch: the uses between alloc and dealloc are elided -->
    ```mlir
    %a = memref.alloc() : memref<4xf32>
    ...
    memref.dealloc %a : memref<4xf32>   // erased: freed after its last use
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::bufferization::BufferizationDialect",
  ];
}

def LayoutHostMemorySpaces
    : Pass<"layout-host-memory-spaces", "::mlir::ModuleOp"> {
  let summary = "Map every integer memref memory space to the default one";
  let description = [{
    On the CPU every memory space (`S(n)` of a layout, the integer memory
    space of a memref) is host memory. `--layout-lower-to-llvm` runs this
    pass after `--layout-normalize-memrefs`, so that the rest of the pipeline
    and LLVM see one address space: upstream's memref-to-LLVM lowering
    allocates in address space n with an address-space cast but frees an
    `!llvm.ptr<n>` with `free(!llvm.ptr)`, which does not verify.

    Every type in the module (operands, results, block arguments, function
    signatures, attributes) is rewritten: `memref<8xf32, 1>` becomes
    `memref<8xf32>`, except `#layout.tiled` memrefs, whose space is their
    `S(n)` (none are left after `--layout-normalize-memrefs`). Memrefs with a
    non-integer memory space (a GPU dialect's attribute) are an error: they
    are not host memory.

    ```mlir
    %a = memref.alloc() : memref<8x8xf32, 1>   // becomes memref<8x8xf32>
    ```
  }];
}

def LayoutReuseBuffers : Pass<"layout-reuse-buffers", "::mlir::ModuleOp"> {
  let summary = "Give a function's local buffers one arena, reused between "
                "buffers and between calls";
  let description = [{
    Run after deallocation (`--layout-lower-to-llvm` runs it right after
    upstream's buffer-deallocation pipeline, with `reuse-buffers=true`, the
    default). In each single-block function, every `memref.alloc` of the
    entry block that has a static size, an identity layout, the default
    memory space, and exactly one `memref.dealloc` in that block (a buffer
    that does not escape: the intermediates fusion leaves materialized, the
    results of op-by-op lowering) lives from its alloc to its last use: the
    last op of the block that uses it or a value derived from it (views,
    casts, loaded values; conservatively). Those buffers are packed into one byte arena: buffers whose lifetimes do not
    overlap share bytes (greedy by size: the largest first, each at the
    lowest `alignment`-aligned offset free over its lifetime). Each alloc
    becomes a `memref.view` of the arena, its dealloc disappears, and the
    arena is acquired where the first buffer was allocated and released
    where the last dealloc was.

    With `cache=true` (the default), the arena outlives the call: an
    internal global `@__layout_arena_<function>` holds one arena. A call
    takes it with an atomic exchange (null in its place) and allocates a
    fresh one (`aligned_alloc`) only if the slot was empty; it puts its
    arena back with another exchange and frees whatever it displaced. So
    calls in a loop fault their pages in once, and concurrent or recursive
    calls each get an arena of their own. The cached arena stays allocated
    until the process exits (one per function). With `cache=false` the
    arena is a `memref.alloc`/`memref.dealloc` pair per call.

    Upstream has no pass for this: `--buffer-hoisting` moves allocations
    within a function, `--promote-buffers-to-stack` only takes small ones,
    and nothing keeps a buffer between calls, where a 64 MiB allocation
    costs a fresh `mmap` and a page fault per 4 KiB page on every call
    (docs/fusion.md, "Buffers").

    Element sizes are at least LLVM's on any target (a scalar's store size
    rounded up to a power of two: i24 4, i96 16, f80 16 bytes). Left alone:
    allocations inside loops and other regions, dynamic sizes, non-identity
    layouts, other memory spaces, elements that need more alignment than
    `alignment` (or are wider than 64 bytes), buffers freed conditionally or
    returned, zero-size buffers, and functions of several blocks.

    <!-- doc-example: skip sketch: the uses between alloc and dealloc are elided -->
    ```mlir
    %a = memref.alloc() : memref<256xf32>
    ...                                     // the last use of %a
    %b = memref.alloc() : memref<128xf32>   // after it: the same bytes
    ...
    memref.dealloc %a : memref<256xf32>
    memref.dealloc %b : memref<128xf32>
    // become (cache=false)
    %arena = memref.alloc() {alignment = 64 : i64} : memref<1024xi8>
    %a = memref.view %arena[%c0][] : memref<1024xi8> to memref<256xf32>
    ...
    %b = memref.view %arena[%c0][] : memref<1024xi8> to memref<128xf32>
    ...
    memref.dealloc %arena : memref<1024xi8>
    ```
  }];
  let options =
      [Option<"cache", "cache", "bool", /*default=*/"true",
              "Keep each function's arena between calls (one slot per "
              "function, taken and returned with atomic exchanges)">,
       Option<"alignment", "alignment", "int64_t", /*default=*/"64",
              "Byte alignment of the arena and of every buffer in it (a power "
              "of two, 1 to 4096)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def LayoutLowerAllocaScopes : Pass<"layout-lower-alloca-scopes"> {
  let summary = "Inline memref.alloca_scope, with stacksave/stackrestore "
                "around scopes that allocate";
  let description = [{
    Upstream's `convert-scf-to-openmp` wraps the body of every parallel loop
    in a `memref.alloca_scope`, whose region must stay a single block, so
    `convert-scf-to-cf` fails on any loop inside it; upstream lowers the
    scope only in its memref-to-LLVM conversion, after scf-to-cf.
    `--layout-lower-to-llvm` runs this pass right after
    `convert-scf-to-openmp` (it is the same lowering, earlier): a scope
    without allocations of its own is inlined; one with `memref.alloca`s (a
    staging row of a parallel chunk) becomes `llvm.intr.stacksave` +
    the inlined body + `llvm.intr.stackrestore`, so the allocation is freed
    at the end of each iteration.

    <!-- doc-example: skip sketch: the loop bounds and body are elided -->
    ```mlir
    memref.alloca_scope {
      %row = memref.alloca() : memref<4160xf32>
      scf.for ... { ... }
    }
    ```
    becomes
    <!-- doc-example: skip sketch: the loop bounds and body are elided -->
    ```mlir
    %sp = llvm.intr.stacksave : !llvm.ptr
    %row = memref.alloca() : memref<4160xf32>
    scf.for ... { ... }
    llvm.intr.stackrestore %sp : !llvm.ptr
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LayoutExpandNarrowFloats : Pass<"layout-expand-narrow-floats"> {
  let summary = "Expand extf/truncf of 8-, 6- and 4-bit floats to integer code";
  let description = [{
    LLVM has no 8-, 6- or 4-bit float types and MLIR lowers no `arith.extf` /
    `arith.truncf` of most of them (upstream's `arith-expand` covers
    `f4E2M1FN` and `f8E8M0FNU`, but not as XLA: its f4 rounding breaks ties
    away from zero, its E8M0 conversion drops the sign and reads code 0 as
    0.0). The binary ops compute these formats in f32 and round back, as XLA
    does on the CPU (docs/lowering.md, "Element types"). This pass rewrites
    * `arith.extf` from `f8E5M2`, `f8E4M3FN`, `f8E4M3B11FNUZ`, `f8E5M2FNUZ`,
      `f8E4M3FNUZ`, `f8E4M3`, `f8E3M4`, `f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN`,
      `f8E8M0FNU` (exact; to f32, then `extf`/`truncf` to another
      destination when every code is exact there),
    * `arith.truncf` to them from f16, bf16, f32 (f16 and bf16 through f32,
      exactly), f64 or another of them,

    into integer code on the bits (`arith.bitcast` to `iN`), derived from the
    format's `llvm::fltSemantics` (precision, exponent range, NaN and
    infinity codes, checked against APFloat for every code) and not written
    per type. The rounding is XLA's (a port of ml_dtypes' `ConvertImpl`,
    non-saturating): to nearest even, also into the subnormals; a value too
    large becomes infinity where the format has one (`f8E5M2`, `f8E4M3`,
    `f8E3M4`), else NaN (`f8E4M3FN`, FNUZ, `f8E8M0FNU`), else the largest
    value (the f6 and f4 formats have neither); NaN stays NaN; -0 becomes +0 in the FNUZ
    formats, whose only NaN is 0x80. `f8E8M0FNU` (no sign, no zero, code c
    is 2^(c - 127), 0xFF is NaN): zero, negative values and NaN become NaN,
    ties 1.5 * 2^e round up, code 0 (2^-127) widens to an f32 subnormal.
    Only scalar or vector arith ops, no branches or tables, so vector rows
    stay vectors.

    ```mlir
    %w = arith.extf %x : f8E4M3FN to f32
    ```
    becomes `arith.bitcast` to i8, `arith.extui` to i32, the exponent rebias
    (`shli`, `addi`), a `uitofp` + `mulf` for the subnormals and `select`s
    for NaN; `--layout-lower-to-llvm` runs it before `arith-expand`, which
    then finds none of these conversions left.

    With `bf16=true` it also rewrites `arith.extf` from bf16 to f32 (a
    shift) and `arith.truncf` from f32 to bf16 (to nearest even, or no
    rounding mode) into integer code: LLVM lowers
    that truncation, on x86 CPUs without AVX-512 BF16, to one
    `__truncsfbf2` call per element, also inside vector rows. The integer
    code gives the same bits as that call: round to nearest even
    (`(bits + 0x7fff + lsb) >> 16`, which also carries into the exponent
    and rounds the largest finites to infinity), and a NaN keeps its sign
    and top payload bits, made quiet (`bits >> 16 | 0x40`).
    With AVX-512 BF16, LLVM's `vcvtneps2bf16` flushes subnormal inputs to
    zero instead (XLA rounds them); `--layout-lower-to-llvm` sets the option
    on every target, after `arith-emulate-unsupported-floats` (bf16 ops in
    f32), so bf16 results have the same bits on every machine.

    Errors: a `truncf` with a rounding mode other than `to_nearest_even`, or
    from a source type other than the ones above (f80, f128, ...); an `extf`
    to a type that cannot hold every value exactly; tensor operands (only
    scalars and vectors are expanded).
  }];
  let options = [Option<
      "bf16", "bf16", "bool", /*default=*/"false",
      "Also expand bf16 <-> f32 extf/truncf to integer code (targets "
      "without native bf16 conversion: no __truncsfbf2 call per element)">];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LayoutIntegerFloatMoves : Pass<"layout-integer-float-moves"> {
  let summary = "Load and stream vectors of 16-bit floats as integer vectors";
  let description = [{
    LLVM's x86 backend (LLVM 22) drops the `!nontemporal` hint of vector
    stores of `bfloat` and `half` lanes wherever AVX-512 makes those vector
    types legal: `store <32 x bfloat> %v, ptr %p, !nontemporal` becomes a
    cached `vmovaps`/`vmovdqa64`, not `vmovntdq`, on `x86-64-v4`, `znver4`,
    `znver5` and `sapphirerapids` (AVX2 promotes the lanes to `i16` and
    keeps the hint). A relayout moves bits, so this pass, run on the LLVM
    dialect, moves them as integers of the same width:

    * the stored value of every `llvm.store` of a vector of floats other
      than `f32`/`f64` is bitcast to the integer vector first (cached
      stores too: on AVX2, where bf16 lanes are promoted to f32, LLVM 22
      moved a cached `store <32 x bfloat> (bitcast (load <32 x i16>))`
      through f32 with a `__truncsfbf2` call per lane);
    * every `llvm.load` of such a vector loads the integer vector and
      bitcasts the result, so that a copy's load/store pair is an integer
      pair after LLVM folds the two bitcasts (the instruction selector
      would otherwise fold a store of `bitcast(load <32 x bfloat>)` back
      into a `bfloat` store and lose the hint again).

    ```mlir
    %v = llvm.load %p : !llvm.ptr -> vector<32xbf16>
    llvm.store %v, %q {alignment = 64 : i64, nontemporal}
        : vector<32xbf16>, !llvm.ptr
    // becomes
    %0 = llvm.load %p : !llvm.ptr -> vector<32xi16>
    %v = llvm.bitcast %0 : vector<32xi16> to vector<32xbf16>
    %1 = llvm.bitcast %v : vector<32xbf16> to vector<32xi16>
    llvm.store %1, %q {alignment = 64 : i64, nontemporal}
        : vector<32xi16>, !llvm.ptr
    ```

    * every `llvm.intr.masked.load` and `llvm.intr.masked.store` of such
      a vector, cached or not, moves the integer vector (pass-thru and
      stored value bitcast, the loaded result bitcast back): on AVX-512
      without BF16 (`x86-64-v4`, Skylake-X to Ice Lake, VMs that hide
      `avx512_bf16`) LLVM 22 legalizes a masked move of `<32 x bfloat>`
      through `f32` with a `__truncsfbf2` call per lane; of `i16` lanes it
      is one `vmovdqu16 {k}`.

    Scalars are left alone.
    Measured on AMD Zen 5 (AVX-512), bf16[32,32,128,128] -> {3,1,2,0}:
    29 GB/s with the cached stores, 52 GB/s streaming (docs/performance.md).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def LayoutCheckLoweredToLLVM
    : Pass<"layout-check-lowered-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Report every op that is not in the LLVM dialect";
  let description = [{
    The last pass of `--layout-lower-to-llvm`. `convert-to-llvm` leaves ops
    it cannot convert in place (and may still succeed), which would only
    surface later in `mlir-translate` or at run time. This pass names every
    op below the module that is not in the LLVM dialect (unregistered ops
    included; OpenMP dialect ops, which `mlir-translate` translates to
    libomp calls, are allowed) and fails:

    ```
    error: --layout-lower-to-llvm: 'tensor.empty' was not converted to the
           LLVM dialect
    ```
  }];
}

#endif // LAYOUT_CONVERSION_PIPELINES_PASSES_TD
