#!/usr/bin/env python3
"""keyhole beside the sqlite3 CLI on the same data, whole processes, one run each side.

    python3 bench/vs_sqlite.py [--keyhole build/shell/keyhole] [--items 100000] [--only NAMES]

The data set: ITEMS orders of about 270 bytes in (ITEMS / 50) customers of 50 orders each, in a
keyhole table with two GSIs and, row for row, in an sqlite3 table with the same primary key
and two indexes. Each line times the same work on both sides with wall-clock time (the whole
process, as a user sees it) and prints the ratio keyhole / sqlite3 (below 1: keyhole is
faster). Work:

  import        .import of the JSON lines / sqlite3 .import of the same rows as CSV
  export        .export of the table to JSON lines / sqlite3 -json of every row to a file
  query50       2,000 key-addressed 50-item reads (a whole customer) as one script
  point         10,000 key-addressed single-item reads as one script
  start         process start to first result for one point read (median of 21 runs)
  insert        2,000 INSERTs, each its own committed (synced) transaction

Nothing is downloaded; sqlite3 is Debian's `sqlite3`. Output goes to /dev/null on both sides.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

STATUSES = ["PENDING", "SHIPPED", "DELIVERED", "RETURNED"]


def order(i):
    c = i // 50
    return {
        "pk": f"CUST#{c:06d}",
        "sk": f"ORDER#{i:08d}",
        "status": STATUSES[i % 4],
        "created": f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00Z",
        "product": f"PROD#{(i * 7919) % 5000:05d}",
        "amount": (i * 37) % 100000 / 100,
        "quantity": 1 + i % 9,
        "note": ("order note " + format(i * 2654435761 % (1 << 32), "08x")) * 7,
    }


COLUMNS = ["pk", "sk", "status", "created", "product", "amount", "quantity", "note"]


def write_data(d, n):
    jl = os.path.join(d, "orders.jsonl")
    csv = os.path.join(d, "orders.csv")
    with open(jl, "w") as j, open(csv, "w") as c:
        for i in range(n):
            o = order(i)
            j.write(json.dumps(o, separators=(",", ":")) + "\n")
            c.write(",".join(str(o[k]) for k in COLUMNS) + "\n")
    return jl, csv


KEYHOLE_SCHEMA = ('CREATE TABLE "Orders" (pk S, sk S) '
                  'GLOBAL INDEX "byStatus" (status S, created S) '
                  'GLOBAL INDEX "byProduct" (product S, created S);\n')
SQLITE_SCHEMA = ("CREATE TABLE Orders(pk TEXT, sk TEXT, status TEXT, created TEXT, product TEXT, "
                 "amount REAL, quantity INTEGER, note TEXT, PRIMARY KEY(pk, sk));\n"
                 "CREATE INDEX byStatus ON Orders(status, created);\n"
                 "CREATE INDEX byProduct ON Orders(product, created);\n")


def run(cmd, stdin_text=None, stdin_file=None):
    """Runs cmd with output to /dev/null; returns (seconds, the process's max RSS in MB).

    Dirty pages are written out first (outside the timing), so that neither side pays for the
    writeback of files written before it: the data files, or the other side's database."""
    os.sync()
    stdin = open(stdin_file) if stdin_file else (subprocess.PIPE if stdin_text else None)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    if stdin_text:
        p.stdin.write(stdin_text)
        p.stdin.close()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if stdin_file:
        stdin.close()
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{err[-2000:]}")
    run.stderr = err
    return dt, usage.ru_maxrss / 1024


def script(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def line(work, k, s, note=""):
    print(f"{work:<34} {k:>10.3f} s {s:>10.3f} s {k / s:>8.2f}x  {note}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keyhole", default="build/shell/keyhole")
    ap.add_argument("--sqlite3", default="sqlite3")
    ap.add_argument("--items", type=int, default=100000)
    ap.add_argument("--only", default="import,export,query50,point,start,insert")
    ap.add_argument("--keep", help="directory to keep the files in (default: a temporary one)")
    a = ap.parse_args()
    only = set(a.only.split(","))
    kh = os.path.abspath(a.keyhole)
    if not shutil.which(a.sqlite3):
        sys.exit("sqlite3 not found (scripts/setup.sh installs it)")
    d = a.keep or tempfile.mkdtemp(prefix="keyhole-vs-sqlite-")
    os.makedirs(d, exist_ok=True)
    n = a.items
    customers = max(1, n // 50)
    jl, csv = write_data(d, n)
    khdb, sqdb = os.path.join(d, "orders.kh"), os.path.join(d, "orders.db")
    for f in (khdb, sqdb):
        if os.path.exists(f):
            os.remove(f)
    print(f"{n} items of ~270 bytes, {customers} customers x 50, 2 GSIs / 2 indexes; files in {d}")
    print(f"{'work':<34} {'keyhole':>12} {'sqlite3':>12} {'ratio':>9}")

    # The schema, then the import (always done: the reads need the data).
    run([kh, khdb, "-c", KEYHOLE_SCHEMA])
    run([a.sqlite3, sqdb], stdin_text=SQLITE_SCHEMA)
    kt, krss = run([kh, khdb, "-c", f".import {jl} INTO Orders"])
    if f"-- {n} items imported" not in run.stderr:
        sys.exit(f"keyhole's import did not report {n} items: {run.stderr}")
    st, srss = run([a.sqlite3, sqdb], stdin_text=f".mode csv\n.import {csv} Orders\n")
    if "import" in only:
        line(f"import {n} items", kt, st,
             f"{n / kt:,.0f} items/s vs {n / st:,.0f}; max RSS {krss:.0f} MB vs {srss:.0f} MB")

    if "export" in only:
        out = os.path.join(d, "export")
        kt, _ = run([kh, khdb, "-c", f".export Orders TO {out}.jsonl"])
        os.sync()  # as run() does
        t0 = time.perf_counter()
        with open(out + ".json", "w") as f:
            subprocess.run([a.sqlite3, "-json", sqdb, "SELECT * FROM Orders"], stdout=f, check=True)
        st = time.perf_counter() - t0
        line(f"export {n} items to a file", kt, st)

    if "query50" in only:
        ks = "".join(f"SELECT * FROM \"Orders\" WHERE pk = 'CUST#{(i * 7) % customers:06d}';\n"
                     for i in range(2000))
        ss = "".join(f"SELECT * FROM Orders WHERE pk = 'CUST#{(i * 7) % customers:06d}';\n"
                     for i in range(2000))
        kt, _ = run([kh, khdb, "--mode", "json", "-f", script(d, "q50.sql", ks)])
        st, _ = run([a.sqlite3, "-json", sqdb], stdin_file=script(d, "q50.sqlite", ss))
        line("2,000 50-item queries (script)", kt, st)

    def point(i):
        j = (i * 7919) % n
        return f"pk = 'CUST#{j // 50:06d}' AND sk = 'ORDER#{j:08d}'"

    if "point" in only:
        ks = "".join(f'SELECT * FROM "Orders" WHERE {point(i)};\n' for i in range(10000))
        ss = "".join(f"SELECT * FROM Orders WHERE {point(i)};\n" for i in range(10000))
        kt, _ = run([kh, khdb, "--mode", "json", "-f", script(d, "pt.sql", ks)])
        st, _ = run([a.sqlite3, "-json", sqdb], stdin_file=script(d, "pt.sqlite", ss))
        line("10,000 point reads (script)", kt, st)

    if "start" in only:
        kq = f'SELECT * FROM "Orders" WHERE {point(12345)}'
        sq = f"SELECT * FROM Orders WHERE {point(12345)}"
        kts = [run([kh, khdb, "--mode", "json", "-c", kq])[0] for _ in range(21)]
        sts = [run([a.sqlite3, "-json", sqdb, sq])[0] for _ in range(21)]
        line("start to first result (median)", statistics.median(kts), statistics.median(sts))

    if "insert" in only:
        ks = "".join(f"INSERT INTO \"Orders\" VALUE {{'pk': 'NEW#{i:05d}', 'sk': 'ORDER#0', "
                     f"'status': 'PENDING', 'created': '2026-11-26', 'product': 'PROD#00001', "
                     f"'amount': 12.5, 'quantity': 1, 'note': 'new'}};\n" for i in range(2000))
        ss = "".join(f"INSERT INTO Orders VALUES ('NEW#{i:05d}', 'ORDER#0', 'PENDING', "
                     f"'2026-11-26', 'PROD#00001', 12.5, 1, 'new');\n" for i in range(2000))
        kt, _ = run([kh, khdb, "-f", script(d, "ins.sql", ks)])
        st, _ = run([a.sqlite3, sqdb], stdin_file=script(d, "ins.sqlite", ss))
        line("2,000 INSERTs, each committed", kt, st)

    if not a.keep:
        shutil.rmtree(d)


if __name__ == "__main__":
    main()
