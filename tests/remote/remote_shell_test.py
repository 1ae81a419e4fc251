#!/usr/bin/env python3
"""The shell on an endpoint (keyhole --endpoint/--region/--profile, run as keyhole-remote) against
`keyhole serve` over HTTPS with signatures required: statements, the credential chain from a
temporary HOME, --readonly, confirmations (scripts need --yes; the REPL asks, through a
pseudo-terminal), local-only commands, and the errors a user meets: an unreachable endpoint, an
unknown host, an untrusted certificate, a server that does not speak DynamoDB, a wrong secret,
expired credentials. No secret may appear in any output or in the history file.

Usage: remote_shell_test.py KEYHOLE TLS_DIR
"""
import http.server
import os
import pty
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, free_port, start_server  # noqa: E402

KEYHOLE, TLS = sys.argv[1], sys.argv[2]
SECRET = "s3cr3t/ForRemoteShellTest+xyz"
KEY = "AKIDREMOTESHELLTEST"


with tempfile.TemporaryDirectory() as home:
    os.makedirs(f"{home}/.aws")
    with open(f"{home}/.aws/credentials", "w") as f:
        f.write(f"[test]\naws_access_key_id = {KEY}\naws_secret_access_key = {SECRET}\n"
                f"[wrong]\naws_access_key_id = {KEY}\naws_secret_access_key = not-the-secret\n")
    with open(f"{home}/.aws/config", "w") as f:
        f.write("[profile test]\nregion = eu-west-1\n[profile wrong]\nregion = eu-west-1\n")
    base_env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "AWS_EC2_METADATA_DISABLED": "true", "AWS_CA_BUNDLE": f"{TLS}/ca.pem",
                "KEYHOLE_HISTORY": f"{home}/history"}
    server, url = start_server(KEYHOLE, f"{home}/s.kh", "--tls-cert", f"{TLS}/server.pem", "--tls-key",
                               f"{TLS}/server.key", "--require-signature", "--access-key-id", KEY,
                               "--secret-access-key", SECRET, "--log")
    outputs = []  # every output, searched for the secret at the end

    def run(args, env_extra=None, stdin=None):
        env = dict(base_env)
        env.update(env_extra or {})
        r = subprocess.run([KEYHOLE, *args], env=env, input=stdin, capture_output=True,
                           text=True, timeout=60)
        outputs.append(r.stdout + r.stderr)
        return r

    try:
        ep = ["--endpoint", url, "--profile", "test"]
        r = run(ep + ["--mode", "csv", "-c", 'CREATE TABLE "Music" (Artist S, Song S)',
                      "-c", "INSERT INTO \"Music\" VALUE {'Artist': 'a', 'Song': 's1', 'n': 1}",
                      "-c", "INSERT INTO \"Music\" VALUE {'Artist': 'a', 'Song': 's2', 'n': 2}",
                      "-c", "SELECT Song, n FROM \"Music\" WHERE Artist = 'a'"])
        check("statements", r.returncode == 0 and r.stdout == "Song,n\ns1,1\ns2,2\n",
              f"{r.returncode} {r.stdout!r} {r.stderr!r}")
        check("footer from the endpoint", "-- 2 returned, 2 read · Query on Music · 0.5 RCU" in
              r.stderr, r.stderr)
        r = run(ep + ["-c", "SELECT * FROM \"Music\" WHERE n = 1"])
        check("refusal rule", r.returncode == 1 and "keyhole refuses to scan" in r.stderr, r.stderr)
        r = run(ep + ["-c", 'SCAN SELECT * FROM "Music"'])
        check("scan says its size", "-- Scan of Music on " in r.stderr and "2 items" in r.stderr,
              r.stderr)
        r = run(ep + ["-c", ".tables", "-c", 'DESCRIBE "Music"', "-c", 'SHOW CREATE TABLE "Music"'])
        check("tables, describe, show create", r.returncode == 0 and '"TableName":"Music"' in
              r.stdout.replace(" ", "") and 'CREATE TABLE "Music"' in r.stdout, r.stdout + r.stderr)
        for command in [".clock 2030-01-01", ".ttl sweep", ".check"]:
            r = run(ep + ["-c", command])
            check(f"{command} says it is for a file", r.returncode == 1 and
                  "is for a keyhole file: this shell is connected to " + url in r.stderr, r.stderr)
        # --readonly: refused before anything is sent (the server logs every request it gets).
        before = server_log_lines = None
        r = run(ep + ["--readonly", "-c", "INSERT INTO \"Music\" VALUE {'Artist': 'b', 'Song': 'x'}",
                      "-c", 'DROP TABLE "Music"', "-c", "UPDATE \"Music\" SET n = 5 WHERE Artist = 'a' "
                      "AND Song = 's1'"])
        check("readonly", r.returncode == 1 and r.stderr.count("keyhole was started with "
              "--readonly") == 3, r.stderr)
        r = run(ep + ["-c", "SELECT n FROM \"Music\" WHERE Artist = 'a' AND Song = 's1'"])
        check("readonly wrote nothing", '"n":{"N":"1"}' in r.stdout, r.stdout)
        # Scripts need --yes for DROP TABLE and SCAN DELETE.
        r = run(ep + ["-c", 'SCAN DELETE FROM "Music" WHERE n = 2', "-c", 'DROP TABLE "Music"'])
        check("scripts need --yes", r.returncode == 1 and r.stderr.count("run keyhole with --yes") == 2,
              r.stderr)
        r = run(ep + ["--yes", "-c", 'SCAN DELETE FROM "Music" WHERE n = 2'])
        check("--yes", r.returncode == 0 and "-- 1 written, 2 read · Scan, then DeleteItem" in
              r.stderr, r.stderr)

        # The REPL: its banner and prompt say where it is; DROP TABLE asks for the table's name.
        env = dict(base_env)
        env["TERM"] = "dumb"
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(KEYHOLE, [KEYHOLE, *ep], env)
        seen = b""

        def wait_for(text, timeout=15):
            global seen
            deadline = time.time() + timeout
            while text.encode() not in seen and time.time() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.2)
                if ready:
                    try:
                        seen += os.read(fd, 65536)
                    except OSError:
                        break
            return text.encode() in seen

        host = url.split("://")[1].rstrip("/")
        prompt = f"keyhole@test:{host}> "
        check("repl prompt", wait_for(prompt), seen.decode(errors="replace"))
        banner = seen.decode(errors="replace")
        check("repl banner", url in banner and "region eu-west-1 from profile test" in banner and
              "profile test" in banner and "credentials from profile test in" in banner, banner)
        os.write(fd, b'DROP TABLE "Music";\r')
        check("repl asks", wait_for("Type the table's name to go on: "), seen.decode(errors="replace"))
        os.write(fd, b"Musik\r")
        check("repl declined", wait_for("-- DROP TABLE was not run"), seen.decode(errors="replace"))
        os.write(fd, b'DROP TABLE "Music";\r')
        seen = b""
        check("repl asks again", wait_for("Type the table's name to go on: "))
        os.write(fd, b"Music\r")
        check("repl dropped", wait_for("-- table Music dropped"), seen.decode(errors="replace"))
        os.write(fd, b".quit\r")
        os.waitpid(pid, 0)
        os.close(fd)
        outputs.append(banner + seen.decode(errors="replace"))

        # Errors a user meets, each saying what to check.
        r = run(["--endpoint", f"https://127.0.0.1:{free_port()}", "--profile", "test",
                 "--max-attempts", "2", "-c", ".tables"])
        check("refused", r.returncode == 1 and "EndpointConnectionError: Could not connect to the "
              "endpoint URL" in r.stderr and "is the server running" in r.stderr, r.stderr)
        r = run(["--endpoint", "https://no-such-host.invalid", "--profile", "test", "-c", ".tables"])
        check("unknown host", "EndpointConnectionError" in r.stderr and "has no address" in r.stderr,
              r.stderr)
        r = run(ep + ["-c", ".tables"], {"AWS_CA_BUNDLE": "/etc/ssl/certs/ca-certificates.crt"})
        check("untrusted certificate", "SSLError: SSL validation failed" in r.stderr and
              "--ca-bundle" in r.stderr, r.stderr)
        r = run(["--endpoint", url, "--profile", "wrong", "-c", ".tables"])
        check("wrong secret", "InvalidSignatureException" in r.stderr and "hint: keyhole signed with "
              "the credentials from profile wrong" in r.stderr, r.stderr)
        r = run(["--endpoint", url, "-c", ".tables"],
                {"AWS_ACCESS_KEY_ID": KEY, "AWS_SECRET_ACCESS_KEY": SECRET,
                 "AWS_CREDENTIAL_EXPIRATION": "2020-01-01T00:00:00Z"})
        check("expired credentials", r.returncode == 1 and "ExpiredTokenException" in r.stderr and
              "expired at 2020-01-01T00:00:00Z" in r.stderr, r.stderr)
        r = run(["--region", "eu-west-1", "-c", ".tables"],
                {"AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"})
        check("no credentials for AWS", r.returncode == 1 and "NoCredentialsError: Unable to locate "
              "credentials" in r.stderr and "the environment (AWS_ACCESS_KEY_ID is not set)" in
              r.stderr, r.stderr)
        r = run(["--profile", "ghost", "-c", ".tables"])
        check("missing profile", r.returncode == 1 and "The config profile (ghost) could not be found"
              in r.stderr, r.stderr)

        # A server that is not DynamoDB.
        class NotDynamo(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = b"<html>hello</html>"
                self.send_response(404)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        other = http.server.HTTPServer(("127.0.0.1", 0), NotDynamo)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        r = run(["--endpoint", f"http://127.0.0.1:{other.server_address[1]}", "--profile", "test",
                 "-c", ".tables"])
        check("not DynamoDB", r.returncode == 1 and "a DynamoDB endpoint?" in r.stderr, r.stderr)
        other.shutdown()

        # A sample's schema, access patterns and stream, through the endpoint.
        samples = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples")
        r = run(ep + ["--yes", "-f", f"{samples}/social/schema.sql"])
        check("sample schema", r.returncode == 0, r.stderr)
        r = run(ep + ["--yes", "--mode", "table", "--patterns", f"{samples}/social/patterns.sql"])
        check("sample patterns", r.returncode == 0 and "-- 16 patterns: 13 key-addressed, 3 refused as "
              "expected" in r.stdout + r.stderr, r.stdout[-600:] + r.stderr[-600:])
        r = run(ep + ["-c", 'CREATE TABLE "Feed" (id S) STREAM NEW_IMAGE',
                      "-c", "INSERT INTO \"Feed\" VALUE {'id': 'x', 'n': 7}", "-c", ".stream Feed"])
        check("stream records", r.returncode == 0 and '"eventName":"INSERT"' in r.stdout and
              '"NewImage":{"id":{"S":"x"},"n":{"N":"7"}}' in r.stdout, r.stdout + r.stderr)
        r = run(ep + ["-c", "EXPLAIN ANALYZE SELECT * FROM \"Feed\" WHERE id = 'x'", "-c", ".model Feed"])
        check("explain analyze and model", r.returncode == 0 and "-- actual: 1 returned, 1 read" in
              r.stdout + r.stderr and "-- .model on " + url.rstrip("/") + "/: every item of the table (1)" in r.stderr,
              r.stdout + r.stderr)

        # Through an HTTPS proxy (CONNECT), unless NO_PROXY names the host.
        connects = []

        class Connect(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_CONNECT(self):
                host, port = self.path.split(":")
                connects.append(self.path)
                upstream = socket.create_connection((host, int(port)))
                self.send_response(200, "Connection established")
                self.end_headers()
                client = self.connection
                for a, b in ((client, upstream), (upstream, client)):
                    threading.Thread(target=self.pipe, args=(a, b), daemon=True).start()
                while not getattr(self, "closed", False):
                    time.sleep(0.05)

            def pipe(self, a, b):
                try:
                    while True:
                        data = a.recv(65536)
                        if not data:
                            break
                        b.sendall(data)
                except OSError:
                    pass
                self.closed = True

        proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Connect)
        threading.Thread(target=proxy.serve_forever, daemon=True).start()
        proxy_url = f"http://127.0.0.1:{proxy.server_address[1]}"
        r = run(ep + ["-c", ".tables"], {"HTTPS_PROXY": proxy_url, "NO_PROXY": ""})
        check("through an https proxy", r.returncode == 0 and "Feed" in r.stdout and len(connects) >= 1,
              (r.stdout, r.stderr, connects))
        before = len(connects)
        r = run(ep + ["-c", ".tables"], {"HTTPS_PROXY": proxy_url, "NO_PROXY": "127.0.0.1"})
        check("NO_PROXY", r.returncode == 0 and len(connects) == before, (r.stderr, connects))
        proxy.shutdown()

        # Without a FILE, AWS_ENDPOINT_URL_DYNAMODB opens the shell on that endpoint.
        r = run(["-c", ".tables"], {"AWS_ENDPOINT_URL_DYNAMODB": url, "AWS_PROFILE": "test"})
        check("AWS_ENDPOINT_URL_DYNAMODB", r.returncode == 0 and "TableName" not in r.stderr, r.stderr)
        r = run([f"{home}/local.kh", "-c", ".tables"], {"AWS_ENDPOINT_URL_DYNAMODB": url})
        check("a FILE wins", r.returncode == 0 and os.path.exists(f"{home}/local.kh"), r.stderr)
    finally:
        server.send_signal(signal.SIGTERM)
        _, log = server.communicate(timeout=20)
        outputs.append(log)

    history = open(f"{home}/history").read() if os.path.exists(f"{home}/history") else ""
    for i, text in enumerate(outputs + [history]):
        check(f"no secret in output {i}", SECRET not in text, text[:300])

finish("remote shell")
