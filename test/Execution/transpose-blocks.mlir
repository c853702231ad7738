// Blocked in-register transposes (docs/lowering.md, TransposeBlocks.cpp):
// 2-D, 3-D and 4-D permutations that move the fastest-varying dim, f32,
// bf16, i8, f64, ui8, ui16 and si16, sizes that are multiples of the block
// and sizes that are not (29x291: overlapping edge blocks), short
// destination rows (8 and 5 elements: 8 x 8 and 4 x 4 blocks) and rows too
// short for a block (3: the scalar nest). Every element of every destination is
// checked against the source with the permutation written out in loops,
// plus three physical slots against values computed by the generator; the
// buffers are 64-byte aligned and then at byte offset 40. Run with the
// default options, with non-temporal stores forced (aligned streaming
// blocks under a run-time alignment check), with 32-byte vectors (8 x 8 f32
// blocks; streaming, two or four blocks side by side so that each line is
// stored whole), and with scalar loops.
// RUN: %python %S/Inputs/gen_transpose.py mlir > %t.mlir
// RUN: %python %S/Inputs/gen_transpose.py check > %t.check
// RUN: layout-opt %t.mlir --layout-lower-to-llvm -o %t.default.mlir
// RUN: mlir-runner %t.default.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir --layout-lower-to-llvm=nontemporal-threshold-bytes=0 -o %t.nt.mlir
// RUN: mlir-runner %t.nt.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// Masked edges forced (an AVX2 host's default is unmasked).
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=nontemporal-threshold-bytes=0 masked-edges=true" -o %t.masked.mlir
// RUN: mlir-runner %t.masked.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// Unmasked edges (AVX2's default): junction lines merge their gaps
// without masked stores.
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=nontemporal-threshold-bytes=0 masked-edges=false" -o %t.unmasked.mlir
// RUN: mlir-runner %t.unmasked.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir --layout-lower-to-llvm=vector-bytes=32 -o %t.v32.mlir
// RUN: mlir-runner %t.v32.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir --layout-lower-to-llvm="vector-bytes=32 nontemporal-threshold-bytes=0" -o %t.v32nt.mlir
// RUN: mlir-runner %t.v32nt.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// Parallel (the blocks' p_k chunks on 2 threads, streaming stores):
// RUN: layout-opt %t.mlir --layout-lower-to-llvm="parallel-threshold-bytes=0 nontemporal-threshold-bytes=0 num-threads=2" -o %t.par.mlir
// RUN: mlir-runner %t.par.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: grep -c 'omp.wsloop' %t.par.mlir | FileCheck %s --check-prefix=PAR
// PAR: {{^[1-9][0-9]*$}}
// Chunks planned for 64 threads (smaller than the groups, cut through
// them), run on 2:
// RUN: layout-opt %t.mlir --layout-lower-to-llvm="parallel-threshold-bytes=0 nontemporal-threshold-bytes=0 num-threads=2 parallel-threads=64" -o %t.par64.mlir
// RUN: mlir-runner %t.par64.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// With AVX2's register file (f32 8 x 8 blocks): column chunks of f32 too.
// RUN: layout-opt %t.mlir --layout-lower-to-llvm="vector-bytes=64 vector-register-bytes=512 parallel-threshold-bytes=0 nontemporal-threshold-bytes=0 num-threads=2" -o %t.par512.mlir
// RUN: mlir-runner %t.par512.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// The column chunks are there: the bf16 and i8 cases with AVX-512's
// registers, the f32 one as well with AVX2's.
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v4 parallel-threshold-bytes=0 num-threads=2 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c 'parallel chunks of [0-9]* columns' | FileCheck %s --check-prefix=COLS512
// COLS512: {{^}}2{{$}}
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v3 parallel-threshold-bytes=0 num-threads=2 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c 'parallel chunks of [0-9]* columns' | FileCheck %s --check-prefix=COLS256
// COLS256: {{^}}3{{$}}
// The 8-bit rows whose planes move their alignment by odd amounts (too
// many sets of row shifts to realign) stream through a stage per group:
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v4 nontemporal-threshold-bytes=0 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c 'destination rows staged per group' | FileCheck %s --check-prefix=STAGEDROWS
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v3 nontemporal-threshold-bytes=0 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c 'destination rows staged per group' | FileCheck %s --check-prefix=STAGEDROWS
// STAGEDROWS: {{^}}5{{$}}
// and so on 2 threads, in parallel chunks of p_k rows (the par run), but
// for t3_021_planes_i8, whose planes are the chunks (docs/performance.md,
// *Chunks inside a line*):
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v4 parallel-threshold-bytes=0 nontemporal-threshold-bytes=0 num-threads=2 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c 'destination rows staged per group, parallel chunks of [0-9]* rows' | FileCheck %s --check-prefix=STAGEDPAR
// STAGEDPAR: {{^}}2{{$}}
// Cached stores into rows a multiple of 1 KiB apart, with and without two
// blocks side by side (the register file of AVX-512, and unknown):
// RUN: layout-opt %t.mlir --layout-lower-to-llvm=vector-register-bytes=2048 -o %t.wide.mlir
// RUN: mlir-runner %t.wide.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir --layout-lower-to-llvm=vector-register-bytes=0 -o %t.narrow.mlir
// RUN: mlir-runner %t.narrow.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// AVX2's register file (512 bytes) with 64-byte vectors: f32 blocks of 8 x
// 8 (a 16 x 16 one would spill), two side by side per vector, i8 16 x 16,
// streaming (realigned and junction rows) and cached, on any host.
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=vector-bytes=64 vector-register-bytes=512 nontemporal-threshold-bytes=0 masked-edges=true" -o %t.rf512.mlir
// RUN: mlir-runner %t.rf512.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// AVX2's streaming configuration (unmasked edges): the i8 rows' four 16 x
// 16 parts, realigned rows stored as two registers (aligned rows keep their
// parts).
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=vector-bytes=64 vector-register-bytes=512 nontemporal-threshold-bytes=0 masked-edges=false" -o %t.rf512u.mlir
// RUN: mlir-runner %t.rf512u.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=vector-bytes=64 vector-register-bytes=512 masked-edges=false" -o %t.rf512c.mlir
// RUN: mlir-runner %t.rf512c.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// Blocks side by side in one register stored whole (aligned and realigned
// streaming rows, masked edges) on any host: AVX-512's register file.
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=vector-bytes=64 vector-register-bytes=2048 nontemporal-threshold-bytes=0 masked-edges=true" -o %t.whole.mlir
// RUN: mlir-runner %t.whole.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir --layout-lower-to-llvm=vector-bytes=0 -o %t.scalar.mlir
// RUN: mlir-runner %t.scalar.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// The blocked kernels are really there (and not in the scalar build).
// RUN: grep -c 'llvm.shufflevector' %t.nt.mlir | FileCheck %s --check-prefix=SHUF
// RUN: not grep -q 'llvm.shufflevector' %t.scalar.mlir
// SHUF: {{[1-9][0-9][0-9]+}}
// Blocks side by side in one register (the i8, ui8, bf16, ui16 and si16
// cases above, t3_021_planes_i8 included): bf16 16 x 16 blocks two per
// zmm and i8 16 x 16 four per zmm with AVX-512's registers, i8 16 x 16 two
// per ymm with AVX2's; every run above executes them (the default and
// `wide` ones with AVX-512's register file, `rf512` with AVX2's).
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v4 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c '2 blocks per vector$' | FileCheck %s --check-prefix=PAIRS512
// PAIRS512: {{^}}9{{$}}
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v4 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c '4 blocks per vector$' | FileCheck %s --check-prefix=QUADS512
// QUADS512: {{^}}13{{$}}
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v3 report-kernels=true' -o /dev/null 2>&1 \
// RUN:   | grep -c '2 blocks per vector$' | FileCheck %s --check-prefix=PAIRS256
// PAIRS256: {{^}}13{{$}}
// Staged source lines (the *_staged_*, t67x1100_i8, t3_021_staged_rows_i8,
// t3_021_staged_shrink_i8 and t3_021_planes_i8 cases): in groups of
// 256 bytes one span per group, of 1 KiB four, on one thread (the host's
// code) and two (AVX2 code); the runs above take the host's groups.
// RUN: layout-opt %t.mlir '--layout-lower-to-llvm=target-cpu=x86-64-v4 report-kernels=true nontemporal-threshold-bytes=0' -o /dev/null 2>&1 \
// RUN:   | grep -c 'source lines staged 256 bytes at a time' | FileCheck %s --check-prefix=STAGED
// STAGED: {{^}}6{{$}}
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=transpose-group-bytes=256 prefetched-group-bytes=256 nontemporal-threshold-bytes=0" -o %t.span.mlir
// RUN: mlir-runner %t.span.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=transpose-group-bytes=1024 nontemporal-threshold-bytes=0" -o %t.kib.mlir
// RUN: mlir-runner %t.kib.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
// RUN: layout-opt %t.mlir "--layout-lower-to-llvm=transpose-group-bytes=1024 target-cpu=x86-64-v3 parallel-threshold-bytes=0 nontemporal-threshold-bytes=0 num-threads=2" -o %t.kibpar.mlir
// RUN: mlir-runner %t.kibpar.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs | FileCheck %t.check
