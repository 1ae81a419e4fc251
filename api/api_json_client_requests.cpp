// Request encoders of api/api_json_client.h: the table, Time to Live and Streams requests as the
// bodies boto3 sends, members in the API model's order.
#include <string>
#include <utility>

#include "api/api_json_client.h"

namespace keyhole {

namespace {

json::Value Str(const std::string& s) { return json::Value::String(s); }

json::Value Start(const std::string& table) {
  json::Value body = json::Value::MakeObject();
  body.Add("TableName", Str(table));
  return body;
}

json::Value Definitions(const std::vector<AttributeDefinition>& defs) {
  json::Value list = json::Value::MakeArray();
  for (const AttributeDefinition& d : defs) {
    json::Value e = json::Value::MakeObject();
    e.Add("AttributeName", Str(d.name));
    e.Add("AttributeType", Str(d.type));
    list.Push(std::move(e));
  }
  return list;
}

json::Value KeySchemaElements(const std::vector<KeySchemaElement>& keys) {
  json::Value list = json::Value::MakeArray();
  for (const KeySchemaElement& k : keys) {
    json::Value e = json::Value::MakeObject();
    e.Add("AttributeName", Str(k.name));
    e.Add("KeyType", Str(k.key_type));
    list.Push(std::move(e));
  }
  return list;
}

json::Value Throughput(int64_t read, int64_t write) {
  json::Value pt = json::Value::MakeObject();
  pt.Add("ReadCapacityUnits", json::Value::Int(read));
  pt.Add("WriteCapacityUnits", json::Value::Int(write));
  return pt;
}

// {IndexName, KeySchema, Projection: {ProjectionType?, NonKeyAttributes?},
// ProvisionedThroughput?}
void AddLong(const char* member, const std::optional<int64_t>& n, json::Value* body) {
  if (n) body->Add(member, json::Value::Int(*n));
}

// OnDemandThroughput and WarmThroughput members of a table or a GSI, as given.
void AddThroughputModes(const std::optional<OnDemandThroughputSpec>& on_demand,
                        const std::optional<WarmThroughputSpec>& warm, json::Value* body) {
  if (on_demand) {
    json::Value o = json::Value::MakeObject();
    AddLong("MaxReadRequestUnits", on_demand->max_read_request_units, &o);
    AddLong("MaxWriteRequestUnits", on_demand->max_write_request_units, &o);
    body->Add("OnDemandThroughput", std::move(o));
  }
  if (warm) {
    json::Value o = json::Value::MakeObject();
    AddLong("ReadUnitsPerSecond", warm->read_units_per_second, &o);
    AddLong("WriteUnitsPerSecond", warm->write_units_per_second, &o);
    body->Add("WarmThroughput", std::move(o));
  }
}

// {ProjectionType?, NonKeyAttributes?}, as given.
json::Value ProjectionOf(const std::optional<std::string>& type,
                         const std::optional<std::vector<std::string>>& non_key) {
  json::Value p = json::Value::MakeObject();
  if (type) p.Add("ProjectionType", Str(*type));
  if (non_key) {
    json::Value names = json::Value::MakeArray();
    for (const std::string& n : *non_key) names.Push(Str(n));
    p.Add("NonKeyAttributes", std::move(names));
  }
  return p;
}

json::Value Index(const IndexSpec& spec) {
  json::Value e = json::Value::MakeObject();
  e.Add("IndexName", Str(spec.name));
  e.Add("KeySchema", KeySchemaElements(spec.key_schema));
  e.Add("Projection", ProjectionOf(spec.projection_type, spec.non_key_attributes));
  if (spec.read_capacity_units || spec.write_capacity_units) {
    e.Add("ProvisionedThroughput",
          Throughput(spec.read_capacity_units.value_or(0), spec.write_capacity_units.value_or(0)));
  }
  AddThroughputModes(spec.on_demand_throughput, spec.warm_throughput, &e);
  return e;
}

// {IndexName, VectorAttribute, SearchSchema?, Projection, Dimensions, DistanceFunction}.
json::Value VectorIndex(const VectorIndexSpec& spec) {
  json::Value e = json::Value::MakeObject();
  e.Add("IndexName", Str(spec.name));
  json::Value attribute = json::Value::MakeObject();
  attribute.Add("AttributeName", Str(spec.vector_attribute));
  e.Add("VectorAttribute", std::move(attribute));
  if (!spec.search_schema.empty()) {
    json::Value schema = json::Value::MakeArray();
    for (const SearchSchemaElementSpec& s : spec.search_schema) {
      json::Value element = json::Value::MakeObject();
      element.Add("AttributeName", Str(s.name));
      element.Add("SearchSchemaElementType", Str(s.kind));
      schema.Push(std::move(element));
    }
    e.Add("SearchSchema", std::move(schema));
  }
  e.Add("Projection", ProjectionOf(spec.projection_type, spec.non_key_attributes));
  e.Add("Dimensions", json::Value::Int(spec.dimensions));
  e.Add("DistanceFunction", Str(spec.distance_function));
  return e;
}

json::Value Indexes(const std::vector<IndexSpec>& specs) {
  json::Value list = json::Value::MakeArray();
  for (const IndexSpec& spec : specs) list.Push(Index(spec));
  return list;
}

void AddStreamSpecification(const std::optional<StreamSpecification>& spec, json::Value* body) {
  if (!spec) return;
  json::Value s = json::Value::MakeObject();
  s.Add("StreamEnabled", json::Value::Bool(spec->stream_enabled));
  if (spec->stream_view_type) s.Add("StreamViewType", Str(*spec->stream_view_type));
  body->Add("StreamSpecification", std::move(s));
}

void AddLimit(const std::optional<int>& limit, json::Value* body) {
  if (limit) body->Add("Limit", json::Value::Int(*limit));
}

void AddString(const char* member, const std::optional<std::string>& s, json::Value* body) {
  if (s) body->Add(member, Str(*s));
}

void AddSse(const std::optional<SSESpecification>& spec, json::Value* body) {
  if (!spec) return;
  json::Value o = json::Value::MakeObject();
  o.Add("Enabled", json::Value::Bool(spec->enabled));
  AddString("SSEType", spec->sse_type, &o);
  AddString("KMSMasterKeyId", spec->kms_master_key_id, &o);
  body->Add("SSESpecification", std::move(o));
}

json::Value TagList(const std::vector<Tag>& tags) {
  json::Value list = json::Value::MakeArray();
  for (const Tag& t : tags) {
    json::Value e = json::Value::MakeObject();
    e.Add("Key", Str(t.key));
    AddString("Value", t.value, &e);
    list.Push(std::move(e));
  }
  return list;
}

json::Value ArnBody(const std::string& arn) {
  json::Value body = json::Value::MakeObject();
  body.Add("ResourceArn", Str(arn));
  return body;
}

}  // namespace

json::Value CreateTableRequestToJson(const CreateTableRequest& r) {
  json::Value body = json::Value::MakeObject();
  body.Add("AttributeDefinitions", Definitions(r.attribute_definitions));
  body.Add("TableName", Str(r.table_name));
  body.Add("KeySchema", KeySchemaElements(r.key_schema));
  if (!r.local_secondary_indexes.empty()) {
    body.Add("LocalSecondaryIndexes", Indexes(r.local_secondary_indexes));
  }
  if (!r.global_secondary_indexes.empty()) {
    body.Add("GlobalSecondaryIndexes", Indexes(r.global_secondary_indexes));
  }
  if (!r.vector_indexes.empty()) {
    json::Value list = json::Value::MakeArray();
    for (const VectorIndexSpec& spec : r.vector_indexes) list.Push(VectorIndex(spec));
    body.Add("VectorIndexes", std::move(list));
  }
  body.Add("BillingMode", Str(r.billing_mode));
  if (r.read_capacity_units || r.write_capacity_units) {
    json::Value pt = json::Value::MakeObject();
    if (r.read_capacity_units) {
      pt.Add("ReadCapacityUnits", json::Value::Int(*r.read_capacity_units));
    }
    if (r.write_capacity_units) {
      pt.Add("WriteCapacityUnits", json::Value::Int(*r.write_capacity_units));
    }
    body.Add("ProvisionedThroughput", std::move(pt));
  }
  AddStreamSpecification(r.stream_specification, &body);
  AddSse(r.sse_specification, &body);
  if (!r.tags.empty()) body.Add("Tags", TagList(r.tags));
  if (r.deletion_protection_enabled) {
    body.Add("DeletionProtectionEnabled", json::Value::Bool(*r.deletion_protection_enabled));
  }
  AddThroughputModes(r.on_demand_throughput, r.warm_throughput, &body);
  return body;
}

json::Value DeleteTableRequestToJson(const DeleteTableRequest& r) { return Start(r.table_name); }

json::Value DescribeTableRequestToJson(const DescribeTableRequest& r) {
  return Start(r.table_name);
}

json::Value ListTablesRequestToJson(const ListTablesRequest& r) {
  json::Value body = json::Value::MakeObject();
  AddString("ExclusiveStartTableName", r.exclusive_start_table_name, &body);
  AddLimit(r.limit, &body);
  return body;
}

json::Value UpdateTableRequestToJson(const UpdateTableRequest& r) {
  json::Value body = json::Value::MakeObject();
  if (!r.attribute_definitions.empty()) {
    body.Add("AttributeDefinitions", Definitions(r.attribute_definitions));
  }
  body.Add("TableName", Str(r.table_name));
  AddString("BillingMode", r.billing_mode, &body);
  if (r.has_provisioned_throughput) {
    json::Value pt = json::Value::MakeObject();
    if (r.read_capacity_units) {
      pt.Add("ReadCapacityUnits", json::Value::Int(*r.read_capacity_units));
    }
    if (r.write_capacity_units) {
      pt.Add("WriteCapacityUnits", json::Value::Int(*r.write_capacity_units));
    }
    body.Add("ProvisionedThroughput", std::move(pt));
  }
  if (r.create_global_index || r.delete_global_index || !r.update_global_indexes.empty()) {
    json::Value updates = json::Value::MakeArray();
    if (r.create_global_index) {
      json::Value action = json::Value::MakeObject();
      action.Add("Create", Index(*r.create_global_index));
      updates.Push(std::move(action));
    }
    for (const UpdateTableRequest::IndexThroughput& u : r.update_global_indexes) {
      json::Value update = json::Value::MakeObject();
      update.Add("IndexName", Str(u.index_name));
      if (u.has_provisioned_throughput) {
        update.Add("ProvisionedThroughput",
                   Throughput(u.read_capacity_units, u.write_capacity_units));
      }
      AddThroughputModes(u.on_demand_throughput, u.warm_throughput, &update);
      json::Value action = json::Value::MakeObject();
      action.Add("Update", std::move(update));
      updates.Push(std::move(action));
    }
    if (r.delete_global_index) {
      json::Value name = json::Value::MakeObject();
      name.Add("IndexName", Str(*r.delete_global_index));
      json::Value action = json::Value::MakeObject();
      action.Add("Delete", std::move(name));
      updates.Push(std::move(action));
    }
    body.Add("GlobalSecondaryIndexUpdates", std::move(updates));
  }
  if (r.create_vector_index || r.delete_vector_index) {
    json::Value action = json::Value::MakeObject();
    if (r.create_vector_index) {
      action.Add("Create", VectorIndex(*r.create_vector_index));
    } else {
      json::Value name = json::Value::MakeObject();
      name.Add("IndexName", Str(*r.delete_vector_index));
      action.Add("Delete", std::move(name));
    }
    json::Value updates = json::Value::MakeArray();
    updates.Push(std::move(action));
    body.Add("VectorIndexUpdates", std::move(updates));
  }
  AddStreamSpecification(r.stream_specification, &body);
  AddSse(r.sse_specification, &body);
  if (r.deletion_protection_enabled) {
    body.Add("DeletionProtectionEnabled", json::Value::Bool(*r.deletion_protection_enabled));
  }
  AddThroughputModes(r.on_demand_throughput, r.warm_throughput, &body);
  return body;
}

json::Value TagResourceRequestToJson(const TagResourceRequest& r) {
  json::Value body = ArnBody(r.resource_arn);
  body.Add("Tags", TagList(r.tags));
  return body;
}

json::Value UntagResourceRequestToJson(const UntagResourceRequest& r) {
  json::Value body = ArnBody(r.resource_arn);
  json::Value keys = json::Value::MakeArray();
  for (const std::string& k : r.tag_keys) keys.Push(Str(k));
  body.Add("TagKeys", std::move(keys));
  return body;
}

json::Value ListTagsOfResourceRequestToJson(const ListTagsOfResourceRequest& r) {
  json::Value body = ArnBody(r.resource_arn);
  AddString("NextToken", r.next_token, &body);
  return body;
}

json::Value DescribeContinuousBackupsRequestToJson(const DescribeContinuousBackupsRequest& r) {
  return Start(r.table_name);
}

json::Value UpdateContinuousBackupsRequestToJson(const UpdateContinuousBackupsRequest& r) {
  json::Value body = Start(r.table_name);
  json::Value spec = json::Value::MakeObject();
  spec.Add("PointInTimeRecoveryEnabled", json::Value::Bool(r.point_in_time_recovery_enabled));
  if (r.recovery_period_in_days) {
    spec.Add("RecoveryPeriodInDays", json::Value::Int(*r.recovery_period_in_days));
  }
  body.Add("PointInTimeRecoverySpecification", std::move(spec));
  return body;
}

json::Value UpdateTimeToLiveRequestToJson(const UpdateTimeToLiveRequest& r) {
  json::Value body = Start(r.table_name);
  json::Value spec = json::Value::MakeObject();
  spec.Add("Enabled", json::Value::Bool(r.specification.enabled));
  spec.Add("AttributeName", Str(r.specification.attribute_name));
  body.Add("TimeToLiveSpecification", std::move(spec));
  return body;
}

json::Value DescribeTimeToLiveRequestToJson(const DescribeTimeToLiveRequest& r) {
  return Start(r.table_name);
}

json::Value ListStreamsRequestToJson(const ListStreamsRequest& r) {
  json::Value body = json::Value::MakeObject();
  AddString("TableName", r.table_name, &body);
  AddLimit(r.limit, &body);
  AddString("ExclusiveStartStreamArn", r.exclusive_start_stream_arn, &body);
  return body;
}

json::Value DescribeStreamRequestToJson(const DescribeStreamRequest& r) {
  json::Value body = json::Value::MakeObject();
  body.Add("StreamArn", Str(r.stream_arn));
  AddLimit(r.limit, &body);
  AddString("ExclusiveStartShardId", r.exclusive_start_shard_id, &body);
  if (r.shard_filter) {
    json::Value filter = json::Value::MakeObject();
    AddString("Type", r.shard_filter->type, &filter);
    AddString("ShardId", r.shard_filter->shard_id, &filter);
    body.Add("ShardFilter", std::move(filter));
  }
  return body;
}

json::Value GetShardIteratorRequestToJson(const GetShardIteratorRequest& r) {
  json::Value body = json::Value::MakeObject();
  body.Add("StreamArn", Str(r.stream_arn));
  body.Add("ShardId", Str(r.shard_id));
  body.Add("ShardIteratorType", Str(r.shard_iterator_type));
  AddString("SequenceNumber", r.sequence_number, &body);
  return body;
}

json::Value GetRecordsRequestToJson(const GetRecordsRequest& r) {
  json::Value body = json::Value::MakeObject();
  body.Add("ShardIterator", Str(r.shard_iterator));
  AddLimit(r.limit, &body);
  return body;
}

}  // namespace keyhole
