#!/usr/bin/env python3
"""`--plan`, `.plan` and `.partitions`, end to end with the real executable, on the samples.
Every figure checked here is worked out by hand from DynamoDB's rules (0.5 RCU for an
eventually consistent read of up to 4 KB, 1 WCU per 1 KB written to the table and to each index
holding the item), the rates in samples/social/patterns.sql and the us-east-1 prices
(modeling/prices.h):
  - per pattern: requests, RCU and WCU per second, the write amplification of a post;
  - per table and index, provisioned capacity at 70%, cost per month on demand and provisioned;
  - the ALL_POSTS partition of GSI2 flagged above 1,000 WCU per second and not below, with
    the sharding advice and its read fan-out;
  - a skewed generated data set (.generate --skew) showing a hot user partition, with the load
    shared as the items are;
  - .partitions, --prices, --region, --scale, bad rates, csv that parses, a plan over HTTP;
  - every sample's patterns have rates and plan without an error.
Usage: plan_test.py KEYHOLE SAMPLES_DIR
"""
import collections
import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
from harness import check, finish, start_server  # noqa: E402

KEYHOLE, SAMPLES = sys.argv[1], sys.argv[2]
SOCIAL = os.path.join(SAMPLES, "social")
MONTH = 730 * 3600  # seconds


def run(*args):
    return subprocess.run([KEYHOLE, *args], capture_output=True, text=True, timeout=300)


def fresh(db, sample="social"):
    if os.path.exists(db):
        os.remove(db)
    r = run(db, "-f", os.path.join(SAMPLES, sample, "schema.sql"))
    check(f"{db} loaded", r.returncode == 0, r.stderr)


def rows(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def plan(db, patterns, *extra):
    r = run(db, "--mode", "json", "--patterns", patterns, "--plan", *extra)
    return r, rows(r.stdout)


def section(rs, name):
    return [r for r in rs if r["section"] == name]


def near(a, b):
    return abs(a - b) < 1e-6 * max(1, abs(b))


def with_rate(pattern, rate, out):
    """samples/social/patterns.sql with `pattern`'s rate changed."""
    lines = open(os.path.join(SOCIAL, "patterns.sql")).read().split("\n")
    for i, line in enumerate(lines):
        if line == f"-- pattern: {pattern}":
            check(f"{pattern} has a rate", lines[i + 1].startswith("-- rate: "), lines[i + 1])
            lines[i + 1] = f"-- rate: {rate}"
    with open(out, "w") as f:
        f.write("\n".join(lines))
    return out


with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    patterns = os.path.join(SOCIAL, "patterns.sql")

    # ---- the Social sample's plan, by hand ----
    fresh("s.kh")
    r, rs = plan("s.kh", patterns)
    check("plan runs", r.returncode == 0, r.stderr)
    p = {x["pattern"]: x for x in section(rs, "pattern")}
    check("13 rated patterns", len(p) == 13, sorted(p))
    profile = p.get("get a user's profile", {})
    check("profile: 400 GetItems/s, 0.5 RCU each",
          profile.get("requests_per_s") == 400 and profile.get("rcu_per_s") == 200
          and profile.get("wcu_per_s") == 0 and profile.get("operation") == "GetItem", profile)
    few = p.get("latest posts of a few users", {})
    check("IN over two users: 100/s is 200 Queries/s", few.get("requests_per_s") == 200
          and few.get("rcu_per_s") == 100 and few.get("operation") == "Query ×2", few)
    batch = p.get("get several users' profiles at once", {})
    check("BatchGetItem of 3 profiles: 1.5 RCU a call", batch.get("rcu_per_s") == 300, batch)
    post = p.get("publish a post", {})
    check("a post is 3 writes: table, GSI1, GSI2", post.get("units_per_call") == {
        "Social": {"rcu": 0, "wcu": 1}, "Social.GSI1": {"rcu": 0, "wcu": 1},
        "Social.GSI2": {"rcu": 0, "wcu": 1}} and post.get("wcu_per_s") == 150, post)
    check("a post's size", 200 < post.get("item_bytes_max", 0) < 1024, post)

    t = {x["on"]: x for x in rs if x["section"] in ("table", "gsi", "lsi")}
    # Reads on the table: 400×0.5 + 200×1.5 + 300×0.5 + 100×1 + 20×0.5 + 2×0.5 + 2×0.5.
    table_rcu = 200 + 300 + 150 + 100 + 10 + 1 + 1
    gsi1_rcu = 5 * 0.5 + 150 * 0.5 + 50 * 0.5 + 10 * 0.5
    check("Social: RCU/s and WCU/s", near(t["Social"]["rcu_per_s"], table_rcu)
          and t["Social"]["wcu_per_s"] == 50, t.get("Social"))
    check("GSI1", near(t["Social.GSI1"]["rcu_per_s"], gsi1_rcu)
          and t["Social.GSI1"]["wcu_per_s"] == 50, t.get("Social.GSI1"))
    check("GSI2", t["Social.GSI2"]["rcu_per_s"] == 50 and t["Social.GSI2"]["wcu_per_s"] == 50,
          t.get("Social.GSI2"))
    prov = {k: (math.ceil(v["rcu_per_s"] / 0.7 - 1e-9), math.ceil(v["wcu_per_s"] / 0.7 - 1e-9))
            for k, v in t.items()}
    check("provisioned at 70%", prov["Social"] == (1089, 72) and all(
        (t[k]["provisioned_rcu"], t[k]["provisioned_wcu"]) == prov[k] for k in t), t)
    cost = {c["billing"]: c for c in section(rs, "cost")}
    reads = (table_rcu + gsi1_rcu + 50) * MONTH / 1e6 * 0.125
    writes = 150 * MONTH / 1e6 * 0.625
    check("on demand: reads and writes a month", near(cost["PAY_PER_REQUEST"]["reads_per_month"], reads)
          and near(cost["PAY_PER_REQUEST"]["writes_per_month"], writes), cost)
    provisioned = (sum(v[0] for v in prov.values()) * 0.00013
                   + sum(v[1] for v in prov.values()) * 0.00065) * 730
    check("provisioned a month", near(cost["PROVISIONED"]["throughput_per_month"], provisioned),
          (cost["PROVISIONED"], provisioned))
    storage_bytes = sum(v["bytes"] + 100 * v["items"] for v in t.values())
    check("storage", near(cost["PROVISIONED"]["storage_gb"], storage_bytes / 2**30), cost)
    parts = {(x["on"], x["partition"]): x for x in section(rs, "partition")}
    all_posts = parts.get(("Social.GSI2", "ALL_POSTS"), {})
    check("ALL_POSTS at 50 WCU/s: every post, not over", all_posts.get("wcu_per_s") == 50
          and all_posts.get("every_request") is True and all_posts.get("status") == "ok", all_posts)
    check("no HOT at the sample's rates", "HOT" not in r.stderr, r.stderr)
    new_post = [x for x in section(rs, "partition") if x["on"] == "Social.GSI1"
                and x["partition"].startswith("POST#") and x.get("new_value")]
    check("a new post's own GSI1 partition: one request, not the other posts' share",
          new_post and new_post[0]["wcu_per_s"] == 1 and new_post[0]["patterns"] == ["publish a post"],
          section(rs, "partition"))
    check("the advice names the model's collections", "name typical ones (for " in r.stderr
          and "USER#…" in r.stderr and "posts" not in r.stderr.split("name typical ones")[1][:200],
          r.stderr)
    check("ALL_POSTS named as a one-value index", "Social.GSI2 has 1 partition key value "
          "('ALL_POSTS')" in r.stderr, r.stderr)

    # ---- ALL_POSTS over 1,000 WCU/s, and just under ----
    for rate, over in (("990/s", False), ("1010/s", True)):
        fresh("busy.kh")
        r, rs = plan("busy.kh", with_rate("publish a post", rate, "busy.sql"))
        a = {(x["on"], x["partition"]): x for x in section(rs, "partition")}.get(
            ("Social.GSI2", "ALL_POSTS"), {})
        wcu = float(rate[:-2])
        check(f"ALL_POSTS at {rate}", a.get("wcu_per_s") == wcu
              and a.get("status") == ("over" if over else "warm"), a)
        hot = "HOT: Social.GSI2 partition 'ALL_POSTS' takes 1,010 WCU/s, over DynamoDB's 1,000 WCU"
        check(f"HOT at {rate}: {over}", (hot in r.stderr) == over
              and ("HOT" in r.stderr) == over, r.stderr)
        if over:
            check("shard advice", "shard it: write to 2 keys (ALL_POSTS#0 … ALL_POSTS#1" in r.stderr,
                  r.stderr)
            # The timeline is read 100 times a second: with 2 shards, 100 more Queries, each at
            # least 0.5 RCU.
            check("read fan-out", "every Query of it becomes 2 Queries, one per shard (then "
                  "merged): 100 more requests/s, at least 50 more RCU/s (global timeline of one "
                  "day, newest first)" in r.stderr, r.stderr)

    # ---- a skewed data set: a hot user ----
    fresh("skew.kh")
    r = run("skew.kh", "-c", ".generate Social Post 3000 PER User --seed 5 --skew zipf:1.3")
    check("generate", r.returncode == 0, r.stderr)
    r = run("skew.kh", "-c", ".export Social TO skew.jsonl")
    per_pk = collections.Counter(json.loads(line)["Item"]["PK"]["S"] for line in open("skew.jsonl"))
    users = {k: v for k, v in per_pk.items() if k.startswith("USER#")}
    top, top_items = max(users.items(), key=lambda kv: kv[1])
    share = top_items / sum(users.values())
    check("the skew makes a hot user", share > 0.3, (top, share))
    r = run("skew.kh", "--mode", "json", "-c", ".partitions Social")
    ps = rows(r.stdout)
    check(".partitions: largest first", ps and ps[0]["partition"] == top
          and ps[0]["items"] == top_items and len(ps) == len(per_pk), ps[:2])
    check(".partitions: the shares add up", near(sum(x["bytes_share"] for x in ps), 1) or
          abs(sum(x["bytes_share"] for x in ps) - 1) < 1e-4, ps)
    check(".partitions: top 1% and sizes", "the largest value (of " in r.stderr
          and "item sizes in bytes: smallest" in r.stderr, r.stderr)
    with open("profile.sql", "w") as f:
        f.write("-- pattern: profile\n-- rate: 20000/s\n"
                "SELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n")
    r, rs = plan("skew.kh", "profile.sql")
    hot = {(x["on"], x["partition"]): x for x in section(rs, "partition")}.get(("Social", top), {})
    # 20,000 GetItems/s of 0.5 RCU spread like the USER# items: the top user gets its share.
    check("the hot user's share of the reads", near(hot.get("rcu_per_s", 0), 10000 * share)
          and hot.get("every_request") is False, (hot, 10000 * share))
    check("over 3,000 RCU/s: HOT", hot.get("status") == "over"
          and f"HOT: Social partition '{top}' takes" in r.stderr, r.stderr)

    # ---- an item collection growing toward 10 GB on a table with an LSI ----
    for stmt in ("CREATE TABLE \"Events\" (pk S HASH, sk S RANGE) LOCAL INDEX \"byTs\" (ts S RANGE)",
                 "INSERT INTO \"Events\" VALUE {'pk': 'DEVICE#1', 'sk': 'E#0', 'ts': '2023'}",
                 "INSERT INTO \"Events\" VALUE {'pk': 'DEVICE#2', 'sk': 'E#0', 'ts': '2023'}"):
        r = run("lsi.kh", "-c", stmt)
        check("lsi table", r.returncode == 0, r.stderr)
    event = {"pk": "DEVICE#1", "sk": "E#000001", "ts": "2024-01-01", "payload": "x" * 166}
    with open("events.sql", "w") as f:
        f.write("-- pattern: log an event\n-- rate: 20/s\nINSERT INTO \"Events\" VALUE {"
                + ", ".join(f"'{k}': '{v}'" for k, v in event.items()) + "};\n")
    r, rs = plan("lsi.kh", "events.sql")
    size = sum(len(k) + len(v) for k, v in event.items())
    # The collection holds each item and its entry in byTs (projecting ALL): twice its size.
    now = 2 * (size + len("pk") + len("DEVICE#1") + len("sk") + len("E#0") + len("ts") + len("2023"))
    # DEVICE#1 holds 2 of the 3 DEVICE# items: two thirds of 20 events a second.
    days = (10 * 2**30 - now) / (20 * 2 / 3 * 2 * size) / 86400
    check("GROWING toward 10 GB", f"-- GROWING: Events's item collection 'DEVICE#1' ({now} bytes "
          f"now)" in r.stderr and f"in {round(days)} days" in r.stderr, (days, r.stderr))
    lsi = {(x["on"], x["partition"]): x for x in section(rs, "partition")}.get(("Events", "DEVICE#1"), {})
    check("an LSI's writes land on the table's partition", near(lsi.get("wcu_per_s", 0), 20 * 2 * 2 / 3),
          lsi)
    check("no few-values note for an LSI", "Events.byTs has" not in r.stderr, r.stderr)
    with open("lsiread.sql", "w") as f:
        f.write("-- pattern: by time\n-- rate: 2000/s\n"
                "SELECT * FROM \"Events\".\"byTs\" WHERE pk = 'DEVICE#2' AND ts = '2023';\n"
                "-- pattern: by key\n-- rate: 2000/s\n"
                "SELECT * FROM \"Events\" WHERE pk = 'DEVICE#2' AND sk = 'E#0';\n")
    r, rs = plan("lsi.kh", "lsiread.sql")
    ps = {(x["on"], x["partition"]): x for x in section(rs, "partition")}
    check("an LSI's reads land on the table's partition", ("Events.byTs", "DEVICE#1") not in ps
          and ps.get(("Events", "DEVICE#1"), {}).get("rcu_per_s", 0) > 0, ps)
    # Plain ids (numbers, strings with digits) stand for many values: no false HOT.
    for stmt in ("CREATE TABLE \"Ids\" (id S HASH)",
                 "INSERT INTO \"Ids\" VALUE {'id': 'u1'}", "INSERT INTO \"Ids\" VALUE {'id': 'u2'}",
                 "INSERT INTO \"Ids\" VALUE {'id': 'u3'}", "INSERT INTO \"Ids\" VALUE {'id': 'u4'}"):
        run("lsi.kh", "-c", stmt)
    with open("ids.sql", "w") as f:
        f.write("-- pattern: new\n-- rate: 2000/s\nINSERT INTO \"Ids\" VALUE {'id': 'u5'};\n")
    r, rs = plan("lsi.kh", "ids.sql")
    ids = [x for x in section(rs, "partition") if x["on"] == "Ids"]
    # u5 is a new value: at 2,000/s each request makes another one, so no value takes more than
    # one request's 1 WCU (not 400 WCU/s on u1, as if the four existing ids took every write).
    check("a new value each request: one request's units", ids and ids[0]["wcu_per_s"] == 1
          and ids[0]["new_value"] and not ids[0]["every_request"] and "HOT" not in r.stderr,
          (ids, r.stderr))
    # The same ids written again are existing values: they share the load as the items do.
    with open("ids2.sql", "w") as f:
        f.write("-- pattern: again\n-- rate: 2000/s\nUPDATE \"Ids\" SET n = 1 WHERE id = 'u2';\n")
    r, rs = plan("lsi.kh", "ids2.sql")
    ids = [x for x in section(rs, "partition") if x["on"] == "Ids"]
    check("an existing value shares the load", ids and not ids[0]["new_value"]
          and near(ids[0]["wcu_per_s"], 2000 / 5), ids)

    # Entities by their template: tenant-1 and project-1 are two classes, not one "<id>".
    for stmt in ("CREATE TABLE \"Ent\" (pk S HASH, sk S RANGE)",
                 "INSERT INTO \"Ent\" VALUE {'pk': 'tenant-1', 'sk': 'A'}",
                 "INSERT INTO \"Ent\" VALUE {'pk': 'tenant-2', 'sk': 'A'}",
                 "INSERT INTO \"Ent\" VALUE {'pk': 'project-1', 'sk': 'A'}",
                 "INSERT INTO \"Ent\" VALUE {'pk': 'project-2', 'sk': 'A'}",
                 "INSERT INTO \"Ent\" VALUE {'pk': 'project-3', 'sk': 'A'}",
                 "INSERT INTO \"Ent\" VALUE {'pk': 'project-4', 'sk': 'A'}"):
        r = run("ent.kh", "-c", stmt)
        check("ent table", r.returncode == 0, r.stderr)
    with open("ent.sql", "w") as f:
        f.write("-- pattern: a tenant\n-- rate: 1000/s\n"
                "SELECT * FROM \"Ent\" WHERE pk = 'tenant-1';\n")
    r, rs = plan("ent.kh", "ent.sql")
    ent = [x for x in section(rs, "partition") if x["on"] == "Ent"]
    # 1,000 Queries/s of 0.5 RCU over the 2 tenants: 250 RCU/s each (over all 6 ids: 83.3).
    check("tenant- values share a tenant's load", ent and near(ent[0]["rcu_per_s"], 250)
          and ent[0]["partition"] in ("tenant-1", "tenant-2"), ent)

    # What a read paid for: the whole item, not the projection it returned.
    run("paid.kh", "-c", "CREATE TABLE \"Paid\" (pk S HASH)")
    run("paid.kh", "-c", "INSERT INTO \"Paid\" VALUE {'pk': 'a', 'small': 'x', 'big': '"
        + "y" * 3000 + "'}")
    with open("paid.sql", "w") as f:
        f.write("-- pattern: get small\n-- rate: 1/s\nSELECT small FROM \"Paid\" WHERE pk = 'a';\n"
                "-- pattern: query small\n-- rate: 1/s\n"
                "SELECT small FROM \"Paid\" WHERE pk = 'a' AND small = 'x';\n")
    r, rs = plan("paid.kh", "paid.sql")
    whole = 2 + 1 + 5 + 1 + 3 + 3000
    paid = {x["pattern"]: x for x in section(rs, "pattern")}
    check("item bytes: what was paid for", r.returncode == 0 and all(
        paid.get(n, {}).get("item_bytes_max") == whole for n in ("get small", "query small")),
        (paid, whole, r.stderr))

    # ---- vector indexes: searches and writes at DynamoDB's per-GB prices ----
    fresh("agents.kh", "agents")
    r, rs = plan("agents.kh", os.path.join(SAMPLES, "agents", "patterns.sql"))
    p = {x["pattern"]: x for x in section(rs, "pattern")}
    remember = p.get("remember a message", {})
    # 4 dimensions: 16 bytes of vector, floored at 1 KB a write; 100 writes a second.
    check("vector writes per second", remember.get("vector_write_bytes_per_s") == 1024 * 100,
          remember)
    recall = p.get("recall the memories nearest a question", {})
    check("vector searches: 1 KB at least each", recall.get("vector_search_bytes_per_s", 0)
          >= 1024 * 200 and recall.get("requests_per_s") == 200, recall)
    v = section(rs, "vector")
    cost = {c["billing"]: c for c in section(rs, "cost")}
    if v:
        v = v[0]
        expected = (v["vector_write_bytes_per_s"] * MONTH / 2**30 * 0.52
                    + v["vector_search_bytes_per_s"] * MONTH / 2**30 * 0.002)
        check("vector cost a month", v["on"] == "Agents.byMeaning"
              and near(v["on_demand_per_month"], expected)
              and near(cost["PAY_PER_REQUEST"]["vector_per_month"], expected), (v, cost))
    else:
        check("a vector section", False, rs)
    check("vector pricing said", "$0.52/GB written, $0.002/GB searched" in r.stderr, r.stderr)

    # ---- prices, regions, scale ----
    with open("prices.json", "w") as f:
        json.dump({"date": "2026-11-01", "regions": {"eu-west-1": {
            "on_demand_read_per_million": 0.2, "on_demand_write_per_million": 1.0,
            "rcu_hour": 0.0002, "wcu_hour": 0.001, "storage_gb_month": 0.5}}}, f)
    fresh("p.kh")
    r, rs = plan("p.kh", patterns, "--prices", "prices.json", "--region", "eu-west-1",
                 "--scale", "1000")
    cost = {c["billing"]: c for c in section(rs, "cost")}
    t = {x["on"]: x for x in rs if x["section"] in ("table", "gsi", "lsi")}
    check("the file's prices", r.returncode == 0
          and near(cost["PAY_PER_REQUEST"]["writes_per_month"], 150 * MONTH / 1e6 * 1.0)
          and cost["PAY_PER_REQUEST"]["region"] == "eu-west-1", (cost, r.stderr))
    gb = 1000 * sum(v["bytes"] + 100 * v["items"] for v in t.values()) / 2**30
    check("--scale multiplies storage", near(cost["PAY_PER_REQUEST"]["storage_gb"], gb)
          and near(cost["PAY_PER_REQUEST"]["storage_per_month"], gb * 0.5), cost)
    fresh("q.kh")
    r = run("q.kh", "--patterns", patterns, "--plan", "--region", "ap-south-1")
    check("no prices for a region: refused before any write", r.returncode == 1
          and "no built-in prices for region ap-south-1" in r.stderr, r.stderr)
    r = run("q.kh", "--mode", "csv", "-c",
            "SELECT PK FROM \"Social\" WHERE PK = 'USER#dave' AND SK = 'POST#2024-03-07T08:00:00Z#k4p7rw'")
    check("nothing written", r.stdout.strip() == "", r.stdout)
    r = run("q.kh", "--mode", "table", "--patterns", patterns, "--plan", "--prices", "prices.json")
    check("a one-region file needs no --region", r.returncode == 0 and "in eu-west-1" in r.stdout,
          r.stdout[-500:] + r.stderr)
    r = run("q.kh", "--patterns", patterns, "--scale", "10")
    check("--scale without --plan", r.returncode == 2 and "--scale and --prices are for --plan"
          in r.stderr, r.stderr)
    r = run("q.kh", "--plan")
    check("--plan without --patterns", r.returncode == 2 and "--plan needs --patterns" in r.stderr,
          r.stderr)
    def prices_refused(what, text, expected):
        with open("prices_bad.json", "w") as f:
            f.write(text)
        r = run("q.kh", "-c", f".plan {patterns} --prices prices_bad.json")
        check(what, r.returncode == 1 and expected in r.stderr, r.stderr)

    prices_refused("a prices file lacking a price", json.dumps({"region": "x-1", "rcu_hour": 1}),
                   "lacks")
    prices_refused("a price given twice",
                   '{"region": "x-1", "rcu_hour": 1, "rcu_hour": 1, "wcu_hour": 1, '
                   '"on_demand_write_per_million": 1, "storage_gb_month": 1}',
                   '"rcu_hour" is given twice')
    prices_refused("a price out of range",
                   '{"region": "x-1", "rcu_hour": 1e400, "wcu_hour": 1, '
                   '"on_demand_read_per_million": 1, "on_demand_write_per_million": 1, '
                   '"storage_gb_month": 1}',
                   "must be a number from 0")
    prices_refused("an unknown top-level member",
                   json.dumps({"currency": "EUR", "regions": {"x-1": {}}}),
                   'unknown member "currency"')

    # ---- bad and missing rates, .plan, csv ----
    with open("rates.sql", "w") as f:
        f.write("-- pattern: a\n-- rate: fast\nSELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n"
                "-- pattern: b\n-- rate: 3,600/h\nSELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n"
                "-- pattern: c\nSELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n")
    with open("rates2.sql", "w") as f:
        f.write("-- pattern: d\n-- rate: 1,5/s\nSELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n"
                "-- rate: 7/s\n"
                "-- pattern: e\n-- rate: 5/S\n-- rate: 6/s\nSELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n"
                "-- pattern: f\n-- rate: 2e3 per minute\nSELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n")
    r = run("q.kh", "--mode", "json", "-c", ".plan rates2.sql")
    rs = {x["pattern"]: x for x in section(rows(r.stdout), "pattern")}
    check("a decimal comma is refused, not read as thousands",
          "'-- rate: 1,5/s' cannot be read" in r.stderr and "d" not in rs, r.stderr)
    check("a rate after a statement is refused", "'-- rate: 7/s' follows this pattern's "
          "statement" in r.stderr, r.stderr)
    check("a second rate is refused", "a second rate, '-- rate: 6/s', after '-- rate: 5/S'"
          in r.stderr and "e" not in rs, r.stderr)
    check("2e3 per minute", "f" in rs and near(rs["f"]["rate_per_s"], 2000 / 60), rs)
    check("a refused rate is not 'no rate'", "no rate, left out" not in r.stderr, r.stderr)
    r = run("q.kh", "--mode", "json", "-c", ".plan rates.sql")
    rs = rows(r.stdout)
    b = [x for x in section(rs, "pattern") if x["pattern"] == "b"]
    check("3,600/h is 1/s", b and b[0]["rate_per_s"] == 1 and b[0]["rcu_per_s"] == 0.5, rs)
    check("a rate that does not read fails the check", r.returncode == 1
          and "'-- rate: fast' cannot be read: write N/s, N/min, N/h or N/day" in r.stderr, r.stderr)
    check("no rate: left out, said", "-- no rate, left out of the plan: \"c\"\n" in r.stderr, r.stderr)
    r = run("q.kh", "--mode", "csv", "--patterns", "rates.sql", "--plan")
    table = list(csv.reader(io.StringIO(r.stdout)))
    check("csv parses: one header, rows as wide", len(table) > 3
          and len({len(row) for row in table}) == 1 and table[0][0] == "section", table[:2])
    cells = [row[table[0].index("units_per_call")] for row in table[1:] if row[0] == "pattern"]
    check("csv: nested cells are JSON", cells and all(json.loads(c) for c in cells), cells)


    # ---- over HTTP: the same figures from the wire's ConsumedCapacity ----
    fresh("h.kh")
    server, url = start_server(KEYHOLE, "h.kh")
    try:
        # Without --yes (and nobody to ask), a pattern that writes is not run on an endpoint.
        r = subprocess.run([KEYHOLE, "--endpoint", url, "--mode", "json", "--patterns", patterns],
                           capture_output=True, text=True, timeout=300,
                           env={**os.environ, "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s",
                                "AWS_REGION": "us-east-1"})
        ran = {x["pattern"]: x for x in rows(r.stdout)}
        check("an endpoint's patterns write nothing without --yes", r.returncode == 1
              and ran.get("publish a post", {}).get("operation") == "not run"
              and "\"publish a post\" (" in r.stderr and "run with --yes to let the patterns "
              "write there" in r.stderr
              and ran.get("get a user's profile", {}).get("operation") == "GetItem",
              (r.returncode, r.stdout[-600:], r.stderr[-800:]))
        q = subprocess.run([KEYHOLE, "h.kh", "--readonly", "--mode", "csv", "-c",
                            "SELECT PK FROM \"Social\" WHERE PK = 'USER#dave' AND "
                            "SK = 'POST#2024-03-07T08:00:00Z#k4p7rw'"],
                           capture_output=True, text=True, timeout=60)
        check("the post was not written", q.returncode == 0 and q.stdout.strip() == "",
              q.stdout + q.stderr)
        r = subprocess.run([KEYHOLE, "--endpoint", url, "--mode", "json", "--yes", "--patterns",
                            patterns, "--plan"], capture_output=True, text=True, timeout=300,
                           env={**os.environ, "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s",
                                "AWS_REGION": "us-east-1"})
        rs = rows(r.stdout)
        post = [x for x in section(rs, "pattern") if x["pattern"] == "publish a post"]
        check("over HTTP: a post's three writes", r.returncode == 0 and post
              and post[0]["wcu_per_s"] == 150, (post, r.stderr[-800:]))
        a = [x for x in section(rs, "partition") if x["partition"] == "ALL_POSTS"]
        check("over HTTP: ALL_POSTS", a and a[0]["wcu_per_s"] == 50, a)
        env = {**os.environ, "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s",
               "AWS_REGION": "us-east-1"}
        r = subprocess.run([KEYHOLE, "--endpoint", url, "-c", ".partitions Social"],
                           capture_output=True, text=True, timeout=60, env=env)
        check(".partitions on an endpoint asks first", r.returncode == 1
              and ".partitions on" in r.stderr and "--yes" in r.stderr, r.stderr)
        r = subprocess.run([KEYHOLE, "--endpoint", url, "--yes", "--mode", "json", "-c",
                            ".partitions Social GSI2"], capture_output=True, text=True,
                           timeout=60, env=env)
        check(".partitions on an endpoint with --yes", r.returncode == 0
              and rows(r.stdout)[0]["partition"] == "ALL_POSTS", r.stdout + r.stderr)
        with open("one.sql", "w") as f:
            f.write("-- pattern: profile\n-- rate: 10/s\n"
                    "SELECT * FROM \"Social\" WHERE PK = 'USER#bob' AND SK = 'PROFILE';\n")
        r = subprocess.run([KEYHOLE, "--endpoint", url, "--mode", "json", "--patterns", "one.sql",
                            "--plan"], capture_output=True, text=True, timeout=60, env=env)
        check("a plan on an endpoint without --yes reads no spread", r.returncode == 0
              and "the data's spread over partition key values was not read" in r.stderr
              and any(x["partition"] == "USER#bob" and x["every_request"]
                      for x in section(rows(r.stdout), "partition")), r.stdout + r.stderr)
    finally:
        server.terminate()
        server.wait()

    # ---- every sample plans ----
    for sample in sorted(os.listdir(SAMPLES)):
        if not os.path.isfile(os.path.join(SAMPLES, sample, "patterns.sql")):
            continue
        text = open(os.path.join(SAMPLES, sample, "patterns.sql")).read().split("\n")
        unrated = [line for i, line in enumerate(text) if line.startswith("-- pattern:")
                   and not text[i + 1].startswith("-- rate: ")]
        check(f"{sample}: every pattern has a rate", not unrated, unrated)
        fresh(f"{sample}.kh", sample)
        r, rs = plan(f"{sample}.kh", os.path.join(SAMPLES, sample, "patterns.sql"))
        check(f"{sample} plans", r.returncode == 0 and section(rs, "cost")
              and "no rate" not in r.stderr, r.stderr[-1000:])

finish("plan")
