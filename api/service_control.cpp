// The control-plane calls of service.h's IsControlOperation: what DynamoDB answers for an
// account and tables without backups, global tables, Kinesis destinations, Contributor Insights
// or auto scaling, which keyhole never has.
#include <fmt/format.h>

#include "api/api_json_decode.h"
#include "api/service.h"
#include "core/require.h"

namespace keyhole::api {

namespace {

using api_json::MemberSpec;
using api_json::Path;
using api_json::Violations;

constexpr std::string_view kControlOperations[] = {
#define KH_CONTROL_OPERATION(Name) #Name,
#include "core/operations.def"
};

// The request's TableName (required, checked), after its members.
Result<std::string> TableNameOf(const json::Value& body, std::span<const MemberSpec> members) {
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(body, at, members));
  Violations errs;
  KH_ASSIGN_OR_RETURN(std::string name,
                      api_json::ReadTableNameOrArnMember(body, "TableName", at, true, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return name;
}

// The table's description (its existence checked).
Result<TableSchemaPtr> TableOf(Backend& backend, const std::string& name) {
  return backend.TableSchema(name);
}

}  // namespace

bool IsControlOperation(std::string_view name) {
  for (std::string_view op : kControlOperations) {
    if (op == name) return true;
  }
  return false;
}

Result<json::Value> CallControl(std::string_view op, const json::Value& body, Backend& backend,
                                const CallContext& context) {
  KH_REQUIRE(IsControlOperation(op));
  json::Value out = json::Value::MakeObject();
  const Path at;
  if (op == "DescribeLimits") {
    // DynamoDB's default quotas of an account in a region (DynamoDB Developer Guide, "Service,
    // account, and table quotas": 80,000 read and write units per account, 40,000 per table).
    KH_RETURN_IF_ERROR(api_json::CheckStructure(body, at, {}));
    out.Add("AccountMaxReadCapacityUnits", json::Value::Int(80000));
    out.Add("AccountMaxWriteCapacityUnits", json::Value::Int(80000));
    out.Add("TableMaxReadCapacityUnits", json::Value::Int(40000));
    out.Add("TableMaxWriteCapacityUnits", json::Value::Int(40000));
    return out;
  }
  if (op == "DescribeEndpoints") {
    // The endpoint is this server (reference §7.9: Alternator answers with the request's Host);
    // without one (the shell), DynamoDB's own name for keyhole's region.
    KH_RETURN_IF_ERROR(api_json::CheckStructure(body, at, {}));
    json::Value e = json::Value::MakeObject();
    e.Add("Address", json::Value::String(context.host.empty() ? "dynamodb.local.amazonaws.com"
                                                              : context.host));
    e.Add("CachePeriodInMinutes", json::Value::Int(1440));
    json::Value list = json::Value::MakeArray();
    list.Push(std::move(e));
    out.Add("Endpoints", std::move(list));
    return out;
  }
  if (op == "ListBackups") {
    static constexpr MemberSpec kMembers[] = {{"TableName"},
                                              {"Limit"},
                                              {"TimeRangeLowerBound"},
                                              {"TimeRangeUpperBound"},
                                              {"ExclusiveStartBackupArn"},
                                              {"BackupType"}};
    KH_RETURN_IF_ERROR(api_json::CheckStructure(body, at, kMembers));
    out.Add("BackupSummaries", json::Value::MakeArray());
    return out;
  }
  if (op == "ListGlobalTables") {
    static constexpr MemberSpec kMembers[] = {
        {"ExclusiveStartGlobalTableName"}, {"Limit"}, {"RegionName"}};
    KH_RETURN_IF_ERROR(api_json::CheckStructure(body, at, kMembers));
    out.Add("GlobalTables", json::Value::MakeArray());
    return out;
  }
  if (op == "ListContributorInsights") {
    static constexpr MemberSpec kMembers[] = {{"TableName"}, {"NextToken"}, {"MaxResults"}};
    KH_RETURN_IF_ERROR(api_json::CheckStructure(body, at, kMembers));
    out.Add("ContributorInsightsSummaries", json::Value::MakeArray());
    return out;
  }
  if (op == "DescribeKinesisStreamingDestination") {
    static constexpr MemberSpec kMembers[] = {{"TableName"}};
    KH_ASSIGN_OR_RETURN(std::string name, TableNameOf(body, kMembers));
    KH_ASSIGN_OR_RETURN(TableSchemaPtr t, TableOf(backend, name));
    out.Add("TableName", json::Value::String(t->name));
    out.Add("KinesisDataStreamDestinations", json::Value::MakeArray());
    return out;
  }
  if (op == "DescribeContributorInsights") {
    static constexpr MemberSpec kMembers[] = {{"TableName"}, {"IndexName"}};
    KH_ASSIGN_OR_RETURN(std::string name, TableNameOf(body, kMembers));
    KH_ASSIGN_OR_RETURN(std::optional<std::string> index,
                        api_json::ReadString(body, "IndexName", at));
    KH_ASSIGN_OR_RETURN(TableSchemaPtr t, TableOf(backend, name));
    if (index && !t->FindIndex(*index)) {
      return Status::NotFound(
          fmt::format("Requested resource not found: Index: {} not found", *index));
    }
    out.Add("TableName", json::Value::String(t->name));
    if (index) out.Add("IndexName", json::Value::String(*index));
    out.Add("ContributorInsightsStatus", json::Value::String("DISABLED"));
    return out;
  }
  // DescribeTableReplicaAutoScaling
  static constexpr MemberSpec kMembers[] = {{"TableName"}};
  KH_ASSIGN_OR_RETURN(std::string name, TableNameOf(body, kMembers));
  KH_ASSIGN_OR_RETURN(TableSchemaPtr t, TableOf(backend, name));
  json::Value d = json::Value::MakeObject();
  d.Add("TableName", json::Value::String(t->name));
  d.Add("TableStatus", json::Value::String(t->status));
  d.Add("Replicas", json::Value::MakeArray());
  out.Add("TableAutoScalingDescription", std::move(d));
  return out;
}

}  // namespace keyhole::api
