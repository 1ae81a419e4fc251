#!/usr/bin/env python3
"""keyhole serve holds thousands of connections (issue: "keyhole serve holds what a real
service holds"), driven with plain sockets so that nothing is pooled or retried for it:

  - 2,000 keep-alive connections open at once: each answered (ListTables), then each answered
    again with a write (PutItem of its own key); the 2,000 items are all there afterwards;
  - past --max-connections, new connections wait to be accepted and are answered once others
    close: none is reset;
  - clients that dribble their headers or their body, or send nothing, hold no worker: other
    requests are answered at once meanwhile;
  - an idle connection is closed after --idle-timeout;
  - slow clients (issue 42 §9): headers dribbled in, a partial request gone silent and a body
    dribbled in are each answered 408 RequestTimeoutException and closed about --request-timeout
    after their first byte; at --max-connections, 55 dribbling clients do not keep a normal
    request out (the oldest incomplete ones are closed, and the log says so).

    connections_test.py KEYHOLE
"""
import json
import os
import resource
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, start_server  # noqa: E402
from wire import read_response, request, send_all_read_all  # noqa: E402

KEYHOLE = sys.argv[1]


def round_trip(socks, make_request, what, expect=200):
    """Sends a request on every socket at once and checks that each is answered `expect`."""
    answered, errors = send_all_read_all(socks, make_request)
    ok = sum(1 for st, _ in answered.values() if st == expect)
    check(f"{what}: every connection answered {expect}", ok == len(socks) and not errors,
          f"{ok} of {len(socks)} answered {expect}; errors: {errors[:5]}; "
          f"statuses: {sorted(set(st for st, _ in answered.values()))}")
    return answered


def connect(port, n):
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        socks.append(s)
    return socks


def port_of(url):
    return int(url.rsplit(":", 1)[1].rstrip("/"))


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 2200
    if soft < want:
        if hard != resource.RLIM_INFINITY and hard < want:
            print(f"skipped: this process may open only {hard} files (2,200 needed)")
            sys.exit(77)
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    tmp = tempfile.mkdtemp(prefix="keyhole-connections-")

    # 1. 2,000 keep-alive connections, answered twice.
    server, url = start_server(KEYHOLE, f"{tmp}/many.kh")
    port = port_of(url)
    try:
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(request("CreateTable", {
            "TableName": "Conns", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}))
        st, body = read_response(s)
        check("create the table", st == 200, body)
        s.close()
        t0 = time.time()
        socks = connect(port, 2000)
        opened = time.time() - t0
        answers = round_trip(socks, lambda i: request("ListTables", {}), "2,000 connections")
        check("ListTables answers", all(b"Conns" in b for _, b in answers.values()),
              "a ListTables answer without the table")
        round_trip(socks, lambda i: request("PutItem", {
            "TableName": "Conns", "Item": {"pk": {"S": f"c{i:05d}"}, "n": {"N": str(i)}}}),
            "2,000 connections again (writes)")
        print(f"2,000 connections opened in {opened:.1f} s, each answered twice "
              f"({time.time() - t0:.1f} s in all)")
        count, start = 0, None
        while True:
            body = {"TableName": "Conns", "Select": "COUNT", "ConsistentRead": True}
            if start:
                body["ExclusiveStartKey"] = start
            socks[0].sendall(request("Scan", body))
            st, b = read_response(socks[0])
            r = json.loads(b)
            count += r.get("Count", 0)
            start = r.get("LastEvaluatedKey")
            if not start:
                break
        check("every acknowledged write is there", count == 2000, count)
        for s in socks:
            s.close()
    finally:
        server.terminate()
        server.wait(timeout=60)

    # 2. Past --max-connections: waiting, not reset.
    server, url = start_server(KEYHOLE, f"{tmp}/limited.kh", "--max-connections", "50")
    port = port_of(url)
    try:
        first = connect(port, 50)
        round_trip(first, lambda i: request("ListTables", {}), "the first 50")
        # 30 more: the kernel completes their handshakes (the listen queue), keyhole does not
        # accept them yet, so their requests wait.
        more = connect(port, 30)
        for s in more:
            s.sendall(request("ListTables", {}))
        time.sleep(0.5)
        waiting = 0
        for s in more:
            s.setblocking(False)
            try:
                data = s.recv(1)
                if data == b"":
                    check("a connection past the limit is not closed", False, "closed")
            except BlockingIOError:
                waiting += 1
            except ConnectionResetError:
                check("a connection past the limit is not reset", False, "reset")
            s.setblocking(True)
        check("connections past the limit wait", waiting == 30, f"{waiting} of 30 waiting")
        for s in first[:30]:
            s.close()
        answered = 0
        for s in more:
            st, body = read_response(s, timeout=30)
            answered += st == 200
        check("the waiting connections are answered once others close", answered == 30,
              f"{answered} of 30")
        for s in first[30:] + more:
            s.close()
    finally:
        server.terminate()
        server.wait(timeout=60)

    # 3. Slow clients hold no worker; 4. idle connections are closed.
    server, url = start_server(KEYHOLE, f"{tmp}/slow.kh", "--idle-timeout", "2")
    port = port_of(url)
    try:
        stalled = connect(port, 200)
        full = request("Scan", {"TableName": "Nope"})  # a request that goes to a worker
        for i, s in enumerate(stalled):
            # Headers cut short, a body cut short, or nothing at all.
            s.sendall(full[: [20, len(full) - 5, 0][i % 3]])
        t0 = time.time()
        busy = connect(port, 16)
        answers = round_trip(busy, lambda i: request("Scan", {"TableName": "Nope"}),
                             "16 requests beside 200 stalled clients", expect=400)
        check("answered as DynamoDB (no such table)",
              all(b"ResourceNotFoundException" in b for _, b in answers.values()), answers)
        elapsed = time.time() - t0
        check("answered at once beside stalled clients", elapsed < 1.5, f"{elapsed:.2f} s")
        print(f"16 requests beside 200 stalled clients answered in {elapsed * 1000:.0f} ms")
        # The stalled ones and the idle ones are closed after the idle timeout.
        time.sleep(3.5)
        closed = 0
        for s in stalled + busy:
            s.settimeout(2)
            try:
                data = s.recv(65536)
                closed += data == b"" or data.startswith(b"HTTP/1.1 4")
            except (ConnectionResetError, socket.timeout):
                pass
        check("stalled and idle connections closed after --idle-timeout", closed == 216,
              f"{closed} of 216 closed")
        for s in stalled + busy:
            s.close()
    finally:
        server.terminate()
        server.wait(timeout=60)
    slow_clients(tmp)
    finish("serve connections")


def dribble(s, data, gap, until):
    """Sends `data` a byte every `gap` seconds until the server answers or closes, or `until`;
    (what came back, seconds from the first byte to the answer or the close)."""
    t0 = time.time()
    s.setblocking(False)
    got = b""
    i = 0
    while time.time() < until:
        if i < len(data):
            try:
                s.send(data[i:i + 1])
                i += 1
            except BlockingIOError:
                pass
            except OSError:
                break
        deadline = time.time() + gap
        closed = False
        while time.time() < deadline:
            try:
                chunk = s.recv(65536)
                if not chunk:
                    closed = True
                    break
                got += chunk
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:
                closed = True
                break
        if closed:
            break
    return got, time.time() - t0


def slow_clients(tmp):
    server, url = start_server(KEYHOLE, f"{tmp}/dribble.kh", "--request-timeout", "2",
                               "--idle-timeout", "30", "--max-connections", "50")
    port = port_of(url)
    try:
        # A request with a 210-byte body: dribbled, none of these arrives whole in 2 s.
        full = request("ListTables", {"ExclusiveStartTableName": "t" * 170})
        head_end = full.index(b"\r\n\r\n") + 4
        cases = [  # what, sent at once, then dribbled a byte every GAP seconds
            ("headers dribbled in", b"", full, 0.1),
            ("a partial request gone silent", full[:30], b"", 0.1),
            ("a body dribbled in", full[:head_end], full[head_end:], 0.1),
        ]
        for what, at_once, data, gap in cases:
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            s.sendall(at_once)
            got, took = dribble(s, data, gap, time.time() + 15)
            s.close()
            check(f"{what}: answered 408 RequestTimeoutException",
                  got.startswith(b"HTTP/1.1 408") and b"RequestTimeoutException" in got, got[:200])
            check(f"{what}: cut at the request timeout (2 s), not the idle timeout (30 s)",
                  1.8 <= took <= 4.5, f"{took:.2f} s")
        # At the connection limit: 55 clients dribbling headers, and then a normal request.
        slow = connect(port, 55)
        for s in slow:
            s.sendall(b"POST / HTTP/1.1\r\nX-A: ")
        time.sleep(1.2)
        t0 = time.time()
        normal = socket.create_connection(("127.0.0.1", port), timeout=30)
        normal.sendall(request("ListTables", {}))
        status, _ = read_response(normal, timeout=10)
        took = time.time() - t0
        normal.close()
        check("a normal request at the connection limit beside 55 dribbling clients is answered",
              status == 200 and took < 4, f"status {status} after {took:.2f} s")
        for s in slow:
            s.close()
    finally:
        server.terminate()
        _, err = server.communicate(timeout=60)
    check("the log says the connection limit closed incomplete requests",
          "keyhole serve: at the connection limit (50): closed " in err, err)
    check("the log says requests were cut at the request timeout",
          "did not arrive whole within 2 s: answered 408 and closed" in err, err)
    check("the stop line counts the cuts", "cut at the request timeout" in err, err)


if __name__ == "__main__":
    main()
