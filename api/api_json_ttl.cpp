// UpdateTimeToLive and DescribeTimeToLive: JSON wire form (reference §6.1).
#include <string>

#include "api/api_json.h"
#include "api/api_json_decode.h"

namespace keyhole {

namespace {
using api_json::MemberSpec;
using api_json::Path;
using api_json::Violations;
}  // namespace

Result<UpdateTimeToLiveRequest> UpdateTimeToLiveRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TableName"}, {"TimeToLiveSpecification"}};
  static constexpr MemberSpec kSpec[] = {{"Enabled"}, {"AttributeName"}};
  Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  UpdateTimeToLiveRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name,
                      api_json::ReadTableNameOrArnMember(v, "TableName", at, true, &errs));
  KH_ASSIGN_OR_RETURN(const json::Value* spec,
                      api_json::ReadRequiredObject(v, "TimeToLiveSpecification", at, &errs));
  if (spec) {
    Path sp = at.Child("TimeToLiveSpecification");
    KH_RETURN_IF_ERROR(api_json::CheckStructure(*spec, sp, kSpec));
    KH_ASSIGN_OR_RETURN(std::optional<bool> enabled, api_json::ReadBool(*spec, "Enabled", sp));
    if (!enabled) errs.AddNull(sp.Child("Enabled"));
    r.specification.enabled = enabled.value_or(false);
    KH_ASSIGN_OR_RETURN(std::optional<std::string> name,
                        api_json::ReadString(*spec, "AttributeName", sp));
    if (!name) {
      errs.AddNull(sp.Child("AttributeName"));
    } else {
      api_json::CheckLength(name->size(), 1, 255, *name, sp.Child("AttributeName"), &errs);
      r.specification.attribute_name = std::move(*name);
    }
  }
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<DescribeTimeToLiveRequest> DescribeTimeToLiveRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TableName"}};
  Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  DescribeTimeToLiveRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name,
                      api_json::ReadTableNameOrArnMember(v, "TableName", at, true, &errs));
  KH_RETURN_IF_ERROR(api_json::RequireTableName(v));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

json::Value UpdateTimeToLiveResponseToJson(const UpdateTimeToLiveResponse& r) {
  json::Value spec = json::Value::MakeObject();
  spec.Add("Enabled", json::Value::Bool(r.specification.enabled));
  spec.Add("AttributeName", json::Value::String(r.specification.attribute_name));
  json::Value out = json::Value::MakeObject();
  out.Add("TimeToLiveSpecification", std::move(spec));
  return out;
}

json::Value DescribeTimeToLiveResponseToJson(const DescribeTimeToLiveResponse& r) {
  json::Value d = json::Value::MakeObject();
  d.Add("TimeToLiveStatus", json::Value::String(r.status));
  if (r.attribute_name) d.Add("AttributeName", json::Value::String(*r.attribute_name));
  json::Value out = json::Value::MakeObject();
  out.Add("TimeToLiveDescription", std::move(d));
  return out;
}

}  // namespace keyhole
