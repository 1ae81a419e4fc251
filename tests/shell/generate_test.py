#!/usr/bin/env python3
"""`.generate`, end to end with the real executable, on the Social sample:
  - 2,000 Posts PER User: every new Post follows the entity's key templates (its PK holds its
    user's username, its SK its createdAt and postId, GSI2 as the examples), keys unique;
  - the same seed gives the same items (two files compared whole);
  - --skew zipf:S makes a hot partition (one user holds far more posts than with no skew);
  - an unknown entity type names the ones .model finds, and writes nothing;
  - on a design whose ids are in the keys only (issue 42 §2): children land under parents that
    exist, one item's key parts agree (the id in SK and GSI1PK, the time in SK and GSI1SK), a
    second run makes new keys, numbers keep the data's zero-padding (5 and 7 digits), seeds
    differ, a child whose keys share nothing with the parent's is refused, Ctrl-C stops within
    a second and says how many were made.
Usage: generate_test.py KEYHOLE SAMPLES_DIR
"""
import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
from harness import check, finish  # noqa: E402

KEYHOLE, SAMPLES = sys.argv[1], sys.argv[2]


def run(*args):
    return subprocess.run([KEYHOLE, *args], capture_output=True, text=True, timeout=300)


def items(db, table="Social"):
    r = run(db, "-c", f".export {table} TO {db}.jsonl")
    if r.returncode != 0:
        return []
    with open(f"{db}.jsonl") as f:
        return [json.loads(line)["Item"] for line in f]


def posts(db):
    return [i for i in items(db) if i.get("Type", {}).get("S") == "Post"]

ACCOUNTS = """
CREATE TABLE App (PK S HASH, SK S RANGE) GLOBAL INDEX GSI1 (GSI1PK S HASH, GSI1SK S RANGE);
INSERT INTO App VALUE {'PK': 'ACCOUNT#10001', 'SK': 'METADATA', 'name': 'Acme'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10002', 'SK': 'METADATA', 'name': 'Globex'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10003', 'SK': 'METADATA', 'name': 'Initech'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10001', 'SK': 'USER#a1b2c3', 'GSI1PK': 'USER#a1b2c3', 'GSI1SK': 'ACCOUNT#10001', 'email': 'ann@x.io'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10002', 'SK': 'USER#d4e5f6', 'GSI1PK': 'USER#d4e5f6', 'GSI1SK': 'ACCOUNT#10002', 'email': 'bob@x.io'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10003', 'SK': 'USER#0a9b8c', 'GSI1PK': 'USER#0a9b8c', 'GSI1SK': 'ACCOUNT#10003', 'email': 'cy@x.io'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10001', 'SK': 'ORDER#2024-05-01T10:00:00Z#0000042', 'GSI1PK': 'ORDER#0000042', 'GSI1SK': '2024-05-01T10:00:00Z', 'total': 10};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10002', 'SK': 'ORDER#2024-05-03T11:00:00Z#0000043', 'GSI1PK': 'ORDER#0000043', 'GSI1SK': '2024-05-03T11:00:00Z', 'total': 12};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10003', 'SK': 'ORDER#2024-05-04T12:00:00Z#0000044', 'GSI1PK': 'ORDER#0000044', 'GSI1SK': '2024-05-04T12:00:00Z', 'total': 15};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10001', 'SK': 'TICKET#00012', 'title': 'a'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10002', 'SK': 'TICKET#00013', 'title': 'b'};
INSERT INTO App VALUE {'PK': 'ACCOUNT#10003', 'SK': 'TICKET#00017', 'title': 'c'};
INSERT INTO App VALUE {'PK': 'TAG#red', 'SK': 'TAG#red', 'color': 'red'};
INSERT INTO App VALUE {'PK': 'TAG#blue', 'SK': 'TAG#blue', 'color': 'blue'};
"""


def app_items(db):
    return items(db, "App")


def of(items, prefix):
    return [i for i in items if i["SK"]["S"].startswith(prefix)]


def s(item, name):
    return item.get(name, {}).get("S")



with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    for db in ("a.kh", "b.kh", "c.kh"):
        r = run(db, "-f", os.path.join(SAMPLES, "social", "schema.sql"))
        check(f"{db} loaded", r.returncode == 0, r.stderr)
    before = len(posts("a.kh"))
    skewed = [".generate Social Post 2000 PER User --seed 7 --skew zipf:1.2"]
    r = run("a.kh", "-c", skewed[0])
    check("generate", r.returncode == 0 and "-- 2000 Post items generated into Social (seed 7, each under a User, "
          "zipf:1.2)" in r.stderr, r.stderr)
    made = posts("a.kh")
    check("2,000 more posts", len(made) == before + 2000, len(made))
    bad = [p for p in made if p["PK"]["S"] != "USER#" + p["username"]["S"]
           or p["SK"]["S"] != f"POST#{p['createdAt']['S']}#{p['postId']['S']}"
           or p.get("GSI2PK", {}).get("S") != "ALL_POSTS"]
    check("keys follow the templates", not bad, bad[:2])
    check("keys unique", len({(p["PK"]["S"], p["SK"]["S"]) for p in made}) == len(made))
    r = run("b.kh", "-c", skewed[0])
    check("same seed, same items", items("a.kh") == items("b.kh"), "the files differ")
    hot = collections.Counter(p["PK"]["S"] for p in made).most_common(1)[0][1] / len(made)
    r = run("c.kh", "-c", ".generate Social Post 2000 PER User --seed 7")
    flat = collections.Counter(p["PK"]["S"] for p in posts("c.kh")).most_common(1)[0][1] / len(posts("c.kh"))
    check("a skew makes a hot partition", hot > 0.3 and flat < 0.3, (hot, flat))
    count = len(items("c.kh"))
    r = run("c.kh", "-c", ".generate Social Nope 5")
    check("unknown entity", r.returncode == 1 and "Social has no entity type Nope; .model finds " in r.stderr and "TeamMembership" in r.stderr
          and len(items("c.kh")) == count, r.stderr)

    # Ids in the keys only: parents, agreeing key parts, fresh keys, widths.
    with open("accounts.sql", "w") as f:
        f.write(ACCOUNTS)
    for db in ("d.kh", "e.kh"):
        r = run(db, "-f", "accounts.sql")
        check(f"{db} loaded", r.returncode == 0, r.stderr)
    accounts = {s(i, "PK") for i in of(app_items("d.kh"), "METADATA")}
    r = run("d.kh", "-c", ".generate App USER 1000 PER ACCOUNT")
    check("users generated", r.returncode == 0 and "1000 USER items generated into App (seed 1, "
          "each under an ACCOUNT)" in r.stderr, r.stderr)
    users = of(app_items("d.kh"), "USER#")
    check("1,003 users", len(users) == 1003, len(users))
    check("every user under an account that exists", all(s(u, "PK") in accounts for u in users),
          [s(u, "PK") for u in users if s(u, "PK") not in accounts][:3])
    check("one id in SK and GSI1PK, the account in GSI1SK",
          all(s(u, "GSI1PK") == s(u, "SK") and s(u, "GSI1SK") == s(u, "PK") for u in users),
          [u for u in users if s(u, "GSI1PK") != s(u, "SK")][:2])
    check("ids shaped as the data's", all(re.fullmatch(r"USER#[0-9a-f]{6}", s(u, "SK")) for u in users),
          [s(u, "SK") for u in users][:3])
    r = run("d.kh", "-c", ".generate App ORDER 50 PER ACCOUNT")
    orders = of(app_items("d.kh"), "ORDER#")
    parts = [s(o, "SK").split("#") for o in orders]
    check("53 orders", len(orders) == 53, r.stderr)
    check("the time in SK is the time in GSI1SK, the number in SK the one in GSI1PK",
          all(p[1] == s(o, "GSI1SK") and "ORDER#" + p[2] == s(o, "GSI1PK") for p, o in zip(parts, orders)),
          orders[:2])
    check("order numbers keep 7 digits and continue after 44",
          all(re.fullmatch(r"\d{7}", p[2]) for p in parts) and sorted(int(p[2]) for p in parts)[-1] == 94,
          sorted(p[2] for p in parts)[-3:])
    for run_number in (1, 2):
        r = run("d.kh", "-c", ".generate App TICKET 20 PER ACCOUNT")
        check(f"tickets, run {run_number}: 20 made", r.returncode == 0 and "-- 20 TICKET items" in r.stderr
              and "not made" not in r.stderr, r.stderr)
    tickets = of(app_items("d.kh"), "TICKET#")
    numbers = [s(t, "SK").split("#")[1] for t in tickets]
    check("43 tickets, 5 digits, all different",
          len(tickets) == 43 and len(set(numbers)) == 43 and all(re.fullmatch(r"\d{5}", n) for n in numbers),
          numbers[-5:])
    r = run("d.kh", "-c", ".generate App USER 500 PER ACCOUNT")
    check("a second run of users makes 500 new ones", r.returncode == 0 and "-- 500 USER items" in r.stderr
          and "not made" not in r.stderr and len(of(app_items("d.kh"), "USER#")) == 1503, r.stderr)
    r = run("e.kh", "-c", ".generate App USER 50 PER ACCOUNT --seed 2")
    ids_d = {s(u, "SK") for u in users}
    ids_e = {s(u, "SK") for u in of(app_items("e.kh"), "USER#")}
    check("another seed, other ids", len(ids_e - ids_d) >= 50, len(ids_e - ids_d))
    count = len(app_items("e.kh"))
    r = run("e.kh", "-c", ".generate App TICKET 5 PER TAG")
    check("a child whose keys share nothing with the parent's is refused",
          r.returncode == 1 and "TICKET's keys (PK = ACCOUNT#<number>, SK = TICKET#<number>) share no segment "
          "with TAG's" in r.stderr and len(app_items("e.kh")) == count, r.stderr)
    # Ctrl-C while making ten million: stops within a second, says how many, writes nothing.
    p = subprocess.Popen([KEYHOLE, "e.kh", "-c", ".generate App TICKET 10000000 PER ACCOUNT"],
                         stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    err = p.communicate(timeout=30)[1]
    waited = time.monotonic() - stopped
    check("Ctrl-C stops .generate within a second", waited < 1.0, waited)
    check("and says how many were made", re.search(r"Interrupted after making \d+ of 10000000 TICKET items: "
                                                   r"nothing was written", err) is not None, err)
    check("nothing written", len(app_items("e.kh")) == count)

finish("generate")
