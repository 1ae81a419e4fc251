#!/usr/bin/env bash
# Installs, builds, and runs the whole test suite: every unit and script test (ctest), then
# each libFuzzer target for a short fixed time (KEYHOLE_FUZZ_SECONDS, default 30; 0 skips).
# Exits non-zero on any failure; the last line is the summary "tests: N passed, M failed"
# (with ", K skipped" when ctest skipped some: clients.js with KEYHOLE_SKIP_NPM=1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
(cd "${BUILD_DIR:-build}" && ctest --output-on-failure -j"$(nproc)" --timeout 300) | tee "$log" || status=1
if [ "${KEYHOLE_FUZZ_SECONDS:-30}" != 0 ]; then
  bash scripts/fuzz.sh "${KEYHOLE_FUZZ_SECONDS:-30}" || status=1
fi
total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n 1)
skipped=$(grep -c '(Skipped)$' "$log" || true)
echo "tests: $(( ${total:-0} - ${failed:-0} - skipped )) passed, ${failed:-0} failed$(
  [ "$skipped" = 0 ] || echo ", $skipped skipped")"
exit $status
