#!/bin/sh
# Interestingness test of layout-reduce (mlir-reduce's protocol): exit 1 when
# the candidate in $1 still shows the failure, here --layout-lower-linalg-pack
# rejecting a linalg.pack of complex elements without a padding value.
layout-opt "$1" --layout-lower-linalg-pack 2>&1 \
  | grep -q "cannot lower 'linalg.pack' of element type 'complex<f32>'" && exit 1
exit 0
