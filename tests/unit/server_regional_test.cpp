// What DynamoDB's regions answer differently (core/regional.h), through api::Service as keyhole
// serve calls it: each request in a region of the majority, in a region that answers otherwise,
// and locally (the majority). The expected texts are the Parity Suite's captures across 33
// regions (registry/splits.json and the captures of 2026-10-07 and 2026-10-08);
// docs/decisions.md "Where regions disagree" has the table.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "api/service.h"
#include "core/json.h"
#include "core/schema.h"
#include "storage_test_util.h"

namespace keyhole {
namespace {

class ServerRegionalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string created = Call("local", "CreateTable", R"({"TableName": "Tab", "KeySchema":
        [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions":
        [{"AttributeName": "pk", "AttributeType": "S"}], "BillingMode": "PAY_PER_REQUEST"})");
    ASSERT_EQ(created.substr(0, 19), R"({"TableDescription")") << created;
  }
  // The response of `op` in `region`, as compact JSON, or "<ErrorName>: <message>".
  std::string Call(std::string_view region, std::string_view op, std::string_view body) {
    ArnScope scope(std::string(region), "000000000000");
    Result<json::Value> v = json::Parse(body);
    EXPECT_TRUE(v.ok()) << body;
    api::CallContext context;
    context.ignore_unknown_members = true;
    Result<json::Value> r = service_.Call(op, *v, context);
    if (!r.ok()) return std::string(r.status().name()) + ": " + r.status().message();
    return json::Write(*r);
  }

  testing::TempDb db_;
  api::Service service_{*db_};
};

// Scan's five messages: the newer wording in ap-east-2, ap-northeast-2, eu-central-1, eu-west-2
// and us-west-1, the older in the other 28 (registry rows scan-*-message, 2026-10-07).
TEST_F(ServerRegionalTest, ScanWordingFollowsTheRegion) {
  struct Case {
    std::string_view body, older, newer;
  } cases[] = {
      {R"({"TableName": "Tab", "Segment": 5, "TotalSegments": 5})",
       "ValidationException: The Segment parameter is zero-based and must be less than parameter "
       "TotalSegments: Segment: 5 is not less than TotalSegments: 5",
       "ValidationException: The Segment parameter is zero-based and must be less than parameter "
       "TotalSegments"},
      {R"({"TableName": "Tab", "Limit": 0})",
       "ValidationException: 1 validation error detected: Value '0' at 'limit' failed to satisfy "
       "constraint: Member must have value greater than or equal to 1",
       "ValidationException: 1 validation error detected: Value at 'Limit' failed to satisfy "
       "constraint: Member must have value greater than or equal to 1"},
      {R"({"TableName": "Tab", "Segment": -1, "TotalSegments": 2})",
       "ValidationException: 1 validation error detected: Value '-1' at 'segment' failed to "
       "satisfy constraint: Member must have value greater than or equal to 0",
       "ValidationException: 1 validation error detected: Value at 'Segment' failed to satisfy "
       "constraint: Member must have value greater than or equal to 0"},
      {R"({"TableName": "Tab", "ExclusiveStartKey": {"pk": {"N": "1"}}})",
       "ValidationException: The provided starting key is invalid: The provided key element does "
       "not match the schema",
       "ValidationException: The provided starting key is invalid"},
      {R"({"TableName": "Tab", "Select": "SPECIFIC_ATTRIBUTES"})",
       "ValidationException: Must specify the AttributesToGet or ProjectionExpression when "
       "choosing to get SPECIFIC_ATTRIBUTES",
       "ValidationException: 1 validation error detected: Must specify the AttributesToGet or "
       "ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Call("us-east-1", "Scan", c.body), c.older) << c.body;
    EXPECT_EQ(Call("local", "Scan", c.body), c.older) << c.body;
    EXPECT_EQ(Call("eu-west-2", "Scan", c.body), c.newer) << c.body;
    EXPECT_EQ(Call("us-west-1", "Scan", c.body), c.newer) << c.body;
  }
}

// An empty RequestItems: BatchWriteItem's sentence in 28 regions, the generic constraint in
// five; BatchGetItem's generic constraint in 32, the sentence in me-central-1.
TEST_F(ServerRegionalTest, EmptyBatches) {
  const std::string generic =
      "ValidationException: 1 validation error detected: Value at 'RequestItems' failed to "
      "satisfy constraint: Member must have length greater than or equal to 1";
  EXPECT_EQ(Call("us-east-1", "BatchWriteItem", R"({"RequestItems": {}})"),
            "ValidationException: The requestItems parameter is required for BatchWriteItem");
  EXPECT_EQ(Call("eu-north-1", "BatchWriteItem", R"({"RequestItems": {}})"), generic);
  EXPECT_EQ(Call("us-east-1", "BatchGetItem", R"({"RequestItems": {}})"), generic);
  EXPECT_EQ(Call("me-central-1", "BatchGetItem", R"({"RequestItems": {}})"),
            "ValidationException: The requestItems parameter is required for BatchGetItem");
}

// PutItem and UpdateItem report their first constraint error in 31 regions, every one in the
// old cohort (eu-south-2, me-central-1): put-item- and update-item-validation-error-aggregation.
TEST_F(ServerRegionalTest, TheOldCohortReportsEveryError) {
  const std::string_view put = R"({"TableName": "", "Item": {"pk": {"S": "a"}},
      "ReturnValues": "INVALID"})";
  EXPECT_EQ(Call("eu-west-1", "PutItem", put),
            "ValidationException: 1 validation error detected: Value at 'TableName' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1");
  // The old framework lists its errors in no fixed order (dynalite's tests, recorded against
  // DynamoDB, match them in any order): each is checked on its own.
  auto errors = [](const std::string& message) {
    std::vector<std::string> out;
    const std::string prefix = "ValidationException: 2 validation errors detected: ";
    EXPECT_EQ(message.substr(0, prefix.size()), prefix) << message;
    std::string rest = message.substr(std::min(prefix.size(), message.size()));
    for (size_t at; (at = rest.find("; ")) != std::string::npos; rest = rest.substr(at + 2)) {
      out.push_back(rest.substr(0, at));
    }
    out.push_back(rest);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(errors(Call("eu-south-2", "PutItem", put)),
            (std::vector<std::string>{
                "Value '' at 'tableName' failed to satisfy constraint: Member must have length "
                "greater than or equal to 1",
                "Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must "
                "satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"}));
  const std::string_view update = R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "ReturnValues": "INVALID", "ReturnConsumedCapacity": "INVALID"})";
  EXPECT_EQ(Call("eu-west-1", "UpdateItem", update),
            "ValidationException: 1 validation error detected: Failed to satisfy constraint: "
            "Member must satisfy enum value set: [ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATE_NEW, "
            "NONE]");
  EXPECT_EQ(errors(Call("me-central-1", "UpdateItem", update)),
            (std::vector<std::string>{
                "Value 'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint: Member "
                "must satisfy enum value set: [INDEXES, TOTAL, NONE]",
                "Value 'INVALID' at 'returnValues' failed to satisfy constraint: Member must "
                "satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"}));
}

// A TransactWriteItems element with no action: the rollout of 2026-10-08 (ap-northeast-2,
// eu-north-1, eu-west-2) names the constraint, the other 30 keep their sentence.
//
// An empty TransactItems: echoed as '[]' in 30 regions, named in the rollout's (TransactGetItems
// in eu-west-2 has answered both ways: keyhole gives it the rollout's, as for TransactWriteItems).
TEST_F(ServerRegionalTest, TransactionRollout) {
  for (std::string_view op : {"TransactWriteItems", "TransactGetItems"}) {
    EXPECT_EQ(Call("us-east-1", op, R"({"TransactItems": []})"),
              "ValidationException: 1 validation error detected: Value '[]' at 'transactItems' "
              "failed to satisfy constraint: Member must have length greater than or equal to 1");
    EXPECT_EQ(Call("eu-north-1", op, R"({"TransactItems": []})"),
              "ValidationException: 1 validation error detected: Value at 'TransactItems' failed "
              "to satisfy constraint: Member must have length greater than or equal to 1");
  }
  const std::string_view body = R"({"TransactItems": [{}]})";
  EXPECT_EQ(Call("us-east-1", "TransactWriteItems", body),
            "ValidationException: Invalid Request: TransactWriteRequest should contain Delete or "
            "Put or Update request");
  EXPECT_EQ(Call("eu-west-2", "TransactWriteItems", body),
            "ValidationException: 1 validation error detected: Value '' at 'transactItems' "
            "failed to satisfy constraint: TransactWriteRequest should contain Delete or Put or "
            "Update or ConditionCheck");
}

}  // namespace
}  // namespace keyhole
