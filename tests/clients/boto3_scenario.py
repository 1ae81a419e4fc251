#!/usr/bin/env python3
"""boto3 against `keyhole serve`: the test of truth for the server's wire behaviour.

Starts `keyhole serve` on a fresh database on a free loopback port, then runs a scenario that
covers tables, items, every expression kind, Query/Scan paging, batches, transactions with
cancellation reasons, TTL, Streams, PartiQL, the legacy (non-expression) parameters and a GSI with a
multi-attribute key, checking results and error codes as boto3
reports them (botocore also checks every response's x-amz-crc32). Stops the server by its PID.

Usage: boto3_scenario.py KEYHOLE
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

import boto3
import botocore
from botocore.config import Config
from boto3.dynamodb.conditions import Attr, Key

KEYHOLE = sys.argv[1]
failures = []
skipped = []


def check(name, condition, detail=""):
    if not condition:
        failures.append(f"{name}: {detail}")


def expect_error(name, code, fn):
    try:
        fn()
    except botocore.exceptions.ClientError as e:
        got = e.response["Error"]["Code"]
        check(name, got == code, f"expected {code}, got {got}: {e.response['Error'].get('Message')}")
        return e.response
    check(name, False, f"expected {code}, but it succeeded")
    return None


def supports(client, operation, member):
    """Whether this botocore's service model lets `operation` send `member`. Debian 12's
    python3-boto3 (botocore 1.29.27) predates some members keyhole serves; a step that needs one
    is skipped with a message instead of failing for the client's age."""
    return member in client.meta.service_model.operation_model(operation).input_shape.members


def skip(name, why):
    skipped.append(name)
    print(f"SKIP {name}: {why} (botocore {botocore.__version__})")


def start_server(db):
    p = subprocess.Popen([KEYHOLE, "serve", db, "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "listening on http://" not in line:
        p.kill()
        raise SystemExit(f"keyhole serve did not start: {line} {p.stderr.read()}")
    url = line.split("listening on ")[1].split(" ")[0]
    return p, url


with tempfile.TemporaryDirectory() as tmp:
    server, url = start_server(os.path.join(tmp, "b.kh"))
    try:
        session = boto3.session.Session(aws_access_key_id="test", aws_secret_access_key="test",
                                        region_name="us-east-1")
        config = Config(retries={"max_attempts": 1})
        ddb = session.client("dynamodb", endpoint_url=url, config=config)
        streams = session.client("dynamodbstreams", endpoint_url=url, config=config)
        resource = session.resource("dynamodb", endpoint_url=url, config=config)

        # Tables.
        ddb.create_table(
            TableName="Music",
            KeySchema=[{"AttributeName": "Artist", "KeyType": "HASH"},
                       {"AttributeName": "Song", "KeyType": "RANGE"}],
            AttributeDefinitions=[{"AttributeName": "Artist", "AttributeType": "S"},
                                  {"AttributeName": "Song", "AttributeType": "S"},
                                  {"AttributeName": "Genre", "AttributeType": "S"}],
            GlobalSecondaryIndexes=[{"IndexName": "byGenre",
                                     "KeySchema": [{"AttributeName": "Genre", "KeyType": "HASH"}],
                                     "Projection": {"ProjectionType": "ALL"}}],
            BillingMode="PAY_PER_REQUEST",
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
        ddb.get_waiter("table_exists").wait(TableName="Music", WaiterConfig={"Delay": 1})
        desc = ddb.describe_table(TableName="Music")["Table"]
        check("describe", desc["TableStatus"] == "ACTIVE" and desc["KeySchema"][0]["AttributeName"] == "Artist", desc)
        check("list_tables", ddb.list_tables()["TableNames"] == ["Music"])
        expect_error("create twice", "ResourceInUseException", lambda: ddb.create_table(
            TableName="Music", KeySchema=[{"AttributeName": "a", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "a", "AttributeType": "S"}],
            BillingMode="PAY_PER_REQUEST"))
        expect_error("describe missing", "ResourceNotFoundException",
                     lambda: ddb.describe_table(TableName="Nope"))

        # Items through the resource layer (Decimal numbers, sets, nested documents).
        table = resource.Table("Music")
        from decimal import Decimal
        table.put_item(Item={"Artist": "Acme", "Song": "Hello", "Genre": "Rock", "Year": 2001,
                             "Price": Decimal("1.99"), "Tags": {"a", "b"},
                             "Info": {"Length": 180, "Credits": ["x", "y"]}})
        item = table.get_item(Key={"Artist": "Acme", "Song": "Hello"})["Item"]
        check("get_item", item["Year"] == 2001 and item["Price"] == Decimal("1.99")
              and item["Tags"] == {"a", "b"} and item["Info"]["Credits"] == ["x", "y"], item)
        # Binary.
        ddb.put_item(TableName="Music", Item={"Artist": {"S": "Bin"}, "Song": {"S": "b"},
                                              "Blob": {"B": b"\x00\x01\xff"}})
        got = ddb.get_item(TableName="Music", Key={"Artist": {"S": "Bin"}, "Song": {"S": "b"}})
        check("binary", got["Item"]["Blob"]["B"] == b"\x00\x01\xff", got)

        # Condition expressions and ReturnValues.
        if supports(ddb, "PutItem", "ReturnValuesOnConditionCheckFailure"):
            resp = expect_error("condition failed", "ConditionalCheckFailedException", lambda: ddb.put_item(
                TableName="Music", Item={"Artist": {"S": "Acme"}, "Song": {"S": "Hello"}},
                ConditionExpression="attribute_not_exists(Artist)",
                ReturnValuesOnConditionCheckFailure="ALL_OLD"))
            check("condition failed carries the item", resp and resp.get("Item", {}).get("Genre") == {"S": "Rock"}, resp)
        else:
            skip("condition failed carries the item",
                 "this botocore's PutItem has no ReturnValuesOnConditionCheckFailure")
            expect_error("condition failed", "ConditionalCheckFailedException", lambda: ddb.put_item(
                TableName="Music", Item={"Artist": {"S": "Acme"}, "Song": {"S": "Hello"}},
                ConditionExpression="attribute_not_exists(Artist)"))
        # Update expressions: SET with arithmetic, list_append, if_not_exists, REMOVE, ADD, DELETE.
        out = ddb.update_item(
            TableName="Music", Key={"Artist": {"S": "Acme"}, "Song": {"S": "Hello"}},
            UpdateExpression="SET #y = #y + :one, Info.Credits = list_append(Info.Credits, :more), "
                             "Plays = if_not_exists(Plays, :zero) REMOVE Price ADD Tags :c",
            ExpressionAttributeNames={"#y": "Year"},
            ExpressionAttributeValues={":one": {"N": "1"}, ":more": {"L": [{"S": "z"}]},
                                       ":zero": {"N": "0"}, ":c": {"SS": ["c"]}},
            ReturnValues="ALL_NEW")["Attributes"]
        check("update_item", out["Year"] == {"N": "2002"} and out["Plays"] == {"N": "0"}
              and "Price" not in out and sorted(out["Tags"]["SS"]) == ["a", "b", "c"]
              and len(out["Info"]["M"]["Credits"]["L"]) == 3, out)
        out = ddb.update_item(
            TableName="Music", Key={"Artist": {"S": "Acme"}, "Song": {"S": "Hello"}},
            UpdateExpression="DELETE Tags :a", ExpressionAttributeValues={":a": {"SS": ["a"]}},
            ReturnValues="UPDATED_NEW")["Attributes"]
        check("delete from a set", sorted(out["Tags"]["SS"]) == ["b", "c"], out)
        expect_error("overlapping paths", "ValidationException", lambda: ddb.update_item(
            TableName="Music", Key={"Artist": {"S": "Acme"}, "Song": {"S": "Hello"}},
            UpdateExpression="ADD Tags :a DELETE Tags :a", ExpressionAttributeValues={":a": {"SS": ["a"]}}))
        expect_error("update a key", "ValidationException", lambda: ddb.update_item(
            TableName="Music", Key={"Artist": {"S": "Acme"}, "Song": {"S": "Hello"}},
            UpdateExpression="SET Artist = :x", ExpressionAttributeValues={":x": {"S": "y"}}))
        expect_error("bad expression", "ValidationException", lambda: ddb.update_item(
            TableName="Music", Key={"Artist": {"S": "Acme"}, "Song": {"S": "Hello"}},
            UpdateExpression="SET = 1"))

        # Query and Scan with paging, filters, projections, an index.
        with table.batch_writer() as batch:
            for i in range(30):
                batch.put_item(Item={"Artist": "Many", "Song": f"S{i:03d}", "Genre": "Pop" if i % 2 else "Jazz", "N": i})
        seen, start = [], None
        while True:
            kwargs = {"KeyConditionExpression": Key("Artist").eq("Many") & Key("Song").begins_with("S0"),
                      "Limit": 7, "FilterExpression": Attr("N").gte(3),
                      "ProjectionExpression": "Song, N"}
            if start:
                kwargs["ExclusiveStartKey"] = start
            page = table.query(**kwargs)
            seen += [x["Song"] for x in page["Items"]]
            start = page.get("LastEvaluatedKey")
            if not start:
                break
        check("query pages", seen == [f"S{i:03d}" for i in range(3, 30)], seen)
        desc_order = table.query(KeyConditionExpression=Key("Artist").eq("Many"), ScanIndexForward=False, Limit=2)
        check("query descending", [x["Song"] for x in desc_order["Items"]] == ["S029", "S028"], desc_order)
        count = ddb.query(TableName="Music", KeyConditionExpression="Artist = :a",
                          ExpressionAttributeValues={":a": {"S": "Many"}}, Select="COUNT")
        check("select count", count["Count"] == 30 and "Items" not in count, count)
        pop = table.query(IndexName="byGenre", KeyConditionExpression=Key("Genre").eq("Pop"))
        check("gsi query", len(pop["Items"]) == 15, len(pop["Items"]))
        scanned, start = 0, None
        while True:
            kwargs = {"Limit": 10, "FilterExpression": Attr("N").exists() & Attr("N").between(10, 19)}
            if start:
                kwargs["ExclusiveStartKey"] = start
            page = table.scan(**kwargs)
            scanned += len(page["Items"])
            start = page.get("LastEvaluatedKey")
            if not start:
                break
        check("scan pages", scanned == 10, scanned)
        paginator = ddb.get_paginator("scan")
        total = sum(p["Count"] for p in paginator.paginate(TableName="Music", PaginationConfig={"PageSize": 4}))
        check("scan paginator", total == 32, total)
        expect_error("query without key", "ValidationException", lambda: ddb.query(
            TableName="Music", KeyConditionExpression="Song = :s",
            ExpressionAttributeValues={":s": {"S": "x"}}))

        # Batches.
        got = ddb.batch_get_item(RequestItems={"Music": {"Keys": [
            {"Artist": {"S": "Many"}, "Song": {"S": "S001"}},
            {"Artist": {"S": "Many"}, "Song": {"S": "S002"}},
            {"Artist": {"S": "Nobody"}, "Song": {"S": "x"}}]}})
        check("batch_get", len(got["Responses"]["Music"]) == 2 and got["UnprocessedKeys"] == {}, got)
        ddb.batch_write_item(RequestItems={"Music": [
            {"DeleteRequest": {"Key": {"Artist": {"S": "Many"}, "Song": {"S": "S001"}}}},
            {"PutRequest": {"Item": {"Artist": {"S": "New"}, "Song": {"S": "n"}}}}]})
        check("batch_write", "Item" not in ddb.get_item(TableName="Music", Key={"Artist": {"S": "Many"}, "Song": {"S": "S001"}}))

        # Transactions with cancellation reasons.
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": "Music", "Item": {"Artist": {"S": "T"}, "Song": {"S": "1"}}}},
            {"Update": {"TableName": "Music", "Key": {"Artist": {"S": "T"}, "Song": {"S": "2"}},
                        "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"N": "1"}}}}])
        resp = expect_error("transaction cancelled", "TransactionCanceledException", lambda: ddb.transact_write_items(
            TransactItems=[
                {"Put": {"TableName": "Music", "Item": {"Artist": {"S": "T"}, "Song": {"S": "3"}}}},
                {"ConditionCheck": {"TableName": "Music", "Key": {"Artist": {"S": "T"}, "Song": {"S": "1"}},
                                    "ConditionExpression": "attribute_not_exists(Artist)",
                                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]))
        reasons = resp.get("CancellationReasons") if resp else None
        check("cancellation reasons", reasons and [r["Code"] for r in reasons] == ["None", "ConditionalCheckFailed"]
              and reasons[1].get("Item", {}).get("Song") == {"S": "1"}, reasons)
        check("cancelled wrote nothing", "Item" not in ddb.get_item(TableName="Music", Key={"Artist": {"S": "T"}, "Song": {"S": "3"}}))
        tg = ddb.transact_get_items(TransactItems=[
            {"Get": {"TableName": "Music", "Key": {"Artist": {"S": "T"}, "Song": {"S": "1"}}}},
            {"Get": {"TableName": "Music", "Key": {"Artist": {"S": "T"}, "Song": {"S": "9"}}}}])
        check("transact_get", "Item" in tg["Responses"][0] and tg["Responses"][1] == {}, tg)
        token = "tok-1"
        for _ in range(2):  # the retry with the same ClientRequestToken succeeds, writing once
            ddb.transact_write_items(ClientRequestToken=token, TransactItems=[
                {"Update": {"TableName": "Music", "Key": {"Artist": {"S": "T"}, "Song": {"S": "2"}},
                            "UpdateExpression": "ADD v :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
        v = ddb.get_item(TableName="Music", Key={"Artist": {"S": "T"}, "Song": {"S": "2"}})["Item"]["v"]
        check("idempotent token", v == {"N": "2"}, v)

        # TTL.
        ddb.update_time_to_live(TableName="Music", TimeToLiveSpecification={"Enabled": True, "AttributeName": "expires"})
        ttl = ddb.describe_time_to_live(TableName="Music")["TimeToLiveDescription"]
        check("ttl", ttl == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}, ttl)

        # Streams.
        arn = ddb.describe_table(TableName="Music")["Table"]["LatestStreamArn"]
        listed = streams.list_streams(TableName="Music")["Streams"]
        check("list_streams", listed and listed[0]["StreamArn"] == arn, listed)
        shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        records = streams.get_records(ShardIterator=it, Limit=1000)["Records"]
        check("stream records", len(records) > 30 and records[0]["eventName"] == "INSERT"
              and "NewImage" in records[0]["dynamodb"], len(records))

        # PartiQL.
        r = ddb.execute_statement(Statement="SELECT * FROM \"Music\" WHERE Artist = ? AND Song = ?",
                                  Parameters=[{"S": "T"}, {"S": "1"}])
        check("execute_statement", len(r["Items"]) == 1, r)
        ddb.execute_statement(Statement="INSERT INTO \"Music\" VALUE {'Artist': 'P', 'Song': 'q'}")
        expect_error("duplicate insert", "DuplicateItemException", lambda: ddb.execute_statement(
            Statement="INSERT INTO \"Music\" VALUE {'Artist': 'P', 'Song': 'q'}"))
        # A SELECT that pins no partition key runs as on DynamoDB: a Scan with the WHERE as its
        # filter, paged by Limit (items evaluated) and NextToken.
        pops = len(table.query(IndexName="byGenre", KeyConditionExpression=Key("Genre").eq("Pop"))["Items"])
        got, token, pages = [], None, 0
        while True:
            r = ddb.execute_statement(Statement="SELECT * FROM \"Music\" WHERE Genre = 'Pop'", Limit=10,
                                      **({"NextToken": token} if token else {}))
            got += r["Items"]
            pages += 1
            token = r.get("NextToken")
            if not token:
                break
        check("partiql scan", pops > 10 and len(got) == pops and pages > 1
              and all(i["Genre"] == {"S": "Pop"} for i in got), (pops, pages, got))
        batch = ddb.batch_execute_statement(Statements=[
            {"Statement": "SELECT * FROM \"Music\" WHERE Artist = 'P' AND Song = 'q'"},
            {"Statement": "SELECT * FROM \"Music\" WHERE Artist = 'P' AND Song = 'zz'"}])
        check("batch_execute_statement", "Item" in batch["Responses"][0] and "Item" not in batch["Responses"][1], batch)
        tx = ddb.execute_transaction(TransactStatements=[
            {"Statement": "UPDATE \"Music\" SET x = 1 WHERE Artist = 'P' AND Song = 'q'"},
            {"Statement": "INSERT INTO \"Music\" VALUE {'Artist': 'P', 'Song': 'r'}"}])
        check("execute_transaction", tx.get("Responses", []) == [] or tx == {} or "ResponseMetadata" in tx, tx)

        # Tags, billing mode and continuous backups.
        arn = ddb.describe_table(TableName="Music")["Table"]["TableArn"]
        ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "test"}, {"Key": "team", "Value": "x"}])
        tags = ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]
        check("tag_resource", sorted((t["Key"], t["Value"]) for t in tags) == [("env", "test"), ("team", "x")], tags)
        ddb.untag_resource(ResourceArn=arn, TagKeys=["team", "absent"])
        tags = ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]
        check("untag_resource", tags == [{"Key": "env", "Value": "test"}], tags)
        expect_error("tag a missing table", "ResourceNotFoundException", lambda: ddb.tag_resource(
            ResourceArn=arn + "x", Tags=[{"Key": "k", "Value": "v"}]))
        ddb.create_table(TableName="Tagged", KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         BillingMode="PAY_PER_REQUEST", Tags=[{"Key": "made", "Value": "at creation"}])
        tagged_arn = ddb.describe_table(TableName="Tagged")["Table"]["TableArn"]
        tags = ddb.list_tags_of_resource(ResourceArn=tagged_arn)["Tags"]
        check("create_table tags", tags == [{"Key": "made", "Value": "at creation"}], tags)
        up = ddb.update_table(TableName="Tagged", BillingMode="PROVISIONED",
                              ProvisionedThroughput={"ReadCapacityUnits": 3, "WriteCapacityUnits": 4})["TableDescription"]
        check("update_table provisioned", up["BillingModeSummary"]["BillingMode"] == "PROVISIONED"
              and up["ProvisionedThroughput"]["ReadCapacityUnits"] == 3
              and up["ProvisionedThroughput"]["WriteCapacityUnits"] == 4, up)
        up = ddb.update_table(TableName="Tagged", BillingMode="PAY_PER_REQUEST")["TableDescription"]
        check("update_table on demand", up["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
              and "LastUpdateToPayPerRequestDateTime" in up["BillingModeSummary"], up)
        backups = ddb.describe_continuous_backups(TableName="Tagged")["ContinuousBackupsDescription"]
        check("describe_continuous_backups", backups["ContinuousBackupsStatus"] == "ENABLED"
              and backups["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "DISABLED", backups)
        backups = ddb.update_continuous_backups(
            TableName="Tagged", PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        pitr = backups["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
        check("update_continuous_backups", pitr["PointInTimeRecoveryStatus"] == "ENABLED"
              and "EarliestRestorableDateTime" in pitr, pitr)
        check("describe_limits", ddb.describe_limits()["TableMaxReadCapacityUnits"] == 40000)
        # OnDemandThroughput and WarmThroughput as botocore sends and reads them.
        if supports(ddb, "UpdateTable", "WarmThroughput"):
            d = ddb.update_table(TableName="Tagged",
                                 OnDemandThroughput={"MaxReadRequestUnits": 40})["TableDescription"]
            check("update_table OnDemandThroughput", d.get("OnDemandThroughput") == {"MaxReadRequestUnits": 40}, d)
            d = ddb.update_table(TableName="Tagged", WarmThroughput={"ReadUnitsPerSecond": 12500})["TableDescription"]
            check("update_table WarmThroughput", d["WarmThroughput"] == {
                "ReadUnitsPerSecond": 12500, "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"}, d)
            resp = expect_error("WarmThroughput decrease", "ValidationException", lambda: ddb.update_table(
                TableName="Tagged", WarmThroughput={"ReadUnitsPerSecond": 12000}))
            check("WarmThroughput decrease text", resp and "decreasing WarmThroughput is not supported"
                  in resp["Error"]["Message"], resp)
            d = ddb.describe_table(TableName="Tagged")["Table"]
            check("describe_table WarmThroughput", d["WarmThroughput"]["ReadUnitsPerSecond"] == 12500, d)
        else:
            skip("OnDemandThroughput and WarmThroughput", "this botocore's UpdateTable has no WarmThroughput")
        deleted = ddb.delete_table(TableName="Tagged")["TableDescription"]
        check("delete_table description", deleted["TableStatus"] == "DELETING" and "KeySchema" not in deleted, deleted)

        # A GSI with a multi-attribute key (two HASH and two RANGE attributes), as botocore's
        # current model allows: created, queried through the resource layer's Key conditions,
        # paged, and its key-condition rule's message.
        ddb.create_table(
            TableName="Matches", KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": n, "AttributeType": t} for n, t in
                                  [("id", "S"), ("league", "S"), ("division", "S"), ("stage", "N"), ("bracket", "S")]],
            GlobalSecondaryIndexes=[{"IndexName": "byBracket", "KeySchema": [
                {"AttributeName": "league", "KeyType": "HASH"}, {"AttributeName": "division", "KeyType": "HASH"},
                {"AttributeName": "stage", "KeyType": "RANGE"}, {"AttributeName": "bracket", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"}}],
            BillingMode="PAY_PER_REQUEST")
        gsi = ddb.describe_table(TableName="Matches")["Table"]["GlobalSecondaryIndexes"][0]
        check("multi-attribute key described", [(k["AttributeName"], k["KeyType"]) for k in gsi["KeySchema"]]
              == [("league", "HASH"), ("division", "HASH"), ("stage", "RANGE"), ("bracket", "RANGE")], gsi)
        matches = resource.Table("Matches")
        for i, (stage, bracket) in enumerate([(1, "upper"), (1, "lower"), (2, "upper"), (10, "final")]):
            matches.put_item(Item={"id": f"m{i}", "league": "W", "division": "NA", "stage": stage, "bracket": bracket})
        matches.put_item(Item={"id": "m9", "league": "W", "division": "NA", "bracket": "upper"})  # not indexed
        got = matches.query(IndexName="byBracket",
                            KeyConditionExpression=Key("league").eq("W") & Key("division").eq("NA"))["Items"]
        check("multi-attribute key order", [(int(x["stage"]), x["bracket"]) for x in got]
              == [(1, "lower"), (1, "upper"), (2, "upper"), (10, "final")], got)
        got = matches.query(IndexName="byBracket", KeyConditionExpression=Key("league").eq("W")
                            & Key("division").eq("NA") & Key("stage").eq(1) & Key("bracket").begins_with("u"))["Items"]
        check("multi-attribute key prefix", [x["id"] for x in got] == ["m0"], got)
        pages = list(ddb.get_paginator("query").paginate(
            TableName="Matches", IndexName="byBracket", KeyConditionExpression="league = :l AND division = :d AND stage > :s",
            ExpressionAttributeValues={":l": {"S": "W"}, ":d": {"S": "NA"}, ":s": {"N": "1"}}, Limit=1))
        check("multi-attribute key pages", [p["Items"][0]["id"]["S"] for p in pages if p["Items"]] == ["m2", "m3"]
              and sorted(pages[0]["LastEvaluatedKey"]) == ["bracket", "division", "id", "league", "stage"], pages)
        resp = expect_error("multi-attribute key gap", "ValidationException", lambda: matches.query(
            IndexName="byBracket", KeyConditionExpression=Key("league").eq("W") & Key("division").eq("NA")
            & Key("bracket").eq("upper")))
        check("multi-attribute key gap message", resp and resp["Error"]["Message"] ==
              "RANGE key attributes stage must have equality conditions specified in the query because a "
              "condition is present on key attribute bracket", resp)

        # A GSI's provisioned throughput: a table becoming PROVISIONED gives every GSI its own.
        expect_error("provisioned without the GSI's", "ValidationException", lambda: ddb.update_table(
            TableName="Matches", BillingMode="PROVISIONED",
            ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}))
        ddb.update_table(TableName="Matches", BillingMode="PROVISIONED",
                         ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
                         GlobalSecondaryIndexUpdates=[{"Update": {"IndexName": "byBracket", "ProvisionedThroughput": {
                             "ReadCapacityUnits": 3, "WriteCapacityUnits": 2}}}])
        ddb.update_table(TableName="Matches", GlobalSecondaryIndexUpdates=[{"Update": {
            "IndexName": "byBracket", "ProvisionedThroughput": {"ReadCapacityUnits": 4, "WriteCapacityUnits": 2}}}])
        gsi = ddb.describe_table(TableName="Matches")["Table"]["GlobalSecondaryIndexes"][0]
        pt = gsi["ProvisionedThroughput"]
        check("gsi throughput", pt["ReadCapacityUnits"] == 4 and pt["WriteCapacityUnits"] == 2
              and "LastIncreaseDateTime" in pt, gsi)

        # Legacy parameters: Expected, AttributeUpdates, AttributesToGet, KeyConditions with
        # QueryFilter, ScanFilter (boto3's low-level client sends them as written).
        legacy_key = {"Artist": {"S": "Legacy"}, "Song": {"S": "1"}}
        ddb.update_item(TableName="Music", Key=legacy_key,
                        AttributeUpdates={"Plays": {"Action": "ADD", "Value": {"N": "2"}},
                                          "Tags": {"Action": "ADD", "Value": {"SS": ["old"]}},
                                          "Log": {"Action": "ADD", "Value": {"L": [{"S": "a"}]}}},
                        Expected={"Plays": {"Exists": False}})
        out = ddb.update_item(
            TableName="Music", Key=legacy_key,
            AttributeUpdates={"Log": {"Action": "ADD", "Value": {"L": [{"S": "b"}]}},
                              "Tags": {"Action": "DELETE"}},
            Expected={"Plays": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "2"}]},
                      "Tags": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "old"}]}},
            ReturnValues="ALL_NEW")["Attributes"]
        check("legacy update_item", out.get("Log") == {"L": [{"S": "a"}, {"S": "b"}]}
              and "Tags" not in out and out.get("Plays") == {"N": "2"}, out)
        expect_error("legacy expected fails", "ConditionalCheckFailedException", lambda: ddb.put_item(
            TableName="Music", Item=legacy_key, Expected={"Plays": {"Value": {"N": "3"}}}))
        expect_error("legacy type mismatch", "ValidationException", lambda: ddb.update_item(
            TableName="Music", Key=legacy_key,
            AttributeUpdates={"Log": {"Action": "ADD", "Value": {"N": "1"}}}))
        ddb.put_item(TableName="Music", Item={"Artist": {"S": "Legacy"}, "Song": {"S": "2"},
                                              "Plays": {"N": "5"}},
                     Expected={"Plays": {"ComparisonOperator": "NULL"}})
        q = ddb.query(TableName="Music",
                      KeyConditions={"Artist": {"ComparisonOperator": "EQ",
                                                "AttributeValueList": [{"S": "Legacy"}]}},
                      QueryFilter={"Plays": {"ComparisonOperator": "GT",
                                             "AttributeValueList": [{"N": "2"}]}},
                      AttributesToGet=["Song"])
        check("legacy query", q["Items"] == [{"Song": {"S": "2"}}] and q["ScannedCount"] == 2, q)
        s = ddb.scan(TableName="Music", AttributesToGet=["Artist", "Song"],
                     ScanFilter={"Log": {"ComparisonOperator": "CONTAINS",
                                         "AttributeValueList": [{"S": "b"}]}})
        check("legacy scan", s["Items"] == [legacy_key], s)
        g = ddb.get_item(TableName="Music", Key=legacy_key, AttributesToGet=["Plays", "Nope"])
        check("legacy get_item", g.get("Item") == {"Plays": {"N": "2"}}, g)
        bg = ddb.batch_get_item(RequestItems={"Music": {"Keys": [legacy_key], "AttributesToGet": ["Song"]}})
        check("legacy batch_get_item", bg["Responses"]["Music"] == [{"Song": {"S": "1"}}], bg)
        resp = expect_error("legacy mixed with expressions", "ValidationException", lambda: ddb.put_item(
            TableName="Music", Item=legacy_key, Expected={"Plays": {"Exists": False}},
            ConditionExpression="attribute_not_exists(Artist)"))
        check("legacy mixing message", resp and resp["Error"]["Message"] ==
              "Can not use both expression and non-expression parameters in the same request: "
              "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}", resp)

        # Deleting the table.
        ddb.delete_table(TableName="Music")
        expect_error("deleted", "ResourceNotFoundException", lambda: ddb.describe_table(TableName="Music"))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            out, err = server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            failures.append("the server did not stop on SIGTERM")
            out, err = "", ""
        check("clean stop", server.returncode == 0 and "stopped after" in err, f"{server.returncode} {err}")

for f in failures:
    print("FAIL", f)
print(f"boto3 {boto3.__version__} (botocore {botocore.__version__}) scenario: "
      f"{'ok' if not failures else str(len(failures)) + ' failed'}"
      + (f", {len(skipped)} step(s) skipped for the client's age" if skipped else ""))
sys.exit(1 if failures else 0)
