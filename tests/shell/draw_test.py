#!/usr/bin/env python3
"""`.draw`, end to end with the real executable:
  - a small table's SVG equals tests/shell/draw.expected.svg (UPDATE_GOLDEN=1 rewrites it);
  - the Social sample's page: one group per partition drawn (at most --partitions), a row per
    item, a legend entry per entity type drawn, nothing the page would fetch (no script, no
    link, no URL but the SVG namespace), and the SVG parses as XML;
  - an index's picture says how many items it leaves out (a sparse index);
  - --partition draws one item collection;
  - a vector index is drawn by its HASH search attribute's values;
  - in headless Chromium (Debian's chromium, when installed): a screenshot that is not blank,
    and the DOM's partition and item groups as drawn.
Usage: draw_test.py KEYHOLE SAMPLES_DIR
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
from harness import check, finish  # noqa: E402

KEYHOLE, SAMPLES = sys.argv[1], sys.argv[2]
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "draw.expected.svg")
NS = "{http://www.w3.org/2000/svg}"


def run(*args):
    return subprocess.run([KEYHOLE, *args], capture_output=True, text=True, timeout=120)


def svg_of(path):
    text = open(path, encoding="utf-8").read()
    start, end = text.index("<svg"), text.index("</svg>") + len("</svg>")
    return text, ET.fromstring(text[start:end])


def png_pixels(path):
    """The bytes of a PNG's decoded scanlines (enough to tell a blank picture)."""
    data = open(path, "rb").read()
    pos, idat = 8, b""
    while pos < len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    return [raw[i:i + 3] for i in range(0, len(raw) - 3, 97)]


def groups(root, name):
    return [g for g in root.iter(NS + "g") if g.get("class") == name]


with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    small = ("CREATE TABLE \"Shop\" (pk S, sk S) GLOBAL INDEX \"byStatus\" (status S, sk S);\n"
             "INSERT INTO \"Shop\" VALUE {'pk': 'CUSTOMER#1', 'sk': 'PROFILE', 'kind': 'Customer', 'name': 'Ada'};\n"
             "INSERT INTO \"Shop\" VALUE {'pk': 'CUSTOMER#1', 'sk': 'ORDER#2024-01-02', 'kind': 'Order', "
             "'status': 'OPEN', 'total': 42, 'note': 'a note long enough to be cut with an ellipsis'};\n"
             "INSERT INTO \"Shop\" VALUE {'pk': 'CUSTOMER#2', 'sk': 'PROFILE', 'kind': 'Customer', 'name': 'Bo <&>'};\n"
             "INSERT INTO \"Shop\" VALUE {'pk': 'CUSTOMER#2', 'sk': 'ORDER#2024-02-03', 'kind': 'Order', 'total': 7};\n"
             # A name with a control character: XML has no place for it (shown as U+FFFD).
             "CALL PutItem {\"TableName\": \"Shop\", \"Item\": {\"pk\": {\"S\": \"CUSTOMER#3\"}, "
             "\"sk\": {\"S\": \"PROFILE\"}, \"we\\u0001ird\": {\"S\": \"x\"}}};\n")
    r = subprocess.run([KEYHOLE, "shop.kh", "-f", "-"], input=small, capture_output=True, text=True)
    check("small table made", r.returncode == 0, r.stderr)
    r = run("shop.kh", "-c", ".draw Shop TO shop.svg")
    check("draw svg", r.returncode == 0 and "an SVG of Shop written to shop.svg" in r.stderr, r.stderr)
    got = open("shop.svg", encoding="utf-8").read()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        open(GOLDEN, "w", encoding="utf-8").write(got)
    check("svg golden", got == open(GOLDEN, encoding="utf-8").read(), "differs from draw.expected.svg")
    root = ET.fromstring(got)
    check("small: partitions and items", len(groups(root, "partition")) == 3 and len(groups(root, "item")) == 5,
          got[:300])
    check("small: escaped, cut", "Bo &lt;&amp;&gt;" in got and "a note long enough to…" in got
          and "we\ufffdird" in got, got)
    # kind is on 4 of the 5 items: the keys' prefixes name the entities (issue 42 §3).
    check("small: legend", len(groups(root, "legend")) == 2, got)
    # A big partition is cut at 12 rows and counted; sort keys are never cut (issue 42 §4).
    big = ["CREATE TABLE \"Feed\" (pk S, sk S);"]
    big += [f"INSERT INTO \"Feed\" VALUE {{'pk': 'USER#1', 'sk': 'POST#2024-03-03T10:00:00Z#{i:05}'}};"
            for i in range(2000)]
    r = subprocess.run([KEYHOLE, "feed.kh", "-f", "-"], input="\n".join(big) + "\n", capture_output=True,
                       text=True)
    r = run("feed.kh", "-c", ".draw Feed TO feed.svg")
    feed = open("feed.svg", encoding="utf-8").read()
    _, froot = svg_of("feed.svg")
    check("big: 12 rows and a count", len(groups(froot, "item")) == 12 and "… and 1,988 more items" in feed,
          feed[:400])
    check("big: sort keys whole", "POST#2024-03-03T10:00:00Z#00000" in feed, feed[:600])
    check("big: the footer fits", float(froot.get("width")) >= 16 * 2 + 7.2 * len(
        "2000 items in 1 partition · 0 bytes · drawn: all 1 partition, 12 items (at most 12 a partition)") - 40,
        froot.get("width"))
    r = run("shop.kh", "-c", ".draw Shop byStatus TO status.svg")
    _, root = svg_of("status.svg")
    text = open("status.svg").read()
    check("index: only its items", len(groups(root, "item")) == 1, text)
    check("index: says what it leaves out", "4 of the table's 5 items are not in byStatus" in text, text)

    # The Social sample as a page.
    r = run("social.kh", "-f", os.path.join(SAMPLES, "social", "schema.sql"))
    check("sample loaded", r.returncode == 0, r.stderr)
    r = run("social.kh", "-c", ".draw Social --partitions 3")
    check("draw page", r.returncode == 0 and os.path.exists("Social.html"), r.stderr)
    page, root = svg_of("Social.html")
    root_page = root
    check("page: html", page.startswith("<!DOCTYPE html>") and "<meta charset=\"utf-8\">" in page, page[:200])
    check("page: three partitions drawn", len(groups(root, "partition")) == 3, len(groups(root, "partition")))
    check("page: says what was drawn", "50 items in 8 partitions" in page and "drawn: the first 3 partitions" in page,
          re.findall(r"class=\"f\">[^<]*", page))
    urls = set(re.findall(r"(?:https?:)?//[^\s\"'<>)]+", page)) - {"http://www.w3.org/2000/svg"}
    check("page: fetches nothing", not urls and "<script" not in page and "<link" not in page
          and "@import" not in page and "url(" not in page, urls)
    r = run("social.kh", "-c", ".draw Social TO alice.svg --partition USER#alice")
    _, root = svg_of("alice.svg")
    check("one partition", len(groups(root, "partition")) == 1, open("alice.svg").read()[:300])
    r = run("social.kh", "--draw", "Social.GSI2", "-o", "gsi2.svg")
    check("--draw TABLE.INDEX -o FILE", r.returncode == 0 and "an SVG of Social.GSI2 written to gsi2.svg"
          in r.stderr and "38 of the table's 50 items are not in GSI2" in open("gsi2.svg").read(), r.stderr)
    # In a real browser (Debian's chromium, headless): the page renders something, and its DOM
    # holds the partitions drawn.
    chromium = shutil.which("chromium")
    if chromium:
        base = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--window-size=1280,720", "--user-data-dir=" + os.path.join(tmp, "chromium")]
        page_url = "file://" + os.path.join(tmp, "Social.html")
        subprocess.run(base + ["--screenshot=" + os.path.join(tmp, "shot.png"), page_url],
                       capture_output=True, timeout=120)
        check("chromium: a screenshot", os.path.exists("shot.png"), "no screenshot")
        if os.path.exists("shot.png"):
            pixels = png_pixels("shot.png")
            check("chromium: not blank", len(set(pixels)) > 20, len(set(pixels)))
        net_log = os.path.join(tmp, "net.json")
        dom = subprocess.run(base + ["--log-net-log=" + net_log, "--dump-dom", page_url],
                             capture_output=True, text=True, timeout=120).stdout
        # Every URL the browser asked for: none but the page and Chromium's own services
        # (updates, accounts), which it calls whatever the page.
        asked = set(re.findall(r'"url":"([^"]*)"', open(net_log).read())) if os.path.exists(net_log) else set()
        own = re.compile(r"^https?://[^/]*(google\.com|googleapis\.com|gvt1\.com)(:\d+)?/")
        page_asked = {u for u in asked if not u.startswith(("file:", "data:")) and not own.match(u)}
        check("chromium: no request leaves the page", os.path.exists(net_log) and not page_asked,
              page_asked)
        check("chromium: the DOM's groups are the partitions drawn",
              dom.count('class="partition"') == 3 and dom.count('class="item"') == len(groups(root_page, "item")),
              dom[:300])
    else:
        print("SKIP chromium: Debian's chromium is not installed (scripts/setup.sh installs it)")
    r = run("social.kh", "-c", ".draw Social nope")
    check("missing index", r.returncode == 1 and "Social has no index nope" in r.stderr, r.stderr)

    # A vector index: grouped by its HASH search attribute (the vectors one search reads), its
    # items only (the vector and the tenant), the vector and filter shown.
    r = run("agents.kh", "-f", os.path.join(SAMPLES, "agents", "schema.sql"))
    check("agents loaded", r.returncode == 0, r.stderr)
    r = run("agents.kh", "-c", ".draw Agents.byMeaning TO vectors.svg")
    text, root = svg_of("vectors.svg")
    check("vector index: title", "Agents · vector index byMeaning (COSINE, 4 dimensions)" in text, text[:400])
    check("vector index: a group per tenant, its items", len(groups(root, "partition")) == 2
          and len(groups(root, "item")) == 12, (len(groups(root, "partition")), len(groups(root, "item"))))
    check("vector index: says what it leaves out", "5 of the table's 17 items are not in byMeaning: they lack "
          "its key (embedding, tenant)" in text, text)
    check("vector index: shows the vector and the filter", ">embedding<" in text and ">kind<" in text, text)
    r = run("agents.kh", "-c", "CREATE TABLE \"Flat\" (pk S) VECTOR INDEX \"flat\" (e VECTOR(2) COSINE)",
            "-c", ".draw Flat.flat")
    check("vector index without HASH", r.returncode == 1 and "vector index flat has no HASH search attribute"
          in r.stderr, r.stderr)

finish("draw")
