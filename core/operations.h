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
#include "core/item_list.h"
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
  void AddRead(double u) {
    read_units += u;
    capacity_units += u;
  }
  void AddWrite(double u) {
    write_units += u;
    capacity_units += u;
  }
};

// ConsumedCapacity as the API reports it. With TOTAL only `total` is meaningful; with INDEXES
// `table` and the per-index maps are filled too.
struct ConsumedCapacity {
  std::string table_name;
  Capacity total;
  Capacity table;
  std::map<std::string, Capacity> global_indexes;
  std::map<std::string, Capacity> local_indexes;
  // VectorIndexes: each vector index's VectorWriteRequestBytes, for writes that replicated a
  // change to it (reported with INDEXES only, apart from capacity units).
  std::map<std::string, double> vector_indexes;
};

// ---- tables ----

// StreamSpecification of CreateTable / UpdateTable (reference §6.2).
struct StreamSpecification {
  bool stream_enabled = false;
  std::optional<std::string> stream_view_type;  // required when enabled
};

// SSESpecification of CreateTable / UpdateTable. Enabled true is KMS encryption with
// `kms_master_key_id` (an ARN, key id or alias; absent: the AWS managed key); false (or absent)
// is DynamoDB's default encryption.
struct SSESpecification {
  bool enabled = false;
  std::optional<std::string> sse_type;  // "KMS" (AES256 is refused)
  std::optional<std::string> kms_master_key_id;
};

// One tag (TagResource, CreateTable's Tags).
struct Tag {
  std::string key;
  std::optional<std::string> value;  // absent: "The Tag Value provided is invalid, Value: null"
};

struct CreateTableRequest {
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  std::vector<IndexSpec> global_secondary_indexes;
  std::vector<IndexSpec> local_secondary_indexes;
  std::vector<VectorIndexSpec> vector_indexes;   // core/vector_index.h
  std::string billing_mode = "PAY_PER_REQUEST";  // or "PROVISIONED"
  std::optional<int64_t> read_capacity_units, write_capacity_units;
  std::optional<StreamSpecification> stream_specification;
  std::optional<SSESpecification> sse_specification;
  std::vector<Tag> tags;  // validated as TagResource's
  std::optional<bool> deletion_protection_enabled;
  std::optional<OnDemandThroughputSpec> on_demand_throughput;
  std::optional<WarmThroughputSpec> warm_throughput;
};
struct CreateTableResponse {
  TableDescription table_description;
  // DynamoDB's CreateTable answer describes a WarmThroughput only where the request gave one:
  // the table's, and the GSIs named here.
  bool describe_warm_throughput = false;
  std::vector<std::string> indexes_with_warm_throughput;
};

struct DeleteTableRequest {
  std::string table_name;
};
struct DeleteTableResponse {
  TableDescription table_description;
};

struct DescribeTableRequest {
  std::string table_name;
};
struct DescribeTableResponse {
  TableDescription table;
};

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
  std::optional<StreamSpecification> stream_specification;
  // BillingMode and ProvisionedThroughput (reference: UpdateTable).
  std::optional<std::string> billing_mode;  // "PROVISIONED" | "PAY_PER_REQUEST"
  std::optional<int64_t> read_capacity_units, write_capacity_units;
  bool has_provisioned_throughput = false;  // ProvisionedThroughput was given
  std::optional<SSESpecification> sse_specification;
  std::optional<bool> deletion_protection_enabled;
  std::optional<OnDemandThroughputSpec> on_demand_throughput;
  std::optional<WarmThroughputSpec> warm_throughput;
  // GlobalSecondaryIndexUpdates' Update actions: a GSI's new ProvisionedThroughput,
  // OnDemandThroughput or WarmThroughput (several per call; DynamoDB requires a
  // ProvisionedThroughput for every GSI when a table becomes PROVISIONED).
  struct IndexThroughput {
    std::string index_name;
    bool has_provisioned_throughput = false;  // ProvisionedThroughput was given
    int64_t read_capacity_units = 0, write_capacity_units = 0;
    std::optional<OnDemandThroughputSpec> on_demand_throughput;
    std::optional<WarmThroughputSpec> warm_throughput;
  };
  std::vector<IndexThroughput> update_global_indexes;
  // VectorIndexUpdates: one Create (backfilled from the table's items in the same write
  // transaction, so ACTIVE once it returns) or one Delete per call.
  std::optional<VectorIndexSpec> create_vector_index;
  std::optional<std::string> delete_vector_index;
};

// ---- tags (TagResource, UntagResource, ListTagsOfResource) ----
// The ResourceArn is a table's ARN as DescribeTable reports it (TableArnOf); storage checks it
// (core/tags.h).

struct TagResourceRequest {
  std::string resource_arn;
  std::vector<Tag> tags;
};
struct TagResourceResponse {};  // an empty body on the wire
struct UntagResourceRequest {
  std::string resource_arn;
  std::vector<std::string> tag_keys;
};
struct UntagResourceResponse {};
struct ListTagsOfResourceRequest {
  std::string resource_arn;
  std::optional<std::string> next_token;
};
struct ListTagsOfResourceResponse {
  std::vector<Tag> tags;  // every tag, by key (at most 50: DynamoDB sends no NextToken then)
  std::optional<std::string> next_token;
};

// ---- continuous backups (point-in-time recovery) ----

struct PointInTimeRecoveryDescription {
  std::string status = "DISABLED";             // "ENABLED" | "DISABLED"
  std::optional<int> recovery_period_in_days;  // when enabled
  std::optional<double> earliest_restorable;   // epoch seconds, when enabled
  std::optional<double> latest_restorable;
};
struct ContinuousBackupsDescription {
  std::string continuous_backups_status = "ENABLED";  // always, as DynamoDB reports
  PointInTimeRecoveryDescription point_in_time_recovery;
};
struct DescribeContinuousBackupsRequest {
  std::string table_name;
};
struct DescribeContinuousBackupsResponse {
  ContinuousBackupsDescription description;
};
struct UpdateContinuousBackupsRequest {
  std::string table_name;
  bool point_in_time_recovery_enabled = false;
  std::optional<int> recovery_period_in_days;  // 1..35
};
struct UpdateContinuousBackupsResponse {
  ContinuousBackupsDescription description;
};

// ---- Time to Live (reference §6.1) ----

struct TimeToLiveSpecification {
  std::string attribute_name;  // 1..255 characters
  bool enabled = false;
};
struct UpdateTimeToLiveRequest {
  std::string table_name;
  TimeToLiveSpecification specification;
};
struct UpdateTimeToLiveResponse {
  TimeToLiveSpecification specification;
};
struct DescribeTimeToLiveRequest {
  std::string table_name;
};
struct DescribeTimeToLiveResponse {
  std::string status = "DISABLED";  // "ENABLED" | "DISABLED"
  std::optional<std::string> attribute_name;
};
struct UpdateTableResponse {
  TableDescription table_description;
};

// ---- DynamoDB Streams (reference §6.2) ----
// keyhole keeps one shard per stream. ARNs are TableDescription::LatestStreamArn()'s form:
// "arn:aws:dynamodb:local:000000000000:table/<name>/stream/<label>".

// One record as GetRecords returns it (the "dynamodb" member's fields are flattened here).
struct StreamRecord {
  std::string event_id;    // 32 hex digits: the table id and the sequence number
  std::string event_name;  // "INSERT" | "MODIFY" | "REMOVE"
  std::string event_version = "1.1";
  std::string event_source = "aws:dynamodb";
  std::string aws_region = std::string(ArnRegion());  // the thread's (schema.h)
  int64_t approximate_creation_date_time = 0;         // epoch seconds, rounded down
  Item keys;
  std::optional<Item> new_image;  // NEW_IMAGE / NEW_AND_OLD_IMAGES, never on REMOVE
  std::optional<Item> old_image;  // OLD_IMAGE / NEW_AND_OLD_IMAGES, never on INSERT
  std::string sequence_number;    // 21 decimal digits
  int64_t size_bytes = 0;
  std::string stream_view_type;
  // userIdentity {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}: a TTL deletion.
  bool service_deletion = false;
};

struct ListStreamsRequest {
  std::optional<std::string> table_name;
  std::optional<int> limit;  // 1..100 (default 100)
  std::optional<std::string> exclusive_start_stream_arn;
};
struct StreamSummary {
  std::string stream_arn;
  std::string table_name;
  std::string stream_label;
};
struct ListStreamsResponse {
  std::vector<StreamSummary> streams;
  std::optional<std::string> last_evaluated_stream_arn;
};

// DescribeStream's ShardFilter: the children of shard `shard_id` (Type CHILD_SHARDS, the only
// type). Either member may be absent on the wire.
struct ShardFilter {
  std::optional<std::string> type;
  std::optional<std::string> shard_id;
};
struct DescribeStreamRequest {
  std::string stream_arn;
  std::optional<int> limit;  // 1..100 shards
  std::optional<std::string> exclusive_start_shard_id;
  std::optional<ShardFilter> shard_filter;
};
struct StreamShard {
  std::string shard_id;
  std::string starting_sequence_number;
  std::optional<std::string> ending_sequence_number;  // once the stream is disabled
};
struct StreamDescription {
  std::string stream_arn;
  std::string stream_label;
  std::string stream_status;  // "ENABLED" | "DISABLED"
  std::string stream_view_type;
  double creation_request_date_time = 0;  // epoch seconds
  std::string table_name;
  KeySchema key_schema;
  std::vector<StreamShard> shards;
  std::optional<std::string> last_evaluated_shard_id;
};
struct DescribeStreamResponse {
  StreamDescription stream_description;
};

struct GetShardIteratorRequest {
  std::string stream_arn;
  std::string shard_id;
  // TRIM_HORIZON | LATEST | AT_SEQUENCE_NUMBER | AFTER_SEQUENCE_NUMBER
  std::string shard_iterator_type;
  std::optional<std::string> sequence_number;  // the AT_ / AFTER_ types only
};
struct GetShardIteratorResponse {
  std::string shard_iterator;  // opaque, valid 15 minutes
};

struct GetRecordsRequest {
  std::string shard_iterator;
  std::optional<int> limit;  // 1..1000 (default 1000)
};
struct GetRecordsResponse {
  std::vector<StreamRecord> records;               // at most 1000 and 1 MB
  std::optional<std::string> next_shard_iterator;  // absent once a closed shard is exhausted
};

// ---- items ----

// ReturnItemCollectionMetrics=SIZE on a write to a table with local secondary indexes: the item
// collection the write touched (its partition key) and an estimate of its size in GB, as a
// range [lower, upper] (DynamoDB: "subject to change over time", so only a range is given).
// Tables without local secondary indexes report none.
struct ItemCollectionMetrics {
  Item item_collection_key;
  double size_estimate_lower_gb = 0;
  double size_estimate_upper_gb = 0;
};

struct PutItemRequest {
  std::string table_name;
  Item item;
  ReturnValues return_values = ReturnValues::kNone;  // NONE | ALL_OLD
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  expr::ExpressionInput expressions;  // condition, names, values
  ReturnValues return_values_on_condition_check_failure = ReturnValues::kNone;  // NONE | ALL_OLD
  bool return_item_collection_metrics = false;  // ReturnItemCollectionMetrics=SIZE
};
struct PutItemResponse {
  std::optional<Item> attributes;
  std::optional<ConsumedCapacity> consumed_capacity;
  std::optional<ItemCollectionMetrics> item_collection_metrics;
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
  bool return_item_collection_metrics = false;  // ReturnItemCollectionMetrics=SIZE
};
struct DeleteItemResponse {
  std::optional<Item> attributes;
  std::optional<ConsumedCapacity> consumed_capacity;
  std::optional<ItemCollectionMetrics> item_collection_metrics;
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
  bool return_item_collection_metrics = false;  // ReturnItemCollectionMetrics=SIZE
};
struct UpdateItemResponse {
  std::optional<Item> attributes;
  std::optional<ConsumedCapacity> consumed_capacity;
  std::optional<ItemCollectionMetrics> item_collection_metrics;
};

// ---- reads ----

enum class SortKeyOp { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };

// A key condition in structured form: partition key equality and an optional sort-key
// predicate. Names are the attribute names the caller used; they are checked against the
// table's or index's key schema.
//
// On a GSI with a multi-attribute key (KeySchema::IsMultiAttribute), `partition_*` is the first
// partition attribute and `more_partition` the equalities on the others, in key order; on the
// sort side `sort_prefix` holds the equalities on the leading sort attributes and `sort_name` /
// `op` the condition on the attribute right after them (equality or one range condition; kNone
// when no sort attribute is constrained). Both vectors are empty for a single-attribute key.
struct KeyCondition {
  std::string partition_name;
  AttributeValue partition_value;
  std::string sort_name;  // empty when op == kNone
  SortKeyOp op = SortKeyOp::kNone;
  AttributeValue sort_value;   // the operand (the lower bound for BETWEEN)
  AttributeValue sort_value2;  // BETWEEN's upper bound
  std::vector<std::pair<std::string, AttributeValue>> more_partition{};
  std::vector<std::pair<std::string, AttributeValue>> sort_prefix{};
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
  // Set only by QueryRequestFromJson (api/api_json.h) from legacy KeyConditions; empty otherwise.
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

// SearchVectors (core/vector_index.h): the TopK items of a vector index nearest SearchVector.
struct SearchVectorsRequest {
  std::string table_name;
  std::string index_name;
  std::vector<AttributeValue> search_vector;
  int64_t top_k = 0;
  expr::ExpressionInput expressions;  // search_condition, projection, names, values
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct SearchResult {
  Item item;
  double score = 0;
};
struct SearchVectorsResponse {
  std::vector<SearchResult> results;  // best first
  // ConsumedCapacity's VectorSearchRequestBytes (TOTAL or INDEXES asked): the bytes of vector
  // data the search examined and returned (keyhole's count; DynamoDB's varies from call to call).
  std::optional<int64_t> search_request_bytes;
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
  ItemList items;  // empty with Select COUNT; storage leaves whole items encoded until read

  int64_t count = 0;
  int64_t scanned_count = 0;
  std::optional<Item> last_evaluated_key;
  std::optional<ConsumedCapacity> consumed_capacity;
};
using QueryResponse = ReadResponse;
using ScanResponse = ReadResponse;

// ---- batches (reference §4.7) ----

// BatchWriteItem's PutRequest / DeleteRequest.
struct PutRequest {
  Item item;
};
struct DeleteRequest {
  Item key;
};
// One element of a table's list in RequestItems: exactly one of the two is set.
struct WriteRequest {
  std::optional<PutRequest> put_request;
  std::optional<DeleteRequest> delete_request;
};

// RequestItems: table name -> 1..25 requests (25 in total across tables). No conditions, no
// updates, no two requests on the same key.
struct BatchWriteItemRequest {
  std::map<std::string, std::vector<WriteRequest>> request_items;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  bool return_item_collection_metrics = false;  // ReturnItemCollectionMetrics=SIZE
};
struct BatchWriteItemResponse {
  // keyhole writes the whole batch in one LMDB transaction and never throttles, so this is
  // always empty; it is here because the API has it and clients loop on it.
  std::map<std::string, std::vector<WriteRequest>> unprocessed_items;
  // One entry per table (empty when ReturnConsumedCapacity is NONE).
  std::vector<ConsumedCapacity> consumed_capacity;
  // ReturnItemCollectionMetrics=SIZE: per table with local secondary indexes, one entry per
  // write, in request order.
  std::map<std::string, std::vector<ItemCollectionMetrics>> item_collection_metrics;
};

// A table's entry in BatchGetItem's RequestItems (and UnprocessedKeys).
struct KeysAndAttributes {
  std::vector<Item> keys;
  bool consistent_read = false;
  expr::ExpressionInput expressions;  // projection, names
};
// RequestItems: table name -> keys; 1..100 keys in total, no duplicates.
struct BatchGetItemRequest {
  std::map<std::string, KeysAndAttributes> request_items;
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct BatchGetItemResponse {
  // Every requested table, with the items found (missing ones are simply absent), in the order
  // their keys were given (DynamoDB's order is unspecified).
  std::map<std::string, std::vector<Item>> responses;
  // The keys not read because the response reached 16 MB, with their table's parameters.
  std::map<std::string, KeysAndAttributes> unprocessed_keys;
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table; empty for NONE
};

// ---- transactions (reference §3.10) ----

// TransactWriteItems' ConditionCheck: a condition on one item, which is not written.
struct ConditionCheck {
  std::string table_name;
  Item key;
  expr::ExpressionInput expressions;  // condition (required), names, values
  ReturnValues return_values_on_condition_check_failure = ReturnValues::kNone;  // NONE | ALL_OLD
};

// One action: exactly one member is set. Put, Update and Delete reuse the single-item requests,
// of which the API's transactional actions take TableName, Item/Key, the expressions and
// ReturnValuesOnConditionCheckFailure; their ReturnValues and ReturnConsumedCapacity must stay
// at NONE (the transaction's own ReturnConsumedCapacity applies).
struct TransactWriteItem {
  std::optional<ConditionCheck> condition_check;
  std::optional<PutItemRequest> put;
  std::optional<DeleteItemRequest> delete_;  // "Delete" (delete is a keyword)
  std::optional<UpdateItemRequest> update;
};
struct TransactWriteItemsRequest {
  std::vector<TransactWriteItem> transact_items;  // 1..100
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
  // 1..36 characters: the same request with the same token within 10 minutes succeeds again
  // without writing; a different request with it is IdempotentParameterMismatchException.
  std::optional<std::string> client_request_token;
  bool return_item_collection_metrics = false;  // ReturnItemCollectionMetrics=SIZE
};
struct TransactWriteItemsResponse {
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table; empty for NONE
  // As BatchWriteItemResponse's (ConditionChecks report none).
  std::map<std::string, std::vector<ItemCollectionMetrics>> item_collection_metrics;
};

// TransactGetItems' Get: GetItemRequest's TableName, Key and projection (its ConsistentRead and
// ReturnConsumedCapacity are not part of the API's Get and stay at their defaults).
struct TransactGetItem {
  GetItemRequest get;
};
struct TransactGetItemsRequest {
  std::vector<TransactGetItem> transact_items;  // 1..100
  ReturnConsumedCapacity return_consumed_capacity = ReturnConsumedCapacity::kNone;
};
struct TransactGetItemsResponse {
  // One per Get, in order; nullopt when the item does not exist (the API's empty {}).
  std::vector<std::optional<Item>> responses;
  std::vector<ConsumedCapacity> consumed_capacity;  // one per table; empty for NONE
};

}  // namespace keyhole
