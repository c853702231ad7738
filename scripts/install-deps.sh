#!/usr/bin/env bash
# Installs the build and test dependencies from Debian's mirror (run as root).
# Skips apt entirely when everything is already installed.
set -euo pipefail
PKGS=(cmake ninja-build g++ python3 llvm-22-dev llvm-22-tools libmlir-22-dev
      mlir-22-tools clang-22 lld-22 libgtest-dev ccache libclang-rt-22-dev
      libomp-22-dev clang-format-22 librsvg2-bin python3-psutil)
missing=()
for p in "${PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
