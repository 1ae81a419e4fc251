#!/usr/bin/env python3
"""keyhole serve answers PartiQL scans as DynamoDB does (issue 41 §5), driven with boto3:

  - an ExecuteStatement SELECT that pins no partition key runs as a Scan with the WHERE as its
    filter: every matching item once across NextToken pages of Limit items, with its capacity;
  - the log has one line per statement text that scanned (not per call), naming the index that
    would serve it; an explicit Scan call or SCAN SELECT is not logged;
  - what DynamoDB refuses stays refused (UPDATE without the key, ORDER BY without a partition
    key, BatchExecuteStatement's unkeyed SELECT);
  - --scan-report FILE lists each scanning statement and Scan call once, with its calls and
    items read, when the server stops; a report path that cannot be written stops the server
    before it starts;
  - --refuse-scans refuses the SELECT with the shell's explanation.

    scans_test.py KEYHOLE
"""
import json
import os
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
from harness import check, finish, start_server  # noqa: E402

os.environ.update(AWS_ACCESS_KEY_ID="keyhole", AWS_SECRET_ACCESS_KEY="keyhole",
                  AWS_DEFAULT_REGION="us-east-1", AWS_EC2_METADATA_DISABLED="true")
try:
    import boto3
    from botocore.exceptions import ClientError
except ImportError:
    print("skipped: boto3 is not installed")
    sys.exit(77)

KEYHOLE = sys.argv[1]
SCAN_LINE = "keyhole serve: ExecuteStatement scans"


def client(url):
    return boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1")


def error_of(call):
    try:
        call()
    except ClientError as e:
        return e.response["Error"]["Code"], e.response["Error"]["Message"]
    return None, "(accepted)"


def stop(server):
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=30)
    return server.returncode, err


def setup(ddb):
    ddb.create_table(
        TableName="Orders", BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "status", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "byStatus",
                                 "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    for i in range(40):
        ddb.put_item(TableName="Orders", Item={
            "pk": {"S": f"o{i:02d}"}, "total": {"N": str(i * 10)},
            "status": {"S": "open" if i % 4 == 0 else "shipped"}})


def all_pages(ddb, statement, **extra):
    """Every item of the statement across its NextToken pages, the pages and the capacity."""
    items, token, pages, units = [], None, 0, 0.0
    while True:
        r = ddb.execute_statement(Statement=statement, ReturnConsumedCapacity="TOTAL",
                                  **extra, **({"NextToken": token} if token else {}))
        items += r["Items"]
        units += r.get("ConsumedCapacity", {}).get("CapacityUnits", 0)
        pages += 1
        token = r.get("NextToken")
        if not token:
            return items, pages, units


def main():
    tmp = tempfile.mkdtemp(prefix="keyhole-scans-")
    report = f"{tmp}/scans.json"
    server, url = start_server(KEYHOLE, f"{tmp}/scans.kh", "--scan-report", report)
    try:
        ddb = client(url)
        setup(ddb)
        big = 'SELECT * FROM "Orders" WHERE total > ?'
        items, pages, units = all_pages(ddb, big, Parameters=[{"N": "255"}], Limit=7)
        keys = sorted(i["pk"]["S"] for i in items)
        check("scan: every match once", keys == [f"o{i:02d}" for i in range(26, 40)], keys)
        check("scan: paged by Limit", pages == 6, pages)  # 40 items evaluated, 7 a page
        check("scan: capacity reported", units > 0, units)
        again, _, _ = all_pages(ddb, big, Parameters=[{"N": "385"}])
        check("scan: new parameters", sorted(i["pk"]["S"] for i in again) == ["o39"], again)
        opened, _, _ = all_pages(ddb, "SELECT pk FROM \"Orders\" WHERE status = 'open'")
        check("scan: projection", len(opened) == 10 and all(list(i) == ["pk"] for i in opened),
              opened)
        # Key-addressed statements are Queries and GetItems as before.
        one = ddb.execute_statement(Statement="SELECT * FROM \"Orders\" WHERE pk = 'o03'")
        check("point read", [i["pk"]["S"] for i in one["Items"]] == ["o03"], one)
        # An explicit Scan, and SCAN SELECT, say they scan: reported, not logged.
        ddb.scan(TableName="Orders", FilterExpression="#t > :v",
                 ExpressionAttributeNames={"#t": "total"},
                 ExpressionAttributeValues={":v": {"N": "100"}})
        all_pages(ddb, "SCAN SELECT * FROM \"Orders\" WHERE total > 100")
        # What DynamoDB refuses stays refused.
        code, message = error_of(lambda: ddb.execute_statement(
            Statement="UPDATE \"Orders\" SET x = 1 WHERE total > 3"))
        check("update without the key refused", code == "ValidationException" and
              "mandatory equality on all key attributes" in message, message)
        code, message = error_of(lambda: ddb.execute_statement(
            Statement="SELECT * FROM \"Orders\" WHERE total > 3 ORDER BY pk"))
        check("order by without a partition key refused", code == "ValidationException" and
              "non-optional hash key condition" in message, message)
        batch = ddb.batch_execute_statement(Statements=[
            {"Statement": "SELECT * FROM \"Orders\" WHERE total > 3"}])
        check("batch select must be keyed",
              "primary key" in batch["Responses"][0].get("Error", {}).get("Message", ""), batch)
    finally:
        status, err = stop(server)
    lines = [line for line in err.splitlines() if line.startswith(SCAN_LINE)]
    check("stopped cleanly", status == 0, err)
    check("one log line per statement text", len(lines) == 2, lines)
    check("log names the statement", lines and big in lines[0] and
          "does not pin the partition key pk" in lines[0], lines)
    check("log names the serving index", len(lines) > 1 and
          "query the index \"byStatus\" whose partition key is status" in lines[1], lines)
    check("report written", f"scan report written to {report}" in err, err)
    with open(report) as f:
        scans = json.load(f)
    by = {(s["operation"], s["statement"]): s for s in scans["scans"]}
    first = by.get(("ExecuteStatement", big), {})
    check("report: the statement once, every call counted", first.get("calls") == 7 and
          first.get("items_scanned") == 80 and first.get("table") == "Orders", first)
    check("report: its fixes", first.get("fixes") == ["add pk = <value>"] and
          "ADD GLOBAL INDEX" in first.get("suggestion", ""), first)
    status_scan = by.get(("ExecuteStatement", "SELECT pk FROM \"Orders\" WHERE status = 'open'"), {})
    check("report: the index that serves", "query the index \"byStatus\" whose partition key is "
          "status" in status_scan.get("fixes", []), status_scan)
    scan_call = by.get(("Scan", "Scan \"Orders\" FilterExpression: #t > :v"), {})
    check("report: the Scan call", scan_call.get("calls") == 1 and
          scan_call.get("items_scanned") == 40, scans)
    check("report: SCAN SELECT", ("ExecuteStatement",
                                  "SCAN SELECT * FROM \"Orders\" WHERE total > 100") in by, scans)
    check("report: nothing unlisted", scans.get("unlisted_calls") == 0, scans)
    check("report: nothing else", len(scans["scans"]) == 4, scans)

    # --refuse-scans: the shell's rule on the wire.
    server, url = start_server(KEYHOLE, f"{tmp}/scans.kh", "--refuse-scans")
    try:
        code, message = error_of(lambda: client(url).execute_statement(
            Statement='SELECT * FROM "Orders" WHERE total > 5'))
        check("--refuse-scans refuses", code == "ValidationException" and
              message.startswith("keyhole refuses to scan \"Orders\""), message)
    finally:
        stop(server)

    # A report that cannot be written is said at once.
    r = subprocess.run([KEYHOLE, "serve", f"{tmp}/scans.kh", "--port", "0", "--scan-report",
                        f"{tmp}/no/such/dir/r.json"], capture_output=True, text=True, timeout=30)
    check("unwritable report refused", r.returncode == 1 and "cannot write" in r.stderr, r.stderr)
    finish("serve scans")


if __name__ == "__main__":
    main()
