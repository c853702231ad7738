//===- aot-dynamic-tiled-driver.cpp - Dynamic tiled memrefs from C++ -----===//
//
// Links with the object of aot-dynamic-tiled.mlir. A dynamic tiled memref
// (memref<?x?xf32, #layout.tiled<{1,0:T(2,2)}>>) is passed as a
// StridedMemRefType<float, 2> whose sizes are the LOGICAL sizes and whose
// pointers point at the physical buffer (ceil(rows/2) * ceil(cols/2) tiles
// of 2x2, row-major); its strides are not read (given here as the row-major
// strides of the logical shape). Buffers are heap arrays of exactly the
// physical size, so AddressSanitizer catches an access past it.
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cstdint>
#include <cstdio>
#include <vector>

using Desc = StridedMemRefType<float, 2>;

extern "C" void _mlir_ciface_untile(Desc *t, Desc *out);
extern "C" void _mlir_ciface_tile(Desc *in, Desc *t);
extern "C" float _mlir_ciface_query(Desc *t, int64_t i, int64_t j);
extern "C" int64_t _mlir_ciface_rows(Desc *t);
extern "C" int64_t _mlir_ciface_cols(Desc *t);

static Desc logical(float *data, int64_t rows, int64_t cols) {
  return Desc{data, data, 0, {rows, cols}, {cols, 1}};
}

int main() {
  // Figure 1 of XLA's tiled layout document, f32[3,5]{1,0:T(2,2)}: element
  // (i, j) = 5i + j; padding slots -1.
  const float figure1[24] = {0,  1,  5,  6,  2,  3,  7,  8,  4,  -1, 9,  -1,
                             10, 11, -1, -1, 12, 13, -1, -1, 14, -1, -1, -1};
  float *physical = new float[24];
  for (int k = 0; k < 24; ++k)
    physical[k] = figure1[k];
  float *out = new float[15];
  Desc t = logical(physical, 3, 5);
  Desc o = logical(out, 3, 5);
  _mlir_ciface_untile(&t, &o);
  std::printf("untile 3x5:\n");
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j)
      std::printf("%g%c", out[i * 5 + j], j == 4 ? '\n' : ' ');
  std::printf("dims %lld %lld\n", static_cast<long long>(_mlir_ciface_rows(&t)),
              static_cast<long long>(_mlir_ciface_cols(&t)));
  std::printf("element (2,3) = %g\n", _mlir_ciface_query(&t, 2, 3));

  // Row-major 1..15 into the tiled buffer (padding -1 before).
  float *in = new float[15];
  for (int k = 0; k < 15; ++k)
    in[k] = static_cast<float>(k + 1);
  for (int k = 0; k < 24; ++k)
    physical[k] = -1;
  Desc i = logical(in, 3, 5);
  _mlir_ciface_tile(&i, &t);
  std::printf("tile 3x5:");
  for (int k = 0; k < 24; ++k)
    std::printf(" %g", physical[k]);
  std::printf("\nslot 17 = %g\n", physical[17]);

  // The same function on a 1x1 array: one tile, three padding slots.
  float *one = new float[4];
  for (int k = 0; k < 4; ++k)
    one[k] = -1;
  float value = 1;
  Desc v = logical(&value, 1, 1);
  Desc t1 = logical(one, 1, 1);
  _mlir_ciface_tile(&v, &t1);
  std::printf("tile 1x1: %g %g %g %g\n", one[0], one[1], one[2], one[3]);
  delete[] physical;
  delete[] out;
  delete[] in;
  delete[] one;
  return 0;
}
