// RUN: layout-opt %s --layout-expand-narrow-floats -split-input-file -verify-diagnostics | FileCheck %s

// extf f8E4M3FN -> f32: integer code on the bits. Normal codes: the
// magnitude shifted into place (23 - 3 bits) and the exponent rebiased by
// 127 - 7 (120 << 23 = 1006632960); subnormals: M * 2^-9; the NaN codes
// (magnitude 127, both signs) become f32 NaN with the sign. No infinity.
// CHECK-LABEL: func.func @ext_e4m3fn
// CHECK-SAME: (%[[X:.+]]: f8E4M3FN)
// CHECK-NOT: arith.extf
// CHECK: %[[C:.+]] = arith.bitcast %[[X]] : f8E4M3FN to i8
// CHECK: %[[B:.+]] = arith.extui %[[C]] : i8 to i32
// CHECK: arith.constant 1006632960 : i32
// CHECK: arith.uitofp
// CHECK: arith.constant 0.001953125 : f32
// CHECK: arith.mulf
// CHECK: arith.constant 2143289344 : i32
// CHECK: arith.cmpi eq
// CHECK: %[[R:.+]] = arith.select
// CHECK: %[[F:.+]] = arith.bitcast %[[R]] : i32 to f32
// CHECK: return %[[F]] : f32
func.func @ext_e4m3fn(%x: f8E4M3FN) -> f32 {
  %w = arith.extf %x : f8E4M3FN to f32
  return %w : f32
}

// -----

// truncf f32 -> f8E5M2: round to nearest even on the f32 bits, the largest
// finite magnitude is 0x7B (123); overflow gives infinity (0x7C / 0xFC).
// CHECK-LABEL: func.func @trunc_e5m2
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.constant 2139095040 : i32
// CHECK: arith.shrui
// CHECK: arith.constant 123 : i32
// CHECK: arith.cmpi ugt
// CHECK: arith.constant 252 : i32
// CHECK: arith.constant 124 : i32
// CHECK: %[[T:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK: %[[R:.+]] = arith.bitcast %[[T]] : i8 to f8E5M2
// CHECK: return %[[R]]
func.func @trunc_e5m2(%x: f32) -> f8E5M2 {
  %t = arith.truncf %x : f32 to f8E5M2
  return %t : f8E5M2
}

// -----

// Vectors stay vectors (splat constants); a bf16 destination is reached
// through f32 (every f8E4M3FNUZ value is exact in bf16).
// CHECK-LABEL: func.func @ext_vector
// CHECK: arith.bitcast %{{.+}} : vector<8xf8E4M3FNUZ> to vector<8xi8>
// CHECK: arith.constant dense<128> : vector<8xi32>
// CHECK: arith.uitofp %{{.+}} : vector<8xi32> to vector<8xf32>
// CHECK: arith.bitcast %{{.+}} : vector<8xi32> to vector<8xf32>
// CHECK: arith.truncf %{{.+}} : vector<8xf32> to vector<8xbf16>
func.func @ext_vector(%x: vector<8xf8E4M3FNUZ>) -> vector<8xbf16> {
  %w = arith.extf %x : vector<8xf8E4M3FNUZ> to vector<8xbf16>
  return %w : vector<8xbf16>
}

// -----

// f16 sources go through f32 (exact), f64 sources are rounded from their
// own bits (one rounding), in i64.
// CHECK-LABEL: func.func @trunc_sources
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.bitcast %{{.+}} : i8 to f8E4M3
// CHECK: arith.bitcast %{{.+}} : f64 to i64
// CHECK: arith.trunci %{{.+}} : i64 to i8
// CHECK: arith.bitcast %{{.+}} : i8 to f8E4M3FN
// CHECK-NOT: arith.truncf
func.func @trunc_sources(%h: f16, %d: f64) -> (f8E4M3, f8E4M3FN) {
  %a = arith.truncf %h : f16 to f8E4M3
  %b = arith.truncf %d : f64 to f8E4M3FN
  return %a, %b : f8E4M3, f8E4M3FN
}

// -----

// Narrow to narrow: the source is widened to f32 (exact), then rounded.
// CHECK-LABEL: func.func @narrow_to_narrow
// CHECK: arith.bitcast %{{.+}} : f8E4M3FN to i8
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK: arith.trunci %{{.+}} : i32 to i6
// CHECK: arith.bitcast %{{.+}} : i6 to f6E2M3FN
// CHECK-NOT: arith.truncf
func.func @narrow_to_narrow(%x: f8E4M3FN) -> f6E2M3FN {
  %t = arith.truncf %x : f8E4M3FN to f6E2M3FN
  return %t : f6E2M3FN
}

// -----

// f8E8M0FNU (no sign, no zero): codes 1..254 shifted into f32's exponent
// (bias 127 = f32's), code 0 (2^-127) is the f32 subnormal 1 << 22, code
// 255 is NaN. No sign bit is read.
// CHECK-LABEL: func.func @ext_e8m0
// CHECK-SAME: (%[[X:.+]]: f8E8M0FNU)
// CHECK-NOT: arith.extf
// CHECK: %[[C:.+]] = arith.bitcast %[[X]] : f8E8M0FNU to i8
// CHECK: %[[B:.+]] = arith.extui %[[C]] : i8 to i32
// CHECK: arith.constant 23 : i32
// CHECK: arith.constant 22 : i32
// CHECK: arith.cmpi ule
// CHECK: %[[N:.+]] = arith.constant 2143289344 : i32
// CHECK-NOT: arith.constant -2147483648
// CHECK: %[[NAN:.+]] = arith.cmpi eq, %[[B]], %{{.+}} : i32
// CHECK: %[[R:.+]] = arith.select %[[NAN]], %[[N]], %{{.+}} : i32
// CHECK: %[[F:.+]] = arith.bitcast %[[R]] : i32 to f32
// CHECK: return %[[F]] : f32
func.func @ext_e8m0(%x: f8E8M0FNU) -> f32 {
  %w = arith.extf %x : f8E8M0FNU to f32
  return %w : f32
}

// -----

// truncf f32 -> f8E8M0FNU: NaN (255) for NaN, negative values and zero;
// the largest code is 254 (2^127), overflow is NaN too.
// CHECK-LABEL: func.func @trunc_e8m0
// CHECK-NOT: arith.truncf
// CHECK: %[[NEG:.+]] = arith.cmpi ne
// CHECK: %[[ABS:.+]] = arith.andi %{{.+}}, %{{.+}} : i32
// CHECK: %[[ISNAN:.+]] = arith.cmpi ugt, %[[ABS]]
// CHECK: arith.constant 254 : i32
// CHECK: %[[NANORNEG:.+]] = arith.ori %[[ISNAN]], %[[NEG]] : i1
// CHECK: %[[ZERO:.+]] = arith.cmpi eq, %[[ABS]], %{{.+}} : i32
// CHECK: %[[TONAN:.+]] = arith.ori %[[NANORNEG]], %[[ZERO]] : i1
// CHECK: %[[R:.+]] = arith.select %[[TONAN]]
// CHECK: %[[T:.+]] = arith.trunci %[[R]] : i32 to i8
// CHECK: %[[E:.+]] = arith.bitcast %[[T]] : i8 to f8E8M0FNU
// CHECK: return %[[E]]
func.func @trunc_e8m0(%y: f32) -> f8E8M0FNU {
  %t = arith.truncf %y : f32 to f8E8M0FNU
  return %t : f8E8M0FNU
}

// -----

// f4E2M1FN to f8E4M3FN (a mixed f4 + f8 binary op's operand cast): through
// the f32 bits, no arith.extf or arith.truncf left.
// CHECK-LABEL: func.func @f4_to_f8
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %{{.+}} : f4E2M1FN to i4
// CHECK: arith.extui %{{.+}} : i4 to i32
// CHECK: arith.trunci %{{.+}} : i32 to i8
// CHECK: arith.bitcast %{{.+}} : i8 to f8E4M3FN
func.func @f4_to_f8(%x: f4E2M1FN) -> f8E4M3FN {
  %w = arith.extf %x : f4E2M1FN to f8E4M3FN
  return %w : f8E4M3FN
}

// -----

func.func @rounding_mode(%x: f32) -> f8E4M3FN {
  // expected-error @below {{'arith.truncf' op to 'f8E4M3FN' with rounding mode toward_zero: only to_nearest_even (XLA's) is supported}}
  %t = arith.truncf %x toward_zero : f32 to f8E4M3FN
  return %t : f8E4M3FN
}

// -----

func.func @f80_source(%x: f80) -> f8E5M2 {
  // expected-error @below {{'arith.truncf' op from 'f80' to 'f8E5M2' is not supported (sources: f16, bf16, f32, f64 and the 8-bit formats); convert to f64 first}}
  %t = arith.truncf %x : f80 to f8E5M2
  return %t : f8E5M2
}

// -----

func.func @inexact_extf(%x: f6E2M3FN) -> f8E5M2 {
  // expected-error @below {{'arith.extf' op from 'f6E2M3FN' to 'f8E5M2' would round ('f6E2M3FN' code 9): not expanded}}
  %w = arith.extf %x : f6E2M3FN to f8E5M2
  return %w : f8E5M2
}

// -----

func.func @tensor(%x: tensor<4xf8E4M3FN>) -> tensor<4xf32> {
  // expected-error @below {{'arith.extf' op on 'tensor<4xf32>' cannot be expanded to integer code: only scalars and vectors are (bufferize tensors first)}}
  %w = arith.extf %x : tensor<4xf8E4M3FN> to tensor<4xf32>
  return %w : tensor<4xf32>
}
