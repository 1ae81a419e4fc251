#!/usr/bin/env python3
"""keyhole's SigV4 signer (aws/sigv4.h, through keyhole_sigv4_tool) against botocore's on random
requests: methods, paths, query strings, header names and values with odd spacing and case,
Unicode and binary bodies, session tokens with '/' '+' and '=', regions and services. Every
Authorization header must be identical.
Usage: sigv4_botocore_test.py SIGV4_TOOL [COUNT]
"""
import base64
import datetime
import json
import random
import string
import subprocess
import sys

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

TOOL = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 500
rnd = random.Random(20261127)


def word(chars, low, high):
    return "".join(rnd.choice(chars) for _ in range(rnd.randint(low, high)))


def header_value():
    # Printable ASCII with runs of blanks inside and around (SigV4 trims and folds them).
    parts = [word(string.ascii_letters + string.digits + "-_.~:/=+,;()@!*'", 1, 12)
             for _ in range(rnd.randint(1, 4))]
    return (" " * rnd.randint(0, 2)) + (" " * rnd.randint(1, 3)).join(parts) + (" " * rnd.randint(0, 2))


cases = []
for i in range(COUNT):
    method = rnd.choice(["POST", "GET", "PUT", "DELETE"])
    path = "/" + "/".join(word(string.ascii_lowercase + string.digits + "-_.~", 1, 8)
                          for _ in range(rnd.randint(0, 3)))
    params = sorted({word(string.ascii_lowercase, 1, 5): word(string.ascii_letters + string.digits, 0, 6)
                     for _ in range(rnd.randint(0, 3))}.items()) if method == "GET" else []
    query = "&".join(f"{k}={v}" for k, v in params)
    host = rnd.choice(["dynamodb.us-east-1.amazonaws.com", "localhost:8000", "127.0.0.1:4567",
                       "streams.dynamodb.eu-west-3.amazonaws.com"])
    headers = {"Host": host}
    for _ in range(rnd.randint(0, 5)):
        name = rnd.choice(["X-Amz-Target", "Content-Type", "x-custom-" + word(string.ascii_lowercase, 1, 6),
                           "X-Mixed-" + word(string.ascii_letters, 1, 4), "amz-sdk-request", "User-Agent"])
        headers[name] = header_value()
    body_text = rnd.choice(["", "{}", json.dumps({"TableName": "Tä" + word(string.ascii_letters, 0, 5),
                                                  "Key": {"pk": {"S": "ü€😀" * rnd.randint(0, 3)}}},
                                                 ensure_ascii=False)])
    body = body_text.encode() if rnd.random() < 0.8 else bytes(rnd.getrandbits(8) for _ in range(rnd.randint(0, 64)))
    token = rnd.choice(["", "FQoGZXIvYXdzE" + word(string.ascii_letters + string.digits + "/+=", 20, 80)])
    region = rnd.choice(["us-east-1", "eu-west-1", "ap-southeast-2", "local", "cn-north-1"])
    service = rnd.choice(["dynamodb", "sts", "dynamodb"])
    key = "AKIA" + word(string.ascii_uppercase + string.digits, 16, 16)
    secret = word(string.ascii_letters + string.digits + "/+", 40, 40)

    url = f"https://{host}{path}" + (f"?{query}" if query else "")
    request = AWSRequest(method=method, url=url, headers=dict(headers), data=body)
    # botocore signs at the current time (older releases read datetime.utcnow, newer ones a
    # helper of their own): the time it signed at goes to keyhole's signer.
    SigV4Auth(Credentials(key, secret, token or None), service, region).add_auth(request)
    expected = request.headers["Authorization"]
    signed_at = datetime.datetime.strptime(request.headers["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
    epoch = (signed_at - datetime.datetime(1970, 1, 1)).total_seconds()
    cases.append((json.dumps({"method": method, "path": path, "query": query,
                              "headers": [[k, v] for k, v in headers.items()],
                              "body": base64.b64encode(body).decode(), "key": key, "secret": secret,
                              "token": token, "region": region, "service": service,
                              "time": int(epoch)}), expected))

out = subprocess.run([TOOL], input="\n".join(c[0] for c in cases) + "\n", capture_output=True,
                     text=True, timeout=120)
got = out.stdout.splitlines()
failures = 0
for (request, expected), actual in zip(cases, got):
    if actual != expected:
        failures += 1
        if failures <= 3:
            print(f"FAIL {request}\n  botocore: {expected}\n  keyhole:  {actual}")
if len(got) != len(cases):
    failures += 1
    print(f"FAIL the tool answered {len(got)} of {len(cases)} requests: {out.stderr}")
print(f"sigv4 vs botocore: {len(cases) - failures} of {len(cases)} identical")
sys.exit(1 if failures else 0)
