#!/usr/bin/env bash
# The AWS CLI against `keyhole serve`: tables, items, a query, a transaction cancelled with its
# reasons, PartiQL, and errors as the CLI prints them. The server listens on a free loopback
# port and is stopped by its PID.
# Usage: awscli_test.sh KEYHOLE [AWS]   (AWS: the CLI to run, default the aws on PATH)
set -u
k=$1
aws=${2:-aws}
dir=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1
export AWS_PAGER="" AWS_MAX_ATTEMPTS=1 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
if ! command -v "$aws" >/dev/null; then
  echo "FAIL: the AWS CLI ($aws) is not installed (scripts/setup.sh installs awscli)"
  exit 1
fi
echo "$("$aws" --version 2>&1)"

"$k" serve "$dir/c.kh" --port 0 >"$dir/serve.out" 2>"$dir/serve.err" &
server_pid=$!
for _ in $(seq 1 100); do grep -q 'listening on' "$dir/serve.out" && break; sleep 0.05; done
url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$dir/serve.out")
[ -n "$url" ] || { echo "FAIL: keyhole serve did not start: $(cat "$dir/serve.err")"; exit 1; }
ddb() { "$aws" dynamodb --endpoint-url "$url" --output json "$@"; }

pass=0 fail=0
check() {  # check NAME EXPECTED_SUBSTRING ACTUAL
  if [[ "$3" == *"$2"* ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: expected '$2' in: $3"; fi
}

out=$(ddb create-table --table-name Cli --attribute-definitions AttributeName=pk,AttributeType=S \
  AttributeName=sk,AttributeType=N --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
  --billing-mode PAY_PER_REQUEST 2>&1)
check create-table '"TableStatus": "ACTIVE"' "$out"
out=$(ddb wait table-exists --table-name Cli 2>&1; echo "exit $?")
check wait 'exit 0' "$out"
for i in 1 2 3; do
  ddb put-item --table-name Cli --item "{\"pk\": {\"S\": \"a\"}, \"sk\": {\"N\": \"$i\"}, \"v\": {\"S\": \"x$i\"}}" >/dev/null
done
out=$(ddb get-item --table-name Cli --key '{"pk": {"S": "a"}, "sk": {"N": "2"}}' 2>&1)
check get-item '"S": "x2"' "$out"
out=$(ddb query --table-name Cli --key-condition-expression 'pk = :p AND sk > :s' \
  --expression-attribute-values '{":p": {"S": "a"}, ":s": {"N": "1"}}' --query Count 2>&1)
check query '2' "$out"
out=$(ddb scan --table-name Cli --page-size 1 --query 'length(Items)' 2>&1)
check scan-paged '3' "$out"
out=$(ddb put-item --table-name Cli --item '{"pk": {"S": "a"}, "sk": {"N": "1"}}' \
  --condition-expression 'attribute_not_exists(pk)' 2>&1)
check conditional 'ConditionalCheckFailedException' "$out"
out=$(ddb transact-write-items --transact-items '[{"ConditionCheck": {"TableName": "Cli", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "ConditionExpression": "attribute_not_exists(pk)"}}]' 2>&1)
check transaction-cancelled 'TransactionCanceledException' "$out"
check cancellation-reasons '[ConditionalCheckFailed]' "$out"
out=$(ddb execute-statement --statement "SELECT v FROM \"Cli\" WHERE pk = 'a' AND sk = 3" 2>&1)
check partiql '"S": "x3"' "$out"
out=$(ddb describe-table --table-name Nope 2>&1)
check not-found 'ResourceNotFoundException' "$out"
check not-found-message 'Requested resource not found: Table: Nope not found' "$out"
out=$(ddb list-tables --query 'TableNames[0]' 2>&1)
check list-tables '"Cli"' "$out"
out=$(ddb delete-table --table-name Cli --query 'TableDescription.TableName' 2>&1)
check delete-table '"Cli"' "$out"

kill "$server_pid" && wait "$server_pid"
status=$?
server_pid=""
check clean-stop 'stopped after' "$(cat "$dir/serve.err") exit $status"
echo "aws cli ($aws): $pass passed, $fail failed"
[ "$fail" = 0 ]
