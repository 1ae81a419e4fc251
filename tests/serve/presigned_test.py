#!/usr/bin/env python3
"""keyhole serve --require-signature verifies what botocore signs (issue 41 §8): a request
signed in its Authorization header, and one presigned in its query string (botocore's
SigV4QueryAuth, as generate_presigned_url signs), each accepted with the right secret and
refused with a wrong one; the authentication errors carry "message" in DynamoDB's casing.

    presigned_test.py KEYHOLE
"""
import json
import os
import signal
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
from harness import check, finish, start_server  # noqa: E402

os.environ["AWS_EC2_METADATA_DISABLED"] = "true"
try:
    from botocore.auth import SigV4Auth, SigV4QueryAuth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
except ImportError:
    print("skipped: botocore is not installed")
    sys.exit(77)

KEYHOLE = sys.argv[1]
KEY, SECRET = "AKIDKEYHOLETEST", "keyhole-secret"


def send(request):
    """(status, JSON body) of a prepared botocore request sent with urllib."""
    data = request.body.encode() if isinstance(request.body, str) else request.body
    req = urllib.request.Request(request.url, data=data, method=request.method,
                                 headers=dict(request.headers))
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def list_tables(url, auth):
    request = AWSRequest(method="POST", url=url + "/", data=b"{}", headers={
        "X-Amz-Target": "DynamoDB_20120810.ListTables",
        "Content-Type": "application/x-amz-json-1.0"})
    auth.add_auth(request)
    return send(request.prepare())


def main():
    tmp = tempfile.mkdtemp(prefix="keyhole-presigned-")
    server, url = start_server(KEYHOLE, f"{tmp}/p.kh", "--require-signature",
                               "--access-key-id", KEY, "--secret-access-key", SECRET)
    try:
        good = Credentials(KEY, SECRET)
        bad = Credentials(KEY, "not-the-secret")
        status, body = list_tables(url, SigV4Auth(good, "dynamodb", "us-east-1"))
        check("header signature accepted", status == 200 and body == {"TableNames": []}, body)
        status, body = list_tables(url, SigV4Auth(bad, "dynamodb", "us-east-1"))
        check("header signature refused", status == 400 and body.get("__type", "").endswith(
            "#InvalidSignatureException") and "message" in body, body)
        # botocore's query signing moves the body into the query string, so the request arrives
        # without one: past the signature, that is DynamoDB's SerializationException.
        status, body = list_tables(url, SigV4QueryAuth(good, "dynamodb", "us-east-1", expires=300))
        check("presigned accepted", status == 400 and body == {
            "__type": "com.amazon.coral.service#SerializationException"}, body)
        status, body = list_tables(url, SigV4QueryAuth(bad, "dynamodb", "eu-west-2", expires=300))
        check("presigned refused", status == 400 and body.get("message", "").startswith(
            "The request signature we calculated does not match"), body)
        status, body = list_tables(url, SigV4QueryAuth(Credentials("AKIDOTHER", SECRET),
                                                       "dynamodb", "us-east-1", expires=300))
        check("presigned with an unknown key", body == {
            "__type": "com.amazon.coral.service#UnrecognizedClientException",
            "message": "The security token included in the request is invalid."}, body)
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
    finish("serve signatures")


if __name__ == "__main__":
    main()
