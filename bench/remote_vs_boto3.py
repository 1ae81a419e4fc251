#!/usr/bin/env python3
"""keyhole on an endpoint beside boto3 doing the same work against the same `keyhole serve`,
measured in one run (issue: "From the laptop to DynamoDB").

    python3 bench/remote_vs_boto3.py [--keyhole build/shell/keyhole] [--items 100000]

The data set is bench/vs_sqlite.py's: ITEMS orders of about 270 bytes, 50 to a customer, in a
table with two GSIs. keyhole serve runs on a loopback port (plain HTTP, signatures not checked)
on a file of its own; each copy starts from an empty table there.

  copy to serve     keyhole copy FILE -> serve  |  boto3: the same items read from a JSON-lines
                    file (.export of FILE) and written with Table.batch_writer()
  copy from serve   keyhole copy serve -> FILE  |  boto3: a paginated Scan of the table written
                    to a JSON-lines file
    to JSON lines   keyhole copy serve -> FOLDER (an export's gzip'd JSON lines, the same
                    output as boto3's)  |  the same boto3 figure
Each keyhole copy's time includes creating the destination and reading every item back to
compare digests, which boto3's scripts do not do.
  GetItem CPU       client CPU per GetItem: `keyhole --endpoint URL -f` of N point SELECTs |
                    boto3 client.get_item N times; each less the same process doing nothing;
                    the median of three runs of each, taken in turn. keyhole's items go to
                    /dev/null (they are rendered and written; boto3's loop prints nothing), its
                    footers to a file
  Query50 CPU       the same for a 50-item Query (a whole customer)

Copies print items/s each way and the ratio (keyhole's rate / boto3's: above 1, keyhole is
faster); CPU lines print microseconds per request and the ratio boto3 / keyhole.
"""
import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vs_sqlite import KEYHOLE_SCHEMA, order  # noqa: E402

ENV_KEYS = {"AWS_ACCESS_KEY_ID": "AKIDBENCH", "AWS_SECRET_ACCESS_KEY": "bench",
            "AWS_DEFAULT_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null",
            "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "AWS_EC2_METADATA_DISABLED": "true"}


def children_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def timed(cmd, env, stdin=None, quiet=False):
    """Wall seconds and CPU seconds of one child process (its output to /dev/null if quiet)."""
    before = children_cpu()
    t0 = time.perf_counter()
    if quiet:  # stderr to a file, not a pipe: a pipe would wake this process at every footer
        with tempfile.TemporaryFile("w+") as err:
            r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err, text=True)
            err.seek(0)
            r.stderr = err.read()
    else:
        r = subprocess.run(cmd, env=env, input=stdin, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr[-2000:]}")
    return wall, children_cpu() - before


BOTO3_WRITE = r"""
import boto3, json, sys, time
from boto3.dynamodb.types import TypeDeserializer
url, path = sys.argv[1], sys.argv[2]
table = boto3.resource("dynamodb", endpoint_url=url).Table("Orders")
des = TypeDeserializer()
t0 = time.perf_counter()
with table.batch_writer() as batch, open(path) as f:
    for line in f:
        item = json.loads(line)["Item"]
        batch.put_item(Item={k: des.deserialize(v) for k, v in item.items()})
print(time.perf_counter() - t0)
"""

BOTO3_SCAN = r"""
import boto3, json, sys, time
url, path = sys.argv[1], sys.argv[2]
client = boto3.client("dynamodb", endpoint_url=url)
t0 = time.perf_counter()
n = 0
with open(path, "w") as f:
    for page in client.get_paginator("scan").paginate(TableName="Orders"):
        for item in page["Items"]:
            f.write(json.dumps({"Item": item}) + "\n")
            n += 1
print(time.perf_counter() - t0)
"""

BOTO3_READS = r"""
import boto3, sys, time
url, kind, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
client = boto3.client("dynamodb", endpoint_url=url)
client.describe_table(TableName="Orders")  # connection and credentials outside the measure
t0 = time.process_time()
for i in range(n):
    c = f"CUST#{(i * 37) % 2000:06d}"
    if kind == "get":
        client.get_item(TableName="Orders", Key={"pk": {"S": c}, "sk": {"S": f"ORDER#{((i * 37) % 2000) * 50:08d}"}})
    elif kind == "query":
        client.query(TableName="Orders", KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": {"S": c}})
print(time.process_time() - t0)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keyhole", default="build/shell/keyhole")
    ap.add_argument("--items", type=int, default=100000)
    ap.add_argument("--reads", type=int, default=2000)
    args = ap.parse_args()
    keyhole = os.path.abspath(args.keyhole)
    py = sys.executable
    d = tempfile.mkdtemp(prefix="keyhole-remote-bench-")
    env = dict(os.environ)
    env.update(ENV_KEYS)
    env["HOME"] = d
    try:
        src = f"{d}/src.kh"
        with open(f"{d}/orders.jsonl", "w") as f:
            for i in range(args.items):
                o = order(i)
                f.write(json.dumps({k: v for k, v in o.items()}, separators=(",", ":")) + "\n")
        timed([keyhole, src, "-c", KEYHOLE_SCHEMA.strip(), "-c", f".import {d}/orders.jsonl INTO Orders",
               "-c", f".export Orders TO {d}/export.jsonl"], env)
        server = subprocess.Popen([keyhole, "serve", f"{d}/served.kh", "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        url = server.stdout.readline().split("listening on ")[1].split(" ")[0]
        ep = [keyhole, "--endpoint", url, "--yes"]

        def fresh_table():
            timed(ep + ["-c", 'DROP TABLE IF EXISTS "Orders"', "-c", KEYHOLE_SCHEMA.strip()], env)

        print(f"{args.items} items of about 270 bytes; keyhole serve at {url}; {os.cpu_count()} cores")
        print(f"{'work':<18}{'keyhole':>16}{'boto3':>16}{'ratio':>10}")
        # Copies to serve.
        fresh_table()
        wall, _ = timed([keyhole, "copy", src, url, "--append"], env)
        k_to = args.items / wall
        fresh_table()
        out = subprocess.run([py, "-c", BOTO3_WRITE, url, f"{d}/export.jsonl"], env=env,
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(out.stderr)
        b_to = args.items / float(out.stdout.strip())
        print(f"{'copy to serve':<18}{k_to:>11,.0f} it/s{b_to:>11,.0f} it/s{k_to / b_to:>9.1f}x")
        # Copies from serve.
        wall, _ = timed([keyhole, "copy", url, f"{d}/back.kh"], env)
        k_from = args.items / wall
        out = subprocess.run([py, "-c", BOTO3_SCAN, url, f"{d}/scan.jsonl"], env=env,
                             capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(out.stderr)
        b_from = args.items / float(out.stdout.strip())
        print(f"{'copy from serve':<18}{k_from:>11,.0f} it/s{b_from:>11,.0f} it/s{k_from / b_from:>9.1f}x")
        # The same output as boto3's: JSON lines (gzip'd, in DynamoDB's export layout).
        wall, _ = timed([keyhole, "copy", url, f"{d}/exported/"], env)
        k_lines = args.items / wall
        print(f"{'  to JSON lines':<18}{k_lines:>11,.0f} it/s{b_from:>11,.0f} it/s{k_lines / b_from:>9.1f}x")
        # Client CPU per request, once the copies' writes are on disk (the kernel's writeback
        # would otherwise tax whichever client runs first); each side measured three times,
        # alternately, and the median kept.
        os.sync()
        time.sleep(1)
        for kind, label in (("get", "GetItem CPU"), ("query", "Query50 CPU")):
            lines = []
            for i in range(args.reads):
                c = (i * 37) % 2000
                if kind == "get":
                    lines.append(f"SELECT * FROM \"Orders\" WHERE pk = 'CUST#{c:06d}' AND sk = 'ORDER#{c * 50:08d}';")
                else:
                    lines.append(f"SELECT * FROM \"Orders\" WHERE pk = 'CUST#{c:06d}';")
            script = f"{d}/{kind}.sql"
            open(script, "w").write("\n".join(lines) + "\n")
            open(f"{d}/nothing.sql", "w").write(".tables\n")
            k_runs, b_runs = [], []
            for _ in range(3):
                _, cpu_n = timed(ep + ["--mode", "ddb", "-f", script], env, quiet=True)
                _, cpu_0 = timed(ep + ["--mode", "ddb", "-f", f"{d}/nothing.sql"], env, quiet=True)
                k_runs.append((cpu_n - cpu_0) / args.reads * 1e6)
                out_n = subprocess.run([py, "-c", BOTO3_READS, url, kind, str(args.reads)],
                                       env=env, capture_output=True, text=True)
                if out_n.returncode != 0:
                    sys.exit(out_n.stderr)
                b_runs.append(float(out_n.stdout.strip()) / args.reads * 1e6)
            k_us, b_us = sorted(k_runs)[1], sorted(b_runs)[1]
            print(f"{label:<18}{k_us:>11.1f} µs/r{b_us:>11.1f} µs/r{b_us / k_us:>9.1f}x")
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
