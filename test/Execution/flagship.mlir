// The README's first command runs examples/flagship.mlir (via
// examples/run-main.sh); this keeps it working. m(i,j) = 8i + j,
// v = [100, 200, 300, 400]: r(i,j) = 2 (8i + j + 100 (i + 1)).
// RUN: layout-opt %layout_src_root/examples/flagship.mlir --layout-lower-to-llvm -o %t.mlir
// RUN: mlir-runner %t.mlir -e main -entry-point-result=void \
// RUN:   %mlir_runner_libs \
// RUN:   | FileCheck %s
// CHECK: sizes = [4, 8]
// CHECK-NEXT: [200, 202, 204, 206, 208, 210, 212, 214]
// CHECK-NEXT: [416, 418, 420, 422, 424, 426, 428, 430]
// CHECK-NEXT: [632, 634, 636, 638, 640, 642, 644, 646]
// CHECK-NEXT: [848, 850, 852, 854, 856, 858, 860, 862]
// Physical {1,0:T(2,4)}: one 2x4 tile per row.
// CHECK: sizes = [4, 8]
// CHECK-NEXT: [200, 202, 204, 206, 416, 418, 420, 422]
// CHECK-NEXT: [208, 210, 212, 214, 424, 426, 428, 430]
// CHECK-NEXT: [632, 634, 636, 638, 848, 850, 852, 854]
// CHECK-NEXT: [640, 642, 644, 646, 856, 858, 860, 862]
