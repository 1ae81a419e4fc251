#!/usr/bin/env python3
"""keyhole on two DynamoDB implementations written by others, as endpoints: moto's server (the
`moto` Python package, where this machine's Python has it; skipped with a message otherwise)
and dynalite (npm, installed into a scratch folder as tests/clients/js_test.sh installs the JS
SDK; KEYHOLE_SKIP_NPM=1 skips it when it is not there yet). For each: a script of the core
operations through `keyhole --endpoint`, and `keyhole copy` to it and back, the items read back
equal.
Usage: peers_test.py KEYHOLE moto|dynalite
Exit 77 when the peer is not available (ctest: skipped).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

KEYHOLE, PEER = sys.argv[1], sys.argv[2]
failures = []
SKIP = 77


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {str(detail)[:1500]}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, proc, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def dynalite_path():
    """dynalite installed into the scratch folder (exact versions: 4.0.0 needs Node.js 20; 3.2.2
    runs on Debian 12's Node.js 18)."""
    if not shutil.which("node") or not shutil.which("npm"):
        print("SKIP: dynalite needs Node.js and npm (scripts/setup.sh installs them)")
        sys.exit(SKIP)
    major = int(subprocess.run(["node", "-p", "process.versions.node.split('.')[0]"],
                               capture_output=True, text=True).stdout.strip() or 0)
    version = "4.0.0" if major >= 20 else "3.2.2"
    base = os.environ.get("KEYHOLE_NPM_CACHE", os.path.expanduser("~/.cache/keyhole-js-clients"))
    folder = f"{base}/dynalite-{version}"
    cli = f"{folder}/node_modules/dynalite/cli.js"
    if os.path.exists(cli):
        return cli
    if os.environ.get("KEYHOLE_SKIP_NPM") == "1":
        print(f"SKIP: dynalite {version} is not installed and KEYHOLE_SKIP_NPM=1 says not to fetch it")
        sys.exit(SKIP)
    os.makedirs(folder, exist_ok=True)
    with open(f"{folder}/package.json", "w") as f:
        json.dump({"name": "keyhole-dynalite", "private": True, "dependencies": {"dynalite": version}}, f)
    r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=folder,
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or not os.path.exists(cli):
        print(f"FAIL: npm install dynalite@{version} into {folder} failed (it needs the npm registry; "
              f"KEYHOLE_SKIP_NPM=1 skips this test): {r.stderr[-1500:]}")
        sys.exit(1)
    return cli


def start_peer(tmp):
    port = free_port()
    if PEER == "moto":
        try:
            import moto.server  # noqa: F401
        except ImportError:
            print("SKIP: moto is not installed in this Python (pip install 'moto[server]' to run it)")
            sys.exit(SKIP)
        cmd = [sys.executable, "-m", "moto.server", "-p", str(port), "-H", "127.0.0.1"]
    else:
        cmd = ["node", dynalite_path(), "--port", str(port), "--host", "127.0.0.1",
               "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0"]
    proc = subprocess.Popen(cmd, stdout=open(f"{tmp}/peer.out", "w"), stderr=subprocess.STDOUT)
    if not wait_for_port(port, proc):
        proc.kill()
        print(f"FAIL: {PEER} did not start: {open(f'{tmp}/peer.out').read()[-1500:]}")
        sys.exit(1)
    return proc, f"http://127.0.0.1:{port}"


with tempfile.TemporaryDirectory() as tmp:
    peer, url = start_peer(tmp)
    env = {"HOME": tmp, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "AWS_CONFIG_FILE": "/dev/null",
           "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "AWS_EC2_METADATA_DISABLED": "true",
           "AWS_ACCESS_KEY_ID": "AKIDPEERTEST", "AWS_SECRET_ACCESS_KEY": "peer-test",
           "AWS_DEFAULT_REGION": "us-east-1"}

    def run(*args, timeout=300):
        return subprocess.run([KEYHOLE, *args], env=env, capture_output=True, text=True, timeout=timeout)

    try:
        ep = ["--endpoint", url, "--mode", "csv"]
        r = run(*ep, "-c", 'CREATE TABLE "Orders" (customer S, orderId S) GLOBAL INDEX "byStatus" (status S HASH, total N RANGE)')
        check("create table", r.returncode == 0 and "-- table Orders created" in r.stderr, r.stderr)
        inserts = []
        for i in range(12):
            inserts += ["-c", f"INSERT INTO \"Orders\" VALUE {{'customer': 'c{i % 3}', 'orderId': 'o{i:02d}', "
                              f"'status': '{'open' if i % 2 else 'shipped'}', 'total': {i * 10}, 'tags': <<'a', 'b'>>}}"]
        r = run(*ep, *inserts)
        check("inserts", r.returncode == 0 and r.stderr.count("PutItem on Orders") == 12, r.stderr)
        r = run(*ep, "-c", "SELECT orderId FROM \"Orders\" WHERE customer = 'c1' ORDER BY orderId")
        check("query", r.stdout.split() == ["orderId", "o01", "o04", "o07", "o10"], r.stdout + r.stderr)
        r = run(*ep, "-c", "SELECT total FROM \"Orders\" WHERE customer = 'c0' AND orderId = 'o03'")
        check("get item", r.returncode == 0 and r.stdout.split() == ["total", "30"], r.stdout + r.stderr)
        r = run(*ep, "-c", "SELECT total FROM \"Orders\" WHERE customer = 'c0' AND orderId = 'o04'")
        check("get item missing", r.returncode == 0 and "30" not in r.stdout and
              "-- 0 returned, 0 read · GetItem on Orders" in r.stderr, r.stdout + r.stderr)
        r = run(*ep, "-c", "SELECT orderId, total FROM \"Orders\".\"byStatus\" WHERE status = 'open' AND total > 50")
        check("gsi query", sorted(r.stdout.split()[1:]) == ["o07,70", "o09,90", "o11,110"], r.stdout + r.stderr)
        r = run(*ep, "-c", "UPDATE \"Orders\" SET total = total + 1 WHERE customer = 'c0' AND orderId = 'o00'",
                "-c", "SELECT total FROM \"Orders\" WHERE customer = 'c0' AND orderId = 'o00'")
        check("update", r.returncode == 0 and r.stdout.split()[-1] == "1", r.stdout + r.stderr)
        r = run(*ep, "-c", "INSERT INTO \"Orders\" VALUE {'customer': 'c0', 'orderId': 'o00'}")
        check("duplicate insert refused", r.returncode == 1 and ("ConditionalCheckFailed" in r.stderr or
              "DuplicateItem" in r.stderr), r.stderr)
        r = run(*ep, "-c", "DELETE FROM \"Orders\" WHERE customer = 'c2' AND orderId = 'o11'",
                "-c", 'SCAN SELECT orderId FROM "Orders"')
        check("delete and scan", r.returncode == 0 and len(r.stdout.split()) == 1 + 11, r.stdout + r.stderr)
        if PEER == "moto":  # dynalite has no transactions
            r = run(*ep, "-c", "BEGIN", "-c", "UPDATE \"Orders\" SET total = 5 WHERE customer = 'c1' AND orderId = 'o01'",
                    "-c", "INSERT INTO \"Orders\" VALUE {'customer': 'c9', 'orderId': 'x'}", "-c", "COMMIT",
                    "-c", "SELECT total FROM \"Orders\" WHERE customer = 'c1' AND orderId = 'o01'")
            check("transaction", r.returncode == 0 and r.stdout.split()[-1] == "5", r.stdout + r.stderr)
        r = run(*ep, "-c", ".tables", "-c", 'SHOW CREATE TABLE "Orders"')
        check("tables and definition", "Orders" in r.stdout and 'GLOBAL INDEX "byStatus"' in r.stdout, r.stdout + r.stderr)

        # keyhole copy to the peer and back.
        src = f"{tmp}/src.kh"
        with open(f"{tmp}/items.jsonl", "w") as f:
            for i in range(2500):
                f.write(json.dumps({"Item": {"pk": {"S": f"k{i}"}, "sk": {"N": str(i % 7)},
                                             "doc": {"M": {"n": {"N": str(i)}, "l": {"L": [{"S": "x"}, {"BOOL": True}]}}},
                                             "b": {"B": "AAEC"}, "ns": {"NS": ["1", "2.5"]}}}) + "\n")
        r = run(src, "-c", 'CREATE TABLE "Copied" (pk S, sk N)', "-c", f".import {tmp}/items.jsonl INTO Copied")
        check("copy source", r.returncode == 0, r.stderr)
        r = run("copy", src, url, "--segments", "3")
        check(f"copy to {PEER}", r.returncode == 0 and "Copied: read back 2,500 items" in r.stderr, r.stderr)
        r = run("copy", url, f"{tmp}/back.kh", "--table", "Copied", "--segments", "2")
        check(f"copy from {PEER}", r.returncode == 0 and "Copied: read back 2,500 items" in r.stderr, r.stderr)
        a = run(src, "-c", f".export Copied TO {tmp}/a.jsonl")
        b = run(f"{tmp}/back.kh", "-c", f".export Copied TO {tmp}/b.jsonl")
        check("round trip", a.returncode == 0 and b.returncode == 0 and
              sorted(open(f"{tmp}/a.jsonl").read().splitlines()) == sorted(open(f"{tmp}/b.jsonl").read().splitlines()),
              a.stderr + b.stderr)
        r = run("--endpoint", url, "--yes", "-c", 'DROP TABLE "Orders"', "-c", 'DROP TABLE "Copied"')
        check("drop tables", r.returncode == 0, r.stderr)
    finally:
        peer.send_signal(signal.SIGTERM)
        try:
            peer.wait(timeout=15)
        except subprocess.TimeoutExpired:
            peer.kill()

for f in failures:
    print("FAIL", f)
print(f"{PEER}: {'ok' if not failures else str(len(failures)) + ' failed'}")
sys.exit(1 if failures else 0)
