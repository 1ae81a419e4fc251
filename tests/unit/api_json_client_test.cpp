// The response decoders of api/api_json_client.h: for every Backend operation, a response
// encoded by api_json.h, decoded, and encoded again gives the same text; and DynamoDB's own
// shapes (members keyhole does not write, members it leaves out) decode.
#include <gtest/gtest.h>

#include <string>

#include "api/api_json.h"
#include "api/api_json_client.h"
#include "api_json_client_test_util.h"

namespace keyhole {
namespace {

using testing::Decoded;
using testing::ExpectRoundTrip;
using testing::Key;
using testing::Malformed;
using testing::Num;
using testing::Rich;
using testing::Total;
using testing::WithIndexes;

// ---- tables ----

IndexDescription Index(const char* name, IndexKind kind, KeySchema key, ProjectionType type) {
  IndexDescription i;
  i.name = name;
  i.kind = kind;
  i.key = std::move(key);
  i.projection.type = type;
  return i;
}

// A PROVISIONED table with a stream, two GSIs and an LSI (created between them, as creation
// order mixes the kinds while DescribeTable lists LSIs first).
TableDescription FullTable() {
  TableDescription t;
  t.name = "Orders.v2";
  t.id = 0x1234abcd;
  t.key = {{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kN}};
  IndexDescription status = Index("byStatus", IndexKind::kGlobal,
                                  {{"status", ValueType::kS}, KeyAttribute{"sk", ValueType::kN}},
                                  ProjectionType::kInclude);
  status.projection.non_key_attributes = {"total", "owner"};
  status.status = "CREATING";
  status.item_count = 3;
  status.size_bytes = 321;
  status.read_capacity = 3;
  status.write_capacity = 2;
  status.last_increase_time = 1795385700;
  status.last_decrease_time = 1795385800.5;
  status.decreases_today = 1;
  t.indexes.push_back(status);
  IndexDescription date = Index("byDate", IndexKind::kLocal,
                                {{"pk", ValueType::kS}, KeyAttribute{"date", ValueType::kS}},
                                ProjectionType::kKeysOnly);
  date.item_count = 9;
  date.size_bytes = 900;
  t.indexes.push_back(date);
  t.indexes.push_back(
      Index("byBlob", IndexKind::kGlobal, {{"blob", ValueType::kB}, {}}, ProjectionType::kAll));
  t.status = "UPDATING";
  t.creation_time = 1795385600.123;
  t.billing_mode = "PROVISIONED";
  t.read_capacity = 5;
  t.write_capacity = 7;
  t.stream_view_type = "NEW_AND_OLD_IMAGES";
  t.latest_stream_label = "2026-11-22T22:13:20.123";
  t.item_count = 12;
  t.size_bytes = 3456;
  return t;
}

// An on-demand table without indexes whose stream was disabled (the label stays).
TableDescription PlainTable() {
  TableDescription t;
  t.name = "Tab";
  t.id = 0x1000000000007;  // more than the 12 hex digits TableId pads to
  t.key = {{"id", ValueType::kB}, {}};
  t.creation_time = 1700000000;
  t.latest_stream_label = "2023-11-14T22:13:20.000";
  return t;
}

// Everything DescribeTable shows of `t` came back (TTL is DescribeTimeToLive's), the indexes in
// creation order (which the order of AttributeDefinitions shows).
void ExpectSameTable(const TableDescription& back, const TableDescription& t) {
  EXPECT_EQ(back.name, t.name);
  EXPECT_EQ(back.id, t.id);
  EXPECT_EQ(back.key, t.key);
  EXPECT_EQ(back.status, t.status);
  EXPECT_DOUBLE_EQ(back.creation_time, t.creation_time);
  EXPECT_EQ(back.billing_mode, t.billing_mode);
  EXPECT_EQ(back.read_capacity, t.read_capacity);
  EXPECT_EQ(back.write_capacity, t.write_capacity);
  EXPECT_EQ(back.stream_view_type, t.stream_view_type);
  EXPECT_EQ(back.latest_stream_label, t.latest_stream_label);
  EXPECT_EQ(back.LatestStreamArn(), t.LatestStreamArn());
  EXPECT_EQ(back.item_count, t.item_count);
  EXPECT_EQ(back.size_bytes, t.size_bytes);
  ASSERT_EQ(back.indexes.size(), t.indexes.size());
  for (size_t n = 0; n < t.indexes.size(); ++n) {
    const IndexDescription& i = t.indexes[n];
    const IndexDescription* b = &back.indexes[n];
    ASSERT_EQ(b->name, i.name);
    EXPECT_EQ(b->kind, i.kind);
    EXPECT_EQ(b->key, i.key);
    EXPECT_EQ(b->projection, i.projection);
    EXPECT_EQ(b->status, i.status);
    EXPECT_EQ(b->item_count, i.item_count);
    EXPECT_EQ(b->size_bytes, i.size_bytes);
    EXPECT_EQ(b->read_capacity, i.read_capacity);
    EXPECT_EQ(b->write_capacity, i.write_capacity);
    EXPECT_DOUBLE_EQ(b->last_increase_time, i.last_increase_time);
    EXPECT_DOUBLE_EQ(b->last_decrease_time, i.last_decrease_time);
    EXPECT_EQ(b->decreases_today, i.decreases_today);
  }
}

TEST(ApiJsonClientTest, TableResponsesRoundTrip) {
  for (const TableDescription& t : {FullTable(), PlainTable()}) {
    SCOPED_TRACE(t.name);
    ExpectSameTable(ExpectRoundTrip(DescribeTableResponse{t}, DescribeTableResponseFromJson,
                                    DescribeTableResponseToJson)
                        .table,
                    t);
    ExpectSameTable(ExpectRoundTrip(CreateTableResponse{t}, CreateTableResponseFromJson,
                                    CreateTableResponseToJson)
                        .table_description,
                    t);
    ExpectSameTable(ExpectRoundTrip(UpdateTableResponse{t}, UpdateTableResponseFromJson,
                                    UpdateTableResponseToJson)
                        .table_description,
                    t);
    // DeleteTable's description has no schema (DeleteTableResponseToJson): what it has comes
    // back.
    const TableDescription deleted =
        ExpectRoundTrip(DeleteTableResponse{t}, DeleteTableResponseFromJson,
                        DeleteTableResponseToJson)
            .table_description;
    EXPECT_EQ(deleted.name, t.name);
    EXPECT_EQ(deleted.id, t.id);
    EXPECT_EQ(deleted.status, t.status);
    EXPECT_EQ(deleted.billing_mode, t.billing_mode);
    EXPECT_EQ(deleted.read_capacity, t.read_capacity);
    EXPECT_EQ(deleted.item_count, t.item_count);
    EXPECT_TRUE(deleted.indexes.empty());
    EXPECT_EQ(deleted.creation_time, 0);
  }
}

// Indexes created GSI, LSI, GSI, LSI, GSI: AttributeDefinitions follow that order, which the
// decoder restores from the definitions (an index that adds no attribute may move; the text
// does not change).
TEST(ApiJsonClientTest, InterleavedIndexesRoundTrip) {
  TableDescription t;
  t.name = "Mixed";
  t.key = {{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kS}};
  auto key = [](const char* p, const char* s) {
    return KeySchema{{p, ValueType::kN},
                     s ? std::optional<KeyAttribute>({s, ValueType::kN}) : std::nullopt};
  };
  t.indexes = {
      Index("g1", IndexKind::kGlobal, key("a", nullptr), ProjectionType::kAll),
      Index("l1", IndexKind::kLocal, {{"pk", ValueType::kS}, KeyAttribute{"b", ValueType::kN}},
            ProjectionType::kAll),
      Index("g2", IndexKind::kGlobal, key("a", "sk"), ProjectionType::kAll),
      Index("l2", IndexKind::kLocal, {{"pk", ValueType::kS}, KeyAttribute{"c", ValueType::kN}},
            ProjectionType::kAll),
      Index("g3", IndexKind::kGlobal, key("d", "e"), ProjectionType::kKeysOnly)};
  DescribeTableResponse back = ExpectRoundTrip(
      DescribeTableResponse{t}, DescribeTableResponseFromJson, DescribeTableResponseToJson);
  std::vector<std::string> names;
  for (const IndexDescription& i : back.table.indexes) names.push_back(i.name);
  EXPECT_EQ(names, (std::vector<std::string>{"g1", "g2", "l1", "l2", "g3"}));
}

TEST(ApiJsonClientTest, ListTablesRoundTrips) {
  ListTablesResponse r;
  EXPECT_TRUE(
      ExpectRoundTrip(r, ListTablesResponseFromJson, ListTablesResponseToJson).table_names.empty());
  r.table_names = {"a-1", "b.2", "c_3"};
  r.last_evaluated_table_name = "c_3";
  ListTablesResponse back =
      ExpectRoundTrip(r, ListTablesResponseFromJson, ListTablesResponseToJson);
  EXPECT_EQ(back.table_names, r.table_names);
  EXPECT_EQ(back.last_evaluated_table_name, "c_3");
}

// DescribeTable as DynamoDB answers it: a real ARN and UUID, no BillingModeSummary for a table
// created PROVISIONED by default, GSI throughput, members keyhole does not model.
TEST(ApiJsonClientTest, DynamoDbDescribeTable) {
  TableDescription t = Decoded(&DescribeTableResponseFromJson, R"({"Table": {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "gsk", "AttributeType": "N"}],
    "TableName": "Music",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "TableStatus": "ACTIVE",
    "CreationDateTime": 1.716301234567E9,
    "ProvisionedThroughput": {"LastIncreaseDateTime": 1716301234.5, "NumberOfDecreasesToday": 0,
                              "ReadCapacityUnits": 10, "WriteCapacityUnits": 4},
    "TableSizeBytes": 1024, "ItemCount": 2,
    "TableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Music",
    "TableId": "d9a8b5e0-1d3e-4c7b-9b7f-3f1c2a6e4d21",
    "GlobalSecondaryIndexes": [{
      "IndexName": "byG", "KeySchema": [{"AttributeName": "gsk", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "KEYS_ONLY"}, "IndexStatus": "ACTIVE",
      "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 1,
                                "WriteCapacityUnits": 1},
      "IndexSizeBytes": 0, "ItemCount": 0,
      "IndexArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Music/index/byG",
      "WarmThroughput": {"ReadUnitsPerSecond": 12000, "Status": "ACTIVE"}}],
    "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"},
    "LatestStreamLabel": "2024-05-21T14:20:34.567",
    "LatestStreamArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Music/stream/2024-05-21T14:20:34.567",
    "SSEDescription": {"Status": "ENABLED"}, "DeletionProtectionEnabled": false,
    "TableClassSummary": {"TableClass": "STANDARD"}}})")
                           .table;
  EXPECT_EQ(t.name, "Music");
  EXPECT_EQ(t.id, 0u);
  EXPECT_EQ(t.key, (KeySchema{{"pk", ValueType::kS}, {}}));
  EXPECT_DOUBLE_EQ(t.creation_time, 1716301234.567);
  EXPECT_EQ(t.billing_mode, "PROVISIONED");
  EXPECT_EQ(t.read_capacity, 10);
  EXPECT_EQ(t.write_capacity, 4);
  EXPECT_EQ(t.item_count, 2);
  EXPECT_EQ(t.size_bytes, 1024);
  ASSERT_EQ(t.indexes.size(), 1u);
  EXPECT_EQ(t.indexes[0].key.partition, (KeyAttribute{"gsk", ValueType::kN}));
  EXPECT_EQ(t.indexes[0].projection.type, ProjectionType::kKeysOnly);
  EXPECT_EQ(t.stream_view_type, "KEYS_ONLY");
  EXPECT_EQ(t.latest_stream_label, "2024-05-21T14:20:34.567");

  // An on-demand table's zero throughput without BillingModeSummary.
  TableDescription od = Decoded(&DescribeTableResponseFromJson, R"({"Table": {
    "TableName": "T", "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 0},
    "StreamSpecification": {"StreamEnabled": false}}})")
                            .table;
  EXPECT_EQ(od.billing_mode, "PAY_PER_REQUEST");
  EXPECT_FALSE(od.stream_view_type);
}

// DeleteTable's description has no KeySchema or AttributeDefinitions.
TEST(ApiJsonClientTest, DynamoDbDeleteTable) {
  TableDescription t = Decoded(&DeleteTableResponseFromJson, R"({"TableDescription": {
    "TableName": "Music", "TableStatus": "DELETING", "TableSizeBytes": 0, "ItemCount": 0,
    "ProvisionedThroughput": {"NumberOfDecreasesToday": 0, "ReadCapacityUnits": 0,
                              "WriteCapacityUnits": 0},
    "BillingModeSummary": {"BillingMode": "PAY_PER_REQUEST",
                           "LastUpdateToPayPerRequestDateTime": 1716301234.567},
    "TableArn": "arn:aws:dynamodb:us-east-1:123456789012:table/Music"}})")
                           .table_description;
  EXPECT_EQ(t.name, "Music");
  EXPECT_EQ(t.status, "DELETING");
  EXPECT_EQ(t.billing_mode, "PAY_PER_REQUEST");
  EXPECT_EQ(t.key.partition.name, "");
}

TEST(ApiJsonClientTest, MalformedTableDescriptions) {
  EXPECT_EQ(Malformed(&DescribeTableResponseFromJson, R"({})"),
            "Malformed DynamoDB response: Table is missing");
  EXPECT_EQ(Malformed(&DescribeTableResponseFromJson, R"({"Table": []})"),
            "Malformed DynamoDB response: Table is a list, not a JSON object");
  EXPECT_EQ(Malformed(&DescribeTableResponseFromJson,
                      R"({"Table": {"AttributeDefinitions": [{"AttributeName": "a",
                          "AttributeType": "S"}], "KeySchema": [{"AttributeName": "b",
                          "KeyType": "HASH"}]}})"),
            "Malformed DynamoDB response: KeySchema[0] names 'b', which AttributeDefinitions "
            "does not define (in Table)");
  EXPECT_EQ(Malformed(&DescribeTableResponseFromJson, R"({"Table": {"ItemCount": 1.5}})"),
            "Malformed DynamoDB response: ItemCount is 1.5, not a 64-bit integer (in Table)");
  EXPECT_EQ(Malformed(&DescribeTableResponseFromJson, R"({"Table": {"CreationDateTime": 1e999}})"),
            "Malformed DynamoDB response: CreationDateTime is 1e999, out of range (in Table)");
  EXPECT_EQ(Malformed(&DescribeTableResponseFromJson,
                      R"({"Table": {"GlobalSecondaryIndexes": [{"IndexName": "g",
                          "KeySchema": [{"AttributeName": "a", "KeyType": "RANGE"}]}]}})"),
            "Malformed DynamoDB response: GlobalSecondaryIndexes[0].KeySchema has no HASH key "
            "(in Table)");
  EXPECT_EQ(Malformed(&ListTablesResponseFromJson, R"({"TableNames": ["a", 1]})"),
            "Malformed DynamoDB response: TableNames[1] is not a string");
}

TEST(ApiJsonClientTest, TimeToLiveRoundTrips) {
  UpdateTimeToLiveResponse u;
  u.specification = {"expires", true};
  UpdateTimeToLiveResponse ub =
      ExpectRoundTrip(u, UpdateTimeToLiveResponseFromJson, UpdateTimeToLiveResponseToJson);
  EXPECT_EQ(ub.specification.attribute_name, "expires");
  EXPECT_TRUE(ub.specification.enabled);
  u.specification.enabled = false;
  EXPECT_FALSE(ExpectRoundTrip(u, UpdateTimeToLiveResponseFromJson, UpdateTimeToLiveResponseToJson)
                   .specification.enabled);

  DescribeTimeToLiveResponse d;
  EXPECT_EQ(ExpectRoundTrip(d, DescribeTimeToLiveResponseFromJson, DescribeTimeToLiveResponseToJson)
                .status,
            "DISABLED");
  d.status = "ENABLED";
  d.attribute_name = "expires";
  DescribeTimeToLiveResponse db =
      ExpectRoundTrip(d, DescribeTimeToLiveResponseFromJson, DescribeTimeToLiveResponseToJson);
  EXPECT_EQ(db.status, "ENABLED");
  EXPECT_EQ(db.attribute_name, "expires");
  EXPECT_EQ(Decoded(&DescribeTimeToLiveResponseFromJson,
                    R"({"TimeToLiveDescription": {"TimeToLiveStatus": "ENABLING",
                        "AttributeName": "ttl"}})")
                .status,
            "ENABLING");
}

// ---- items and reads ----

TEST(ApiJsonClientTest, ItemResponsesRoundTrip) {
  PutItemResponse put;
  EXPECT_FALSE(ExpectRoundTrip(put, PutItemResponseFromJson, PutItemResponseToJson).attributes);
  put.attributes = Rich("p");
  put.consumed_capacity = Total("Tab", 1);
  PutItemResponse pb = ExpectRoundTrip(put, PutItemResponseFromJson, PutItemResponseToJson);
  ASSERT_TRUE(pb.attributes);
  EXPECT_TRUE(*pb.attributes == *put.attributes);
  ASSERT_TRUE(pb.consumed_capacity);
  EXPECT_EQ(pb.consumed_capacity->table_name, "Tab");
  EXPECT_EQ(pb.consumed_capacity->total.capacity_units, 1);

  GetItemResponse get;
  EXPECT_FALSE(ExpectRoundTrip(get, GetItemResponseFromJson, GetItemResponseToJson).item);
  get.item = Rich("g");
  get.consumed_capacity = WithIndexes("Tab");
  GetItemResponse gb = ExpectRoundTrip(get, GetItemResponseFromJson, GetItemResponseToJson);
  ASSERT_TRUE(gb.item);
  EXPECT_TRUE(*gb.item == *get.item);
  ASSERT_TRUE(gb.consumed_capacity);
  EXPECT_EQ(gb.consumed_capacity->global_indexes.size(), 2u);
  EXPECT_EQ(gb.consumed_capacity->local_indexes.at("byDate").read_units, 1);

  DeleteItemResponse del;
  del.attributes = Key("d", "1");
  del.consumed_capacity = Total("Tab", 2);
  ExpectRoundTrip(del, DeleteItemResponseFromJson, DeleteItemResponseToJson);

  UpdateItemResponse upd;
  upd.attributes = Rich("u");
  upd.consumed_capacity = WithIndexes("Tab");
  ExpectRoundTrip(upd, UpdateItemResponseFromJson, UpdateItemResponseToJson);
  upd.consumed_capacity.reset();
  ExpectRoundTrip(upd, UpdateItemResponseFromJson, UpdateItemResponseToJson);
}

TEST(ApiJsonClientTest, ConsumedCapacityRoundTrips) {
  for (const ConsumedCapacity& c : {Total("T", 0.5), Total("T", 0), WithIndexes("T")}) {
    ConsumedCapacity back = ExpectRoundTrip(c, ConsumedCapacityFromJson, ConsumedCapacityToJson);
    EXPECT_EQ(back.total.capacity_units, c.total.capacity_units);
    EXPECT_EQ(back.total.read_units, c.total.read_units);
    EXPECT_EQ(back.total.write_units, c.total.write_units);
    EXPECT_EQ(back.table.capacity_units, c.table.capacity_units);
    EXPECT_EQ(back.global_indexes.size(), c.global_indexes.size());
    EXPECT_EQ(back.local_indexes.size(), c.local_indexes.size());
  }
  // Fractions as DynamoDB writes them, and an index-only Query's zero on the table.
  ConsumedCapacity c = Decoded(&ConsumedCapacityFromJson, R"({"TableName": "T",
      "CapacityUnits": 1.5, "Table": {"CapacityUnits": 0.0},
      "GlobalSecondaryIndexes": {"g": {"CapacityUnits": 1.5, "ReadCapacityUnits": 1.5}}})");
  EXPECT_EQ(c.total.capacity_units, 1.5);
  EXPECT_EQ(c.global_indexes.at("g").read_units, 1.5);
  EXPECT_EQ(json::Write(ConsumedCapacityToJson(c)),
            R"({"TableName":"T","CapacityUnits":1.5,"Table":{"CapacityUnits":0.0},)"
            R"("GlobalSecondaryIndexes":{"g":{"CapacityUnits":1.5,"ReadCapacityUnits":1.5}}})");
}

TEST(ApiJsonClientTest, QueryAndScanRoundTrip) {
  ReadResponse r;
  ExpectRoundTrip(r, QueryResponseFromJson,
                  [](const ReadResponse& x) { return QueryResponseToJson(x); });
  r.items = {Rich("a"), Key("b", "2"), Item{}};
  r.count = 3;
  r.scanned_count = 7;
  r.last_evaluated_key = Key("b", "2");
  r.consumed_capacity = WithIndexes("Tab");
  ReadResponse q = ExpectRoundTrip(r, QueryResponseFromJson,
                                   [](const ReadResponse& x) { return QueryResponseToJson(x); });
  ASSERT_EQ(q.items.size(), 3u);
  EXPECT_TRUE(q.items[0] == r.items[0]);
  EXPECT_EQ(q.count, 3);
  EXPECT_EQ(q.scanned_count, 7);
  ASSERT_TRUE(q.last_evaluated_key);
  EXPECT_TRUE(*q.last_evaluated_key == *r.last_evaluated_key);
  ExpectRoundTrip(r, ScanResponseFromJson,
                  [](const ReadResponse& x) { return ScanResponseToJson(x); });
  // Select COUNT: no Items member, and none decoded.
  r.items.clear();
  ReadResponse c = ExpectRoundTrip(r, ScanResponseFromJson, [](const ReadResponse& x) {
    return ScanResponseToJson(x, Select::kCount);
  });
  EXPECT_TRUE(c.items.empty());
  EXPECT_EQ(c.count, 3);
}

TEST(ApiJsonClientTest, UnknownMembersAreIgnored) {
  PutItemResponse p = Decoded(&PutItemResponseFromJson, R"({"Attributes": {"a": {"S": "x"}},
      "ItemCollectionMetrics": {"ItemCollectionKey": {"pk": {"S": "x"}},
                                "SizeEstimateRangeGB": [0, 1]}, "Future": null})");
  ASSERT_TRUE(p.attributes);
  GetItemResponse g = Decoded(&GetItemResponseFromJson, R"({"Item": null})");
  EXPECT_FALSE(g.item);
  ReadResponse q = Decoded(&QueryResponseFromJson, R"({"Count": 0, "ScannedCount": 0,
      "Items": [], "ResponseMetadata": {"x": 1}})");
  EXPECT_EQ(q.count, 0);
}

// The fast paths from the text give what the decoders give, and step aside (nullopt) for
// anything unusual, where the decoders give the exact error.
TEST(ApiJsonClientTest, ReadResponsesFromTextMatchTheDecoders) {
  ReadResponse r;
  r.items = {Rich("a"), Key("b", "2"), Item{}};
  r.count = 3;
  r.scanned_count = 7;
  r.last_evaluated_key = Key("b", "2");
  r.consumed_capacity = WithIndexes("Tab");
  for (Select select : {Select::kAllAttributes, Select::kCount}) {
    const std::string text = json::Write(QueryResponseToJson(r, select));
    std::optional<ReadResponse> fast = ReadResponseFromText(text);
    ASSERT_TRUE(fast) << text;
    Result<ReadResponse> slow = QueryResponseFromJson(*json::Parse(text));
    ASSERT_TRUE(slow.ok());
    EXPECT_TRUE(fast->items == slow->items) << text;
    EXPECT_EQ(fast->count, slow->count);
    EXPECT_EQ(fast->scanned_count, slow->scanned_count);
    ASSERT_TRUE(fast->last_evaluated_key);
    EXPECT_TRUE(*fast->last_evaluated_key == *slow->last_evaluated_key);
    EXPECT_EQ(fast->consumed_capacity.has_value(), slow->consumed_capacity.has_value());
  }
  GetItemResponse g;
  g.item = Rich("g");
  std::optional<GetItemResponse> fg =
      GetItemResponseFromText(json::Write(GetItemResponseToJson(g)));
  ASSERT_TRUE(fg && fg->item);
  EXPECT_TRUE(*fg->item == *g.item);
  fg = GetItemResponseFromText("{}");
  ASSERT_TRUE(fg);
  EXPECT_FALSE(fg->item);
  for (const char* odd :
       {R"({"Items": null})", R"({"Items": [], "Items": []})", R"({"Items": [{"a": {"N": "x"}}]})",
        R"({"Count": "3"})", R"({"Items": []} [])", R"([])", "", R"({"Items": [5]})"}) {
    EXPECT_FALSE(ReadResponseFromText(odd)) << odd;
  }
  for (const char* odd : {R"({"Item": null})", R"({"Item": {"a": {"S": "x"}}, "Item": {}})",
                          R"({"Item": {"a": {"BOOL": "yes"}}})", "{"}) {
    EXPECT_FALSE(GetItemResponseFromText(odd)) << odd;
  }
}

TEST(ApiJsonClientTest, MalformedItemResponses) {
  EXPECT_EQ(Malformed(&GetItemResponseFromJson, R"([])"),
            "Malformed DynamoDB response: the body is a list, not a JSON object");
  EXPECT_EQ(Malformed(&GetItemResponseFromJson, R"({"Item": {"a": {"N": "x"}}})")
                .rfind("Malformed DynamoDB response: Item is not an item: ", 0),
            0u);
  EXPECT_EQ(Malformed(&QueryResponseFromJson, R"({"Count": "3"})"),
            "Malformed DynamoDB response: Count is a string, not a number");
  EXPECT_EQ(Malformed(&QueryResponseFromJson, R"({"Items": [{"a": {"S": "x"}}, 5]})"),
            "Malformed DynamoDB response: Items[1] is a number, not a JSON object");
  EXPECT_EQ(Malformed(&ScanResponseFromJson, R"({"ConsumedCapacity": {"CapacityUnits": true}})"),
            "Malformed DynamoDB response: ConsumedCapacity.CapacityUnits is a boolean, not a "
            "number");
  EXPECT_EQ(Malformed(&ScanResponseFromJson,
                      R"({"ConsumedCapacity": {"GlobalSecondaryIndexes": {"g": 1}}})"),
            "Malformed DynamoDB response: ConsumedCapacity.GlobalSecondaryIndexes.g is a number, "
            "not a JSON object");
}

// ---- batches and transactions ----

TEST(ApiJsonClientTest, BatchWriteItemRoundTrips) {
  BatchWriteItemResponse r;
  EXPECT_TRUE(ExpectRoundTrip(r, BatchWriteItemResponseFromJson, BatchWriteItemResponseToJson)
                  .unprocessed_items.empty());
  r.unprocessed_items["A"] = {WriteRequest{PutRequest{Rich("1")}, std::nullopt},
                              WriteRequest{std::nullopt, DeleteRequest{Key("2", "2")}}};
  r.unprocessed_items["B"] = {WriteRequest{std::nullopt, DeleteRequest{Key("3", "3")}}};
  r.consumed_capacity = {WithIndexes("A"), Total("B", 1)};
  BatchWriteItemResponse b =
      ExpectRoundTrip(r, BatchWriteItemResponseFromJson, BatchWriteItemResponseToJson);
  ASSERT_EQ(b.unprocessed_items.at("A").size(), 2u);
  ASSERT_TRUE(b.unprocessed_items.at("A")[0].put_request);
  EXPECT_TRUE(b.unprocessed_items.at("A")[0].put_request->item == Rich("1"));
  ASSERT_TRUE(b.unprocessed_items.at("A")[1].delete_request);
  EXPECT_EQ(b.consumed_capacity.size(), 2u);
  EXPECT_EQ(Malformed(&BatchWriteItemResponseFromJson, R"({"UnprocessedItems": {"A": [{}]}})"),
            "Malformed DynamoDB response: UnprocessedItems.A[0] has neither PutRequest nor "
            "DeleteRequest");
}

TEST(ApiJsonClientTest, BatchGetItemRoundTrips) {
  BatchGetItemResponse r;
  ExpectRoundTrip(r, BatchGetItemResponseFromJson, BatchGetItemResponseToJson);
  r.responses["A"] = {Rich("1"), Key("2", "2")};
  r.responses["B"] = {};
  KeysAndAttributes plain;
  plain.keys = {Key("3", "3")};
  r.unprocessed_keys["A"] = plain;
  KeysAndAttributes projected;
  projected.keys = {Key("4", "4"), Key("5", "5")};
  projected.consistent_read = true;
  projected.expressions.projection = "#s, pk";
  projected.expressions.names = std::map<std::string, std::string>{{"#s", "status"}};
  r.unprocessed_keys["B"] = projected;
  r.consumed_capacity = {Total("A", 1), Total("B", 0.5)};
  BatchGetItemResponse b =
      ExpectRoundTrip(r, BatchGetItemResponseFromJson, BatchGetItemResponseToJson);
  EXPECT_EQ(b.responses.at("A").size(), 2u);
  EXPECT_TRUE(b.responses.at("B").empty());
  const KeysAndAttributes& kb = b.unprocessed_keys.at("B");
  EXPECT_EQ(kb.keys.size(), 2u);
  EXPECT_TRUE(kb.consistent_read);
  EXPECT_EQ(kb.expressions.projection, "#s, pk");
  EXPECT_EQ(kb.expressions.names, projected.expressions.names);
  EXPECT_FALSE(b.unprocessed_keys.at("A").expressions.projection);
}

TEST(ApiJsonClientTest, TransactionsRoundTrip) {
  TransactWriteItemsResponse w;
  ExpectRoundTrip(w, TransactWriteItemsResponseFromJson, TransactWriteItemsResponseToJson);
  w.consumed_capacity = {WithIndexes("A"), Total("B", 2)};
  EXPECT_EQ(ExpectRoundTrip(w, TransactWriteItemsResponseFromJson, TransactWriteItemsResponseToJson)
                .consumed_capacity.size(),
            2u);

  TransactGetItemsResponse g;
  ExpectRoundTrip(g, TransactGetItemsResponseFromJson, TransactGetItemsResponseToJson);
  g.responses = {Rich("1"), std::nullopt, Key("3", "3")};
  g.consumed_capacity = {Total("A", 4)};
  TransactGetItemsResponse gb =
      ExpectRoundTrip(g, TransactGetItemsResponseFromJson, TransactGetItemsResponseToJson);
  ASSERT_EQ(gb.responses.size(), 3u);
  EXPECT_TRUE(gb.responses[0] && *gb.responses[0] == Rich("1"));
  EXPECT_FALSE(gb.responses[1]);
}

// ---- DynamoDB Streams ----

StreamRecord Record(const char* name, const char* view) {
  StreamRecord r;
  r.event_id = "0000000000000001000000000000000a";
  r.event_name = name;
  r.approximate_creation_date_time = 1795385600;
  r.keys = Key("a", "1");
  r.sequence_number = "000000000000000000010";
  r.size_bytes = 90;
  r.stream_view_type = view;
  return r;
}

TEST(ApiJsonClientTest, StreamsRoundTrip) {
  ListStreamsResponse l;
  ExpectRoundTrip(l, ListStreamsResponseFromJson, ListStreamsResponseToJson);
  const std::string arn =
      "arn:aws:dynamodb:local:000000000000:table/App/stream/2026-11-22T22:13:20.123";
  l.streams = {{arn, "App", "2026-11-22T22:13:20.123"}, {arn + "x", "App", "x"}};
  l.last_evaluated_stream_arn = arn;
  ListStreamsResponse lb =
      ExpectRoundTrip(l, ListStreamsResponseFromJson, ListStreamsResponseToJson);
  ASSERT_EQ(lb.streams.size(), 2u);
  EXPECT_EQ(lb.streams[0].stream_label, "2026-11-22T22:13:20.123");

  DescribeStreamResponse d;
  StreamDescription& s = d.stream_description;
  s.stream_arn = arn;
  s.stream_label = "2026-11-22T22:13:20.123";
  s.stream_status = "ENABLED";
  s.stream_view_type = "NEW_AND_OLD_IMAGES";
  s.creation_request_date_time = 1795385600.123;
  s.table_name = "App";
  s.key_schema = {{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kS}};
  s.shards = {
      {"shardId-00000000000000000001-00000001", "000000000000000000001", "000000000000000000004"},
      {"shardId-00000000000000000005-00000002", "000000000000000000005", std::nullopt}};
  s.last_evaluated_shard_id = "shardId-00000000000000000005-00000002";
  DescribeStreamResponse db =
      ExpectRoundTrip(d, DescribeStreamResponseFromJson, DescribeStreamResponseToJson);
  EXPECT_EQ(db.stream_description.key_schema, s.key_schema);
  EXPECT_EQ(db.stream_description.shards.size(), 2u);
  EXPECT_FALSE(db.stream_description.shards[1].ending_sequence_number);
  EXPECT_DOUBLE_EQ(db.stream_description.creation_request_date_time, 1795385600.123);

  GetShardIteratorResponse it{"opaque/iterator=="};
  EXPECT_EQ(ExpectRoundTrip(it, GetShardIteratorResponseFromJson, GetShardIteratorResponseToJson)
                .shard_iterator,
            "opaque/iterator==");

  GetRecordsResponse g;
  ExpectRoundTrip(g, GetRecordsResponseFromJson, GetRecordsResponseToJson);
  StreamRecord insert = Record("INSERT", "NEW_IMAGE");
  insert.new_image = Rich("a");
  StreamRecord modify = Record("MODIFY", "NEW_AND_OLD_IMAGES");
  modify.new_image = Rich("a");
  modify.old_image = Key("a", "1");
  StreamRecord remove = Record("REMOVE", "OLD_IMAGE");
  remove.old_image = Rich("a");
  remove.service_deletion = true;
  g.records = {insert, modify, remove, Record("REMOVE", "KEYS_ONLY")};
  g.next_shard_iterator = "next";
  GetRecordsResponse gb = ExpectRoundTrip(g, GetRecordsResponseFromJson, GetRecordsResponseToJson);
  ASSERT_EQ(gb.records.size(), 4u);
  EXPECT_TRUE(gb.records[1].new_image && *gb.records[1].new_image == Rich("a"));
  EXPECT_TRUE(gb.records[1].old_image && *gb.records[1].old_image == Key("a", "1"));
  EXPECT_TRUE(gb.records[2].service_deletion);
  EXPECT_FALSE(gb.records[3].service_deletion);
  EXPECT_EQ(gb.records[0].approximate_creation_date_time, 1795385600);
  EXPECT_EQ(gb.next_shard_iterator, "next");
}

// A record as DynamoDB Streams sends it: another region, a fractional creation time.
TEST(ApiJsonClientTest, DynamoDbStreamRecord) {
  GetRecordsResponse g = Decoded(&GetRecordsResponseFromJson, R"({"Records": [{
    "eventID": "c81e728d9d4c2f636f067f89cc14862c", "eventName": "INSERT",
    "eventVersion": "1.1", "eventSource": "aws:dynamodb", "awsRegion": "us-east-1",
    "dynamodb": {"ApproximateCreationDateTime": 1.7163012E9,
                 "Keys": {"Id": {"N": "101"}}, "NewImage": {"Id": {"N": "101"}},
                 "SequenceNumber": "111", "SizeBytes": 26, "StreamViewType": "NEW_IMAGE"}}],
    "NextShardIterator": "arn:aws:dynamodb:us-east-1:123456789012:table/T/stream/x|1|AAAA"})");
  ASSERT_EQ(g.records.size(), 1u);
  EXPECT_EQ(g.records[0].aws_region, "us-east-1");
  EXPECT_EQ(g.records[0].approximate_creation_date_time, 1716301200);
  EXPECT_EQ(g.records[0].size_bytes, 26);
  EXPECT_EQ(
      Malformed(&GetRecordsResponseFromJson, R"({"Records": [{"dynamodb": {"Keys": {"a": {}}}}]})")
          .rfind("Malformed DynamoDB response: Record.dynamodb.Keys is not an item: ", 0),
      0u);
}

}  // namespace
}  // namespace keyhole
