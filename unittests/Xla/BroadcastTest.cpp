#include "layout/Xla/Shape.h"
#include <gtest/gtest.h>
// Tests land with the implementation.
