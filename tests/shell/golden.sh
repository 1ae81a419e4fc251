#!/usr/bin/env bash
# Golden test of the keyhole executable: runs SCRIPT.sql on a fresh database through standard
# input and compares stdout+stderr and the exit status with SCRIPT.expected.
# Usage: golden.sh KEYHOLE SCRIPT.sql   (set UPDATE_GOLDEN=1 to rewrite the .expected file)
set -u
keyhole=$1
script=$2
expected=${script%.sql}.expected
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
actual=$(cd "$dir" && "$keyhole" test.kh < "$script" 2>&1; echo "-- exit status $?")
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  printf '%s\n' "$actual" > "$expected"
  exit 0
fi
if ! diff -u "$expected" <(printf '%s\n' "$actual"); then
  echo "golden test failed: $script" >&2
  exit 1
fi
echo "1 passed, 0 failed"
