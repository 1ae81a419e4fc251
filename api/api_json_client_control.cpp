// Response decoders of api/api_json_client.h for tags and continuous backups: the inverses of
// api_json_control.cpp's encoders.
#include <string>
#include <utility>

#include "api/api_json_client.h"
#include "api/api_json_client_read.h"

namespace keyhole {

namespace {

using api_json_client::Child;
using api_json_client::Element;
using api_json_client::Find;
using api_json_client::Malformed;
using api_json_client::NeedObject;
using api_json_client::ReadDouble;
using api_json_client::ReadInt;
using api_json_client::ReadString;

Result<ContinuousBackupsDescription> Backups(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  const std::string at = "ContinuousBackupsDescription";
  KH_ASSIGN_OR_RETURN(const json::Value* d, Find(v, at, json::Kind::kObject, ""));
  if (!d) return Malformed(at, "is missing");
  ContinuousBackupsDescription out;
  KH_RETURN_IF_ERROR(ReadString(*d, "ContinuousBackupsStatus", at, &out.continuous_backups_status));
  const std::string pat = Child(at, "PointInTimeRecoveryDescription");
  KH_ASSIGN_OR_RETURN(const json::Value* p,
                      Find(*d, "PointInTimeRecoveryDescription", json::Kind::kObject, at));
  if (!p) return out;
  PointInTimeRecoveryDescription& pitr = out.point_in_time_recovery;
  KH_RETURN_IF_ERROR(ReadString(*p, "PointInTimeRecoveryStatus", pat, &pitr.status));
  if (p->Find("RecoveryPeriodInDays")) {
    int64_t days = 0;
    KH_RETURN_IF_ERROR(ReadInt(*p, "RecoveryPeriodInDays", pat, &days));
    pitr.recovery_period_in_days = static_cast<int>(days);
  }
  for (auto [name, field] : {std::pair{"EarliestRestorableDateTime", &pitr.earliest_restorable},
                             std::pair{"LatestRestorableDateTime", &pitr.latest_restorable}}) {
    if (!p->Find(name) || p->Find(name)->IsNull()) continue;
    double t = 0;
    KH_RETURN_IF_ERROR(ReadDouble(*p, name, pat, &t));
    *field = t;
  }
  return out;
}

}  // namespace

Result<TagResourceResponse> TagResourceResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  return TagResourceResponse{};
}

Result<UntagResourceResponse> UntagResourceResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  return UntagResourceResponse{};
}

Result<ListTagsOfResourceResponse> ListTagsOfResourceResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  ListTagsOfResourceResponse r;
  KH_ASSIGN_OR_RETURN(const json::Value* list, Find(v, "Tags", json::Kind::kArray, ""));
  if (list) {
    for (size_t i = 0; i < list->array().size(); ++i) {
      const json::Value& e = list->array()[i];
      const std::string at = Element("Tags", i);
      KH_RETURN_IF_ERROR(NeedObject(e, at));
      Tag t;
      KH_RETURN_IF_ERROR(ReadString(e, "Key", at, &t.key));
      std::string value;
      KH_RETURN_IF_ERROR(ReadString(e, "Value", at, &value));
      t.value = std::move(value);
      r.tags.push_back(std::move(t));
    }
  }
  KH_RETURN_IF_ERROR(ReadString(v, "NextToken", "", &r.next_token));
  return r;
}

Result<DescribeContinuousBackupsResponse> DescribeContinuousBackupsResponseFromJson(
    const json::Value& v) {
  DescribeContinuousBackupsResponse r;
  KH_ASSIGN_OR_RETURN(r.description, Backups(v));
  return r;
}

Result<UpdateContinuousBackupsResponse> UpdateContinuousBackupsResponseFromJson(
    const json::Value& v) {
  UpdateContinuousBackupsResponse r;
  KH_ASSIGN_OR_RETURN(r.description, Backups(v));
  return r;
}

}  // namespace keyhole
