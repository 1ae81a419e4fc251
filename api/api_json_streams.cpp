// DynamoDB Streams: the StreamSpecification of CreateTable / UpdateTable, and the JSON wire form
// of ListStreams, DescribeStream, GetShardIterator and GetRecords (reference §6.2). Constraint
// texts follow DynamoDB's envelope ("1 validation error detected: Value ... at 'limit' ...");
// member lengths are the Streams API's (StreamArn 37..1024, ShardId 28..65, SequenceNumber
// 21..40, ShardIterator 1..2048).
#include <fmt/format.h>

#include <string>

#include "api/api_json.h"
#include "api/api_json_decode.h"
#include "core/ddb_json.h"

namespace keyhole {

namespace {
using api_json::MemberSpec;
using api_json::Path;
using api_json::Violations;

constexpr std::string_view kViewTypes[] = {"NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES",
                                           "KEYS_ONLY"};
constexpr std::string_view kIteratorTypes[] = {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
                                               "AFTER_SEQUENCE_NUMBER"};

// A required string member with a length constraint; "" when absent (recorded).
Result<std::string> ReadRequiredString(const json::Value& v, std::string_view name, const Path& at,
                                       size_t min, size_t max, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> s, api_json::ReadString(v, name, at));
  if (!s) {
    errs->AddNull(at.Child(name));
    return std::string();
  }
  api_json::CheckLength(s->size(), min, max, *s, at.Child(name), errs);
  return std::move(*s);
}

Result<std::optional<int>> ReadLimit(const json::Value& v, const Path& at, int64_t max,
                                     Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<int64_t> limit, api_json::ReadInteger(v, "Limit", at));
  if (!limit) return std::optional<int>();
  api_json::CheckRange(*limit, 1, max, at.Child("Limit"), errs);
  return std::optional<int>(static_cast<int>(*limit));
}

json::Value KeySchemaJson(const KeySchema& k) {
  json::Value list = json::Value::MakeArray();
  auto add = [&](const std::string& name, const char* type) {
    json::Value e = json::Value::MakeObject();
    e.Add("AttributeName", json::Value::String(name));
    e.Add("KeyType", json::Value::String(type));
    list.Push(std::move(e));
  };
  add(k.partition.name, "HASH");
  if (k.sort) add(k.sort->name, "RANGE");
  return list;
}

}  // namespace

namespace api_json {

Result<std::optional<StreamSpecification>> ReadStreamSpecification(const json::Value& v,
                                                                   const Path& at,
                                                                   Violations* errs) {
  static constexpr MemberSpec kSpec[] = {{"StreamEnabled"}, {"StreamViewType"}};
  KH_ASSIGN_OR_RETURN(const json::Value* spec, ReadObject(v, "StreamSpecification", at));
  if (!spec) return std::optional<StreamSpecification>();
  Path sp = at.Child("StreamSpecification");
  KH_RETURN_IF_ERROR(CheckStructure(*spec, sp, kSpec));
  StreamSpecification r;
  KH_ASSIGN_OR_RETURN(std::optional<bool> enabled, ReadBool(*spec, "StreamEnabled", sp));
  if (!enabled) errs->AddNull(sp.Child("StreamEnabled"));
  r.stream_enabled = enabled.value_or(false);
  KH_ASSIGN_OR_RETURN(std::optional<size_t> view,
                      ReadEnum(*spec, "StreamViewType", sp, kViewTypes, errs));
  if (view) r.stream_view_type = std::string(kViewTypes[*view]);
  return std::optional<StreamSpecification>(std::move(r));
}

Status CheckStreamViewTypeGiven(const std::optional<StreamSpecification>& spec,
                                const json::Value& v) {
  if (!spec || !spec->stream_enabled || spec->stream_view_type) return Status::OK();
  // An invalid StreamViewType was already reported as an enum violation.
  const json::Value* s = v.Find("StreamSpecification");
  if (s && s->IsObject() && s->Find("StreamViewType") && !s->Find("StreamViewType")->IsNull())
    return Status::OK();
  // keyhole's wording (DynamoDB's text is not in the reference); storage says the same.
  return Status::Validation(
      "One or more parameter values were invalid: StreamViewType is required when StreamEnabled "
      "is true");
}

}  // namespace api_json

Result<ListStreamsRequest> ListStreamsRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"TableName"}, {"Limit"}, {"ExclusiveStartStreamArn"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  ListStreamsRequest r;
  KH_ASSIGN_OR_RETURN(r.table_name, api_json::ReadString(v, "TableName", at));
  if (r.table_name) api_json::CheckTableName(*r.table_name, at.Child("TableName"), &errs);
  KH_ASSIGN_OR_RETURN(r.limit, ReadLimit(v, at, 100, &errs));
  KH_ASSIGN_OR_RETURN(r.exclusive_start_stream_arn,
                      api_json::ReadString(v, "ExclusiveStartStreamArn", at));
  if (r.exclusive_start_stream_arn) {
    api_json::CheckLength(r.exclusive_start_stream_arn->size(), 37, 1024,
                          *r.exclusive_start_stream_arn, at.Child("ExclusiveStartStreamArn"),
                          &errs);
  }
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<DescribeStreamRequest> DescribeStreamRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"StreamArn"}, {"Limit"}, {"ExclusiveStartShardId"}, {"ShardFilter"}};
  static constexpr MemberSpec kFilter[] = {{"Type"}, {"ShardId"}};
  static constexpr std::string_view kFilterTypes[] = {"CHILD_SHARDS"};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  DescribeStreamRequest r;
  KH_ASSIGN_OR_RETURN(const json::Value* filter, api_json::ReadObject(v, "ShardFilter", at));
  if (filter) {
    const Path fp = at.Child("ShardFilter");
    KH_RETURN_IF_ERROR(api_json::CheckStructure(*filter, fp, kFilter));
    ShardFilter f;
    KH_ASSIGN_OR_RETURN(std::optional<size_t> type,
                        api_json::ReadEnum(*filter, "Type", fp, kFilterTypes, &errs));
    if (type) f.type = std::string(kFilterTypes[*type]);
    KH_ASSIGN_OR_RETURN(f.shard_id, api_json::ReadString(*filter, "ShardId", fp));
    if (f.shard_id) {
      api_json::CheckLength(f.shard_id->size(), 28, 65, *f.shard_id, fp.Child("ShardId"), &errs);
    }
    r.shard_filter = std::move(f);
  }
  KH_ASSIGN_OR_RETURN(r.stream_arn, ReadRequiredString(v, "StreamArn", at, 37, 1024, &errs));
  KH_ASSIGN_OR_RETURN(r.limit, ReadLimit(v, at, 100, &errs));
  KH_ASSIGN_OR_RETURN(r.exclusive_start_shard_id,
                      api_json::ReadString(v, "ExclusiveStartShardId", at));
  if (r.exclusive_start_shard_id) {
    api_json::CheckLength(r.exclusive_start_shard_id->size(), 28, 65, *r.exclusive_start_shard_id,
                          at.Child("ExclusiveStartShardId"), &errs);
  }
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<GetShardIteratorRequest> GetShardIteratorRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {
      {"StreamArn"}, {"ShardId"}, {"ShardIteratorType"}, {"SequenceNumber"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  GetShardIteratorRequest r;
  KH_ASSIGN_OR_RETURN(r.stream_arn, ReadRequiredString(v, "StreamArn", at, 37, 1024, &errs));
  KH_ASSIGN_OR_RETURN(r.shard_id, ReadRequiredString(v, "ShardId", at, 28, 65, &errs));
  KH_ASSIGN_OR_RETURN(std::optional<size_t> type,
                      api_json::ReadEnum(v, "ShardIteratorType", at, kIteratorTypes, &errs));
  if (type) {
    r.shard_iterator_type = std::string(kIteratorTypes[*type]);
  } else if (!v.Find("ShardIteratorType") || v.Find("ShardIteratorType")->IsNull()) {
    errs.AddNull(at.Child("ShardIteratorType"));
  }
  KH_ASSIGN_OR_RETURN(r.sequence_number, api_json::ReadString(v, "SequenceNumber", at));
  if (r.sequence_number) {
    api_json::CheckLength(r.sequence_number->size(), 21, 40, *r.sequence_number,
                          at.Child("SequenceNumber"), &errs);
  }
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

Result<GetRecordsRequest> GetRecordsRequestFromJson(const json::Value& v) {
  static constexpr MemberSpec kMembers[] = {{"ShardIterator"}, {"Limit"}};
  const Path at;
  KH_RETURN_IF_ERROR(api_json::CheckStructure(v, at, kMembers));
  Violations errs;
  GetRecordsRequest r;
  KH_ASSIGN_OR_RETURN(r.shard_iterator, ReadRequiredString(v, "ShardIterator", at, 1, 2048, &errs));
  KH_ASSIGN_OR_RETURN(r.limit, ReadLimit(v, at, 1000, &errs));
  KH_RETURN_IF_ERROR(errs.ToStatus());
  return r;
}

json::Value StreamRecordToJson(const StreamRecord& r) {
  json::Value o = json::Value::MakeObject();
  o.Add("eventID", json::Value::String(r.event_id));
  o.Add("eventName", json::Value::String(r.event_name));
  o.Add("eventVersion", json::Value::String(r.event_version));
  o.Add("eventSource", json::Value::String(r.event_source));
  o.Add("awsRegion", json::Value::String(r.aws_region));
  json::Value d = json::Value::MakeObject();
  d.Add("ApproximateCreationDateTime", json::Value::Int(r.approximate_creation_date_time));
  d.Add("Keys", ItemToJson(r.keys));
  if (r.new_image) d.Add("NewImage", ItemToJson(*r.new_image));
  if (r.old_image) d.Add("OldImage", ItemToJson(*r.old_image));
  d.Add("SequenceNumber", json::Value::String(r.sequence_number));
  d.Add("SizeBytes", json::Value::Int(r.size_bytes));
  d.Add("StreamViewType", json::Value::String(r.stream_view_type));
  o.Add("dynamodb", std::move(d));
  if (r.service_deletion) {
    json::Value u = json::Value::MakeObject();
    // The Streams API's Identity shape: Type and PrincipalId (Lambda's event JSON spells them
    // "type" and "principalId"; SDKs reading GetRecords drop those).
    u.Add("Type", json::Value::String("Service"));
    u.Add("PrincipalId", json::Value::String("dynamodb.amazonaws.com"));
    o.Add("userIdentity", std::move(u));
  }
  return o;
}

json::Value ListStreamsResponseToJson(const ListStreamsResponse& r) {
  json::Value o = json::Value::MakeObject();
  json::Value list = json::Value::MakeArray();
  for (const StreamSummary& s : r.streams) {
    json::Value e = json::Value::MakeObject();
    e.Add("StreamArn", json::Value::String(s.stream_arn));
    e.Add("TableName", json::Value::String(s.table_name));
    e.Add("StreamLabel", json::Value::String(s.stream_label));
    list.Push(std::move(e));
  }
  o.Add("Streams", std::move(list));
  if (r.last_evaluated_stream_arn) {
    o.Add("LastEvaluatedStreamArn", json::Value::String(*r.last_evaluated_stream_arn));
  }
  return o;
}

json::Value DescribeStreamResponseToJson(const DescribeStreamResponse& r) {
  const StreamDescription& s = r.stream_description;
  json::Value d = json::Value::MakeObject();
  d.Add("StreamArn", json::Value::String(s.stream_arn));
  d.Add("StreamLabel", json::Value::String(s.stream_label));
  d.Add("StreamStatus", json::Value::String(s.stream_status));
  d.Add("StreamViewType", json::Value::String(s.stream_view_type));
  d.Add("CreationRequestDateTime",
        json::Value::Number(fmt::format("{:.3f}", s.creation_request_date_time)));
  d.Add("TableName", json::Value::String(s.table_name));
  d.Add("KeySchema", KeySchemaJson(s.key_schema));
  json::Value shards = json::Value::MakeArray();
  for (const StreamShard& sh : s.shards) {
    json::Value e = json::Value::MakeObject();
    e.Add("ShardId", json::Value::String(sh.shard_id));
    json::Value range = json::Value::MakeObject();
    range.Add("StartingSequenceNumber", json::Value::String(sh.starting_sequence_number));
    if (sh.ending_sequence_number) {
      range.Add("EndingSequenceNumber", json::Value::String(*sh.ending_sequence_number));
    }
    e.Add("SequenceNumberRange", std::move(range));
    shards.Push(std::move(e));
  }
  d.Add("Shards", std::move(shards));
  if (s.last_evaluated_shard_id) {
    d.Add("LastEvaluatedShardId", json::Value::String(*s.last_evaluated_shard_id));
  }
  json::Value o = json::Value::MakeObject();
  o.Add("StreamDescription", std::move(d));
  return o;
}

json::Value GetShardIteratorResponseToJson(const GetShardIteratorResponse& r) {
  json::Value o = json::Value::MakeObject();
  o.Add("ShardIterator", json::Value::String(r.shard_iterator));
  return o;
}

json::Value GetRecordsResponseToJson(const GetRecordsResponse& r) {
  json::Value o = json::Value::MakeObject();
  json::Value list = json::Value::MakeArray();
  for (const StreamRecord& rec : r.records) list.Push(StreamRecordToJson(rec));
  o.Add("Records", std::move(list));
  if (r.next_shard_iterator) {
    o.Add("NextShardIterator", json::Value::String(*r.next_shard_iterator));
  }
  return o;
}

}  // namespace keyhole
