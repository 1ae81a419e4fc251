#!/usr/bin/env python3
"""The shell on an endpoint that behaves as DynamoDB does where `keyhole serve` answers at once
(issue 42 §7), through a loopback proxy in front of `keyhole serve` that:
  - keeps a new table CREATING (and its item operations "not found") for a while, a new GSI
    CREATING, and a deleted table DELETING: CREATE TABLE, ALTER TABLE ADD GLOBAL INDEX and
    DROP TABLE wait, saying so, and a schema script's next statement finds the table;
  - answers an operation with an error that has no message, delays a write past the read
    timeout, reports ItemCount 0, counts Scans, and serves as an HTTP forward proxy.
Checked too: BEGIN BATCH names what it sent, --readonly refuses SCAN UPDATE before reading,
.patterns at the prompt asks before patterns write to an endpoint (no: not run; yes: run), TLS
to a plain-HTTP port, HTTP_PROXY honoured for http:// endpoints and a dead proxy named.
Usage: endpoint_shell_test.py KEYHOLE
"""
import http.client
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ProxyHandler, check, finish, free_port, start_server  # noqa: E402

KEYHOLE = sys.argv[1]
UPSTREAM = None
SLOW = 2.0  # seconds a table stays CREATING or DELETING, an index CREATING


class State:
    lock = threading.Lock()
    creating = {}  # table -> time it becomes ACTIVE
    index_creating = {}  # (table, index) -> time
    deleting = {}  # table -> (until, last description)
    empty_message = set()  # operations answered with an error without a message
    delay = {}  # operation -> seconds before answering
    zero_counts = False
    seen = []  # (operation, forwarded-as-proxy)


def table_of(body):
    try:
        return json.loads(body or b"{}").get("TableName")
    except ValueError:
        return None


class Proxy(ProxyHandler):
    def error(self, name, message):
        body = {"__type": f"com.amazonaws.dynamodb.v20120810#{name}"}
        if message is not None:
            body["message"] = message
        self.answer(400, json.dumps(body).encode(), [("Content-Type", "application/x-amz-json-1.0")])

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        op = self.headers.get("X-Amz-Target", "").split(".")[-1]
        table = table_of(body)
        now = time.time()
        with State.lock:
            State.seen.append((op, self.path.startswith("http://")))
            if op in State.empty_message:
                return self.error("UnknownOperationException", None)
            creating = table in State.creating and now < State.creating[table]
            deleting = State.deleting.get(table)
            if deleting and now >= deleting[0]:
                del State.deleting[table]
                deleting = None
            delay = State.delay.get(op, 0)
        if creating and op in ("PutItem", "GetItem", "Query", "UpdateItem", "DeleteItem"):
            return self.error("ResourceNotFoundException", "Requested resource not found")
        if deleting and op == "DescribeTable":
            d = json.loads(deleting[1])
            d["Table"]["TableStatus"] = "DELETING"
            return self.answer(200, json.dumps(d).encode(),
                               [("Content-Type", "application/x-amz-json-1.0")])
        conn = http.client.HTTPConnection(*UPSTREAM, timeout=30)
        headers = {k: v for k, v in self.headers.items() if k.lower() != "proxy-connection"}
        conn.request("POST", "/", body, headers)
        r = conn.getresponse()
        data = r.read()
        conn.close()
        if delay:
            time.sleep(delay)
        out = [(k, v) for k, v in r.getheaders()
               if k.lower() not in ("content-length", "connection", "x-amz-crc32")]
        if r.status == 200 and op in ("CreateTable", "DescribeTable", "UpdateTable", "DeleteTable"):
            d = json.loads(data)
            t = d.get("TableDescription") or d.get("Table") or {}
            name = t.get("TableName")
            with State.lock:
                if op == "CreateTable":
                    State.creating[name] = now + SLOW
                if op == "DeleteTable":
                    State.deleting[name] = (now + SLOW, json.dumps({"Table": t}))
                if op == "UpdateTable":
                    for g in json.loads(body).get("GlobalSecondaryIndexUpdates", []):
                        if "Create" in g:
                            State.index_creating[(name, g["Create"]["IndexName"])] = now + SLOW
                if name in State.creating and now < State.creating[name]:
                    t["TableStatus"] = "CREATING"
                for g in t.get("GlobalSecondaryIndexes", []):
                    until = State.index_creating.get((name, g["IndexName"]))
                    if until and now < until:
                        g["IndexStatus"] = "CREATING"
                        g["Backfilling"] = True
                        t["TableStatus"] = "UPDATING"
                if State.zero_counts and op == "DescribeTable":
                    t["ItemCount"] = 0
                    t["TableSizeBytes"] = 0
            data = json.dumps(d).encode()
        self.answer(r.status, data, out)


class ProxyServer(http.server.ThreadingHTTPServer):
    daemon_threads = True


with tempfile.TemporaryDirectory() as tmp:
    server, upstream_url = start_server(KEYHOLE, f"{tmp}/s.kh")
    UPSTREAM = ("127.0.0.1", int(upstream_url.rstrip("/").rsplit(":", 1)[1]))
    proxy = ProxyServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{proxy.server_address[1]}"
    env = {"HOME": tmp, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
           "AWS_EC2_METADATA_DISABLED": "true", "AWS_ACCESS_KEY_ID": "AKIDSHELL",
           "AWS_SECRET_ACCESS_KEY": "shell", "AWS_REGION": "us-east-1"}

    def run(*args, endpoint=None, extra_env=None, timeout=120):
        return subprocess.run([KEYHOLE, "--endpoint", endpoint or url, *args],
                              env={**env, **(extra_env or {})}, capture_output=True, text=True,
                              timeout=timeout)

    def ops(name):
        with State.lock:
            return [s for s in State.seen if s[0] == name]

    try:
        # A schema script: CREATE TABLE waits until ACTIVE, so the INSERT after it works.
        script = os.path.join(tmp, "schema.sql")
        with open(script, "w") as f:
            f.write("CREATE TABLE \"Slow\" (pk S, sk S);\n"
                    "INSERT INTO \"Slow\" VALUE {'pk': 'a', 'sk': '1', 'g': 'x'};\n")
        r = run("--yes", "-f", script)
        check("CREATE TABLE waits for ACTIVE", r.returncode == 0
              and "-- waiting: table Slow is CREATING" in r.stderr
              and "-- table Slow created (ACTIVE after" in r.stderr, r.stderr)
        # Without the wait (an item write while CREATING), the hint says CREATING, not a region.
        with State.lock:
            State.creating["Slow"] = time.time() + 60
        r = run("-c", "INSERT INTO \"Slow\" VALUE {'pk': 'b', 'sk': '1'}")
        check("not found while CREATING: the hint says so", r.returncode == 1
              and "table Slow is CREATING on" in r.stderr and "in region" not in r.stderr, r.stderr)
        with State.lock:
            State.creating.clear()

        # ALTER TABLE ADD GLOBAL INDEX waits for the index.
        r = run("-c", "ALTER TABLE \"Slow\" ADD GLOBAL INDEX \"byG\" (g S)")
        check("ADD GLOBAL INDEX waits for the index", r.returncode == 0
              and "-- waiting: index byG of Slow is CREATING" in r.stderr
              and "(ACTIVE after" in r.stderr, r.stderr)
        r = run("-c", "SELECT pk FROM \"Slow\".\"byG\" WHERE g = 'x'")
        check("the index serves after the wait", r.returncode == 0 and '"a"' in r.stdout, r.stderr)

        # BEGIN BATCH names what it really sent: the statements one by one.
        r = run("-c", "BEGIN BATCH", "-c", "INSERT INTO \"Slow\" VALUE {'pk': 'c', 'sk': '1'}",
                "-c", "INSERT INTO \"Slow\" VALUE {'pk': 'd', 'sk': '1'}", "-c", "COMMIT")
        check("BEGIN BATCH names its operations", r.returncode == 0
              and f"one by one as 2 PutItem (not as one BatchExecuteStatement)" in r.stderr
              and not ops("BatchExecuteStatement"), r.stderr)

        # A SCAN SELECT when DescribeTable says 0 items: said, and found stale.
        with State.lock:
            State.zero_counts = True
        r = run("-c", "SCAN SELECT pk FROM \"Slow\"")
        check("stale counts said", r.returncode == 0
              and "DynamoDB refreshes ItemCount and TableSizeBytes about every six hours" in r.stderr
              and "DescribeTable counted 0 items in Slow, but the Scan read 3" in r.stderr, r.stderr)
        with State.lock:
            State.zero_counts = False

        # --readonly refuses SCAN UPDATE before it reads anything.
        before = len(ops("Scan"))
        r = run("--readonly", "-c", "SCAN UPDATE \"Slow\" SET g = 'y'")
        check("--readonly refuses SCAN UPDATE before reading", r.returncode == 1
              and "AccessDeniedException" in r.stderr and "before anything was read" in r.stderr
              and len(ops("Scan")) == before, (r.stderr, len(ops("Scan")), before))

        # An error without a message: its type and what it means.
        with State.lock:
            State.empty_message.add("TransactWriteItems")
        r = run("-c", "BEGIN", "-c", "INSERT INTO \"Slow\" VALUE {'pk': 'e', 'sk': '1'}", "-c",
                "COMMIT")
        check("an empty message explained", r.returncode == 1
              and "UnknownOperationException" in r.stderr
              and "does not implement TransactWriteItems" in r.stderr, r.stderr)
        with State.lock:
            State.empty_message.clear()

        # A write that timed out after it was sent: it may have been applied, and was not resent.
        with State.lock:
            State.delay["PutItem"] = 3
        before = len(ops("PutItem"))
        r = run("--read-timeout", "1", "-c", "INSERT INTO \"Slow\" VALUE {'pk': 'f', 'sk': '1'}")
        check("a timed-out write may have been applied", r.returncode == 1
              and "ReadTimeoutError" in r.stderr and "may have been applied" in r.stderr
              and len(ops("PutItem")) == before + 1, (r.stderr, len(ops("PutItem")) - before))
        with State.lock:
            State.delay.clear()

        # DROP TABLE waits until the table is gone.
        r = run("--yes", "-c", "DROP TABLE \"Slow\"")
        check("DROP TABLE waits until gone", r.returncode == 0
              and "-- waiting: table Slow is DELETING" in r.stderr
              and "-- table Slow dropped (gone after" in r.stderr, r.stderr)

        # HTTP_PROXY (capitals, as the AWS CLI reads it) for an http:// endpoint: requests go
        # through the proxy, which sees absolute URIs.
        before = len([s for s in State.seen if s[1]])
        r = run("-c", ".tables", endpoint=upstream_url, extra_env={"HTTP_PROXY": url})
        check("HTTP_PROXY is honoured", r.returncode == 0
              and len([s for s in State.seen if s[1]]) > before, (r.stderr, State.seen[-3:]))
        dead = f"http://127.0.0.1:{free_port()}"
        r = run("-c", ".tables", endpoint=upstream_url, extra_env={"HTTP_PROXY": dead})
        check("a dead proxy is named", r.returncode == 1 and f"through the proxy {dead} (from "
              "HTTP_PROXY)" in r.stderr, r.stderr)
        r = run("-c", ".tables", endpoint=upstream_url,
                extra_env={"HTTP_PROXY": dead, "NO_PROXY": "127.0.0.1"})
        check("NO_PROXY exempts the host", r.returncode == 0, r.stderr)

        # https:// to a port that speaks plain HTTP.
        r = run("-c", ".tables", endpoint=upstream_url.replace("http://", "https://"))
        # (OpenSSL sees the plain server's 400, "wrong version number", or, when the server's
        # reset comes first, the connection closed in the handshake: both name plain HTTP.)
        check("TLS to plain HTTP: said", r.returncode == 1 and "SSLError" in r.stderr
              and "answers in plain HTTP, not TLS" in r.stderr and "write the endpoint as "
              "http://" in r.stderr, r.stderr)
        # .patterns at the prompt asks before patterns write to an endpoint: "no" leaves them
        # not run, "yes" runs them.
        r = run("-c", 'CREATE TABLE "Pat" (pk S);', endpoint=upstream_url)
        check("pattern table made", r.returncode == 0, r.stderr)
        with open(f"{tmp}/pat.sql", "w") as f:
            f.write("-- pattern: read one\nSELECT * FROM \"Pat\" WHERE pk = 'a';\n"
                    "-- pattern: add one\nINSERT INTO \"Pat\" VALUE {'pk': 'z'};\n")
        import pty
        import select
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(KEYHOLE, [KEYHOLE, "--endpoint", upstream_url], {**env, "TERM": "dumb"})
        seen = b""

        def expect(text, seconds=20):
            global seen
            end = time.time() + seconds
            while text not in seen and time.time() < end:
                if select.select([fd], [], [], 0.1)[0]:
                    try:
                        seen += os.read(fd, 65536)
                    except OSError:
                        break
            found = text in seen
            before, seen = (seen.split(text, 1) if found else (seen, b""))
            return found, before.decode(errors="replace")

        check("the prompt", expect(b"> ")[0])
        asked = b'1 of these patterns write ("add one") to ' + upstream_url.rstrip("/").encode()
        for answer in (b"no", b"yes"):
            os.write(fd, f".patterns {tmp}/pat.sql\r".encode())
            found, _ = expect(asked + b"/: type yes to let them: ")
            check(f".patterns asks before writing to an endpoint ({answer.decode()})", found)
            os.write(fd, answer + b"\r")
            found, shown = expect(b"> ")
            if answer == b"no":
                check("answered no: the writing pattern is not run", found and "not run" in shown
                      and "run with --yes to let the patterns write there" in shown, shown)
            else:
                check("answered yes: it runs", found and "PutItem" in shown and "not run" not in shown
                      and "2 key-addressed" in shown, shown)
        os.write(fd, b".quit\r")
        os.waitpid(pid, 0)
        os.close(fd)
        r = run("-c", "SELECT pk FROM \"Pat\" WHERE pk = 'z'", endpoint=upstream_url)
        check("the pattern's write is there after yes", '"z"' in r.stdout, r.stdout + r.stderr)
    finally:
        proxy.shutdown()
        server.terminate()
        server.wait()

finish("endpoint shell")
