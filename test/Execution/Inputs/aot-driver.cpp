//===- aot-driver.cpp - Calls a function compiled ahead of time ----------===//
//
// Links with the object of aot-broadcast-tiled.mlir: builds StridedMemRefType
// descriptors (mlir/ExecutionEngine/CRunnerUtils.h) for plain C arrays and
// calls the C interface, then prints the output buffer, 8 values a line.
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cstdio>

extern "C" void _mlir_ciface_compute(StridedMemRefType<float, 2> *m,
                                     StridedMemRefType<float, 1> *v,
                                     StridedMemRefType<float, 4> *out);

int main() {
  float m[32], v[4], out[32];
  for (int i = 0; i < 4; ++i) {
    v[i] = 100.0f * static_cast<float>(i + 1);
    for (int j = 0; j < 8; ++j)
      m[i * 8 + j] = static_cast<float>(8 * i + j);
  }
  for (float &x : out)
    x = -1.0f;
  StridedMemRefType<float, 2> mDesc{m, m, 0, {4, 8}, {8, 1}};
  StridedMemRefType<float, 1> vDesc{v, v, 0, {4}, {1}};
  StridedMemRefType<float, 4> outDesc{out, out, 0, {2, 2, 2, 4}, {16, 8, 4, 1}};
  _mlir_ciface_compute(&mDesc, &vDesc, &outDesc);
  for (int i = 0; i < 32; ++i)
    std::printf("%g%c", out[i], i % 8 == 7 ? '\n' : ' ');
  return 0;
}
