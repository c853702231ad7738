#!/usr/bin/env bash
# The main job: explain the seed's layouts with layout-explain.
set -euo pipefail
BUILD_DIR=${1:-build}
X="$BUILD_DIR/bin/layout-explain"
for shape in 'f32[3,5]{1,0:T(2,2)}' 'f32[4,8]{1,0:T(2,4)(2,1)}' \
             'f32[2,3]{0,1:PAD(3,5)PV(zero)}'; do
  echo "\$ layout-explain show '$shape'"
  "$X" show "$shape"
  echo
done
