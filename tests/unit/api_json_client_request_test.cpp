// The request encoders of api/api_json_client.h (tables, TTL, Streams): boto3's bodies, which
// the api_json.h decoders read back to the same request (encode -> decode -> encode gives the
// same text).
#include <gtest/gtest.h>

#include <string>

#include "api/api_json.h"
#include "api/api_json_client.h"
#include "api_json_client_test_util.h"

namespace keyhole {
namespace {

using testing::ExpectRoundTrip;

IndexSpec Spec(const char* name, std::vector<KeySchemaElement> keys, const char* projection) {
  IndexSpec s;
  s.name = name;
  s.key_schema = std::move(keys);
  s.projection_type = projection;
  return s;
}

CreateTableRequest ProvisionedTable() {
  CreateTableRequest r;
  r.table_name = "Orders";
  r.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"status", "S"}, {"date", "S"}};
  r.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  IndexSpec status = Spec("byStatus", {{"status", "HASH"}, {"sk", "RANGE"}}, "INCLUDE");
  status.non_key_attributes = std::vector<std::string>{"total", "owner"};
  r.global_secondary_indexes = {status, Spec("byStatusOnly", {{"status", "HASH"}}, "KEYS_ONLY")};
  for (IndexSpec& gsi : r.global_secondary_indexes) {
    gsi.read_capacity_units = 5;
    gsi.write_capacity_units = 7;
  }
  r.local_secondary_indexes = {Spec("byDate", {{"pk", "HASH"}, {"date", "RANGE"}}, "ALL")};
  r.billing_mode = "PROVISIONED";
  r.read_capacity_units = 5;
  r.write_capacity_units = 7;
  r.stream_specification = StreamSpecification{true, "NEW_AND_OLD_IMAGES"};
  return r;
}

TEST(ApiJsonClientRequestTest, CreateTableIsBoto3sBody) {
  CreateTableRequest r;
  r.table_name = "Tab";
  r.attribute_definitions = {{"pk", "S"}};
  r.key_schema = {{"pk", "HASH"}};
  EXPECT_EQ(json::Write(CreateTableRequestToJson(r)),
            R"({"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
            R"("TableName":"Tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
            R"("BillingMode":"PAY_PER_REQUEST"})");
  EXPECT_EQ(
      json::Write(CreateTableRequestToJson(ProvisionedTable())),
      R"({"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
      R"({"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"status","AttributeType":"S"},)"
      R"({"AttributeName":"date","AttributeType":"S"}],"TableName":"Orders",)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],)"
      R"("LocalSecondaryIndexes":[{"IndexName":"byDate","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
      R"({"AttributeName":"date","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}],)"
      R"("GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeySchema":[{"AttributeName":"status","KeyType":"HASH"},)"
      R"({"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE",)"
      R"("NonKeyAttributes":["total","owner"]},"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7}},)"
      R"({"IndexName":"byStatusOnly","KeySchema":[{"AttributeName":"status","KeyType":"HASH"}],)"
      R"("Projection":{"ProjectionType":"KEYS_ONLY"},"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7}}],)"
      R"("BillingMode":"PROVISIONED","ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7},)"
      R"("StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}})");
}

TEST(ApiJsonClientRequestTest, CreateTableRoundTrips) {
  CreateTableRequest p =
      ExpectRoundTrip(ProvisionedTable(), CreateTableRequestFromJson, CreateTableRequestToJson);
  EXPECT_EQ(p.table_name, "Orders");
  EXPECT_EQ(p.billing_mode, "PROVISIONED");
  EXPECT_EQ(p.read_capacity_units, 5);
  EXPECT_EQ(p.write_capacity_units, 7);
  ASSERT_EQ(p.global_secondary_indexes.size(), 2u);
  EXPECT_EQ(p.global_secondary_indexes[1].read_capacity_units, 5);
  EXPECT_EQ(p.global_secondary_indexes[1].write_capacity_units, 7);
  EXPECT_EQ(p.global_secondary_indexes[0].non_key_attributes,
            (std::vector<std::string>{"total", "owner"}));
  ASSERT_EQ(p.local_secondary_indexes.size(), 1u);
  ASSERT_TRUE(p.stream_specification);
  EXPECT_EQ(p.stream_specification->stream_view_type, "NEW_AND_OLD_IMAGES");

  // On demand (the in-process default, which the API's default is not).
  CreateTableRequest d = ProvisionedTable();
  d.billing_mode = "PAY_PER_REQUEST";
  d.read_capacity_units.reset();
  d.write_capacity_units.reset();
  for (IndexSpec& gsi : d.global_secondary_indexes) {
    gsi.read_capacity_units.reset();
    gsi.write_capacity_units.reset();
  }
  d.stream_specification = StreamSpecification{false, std::nullopt};
  CreateTableRequest db = ExpectRoundTrip(d, CreateTableRequestFromJson, CreateTableRequestToJson);
  EXPECT_EQ(db.billing_mode, "PAY_PER_REQUEST");
  EXPECT_FALSE(db.read_capacity_units);
  ASSERT_TRUE(db.stream_specification);
  EXPECT_FALSE(db.stream_specification->stream_enabled);
}

TEST(ApiJsonClientRequestTest, TableNameRequestsRoundTrip) {
  EXPECT_EQ(json::Write(DeleteTableRequestToJson({"Tab"})), R"({"TableName":"Tab"})");
  EXPECT_EQ(ExpectRoundTrip(DeleteTableRequest{"Tab"}, DeleteTableRequestFromJson,
                            DeleteTableRequestToJson)
                .table_name,
            "Tab");
  EXPECT_EQ(ExpectRoundTrip(DescribeTableRequest{"Tab"}, DescribeTableRequestFromJson,
                            DescribeTableRequestToJson)
                .table_name,
            "Tab");
  EXPECT_EQ(ExpectRoundTrip(DescribeTimeToLiveRequest{"Tab"}, DescribeTimeToLiveRequestFromJson,
                            DescribeTimeToLiveRequestToJson)
                .table_name,
            "Tab");
}

TEST(ApiJsonClientRequestTest, ListTablesRoundTrips) {
  EXPECT_EQ(json::Write(ListTablesRequestToJson({})), "{}");
  ListTablesRequest r{"Start", 10};
  EXPECT_EQ(json::Write(ListTablesRequestToJson(r)),
            R"({"ExclusiveStartTableName":"Start","Limit":10})");
  ListTablesRequest b = ExpectRoundTrip(r, ListTablesRequestFromJson, ListTablesRequestToJson);
  EXPECT_EQ(b.exclusive_start_table_name, "Start");
  EXPECT_EQ(b.limit, 10);
}

TEST(ApiJsonClientRequestTest, UpdateTableRoundTrips) {
  UpdateTableRequest create;
  create.table_name = "Tab";
  create.attribute_definitions = {{"g", "B"}};
  IndexSpec g = Spec("byG", {{"g", "HASH"}}, "INCLUDE");
  g.non_key_attributes = std::vector<std::string>{"x"};
  create.create_global_index = g;
  EXPECT_EQ(json::Write(UpdateTableRequestToJson(create)),
            R"({"AttributeDefinitions":[{"AttributeName":"g","AttributeType":"B"}],)"
            R"("TableName":"Tab","GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG",)"
            R"("KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":)"
            R"({"ProjectionType":"INCLUDE","NonKeyAttributes":["x"]}}}]})");
  UpdateTableRequest cb =
      ExpectRoundTrip(create, UpdateTableRequestFromJson,
                      [](const UpdateTableRequest& r) { return UpdateTableRequestToJson(r); });
  ASSERT_TRUE(cb.create_global_index);
  EXPECT_EQ(cb.create_global_index->name, "byG");
  EXPECT_EQ(cb.attribute_definitions.size(), 1u);

  // A PROVISIONED table's new index carries its throughput; Updates set an index's.
  create.create_global_index->read_capacity_units = 3;
  create.create_global_index->write_capacity_units = 4;
  create.update_global_indexes = {{"byH", true, 5, 6}, {"byI", true, 7, 8}};
  json::Value provisioned = UpdateTableRequestToJson(create);
  EXPECT_NE(json::Write(provisioned)
                .find(R"("ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4})"),
            std::string::npos);
  EXPECT_NE(json::Write(provisioned)
                .find(R"({"Update":{"IndexName":"byH","ProvisionedThroughput":)"
                      R"({"ReadCapacityUnits":5,"WriteCapacityUnits":6}}})"),
            std::string::npos);
  Result<UpdateTableRequest> pb = UpdateTableRequestFromJson(provisioned);
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_EQ(pb->create_global_index->read_capacity_units, 3);
  ASSERT_EQ(pb->update_global_indexes.size(), 2u);
  EXPECT_EQ(pb->update_global_indexes[1].index_name, "byI");
  EXPECT_EQ(pb->update_global_indexes[1].write_capacity_units, 8);

  UpdateTableRequest remove;
  remove.table_name = "Tab";
  remove.delete_global_index = "byG";
  EXPECT_EQ(
      json::Write(UpdateTableRequestToJson(remove)),
      R"({"TableName":"Tab","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byG"}}]})");
  EXPECT_EQ(ExpectRoundTrip(remove, UpdateTableRequestFromJson,
                            [](const UpdateTableRequest& r) { return UpdateTableRequestToJson(r); })
                .delete_global_index,
            "byG");

  UpdateTableRequest stream;
  stream.table_name = "Tab";
  stream.stream_specification = StreamSpecification{true, "KEYS_ONLY"};
  UpdateTableRequest sb =
      ExpectRoundTrip(stream, UpdateTableRequestFromJson,
                      [](const UpdateTableRequest& r) { return UpdateTableRequestToJson(r); });
  ASSERT_TRUE(sb.stream_specification);
  EXPECT_EQ(sb.stream_specification->stream_view_type, "KEYS_ONLY");
  EXPECT_FALSE(sb.create_global_index);
  EXPECT_FALSE(sb.delete_global_index);
}

TEST(ApiJsonClientRequestTest, UpdateTimeToLiveRoundTrips) {
  UpdateTimeToLiveRequest r{"Tab", {"expires", true}};
  EXPECT_EQ(json::Write(UpdateTimeToLiveRequestToJson(r)),
            R"({"TableName":"Tab","TimeToLiveSpecification":{"Enabled":true,)"
            R"("AttributeName":"expires"}})");
  UpdateTimeToLiveRequest b =
      ExpectRoundTrip(r, UpdateTimeToLiveRequestFromJson, UpdateTimeToLiveRequestToJson);
  EXPECT_EQ(b.specification.attribute_name, "expires");
  EXPECT_TRUE(b.specification.enabled);
  r.specification.enabled = false;
  EXPECT_FALSE(ExpectRoundTrip(r, UpdateTimeToLiveRequestFromJson, UpdateTimeToLiveRequestToJson)
                   .specification.enabled);
}

TEST(ApiJsonClientRequestTest, StreamRequestsRoundTrip) {
  const std::string arn =
      "arn:aws:dynamodb:local:000000000000:table/App/stream/2026-11-22T22:13:20.123";
  const std::string shard = "shardId-00000000000000000001-00000001";

  EXPECT_EQ(json::Write(ListStreamsRequestToJson({})), "{}");
  ListStreamsRequest l{"App", 5, arn};
  EXPECT_EQ(json::Write(ListStreamsRequestToJson(l)),
            R"({"TableName":"App","Limit":5,"ExclusiveStartStreamArn":")" + arn + R"("})");
  ListStreamsRequest lb = ExpectRoundTrip(l, ListStreamsRequestFromJson, ListStreamsRequestToJson);
  EXPECT_EQ(lb.table_name, "App");
  EXPECT_EQ(lb.limit, 5);
  EXPECT_EQ(lb.exclusive_start_stream_arn, arn);

  DescribeStreamRequest d{arn, 100, shard};
  DescribeStreamRequest db =
      ExpectRoundTrip(d, DescribeStreamRequestFromJson, DescribeStreamRequestToJson);
  EXPECT_EQ(db.stream_arn, arn);
  EXPECT_EQ(db.limit, 100);
  EXPECT_EQ(db.exclusive_start_shard_id, shard);
  d.shard_filter = ShardFilter{"CHILD_SHARDS", shard};
  db = ExpectRoundTrip(d, DescribeStreamRequestFromJson, DescribeStreamRequestToJson);
  ASSERT_TRUE(db.shard_filter);
  EXPECT_EQ(db.shard_filter->shard_id, shard);
  EXPECT_EQ(db.shard_filter->type, "CHILD_SHARDS");
  EXPECT_EQ(json::Write(DescribeStreamRequestToJson({arn, std::nullopt, std::nullopt})),
            R"({"StreamArn":")" + arn + R"("})");

  GetShardIteratorRequest g{arn, shard, "AFTER_SEQUENCE_NUMBER", "000000000000000000010"};
  EXPECT_EQ(
      json::Write(GetShardIteratorRequestToJson(g)),
      R"({"StreamArn":")" + arn + R"(","ShardId":")" + shard +
          R"(","ShardIteratorType":"AFTER_SEQUENCE_NUMBER","SequenceNumber":"000000000000000000010"})");
  GetShardIteratorRequest gb =
      ExpectRoundTrip(g, GetShardIteratorRequestFromJson, GetShardIteratorRequestToJson);
  EXPECT_EQ(gb.shard_iterator_type, "AFTER_SEQUENCE_NUMBER");
  EXPECT_EQ(gb.sequence_number, "000000000000000000010");
  g.shard_iterator_type = "TRIM_HORIZON";
  g.sequence_number.reset();
  EXPECT_FALSE(ExpectRoundTrip(g, GetShardIteratorRequestFromJson, GetShardIteratorRequestToJson)
                   .sequence_number);

  GetRecordsRequest r{"opaque", 1000};
  EXPECT_EQ(json::Write(GetRecordsRequestToJson(r)), R"({"ShardIterator":"opaque","Limit":1000})");
  GetRecordsRequest rb = ExpectRoundTrip(r, GetRecordsRequestFromJson, GetRecordsRequestToJson);
  EXPECT_EQ(rb.shard_iterator, "opaque");
  EXPECT_EQ(rb.limit, 1000);
}

}  // namespace
}  // namespace keyhole
