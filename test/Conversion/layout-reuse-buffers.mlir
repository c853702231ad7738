// RUN: layout-opt %s --layout-reuse-buffers=cache=false -split-input-file \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-reuse-buffers -split-input-file \
// RUN:   | FileCheck %s --check-prefix=CACHE
// RUN: layout-opt %s --layout-reuse-buffers="cache=false alignment=4" \
// RUN:   -split-input-file | FileCheck %s --check-prefix=ALIGN4
// RUN: not layout-opt %s --layout-reuse-buffers=alignment=48 \
// RUN:   -split-input-file 2>&1 | FileCheck %s --check-prefix=BADALIGN

// BADALIGN: --layout-reuse-buffers: alignment must be a power of two from 1 to 4096, got 48

// Two buffers whose lifetimes do not overlap (%a's last use is before %b
// is allocated) share offset 0; %c overlaps %b and goes above it. The
// arena is allocated at the first alloc and freed at the last dealloc;
// sizes are rounded up to 64 bytes (400 -> 448).
// CHECK-LABEL: func.func @disjoint(
//       CHECK:   %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1472xi8>
//       CHECK:   %[[A:.*]] = memref.view %[[ARENA]][%c0{{[_0-9]*}}][] : memref<1472xi8> to memref<256xf32>
//       CHECK:   memref.copy %arg0, %[[A]]
//       CHECK:   memref.copy %[[A]], %arg1
//       CHECK:   %[[B:.*]] = memref.view %[[ARENA]][%c0{{[_0-9]*}}][] : memref<1472xi8> to memref<256xf32>
//       CHECK:   %[[C:.*]] = memref.view %[[ARENA]][%c1024][] : memref<1472xi8> to memref<100xf32>
//       CHECK:   memref.copy %[[B]], %arg1
//   CHECK-NOT:   memref.dealloc %[[A]]
//   CHECK-NOT:   memref.dealloc %[[B]]
//       CHECK:   memref.dealloc %[[ARENA]] : memref<1472xi8>
//  CHECK-NEXT:   return
// With the cache: taken from the slot (or aligned_alloc'ed), put back.
// CACHE:       llvm.mlir.global internal @__layout_arena_disjoint()
// CACHE:         llvm.mlir.zero : !llvm.ptr
// CACHE:       llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CACHE-LABEL: func.func @disjoint(
//       CACHE:   %[[SLOT:.*]] = llvm.mlir.addressof @__layout_arena_disjoint
//       CACHE:   %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
//       CACHE:   %[[OLD:.*]] = llvm.atomicrmw xchg %[[SLOT]], %[[NULL]] acq_rel
//       CACHE:   %[[EMPTY:.*]] = llvm.icmp "eq" %[[OLD]], %[[NULL]]
//       CACHE:   %[[PTR:.*]] = scf.if %[[EMPTY]] -> (!llvm.ptr) {
//       CACHE:     %[[AL:.*]] = llvm.mlir.constant(64 : i64)
//       CACHE:     %[[SZ:.*]] = llvm.mlir.constant(1472 : i64)
//       CACHE:     llvm.call @aligned_alloc(%[[AL]], %[[SZ]])
//       CACHE:   } else {
//       CACHE:     scf.yield %[[OLD]]
//       CACHE:   %[[ARENA:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<1472xi8>
//       CACHE:   memref.view %[[ARENA]]
//       CACHE:   %[[SLOT2:.*]] = llvm.mlir.addressof @__layout_arena_disjoint
//       CACHE:   %[[DISPLACED:.*]] = llvm.atomicrmw xchg %[[SLOT2]], %[[PTR]] acq_rel
//       CACHE:   %[[TAKEN:.*]] = llvm.icmp "ne" %[[DISPLACED]]
//       CACHE:   scf.if %[[TAKEN]] {
//       CACHE:     llvm.call @free(%[[DISPLACED]])
//   CACHE-NOT:   memref.dealloc
//       CACHE:   return
func.func @disjoint(%x: memref<256xf32>, %y: memref<256xf32>, %z: memref<100xf32>) {
  %a = memref.alloc() : memref<256xf32>
  memref.copy %x, %a : memref<256xf32> to memref<256xf32>
  memref.copy %a, %y : memref<256xf32> to memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  %c = memref.alloc() : memref<100xf32>
  memref.copy %y, %b : memref<256xf32> to memref<256xf32>
  memref.copy %z, %c : memref<100xf32> to memref<100xf32>
  memref.copy %c, %z : memref<100xf32> to memref<100xf32>
  memref.copy %b, %y : memref<256xf32> to memref<256xf32>
  memref.dealloc %a : memref<256xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<100xf32>
  return
}

// -----

// A use through a view, and inside a loop, keeps the buffer alive: %b
// cannot take %a's bytes while the loop still reads %a through a subview.
// CHECK-LABEL: func.func @aliases(
//       CHECK:   memref.alloc() {alignment = 64 : i64} : memref<128xi8>
//       CHECK:   memref.view %{{.*}}[%c0{{[_0-9]*}}][] : memref<128xi8> to memref<16xf32>
//       CHECK:   memref.view %{{.*}}[%c64][] : memref<128xi8> to memref<16xf32>
func.func @aliases(%x: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %s = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  %b = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %s[%c0] : memref<8xf32, strided<[1]>>
    memref.store %v, %b[%i] : memref<16xf32>
  }
  memref.copy %b, %x : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}

// -----

// Left alone: a returned buffer, a dynamic one, one in a loop, one without
// a dealloc, one freed inside a region, another memory space, a strided
// layout, a zero-size buffer and an alignment above the arena's.
// CHECK-LABEL: func.func @left_alone(
//   CHECK-NOT:   memref.view
//   CHECK-NOT:   memref<{{[0-9]+}}xi8>
//       CHECK:   return
// CACHE-LABEL: func.func @left_alone(
//   CACHE-NOT:   llvm.atomicrmw
//       CACHE:   return
func.func @left_alone(%n: index, %x: memref<4xf32>, %p: i1) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ret = memref.alloc() : memref<4xf32>
  %cast = memref.cast %ret : memref<4xf32> to memref<4xf32>
  %dyn = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %l = memref.alloc() : memref<4xf32>
    memref.copy %x, %l : memref<4xf32> to memref<4xf32>
    memref.dealloc %l : memref<4xf32>
  }
  %leak = memref.alloc() : memref<4xf32>
  %cond = memref.alloc() : memref<4xf32>
  scf.if %p {
    memref.dealloc %cond : memref<4xf32>
  }
  %space = memref.alloc() : memref<4xf32, 1>
  %strided = memref.alloc() : memref<4xf32, strided<[2]>>
  %empty = memref.alloc() : memref<0xf32>
  %aligned = memref.alloc() {alignment = 128 : i64} : memref<4xf32>
  memref.copy %x, %ret : memref<4xf32> to memref<4xf32>
  memref.dealloc %dyn : memref<?xf32>
  memref.dealloc %space : memref<4xf32, 1>
  memref.dealloc %strided : memref<4xf32, strided<[2]>>
  memref.dealloc %empty : memref<0xf32>
  memref.dealloc %aligned : memref<4xf32>
  return %cast : memref<4xf32>
}

// -----

// Element sizes as LLVM lays memrefs out: i24 takes 4 bytes (20 for 5 of
// them), so with alignment=4 the i8 buffer that overlaps it starts at 20.
// ALIGN4-LABEL: func.func @alloc_size(
//       ALIGN4:   memref.alloc() {alignment = 4 : i64} : memref<24xi8>
//       ALIGN4:   memref.view %{{.*}}[%c0{{[_0-9]*}}][] : memref<24xi8> to memref<5xi24>
//       ALIGN4:   memref.view %{{.*}}[%c20][] : memref<24xi8> to memref<3xi8>
func.func @alloc_size(%x: memref<5xi24>, %y: memref<3xi8>) {
  %a = memref.alloc() : memref<5xi24>
  %b = memref.alloc() : memref<3xi8>
  memref.copy %x, %a : memref<5xi24> to memref<5xi24>
  memref.copy %y, %b : memref<3xi8> to memref<3xi8>
  memref.dealloc %a : memref<5xi24>
  memref.dealloc %b : memref<3xi8>
  return
}

// -----

// The slot's name is uniqued against the module's symbols.
// CACHE: llvm.mlir.global internal @__layout_arena_named_0()
// CACHE-LABEL: func.func @named(
//       CACHE:   llvm.mlir.addressof @__layout_arena_named_0
func.func private @__layout_arena_named()
func.func @named(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  memref.copy %a, %x : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Element sizes are at least LLVM's on any target: i96 takes 16 bytes (not
// the 12 of MLIR's default data layout), so 5 of them take 80, rounded to
// 128, and the buffer live beside them starts at 128.
// CHECK-LABEL: func.func @wide_integers(
//       CHECK:   memref.alloc() {alignment = 64 : i64} : memref<192xi8>
//       CHECK:   memref.view %{{.*}}[%c0{{[_0-9]*}}][] : memref<192xi8> to memref<5xi96>
//       CHECK:   memref.view %{{.*}}[%c128][] : memref<192xi8> to memref<3xi8>
func.func @wide_integers(%x: memref<5xi96>, %y: memref<3xi8>) {
  %a = memref.alloc() : memref<5xi96>
  %b = memref.alloc() : memref<3xi8>
  memref.copy %x, %a : memref<5xi96> to memref<5xi96>
  memref.copy %y, %b : memref<3xi8> to memref<3xi8>
  memref.dealloc %a : memref<5xi96>
  memref.dealloc %b : memref<3xi8>
  return
}

// -----

// An element that needs more alignment than the arena's offsets give
// (vector<4xf32>: 16 bytes, with alignment=4) stays an allocation.
// ALIGN4-LABEL: func.func @element_alignment(
//       ALIGN4:   memref.alloc() : memref<2xvector<4xf32>>
//       ALIGN4:   memref.alloc() {alignment = 4 : i64} : memref<12xi8>
//       ALIGN4:   memref.view %{{.*}}[%c0{{[_0-9]*}}][] : memref<12xi8> to memref<5xi8>
//       ALIGN4:   memref.view %{{.*}}[%c8][] : memref<12xi8> to memref<3xi8>
func.func @element_alignment(%x: memref<5xi8>, %y: memref<3xi8>, %v: memref<2xvector<4xf32>>) {
  %c = memref.alloc() : memref<2xvector<4xf32>>
  %a = memref.alloc() : memref<5xi8>
  %b = memref.alloc() : memref<3xi8>
  memref.copy %v, %c : memref<2xvector<4xf32>> to memref<2xvector<4xf32>>
  memref.copy %x, %a : memref<5xi8> to memref<5xi8>
  memref.copy %y, %b : memref<3xi8> to memref<3xi8>
  memref.dealloc %c : memref<2xvector<4xf32>>
  memref.dealloc %a : memref<5xi8>
  memref.dealloc %b : memref<3xi8>
  return
}
