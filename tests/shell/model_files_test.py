#!/usr/bin/env python3
"""Models in and out, end to end with the real executable:
  - .export-model of the Social sample: a NoSQL Workbench 3.0 model whose facets are the
    entity types .model infers and hold every item once; --import-model into a new file and
    .export-model again gives the same bytes, and the same items;
  - a model in the shape of the public Workbench examples (PROVISIONED, INCLUDE projections
    naming keys, facets and table-level items, plain JSON inside a map) is imported, with a
    note on what was read loosely;
  - a table that exists, and a model with an item lacking its key, are refused with nothing
    changed;
  - what the format cannot hold (LSI, TTL, stream) is named on standard error;
  - --format cloudformation and --format cli: their shapes, and the cli input accepted by
    `aws dynamodb create-table --cli-input-json` against keyhole serve (when the AWS CLI is
    installed).
Usage: model_files_test.py KEYHOLE SAMPLES_DIR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "remote"))
from harness import check, finish, start_server  # noqa: E402

KEYHOLE, SAMPLES = sys.argv[1], sys.argv[2]
CLOCK = ["-c", ".clock 1700000000"]


def run(*args, stdin=None):
    return subprocess.run([KEYHOLE, *args], capture_output=True, text=True, input=stdin, timeout=120)


def export_items(db, table):
    path = db + "." + table + ".jsonl"
    r = run(db, "-c", f".export {table} TO {path}")
    if r.returncode != 0:
        return "failed: " + r.stderr
    with open(path) as f:
        return sorted(f.read().splitlines())


PUBLIC_SHAPE = {
    "ModelName": "Payments",
    "ModelMetadata": {"Author": "", "DateCreated": "May 1, 2020, 11:00 AM",
                      "DateLastModified": "May 1, 2020, 11:00 AM", "Description": "",
                      "Version": "3.0", "AWSService": "Amazon DynamoDB"},
    "DataModel": [{
        "TableName": "Payments",
        "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                          "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
        "NonKeyAttributes": [{"AttributeName": "Due", "AttributeType": "S"},
                             {"AttributeName": "Card", "AttributeType": "M"}],
        "TableFacets": [{
            "FacetName": "Subscription",
            "KeyAttributeAlias": {"PartitionKeyAlias": "AccountId", "SortKeyAlias": "SubId"},
            "TableData": [
                {"PK": {"S": "ACC#1"}, "SK": {"S": "SUB#1"}, "Due": {"S": "2026-01-02"},
                 "Card": {"M": {"last4": "1234", "expires": {"N": "2030"}, "ok": True}}},
                {"PK": {"S": "ACC#1"}, "SK": {"S": "SUB#2"}, "Due": {"S": "2026-02-03"}}],
            "NonKeyAttributes": ["Due", "Card"],
            "DataAccess": {"MySql": {}}}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "ByDue",
            "KeyAttributes": {"PartitionKey": {"AttributeName": "Due", "AttributeType": "S"}},
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["PK", "SK", "Card"]}}],
        "TableData": [{"PK": {"S": "ACC#2"}, "SK": {"S": "META"}}],
        "DataAccess": {"MySql": {}},
        "BillingMode": "PROVISIONED",
        "ProvisionedCapacitySettings": {
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 4}}}]}

with tempfile.TemporaryDirectory() as tmp:
    os.chdir(tmp)
    # 1. The Social sample out, in again, out again.
    r = run("a.kh", "-f", os.path.join(SAMPLES, "social", "schema.sql"))
    check("sample loaded", r.returncode == 0, r.stderr)
    r = run("a.kh", *CLOCK, "-c", ".export-model m1.json")
    check("export", r.returncode == 0 and "NoSQL Workbench model" in r.stderr, r.stdout + r.stderr)
    model = json.load(open("m1.json"))
    items = export_items("a.kh", "Social")
    check("metadata", model["ModelMetadata"]["Version"] == "3.0" and
          model["ModelMetadata"]["DateCreated"] == "Nov 14, 2023, 10:13 PM" and
          model["ModelName"] == "Social", model.get("ModelMetadata"))
    table = model["DataModel"][0]
    facets = {f["FacetName"]: f for f in table["TableFacets"]}
    check("facets are the entity types",
          {"User", "Post", "Like", "Organization", "Team", "Membership", "TeamMembership"} <= set(facets),
          sorted(facets))
    check("every item once, in its facet",
          sum(len(f["TableData"]) for f in facets.values()) == len(items) and table["TableData"] == [],
          (len(items), {k: len(f["TableData"]) for k, f in facets.items()}))
    check("key aliases", facets["User"]["KeyAttributeAlias"] ==
          {"PartitionKeyAlias": "USER#<username>", "SortKeyAlias": "PROFILE"},
          facets["User"]["KeyAttributeAlias"])
    check("GSIs", [g["IndexName"] for g in table["GlobalSecondaryIndexes"]] == ["GSI1", "GSI2"] and
          {"AttributeName": "GSI1PK", "AttributeType": "S"} in table["NonKeyAttributes"],
          table["GlobalSecondaryIndexes"])
    r = run("b.kh", "--import-model", "m1.json")
    check("import", r.returncode == 0 and "table Social created" in r.stderr, r.stdout + r.stderr)
    r = run("b.kh", *CLOCK, "-c", ".export-model m2.json")
    check("round trip: the same model", r.returncode == 0 and
          open("m1.json").read() == open("m2.json").read(), r.stderr)
    check("round trip: the same items", export_items("b.kh", "Social") == items, "items differ")

    # 2. A model in the public examples' shape.
    json.dump(PUBLIC_SHAPE, open("public.json", "w"))
    r = run("c.kh", "--import-model", "public.json", "-c", 'SHOW CREATE TABLE "Payments"',
            "-c", 'SELECT * FROM "Payments" WHERE PK = \'ACC#1\' AND SK = \'SUB#1\'', "--mode", "json")
    check("public shape imported", r.returncode == 0, r.stderr)
    check("billing and INCLUDE", "BILLING PROVISIONED (READ 5, WRITE 4)" in r.stdout and
          'PROJECTION INCLUDE ("Card")' in r.stdout, r.stdout)
    check("plain JSON read by type", '"Card":{"expires":2030,"last4":"1234","ok":true}'
          in r.stdout.replace(" ", ""), r.stdout)
    check("plain JSON named", "2 values in its items were plain JSON" in r.stderr, r.stderr)
    check("all three items", len(export_items("c.kh", "Payments")) == 3, export_items("c.kh", "Payments"))

    # 3. Refusals change nothing.
    r = run("c.kh", "--import-model", "public.json")
    check("existing table refused", r.returncode == 1 and "Table already exists: Payments" in r.stderr
          and "nothing imported" in r.stderr, r.stderr)
    bad = json.loads(json.dumps(PUBLIC_SHAPE))
    bad["DataModel"][0]["TableName"] = "Broken"
    bad["DataModel"][0]["TableData"].append({"PK": {"S": "x"}})
    json.dump(bad, open("bad.json", "w"))
    r = run("d.kh", "--import-model", "bad.json", "-c", "SHOW TABLES")
    check("item without its key refused", r.returncode == 1 and
          "has no key attribute SK" in r.stderr and "Broken" not in r.stdout, r.stdout + r.stderr)

    # An INCLUDE naming only keys is KEYS_ONLY; a fractional capacity is refused.
    keys_only = json.loads(json.dumps(PUBLIC_SHAPE))
    keys_only["DataModel"][0]["TableName"] = "KeysOnly"
    keys_only["DataModel"][0]["GlobalSecondaryIndexes"][0]["Projection"]["NonKeyAttributes"] = ["PK", "SK", "Due"]
    json.dump(keys_only, open("keys.json", "w"))
    r = run("f.kh", "--import-model", "keys.json", "-c", 'SHOW CREATE TABLE "KeysOnly"')
    check("INCLUDE of keys only", r.returncode == 0 and 'PROJECTION KEYS_ONLY' in r.stdout, r.stdout + r.stderr)
    fractional = json.loads(json.dumps(PUBLIC_SHAPE))
    fractional["DataModel"][0]["ProvisionedCapacitySettings"]["ProvisionedThroughput"]["ReadCapacityUnits"] = 10.5
    json.dump(fractional, open("fractional.json", "w"))
    r = run("g.kh", "--import-model", "fractional.json")
    check("fractional capacity refused", r.returncode == 1 and
          "has a ReadCapacityUnits of 10.5: a whole number from 1" in r.stderr, r.stderr)
    r = run("a.kh", *CLOCK, "-c", ".export-model twice.json Social Social")
    check("a table named twice is exported once", r.returncode == 0 and
          len(json.load(open("twice.json"))["DataModel"]) == 1, r.stderr)

    # 4. What the format cannot hold is named.
    r = run("e.kh", "-c", 'CREATE TABLE "Rich" (pk S, sk N) LOCAL INDEX "byN" (n N RANGE) '
            "TTL expires STREAM NEW_IMAGE", *CLOCK, "-c", ".export-model rich.json")
    check("left out, named", r.returncode == 0 and "local secondary index byN is left out" in r.stderr
          and "TTL on expires is left out" in r.stderr and "stream (NEW_IMAGE) is left out" in r.stderr,
          r.stderr)
    r = run("v.kh", "-c", 'CREATE TABLE "Vec" (pk S) VECTOR INDEX "byMeaning" (e VECTOR(2) COSINE, '
            "t S HASH)", *CLOCK, "-c", ".export-model vec.json")
    check("vector index left out, named", r.returncode == 0 and
          "Vec: its vector index byMeaning is left out (Workbench models have none)" in r.stderr, r.stderr)

    # 5. CloudFormation and create-table input.
    r = run("e.kh", "-c", ".export-model rich.cfn.json --format cloudformation")
    cfn = json.load(open("rich.cfn.json")) if r.returncode == 0 else {}
    props = cfn.get("Resources", {}).get("RichTable", {}).get("Properties", {})
    check("cloudformation", cfn.get("AWSTemplateFormatVersion") == "2010-09-09" and
          cfn["Resources"]["RichTable"]["Type"] == "AWS::DynamoDB::Table" and
          props.get("TimeToLiveSpecification") == {"AttributeName": "expires", "Enabled": True} and
          props.get("StreamSpecification") == {"StreamViewType": "NEW_IMAGE"} and
          props["LocalSecondaryIndexes"][0]["IndexName"] == "byN", r.stderr + json.dumps(cfn))
    known = {"TableName", "AttributeDefinitions", "KeySchema", "LocalSecondaryIndexes",
             "GlobalSecondaryIndexes", "BillingMode", "ProvisionedThroughput", "StreamSpecification",
             "SSESpecification", "Tags", "DeletionProtectionEnabled", "OnDemandThroughput",
             "WarmThroughput", "TimeToLiveSpecification"}
    check("cloudformation properties are the resource's", set(props) <= known, sorted(props))
    r = run("a.kh", "-c", ".export-model social.cli.json --format cli")
    check("cli", r.returncode == 0, r.stderr)
    r = run("e.kh", "-c", ".export-model x.json --format cli Rich Other")
    check("cli takes one table", r.returncode == 1 and "writes one table" in r.stderr, r.stderr)
    aws = shutil.which("aws")
    if aws:
        server, url = start_server(KEYHOLE, f"{tmp}/served.kh")
        try:
            env = dict(os.environ, AWS_ACCESS_KEY_ID="x", AWS_SECRET_ACCESS_KEY="y",
                       AWS_DEFAULT_REGION="us-east-1", AWS_CONFIG_FILE="/dev/null",
                       AWS_SHARED_CREDENTIALS_FILE="/dev/null")
            r = subprocess.run([aws, "dynamodb", "create-table", "--cli-input-json", "file://social.cli.json",
                                "--endpoint-url", url], capture_output=True, text=True, env=env, timeout=60)
            check("aws create-table takes the cli input", r.returncode == 0 and
                  '"TableName": "Social"' in r.stdout, r.stdout + r.stderr)
        finally:
            server.send_signal(signal.SIGTERM)
            server.communicate(timeout=20)
    else:
        print("SKIP aws create-table --cli-input-json: the AWS CLI is not installed")

finish("model files")
