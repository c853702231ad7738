// layout-expand-narrow-floats bf16=true: bf16 <-> f32 as integer code
// (without it, bf16 is left to LLVM: __truncsfbf2 calls per element, or
// vcvtneps2bf16, which flushes subnormals).
// RUN: layout-opt %s --layout-expand-narrow-floats=bf16=true | FileCheck %s
// RUN: layout-opt %s --layout-expand-narrow-floats | FileCheck %s --check-prefix=OFF

// truncf: NaN (|bits| > 0x7f800000) -> bits >> 16 | 0x40; otherwise
// (bits + 0x7fff + (bits >> 16 & 1)) >> 16, to nearest even.
// CHECK-LABEL: func.func @trunc
// CHECK-SAME: (%[[X:.+]]: vector<16xf32>)
// CHECK-NOT: arith.truncf
// CHECK: %[[B:.+]] = arith.bitcast %[[X]] : vector<16xf32> to vector<16xi32>
// CHECK: arith.constant dense<2147483647> : vector<16xi32>
// CHECK: %[[NAN:.+]] = arith.cmpi ugt, %{{.+}}, %{{.+}} : vector<16xi32>
// CHECK: arith.constant dense<32767> : vector<16xi32>
// CHECK: %[[R:.+]] = arith.shrui
// CHECK: %[[Q:.+]] = arith.ori
// CHECK: %[[S:.+]] = arith.select %[[NAN]], %[[Q]], %[[R]] : vector<16xi1>, vector<16xi32>
// CHECK: %[[T:.+]] = arith.trunci %[[S]] : vector<16xi32> to vector<16xi16>
// CHECK: %[[O:.+]] = arith.bitcast %[[T]] : vector<16xi16> to vector<16xbf16>
// CHECK: return %[[O]]
// OFF-LABEL: func.func @trunc
// OFF: arith.truncf %{{.+}} : vector<16xf32> to vector<16xbf16>
func.func @trunc(%x: vector<16xf32>) -> vector<16xbf16> {
  %y = arith.truncf %x : vector<16xf32> to vector<16xbf16>
  return %y : vector<16xbf16>
}

// extf: the 16 bits shifted up.
// CHECK-LABEL: func.func @ext
// CHECK-SAME: (%[[X:.+]]: bf16)
// CHECK: %[[C:.+]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK: %[[W:.+]] = arith.extui %[[C]] : i16 to i32
// CHECK: %[[S:.+]] = arith.shli %[[W]], %{{.+}} : i32
// CHECK: %[[F:.+]] = arith.bitcast %[[S]] : i32 to f32
// CHECK: return %[[F]]
func.func @ext(%x: bf16) -> f32 {
  %y = arith.extf %x : bf16 to f32
  return %y : f32
}

// Other rounding modes, and bf16 -> f64, are left alone.
// CHECK-LABEL: func.func @others
// CHECK: arith.truncf %{{.+}} to_nearest_away : f32 to bf16
// CHECK: arith.extf %{{.+}} : bf16 to f64
func.func @others(%x: f32, %b: bf16) -> (bf16, f64) {
  %y = arith.truncf %x to_nearest_away : f32 to bf16
  %z = arith.extf %b : bf16 to f64
  return %y, %z : bf16, f64
}
