#!/usr/bin/env python3
"""`.generate`, end to end with the real executable, on the Social sample:
  - 2,000 Posts PER User: every new Post follows the entity's key templates (its PK holds its
    user's username, its SK its createdAt and postId, GSI2 as the examples), keys unique;
  - the same seed gives the same items (two files compared whole);
  - --skew zipf:S makes a hot partition (one user holds far more posts than with no skew);
  - an unknown entity type names the ones .model finds, and writes nothing.
Usage: generate_test.py KEYHOLE SAMPLES_DIR
"""
import collections
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
from harness import check, finish  # noqa: E402

KEYHOLE, SAMPLES = sys.argv[1], sys.argv[2]


def run(*args):
    return subprocess.run([KEYHOLE, *args], capture_output=True, text=True, timeout=300)


def items(db):
    r = run(db, "-c", f".export Social TO {db}.jsonl")
    if r.returncode != 0:
        return []
    with open(f"{db}.jsonl") as f:
        return [json.loads(line)["Item"] for line in f]


def posts(db):
    return [i for i in items(db) if i.get("Type", {}).get("S") == "Post"]


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

finish("generate")
