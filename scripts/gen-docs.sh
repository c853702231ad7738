#!/usr/bin/env bash
# Regenerates the ODS-generated docs (docs/LayoutDialect.md,
# docs/LayoutPasses.md, and any other doc the dialect's CMake registers with
# add_mlir_doc) from the .td files and copies them into docs/.
# Usage: [BUILD_DIR=build] scripts/gen-docs.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
BUILD_DIR="$BUILD_DIR" BUILD_TARGETS=mlir-doc scripts/build.sh
for doc in "$BUILD_DIR"/docs/Layout/*.md "$BUILD_DIR"/docs/LayoutConversionPasses.md; do
  cp "$doc" docs/
  echo "docs/$(basename "$doc")"
done
