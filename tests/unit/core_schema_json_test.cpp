// The catalog form of a table (TableToJson / TableFromJson, core/schema_json.cpp): a frozen file
// format (StoredFormIsFrozen), TTL and stream settings survive a round trip; DescribeTable's
// members for streams.
#include <gtest/gtest.h>

#include "core/schema.h"

namespace keyhole {
namespace {

// The stored form of StoredFormIsFrozen's table.
constexpr char kFrozen[] =
    R"({"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk",)"
    R"("AttributeType":"N"},{"AttributeName":"l","AttributeType":"B"},{"AttributeName":"g",)"
    R"("AttributeType":"S"}],"TableName":"Frozen","KeySchema":[{"AttributeName":"pk",)"
    R"("KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"TableStatus":"ACTIVE",)"
    R"("CreationDateTime":1700000000.250,"ProvisionedThroughput":{"NumberOfDecreasesToday":0,)"
    R"("ReadCapacityUnits":0,"WriteCapacityUnits":0},"TableSizeBytes":0,"ItemCount":0,)"
    R"("TableArn":"arn:aws:dynamodb:local:000000000000:table/Frozen","TableId":"00000000-0000-4000-8000-00000000002a",)"
    R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST","LastUpdateToPayPerRequestDateTime":1700000000.250},)"
    R"("LocalSecondaryIndexes":[{"IndexName":"byL","KeySchema":[{"AttributeName":"pk",)"
    R"("KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"},)"
    R"("IndexSizeBytes":0,"ItemCount":0,"IndexArn":"arn:aws:dynamodb:local:000000000000:table/Frozen/index/byL"}],)"
    R"("GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g",)"
    R"("KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE",)"
    R"("NonKeyAttributes":["x","y"]},"IndexStatus":"ACTIVE","ProvisionedThroughput":{"NumberOfDecreasesToday":0,)"
    R"("ReadCapacityUnits":0,"WriteCapacityUnits":0},"IndexSizeBytes":0,"ItemCount":0,)"
    R"("IndexArn":"arn:aws:dynamodb:local:000000000000:table/Frozen/index/byG",)"
    R"("WarmThroughput":{"ReadUnitsPerSecond":12000,"WriteUnitsPerSecond":4000,)"
    R"("Status":"ACTIVE"}}],"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},)"
    R"("LatestStreamLabel":"2023-11-14T22:13:20.250","LatestStreamArn":"arn:aws:dynamodb:local:000000000000:table/Frozen/stream/2023-11-14T22:13:20.250",)"
    R"("DeletionProtectionEnabled":true,"WarmThroughput":{"ReadUnitsPerSecond":12000,)"
    R"("WriteUnitsPerSecond":4000,"Status":"ACTIVE"},"KeyholeTableId":42,"KeyholeTags":[{"Key":"team",)"
    R"("Value":"data"}],"KeyholePointInTimeRecovery":{"Enabled":true,"Since":1700000200.000,)"
    R"("RecoveryPeriodInDays":35},"KeyholeTimeToLive":{"AttributeName":"expires",)"
    R"("ChangedAt":1700000100.000}})";

TableDescription Table() {
  auto t = BuildTableDescription("Tab", {{"pk", "S"}, {"sk", "N"}},
                                 {{"pk", "HASH"}, {"sk", "RANGE"}}, {}, {});
  EXPECT_TRUE(t.ok());
  t->id = 7;
  return *t;
}

TEST(CoreSchemaJson, TtlAndStreamRoundTrip) {
  TableDescription t = Table();
  t.ttl_attribute = "expires";
  t.ttl_changed_at = 1700000000.5;
  t.stream_view_type = "NEW_AND_OLD_IMAGES";
  t.latest_stream_label = "2023-11-14T22:13:20.000";
  json::Value j = TableToJson(t);
  const json::Value* spec = j.Find("StreamSpecification");
  ASSERT_TRUE(spec);
  EXPECT_EQ(json::Write(*spec), R"({"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"})");
  ASSERT_TRUE(j.Find("LatestStreamArn"));
  EXPECT_EQ(j.Find("LatestStreamArn")->str(),
            "arn:aws:dynamodb:local:000000000000:table/Tab/stream/2023-11-14T22:13:20.000");
  auto back = TableFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->ttl_attribute, t.ttl_attribute);
  EXPECT_DOUBLE_EQ(back->ttl_changed_at, t.ttl_changed_at);
  EXPECT_EQ(back->stream_view_type, t.stream_view_type);
  EXPECT_EQ(back->latest_stream_label, t.latest_stream_label);
  EXPECT_EQ(json::Write(TableToJson(*back)), json::Write(j));
}

// OnDemandThroughput and WarmThroughput round trip; a catalog from before keyhole recorded
// WarmThroughput reads with DynamoDB's defaults (12000 / 4000 on demand, the provisioned units).
TEST(CoreSchemaJson, ThroughputModes) {
  TableDescription t = Table();
  EXPECT_EQ(t.warm_read_units, 12000);
  EXPECT_EQ(t.warm_write_units, 4000);
  t.max_read_request_units = 50;
  t.warm_write_units = 5000;
  json::Value j = TableToJson(t);
  EXPECT_EQ(json::Write(*j.Find("OnDemandThroughput")), R"({"MaxReadRequestUnits":50})");
  EXPECT_EQ(json::Write(*j.Find("WarmThroughput")),
            R"({"ReadUnitsPerSecond":12000,"WriteUnitsPerSecond":5000,"Status":"ACTIVE"})");
  auto back = TableFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(json::Write(TableToJson(*back)), json::Write(j));

  t.billing_mode = "PROVISIONED";
  t.read_capacity = 7;
  t.write_capacity = 3;
  t.max_read_request_units.reset();
  j = TableToJson(t);
  std::erase_if(j.object(), [](const auto& m) { return m.first == "WarmThroughput"; });
  back = TableFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->warm_read_units, 7);
  EXPECT_EQ(back->warm_write_units, 3);
}

TEST(CoreSchemaJson, DisabledStreamKeepsItsLabel) {
  TableDescription t = Table();
  t.latest_stream_label = "2023-11-14T22:13:20.000";
  json::Value j = TableToJson(t);
  EXPECT_FALSE(j.Find("StreamSpecification"));
  EXPECT_TRUE(j.Find("LatestStreamLabel"));
  EXPECT_FALSE(j.Find("KeyholeTimeToLive"));
  auto back = TableFromJson(j);
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->stream_view_type);
  EXPECT_FALSE(back->ttl_attribute);
}

TEST(CoreSchemaJson, MultiAttributeGsiKeyRoundTrips) {
  auto t = BuildTableDescription(
      "Tab", {{"pk", "S"}, {"a", "S"}, {"b", "N"}, {"c", "B"}, {"d", "S"}}, {{"pk", "HASH"}},
      {{"gsi", {{"a", "HASH"}, {"b", "HASH"}, {"c", "RANGE"}, {"d", "RANGE"}}, "ALL", {}}}, {});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const KeySchema& k = t->indexes.at(0).key;
  EXPECT_TRUE(k.IsMultiAttribute());
  EXPECT_EQ(k.Names(), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(k.more_partition.at(0).type, ValueType::kN);
  EXPECT_EQ(k.sort->type, ValueType::kB);
  json::Value j = TableToJson(*t);
  const json::Value* gsis = j.Find("GlobalSecondaryIndexes");
  ASSERT_TRUE(gsis);
  EXPECT_EQ(json::Write(*gsis->array().at(0).Find("KeySchema")),
            R"([{"AttributeName":"a","KeyType":"HASH"},{"AttributeName":"b","KeyType":"HASH"},)"
            R"({"AttributeName":"c","KeyType":"RANGE"},{"AttributeName":"d","KeyType":"RANGE"}])");
  auto back = TableFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->indexes.at(0).key, k);
  // Two HASH attributes and no RANGE one is a key too; a table or an LSI keeps two elements.
  auto two = BuildTableDescription("Tab", {{"pk", "S"}, {"a", "S"}, {"b", "N"}}, {{"pk", "HASH"}},
                                   {{"gsi", {{"a", "HASH"}, {"b", "HASH"}}, "KEYS_ONLY", {}}}, {});
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_FALSE(two->indexes.at(0).key.sort);
  auto table = BuildTableDescription("Tab", {{"pk", "S"}, {"a", "S"}},
                                     {{"pk", "HASH"}, {"a", "HASH"}}, {}, {});
  EXPECT_EQ(table.status().message(),
            "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
}

// The stored form is a file format (core/schema_json.cpp): every keyhole file holds it, and
// every later version must read it. This is a table with every feature, byte for byte; when
// it changes, the change must be an addition that older files (without it) still read.
TEST(CoreSchemaJson, StoredFormIsFrozen) {
  auto t = BuildTableDescription(
      "Frozen", {{"pk", "S"}, {"sk", "N"}, {"g", "S"}, {"l", "B"}},
      {{"pk", "HASH"}, {"sk", "RANGE"}},
      {{"byG", {{"g", "HASH"}, {"sk", "RANGE"}}, "INCLUDE", std::vector<std::string>{"x", "y"}}},
      {{"byL", {{"pk", "HASH"}, {"l", "RANGE"}}, "KEYS_ONLY", {}}});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  t->id = 42;
  t->creation_time = 1700000000.25;
  t->pay_per_request_since = t->creation_time;  // as CreateTable sets it
  t->tags = {{"team", "data"}};
  t->pitr_enabled = true;
  t->pitr_enabled_at = 1700000200;
  t->ttl_attribute = "expires";
  t->ttl_changed_at = 1700000100;
  t->stream_view_type = "NEW_IMAGE";
  t->latest_stream_label = "2023-11-14T22:13:20.250";
  t->deletion_protection = true;
  const std::string stored = json::Write(TableToJson(*t));
  EXPECT_EQ(stored, kFrozen) << stored;
  auto back = TableFromJson(TableToJson(*t));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(json::Write(TableToJson(*back)), stored);
}

}  // namespace
}  // namespace keyhole
