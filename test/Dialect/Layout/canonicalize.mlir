// The view ops fold away in inverse pairs.
// RUN: layout-opt %s -canonicalize | FileCheck %s

!logical = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
!physical = memref<2x3x2x2xf32>

// CHECK-LABEL: func.func @to_from
// CHECK-SAME: (%[[P:.+]]: memref<2x3x2x2xf32>)
// CHECK-NEXT: return %[[P]]
func.func @to_from(%p: !physical) -> !physical {
  %m = layout.from_physical %p : !physical -> !logical
  %q = layout.to_physical %m : !logical -> !physical
  return %q : !physical
}

// CHECK-LABEL: func.func @from_to
// CHECK-SAME: (%[[M:.+]]: memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>)
// CHECK-NEXT: return %[[M]]
func.func @from_to(%m: !logical) -> !logical {
  %p = layout.to_physical %m : !logical -> !physical
  %n = layout.from_physical %p : !physical -> !logical
  return %n : !logical
}

// Pure views: unused ones disappear.
// CHECK-LABEL: func.func @dead
// CHECK-NEXT: return
func.func @dead(%m: !logical) {
  %p = layout.to_physical %m : !logical -> !physical
  return
}
