// layout.relayout and the tensor forms of the view ops: the pretty form, the
// generic form and bytecode re-parse to the same IR.
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s -mlir-print-op-generic | layout-opt | FileCheck %s
// RUN: layout-opt %s -emit-bytecode | layout-opt | FileCheck %s
// RUN: layout-opt %s -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

!row = tensor<3x5xf32>
!fig1 = tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>

// CHECK-LABEL: func.func @row_to_tiled
// CHECK-SAME: (%[[S:.+]]: tensor<3x5xf32>, %[[D:.+]]: tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK: %[[R:.+]] = layout.relayout %[[S]], %[[D]] : tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK: return %[[R]]
// GENERIC-LABEL: sym_name = "row_to_tiled"
// GENERIC: "layout.relayout"(%{{.*}}, %{{.*}}) : (tensor<3x5xf32>, tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func @row_to_tiled(%src: !row, %dst: !fig1) -> !fig1 {
  %r = layout.relayout %src, %dst : !row, !fig1 -> !fig1
  return %r : !fig1
}

// Tiled -> tiled (Figure 2's two levels), column-major, `*`, legacy padding.
// CHECK-LABEL: func.func @tiled_to_tiled
// CHECK: layout.relayout %{{.*}}, %{{.*}} : tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>, tensor<4x8xbf16, #layout.tiled<{0,1:T(4,4)}>> -> tensor<4x8xbf16, #layout.tiled<{0,1:T(4,4)}>>
// CHECK: layout.relayout %{{.*}}, %{{.*}} : tensor<2x7x8x11x10xf32>, tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>> -> tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>
// CHECK: layout.relayout %{{.*}}, %{{.*}} : tensor<2x3xi32, #layout.tiled<{0,1:PAD(3,5)PV(lowest)}>>, tensor<2x3xi32> -> tensor<2x3xi32>
func.func @tiled_to_tiled(
    %a: tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>,
    %b: tensor<4x8xbf16, #layout.tiled<{0,1:T(4,4)}>>,
    %c: tensor<2x7x8x11x10xf32>,
    %d: tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>,
    %e: tensor<2x3xi32, #layout.tiled<{0,1:PAD(3,5)PV(lowest)}>>,
    %f: tensor<2x3xi32>) {
  %0 = layout.relayout %a, %b : tensor<4x8xbf16, #layout.tiled<{1,0:T(2,4)(2,1)}>>, tensor<4x8xbf16, #layout.tiled<{0,1:T(4,4)}>> -> tensor<4x8xbf16, #layout.tiled<{0,1:T(4,4)}>>
  %1 = layout.relayout %c, %d : tensor<2x7x8x11x10xf32>, tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>> -> tensor<2x7x8x11x10xf32, #layout.tiled<{4,3,2,1,0:T(*,*,2,*,3)}, [2,7,8,11,10]>>
  %2 = layout.relayout %e, %f : tensor<2x3xi32, #layout.tiled<{0,1:PAD(3,5)PV(lowest)}>>, tensor<2x3xi32> -> tensor<2x3xi32>
  return
}

// Dynamic dims where the layouts allow them.
// CHECK-LABEL: func.func @dynamic
// CHECK: layout.relayout %{{.*}}, %{{.*}} : tensor<?x5xf32>, tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func @dynamic(%s: tensor<?x5xf32>, %d: tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> {
  %r = layout.relayout %s, %d : tensor<?x5xf32>, tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return %r : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>
}

// Memrefs: no result; the destination is written. Memory spaces follow S(n).
// CHECK-LABEL: func.func @buffers
// CHECK: layout.relayout %{{.*}}, %{{.*}} : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>{{$}}
// CHECK: layout.relayout %{{.*}}, %{{.*}} : memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>, memref<8x8xf32, 2>{{$}}
// CHECK: layout.relayout %{{.*}}, %{{.*}} : memref<3x5xf32, strided<[?, ?], offset: ?>>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>{{$}}
// GENERIC-LABEL: sym_name = "buffers"
// GENERIC: "layout.relayout"(%{{.*}}, %{{.*}}) : (memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> ()
func.func @buffers(%a: memref<3x5xf32>, %b: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>,
                   %c: memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>, %d: memref<8x8xf32, 2>,
                   %s: memref<3x5xf32, strided<[?, ?], offset: ?>>) {
  layout.relayout %a, %b : memref<3x5xf32>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  "layout.relayout"(%c, %d) : (memref<8x8xf32, #layout.tiled<{1,0:T(4,4)S(1)}>, 1>, memref<8x8xf32, 2>) -> ()
  // Strided memrefs (e.g. bufferized with fully dynamic layouts).
  layout.relayout %s, %b : memref<3x5xf32, strided<[?, ?], offset: ?>>, memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
  return
}

// The view ops on tensors (value semantics).
// CHECK-LABEL: func.func @tensor_views
// CHECK: %[[P:.+]] = layout.to_physical %{{.*}} : tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<2x3x2x2xf32>
// CHECK: layout.from_physical %[[P]] : tensor<2x3x2x2xf32> -> tensor<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
// CHECK: layout.to_physical %{{.*}} : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x3x2x2xf32>
func.func @tensor_views(%t: !fig1, %u: tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>>) -> (!fig1, tensor<?x3x2x2xf32>) {
  %p = layout.to_physical %t : !fig1 -> tensor<2x3x2x2xf32>
  %q = layout.from_physical %p : tensor<2x3x2x2xf32> -> !fig1
  %r = layout.to_physical %u : tensor<?x5xf32, #layout.tiled<{1,0:T(2,2)}>> -> tensor<?x3x2x2xf32>
  return %q, %r : !fig1, tensor<?x3x2x2xf32>
}
