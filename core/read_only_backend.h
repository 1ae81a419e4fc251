// ReadOnlyBackend: a Backend that refuses every write and every change to a table's definition
// with AccessDeniedException, before the backend it wraps is called, and passes every read on.
// `keyhole --readonly` on an endpoint runs on one: nothing that changes data is sent.
//
// Thread-safety: as the wrapped backend's.
#pragma once

#include <string>

#include "core/forwarding_backend.h"

namespace keyhole {

class ReadOnlyBackend : public ForwardingBackend {
 public:
  // `where` names what is protected in the message ("https://dynamodb.us-east-1...").
  ReadOnlyBackend(Backend& inner, std::string where)
      : ForwardingBackend(inner), where_(std::move(where)) {}

  Result<CreateTableResponse> CreateTable(const CreateTableRequest&) override;
  Result<DeleteTableResponse> DeleteTable(const DeleteTableRequest&) override;
  Result<UpdateTableResponse> UpdateTable(const UpdateTableRequest&) override;
  Result<TagResourceResponse> TagResource(const TagResourceRequest&) override;
  Result<UntagResourceResponse> UntagResource(const UntagResourceRequest&) override;
  Result<UpdateContinuousBackupsResponse> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest&) override;
  Result<PutItemResponse> PutItem(const PutItemRequest&) override;
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest&) override;
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest&) override;
  Result<BatchWriteItemResponse> BatchWriteItem(const BatchWriteItemRequest&) override;
  Result<TransactWriteItemsResponse> TransactWriteItems(const TransactWriteItemsRequest&) override;
  Result<UpdateTimeToLiveResponse> UpdateTimeToLive(const UpdateTimeToLiveRequest&) override;

 private:
  Status Refuse(std::string_view operation) const;
  std::string where_;
};

}  // namespace keyhole
