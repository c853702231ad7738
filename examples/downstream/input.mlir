// my-opt (examples/downstream) runs the layout project's passes from the
// installed package. scripts/test-downstream.sh FileChecks this.
// CHECK-LABEL: func.func @fill
// CHECK-SAME: (%[[V:.+]]: f32, %[[I:.+]]: index, %[[J:.+]]: index)
// CHECK: %[[M:.+]] = memref.alloc() : memref<2x3x2x2xf32>
// CHECK: memref.store %[[V]], %[[M]][%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : memref<2x3x2x2xf32>
// CHECK: return
!fig1 = memref<3x5xf32, #layout.tiled<{1,0:T(2,2)}>>
func.func @fill(%v: f32, %i: index, %j: index) {
  %m = memref.alloc() : !fig1
  memref.store %v, %m[%i, %j] : !fig1
  memref.dealloc %m : !fig1
  return
}
