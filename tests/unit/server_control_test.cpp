// The tables' control plane through api::Service on a fresh database (and, for the wire's own
// rules, through keyhole serve): tags, UpdateTable's billing mode and throughput, SSE,
// continuous backups, DeleteTable's reduced description, CreateTable's messages, and the
// read-only calls tools make routinely. Expected texts are DynamoDB's (see core/tags.h and
// storage/tables.cpp for their sources).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>

#include <memory>
#include <string>
#include <thread>

#include "api/service.h"
#include "core/json.h"
#include "server/dynamodb_server.h"
#include "server/http.h"
#include "storage_test_util.h"

namespace keyhole {
namespace {

constexpr char kArn[] = "arn:aws:dynamodb:local:000000000000:table/Things";

class ServerControlTest : public ::testing::Test {
 protected:
  void SetUp() override { service_ = std::make_unique<api::Service>(*db_); }

  // The response body of `op` with `body`, as compact JSON, or "<ErrorName>: <message>".
  std::string Call(std::string_view op, std::string_view body) {
    Result<json::Value> v = json::Parse(body);
    EXPECT_TRUE(v.ok()) << body;
    Result<json::Value> r = service_->Call(op, *v);
    if (!r.ok()) return std::string(r.status().name()) + ": " + r.status().message();
    return json::Write(*r);
  }
  // The member at `path` ("Table.BillingModeSummary.BillingMode") of a successful call.
  std::string Member(std::string_view op, std::string_view body, std::string_view path) {
    Result<json::Value> r = service_->Call(op, *json::Parse(body));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return "";
    const json::Value* v = &*r;
    size_t start = 0;
    while (v && start <= path.size()) {
      size_t dot = path.find('.', start);
      std::string_view name = path.substr(start, dot - start);
      v = v->IsObject() ? v->Find(name) : nullptr;
      if (dot == std::string_view::npos) break;
      start = dot + 1;
    }
    return v ? json::Write(*v) : "<absent>";
  }
  void CreateThings(std::string_view extra = R"("BillingMode": "PAY_PER_REQUEST")") {
    ASSERT_EQ(Call("CreateTable", std::string(R"({"TableName": "Things", "KeySchema":
        [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions":
        [{"AttributeName": "pk", "AttributeType": "S"}], )") +
                                      std::string(extra) + "}")
                  .substr(0, 19),
              R"({"TableDescription")");
  }
  std::string Tags() { return Call("ListTagsOfResource", R"({"ResourceArn": ")" + Arn() + "\"}"); }
  static std::string Arn() { return kArn; }

  double now_ = 1700000000;
  testing::TempDb db_{[this] { return now_; }};
  std::unique_ptr<api::Service> service_;
};

TEST_F(ServerControlTest, TagsAreAddedReplacedRemovedAndListed) {
  CreateThings();
  EXPECT_EQ(Tags(), R"({"Tags":[]})");
  EXPECT_EQ(Call("TagResource", R"({"ResourceArn": ")" + Arn() +
                                    R"(", "Tags": [{"Key": "env", "Value": "test"},
                                     {"Key": "team", "Value": ""}]})"),
            "{}");
  EXPECT_EQ(Tags(), R"({"Tags":[{"Key":"env","Value":"test"},{"Key":"team","Value":""}]})");
  // A key given again takes the new value; removing an absent key is fine.
  EXPECT_EQ(Call("TagResource", R"({"ResourceArn": ")" + Arn() +
                                    R"(", "Tags": [{"Key": "env", "Value": "prod"}]})"),
            "{}");
  EXPECT_EQ(
      Call("UntagResource", R"({"ResourceArn": ")" + Arn() + R"(", "TagKeys": ["team", "nope"]})"),
      "{}");
  EXPECT_EQ(Tags(), R"({"Tags":[{"Key":"env","Value":"prod"}]})");
  // Tags are catalog data: not in DescribeTable, kept across reopening, gone with the table.
  EXPECT_EQ(Member("DescribeTable", R"({"TableName": "Things"})", "Table.KeyholeTags"), "<absent>");
  service_.reset();
  db_.Reopen();
  service_ = std::make_unique<api::Service>(*db_);
  EXPECT_EQ(Tags(), R"({"Tags":[{"Key":"env","Value":"prod"}]})");
  Call("DeleteTable", R"({"TableName": "Things"})");
  CreateThings();
  EXPECT_EQ(Tags(), R"({"Tags":[]})");
}

TEST_F(ServerControlTest, CreateTableTakesTags) {
  CreateThings(R"("BillingMode": "PAY_PER_REQUEST", "Tags": [{"Key": "a", "Value": "1"}])");
  EXPECT_EQ(Tags(), R"({"Tags":[{"Key":"a","Value":"1"}]})");
  std::string tags;
  for (int i = 0; i < 51; ++i)
    tags += (i ? "," : "") + fmt::format(R"({{"Key":"k{}","Value":"v"}})", i);
  EXPECT_EQ(Call("CreateTable", R"({"TableName": "Many", "KeySchema": [{"AttributeName": "pk",
      "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST", "Tags": [)" +
                                    tags + "]}"),
            "ValidationException: Number of Tags exceed the current limit for the provided "
            "ResourceArn");
  EXPECT_EQ(Call("DescribeTable", R"({"TableName": "Many"})"),
            "ResourceNotFoundException: Requested resource not found: Table: Many not found");
}

TEST_F(ServerControlTest, TagMessagesAreDynamoDbs) {
  CreateThings();
  auto tag = [&](const std::string& arn, const std::string& tags) {
    return Call("TagResource", R"({"ResourceArn": ")" + arn + R"(", "Tags": )" + tags + "}");
  };
  const std::string one = R"([{"Key": "k", "Value": "v"}])";
  EXPECT_EQ(Call("TagResource", R"({"Tags": [{"Key": "k", "Value": "v"}]})"),
            "ValidationException: Invalid TableArn");
  EXPECT_EQ(Call("TagResource", R"({"ResourceArn": ")" + Arn() + "\"}"),
            "ValidationException: 1 validation error detected: Value null at 'tags' failed to "
            "satisfy constraint: Member must not be null");
  EXPECT_EQ(tag("I_do_not_exist", one),
            "ValidationException: One or more parameter values were invalid: ARNs must start "
            "with 'arn:': I_do_not_exist");
  EXPECT_EQ(tag("arn:not/a/good/format", one),
            "ValidationException: Invalid TableArn: Invalid ResourceArn provided as input "
            "arn:not/a/good/format");
  EXPECT_EQ(
      tag("arn:aws:s3:local:000000000000:table/Things", one),
      "AccessDeniedException: User: arn:aws:iam::000000000000:root is not authorized to "
      "perform: dynamodb:TagResource on resource: arn:aws:s3:local:000000000000:table/Things");
  EXPECT_EQ(tag("arn:aws:dynamodb:local:123456789012:table/Things", one).substr(0, 22),
            "AccessDeniedException:");
  EXPECT_EQ(tag("arn:aws:dynamodb:us-east-1:000000000000:table/Things", one),
            "ValidationException: Invalid TableArn: Invalid ResourceArn provided as input "
            "arn:aws:dynamodb:us-east-1:000000000000:table/Things");
  EXPECT_EQ(tag(Arn() + "/index/i", one),
            "ValidationException: One or more parameter values were invalid: Invalid resource "
            "arn provided, only table or stream is accepted. Provided resource arn: " +
                Arn() + "/index/i");
  EXPECT_EQ(tag(Arn() + "x", one),
            "ResourceNotFoundException: Requested resource not found: "
            "ResourcArn: " +
                Arn() + "x not found");
  EXPECT_EQ(tag(Arn(), "[]"),
            "ValidationException: Atleast one Tag needs to be provided as Input.");
  EXPECT_EQ(tag(Arn(), R"([{"Key": "", "Value": "v"}])"),
            "ValidationException: The Tag Key provided is invalid, Key: ");
  EXPECT_EQ(tag(Arn(), R"([{"Key": "ok", "Value": "#!%"}])"),
            "ValidationException: The Tag Value provided is invalid, Value: #!%");
  EXPECT_EQ(tag(Arn(), R"([{"Key": "k"}])"),
            "ValidationException: The Tag Value provided is invalid, Value: null");
  EXPECT_EQ(tag(Arn(), R"([{"Key": "good", "Value": "v"}, {"Key": "aws:zzz", "Value": "v"}])"),
            "ValidationException: Tag Key cannot be prefixed with aws:, Key: aws:zzz");
  EXPECT_EQ(tag(Arn(), R"([{"Key": "dup", "Value": "1"}, {"Key": "dup", "Value": "2"}])"),
            "ValidationException: Duplicate Tag Keys provided as input: Duplicate Tag Key found "
            "dup");
  EXPECT_EQ(tag(Arn(), R"([{"Key": ")" + std::string(129, 'k') + R"(", "Value": "v"}])"),
            "ValidationException: The Tag Key provided is invalid, Key: " + std::string(129, 'k'));
  EXPECT_EQ(Tags(), R"({"Tags":[]})");  // a failed call tags nothing
  // 50 tags in all, counted after merging.
  std::string forty;
  for (int i = 0; i < 40; ++i)
    forty += (i ? "," : "") + fmt::format(R"({{"Key":"k{}","Value":"v"}})", i);
  EXPECT_EQ(tag(Arn(), "[" + forty + "]"), "{}");
  std::string more;
  for (int i = 35; i < 46; ++i)
    more += (i > 35 ? "," : "") + fmt::format(R"({{"Key":"k{}","Value":"v"}})", i);
  EXPECT_EQ(tag(Arn(), "[" + more + "]"), "{}");  // 46 in all
  EXPECT_EQ(tag(Arn(), R"([{"Key":"a","Value":""},{"Key":"b","Value":""},{"Key":"c","Value":""},
      {"Key":"d","Value":""},{"Key":"e","Value":""}])"),
            "ValidationException: Number of Tags exceed the current limit for the provided "
            "ResourceArn");
  EXPECT_EQ(Call("UntagResource", R"({"ResourceArn": ")" + Arn() + R"(", "TagKeys": []})"),
            "ValidationException: Atleast one Tag Key needs to be provided as Input.");
  EXPECT_EQ(Call("ListTagsOfResource", R"({"ResourceArn": ")" + Arn() + R"(", "NextToken": "x"})"),
            "ValidationException: Invalid NextToken");
}

TEST_F(ServerControlTest, UpdateTableSwitchesBillingModeAndThroughput) {
  CreateThings();
  EXPECT_EQ(
      Member("DescribeTable", R"({"TableName": "Things"})", "Table.BillingModeSummary"),
      R"({"BillingMode":"PAY_PER_REQUEST","LastUpdateToPayPerRequestDateTime":1700000000.000})");
  const std::string update = R"({"TableName": "Things", )";
  EXPECT_EQ(Call("UpdateTable", update + R"("BillingMode": "PROVISIONED"})"),
            "ValidationException: One or more parameter values were invalid: "
            "ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
  EXPECT_EQ(Call("UpdateTable", update + R"("BillingMode": "PAY_PER_REQUEST",
      "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}})"),
            "ValidationException: One or more parameter values were invalid: Neither "
            "ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is "
            "PAY_PER_REQUEST");
  EXPECT_EQ(Call("UpdateTable", update + R"("BillingMode": "PROVISIONED",
      "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 5}})"),
            "ValidationException: 1 validation error detected: Value '0' at "
            "'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must "
            "have value greater than or equal to 1");
  EXPECT_EQ(Call("UpdateTable", R"({"TableName": "Nope", "BillingMode": "PROVISIONED"})"),
            "ResourceNotFoundException: Requested resource not found: Table: Nope not found");
  now_ += 10;
  EXPECT_EQ(Member("UpdateTable", update + R"("BillingMode": "PROVISIONED",
      "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}})",
                   "TableDescription.ProvisionedThroughput"),
            R"({"NumberOfDecreasesToday":0,"ReadCapacityUnits":5,"WriteCapacityUnits":5})");
  EXPECT_EQ(Member("DescribeTable", R"({"TableName": "Things"})", "Table.BillingModeSummary"),
            R"({"BillingMode":"PROVISIONED","LastUpdateToPayPerRequestDateTime":1700000000.000})");
  EXPECT_EQ(Call("UpdateTable", update + R"("ProvisionedThroughput": {"ReadCapacityUnits": 5,
      "WriteCapacityUnits": 5}})"),
            "ValidationException: The provisioned throughput for the table will not change. The "
            "requested value equals the current value. Current ReadCapacityUnits provisioned for "
            "the table: 5. Requested ReadCapacityUnits: 5. Current WriteCapacityUnits provisioned "
            "for the table: 5. Requested WriteCapacityUnits: 5. Refer to the Amazon DynamoDB "
            "Developer Guide for current limits and how to request higher limits.");
  now_ += 10;
  EXPECT_EQ(Member("UpdateTable", update + R"("ProvisionedThroughput": {"ReadCapacityUnits": 10,
      "WriteCapacityUnits": 2}})",
                   "TableDescription.ProvisionedThroughput"),
            R"({"LastIncreaseDateTime":1700000020.000,"LastDecreaseDateTime":1700000020.000,)"
            R"("NumberOfDecreasesToday":1,"ReadCapacityUnits":10,"WriteCapacityUnits":2})");
  EXPECT_EQ(Call("UpdateTable", update + R"("BillingMode": "PAY_PER_REQUEST",
      "StreamSpecification": {"StreamEnabled": false}})"),
            "ValidationException: One or more parameter values were invalid: You cannot modify "
            "stream status while updating table IOPS");
  now_ += 10;
  EXPECT_EQ(
      Member("UpdateTable", update + R"("BillingMode": "PAY_PER_REQUEST"})",
             "TableDescription.BillingModeSummary"),
      R"({"BillingMode":"PAY_PER_REQUEST","LastUpdateToPayPerRequestDateTime":1700000030.000})");
  // The next UTC day has had no decreases.
  now_ += 86400;
  EXPECT_EQ(Member("DescribeTable", R"({"TableName": "Things"})",
                   "Table.ProvisionedThroughput.NumberOfDecreasesToday"),
            "0");
  EXPECT_EQ(Call("UpdateTable", R"({"TableName": "Things"})"),
            "ValidationException: At least one of ProvisionedThroughput, BillingMode, "
            "UpdateStreamEnabled, GlobalSecondaryIndexUpdates, SSESpecification, ReplicaUpdates, "
            "MultiAccountReplicaReady, ReplicaTransitRoleArn, MultiRegionConsistency, "
            "DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput or TableClass is "
            "required");
}

TEST_F(ServerControlTest, SseIsReportedAsDynamoDbReportsIt) {
  CreateThings();
  EXPECT_EQ(Member("DescribeTable", R"({"TableName": "Things"})", "Table.SSEDescription"),
            "<absent>");
  EXPECT_EQ(
      Call("UpdateTable", R"({"TableName": "Things", "SSESpecification": {"Enabled": false}})"),
      "ValidationException: One or more parameter values were invalid: Table is already "
      "encrypted by default");
  EXPECT_EQ(
      Member("UpdateTable",
             R"({"TableName": "Things", "SSESpecification": {"Enabled": true, "SSEType": "KMS"}})",
             "TableDescription.SSEDescription"),
      R"({"Status":"ENABLED","SSEType":"KMS",)"
      R"("KMSMasterKeyArn":"arn:aws:kms:local:000000000000:key/aws-dynamodb"})");
  EXPECT_EQ(Call("CreateTable", R"({"TableName": "Enc", "KeySchema": [{"AttributeName": "pk",
      "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST", "SSESpecification": {"Enabled": false, "SSEType": "KMS"}})"),
            "ValidationException: One or more parameter values were invalid: SSEType can not be "
            "specified if Enabled is false");
  EXPECT_EQ(Call("UpdateTable", R"({"TableName": "Things", "BillingMode": "PAY_PER_REQUEST",
      "SSESpecification": {"Enabled": true}})"),
            "ValidationException: One or more parameter values were invalid: Server-Side "
            "Encryption modification must be the only operation in the request");
}

TEST_F(ServerControlTest, ContinuousBackupsAreASetting) {
  CreateThings();
  EXPECT_EQ(Call("DescribeContinuousBackups", R"({"TableName": "Things"})"),
            R"({"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"ENABLED",)"
            R"("PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":"DISABLED"}}})");
  EXPECT_EQ(Call("DescribeContinuousBackups", R"({"TableName": "Nope"})"),
            "TableNotFoundException: Table not found: Nope");
  EXPECT_EQ(Call("UpdateContinuousBackups", R"({"TableName": "Things",
      "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": false,
      "RecoveryPeriodInDays": 3}})"),
            "ValidationException: Invalid Request: Cannot specify RecoveryPeriodInDays when "
            "disabling point-in-time recovery.");
  EXPECT_EQ(Call("UpdateContinuousBackups", R"({"TableName": "Things",
      "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true,
      "RecoveryPeriodInDays": 36}})"),
            "ValidationException: 1 validation error detected: Value '36' at "
            "'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy "
            "constraint: Member must have value less than or equal to 35");
  EXPECT_EQ(Call("UpdateContinuousBackups", R"({"TableName": "Things",
      "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true}})"),
            R"({"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"ENABLED",)"
            R"("PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":"ENABLED",)"
            R"("RecoveryPeriodInDays":35,"EarliestRestorableDateTime":1700000000.000,)"
            R"("LatestRestorableDateTime":1700000000.000}}})");
  now_ += 3600;
  service_.reset();
  db_.Reopen();
  service_ = std::make_unique<api::Service>(*db_);
  EXPECT_EQ(
      Member("DescribeContinuousBackups", R"({"TableName": "Things"})",
             "ContinuousBackupsDescription.PointInTimeRecoveryDescription"),
      R"({"PointInTimeRecoveryStatus":"ENABLED","RecoveryPeriodInDays":35,)"
      R"("EarliestRestorableDateTime":1700000000.000,"LatestRestorableDateTime":1700003300.000})");
}

TEST_F(ServerControlTest, DeleteTableDescribesTheTableWithoutItsSchema) {
  CreateThings();
  EXPECT_EQ(Call("DeleteTable", R"({"TableName": "Things"})"),
            R"({"TableDescription":{"TableName":"Things","TableStatus":"DELETING",)"
            R"("ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,)"
            R"("WriteCapacityUnits":0},"TableSizeBytes":0,"ItemCount":0,"TableArn":")" +
                Arn() +
                R"(","TableId":"00000000-0000-4000-8000-000000000001","BillingModeSummary":)"
                R"({"BillingMode":"PAY_PER_REQUEST","LastUpdateToPayPerRequestDateTime":)"
                R"(1700000000.000}}})");
}

TEST_F(ServerControlTest, CreateTableMessages) {
  EXPECT_EQ(Call("CreateTable", R"({"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST"})"),
            "ValidationException: The parameter 'TableName' is required but was not present in "
            "the request");
  EXPECT_EQ(Call("CreateTable", R"({"TableName": "Two", "KeySchema": [{"AttributeName": "a",
      "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "AttributeDefinitions":
      [{"AttributeName": "a", "AttributeType": "S"}], "BillingMode": "PAY_PER_REQUEST"})"),
            "ValidationException: Invalid KeySchema: Some index key attribute have no definition");
  EXPECT_EQ(Call("CreateTable", R"({"TableName": "Two", "KeySchema": [{"AttributeName": "a",
      "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "AttributeDefinitions":
      [{"AttributeName": "a", "AttributeType": "S"}, {"AttributeName": "b", "AttributeType": "S"}],
      "BillingMode": "PAY_PER_REQUEST"})"),
            "ValidationException: Both the Hash Key and the Range Key element in the KeySchema "
            "have the same name");
}

TEST_F(ServerControlTest, ReadOnlyCallsAnswerAsForATableWithoutTheFeature) {
  CreateThings();
  EXPECT_EQ(Call("DescribeLimits", "{}"),
            R"({"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,)"
            R"("TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000})");
  EXPECT_EQ(
      Call("DescribeEndpoints", "{}"),
      R"({"Endpoints":[{"Address":"dynamodb.local.amazonaws.com","CachePeriodInMinutes":1440}]})");
  EXPECT_EQ(Call("DescribeKinesisStreamingDestination", R"({"TableName": "Things"})"),
            R"({"TableName":"Things","KinesisDataStreamDestinations":[]})");
  EXPECT_EQ(Call("DescribeContributorInsights", R"({"TableName": "Things"})"),
            R"({"TableName":"Things","ContributorInsightsStatus":"DISABLED"})");
  EXPECT_EQ(Call("DescribeTableReplicaAutoScaling", R"({"TableName": "Things"})"),
            R"({"TableAutoScalingDescription":{"TableName":"Things","TableStatus":"ACTIVE",)"
            R"("Replicas":[]}})");
  EXPECT_EQ(Call("ListBackups", "{}"), R"({"BackupSummaries":[]})");
  EXPECT_EQ(Call("ListGlobalTables", "{}"), R"({"GlobalTables":[]})");
  EXPECT_EQ(Call("DescribeKinesisStreamingDestination", R"({"TableName": "Nope"})"),
            "ResourceNotFoundException: Requested resource not found: Table: Nope not found");
}

// Over HTTP: TagResource and UntagResource answer with an empty body; DescribeEndpoints names
// the server the request was sent to.
TEST_F(ServerControlTest, OnTheWireTaggingAnswersAnEmptyBody) {
  ::signal(SIGPIPE, SIG_IGN);
  server::DynamoDbServer protocol(*service_, {});
  server::HttpOptions http;
  http.host = "127.0.0.1";
  http.port = 0;
  server::HttpServer server(http, [&](const server::HttpRequest& r) { return protocol.Handle(r); });
  Result<int> port = server.Bind();
  ASSERT_TRUE(port.ok());
  std::thread serving([&] { server.Serve(); });
  httplib::Client client("127.0.0.1", *port);
  auto post = [&](const std::string& op, const std::string& body) {
    return client.Post("/", {{"X-Amz-Target", "DynamoDB_20120810." + op}}, body,
                       "application/x-amz-json-1.0");
  };
  CreateThings();
  auto tagged = post("TagResource", R"({"ResourceArn": ")" + Arn() +
                                        R"(", "Tags": [{"Key": "k", "Value": "v"}]})");
  ASSERT_TRUE(tagged);
  EXPECT_EQ(tagged->status, 200);
  EXPECT_EQ(tagged->body, "");
  auto untagged = post("UntagResource", R"({"ResourceArn": ")" + Arn() + R"(", "TagKeys": ["k"]})");
  ASSERT_TRUE(untagged);
  EXPECT_EQ(untagged->body, "");
  auto endpoints = post("DescribeEndpoints", "{}");
  ASSERT_TRUE(endpoints);
  EXPECT_EQ(endpoints->body, R"({"Endpoints":[{"Address":"127.0.0.1:)" + std::to_string(*port) +
                                 R"(","CachePeriodInMinutes":1440}]})");
  server.Stop();
  serving.join();
}

}  // namespace
}  // namespace keyhole
