// Placeholder; implemented in a following commit.
#include "layout/Xla/Shape.h"
std::string mlir::layout::printShape(const Shape &) { return "<shape>"; }
