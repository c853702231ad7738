// --layout-reuse-buffers end to end: a function whose intermediates live in
// one arena, called three times with different inputs (the cached arena of
// the first call serves the next two, so stale bytes would show), compiled
// fused (s = a - b materialized: three groups read it), op-by-op (several
// intermediates, some sharing bytes), with a fresh arena per call, with two
// threads, and without the pass.
// a[i][j] = 10 i + j + 100 it, b[i][j] = i - j; s = a - b;
// r1 = s + a, r2 = s * b, v = (r1 - s) * b + r2.
// The expected numbers are those formulas evaluated by hand (Python).
// RUN: layout-opt %s --layout-lower-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm=fusion=false \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm="fusion=false num-threads=2" \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm=reuse-buffers=false \
// RUN:   | mlir-runner -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-llvm=fusion=false \
// RUN:   --mlir-print-ir-after=layout-reuse-buffers -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IR
// The op-by-op intermediates s, t = r1 - s and u = t * b: s dies before u
// is made, so u takes s's bytes (offset 0); t overlaps both (offset 64);
// r1, r2 and v are returned: allocated as before.
// IR-LABEL: func.func @prog(
//       IR:   llvm.atomicrmw xchg
//       IR:   llvm.call @aligned_alloc
//   IR-NOT:   memref.alloc() : memref<3x5xf32>
//       IR:   memref.view %{{.*}}[%c0{{[_0-9]*}}][] : memref<128xi8> to memref<3x5xf32>
//       IR:   memref.view %{{.*}}[%c64][] : memref<128xi8> to memref<3x5xf32>
//       IR:   memref.view %{{.*}}[%c0{{[_0-9]*}}][] : memref<128xi8> to memref<3x5xf32>
//       IR:   llvm.atomicrmw xchg
//       IR:   llvm.call @free

// CHECK:      [0,   3,   6,   9,   12],
// CHECK-NEXT: [19,   22,   25,   28,   31],
// CHECK-NEXT: [38,   41,   44,   47,   50]]
// CHECK:      [0,   -2,   -8,   -18,   -32],
// CHECK-NEXT: [9,   0,   -13,   -30,   -51],
// CHECK-NEXT: [36,   20,   0,   -24,   -52]]
// CHECK:      [0,   -3,   -12,   -27,   -48],
// CHECK-NEXT: [19,   0,   -25,   -56,   -93],
// CHECK-NEXT: [76,   41,   0,   -47,   -100]]
// CHECK:      [200,   203,   206,   209,   212],
// CHECK-NEXT: [219,   222,   225,   228,   231],
// CHECK-NEXT: [238,   241,   244,   247,   250]]
// CHECK:      [0,   -102,   -208,   -318,   -432],
// CHECK-NEXT: [109,   0,   -113,   -230,   -351],
// CHECK-NEXT: [236,   120,   0,   -124,   -252]]
// CHECK:      [0,   -203,   -412,   -627,   -848],
// CHECK-NEXT: [219,   0,   -225,   -456,   -693],
// CHECK-NEXT: [476,   241,   0,   -247,   -500]]
// CHECK:      [400,   403,   406,   409,   412],
// CHECK-NEXT: [419,   422,   425,   428,   431],
// CHECK-NEXT: [438,   441,   444,   447,   450]]
// CHECK:      [0,   -202,   -408,   -618,   -832],
// CHECK-NEXT: [209,   0,   -213,   -430,   -651],
// CHECK-NEXT: [436,   220,   0,   -224,   -452]]
// CHECK:      [0,   -403,   -812,   -1227,   -1648],
// CHECK-NEXT: [419,   0,   -425,   -856,   -1293],
// CHECK-NEXT: [876,   441,   0,   -447,   -900]]

func.func private @printMemrefF32(memref<*xf32>)

func.func @prog(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>)
    -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>) {
  %s = layout.subtract %a, %b : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %r1 = layout.add %s, %a : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %r2 = layout.multiply %s, %b : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %t = layout.subtract %r1, %s : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %u = layout.multiply %t, %b : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %v = layout.add %u, %r2 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r1, %r2, %v : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %a = memref.alloc() : memref<3x5xf32>
  %b = memref.alloc() : memref<3x5xf32>
  scf.for %it = %c0 to %c3 step %c1 {
    %itv = arith.index_cast %it : index to i32
    %base = arith.muli %itv, %c100 : i32
    scf.for %i = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c5 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %t = arith.muli %ii, %c10 : i32
        %t2 = arith.addi %t, %jj : i32
        %av = arith.addi %t2, %base : i32
        %bv = arith.subi %ii, %jj : i32
        %af = arith.sitofp %av : i32 to f32
        %bf = arith.sitofp %bv : i32 to f32
        memref.store %af, %a[%i, %j] : memref<3x5xf32>
        memref.store %bf, %b[%i, %j] : memref<3x5xf32>
      }
    }
    %ta = bufferization.to_tensor %a restrict : memref<3x5xf32> to tensor<3x5xf32>
    %tb = bufferization.to_tensor %b restrict : memref<3x5xf32> to tensor<3x5xf32>
    %r:3 = func.call @prog(%ta, %tb) : (tensor<3x5xf32>, tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>)
    %m0 = bufferization.to_buffer %r#0 : tensor<3x5xf32> to memref<3x5xf32>
    %m1 = bufferization.to_buffer %r#1 : tensor<3x5xf32> to memref<3x5xf32>
    %m2 = bufferization.to_buffer %r#2 : tensor<3x5xf32> to memref<3x5xf32>
    %u0 = memref.cast %m0 : memref<3x5xf32> to memref<*xf32>
    %u1 = memref.cast %m1 : memref<3x5xf32> to memref<*xf32>
    %u2 = memref.cast %m2 : memref<3x5xf32> to memref<*xf32>
    func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
    func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
    func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  }
  return
}
