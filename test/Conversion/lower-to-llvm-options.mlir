// Options of --layout-lower-to-llvm and of the loop conversions. Bad values: a
// diagnostic naming the option and a failed run.
// RUN: not layout-opt %s --layout-lower-to-llvm="num-threads=-1" 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: error: --layout-lower-to-llvm: num-threads must be >= 0 (0: the OpenMP runtime's default), got -1
// RUN: not layout-opt %s --layout-lower-to-llvm="num-threads=4294967296" 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: --layout-lower-to-llvm: num-threads is too large: 4294967296
// RUN: not layout-opt %s --layout-lower-to-llvm="parallel-threshold-bytes=-2" 2>&1 | FileCheck %s --check-prefix=PAR
// PAR: error: --layout-lower-to-llvm: parallel-threshold-bytes must be a size in bytes or -1 (never), got -2
// RUN: not layout-opt %s --layout-lower-to-llvm="nontemporal-threshold-bytes=-5" 2>&1 | FileCheck %s --check-prefix=NT
// NT: error: --layout-lower-to-llvm: nontemporal-threshold-bytes must be a size in bytes or -1 (never), got -5
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-bytes=48" 2>&1 | FileCheck %s --check-prefix=VEC
// VEC: error: --layout-lower-to-llvm: vector-bytes must be 0 (scalar loops) or a power of two, got 48
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-register-bytes=-64" 2>&1 | FileCheck %s --check-prefix=REG
// REG: error: --layout-lower-to-llvm: vector-register-bytes must be a size in bytes or 0 (unknown), got -64
// RUN: not layout-opt %s --layout-lower-to-llvm="target-cpu=pentium9" 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: --layout-lower-to-llvm: target-cpu: unknown x86-64 CPU 'pentium9'
// RUN: not layout-opt %s --layout-lower-to-llvm="target-features=avx2" 2>&1 | FileCheck %s --check-prefix=FEAT
// FEAT: error: --layout-lower-to-llvm: target-features: 'avx2' is not +name or -name
// RUN: not layout-opt %s --layout-lower-to-llvm="target-features=+avx2,+avx9000" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: --layout-lower-to-llvm: target-features: unknown x86 feature 'avx9000'
// RUN: not layout-opt %s --layout-lower-to-llvm="num-threads=x" 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: for the --num-threads option: 'x' value invalid
// RUN: not layout-opt %s --convert-layout-to-scf="parallel-threshold-bytes=-7" 2>&1 | FileCheck %s --check-prefix=SCF
// SCF: error: parallel-threshold-bytes must be a size in bytes or -1 (never), got -7
// RUN: not layout-opt %s --convert-layout-to-affine="parallel-threshold-bytes=-7" 2>&1 | FileCheck %s --check-prefix=SCF
// RUN: not layout-opt %s --layout-lower-to-llvm="memory-streams=3" 2>&1 | FileCheck %s --check-prefix=STREAMS
// STREAMS: error: --layout-lower-to-llvm: memory-streams must be 1 or 2, got 3
// RUN: not layout-opt %s --convert-layout-to-scf="memory-streams=0" 2>&1 | FileCheck %s --check-prefix=SCFSTREAMS
// SCFSTREAMS: error: memory-streams must be 1 or 2, got 0
// RUN: not layout-opt %s --convert-layout-to-affine="memory-streams=-1" 2>&1 | FileCheck %s --check-prefix=AFFSTREAMS
// AFFSTREAMS: error: memory-streams must be 1 or 2, got -1
//
// The target picks the default vector width (x86-64-v4 and x86-64-v3: 64
// bytes, two ymm registers per vector op with AVX2; x86-64: SSE2, 16;
// -avx512f on top of an AVX-512 machine: AVX2, 64); vector-bytes given
// explicitly wins.
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v3" | FileCheck %s --check-prefix=AVX512
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64" | FileCheck %s --check-prefix=SSE
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v4" | FileCheck %s --check-prefix=AVX512
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=znver4 target-features=-avx512f" | FileCheck %s --check-prefix=AVX512
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64 vector-bytes=64" | FileCheck %s --check-prefix=AVX512
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v3 vector-bytes=32" | FileCheck %s --check-prefix=AVX2
// AVX2: vector<8x{{(i32|f32)}}>
// SSE: vector<4x{{(i32|f32)}}>
// AVX512: vector<16x{{(i32|f32)}}>
//
// The target also picks the edge strategy: masked loads/stores with
// AVX-512F+BW, overlapping full vectors otherwise (AVX2's masked stores are
// slow and it has none of 16 bits); masked-edges given explicitly wins.
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v4" | FileCheck %s --check-prefix=MASK
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v3 masked-edges=true" | FileCheck %s --check-prefix=MASK
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v3" | FileCheck %s --check-prefix=NOMASK
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v4 target-features=-avx512bw" | FileCheck %s --check-prefix=NOMASK
// RUN: layout-opt %s --layout-lower-to-llvm="target-cpu=x86-64-v4 masked-edges=false" | FileCheck %s --check-prefix=NOMASK
// MASK: llvm.intr.masked.store
// NOMASK-LABEL: llvm.func @to_tiled
// NOMASK-NOT: llvm.intr.masked

!t = memref<64x256xf32, #layout.tiled<{1,0:T(8,128)}>>
func.func @to_tiled(%src: memref<64x256xf32>, %dst: !t) {
  layout.relayout %src, %dst : memref<64x256xf32>, !t
  return
}
