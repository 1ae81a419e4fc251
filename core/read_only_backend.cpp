// ReadOnlyBackend (read_only_backend.h): every write refused before it is sent.
#include "core/read_only_backend.h"

#include <fmt/format.h>

namespace keyhole {

Status ReadOnlyBackend::Refuse(std::string_view operation) const {
  return Status::AccessDenied(
      fmt::format("keyhole was started with --readonly: {} was refused before anything was sent "
                  "to {}",
                  operation, where_));
}

Result<CreateTableResponse> ReadOnlyBackend::CreateTable(const CreateTableRequest&) {
  return Refuse("CreateTable");
}
Result<DeleteTableResponse> ReadOnlyBackend::DeleteTable(const DeleteTableRequest&) {
  return Refuse("DeleteTable");
}
Result<UpdateTableResponse> ReadOnlyBackend::UpdateTable(const UpdateTableRequest&) {
  return Refuse("UpdateTable");
}
Result<TagResourceResponse> ReadOnlyBackend::TagResource(const TagResourceRequest&) {
  return Refuse("TagResource");
}
Result<UntagResourceResponse> ReadOnlyBackend::UntagResource(const UntagResourceRequest&) {
  return Refuse("UntagResource");
}
Result<UpdateContinuousBackupsResponse> ReadOnlyBackend::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest&) {
  return Refuse("UpdateContinuousBackups");
}
Result<PutItemResponse> ReadOnlyBackend::PutItem(const PutItemRequest&) {
  return Refuse("PutItem");
}
Result<DeleteItemResponse> ReadOnlyBackend::DeleteItem(const DeleteItemRequest&) {
  return Refuse("DeleteItem");
}
Result<UpdateItemResponse> ReadOnlyBackend::UpdateItem(const UpdateItemRequest&) {
  return Refuse("UpdateItem");
}
Result<BatchWriteItemResponse> ReadOnlyBackend::BatchWriteItem(const BatchWriteItemRequest&) {
  return Refuse("BatchWriteItem");
}
Result<TransactWriteItemsResponse> ReadOnlyBackend::TransactWriteItems(
    const TransactWriteItemsRequest&) {
  return Refuse("TransactWriteItems");
}
Result<UpdateTimeToLiveResponse> ReadOnlyBackend::UpdateTimeToLive(const UpdateTimeToLiveRequest&) {
  return Refuse("UpdateTimeToLive");
}

}  // namespace keyhole
