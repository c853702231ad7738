// RUN: layout-opt %s --layout-lower-alloca-scopes --split-input-file | FileCheck %s
// RUN: layout-opt %s --convert-scf-to-openmp --layout-lower-alloca-scopes --convert-scf-to-cf --split-input-file | FileCheck %s --check-prefix=OMP

// A scope that allocates: stacksave, the body inlined, stackrestore.
// CHECK-LABEL: func.func @allocates
// CHECK-NEXT: %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
// CHECK-NEXT: %[[A:.*]] = memref.alloca() : memref<16xf32>
// CHECK-NEXT: memref.store %{{.*}}, %[[A]]
// CHECK-NEXT: llvm.intr.stackrestore %[[SP]] : !llvm.ptr
// CHECK-NEXT: return
// CHECK-NOT: alloca_scope
func.func @allocates(%v: f32, %i: index) {
  memref.alloca_scope {
    %a = memref.alloca() : memref<16xf32>
    memref.store %v, %a[%i] : memref<16xf32>
  }
  return
}

// -----

// No allocation of its own (the inner one belongs to the nested scope):
// inlined without stacksave; results replace the scope's.
// CHECK-LABEL: func.func @no_alloca
// CHECK-NEXT: %[[SP:.*]] = llvm.intr.stacksave
// CHECK-NEXT: memref.alloca
// CHECK-NEXT: llvm.intr.stackrestore %[[SP]]
// CHECK-NEXT: %[[R:.*]] = arith.addf
// CHECK-NEXT: return %[[R]]
func.func @no_alloca(%v: f32) -> f32 {
  %r = memref.alloca_scope -> f32 {
    memref.alloca_scope {
      %a = memref.alloca() : memref<4xf32>
    }
    %s = arith.addf %v, %v : f32
    memref.alloca_scope.return %s : f32
  }
  return %r : f32
}

// -----

// What convert-scf-to-openmp makes of a parallel loop with a loop and a
// per-iteration allocation inside: after this pass, scf-to-cf works.
// OMP-LABEL: func.func @parallel
// OMP: omp.parallel
// OMP: omp.loop_nest
// OMP-NEXT: %[[SP:.*]] = llvm.intr.stacksave
// OMP-NEXT: memref.alloca() : memref<8xf32>
// OMP: cf.br
// OMP: llvm.intr.stackrestore %[[SP]]
// OMP-NEXT: omp.yield
func.func @parallel(%d: memref<64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%c) = (%c0) to (%c8) step (%c1) {
    %s = memref.alloca() : memref<8xf32>
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %v, %s[%j] : memref<8xf32>
      %x = memref.load %s[%j] : memref<8xf32>
      %k = arith.muli %c, %c8 : index
      %i = arith.addi %k, %j : index
      memref.store %x, %d[%i] : memref<64xf32>
    }
    scf.reduce
  }
  return
}
