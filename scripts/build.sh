#!/usr/bin/env bash
# Installs what is missing and builds keyhole into ./build (Release with debug info).
# Extra arguments are passed to CMake's configure step (e.g. -DKEYHOLE_SANITIZE=ON).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja "$@" >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)"
