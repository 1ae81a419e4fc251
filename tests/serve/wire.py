"""DynamoDB requests over plain sockets, with nothing pooled or retried, for the tests and the
bench that hold many connections to keyhole serve (connections_test.py,
bench/connections.py)."""
import json
import selectors
import time


def request(target, body):
    """The bytes of a DynamoDB_20120810.TARGET request with JSON `body` (signed for us-east-1 in
    form only: serve does not check signatures unless told to)."""
    data = json.dumps(body).encode()
    head = (f"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: DynamoDB_20120810.{target}\r\n"
            "Content-Type: application/x-amz-json-1.0\r\n"
            "Authorization: AWS4-HMAC-SHA256 Credential=AKID/20260101/us-east-1/dynamodb/"
            "aws4_request, SignedHeaders=host, Signature=00\r\n"
            f"Content-Length: {len(data)}\r\n\r\n")
    return head.encode() + data


def parse(buf):
    """(status, body) of the response at the start of `buf`, or None while it is incomplete."""
    head, sep, rest = buf.partition(b"\r\n\r\n")
    if not sep:
        return None
    lines = head.decode().split("\r\n")
    length = 0
    for line in lines[1:]:
        k, _, v = line.partition(":")
        if k.strip().lower() == "content-length":
            length = int(v)
    if len(rest) < length:
        return None
    return int(lines[0].split()[1]), rest[:length]


def read_response(sock, timeout=30):
    """(status, body) of one response read from a blocking socket; (None, error) on failure."""
    if sock.gettimeout() != timeout:
        sock.settimeout(timeout)
    buf = b""
    try:
        while True:
            got = parse(buf)
            if got:
                return got
            chunk = sock.recv(65536)
            if not chunk:
                return None, "closed before a whole response"
            buf += chunk
    except OSError as e:
        return None, repr(e)


def send_all_read_all(socks, make_request, seconds=120):
    """Sends make_request(i) on every socket at once, then reads every answer (selectors):
    {i: (status, body)} of the answered ones, and a list of errors."""
    errors = []
    for i, s in enumerate(socks):
        try:
            s.sendall(make_request(i))
        except OSError as e:
            errors.append(f"{i}: send {e!r}")
    sel = selectors.DefaultSelector()
    bufs = {}
    for i, s in enumerate(socks):
        s.setblocking(False)
        sel.register(s, selectors.EVENT_READ, i)
        bufs[i] = b""
    answered = {}
    deadline = time.time() + seconds
    while len(answered) + len(errors) < len(socks) and time.time() < deadline:
        for key, _ in sel.select(timeout=1):
            i = key.data
            try:
                chunk = key.fileobj.recv(65536)
            except OSError as e:
                chunk, error = b"", repr(e)
            else:
                error = "closed"
            if not chunk:
                errors.append(f"{i}: {error}")
                sel.unregister(key.fileobj)
                continue
            bufs[i] += chunk
            got = parse(bufs[i])
            if got:
                answered[i] = got
                sel.unregister(key.fileobj)
    sel.close()
    for s in socks:
        s.setblocking(True)
    return answered, errors
