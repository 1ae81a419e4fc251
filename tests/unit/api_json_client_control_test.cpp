// The client direction of the tag and continuous-backups codecs (api/api_json_client.h), and of
// the members CreateTable and UpdateTable gained (Tags, SSESpecification, BillingMode,
// ProvisionedThroughput): encode -> decode -> encode gives the same text, in both directions.
#include <gtest/gtest.h>

#include <string>

#include "api/api_json.h"
#include "api/api_json_client.h"
#include "api_json_client_test_util.h"
#include "error_text.h"

namespace keyhole {
namespace {

using testing::ExpectRoundTrip;

constexpr char kArn[] = "arn:aws:dynamodb:local:000000000000:table/Tab";

TEST(ApiJsonClientControlTest, TagRequestsRoundTrip) {
  TagResourceRequest tag{kArn, {Tag{"env", "prod"}, Tag{"empty", ""}}};
  EXPECT_EQ(json::Write(TagResourceRequestToJson(tag)),
            R"({"ResourceArn":"arn:aws:dynamodb:local:000000000000:table/Tab","Tags":)"
            R"([{"Key":"env","Value":"prod"},{"Key":"empty","Value":""}]})");
  TagResourceRequest t = ExpectRoundTrip(tag, TagResourceRequestFromJson, TagResourceRequestToJson);
  ASSERT_EQ(t.tags.size(), 2u);
  EXPECT_EQ(t.tags[1].value, "");
  UntagResourceRequest untag{kArn, {"env", "team"}};
  EXPECT_EQ(
      ExpectRoundTrip(untag, UntagResourceRequestFromJson, UntagResourceRequestToJson).tag_keys,
      (std::vector<std::string>{"env", "team"}));
  ListTagsOfResourceRequest list{kArn, "token"};
  EXPECT_EQ(
      ExpectRoundTrip(list, ListTagsOfResourceRequestFromJson, ListTagsOfResourceRequestToJson)
          .next_token,
      "token");
}

TEST(ApiJsonClientControlTest, TagResponsesRoundTrip) {
  ListTagsOfResourceResponse r;
  r.tags = {Tag{"a", "1"}, Tag{"b", ""}};
  ListTagsOfResourceResponse back =
      ExpectRoundTrip(r, ListTagsOfResourceResponseFromJson, ListTagsOfResourceResponseToJson);
  ASSERT_EQ(back.tags.size(), 2u);
  EXPECT_EQ(back.tags[0].key, "a");
  EXPECT_FALSE(back.next_token);
  // TagResource's empty body reads as {}.
  EXPECT_TRUE(TagResourceResponseFromJson(json::Value::MakeObject()).ok());
  EXPECT_EQ(
      ::keyhole::testing::ErrorText(UntagResourceResponseFromJson(json::Value::MakeArray())),
      "InternalServerError: Malformed DynamoDB response: the body is a list, not a JSON object");
}

TEST(ApiJsonClientControlTest, ContinuousBackupsRoundTrip) {
  UpdateContinuousBackupsRequest u{"Tab", true, 7};
  EXPECT_EQ(json::Write(UpdateContinuousBackupsRequestToJson(u)),
            R"({"TableName":"Tab","PointInTimeRecoverySpecification":)"
            R"({"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}})");
  EXPECT_EQ(ExpectRoundTrip(u, UpdateContinuousBackupsRequestFromJson,
                            UpdateContinuousBackupsRequestToJson)
                .recovery_period_in_days,
            7);
  DescribeContinuousBackupsRequest d{"Tab"};
  ExpectRoundTrip(d, DescribeContinuousBackupsRequestFromJson,
                  DescribeContinuousBackupsRequestToJson);
  DescribeContinuousBackupsResponse off;
  ExpectRoundTrip(off, DescribeContinuousBackupsResponseFromJson,
                  DescribeContinuousBackupsResponseToJson);
  UpdateContinuousBackupsResponse on;
  on.description.point_in_time_recovery = {"ENABLED", 35, 1700000000.0, 1700003300.5};
  UpdateContinuousBackupsResponse back = ExpectRoundTrip(
      on, UpdateContinuousBackupsResponseFromJson, UpdateContinuousBackupsResponseToJson);
  EXPECT_EQ(back.description.point_in_time_recovery.latest_restorable, 1700003300.5);
}

TEST(ApiJsonClientControlTest, CreateAndUpdateTableMembersRoundTrip) {
  CreateTableRequest c;
  c.table_name = "Tab";
  c.attribute_definitions = {{"pk", "S"}};
  c.key_schema = {{"pk", "HASH"}};
  c.sse_specification = SSESpecification{true, "KMS", "alias/mine"};
  c.tags = {Tag{"k", "v"}};
  CreateTableRequest cb = ExpectRoundTrip(c, CreateTableRequestFromJson, CreateTableRequestToJson);
  ASSERT_TRUE(cb.sse_specification);
  EXPECT_EQ(cb.sse_specification->kms_master_key_id, "alias/mine");
  ASSERT_EQ(cb.tags.size(), 1u);
  UpdateTableRequest u;
  u.table_name = "Tab";
  u.billing_mode = "PROVISIONED";
  u.has_provisioned_throughput = true;
  u.read_capacity_units = 3;
  u.write_capacity_units = 4;
  auto encode = +[](const UpdateTableRequest& r) { return UpdateTableRequestToJson(r); };
  EXPECT_EQ(json::Write(encode(u)),
            R"({"TableName":"Tab","BillingMode":"PROVISIONED",)"
            R"("ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4}})");
  UpdateTableRequest ub = ExpectRoundTrip(u, UpdateTableRequestFromJson, encode);
  EXPECT_EQ(ub.write_capacity_units, 4);
}

TEST(ApiJsonClientControlTest, DescriptionCarriesBillingTimesAndSse) {
  TableDescription t;
  t.name = "Tab";
  t.id = 3;
  t.key.partition = {"pk", ValueType::kS};
  t.billing_mode = "PROVISIONED";
  t.read_capacity = 5;
  t.write_capacity = 2;
  t.pay_per_request_since = 1700000000;
  t.last_increase_time = 1700000100;
  t.last_decrease_time = 1700000200;
  t.decreases_today = 2;
  t.sse_enabled = true;
  t.kms_master_key_arn = "arn:aws:kms:local:000000000000:key/k";
  DescribeTableResponse r{t};
  DescribeTableResponse back =
      ExpectRoundTrip(r, DescribeTableResponseFromJson, DescribeTableResponseToJson);
  EXPECT_EQ(back.table.decreases_today, 2);
  EXPECT_EQ(back.table.last_decrease_time, 1700000200);
  EXPECT_EQ(back.table.pay_per_request_since, 1700000000);
  EXPECT_TRUE(back.table.sse_enabled);
}

}  // namespace
}  // namespace keyhole
