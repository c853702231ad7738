// Binary ops on f4E2M1FN and f8E8M0FNU (computed in f32 and rounded back,
// as XLA does on the CPU), and mixed f4E2M1FN + f8E4M3FN and f4E2M1FN +
// f8E8M0FNU adds (the result is the f8 type, XLA's HigherPrecisionType),
// through --layout-lower-to-llvm,
// executed; the results are printed as codes. The expected codes were
// worked out by hand from the format definitions (OCP MX: f4E2M1FN codes
// 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6, 8..15 their negatives; f8E8M0FNU
// code c is 2^(c - 127), 255 is NaN, written in hex below: 0x7F = 1,
// 0x80 = 2, 0x00 = 2^-127; f8E4M3FN: bias 7, 3 mantissa bits) and
// XLA's conversion (round to nearest even; f4 saturates; E8M0: zero and
// negative values are NaN, ties 1.5 * 2^e round up).
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s
// The same with vector rows of 8 bytes (f8E8M0FNU rows become vectors).
// RUN: layout-opt %s --layout-lower-to-llvm="vector-bytes=8" -o %t.vec.mlir
// RUN: mlir-runner %t.vec.mlir -e main -entry-point-result=void %mlir_runner_libs \
// RUN:   | FileCheck %s

!f4 = tensor<8xf4E2M1FN>
!e8 = tensor<8xf8E8M0FNU>
!f8 = tensor<8xf8E4M3FN>

func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  // f4E2M1FN add: 4 + 1 = 5 and 2 + 0.5 = 2.5 are ties and round to even
  // (4, 2: not 6, 3); 1.5 + 1.5 = 3; -4 + -1 = -5 -> -4; 6 + 6 = 12
  // saturates to 6; 0.5 + 0.5 = 1; 3 + 4 = 7 (the tie above 6) saturates
  // to 6; -0.5 + 0.5 = +0.
  %a = arith.constant dense<[0x6, 0x4, 0x3, 0xE, 0x7, 0x1, 0x5, 0x9]> : !f4
  %b = arith.constant dense<[0x2, 0x1, 0x3, 0xA, 0x7, 0x1, 0x6, 0x1]> : !f4
  %add4 = layout.add %a, %b : (!f4, !f4) -> !f4
  // CHECK: [6, 4, 5, 14, 7, 2, 7, 0]
  call @print4(%add4) : (!f4) -> ()
  // f4E2M1FN multiply: 1.5 * 1.5 = 2.25 -> 2; 3 * 1.5 = 4.5 -> 4;
  // 0.5 * 0.5 = 0.25 (tie) -> 0; 1.5 * 0.5 = 0.75 (tie) -> 1; 3 * 3 = 9
  // -> 6; -1.5 * 1.5 = -2.25 -> -2; 6 * 0.5 = 3; 1.5 * 3 = 4.5 -> 4.
  %c = arith.constant dense<[0x3, 0x5, 0x1, 0x3, 0x5, 0xB, 0x7, 0x3]> : !f4
  %d = arith.constant dense<[0x3, 0x3, 0x1, 0x1, 0x5, 0x3, 0x1, 0x5]> : !f4
  %mul4 = layout.multiply %c, %d : (!f4, !f4) -> !f4
  // CHECK: [4, 6, 0, 2, 7, 12, 5, 6]
  call @print4(%mul4) : (!f4) -> ()

  // f8E8M0FNU subtract: 2 - 4 = -2 -> NaN; 4 - 2 = 2; 2 - 2 = 0 -> NaN;
  // 2^127 - 1 -> 2^127; 2^-126 - 2^-127 = 2^-127 (code 0); 8 - 4 = 4;
  // NaN - 1 -> NaN; 1 - 2^-127 -> 1.
  %e = arith.constant dense<[0x80, 0x81, 0x80, 0xFE, 0x01, 0x82, 0xFF, 0x7F]> : !e8
  %f = arith.constant dense<[0x81, 0x80, 0x80, 0x7F, 0x00, 0x81, 0x7F, 0x00]> : !e8
  %sub8 = layout.subtract %e, %f : (!e8, !e8) -> !e8
  // CHECK: [255, 128, 255, 254, 0, 129, 255, 127]
  call @print8(%sub8) : (!e8) -> ()
  // f8E8M0FNU multiply: 2^-127 * 2 = 2^-126 (code 1, code 0 is 2^-127,
  // not 0); 2 * 4 = 8; 2^127 * 2 overflows -> NaN; 2^-127 * 1 = 2^-127;
  // NaN * 1 -> NaN; 2^-127 * 2^-127 is 0 in f32 -> NaN; 2^127 * 2^-127 = 1;
  // 1 * 1 = 1.
  %g = arith.constant dense<[0x00, 0x80, 0xFE, 0x00, 0xFF, 0x00, 0xFE, 0x7F]> : !e8
  %h = arith.constant dense<[0x80, 0x81, 0x80, 0x7F, 0x7F, 0x00, 0x00, 0x7F]> : !e8
  %mul8 = layout.multiply %g, %h : (!e8, !e8) -> !e8
  // CHECK: [1, 130, 255, 0, 255, 255, 127, 127]
  call @print8(%mul8) : (!e8) -> ()
  // f8E8M0FNU add: 2 + 1 = 3 and 4 + 2 = 6 are ties and round up (4, 8);
  // 4 + 1 = 5 -> 4; 1 + 1 = 2; 2^-127 + 2^-127 = 2^-126; 2^127 + 2^127
  // overflows -> NaN; 2^127 + 2^126 = 1.5 * 2^127 (a tie above 2^127) ->
  // NaN; 1 + 2^-127 -> 1.
  %i = arith.constant dense<[0x80, 0x81, 0x81, 0x7F, 0x00, 0xFE, 0xFE, 0x7F]> : !e8
  %j = arith.constant dense<[0x7F, 0x80, 0x7F, 0x7F, 0x00, 0xFE, 0xFD, 0x00]> : !e8
  %add8 = layout.add %i, %j : (!e8, !e8) -> !e8
  // CHECK: [129, 130, 129, 128, 1, 255, 255, 127]
  call @print8(%add8) : (!e8) -> ()

  // f4E2M1FN + f8E4M3FN -> f8E4M3FN: 6 + 0.125 = 6.125 -> 6 (0x4C);
  // -4 + 1 = -3 (0xC4); 0.5 + 0.5 = 1 (0x38); 3 + 0.25 = 3.25 (0x45);
  // 1.5 + 1.5 = 3 (0x44); -0.5 + -0.5 = -1 (0xB8); 0 + 448 = 448 (0x7E);
  // 4 + 2 = 6 (0x4C).
  %k = arith.constant dense<[0x7, 0xE, 0x1, 0x5, 0x3, 0x9, 0x0, 0x6]> : !f4
  %l = arith.constant dense<[0x20, 0x38, 0x30, 0x28, 0x3C, 0xB0, 0x7E, 0x40]> : !f8
  %mixed = layout.add %k, %l : (!f4, !f8) -> !f8
  // CHECK: [76, 196, 56, 69, 68, 184, 126, 76]
  call @printF8(%mixed) : (!f8) -> ()

  // f4E2M1FN + f8E8M0FNU -> f8E8M0FNU: the f4 operand is converted to
  // f8E8M0FNU first (XLA's convert: 1.5 -> 2 and 3 -> 4, 6 -> 8 are ties
  // and round up; 0 and -1 -> NaN), then added in f32: 1 + 1 = 2;
  // 2 + 1 = 3 -> 4; NaN; NaN; 4 + 2 = 6 -> 8; 8 + 2^-127 -> 8;
  // 0.5 + 2 = 2.5 -> 2; 4 + 4 = 8.
  %m = arith.constant dense<[0x2, 0x3, 0x0, 0xA, 0x5, 0x7, 0x1, 0x6]> : !f4
  %n = arith.constant dense<[0x7F, 0x7F, 0x7F, 0x7F, 0x80, 0x00, 0x80, 0x81]> : !e8
  %mixed8 = layout.add %m, %n : (!f4, !e8) -> !e8
  // CHECK: [128, 129, 255, 255, 130, 130, 128, 130]
  call @print8(%mixed8) : (!e8) -> ()
  return
}

func.func @print4(%t: !f4) {
  %m = bufferization.to_buffer %t : !f4 to memref<8xf4E2M1FN>
  %o = memref.alloc() : memref<8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %e = memref.load %m[%i] : memref<8xf4E2M1FN>
    %c = arith.bitcast %e : f4E2M1FN to i4
    %w = arith.extui %c : i4 to i32
    memref.store %w, %o[%i] : memref<8xi32>
  }
  %oc = memref.cast %o : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%oc) : (memref<*xi32>) -> ()
  return
}

func.func @print8(%t: !e8) {
  %m = bufferization.to_buffer %t : !e8 to memref<8xf8E8M0FNU>
  %o = memref.alloc() : memref<8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %e = memref.load %m[%i] : memref<8xf8E8M0FNU>
    %c = arith.bitcast %e : f8E8M0FNU to i8
    %w = arith.extui %c : i8 to i32
    memref.store %w, %o[%i] : memref<8xi32>
  }
  %oc = memref.cast %o : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%oc) : (memref<*xi32>) -> ()
  return
}

func.func @printF8(%t: !f8) {
  %m = bufferization.to_buffer %t : !f8 to memref<8xf8E4M3FN>
  %o = memref.alloc() : memref<8xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %e = memref.load %m[%i] : memref<8xf8E4M3FN>
    %c = arith.bitcast %e : f8E4M3FN to i8
    %w = arith.extui %c : i8 to i32
    memref.store %w, %o[%i] : memref<8xi32>
  }
  %oc = memref.cast %o : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%oc) : (memref<*xi32>) -> ()
  return
}
