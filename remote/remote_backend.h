// remote::RemoteBackend: a Backend over DynamoDB's JSON-over-HTTP protocol (design.md, "The
// shape"). Each operation is encoded with api/'s request encoders, POSTed with its X-Amz-Target,
// and the response (or the error, with its type, message, CancellationReasons and Item) decoded
// with api/'s response decoders, so a front end sees exactly what an in-process Backend would
// return. Today it speaks plain HTTP without signatures, which is what `keyhole serve` (and
// DynamoDB Local) accept: keyhole's script tests run through it against an in-process server
// (`keyhole_sqltest --backend http`). HTTPS, SigV4 signing and retries, for real DynamoDB
// endpoints, are the remote shell's issue.
//
// TableSchema (the planner's view of a table) is DescribeTable, cached per table name: the
// cache entry is dropped by this backend's own CreateTable, DeleteTable, UpdateTable and
// UpdateTimeToLive on that table, and by a ResourceNotFoundException that names it. A schema
// changed by another client is seen once the entry is dropped.
//
// Thread-safety: one RemoteBackend may be used by several threads; each call takes a connection
// of its own from a small pool (keep-alive), and the schema cache is guarded by a mutex.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/backend.h"
#include "core/json.h"

namespace keyhole::remote {

class RemoteBackend : public Backend {
 public:
  struct Options {
    // "http://host:port" (a trailing slash is allowed).
    std::string endpoint;
    // Seconds to wait to connect, and for each response.
    int connect_timeout_seconds = 5;
    int read_timeout_seconds = 60;
  };

  // ValidationException for an endpoint that is not http://host[:port][/].
  static Result<std::unique_ptr<RemoteBackend>> Create(const Options& options);
  ~RemoteBackend() override;

  Result<CreateTableResponse> CreateTable(const CreateTableRequest& request) override;
  Result<DeleteTableResponse> DeleteTable(const DeleteTableRequest& request) override;
  Result<DescribeTableResponse> DescribeTable(const DescribeTableRequest& request) override;
  Result<ListTablesResponse> ListTables(const ListTablesRequest& request) override;
  Result<UpdateTableResponse> UpdateTable(const UpdateTableRequest& request) override;
  Result<TagResourceResponse> TagResource(const TagResourceRequest& request) override;
  Result<UntagResourceResponse> UntagResource(const UntagResourceRequest& request) override;
  Result<ListTagsOfResourceResponse> ListTagsOfResource(
      const ListTagsOfResourceRequest& request) override;
  Result<DescribeContinuousBackupsResponse> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& request) override;
  Result<UpdateContinuousBackupsResponse> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& request) override;
  Result<PutItemResponse> PutItem(const PutItemRequest& request) override;
  Result<GetItemResponse> GetItem(const GetItemRequest& request) override;
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& request) override;
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& request) override;
  Result<BatchWriteItemResponse> BatchWriteItem(const BatchWriteItemRequest& request) override;
  Result<BatchGetItemResponse> BatchGetItem(const BatchGetItemRequest& request) override;
  Result<TransactWriteItemsResponse> TransactWriteItems(
      const TransactWriteItemsRequest& request) override;
  Result<TransactGetItemsResponse> TransactGetItems(
      const TransactGetItemsRequest& request) override;
  Result<QueryResponse> Query(const QueryRequest& request) override;
  Result<ScanResponse> Scan(const ScanRequest& request) override;
  Result<UpdateTimeToLiveResponse> UpdateTimeToLive(
      const UpdateTimeToLiveRequest& request) override;
  Result<DescribeTimeToLiveResponse> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& request) override;
  Result<ListStreamsResponse> ListStreams(const ListStreamsRequest& request) override;
  Result<DescribeStreamResponse> DescribeStream(const DescribeStreamRequest& request) override;
  Result<GetShardIteratorResponse> GetShardIterator(
      const GetShardIteratorRequest& request) override;
  Result<GetRecordsResponse> GetRecords(const GetRecordsRequest& request) override;
  Result<TableSchemaPtr> TableSchema(const std::string& table_name) override;

  struct Impl;

 private:
  explicit RemoteBackend(std::unique_ptr<Impl> impl);
  // POSTs `body` as operation `op` (X-Amz-Target `prefix` + op) and returns the response body,
  // or the error it carries (api/api_json_client.h ErrorFromJson); a connection failure is
  // InternalServerError naming the endpoint.
  Result<json::Value> Call(std::string_view op, const json::Value& body, bool streams = false);
  // One operation: `request` encoded, called, and its response decoded.
  template <typename Response, typename Request>
  Result<Response> Exchange(std::string_view op, const Request& request,
                            json::Value (*encode)(const Request&),
                            Result<Response> (*decode)(const json::Value&), bool streams = false);
  void Forget(const std::string& table_name);
  std::unique_ptr<Impl> impl_;
};

}  // namespace keyhole::remote
