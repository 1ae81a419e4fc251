// The operation model: DynamoDB API requests and responses as C++ structs.
//
// This is the seam of the design: the planner emits these, storage::Database executes them,
// and a future HTTP server decodes DynamoDB's JSON into the same structs. Field names follow
// the API (TableName -> table_name). A request's expression parameters (ConditionExpression,
// KeyConditionExpression, FilterExpression, ProjectionExpression, UpdateExpression,
// ExpressionAttributeNames/Values) travel together in `expressions` (core/expression.h); the
// engine parses them through the expr::ExpressionParser it was given. A Query may instead give
// its key condition in structured form (KeyCondition, as the legacy KeyConditions parameter).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/expression.h"
#include "core/schema.h"

namespace keyhole {

enum class ReturnConsumedCapacity { kNone, kTotal, kIndexes };
enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };
enum class Select { kUnset, kAllAttributes, kAllProjectedAttributes, kSpecificAttributes, kCount };

// Units consumed on one table or index. capacity_units = read_units + write_units.
struct Capacity {
  double capacity_units = 0;
  double read_units = 0;
  double write_units = 0;
  void AddRead(double u) { read_units += u; capacity_units += u; }
  void AddWrite(double u) { write_units += u; capacity_units += u; }
};

// ConsumedCapacity as the API reports it. With TOTAL only `total` is meaningful; with INDEXES
// `table` and the per-index maps are filled too.
struct ConsumedCapacity {
  std::string table_name;
  Capacity total;
  Capacity table;
  std::map<std::string, Capacity> global_indexes;
  std::map<std::string, Capacity> local_indexes;
};

// ---- tables ----

struct CreateTableRequest {
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  std::vector<IndexSpec> global_secondary_indexes;
  std::vector<IndexSpec> local_secondary_indexes;
  std::string billing_mode = "PAY_PER_REQUEST";  // or "PROVISIONED"
  std::optional<int64_t> read_capacity_units, write_capacity_units;
};
struct CreateTableResponse { TableDescription table_description; };

struct DeleteTableRequest { std::string table_name; };
struct DeleteTableResponse { TableDescription table_description; };

struct DescribeTableRequest { std::string table_name; };
struct DescribeTableResponse { TableDescription table; };

struct ListTablesRequest {
  std::optional<std::string> exclusive_start_table_name;
  std::optional<int> limit;  // 1..100
};
struct ListTablesResponse {
  std::vector<std::string> table_names;
  std::optional<std::string> last_evaluated_table_name;
};

// UpdateTable: one GSI Create or Delete per call, as DynamoDB allows.
struct UpdateTableRequest {
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;
  std::optional<IndexSpec> create_global_index;
  std::optional<std::string> delete_global_index;
};
struct UpdateTableResponse { TableDescription table_description; };

// ---- items ----

struct PutItemRequest {
  std::string table_name;
  Item item;
  ReturnValues return_values = ReturnValues::kNone;  // NONE | ALL_OLD
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  expr::ExpressionInput expressions;  // condition, names, values
  ReturnValues return_values_on_condition_check_failure = ReturnValues::kNone;  // NONE | ALL_OLD
};
struct PutItemResponse {
  std::optional<Item> attributes;
  std::optional<ConsumedCapacity> consumed_capacity;
};

struct GetItemRequest {
  std::string table_name;
  Item key;
  bool consistent_read = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  expr::ExpressionInput expressions;  // projection, names
};
struct GetItemResponse {
  std::optional<Item> item;
  std::optional<ConsumedCapacity> consumed_capacity;
};

struct DeleteItemRequest {
  std::string table_name;
  Item key;
  ReturnValues return_values = ReturnValues::kNone;  // NONE | ALL_OLD
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  expr::ExpressionInput expressions;  // condition, names, values
  ReturnValues return_values_on_condition_check_failure = ReturnValues::kNone;
};
struct DeleteItemResponse {
  std::optional<Item> attributes;
  std::optional<ConsumedCapacity> consumed_capacity;
};

// UpdateItem: applies `expressions.update` (absent: creates a key-only item when missing)
// under `expressions.condition`.
struct UpdateItemRequest {
  std::string table_name;
  Item key;
  ReturnValues return_values = ReturnValues::kNone;  // all five
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  expr::ExpressionInput expressions;  // update, condition, names, values
  ReturnValues return_values_on_condition_check_failure = ReturnValues::kNone;
};
struct UpdateItemResponse {
  std::optional<Item> attributes;
  std::optional<ConsumedCapacity> consumed_capacity;
};

// ---- reads ----

enum class SortKeyOp { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };

// A key condition in structured form: partition key equality and an optional sort-key
// predicate. Names are the attribute names the caller used; they are checked against the
// table's or index's key schema.
struct KeyCondition {
  std::string partition_name;
  AttributeValue partition_value;
  std::string sort_name;  // empty when op == kNone
  SortKeyOp op = SortKeyOp::kNone;
  AttributeValue sort_value;   // the operand (the lower bound for BETWEEN)
  AttributeValue sort_value2;  // BETWEEN's upper bound
};

// One entry of Query's legacy KeyConditions parameter ({"a": {"ComparisonOperator": "EQ",
// "AttributeValueList": [..]}}) as the JSON API decodes it, before the key schema says whether
// `name` is the partition or the sort key. `op` kEq also stands for the partition key's equality.
struct KeyConditionTerm {
  std::string name;
  SortKeyOp op = SortKeyOp::kEq;
  std::vector<AttributeValue> values;  // one; two for kBetween (lower, upper)
};

struct QueryRequest {
  std::string table_name;
  std::optional<std::string> index_name;
  // Structured key condition; used when expressions.key_condition is absent.
  KeyCondition key_condition;
  // Set only by QueryRequestFromJson (core/api_json.h) from legacy KeyConditions; empty otherwise.
  // BindKeyConditions moves the terms into key_condition once the table's or index's key schema
  // is known. Storage reads key_condition only, so an unbound request fails its key check.
  std::vector<KeyConditionTerm> key_conditions;
  expr::ExpressionInput expressions;  // key_condition, filter, projection, names, values
  bool scan_index_forward = true;
  std::optional<int> limit;
  std::optional<Item> exclusive_start_key;
  Select select = Select::kUnset;
  bool consistent_read = false;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};

struct ScanRequest {
  std::string table_name;
  std::optional<std::string> index_name;
  std::optional<int> limit;
  std::optional<Item> exclusive_start_key;
  Select select = Select::kUnset;
  bool consistent_read = false;
  std::optional<int> segment;
  std::optional<int> total_segments;
  expr::ExpressionInput expressions;  // filter, projection, names, values
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};

// Query and Scan answer with the same shape.
struct ReadResponse {
  std::vector<Item> items;  // empty with Select COUNT
  int64_t count = 0;
  int64_t scanned_count = 0;
  std::optional<Item> last_evaluated_key;
  std::optional<ConsumedCapacity> consumed_capacity;
};
using QueryResponse = ReadResponse;
using ScanResponse = ReadResponse;

}  // namespace keyhole
