#!/usr/bin/env python3
"""keyhole serve beside slow clients (issue 42 §9), measured in one run:

    python3 bench/slow_clients.py [--keyhole build/shell/keyhole] [--slow 500]
                                  [--max-connections 600] [--busy 4] [--seconds 10]
                                  [--request-timeout 4]

1. BUSY normal clients alone (PutItem and GetItem in turn on their own keep-alive connections,
   as bench/connections.py runs them) for SECONDS: p50 / p99 and requests/s.
2. The same beside SLOW connections dribbling their headers a byte a second each (reconnecting
   when the server cuts one at --request-timeout, as an attacker would), at --max-connections:
   p50 / p99 and requests/s, and the ratio of the two p99s (the issue asks for 2x at most).
3. The server's resident memory before the slow clients, with them, and after they leave
   (keyhole hands freed connection buffers back once most of a crowd has gone), and what the
   server's log said about them.
"""
import argparse
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "serve"))
from connections import rss_kb, run_busy  # noqa: E402
from wire import read_response, request  # noqa: E402


class Dribblers:
    """COUNT connections each sending a header byte a second; a connection the server closes is
    opened again. Counts the closes and the 408 answers seen before them."""

    def __init__(self, port, count):
        self.port, self.count = port, count
        self.socks, self.stop, self.answered, self.cut = [], False, 0, 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def open_one(self):
        s = socket.create_connection(("127.0.0.1", self.port))
        s.setblocking(False)
        s.send(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        return s

    def start(self):
        self.socks = [self.open_one() for _ in range(self.count)]
        self.thread.start()

    def run(self):
        while not self.stop:
            t0 = time.time()
            for i, s in enumerate(self.socks):
                try:
                    data = s.recv(4096)
                    if data.startswith(b"HTTP/1.1 408"):
                        self.answered += 1
                    gone = True  # answered, or closed
                except BlockingIOError:
                    gone = False
                except OSError:
                    gone = True
                if not gone:
                    try:
                        s.send(b"a")
                        continue
                    except OSError:
                        pass
                s.close()
                self.cut += 1
                if not self.stop:
                    self.socks[i] = self.open_one()
            time.sleep(max(0.0, 1.0 - (time.time() - t0)))

    def close(self):
        self.stop = True
        self.thread.join()
        for s in self.socks:
            s.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keyhole", default="build/shell/keyhole")
    ap.add_argument("--slow", type=int, default=500)
    ap.add_argument("--max-connections", type=int, default=600)
    ap.add_argument("--busy", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--request-timeout", type=int, default=4)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.slow + args.busy + 100
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    d = tempfile.mkdtemp(prefix="keyhole-slow-clients-bench-")
    log_path = f"{d}/serve.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [os.path.abspath(args.keyhole), "serve", f"{d}/bench.kh", "--port", "0",
             "--max-connections", str(args.max_connections), "--request-timeout",
             str(args.request_timeout)], stdout=subprocess.PIPE, stderr=log, text=True)
    status = 0
    try:
        url = server.stdout.readline().split("listening on ")[1].split(" ")[0]
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(request("CreateTable", {
            "TableName": "Bench", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}))
        read_response(s)
        s.close()
        print(f"keyhole serve at {url} --max-connections {args.max_connections} "
              f"--request-timeout {args.request_timeout}; {os.cpu_count()} cores; {args.busy} "
              f"normal clients (PutItem and GetItem in turn) for {args.seconds:g} s each phase")
        alone, _ = run_busy(port, args.busy, args.seconds)
        rss0 = rss_kb(server.pid)
        slow = Dribblers(port, args.slow)
        slow.start()
        time.sleep(1)
        beside, _ = run_busy(port, args.busy, args.seconds)
        rss1 = rss_kb(server.pid)
        slow.close()
        time.sleep(3)  # the server notices the closes; the next look trims
        rss2 = rss_kb(server.pid)
        print(f"{'':<44}{'p50 µs':>10}{'p99 µs':>10}{'req/s':>10}")
        for name, r in ((f"{args.busy} normal clients alone", alone),
                        (f"{args.busy} beside {args.slow} dribbling headers", beside)):
            print(f"{name:<44}{r['p50']:>10.0f}{r['p99']:>10.0f}{r['rps']:>10.0f}")
        ratio = beside["p99"] / max(1e-9, alone["p99"])
        print(f"p99 beside the slow clients / p99 alone: {ratio:.2f}x (asked: 2x at most)")
        print(f"slow connections the server closed: {slow.cut:,} ({slow.answered:,} read a 408 "
              f"first), each opened again")
        print(f"server memory: {rss0 / 1024:.1f} MB before the slow clients, {rss1 / 1024:.1f} MB "
              f"with them, {rss2 / 1024:.1f} MB after they left")
        if ratio > 2:
            status = 1
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=120)
        with open(log_path) as f:
            lines = [line.rstrip() for line in f if "keyhole serve:" in line]
        print("the server's log:")
        for line in lines[:6] + (["..."] if len(lines) > 8 else []) + lines[max(6, len(lines) - 2):]:
            print(f"  {line}")
        shutil.rmtree(d, ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
