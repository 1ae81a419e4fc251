#!/usr/bin/env bash
# The command line as scripts, CI jobs and students meet it: opening files (new, not a database,
# read-only), errors in the OS's words, --version, transactions left open, Ctrl-C during a
# script and an import, SIGTERM during an import and an export, invalid UTF-8, errors on very
# long lines.
# Usage: cli_test.sh KEYHOLE
set -u
k=$1
dir=$(mktemp -d)
chmod 755 "$dir"
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $1"; }
# expect NAME STATUS OUT_PATTERN ERR_PATTERN -- command...: exit status and grep -E patterns
# ("" skips; EMPTY: standard output must be empty) on standard output and standard error.
expect() {
  local name=$1 want=$2 outp=$3 errp=$4
  shift 5
  "$@" >out.txt 2>err.txt
  local got=$?
  if [ "$got" != "$want" ]; then no "$name: status $got (want $want): $(cat out.txt err.txt)"; return; fi
  if [ "$outp" = EMPTY ]; then
    if [ -s out.txt ]; then no "$name: stdout is not empty: $(cat out.txt)"; return; fi
  elif [ -n "$outp" ] && ! grep -qE -- "$outp" out.txt; then no "$name: stdout lacks /$outp/: $(cat out.txt)"; return; fi
  if [ -n "$errp" ] && ! grep -qE -- "$errp" err.txt; then no "$name: stderr lacks /$errp/: $(cat err.txt)"; return; fi
  ok
}
# signal_after SECONDS SIGNAL command...: runs the command in the background (standard output to
# out.txt, standard error to err.txt), sends it SIGNAL after SECONDS and waits for it. Sets
# $status, and $sent (0 when the process had already ended). A process still running 10 s after
# the signal is killed, so that a hang fails instead of hanging the test.
signal_after() {
  local delay=$1 sig=$2
  shift 2
  "$@" >out.txt 2>err.txt &
  local pid=$!
  sleep "$delay"
  kill "-$sig" $pid 2>/dev/null && sent=1 || sent=0
  (sleep 10 && kill -KILL $pid) >/dev/null 2>&1 &
  local watchdog=$!
  wait $pid
  status=$?
  pkill -P $watchdog 2>/dev/null
  kill $watchdog 2>/dev/null
  wait $watchdog 2>/dev/null
}

# --version, and flags without their argument.
expect version 0 '^keyhole [0-9]+\.[0-9]+\.[0-9]+$' '' -- "$k" --version
expect c-without-statement 2 '' '^keyhole: -c needs a statement$' -- "$k" t.kh -c
expect f-without-file 2 '' '^keyhole: -f needs a script file$' -- "$k" t.kh -f
[ ! -e t.kh ] && ok || no "a bad command line created t.kh"

# A new file is announced; an existing one is not.
expect new-database 0 '' '^-- new.kh: a new, empty database$' -- "$k" new.kh -c 'SHOW TABLES'
expect existing-database 0 '' '' -- "$k" new.kh -c 'SHOW TABLES'
grep -q 'new, empty' err.txt && no "an existing database was announced as new" || ok

# An empty file is a new database too (as sqlite3 takes it), and is announced as one.
: >empty.kh
expect empty-file-is-new 0 '' '^-- empty.kh: a new, empty database$' -- "$k" empty.kh -c 'SHOW TABLES'

# A path that cannot be a file: what is wrong, in the OS's words, never InternalServerError.
expect missing-directory 1 '' '^keyhole: ResourceNotFoundException: nodir/x.kh: No such file or directory \(the directory nodir does not exist: create it first, or give another path\)$' -- "$k" nodir/x.kh -c 'SHOW TABLES'
[ ! -e nodir ] && ok || no "a missing directory was created"
printf 'x\n' >plain.txt
expect through-a-file 1 '' '^keyhole: ResourceNotFoundException: plain.txt/x.kh: Not a directory \(plain.txt is a file, not a directory\)$' -- "$k" plain.txt/x.kh -c 'SHOW TABLES'
# A file that reports size 0 but has content (procfs) is read, not taken for an empty one.
if [ -r /proc/version ]; then
  expect proc-file 1 '' '^keyhole: DatabaseFormatException: /proc/version: not a keyhole database \(it is a text file\)' -- "$k" /proc/version -c 'SHOW TABLES'
fi

# A script given as the database: refused, no lock file left, and the error says to use -f.
printf 'CREATE TABLE "Scripted" (pk S);\n' >schema.sql
expect script-as-database 1 '' 'schema.sql: not a keyhole database \(it is a text file\); to run it as a script: keyhole DB -f schema.sql' -- "$k" schema.sql
[ ! -e schema.sql-lock ] && ok || no "a lock file was left beside schema.sql"
head -c 8192 /dev/urandom >random.bin
expect binary-not-a-database 1 '' 'random.bin: not a keyhole database \(not an LMDB file\)' -- "$k" random.bin
[ ! -e random.bin-lock ] && ok || no "a lock file was left beside random.bin"

# Files that cannot be read: the OS's words, not InternalServerError.
expect missing-script 1 '' '^keyhole: cannot read none.sql: No such file or directory$' -- "$k" new.kh -f none.sql
expect read-missing 1 '' 'cannot read none.sql: No such file or directory' -- "$k" new.kh -c '.read none.sql'
expect read-directory 1 '' 'cannot read .: Is a directory' -- "$k" new.kh -c '.read .'

# --readonly: reads work, writes are refused with AccessDeniedException and change nothing.
"$k" ro.kh -c 'CREATE TABLE "Ronly" (pk S)' -c "INSERT INTO \"Ronly\" VALUE {'pk': 'a'}" 2>/dev/null
expect readonly-read 0 '"pk":\{"S":"a"\}' 'read-only' -- "$k" ro.kh --readonly -c "SELECT * FROM \"Ronly\" WHERE pk = 'a'"
expect readonly-write 1 '' 'AccessDeniedException: ro.kh is open read-only' -- "$k" ro.kh --readonly -c "INSERT INTO \"Ronly\" VALUE {'pk': 'b'}"
expect readonly-unchanged 0 EMPTY '' -- "$k" ro.kh -c "SELECT * FROM \"Ronly\" WHERE pk = 'b'"

# A file this user may not write opens read-only (as sqlite3 does), and a permission error is
# the OS's; root may write anything, so these run as nobody where setpriv can switch to it.
as_nobody=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
    as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  fi
fi
if [ "$(id -u)" != 0 ] || [ ${#as_nobody[@]} -gt 0 ]; then
  mkdir shared && cp ro.kh shared/ && chmod 755 shared && chmod 644 shared/ro.kh
  expect not-writable-opens-read-only 0 '"pk":\{"S":"a"\}' 'shared/ro.kh: read-only' -- "${as_nobody[@]}" "$k" shared/ro.kh -c "SELECT * FROM \"Ronly\" WHERE pk = 'a'"
  expect not-writable-write 1 '' 'AccessDeniedException' -- "${as_nobody[@]}" "$k" shared/ro.kh -c "INSERT INTO \"Ronly\" VALUE {'pk': 'c'}"
  printf 'SHOW TABLES;\n' >secret.sql && chmod 600 secret.sql
  expect unreadable-script 1 '' '^keyhole: cannot read secret.sql: Permission denied$' -- "${as_nobody[@]}" "$k" shared/ro.kh -f secret.sql
  mkdir locked && chmod 700 locked
  expect permission-denied-database 1 '' 'AccessDeniedException: locked/x.kh: Permission denied' -- "${as_nobody[@]}" "$k" locked/x.kh -c 'SHOW TABLES'
else
  echo "skipped: the not-writable and permission checks need a non-root user or setpriv"
fi

# A transaction left open at the end of a script, standard input or -c: said out loud, exit 1,
# nothing written.
"$k" tx.kh -c 'CREATE TABLE "Txn" (pk S)' 2>/dev/null
printf "BEGIN;\nINSERT INTO \"Txn\" VALUE {'pk': 'a'};\nINSERT INTO \"Txn\" VALUE {'pk': 'b'};\n" >open.sql
expect open-at-end-of-file 1 '' "^Error: open.sql ended: the BEGIN at open.sql line 1 was not committed; its 2 queued statements were discarded, nothing was sent" -- "$k" tx.kh -f open.sql
expect open-at-end-of-stdin 1 '' "the BEGIN at stdin line 1 was not committed; its 2 queued statements were discarded" -- "$k" tx.kh <open.sql
expect open-at-end-of-c 1 '' "^Error: the input ended: the BEGIN at -c #1 line 1 was not committed; its 1 queued statement was discarded" -- "$k" tx.kh -c 'BEGIN' -c "INSERT INTO \"Txn\" VALUE {'pk': 'c'}"
expect open-wrote-nothing 0 EMPTY '' -- "$k" tx.kh -c "SELECT * FROM \"Txn\" WHERE pk IN ['a', 'b', 'c']"
expect committed-across-c 0 '' 'committed 1 statement ·' -- "$k" tx.kh -c 'BEGIN' -c "INSERT INTO \"Txn\" VALUE {'pk': 'd'}" -c 'COMMIT'

# .quiet set by a -f script ends with it.
printf ".quiet on\nINSERT INTO \"Txn\" VALUE {'pk': 'q'};\n" >quiet.sql
expect quiet-ends-with-script 0 '' '^-- 1 returned, 1 read' -- "$k" tx.kh -f quiet.sql -c "SELECT * FROM \"Txn\" WHERE pk = 'q'"
grep -q '^-- 1 statement ran quietly · 1 WCU$' err.txt && ok || no "quiet summary: $(cat err.txt)"

# Ctrl-C during a script: one line says where, exit 130, the rest does not run. (Four million
# point reads, 100,000 in a file read 40 times: seconds of work however fast keyhole gets.)
python3 -c "
for i in range(100000): print('SELECT * FROM \"Txn\" WHERE pk = \'a\';')" >chunk.sql
python3 -c "
print('.quiet on')
for i in range(40): print('.read chunk.sql')" >long.sql
signal_after 0.5 INT "$k" tx.kh -f long.sql -c "SELECT * FROM \"Txn\" WHERE pk = 'd'"
if [ $status = 130 ] && grep -qE '^interrupted at chunk.sql line [0-9]+; [0-9]+ statements ran$' err.txt &&
  [ "$(grep -c . err.txt)" -le 3 ] && [ ! -s out.txt ]; then ok; else no "interrupted script: status $status: $(head -c 600 err.txt) | $(head -c 200 out.txt)"; fi

# Ctrl-C during .import: nothing is imported.
python3 -c "
import json
for i in range(300000): print(json.dumps({'pk': 'i%d' % i, 'n': i, 'pad': 'x' * 40}))" >big.jsonl
"$k" tx.kh -c 'CREATE TABLE "Imported" (pk S)' 2>/dev/null
signal_after 0.3 INT "$k" tx.kh -c '.import big.jsonl INTO Imported'
"$k" tx.kh --mode csv -c 'SCAN SELECT pk FROM "Imported"' >count.txt 2>/dev/null
if grep -q 'items imported' err.txt; then
  echo "skipped: the import finished before Ctrl-C reached it"
elif [ $status = 130 ] && grep -q 'nothing was imported' err.txt && [ ! -s count.txt ]; then ok
else no "interrupted import: status $status: $(cat err.txt) $(head -3 count.txt)"; fi

# SIGTERM (timeout, a CI runner) during .import: as Ctrl-C, said out loud, then the process
# ends by the signal. During .export: FILE is not left behind, half written.
signal_after 0.3 TERM "$k" tx.kh -c '.import big.jsonl INTO Imported'
"$k" tx.kh --mode csv -c 'SCAN SELECT pk FROM "Imported"' >count.txt 2>/dev/null
if grep -q 'items imported' err.txt; then
  echo "skipped: the import finished before SIGTERM reached it"
elif [ $status = 143 ] && grep -q 'nothing was imported' err.txt &&
  grep -q '^keyhole: stopped by SIGTERM$' err.txt && [ ! -s count.txt ]; then ok
else no "import stopped by SIGTERM: status $status: $(cat err.txt) $(head -3 count.txt)"; fi
"$k" tx.kh -c '.import big.jsonl INTO Imported' 2>/dev/null
signal_after 0.1 TERM "$k" tx.kh -c '.export Imported TO exported.jsonl'
if grep -q 'items exported' err.txt; then
  echo "skipped: the export finished before SIGTERM reached it"
elif [ $status = 143 ] && grep -q 'nothing exported' err.txt && [ -z "$(ls -A | grep exported)" ]; then ok
else no "export stopped by SIGTERM: status $status: $(cat err.txt) $(ls -A)"; fi

# SIGTERM while the script is still being read (a FIFO nobody writes): no hang.
mkfifo never.fifo
signal_after 0.3 TERM "$k" tx.kh -f never.fifo
if [ $status = 143 ] && grep -q '^keyhole: stopped by SIGTERM$' err.txt && ! grep -q 'cannot read' err.txt; then ok
else no "SIGTERM while opening a FIFO script: status $status: $(cat err.txt)"; fi

# An ignored SIGHUP (nohup) stays ignored: the script runs to its end.
python3 -c "
for i in range(60000): print('SELECT * FROM \"Txn\" WHERE pk = \'a\';')" >medium.sql
signal_after 0.2 HUP nohup "$k" tx.kh --mode csv -f medium.sql
if [ $sent = 0 ]; then
  echo "skipped: the script finished before SIGHUP reached it"
elif [ $status = 0 ] && ! grep -q 'stopped by' err.txt; then ok
else no "nohup: status $status: $(tail -3 err.txt)"; fi

# Invalid UTF-8 in a statement is refused; nothing is stored.
expect invalid-utf8 1 '' 'ValidationException: Invalid UTF-8 in the statement: the byte 0xFF here' -- "$k" tx.kh -c "$(printf "INSERT INTO \"Txn\" VALUE {'pk': 'bad\xff'}")"
expect invalid-utf8-stored-nothing 0 EMPTY '' -- "$k" tx.kh --mode csv -c 'SCAN SELECT pk FROM "Txn" WHERE begins_with(pk, '"'"'bad'"'"')'

# An error on a 1 MB line prints a window around the column, not the line.
python3 -c "print('SELECT * FROM \"Txn\" WHERE pk = ' + \"'x' AND \" * 150000 + '#')" >wide.sql
"$k" tx.kh -f wide.sql >/dev/null 2>err.txt
size=$(wc -c <err.txt)
[ "$size" -lt 4000 ] && grep -q 'column' err.txt && ok || no "long-line error is $size bytes"

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
