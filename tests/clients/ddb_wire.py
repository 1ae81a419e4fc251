"""A small DynamoDB client over http.client, for the tests and load scripts that drive
`keyhole serve` harder than boto3 can on two cores: SigV4-signed requests (the server may run
with --require-signature), keep-alive connections replaced before the server's 5 s idle close,
every response's x-amz-crc32 checked, errors raised with DynamoDB's error code.

Used by tests/clients/two_process_test.py and bench/load_test.py.
"""
import datetime
import hashlib
import hmac
import http.client
import json
import time
import zlib

IDLE_RECONNECT = 2.0  # a connection idle longer is replaced (the server closes idle ones at 5 s)
REGION = "us-east-1"


class DdbError(Exception):
    """A non-200 answer (or one whose CRC or JSON is wrong): code is DynamoDB's error name."""

    def __init__(self, status, code, message, body):
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status, self.code, self.body = status, code, body


class Ambiguous(Exception):
    """No answer: the request may or may not have been applied."""


class Ddb:
    """One keep-alive connection to keyhole serve on 127.0.0.1:port, signing with the keys."""

    def __init__(self, port, timeout, access_key, secret_key, requests_per_connection=0):
        self.port, self.timeout = port, timeout
        self.access_key, self.secret_key = access_key, secret_key
        self.host = f"127.0.0.1:{port}"
        self.requests_per_connection = requests_per_connection
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.on_conn = 0
        self.last_used = time.monotonic()
        self._day, self._key = None, None

    def _sign(self, target, body):
        amz_date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        day = amz_date[:8]
        if day != self._day:
            k = hmac.new(("AWS4" + self.secret_key).encode(), day.encode(), hashlib.sha256).digest()
            for part in (REGION, "dynamodb", "aws4_request"):
                k = hmac.new(k, part.encode(), hashlib.sha256).digest()
            self._day, self._key = day, k
        signed = "content-type;host;x-amz-date;x-amz-target"
        canonical = (f"POST\n/\n\ncontent-type:application/x-amz-json-1.0\nhost:{self.host}\n"
                     f"x-amz-date:{amz_date}\nx-amz-target:{target}\n\n{signed}\n"
                     f"{hashlib.sha256(body).hexdigest()}")
        scope = f"{day}/{REGION}/dynamodb/aws4_request"
        to_sign = (f"AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n"
                   f"{hashlib.sha256(canonical.encode()).hexdigest()}")
        signature = hmac.new(self._key, to_sign.encode(), hashlib.sha256).hexdigest()
        return {
            "Host": self.host,
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": target,
            "X-Amz-Date": amz_date,
            "Authorization": f"AWS4-HMAC-SHA256 Credential={self.access_key}/{scope}, "
                             f"SignedHeaders={signed}, Signature={signature}",
        }

    def call(self, operation, request):
        """The response JSON; DdbError for a non-200 answer; Ambiguous for no answer."""
        body = json.dumps(request).encode()
        target = "DynamoDB_20120810." + operation
        now = time.monotonic()
        if now - self.last_used > IDLE_RECONNECT or (
                self.requests_per_connection and self.on_conn >= self.requests_per_connection):
            self.conn.close()  # http.client opens a new connection on the next request
            self.on_conn = 0
        try:
            self.conn.request("POST", "/", body=body, headers=self._sign(target, body))
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            raise Ambiguous(f"{type(e).__name__}: {e}") from None
        self.last_used = time.monotonic()
        self.on_conn += 1
        crc = response.getheader("x-amz-crc32")
        if crc is None or int(crc) != zlib.crc32(raw):
            raise DdbError(response.status, "BadCrc32", f"x-amz-crc32 {crc} for {raw[:200]!r}", raw)
        try:
            out = json.loads(raw) if raw else {}
        except ValueError:
            raise DdbError(response.status, "NotJson", raw[:200], raw) from None
        if response.status != 200:
            code = str(out.get("__type", "?")).split("#")[-1]
            raise DdbError(response.status, code, out.get("message", out.get("Message")), out)
        return out

    def query_all(self, request):
        """Every item a Query returns, following LastEvaluatedKey through all pages."""
        items, start = [], None
        while True:
            req = dict(request, ExclusiveStartKey=start) if start else request
            out = self.call("Query", req)
            items += out["Items"]
            start = out.get("LastEvaluatedKey")
            if not start:
                return items

    def close(self):
        self.conn.close()
