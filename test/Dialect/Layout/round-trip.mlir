// Pretty form, generic form and bytecode all re-parse to the same IR.
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s -mlir-print-op-generic | layout-opt | FileCheck %s
// RUN: layout-opt %s -emit-bytecode | layout-opt | FileCheck %s
// The generic form keeps the attributes verbatim.
// RUN: layout-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func private @figure1
// CHECK-SAME: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func private @figure1(memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)

// Attributes store canonical XLA text: spacing disappears, and equal layouts
// are the same attribute (the SSA use below type-checks against the def).
// CHECK-LABEL: func.func @canonical
// CHECK-SAME: (%[[M:.+]]: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK: layout.to_physical %[[M]] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
func.func @canonical(%m: memref<3x5xf32, #layout.tiled<{ 1, 0 : T(2, 2) }>>) -> memref<2x3x2x2xf32> {
  %p = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> memref<2x3x2x2xf32>
  return %p : memref<2x3x2x2xf32>
}

// The quoted form is accepted and printed unquoted when it can be.
// CHECK-LABEL: func.func private @quoted
// CHECK-SAME: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func private @quoted(memref<3x5xf32, #layout.tiled<"{1,0:T(2,2)}">>)

// CHECK-LABEL: func.func private @figure2
// CHECK-SAME: memref<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>
func.func private @figure2(memref<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>)

// `*` combines carry the logical dims.
// CHECK-LABEL: func.func private @combine
// CHECK-SAME: memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>
func.func private @combine(memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>)

// `*` layouts without dims take the sizes from the shape, and print as
// written; with dims they are distinct attributes (and types) with the same
// layout.
// CHECK-LABEL: func.func private @combine_without_dims
// CHECK-SAME: memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>
// CHECK-SAME: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
// CHECK-SAME: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>
// CHECK-SAME: memref<?x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
// CHECK-SAME: tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
func.func private @combine_without_dims(
    memref<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}>>,
    memref<2x3x4xf32, #layout.tiled<{ 2, 1, 0 : T(*, 8) }>>,
    memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}, [2,3,4]>>,
    memref<?x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>,
    tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>)

// The physical views of a dims-less `*` layout.
// CHECK-LABEL: func.func @combine_views
// CHECK: layout.to_physical %{{.*}} : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>> -> memref<2x2x8xf32>
// CHECK: layout.from_physical %{{.*}} : tensor<2x2x8xf32> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
func.func @combine_views(%m: memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>, %t: tensor<2x2x8xf32>)
    -> (memref<2x2x8xf32>, tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>) {
  %p = layout.to_physical %m : memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>> -> memref<2x2x8xf32>
  %l = layout.from_physical %t : tensor<2x2x8xf32> -> tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
  return %p, %l : memref<2x2x8xf32>, tensor<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>
}

// Legacy padding, L, E and S fields; S(1) goes with memory space 1.
// CHECK-LABEL: func.func private @fields
// CHECK-SAME: memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>
// CHECK-SAME: memref<8x8xf32, #layout.tiled<{1,0:T(4,4)L(128)E(32)S(1)}>, 1>
// CHECK-SAME: memref<3x5xf32, #layout.tiled<{0,1}>>
func.func private @fields(memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>,
                          memref<8x8xf32, #layout.tiled<{1,0:T(4,4)L(128)E(32)S(1)}>, 1>,
                          memref<3x5xf32, #layout.tiled<{0,1}>>)

// Dynamic dims, where the layout allows them (outer dim of a combine).
// CHECK-LABEL: func.func private @dynamic
// CHECK-SAME: memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK-SAME: memref<3x?x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,?,5]>>
func.func private @dynamic(memref<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>,
                           memref<3x?x5xf32, #layout.tiled<{2,1,0:T(2,*,4)}, [3,?,5]>>)

// A verified tensor encoding.
// CHECK-LABEL: func.func private @tensor
// CHECK-SAME: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func private @tensor(tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)

// Whole shapes: arrays get their default layout printed, `<=N` needs quotes.
// CHECK-LABEL: func.func private @shapes
// CHECK-SAME: a = #layout.shape<f32[3,5]{1,0:T(2,2)}>
// CHECK-SAME: b = #layout.shape<(f32[2]{0}, s32[])>
// CHECK-SAME: c = #layout.shape<"f32[<=4,?]{1,0}">
// CHECK-SAME: d = #layout.shape<token[]>
// CHECK-SAME: e = #layout.shape<pred[2,2]{0,1}>
func.func private @shapes() attributes {
  a = #layout.shape<f32[3,5]{1,0:T(2,2)}>,
  b = #layout.shape<(f32[2], s32[])>,
  c = #layout.shape<"f32[<=4,?]">,
  d = #layout.shape<token[]>,
  e = #layout.shape<pred[2,2]{0,1}>
}

// CHECK-LABEL: func.func @views
// CHECK-SAME: (%[[P:.+]]: memref<2x3x2x2xf32, 1>)
// CHECK: %[[M:.+]] = layout.from_physical %[[P]] : memref<2x3x2x2xf32, 1> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>, 1>
// CHECK: layout.to_physical %[[M]] : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>, 1> -> memref<2x3x2x2xf32, 1>
func.func @views(%p: memref<2x3x2x2xf32, 1>) -> memref<2x3x2x2xf32, 1> {
  %m = layout.from_physical %p : memref<2x3x2x2xf32, 1> -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>, 1>
  %q = layout.to_physical %m : memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>, 1> -> memref<2x3x2x2xf32, 1>
  return %q : memref<2x3x2x2xf32, 1>
}

// Legacy padding: the physical view has the padded dims (5x3 for a 2x3
// column-major array padded to 3x5); L(n) slack is not part of the view.
// CHECK-LABEL: func.func @padded_view
// CHECK: layout.to_physical %{{.+}} : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>> -> memref<5x3xf32>
// CHECK: layout.to_physical %{{.+}} : memref<5x5xf32, #layout.tiled<{1,0:T(2,2)L(64)}>> -> memref<3x3x2x2xf32>
func.func @padded_view(%m: memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>>,
                       %n: memref<5x5xf32, #layout.tiled<{1,0:T(2,2)L(64)}>>) {
  %p = layout.to_physical %m : memref<2x3xf32, #layout.tiled<{0,1:PAD(3,5)PV(zero)}>> -> memref<5x3xf32>
  %q = layout.to_physical %n : memref<5x5xf32, #layout.tiled<{1,0:T(2,2)L(64)}>> -> memref<3x3x2x2xf32>
  return
}

// GENERIC: "layout.to_physical"(%{{.+}}) : (memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> memref<2x3x2x2xf32>
// GENERIC: "layout.to_physical"(%{{.+}}) : (memref<2x3x4xf32, #layout.tiled<{2,1,0:T(*,8)}>>) -> memref<2x2x8xf32>
// GENERIC: "layout.from_physical"(%{{.+}}) : (memref<2x3x2x2xf32, 1>) -> memref<3x5xf32, #layout.tiled<{1,0:T(2,2)S(1)}>, 1>
