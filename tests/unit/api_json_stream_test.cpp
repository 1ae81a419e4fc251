// api/api_json.h for DynamoDB Streams: StreamSpecification on CreateTable and UpdateTable,
// the ListStreams / DescribeStream / GetShardIterator / GetRecords requests and responses, and
// the stream record's JSON shape (reference §6.2).
#include <gtest/gtest.h>

#include "api_json_test_util.h"

#include <string>

#include "api/api_json.h"
#include "core/ddb_json.h"

namespace keyhole {
namespace {

using testing::Err;
using testing::ItemOf;
using testing::J;
using testing::Ok;

constexpr std::string_view kCreate =
    R"({"TableName": "App", "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST")";

std::string CreateWith(std::string_view spec) {
  return std::string(kCreate) + ", \"StreamSpecification\": " + std::string(spec) + "}";
}

TEST(ApiJsonStreamTest, CreateTableStreamSpecification) {
  CreateTableRequest r =
      Ok(&CreateTableRequestFromJson,
         CreateWith(R"({"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"})"));
  ASSERT_TRUE(r.stream_specification);
  EXPECT_TRUE(r.stream_specification->stream_enabled);
  EXPECT_EQ(r.stream_specification->stream_view_type, "NEW_IMAGE");
  r = Ok(&CreateTableRequestFromJson, CreateWith(R"({"StreamEnabled": false})"));
  ASSERT_TRUE(r.stream_specification);
  EXPECT_FALSE(r.stream_specification->stream_enabled);
  EXPECT_FALSE(Ok(&CreateTableRequestFromJson, std::string(kCreate) + "}").stream_specification);

  EXPECT_EQ(Err(&CreateTableRequestFromJson, CreateWith(R"({"StreamEnabled": true})")),
            "One or more parameter values were invalid: StreamViewType is required when "
            "StreamEnabled is true");
  EXPECT_EQ(
      Err(&CreateTableRequestFromJson,
          CreateWith(R"({"StreamEnabled": true, "StreamViewType": "ALL"})")),
      "1 validation error detected: Value 'ALL' at 'streamSpecification.streamViewType' failed to "
      "satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, "
      "NEW_AND_OLD_IMAGES, KEYS_ONLY]");
  EXPECT_EQ(Err(&CreateTableRequestFromJson, CreateWith(R"({"StreamViewType": "KEYS_ONLY"})")),
            "1 validation error detected: Value null at 'streamSpecification.streamEnabled' "
            "failed to satisfy constraint: Member must not be null");
  EXPECT_NE(Err(&CreateTableRequestFromJson, CreateWith(R"({"StreamEnabled": "yes"})")),
            "<decoded>");
  EXPECT_NE(Err(&CreateTableRequestFromJson, CreateWith(R"({"StreamEnabled": true, "X": 1})"))
                .find("Unknown parameter"),
            std::string::npos);
}

TEST(ApiJsonStreamTest, UpdateTableWithOnlyAStreamSpecification) {
  UpdateTableRequest r =
      Ok(&UpdateTableRequestFromJson,
         R"({"TableName": "App", "StreamSpecification": {"StreamEnabled": false}})");
  ASSERT_TRUE(r.stream_specification);
  EXPECT_FALSE(r.stream_specification->stream_enabled);
  EXPECT_FALSE(r.create_global_index);
  r = Ok(&UpdateTableRequestFromJson,
         R"({"TableName": "App", "StreamSpecification": {"StreamEnabled": true,
             "StreamViewType": "NEW_AND_OLD_IMAGES"}})");
  EXPECT_EQ(r.stream_specification->stream_view_type, "NEW_AND_OLD_IMAGES");
  EXPECT_EQ(Err(&UpdateTableRequestFromJson,
                R"({"TableName": "App", "StreamSpecification": {"StreamEnabled": true}})"),
            "One or more parameter values were invalid: StreamViewType is required when "
            "StreamEnabled is true");
}

TEST(ApiJsonStreamTest, KnownOperations) {
  for (const char* op : {"ListStreams", "DescribeStream", "GetShardIterator", "GetRecords"}) {
    EXPECT_TRUE(IsKnownOperation(op)) << op;
  }
}

TEST(ApiJsonStreamTest, StreamRequests) {
  const std::string arn =
      "arn:aws:dynamodb:local:000000000000:table/App/stream/2026-11-22T22:13:20.123";
  ListStreamsRequest l = Ok(&ListStreamsRequestFromJson, R"({"TableName": "App", "Limit": 5})");
  EXPECT_EQ(l.table_name, "App");
  EXPECT_EQ(l.limit, 5);
  EXPECT_EQ(Ok(&ListStreamsRequestFromJson, "{}").limit, std::nullopt);
  EXPECT_EQ(Err(&ListStreamsRequestFromJson, R"({"Limit": 0})"),
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1");

  DescribeStreamRequest d =
      Ok(&DescribeStreamRequestFromJson, R"({"StreamArn": ")" + arn + R"("})");
  EXPECT_EQ(d.stream_arn, arn);
  EXPECT_EQ(Err(&DescribeStreamRequestFromJson, "{}"),
            "1 validation error detected: Value null at 'streamArn' failed to satisfy constraint: "
            "Member must not be null");
  d = Ok(
      &DescribeStreamRequestFromJson,
      R"({"StreamArn": ")" + arn +
          R"(", "ShardFilter": {"Type": "CHILD_SHARDS", "ShardId": "shardId-00000000000000000001-00000001"}})");
  ASSERT_TRUE(d.shard_filter);
  EXPECT_EQ(d.shard_filter->type, "CHILD_SHARDS");
  EXPECT_EQ(d.shard_filter->shard_id, "shardId-00000000000000000001-00000001");
  EXPECT_EQ(
      Err(&DescribeStreamRequestFromJson,
          R"({"StreamArn": ")" + arn + R"(", "ShardFilter": {"Type": "foo", "ShardId": "s"}})"),
      "2 validation errors detected: Value 'foo' at 'shardFilter.type' failed to satisfy "
      "constraint: Member must satisfy enum value set: [CHILD_SHARDS]; Value 's' at "
      "'shardFilter.shardId' failed to satisfy constraint: Member must have length greater "
      "than or equal to 28");
  EXPECT_NE(Err(&DescribeStreamRequestFromJson,
                R"({"StreamArn": ")" + arn + R"(", "ShardFilter": {"Parent": "x"}})")
                .find("Unknown parameter in ShardFilter: \"Parent\""),
            std::string::npos);

  GetShardIteratorRequest g = Ok(
      &GetShardIteratorRequestFromJson,
      R"({"StreamArn": ")" + arn +
          R"(", "ShardId": "shardId-00000000000000000001-00000001", "ShardIteratorType": "AFTER_SEQUENCE_NUMBER", "SequenceNumber": "000000000000000000001"})");
  EXPECT_EQ(g.shard_iterator_type, "AFTER_SEQUENCE_NUMBER");
  EXPECT_EQ(g.sequence_number, "000000000000000000001");
  std::string bad = Err(
      &GetShardIteratorRequestFromJson,
      R"({"StreamArn": ")" + arn +
          R"(", "ShardId": "shardId-00000000000000000001-00000001", "ShardIteratorType": "NOW"})");
  EXPECT_NE(bad.find("at 'shardIteratorType' failed to satisfy constraint: Member must satisfy "
                     "enum value set: [TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, "
                     "AFTER_SEQUENCE_NUMBER]"),
            std::string::npos)
      << bad;
  EXPECT_NE(Err(&GetShardIteratorRequestFromJson, "{}").find("3 validation errors detected"),
            std::string::npos);

  GetRecordsRequest r = Ok(&GetRecordsRequestFromJson, R"({"ShardIterator": "x", "Limit": 1000})");
  EXPECT_EQ(r.limit, 1000);
  EXPECT_EQ(Err(&GetRecordsRequestFromJson, R"({"ShardIterator": "x", "Limit": 1001})"),
            "1 validation error detected: Value '1001' at 'limit' failed to satisfy constraint: "
            "Member must have value less than or equal to 1000");
  EXPECT_NE(Err(&GetRecordsRequestFromJson, R"({"ShardIterator": "x", "Foo": 1})")
                .find("Unknown parameter"),
            std::string::npos);
}

TEST(ApiJsonStreamTest, RecordShape) {
  StreamRecord r;
  r.event_id = "0000000000000001000000000000000a";
  r.event_name = "MODIFY";
  r.approximate_creation_date_time = 1795385600;
  r.keys = {{"pk", AttributeValue::S("a")}};
  r.new_image = Item{{"pk", AttributeValue::S("a")}, {"v", AttributeValue::S("y")}};
  r.old_image = Item{{"pk", AttributeValue::S("a")}, {"v", AttributeValue::S("x")}};
  r.sequence_number = "000000000000000000010";
  r.size_bytes = 9;
  r.stream_view_type = "NEW_AND_OLD_IMAGES";
  EXPECT_EQ(
      json::Write(StreamRecordToJson(r)),
      R"({"eventID":"0000000000000001000000000000000a","eventName":"MODIFY",)"
      R"("eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":"local",)"
      R"("dynamodb":{"ApproximateCreationDateTime":1795385600,"Keys":{"pk":{"S":"a"}},)"
      R"("NewImage":{"pk":{"S":"a"},"v":{"S":"y"}},"OldImage":{"pk":{"S":"a"},"v":{"S":"x"}},)"
      R"("SequenceNumber":"000000000000000000010","SizeBytes":9,)"
      R"("StreamViewType":"NEW_AND_OLD_IMAGES"}})");
  r.event_name = "REMOVE";
  r.new_image.reset();
  r.old_image.reset();
  r.stream_view_type = "KEYS_ONLY";
  r.service_deletion = true;
  EXPECT_EQ(json::Write(StreamRecordToJson(r)),
            R"({"eventID":"0000000000000001000000000000000a","eventName":"REMOVE",)"
            R"("eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":"local",)"
            R"("dynamodb":{"ApproximateCreationDateTime":1795385600,"Keys":{"pk":{"S":"a"}},)"
            R"("SequenceNumber":"000000000000000000010","SizeBytes":9,)"
            R"("StreamViewType":"KEYS_ONLY"},)"
            R"("userIdentity":{"Type":"Service","PrincipalId":"dynamodb.amazonaws.com"}})");
  GetRecordsResponse g;
  g.records.push_back(r);
  json::Value v = GetRecordsResponseToJson(g);
  ASSERT_NE(v.Find("Records"), nullptr);
  EXPECT_EQ(v.Find("NextShardIterator"), nullptr);
}

TEST(ApiJsonStreamTest, DescribeStreamShape) {
  DescribeStreamResponse d;
  StreamDescription& s = d.stream_description;
  s.stream_arn = "arn:aws:dynamodb:local:000000000000:table/App/stream/2026-11-22T22:13:20.123";
  s.stream_label = "2026-11-22T22:13:20.123";
  s.stream_status = "DISABLED";
  s.stream_view_type = "KEYS_ONLY";
  s.creation_request_date_time = 1795385600.123;
  s.table_name = "App";
  s.key_schema.partition = {"pk", ValueType::kS};
  s.key_schema.sort = KeyAttribute{"sk", ValueType::kN};
  s.shards.push_back(
      {"shardId-00000000000000000001-00000001", "000000000000000000001", "000000000000000000004"});
  EXPECT_EQ(
      json::Write(DescribeStreamResponseToJson(d)),
      R"({"StreamDescription":{"StreamArn":"arn:aws:dynamodb:local:000000000000:table/App/stream/2026-11-22T22:13:20.123",)"
      R"("StreamLabel":"2026-11-22T22:13:20.123","StreamStatus":"DISABLED","StreamViewType":"KEYS_ONLY",)"
      R"("CreationRequestDateTime":1795385600.123,"TableName":"App","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
      R"({"AttributeName":"sk","KeyType":"RANGE"}],"Shards":[{"ShardId":"shardId-00000000000000000001-00000001",)"
      R"("SequenceNumberRange":{"StartingSequenceNumber":"000000000000000000001","EndingSequenceNumber":"000000000000000000004"}}]}})");
  ListStreamsResponse l;
  l.streams.push_back({s.stream_arn, "App", s.stream_label});
  EXPECT_EQ(json::Write(ListStreamsResponseToJson(l)),
            R"({"Streams":[{"StreamArn":")" + s.stream_arn +
                R"(","TableName":"App","StreamLabel":"2026-11-22T22:13:20.123"}]})");
}

}  // namespace
}  // namespace keyhole
