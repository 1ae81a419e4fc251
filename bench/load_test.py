#!/usr/bin/env python3
"""Load and soak test of `keyhole serve`: many keep-alive clients, mixed work, every write checked.

Usage:
  load_test.py KEYHOLE [--clients 16] [--seconds 60] [--soak-seconds 0] [--procs N]
               [--timeout 30] [--stall 10] [--sample-every 5] [--put-keys N]
               [--requests-per-connection 0] [--require-signature] [--keep]

Not part of the default test run (it takes minutes and measures the machine). Starts
`keyhole serve` on a fresh file on a free loopback port, creates table "Load" (pk, sk; GSI
"gsi1" on gpk, gsk) and seeds it: 32 item collections of 25 items, 32 accounts of balance
1000, 8 shared counters, 16 version-guarded items. Then --clients clients, each with its own
keep-alive HTTP/1.1 connection (Python's http.client; every request is a correct, SigV4-signed
DynamoDB JSON 1.0 request, and every response's x-amz-crc32 is checked), run for --seconds
this mix:

  25% GetItem          a seeded item (its value is checked) or one of the client's own puts
                       (read-your-writes: the last value it was acknowledged)
  15% Query            a whole seeded item collection (25 items, in sort-key order, values
                       checked), forward or backward
  20% PutItem          the client's own keys (indexed by the GSI)
  15% UpdateItem cond  optimistic locking: SET version = version + 1 IF version = <the version
                       this client last saw>, 7 times in 10 right after reading it with a
                       consistent GetItem (counted as a GetItem); a
                       ConditionalCheckFailedException is an expected outcome (counted apart)
                       and must carry the item (ALL_OLD) with another version; a success must
                       return version + 1
  15% UpdateItem ADD   a random increment to one of 8 counters every client shares
  10% TransactWriteItems  move an amount between two of the 32 accounts, with
                       `balance >= :amt` on the debit; about 1 in 6 asks for more than an
                       account can have, and a cancellation (TransactionCanceledException whose
                       reasons are [ConditionalCheckFailed, None]) is an expected outcome

Client threads run in --procs worker processes (default: min(4, clients)): for reads, one
Python process cannot drive the server hard enough (the GIL; measured on the 2-core machine,
GetItem alone, 8 clients: 1 process 3,200 req/s, 4 processes 4,800 req/s). With this mix the
server's synced writes set the pace, and 1 to 8 processes measure the same.

The server serves each keep-alive connection on one of its 8 worker threads until the
connection closes or idles for 5 s, so with more clients than that the extra connections wait
(the --stall check catches it); --requests-per-connection N makes every client open a new
connection after N requests, which rotates them.

Every acknowledged write is recorded. A request with no answer (timeout, reset) is
"ambiguous": it is an error, and the checks accept either outcome for it. After the run:
  - every acknowledged put is present with the value last acknowledged (or one of the client's
    ambiguous values for that key), and no item exists that nobody wrote; the GSI holds
    exactly the client's items;
  - each counter equals the sum of acknowledged ADDs (within the ambiguous ones);
  - each guarded item's version equals its acknowledged conditional updates (no lost update);
  - the accounts sum to 32,000 exactly, none is negative, and (when no transfer was
    ambiguous) each equals 1000 plus its acknowledged transfers in minus out;
  - the seeded collections are intact;
  - no 5xx, no unexpected error (anything other than the expected outcomes above), no request
    unanswered for more than --stall seconds;
  - SIGTERM stops the server with exit status 0 (within 15 s), and `KEYHOLE FILE -c .check`
    (every index agrees with its table) passes.
It prints req/s overall and per operation, p50/p99/max latency, requests per client (min,
median, max: a starved client shows here), and every --sample-every seconds the server's
memory (VmRSS, RssAnon, RssFile from /proc/PID/status), the database file's size, the requests
answered and how many clients got no answer since the last sample.

Soak: --soak-seconds N runs the same mix for N seconds instead of --seconds (puts then cycle
over --put-keys keys per client, default 500, so the data set stops growing and memory should
plateau). Growth rule: the samples of the first max(30 s, 20% of the run) are warm-up and
ignored; of the rest, the mean of the last quarter must not exceed the mean of the first
quarter by more than 10% + 5 MiB, for VmRSS and for RssAnon (the heap: a leak shows there
first; VmRSS also counts the mapped file's pages). At least 180 s is needed for a meaningful
answer.

Exit status 0 when every check passes, 1 otherwise (the reasons are printed).
"""
import argparse
import array
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TABLE = "Load"
GSI = "gsi1"
N_COLLECTIONS, COLLECTION_SIZE = 32, 25
N_ACCOUNTS, START_BALANCE = 32, 1000
N_COUNTERS = 8
N_GUARDED = 16
ACCESS_KEY, SECRET_KEY = "AKIDLOADTEST", "load-test-secret"
OPS = ["GetItem", "Query", "PutItem", "UpdateItem cond", "UpdateItem ADD", "TransactWriteItems"]
MIX = [0.25, 0.15, 0.20, 0.15, 0.15, 0.10]


# The DynamoDB client over http.client, shared with tests/clients/two_process_test.py.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "clients"))
from ddb_wire import Ambiguous, Ddb as WireDdb, DdbError  # noqa: E402


def Ddb(port, timeout, requests_per_connection=0):
    return WireDdb(port, timeout, ACCESS_KEY, SECRET_KEY, requests_per_connection)


def key(pk, sk):
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def query_all(ddb, pk=None, gpk=None):
    if gpk is None:
        return ddb.query_all({"TableName": TABLE, "KeyConditionExpression": "pk = :p",
                              "ExpressionAttributeValues": {":p": {"S": pk}},
                              "ConsistentRead": True})
    return ddb.query_all({"TableName": TABLE, "IndexName": GSI,
                          "KeyConditionExpression": "gpk = :p",
                          "ExpressionAttributeValues": {":p": {"S": gpk}}})


def seeded_val(c, i):
    return c * 1000 + i * 7


# --- One client. ---

class Client:
    """One client thread's work and record. Everything it records is plain data (pickled back
    to the parent process)."""

    def __init__(self, cid, cfg, progress):
        self.cid, self.cfg, self.progress = cid, cfg, progress
        self.rng = random.Random(cfg["seed"] * 1000 + cid)
        self.lat = {op: array.array("f") for op in OPS}   # ms
        self.outcomes = {op: {} for op in OPS}            # op -> outcome -> count
        self.errors = []                                  # unexpected: first 20 messages
        self.n_errors = 0
        self.n_5xx = 0
        self.check_failures = []
        self.max_latency = 0.0
        self.requests = 0
        # Writes.
        self.puts = {}          # sk -> last acknowledged val
        self.put_ambiguous = {}  # sk -> [vals]
        self.put_list = []       # the keys of self.puts, to pick from
        self.counters = [0] * N_COUNTERS
        self.counters_ambiguous = [0] * N_COUNTERS
        self.guarded = [0] * N_GUARDED
        self.guarded_ambiguous = [0] * N_GUARDED
        self.transfers = []     # (a, b, amt) acknowledged
        self.transfers_ambiguous = 0
        self.seen_version = [0] * N_GUARDED
        self.put_n = 0

    def outcome(self, op, what):
        d = self.outcomes[op]
        d[what] = d.get(what, 0) + 1

    def error(self, op, text):
        self.n_errors += 1
        self.outcome(op, "error")
        if len(self.errors) < 20:
            self.errors.append(f"client {self.cid} {op}: {text}")

    def check(self, cond, text):
        if not cond and len(self.check_failures) < 20:
            self.check_failures.append(f"client {self.cid}: {text}")

    def timed(self, ddb, op, operation, request):
        t0 = time.perf_counter()
        answered = False
        try:
            out = ddb.call(operation, request)
            answered = True
            return out
        except DdbError:
            answered = True
            raise
        finally:
            ms = (time.perf_counter() - t0) * 1000.0  # unanswered ones too: their wait counts
            self.lat[op].append(ms)
            self.max_latency = max(self.max_latency, ms)
            self.requests += 1
            if answered:
                self.progress[self.cid] += 1

    def run(self, port, deadline):
        cfg = self.cfg
        ddb = Ddb(port, cfg["timeout"], cfg["requests_per_connection"])
        pk_own = f"put#{self.cid}"
        try:
            while time.time() < deadline:
                op = self.rng.choices(OPS, MIX)[0]
                try:
                    getattr(self, "op_" + op.replace(" ", "_"))(ddb, op, pk_own)
                except Ambiguous as e:
                    self.error(op, f"no answer ({e})")
                except DdbError as e:
                    if e.status >= 500:
                        self.n_5xx += 1
                    self.error(op, str(e))
                except (KeyError, TypeError, ValueError, IndexError) as e:
                    self.error(op, f"malformed response: {type(e).__name__}: {e}")
        finally:
            ddb.close()

    # Reads.
    def op_GetItem(self, ddb, op, pk_own):
        if self.put_list and self.rng.random() < 0.5:
            sk = self.rng.choice(self.put_list)
            out = self.timed(ddb, op, "GetItem", {"TableName": TABLE, "Key": key(pk_own, sk),
                                                  "ConsistentRead": self.rng.random() < 0.5})
            self.outcome(op, "ok")
            item = out.get("Item")
            if sk in self.puts and sk not in self.put_ambiguous:
                self.check(item is not None and int(item["val"]["N"]) == self.puts[sk],
                           f"GetItem {pk_own}/{sk}: {item}, last acknowledged val {self.puts[sk]}")
        else:
            c, i = self.rng.randrange(N_COLLECTIONS), self.rng.randrange(COLLECTION_SIZE)
            out = self.timed(ddb, op, "GetItem", {"TableName": TABLE,
                                                  "Key": key(f"coll#{c}", f"i#{i:03d}")})
            self.outcome(op, "ok")
            item = out.get("Item")
            self.check(item is not None and int(item["val"]["N"]) == seeded_val(c, i),
                       f"GetItem coll#{c}/i#{i:03d}: {item}")

    def op_Query(self, ddb, op, pk_own):
        c = self.rng.randrange(N_COLLECTIONS)
        forward = self.rng.random() < 0.5
        out = self.timed(ddb, op, "Query", {
            "TableName": TABLE, "KeyConditionExpression": "pk = :p",
            "ExpressionAttributeValues": {":p": {"S": f"coll#{c}"}}, "ScanIndexForward": forward})
        self.outcome(op, "ok")
        got = [(it["sk"]["S"], int(it["val"]["N"])) for it in out.get("Items", [])]
        want = [(f"i#{i:03d}", seeded_val(c, i)) for i in range(COLLECTION_SIZE)]
        if not forward:
            want.reverse()
        self.check(got == want and out.get("Count") == COLLECTION_SIZE and
                   "LastEvaluatedKey" not in out,
                   f"Query coll#{c} forward={forward}: {len(got)} items, not the seeded 25 in order")

    # Writes.
    def op_PutItem(self, ddb, op, pk_own):
        n = self.put_n
        self.put_n += 1
        keys = self.cfg["put_keys"]
        sk = f"k{n % keys}" if keys else f"k{n}"
        val = n
        item = {**key(pk_own, sk), "val": {"N": str(val)}, "gpk": {"S": pk_own},
                "gsk": {"S": sk}, "pad": {"S": "p" * self.rng.randrange(0, 200)}}
        try:
            self.timed(ddb, op, "PutItem", {"TableName": TABLE, "Item": item})
        except Ambiguous:
            self.put_ambiguous.setdefault(sk, []).append(val)
            raise
        if sk not in self.puts:
            self.put_list.append(sk)
        self.puts[sk] = val
        self.outcome(op, "ok")

    def op_UpdateItem_cond(self, ddb, op, pk_own):
        j = self.rng.randrange(N_GUARDED)
        if self.rng.random() < 0.7:  # read, then write if nobody wrote in between
            out = self.timed(ddb, "GetItem", "GetItem", {
                "TableName": TABLE, "Key": key("guarded", f"g{j}"), "ConsistentRead": True})
            self.outcome("GetItem", "ok")
            self.seen_version[j] = int(out["Item"]["version"]["N"])
        v = self.seen_version[j]  # else the version this client last saw: often stale
        try:
            out = self.timed(ddb, op, "UpdateItem", {
                "TableName": TABLE, "Key": key("guarded", f"g{j}"),
                "UpdateExpression": "SET version = version + :one, last_writer = :me",
                "ConditionExpression": "version = :v",
                "ExpressionAttributeValues": {":one": {"N": "1"}, ":v": {"N": str(v)},
                                              ":me": {"S": f"client{self.cid}"}},
                "ReturnValues": "ALL_NEW", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})
        except Ambiguous:
            self.guarded_ambiguous[j] += 1
            raise
        except DdbError as e:
            if e.code != "ConditionalCheckFailedException":
                raise
            self.outcome(op, "ConditionalCheckFailed")
            old = e.body.get("Item") if isinstance(e.body, dict) else None
            ok = old is not None and "version" in old and int(old["version"]["N"]) != v
            self.check(ok, f"ConditionalCheckFailed on guarded g{j} expecting version {v}, "
                           f"but the item it returned is {old}")
            if ok:
                self.seen_version[j] = int(old["version"]["N"])
            return
        new = int(out["Attributes"]["version"]["N"])
        self.check(new == v + 1, f"conditional update of g{j} from version {v} returned {new}")
        self.seen_version[j] = new
        self.guarded[j] += 1
        self.outcome(op, "ok")

    def op_UpdateItem_ADD(self, ddb, op, pk_own):
        j, inc = self.rng.randrange(N_COUNTERS), self.rng.randrange(1, 10)
        try:
            out = self.timed(ddb, op, "UpdateItem", {
                "TableName": TABLE, "Key": key("counter", f"c{j}"), "UpdateExpression": "ADD n :i",
                "ExpressionAttributeValues": {":i": {"N": str(inc)}}, "ReturnValues": "UPDATED_NEW"})
        except Ambiguous:
            self.counters_ambiguous[j] += inc
            raise
        self.counters[j] += inc
        self.outcome(op, "ok")
        self.check(int(out["Attributes"]["n"]["N"]) >= self.counters[j],
                   f"ADD to c{j} returned {out['Attributes']} below this client's own adds")

    def op_TransactWriteItems(self, ddb, op, pk_own):
        a, b = self.rng.sample(range(N_ACCOUNTS), 2)
        amt = self.rng.randrange(1, 100) if self.rng.random() < 5 / 6 else \
            self.rng.randrange(START_BALANCE * 4, START_BALANCE * 8)
        try:
            self.timed(ddb, op, "TransactWriteItems", {"TransactItems": [
                {"Update": {"TableName": TABLE, "Key": key("acct", f"a{a}"),
                            "UpdateExpression": "SET balance = balance - :amt",
                            "ConditionExpression": "balance >= :amt",
                            "ExpressionAttributeValues": {":amt": {"N": str(amt)}}}},
                {"Update": {"TableName": TABLE, "Key": key("acct", f"a{b}"),
                            "UpdateExpression": "SET balance = balance + :amt",
                            "ExpressionAttributeValues": {":amt": {"N": str(amt)}}}}]})
        except Ambiguous:
            self.transfers_ambiguous += 1
            raise
        except DdbError as e:
            if e.code != "TransactionCanceledException":
                raise
            reasons = [r.get("Code", "None") for r in (e.body or {}).get("CancellationReasons", [])]
            if reasons == ["ConditionalCheckFailed", "None"]:
                self.outcome(op, "cancelled (ConditionalCheckFailed)")
            elif "TransactionConflict" in reasons and "ConditionalCheckFailed" not in reasons:
                self.outcome(op, "cancelled (TransactionConflict)")  # DynamoDB may do this
            else:
                self.error(op, f"cancelled with unexpected reasons {reasons}")
            return
        self.transfers.append((a, b, amt))
        self.outcome(op, "ok")

    def result(self):
        return {k: getattr(self, k) for k in (
            "cid", "lat", "outcomes", "errors", "n_errors", "n_5xx", "check_failures",
            "max_latency", "requests", "puts", "put_ambiguous", "counters", "counters_ambiguous",
            "guarded", "guarded_ambiguous", "transfers", "transfers_ambiguous")}


def worker_process(cids, port, deadline, cfg, progress, results):
    clients = [Client(cid, cfg, progress) for cid in cids]
    threads = [threading.Thread(target=c.run, args=(port, deadline)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    results.put([c.result() for c in clients])


# --- The server. ---

def start_server(keyhole, db, require_signature):
    args = [keyhole, "serve", db, "--port", "0"]
    if require_signature:
        args += ["--require-signature", "--access-key-id", ACCESS_KEY,
                 "--secret-access-key", SECRET_KEY]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "listening on http://" not in line:
        p.kill()
        sys.exit(f"FAIL: keyhole serve did not start: {line!r} {p.stderr.read()}")
    return p, int(line.split("listening on http://")[1].split(" ")[0].rsplit(":", 1)[1])


def memory(pid):
    """(VmRSS, RssAnon, RssFile, Threads) in MiB (threads a count), or None when gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
    except OSError:
        return None

    def mib(name):
        return int(fields.get(name, "0 kB").split()[0]) / 1024.0
    return mib("VmRSS"), mib("RssAnon"), mib("RssFile"), int(fields.get("Threads", "0"))


def setup(ddb):
    ddb.call("CreateTable", {
        "TableName": TABLE,
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"}
                                 for a in ("pk", "sk", "gpk", "gsk")],
        "GlobalSecondaryIndexes": [{"IndexName": GSI,
                                    "KeySchema": [{"AttributeName": "gpk", "KeyType": "HASH"},
                                                  {"AttributeName": "gsk", "KeyType": "RANGE"}],
                                    "Projection": {"ProjectionType": "KEYS_ONLY"}}],
        "BillingMode": "PAY_PER_REQUEST"})
    puts = []
    for c in range(N_COLLECTIONS):
        for i in range(COLLECTION_SIZE):
            puts.append({**key(f"coll#{c}", f"i#{i:03d}"), "val": {"N": str(seeded_val(c, i))},
                         "gpk": {"S": f"coll#{c}"}, "gsk": {"S": f"i#{i:03d}"},
                         "body": {"S": "seed " * 10}})
    puts += [{**key("acct", f"a{a}"), "balance": {"N": str(START_BALANCE)}}
             for a in range(N_ACCOUNTS)]
    puts += [{**key("counter", f"c{j}"), "n": {"N": "0"}} for j in range(N_COUNTERS)]
    puts += [{**key("guarded", f"g{j}"), "version": {"N": "0"}} for j in range(N_GUARDED)]
    for i in range(0, len(puts), 25):
        out = ddb.call("BatchWriteItem", {"RequestItems": {
            TABLE: [{"PutRequest": {"Item": it}} for it in puts[i:i + 25]]}})
        if out.get("UnprocessedItems"):
            sys.exit(f"FAIL: seeding left unprocessed items: {out['UnprocessedItems']}")


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[i]


def verify(ddb, results, failures):
    """The checks after the run; appends to failures. Returns a few counts for the summary."""
    ambiguous_any = False
    # Puts: every acknowledged one present, nothing nobody wrote, the GSI agrees.
    n_items = 0
    for r in results:
        pk = f"put#{r['cid']}"
        got = {it["sk"]["S"]: int(it["val"]["N"]) for it in query_all(ddb, pk=pk)}
        n_items += len(got)
        amb = r["put_ambiguous"]
        ambiguous_any |= bool(amb)
        for sk, v in r["puts"].items():
            if sk not in got:
                failures.append(f"acknowledged PutItem {pk}/{sk} (val {v}) is missing")
            elif got[sk] != v and got[sk] not in amb.get(sk, []):
                failures.append(f"{pk}/{sk} has val {got[sk]}, last acknowledged {v}")
        phantom = [sk for sk in got if sk not in r["puts"] and sk not in amb]
        if phantom:
            failures.append(f"{pk} has items nobody wrote: {phantom[:5]}")
        index = {it["gsk"]["S"] for it in query_all(ddb, gpk=pk)}
        if index != set(got):
            failures.append(f"GSI {GSI} for {pk}: {len(set(got) - index)} items missing, "
                            f"{len(index - set(got))} extra")
    # Counters.
    for j in range(N_COUNTERS):
        acked = sum(r["counters"][j] for r in results)
        amb = sum(r["counters_ambiguous"][j] for r in results)
        ambiguous_any |= bool(amb)
        item = ddb.call("GetItem", {"TableName": TABLE, "Key": key("counter", f"c{j}"),
                                    "ConsistentRead": True}).get("Item")
        n = int(item["n"]["N"]) if item else None
        if n is None or not acked <= n <= acked + amb:
            failures.append(f"counter c{j} is {n}; acknowledged ADDs sum to {acked}"
                            + (f" (+ up to {amb} ambiguous)" if amb else ""))
    # Guarded versions: no lost update.
    for j in range(N_GUARDED):
        acked = sum(r["guarded"][j] for r in results)
        amb = sum(r["guarded_ambiguous"][j] for r in results)
        ambiguous_any |= bool(amb)
        item = ddb.call("GetItem", {"TableName": TABLE, "Key": key("guarded", f"g{j}"),
                                    "ConsistentRead": True}).get("Item")
        v = int(item["version"]["N"]) if item else None
        if v is None or not acked <= v <= acked + amb:
            failures.append(f"guarded g{j} has version {v}, but {acked} conditional updates "
                            f"succeeded" + (f" (+ up to {amb} ambiguous)" if amb else ""))
    # Transfers.
    got = {it["sk"]["S"]: int(it["balance"]["N"]) for it in query_all(ddb, pk="acct")}
    total = sum(got.values())
    if len(got) != N_ACCOUNTS or total != N_ACCOUNTS * START_BALANCE:
        failures.append(f"the {len(got)} accounts sum to {total}, not {N_ACCOUNTS * START_BALANCE}")
    negative = {a: v for a, v in got.items() if v < 0}
    if negative:
        failures.append(f"accounts below zero: {negative}")
    n_transfers = sum(len(r["transfers"]) for r in results)
    amb_transfers = sum(r["transfers_ambiguous"] for r in results)
    ambiguous_any |= bool(amb_transfers)
    if not amb_transfers:
        want = {f"a{a}": START_BALANCE for a in range(N_ACCOUNTS)}
        for r in results:
            for a, b, amt in r["transfers"]:
                want[f"a{a}"] -= amt
                want[f"a{b}"] += amt
        wrong = {a: (got.get(a), want[a]) for a in want if got.get(a) != want[a]}
        if wrong:
            failures.append(f"account balances differ from the acknowledged transfers "
                            f"(got, want): {dict(list(wrong.items())[:5])}")
    # The seeded collections.
    for c in range(N_COLLECTIONS):
        items = query_all(ddb, pk=f"coll#{c}")
        if [int(it["val"]["N"]) for it in items] != [seeded_val(c, i) for i in range(COLLECTION_SIZE)]:
            failures.append(f"seeded collection coll#{c} changed: {len(items)} items")
    return n_items, n_transfers, total, ambiguous_any


def soak_verdict(samples, seconds):
    """The growth rule (see the docstring). Returns (ok, text)."""
    warmup = max(30.0, 0.2 * seconds)
    rest = [s for s in samples if s[0] >= warmup]
    if len(rest) < 8:
        return False, (f"too few samples after the {warmup:.0f} s warm-up ({len(rest)}); "
                       f"run longer or sample more often")
    q = max(1, len(rest) // 4)
    lines, ok = [], True
    for name, idx in (("VmRSS", 1), ("RssAnon", 2)):
        first = statistics.mean(s[idx] for s in rest[:q])
        last = statistics.mean(s[idx] for s in rest[-q:])
        limit = first * 1.10 + 5.0
        grew = last > limit
        ok &= not grew
        lines.append(f"{name} first quarter {first:.1f} MiB, last quarter {last:.1f} MiB, "
                     f"limit {limit:.1f} MiB: {'GROWS' if grew else 'flat'}")
    return ok, f"after {warmup:.0f} s warm-up, {len(rest)} samples: " + "; ".join(lines)


def main():
    ap = argparse.ArgumentParser(description="Load and soak test of keyhole serve.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("keyhole")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--soak-seconds", type=float, default=0,
                    help="run this long instead of --seconds and fail if memory keeps growing")
    ap.add_argument("--procs", type=int, default=0,
                    help="worker processes the clients are spread over (default min(4, clients))")
    ap.add_argument("--timeout", type=float, default=30, help="seconds without an answer: ambiguous")
    ap.add_argument("--stall", type=float, default=10,
                    help="fail when any request took longer than this many seconds")
    ap.add_argument("--sample-every", type=float, default=5, help="seconds between RSS samples")
    ap.add_argument("--put-keys", type=int, default=None,
                    help="keys per client that puts cycle over (default: all distinct; 500 in a soak)")
    ap.add_argument("--requests-per-connection", type=int, default=0,
                    help="open a new connection after this many requests (0: keep one). The "
                         "server serves each keep-alive connection on one of its worker threads "
                         "(8) until the connection closes or idles for 5 s, so with more "
                         "clients than workers this rotates them")
    ap.add_argument("--require-signature", action="store_true",
                    help="start the server with --require-signature (requests are signed anyway)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", action="store_true", help="keep the database directory")
    args = ap.parse_args()

    soak = args.soak_seconds > 0
    seconds = args.soak_seconds if soak else args.seconds
    put_keys = args.put_keys if args.put_keys is not None else (500 if soak else 0)
    procs = args.procs or min(4, args.clients)
    procs = max(1, min(procs, args.clients))
    cfg = {"seed": args.seed, "timeout": args.timeout, "put_keys": put_keys,
           "requests_per_connection": args.requests_per_connection}
    failures = []

    tmp = tempfile.mkdtemp(prefix="keyhole-load-")
    db = os.path.join(tmp, "load.kh")
    server, port = start_server(args.keyhole, db, args.require_signature)
    print(f"load_test: {'soak' if soak else 'load'} {seconds:.0f} s, {args.clients} clients in "
          f"{procs} processes, server pid {server.pid} on port {port}, {db}", flush=True)
    samples = []  # (t, VmRSS, RssAnon, RssFile, threads, requests so far)
    try:
        ddb = Ddb(port, args.timeout)
        setup(ddb)
        ddb.close()
        m = memory(server.pid)
        print(f"  seeded; server memory VmRSS {m[0]:.1f} MiB, RssAnon {m[1]:.1f}, RssFile {m[2]:.1f}, "
              f"{m[3]} threads", flush=True)

        ctx = mp.get_context("fork")
        progress = ctx.Array("Q", args.clients, lock=False)
        results_q = ctx.Queue()
        start = time.time()
        deadline = start + seconds
        workers = []
        for p in range(procs):
            cids = list(range(p, args.clients, procs))
            w = ctx.Process(target=worker_process,
                            args=(cids, port, deadline, cfg, progress, results_q))
            w.start()
            workers.append(w)

        # Sample the server's memory while the clients run.
        print("  server memory (MiB), database file size (MiB), requests answered, and clients "
              "with no answer since the last sample:")
        print(f"  {'t(s)':>6} {'VmRSS':>8} {'RssAnon':>8} {'RssFile':>8} {'thr':>4} "
              f"{'file':>8} {'requests':>9} {'req/s':>7} {'idle clients':>12}", flush=True)
        last_t, last_n = 0.0, 0
        last_per_client = [0] * args.clients
        next_sample = start + args.sample_every
        results = []
        while len(results) < args.clients:
            timeout = max(0.05, next_sample - time.time())
            try:
                results += results_q.get(timeout=timeout)
                continue
            except Exception:  # noqa: BLE001 - queue.Empty
                pass
            now = time.time()
            if now < next_sample:
                continue
            next_sample += args.sample_every
            t = now - start
            m = memory(server.pid)
            per_client = list(progress)
            n = sum(per_client)
            idle = sum(1 for a, b in zip(per_client, last_per_client) if a == b)
            if m is None:
                failures.append(f"the server process is gone at t={t:.0f} s "
                                f"(exit status {server.poll()})")
                break
            try:
                file_mib = os.path.getsize(db) / 1048576.0
            except OSError:
                file_mib = float("nan")
            samples.append((t, m[0], m[1], m[2], m[3], n))
            if now <= deadline + args.sample_every:
                print(f"  {t:6.0f} {m[0]:8.1f} {m[1]:8.1f} {m[2]:8.1f} {m[3]:4d} {file_mib:8.1f} "
                      f"{n:9d} {(n - last_n) / (t - last_t):7.0f} {idle:12d}", flush=True)
            last_t, last_n, last_per_client = t, n, per_client
            if now > deadline + args.timeout + 30:
                failures.append("the clients did not finish within --timeout + 30 s of the end")
                break
        elapsed = time.time() - start
        for w in workers:
            w.join(timeout=5)
            if w.is_alive():
                w.kill()

        if server.poll() is not None:
            failures.append(f"the server died (exit status {server.returncode}): "
                            f"{server.stderr.read()[-500:]}")
        # Report.
        all_lat = []
        total = sum(r["requests"] for r in results)
        run_seconds = seconds
        print(f"\n  {len(results)} clients, {total} requests in {run_seconds:.0f} s "
              f"(clients finished {elapsed - seconds:.1f} s after the end): "
              f"{total / run_seconds:.0f} req/s")
        print(f"  {'operation':<20} {'count':>8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} "
              f"{'max ms':>9}  outcomes")
        for op in OPS:
            lat = sorted(x for r in results for x in r["lat"][op])
            all_lat += lat
            outcomes = {}
            for r in results:
                for k, v in r["outcomes"][op].items():
                    outcomes[k] = outcomes.get(k, 0) + v
            print(f"  {op:<20} {len(lat):8d} {len(lat) / run_seconds:7.0f} "
                  f"{percentile(lat, 50):8.2f} {percentile(lat, 99):8.2f} "
                  f"{(lat[-1] if lat else float('nan')):9.1f}  "
                  + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
        all_lat.sort()
        print(f"  {'all':<20} {len(all_lat):8d} {len(all_lat) / run_seconds:7.0f} "
              f"{percentile(all_lat, 50):8.2f} {percentile(all_lat, 99):8.2f} "
              f"{(all_lat[-1] if all_lat else float('nan')):9.1f}")
        per_client = sorted(r["requests"] for r in results)
        if per_client:
            print(f"  requests per client: min {per_client[0]}, median "
                  f"{per_client[len(per_client) // 2]}, max {per_client[-1]}")

        # Failures seen by the clients.
        n_errors = sum(r["n_errors"] for r in results)
        n_5xx = sum(r["n_5xx"] for r in results)
        if n_5xx:
            failures.append(f"{n_5xx} responses with HTTP 5xx")
        if n_errors:
            failures.append(f"{n_errors} unexpected errors, e.g.: "
                            + " | ".join(e for r in results for e in r["errors"][:2])[:1500])
        for r in results:
            failures.extend(r["check_failures"][:5])
        worst = max((r["max_latency"] for r in results), default=0) / 1000.0
        if worst > args.stall:
            starved = sum(1 for r in results if r["max_latency"] / 1000.0 > args.stall)
            failures.append(f"a request went unanswered for {worst:.1f} s (> --stall {args.stall:.0f} s); "
                            f"{starved} of {len(results)} clients had such a wait")
        if len(results) < args.clients:
            failures.append(f"only {len(results)} of {args.clients} clients reported")

        n_items = n_transfers = balance_total = 0
        if server.poll() is None and results:
            ddb = Ddb(port, args.timeout)
            try:
                n_items, n_transfers, balance_total, ambiguous = verify(ddb, results, failures)
            except (DdbError, Ambiguous) as e:
                failures.append(f"verification request failed: {e}")
                ambiguous = True
            ddb.close()
            print(f"  verified: {n_items} put items, {n_transfers} acknowledged transfers "
                  f"(balance total {balance_total}), counters and versions"
                  + (" (with ambiguous requests: bounds, not exact values)" if ambiguous else ""))
        m = memory(server.pid)
        if m:
            print(f"  server memory at the end: VmRSS {m[0]:.1f} MiB, RssAnon {m[1]:.1f}, "
                  f"RssFile {m[2]:.1f}, {m[3]} threads")
        if soak:
            ok, text = soak_verdict(samples, seconds)
            print(f"  soak: {text}")
            if not ok:
                failures.append(f"soak: {text}")
    finally:
        if server.poll() is None:
            t0 = time.monotonic()
            server.send_signal(signal.SIGTERM)
            try:
                rc = server.wait(timeout=15)
                took = time.monotonic() - t0
                print(f"  SIGTERM: exit status {rc} in {took:.2f} s")
                if rc != 0:
                    failures.append(f"the server exited {rc} after SIGTERM: {server.stderr.read()[-500:]}")
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
                failures.append("the server did not exit within 15 s of SIGTERM")
    check = subprocess.run([args.keyhole, db, "-c", ".check"], capture_output=True, text=True,
                           timeout=600)
    text = (check.stdout + check.stderr).strip()
    print(f"  .check: exit {check.returncode}: {text.splitlines()[-1] if text else ''}")
    if check.returncode != 0 or "integrity ok" not in text:
        failures.append(f".check failed (exit {check.returncode}): {text[-800:]}")
    if args.keep or failures:
        print(f"  database kept in {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)

    if failures:
        print(f"\nFAIL load_test ({len(failures)} problems):")
        for f in failures:
            print(f"  - {f}")
        return 1
    print(f"\nok load_test: {total / seconds:.0f} req/s with {args.clients} clients for "
          f"{seconds:.0f} s; every acknowledged write verified; SIGTERM exit 0; .check ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
