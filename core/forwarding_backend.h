// ForwardingBackend: a Backend that passes every operation to the backend it wraps. A decorator
// derives from it and overrides only the operations it changes (ReadOnlyBackend refuses writes;
// the shell's RecordingBackend records what each item operation consumed).
//
// Thread-safety: as the wrapped backend's.
#pragma once

#include <string>

#include "core/backend.h"

namespace keyhole {

class ForwardingBackend : public Backend {
 public:
  explicit ForwardingBackend(Backend& inner) : inner_(inner) {}

  Result<CreateTableResponse> CreateTable(const CreateTableRequest& r) override {
    return inner_.CreateTable(r);
  }
  Result<DeleteTableResponse> DeleteTable(const DeleteTableRequest& r) override {
    return inner_.DeleteTable(r);
  }
  Result<DescribeTableResponse> DescribeTable(const DescribeTableRequest& r) override {
    return inner_.DescribeTable(r);
  }
  Result<ListTablesResponse> ListTables(const ListTablesRequest& r) override {
    return inner_.ListTables(r);
  }
  Result<UpdateTableResponse> UpdateTable(const UpdateTableRequest& r) override {
    return inner_.UpdateTable(r);
  }
  Result<TagResourceResponse> TagResource(const TagResourceRequest& r) override {
    return inner_.TagResource(r);
  }
  Result<UntagResourceResponse> UntagResource(const UntagResourceRequest& r) override {
    return inner_.UntagResource(r);
  }
  Result<ListTagsOfResourceResponse> ListTagsOfResource(
      const ListTagsOfResourceRequest& r) override {
    return inner_.ListTagsOfResource(r);
  }
  Result<DescribeContinuousBackupsResponse> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& r) override {
    return inner_.DescribeContinuousBackups(r);
  }
  Result<UpdateContinuousBackupsResponse> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& r) override {
    return inner_.UpdateContinuousBackups(r);
  }
  Result<PutItemResponse> PutItem(const PutItemRequest& r) override { return inner_.PutItem(r); }
  Result<GetItemResponse> GetItem(const GetItemRequest& r) override { return inner_.GetItem(r); }
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& r) override {
    return inner_.DeleteItem(r);
  }
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& r) override {
    return inner_.UpdateItem(r);
  }
  Result<BatchWriteItemResponse> BatchWriteItem(const BatchWriteItemRequest& r) override {
    return inner_.BatchWriteItem(r);
  }
  Result<BatchGetItemResponse> BatchGetItem(const BatchGetItemRequest& r) override {
    return inner_.BatchGetItem(r);
  }
  Result<TransactWriteItemsResponse> TransactWriteItems(
      const TransactWriteItemsRequest& r) override {
    return inner_.TransactWriteItems(r);
  }
  Result<TransactGetItemsResponse> TransactGetItems(const TransactGetItemsRequest& r) override {
    return inner_.TransactGetItems(r);
  }
  Result<QueryResponse> Query(const QueryRequest& r) override { return inner_.Query(r); }
  Result<ScanResponse> Scan(const ScanRequest& r) override { return inner_.Scan(r); }
  Result<SearchVectorsResponse> SearchVectors(const SearchVectorsRequest& r) override {
    return inner_.SearchVectors(r);
  }
  Result<UpdateTimeToLiveResponse> UpdateTimeToLive(const UpdateTimeToLiveRequest& r) override {
    return inner_.UpdateTimeToLive(r);
  }
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
  Result<TableSchemaPtr> TableSchema(const std::string& table_name) override {
    return inner_.TableSchema(table_name);
  }

 protected:
  Backend& inner_;
};

}  // namespace keyhole
