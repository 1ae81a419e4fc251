#!/usr/bin/env python3
"""Retries, backoff and final errors of keyhole on an endpoint, through a loopback proxy in front
of `keyhole serve` that throttles, answers 500, resets connections, delays and damages
x-amz-crc32, as told per request. Checked: which failures are retried and how often (the proxy
sees each attempt, numbered by amz-sdk-request, under one amz-sdk-invocation-id), that a write
that may have been applied is not sent twice, the errors when attempts run out, and a copy
through a proxy that fails one request in six ending whole.
Usage: faults_test.py KEYHOLE
"""
import http.client
import http.server
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import ProxyHandler  # noqa: E402

KEYHOLE = sys.argv[1]
failures = []


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {str(detail)[:1500]}")


class Faults:
    """What the proxy does to the next requests of an operation: a list of actions, one per
    request, each "pass", "throttle", "500", "503", "reset-before", "reset-after", "delay:S",
    "crc"; when the list is empty, "pass". `random_rate` fails that share of other requests."""

    def __init__(self):
        self.lock = threading.Lock()
        self.plan = {}
        self.seen = []  # (op, attempt header, invocation id, action)
        self.random_rate = 0.0
        self.counter = 0

    def next(self, op):
        with self.lock:
            actions = self.plan.get(op) or self.plan.get("*")
            action = actions.pop(0) if actions else "pass"
            if action == "pass" and self.random_rate:
                self.counter += 1
                if self.counter % int(1 / self.random_rate) == 0:
                    action = ["throttle", "503", "reset-before"][self.counter % 3]
            return action


FAULTS = Faults()
UPSTREAM = None


class Proxy(ProxyHandler):
    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        op = self.headers.get("X-Amz-Target", "").split(".")[-1]
        action = FAULTS.next(op)
        with FAULTS.lock:
            FAULTS.seen.append((op, self.headers.get("amz-sdk-request"),
                                self.headers.get("amz-sdk-invocation-id"), action))
        if action == "throttle":
            return self.answer(400, json.dumps({"__type": "com.amazon.coral.availability#ThrottlingException",
                                                "message": "Rate of requests exceeds the allowed throughput."}).encode(),
                               [("Content-Type", "application/x-amz-json-1.0")])
        if action in ("500", "503"):
            name = "InternalServerError" if action == "500" else "ServiceUnavailable"
            return self.answer(int(action), json.dumps({"__type": f"com.amazonaws.dynamodb.v20120810#{name}",
                                                        "message": "try again"}).encode(),
                               [("Content-Type", "application/x-amz-json-1.0")])
        if action == "reset-before":
            return self.reset()
        conn = http.client.HTTPConnection(*UPSTREAM, timeout=30)
        conn.request("POST", "/", body, {k: v for k, v in self.headers.items()})
        r = conn.getresponse()
        data = r.read()
        headers = [(k, v) for k, v in r.getheaders() if k.lower() not in ("content-length", "connection")]
        conn.close()
        if action == "reset-after":  # the server applied it; the client never hears
            return self.reset()
        if action.startswith("delay:"):
            time.sleep(float(action[6:]))
        if action == "crc":
            headers = [(k, str((zlib.crc32(data) + 1) & 0xFFFFFFFF) if k.lower() == "x-amz-crc32" else v)
                       for k, v in headers]
        self.answer(r.status, data, headers)


class ProxyServer(http.server.ThreadingHTTPServer):
    # A copy opens a connection per request in flight (8 parts of 32) at once: with Python's
    # default listen queue of 5, the kernel dropped handshakes it had answered, and a request
    # sent on such a connection waited out the read timeout.
    request_queue_size = 1024
    daemon_threads = True


with tempfile.TemporaryDirectory() as tmp:
    server = subprocess.Popen([KEYHOLE, "serve", f"{tmp}/s.kh", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    UPSTREAM = ("127.0.0.1", int(line.split("127.0.0.1:")[1].split(" ")[0]))
    proxy = ProxyServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{proxy.server_address[1]}"
    env = {"HOME": tmp, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "AWS_CONFIG_FILE": "/dev/null",
           "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "AWS_EC2_METADATA_DISABLED": "true",
           "AWS_ACCESS_KEY_ID": "AKIDFAULTS", "AWS_SECRET_ACCESS_KEY": "faults"}

    def run(*args, timeout=120):
        start = time.time()
        r = subprocess.run([KEYHOLE, "--endpoint", url, *args], env=env, capture_output=True,
                           text=True, timeout=timeout)
        return r, time.time() - start

    def attempts(op):
        with FAULTS.lock:
            return [s for s in FAULTS.seen if s[0] == op]

    def plan(op, actions):
        with FAULTS.lock:
            FAULTS.plan = {op: list(actions)}
            FAULTS.seen = []

    try:
        plan("none", [])
        r, _ = run("-c", 'CREATE TABLE "Things" (pk S)', "-c", "INSERT INTO \"Things\" VALUE {'pk': 'a', 'n': 0}")
        check("setup", r.returncode == 0, r.stderr)
        get = ["-c", "SELECT n FROM \"Things\" WHERE pk = 'a'"]

        # Throttled twice, then answered: three attempts of one invocation, numbered.
        plan("GetItem", ["throttle", "throttle"])
        r, seconds = run(*get)
        seen = attempts("GetItem")
        check("throttled twice then answered", r.returncode == 0 and '"n":{"N":"0"}' in r.stdout, r.stderr)
        check("attempts numbered", [s[1] for s in seen] == ["attempt=1; max=3", "attempt=2; max=3",
                                                             "attempt=3; max=3"], seen)
        check("one invocation", len({s[2] for s in seen}) == 1 and seen[0][2], seen)
        check("backoff within standard mode's caps", seconds < 1 + 2 + 2, seconds)

        # Throttled past the attempts: the error, saying how many.
        plan("GetItem", ["throttle"] * 5)
        r, _ = run(*get)
        check("throttled to the end", r.returncode == 1 and "ThrottlingException: Rate of requests exceeds "
              "the allowed throughput. (after 3 attempts)" in r.stderr, r.stderr)
        check("three attempts", len(attempts("GetItem")) == 3, attempts("GetItem"))
        plan("GetItem", ["throttle"] * 5)
        r, _ = run("--max-attempts", "5", *get)
        check("--max-attempts 5", r.returncode == 1 and len(attempts("GetItem")) == 5, attempts("GetItem"))

        # 500 and 503 on a read: retried. 500 on a conditional write: not (it may have been applied).
        plan("GetItem", ["500", "503"])
        r, _ = run(*get)
        check("5xx on a read retried", r.returncode == 0 and len(attempts("GetItem")) == 3, r.stderr)
        plan("UpdateItem", ["500"])
        r, _ = run("-c", "UPDATE \"Things\" SET n = n + 1 WHERE pk = 'a'")
        check("500 on an update not retried", r.returncode == 1 and "InternalServerError" in r.stderr and
              len(attempts("UpdateItem")) == 1, (r.stderr, attempts("UpdateItem")))
        plan("UpdateItem", ["503"])
        r, _ = run("-c", "UPDATE \"Things\" SET n = n + 1 WHERE pk = 'a'")
        check("503 on an update retried", r.returncode == 0 and len(attempts("UpdateItem")) == 2, r.stderr)

        # A connection reset once the request was sent: a read is sent again; an update is not
        # (the client cannot tell whether the server applied it), here where it was not ...
        plan("GetItem", ["reset-before"])
        r, _ = run(*get)
        check("reset, read retried", r.returncode == 0 and len(attempts("GetItem")) == 2, r.stderr)
        plan("UpdateItem", ["reset-before"])
        r, _ = run("-c", "UPDATE \"Things\" SET n = n + 1 WHERE pk = 'a'")
        check("reset before, update not sent twice", r.returncode == 1 and "ConnectionClosedError" in
              r.stderr and len(attempts("UpdateItem")) == 1, (r.stderr, attempts("UpdateItem")))
        # ... and where it was: the error says what happened, and it was applied once.
        plan("UpdateItem", ["reset-after"])
        r, _ = run("-c", "UPDATE \"Things\" SET n = n + 1 WHERE pk = 'a'")
        check("reset after, update not sent twice", r.returncode == 1 and "ConnectionClosedError" in
              r.stderr and len(attempts("UpdateItem")) == 1, (r.stderr, attempts("UpdateItem")))
        plan("none", [])
        r, _ = run(*get)
        check("each update applied at most once", '"n":{"N":"2"}' in r.stdout, r.stdout + r.stderr)

        # A read whose answer stalls past the read timeout: retried, then ReadTimeoutError.
        plan("GetItem", ["delay:3", "delay:3"])
        r, seconds = run("--read-timeout", "1", "--max-attempts", "2", *get)
        check("read timeout", r.returncode == 1 and "ReadTimeoutError" in r.stderr and
              len(attempts("GetItem")) == 2 and seconds < 10, (r.stderr, seconds))

        # A damaged x-amz-crc32: retried.
        plan("GetItem", ["crc"])
        r, _ = run(*get)
        check("crc32 mismatch retried", r.returncode == 0 and len(attempts("GetItem")) == 2, r.stderr)
        plan("GetItem", ["crc"] * 3)
        r, _ = run(*get)
        check("crc32 mismatch to the end", r.returncode == 1 and "ChecksumError" in r.stderr, r.stderr)

        # A transaction always carries a ClientRequestToken: reset after it was applied, it is
        # sent again, and the server applies it once.
        plan("TransactWriteItems", ["reset-after"])
        with FAULTS.lock:
            FAULTS.seen = []
        r, _ = run("-c", "BEGIN", "-c", "UPDATE \"Things\" SET n = n + 10 WHERE pk = 'a'", "-c", "COMMIT")
        check("transaction retried with its token", r.returncode == 0 and len(attempts("TransactWriteItems")) == 2,
              (r.stderr, attempts("TransactWriteItems")))
        plan("none", [])
        r, _ = run(*get)
        check("the transaction applied once", '"n":{"N":"12"}' in r.stdout, r.stdout + r.stderr)

        # A copy through a proxy that fails one request in six, with backoff: whole.
        src = f"{tmp}/src.kh"
        with open(f"{tmp}/items.jsonl", "w") as f:
            for i in range(3000):
                f.write(json.dumps({"Item": {"pk": {"S": f"k{i}"}, "v": {"N": str(i)}}}) + "\n")
        subprocess.run([KEYHOLE, src, "-c", 'CREATE TABLE "Copied" (pk S)', "-c",
                        f".import {tmp}/items.jsonl INTO Copied"], env=env, capture_output=True, timeout=60)
        with FAULTS.lock:
            FAULTS.plan = {}
            FAULTS.random_rate = 1 / 6
        r = subprocess.run([KEYHOLE, "copy", src, url, "--max-attempts", "8"], env=env, capture_output=True,
                           text=True, timeout=300)
        with FAULTS.lock:
            FAULTS.random_rate = 0
            failed = sum(1 for s in FAULTS.seen if s[3] != "pass")
        check("copy through faults", r.returncode == 0 and "Copied: read back 3,000 items" in r.stderr,
              r.stderr)
        check("faults happened", failed > 5, failed)
    finally:
        proxy.shutdown()
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=20)

for f in failures:
    print("FAIL", f)
print(f"faults: {'ok' if not failures else str(len(failures)) + ' failed'}")
sys.exit(1 if failures else 0)
