// Options of --layout-lower-to-llvm and of the loop conversions. Bad values: a
// diagnostic naming the pass and the option, and a failed run. Bounds
// (LoopEmitOptions::verify): vector-bytes 0 or a power of two from 4 to 256,
// thresholds >= -1, vector-register-bytes 0 to 8192, memory-streams 1 or 2,
// transpose-group-bytes a power of two from 64 to 4096, prefetched-group-bytes
// 0 or one of those, num-threads and parallel-threads 0 to 4096.
// RUN: not layout-opt %s --layout-lower-to-llvm="num-threads=-1" 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: error: --layout-lower-to-llvm: num-threads must be 0 (the OpenMP runtime's default) or a number of threads up to 4096, got -1
// RUN: not layout-opt %s --layout-lower-to-llvm="num-threads=4097" 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: error: --layout-lower-to-llvm: num-threads must be 0 (the OpenMP runtime's default) or a number of threads up to 4096, got 4097
// RUN: not layout-opt %s --layout-lower-to-llvm="num-threads=4294967296" 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: --layout-lower-to-llvm: num-threads must be 0 (the OpenMP runtime's default) or a number of threads up to 4096, got 4294967296
// RUN: not layout-opt %s --layout-lower-to-llvm="parallel-threshold-bytes=-2" 2>&1 | FileCheck %s --check-prefix=PAR
// PAR: error: --layout-lower-to-llvm: parallel-threshold-bytes must be a size in bytes or -1 (never), got -2
// RUN: not layout-opt %s --layout-lower-to-llvm="nontemporal-threshold-bytes=-5" 2>&1 | FileCheck %s --check-prefix=NT
// NT: error: --layout-lower-to-llvm: nontemporal-threshold-bytes must be a size in bytes or -1 (never), got -5
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-bytes=48" 2>&1 | FileCheck %s --check-prefix=VEC
// VEC: error: --layout-lower-to-llvm: vector-bytes must be 0 (scalar loops) or a power of two from 4 to 256, got 48
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-bytes=4096" 2>&1 | FileCheck %s --check-prefix=VECWIDE
// VECWIDE: error: --layout-lower-to-llvm: vector-bytes must be 0 (scalar loops) or a power of two from 4 to 256, got 4096
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-bytes=2" 2>&1 | FileCheck %s --check-prefix=VECNARROW
// VECNARROW: error: --layout-lower-to-llvm: vector-bytes must be 0 (scalar loops) or a power of two from 4 to 256, got 2
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-bytes=-64" 2>&1 | FileCheck %s --check-prefix=VECNEG
// VECNEG: error: --layout-lower-to-llvm: vector-bytes must be 0 (scalar loops) or a power of two from 4 to 256, got -64
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-register-bytes=-64" 2>&1 | FileCheck %s --check-prefix=REG
// REG: error: --layout-lower-to-llvm: vector-register-bytes must be 0 (unknown) or a size in bytes up to 8192, got -64
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-register-bytes=16384" 2>&1 | FileCheck %s --check-prefix=REGWIDE
// REGWIDE: error: --layout-lower-to-llvm: vector-register-bytes must be 0 (unknown) or a size in bytes up to 8192, got 16384
// RUN: not layout-opt %s --layout-lower-to-llvm="target-cpu=pentium9" 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: error: --layout-lower-to-llvm: target-cpu: unknown x86-64 CPU 'pentium9'
// RUN: not layout-opt %s --layout-lower-to-llvm="target-features=avx2" 2>&1 | FileCheck %s --check-prefix=FEAT
// FEAT: error: --layout-lower-to-llvm: target-features: 'avx2' is not +name or -name
// RUN: not layout-opt %s --layout-lower-to-llvm="target-features=+avx2,+avx9000" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: --layout-lower-to-llvm: target-features: unknown x86 feature 'avx9000'
// RUN: not layout-opt %s --layout-lower-to-llvm="num-threads=x" 2>&1 | FileCheck %s --check-prefix=PARSE
// PARSE: for the --num-threads option: 'x' value invalid
// RUN: not layout-opt %s --layout-lower-to-llvm="memory-streams=3" 2>&1 | FileCheck %s --check-prefix=STREAMS
// STREAMS: error: --layout-lower-to-llvm: memory-streams must be 1 or 2, got 3
// RUN: not layout-opt %s --layout-lower-to-llvm="transpose-group-bytes=32" 2>&1 | FileCheck %s --check-prefix=GROUP
// GROUP: error: --layout-lower-to-llvm: transpose-group-bytes must be a power of two from 64 to 4096, got 32
// RUN: not layout-opt %s --convert-layout-to-scf="transpose-group-bytes=768" 2>&1 | FileCheck %s --check-prefix=SCFGROUP
// SCFGROUP: error: --convert-layout-to-scf: transpose-group-bytes must be a power of two from 64 to 4096, got 768
// RUN: not layout-opt %s --convert-layout-to-affine="transpose-group-bytes=8192" 2>&1 | FileCheck %s --check-prefix=AFFGROUP
// AFFGROUP: error: --convert-layout-to-affine: transpose-group-bytes must be a power of two from 64 to 4096, got 8192
// RUN: not layout-opt %s --layout-lower-to-llvm="prefetched-group-bytes=48" 2>&1 | FileCheck %s --check-prefix=PFGROUP
// PFGROUP: error: --layout-lower-to-llvm: prefetched-group-bytes must be 0 (transpose-group-bytes) or a power of two from 64 to 4096, got 48
// RUN: not layout-opt %s --convert-layout-to-scf="prefetched-group-bytes=-1024" 2>&1 | FileCheck %s --check-prefix=SCFPFGROUP
// SCFPFGROUP: error: --convert-layout-to-scf: prefetched-group-bytes must be 0 (transpose-group-bytes) or a power of two from 64 to 4096, got -1024
// RUN: not layout-opt %s --convert-layout-to-affine="prefetched-group-bytes=8192" 2>&1 | FileCheck %s --check-prefix=AFFPFGROUP
// AFFPFGROUP: error: --convert-layout-to-affine: prefetched-group-bytes must be 0 (transpose-group-bytes) or a power of two from 64 to 4096, got 8192
// RUN: not layout-opt %s --layout-lower-to-llvm="parallel-threads=4097" 2>&1 | FileCheck %s --check-prefix=PTHREADS
// PTHREADS: error: --layout-lower-to-llvm: parallel-threads must be 0 (not known) or a number of threads up to 4096, got 4097
// RUN: not layout-opt %s --convert-layout-to-scf="parallel-threads=-1" 2>&1 | FileCheck %s --check-prefix=SCFPTHREADS
// SCFPTHREADS: error: --convert-layout-to-scf: parallel-threads must be 0 (not known) or a number of threads up to 4096, got -1
// RUN: not layout-opt %s --convert-layout-to-affine="parallel-threads=-2" 2>&1 | FileCheck %s --check-prefix=AFFPTHREADS
// AFFPTHREADS: error: --convert-layout-to-affine: parallel-threads must be 0 (not known) or a number of threads up to 4096, got -2
// Several problems: each is reported.
// RUN: not layout-opt %s --layout-lower-to-llvm="vector-bytes=512 memory-streams=0 num-threads=-3" 2>&1 | FileCheck %s --check-prefix=SEVERAL
// SEVERAL-DAG: --layout-lower-to-llvm: vector-bytes must be 0 (scalar loops) or a power of two from 4 to 256, got 512
// SEVERAL-DAG: memory-streams must be 1 or 2, got 0
// SEVERAL-DAG: num-threads must be 0 (the OpenMP runtime's default) or a number of threads up to 4096, got -3
//
// The conversion passes check the same bounds, named after their flag.
// RUN: not layout-opt %s --convert-layout-to-scf="parallel-threshold-bytes=-7" 2>&1 | FileCheck %s --check-prefix=SCF
// SCF: error: --convert-layout-to-scf: parallel-threshold-bytes must be a size in bytes or -1 (never), got -7
// RUN: not layout-opt %s --convert-layout-to-affine="parallel-threshold-bytes=-7" 2>&1 | FileCheck %s --check-prefix=AFF
// AFF: error: --convert-layout-to-affine: parallel-threshold-bytes must be a size in bytes or -1 (never), got -7
// RUN: not layout-opt %s --convert-layout-to-scf="nontemporal-threshold-bytes=-2" 2>&1 | FileCheck %s --check-prefix=SCFNT
// SCFNT: error: --convert-layout-to-scf: nontemporal-threshold-bytes must be a size in bytes or -1 (never), got -2
// RUN: not layout-opt %s --convert-layout-to-affine="nontemporal-threshold-bytes=-2" 2>&1 | FileCheck %s --check-prefix=AFFNT
// AFFNT: error: --convert-layout-to-affine: nontemporal-threshold-bytes must be a size in bytes or -1 (never), got -2
// RUN: not layout-opt %s --convert-layout-to-scf="memory-streams=0" 2>&1 | FileCheck %s --check-prefix=SCFSTREAMS
// SCFSTREAMS: error: --convert-layout-to-scf: memory-streams must be 1 or 2, got 0
// RUN: not layout-opt %s --convert-layout-to-affine="memory-streams=-1" 2>&1 | FileCheck %s --check-prefix=AFFSTREAMS
// AFFSTREAMS: error: --convert-layout-to-affine: memory-streams must be 1 or 2, got -1
// RUN: not layout-opt %s --convert-layout-to-scf="vector-bytes=4096" 2>&1 | FileCheck %s --check-prefix=SCFVEC
// SCFVEC: {{^}}<unknown>:0: error: --convert-layout-to-scf: vector-bytes must be 0 (scalar loops) or a power of two from 4 to 256, got 4096
// RUN: not layout-opt %s --convert-layout-to-affine="vector-bytes=24" 2>&1 | FileCheck %s --check-prefix=AFFVEC
// AFFVEC: error: --convert-layout-to-affine: vector-bytes must be 0 (scalar loops) or a power of two from 4 to 256, got 24
// RUN: not layout-opt %s --convert-layout-to-scf="vector-register-bytes=65536" 2>&1 | FileCheck %s --check-prefix=SCFREG
// SCFREG: error: --convert-layout-to-scf: vector-register-bytes must be 0 (unknown) or a size in bytes up to 8192, got 65536
// RUN: not layout-opt %s --convert-layout-to-affine="vector-register-bytes=-1" 2>&1 | FileCheck %s --check-prefix=AFFREG
// AFFREG: error: --convert-layout-to-affine: vector-register-bytes must be 0 (unknown) or a size in bytes up to 8192, got -1
// The bounds themselves are accepted (4 bytes hold no two f32 lanes: scalar
// rows; 256 bytes: vector<64xf32>).
// RUN: layout-opt %s --convert-layout-to-affine="vector-bytes=4 vector-register-bytes=8192 nontemporal-threshold-bytes=-1 parallel-threshold-bytes=-1 memory-streams=1 parallel-threads=0" | FileCheck %s --check-prefix=LOW
// RUN: layout-opt %s --convert-layout-to-scf="vector-bytes=256 vector-register-bytes=0 parallel-threads=4096" | FileCheck %s --check-prefix=HIGH
// RUN: layout-opt %s --layout-lower-to-llvm="num-threads=4096 vector-bytes=0 parallel-threads=4096" | FileCheck %s --check-prefix=SCALAR
// LOW-LABEL: func.func @to_tiled
// LOW: affine.load %{{.*}} : memref<64x256xf32>
// LOW-NOT: vector
// HIGH-LABEL: func.func @to_tiled
// HIGH: vector<64xf32>
// SCALAR-LABEL: llvm.func @to_tiled
// SCALAR-NOT: vector<
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
