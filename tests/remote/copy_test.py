#!/usr/bin/env python3
"""keyhole copy, end to end with the real executable:
  - round trips: a file with every attribute type and index kind, TTL, a stream, tags and
    provisioned billing, N items -> keyhole serve (HTTPS, signatures required) -> a new file,
    and file -> an S3-export folder -> a new file: definitions equal (SHOW CREATE TABLE) and
    `.export` of every table identical;
  - the export folder keyhole writes checked against AWS's documented layout by this script's
    own reading (manifests, MD5s, gzip'd {"Item": ...} lines);
  - a hand-made export folder in AWS's layout (no keyhole-table.json) copied into a table made
    first, and a damaged data file refused;
  - a copy killed (SIGKILL) at random points, run again until it finishes, ends identical to
    the source; Ctrl-C says how far it got;
  - a non-empty destination refused, --append, --items-only, --table.
Usage: copy_test.py KEYHOLE TLS_DIR [ITEMS]
"""
import base64
import gzip
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, start_server  # noqa: E402

KEYHOLE, TLS = sys.argv[1], sys.argv[2]
ITEMS = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
KEY, SECRET = "AKIDCOPYTEST", "copy/test+secret"


SCHEMA = """
CREATE TABLE "Rich" (pk S, sk N)
  GLOBAL INDEX "byKind" (kind S HASH, n N RANGE) PROJECTION INCLUDE (label, flag)
  GLOBAL INDEX "bySeat" (room S HASH, seat N HASH, day S RANGE, turn N RANGE) PROJECTION KEYS_ONLY
  LOCAL INDEX "byN" (n N RANGE)
  TTL expires STREAM NEW_AND_OLD_IMAGES;
CREATE TABLE "Plain" (id B) BILLING PROVISIONED (READ 7, WRITE 3);
CALL TagResource {"ResourceArn": "arn:aws:dynamodb:local:000000000000:table/Plain", "Tags": [{"Key": "team", "Value": "blue"}]};
UpdateTable {"TableName": "Rich", "OnDemandThroughput": {"MaxReadRequestUnits": 250}};
UpdateTable {"TableName": "Rich", "WarmThroughput": {"ReadUnitsPerSecond": 15000}};
"""


def rich_items(n):
    rnd = random.Random(7)
    for i in range(n):
        item = {"pk": {"S": f"p{i % 97}"}, "sk": {"N": str(i)}, "kind": {"S": f"k{i % 5}"},
                "n": {"N": str(rnd.randint(-10**6, 10**6)) + ("." + str(rnd.randint(1, 99)) if i % 3 else "")},
                "label": {"S": "é" * (i % 4) + "x" * rnd.randint(0, 40)},
                "flag": {"BOOL": i % 2 == 0}, "nothing": {"NULL": True},
                "blob": {"B": base64.b64encode(bytes([i % 256, 0, 255])).decode()},
                "ss": {"SS": sorted({f"s{i % 3}", f"t{i % 7}"})},
                "ns": {"NS": sorted({str(i % 11), str(i % 13 + 100)}, key=float)},
                "bs": {"BS": [base64.b64encode(b"\x01\x02").decode()]},
                "doc": {"M": {"list": {"L": [{"N": "1"}, {"S": "two"}, {"M": {"deep": {"BOOL": True}}}]},
                              "empty": {"M": {}}}},
                "expires": {"N": str(4102444800 + i)}}
        if i % 4 == 0:
            item.update({"room": {"S": f"r{i % 3}"}, "seat": {"N": str(i % 9)},
                         "day": {"S": f"d{i % 2}"}, "turn": {"N": str(i)}})
        yield {"Item": item}


with tempfile.TemporaryDirectory() as tmp:
    env = {"HOME": tmp, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
           "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
           "AWS_EC2_METADATA_DISABLED": "true", "AWS_ACCESS_KEY_ID": KEY,
           "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_CA_BUNDLE": f"{TLS}/ca.pem"}

    def run(args, timeout=600, **kw):
        return subprocess.run([KEYHOLE, *args], env=env, capture_output=True, text=True,
                              timeout=timeout, **kw)

    def exports(db, tables=("Rich", "Plain")):
        out = {}
        for t in tables:
            path = f"{tmp}/export-{os.path.basename(db)}-{t}.jsonl"
            r = run([db, "-c", f".export {t} TO {path}"])
            if r.returncode != 0:
                return {t: "failed: " + r.stderr}
            out[t] = sorted(open(path).read().splitlines())
            os.remove(path)
        return out

    def definitions(args, tables=("Rich", "Plain")):
        r = run(args + ["-c"] + [f'SHOW CREATE TABLE "{t}"' for t in tables][:1] +
                sum([["-c", f'SHOW CREATE TABLE "{t}"'] for t in tables[1:]], []))
        return r.stdout

    src = f"{tmp}/src.kh"
    with open(f"{tmp}/rich.jsonl", "w") as f:
        for line in rich_items(ITEMS):
            f.write(json.dumps(line) + "\n")
    with open(f"{tmp}/plain.jsonl", "w") as f:
        for i in range(500):
            f.write(json.dumps({"Item": {"id": {"B": base64.b64encode(i.to_bytes(2, "big")).decode()},
                                         "v": {"N": str(i)}}}) + "\n")
    r = run([src, "-f", "-", "-c", f".import {tmp}/rich.jsonl INTO Rich",
             "-c", f".import {tmp}/plain.jsonl INTO Plain"], input=SCHEMA)
    check("source made", r.returncode == 0, r.stderr)
    source_exports = exports(src)
    source_definitions = definitions([src])
    for part in ['TTL "expires"', "STREAM NEW_AND_OLD_IMAGES", 'LOCAL INDEX "byN"',
                 '("room" S HASH, "seat" N HASH, "day" S RANGE, "turn" N RANGE)',
                 "PROJECTION INCLUDE", "BILLING PROVISIONED (READ 7, WRITE 3)"]:
        check(f"source definition has {part}", part in source_definitions, source_definitions)
    check("source exports", len(source_exports["Rich"]) == ITEMS and len(source_exports["Plain"]) == 500,
          {k: len(v) for k, v in source_exports.items()})

    # 1. file -> keyhole serve over HTTPS with signatures -> a new file.
    server, url = start_server(KEYHOLE, f"{tmp}/served.kh", "--tls-cert", f"{TLS}/server.pem",
                               "--tls-key", f"{TLS}/server.key", "--require-signature", "--access-key-id", KEY,
                               "--secret-access-key", SECRET)
    try:
        r = copied = run(["copy", src, url])
        check("copy to serve", r.returncode == 0 and "Rich: read back" in r.stderr and
              "Plain: read back" in r.stderr, r.stderr)
        check("definition at serve", definitions(["--endpoint", url]) == source_definitions,
              definitions(["--endpoint", url]) + " vs " + source_definitions)
        r = run(["--endpoint", url, "-c", 'CALL ListTagsOfResource {"ResourceArn": '
                 '"arn:aws:dynamodb:us-east-1:000000000000:table/Plain"}'])  # the signed region
        check("tags carried", '"Key":"team"' in r.stdout.replace(" ", ""), r.stdout + r.stderr)
        # OnDemandThroughput is carried; a raised WarmThroughput is named, not carried (billed).
        r = run(["--endpoint", url, "-c", ".mode json", "-c", 'CALL DescribeTable {"TableName": "Rich"}'])
        rich = json.loads(r.stdout)["Table"] if r.returncode == 0 else {}
        check("OnDemandThroughput carried",
              rich.get("OnDemandThroughput") == {"MaxReadRequestUnits": 250}, r.stdout + r.stderr)
        check("WarmThroughput not carried",
              rich.get("WarmThroughput", {}).get("ReadUnitsPerSecond") == 12000, r.stdout)
        check("WarmThroughput named", "WarmThroughput (15000 reads, 4000 writes per second) is not "
              "carried" in copied.stderr, copied.stderr)
        back = f"{tmp}/back.kh"
        r = run(["copy", url, back, "--segments", "3"])
        check("copy back", r.returncode == 0, r.stderr)
        check("round trip through serve", exports(back) == source_exports, "exports differ")
        check("definition back", definitions([back]) == source_definitions, definitions([back]))
        r = run(["copy", src, url])
        check("non-empty refused", r.returncode == 1 and "already holds items" in r.stderr, r.stderr)
        r = run(["copy", src, url, "--append", "--table", "Plain"])
        check("--append", r.returncode == 0 and "Plain: 500 items at" in r.stderr, r.stderr)
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=20)

    # 2. file -> an S3 export folder -> a new file; the folder as AWS lays it out.
    folder = f"{tmp}/export/"
    r = run(["copy", src, folder])
    check("copy to folder", r.returncode == 0, r.stderr)
    ids = sorted(os.listdir(f"{folder}/AWSDynamoDB"))
    check("one export per table", len(ids) == 2, ids)
    seen_tables = {}
    for export_id in ids:
        d = f"{folder}/AWSDynamoDB/{export_id}"
        check("export id shape", len(export_id) == 23 and export_id[0] == "0" and export_id[14] == "-",
              export_id)
        summary_text = open(f"{d}/manifest-summary.json", "rb").read()
        summary = json.loads(summary_text)
        check("summary md5", open(f"{d}/manifest-summary.md5").read() ==
              base64.b64encode(hashlib.md5(summary_text).digest()).decode())
        manifest_text = open(f"{d}/manifest-files.json", "rb").read()
        check("files md5", open(f"{d}/manifest-files.md5").read() ==
              base64.b64encode(hashlib.md5(manifest_text).digest()).decode())
        check("summary fields", summary["version"] == "2020-06-30" and summary["outputFormat"] ==
              "DYNAMODB_JSON" and summary["exportType"] == "FULL_EXPORT" and
              summary["manifestFilesS3Key"] == f"AWSDynamoDB/{export_id}/manifest-files.json" and
              summary["exportArn"] == summary["tableArn"] + "/export/" + export_id, summary)
        check("_started", os.path.getsize(f"{d}/_started") == 0)
        count = 0
        for line in manifest_text.decode().splitlines():
            entry = json.loads(line)
            raw = open(f"{folder}/{entry['dataFileS3Key']}", "rb").read()
            check("data md5", entry["md5Checksum"] == base64.b64encode(hashlib.md5(raw).digest()).decode())
            check("data name", len(os.path.basename(entry["dataFileS3Key"])) == 26 + 8)
            lines = gzip.decompress(raw).decode().splitlines()
            check("data item count", entry["itemCount"] == len(lines))
            check("data lines", all(list(json.loads(x)) == ["Item"] for x in lines))
            count += len(lines)
        check("summary item count", summary["itemCount"] == count)
        name = summary["tableArn"].split("/")[-1]
        described = json.loads(run([src, "--mode", "json", "-c", f'DESCRIBE "{name}"']).stdout)
        check("billedSizeBytes is the table's size", summary["billedSizeBytes"] ==
              described["Table"]["TableSizeBytes"], (summary["billedSizeBytes"], described["Table"]))
        seen_tables[name] = count
    check("export counts", seen_tables == {"Rich": ITEMS, "Plain": 500}, seen_tables)
    again = f"{tmp}/again.kh"
    r = run(["copy", folder, again])
    check("copy from folder", r.returncode == 0 and "differs from the source's" not in r.stderr,
          r.stderr)
    check("round trip through a folder", exports(again) == source_exports, "exports differ")
    check("definition through a folder", definitions([again]) == source_definitions, definitions([again]))

    # 3. A hand-made export in AWS's layout, without keyhole's definition.
    hand = f"{tmp}/hand"
    export_id = "01700000000000-0a1b2c3d"
    d = f"{hand}/AWSDynamoDB/{export_id}"
    os.makedirs(f"{d}/data")
    open(f"{d}/_started", "w").close()
    manifest = ""
    for n, rows in enumerate([[1, 2, 3], [], [4, 5]]):
        name = ["ab2cd3ef4gh5ij6kl7mn2op3qr", "st4uv5wx6yz7ab2cd3ef4gh5ij", "kl6mn7op2qr3st4uv5wx6yz7ab"][n]
        body = "".join(json.dumps({"Item": {"id": {"S": f"i{r}"}, "n": {"N": str(r)}}}) + "\n" for r in rows)
        raw = gzip.compress(body.encode())
        open(f"{d}/data/{name}.json.gz", "wb").write(raw)
        manifest += json.dumps({"itemCount": len(rows), "md5Checksum": base64.b64encode(hashlib.md5(raw).digest()).decode(),
                                "etag": hashlib.md5(raw).hexdigest(), "dataFileS3Key": f"AWSDynamoDB/{export_id}/data/{name}.json.gz"}) + "\n"
    open(f"{d}/manifest-files.json", "w").write(manifest)
    summary = {"version": "2020-06-30", "exportArn": f"arn:aws:dynamodb:us-east-1:123456789012:table/Hand/export/{export_id}",
               "startTime": "2023-11-14T22:13:20.000Z", "endTime": "2023-11-14T22:18:20.000Z",
               "tableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Hand", "tableId": "x",
               "exportTime": "2023-11-14T22:13:20.000Z", "s3Bucket": "b", "s3Prefix": None,
               "s3SseAlgorithm": "AES256", "s3SseKmsKeyId": None,
               "manifestFilesS3Key": f"AWSDynamoDB/{export_id}/manifest-files.json",
               "billedSizeBytes": 0, "itemCount": 5, "outputFormat": "DYNAMODB_JSON"}
    open(f"{d}/manifest-summary.json", "w").write(json.dumps(summary, separators=(",", ":")))
    handdb = f"{tmp}/hand.kh"
    r = run(["copy", hand, handdb])
    check("no keys, no table", r.returncode == 1 and "but not its keys" in r.stderr, r.stderr)
    run([handdb, "-c", 'CREATE TABLE "Hand" (id S)'])
    r = run(["copy", hand, handdb])
    check("hand-made export", r.returncode == 0 and "Hand: read back 5 items" in r.stderr, r.stderr)
    r = run([handdb, "--mode", "csv", "-c", 'SCAN SELECT id FROM "Hand"'])
    check("hand-made items", sorted(r.stdout.split()[1:]) == ["i1", "i2", "i3", "i4", "i5"], r.stdout)
    # `aws s3 sync s3://bucket .` keeps the export's prefix: found from the bucket's root.
    synced = f"{tmp}/bucket/exports/2023/AWSDynamoDB"
    os.makedirs(os.path.dirname(synced))
    shutil.copytree(f"{hand}/AWSDynamoDB", synced)
    run([f"{tmp}/synced.kh", "-c", 'CREATE TABLE "Hand" (id S)'])
    r = run(["copy", f"{tmp}/bucket", f"{tmp}/synced.kh"])
    check("an s3 sync layout from the bucket root", r.returncode == 0
          and "Hand: read back 5 items" in r.stderr, r.stderr)
    # Manifest counts: the summary's against the files', each file's against its lines.
    lying = f"{tmp}/lying"
    shutil.copytree(hand, lying)
    ld = f"{lying}/AWSDynamoDB/{export_id}"
    s = json.load(open(f"{ld}/manifest-summary.json"))
    s["itemCount"] = 6
    open(f"{ld}/manifest-summary.json", "w").write(json.dumps(s))
    run([f"{tmp}/lying.kh", "-c", 'CREATE TABLE "Hand" (id S)'])
    r = run(["copy", lying, f"{tmp}/lying.kh"])
    check("summary count refused", r.returncode == 1 and "manifest-summary.json counts 6 items, "
          "but manifest-files.json's data files hold 5" in r.stderr and "verified" not in r.stderr,
          r.stderr)
    s["itemCount"] = 5
    open(f"{ld}/manifest-summary.json", "w").write(json.dumps(s))
    entries = [json.loads(x) for x in open(f"{ld}/manifest-files.json").read().splitlines()]
    entries[0]["itemCount"], entries[2]["itemCount"] = 2, 3  # the total still 5
    open(f"{ld}/manifest-files.json", "w").write("".join(json.dumps(e) + "\n" for e in entries))
    r = run(["copy", lying, f"{tmp}/lying.kh"])
    # Parts read files in parallel: either file may be the first to say so.
    check("a data file's count refused", r.returncode == 1 and (
        "holds 3 items, but its line in manifest-files.json counts 2" in r.stderr
        or "holds 2 items, but its line in manifest-files.json counts 3" in r.stderr),
        (r.returncode, r.stderr))
    open(f"{d}/data/kl6mn7op2qr3st4uv5wx6yz7ab.json.gz", "ab").write(b"junk")
    r = run(["copy", hand, f"{tmp}/hand2.kh", "--items-only"])
    check("--items-only needs the table", r.returncode == 1 and "does not exist" in r.stderr, r.stderr)
    run([f"{tmp}/hand2.kh", "-c", 'CREATE TABLE "Hand" (id S)'])
    r = run(["copy", hand, f"{tmp}/hand2.kh", "--items-only"])
    check("damaged data file", r.returncode == 1 and "does not match its md5Checksum" in r.stderr, r.stderr)

    # A destination whose table was made otherwise: the end names what differs, on every run.
    run([f"{tmp}/defs.kh", "-c", 'CREATE TABLE "Defs" (pk S) GLOBAL INDEX "byG" (g S) TTL exp',
         "-c", "INSERT INTO \"Defs\" VALUE {'pk': 'a', 'g': 'x'}"])
    run([f"{tmp}/defs-to.kh", "-c", 'CREATE TABLE "Defs" (pk S)'])
    differs = ("-- Defs: its definition at keyhole file " + f"{tmp}/defs-to.kh differs from the "
               "source's: global indexes (source byG (g S; ALL), here none); TTL (source exp, "
               "here none)")
    for attempt, extra in ((1, []), (2, ["--append"])):
        r = run(["copy", f"{tmp}/defs.kh", f"{tmp}/defs-to.kh", *extra])
        check(f"definitions compared (run {attempt})", r.returncode == 0 and differs in r.stderr,
              r.stderr)

    # 4. Killed at random points, run again: the same as an uninterrupted copy.
    rnd = random.Random(11)
    # Slowed down so that the kills land mid-copy: writes to a file (a write transaction per
    # chunk), reads for a folder (which takes no write units) and for a file without a write
    # limit (one bulk load of every part, all or nothing: a killed run leaves nothing).
    for dest, limit in [(f"{tmp}/killed.kh", ["--max-wcu", "40000"]),
                        (f"{tmp}/killed-bulk.kh", ["--max-rcu", "150"]),
                        (f"{tmp}/killed-folder/", ["--max-rcu", "60"])]:
        runs, finished = 0, False
        while not finished and runs < 12:
            runs += 1
            t0 = time.time()
            p = subprocess.Popen([KEYHOLE, "copy", src, dest, *limit, "--segments", "3"],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                out, err = p.communicate(timeout=rnd.uniform(0.2, 0.9) if runs < 4 else 600)
                finished = p.returncode == 0
                check(f"run {runs} to {dest}", p.returncode == 0, err)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGKILL)
                p.communicate()
        check(f"killed copies to {dest} finished", finished, runs)
        print(f"copy to {dest}: finished on run {runs} (the earlier ones killed at random "
              f"points), the last in {time.time() - t0:.1f} s")
        if dest.endswith("/"):
            final = f"{tmp}/from-killed-folder.kh"
            r = run(["copy", dest, final])
            check("copy of the killed folder", r.returncode == 0, r.stderr)
        else:
            final = dest
        check(f"killed copies to {dest} equal the source", exports(final) == source_exports,
              "exports differ")

    # Ctrl-C in a bulk load into a file: nothing stored, and the same command does it all.
    p = subprocess.Popen([KEYHOLE, "copy", src, f"{tmp}/ctrlc-bulk.kh", "--max-rcu", "150"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.6)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    if p.returncode == 130:
        check("Ctrl-C in a bulk load says nothing was stored", "-- stopped: 0 items" in err, err)
        r = run([f"{tmp}/ctrlc-bulk.kh", "-c", 'SCAN SELECT * FROM "Rich"'])
        check("the interrupted bulk load left no item",  # (or was stopped before the table)
              (r.returncode == 0 and "-- 0 returned" in r.stderr) or "Rich not found" in r.stderr,
              r.stdout + r.stderr)
        r = run(["copy", src, f"{tmp}/ctrlc-bulk.kh"])
        check("bulk load run again", r.returncode == 0, r.stderr)
        check("after Ctrl-C in a bulk load, equal",
              exports(f"{tmp}/ctrlc-bulk.kh") == source_exports, "exports differ")
    else:
        print("note: the bulk copy finished before Ctrl-C reached it")

    # Ctrl-C: says how far it got; the same command finishes.
    p = subprocess.Popen([KEYHOLE, "copy", src, f"{tmp}/ctrlc.kh", "--max-wcu", "20000"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.6)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    if p.returncode == 130:
        check("Ctrl-C says how far", "-- stopped: " in err and "the same command run again goes on"
              in err and "progress saved in" in err, err)
        r = run(["copy", src, f"{tmp}/ctrlc.kh", "--max-wcu", "20000"])
        check("resumed after Ctrl-C", r.returncode == 0 and "-- resuming the copy" in r.stderr, r.stderr)
    else:
        print("note: the copy finished before Ctrl-C reached it")
    check("after Ctrl-C, equal", exports(f"{tmp}/ctrlc.kh") == source_exports, "exports differ")

    # On a terminal, progress of a bulk load counts what it read, and says the items are stored
    # at the end (and then that they are being stored), never that they are written meanwhile.
    # (A table without a stream or local index, into a new file: the bulk load's case.)
    with open(f"{tmp}/bulk.jsonl", "w") as f:
        for i in range(400000):
            f.write(json.dumps({"Item": {"pk": {"S": f"p{i % 5000}"}, "sk": {"N": str(i)},
                                         "v": {"S": "x" * 40}}}) + "\n")
    r = run([f"{tmp}/bulk-src.kh", "-c", "CREATE TABLE Bulk (pk S, sk N);",
             "-c", f".import {tmp}/bulk.jsonl INTO Bulk"])
    check("bulk source made", r.returncode == 0, r.stderr)
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(KEYHOLE, [KEYHOLE, "copy", f"{tmp}/bulk-src.kh", f"{tmp}/progress.kh"], env)
    shown = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    _, status = os.waitpid(pid, 0)
    check("copy on a terminal", os.waitstatus_to_exitcode(status) == 0, shown[-2000:])
    lines = [x.decode(errors="replace") for x in shown.replace(b"\r\x1b[K", b"\n").split(b"\n")]
    # (The closing "-- Bulk: N items copied ... items/s" line is the summary, not progress.)
    progress = [x for x in lines if x.startswith("-- Bulk: ") and " copied (" not in x
                and (" read (" in x or "storing" in x or "items/s" in x)]
    if progress:
        check("bulk load progress says what it counts",
              all("read (stored at the end, in one bulk load)" in x or "storing" in x
                  for x in progress), progress)
    else:
        print("note: the bulk copy finished before its first progress line")

finish("copy")
