// Tests for api/api_json.h: DynamoDB JSON requests -> operation structs (with DynamoDB's
// validation messages) and responses -> DynamoDB JSON.
#include "api/api_json.h"

#include <gtest/gtest.h>

#include "api_json_test_util.h"

#include <set>
#include <string>
#include <utility>

#include "api/service.h"
#include "core/ddb_json.h"
#include "core/item.h"
#include "core/item_codec.h"

namespace keyhole {
namespace {

using testing::Err;
using testing::ItemOf;
using testing::J;
using testing::Ok;

// ---- CreateTable ----

TEST(ApiJsonCreateTable, ProvisionedExample) {
  // aws dynamodb create-table --cli-input-json (AWS CLI reference example).
  CreateTableRequest r = Ok(CreateTableRequestFromJson, R"({
    "AttributeDefinitions": [
      {"AttributeName": "Artist", "AttributeType": "S"},
      {"AttributeName": "SongTitle", "AttributeType": "S"}
    ],
    "KeySchema": [
      {"AttributeName": "Artist", "KeyType": "HASH"},
      {"AttributeName": "SongTitle", "KeyType": "RANGE"}
    ],
    "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 10},
    "TableName": "MusicCollection"
  })");
  EXPECT_EQ(r.table_name, "MusicCollection");
  ASSERT_EQ(r.attribute_definitions.size(), 2u);
  EXPECT_EQ(r.attribute_definitions[1].name, "SongTitle");
  EXPECT_EQ(r.attribute_definitions[1].type, "S");
  ASSERT_EQ(r.key_schema.size(), 2u);
  EXPECT_EQ(r.key_schema[0].name, "Artist");
  EXPECT_EQ(r.key_schema[0].key_type, "HASH");
  EXPECT_EQ(r.key_schema[1].key_type, "RANGE");
  EXPECT_EQ(r.billing_mode, "PROVISIONED");  // the API's default
  EXPECT_EQ(r.read_capacity_units, 5);
  EXPECT_EQ(r.write_capacity_units, 10);
  EXPECT_TRUE(r.global_secondary_indexes.empty());
}

TEST(ApiJsonCreateTable, OnDemandWithIndexes) {
  CreateTableRequest r = Ok(CreateTableRequestFromJson, R"({
    "TableName": "GameScores",
    "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [
      {"AttributeName": "UserId", "AttributeType": "S"},
      {"AttributeName": "GameTitle", "AttributeType": "S"},
      {"AttributeName": "TopScore", "AttributeType": "N"}
    ],
    "KeySchema": [
      {"AttributeName": "UserId", "KeyType": "HASH"},
      {"AttributeName": "GameTitle", "KeyType": "RANGE"}
    ],
    "GlobalSecondaryIndexes": [{
      "IndexName": "GameTitleIndex",
      "KeySchema": [
        {"AttributeName": "GameTitle", "KeyType": "HASH"},
        {"AttributeName": "TopScore", "KeyType": "RANGE"}
      ],
      "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["UserId", "Wins"]}
    }],
    "LocalSecondaryIndexes": [{
      "IndexName": "UserTopScore",
      "KeySchema": [
        {"AttributeName": "UserId", "KeyType": "HASH"},
        {"AttributeName": "TopScore", "KeyType": "RANGE"}
      ],
      "Projection": {"ProjectionType": "KEYS_ONLY"}
    }]
  })");
  EXPECT_EQ(r.billing_mode, "PAY_PER_REQUEST");
  EXPECT_FALSE(r.read_capacity_units);
  ASSERT_EQ(r.global_secondary_indexes.size(), 1u);
  const IndexSpec& g = r.global_secondary_indexes[0];
  EXPECT_EQ(g.name, "GameTitleIndex");
  EXPECT_EQ(g.key_schema[1].name, "TopScore");
  EXPECT_EQ(g.projection_type, "INCLUDE");
  EXPECT_EQ(g.non_key_attributes, (std::vector<std::string>{"UserId", "Wins"}));
  ASSERT_EQ(r.local_secondary_indexes.size(), 1u);
  EXPECT_EQ(r.local_secondary_indexes[0].projection_type, "KEYS_ONLY");
  EXPECT_FALSE(r.local_secondary_indexes[0].non_key_attributes);
}

TEST(ApiJsonCreateTable, ProvisionedIndexThroughput) {
  // A GSI's ProvisionedThroughput is validated, required when PROVISIONED, and dropped.
  CreateTableRequest r = Ok(CreateTableRequestFromJson, R"({
    "TableName": "Thread",
    "AttributeDefinitions": [{"AttributeName": "Id", "AttributeType": "S"},
                             {"AttributeName": "Forum", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "Id", "KeyType": "HASH"}],
    "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
    "GlobalSecondaryIndexes": [{
      "IndexName": "ByForum",
      "KeySchema": [{"AttributeName": "Forum", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "ALL"},
      "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 3}
    }]
  })");
  ASSERT_EQ(r.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(r.global_secondary_indexes[0].projection_type, "ALL");

  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "Thread",
    "AttributeDefinitions": [{"AttributeName": "Id", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "Id", "KeyType": "HASH"}],
    "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
    "GlobalSecondaryIndexes": [{"IndexName": "ByForum",
      "KeySchema": [{"AttributeName": "Id", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "ALL"}}]
  })"),
            "One or more parameter values were invalid: ProvisionedThroughput is not specified "
            "for index: ByForum");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "Thread", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "Id", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "Id", "KeyType": "HASH"}],
    "GlobalSecondaryIndexes": [{"IndexName": "ByForum",
      "KeySchema": [{"AttributeName": "Id", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "ALL"},
      "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 3}}]
  })"),
            "One or more parameter values were invalid: ProvisionedThroughput should not be "
            "specified for index: ByForum when BillingMode is PAY_PER_REQUEST");
}

TEST(ApiJsonCreateTable, RequiredMembers) {
  // A missing TableName is DynamoDB's "required" text, before the constraints (dynalite's
  // createTable checks, run against AWS).
  EXPECT_EQ(Err(CreateTableRequestFromJson, "{}"),
            "The parameter 'TableName' is required but was not present in the request");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc"})"),
            "2 validation errors detected: "
            "Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not "
            "be null; "
            "Value null at 'keySchema' failed to satisfy constraint: Member must not be null");
  // Explicit null reads as absent.
  EXPECT_EQ(Err(CreateTableRequestFromJson,
                R"({"TableName": null, "AttributeDefinitions": [], "KeySchema": []})"),
            "The parameter 'TableName' is required but was not present in the request");
}

TEST(ApiJsonCreateTable, MemberConstraints) {
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "",
    "BillingMode": "ON_DEMAND",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "X"}, {}],
    "KeySchema": [{"AttributeName": "a", "KeyType": "PRIMARY"}]
  })"),
            "7 validation errors detected: "
            "Value 'X' at 'attributeDefinitions.1.member.attributeType' failed to satisfy "
            "constraint: Member must satisfy enum value set: [B, N, S]; "
            "Value null at 'attributeDefinitions.2.member.attributeName' failed to satisfy "
            "constraint: Member must not be null; "
            "Value null at 'attributeDefinitions.2.member.attributeType' failed to satisfy "
            "constraint: Member must not be null; "
            "Value '' at 'tableName' failed to satisfy constraint: Member must satisfy regular "
            "expression pattern: [a-zA-Z0-9_.-]+; "
            "Value '' at 'tableName' failed to satisfy constraint: Member must have length "
            "greater than or equal to 3; "
            "Value 'PRIMARY' at 'keySchema.1.member.keyType' failed to satisfy constraint: "
            "Member must satisfy enum value set: [HASH, RANGE]; "
            "Value 'ON_DEMAND' at 'billingMode' failed to satisfy constraint: Member must "
            "satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
}

TEST(ApiJsonCreateTable, KeySchemaAndIndexConstraints) {
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "abc",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType":
      "RANGE"}, {"AttributeName": "c", "KeyType": "RANGE"}]
  })"),
            "1 validation error detected: Value '[KeySchemaElement(attributeName=a, "
            "keyType=HASH), KeySchemaElement(attributeName=b, keyType=RANGE), "
            "KeySchemaElement(attributeName=c, keyType=RANGE)]' at 'keySchema' failed to satisfy "
            "constraint: Member must have length less than or equal to 2");
  std::string long_name(256, 'k');
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "abc",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": ")" + long_name +
                                                R"(", "KeyType": "HASH"}]
  })"),
            "1 validation error detected: Value '" + long_name +
                "' at 'keySchema.1.member.attributeName' failed to satisfy constraint: Member "
                "must have length less than or equal to 255");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "abc", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
    "GlobalSecondaryIndexes": [{"IndexName": "ix", "KeySchema": [],
      "Projection": {"ProjectionType": "SOME", "NonKeyAttributes": []}}, {}]
  })"),
            "7 validation errors detected: "
            "Value 'ix' at 'globalSecondaryIndexes.1.member.indexName' failed to satisfy "
            "constraint: Member must have length greater than or equal to 3; "
            "Value '[]' at 'globalSecondaryIndexes.1.member.keySchema' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1; "
            "Value 'SOME' at 'globalSecondaryIndexes.1.member.projection.projectionType' failed "
            "to satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, "
            "KEYS_ONLY]; "
            "Value '[]' at 'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed "
            "to satisfy constraint: Member must have length greater than or equal to 1; "
            "Value null at 'globalSecondaryIndexes.2.member.indexName' failed to satisfy "
            "constraint: Member must not be null; "
            "Value null at 'globalSecondaryIndexes.2.member.keySchema' failed to satisfy "
            "constraint: Member must not be null; "
            "Value null at 'globalSecondaryIndexes.2.member.projection' failed to satisfy "
            "constraint: Member must not be null");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "abc",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
    "ProvisionedThroughput": {"ReadCapacityUnits": 0}
  })"),
            "2 validation errors detected: "
            "Value '0' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1; "
            "Value null at 'provisionedThroughput.writeCapacityUnits' failed to satisfy "
            "constraint: Member must not be null");
}

TEST(ApiJsonCreateTable, NonKeyAttributeLimit) {
  std::string names;
  for (int i = 0; i < 21; ++i) names += (i ? ", \"a" : "\"a") + std::to_string(i) + "\"";
  std::string shown = "[a0";
  for (int i = 1; i < 21; ++i) shown += ", a" + std::to_string(i);
  shown += "]";
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({
    "TableName": "abc", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
    "GlobalSecondaryIndexes": [{"IndexName": "idx", "KeySchema": [{"AttributeName": "a",
      "KeyType": "HASH"}], "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": [)" +
                                                names + "]}}]}"),
            "1 validation error detected: Value '" + shown +
                "' at 'globalSecondaryIndexes.1.member.projection.nonKeyAttributes' failed to "
                "satisfy constraint: Member must have length less than or equal to 20");
}

TEST(ApiJsonCreateTable, EmptyIndexLists) {
  const std::string base = R"("TableName": "abc", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}])";
  EXPECT_EQ(Err(CreateTableRequestFromJson, "{" + base + R"(, "GlobalSecondaryIndexes": []})"),
            "One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty");
  EXPECT_EQ(Err(CreateTableRequestFromJson, "{" + base + R"(, "LocalSecondaryIndexes": []})"),
            "One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
}

TEST(ApiJsonCreateTable, UnknownAndUnsupportedMembers) {
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc", "Foo": 1})"),
            "Unknown parameter in input: \"Foo\", must be one of: AttributeDefinitions, "
            "TableName, KeySchema, LocalSecondaryIndexes, GlobalSecondaryIndexes, BillingMode, "
            "ProvisionedThroughput, StreamSpecification, SSESpecification, Tags, TableClass, "
            "DeletionProtectionEnabled, WarmThroughput, ResourcePolicy, OnDemandThroughput, "
            "VectorIndexes");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc",
      "KeySchema": [{"AttributeName": "a", "KeyType": "HASH", "Type": "S"}]})"),
            "Unknown parameter in KeySchema[0]: \"Type\", must be one of: AttributeName, KeyType");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc", "SSESpecification":
      {"Enabled": true, "Kms": "x"}})"),
            "Unknown parameter in SSESpecification: \"Kms\", must be one of: Enabled, SSEType, "
            "KMSMasterKeyId");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc", "Tags": [{"Key": "k",
      "Value": "v", "X": 1}]})"),
            "Unknown parameter in Tags[0]: \"X\", must be one of: Key, Value");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc",
      "GlobalSecondaryIndexes": [{"IndexName": "idx", "OnDemandThroughput": {"Max": 1}}]})"),
            "Unknown parameter in GlobalSecondaryIndexes[0].OnDemandThroughput: \"Max\", must be "
            "one of: MaxReadRequestUnits, MaxWriteRequestUnits");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc",
      "WarmThroughput": {"ReadUnitsPerSecond": "many"}})"),
            "Invalid type for parameter WarmThroughput.ReadUnitsPerSecond, value: \"many\", type: "
            "string, valid types: integer (64-bit)");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": "abc", "TableName": "abd"})"),
            "Duplicate parameter in input: \"TableName\"");
}

TEST(ApiJsonCreateTable, JsonTypes) {
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"TableName": 5})"),
            "Invalid type for parameter TableName, value: 5, type: number, valid types: string");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"KeySchema": {"a": 1}})"),
            "Invalid type for parameter KeySchema, value: {\"a\":1}, type: object, valid types: "
            "array");
  EXPECT_EQ(Err(CreateTableRequestFromJson, R"({"KeySchema": ["a"]})"),
            "Invalid type for parameter KeySchema[0], value: \"a\", type: string, valid types: "
            "object");
  EXPECT_EQ(
      Err(CreateTableRequestFromJson, R"({"ProvisionedThroughput": {"ReadCapacityUnits": 1.5}})"),
      "Invalid type for parameter ProvisionedThroughput.ReadCapacityUnits, value: 1.5, "
      "type: number, valid types: integer (64-bit)");
  EXPECT_EQ(Err(CreateTableRequestFromJson, "[]"),
            "The request body must be a JSON object, not array");
}

// ---- DeleteTable, DescribeTable, ListTables ----

TEST(ApiJsonTables, DeleteAndDescribe) {
  EXPECT_EQ(Ok(DeleteTableRequestFromJson, R"({"TableName": "Music"})").table_name, "Music");
  EXPECT_EQ(Ok(DescribeTableRequestFromJson, R"({"TableName": "Music"})").table_name, "Music");
  // DynamoDB's words for a missing TableName here are CreateTable's (issue 30, the Parity
  // Suite's record).
  EXPECT_EQ(Err(DescribeTableRequestFromJson, "{}"),
            "The parameter 'TableName' is required but was not present in the request");
  EXPECT_EQ(Ok(DescribeTableRequestFromJson,
               R"({"TableName": "arn:aws:dynamodb:local:000000000000:table/Music"})")
                .table_name,
            "Music");
  EXPECT_EQ(Err(DeleteTableRequestFromJson, R"({"TableName": "a;"})"),
            "2 validation errors detected: "
            "Value 'a;' at 'tableName' failed to satisfy constraint: Member must satisfy regular "
            "expression pattern: [a-zA-Z0-9_.-]+; "
            "Value 'a;' at 'tableName' failed to satisfy constraint: Member must have length "
            "greater than or equal to 3");
  EXPECT_EQ(Err(DescribeTableRequestFromJson, R"({"TableName": "Music", "IndexName": "x"})"),
            "Unknown parameter in input: \"IndexName\", must be one of: TableName");
}

TEST(ApiJsonTables, ListTables) {
  ListTablesRequest r =
      Ok(ListTablesRequestFromJson, R"({"ExclusiveStartTableName": "Forum", "Limit": 3})");
  EXPECT_EQ(r.exclusive_start_table_name, "Forum");
  EXPECT_EQ(r.limit, 3);
  ListTablesRequest empty = Ok(ListTablesRequestFromJson, "{}");
  EXPECT_FALSE(empty.limit);
  EXPECT_FALSE(empty.exclusive_start_table_name);
  EXPECT_EQ(Err(ListTablesRequestFromJson, R"({"Limit": 0})"),
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
            "Member must have value greater than or equal to 1");
  EXPECT_EQ(Err(ListTablesRequestFromJson, R"({"Limit": 101})"),
            "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: "
            "Member must have value less than or equal to 100");
  EXPECT_EQ(Err(ListTablesRequestFromJson, R"({"Limit": "5"})"),
            "Invalid type for parameter Limit, value: \"5\", type: string, valid types: integer "
            "(32-bit)");
  EXPECT_EQ(Err(ListTablesRequestFromJson, R"({"Limit": 3000000000})"),
            "Invalid type for parameter Limit, value: 3000000000, type: number, valid types: "
            "integer (32-bit)");
  EXPECT_EQ(Err(ListTablesRequestFromJson, R"({"ExclusiveStartTableName": ""})"),
            "2 validation errors detected: "
            "Value '' at 'exclusiveStartTableName' failed to satisfy constraint: Member must "
            "satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
            "Value '' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have "
            "length greater than or equal to 3");
}

// ---- UpdateTable ----

TEST(ApiJsonUpdateTable, CreateIndex) {
  UpdateTableRequest r = Ok(UpdateTableRequestFromJson, R"({
    "TableName": "MusicCollection",
    "AttributeDefinitions": [{"AttributeName": "AlbumTitle", "AttributeType": "S"}],
    "GlobalSecondaryIndexUpdates": [{"Create": {
      "IndexName": "AlbumTitle-index",
      "KeySchema": [{"AttributeName": "AlbumTitle", "KeyType": "HASH"}],
      "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5},
      "Projection": {"ProjectionType": "ALL"}
    }}]
  })");
  EXPECT_EQ(r.table_name, "MusicCollection");
  ASSERT_EQ(r.attribute_definitions.size(), 1u);
  ASSERT_TRUE(r.create_global_index);
  EXPECT_EQ(r.create_global_index->name, "AlbumTitle-index");
  EXPECT_EQ(r.create_global_index->projection_type, "ALL");
  EXPECT_FALSE(r.delete_global_index);
}

TEST(ApiJsonUpdateTable, DeleteIndex) {
  UpdateTableRequest r = Ok(UpdateTableRequestFromJson, R"({
    "TableName": "MusicCollection",
    "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "AlbumTitle-index"}}]
  })");
  EXPECT_EQ(r.delete_global_index, "AlbumTitle-index");
  EXPECT_FALSE(r.create_global_index);
  // No updates at all is left to storage's "At least one of ..." message.
  UpdateTableRequest bare = Ok(UpdateTableRequestFromJson, R"({"TableName": "abc"})");
  EXPECT_FALSE(bare.create_global_index);
  EXPECT_FALSE(bare.delete_global_index);
}

TEST(ApiJsonUpdateTable, IndexUpdateRules) {
  EXPECT_EQ(
      Err(UpdateTableRequestFromJson, R"({"TableName": "abc", "GlobalSecondaryIndexUpdates": []})"),
      "One or more parameter values were invalid: List of GlobalSecondaryIndexUpdates is "
      "empty");
  EXPECT_EQ(Err(UpdateTableRequestFromJson,
                R"({"TableName": "abc", "GlobalSecondaryIndexUpdates": [{}]})"),
            "One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, "
            "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be "
            "null");
  EXPECT_EQ(Err(UpdateTableRequestFromJson, R"({"TableName": "abc",
      "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "abc"},
        "Create": {"IndexName": "abc", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}],
                   "Projection": {"ProjectionType": "ALL"}}}]})"),
            "One or more parameter values were invalid: Only one global secondary index action "
            "is allowed per GlobalSecondaryIndexUpdate object");
  EXPECT_EQ(Err(UpdateTableRequestFromJson, R"({"TableName": "abc",
      "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "abc"}},
                                      {"Delete": {"IndexName": "abc"}}]})"),
            "One or more parameter values were invalid: Only one global secondary index update "
            "per index is allowed simultaneously. Index: abc");
  Result<UpdateTableRequest> two = UpdateTableRequestFromJson(J(R"({"TableName": "abc",
      "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "abc"}},
                                      {"Delete": {"IndexName": "abd"}}]})"));
  ASSERT_FALSE(two.ok());
  EXPECT_EQ(two.status().code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(two.status().message(),
            "Subscriber limit exceeded: Only 1 online index can be created or deleted "
            "simultaneously per table");
  EXPECT_EQ(Err(UpdateTableRequestFromJson,
                R"({"TableName": "abc", "GlobalSecondaryIndexUpdates": [{"Delete": {}}]})"),
            "1 validation error detected: Value null at "
            "'globalSecondaryIndexUpdates.1.member.delete.indexName' failed to satisfy "
            "constraint: Member must not be null");
}

TEST(ApiJsonUpdateTable, Unsupported) {
  // Update takes a GSI's ProvisionedThroughput (both units, as DynamoDB's model says);
  // OnDemandThroughput and WarmThroughput are read; their values are storage's to check.
  EXPECT_EQ(
      Err(UpdateTableRequestFromJson, R"({"TableName": "abc", "GlobalSecondaryIndexUpdates":
      [{"Update": {"IndexName": "abc", "ProvisionedThroughput": {}}}]})"),
      "2 validation errors detected: Value null at "
      "'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.readCapacityUnits' "
      "failed to satisfy constraint: Member must not be null; Value null at "
      "'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.writeCapacityUnits' "
      "failed to satisfy constraint: Member must not be null");
  EXPECT_EQ(Err(UpdateTableRequestFromJson, R"({"TableName": "abc", "GlobalSecondaryIndexUpdates":
      [{"Update": {"IndexName": "abc", "OnDemandThroughput": {}}}]})"),
            "<decoded>");
  Result<UpdateTableRequest> modes = UpdateTableRequestFromJson(J(R"({"TableName": "abc",
      "OnDemandThroughput": {"MaxReadRequestUnits": -1}, "GlobalSecondaryIndexUpdates":
      [{"Update": {"IndexName": "byG", "WarmThroughput": {"WriteUnitsPerSecond": 5000}}}]})"));
  ASSERT_TRUE(modes.ok()) << modes.status().ToString();
  EXPECT_EQ(modes->on_demand_throughput, (OnDemandThroughputSpec{-1, std::nullopt}));
  ASSERT_EQ(modes->update_global_indexes.size(), 1u);
  EXPECT_FALSE(modes->update_global_indexes[0].has_provisioned_throughput);
  EXPECT_EQ(modes->update_global_indexes[0].warm_throughput,
            (WarmThroughputSpec{std::nullopt, 5000}));
  EXPECT_EQ(
      Err(UpdateTableRequestFromJson, R"({"TableName": "abc", "BillingMode": "PAY_PER_REQUEST"})"),
      "<decoded>");
  EXPECT_EQ(Err(UpdateTableRequestFromJson, R"({"TableName": "abc", "BillingMode": "FREE"})"),
            "1 validation error detected: Value 'FREE' at 'billingMode' failed to satisfy "
            "constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  EXPECT_EQ(
      Err(UpdateTableRequestFromJson, R"({"TableName": "abc", "DeletionProtectionEnabled": true})"),
      "<decoded>");
  EXPECT_EQ(
      Err(UpdateTableRequestFromJson, R"({"TableName": "abc", "DeletionProtectionEnabled": "x"})"),
      "Invalid type for parameter DeletionProtectionEnabled, value: \"x\", type: string, valid "
      "types: boolean");
}

// ---- PutItem, GetItem, DeleteItem ----

TEST(ApiJsonItems, PutItemExample) {
  PutItemRequest r = Ok(PutItemRequestFromJson, R"({
    "TableName": "MusicCollection",
    "Item": {
      "Artist": {"S": "No One You Know"},
      "SongTitle": {"S": "Call Me Today"},
      "AlbumTitle": {"S": "Greatest Hits"},
      "Year": {"N": "2015"}
    },
    "ReturnConsumedCapacity": "TOTAL",
    "ReturnValues": "ALL_OLD",
    "ReturnItemCollectionMetrics": "NONE"
  })");
  EXPECT_EQ(r.table_name, "MusicCollection");
  EXPECT_EQ(r.item, ItemOf(R"({"Artist": {"S": "No One You Know"},
    "SongTitle": {"S": "Call Me Today"}, "AlbumTitle": {"S": "Greatest Hits"},
    "Year": {"N": "2015"}})"));
  EXPECT_EQ(r.return_values, ReturnValues::kAllOld);
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  PutItemRequest plain = Ok(PutItemRequestFromJson, R"({"TableName": "abc", "Item": {}})");
  EXPECT_EQ(plain.return_values, ReturnValues::kNone);
  EXPECT_EQ(plain.return_consumed_capacity, ReturnConsumedCapacity::kNone);
}

TEST(ApiJsonItems, PutItemErrors) {
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc"})"),
            "1 validation error detected: Value null at 'item' failed to satisfy constraint: "
            "Member must not be null");
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc", "Item": {},
      "ReturnValues": "ALL_NEW"})"),
            "1 validation error detected: ReturnValues can only be ALL_OLD or NONE");
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc", "Item": {},
      "ReturnValues": "GARBAGE", "ReturnConsumedCapacity": "hi"})"),
            "2 validation errors detected: "
            "Value 'GARBAGE' at 'returnValues' failed to satisfy constraint: Member must satisfy "
            "enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]; "
            "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]");
  // Value errors inside DynamoDB's current-layer envelope (valueLayers.test.ts).
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc", "Item": {"a": {"N": "x"}}})"),
            "1 validation error detected: The parameter cannot be converted to a numeric value: x");
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc", "Item": {"a": {}}})"),
            "1 validation error detected: Supplied AttributeValue is empty, must contain exactly "
            "one of the supported datatypes");
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc", "Item": [],
      "ReturnValues": "ALL_OLD"})"),
            "Invalid type for parameter Item, value: [], type: array, valid types: object");
}

TEST(ApiJsonItems, PutItemUnsupported) {
  PutItemRequest put = Ok(PutItemRequestFromJson, R"json({"TableName": "abc", "Item": {},
      "ConditionExpression": "attribute_not_exists(a) OR #b = :a",
      "ExpressionAttributeNames": {"#b": "b"},
      "ExpressionAttributeValues": {":a": {"S": "x"}},
      "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})json");
  EXPECT_EQ(put.expressions.condition, "attribute_not_exists(a) OR #b = :a");
  EXPECT_EQ(put.expressions.names->at("#b"), "b");
  EXPECT_EQ(put.expressions.values->at(":a"), AttributeValue::S("x"));
  EXPECT_EQ(put.return_values_on_condition_check_failure, ReturnValues::kAllOld);
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc", "Item": {},
      "ExpressionAttributeValues": {":a": {"SS": []}}})"),
            "1 validation error detected: One or more parameter values were invalid: An string "
            "set  may not be empty");
  // The older layer wraps an expression value's error with its key (Scan).
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "abc", "FilterExpression": "a = :a",
      "ExpressionAttributeValues": {":a": {"SS": []}}})"),
            "ExpressionAttributeValues contains invalid value: One or more parameter values were "
            "invalid: An string set  may not be empty for key :a");
  // The legacy parameters: api_json_legacy_test.cpp.
  EXPECT_TRUE(Ok(PutItemRequestFromJson,
                 R"({"TableName": "abc", "Item": {}, "Expected": {"a": {"Exists": false}}})")
                  .expressions.parsed);
  auto size = PutItemRequestFromJson(
      json::Parse(R"({"TableName": "abc", "Item": {}, "ReturnItemCollectionMetrics": "SIZE"})")
          .value());
  ASSERT_TRUE(size.ok()) << size.status().ToString();
  EXPECT_TRUE(size->return_item_collection_metrics);
  EXPECT_EQ(Err(PutItemRequestFromJson, R"({"TableName": "abc", "Item": {},
      "ReturnItemCollectionMetrics": "ALL"})"),
            "1 validation error detected: Value 'ALL' at 'returnItemCollectionMetrics' failed "
            "to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]");
}

TEST(ApiJsonItems, GetItemExample) {
  GetItemRequest r = Ok(GetItemRequestFromJson, R"({
    "TableName": "MusicCollection",
    "Key": {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}},
    "ConsistentRead": true,
    "ReturnConsumedCapacity": "INDEXES"
  })");
  EXPECT_EQ(r.key, ItemOf(R"({"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}})"));
  EXPECT_TRUE(r.consistent_read);
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
  EXPECT_EQ(Err(GetItemRequestFromJson, R"({"TableName": "abc"})"),
            "1 validation error detected: Value null at 'key' failed to satisfy constraint: "
            "Member must not be null");
  EXPECT_EQ(Err(GetItemRequestFromJson, R"({"TableName": "abc", "Key": {},
      "ConsistentRead": "yes"})"),
            "Invalid type for parameter ConsistentRead, value: \"yes\", type: string, valid "
            "types: boolean");
  EXPECT_EQ(Ok(GetItemRequestFromJson, R"({"TableName": "abc", "Key": {},
      "ProjectionExpression": "a, b"})")
                .expressions.projection,
            "a, b");
  EXPECT_TRUE(
      Ok(GetItemRequestFromJson, R"({"TableName": "abc", "Key": {}, "AttributesToGet": ["a"]})")
          .expressions.parsed);
}

TEST(ApiJsonItems, DeleteItemExample) {
  DeleteItemRequest r = Ok(DeleteItemRequestFromJson, R"({
    "TableName": "MusicCollection",
    "Key": {"Artist": {"S": "No One You Know"}, "SongTitle": {"S": "Scared of My Shadow"}},
    "ReturnValues": "ALL_OLD",
    "ReturnConsumedCapacity": "TOTAL",
    "ReturnItemCollectionMetrics": "NONE"
  })");
  EXPECT_EQ(r.key.size(), 2u);
  EXPECT_EQ(r.return_values, ReturnValues::kAllOld);
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  EXPECT_EQ(Err(DeleteItemRequestFromJson, R"({"TableName": "abc", "Key": {},
      "ReturnValues": "UPDATED_NEW"})"),
            "1 validation error detected: ReturnValues can only be ALL_OLD or NONE");
  EXPECT_EQ(Ok(DeleteItemRequestFromJson, R"({"TableName": "abc", "Key": {},
      "ConditionExpression": "a = :a"})")
                .expressions.condition,
            "a = :a");
  EXPECT_EQ(Err(DeleteItemRequestFromJson, R"({"TableName": "abc", "Key": {"a": {"S": "x",
      "N": "1"}}})"),
            "1 validation error detected: Supplied AttributeValue has more than one datatypes "
            "set, must contain exactly one of the supported datatypes");
}

// ---- Query ----

constexpr std::string_view kReplyQuery = R"({
  "TableName": "Reply",
  "IndexName": "PostedBy-index",
  "KeyConditions": {
    "Id": {"ComparisonOperator": "EQ",
           "AttributeValueList": [{"S": "Amazon DynamoDB#DynamoDB Thread 1"}]},
    "ReplyDateTime": {"ComparisonOperator": "BETWEEN",
                      "AttributeValueList": [{"S": "2015-09-01"}, {"S": "2015-09-30"}]}
  },
  "ScanIndexForward": false,
  "Limit": 10,
  "ConsistentRead": true,
  "Select": "ALL_ATTRIBUTES",
  "ReturnConsumedCapacity": "TOTAL",
  "ExclusiveStartKey": {"Id": {"S": "Amazon DynamoDB#DynamoDB Thread 1"},
                        "ReplyDateTime": {"S": "2015-09-02"}}
})";

KeySchema ReplyKey() {
  return KeySchema{KeyAttribute{"Id", ValueType::kS}, KeyAttribute{"ReplyDateTime", ValueType::kS}};
}

TEST(ApiJsonQuery, LegacyKeyConditions) {
  QueryRequest r = Ok(QueryRequestFromJson, kReplyQuery);
  EXPECT_EQ(r.table_name, "Reply");
  EXPECT_EQ(r.index_name, "PostedBy-index");
  EXPECT_FALSE(r.scan_index_forward);
  EXPECT_EQ(r.limit, 10);
  EXPECT_TRUE(r.consistent_read);
  EXPECT_EQ(r.select, Select::kAllAttributes);
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  ASSERT_TRUE(r.exclusive_start_key);
  EXPECT_EQ(r.exclusive_start_key->at("ReplyDateTime"), AttributeValue::S("2015-09-02"));
  ASSERT_EQ(r.key_conditions.size(), 2u);
  EXPECT_EQ(r.key_conditions[0].name, "Id");
  EXPECT_EQ(r.key_conditions[0].op, SortKeyOp::kEq);
  EXPECT_EQ(r.key_conditions[1].name, "ReplyDateTime");
  EXPECT_EQ(r.key_conditions[1].op, SortKeyOp::kBetween);
  ASSERT_EQ(r.key_conditions[1].values.size(), 2u);

  ASSERT_TRUE(BindKeyConditions(ReplyKey(), &r).ok());
  EXPECT_TRUE(r.key_conditions.empty());
  const KeyCondition& kc = r.key_condition;
  EXPECT_EQ(kc.partition_name, "Id");
  EXPECT_EQ(kc.partition_value, AttributeValue::S("Amazon DynamoDB#DynamoDB Thread 1"));
  EXPECT_EQ(kc.sort_name, "ReplyDateTime");
  EXPECT_EQ(kc.op, SortKeyOp::kBetween);
  EXPECT_EQ(kc.sort_value, AttributeValue::S("2015-09-01"));
  EXPECT_EQ(kc.sort_value2, AttributeValue::S("2015-09-30"));
  // Binding again is a no-op.
  EXPECT_TRUE(BindKeyConditions(ReplyKey(), &r).ok());
  EXPECT_EQ(r.key_condition.partition_name, "Id");
}

TEST(ApiJsonQuery, BindUsesTheSchemaNotTheOrder) {
  // Two EQ terms, sort key first: only the schema tells them apart.
  QueryRequest r = Ok(QueryRequestFromJson, R"({"TableName": "Reply", "KeyConditions": {
      "ReplyDateTime": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "2015"}]},
      "Id": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "t1"}]}}})");
  ASSERT_TRUE(BindKeyConditions(ReplyKey(), &r).ok());
  EXPECT_EQ(r.key_condition.partition_name, "Id");
  EXPECT_EQ(r.key_condition.partition_value, AttributeValue::S("t1"));
  EXPECT_EQ(r.key_condition.sort_name, "ReplyDateTime");
  EXPECT_EQ(r.key_condition.op, SortKeyOp::kEq);

  QueryRequest one = Ok(QueryRequestFromJson, R"({"TableName": "Reply", "KeyConditions": {
      "Id": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "t1"}]}}})");
  ASSERT_TRUE(BindKeyConditions(ReplyKey(), &one).ok());
  EXPECT_EQ(one.key_condition.op, SortKeyOp::kNone);
  EXPECT_TRUE(one.key_condition.sort_name.empty());
}

TEST(ApiJsonQuery, BindErrors) {
  auto bind = [](std::string_view conditions, const KeySchema& key) {
    QueryRequest r =
        Ok(QueryRequestFromJson, std::string(R"({"TableName": "Reply", "KeyConditions": )") +
                                     std::string(conditions) + "}");
    Status s = BindKeyConditions(key, &r);
    return s.ok() ? std::string("<ok>") : s.message();
  };
  KeySchema hash_only{KeyAttribute{"Id", ValueType::kS}, std::nullopt};
  EXPECT_EQ(bind(R"({"Id": {"ComparisonOperator": "GT", "AttributeValueList": [{"S": "a"}]}})",
                 ReplyKey()),
            "Query key condition not supported");
  EXPECT_EQ(bind(R"({"Id": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]},
                     "x": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}})",
                 hash_only),
            "Query key condition not supported");
  EXPECT_EQ(bind(R"({"ReplyDateTime": {"ComparisonOperator": "GT",
                     "AttributeValueList": [{"S": "a"}]}})",
                 ReplyKey()),
            "Query condition missed key schema element: Id");
  EXPECT_EQ(bind(R"({"Id": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]},
                     "x": {"ComparisonOperator": "GT", "AttributeValueList": [{"S": "a"}]}})",
                 ReplyKey()),
            "Query condition missed key schema element: ReplyDateTime");
}

TEST(ApiJsonQuery, BindAgainstTableOrIndex) {
  TableDescription t;
  t.name = "Reply";
  t.key = ReplyKey();
  IndexDescription idx;
  idx.name = "PostedBy-index";
  idx.key = KeySchema{KeyAttribute{"PostedBy", ValueType::kS}, std::nullopt};
  t.indexes.push_back(idx);
  QueryRequest r = Ok(QueryRequestFromJson, R"({"TableName": "Reply", "IndexName":
      "PostedBy-index", "KeyConditions": {"PostedBy": {"ComparisonOperator": "EQ",
      "AttributeValueList": [{"S": "User A"}]}}})");
  ASSERT_TRUE(BindKeyConditions(t, &r).ok());
  EXPECT_EQ(r.key_condition.partition_name, "PostedBy");
  QueryRequest missing = Ok(QueryRequestFromJson, R"({"TableName": "Reply", "IndexName":
      "nope-index", "KeyConditions": {"PostedBy": {"ComparisonOperator": "EQ",
      "AttributeValueList": [{"S": "User A"}]}}})");
  Status s = BindKeyConditions(t, &missing);
  EXPECT_EQ(s.message(), "The table does not have the specified index: nope-index");
}

TEST(ApiJsonQuery, KeyConditionsRules) {
  auto err = [](std::string_view conditions) {
    return Err(QueryRequestFromJson, std::string(R"({"TableName": "abc", "KeyConditions": )") +
                                         std::string(conditions) + "}");
  };
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "abc"})"),
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in "
            "the request.");
  EXPECT_EQ(err("{}"), "Conditions can be of length 1 or 2 only");
  // Up to 8 conditions are read (a multi-attribute GSI key has up to 8 attributes); past that
  // the count is refused first. A table's or single-attribute index's limit of 2 is checked
  // when the key schema is known (BindKeyConditions).
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "NULL"}, "b": {"ComparisonOperator": "NULL"},
                    "c": {"ComparisonOperator": "NULL"}})"),
            "Attempted conditional constraint is not an indexable operation");
  std::string nine = "{";
  for (char c = 'a'; c < 'a' + 9; ++c) {
    nine += std::string(c == 'a' ? "" : ", ") + "\"" + c + "\": {\"ComparisonOperator\": \"NULL\"}";
  }
  EXPECT_EQ(err(nine + "}"), "Conditions can be of length 1 or 2 only");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ"}})"),
            "One or more parameter values were invalid: Invalid number of argument(s) for the EQ "
            "ComparisonOperator");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "a"}]}})"),
            "One or more parameter values were invalid: Invalid number of argument(s) for the "
            "BETWEEN ComparisonOperator");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "NULL", "AttributeValueList": [{"S": "a"}]}})"),
            "One or more parameter values were invalid: Invalid number of argument(s) for the "
            "NULL ComparisonOperator");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "LE", "AttributeValueList": [{"SS": ["a"]}]}})"),
            "One or more parameter values were invalid: ComparisonOperator LE is not valid for SS "
            "AttributeValue type");
  EXPECT_EQ(
      err(R"({"a": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"N": "1"}]}})"),
      "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid "
      "for N AttributeValue type");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "BETWEEN",
                         "AttributeValueList": [{"S": "b"}, {"N": "1"}]}})"),
            "One or more parameter values were invalid: AttributeValues inside "
            "AttributeValueList must be of same type");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "BETWEEN",
                         "AttributeValueList": [{"N": "10"}, {"N": "9"}]}})"),
            "The BETWEEN condition was provided a range where the lower bound is greater than "
            "the upper bound");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "NE", "AttributeValueList": [{"S": "a"}]}})"),
            "Attempted conditional constraint is not an indexable operation");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "IN", "AttributeValueList": [{"S": "a"}]}})"),
            "Attempted conditional constraint is not an indexable operation");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "b"}]}})"),
            "The parameter cannot be converted to a numeric value: b");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": ["b"]}})"),
            "Invalid type for parameter KeyConditions.a.AttributeValueList[0], value: \"b\", type: "
            "string, valid types: object");
  EXPECT_EQ(err(R"({"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "b"}]},
                    "a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "c"}]}})"),
            "Duplicate parameter in KeyConditions: \"a\"");
  EXPECT_EQ(err(R"({"a": {}, "b": {"ComparisonOperator": ""}})"),
            "2 validation errors detected: "
            "Value null at 'keyConditions.a.member.comparisonOperator' failed to satisfy "
            "constraint: Member must not be null; "
            "Value '' at 'keyConditions.b.member.comparisonOperator' failed to satisfy "
            "constraint: Member must satisfy enum value set: [IN, NULL, BETWEEN, LT, "
            "NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]");
}

TEST(ApiJsonQuery, Constraints) {
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "abc;", "IndexName": "abc;",
      "ReturnConsumedCapacity": "hi", "Select": "hi", "Limit": -1,
      "KeyConditions": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}}})"),
            // A data-plane TableName may be an ARN: only its length is constrained. Query's
            // Limit is worded by DynamoDB's newer validation framework.
            "4 validation errors detected: "
            "Value 'abc;' at 'indexName' failed to satisfy constraint: Member must satisfy "
            "regular expression pattern: [a-zA-Z0-9_.-]+; "
            "Value 'hi' at 'select' failed to satisfy constraint: Member must satisfy enum value "
            "set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]; "
            "Value at 'Limit' failed to satisfy constraint: Member must have value greater "
            "than or equal to 1; "
            "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member must "
            "satisfy enum value set: [INDEXES, TOTAL, NONE]");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "abc", "ScanIndexForward": 0,
      "KeyConditions": {}})"),
            "Invalid type for parameter ScanIndexForward, value: 0, type: number, valid types: "
            "boolean");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "abc", "ExclusiveStartKey": {"a": {}},
      "KeyConditions": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}}})"),
            "Supplied AttributeValue is empty, must contain exactly one of the supported "
            "datatypes");
  // Scan's (the older layer) keeps the prefix.
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "abc", "ExclusiveStartKey": {"a": {}}})"),
            "The provided starting key is invalid: Supplied AttributeValue is empty, must contain "
            "exactly one of the supported datatypes");
}

TEST(ApiJsonQuery, ExpressionsAndUnsupported) {
  QueryRequest q = Ok(QueryRequestFromJson, R"({"TableName": "Reply",
      "KeyConditionExpression": "Id = :v", "FilterExpression": "a > :v",
      "ExpressionAttributeValues": {":v": {"S": "x"}}})");
  EXPECT_EQ(q.expressions.key_condition, "Id = :v");
  EXPECT_EQ(q.expressions.filter, "a > :v");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Reply", "KeyConditionExpression": "Id = :v",
      "KeyConditions": {"Id": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "x"}]}}})"),
            "Can not use both expression and non-expression parameters in the same request: "
            "Non-expression parameters: {KeyConditions} Expression parameters: "
            "{KeyConditionExpression}");
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Reply", "QueryFilter": {}})"),
            "Either the KeyConditions or KeyConditionExpression parameter must be specified in "
            "the request.");
  // Names without any expression are refused first ([DL]).
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"TableName": "Reply", "ExpressionAttributeNames":
      {"#a": "a"}})"),
            "ExpressionAttributeNames can only be specified when using expressions");
}

// ---- Scan ----

TEST(ApiJsonScan, ParallelScanExample) {
  ScanRequest r = Ok(ScanRequestFromJson, R"({
    "TableName": "Thread",
    "IndexName": "ByForum",
    "TotalSegments": 4,
    "Segment": 1,
    "Limit": 25,
    "Select": "COUNT",
    "ConsistentRead": false,
    "ReturnConsumedCapacity": "INDEXES",
    "ExclusiveStartKey": {"ForumName": {"S": "Amazon S3"}}
  })");
  EXPECT_EQ(r.table_name, "Thread");
  EXPECT_EQ(r.index_name, "ByForum");
  EXPECT_EQ(r.total_segments, 4);
  EXPECT_EQ(r.segment, 1);
  EXPECT_EQ(r.limit, 25);
  EXPECT_EQ(r.select, Select::kCount);
  EXPECT_EQ(r.return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
  EXPECT_EQ(r.exclusive_start_key, ItemOf(R"({"ForumName": {"S": "Amazon S3"}})"));
  ScanRequest plain = Ok(ScanRequestFromJson, R"({"TableName": "Thread"})");
  EXPECT_FALSE(plain.segment);
  EXPECT_EQ(plain.select, Select::kUnset);
}

TEST(ApiJsonScan, Ranges) {
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "abc", "Segment": -1, "TotalSegments": 0,
      "Limit": 0})"),
            "3 validation errors detected: "
            "Value '0' at 'limit' failed to satisfy constraint: Member must have value greater "
            "than or equal to 1; "
            "Value '0' at 'totalSegments' failed to satisfy constraint: Member must have value "
            "greater than or equal to 1; "
            "Value '-1' at 'segment' failed to satisfy constraint: Member must have value "
            "greater than or equal to 0");
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "abc", "Segment": 1000000,
      "TotalSegments": 1000001})"),
            "2 validation errors detected: "
            "Value '1000001' at 'totalSegments' failed to satisfy constraint: Member must have "
            "value less than or equal to 1000000; "
            "Value '1000000' at 'segment' failed to satisfy constraint: Member must have value "
            "less than or equal to 999999");
}

TEST(ApiJsonScan, ExpressionsAndUnsupported) {
  EXPECT_TRUE(
      Ok(ScanRequestFromJson, R"({"TableName": "abc", "ScanFilter": {}})").expressions.parsed);
  EXPECT_EQ(Ok(ScanRequestFromJson, R"({"TableName": "abc", "ProjectionExpression": "a"})")
                .expressions.projection,
            "a");
  EXPECT_EQ(Err(ScanRequestFromJson, R"({"TableName": "abc", "KeyConditions": {}})"),
            "Unknown parameter in input: \"KeyConditions\", must be one of: TableName, "
            "IndexName, AttributesToGet, Limit, Select, ScanFilter, ConditionalOperator, "
            "ExclusiveStartKey, ReturnConsumedCapacity, TotalSegments, Segment, "
            "ProjectionExpression, FilterExpression, ExpressionAttributeNames, "
            "ExpressionAttributeValues, ConsistentRead");
}

TEST(ApiJson, KnownOperations) {
  for (std::string_view op :
       {"CreateTable", "DeleteTable", "DescribeTable", "ListTables", "UpdateTable", "PutItem",
        "GetItem", "DeleteItem", "UpdateItem", "Query", "Scan"}) {
    EXPECT_TRUE(IsKnownOperation(op)) << op;
  }
  for (std::string_view op :
       {"BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems"}) {
    EXPECT_TRUE(IsKnownOperation(op)) << op;
  }
  EXPECT_FALSE(IsKnownOperation("ExecuteTransaction"));
  EXPECT_FALSE(IsKnownOperation("query"));
  EXPECT_FALSE(IsKnownOperation(""));
}

// api::Service::Operations() is the list every front end offers; each name in it is dispatched
// by exactly one of the service's paths (JSON codecs, PartiQL, control-plane answers).
TEST(ApiJson, EveryListedOperationIsDispatched) {
  std::set<std::string_view> seen;
  for (std::string_view op : api::Service::Operations()) {
    EXPECT_TRUE(seen.insert(op).second) << "listed twice: " << op;
    EXPECT_TRUE(api::Service::IsOperation(op)) << op;
    EXPECT_EQ(
        int{IsKnownOperation(op)} + int{IsPartiqlOperation(op)} + int{api::IsControlOperation(op)},
        1)
        << op;
  }
  EXPECT_TRUE(seen.count("TagResource"));
  EXPECT_FALSE(api::Service::IsOperation("query"));
}

// ---- responses ----

ConsumedCapacity ReadCapacity(std::string table, double units) {
  ConsumedCapacity c;
  c.table_name = std::move(table);
  c.total.AddRead(units);
  return c;
}

TEST(ApiJsonResponses, GetItem) {
  GetItemResponse r;
  EXPECT_EQ(json::Write(GetItemResponseToJson(r)), "{}");
  r.item = ItemOf(R"({"Artist": {"S": "Acme Band"}, "Year": {"N": "2015"}})");
  r.consumed_capacity = ReadCapacity("Music", 0.5);
  EXPECT_EQ(json::Write(GetItemResponseToJson(r)),
            R"({"Item":{"Artist":{"S":"Acme Band"},"Year":{"N":"2015"}},)"
            R"("ConsumedCapacity":{"TableName":"Music","CapacityUnits":0.5,)"
            R"("ReadCapacityUnits":0.5}})");
}

TEST(ApiJsonResponses, PutAndDeleteItem) {
  PutItemResponse put;
  EXPECT_EQ(json::Write(PutItemResponseToJson(put)), "{}");
  put.attributes = ItemOf(R"({"k": {"S": "old"}})");
  ConsumedCapacity c;
  c.table_name = "T";
  c.total.AddWrite(3);
  c.table.AddWrite(2);
  c.global_indexes["ByName"].AddWrite(1);
  put.consumed_capacity = c;
  EXPECT_EQ(json::Write(PutItemResponseToJson(put)),
            R"({"Attributes":{"k":{"S":"old"}},"ConsumedCapacity":{"TableName":"T",)"
            R"("CapacityUnits":3.0,"WriteCapacityUnits":3.0,)"
            R"("Table":{"CapacityUnits":2.0,"WriteCapacityUnits":2.0},)"
            R"("GlobalSecondaryIndexes":{"ByName":{"CapacityUnits":1.0,)"
            R"("WriteCapacityUnits":1.0}}}})");
  DeleteItemResponse del;
  del.attributes = ItemOf(R"({"k": {"S": "gone"}})");
  EXPECT_EQ(json::Write(DeleteItemResponseToJson(del)), R"({"Attributes":{"k":{"S":"gone"}}})");
}

TEST(ApiJsonResponses, ConsumedCapacityShapes) {
  // INDEXES on a GSI read: the table entry is present with zero units.
  ConsumedCapacity gsi;
  gsi.table_name = "T";
  gsi.total.AddRead(0.5);
  gsi.global_indexes["G"].AddRead(0.5);
  EXPECT_EQ(json::Write(ConsumedCapacityToJson(gsi)),
            R"({"TableName":"T","CapacityUnits":0.5,"ReadCapacityUnits":0.5,)"
            R"("Table":{"CapacityUnits":0.0},)"
            R"("GlobalSecondaryIndexes":{"G":{"CapacityUnits":0.5,"ReadCapacityUnits":0.5}}})");
  ConsumedCapacity lsi;
  lsi.table_name = "T";
  lsi.total.AddRead(1.5);
  lsi.table.AddRead(1);
  lsi.local_indexes["L"].AddRead(0.5);
  EXPECT_EQ(json::Write(ConsumedCapacityToJson(lsi)),
            R"({"TableName":"T","CapacityUnits":1.5,"ReadCapacityUnits":1.5,)"
            R"("Table":{"CapacityUnits":1.0,"ReadCapacityUnits":1.0},)"
            R"("LocalSecondaryIndexes":{"L":{"CapacityUnits":0.5,"ReadCapacityUnits":0.5}}})");
}

TEST(ApiJsonResponses, QueryAndScan) {
  ReadResponse r;
  r.items.push_back(ItemOf(R"({"Id": {"S": "t1"}, "N": {"N": "1"}})"));
  r.count = 1;
  r.scanned_count = 2;
  r.last_evaluated_key = ItemOf(R"({"Id": {"S": "t1"}})");
  r.consumed_capacity = ReadCapacity("Reply", 1);
  EXPECT_EQ(json::Write(QueryResponseToJson(r)),
            R"({"Items":[{"Id":{"S":"t1"},"N":{"N":"1"}}],"Count":1,"ScannedCount":2,)"
            R"("LastEvaluatedKey":{"Id":{"S":"t1"}},)"
            R"("ConsumedCapacity":{"TableName":"Reply","CapacityUnits":1.0,)"
            R"("ReadCapacityUnits":1.0}})");
  // Items still in their stored encoding are written from it, the same text.
  ReadResponse encoded;
  for (const char* text : {R"({"Id": {"S": "t\"2"}, "L": {"L": [{"B": "AAE="}, {"NULL": true}]}})",
                           R"({"Id": {"S": "t3"}, "N": {"N": "-1.50"}})"}) {
    const Item item = ItemOf(text);
    encoded.items.PushEncoded(EncodeItem(item, ItemSize(item)));
  }
  encoded.items.push_back(ItemOf(R"({"Id": {"S": "t4"}})"));
  encoded.count = 3;
  EXPECT_EQ(json::Write(QueryResponseToJson(encoded)),
            R"({"Items":[{"Id":{"S":"t\"2"},"L":{"L":[{"B":"AAE="},{"NULL":true}]}},)"
            R"({"Id":{"S":"t3"},"N":{"N":"-1.5"}},{"Id":{"S":"t4"}}],"Count":3,"ScannedCount":0})");
  ReadResponse empty;
  EXPECT_EQ(json::Write(ScanResponseToJson(empty)), R"({"Items":[],"Count":0,"ScannedCount":0})");
  ReadResponse count;
  count.count = 7;
  count.scanned_count = 9;
  EXPECT_EQ(json::Write(ScanResponseToJson(count, Select::kCount)),
            R"({"Count":7,"ScannedCount":9})");
}

TEST(ApiJsonResponses, ListTables) {
  ListTablesResponse r;
  EXPECT_EQ(json::Write(ListTablesResponseToJson(r)), R"({"TableNames":[]})");
  r.table_names = {"Forum", "Reply"};
  r.last_evaluated_table_name = "Reply";
  EXPECT_EQ(json::Write(ListTablesResponseToJson(r)),
            R"({"TableNames":["Forum","Reply"],"LastEvaluatedTableName":"Reply"})");
}

TEST(ApiJsonResponses, TableDescriptions) {
  TableDescription t;
  t.name = "Music";
  t.id = 42;
  t.key = KeySchema{KeyAttribute{"Artist", ValueType::kS}, std::nullopt};
  t.creation_time = 1700000000.5;
  t.warm_read_units = 12000;
  t.warm_write_units = 4000;
  const std::string created =
      R"({"AttributeDefinitions":[{"AttributeName":"Artist","AttributeType":"S"}],)"
      R"("TableName":"Music","KeySchema":[{"AttributeName":"Artist","KeyType":"HASH"}],)"
      R"("TableStatus":"ACTIVE","CreationDateTime":1700000000.500,)"
      R"("ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,)"
      R"("WriteCapacityUnits":0},"TableSizeBytes":0,"ItemCount":0,)"
      R"("TableArn":"arn:aws:dynamodb:local:000000000000:table/Music",)"
      R"("TableId":"00000000-0000-4000-8000-00000000002a",)"
      R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"},)"
      R"("DeletionProtectionEnabled":false)";
  const std::string description =
      created + R"(,"WarmThroughput":{"ReadUnitsPerSecond":12000,"WriteUnitsPerSecond":4000,)"
                R"("Status":"ACTIVE"}})";
  EXPECT_EQ(json::Write(DescribeTableResponseToJson(DescribeTableResponse{t})),
            R"({"Table":)" + description + "}");
  // CreateTable describes WarmThroughput only when the request gave one.
  EXPECT_EQ(json::Write(CreateTableResponseToJson(CreateTableResponse{t})),
            R"({"TableDescription":)" + created + "}}");
  EXPECT_EQ(json::Write(CreateTableResponseToJson(CreateTableResponse{t, true})),
            R"({"TableDescription":)" + description + "}");
  // DeleteTable's description leaves out the schema.
  EXPECT_EQ(json::Write(DeleteTableResponseToJson(DeleteTableResponse{t})),
            R"({"TableDescription":{"TableName":"Music","TableStatus":"ACTIVE",)"
            R"("ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,)"
            R"("WriteCapacityUnits":0},"TableSizeBytes":0,"ItemCount":0,)"
            R"("TableArn":"arn:aws:dynamodb:local:000000000000:table/Music",)"
            R"("TableId":"00000000-0000-4000-8000-00000000002a",)"
            R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"}}})");
  EXPECT_EQ(json::Write(UpdateTableResponseToJson(UpdateTableResponse{t})),
            R"({"TableDescription":)" + description + "}");
}

TEST(ApiJsonItems, UpdateItemExample) {
  UpdateItemRequest r = Ok(UpdateItemRequestFromJson, R"({
    "TableName": "MusicCollection",
    "Key": {"Artist": {"S": "Acme Band"}, "SongTitle": {"S": "Happy Day"}},
    "UpdateExpression": "SET #Y = :y, #AT = :t",
    "ExpressionAttributeNames": {"#Y": "Year", "#AT": "AlbumTitle"},
    "ExpressionAttributeValues": {":y": {"N": "2015"}, ":t": {"S": "Louder Than Ever"}},
    "ReturnValues": "ALL_NEW"
  })");
  EXPECT_EQ(r.expressions.update, "SET #Y = :y, #AT = :t");
  EXPECT_EQ(r.expressions.names->size(), 2u);
  EXPECT_EQ(r.return_values, ReturnValues::kAllNew);
  EXPECT_TRUE(Ok(UpdateItemRequestFromJson, R"({"TableName": "abc", "Key": {},
      "AttributeUpdates": {}})")
                  .expressions.parsed);
}

// A member of the wrong JSON type is a SerializationException before any constraint error, a
// missing TableName's included; so is an AttributeValue of the wrong JSON shape (the Parity
// Suite's validation-ordering records, October 2026: queryValidation, putItem, scan).
TEST(ApiJsonOrder, TypesBeforeConstraints) {
  auto serialization = [](auto decode, std::string_view text) {
    auto r = decode(J(text));
    EXPECT_EQ(r.status().code(), ErrorCode::kSerialization) << text << r.status().ToString();
    return r.status().message();
  };
  EXPECT_EQ(serialization(QueryRequestFromJson, R"({"KeyConditionExpression": true})"),
            "TRUE_VALUE cannot be converted to String");
  EXPECT_EQ(serialization(ScanRequestFromJson, R"({"TableName": "", "FilterExpression": 5})"),
            "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(serialization(PutItemRequestFromJson, R"({"Item": {"pk": {"S": 1}}})"),
            "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(serialization(QueryRequestFromJson,
                          R"({"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues":
                              {":p": {"B": "not base64!"}}})"),
            "Base64 encoded length is expected a multiple of 4 bytes but found: 11");
  // Without a type problem the constraints are reported as before.
  EXPECT_EQ(Err(QueryRequestFromJson, R"({"KeyConditionExpression": "pk = :p"})"),
            "1 validation error detected: Value null at 'tableName' failed to satisfy "
            "constraint: Member must not be null");
}

}  // namespace
}  // namespace keyhole
