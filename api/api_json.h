// The DynamoDB JSON wire form of the operation model (core/operations.h): request bodies as the
// HTTP API and `aws dynamodb ... --cli-input-json` send them, and response bodies as DynamoDB
// returns them.
//
// Decoders are strict, in DynamoDB's order of checks:
//  1. Members. In the shell's API form a member the API does not define is rejected ("Unknown
//     parameter in input: \"Foo\", must be one of: ...", botocore's words, naming the member);
//     on keyhole serve (an api_json::UnknownMembersIgnored on the thread, set from
//     CallContext::ignore_unknown_members) it is skipped, as DynamoDB skips it. A member the API
//     defines but keyhole does not implement yet is rejected with "keyhole does not support the
//     parameter X yet": never silently ignored.
//  2. JSON types. A member of the wrong type is a SerializationException in DynamoDB's words
//     ("TRUE_VALUE cannot be converted to String"), with botocore's "Invalid type for parameter
//     Limit, ..." as its hint; it comes before the constraint errors of step 3, a missing
//     required member's included (the Parity Suite's validation-ordering records, October
//     2026). Explicit JSON null reads as absent.
//  3. Constraints (required members, enums, ranges, lengths, name patterns), all reported at
//     once as DynamoDB does: "2 validation errors detected: Value '' at 'tableName' failed to
//     satisfy constraint: ...; Value ...". Member paths are DynamoDB's camelCase ones
//     ('keySchema.1.member.keyType', 'keyConditions.a.member.comparisonOperator').
//  4. Request rules that need no table: AttributeValues (core/ddb_json.h), ReturnValues allowed
//     per operation, index list and GlobalSecondaryIndexUpdates shapes, per-index
//     ProvisionedThroughput against BillingMode, and the legacy parameters: "Can not use both
//     expression and non-expression parameters in the same request: ..", ExpressionAttributeNames
//     and Values without an expression, ConditionalOperator's rules, then Expected,
//     AttributeUpdates, AttributesToGet, ScanFilter, QueryFilter and KeyConditions with
//     DynamoDB's messages. The legacy parameters are translated into expression ASTs
//     (ExpressionInput::parsed; api_json_legacy.cpp has the table of translations), so the
//     engine runs one path; KeyConditions stays structured (BindKeyConditions).
// Rules that need the catalog (key schemas, index existence, item size) stay with storage.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole {

// True for the operations this module speaks: CreateTable, DeleteTable, DescribeTable,
// ListTables, UpdateTable, PutItem, GetItem, DeleteItem, UpdateItem, Query, Scan,
// BatchGetItem, BatchWriteItem, TransactGetItems and TransactWriteItems, and the DynamoDB
// Streams operations ListStreams, DescribeStream, GetShardIterator and GetRecords.
bool IsKnownOperation(std::string_view name);

// ---- requests ----

// CreateTable. BillingMode defaults to PROVISIONED as in the API (CreateTableRequest's
// in-process default is PAY_PER_REQUEST), so a body without BillingMode needs
// ProvisionedThroughput. A GSI's ProvisionedThroughput is validated (both units, >= 1; required
// when PROVISIONED, refused when PAY_PER_REQUEST) and kept in its IndexSpec (DescribeTable
// reports it; keyhole meters but does not throttle).
Result<CreateTableRequest> CreateTableRequestFromJson(const json::Value& v);
Result<DeleteTableRequest> DeleteTableRequestFromJson(const json::Value& v);
Result<DescribeTableRequest> DescribeTableRequestFromJson(const json::Value& v);
Result<ListTablesRequest> ListTablesRequestFromJson(const json::Value& v);
// UpdateTable: AttributeDefinitions and GlobalSecondaryIndexUpdates with one Create or one
// Delete, and any number of Updates (a GSI's ProvisionedThroughput). Two create/delete actions
// are LimitExceededException as on DynamoDB ("Subscriber limit exceeded: Only 1 online index can
// be created or deleted simultaneously per table").
Result<UpdateTableRequest> UpdateTableRequestFromJson(const json::Value& v);
// PutItem, DeleteItem and UpdateItem take ReturnItemCollectionMetrics (SIZE or NONE), Expected
// and ConditionalOperator, UpdateItem AttributeUpdates, GetItem AttributesToGet
// (api_json_legacy.cpp).
Result<PutItemRequest> PutItemRequestFromJson(const json::Value& v);
Result<GetItemRequest> GetItemRequestFromJson(const json::Value& v);
Result<DeleteItemRequest> DeleteItemRequestFromJson(const json::Value& v);
Result<UpdateItemRequest> UpdateItemRequestFromJson(const json::Value& v);
// Query with the legacy KeyConditions parameter: the terms land in `key_conditions`, in request
// order; call BindKeyConditions once the table is known, before executing the request. Query
// and Scan also take AttributesToGet, QueryFilter / ScanFilter and ConditionalOperator.
Result<QueryRequest> QueryRequestFromJson(const json::Value& v);
Result<ScanRequest> ScanRequestFromJson(const json::Value& v);
Result<SearchVectorsRequest> SearchVectorsRequestFromJson(const json::Value& v);
// Batches and transactions (api/api_json_batches.cpp). The decoders read the shapes and the
// per-member constraints; the counts (25 writes, 100 keys or actions), duplicates and key
// schemas are checked by storage, which has DynamoDB's messages for them. A transaction's
// Update needs an UpdateExpression and a ConditionCheck a ConditionExpression (constraint
// errors at 'transactItems.<n>.member.update.updateExpression' etc.); ClientRequestToken is
// 1..36 characters.
Result<BatchWriteItemRequest> BatchWriteItemRequestFromJson(const json::Value& v);
Result<BatchGetItemRequest> BatchGetItemRequestFromJson(const json::Value& v);
Result<TransactWriteItemsRequest> TransactWriteItemsRequestFromJson(const json::Value& v);
Result<TransactGetItemsRequest> TransactGetItemsRequestFromJson(const json::Value& v);

// Resolves QueryRequest::key_conditions against the key schema of the table or index queried:
// the partition key's EQ term becomes key_condition's partition part, the other term its sort
// part, and key_conditions is cleared. Errors, as DynamoDB words them: "Query key condition not
// supported" (a non-EQ partition term, or two terms on a key without a sort key) and "Query
// condition missed key schema element: <name>". Key types, begins_with on N and empty key
// values are left to storage's own key-condition check. A request without terms is unchanged.
Status BindKeyConditions(const KeySchema& key, QueryRequest* r);
// The same against `table`, using the key schema of r->index_name when set ("The table does not
// have the specified index: <name>" when the index does not exist).
Status BindKeyConditions(const TableDescription& table, QueryRequest* r);

// ---- request encoders ----
// The inverse of the decoders above for the six item/read requests: DynamoDB's request body
// (TableName, Key/Item, IndexName, the expressions with ExpressionAttributeNames/Values, Limit,
// ExclusiveStartKey, Select, Segment/TotalSegments, ReturnValues, ReturnConsumedCapacity, ...).
// Members at their default are omitted (ScanIndexForward appears only when false,
// ConsistentRead only when true, ReturnValues only when not NONE). Expressions given as parsed
// ASTs (ExpressionInput::parsed) and a Query's structured KeyCondition are rendered to text with
// `#n<k>`/`:v<k>` placeholders (core/expression_text.h); strings are copied with their maps.
// A Query's unbound legacy terms (key_conditions) are written as KeyConditions. Legacy
// parameters (ExpressionInput::legacy) are written as the client sent them, with a structured
// key condition as KeyConditions beside them.
json::Value GetItemRequestToJson(const GetItemRequest& r);
json::Value QueryRequestToJson(const QueryRequest& r);
json::Value ScanRequestToJson(const ScanRequest& r);
json::Value SearchVectorsRequestToJson(const SearchVectorsRequest& r);
json::Value PutItemRequestToJson(const PutItemRequest& r);
json::Value UpdateItemRequestToJson(const UpdateItemRequest& r);
json::Value DeleteItemRequestToJson(const DeleteItemRequest& r);
// Batches and transactions: {"RequestItems": ..} / {"TransactItems": [..]}, with
// ReturnConsumedCapacity when not NONE and ClientRequestToken when set. A transaction's Put,
// Update and Delete bodies are the single-item encoders above (their ReturnValues and
// ReturnConsumedCapacity are NONE in a transaction, so they do not appear).
json::Value BatchWriteItemRequestToJson(const BatchWriteItemRequest& r);
json::Value BatchGetItemRequestToJson(const BatchGetItemRequest& r);
json::Value TransactWriteItemsRequestToJson(const TransactWriteItemsRequest& r);
json::Value TransactGetItemsRequestToJson(const TransactGetItemsRequest& r);
// The RequestItems/UnprocessedItems and RequestItems/UnprocessedKeys maps.
json::Value WriteRequestsToJson(const std::map<std::string, std::vector<WriteRequest>>& items);
json::Value KeysAndAttributesToJson(const std::map<std::string, KeysAndAttributes>& items);

// ---- responses ----
// Shapes as DynamoDB returns them; absent optional members are omitted (GetItem of a missing
// item is {}). TableDescriptions are TableToJson (core/schema.h) without keyhole's catalog-only
// member KeyholeTableId.

json::Value CreateTableResponseToJson(const CreateTableResponse& r);      // {"TableDescription":..}
json::Value DeleteTableResponseToJson(const DeleteTableResponse& r);      // {"TableDescription":..}
json::Value DescribeTableResponseToJson(const DescribeTableResponse& r);  // {"Table":..}
json::Value ListTablesResponseToJson(const ListTablesResponse& r);
json::Value UpdateTableResponseToJson(const UpdateTableResponse& r);  // {"TableDescription":..}
json::Value PutItemResponseToJson(const PutItemResponse& r);
json::Value GetItemResponseToJson(const GetItemResponse& r);
json::Value DeleteItemResponseToJson(const DeleteItemResponse& r);
json::Value UpdateItemResponseToJson(const UpdateItemResponse& r);
// Query and Scan: {"Items", "Count", "ScannedCount", "LastEvaluatedKey"?, "ConsumedCapacity"?}.
// With `select` Select::kCount, Items is omitted as DynamoDB does (pass the request's Select).
json::Value QueryResponseToJson(const QueryResponse& r, Select select = Select::kUnset);
json::Value ScanResponseToJson(const ScanResponse& r, Select select = Select::kUnset);
// SearchVectors: {"SearchResults": [{"Item", "Score"}], "ConsumedCapacity"?:
// {"VectorSearchRequestBytes"}}.
json::Value SearchVectorsResponseToJson(const SearchVectorsResponse& r);

// {"TableName", "CapacityUnits", "ReadCapacityUnits"?, "WriteCapacityUnits"?, "Table"?,
// "LocalSecondaryIndexes"?, "GlobalSecondaryIndexes"?}. Read/WriteCapacityUnits appear when
// non-zero. The per-table and per-index detail appears when the request asked for INDEXES, which
// is recognised by the detail being filled: storage clears it for TOTAL, and every operation
// consumes something on the table or an index.
json::Value ConsumedCapacityToJson(const ConsumedCapacity& c);
// {"ItemCollectionKey": {...}, "SizeEstimateRangeGB": [lower, upper]}.
json::Value ItemCollectionMetricsToJson(const ItemCollectionMetrics& m);
// BatchWriteItem's and TransactWriteItems' "ItemCollectionMetrics": {"T": [...]}, added to `o`
// when not empty.
void AddCollectionMetricsMap(const std::map<std::string, std::vector<ItemCollectionMetrics>>& m,
                             json::Value* o);

// BatchWriteItem: {"UnprocessedItems": {..} (always present), "ConsumedCapacity": [..]?}.
json::Value BatchWriteItemResponseToJson(const BatchWriteItemResponse& r);
// BatchGetItem: {"Responses": {table: [items]}, "UnprocessedKeys": {..}, "ConsumedCapacity"?}.
json::Value BatchGetItemResponseToJson(const BatchGetItemResponse& r);
// TransactWriteItems: {} or {"ConsumedCapacity": [..]}.
json::Value TransactWriteItemsResponseToJson(const TransactWriteItemsResponse& r);
// TransactGetItems: {"Responses": [{"Item": ..} or {} per Get], "ConsumedCapacity"?}.
json::Value TransactGetItemsResponseToJson(const TransactGetItemsResponse& r);

// The JSON error body DynamoDB sends for a failed request (api_json_errors.cpp, reference §7.5):
// {"__type": "<namespace>#<ErrorName>", "message": ..}, with DynamoDB's namespaces
// (com.amazon.coral.validate# for ValidationException, com.amazon.coral.service# for
// SerializationException and AccessDeniedException, com.amazonaws.dynamodb.v20120810# for the
// modeled errors) and casing ("Message" for TransactionCanceledException,
// IdempotentParameterMismatchException and the coral service errors), plus "Item" for a
// ConditionalCheckFailedException that carries one, and for a TransactionCanceledException
// "CancellationReasons": [{"Code": "None"}, {"Code": "ConditionalCheckFailed", "Message": "The
// conditional request failed", "Item"?: ..}, ..]. keyhole's own error codes
// (DatabaseFormatException, InterruptedException) go out as InternalServerError.
json::Value ErrorToJson(const Status& s);
// The HTTP status DynamoDB answers `s` with: 400, or 500 for InternalServerError (and keyhole's
// own codes).
int ErrorHttpStatus(const Status& s);

// ---- DynamoDB Streams (api_json_streams.cpp, reference §6.2) ----
// Requests: ListStreams {TableName?, Limit? 1..100, ExclusiveStartStreamArn?}, DescribeStream
// {StreamArn, Limit? 1..100, ExclusiveStartShardId?}, GetShardIterator {StreamArn, ShardId,
// ShardIteratorType, SequenceNumber?}, GetRecords {ShardIterator, Limit? 1..1000}. Whether a
// SequenceNumber is needed, and everything about the stream itself, is checked by storage.
Result<ListStreamsRequest> ListStreamsRequestFromJson(const json::Value& v);
Result<DescribeStreamRequest> DescribeStreamRequestFromJson(const json::Value& v);
Result<GetShardIteratorRequest> GetShardIteratorRequestFromJson(const json::Value& v);
Result<GetRecordsRequest> GetRecordsRequestFromJson(const json::Value& v);
// Responses: {"Streams": [{StreamArn, TableName, StreamLabel}], "LastEvaluatedStreamArn"?};
// {"StreamDescription": {StreamArn, StreamLabel, StreamStatus, StreamViewType,
// CreationRequestDateTime, TableName, KeySchema, Shards: [{ShardId, SequenceNumberRange:
// {StartingSequenceNumber, EndingSequenceNumber?}}], LastEvaluatedShardId?}};
// {"ShardIterator"}; {"Records": [..], "NextShardIterator"?}.
json::Value ListStreamsResponseToJson(const ListStreamsResponse& r);
json::Value DescribeStreamResponseToJson(const DescribeStreamResponse& r);
json::Value GetShardIteratorResponseToJson(const GetShardIteratorResponse& r);
json::Value GetRecordsResponseToJson(const GetRecordsResponse& r);
// One record in the reference's shape: {eventID, eventName, eventVersion, eventSource,
// awsRegion, dynamodb: {ApproximateCreationDateTime, Keys, NewImage?, OldImage?,
// SequenceNumber, SizeBytes, StreamViewType}, userIdentity? (TTL deletions)}.
json::Value StreamRecordToJson(const StreamRecord& r);

// Tags and continuous backups (api_json_control.cpp). TagResource {ResourceArn, Tags: [{Key,
// Value}]}, UntagResource {ResourceArn, TagKeys}, ListTagsOfResource {ResourceArn, NextToken?}:
// a request without ResourceArn is "Invalid TableArn" (dynalite's tests, run against AWS), one
// without Tags or TagKeys a null-constraint error; the ARN and tag rules are storage's
// (core/tags.h). TagResource and UntagResource answer {} here; DynamoDB sends an EMPTY body,
// which the server writes (server/dynamodb_server.cpp). ListTagsOfResource: {"Tags": [..],
// "NextToken"?}. DescribeContinuousBackups {TableName}; UpdateContinuousBackups {TableName,
// PointInTimeRecoverySpecification {PointInTimeRecoveryEnabled, RecoveryPeriodInDays? 1..35}};
// both answer {"ContinuousBackupsDescription": {ContinuousBackupsStatus,
// PointInTimeRecoveryDescription {PointInTimeRecoveryStatus, RecoveryPeriodInDays?,
// EarliestRestorableDateTime?, LatestRestorableDateTime?}}}.
Result<TagResourceRequest> TagResourceRequestFromJson(const json::Value& v);
Result<UntagResourceRequest> UntagResourceRequestFromJson(const json::Value& v);
Result<ListTagsOfResourceRequest> ListTagsOfResourceRequestFromJson(const json::Value& v);
Result<DescribeContinuousBackupsRequest> DescribeContinuousBackupsRequestFromJson(
    const json::Value& v);
Result<UpdateContinuousBackupsRequest> UpdateContinuousBackupsRequestFromJson(const json::Value& v);
json::Value TagResourceResponseToJson(const TagResourceResponse& r);
json::Value UntagResourceResponseToJson(const UntagResourceResponse& r);
json::Value ListTagsOfResourceResponseToJson(const ListTagsOfResourceResponse& r);
json::Value DescribeContinuousBackupsResponseToJson(const DescribeContinuousBackupsResponse& r);
json::Value UpdateContinuousBackupsResponseToJson(const UpdateContinuousBackupsResponse& r);

// UpdateTimeToLive {TableName, TimeToLiveSpecification {Enabled, AttributeName}} and
// DescribeTimeToLive {TableName} (api_json_ttl.cpp).
Result<UpdateTimeToLiveRequest> UpdateTimeToLiveRequestFromJson(const json::Value& v);
Result<DescribeTimeToLiveRequest> DescribeTimeToLiveRequestFromJson(const json::Value& v);
json::Value UpdateTimeToLiveResponseToJson(const UpdateTimeToLiveResponse& r);
json::Value DescribeTimeToLiveResponseToJson(const DescribeTimeToLiveResponse& r);

}  // namespace keyhole
