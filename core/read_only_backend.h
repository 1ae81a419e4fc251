// ReadOnlyBackend: a Backend that refuses every write and every change to a table's definition
// with AccessDeniedException, before the backend it wraps is called, and passes every read on.
// `keyhole --readonly` on an endpoint runs on one: nothing that changes data is sent.
//
// Thread-safety: as the wrapped backend's.
#pragma once

#include <string>

#include "core/backend.h"

namespace keyhole {

class ReadOnlyBackend : public Backend {
 public:
  // `where` names what is protected in the message ("https://dynamodb.us-east-1...").
  ReadOnlyBackend(Backend& inner, std::string where) : inner_(inner), where_(std::move(where)) {}

  Result<CreateTableResponse> CreateTable(const CreateTableRequest&) override;
  Result<DeleteTableResponse> DeleteTable(const DeleteTableRequest&) override;
  Result<DescribeTableResponse> DescribeTable(const DescribeTableRequest& r) override {
    return inner_.DescribeTable(r);
  }
  Result<ListTablesResponse> ListTables(const ListTablesRequest& r) override {
    return inner_.ListTables(r);
  }
  Result<UpdateTableResponse> UpdateTable(const UpdateTableRequest&) override;
  Result<TagResourceResponse> TagResource(const TagResourceRequest&) override;
  Result<UntagResourceResponse> UntagResource(const UntagResourceRequest&) override;
  Result<ListTagsOfResourceResponse> ListTagsOfResource(
      const ListTagsOfResourceRequest& r) override {
    return inner_.ListTagsOfResource(r);
  }
  Result<DescribeContinuousBackupsResponse> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& r) override {
    return inner_.DescribeContinuousBackups(r);
  }
  Result<UpdateContinuousBackupsResponse> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest&) override;
  Result<PutItemResponse> PutItem(const PutItemRequest&) override;
  Result<GetItemResponse> GetItem(const GetItemRequest& r) override { return inner_.GetItem(r); }
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest&) override;
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest&) override;
  Result<BatchWriteItemResponse> BatchWriteItem(const BatchWriteItemRequest&) override;
  Result<BatchGetItemResponse> BatchGetItem(const BatchGetItemRequest& r) override {
    return inner_.BatchGetItem(r);
  }
  Result<TransactWriteItemsResponse> TransactWriteItems(const TransactWriteItemsRequest&) override;
  Result<TransactGetItemsResponse> TransactGetItems(const TransactGetItemsRequest& r) override {
    return inner_.TransactGetItems(r);
  }
  Result<QueryResponse> Query(const QueryRequest& r) override { return inner_.Query(r); }
  Result<ScanResponse> Scan(const ScanRequest& r) override { return inner_.Scan(r); }
  Result<UpdateTimeToLiveResponse> UpdateTimeToLive(const UpdateTimeToLiveRequest&) override;
  Result<DescribeTimeToLiveResponse> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& r) override {
    return inner_.DescribeTimeToLive(r);
  }
  Result<ListStreamsResponse> ListStreams(const ListStreamsRequest& r) override {
    return inner_.ListStreams(r);
  }
  Result<DescribeStreamResponse> DescribeStream(const DescribeStreamRequest& r) override {
    return inner_.DescribeStream(r);
  }
  Result<GetShardIteratorResponse> GetShardIterator(const GetShardIteratorRequest& r) override {
    return inner_.GetShardIterator(r);
  }
  Result<GetRecordsResponse> GetRecords(const GetRecordsRequest& r) override {
    return inner_.GetRecords(r);
  }
  Result<TableSchemaPtr> TableSchema(const std::string& table) override {
    return inner_.TableSchema(table);
  }

 private:
  Status Refuse(std::string_view operation) const;
  Backend& inner_;
  std::string where_;
};

}  // namespace keyhole
