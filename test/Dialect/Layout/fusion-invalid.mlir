// Every constraint of layout.fusion (LayoutOps.td), one per case.
// RUN: layout-opt %s -split-input-file -verify-diagnostics

func.func @arg_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'layout.fusion' op body has 2 arguments for 1 inputs}}
  %r = layout.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    layout.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @arg_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'layout.fusion' op body argument #0 has type 'tensor<4xf16>', input has 'tensor<4xf32>'}}
  %r = layout.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf16>):
    %e = tensor.empty() : tensor<4xf32>
    layout.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_type(%a: tensor<4xf32>) -> tensor<4xf32, #layout.tiled<{0:T(2)}>> {
  // expected-error @+1 {{'layout.fusion' op yields 'tensor<4xf32>' for a result of type 'tensor<4xf32, #layout.tiled<{0:T(2)}>>'}}
  %r = layout.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32, #layout.tiled<{0:T(2)}>> {
  ^bb0(%x: tensor<4xf32>):
    layout.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32, #layout.tiled<{0:T(2)}>>
}

// -----

func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  %r = layout.fusion (%a) : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%x: tensor<?xf32>):
    // expected-error @+1 {{'layout.add' op cannot stand in a layout.fusion body: its operands and results must be static ranked tensors}}
    %s = layout.add %x, %x : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    layout.yield %s : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

func.func @other_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = layout.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    // expected-error @+1 {{'tensor.insert_slice' op cannot stand in a layout.fusion body: not a layout op that fuses}}
    %s = tensor.insert_slice %x into %x[0] [4] [1] : tensor<4xf32> into tensor<4xf32>
    layout.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @relayout_dest(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = layout.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    // expected-error @+1 {{'layout.relayout' op cannot stand in a layout.fusion body: a relayout whose destination is not a tensor.empty of the body}}
    %d = layout.relayout %x, %x : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    layout.yield %d : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'layout.fusion' op body must end with layout.yield}}
  %r = layout.fusion (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    func.return %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @yield_outside(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'layout.yield' op expects parent op 'layout.fusion'}}
  layout.yield %a : tensor<4xf32>
}
