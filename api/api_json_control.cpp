// The tables' control-plane operations beyond the table lifecycle: TagResource, UntagResource,
// ListTagsOfResource, DescribeContinuousBackups and UpdateContinuousBackups (JSON wire form), and
// the shapes CreateTable and UpdateTable share with them (Tags, SSESpecification).
#include <fmt/format.h>

#include <string>

#include "api/api_json.h"
#include "api/api_json_decode.h"

namespace keyhole {

namespace {
using api_json::MemberSpec;
using api_json::Path;
using api_json::Violations;

constexpr std::string_view kSseTypes[] = {"AES256", "KMS"};

// ResourceArn: required (absent: "Invalid TableArn", as dynalite's tests recorded AWS answering
// a request without it), 1..1283 characters.
Result<std::string> ReadResourceArn(const json::Value& v, const Path& at, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> arn, api_json::ReadString(v, "ResourceArn", at));
  if (!arn) return Status::Validation("Invalid TableArn");
  api_json::CheckLength(arn->size(), 1, 1283, *arn, at.Child("ResourceArn"), errs);
  return *arn;
}

json::Value Description(const ContinuousBackupsDescription& d) {
  json::Value p = json::Value::MakeObject();
  const PointInTimeRecoveryDescription& pitr = d.point_in_time_recovery;
  p.Add("PointInTimeRecoveryStatus", json::Value::String(pitr.status));
  if (pitr.recovery_period_in_days) {
    p.Add("RecoveryPeriodInDays", json::Value::Int(*pitr.recovery_period_in_days));
  }
  auto time = [](double t) { return json::Value::Number(fmt::format("{:.3f}", t)); };
  if (pitr.earliest_restorable)
    p.Add("EarliestRestorableDateTime", time(*pitr.earliest_restorable));
  if (pitr.latest_restorable) p.Add("LatestRestorableDateTime", time(*pitr.latest_restorable));
  json::Value c = json::Value::MakeObject();
  c.Add("ContinuousBackupsStatus", json::Value::String(d.continuous_backups_status));
  c.Add("PointInTimeRecoveryDescription", std::move(p));
  json::Value out = json::Value::MakeObject();
  out.Add("ContinuousBackupsDescription", std::move(c));
  return out;
}

}  // namespace

namespace api_json {

Result<std::optional<std::vector<Tag>>> ReadTags(const json::Value& v, const Path& at) {
  static constexpr MemberSpec kTag[] = {{"Key"}, {"Value"}};
  KH_ASSIGN_OR_RETURN(const json::Value* list, ReadList(v, "Tags", at));
  if (!list) return std::optional<std::vector<Tag>>();
  std::vector<Tag> tags;
  for (size_t i = 0; i < list->array().size(); ++i) {
    const json::Value& e = list->array()[i];
    Path p = at.Child("Tags").Element(i);
    KH_RETURN_IF_ERROR(CheckStructure(e, p, kTag));
    Tag t;
    KH_ASSIGN_OR_RETURN(std::optional<std::string> key, ReadString(e, "Key", p));
    KH_ASSIGN_OR_RETURN(t.value, ReadString(e, "Value", p));
    t.key = key.value_or("");
    tags.push_back(std::move(t));
  }
  return std::optional<std::vector<Tag>>(std::move(tags));
}

Result<std::optional<SSESpecification>> ReadSseSpecification(const json::Value& v, const Path& at,
                                                             Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"Enabled"}, {"SSEType"}, {"KMSMasterKeyId"}};
  KH_ASSIGN_OR_RETURN(const json::Value* spec, ReadObject(v, "SSESpecification", at));
  if (!spec) return std::optional<SSESpecification>();
  Path sp = at.Child("SSESpecification");
  KH_RETURN_IF_ERROR(CheckStructure(*spec, sp, kMembers));
  SSESpecification out;
  KH_ASSIGN_OR_RETURN(std::optional<bool> enabled, ReadBool(*spec, "Enabled", sp));
  out.enabled = enabled.value_or(false);
  KH_ASSIGN_OR_RETURN(std::optional<size_t> type, ReadEnum(*spec, "SSEType", sp, kSseTypes, errs));
  if (type) out.sse_type = std::string(kSseTypes[*type]);
  KH_ASSIGN_OR_RETURN(out.kms_master_key_id, ReadString(*spec, "KMSMasterKeyId", sp));
  return std::optional<SSESpecification>(std::move(out));
}

}  // namespace api_json

Result<TagResourceRequest> TagResourceRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"ResourceArn"}, {"Tags"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  TagResourceRequest r;
  KH_ASSIGN_OR_RETURN(r.resource_arn, ReadResourceArn(v, at, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<std::vector<Tag>> tags, api_json::ReadTags(v, at));
  if (!tags) errs.AddNull(at.Child("Tags"));
  r.tags = tags.value_or(std::vector<Tag>{});
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<UntagResourceRequest> UntagResourceRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"ResourceArn"}, {"TagKeys"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  UntagResourceRequest r;
  KH_ASSIGN_OR_RETURN(r.resource_arn, ReadResourceArn(v, at, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> keys,
                      api_json::ReadStringList(v, "TagKeys", at));
  if (!keys) errs.AddNull(at.Child("TagKeys"));
  r.tag_keys = keys.value_or(std::vector<std::string>{});
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<ListTagsOfResourceRequest> ListTagsOfResourceRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"ResourceArn"}, {"NextToken"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  ListTagsOfResourceRequest r;
  KH_ASSIGN_OR_RETURN(r.resource_arn, ReadResourceArn(v, at, &errs));
  KH_ASSIGN_OR_RETURN(r.next_token, api_json::ReadString(v, "NextToken", at));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<DescribeContinuousBackupsRequest> DescribeContinuousBackupsRequestFromJson(
    const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TableName"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  DescribeContinuousBackupsRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name,
                      api_json::ReadTableNameOrArnMember(v, "TableName", at, true, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<UpdateContinuousBackupsRequest> UpdateContinuousBackupsRequestFromJson(
    const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TableName"}, {"PointInTimeRecoverySpecification"}};
  static constexpr MemberSpec kSpec[] = {{"PointInTimeRecoveryEnabled"}, {"RecoveryPeriodInDays"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  UpdateContinuousBackupsRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name,
                      api_json::ReadTableNameOrArnMember(v, "TableName", at, true, &errs));
  KH_ASSIGN_OR_RETURN(
      const json::Value* spec,
      api_json::ReadRequiredObject(v, "PointInTimeRecoverySpecification", at, &errs));
  if (spec) {
    Path sp = at.Child("PointInTimeRecoverySpecification");
    KH_RETURN_IF_ERROR(api_json::CheckStructure(*spec, sp, kSpec));
    KH_ASSIGN_OR_RETURN(std::optional<bool> enabled,
                        api_json::ReadBool(*spec, "PointInTimeRecoveryEnabled", sp));
    if (!enabled) errs.AddNull(sp.Child("PointInTimeRecoveryEnabled"));
    r.point_in_time_recovery_enabled = enabled.value_or(false);
    KH_ASSIGN_OR_RETURN(std::optional<int64_t> days,
                        api_json::ReadInteger(*spec, "RecoveryPeriodInDays", sp));
    if (days) {
      api_json::CheckRange(*days, 1, 35, sp.Child("RecoveryPeriodInDays"), &errs);
      r.recovery_period_in_days = static_cast<int>(*days);
    }
  }
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

json::Value TagResourceResponseToJson(const TagResourceResponse&) {
  return json::Value::MakeObject();
}
json::Value UntagResourceResponseToJson(const UntagResourceResponse&) {
  return json::Value::MakeObject();
}

json::Value ListTagsOfResourceResponseToJson(const ListTagsOfResourceResponse& r) {
  json::Value tags = json::Value::MakeArray();
  for (const Tag& t : r.tags) {
    json::Value e = json::Value::MakeObject();
    e.Add("Key", json::Value::String(t.key));
    e.Add("Value", json::Value::String(t.value.value_or("")));
    tags.Push(std::move(e));
  }
  json::Value out = json::Value::MakeObject();
  out.Add("Tags", std::move(tags));
  if (r.next_token) out.Add("NextToken", json::Value::String(*r.next_token));
  return out;
}

json::Value DescribeContinuousBackupsResponseToJson(const DescribeContinuousBackupsResponse& r) {
  return Description(r.description);
}
json::Value UpdateContinuousBackupsResponseToJson(const UpdateContinuousBackupsResponse& r) {
  return Description(r.description);
}

}  // namespace keyhole
