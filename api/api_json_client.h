// The client's direction of DynamoDB's JSON wire form (design.md, "The shape": a remote backend
// reuses the same codecs in the other direction). api/api_json.h decodes requests and encodes
// responses for the server; this header adds what a Backend over DynamoDB's HTTP API needs:
//  - request encoders for the operations api_json.h has none for (tables, TTL, Streams);
//  - a response decoder for every Backend operation (core/backend.h);
//  - the error decoder, the inverse of ErrorToJson.
//
// Request encoders write the body boto3 sends for the same request: the API's member names, in
// the API model's order, members at their default omitted, so that the api_json.h decoder reads
// it back to an equal request (tests/unit/api_json_client_request_test.cpp checks encode -> decode
// -> encode gives the same text).
//
// Response decoders are lenient where DynamoDB may differ from keyhole and strict where the
// data would be wrong: members they do not know are ignored (ItemCollectionMetrics, TableArn,
// SSEDescription, ...), absent members read as their default (DeleteTable's description has no
// KeySchema; a PutItem without ReturnValues answers {}), JSON null reads as absent. A member of
// the wrong JSON kind, a number that does not fit its field, or an AttributeValue that does not
// decode is InternalServerError "Malformed DynamoDB response: <member path> ..." (the response
// cannot be trusted; nothing was misread silently). For what keyhole's own response encoders
// write, decode -> encode gives the same text; see each decoder for what a DynamoDB response
// carries that the operation model has no place for.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.h"
#include "core/operations.h"
#include "core/schema.h"
#include "core/status.h"

namespace keyhole {

// ---- request encoders (api_json_client_requests.cpp) ----

// CreateTable: AttributeDefinitions, TableName, KeySchema, LocalSecondaryIndexes and
// GlobalSecondaryIndexes (when not empty), BillingMode (always: the API's default is
// PROVISIONED, CreateTableRequest's is PAY_PER_REQUEST), ProvisionedThroughput (the units
// given), StreamSpecification (when given). IndexSpec has no throughput of its own: under
// PROVISIONED with both table units given, each GSI is given the table's units, which DynamoDB
// requires and the decoder validates and drops.
json::Value CreateTableRequestToJson(const CreateTableRequest& r);
json::Value DeleteTableRequestToJson(const DeleteTableRequest& r);      // {"TableName"}
json::Value DescribeTableRequestToJson(const DescribeTableRequest& r);  // {"TableName"}
// {"ExclusiveStartTableName"?, "Limit"?}; {} lists from the start.
json::Value ListTablesRequestToJson(const ListTablesRequest& r);

// UpdateTable: AttributeDefinitions (when not empty), TableName, GlobalSecondaryIndexUpdates
// ([{"Create": ..}], [{"Update": {"IndexName", "ProvisionedThroughput"}}].., [{"Delete":
// {"IndexName"}}], in that order; a GSI's ProvisionedThroughput when its IndexSpec has one),
// StreamSpecification (when given).
json::Value UpdateTableRequestToJson(const UpdateTableRequest& r);

// Tags and continuous backups: {"ResourceArn", "Tags": [{Key, Value}]}, {"ResourceArn",
// "TagKeys"}, {"ResourceArn", "NextToken"?}, {"TableName"}, {"TableName",
// "PointInTimeRecoverySpecification": {PointInTimeRecoveryEnabled, RecoveryPeriodInDays?}}.
// CreateTable's encoder adds SSESpecification and Tags when given; UpdateTable's BillingMode,
// ProvisionedThroughput and SSESpecification.
json::Value TagResourceRequestToJson(const TagResourceRequest& r);
json::Value UntagResourceRequestToJson(const UntagResourceRequest& r);
json::Value ListTagsOfResourceRequestToJson(const ListTagsOfResourceRequest& r);
json::Value DescribeContinuousBackupsRequestToJson(const DescribeContinuousBackupsRequest& r);
json::Value UpdateContinuousBackupsRequestToJson(const UpdateContinuousBackupsRequest& r);

// {"TableName", "TimeToLiveSpecification": {"Enabled", "AttributeName"}} and {"TableName"}.
json::Value UpdateTimeToLiveRequestToJson(const UpdateTimeToLiveRequest& r);
json::Value DescribeTimeToLiveRequestToJson(const DescribeTimeToLiveRequest& r);

// DynamoDB Streams (sent to the streams endpoint, target DynamoDBStreams_20120810.<Op>):
// {"TableName"?, "Limit"?, "ExclusiveStartStreamArn"?}; {"StreamArn", "Limit"?,
// "ExclusiveStartShardId"?}; {"StreamArn", "ShardId", "ShardIteratorType", "SequenceNumber"?};
// {"ShardIterator", "Limit"?}.
json::Value ListStreamsRequestToJson(const ListStreamsRequest& r);
json::Value DescribeStreamRequestToJson(const DescribeStreamRequest& r);
json::Value GetShardIteratorRequestToJson(const GetShardIteratorRequest& r);
json::Value GetRecordsRequestToJson(const GetRecordsRequest& r);

// ---- response decoders ----
// Each reads the body of a successful (HTTP 200) answer to its operation. `v` must be a JSON
// object (an empty HTTP body reads as {}: parse it so before calling); anything else is
// InternalServerError.

// A TableDescription as DescribeTable ("Table"), CreateTable, UpdateTable and DeleteTable
// ("TableDescription") return it (api_json_client_tables.cpp). Reads AttributeDefinitions (the
// key attributes' types), TableName, KeySchema, TableStatus, CreationDateTime,
// ProvisionedThroughput's units, TableSizeBytes, ItemCount, TableId (keyhole's
// "00000000-0000-4000-8000-<hex id>"; any other TableId, such as DynamoDB's random UUID, leaves
// `id` 0), BillingModeSummary (absent, as DynamoDB leaves it for a table created PROVISIONED
// by default: PROVISIONED when the table has read units, else PAY_PER_REQUEST), the LSIs and
// GSIs (IndexName, KeySchema, Projection, IndexStatus, IndexSizeBytes, ItemCount; interleaved
// back into creation order when the order of AttributeDefinitions shows it, as keyhole's
// encoder writes it, else LSIs then GSIs), StreamSpecification (enabled: its view type) and
// LatestStreamLabel. Not kept, because
// TableDescription has no place for them: the ARNs (TableArn, IndexArn, LatestStreamArn are
// recomputed by keyhole's encoder from the names, in region "local" and account 000000000000),
// GSIs' ProvisionedThroughput, table class, replicas, warm throughput, deletion protection. Read
// too: ProvisionedThroughput's LastIncreaseDateTime, LastDecreaseDateTime and
// NumberOfDecreasesToday, BillingModeSummary's LastUpdateToPayPerRequestDateTime, and
// SSEDescription (Status ENABLED: enabled, with its KMSMasterKeyArn). A key attribute missing from
// AttributeDefinitions is malformed, unless the description has no AttributeDefinitions at all
// (then its type reads as S).
Result<TableDescription> TableDescriptionFromJson(const json::Value& v);

Result<CreateTableResponse> CreateTableResponseFromJson(const json::Value& v);
Result<DeleteTableResponse> DeleteTableResponseFromJson(const json::Value& v);
Result<DescribeTableResponse> DescribeTableResponseFromJson(const json::Value& v);
Result<ListTablesResponse> ListTablesResponseFromJson(const json::Value& v);
Result<UpdateTableResponse> UpdateTableResponseFromJson(const json::Value& v);

// Tags and continuous backups (api_json_client_control.cpp). TagResource and UntagResource
// answer an empty body ({} once parsed); any members are ignored. ListTagsOfResource: Tags
// ([{Key, Value}]) and NextToken. The continuous-backups answers: ContinuousBackupsStatus and
// PointInTimeRecoveryDescription (its status, RecoveryPeriodInDays and the two restorable
// times).
Result<TagResourceResponse> TagResourceResponseFromJson(const json::Value& v);
Result<UntagResourceResponse> UntagResourceResponseFromJson(const json::Value& v);
Result<ListTagsOfResourceResponse> ListTagsOfResourceResponseFromJson(const json::Value& v);
Result<DescribeContinuousBackupsResponse> DescribeContinuousBackupsResponseFromJson(
    const json::Value& v);
Result<UpdateContinuousBackupsResponse> UpdateContinuousBackupsResponseFromJson(
    const json::Value& v);

// Items and reads (api_json_client_responses.cpp). PutItem, DeleteItem and UpdateItem read
// Attributes and ConsumedCapacity (ItemCollectionMetrics is not modelled); GetItem Item and
// ConsumedCapacity. Query and Scan read Items (absent with Select COUNT: no items), Count,
// ScannedCount, LastEvaluatedKey and ConsumedCapacity.
Result<PutItemResponse> PutItemResponseFromJson(const json::Value& v);
Result<GetItemResponse> GetItemResponseFromJson(const json::Value& v);
Result<DeleteItemResponse> DeleteItemResponseFromJson(const json::Value& v);
Result<UpdateItemResponse> UpdateItemResponseFromJson(const json::Value& v);
Result<QueryResponse> QueryResponseFromJson(const json::Value& v);
Result<ScanResponse> ScanResponseFromJson(const json::Value& v);
Result<SearchVectorsResponse> SearchVectorsResponseFromJson(const json::Value& v);
// The fast paths of GetItem's, Query's and Scan's decoders, straight from the response text:
// their items are read by ReadItemText (core/ddb_json.h) without a Value tree, the other
// members as above. nullopt when anything is unusual or wrong; the caller then parses the text
// and uses the decoder above, which gives the exact error.
std::optional<GetItemResponse> GetItemResponseFromText(std::string_view text);
std::optional<ReadResponse> ReadResponseFromText(std::string_view text);

// ConsumedCapacity: TableName, CapacityUnits, ReadCapacityUnits, WriteCapacityUnits into
// `total`; Table into `table`; LocalSecondaryIndexes and GlobalSecondaryIndexes into the maps.
// Units are read as given (a TOTAL answer's CapacityUnits without ReadCapacityUnits leaves
// total.read_units 0). keyhole's encoder writes Table only beside a non-zero Table figure or an
// index, so a {"Table": {"CapacityUnits": 0.0}} alone does not come back.
Result<ConsumedCapacity> ConsumedCapacityFromJson(const json::Value& v);

// Batches and transactions (api_json_client_responses.cpp). BatchWriteItem: UnprocessedItems,
// ConsumedCapacity. BatchGetItem: Responses, UnprocessedKeys (Keys, ProjectionExpression,
// ExpressionAttributeNames, ConsistentRead, as they were sent), ConsumedCapacity.
// TransactWriteItems: ConsumedCapacity. TransactGetItems: Responses ({} per missing item) and
// ConsumedCapacity.
Result<BatchWriteItemResponse> BatchWriteItemResponseFromJson(const json::Value& v);
Result<BatchGetItemResponse> BatchGetItemResponseFromJson(const json::Value& v);
Result<TransactWriteItemsResponse> TransactWriteItemsResponseFromJson(const json::Value& v);
Result<TransactGetItemsResponse> TransactGetItemsResponseFromJson(const json::Value& v);
// The inverses of WriteRequestsToJson and KeysAndAttributesToJson (UnprocessedItems,
// UnprocessedKeys). A WriteRequest with neither PutRequest nor DeleteRequest is malformed.
Result<std::map<std::string, std::vector<WriteRequest>>> WriteRequestsFromJson(
    const json::Value& v);
Result<std::map<std::string, KeysAndAttributes>> KeysAndAttributesFromJson(const json::Value& v);

// Time to Live (api_json_client_tables.cpp): {"TimeToLiveSpecification": {Enabled,
// AttributeName}}; {"TimeToLiveDescription": {TimeToLiveStatus, AttributeName?}} (DynamoDB's
// ENABLING and DISABLING are kept as they are).
Result<UpdateTimeToLiveResponse> UpdateTimeToLiveResponseFromJson(const json::Value& v);
Result<DescribeTimeToLiveResponse> DescribeTimeToLiveResponseFromJson(const json::Value& v);

// DynamoDB Streams (api_json_client_streams.cpp). DescribeStream's KeySchema carries names
// only, so the key attributes' types read as S. A shard's ParentShardId (DynamoDB splits
// shards; keyhole keeps one per stream) is not kept.
Result<ListStreamsResponse> ListStreamsResponseFromJson(const json::Value& v);
Result<DescribeStreamResponse> DescribeStreamResponseFromJson(const json::Value& v);
Result<GetShardIteratorResponse> GetShardIteratorResponseFromJson(const json::Value& v);
Result<GetRecordsResponse> GetRecordsResponseFromJson(const json::Value& v);
// One record. ApproximateCreationDateTime is rounded down to whole seconds; `service_deletion`
// is set by userIdentity {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"} (a TTL
// deletion); members absent keep StreamRecord's defaults.
Result<StreamRecord> StreamRecordFromJson(const json::Value& v);

// ---- errors (api_json_client_errors.cpp) ----

// The Status a failed request's HTTP answer means; never OK. The inverse of ErrorToJson and
// ErrorHttpStatus:
//  - the error name is what follows the last '#' of "__type", up to any ':'; the message is
//    "message", else "Message" (either may be absent: "");
//  - a name keyhole has an ErrorCode for keeps its code (ValidationException,
//    ConditionalCheckFailedException, ..., SerializationException, AccessDeniedException);
//    any other (ProvisionedThroughputExceededException, ThrottlingException,
//    UnrecognizedClientException, ...) is InternalServerError with the message
//    "<Name>: <message>" (ErrorNameFromJson gives the name back for retry decisions);
//  - a ConditionalCheckFailedException's "Item" becomes Status::item(), and
//    "CancellationReasons" [{Code, Message?, Item?}] Status::cancellation_reasons();
//  - a body that is empty, not JSON, or has no "__type": 413 is ValidationException (the
//    request is over DynamoDB's 16 MB limit; DynamoDB sends no body); otherwise
//    InternalServerError naming the HTTP status and quoting the body's first 200 bytes.
Status ErrorFromJson(int http_status, std::string_view body);

// The error name of a DynamoDB error body (after the last '#' of "__type", up to any ':'), or ""
// when the body is not a JSON object with a string "__type".
std::string ErrorNameFromJson(std::string_view body);

}  // namespace keyhole
