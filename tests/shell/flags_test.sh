#!/usr/bin/env bash
# The executable's command line: -c (repeatable), -f, --bail, --echo, --mode, exit statuses,
# error locations, bad arguments.
# Usage: flags_test.sh KEYHOLE
set -u
k=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pass=0 fail=0
check() {  # check NAME EXPECTED_STATUS EXPECTED_STDOUT_SUBSTRING -- command...
  local name=$1 want=$2 text=$3
  shift 4
  out=$("$@" 2>"$dir/err")
  got=$?
  if [ "$got" = "$want" ] && [[ "$out" == *"$text"* ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $name: status $got (want $want), stdout: $out, stderr: $(cat "$dir/err")"
  fi
}
db=$dir/t.kh
check create 0 "" -- "$k" "$db" -c 'CREATE TABLE "Orders" (id S HASH)'
grep -q '^-- table Orders created$' "$dir/err" && grep -q "a new, empty database" "$dir/err" &&
  pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL create notices: $(cat "$dir/err")"; }
check insert-select 0 '{"id":{"S":"a"},"n":{"N":"1"}}' -- "$k" "$db" \
  -c "INSERT INTO \"Orders\" VALUE {'id': 'a', 'n': 1}" -c "SELECT * FROM \"Orders\" WHERE id = 'a';"
printf "SELECT * FROM \"Orders\" WHERE n = 1;\nSHOW TABLES;\n" > "$dir/s.sql"
check failing-script-runs-on 1 '{"TableName":{"S":"Orders"}}' -- "$k" "$db" -f "$dir/s.sql"
if grep -q "at $dir/s.sql line 1" "$dir/err"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL error location: $(cat "$dir/err")"; fi
# --echo: statements and dot-commands, with the notices (standard error in ddb mode)
check echo 0 '{"n":{"N":"1"}}' -- "$k" "$db" --echo -c ".mode ddb" -c "SELECT n FROM \"Orders\" WHERE id = 'a'"
grep -q '^\.mode ddb$' "$dir/err" && grep -q "^SELECT n FROM \"Orders\" WHERE id = 'a';$" "$dir/err" &&
  pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL echo: $(cat "$dir/err")"; }
check echo-box 0 "SELECT n FROM \"Orders\" WHERE id = 'a';" -- "$k" "$db" --echo --mode box -c "SELECT n FROM \"Orders\" WHERE id = 'a'"
check mode-csv 0 $'id,n\na,1' -- "$k" "$db" --mode csv -c "SELECT * FROM \"Orders\" WHERE id = 'a'"
check bad-mode 2 "" -- "$k" "$db" --mode nope
out=$("$k" "$db" --bail -f "$dir/s.sql" 2>/dev/null)
if [ $? = 1 ] && [ -z "$out" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL bail: $out"; fi
check bad-argument 2 "" -- "$k" "$db" --nope
check missing-script 1 "" -- "$k" "$db" -f "$dir/none.sql"
echo "shell flags: $pass passed, $fail failed"
[ "$fail" = 0 ]
