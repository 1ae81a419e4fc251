// Response decoders of api/api_json_client.h for DynamoDB Streams: the inverses of
// api_json_streams.cpp's encoders.
#include <fmt/format.h>

#include <cmath>
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
using api_json_client::ReadItem;
using api_json_client::ReadString;

// A stream's KeySchema: names only (the types are not in the response).
Result<KeySchema> ReadStreamKeySchema(const json::Value& list, const std::string& at) {
  KeySchema k;
  bool have_partition = false;
  for (size_t i = 0; i < list.array().size(); ++i) {
    const json::Value& e = list.array()[i];
    const std::string el = Element(at, i);
    KH_RETURN_IF_ERROR(NeedObject(e, el));
    std::string name;
    std::string key_type = i == 0 ? "HASH" : "RANGE";
    KH_RETURN_IF_ERROR(ReadString(e, "AttributeName", el, &name));
    KH_RETURN_IF_ERROR(ReadString(e, "KeyType", el, &key_type));
    if (key_type == "HASH" && !have_partition) {
      k.partition.name = std::move(name);
      have_partition = true;
    } else if (key_type == "RANGE" && !k.sort) {
      k.sort = KeyAttribute{std::move(name), ValueType::kS};
    } else {
      return Malformed(Child(el, "KeyType"), fmt::format("is '{}' twice or unknown", key_type));
    }
  }
  return k;
}

Result<StreamShard> ReadShard(const json::Value& v, const std::string& at) {
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  StreamShard s;
  KH_RETURN_IF_ERROR(ReadString(v, "ShardId", at, &s.shard_id));
  const std::string range_at = Child(at, "SequenceNumberRange");
  KH_ASSIGN_OR_RETURN(const json::Value* range,
                      Find(v, "SequenceNumberRange", json::Kind::kObject, at));
  if (range) {
    KH_RETURN_IF_ERROR(
        ReadString(*range, "StartingSequenceNumber", range_at, &s.starting_sequence_number));
    KH_RETURN_IF_ERROR(
        ReadString(*range, "EndingSequenceNumber", range_at, &s.ending_sequence_number));
  }
  return s;
}

}  // namespace

Result<StreamRecord> StreamRecordFromJson(const json::Value& v) {
  const std::string at = "Record";
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  StreamRecord r;
  KH_RETURN_IF_ERROR(ReadString(v, "eventID", at, &r.event_id));
  KH_RETURN_IF_ERROR(ReadString(v, "eventName", at, &r.event_name));
  KH_RETURN_IF_ERROR(ReadString(v, "eventVersion", at, &r.event_version));
  KH_RETURN_IF_ERROR(ReadString(v, "eventSource", at, &r.event_source));
  KH_RETURN_IF_ERROR(ReadString(v, "awsRegion", at, &r.aws_region));
  KH_ASSIGN_OR_RETURN(const json::Value* d, Find(v, "dynamodb", json::Kind::kObject, at));
  if (d) {
    const std::string d_at = Child(at, "dynamodb");
    // Epoch seconds; DynamoDB may send a fraction.
    double created = 0;
    KH_RETURN_IF_ERROR(ReadDouble(*d, "ApproximateCreationDateTime", d_at, &created));
    if (!(created >= -9.2e18 && created <= 9.2e18)) {
      return Malformed(Child(d_at, "ApproximateCreationDateTime"), "is out of range");
    }
    r.approximate_creation_date_time = static_cast<int64_t>(std::floor(created));
    std::optional<Item> keys;
    KH_RETURN_IF_ERROR(ReadItem(*d, "Keys", d_at, &keys));
    if (keys) r.keys = std::move(*keys);
    KH_RETURN_IF_ERROR(ReadItem(*d, "NewImage", d_at, &r.new_image));
    KH_RETURN_IF_ERROR(ReadItem(*d, "OldImage", d_at, &r.old_image));
    KH_RETURN_IF_ERROR(ReadString(*d, "SequenceNumber", d_at, &r.sequence_number));
    KH_RETURN_IF_ERROR(ReadInt(*d, "SizeBytes", d_at, &r.size_bytes));
    KH_RETURN_IF_ERROR(ReadString(*d, "StreamViewType", d_at, &r.stream_view_type));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* user, Find(v, "userIdentity", json::Kind::kObject, at));
  if (user) {
    const std::string u_at = Child(at, "userIdentity");
    std::string type, principal;
    // DynamoDB's Type and PrincipalId; older keyhole servers wrote them in Lambda's case.
    KH_RETURN_IF_ERROR(ReadString(*user, "Type", u_at, &type));
    KH_RETURN_IF_ERROR(ReadString(*user, "PrincipalId", u_at, &principal));
    if (type.empty()) KH_RETURN_IF_ERROR(ReadString(*user, "type", u_at, &type));
    if (principal.empty()) KH_RETURN_IF_ERROR(ReadString(*user, "principalId", u_at, &principal));
    r.service_deletion = type == "Service" && principal == "dynamodb.amazonaws.com";
  }
  return r;
}

Result<ListStreamsResponse> ListStreamsResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  ListStreamsResponse r;
  KH_ASSIGN_OR_RETURN(const json::Value* list, Find(v, "Streams", json::Kind::kArray, ""));
  if (list) {
    for (size_t i = 0; i < list->array().size(); ++i) {
      const json::Value& e = list->array()[i];
      const std::string at = Element("Streams", i);
      KH_RETURN_IF_ERROR(NeedObject(e, at));
      StreamSummary s;
      KH_RETURN_IF_ERROR(ReadString(e, "StreamArn", at, &s.stream_arn));
      KH_RETURN_IF_ERROR(ReadString(e, "TableName", at, &s.table_name));
      KH_RETURN_IF_ERROR(ReadString(e, "StreamLabel", at, &s.stream_label));
      r.streams.push_back(std::move(s));
    }
  }
  KH_RETURN_IF_ERROR(ReadString(v, "LastEvaluatedStreamArn", "", &r.last_evaluated_stream_arn));
  return r;
}

Result<DescribeStreamResponse> DescribeStreamResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  DescribeStreamResponse r;
  const std::string at = "StreamDescription";
  KH_ASSIGN_OR_RETURN(const json::Value* d, Find(v, at, json::Kind::kObject, ""));
  if (!d) return Malformed(at, "is missing");
  StreamDescription& s = r.stream_description;
  KH_RETURN_IF_ERROR(ReadString(*d, "StreamArn", at, &s.stream_arn));
  KH_RETURN_IF_ERROR(ReadString(*d, "StreamLabel", at, &s.stream_label));
  KH_RETURN_IF_ERROR(ReadString(*d, "StreamStatus", at, &s.stream_status));
  KH_RETURN_IF_ERROR(ReadString(*d, "StreamViewType", at, &s.stream_view_type));
  KH_RETURN_IF_ERROR(ReadDouble(*d, "CreationRequestDateTime", at, &s.creation_request_date_time));
  KH_RETURN_IF_ERROR(ReadString(*d, "TableName", at, &s.table_name));
  KH_ASSIGN_OR_RETURN(const json::Value* keys, Find(*d, "KeySchema", json::Kind::kArray, at));
  if (keys) {
    KH_ASSIGN_OR_RETURN(s.key_schema, ReadStreamKeySchema(*keys, Child(at, "KeySchema")));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* shards, Find(*d, "Shards", json::Kind::kArray, at));
  if (shards) {
    for (size_t i = 0; i < shards->array().size(); ++i) {
      KH_ASSIGN_OR_RETURN(StreamShard sh,
                          ReadShard(shards->array()[i], Element(Child(at, "Shards"), i)));
      s.shards.push_back(std::move(sh));
    }
  }
  KH_RETURN_IF_ERROR(ReadString(*d, "LastEvaluatedShardId", at, &s.last_evaluated_shard_id));
  return r;
}

Result<GetShardIteratorResponse> GetShardIteratorResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  GetShardIteratorResponse r;
  KH_RETURN_IF_ERROR(ReadString(v, "ShardIterator", "", &r.shard_iterator));
  return r;
}

Result<GetRecordsResponse> GetRecordsResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  GetRecordsResponse r;
  KH_ASSIGN_OR_RETURN(const json::Value* list, Find(v, "Records", json::Kind::kArray, ""));
  if (list) {
    for (size_t i = 0; i < list->array().size(); ++i) {
      Result<StreamRecord> rec = StreamRecordFromJson(list->array()[i]);
      if (!rec.ok()) {
        return Status::Internal(fmt::format("{} (Records[{}])", rec.status().message(), i));
      }
      r.records.push_back(std::move(rec).value());
    }
  }
  KH_RETURN_IF_ERROR(ReadString(v, "NextShardIterator", "", &r.next_shard_iterator));
  return r;
}

}  // namespace keyhole
