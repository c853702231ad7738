// layout.bitcast_buffer: round trip, each constraint's diagnostic, and the
// LLVM lowering (the source's pointers, the result's static sizes and
// row-major strides, offset 0).
// RUN: layout-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: layout-opt %s -split-input-file -verify-diagnostics --convert-to-llvm | FileCheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @pairs
// CHECK: layout.bitcast_buffer %{{.*}} : memref<4x6x2xbf16> -> memref<4x6xi32>
// LLVM-LABEL: llvm.func @pairs
// LLVM: %[[ALLOC:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
// LLVM: llvm.insertvalue %[[ALLOC]], %{{.*}}[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM: %[[ALIGN:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<3 x i64>, array<3 x i64>)>
// LLVM: llvm.insertvalue %[[ALIGN]], %{{.*}}[1]
// LLVM: %[[ZERO:.*]] = llvm.mlir.constant(0 : index) : i64
// LLVM: llvm.insertvalue %[[ZERO]], %{{.*}}[2]
// LLVM: %[[SIX:.*]] = llvm.mlir.constant(6 : index) : i64
// LLVM: llvm.insertvalue %[[SIX]], %{{.*}}[3, 1]
// LLVM: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// LLVM: llvm.insertvalue %[[ONE]], %{{.*}}[4, 1]
// LLVM: %[[FOUR:.*]] = llvm.mlir.constant(4 : index) : i64
// LLVM: llvm.insertvalue %[[FOUR]], %{{.*}}[3, 0]
// LLVM: %[[SIX2:.*]] = llvm.mlir.constant(6 : index) : i64
// LLVM: llvm.insertvalue %[[SIX2]], %{{.*}}[4, 0]
func.func @pairs(%m: memref<4x6x2xbf16>) -> memref<4x6xi32> {
  %u = layout.bitcast_buffer %m : memref<4x6x2xbf16> -> memref<4x6xi32>
  return %u : memref<4x6xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_and_widen
// CHECK: layout.bitcast_buffer %{{.*}} : memref<8x8xi8> -> memref<2x4xf64>
func.func @reshape_and_widen(%m: memref<8x8xi8>) -> memref<2x4xf64> {
  %u = layout.bitcast_buffer %m : memref<8x8xi8> -> memref<2x4xf64>
  return %u : memref<2x4xf64>
}

// -----

func.func @c1_dynamic(%m: memref<?x2xbf16>) {
  // expected-error @+1 {{(C1) expects the source to have a static shape and the identity layout, got 'memref<?x2xbf16>'}}
  %u = layout.bitcast_buffer %m : memref<?x2xbf16> -> memref<4xi32>
  return
}

// -----

func.func @c1_strided(%m: memref<4x2xbf16>) {
  // expected-error @+1 {{(C1) expects the result to have a static shape and the identity layout, got 'memref<4xi32, strided<[2]>>'}}
  %u = layout.bitcast_buffer %m : memref<4x2xbf16> -> memref<4xi32, strided<[2]>>
  return
}

// -----

func.func @c2_sub_byte(%m: memref<8xi4>) {
  // expected-error @+1 {{(C2) expects the source's element type to be an integer or float of whole bytes, got 'i4'}}
  %u = layout.bitcast_buffer %m : memref<8xi4> -> memref<1xi32>
  return
}

// -----

func.func @c2_index(%m: memref<8xi32>) {
  // expected-error @+1 {{(C2) expects the result's element type to be an integer or float of whole bytes, got 'index'}}
  %u = layout.bitcast_buffer %m : memref<8xi32> -> memref<4xindex>
  return
}

// -----

func.func @c3_bits(%m: memref<4x3xbf16>) {
  // expected-error @+1 {{(C3) expects as many bits in the result as in the source, got 256 and 192}}
  %u = layout.bitcast_buffer %m : memref<4x3xbf16> -> memref<8xi32>
  return
}

// -----

func.func @c3_overflow(%m: memref<4611686018427387904x4xi64>) {
  // expected-error @+1 {{(C3) the source 'memref<4611686018427387904x4xi64>' has more than 2^63 bits}}
  %u = layout.bitcast_buffer %m : memref<4611686018427387904x4xi64> -> memref<4xi32>
  return
}

// -----

func.func @c4_memory_space(%m: memref<4x2xbf16, 1>) {
  // expected-error @+1 {{(C4) expects the same memory space, got 'memref<4x2xbf16, 1>' and 'memref<4xi32>'}}
  %u = layout.bitcast_buffer %m : memref<4x2xbf16, 1> -> memref<4xi32>
  return
}
