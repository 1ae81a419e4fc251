// DynamoDB's legacy (non-expression) parameters through the API layer (api/api_json_legacy.cpp):
// Expected with ConditionalOperator, AttributeUpdates, AttributesToGet, ScanFilter and
// QueryFilter, translated into expression ASTs and run by storage::Database behind an
// api::Service. Each ComparisonOperator and each Action is checked for its results, each
// validation error for its exact text, and the mixing and placeholder-map messages per
// operation. Messages come from [DL] (dynalite's tests, recorded against AWS), [SC] (Alternator's
// tests, run against AWS) and ExtendDB's dual-target tests; see the file comment of
// api_json_legacy.cpp.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "api/api_json.h"
#include "api/service.h"
#include "api_json_test_util.h"
#include "storage_test_util.h"

namespace keyhole {
namespace {

// A single-item write's request error inside DynamoDB's current-layer envelope (the Parity
// Suite's putItem and deleteItem envelope captures, October 2026).
std::string Env(const std::string& message) { return "1 validation error detected: " + message; }

// `m` without the envelope of a request error (constraint errors keep theirs).
std::string Unwrapped(const std::string& m) {
  const std::string env = Env("");
  if (!m.starts_with(env) || m.starts_with(env + "Value ")) return m;
  return m.substr(env.size());
}

using testing::Err;
using testing::J;
using testing::Ok;

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

std::string Invalid(std::string_view rest) { return std::string(kInvalid) + std::string(rest); }

// ---- decoding: translations ----

TEST(ApiJsonLegacyDecode, ExpectedBecomesACondition) {
  PutItemRequest r = Ok(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "Expected": {"a": {"Exists": false}, "b": {"Value": {"N": "1"}}}})");
  ASSERT_TRUE(r.expressions.parsed);
  EXPECT_TRUE(r.expressions.parsed->legacy);
  ASSERT_TRUE(r.expressions.parsed->condition);
  const expr::Condition& c = *r.expressions.parsed->condition;
  EXPECT_EQ(c.kind, expr::ConditionKind::kAnd);
  ASSERT_EQ(c.children.size(), 2u);
  EXPECT_EQ(c.children[0].function, "attribute_not_exists");
  EXPECT_EQ(c.children[1].kind, expr::ConditionKind::kCompare);
  EXPECT_EQ(c.children[1].op, expr::CompareOp::kEq);
  // The members as sent travel beside the translation, for request encoders.
  ASSERT_TRUE(r.expressions.legacy);
  EXPECT_EQ(json::Write(*r.expressions.legacy),
            R"({"Expected":{"a":{"Exists":false},"b":{"Value":{"N":"1"}}}})");
  // ConditionalOperator OR joins them with OR.
  r = Ok(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "Expected": {"a": {"Exists": false}, "b": {"Exists": false}}, "ConditionalOperator": "OR"})");
  EXPECT_EQ(r.expressions.parsed->condition->kind, expr::ConditionKind::kOr);
  // An empty Expected is no condition at all.
  r = Ok(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "Expected": {}})");
  ASSERT_TRUE(r.expressions.parsed);
  EXPECT_FALSE(r.expressions.parsed->condition);
}

TEST(ApiJsonLegacyDecode, AttributeUpdatesBecomeActions) {
  UpdateItemRequest r = Ok(UpdateItemRequestFromJson, R"({"TableName": "Tab",
      "Key": {"pk": {"S": "a"}}, "AttributeUpdates": {
        "p": {"Value": {"S": "x"}},
        "d": {"Action": "DELETE"},
        "s": {"Action": "DELETE", "Value": {"SS": ["x"]}},
        "n": {"Action": "ADD", "Value": {"N": "1"}},
        "l": {"Action": "ADD", "Value": {"L": [{"N": "1"}]}}}})");
  ASSERT_TRUE(r.expressions.parsed && r.expressions.parsed->update);
  const auto& a = r.expressions.parsed->update->actions;
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0].kind, expr::UpdateActionKind::kSet);  // PUT, the default Action
  EXPECT_EQ(a[1].kind, expr::UpdateActionKind::kRemove);
  EXPECT_EQ(a[2].kind, expr::UpdateActionKind::kDelete);
  EXPECT_EQ(a[3].kind, expr::UpdateActionKind::kAdd);
  // ADD of a list: SET l = list_append(if_not_exists(l, []), v).
  EXPECT_EQ(a[4].kind, expr::UpdateActionKind::kSet);
  EXPECT_EQ(a[4].value.function, "list_append");
  ASSERT_EQ(a[4].value.args.size(), 2u);
  EXPECT_EQ(a[4].value.args[0].function, "if_not_exists");
  // An empty AttributeUpdates updates nothing (a key-only item when missing).
  r = Ok(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {}})");
  ASSERT_TRUE(r.expressions.parsed);
  EXPECT_FALSE(r.expressions.parsed->update);
}

TEST(ApiJsonLegacyDecode, AttributesToGetBecomesAProjection) {
  GetItemRequest g = Ok(GetItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributesToGet": ["a", "b.c"]})");
  ASSERT_TRUE(g.expressions.parsed && g.expressions.parsed->projection);
  const auto& paths = g.expressions.parsed->projection->paths;
  ASSERT_EQ(paths.size(), 2u);
  // A name is one top-level attribute, dots and all.
  ASSERT_EQ(paths[1].elements.size(), 1u);
  EXPECT_EQ(paths[1].elements[0].name, "b.c");
  BatchGetItemRequest b = Ok(BatchGetItemRequestFromJson, R"({"RequestItems": {"Tab": {
      "Keys": [{"pk": {"S": "a"}}], "AttributesToGet": ["a"]}}})");
  ASSERT_TRUE(b.request_items["Tab"].expressions.parsed);
  EXPECT_TRUE(b.request_items["Tab"].expressions.parsed->projection);
}

TEST(ApiJsonLegacyDecode, FiltersBecomeFilterExpressions) {
  ScanRequest s = Ok(ScanRequestFromJson, R"({"TableName": "Tab", "ScanFilter": {
      "a": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "x"}]}}})");
  ASSERT_TRUE(s.expressions.parsed && s.expressions.parsed->filter);
  // attribute_exists(a) AND NOT contains(a, "x"): false when a is missing.
  const expr::Condition& f = *s.expressions.parsed->filter;
  EXPECT_EQ(f.kind, expr::ConditionKind::kAnd);
  QueryRequest q = Ok(QueryRequestFromJson, R"({"TableName": "Tab",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "QueryFilter": {"a": {"ComparisonOperator": "NULL"}}})");
  ASSERT_TRUE(q.expressions.parsed && q.expressions.parsed->filter);
  EXPECT_EQ(q.key_conditions.size(), 1u);
  // KeyConditions travels with the legacy members it came with.
  EXPECT_TRUE(q.expressions.legacy->Find("KeyConditions"));
  // An empty filter is no filter.
  s = Ok(ScanRequestFromJson, R"({"TableName": "Tab", "ScanFilter": {}})");
  EXPECT_FALSE(s.expressions.parsed->filter);
}

TEST(ApiJsonLegacyDecode, EncodersResendTheLegacyMembers) {
  QueryRequest q = Ok(QueryRequestFromJson, R"({"TableName": "Tab",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "QueryFilter": {"a": {"ComparisonOperator": "NULL"}}, "AttributesToGet": ["a"]})");
  ASSERT_TRUE(BindKeyConditions(KeySchema{{"pk", ValueType::kS}, std::nullopt}, &q).ok());
  EXPECT_EQ(
      json::Write(QueryRequestToJson(q)),
      R"({"TableName":"Tab","AttributesToGet":["a"],"QueryFilter":{"a":{"ComparisonOperator":)"
      R"("NULL"}},"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":)"
      R"([{"S":"a"}]}}})");
  UpdateItemRequest u = Ok(UpdateItemRequestFromJson, R"({"TableName": "Tab",
      "Key": {"pk": {"S": "a"}}, "AttributeUpdates": {"n": {"Action": "ADD", "Value": {"N": "1"}}},
      "Expected": {"n": {"Exists": false}}, "ReturnValues": "ALL_NEW"})");
  EXPECT_EQ(json::Write(UpdateItemRequestToJson(u)),
            R"({"TableName":"Tab","Key":{"pk":{"S":"a"}},"Expected":{"n":{"Exists":false}},)"
            R"("AttributeUpdates":{"n":{"Action":"ADD","Value":{"N":"1"}}},)"
            R"("ReturnValues":"ALL_NEW"})");
}

// ---- decoding: mixing and the placeholder maps ----

TEST(ApiJsonLegacyDecode, MixingNamesEverySideInTheApiOrder) {
  const std::string mix =
      "Can not use both expression and non-expression parameters in the same request: ";
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "Expected": {"a": {"Exists": false}}, "ConditionExpression": "attribute_exists(pk) "})"),
            mix +
                "Non-expression parameters: {Expected} Expression parameters: "
                "{ConditionExpression}");
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "ConditionalOperator": "AND", "Expected": {"a": {"Exists": false}},
      "ConditionExpression": "attribute_exists(pk) "})"),
            mix +
                "Non-expression parameters: {Expected, ConditionalOperator} Expression "
                "parameters: {ConditionExpression}");
  EXPECT_EQ(Err(DeleteItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "ConditionalOperator": "AND", "ConditionExpression": "attribute_exists(pk) "})"),
            mix +
                "Non-expression parameters: {ConditionalOperator} Expression parameters: "
                "{ConditionExpression}");
  EXPECT_EQ(Err(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"a": {"Value": {"S": "v"}}}, "UpdateExpression": "SET a = :v",
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            mix +
                "Non-expression parameters: {AttributeUpdates} Expression parameters: "
                "{UpdateExpression}");
  EXPECT_EQ(Err(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "ConditionExpression": "attribute_exists(pk) ", "UpdateExpression": "SET a = :v",
      "ConditionalOperator": "AND", "Expected": {"a": {"Exists": false}},
      "AttributeUpdates": {"a": {"Value": {"S": "v"}}},
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            mix +
                "Non-expression parameters: {AttributeUpdates, Expected, ConditionalOperator} "
                "Expression parameters: {UpdateExpression, ConditionExpression}");
  EXPECT_EQ(Err(GetItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributesToGet": ["a"], "ProjectionExpression": "a"})"),
            mix +
                "Non-expression parameters: {AttributesToGet} Expression parameters: "
                "{ProjectionExpression}");
  EXPECT_EQ(Err(BatchGetItemRequestFromJson, R"({"RequestItems": {"Tab": {
      "Keys": [{"pk": {"S": "a"}}], "AttributesToGet": ["a"], "ProjectionExpression": "a"}}})"),
            mix +
                "Non-expression parameters: {AttributesToGet} Expression parameters: "
                "{ProjectionExpression}");
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "ProjectionExpression": "b",
      "FilterExpression": "a = :v", "ConditionalOperator": "AND", "AttributesToGet": ["a"],
      "ScanFilter": {"a": {"ComparisonOperator": "NULL"}},
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            mix +
                "Non-expression parameters: {AttributesToGet, ScanFilter, ConditionalOperator} "
                "Expression parameters: {ProjectionExpression, FilterExpression}");
  // Query: KeyConditions counts only beside KeyConditionExpression.
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "QueryFilter": {"a": {"ComparisonOperator": "NULL"}}, "ConditionalOperator": "AND",
      "KeyConditionExpression": "pk = :p", "FilterExpression": "a = :v",
      "ProjectionExpression": "b", "ExpressionAttributeValues": {":p": {"S": "a"},
      ":v": {"S": "x"}}})"),
            mix +
                "Non-expression parameters: {QueryFilter, ConditionalOperator, KeyConditions} "
                "Expression parameters: {ProjectionExpression, FilterExpression, "
                "KeyConditionExpression}");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "AttributesToGet": ["a"], "FilterExpression": "a = :v",
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            mix +
                "Non-expression parameters: {AttributesToGet} Expression parameters: "
                "{FilterExpression}");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab", "KeyConditionExpression": "pk = :p",
      "ExpressionAttributeValues": {":p": {"S": "a"}},
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}}})"),
            mix +
                "Non-expression parameters: {KeyConditions} Expression parameters: "
                "{KeyConditionExpression}");
  // KeyConditions goes with FilterExpression and ProjectionExpression.
  QueryRequest q = Ok(QueryRequestFromJson, R"({"TableName": "Tab",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "FilterExpression": "a = :v", "ProjectionExpression": "a",
      "ExpressionAttributeValues": {":v": {"S": "x"}}})");
  EXPECT_FALSE(q.expressions.parsed);
  EXPECT_EQ(q.expressions.filter, "a = :v");
  // The mixing error comes before the placeholder maps are checked.
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "ConditionalOperator": "AND",
      "FilterExpression": "a = :v", "ExpressionAttributeValues": {":v": {"S": "x"},
      ":unused": {"S": "y"}}})"),
            mix +
                "Non-expression parameters: {ConditionalOperator} Expression parameters: "
                "{FilterExpression}");
}

TEST(ApiJsonLegacyDecode, PlaceholderMapsWithoutExpressions) {
  const std::string names = "ExpressionAttributeNames can only be specified when using expressions";
  const std::string values =
      "ExpressionAttributeValues can only be specified when using expressions: ";
  // The single-item writes: enveloped, naming no expression.
  const std::string write_values =
      Env("ExpressionAttributeValues can only be specified when using expressions");
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            write_values);
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "Expected": {"a": {"Exists": false}}, "ExpressionAttributeNames": {"#a": "a"}})"),
            Env(names));
  EXPECT_EQ(Err(DeleteItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            write_values);
  EXPECT_EQ(Err(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"a": {"Value": {"S": "v"}}},
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            write_values);
  EXPECT_EQ(Err(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "ExpressionAttributeNames": {"#a": "a"}, "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            Env(names));
  EXPECT_EQ(Err(GetItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributesToGet": ["a"], "ExpressionAttributeNames": {"#a": "a"}})"),
            names);
  EXPECT_EQ(Err(BatchGetItemRequestFromJson, R"({"RequestItems": {"Tab": {
      "Keys": [{"pk": {"S": "a"}}], "ExpressionAttributeNames": {"#a": "a"}}}})"),
            names);
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab",
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            values + "FilterExpression is null");
  // A ProjectionExpression uses names, never values.
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "ProjectionExpression": "a",
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            values + "FilterExpression is null");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "ExpressionAttributeValues": {":v": {"S": "x"}}})"),
            values + "FilterExpression and KeyConditionExpression are null");
  // Before the missing key condition ([DL]).
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab",
      "ExpressionAttributeNames": {"#a": "a"}})"),
            names);
}

// ---- decoding: ConditionalOperator ----

TEST(ApiJsonLegacyDecode, ConditionalOperatorRules) {
  const std::string without = "ConditionalOperator cannot be used without Filter or Expected";
  const std::string two =
      "ConditionalOperator can only be used when Filter or Expected has two or more elements";
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "ConditionalOperator": "AND"})"),
            Env(without));
  EXPECT_EQ(Err(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "ConditionalOperator": "OR", "Expected": {}})"),
            Env(without));
  EXPECT_EQ(Err(DeleteItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "ConditionalOperator": "AND", "Expected": {"a": {"Exists": false}}})"),
            Env(two));
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "ConditionalOperator": "AND",
      "AttributesToGet": ["a"]})"),
            without);
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "ConditionalOperator": "AND",
      "ScanFilter": {"a": {"ComparisonOperator": "NULL"}}})"),
            two);
  // Before the missing key condition.
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab", "ConditionalOperator": "AND"})"),
            without);
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab", "ConditionalOperator": "OR",
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}},
      "QueryFilter": {"a": {"ComparisonOperator": "NULL"}}})"),
            two);
  // An unknown value, on its own and in DynamoDB's current words.
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab", "ConditionalOperator": "XOR",
      "Select": "BOGUS", "QueryFilter": {"b": {"ComparisonOperator": "NULL"},
      "c": {"ComparisonOperator": "NULL"}},
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}}})"),
            "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]");
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "ConditionalOperator": "and"})"),
            "Failed to satisfy constraint: Member must satisfy enum value set: [ALL, OR]");
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "ConditionalOperator": 1})"),
            "Invalid type for parameter ConditionalOperator, value: 1, type: number, valid "
            "types: string");
}

// ---- decoding: Expected ----

TEST(ApiJsonLegacyDecode, ExpectedMessages) {
  auto err = [](std::string_view expected) {
    return Unwrapped(Err(PutItemRequestFromJson, std::string(R"({"TableName": "Tab", "Item":
        {"pk": {"S": "a"}}, "Expected": )") + std::string(expected) +
                                                     "}"));
  };
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "Tab", "Item": {"pk": {"S": "a"}},
      "Expected": {"a": {}}})"),
            Env(Invalid("Value must be provided when Exists is null for Attribute: a")));
  EXPECT_EQ(err(R"({"a": {}})"),
            Invalid("Value must be provided when Exists is null for Attribute: a"));
  EXPECT_EQ(err(R"({"a": {"Exists": true}})"),
            Invalid("Value must be provided when Exists is true for Attribute: a"));
  EXPECT_EQ(err(R"({"a": {"Exists": false, "Value": {"S": "x"}}})"),
            Invalid("Value cannot be used when Exists is false for Attribute: a"));
  EXPECT_EQ(err(R"({"a": {"Exists": false, "ComparisonOperator": "EQ",
                         "AttributeValueList": [{"S": "x"}]}})"),
            Invalid("Exists and ComparisonOperator cannot be used together for Attribute: a"));
  EXPECT_EQ(err(R"({"a": {"Value": {"S": "x"}, "ComparisonOperator": "EQ",
                         "AttributeValueList": [{"S": "x"}]}})"),
            Invalid("Value and AttributeValueList cannot be used together for Attribute: a"));
  EXPECT_EQ(err(R"({"a": {"AttributeValueList": [{"S": "x"}]}})"),
            Invalid("AttributeValueList can only be used with a ComparisonOperator for "
                    "Attribute: a"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "GT"}})"),
            Invalid("Value or AttributeValueList must be used with ComparisonOperator: GT for "
                    "Attribute: a"));
  // NULL and NOT_NULL take no value; a Value counts as one.
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "NULL", "Value": {"S": "x"}}})"),
            Invalid("Invalid number of argument(s) for the NULL ComparisonOperator"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ",
                         "AttributeValueList": [{"S": "x"}, {"S": "y"}]}})"),
            Invalid("Invalid number of argument(s) for the EQ ComparisonOperator"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "IN", "AttributeValueList": []}})"),
            Invalid("Invalid number of argument(s) for the IN ComparisonOperator"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "IN",
                         "AttributeValueList": [{"N": "3"}, {"S": "dog"}]}})"),
            Invalid("AttributeValues inside AttributeValueList must be of same type"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"L": []}]}})"),
            Invalid("ComparisonOperator CONTAINS is not valid for L AttributeValue type"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "BEGINS_WITH", "Value": {"N": "3"}}})"),
            Invalid("ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "BETWEEN",
                         "AttributeValueList": [{"N": "4"}, {"N": "3"}]}})"),
            "The BETWEEN condition was provided a range where the lower bound is greater than "
            "the upper bound");
  EXPECT_EQ(err(R"({"a": {"Value": {"N": "x"}}})"),
            "The parameter cannot be converted to a numeric value: x");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"SS": []}]}})"),
            Invalid("An string set  may not be empty"));
  // Constraints: the operator enum, reported with the request's others.
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "eq", "Value": {"S": "x"}}})"),
            "1 validation error detected: Value 'eq' at 'expected.a.member.comparisonOperator' "
            "failed to satisfy constraint: Member must satisfy enum value set: [IN, NULL, "
            "BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
  EXPECT_EQ(err(R"({"a": {"Exists": "yes"}})"),
            "Invalid type for parameter Expected.a.Exists, value: \"yes\", type: string, valid "
            "types: boolean");
  EXPECT_EQ(err(R"({"a": {"Exist": false}})"),
            "Unknown parameter in Expected.a: \"Exist\", must be one of: AttributeValueList, "
            "ComparisonOperator, Exists, Value");
  EXPECT_EQ(err(R"({"a": {"Exists": false}, "a": {"Exists": false}})"),
            "Duplicate parameter in Expected: \"a\"");
  // EQ and NE compare documents and booleans too.
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "NE", "AttributeValueList": [{"M": {}}]}})"),
            "<decoded>");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"BOOL": true}]}})"),
            "<decoded>");
}

// ---- decoding: AttributeUpdates ----

TEST(ApiJsonLegacyDecode, AttributeUpdatesMessages) {
  auto err = [](std::string_view updates) {
    return Unwrapped(
        Err(UpdateItemRequestFromJson,
            std::string(R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}}, "AttributeUpdates": )") +
                std::string(updates) + "}"));
  };
  EXPECT_EQ(Err(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"a": {}}})"),
            Env(Invalid("Only DELETE action is allowed when no attribute value is specified")));
  EXPECT_EQ(err(R"({"a": {}})"),
            Invalid("Only DELETE action is allowed when no attribute value is specified"));
  EXPECT_EQ(err(R"({"a": {"Action": "ADD"}})"),
            Invalid("Only DELETE action is allowed when no attribute value is specified"));
  for (std::string_view t :
       {R"({"S": "x"})", R"({"N": "1"})", R"({"B": "YQ=="})", R"({"BOOL": true})",
        R"({"NULL": true})", R"({"M": {}})", R"({"L": []})"}) {
    std::string value(t);
    std::string type = value.substr(2, value.find('"', 2) - 2);
    EXPECT_EQ(err(R"({"a": {"Action": "DELETE", "Value": )" + value + "}}"),
              Invalid("DELETE action with value is not supported for the type " + type));
  }
  for (std::string_view t : {R"({"S": "x"})", R"({"B": "YQ=="})", R"({"BOOL": true})",
                             R"({"NULL": true})", R"({"M": {}})"}) {
    std::string value(t);
    std::string type = value.substr(2, value.find('"', 2) - 2);
    EXPECT_EQ(err(R"({"a": {"Action": "ADD", "Value": )" + value + "}}"),
              Invalid("ADD action is not supported for the type " + type));
  }
  EXPECT_EQ(err(R"({"a": {"Action": "PUT", "Value": {"NS": []}}})"),
            Invalid("An number set  may not be empty"));
  // The names an item may hold (as ValidateItem words it).
  EXPECT_EQ(err(R"({"": {"Value": {"S": "x"}}})"), Invalid("Empty attribute name"));
  EXPECT_EQ(err(R"({"a": {"Action": "REPLACE", "Value": {"S": "x"}}})"),
            "1 validation error detected: Value 'REPLACE' at 'attributeUpdates.a.member.action' "
            "failed to satisfy constraint: Member must satisfy enum value set: [ADD, PUT, "
            "DELETE]");
  // The updates are checked before Expected ([DL]).
  EXPECT_EQ(Err(UpdateItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "Expected": {"a": {}}, "AttributeUpdates": {"b": {"Action": "PUT"}}})"),
            Env(Invalid("Only DELETE action is allowed when no attribute value is specified")));
}

// ---- decoding: AttributesToGet and the filters ----

TEST(ApiJsonLegacyDecode, AttributesToGetMessages) {
  EXPECT_EQ(Err(GetItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributesToGet": ["a", "b", "a"]})"),
            Invalid("Duplicate value in attribute name: a"));
  EXPECT_EQ(Err(GetItemRequestFromJson, R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}},
      "AttributesToGet": []})"),
            "1 validation error detected: Value '[]' at 'attributesToGet' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1");
  EXPECT_EQ(Err(BatchGetItemRequestFromJson, R"({"RequestItems": {"Tab": {
      "Keys": [{"pk": {"S": "a"}}], "AttributesToGet": []}}})"),
            "1 validation error detected: Value '[]' at 'requestItems.Tab.member.attributesToGet' "
            "failed to satisfy constraint: Member must have length greater than or equal to 1");
  EXPECT_EQ(Err(BatchGetItemRequestFromJson, R"({"RequestItems": {"Tab": {
      "Keys": [{"pk": {"S": "a"}}], "AttributesToGet": ["x", "x"]}}})"),
            Invalid("Duplicate value in attribute name: x"));
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "AttributesToGet": ["a", 1]})"),
            "Invalid type for parameter AttributesToGet[1], value: 1, type: number, valid types: "
            "string");
  // Scan checks AttributesToGet before ScanFilter, Query after QueryFilter ([DL]).
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "Tab", "AttributesToGet": ["a", "a"],
      "ScanFilter": {"a": {"ComparisonOperator": "EQ"}}})"),
            Invalid("Duplicate value in attribute name: a"));
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab", "AttributesToGet": ["a", "a"],
      "QueryFilter": {"a": {"ComparisonOperator": "EQ"}},
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}}})"),
            Invalid("Invalid number of argument(s) for the EQ ComparisonOperator"));
}

TEST(ApiJsonLegacyDecode, FilterMessages) {
  auto err = [](std::string_view filter) {
    return Err(ScanRequestFromJson,
               std::string(R"({"TableName": "Tab", "ScanFilter": )") + std::string(filter) + "}");
  };
  for (std::string_view op : {"EQ", "NE", "LE", "LT", "GE", "GT", "CONTAINS", "NOT_CONTAINS",
                              "BEGINS_WITH", "IN", "BETWEEN"}) {
    EXPECT_EQ(err(R"({"a": {"ComparisonOperator": ")" + std::string(op) + R"("}})"),
              Invalid("Invalid number of argument(s) for the " + std::string(op) +
                      " ComparisonOperator"));
  }
  for (std::string_view op : {"NULL", "NOT_NULL"}) {
    EXPECT_EQ(err(R"({"a": {"ComparisonOperator": ")" + std::string(op) +
                  R"(", "AttributeValueList": [{"S": "a"}]}})"),
              Invalid("Invalid number of argument(s) for the " + std::string(op) +
                      " ComparisonOperator"));
  }
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "BETWEEN",
                         "AttributeValueList": [{"S": "a"}, {"S": "b"}, {"S": "c"}]}})"),
            Invalid("Invalid number of argument(s) for the BETWEEN ComparisonOperator"));
  for (std::string_view op : {"LT", "LE", "GT", "GE", "IN", "BETWEEN"}) {
    for (std::string_view v : {R"({"BOOL": true})", R"({"NULL": true})", R"({"SS": ["a"]})",
                               R"({"NS": ["1"]})", R"({"M": {}})", R"({"L": []})"}) {
      std::string value(v);
      std::string type = value.substr(2, value.find('"', 2) - 2);
      std::string list = "[" + value + (op == "BETWEEN" ? ", " + value : "") + "]";
      EXPECT_EQ(err(R"({"a": {"ComparisonOperator": ")" + std::string(op) +
                    R"(", "AttributeValueList": )" + list + "}}"),
                Invalid("ComparisonOperator " + std::string(op) + " is not valid for " + type +
                        " AttributeValue type"));
    }
  }
  for (std::string_view op : {"CONTAINS", "NOT_CONTAINS"}) {
    EXPECT_EQ(err(R"({"a": {"ComparisonOperator": ")" + std::string(op) +
                  R"(", "AttributeValueList": [{"BS": ["YQ=="]}]}})"),
              Invalid("ComparisonOperator " + std::string(op) +
                      " is not valid for BS AttributeValue type"));
  }
  EXPECT_EQ(
      err(R"({"a": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"N": "1"}]}})"),
      Invalid("ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type"));
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "BETWEEN",
                         "AttributeValueList": [{"S": "b"}, {"S": "a"}]}})"),
            "The BETWEEN condition was provided a range where the lower bound is greater than "
            "the upper bound");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "IN",
                         "AttributeValueList": [{"S": "b"}, {"N": "1"}]}})"),
            Invalid("AttributeValues inside AttributeValueList must be of same type"));
  EXPECT_EQ(err(R"({"a": {}, "b": {"ComparisonOperator": ""}})"),
            "2 validation errors detected: "
            "Value null at 'scanFilter.a.member.comparisonOperator' failed to satisfy "
            "constraint: Member must not be null; "
            "Value '' at 'scanFilter.b.member.comparisonOperator' failed to satisfy "
            "constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, "
            "NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Tab", "QueryFilter": {"a": {}},
      "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}}})"),
            "1 validation error detected: Value null at 'queryFilter.a.member.comparisonOperator' "
            "failed to satisfy constraint: Member must not be null");
  // EQ and NE take any type.
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"L": []}]}})"),
            "<decoded>");
}

// ---- end to end: api::Service over storage::Database ----

class ApiJsonLegacyService : public ::testing::Test {
 protected:
  void SetUp() override {
    // Tab (pk S, sk N) with GSI byG (g S); Hsh (pk S).
    Must("CreateTable", R"({"TableName": "Tab", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
          {"AttributeName": "sk", "AttributeType": "N"}, {"AttributeName": "g", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
          {"AttributeName": "sk", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g",
          "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]})");
    Must("CreateTable", R"({"TableName": "Hsh", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})");
  }

  // The response body, or "<ErrorName>: <message>".
  std::string Call(std::string_view op, std::string_view body) {
    Result<json::Value> r = service_.Call(op, J(body));
    if (!r.ok()) return std::string(ErrorName(r.status().code())) + ": " + r.status().message();
    return json::Write(*r);
  }
  void Must(std::string_view op, std::string_view body) {
    Result<json::Value> r = service_.Call(op, J(body));
    ASSERT_TRUE(r.ok()) << op << " " << body << " -> " << r.status().ToString();
  }
  std::string Get(std::string_view table_key) {
    return Call("GetItem", std::string(R"({"TableName": "Hsh", "Key": )") + std::string(table_key) +
                               R"(, "ConsistentRead": true})");
  }
  // A document with one attribute of each kind, as item "a" of H.
  void PutSample() {
    Must("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "a"}, "n": {"N": "5"},
        "s": {"S": "hello"}, "b": {"B": "aGkgdGhlcmU="}, "ss": {"SS": ["x", "y"]},
        "ns": {"NS": ["2", "4", "7"]}, "l": {"L": [{"N": "4"}, {"S": "two"}]},
        "m": {"M": {"k": {"N": "1"}}}, "t": {"BOOL": true}, "z": {"NULL": true}}})");
  }
  // Whether an UpdateItem of item "a" (ADD 1 to hits) passes `expected`: "pass", "fail" (a
  // ConditionalCheckFailedException), or the response.
  std::string Check(std::string_view expected, std::string_view op = "") {
    std::string body =
        std::string(R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
        "AttributeUpdates": {"hits": {"Action": "ADD", "Value": {"N": "1"}}}, "Expected": )") +
        std::string(expected) +
        (op.empty() ? "" : R"(, "ConditionalOperator": ")" + std::string(op) + "\"") + "}";
    std::string out = Call("UpdateItem", body);
    if (out == "{}") return "pass";
    if (out == "ConditionalCheckFailedException: The conditional request failed") return "fail";
    return out;
  }
  // One Expected condition on attribute `name` with `op` and an AttributeValueList.
  std::string CheckOp(std::string_view name, std::string_view op, std::string_view values) {
    return Check(std::string("{\"") + std::string(name) + R"(": {"ComparisonOperator": ")" +
                 std::string(op) + R"(", "AttributeValueList": )" + std::string(values) + "}}");
  }

  testing::TempDb db_;
  api::Service service_{*db_};
};

TEST_F(ApiJsonLegacyService, ExpectedEachOperator) {
  PutSample();
  // EQ: same type and value; sets in any order; documents; a missing attribute is not equal.
  EXPECT_EQ(CheckOp("n", "EQ", R"([{"N": "5"}])"), "pass");
  EXPECT_EQ(CheckOp("n", "EQ", R"([{"N": "6"}])"), "fail");
  EXPECT_EQ(CheckOp("n", "EQ", R"([{"S": "5"}])"), "fail");
  EXPECT_EQ(CheckOp("ns", "EQ", R"([{"NS": ["7", "2", "4"]}])"), "pass");
  EXPECT_EQ(CheckOp("l", "EQ", R"([{"L": [{"N": "4"}, {"S": "two"}]}])"), "pass");
  EXPECT_EQ(CheckOp("t", "EQ", R"([{"BOOL": true}])"), "pass");
  EXPECT_EQ(CheckOp("q", "EQ", R"([{"N": "5"}])"), "fail");
  // NE: a missing attribute or another type is "not equal".
  EXPECT_EQ(CheckOp("n", "NE", R"([{"N": "5"}])"), "fail");
  EXPECT_EQ(CheckOp("n", "NE", R"([{"N": "6"}])"), "pass");
  EXPECT_EQ(CheckOp("n", "NE", R"([{"S": "5"}])"), "pass");
  EXPECT_EQ(CheckOp("q", "NE", R"([{"N": "5"}])"), "pass");
  // Ordering operators on N, S and B; across types they are false.
  EXPECT_EQ(CheckOp("n", "LE", R"([{"N": "5"}])"), "pass");
  EXPECT_EQ(CheckOp("n", "LT", R"([{"N": "5"}])"), "fail");
  EXPECT_EQ(CheckOp("n", "GE", R"([{"N": "5"}])"), "pass");
  EXPECT_EQ(CheckOp("n", "GT", R"([{"N": "4.9"}])"), "pass");
  EXPECT_EQ(CheckOp("s", "LT", R"([{"S": "help"}])"), "pass");
  EXPECT_EQ(CheckOp("s", "GT", R"([{"S": "help"}])"), "fail");
  EXPECT_EQ(CheckOp("b", "GE", R"([{"B": "aGk="}])"), "pass");
  EXPECT_EQ(CheckOp("n", "LE", R"([{"S": "9"}])"), "fail");
  EXPECT_EQ(CheckOp("q", "LE", R"([{"N": "9"}])"), "fail");
  // NOT_NULL / NULL: whether the attribute exists (a NULL value exists).
  EXPECT_EQ(CheckOp("z", "NOT_NULL", "[]"), "pass");
  EXPECT_EQ(CheckOp("q", "NOT_NULL", "[]"), "fail");
  EXPECT_EQ(Check(R"({"q": {"ComparisonOperator": "NULL"}})"), "pass");
  EXPECT_EQ(Check(R"({"z": {"ComparisonOperator": "NULL"}})"), "fail");
  // CONTAINS: a substring of S or B, a member of a set or list.
  EXPECT_EQ(CheckOp("s", "CONTAINS", R"([{"S": "ell"}])"), "pass");
  EXPECT_EQ(CheckOp("s", "CONTAINS", R"([{"S": "dog"}])"), "fail");
  EXPECT_EQ(CheckOp("s", "CONTAINS", R"([{"N": "1"}])"), "fail");
  EXPECT_EQ(CheckOp("b", "CONTAINS", R"([{"B": "aGVyZQ=="}])"), "pass");
  EXPECT_EQ(CheckOp("ss", "CONTAINS", R"([{"S": "y"}])"), "pass");
  EXPECT_EQ(CheckOp("ns", "CONTAINS", R"([{"N": "4"}])"), "pass");
  EXPECT_EQ(CheckOp("ns", "CONTAINS", R"([{"N": "1"}])"), "fail");
  EXPECT_EQ(CheckOp("l", "CONTAINS", R"([{"N": "4"}])"), "pass");
  EXPECT_EQ(CheckOp("q", "CONTAINS", R"([{"N": "1"}])"), "fail");
  // NOT_CONTAINS: the complement where the attribute exists, false where it does not ([SC]).
  EXPECT_EQ(CheckOp("s", "NOT_CONTAINS", R"([{"S": "dog"}])"), "pass");
  EXPECT_EQ(CheckOp("s", "NOT_CONTAINS", R"([{"S": "ell"}])"), "fail");
  EXPECT_EQ(CheckOp("s", "NOT_CONTAINS", R"([{"N": "1"}])"), "pass");
  EXPECT_EQ(CheckOp("ns", "NOT_CONTAINS", R"([{"N": "4"}])"), "fail");
  EXPECT_EQ(CheckOp("l", "NOT_CONTAINS", R"([{"N": "1"}])"), "pass");
  EXPECT_EQ(CheckOp("q", "NOT_CONTAINS", R"([{"N": "1"}])"), "fail");
  // BEGINS_WITH: S or B prefixes; other attribute types are false.
  EXPECT_EQ(CheckOp("s", "BEGINS_WITH", R"([{"S": "hell"}])"), "pass");
  EXPECT_EQ(CheckOp("s", "BEGINS_WITH", R"([{"S": "ello"}])"), "fail");
  EXPECT_EQ(CheckOp("b", "BEGINS_WITH", R"([{"B": "aGk="}])"), "pass");
  EXPECT_EQ(CheckOp("n", "BEGINS_WITH", R"([{"S": "5"}])"), "fail");
  // IN: the attribute's value is one of the list (not a set's member).
  EXPECT_EQ(CheckOp("n", "IN", R"([{"N": "2"}, {"N": "5"}, {"N": "8"}])"), "pass");
  EXPECT_EQ(CheckOp("n", "IN", R"([{"N": "2"}, {"N": "8"}])"), "fail");
  EXPECT_EQ(CheckOp("ns", "IN", R"([{"N": "2"}, {"N": "4"}, {"N": "7"}])"), "fail");
  EXPECT_EQ(CheckOp("q", "IN", R"([{"N": "2"}])"), "fail");
  // BETWEEN: inclusive bounds of one type.
  EXPECT_EQ(CheckOp("n", "BETWEEN", R"([{"N": "1"}, {"N": "5"}])"), "pass");
  EXPECT_EQ(CheckOp("n", "BETWEEN", R"([{"N": "5"}, {"N": "9"}])"), "pass");
  EXPECT_EQ(CheckOp("n", "BETWEEN", R"([{"N": "6"}, {"N": "9"}])"), "fail");
  EXPECT_EQ(CheckOp("s", "BETWEEN", R"([{"S": "a"}, {"S": "z"}])"), "pass");
  EXPECT_EQ(CheckOp("ns", "BETWEEN", R"([{"N": "0"}, {"N": "9"}])"), "fail");
  EXPECT_EQ(CheckOp("q", "BETWEEN", R"([{"N": "0"}, {"N": "100"}])"), "fail");
  // Value and Exists.
  EXPECT_EQ(Check(R"({"n": {"Value": {"N": "5"}}})"), "pass");
  EXPECT_EQ(Check(R"({"n": {"Value": {"N": "6"}}})"), "fail");
  EXPECT_EQ(Check(R"({"q": {"Value": {"N": "5"}}})"), "fail");
  EXPECT_EQ(Check(R"({"n": {"Exists": true, "Value": {"N": "5"}}})"), "pass");
  EXPECT_EQ(Check(R"({"q": {"Exists": false}})"), "pass");
  EXPECT_EQ(Check(R"({"n": {"Exists": false}})"), "fail");
  // A ComparisonOperator with Value instead of AttributeValueList.
  EXPECT_EQ(Check(R"({"n": {"ComparisonOperator": "GT", "Value": {"N": "1"}}})"), "pass");
  // Several conditions: AND by default, or OR.
  EXPECT_EQ(Check(R"({"n": {"Value": {"N": "5"}}, "q": {"Exists": false}})"), "pass");
  EXPECT_EQ(Check(R"({"n": {"Value": {"N": "5"}}, "s": {"Exists": false}})", "AND"), "fail");
  EXPECT_EQ(Check(R"({"n": {"Value": {"N": "7"}}, "s": {"Exists": false}})", "OR"), "fail");
  EXPECT_EQ(Check(R"({"n": {"Value": {"N": "7"}}, "q": {"Exists": false}})", "OR"), "pass");
  // An empty Expected passes.
  EXPECT_EQ(Check("{}"), "pass");
  // Every passing check above added 1 to `hits`: none of the failing ones wrote anything.
  EXPECT_EQ(Call("GetItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "AttributesToGet": ["hits"]})"),
            R"({"Item":{"hits":{"N":"35"}}})");
}

TEST_F(ApiJsonLegacyService, ExpectedOnPutAndDeleteWithFailureReturnValues) {
  Must("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "a"}, "v": {"N": "1"}}})");
  EXPECT_EQ(Call("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "a"}, "v": {"N": "2"}},
      "Expected": {"v": {"Value": {"N": "1"}}}, "ReturnValues": "ALL_OLD"})"),
            R"({"Attributes":{"pk":{"S":"a"},"v":{"N":"1"}}})");
  // A failed Expected is a ConditionalCheckFailedException, with the item when asked for.
  Result<json::Value> r = service_.Call("PutItem", J(R"({"TableName": "Hsh",
      "Item": {"pk": {"S": "a"}, "v": {"N": "3"}}, "Expected": {"v": {"Value": {"N": "1"}}},
      "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(json::Write(ErrorToJson(r.status())),
            R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)"
            R"("message":"The conditional request failed","Item":{"pk":{"S":"a"},"v":{"N":"2"}}})");
  EXPECT_EQ(Call("DeleteItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "Expected": {"v": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "2"}]}}})"),
            "ConditionalCheckFailedException: The conditional request failed");
  EXPECT_EQ(
      Call("DeleteItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "Expected": {"v": {"ComparisonOperator": "LE", "AttributeValueList": [{"N": "2"}]}},
      "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"})"),
      R"({"Attributes":{"pk":{"S":"a"},"v":{"N":"2"}},)"
      R"("ConsumedCapacity":{"TableName":"Hsh","CapacityUnits":1.0,"WriteCapacityUnits":1.0}})");
  EXPECT_EQ(Get(R"({"pk": {"S": "a"}})"), "{}");
  // A missing item is an empty one: Exists false passes, a Value fails.
  EXPECT_EQ(Call("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "b"}},
      "Expected": {"pk": {"Exists": false}}})"),
            "{}");
  EXPECT_EQ(Call("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "c"}},
      "Expected": {"pk": {"Value": {"S": "c"}}}})"),
            "ConditionalCheckFailedException: The conditional request failed");
}

TEST_F(ApiJsonLegacyService, AttributeUpdatesEachAction) {
  // PUT (the default) creates the item; an empty AttributeUpdates creates a key-only one.
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"p": {"Value": {"S": "x"}}, "q": {"Action": "PUT",
      "Value": {"L": [{"N": "1"}]}}}, "ReturnValues": "ALL_NEW"})"),
            R"({"Attributes":{"p":{"S":"x"},"pk":{"S":"a"},"q":{"L":[{"N":"1"}]}}})");
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "k"}},
      "AttributeUpdates": {}})"),
            "{}");
  EXPECT_EQ(Get(R"({"pk": {"S": "k"}})"), R"({"Item":{"pk":{"S":"k"}}})");
  // ADD: numbers add (a missing one counts as 0), sets unite, lists append (a missing one
  // becomes the list, of any element types).
  Must("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "a"}, "n": {"N": "7"},
      "ss": {"SS": ["a", "b"]}, "l": {"L": [{"N": "1"}, {"N": "2"}]}}})");
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"n": {"Action": "ADD", "Value": {"N": "-3.5"}},
        "c": {"Action": "ADD", "Value": {"N": "2"}},
        "ss": {"Action": "ADD", "Value": {"SS": ["b", "c"]}},
        "ns": {"Action": "ADD", "Value": {"NS": ["7"]}},
        "l": {"Action": "ADD", "Value": {"L": [{"N": "3"}, {"N": "1"}]}},
        "l2": {"Action": "ADD", "Value": {"L": [{"S": "x"}, {"N": "3"}]}}},
      "ReturnValues": "UPDATED_NEW"})"),
            R"({"Attributes":{"c":{"N":"2"},"l":{"L":[{"N":"1"},{"N":"2"},{"N":"3"},{"N":"1"}]},)"
            R"("l2":{"L":[{"S":"x"},{"N":"3"}]},"n":{"N":"3.5"},"ns":{"NS":["7"]},)"
            R"("ss":{"SS":["a","b","c"]}}})");
  // DELETE: without a Value removes the attribute; with a set removes its members (all of
  // them: the attribute goes); a missing attribute or member is ignored.
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"n": {"Action": "DELETE"}, "gone": {"Action": "DELETE"},
        "ss": {"Action": "DELETE", "Value": {"SS": ["a", "z"]}},
        "ns": {"Action": "DELETE", "Value": {"NS": ["7"]}},
        "none": {"Action": "DELETE", "Value": {"NS": ["7"]}}},
      "ReturnValues": "UPDATED_OLD"})"),
            R"({"Attributes":{"n":{"N":"3.5"},"ns":{"NS":["7"]},"ss":{"SS":["a","b","c"]}}})");
  EXPECT_EQ(Get(R"({"pk": {"S": "a"}})"),
            R"({"Item":{"c":{"N":"2"},"l":{"L":[{"N":"1"},{"N":"2"},{"N":"3"},{"N":"1"}]},)"
            R"("l2":{"L":[{"S":"x"},{"N":"3"}]},"pk":{"S":"a"},"ss":{"SS":["b","c"]}}})");
  // ADD on a missing item creates it with the value.
  for (std::string_view v : {R"({"N": "3"})", R"({"NS": ["1", "2"]})", R"({"SS": ["a"]})",
                             R"({"BS": ["YQ=="]})", R"({"L": [{"N": "1"}]})"}) {
    Must("DeleteItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "new"}}})");
    EXPECT_EQ(Call("UpdateItem", std::string(R"({"TableName": "Hsh", "Key": {"pk": {"S": "new"}},
        "AttributeUpdates": {"a": {"Action": "ADD", "Value": )") +
                                     std::string(v) + "}}}"),
              "{}");
    EXPECT_EQ(Get(R"({"pk": {"S": "new"}})"),
              R"({"Item":{"a":)" + json::Write(J(v)) + R"(,"pk":{"S":"new"}}})");
  }
}

TEST_F(ApiJsonLegacyService, ManyAttributeUpdates) {
  // Many thousands of attributes in one request: their paths are checked for overlaps without
  // comparing every pair.
  std::string updates;
  for (int i = 0; i < 20000; ++i) {
    updates +=
        (i ? ", " : "") + std::string("\"a") + std::to_string(i) + R"(": {"Action": "DELETE"})";
  }
  Must("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "a"}, "a7": {"N": "1"}}})");
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "ReturnValues": "UPDATED_OLD", "AttributeUpdates": {)" +
                                   updates + "}}"),
            R"({"Attributes":{"a7":{"N":"1"}}})");
}

TEST_F(ApiJsonLegacyService, AttributeUpdatesTypeMismatchesAndKeys) {
  const std::string mismatch = "ValidationException: Type mismatch for attribute to update";
  Must("PutItem", R"({"TableName": "Hsh", "Item": {"pk": {"S": "a"}, "n": {"N": "2"},
      "ss": {"SS": ["dog"]}, "l": {"L": [{"S": "dog"}]}, "s": {"S": "x"}}})");
  auto update = [&](std::string_view name, std::string_view action, std::string_view value) {
    return Call("UpdateItem", std::string(R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
        "AttributeUpdates": {")") +
                                  std::string(name) + R"(": {"Action": ")" + std::string(action) +
                                  R"(", "Value": )" + std::string(value) + "}}}");
  };
  EXPECT_EQ(update("ss", "ADD", R"({"N": "2"})"), mismatch);
  EXPECT_EQ(update("ss", "ADD", R"({"L": [{"S": "cat"}]})"), mismatch);
  EXPECT_EQ(update("ss", "ADD", R"({"NS": ["1"]})"), mismatch);
  EXPECT_EQ(update("l", "ADD", R"({"SS": ["cat"]})"), mismatch);
  EXPECT_EQ(update("l", "ADD", R"({"N": "3"})"), mismatch);
  EXPECT_EQ(update("n", "ADD", R"({"L": [{"S": "dog"}]})"), mismatch);
  EXPECT_EQ(update("n", "ADD", R"({"SS": ["dog"]})"), mismatch);
  EXPECT_EQ(update("s", "ADD", R"({"L": [{"S": "dog"}]})"), mismatch);
  EXPECT_EQ(update("n", "DELETE", R"({"NS": ["2"]})"), mismatch);
  EXPECT_EQ(update("ss", "DELETE", R"({"NS": ["2"]})"), mismatch);
  // The UpdateExpression keeps its own words for the same conflict.
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "UpdateExpression": "ADD ss :n", "ExpressionAttributeValues": {":n": {"N": "2"}}})"),
            "ValidationException: An operand in the update expression has an incorrect data "
            "type");
  // A key attribute, with DynamoDB's key message.
  EXPECT_EQ(update("pk", "PUT", R"({"S": "b"})"),
            "ValidationException: " +
                Invalid("Cannot update attribute pk. This attribute is part of the key"));
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}},
      "AttributeUpdates": {"sk": {"Action": "DELETE"}}})"),
            "ValidationException: " +
                Invalid("Cannot update attribute sk. This attribute is part of the key"));
  // An index key of the wrong type.
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Tab", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}},
      "AttributeUpdates": {"g": {"Value": {"N": "1"}}}})"),
            "ValidationException: " +
                Invalid("Type mismatch for Index Key g Expected: S Actual: N IndexName: byG"));
  // Nothing above changed the item.
  EXPECT_EQ(Get(R"({"pk": {"S": "a"}})"),
            R"({"Item":{"l":{"L":[{"S":"dog"}]},"n":{"N":"2"},"pk":{"S":"a"},"s":{"S":"x"},)"
            R"("ss":{"SS":["dog"]}}})");
}

TEST_F(ApiJsonLegacyService, UpdateWithExpectedAndCapacity) {
  EXPECT_EQ(
      Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"v": {"Value": {"N": "1"}}}, "Expected": {"v": {"Exists": false}},
      "ReturnConsumedCapacity": "TOTAL", "ReturnValues": "UPDATED_NEW"})"),
      R"({"Attributes":{"v":{"N":"1"}},)"
      R"("ConsumedCapacity":{"TableName":"Hsh","CapacityUnits":1.0,"WriteCapacityUnits":1.0}})");
  EXPECT_EQ(Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "AttributeUpdates": {"v": {"Value": {"N": "2"}}}, "Expected": {"v": {"Exists": false}}})"),
            "ConditionalCheckFailedException: The conditional request failed");
  // The same through the expression forms costs the same.
  EXPECT_EQ(
      Call("UpdateItem", R"({"TableName": "Hsh", "Key": {"pk": {"S": "a"}},
      "UpdateExpression": "SET v = :v", "ConditionExpression": "attribute_exists(v) ",
      "ExpressionAttributeValues": {":v": {"N": "3"}}, "ReturnConsumedCapacity": "TOTAL"})"),
      R"({"ConsumedCapacity":{"TableName":"Hsh","CapacityUnits":1.0,"WriteCapacityUnits":1.0}})");
}

TEST_F(ApiJsonLegacyService, FiltersEachOperator) {
  Must("PutItem", R"({"TableName": "Tab", "Item": {"pk": {"S": "p"}, "sk": {"N": "1"},
      "a": {"N": "1"}, "s": {"S": "apple"}, "tags": {"SS": ["red"]}}})");
  Must("PutItem", R"({"TableName": "Tab", "Item": {"pk": {"S": "p"}, "sk": {"N": "2"},
      "a": {"N": "2"}, "s": {"S": "banana"}, "tags": {"SS": ["green", "red"]}}})");
  Must("PutItem", R"({"TableName": "Tab", "Item": {"pk": {"S": "p"}, "sk": {"N": "3"},
      "a": {"S": "3"}, "l": {"L": [{"S": "red"}]}}})");
  Must("PutItem", R"({"TableName": "Tab", "Item": {"pk": {"S": "p"}, "sk": {"N": "4"}}})");
  // The sort keys a QueryFilter keeps, and the counts.
  auto query = [&](std::string_view filter, std::string_view op = "") {
    std::string out = Call(
        "Query", std::string(R"({"TableName": "Tab", "KeyConditions": {"pk":
        {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "p"}]}},
        "AttributesToGet": ["sk"], "QueryFilter": )") +
                     std::string(filter) +
                     (op.empty() ? "" : R"(, "ConditionalOperator": ")" + std::string(op) + "\"") +
                     "}");
    return out;
  };
  auto keys = [&](std::string_view filter, std::string_view op = "") {
    Result<json::Value> v = json::Parse(query(filter, op));
    if (!v.ok() || !v->Find("Items")) return query(filter, op);
    std::string out;
    for (const json::Value& item : v->Find("Items")->array()) {
      out += (out.empty() ? "" : ",") + item.Find("sk")->Find("N")->str();
    }
    return out;
  };
  auto cond = [](std::string_view name, std::string_view op, std::string_view values) {
    return std::string("{\"") + std::string(name) + R"(": {"ComparisonOperator": ")" +
           std::string(op) + R"(", "AttributeValueList": )" + std::string(values) + "}}";
  };
  EXPECT_EQ(query(cond("a", "EQ", R"([{"N": "2"}])")),
            R"({"Items":[{"sk":{"N":"2"}}],"Count":1,"ScannedCount":4})");
  EXPECT_EQ(keys(cond("a", "NE", R"([{"N": "2"}])")), "1,3,4");
  EXPECT_EQ(keys(cond("a", "LE", R"([{"N": "1"}])")), "1");
  EXPECT_EQ(keys(cond("a", "LT", R"([{"N": "2"}])")), "1");
  EXPECT_EQ(keys(cond("a", "GE", R"([{"N": "1"}])")), "1,2");
  EXPECT_EQ(keys(cond("a", "GT", R"([{"S": "2"}])")), "3");
  EXPECT_EQ(keys(cond("a", "NOT_NULL", "[]")), "1,2,3");
  EXPECT_EQ(keys(cond("a", "NULL", "[]")), "4");
  EXPECT_EQ(keys(cond("tags", "CONTAINS", R"([{"S": "green"}])")), "2");
  EXPECT_EQ(keys(cond("s", "CONTAINS", R"([{"S": "an"}])")), "2");
  EXPECT_EQ(keys(cond("l", "CONTAINS", R"([{"S": "red"}])")), "3");
  EXPECT_EQ(keys(cond("tags", "NOT_CONTAINS", R"([{"S": "green"}])")), "1");
  EXPECT_EQ(keys(cond("s", "BEGINS_WITH", R"([{"S": "ba"}])")), "2");
  EXPECT_EQ(keys(cond("a", "IN", R"([{"N": "1"}, {"N": "2"}, {"N": "3"}])")), "1,2");
  // More values than an expression's IN takes (100).
  std::string many = "[";
  for (int i = 100; i < 250; ++i) many += R"({"N": ")" + std::to_string(i) + R"("}, )";
  EXPECT_EQ(keys(cond("a", "IN", many + R"({"N": "2"}])")), "2");
  EXPECT_EQ(keys(cond("a", "BETWEEN", R"([{"N": "2"}, {"N": "9"}])")), "2");
  // AND by default; OR with ConditionalOperator.
  std::string two = R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]},
      "s": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "b"}]}})";
  EXPECT_EQ(keys(two), "");
  EXPECT_EQ(keys(two, "AND"), "");
  EXPECT_EQ(keys(two, "OR"), "1,2");
  // An empty QueryFilter keeps everything.
  EXPECT_EQ(keys("{}"), "1,2,3,4");
  // A QueryFilter may not name a key attribute, of the table or of the index queried.
  EXPECT_EQ(query(cond("sk", "EQ", R"([{"N": "1"}])")),
            "ValidationException: QueryFilter can only contain non-primary key attributes: "
            "Primary key attribute: sk");
  EXPECT_EQ(Call("Query", R"({"TableName": "Tab", "IndexName": "byG", "KeyConditions": {"g":
      {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}},
      "QueryFilter": {"g": {"ComparisonOperator": "NULL"}}})"),
            "ValidationException: QueryFilter can only contain non-primary key attributes: "
            "Primary key attribute: g");
  // ScanFilter: the same operators over the table.
  auto scan = [&](std::string_view filter) {
    Result<json::Value> v = json::Parse(Call("Scan", std::string(R"({"TableName": "Tab",
        "ScanFilter": )") + std::string(filter) + "}"));
    if (!v.ok() || !v->Find("Items")) return std::string("error");
    std::string out;
    std::vector<std::string> sks;
    for (const json::Value& item : v->Find("Items")->array()) {
      sks.push_back(item.Find("sk")->Find("N")->str());
    }
    std::sort(sks.begin(), sks.end());
    for (const std::string& k : sks) out += (out.empty() ? "" : ",") + k;
    return out + " of " + v->Find("ScannedCount")->number_text();
  };
  EXPECT_EQ(scan(cond("a", "NE", R"([{"N": "2"}])")), "1,3,4 of 4");
  EXPECT_EQ(scan(cond("tags", "NOT_CONTAINS", R"([{"S": "green"}])")), "1 of 4");
  EXPECT_EQ(scan(cond("a", "NULL", "[]")), "4 of 4");
  // Unlike a QueryFilter, a ScanFilter may name the keys.
  EXPECT_EQ(scan(cond("sk", "BETWEEN", R"([{"N": "2"}, {"N": "3"}])")), "2,3 of 4");
}

// An AttributeValueList for IN takes the 27,500 values DynamoDB accepted, past an expression's
// 100 operands and 300 operators.
TEST_F(ApiJsonLegacyService, InTakesAsManyValuesAsDynamoDbAccepted) {
  PutSample();
  std::string values = R"({"N": "5"})";
  for (int i = 100; i < 100 + 27499; ++i) values += R"(, {"N": ")" + std::to_string(i) + "\"}";
  EXPECT_EQ(Call("Scan", R"({"TableName": "Hsh", "Select": "COUNT", "ScanFilter": {"n":
      {"ComparisonOperator": "IN", "AttributeValueList": [)" +
                             values + "]}}}"),
            R"({"Count":1,"ScannedCount":1})");
}

TEST_F(ApiJsonLegacyService, AttributesToGetOnEveryRead) {
  Must("PutItem", R"({"TableName": "Tab", "Item": {"pk": {"S": "p"}, "sk": {"N": "1"},
      "a": {"S": "x"}, "b": {"S": "y"}, "c.d": {"S": "dotted"}}})");
  // GetItem: the named attributes only, keys included only when named; a name with a dot is
  // one attribute; an item with none of them is {}.
  EXPECT_EQ(Call("GetItem", R"({"TableName": "Tab", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
      "AttributesToGet": ["sk", "a", "c.d", "nope"]})"),
            R"({"Item":{"a":{"S":"x"},"c.d":{"S":"dotted"},"sk":{"N":"1"}}})");
  EXPECT_EQ(Call("GetItem", R"({"TableName": "Tab", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
      "AttributesToGet": ["nope"]})"),
            R"({"Item":{}})");
  // Query and Scan, with and without Select SPECIFIC_ATTRIBUTES.
  EXPECT_EQ(Call("Query", R"({"TableName": "Tab", "KeyConditions": {"pk": {"ComparisonOperator":
      "EQ", "AttributeValueList": [{"S": "p"}]}}, "AttributesToGet": ["b"],
      "Select": "SPECIFIC_ATTRIBUTES"})"),
            R"({"Items":[{"b":{"S":"y"}}],"Count":1,"ScannedCount":1})");
  EXPECT_EQ(Call("Scan", R"({"TableName": "Tab", "AttributesToGet": ["a", "pk"]})"),
            R"({"Items":[{"a":{"S":"x"},"pk":{"S":"p"}}],"Count":1,"ScannedCount":1})");
  // A filter may read attributes the projection leaves out ([SC] issue #6951).
  EXPECT_EQ(Call("Scan", R"({"TableName": "Tab", "AttributesToGet": ["b"],
      "ScanFilter": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}}})"),
            R"({"Items":[{"b":{"S":"y"}}],"Count":1,"ScannedCount":1})");
  // BatchGetItem, per table; UnprocessedKeys would carry AttributesToGet as sent.
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"Tab": {"Keys": [{"pk": {"S": "p"},
      "sk": {"N": "1"}}], "AttributesToGet": ["a"]}}})"),
            R"({"Responses":{"Tab":[{"a":{"S":"x"}}]},"UnprocessedKeys":{}})");
  // Select other than SPECIFIC_ATTRIBUTES names AttributesToGet.
  EXPECT_EQ(Call("Scan", R"({"TableName": "Tab", "AttributesToGet": ["a"], "Select": "COUNT"})"),
            "ValidationException: Cannot specify the AttributesToGet when choosing to get only "
            "the Count");
  EXPECT_EQ(Call("Query", R"({"TableName": "Tab", "KeyConditions": {"pk": {"ComparisonOperator":
      "EQ", "AttributeValueList": [{"S": "p"}]}}, "AttributesToGet": ["b"],
      "Select": "ALL_ATTRIBUTES"})"),
            "ValidationException: 1 validation error detected: Cannot specify the "
            "AttributesToGet when choosing to get ALL_ATTRIBUTES");
  EXPECT_EQ(Call("Scan", R"({"TableName": "Tab", "Select": "SPECIFIC_ATTRIBUTES"})"),
            "ValidationException: Must specify the AttributesToGet or ProjectionExpression when "
            "choosing to get SPECIFIC_ATTRIBUTES");
}

TEST_F(ApiJsonLegacyService, ErrorsComeBeforeTheTable) {
  // Request rules come before the table is looked up.
  EXPECT_EQ(Call("PutItem", R"({"TableName": "Nope", "Item": {"pk": {"S": "a"}},
      "Expected": {"a": {"Exists": true}}})"),
            "ValidationException: " +
                Env(Invalid("Value must be provided when Exists is true for Attribute: a")));
  EXPECT_EQ(Call("PutItem", R"({"TableName": "Nope", "Item": {"pk": {"S": "a"}},
      "Expected": {"a": {"Exists": false}}})"),
            "ResourceNotFoundException: Requested resource not found");
}

}  // namespace
}  // namespace keyhole
