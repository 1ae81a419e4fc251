#!/usr/bin/env bash
# Every sample (samples/*/) loads into a fresh database without an error, and its access
# patterns pass `--patterns` (exit 0) with at least one pattern and one expected refusal. A
# pattern file with a Scan, an unexpected refusal or a `refused:` statement that runs makes
# --patterns exit 1. Usage: samples_test.sh KEYHOLE_BIN SAMPLES_DIR
set -uo pipefail
bin="$1"
samples="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail=0
count=0
for dir in "$samples"/*/; do
  name="$(basename "$dir")"
  count=$((count + 1))
  db="$work/$name.kh"
  # Standard output is not a terminal: ddb mode, whose footers and notices go to standard error.
  if ! "$bin" "$db" -f "$dir/schema.sql" >"$work/load.out" 2>"$work/load.err" ||
    [ -s "$work/load.out" ] || grep -q '^Error' "$work/load.err"; then
    echo "FAIL $name: schema.sql did not load cleanly"; cat "$work/load.err"; fail=1; continue
  fi
  if ! "$bin" "$db" --mode table --patterns "$dir/patterns.sql" >"$work/p.out" 2>"$work/p.err"; then
    echo "FAIL $name: --patterns failed"; cat "$work/p.out" "$work/p.err"; fail=1; continue
  fi
  summary="$(tail -n 1 "$work/p.out")"
  if ! [[ "$summary" =~ ^--\ [0-9]+\ patterns:\ [1-9][0-9]*\ key-addressed,\ [1-9][0-9]*\ refused\ as\ expected$ ]]; then
    echo "FAIL $name: unexpected summary: $summary"; fail=1; continue
  fi
  echo "ok $name: $summary"
  # A second run: a pattern that writes may find its item there, and is then said to have run.
  if ! "$bin" "$db" --patterns "$dir/patterns.sql" >"$work/p2.out" 2>"$work/p2.err" &&
    ! grep -q "this pattern writes, and its condition failed: on this file it has likely run" "$work/p2.err"; then
    echo "FAIL $name: a second --patterns failed without saying why"; cat "$work/p2.err"; fail=1
  fi
done
[ "$count" -ge 7 ] || { echo "FAIL: expected at least 7 samples, found $count"; fail=1; }

# Failing pattern files: exit status 1 and a message naming the pattern.
db="$work/check.kh"
"$bin" "$db" -c 'CREATE TABLE "Tab" (pk S, sk S)' >/dev/null
expect_fail() {
  printf '%b' "$1" >"$work/bad.sql"
  "$bin" "$db" --patterns "$work/bad.sql" >"$work/bad.out" 2>"$work/bad.err"
  status=$?
  if [ "$status" -ne 1 ] || ! grep -q "$2" "$work/bad.err"; then
    echo "FAIL: expected exit 1 and '$2' for:"; cat "$work/bad.sql" "$work/bad.out" "$work/bad.err"; fail=1
  else
    echo "ok: fails as expected: $2"
  fi
}
expect_fail '-- pattern: all\nSCAN SELECT * FROM "Tab";\n' 'needs a Scan of Tab'
expect_fail '-- pattern: by x\nSELECT * FROM "Tab" WHERE x = 1;\n' 'keyhole refuses to scan'
expect_fail '-- refused: one\nSELECT * FROM "Tab" WHERE pk = '"'"'a'"'"';\n' 'expected a refusal'
exit $fail
