#!/usr/bin/env bash
# Installs what is missing and builds keyhole into ./build (Release with debug info).
# Extra arguments are passed to CMake's configure step (e.g. -DKEYHOLE_SANITIZE=ON).
# KEYHOLE_TARGETS names the targets to build (default: all of them, tests and benchmarks too).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja "$@" >/dev/null
targets=()
for t in ${KEYHOLE_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$BUILD_DIR" -j"$(nproc)" "${targets[@]}"
