// Upstream's decomposition of linalg.pack / linalg.unpack.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %packs = transform.structured.match ops{["linalg.pack"]} in %root
        : (!transform.any_op) -> !transform.op<"linalg.pack">
    transform.foreach %packs : !transform.op<"linalg.pack"> {
    ^bb0(%p: !transform.op<"linalg.pack">):
      %a, %b, %c = transform.structured.lower_pack %p
          : (!transform.op<"linalg.pack">) -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">, !transform.op<"linalg.transpose">)
    }
    %unpacks = transform.structured.match ops{["linalg.unpack"]} in %root
        : (!transform.any_op) -> !transform.op<"linalg.unpack">
    transform.foreach %unpacks : !transform.op<"linalg.unpack"> {
    ^bb0(%u: !transform.op<"linalg.unpack">):
      %a, %b, %c, %d = transform.structured.lower_unpack %u
          : (!transform.op<"linalg.unpack">) -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">, !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">)
    }
    transform.yield
  }
}
