#!/usr/bin/env bash
# Installs, builds, and runs the whole test suite: every unit and script test (ctest), then
# each libFuzzer target for a short fixed time (KEYHOLE_FUZZ_SECONDS, default 30; 0 skips).
# Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)" --timeout 300)
if [ "${KEYHOLE_FUZZ_SECONDS:-30}" != 0 ]; then
  bash scripts/fuzz.sh "${KEYHOLE_FUZZ_SECONDS:-30}"
fi
