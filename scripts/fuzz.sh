#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (in ./build-fuzz) and runs each for SECONDS
# (default 20) from the seed corpus in tests/fuzz/<target>/ (kept across runs in build-fuzz).
# Exits non-zero when a fuzzer finds a crash, leak, timeout or sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-20}
bash scripts/setup.sh
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DKEYHOLE_FUZZ=ON -DKEYHOLE_BUILD_TESTS=OFF -DKEYHOLE_BUILD_BENCH=OFF >/dev/null
targets=$(cmake --build build-fuzz --target help | sed -n 's/^\(keyhole_fuzz_[a-z_]*\):.*/\1/p')
for t in $targets; do
  cmake --build build-fuzz --target "$t" -j"$(nproc)"
  corpus=build-fuzz/corpus/$t
  mkdir -p "$corpus"
  seeds=tests/fuzz/${t#keyhole_fuzz_}
  echo "fuzz: $t for ${SECONDS_EACH}s"
  binary=$(find build-fuzz -maxdepth 2 -type f -name "$t" | head -n 1)
  "$binary" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) 2>&1 | tail -n 12
done
