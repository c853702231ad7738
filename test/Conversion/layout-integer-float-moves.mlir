// RUN: layout-opt %s --layout-integer-float-moves | FileCheck %s

// Stores of 16-bit float lanes, non-temporal or cached, store the integer
// vector of the same width, and loads of such vectors load integers; f32/f64
// lanes, integer lanes and scalars are left alone.

// CHECK-LABEL: llvm.func @bf16_zmm
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[V:.*]]: vector<32xbf16>)
// CHECK: %[[I:.*]] = llvm.bitcast %[[V]] : vector<32xbf16> to vector<32xi16>
// CHECK: llvm.store %[[I]], %[[P]] {alignment = 64 : i64, nontemporal} : vector<32xi16>, !llvm.ptr
llvm.func @bf16_zmm(%p: !llvm.ptr, %v: vector<32xbf16>) {
  llvm.store %v, %p {alignment = 64 : i64, nontemporal} : vector<32xbf16>, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @f16_ymm
// CHECK: llvm.bitcast %{{.*}} : vector<16xf16> to vector<16xi16>
// CHECK: llvm.store %{{.*}} {alignment = 32 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
llvm.func @f16_ymm(%p: !llvm.ptr, %v: vector<16xf16>) {
  llvm.store %v, %p {alignment = 32 : i64, nontemporal} : vector<16xf16>, !llvm.ptr
  llvm.return
}

// A copy: the load's attributes stay, its users see the float vector.
// CHECK-LABEL: llvm.func @copy
// CHECK: %[[L:.*]] = llvm.load %{{.*}} {alignment = 64 : i64, nontemporal} : !llvm.ptr -> vector<32xi16>
// CHECK: %[[F:.*]] = llvm.bitcast %[[L]] : vector<32xi16> to vector<32xbf16>
// CHECK: %[[I:.*]] = llvm.bitcast %[[F]] : vector<32xbf16> to vector<32xi16>
// CHECK: llvm.store %[[I]], %{{.*}} {nontemporal} : vector<32xi16>, !llvm.ptr
// CHECK: %[[J:.*]] = llvm.bitcast %[[F]] : vector<32xbf16> to vector<32xi16>
// CHECK: llvm.store %[[J]], %{{.*}} : vector<32xi16>, !llvm.ptr
llvm.func @copy(%p: !llvm.ptr, %q: !llvm.ptr) {
  %v = llvm.load %p {alignment = 64 : i64, nontemporal} : !llvm.ptr -> vector<32xbf16>
  llvm.store %v, %q {nontemporal} : vector<32xbf16>, !llvm.ptr
  llvm.store %v, %p : vector<32xbf16>, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @unchanged
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.store %{{.*}} {nontemporal} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.store %{{.*}} {nontemporal} : vector<8xf64>, !llvm.ptr
// CHECK: llvm.store %{{.*}} {nontemporal} : vector<32xi16>, !llvm.ptr
// CHECK: llvm.store %{{.*}} {nontemporal} : bf16, !llvm.ptr
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK-NOT: llvm.bitcast
// CHECK: llvm.return
llvm.func @unchanged(%p: !llvm.ptr, %a: vector<16xf32>, %b: vector<8xf64>,
                     %c: vector<32xi16>, %e: bf16) {
  llvm.store %a, %p {nontemporal} : vector<16xf32>, !llvm.ptr
  llvm.store %b, %p {nontemporal} : vector<8xf64>, !llvm.ptr
  llvm.store %c, %p {nontemporal} : vector<32xi16>, !llvm.ptr
  llvm.store %e, %p {nontemporal} : bf16, !llvm.ptr
  %f = llvm.load %p : !llvm.ptr -> vector<16xf32>
  %g = llvm.load %p : !llvm.ptr -> bf16
  llvm.return
}

// Masked moves of 16-bit floats, cached or not, move i16 lanes: the pass-thru
// and the stored value are bitcast, the load's result is bitcast back.
// CHECK-LABEL: llvm.func @masked
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[M:.*]]: vector<32xi1>, %[[Z:.*]]: vector<32xbf16>, %[[H:.*]]: vector<16xf16>)
// CHECK: %[[ZI:.*]] = llvm.bitcast %[[Z]] : vector<32xbf16> to vector<32xi16>
// CHECK: %[[L:.*]] = llvm.intr.masked.load %[[P]], %[[M]], %[[ZI]] {alignment = 2 : i32} : (!llvm.ptr, vector<32xi1>, vector<32xi16>) -> vector<32xi16>
// CHECK: %[[F:.*]] = llvm.bitcast %[[L]] : vector<32xi16> to vector<32xbf16>
// CHECK: %[[I:.*]] = llvm.bitcast %[[F]] : vector<32xbf16> to vector<32xi16>
// CHECK: llvm.intr.masked.store %[[I]], %[[P]], %[[M]] {alignment = 2 : i32} : vector<32xi16>, vector<32xi1> into !llvm.ptr
// CHECK: %[[HI:.*]] = llvm.bitcast %[[H]] : vector<16xf16> to vector<16xi16>
// CHECK: llvm.intr.masked.store %[[HI]]
// CHECK: llvm.intr.masked.load %[[P]], %{{.*}} {alignment = 4 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
llvm.func @masked(%p: !llvm.ptr, %m: vector<32xi1>, %z: vector<32xbf16>, %h: vector<16xf16>) {
  %v = llvm.intr.masked.load %p, %m, %z {alignment = 2 : i32} : (!llvm.ptr, vector<32xi1>, vector<32xbf16>) -> vector<32xbf16>
  llvm.intr.masked.store %v, %p, %m {alignment = 2 : i32} : vector<32xbf16>, vector<32xi1> into !llvm.ptr
  %m16 = llvm.mlir.constant(dense<true> : vector<16xi1>) : vector<16xi1>
  llvm.intr.masked.store %h, %p, %m16 {alignment = 2 : i32} : vector<16xf16>, vector<16xi1> into !llvm.ptr
  %zf = llvm.mlir.constant(dense<0.0> : vector<16xf32>) : vector<16xf32>
  %f = llvm.intr.masked.load %p, %m16, %zf {alignment = 4 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
  llvm.return
}
