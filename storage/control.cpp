// Catalog-only table settings: tags (TagResource, UntagResource, ListTagsOfResource) and
// point-in-time recovery (DescribeContinuousBackups, UpdateContinuousBackups). Each is a change
// to the table's catalog record, so tags and settings survive reopening and go with the table.
#include <fmt/format.h>

#include <algorithm>

#include "core/tags.h"
#include "storage/engine.h"

namespace keyhole::storage {

namespace {

// The table a ResourceArn names, or the error for the ARN.
Result<std::string> ArnTable(const std::string& arn, std::string_view operation) {
  return TableNameFromResourceArn(arn, operation);
}

// TableNotFoundException, as DynamoDB answers the continuous-backups operations on a missing
// table ("Table not found: <name>").
Status TableNotFound(const std::string& name) {
  return Status(ErrorCode::kTableNotFound, fmt::format("Table not found: {}", name));
}

ContinuousBackupsDescription Describe(const TableDescription& t, double now) {
  ContinuousBackupsDescription d;
  if (!t.pitr_enabled) return d;
  PointInTimeRecoveryDescription& p = d.point_in_time_recovery;
  p.status = "ENABLED";
  p.recovery_period_in_days = t.pitr_recovery_period_days;
  // The earliest restorable time is when recovery was enabled, at most the period back; the
  // latest is typically five minutes before now (DynamoDB Developer Guide, "Point-in-time
  // recovery"), never before the earliest.
  const double earliest = std::max(t.pitr_enabled_at, now - t.pitr_recovery_period_days * 86400.0);
  p.earliest_restorable = earliest;
  p.latest_restorable = std::max(earliest, now - 300);
  return d;
}

}  // namespace

Result<TagResourceResponse> Database::TagResource(const TagResourceRequest& r) {
  KH_ASSIGN_OR_RETURN(std::string name, ArnTable(r.resource_arn, "TagResource"));
  KH_RETURN_IF_ERROR(ValidateTags(r.tags));
  Status s = impl_->WithTable(name, true, [&](Txn& txn, const TableHandle& h) -> Status {
    TableDescription t = h.desc;
    KH_RETURN_IF_ERROR(MergeTags(r.tags, &t.tags));
    return impl_->WriteTable(txn, t);
  });
  if (s.IsNotFound()) return ResourceArnNotFound(r.resource_arn);
  KH_RETURN_IF_ERROR(s);
  return TagResourceResponse{};
}

Result<UntagResourceResponse> Database::UntagResource(const UntagResourceRequest& r) {
  KH_ASSIGN_OR_RETURN(std::string name, ArnTable(r.resource_arn, "UntagResource"));
  KH_RETURN_IF_ERROR(ValidateTagKeys(r.tag_keys));
  Status s = impl_->WithTable(name, true, [&](Txn& txn, const TableHandle& h) -> Status {
    TableDescription t = h.desc;
    size_t removed = 0;
    for (const std::string& k : r.tag_keys) removed += t.tags.erase(k);
    if (removed == 0) return Status::OK();  // removing absent keys is legal and changes nothing
    return impl_->WriteTable(txn, t);
  });
  if (s.IsNotFound()) return ResourceArnNotFound(r.resource_arn);
  KH_RETURN_IF_ERROR(s);
  return UntagResourceResponse{};
}

Result<ListTagsOfResourceResponse> Database::ListTagsOfResource(
    const ListTagsOfResourceRequest& r) {
  KH_ASSIGN_OR_RETURN(std::string name, ArnTable(r.resource_arn, "ListTagsOfResource"));
  Result<TableSchemaPtr> t = TableSchema(name);
  if (!t.ok()) {
    if (t.status().IsNotFound()) return ResourceArnNotFound(r.resource_arn);
    return t.status();
  }
  // keyhole never hands out a NextToken (a table has at most 50 tags, which DynamoDB returns in
  // one page), so any token is one it did not issue.
  if (r.next_token) return Status::Validation("Invalid NextToken");
  ListTagsOfResourceResponse resp;
  for (const auto& [k, v] : (*t)->tags) resp.tags.push_back(Tag{k, v});
  return resp;
}

Result<DescribeContinuousBackupsResponse> Database::DescribeContinuousBackups(
    const DescribeContinuousBackupsRequest& r) {
  KH_RETURN_IF_ERROR(ValidateTableName(r.table_name));
  Result<TableSchemaPtr> t = TableSchema(r.table_name);
  if (!t.ok()) {
    if (t.status().IsNotFound()) return TableNotFound(r.table_name);
    return t.status();
  }
  DescribeContinuousBackupsResponse resp;
  resp.description = Describe(**t, impl_->clock());
  return resp;
}

Result<UpdateContinuousBackupsResponse> Database::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest& r) {
  KH_RETURN_IF_ERROR(ValidateTableName(r.table_name));
  UpdateContinuousBackupsResponse resp;
  const double now = impl_->clock();
  Status s = impl_->WithTable(r.table_name, true, [&](Txn& txn, const TableHandle& h) -> Status {
    if (!r.point_in_time_recovery_enabled && r.recovery_period_in_days) {
      return Status::Validation(
          "Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time "
          "recovery.");
    }
    TableDescription t = h.desc;
    if (r.point_in_time_recovery_enabled) {
      if (!t.pitr_enabled) t.pitr_enabled_at = now;
      t.pitr_enabled = true;
      t.pitr_recovery_period_days = r.recovery_period_in_days.value_or(35);
    } else {
      t.pitr_enabled = false;
      t.pitr_enabled_at = 0;
      t.pitr_recovery_period_days = 35;
    }
    resp.description = Describe(t, now);
    return impl_->WriteTable(txn, t);
  });
  if (s.IsNotFound()) return TableNotFound(r.table_name);
  KH_RETURN_IF_ERROR(s);
  return resp;
}

}  // namespace keyhole::storage
