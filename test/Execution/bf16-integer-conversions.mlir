// bf16 arithmetic through --layout-lower-to-llvm: computed in f32
// (arith-emulate-unsupported-floats) and rounded back by integer code
// (layout-expand-narrow-floats bf16=true), on every target: LLVM would call
// __truncsfbf2 per element without AVX-512 BF16, and with it use
// vcvtneps2bf16, which flushes subnormal inputs to zero (this test's
// subnormal tie printed 0 there, on an AMD Zen 4). The bits must be XLA's
// (and that call's): round to nearest even (ties both ways, a carry into the
// exponent, the largest finite to infinity, subnormals kept), NaN made
// quiet with its sign and top payload bits. The same numbers for AVX2 and
// for the host's own target; the expected bits are worked out below.
// RUN: layout-opt %s '--layout-lower-to-llvm=target-cpu=x86-64-v3' -o %t.v3.mlir
// RUN: mlir-runner %t.v3.mlir -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s
// RUN: not grep -E 'fptrunc|fpext' %t.v3.mlir
// RUN: layout-opt %s --layout-lower-to-llvm -o %t.host.mlir
// RUN: mlir-runner %t.host.mlir -e main -entry-point-result=void %mlir_runner_libs | FileCheck %s
// RUN: not grep -E 'fptrunc|fpext' %t.host.mlir
// The pass option on its own: no truncf or extf of bf16 left.
// RUN: layout-opt %s --layout-expand-narrow-floats=bf16=true | FileCheck %s --check-prefix=IR
// IR-LABEL: func.func @main
// IR-NOT: arith.truncf {{.*}} to vector<8xbf16>
// IR-NOT: arith.extf {{.*}} : vector<8xbf16>

memref.global "private" constant @bits : memref<16xi32> = dense<[
  1065353216,  // 0x3f800000 1.0                   -> 0x3f80 16256
  1065385984,  // 0x3f808000 tie, even below       -> 0x3f80 16256
  1065451520,  // 0x3f818000 tie, odd below: up    -> 0x3f82 16258
  1065385985,  // 0x3f808001 above the tie         -> 0x3f81 16257
  2139095039,  // 0x7f7fffff largest finite: inf   -> 0x7f80 32640
  -8388608,    // 0xff800000 -inf                  -> 0xff80 65408
  2143363909,  // 0x7fc12345 quiet NaN, payload    -> 0x7fc1 32705
  -8318139,    // 0xff812345 -signaling NaN        -> 0xffc1 65473
  -2147483647, // 0x80000001 -smallest subnormal   -> 0x8000 32768
  98304,       // 0x00018000 subnormal tie, odd    -> 0x0002 2
  0,           // +0                               -> 0x0000 0
  -2147483648, // -0                               -> 0x8000 32768
  2139095040,  // 0x7f800000 inf                   -> 0x7f80 32640
  2139095041,  // 0x7f800001 smallest sNaN         -> 0x7fc0 32704
  1199566847,  // 0x477fefff just below a tie      -> 0x4780 18304
  -947916800   // 0xc77ff000 above the tie (-)     -> 0xc780 51072
]>

// a + b in bf16: 1 + 2^-8 (tie: 1), 1 + 2^-7, 2 + 2^-8 (tie: 2),
// max + max (inf), -2 + 2, (1 + 2^-7) + 2^-8 (tie: odd below, up),
// smallest subnormal twice, -3 + 1.
memref.global "private" constant @a : memref<8xi16> = dense<[16256, 16256, 16384, 32639, -16384, 16257, 1, -16320]>
memref.global "private" constant @b : memref<8xi16> = dense<[15232, 15360, 15232, 32639, 16384, 15232, 1, 16256]>

func.func @print8(%v: vector<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloca() : memref<8xi32>
  vector.store %v, %m[%c0] : memref<8xi32>, vector<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %x = memref.load %m[%i] : memref<8xi32>
    vector.print %x : i32
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %bits = memref.get_global @bits : memref<16xi32>
  %lo = vector.load %bits[%c0] : memref<16xi32>, vector<8xi32>
  %hi = vector.load %bits[%c8] : memref<16xi32>, vector<8xi32>
  %flo = arith.bitcast %lo : vector<8xi32> to vector<8xf32>
  %fhi = arith.bitcast %hi : vector<8xi32> to vector<8xf32>
  %tlo = arith.truncf %flo : vector<8xf32> to vector<8xbf16>
  %thi = arith.truncf %fhi : vector<8xf32> to vector<8xbf16>
  %blo = arith.bitcast %tlo : vector<8xbf16> to vector<8xi16>
  %bhi = arith.bitcast %thi : vector<8xbf16> to vector<8xi16>
  %ulo = arith.extui %blo : vector<8xi16> to vector<8xi32>
  %uhi = arith.extui %bhi : vector<8xi16> to vector<8xi32>
  // CHECK: {{^}}16256{{$}}
  // CHECK-NEXT: {{^}}16256{{$}}
  // CHECK-NEXT: {{^}}16258{{$}}
  // CHECK-NEXT: {{^}}16257{{$}}
  // CHECK-NEXT: {{^}}32640{{$}}
  // CHECK-NEXT: {{^}}65408{{$}}
  // CHECK-NEXT: {{^}}32705{{$}}
  // CHECK-NEXT: {{^}}65473{{$}}
  // CHECK-NEXT: {{^}}32768{{$}}
  // CHECK-NEXT: {{^}}2{{$}}
  // CHECK-NEXT: {{^}}0{{$}}
  // CHECK-NEXT: {{^}}32768{{$}}
  // CHECK-NEXT: {{^}}32640{{$}}
  // CHECK-NEXT: {{^}}32704{{$}}
  // CHECK-NEXT: {{^}}18304{{$}}
  // CHECK-NEXT: {{^}}51072{{$}}
  call @print8(%ulo) : (vector<8xi32>) -> ()
  call @print8(%uhi) : (vector<8xi32>) -> ()
  // A scalar one: 0x3f818000 -> 16258.
  %s = memref.load %bits[%c0] : memref<16xi32>
  %c2 = arith.constant 2 : index
  %s2 = memref.load %bits[%c2] : memref<16xi32>
  %fs = arith.bitcast %s2 : i32 to f32
  %ts = arith.truncf %fs : f32 to bf16
  %bs = arith.bitcast %ts : bf16 to i16
  %us = arith.extui %bs : i16 to i32
  // CHECK-NEXT: {{^}}16258{{$}}
  vector.print %us : i32
  %ga = memref.get_global @a : memref<8xi16>
  %gb = memref.get_global @b : memref<8xi16>
  %va = vector.load %ga[%c0] : memref<8xi16>, vector<8xi16>
  %vb = vector.load %gb[%c0] : memref<8xi16>, vector<8xi16>
  %fa = arith.bitcast %va : vector<8xi16> to vector<8xbf16>
  %fb = arith.bitcast %vb : vector<8xi16> to vector<8xbf16>
  %sum = arith.addf %fa, %fb : vector<8xbf16>
  %bsum = arith.bitcast %sum : vector<8xbf16> to vector<8xi16>
  %usum = arith.extui %bsum : vector<8xi16> to vector<8xi32>
  // CHECK-NEXT: {{^}}16256{{$}}
  // CHECK-NEXT: {{^}}16257{{$}}
  // CHECK-NEXT: {{^}}16384{{$}}
  // CHECK-NEXT: {{^}}32640{{$}}
  // CHECK-NEXT: {{^}}0{{$}}
  // CHECK-NEXT: {{^}}16258{{$}}
  // CHECK-NEXT: {{^}}2{{$}}
  // CHECK-NEXT: {{^}}49152{{$}}
  call @print8(%usum) : (vector<8xi32>) -> ()
  // The bf16 sum widened back (extf as a shift): 2.0 + 1.0 on index 2.
  %w = arith.extf %sum : vector<8xbf16> to vector<8xf32>
  %e2 = vector.extract %w[2] : f32 from vector<8xf32>
  // CHECK-NEXT: {{^}}2{{$}}
  vector.print %e2 : f32
  return
}
