// RUN: layout-opt %s --layout-check-lowered-to-llvm -split-input-file \
// RUN:   -allow-unregistered-dialect -verify-diagnostics | FileCheck %s

// Only LLVM dialect ops below the module: unchanged.
// CHECK-LABEL: llvm.func @add
// CHECK-NEXT: %[[R:.+]] = llvm.fadd %arg0, %arg1 : f32
// CHECK-NEXT: llvm.return %[[R]] : f32
llvm.func @add(%a: f32, %b: f32) -> f32 {
  %r = llvm.fadd %a, %b : f32
  llvm.return %r : f32
}

// -----

// Every leftover op is named, also nested ones and unregistered ones.
// expected-error @+1 {{--layout-lower-to-llvm: 'func.func' was not converted to the LLVM dialect}}
func.func @left(%a: f32) -> f32 {
  // expected-error @+1 {{--layout-lower-to-llvm: 'arith.addf' was not converted to the LLVM dialect}}
  %r = arith.addf %a, %a : f32
  // expected-error @+1 {{--layout-lower-to-llvm: 'func.return' was not converted to the LLVM dialect}}
  return %r : f32
}

// -----

llvm.func @unregistered() {
  // expected-error @+1 {{--layout-lower-to-llvm: 'test.op' was not converted to the LLVM dialect}}
  "test.op"() : () -> ()
  llvm.return
}
