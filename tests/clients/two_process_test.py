#!/usr/bin/env python3
"""Two processes on one file: `keyhole serve` and the shell, writing and reading at once.

Usage: two_process_test.py KEYHOLE

Starts `keyhole serve` (with --require-signature: every request is SigV4-signed, as an SDK
signs it) on a fresh database on a free loopback port and creates a table with a GSI through
it. Then, at the same time:

  (a) WRITERS client threads, each on its own keep-alive connection (Python's http.client,
      DynamoDB's JSON protocol), write through the server: PutItem of distinct keys (which the
      GSI indexes), UpdateItem ADD on shared counters (ReturnValues UPDATED_NEW: a counter a
      thread sees never goes down), now and then a TransactWriteItems (two Puts and an ADD),
      reads of their own acknowledged writes (GetItem, and a Query of the GSI), and GetItem of
      keys the shell inserted (they must be there);
  (b) the main thread runs the shell as separate processes on the same file: INSERT (then
      GetItem through the server: the server must see it), UPDATE ... SET n = n + 1 on a
      counter the server is ADDing to, a BEGIN/COMMIT transaction, and SELECTs in ddb mode
      (machine-readable DynamoDB JSON) that must see what the server acknowledged before the
      process started: single items, whole item collections, the GSI, and counters no lower
      than the acknowledged increments.

At the end (server still up): every acknowledged write from both sides is present with its
value and nothing unacknowledged is (Query of each item collection and of the GSI through the
server), and every counter equals exactly the increments acknowledged to the server and the
shell. Then the client connections close, the server gets SIGTERM and must exit 0 promptly; a
second server is started and stopped with SIGTERM while writers are busy (every write it
acknowledged must be in the file afterwards, and it must exit 0); the shell re-reads the
counters from the file and `KEYHOLE FILE -c .check` must pass.

Any failure (a non-200 answer, a bad x-amz-crc32, a missing or wrong item, a hung request or
process) is a failure of the test: it prints the reasons and exits 1. On success it prints one
summary line with counts. Takes about 10-20 s.
"""
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time

KEYHOLE = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
TABLE = "TwoProc"
GSI = "byOwner"
WRITERS = 4            # writer threads, each on its own keep-alive connection
SHELL_ROUNDS = 60      # rounds of shell processes (about 4 processes each)
MAX_WRITER_OPS = 1500  # per writer thread: keeps every item collection well under a 1 MB page
COUNTERS = ["c0", "c1", "c2", "c3"]
REQUEST_TIMEOUT = 20   # seconds: a request without an answer by then is a hang
SHELL_TIMEOUT = 20
ACCESS_KEY, SECRET_KEY = "AKIDTWOPROC", "two-process-secret"

failures = []
failures_lock = threading.Lock()
stop = threading.Event()


def fail(reason):
    with failures_lock:
        if len(failures) < 50:
            failures.append(reason)
    stop.set()


from ddb_wire import Ambiguous, Ddb as WireDdb, DdbError  # noqa: E402  (tests/clients/ddb_wire.py)


def Ddb(port):
    return WireDdb(port, REQUEST_TIMEOUT, ACCESS_KEY, SECRET_KEY)


def key(pk, sk):
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def query_all(ddb, pk=None, owner=None):
    """Every item of one item collection (pk) or one GSI partition (owner), all pages."""
    if owner is None:
        return ddb.query_all({"TableName": TABLE, "KeyConditionExpression": "pk = :p",
                              "ExpressionAttributeValues": {":p": {"S": pk}},
                              "ConsistentRead": True})
    return ddb.query_all({"TableName": TABLE, "IndexName": GSI, "KeyConditionExpression": "#o = :o",
                          "ExpressionAttributeNames": {"#o": "owner"},
                          "ExpressionAttributeValues": {":o": {"S": owner}}})


# --- What was acknowledged. ---

class Acks:
    """Acknowledged writes: items (pk, sk) -> val, GSI owners, counter increments."""

    def __init__(self):
        self.lock = threading.Lock()
        self.items = {}                    # (pk, sk) -> val (int)
        self.owner = {}                    # (pk, sk) -> owner (the GSI partition key)
        self.server_keys = []              # keys the server acknowledged, in order
        self.shell_keys = []               # keys the shell acknowledged, in order
        self.counters = {c: 0 for c in COUNTERS + ["txcount"]}  # acknowledged increments
        self.issued = {c: 0 for c in COUNTERS + ["txcount"]}    # increments sent (acked or not)
        self.server_ops = {"PutItem": 0, "UpdateItem ADD": 0, "TransactWriteItems": 0,
                           "GetItem of a shell key": 0, "read of its own writes": 0}
        self.shell_ops = {"INSERT": 0, "UPDATE": 0, "transaction": 0, "SELECT": 0}

    def put(self, pk, sk, val, owner, by_shell):
        with self.lock:
            self.items[(pk, sk)] = val
            self.owner[(pk, sk)] = owner
            (self.shell_keys if by_shell else self.server_keys).append((pk, sk))

    def snapshot(self):
        with self.lock:
            return dict(self.items), dict(self.counters), list(self.server_keys)


acks = Acks()


# --- (a) Writers through the server. ---

def writer(port, t):
    rng = random.Random(1000 + t)
    ddb = Ddb(port)
    pk, owner = f"w{t}", f"owner{t}"
    seen = {c: 0 for c in COUNTERS}  # the highest value of each counter this thread saw
    try:
        for n in range(MAX_WRITER_OPS):
            if stop.is_set():
                break
            r = rng.random()
            if r < 0.45:
                sk, val = f"item#{n:05d}", n * 7 + t
                ddb.call("PutItem", {"TableName": TABLE, "Item": {
                    "pk": {"S": pk}, "sk": {"S": sk}, "val": {"N": str(val)},
                    "owner": {"S": owner}, "pad": {"S": "x" * rng.randrange(0, 40)}}})
                acks.put(pk, sk, val, owner, by_shell=False)
                with acks.lock:
                    acks.server_ops["PutItem"] += 1
            elif r < 0.55:
                # Read-your-writes: an item this thread was acknowledged, or its GSI partition.
                with acks.lock:
                    mine = {k: v for k, v in acks.items.items() if k[0] == pk} if r >= 0.53 else None
                    last = next((k for k in reversed(acks.server_keys) if k[0] == pk), None)
                if mine is not None:
                    got = {(it["pk"]["S"], it["sk"]["S"]) for it in query_all(ddb, owner=owner)}
                    if not set(mine) <= got:
                        fail(f"writer {t}: GSI Query of {owner} misses {len(set(mine) - got)} of its "
                             f"acknowledged puts, e.g. {sorted(set(mine) - got)[:3]}")
                elif last is not None:
                    item = ddb.call("GetItem", {"TableName": TABLE, "Key": key(*last)}).get("Item")
                    if not item or int(item["val"]["N"]) != acks.items[last]:
                        fail(f"writer {t}: GetItem of its acknowledged {last}: {item}")
                with acks.lock:
                    acks.server_ops["read of its own writes"] += 1
            elif r < 0.83:
                c, inc = rng.choice(COUNTERS), rng.randrange(1, 6)
                with acks.lock:
                    acks.issued[c] += inc
                out = ddb.call("UpdateItem", {
                    "TableName": TABLE, "Key": key("counters", c), "UpdateExpression": "ADD n :i",
                    "ExpressionAttributeValues": {":i": {"N": str(inc)}},
                    "ReturnValues": "UPDATED_NEW"})
                with acks.lock:
                    acks.counters[c] += inc
                    acks.server_ops["UpdateItem ADD"] += 1
                value = int(out["Attributes"]["n"]["N"])
                if value <= seen[c]:
                    fail(f"writer {t}: counter {c} went from {seen[c]} to {value} after ADD {inc}")
                seen[c] = value
            elif r < 0.93:
                tp = f"tx{t}"
                a, b = f"{n:05d}#a", f"{n:05d}#b"
                with acks.lock:
                    acks.issued["txcount"] += 1
                ddb.call("TransactWriteItems", {"TransactItems": [
                    {"Put": {"TableName": TABLE, "Item": {**key(tp, a), "val": {"N": str(n)},
                                                          "owner": {"S": f"tx{t}"}}}},
                    {"Put": {"TableName": TABLE, "Item": {**key(tp, b), "val": {"N": str(-n)},
                                                          "owner": {"S": f"tx{t}"}}}},
                    {"Update": {"TableName": TABLE, "Key": key("counters", "txcount"),
                                "UpdateExpression": "ADD n :one",
                                "ExpressionAttributeValues": {":one": {"N": "1"}}}}]})
                acks.put(tp, a, n, f"tx{t}", by_shell=False)
                acks.put(tp, b, -n, f"tx{t}", by_shell=False)
                with acks.lock:
                    acks.counters["txcount"] += 1
                    acks.server_ops["TransactWriteItems"] += 1
            else:
                with acks.lock:
                    shell_keys = list(acks.shell_keys)
                    expected = {k: acks.items[k] for k in shell_keys}
                if not shell_keys:
                    continue
                k = rng.choice(shell_keys)
                out = ddb.call("GetItem", {"TableName": TABLE, "Key": key(*k),
                                           "ConsistentRead": rng.random() < 0.5})
                got = out.get("Item")
                if not got or int(got["val"]["N"]) != expected[k]:
                    fail(f"writer {t}: GetItem of shell-inserted {k} through the server: {got}, "
                         f"expected val {expected[k]}")
                with acks.lock:
                    acks.server_ops["GetItem of a shell key"] += 1
    except Exception as e:  # noqa: BLE001 - any error is a failure of the test
        fail(f"writer {t}: {type(e).__name__}: {e}")
    finally:
        ddb.close()


# --- (b) The shell, as separate processes. ---

def shell(db, *statements, ok=True):
    """Runs KEYHOLE db --mode ddb -c S... ; returns (items, stderr). Fails the test on a non-zero
    exit when ok, or on a hang."""
    args = [KEYHOLE, db, "--mode", "ddb"]
    for s in statements:
        args += ["-c", s]
    try:
        p = subprocess.run(args, capture_output=True, text=True, timeout=SHELL_TIMEOUT,
                           env={**os.environ, "KEYHOLE_HISTORY": os.devnull})
    except subprocess.TimeoutExpired:
        fail(f"shell hung (> {SHELL_TIMEOUT} s): {statements}")
        return None, ""
    if ok and p.returncode != 0:
        fail(f"shell exited {p.returncode}: {statements}: {p.stderr.strip()}")
        return None, p.stderr
    if "-- more:" in p.stderr:
        fail(f"shell result was paged (a test bug: collections must stay under 1 MB): {statements}")
    items = []
    for line in p.stdout.splitlines():
        if line.strip():
            items.append(json.loads(line))
    return items, p.stderr


def q(s):
    return "'" + s.replace("'", "''") + "'"


def shell_rounds(db, port):
    rng = random.Random(7)
    ddb = Ddb(port)
    try:
        for i in range(SHELL_ROUNDS):
            if stop.is_set():
                return
            # INSERT, then the server must see it.
            sk, val = f"s#{i:04d}", i * 3 + 1
            items, _ = shell(db, f'INSERT INTO "{TABLE}" VALUE {{\'pk\': \'shell\', \'sk\': {q(sk)}, '
                                 f"'val': {val}, 'owner': 'shellowner'}}")
            if items is None:
                return
            acks.put("shell", sk, val, "shellowner", by_shell=True)
            acks.shell_ops["INSERT"] += 1
            got = ddb.call("GetItem", {"TableName": TABLE, "Key": key("shell", sk)}).get("Item")
            if not got or int(got["val"]["N"]) != val or got["owner"]["S"] != "shellowner":
                fail(f"the server does not see the shell's INSERT of {sk}: GetItem gave {got}")

            # UPDATE a counter the server is ADDing to.
            c = COUNTERS[i % 2]
            with acks.lock:
                acks.issued[c] += 1
            items, _ = shell(db, f'UPDATE "{TABLE}" SET n = n + 1 WHERE pk = \'counters\' '
                                 f"AND sk = {q(c)}")
            if items is None:
                return
            with acks.lock:
                acks.counters[c] += 1
            acks.shell_ops["UPDATE"] += 1

            # SELECTs must see what the server acknowledged before the process started.
            items_before, counters_before, server_keys = acks.snapshot()
            if server_keys:
                k = rng.choice(server_keys)
                got, _ = shell(db, f'SELECT * FROM "{TABLE}" WHERE pk = {q(k[0])} AND sk = {q(k[1])}')
                if got is None:
                    return
                if len(got) != 1 or int(got[0]["val"]["N"]) != items_before[k]:
                    fail(f"shell SELECT of server-acknowledged {k}: {got}, expected val {items_before[k]}")
                acks.shell_ops["SELECT"] += 1
            if i % 4 == 1:
                pk = f"w{rng.randrange(WRITERS)}"
                got, _ = shell(db, f'SELECT sk, val FROM "{TABLE}" WHERE pk = {q(pk)}')
                if got is None:
                    return
                seen = {it["sk"]["S"]: int(it["val"]["N"]) for it in got}
                want = {k[1]: v for k, v in items_before.items() if k[0] == pk}
                missing = [s for s in want if seen.get(s) != want[s]]
                if missing:
                    fail(f"shell SELECT of collection {pk} misses server-acknowledged items "
                         f"{missing[:5]} ({len(missing)} of {len(want)})")
                acks.shell_ops["SELECT"] += 1
            if i % 4 == 2:
                t = rng.randrange(WRITERS)
                got, _ = shell(db, f'SELECT pk, sk FROM "{TABLE}"."{GSI}" WHERE owner = {q(f"owner{t}")}')
                if got is None:
                    return
                seen = {(it["pk"]["S"], it["sk"]["S"]) for it in got}
                want = {k for k in items_before if k[0] == f"w{t}"}
                if not want <= seen:
                    fail(f"shell SELECT of GSI {GSI} owner{t} misses {len(want - seen)} "
                         f"server-acknowledged items, e.g. {sorted(want - seen)[:3]}")
                acks.shell_ops["SELECT"] += 1
            if i % 4 == 3:
                got, _ = shell(db, f'SELECT sk, n FROM "{TABLE}" WHERE pk = \'counters\'')
                if got is None:
                    return
                with acks.lock:
                    issued = dict(acks.issued)
                values = {it["sk"]["S"]: int(it["n"]["N"]) for it in got}
                for c in COUNTERS + ["txcount"]:
                    v = values.get(c, 0)
                    # At least what was acknowledged before the SELECT started; at most what had
                    # been sent by the time it ended.
                    if not counters_before[c] <= v <= issued[c]:
                        fail(f"shell SELECT of counter {c}: {v}, acknowledged before {counters_before[c]}, "
                             f"sent {issued[c]}")
                acks.shell_ops["SELECT"] += 1

            # Now and then a transaction: two INSERTs and an UPDATE, all or nothing.
            if i % 6 == 5:
                a, b = f"t#{i:04d}#a", f"t#{i:04d}#b"
                with acks.lock:
                    acks.issued["c2"] += 1
                items, _ = shell(
                    db, "BEGIN",
                    f'INSERT INTO "{TABLE}" VALUE {{\'pk\': \'shell\', \'sk\': {q(a)}, \'val\': {i}, '
                    f"'owner': 'shellowner'}}",
                    f'INSERT INTO "{TABLE}" VALUE {{\'pk\': \'shell\', \'sk\': {q(b)}, \'val\': {-i}, '
                    f"'owner': 'shellowner'}}",
                    f'UPDATE "{TABLE}" SET n = n + 1 WHERE pk = \'counters\' AND sk = \'c2\'',
                    "COMMIT")
                if items is None:
                    return
                acks.put("shell", a, i, "shellowner", by_shell=True)
                acks.put("shell", b, -i, "shellowner", by_shell=True)
                with acks.lock:
                    acks.counters["c2"] += 1
                acks.shell_ops["transaction"] += 1
    except Exception as e:  # noqa: BLE001
        fail(f"shell rounds: {type(e).__name__}: {e}")
    finally:
        ddb.close()


# --- The server. ---

def start_server(db):
    p = subprocess.Popen([KEYHOLE, "serve", db, "--port", "0", "--require-signature",
                          "--access-key-id", ACCESS_KEY, "--secret-access-key", SECRET_KEY],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "listening on http://" not in line:
        p.kill()
        raise SystemExit(f"FAIL: keyhole serve did not start: {line!r} {p.stderr.read()}")
    return p, int(line.split("listening on http://")[1].split(" ")[0].rsplit(":", 1)[1])


def stop_server(p, what):
    """SIGTERM; the server must exit 0 within 15 s. Returns the seconds it took."""
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=15)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        fail(f"{what}: the server did not exit within 15 s of SIGTERM")
        return None
    err = p.stderr.read()
    if rc != 0:
        fail(f"{what}: the server exited {rc} after SIGTERM: {err.strip()}")
    return time.monotonic() - t0


def verify_final(ddb):
    """Every acknowledged write is there with its value, and nothing else is."""
    items, counters, _ = acks.snapshot()
    partitions = sorted({k[0] for k in items})
    for pk in partitions:
        got = {it["sk"]["S"]: it for it in query_all(ddb, pk=pk)}
        want = {k[1]: v for k, v in items.items() if k[0] == pk}
        for sk, v in want.items():
            if sk not in got:
                fail(f"acknowledged item ({pk}, {sk}) is missing")
            elif int(got[sk]["val"]["N"]) != v:
                fail(f"item ({pk}, {sk}) has val {got[sk]['val']['N']}, acknowledged {v}")
        extra = set(got) - set(want)
        if extra:
            fail(f"collection {pk} has items nobody acknowledged: {sorted(extra)[:5]}")
    owners = sorted(set(acks.owner.values()))
    for owner in owners:
        got = {(it["pk"]["S"], it["sk"]["S"]) for it in query_all(ddb, owner=owner)}
        want = {k for k, o in acks.owner.items() if o == owner}
        if got != want:
            fail(f"GSI {GSI} partition {owner}: {len(want - got)} missing, {len(got - want)} extra")
    for c, v in counters.items():
        item = ddb.call("GetItem", {"TableName": TABLE, "Key": key("counters", c),
                                    "ConsistentRead": True}).get("Item")
        n = int(item["n"]["N"]) if item and "n" in item else 0
        if n != v:
            fail(f"counter {c} is {n}, but {v} in increments were acknowledged")
    return len(items), len(partitions), len(owners)


def stop_under_load(db):
    """A second server, SIGTERM while writers are busy: exit 0, and every write it acknowledged
    is in the file."""
    p, port = start_server(db)
    acked = {}
    lock = threading.Lock()
    quit_ = threading.Event()

    def busy(t):
        ddb = Ddb(port)
        n = 0
        try:
            while not quit_.is_set():
                sk = f"{t}#{n:05d}"
                try:
                    ddb.call("PutItem", {"TableName": TABLE, "Item": {
                        **key("stop", sk), "val": {"N": str(n)}, "owner": {"S": "stop"}}})
                except DdbError as e:
                    fail(f"stop under load: PutItem answered {e}")
                    return
                except Ambiguous:
                    return  # the server is going: this write was not acknowledged
                with lock:
                    acked[sk] = n
                n += 1
        finally:
            ddb.close()

    threads = [threading.Thread(target=busy, args=(t,)) for t in range(3)]
    for th in threads:
        th.start()
    time.sleep(0.5)
    took = stop_server(p, "stop under load")
    quit_.set()
    for th in threads:
        th.join(timeout=REQUEST_TIMEOUT + 5)
    got, _ = shell(db, f'SELECT sk, val FROM "{TABLE}" WHERE pk = \'stop\'')
    if got is not None:
        seen = {it["sk"]["S"]: int(it["val"]["N"]) for it in got}
        lost = [sk for sk, v in acked.items() if seen.get(sk) != v]
        if lost:
            fail(f"stop under load: {len(lost)} of {len(acked)} acknowledged PutItems are not in "
                 f"the file after SIGTERM, e.g. {lost[:5]}")
    if not acked:
        fail("stop under load: no write was acknowledged before SIGTERM")
    return len(acked), took


def main():
    t_start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="keyhole-two-process-") as tmp:
        db = os.path.join(tmp, "two.kh")
        server, port = start_server(db)
        try:
            ddb = Ddb(port)
            ddb.call("CreateTable", {
                "TableName": TABLE,
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                              {"AttributeName": "sk", "KeyType": "RANGE"}],
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                         {"AttributeName": "sk", "AttributeType": "S"},
                                         {"AttributeName": "owner", "AttributeType": "S"}],
                "GlobalSecondaryIndexes": [{"IndexName": GSI,
                                            "KeySchema": [{"AttributeName": "owner", "KeyType": "HASH"},
                                                          {"AttributeName": "sk", "KeyType": "RANGE"}],
                                            "Projection": {"ProjectionType": "ALL"}}],
                "BillingMode": "PAY_PER_REQUEST"})
            for c in COUNTERS + ["txcount"]:  # PartiQL's UPDATE needs the item to exist
                ddb.call("PutItem", {"TableName": TABLE,
                                     "Item": {**key("counters", c), "n": {"N": "0"}}})
            # The shell sees the table the server created.
            got, _ = shell(db, f'SELECT sk FROM "{TABLE}" WHERE pk = \'counters\'')
            if got is not None and len(got) != 5:
                fail(f"the shell sees {len(got)} counters the server created, not 5")

            threads = [threading.Thread(target=writer, args=(port, t)) for t in range(WRITERS)]
            for th in threads:
                th.start()
            shell_rounds(db, port)
            stop.set()  # the writers stop after their request in flight
            for th in threads:
                th.join(timeout=REQUEST_TIMEOUT + 5)
                if th.is_alive():
                    fail("a writer thread hung")
            n_items = n_parts = n_owners = 0
            if not failures:
                n_items, n_parts, n_owners = verify_final(ddb)
            ddb.close()
        finally:
            if server.poll() is None:
                stopped_in = stop_server(server, "stop")
            else:
                fail(f"the server died with exit status {server.returncode}: "
                     f"{server.stderr.read().strip()[-500:]}")

        stop_acked, stop_took = 0, None
        if not failures:
            stop_acked, stop_took = stop_under_load(db)
            # The counters, read from the file by the shell with no server running.
            got, _ = shell(db, f'SELECT sk, n FROM "{TABLE}" WHERE pk = \'counters\'')
            if got is not None:
                values = {it["sk"]["S"]: int(it["n"]["N"]) for it in got}
                for c, v in acks.counters.items():
                    if values.get(c) != v:
                        fail(f"after the server stopped, the shell reads counter {c} = "
                             f"{values.get(c)}, acknowledged {v}")
        check = subprocess.run([KEYHOLE, db, "-c", ".check"], capture_output=True, text=True,
                               timeout=SHELL_TIMEOUT)
        if check.returncode != 0 or "integrity ok" not in check.stdout + check.stderr:
            fail(f".check exited {check.returncode}: {(check.stdout + check.stderr).strip()}")

    elapsed = time.monotonic() - t_start
    if failures:
        print(f"FAIL two_process_test ({elapsed:.1f} s):")
        for f in failures:
            print(f"  {f}")
        return 1
    so, sh = acks.server_ops, acks.shell_ops
    print(f"ok two_process_test: server acked {so['PutItem']} PutItem, {so['UpdateItem ADD']} ADD, "
          f"{so['TransactWriteItems']} TransactWriteItems, {so['read of its own writes']} reads of its own writes, "
          f"{so['GetItem of a shell key']} GetItem of shell keys; "
          f"shell ran {sh['INSERT']} INSERT, {sh['UPDATE']} UPDATE, {sh['transaction']} transactions, "
          f"{sh['SELECT']} SELECT; {n_items} items in {n_parts} collections and {n_owners} GSI "
          f"partitions verified, counters {acks.counters}; SIGTERM exit 0 in {stopped_in:.3f} s, "
          f"and under load in {stop_took:.3f} s with {stop_acked} acked puts kept; .check ok; "
          f"{elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
