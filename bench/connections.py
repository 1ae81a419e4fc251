#!/usr/bin/env python3
"""keyhole serve holding many idle connections beside a few busy clients, measured in one run
(issue: "keyhole serve holds what a real service holds").

    python3 bench/connections.py [--keyhole build/shell/keyhole] [--idle 10000] [--busy 16]
                                 [--seconds 10]

1. The busy clients alone: BUSY processes, each on its own keep-alive connection, alternate
   PutItem (a key of their own) and GetItem for SECONDS; latency p50 / p99 and requests/s.
2. IDLE more connections opened, each answered once (ListTables), then left idle: the server's
   resident memory before and after, per idle connection.
3. The busy clients again, beside the idle connections: p50 / p99 and requests/s.
4. Every acknowledged write read back (GetItem, strongly consistent); the idle connections
   each answered once more.
"""
import argparse
import multiprocessing
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "serve"))
from wire import read_response, request, send_all_read_all  # noqa: E402


def busy_client(args):
    port, client, seconds = args
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    latencies, acked = [], []
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        key = f"b{client:02d}-{i:07d}"
        if i % 2 == 0:
            req = request("PutItem", {"TableName": "Bench", "Item": {"pk": {"S": key},
                                                                       "v": {"S": "x" * 100}}})
        else:
            req = request("GetItem", {"TableName": "Bench",
                                      "Key": {"pk": {"S": f"b{client:02d}-{i - 1:07d}"}}})
        t0 = time.perf_counter()
        s.sendall(req)
        status, _ = read_response(s)
        latencies.append(time.perf_counter() - t0)
        if status != 200:
            raise SystemExit(f"status {status}")
        if i % 2 == 0:
            acked.append(key)
        i += 1
    s.close()
    return latencies, acked


def run_busy(port, busy, seconds):
    with multiprocessing.Pool(busy) as pool:
        results = pool.map(busy_client, [(port, c, seconds) for c in range(busy)])
    lat = sorted(x for r in results for x in r[0])
    acked = [k for r in results for k in r[1]]
    p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1e6  # noqa: E731
    return {"p50": p(0.50), "p99": p(0.99), "rps": len(lat) / seconds}, acked


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def answer_all(socks, make):
    """How many of `socks` answer make(i) with 200."""
    answered, _ = send_all_read_all(socks, make, seconds=300)
    return sum(1 for status, _ in answered.values() if status == 200)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keyhole", default="build/shell/keyhole")
    ap.add_argument("--idle", type=int, default=10000)
    ap.add_argument("--busy", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = args.idle + args.busy + 100
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    d = tempfile.mkdtemp(prefix="keyhole-connections-bench-")
    server = subprocess.Popen([os.path.abspath(args.keyhole), "serve", f"{d}/bench.kh", "--port",
                               "0", "--max-connections", str(args.idle + args.busy + 100)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().split("listening on ")[1].split(" ")[0]
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(request("CreateTable", {
            "TableName": "Bench", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}))
        read_response(s)
        print(f"keyhole serve at {url}; {os.cpu_count()} cores; {args.busy} busy clients "
              f"(PutItem and GetItem in turn) for {args.seconds:g} s each phase")
        alone, acked1 = run_busy(port, args.busy, args.seconds)
        rss0 = rss_kb(server.pid)
        t0 = time.time()
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(args.idle)]
        first = answer_all(idle, lambda i: request("ListTables", {}))
        opened = time.time() - t0
        time.sleep(1)
        rss1 = rss_kb(server.pid)
        beside, acked2 = run_busy(port, args.busy, args.seconds)
        second = answer_all(idle, lambda i: request("ListTables", {}))
        missing = 0
        for key in acked1 + acked2:
            s.sendall(request("GetItem", {"TableName": "Bench", "Key": {"pk": {"S": key}},
                                          "ConsistentRead": True}))
            status, body = read_response(s)
            missing += status != 200 or b'"Item"' not in body
        print(f"{'':<34}{'p50 µs':>10}{'p99 µs':>10}{'req/s':>10}")
        for name, r in ((f"{args.busy} busy, no idle connections", alone),
                        (f"{args.busy} busy beside {args.idle:,} idle", beside)):
            print(f"{name:<34}{r['p50']:>10.0f}{r['p99']:>10.0f}{r['rps']:>10.0f}")
        print(f"{args.idle:,} idle connections opened and answered in {opened:.1f} s "
              f"({first:,} answered, {second:,} answered again after the busy phase)")
        print(f"server memory: {rss0 / 1024:.1f} MB before them, {rss1 / 1024:.1f} MB with them: "
              f"{(rss1 - rss0) / max(1, args.idle):.1f} KB per idle connection")
        print(f"acknowledged writes: {len(acked1) + len(acked2):,}, missing when read back: "
              f"{missing}")
        for c in idle:
            c.close()
        if missing or first != args.idle or second != args.idle:
            sys.exit(1)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=120)
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
