#!/usr/bin/env python3
"""What a program reads from keyhole in csv, json and ddb modes must be data only.

Runs the real keyhole executable and parses its standard output with Python's csv and json
modules: paged results (.pagesize + NEXT), scripts with DDL and writes, .once files, SHOW
TABLES and EXPLAIN. The footers and notices must be on standard error instead.

Usage: machine_output_test.py KEYHOLE
"""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

KEYHOLE = sys.argv[1]
failures = []


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


def run(db, *args, stdin=None):
    p = subprocess.run([KEYHOLE, db, *args], input=stdin, capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "m.kh")
    tricky = ["plain", "comma, inside", 'a "quoted" word', "two\nlines", "ünïcödé ✓", "-- not a footer"]
    # Newlines cannot be written inside a PartiQL string: the items go in through PutItem.
    script = []
    for i in range(30):
        text = tricky[i % len(tricky)]
        item = {"pk": {"S": "a"}, "sk": {"N": str(i)}, "note": {"S": text}}
        script.append("PutItem " + json.dumps({"TableName": "Things", "Item": item}) + ";")
    code, out, err = run(db, "--mode", "csv", "-c", 'CREATE TABLE "Things" (pk S, sk N)',
                         "-c", ".quiet on", *[x for s in script for x in ("-c", s)])
    check("load exit status", code == 0, err)

    # A script of DDL and writes in a machine mode prints nothing on standard output.
    for mode in ("csv", "json", "ddb"):
        code, out, err = run(db, "--mode", mode, "-c", 'CREATE TABLE IF NOT EXISTS "Other" (pk S)',
                             "-c", "INSERT INTO \"Other\" VALUE {'pk': 'x'}",
                             "-c", "DELETE FROM \"Other\" WHERE pk = 'x'",
                             "-c", "DROP TABLE \"Other\"")
        check(f"{mode}: writes print no data", code == 0 and out == "", repr(out) + err)
        check(f"{mode}: notices on stderr", "-- table Other created" in err and "WCU" in err, err)

    # Paged results: SELECT and NEXT until the end, read whole by the parsers.
    pages = ["-c", ".pagesize 7", "-c", "SELECT * FROM \"Things\" WHERE pk = 'a'"] + ["-c", "NEXT"] * 4
    code, out, err = run(db, "--mode", "csv", *pages)
    check("csv paged exit status", code == 0, err)
    rows = list(csv.reader(io.StringIO(out, newline="")))
    check("csv: one header row", rows[:1] == [["pk", "sk", "note"]], rows[:2])
    check("csv: 30 data rows", len(rows) == 31, f"{len(rows)} rows: {out!r}")
    check("csv: values round-trip",
          sorted(r[2] for r in rows[1:]) == sorted(tricky[i % len(tricky)] for i in range(30)),
          rows)
    check("csv: sort keys in order", [int(r[1]) for r in rows[1:]] == list(range(30)), rows)
    check("csv: footers on stderr", "-- 7 returned, 7 read · Query on Things" in err
          and "-- more: LastEvaluatedKey" in err, err)

    for mode in ("json", "ddb"):
        code, out, err = run(db, "--mode", mode, *pages)
        check(f"{mode} paged exit status", code == 0, err)
        try:
            objects = [json.loads(line) for line in out.splitlines()]
        except ValueError as e:
            objects = []
            check(f"{mode}: every line is JSON", False, f"{e}: {out!r}")
        check(f"{mode}: 30 objects", len(objects) == 30, len(objects))
        if mode == "json" and objects:
            check("json: plain values", objects[3]["sk"] == 3 and objects[3]["note"] == tricky[3],
                  objects[3])
        if mode == "ddb" and objects:
            check("ddb: DynamoDB JSON", objects[3]["note"] == {"S": tricky[3]}, objects[3])

    # .quiet on keeps the rows (and drops the footers).
    code, out, err = run(db, "--mode", "csv", "-c", ".quiet on",
                         "-c", "SELECT sk FROM \"Things\" WHERE pk = 'a' AND sk = 5")
    check(".quiet keeps rows", list(csv.reader(io.StringIO(out))) == [["sk"], ["5"]], out + err)

    # .once writes data only; SHOW TABLES and EXPLAIN stay parseable in json mode.
    once = os.path.join(tmp, "once.jsonl")
    code, out, err = run(db, "--mode", "json", "-c", f".once {once}",
                         "-c", "SELECT * FROM \"Things\" WHERE pk = 'a'",
                         "-c", "SHOW TABLES",
                         "-c", "EXPLAIN SELECT * FROM \"Things\" WHERE pk = 'a'",
                         "-c", "EXPLAIN SCAN SELECT * FROM \"Things\" WHERE note = 'plain'")
    check(".once/SHOW/EXPLAIN exit status", code == 0, err)
    with open(once) as f:
        body = f.read()
    try:
        check(".once: 30 JSON lines", len([json.loads(l) for l in body.splitlines()]) == 30, body)
        parsed = [json.loads(l) for l in out.splitlines()]
        check("SHOW TABLES + EXPLAIN: JSON lines", parsed[0] == {"TableName": "Things"}
              and parsed[1]["TableName"] == "Things" and "KeyConditionExpression" in parsed[1]
              and "FilterExpression" in parsed[2], parsed)
    except ValueError as e:
        check(".once/EXPLAIN parse", False, f"{e}: {body!r} {out!r}")
    check("EXPLAIN estimates on stderr", "-- estimated:" in err, err)

    # An access-pattern report in csv: rows of data; the summary on standard error.
    patterns = os.path.join(tmp, "p.sql")
    with open(patterns, "w") as f:
        f.write("-- pattern: one item\nSELECT * FROM \"Things\" WHERE pk = 'a' AND sk = 1;\n"
                "-- refused: by note\nSELECT * FROM \"Things\" WHERE note = 'plain';\n")
    code, out, err = run(db, "--mode", "csv", "--patterns", patterns)
    rows = list(csv.reader(io.StringIO(out)))
    check("patterns csv", code == 0 and rows[0][:2] == ["pattern", "operation"]
          and rows[1][:2] == ["one item", "GetItem"] and len(rows) == 3, out + err)
    check("patterns summary on stderr",
          "-- 2 patterns: 1 key-addressed, 1 refused as expected" in err, err)
    # ... and in json: capacity a number, its unit apart (not "0.5 RCU").
    code, out, err = run(db, "--mode", "json", "--patterns", patterns)
    first = json.loads(out.splitlines()[0]) if code == 0 and out else {}
    check("patterns json: numbers", first.get("capacity") == 0.5 and first.get("unit") == "RCU"
          and first.get("returned") == 1 and first.get("more") is False, out + err)

    # Box mode on a pipe keeps its footers inline, as a person reading it expects.
    code, out, err = run(db, "--mode", "box", "-c", "SELECT sk FROM \"Things\" WHERE pk = 'a' AND sk = 1")
    check("box: footer inline", out.endswith("-- 1 returned, 1 read · GetItem on Things · 0.5 RCU\n"), out)

for f in failures:
    print("FAIL", f)
print(f"machine output: {'ok' if not failures else str(len(failures)) + ' failed'}")
sys.exit(1 if failures else 0)
