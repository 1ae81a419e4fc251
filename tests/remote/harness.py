"""What the tests of tests/remote/ share: failures collected by check(), keyhole serve
started on a port it picks (and stopped by its PID by the caller), and the base of the loopback
proxies the tests put in front of it."""
import http.server
import socket
import subprocess
import sys

failures = []


def check(name, condition, detail=""):
    """Records a failure (with up to 2,000 characters of detail) when `condition` is false."""
    if not condition:
        failures.append(f"{name}: {str(detail)[:2000]}")


def finish(what):
    """Prints the failures and the summary line; exits 1 when anything failed."""
    for f in failures:
        print("FAIL", f)
    print(f"{what}: {'ok' if not failures else str(len(failures)) + ' failed'}")
    sys.exit(1 if failures else 0)


def start_server(keyhole, db, *extra):
    """`keyhole serve DB --port 0 EXTRA...`: the process and the URL it listens on."""
    p = subprocess.Popen([keyhole, "serve", db, "--port", "0", *extra], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "listening on" not in line:
        p.kill()
        raise SystemExit(f"keyhole serve did not start: {line} {p.stderr.read()}")
    return p, line.split("listening on ")[1].split(" ")[0]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ProxyHandler(http.server.BaseHTTPRequestHandler):
    """A test proxy's request handler: HTTP/1.1, silent, a client that gave up ignored, and
    answer() to send a whole response."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):
            pass  # a client that gave up (a read timeout) or a connection the test reset

    def answer(self, status, body, headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
