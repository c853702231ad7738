#!/usr/bin/env bash
# README command 1: install dependencies, build, run the main example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
bash examples/run-main.sh "$BUILD_DIR"
