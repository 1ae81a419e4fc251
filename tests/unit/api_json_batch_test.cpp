// api/api_json.h for batches and transactions: BatchWriteItem, BatchGetItem,
// TransactWriteItems and TransactGetItems requests and responses, and the JSON error body with
// TransactionCanceledException's CancellationReasons.
#include <gtest/gtest.h>

#include "api_json_test_util.h"

#include <string>

#include "api/api_json.h"
#include "core/ddb_json.h"
#include "core/java_echo.h"

namespace keyhole {
namespace {

using testing::Err;
using testing::ItemOf;
using testing::J;
using testing::Ok;

// ---- BatchWriteItem ----

TEST(ApiJsonBatchWrite, Decodes) {
  // aws dynamodb batch-write-item (AWS CLI reference example, shortened).
  BatchWriteItemRequest r = Ok(BatchWriteItemRequestFromJson, R"({
    "RequestItems": {
      "MusicCollection": [
        {"PutRequest": {"Item": {"Artist": {"S": "No One You Know"}, "SongTitle": {"S": "Call Me Today"}}}},
        {"DeleteRequest": {"Key": {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}}}}
      ],
      "Other": [{"PutRequest": {"Item": {"pk": {"S": "x"}}}}]
    },
    "ReturnConsumedCapacity": "TOTAL",
    "ReturnItemCollectionMetrics": "NONE"})");
  ASSERT_EQ(r.request_items.size(), 2u);
  const auto& music = r.request_items.at("MusicCollection");
  ASSERT_EQ(music.size(), 2u);
  ASSERT_TRUE(music[0].put_request.has_value());
  EXPECT_FALSE(music[0].delete_request.has_value());
  EXPECT_EQ(music[0].put_request->item.at("SongTitle"), AttributeValue::S("Call Me Today"));
  ASSERT_TRUE(music[1].delete_request.has_value());
  EXPECT_EQ(music[1].delete_request->key.size(), 2u);
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  // The encoder gives the same request back.
  BatchWriteItemRequest again =
      Ok(BatchWriteItemRequestFromJson, json::Write(BatchWriteItemRequestToJson(r)));
  EXPECT_EQ(json::Write(BatchWriteItemRequestToJson(again)),
            json::Write(BatchWriteItemRequestToJson(r)));
}

TEST(ApiJsonBatchWrite, Errors) {
  EXPECT_EQ(Err(BatchWriteItemRequestFromJson, R"({})"),
            "1 validation error detected: Value null at 'requestItems' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(Err(BatchWriteItemRequestFromJson,
                R"({"RequestItems": {"Tab": [{"PutRequest": {"Item": {}, "Key": {}}}]}})"),
            "Unknown parameter in RequestItems.Tab[0].PutRequest: \"Key\", must be one of: Item");
  EXPECT_EQ(
      Err(BatchWriteItemRequestFromJson, R"({"RequestItems": {"Tab": [{"UpdateRequest": {}}]}})"),
      "Unknown parameter in RequestItems.Tab[0]: \"UpdateRequest\", must be one of: "
      "PutRequest, DeleteRequest");
  EXPECT_EQ(Err(BatchWriteItemRequestFromJson, R"({"RequestItems": {"Tab": {}}})"),
            "Invalid type for parameter RequestItems.Tab, value: {}, type: object, valid types: "
            "list");
  EXPECT_EQ(
      Err(BatchWriteItemRequestFromJson, R"({"RequestItems": {"Tab": [{"PutRequest": {}}]}})"),
      "1 validation error detected: Value null at "
      "'requestItems.Tab.member.1.member.putRequest.item' "
      "failed to satisfy constraint: Member must not be null");
  auto size = BatchWriteItemRequestFromJson(
      json::Parse(R"({"RequestItems": {"Tab": []}, "ReturnItemCollectionMetrics": "SIZE"})")
          .value());
  ASSERT_TRUE(size.ok()) << size.status().ToString();
  EXPECT_TRUE(size->return_item_collection_metrics);
  // A malformed table name: the map's keys constraint, the map echoed as Java prints it.
  EXPECT_EQ(
      Err(BatchWriteItemRequestFromJson,
          R"({"RequestItems": {"bad!name": [{"DeleteRequest": {"Key": {"pk": {"S": "a"}}}}]}})"),
      "1 validation error detected: Value '{bad!name=[WriteRequest(putRequest=null, "
      "deleteRequest=DeleteRequest(key={pk=" +
          JavaEchoValue(AttributeValue::S("a")) +
          "}, workloadProfileName=null))]}' at 'requestItems' failed to satisfy constraint: "
          "Map keys must satisfy constraint: [Member must have length less than or equal to "
          "255, Member must have length greater than or equal to 3, Member must satisfy "
          "regular expression pattern: [a-zA-Z0-9_.-]+]");
}

// ---- BatchGetItem ----

TEST(ApiJsonBatchGet, Decodes) {
  BatchGetItemRequest r = Ok(BatchGetItemRequestFromJson, R"({
    "RequestItems": {
      "MusicCollection": {
        "Keys": [{"Artist": {"S": "A"}, "SongTitle": {"S": "1"}},
                 {"Artist": {"S": "B"}, "SongTitle": {"S": "2"}}],
        "ProjectionExpression": "#a, AlbumTitle",
        "ExpressionAttributeNames": {"#a": "Artist"},
        "ConsistentRead": true
      },
      "Other": {"Keys": [{"pk": {"S": "x"}}]}
    },
    "ReturnConsumedCapacity": "INDEXES"})");
  ASSERT_EQ(r.request_items.size(), 2u);
  const KeysAndAttributes& m = r.request_items.at("MusicCollection");
  EXPECT_EQ(m.keys.size(), 2u);
  EXPECT_TRUE(m.consistent_read);
  EXPECT_EQ(m.expressions.projection, "#a, AlbumTitle");
  EXPECT_EQ(m.expressions.names->at("#a"), "Artist");
  EXPECT_FALSE(r.request_items.at("Other").consistent_read);
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
  BatchGetItemRequest again =
      Ok(BatchGetItemRequestFromJson, json::Write(BatchGetItemRequestToJson(r)));
  EXPECT_EQ(json::Write(BatchGetItemRequestToJson(again)),
            json::Write(BatchGetItemRequestToJson(r)));
}

TEST(ApiJsonBatchGet, Errors) {
  EXPECT_EQ(Err(BatchGetItemRequestFromJson, R"({"RequestItems": {"Tab": {}}})"),
            "1 validation error detected: Value null at 'requestItems.Tab.member.keys' failed to "
            "satisfy constraint: Member must not be null");
  EXPECT_EQ(Err(BatchGetItemRequestFromJson,
                R"({"RequestItems": {"Tab": {"Keys": [], "AttributesToGet": ["a", "a"]}}})"),
            "One or more parameter values were invalid: Duplicate value in attribute name: a");
  EXPECT_EQ(Err(BatchGetItemRequestFromJson, R"({"RequestItems": {"Tab": {"Keys": [1]}}})"),
            "Invalid type for parameter RequestItems.Tab.Keys[0], value: 1, type: number, valid "
            "types: object");
  // A malformed table name: the map's keys constraint, the map echoed as JSON, beside the
  // other constraint errors (batchGetItem.test.ts, batchOperations.test.ts, October 2026).
  EXPECT_EQ(
      Err(BatchGetItemRequestFromJson,
          R"({"RequestItems": {"bad!name": {"Keys": [{"pk": {"S": "a"}}]}},
                    "ReturnConsumedCapacity": "BOGUS"})"),
      "2 validation errors detected: Value '{\"bad!name\":{\"Keys\":[{\"pk\":{\"S\":\"a\"}}]}}' "
      "at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: "
      "[Member must have length less than or equal to 255, Member must have length greater "
      "than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]; "
      "Value 'BOGUS' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
      "satisfy enum value set: [INDEXES, TOTAL, NONE]");
  // One projection form across the tables.
  EXPECT_EQ(Err(BatchGetItemRequestFromJson, R"({"RequestItems": {
      "One": {"Keys": [{"pk": {"S": "a"}}], "ProjectionExpression": "pk"},
      "Two": {"Keys": [{"pk": {"S": "b"}}], "AttributesToGet": ["pk"]}}})"),
            "Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {AttributesToGet} Expression parameters: "
            "{ProjectionExpression}");
}

// ---- TransactWriteItems ----

constexpr std::string_view kTransaction = R"j({
  "TransactItems": [
    {"ConditionCheck": {"TableName": "Users", "Key": {"pk": {"S": "u1"}},
                        "ConditionExpression": "attribute_exists(pk)",
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
    {"Put": {"TableName": "Users", "Item": {"pk": {"S": "EMAIL#a@x.io"}},
             "ConditionExpression": "attribute_not_exists(pk)"}},
    {"Delete": {"TableName": "App", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
    {"Update": {"TableName": "App", "Key": {"pk": {"S": "a"}, "sk": {"N": "2"}},
                "UpdateExpression": "ADD #n :one",
                "ExpressionAttributeNames": {"#n": "n"},
                "ExpressionAttributeValues": {":one": {"N": "1"}}}}
  ],
  "ReturnConsumedCapacity": "TOTAL",
  "ClientRequestToken": "token-1"})j";

TEST(ApiJsonBatchTransactWrite, DecodesEveryAction) {
  TransactWriteItemsRequest r = Ok(TransactWriteItemsRequestFromJson, kTransaction);
  ASSERT_EQ(r.transact_items.size(), 4u);
  ASSERT_TRUE(r.transact_items[0].condition_check.has_value());
  const ConditionCheck& c = *r.transact_items[0].condition_check;
  EXPECT_EQ(c.table_name, "Users");
  EXPECT_EQ(c.expressions.condition, "attribute_exists(pk)");
  EXPECT_EQ(c.return_values_on_condition_check_failure, ReturnValues::kAllOld);
  ASSERT_TRUE(r.transact_items[1].put.has_value());
  EXPECT_EQ(r.transact_items[1].put->item, ItemOf(R"({"pk": {"S": "EMAIL#a@x.io"}})"));
  ASSERT_TRUE(r.transact_items[2].delete_.has_value());
  EXPECT_EQ(r.transact_items[2].delete_->table_name, "App");
  ASSERT_TRUE(r.transact_items[3].update.has_value());
  EXPECT_EQ(r.transact_items[3].update->expressions.update, "ADD #n :one");
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  EXPECT_EQ(r.client_request_token, "token-1");
  // Round trip through the encoder.
  TransactWriteItemsRequest again =
      Ok(TransactWriteItemsRequestFromJson, json::Write(TransactWriteItemsRequestToJson(r)));
  EXPECT_EQ(json::Write(TransactWriteItemsRequestToJson(again)),
            json::Write(TransactWriteItemsRequestToJson(r)));
  EXPECT_EQ(json::Write(TransactWriteItemsRequestToJson(r)), json::Write(J(kTransaction)));
}

TEST(ApiJsonBatchTransactWrite, Errors) {
  EXPECT_EQ(Err(TransactWriteItemsRequestFromJson, R"({})"),
            "1 validation error detected: Value null at 'transactItems' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(
      Err(TransactWriteItemsRequestFromJson,
          R"({"TransactItems": [{"Put": {"TableName": "Tbl", "Item": {}}},
                                {"Update": {"TableName": "Tbl", "Key": {}}}]})"),
      "1 validation error detected: Value null at 'transactItems.2.member.update.updateExpression' "
      "failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(Err(TransactWriteItemsRequestFromJson,
                R"({"TransactItems": [{"ConditionCheck": {"TableName": "Tbl", "Key": {}}}]})"),
            "1 validation error detected: Value null at "
            "'transactItems.1.member.conditionCheck.conditionExpression' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(
      Err(TransactWriteItemsRequestFromJson,
          R"({"TransactItems": [{"Put": {"TableName": "T", "Item": {}, "ReturnValues": "ALL_OLD"}}]})"),
      "Unknown parameter in TransactItems[0].Put: \"ReturnValues\", must be one of: Item, "
      "TableName, ConditionExpression, ExpressionAttributeNames, ExpressionAttributeValues, "
      "ReturnValuesOnConditionCheckFailure");
  EXPECT_EQ(Err(TransactWriteItemsRequestFromJson, R"({"TransactItems": [{"Get": {}}]})"),
            "Unknown parameter in TransactItems[0]: \"Get\", must be one of: ConditionCheck, Put, "
            "Delete, Update");
  EXPECT_EQ(
      Err(TransactWriteItemsRequestFromJson,
          R"({"TransactItems": [], "ClientRequestToken": "0123456789012345678901234567890123456"})"),
      "1 validation error detected: Value '0123456789012345678901234567890123456' at "
      "'clientRequestToken' failed to satisfy constraint: Member must have length less "
      "than or equal to 36");
}

// ---- TransactGetItems ----

TEST(ApiJsonBatchTransactGet, DecodesAndRoundTrips) {
  constexpr std::string_view kText = R"({
    "TransactItems": [
      {"Get": {"TableName": "Users", "Key": {"pk": {"S": "u1"}}, "ProjectionExpression": "#e",
               "ExpressionAttributeNames": {"#e": "email"}}},
      {"Get": {"TableName": "App", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}}
    ],
    "ReturnConsumedCapacity": "TOTAL"})";
  TransactGetItemsRequest r = Ok(TransactGetItemsRequestFromJson, kText);
  ASSERT_EQ(r.transact_items.size(), 2u);
  EXPECT_EQ(r.transact_items[0].get.table_name, "Users");
  EXPECT_EQ(r.transact_items[0].get.expressions.projection, "#e");
  EXPECT_EQ(r.transact_items[1].get.key.size(), 2u);
  EXPECT_EQ(json::Write(TransactGetItemsRequestToJson(r)), json::Write(J(kText)));
  EXPECT_EQ(
      Err(TransactGetItemsRequestFromJson,
          R"({"TransactItems": [{"Get": {"TableName": "Users", "Key": {}, "ConsistentRead": true}}]})"),
      "Unknown parameter in TransactItems[0].Get: \"ConsistentRead\", must be one of: Key, "
      "TableName, ProjectionExpression, ExpressionAttributeNames");
  EXPECT_EQ(Err(TransactGetItemsRequestFromJson, R"({"TransactItems": [{}]})"),
            "1 validation error detected: Value null at 'transactItems.1.member.get' failed to "
            "satisfy constraint: Member must not be null");
}

// ---- responses ----

ConsumedCapacity Units(const std::string& table, double read, double write) {
  ConsumedCapacity c;
  c.table_name = table;
  c.total.AddRead(read);
  c.total.AddWrite(write);
  return c;
}

TEST(ApiJsonBatchResponses, Shapes) {
  BatchWriteItemResponse w;
  EXPECT_EQ(json::Write(BatchWriteItemResponseToJson(w)), R"({"UnprocessedItems":{}})");
  w.consumed_capacity = {Units("A", 0, 2), Units("B", 0, 5)};
  EXPECT_EQ(json::Write(BatchWriteItemResponseToJson(w)),
            R"({"UnprocessedItems":{},"ConsumedCapacity":[{"TableName":"A","CapacityUnits":2.0,)"
            R"("WriteCapacityUnits":2.0},{"TableName":"B","CapacityUnits":5.0,)"
            R"("WriteCapacityUnits":5.0}]})");

  BatchGetItemResponse g;
  g.responses["A"] = {ItemOf(R"({"pk": {"S": "x"}})")};
  g.responses["B"] = {};
  g.unprocessed_keys["A"].keys = {ItemOf(R"({"pk": {"S": "y"}})")};
  g.unprocessed_keys["A"].consistent_read = true;
  g.unprocessed_keys["A"].expressions.projection = "pk";
  EXPECT_EQ(json::Write(BatchGetItemResponseToJson(g)),
            R"({"Responses":{"A":[{"pk":{"S":"x"}}],"B":[]},"UnprocessedKeys":{"A":{"Keys":)"
            R"([{"pk":{"S":"y"}}],"ProjectionExpression":"pk","ConsistentRead":true}}})");

  TransactWriteItemsResponse t;
  EXPECT_EQ(json::Write(TransactWriteItemsResponseToJson(t)), "{}");
  t.consumed_capacity = {Units("A", 0, 6)};
  EXPECT_EQ(
      json::Write(TransactWriteItemsResponseToJson(t)),
      R"({"ConsumedCapacity":[{"TableName":"A","CapacityUnits":6.0,"WriteCapacityUnits":6.0}]})");

  TransactGetItemsResponse tg;
  tg.responses = {ItemOf(R"({"pk": {"S": "x"}})"), std::nullopt};
  EXPECT_EQ(json::Write(TransactGetItemsResponseToJson(tg)),
            R"({"Responses":[{"Item":{"pk":{"S":"x"}}},{}]})");
}

TEST(ApiJsonBatchErrors, SerializationMessages) {
  // A member of the wrong JSON type is DynamoDB's SerializationException, in its words; the
  // hint names the member.
  auto status = [](std::string_view body) {
    return GetItemRequestFromJson(json::Parse(body).value()).status();
  };
  Status s = status(R"({"TableName": 5, "Key": {}})");
  EXPECT_EQ(s.code(), ErrorCode::kSerialization);
  EXPECT_EQ(s.message(), "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(s.hint(),
            "Invalid type for parameter TableName, value: 5, type: number, valid types: string");
  EXPECT_EQ(status(R"({"TableName": "abc", "Key": {}, "ConsistentRead": "yes"})").message(),
            "STRING_VALUE cannot be converted to Boolean");
  EXPECT_EQ(status(R"({"TableName": "abc", "Key": []})").message(),
            "Start of list found where not expected");
  EXPECT_EQ(status(R"({"TableName": {"a": 1}, "Key": {}})").message(),
            "Start of structure or map found where not expected");
  EXPECT_EQ(json::Write(ErrorToJson(s)),
            R"({"__type":"com.amazon.coral.service#SerializationException",)"
            R"("Message":"NUMBER_VALUE cannot be converted to String"})");
}

TEST(ApiJsonBatchErrors, ErrorBodies) {
  EXPECT_EQ(json::Write(ErrorToJson(Status::Validation("bad"))),
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":"bad"})");
  EXPECT_EQ(ErrorHttpStatus(Status::Validation("bad")), 400);
  // keyhole's own codes never reach the wire.
  EXPECT_EQ(json::Write(ErrorToJson(Status::Format("x.kh: not a keyhole database"))),
            R"({"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError",)"
            R"("message":"Internal server error"})");
  EXPECT_EQ(ErrorHttpStatus(Status::Internal("disk")), 500);
  EXPECT_EQ(json::Write(ErrorToJson(Status::AccessDenied("no"))),
            R"({"__type":"com.amazon.coral.service#AccessDeniedException","Message":"no"})");
  Status ccf = Status::ConditionFailed("The conditional request failed");
  ccf.WithItem(std::make_shared<const Item>(ItemOf(R"({"pk": {"S": "x"}})")));
  EXPECT_EQ(json::Write(ErrorToJson(ccf)),
            R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)"
            R"("message":"The conditional request failed","Item":{"pk":{"S":"x"}}})");
  Status cancelled = Status::TransactionCanceled(
      "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
      "ConditionalCheckFailed]");
  cancelled.WithCancellationReasons(std::make_shared<const std::vector<Status::CancellationReason>>(
      std::vector<Status::CancellationReason>{
          {"None", "", nullptr},
          {"ConditionalCheckFailed", "The conditional request failed",
           std::make_shared<const Item>(ItemOf(R"({"pk": {"S": "u"}})"))}}));
  EXPECT_EQ(json::Write(ErrorToJson(cancelled)),
            R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
            R"("CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed",)"
            R"("Item":{"pk":{"S":"u"}},"Message":"The conditional request failed"}],)"
            R"("Message":"Transaction cancelled, please refer cancellation reasons for specific )"
            R"(reasons [None, ConditionalCheckFailed]"})");
}

}  // namespace
}  // namespace keyhole
