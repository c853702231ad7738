//===- ShapeUtil.cpp ----------------------------------------------------------===//
// Placeholder so the library links; implemented in a following commit.
#include "layout/Xla/Shape.h"
