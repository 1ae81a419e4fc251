// The catalog's stored form of a table: TableToJson / TableFromJson (core/schema.h).
//
// A FROZEN FILE FORMAT. What TableToJson writes is stored in every keyhole file ("table/<name>"
// in the catalog, storage/engine.h) and read back by every later version: a member may be added
// (readers ignore what they do not know, and must accept its absence), never renamed, retyped
// or dropped. DescribeTable's answer (api/api_json.h) starts from this form and leaves out the
// catalog's own members ("KeyholeTableId", ...): a change to DescribeTable's shape that is not
// an addition belongs in api/, not here. tests/unit/core_schema_json_test.cpp holds the stored
// form of a table with every feature, byte for byte: it fails when this format changes.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/schema.h"
#include "core/throughput.h"
#include "core/vector_index.h"

namespace keyhole {

namespace {

json::Value KeySchemaJson(const KeySchema& k) {
  json::Value arr = json::Value::MakeArray();
  auto add = [&](const KeyAttribute& a, const char* role) {
    json::Value e = json::Value::MakeObject();
    e.Add("AttributeName", json::Value::String(a.name));
    e.Add("KeyType", json::Value::String(role));
    arr.Push(std::move(e));
  };
  for (const KeyAttribute* a : k.PartitionAttributes()) add(*a, "HASH");
  for (const KeyAttribute* a : k.SortAttributes()) add(*a, "RANGE");
  return arr;
}

void CollectDefinition(const KeyAttribute& a, std::vector<KeyAttribute>* defs) {
  for (const auto& d : *defs)
    if (d.name == a.name) return;
  defs->push_back(a);
}

const json::Value* Member(const json::Value& v, std::string_view name, json::Kind kind) {
  if (!v.IsObject()) return nullptr;
  const json::Value* m = v.Find(name);
  return m && m->kind() == kind ? m : nullptr;
}

// An epoch-seconds time as DynamoDB writes it (milliseconds).
json::Value Seconds(double t) { return json::Value::Number(fmt::format("{:.3f}", t)); }

// DescribeTable's ProvisionedThroughput of a table or a GSI (T: TableDescription or
// IndexDescription, which name these members alike).
template <typename T>
json::Value ThroughputJson(const T& t) {
  json::Value pt = json::Value::MakeObject();
  if (t.last_increase_time > 0) pt.Add("LastIncreaseDateTime", Seconds(t.last_increase_time));
  if (t.last_decrease_time > 0) pt.Add("LastDecreaseDateTime", Seconds(t.last_decrease_time));
  pt.Add("NumberOfDecreasesToday", json::Value::Int(t.decreases_today));
  pt.Add("ReadCapacityUnits", json::Value::Int(t.read_capacity));
  pt.Add("WriteCapacityUnits", json::Value::Int(t.write_capacity));
  return pt;
}

// Reads what ThroughputJson writes, under `v`'s ProvisionedThroughput (absent: zeros).
template <typename T>
void ReadThroughputJson(const json::Value& v, T* t) {
  const json::Value* pt = Member(v, "ProvisionedThroughput", json::Kind::kObject);
  if (!pt) return;
  if (const json::Value* r = Member(*pt, "ReadCapacityUnits", json::Kind::kNumber))
    t->read_capacity = std::stoll(r->number_text());
  if (const json::Value* w = Member(*pt, "WriteCapacityUnits", json::Kind::kNumber))
    t->write_capacity = std::stoll(w->number_text());
  if (const json::Value* d = Member(*pt, "LastIncreaseDateTime", json::Kind::kNumber))
    t->last_increase_time = std::stod(d->number_text());
  if (const json::Value* d = Member(*pt, "LastDecreaseDateTime", json::Kind::kNumber))
    t->last_decrease_time = std::stod(d->number_text());
  if (const json::Value* n = Member(*pt, "NumberOfDecreasesToday", json::Kind::kNumber))
    t->decreases_today = std::stoll(n->number_text());
}

// DescribeTable's OnDemandThroughput (only the members set; nothing when none is) and
// WarmThroughput of a table or a GSI, added to `o` (T: TableDescription or IndexDescription).
template <typename T>
void AddThroughputModes(const T& t, std::string_view status, json::Value* o) {
  if (t.max_read_request_units || t.max_write_request_units) {
    json::Value od = json::Value::MakeObject();
    if (t.max_read_request_units)
      od.Add("MaxReadRequestUnits", json::Value::Int(*t.max_read_request_units));
    if (t.max_write_request_units)
      od.Add("MaxWriteRequestUnits", json::Value::Int(*t.max_write_request_units));
    o->Add("OnDemandThroughput", std::move(od));
  }
  json::Value warm = json::Value::MakeObject();
  warm.Add("ReadUnitsPerSecond", json::Value::Int(t.warm_read_units));
  warm.Add("WriteUnitsPerSecond", json::Value::Int(t.warm_write_units));
  warm.Add("Status", json::Value::String(std::string(status)));
  o->Add("WarmThroughput", std::move(warm));
}

// Reads what AddThroughputModes writes. A catalog from before keyhole recorded them has no
// WarmThroughput: SettleWarmThroughput fills it.
template <typename T>
void ReadThroughputModes(const json::Value& v, T* t) {
  if (const json::Value* od = Member(v, "OnDemandThroughput", json::Kind::kObject)) {
    if (const json::Value* r = Member(*od, "MaxReadRequestUnits", json::Kind::kNumber))
      t->max_read_request_units = std::stoll(r->number_text());
    if (const json::Value* w = Member(*od, "MaxWriteRequestUnits", json::Kind::kNumber))
      t->max_write_request_units = std::stoll(w->number_text());
  }
  if (const json::Value* warm = Member(v, "WarmThroughput", json::Kind::kObject)) {
    if (const json::Value* r = Member(*warm, "ReadUnitsPerSecond", json::Kind::kNumber))
      t->warm_read_units = std::stoll(r->number_text());
    if (const json::Value* w = Member(*warm, "WriteUnitsPerSecond", json::Kind::kNumber))
      t->warm_write_units = std::stoll(w->number_text());
  }
}

json::Value IndexJson(const IndexDescription& i, const TableDescription& t) {
  json::Value o = json::Value::MakeObject();
  o.Add("IndexName", json::Value::String(i.name));
  o.Add("KeySchema", KeySchemaJson(i.key));
  o.Add("Projection", ProjectionToJson(i.projection));
  if (i.kind == IndexKind::kGlobal) {
    o.Add("IndexStatus", json::Value::String(i.status));
    o.Add("ProvisionedThroughput", ThroughputJson(i));
  }
  o.Add("IndexSizeBytes", json::Value::Int(i.size_bytes));
  o.Add("ItemCount", json::Value::Int(i.item_count));
  o.Add("IndexArn", json::Value::String(t.TableArn() + "/index/" + i.name));
  if (i.kind == IndexKind::kGlobal) AddThroughputModes(i, i.status, &o);
  return o;
}

Status Corrupt(std::string_view what) {
  return Status::Format(fmt::format("catalog record is malformed: {}", what));
}

Result<KeySchema> KeySchemaFromJson(const json::Value& arr,
                                    const std::map<std::string, ValueType>& types) {
  if (!arr.IsArray() || arr.array().empty() || arr.array().size() > 2 * kMaxKeyAttributesPerSide)
    return Corrupt("KeySchema");
  KeySchema k;
  size_t hashes = 0;
  for (size_t i = 0; i < arr.array().size(); ++i) {
    const json::Value* n = Member(arr.array()[i], "AttributeName", json::Kind::kString);
    if (!n || !types.count(n->str())) return Corrupt("KeySchema element");
    KeyAttribute a{n->str(), types.at(n->str())};
    const json::Value* role = Member(arr.array()[i], "KeyType", json::Kind::kString);
    if (!role || (role->str() != "HASH" && role->str() != "RANGE")) return Corrupt("KeyType");
    const bool hash = role->str() == "HASH";
    if (hash && hashes != i) return Corrupt("KeySchema order");
    if (hash) {
      (hashes++ == 0 ? k.partition : k.more_partition.emplace_back()) = a;
    } else if (!k.sort) {
      k.sort = a;
    } else {
      k.more_sort.push_back(a);
    }
  }
  if (hashes == 0) return Corrupt("KeySchema without HASH");
  return k;
}

}  // namespace

json::Value TableToJson(const TableDescription& t) {
  std::vector<KeyAttribute> defs;
  for (const KeyAttribute* a : t.key.Attributes()) CollectDefinition(*a, &defs);
  for (const auto& i : t.indexes)
    for (const KeyAttribute* a : i.key.Attributes()) CollectDefinition(*a, &defs);
  for (const auto& v : t.vector_indexes) {
    for (const SearchAttribute& a : v.search_schema) CollectDefinition({a.name, a.type}, &defs);
  }
  json::Value o = json::Value::MakeObject();
  json::Value ad = json::Value::MakeArray();
  for (const auto& d : defs) {
    json::Value e = json::Value::MakeObject();
    e.Add("AttributeName", json::Value::String(d.name));
    e.Add("AttributeType", json::Value::String(std::string(TypeName(d.type))));
    ad.Push(std::move(e));
  }
  o.Add("AttributeDefinitions", std::move(ad));
  o.Add("TableName", json::Value::String(t.name));
  o.Add("KeySchema", KeySchemaJson(t.key));
  o.Add("TableStatus", json::Value::String(t.status));
  o.Add("CreationDateTime", json::Value::Number(fmt::format("{:.3f}", t.creation_time)));
  o.Add("ProvisionedThroughput", ThroughputJson(t));
  o.Add("TableSizeBytes", json::Value::Int(t.size_bytes));
  o.Add("ItemCount", json::Value::Int(t.item_count));
  o.Add("TableArn", json::Value::String(t.TableArn()));
  // A version-4 UUID in form, as DynamoDB's are (dynalite's createTable tests); the table's id
  // in its last group, so a keyhole client reads it back.
  o.Add("TableId", json::Value::String(fmt::format("00000000-0000-4000-8000-{:012x}", t.id)));
  json::Value bm = json::Value::MakeObject();
  bm.Add("BillingMode", json::Value::String(t.billing_mode));
  if (t.pay_per_request_since > 0) {
    bm.Add("LastUpdateToPayPerRequestDateTime", Seconds(t.pay_per_request_since));
  }
  o.Add("BillingModeSummary", std::move(bm));
  json::Value gsis = json::Value::MakeArray(), lsis = json::Value::MakeArray();
  for (const auto& i : t.indexes)
    (i.kind == IndexKind::kGlobal ? gsis : lsis).Push(IndexJson(i, t));
  if (!lsis.array().empty()) o.Add("LocalSecondaryIndexes", std::move(lsis));
  if (!gsis.array().empty()) o.Add("GlobalSecondaryIndexes", std::move(gsis));
  if (!t.vector_indexes.empty()) {  // absent when the table has none, as DynamoDB's
    json::Value vectors = json::Value::MakeArray();
    for (const auto& v : t.vector_indexes) vectors.Push(VectorIndexToJson(v, t.TableArn()));
    o.Add("VectorIndexes", std::move(vectors));
  }
  if (t.stream_view_type) {
    json::Value spec = json::Value::MakeObject();
    spec.Add("StreamEnabled", json::Value::Bool(true));
    spec.Add("StreamViewType", json::Value::String(*t.stream_view_type));
    o.Add("StreamSpecification", std::move(spec));
  }
  if (!t.latest_stream_label.empty()) {
    o.Add("LatestStreamLabel", json::Value::String(t.latest_stream_label));
    o.Add("LatestStreamArn", json::Value::String(t.LatestStreamArn()));
  }
  if (t.sse_enabled) {
    json::Value sse = json::Value::MakeObject();
    sse.Add("Status", json::Value::String("ENABLED"));
    sse.Add("SSEType", json::Value::String("KMS"));
    sse.Add("KMSMasterKeyArn", json::Value::String(t.kms_master_key_arn));
    o.Add("SSEDescription", std::move(sse));
  }
  o.Add("DeletionProtectionEnabled", json::Value::Bool(t.deletion_protection));
  AddThroughputModes(t, "ACTIVE", &o);
  o.Add("KeyholeTableId", json::Value::Int(static_cast<int64_t>(t.id)));
  if (t.data_id) o.Add("KeyholeDataId", json::Value::Int(static_cast<int64_t>(t.data_id)));
  if (!t.tags.empty()) {
    json::Value tags = json::Value::MakeArray();
    for (const auto& [k, v] : t.tags) {
      json::Value tag = json::Value::MakeObject();
      tag.Add("Key", json::Value::String(k));
      tag.Add("Value", json::Value::String(v));
      tags.Push(std::move(tag));
    }
    o.Add("KeyholeTags", std::move(tags));
  }
  if (t.pitr_enabled || t.pitr_recovery_period_days != 35) {
    json::Value pitr = json::Value::MakeObject();
    pitr.Add("Enabled", json::Value::Bool(t.pitr_enabled));
    pitr.Add("Since", Seconds(t.pitr_enabled_at));
    pitr.Add("RecoveryPeriodInDays", json::Value::Int(t.pitr_recovery_period_days));
    o.Add("KeyholePointInTimeRecovery", std::move(pitr));
  }
  if (t.ttl_attribute || t.ttl_changed_at > 0) {
    json::Value ttl = json::Value::MakeObject();
    if (t.ttl_attribute) ttl.Add("AttributeName", json::Value::String(*t.ttl_attribute));
    ttl.Add("ChangedAt", json::Value::Number(fmt::format("{:.3f}", t.ttl_changed_at)));
    o.Add("KeyholeTimeToLive", std::move(ttl));
  }
  return o;
}

Result<TableDescription> TableFromJson(const json::Value& v) {
  TableDescription t;
  const json::Value* name = Member(v, "TableName", json::Kind::kString);
  const json::Value* ad = Member(v, "AttributeDefinitions", json::Kind::kArray);
  const json::Value* ks = Member(v, "KeySchema", json::Kind::kArray);
  const json::Value* id = Member(v, "KeyholeTableId", json::Kind::kNumber);
  if (!name || !ad || !ks || !id)
    return Corrupt("missing TableName/KeySchema/AttributeDefinitions/id");
  t.name = name->str();
  t.id = std::stoull(id->number_text());
  if (const json::Value* d = Member(v, "KeyholeDataId", json::Kind::kNumber))
    t.data_id = std::stoull(d->number_text());
  std::map<std::string, ValueType> types;
  for (const auto& d : ad->array()) {
    const json::Value* n = Member(d, "AttributeName", json::Kind::kString);
    const json::Value* ty = Member(d, "AttributeType", json::Kind::kString);
    ValueType vt;
    if (!n || !ty || !TypeFromName(ty->str(), &vt)) return Corrupt("AttributeDefinitions");
    types[n->str()] = vt;
  }
  KH_ASSIGN_OR_RETURN(t.key, KeySchemaFromJson(*ks, types));
  if (const json::Value* s = Member(v, "TableStatus", json::Kind::kString)) t.status = s->str();
  if (const json::Value* c = Member(v, "CreationDateTime", json::Kind::kNumber))
    t.creation_time = std::stod(c->number_text());
  if (const json::Value* bm = Member(v, "BillingModeSummary", json::Kind::kObject)) {
    if (const json::Value* m = Member(*bm, "BillingMode", json::Kind::kString))
      t.billing_mode = m->str();
    if (const json::Value* d =
            Member(*bm, "LastUpdateToPayPerRequestDateTime", json::Kind::kNumber)) {
      t.pay_per_request_since = std::stod(d->number_text());
    }
  }
  // A catalog written before keyhole recorded it: a PAY_PER_REQUEST table has been so since it
  // was created.
  if (t.pay_per_request_since == 0 && t.billing_mode == "PAY_PER_REQUEST") {
    t.pay_per_request_since = t.creation_time;
  }
  if (const json::Value* p = Member(v, "DeletionProtectionEnabled", json::Kind::kBool)) {
    t.deletion_protection = p->boolean();
  }
  if (const json::Value* sse = Member(v, "SSEDescription", json::Kind::kObject)) {
    const json::Value* status = Member(*sse, "Status", json::Kind::kString);
    t.sse_enabled = status && status->str() == "ENABLED";
    if (const json::Value* k = Member(*sse, "KMSMasterKeyArn", json::Kind::kString)) {
      t.kms_master_key_arn = k->str();
    }
  }
  if (const json::Value* tags = Member(v, "KeyholeTags", json::Kind::kArray)) {
    for (const json::Value& tag : tags->array()) {
      const json::Value* k = Member(tag, "Key", json::Kind::kString);
      const json::Value* val = Member(tag, "Value", json::Kind::kString);
      if (!k || !val) return Corrupt("KeyholeTags");
      t.tags[k->str()] = val->str();
    }
  }
  if (const json::Value* pitr = Member(v, "KeyholePointInTimeRecovery", json::Kind::kObject)) {
    const json::Value* e = Member(*pitr, "Enabled", json::Kind::kBool);
    const json::Value* since = Member(*pitr, "Since", json::Kind::kNumber);
    const json::Value* days = Member(*pitr, "RecoveryPeriodInDays", json::Kind::kNumber);
    if (!e || !since || !days) return Corrupt("KeyholePointInTimeRecovery");
    t.pitr_enabled = e->boolean();
    t.pitr_enabled_at = std::stod(since->number_text());
    t.pitr_recovery_period_days = std::stoi(days->number_text());
  }
  if (const json::Value* spec = Member(v, "StreamSpecification", json::Kind::kObject)) {
    const json::Value* enabled = Member(*spec, "StreamEnabled", json::Kind::kBool);
    const json::Value* view = Member(*spec, "StreamViewType", json::Kind::kString);
    if (enabled && enabled->boolean() && view) t.stream_view_type = view->str();
  }
  if (const json::Value* label = Member(v, "LatestStreamLabel", json::Kind::kString)) {
    t.latest_stream_label = label->str();
  }
  if (const json::Value* ttl = Member(v, "KeyholeTimeToLive", json::Kind::kObject)) {
    if (const json::Value* a = Member(*ttl, "AttributeName", json::Kind::kString)) {
      t.ttl_attribute = a->str();
    }
    if (const json::Value* c = Member(*ttl, "ChangedAt", json::Kind::kNumber)) {
      t.ttl_changed_at = std::stod(c->number_text());
    }
  }
  ReadThroughputJson(v, &t);
  for (auto [member, kind] : {std::pair{"LocalSecondaryIndexes", IndexKind::kLocal},
                              std::pair{"GlobalSecondaryIndexes", IndexKind::kGlobal}}) {
    const json::Value* arr = Member(v, member, json::Kind::kArray);
    if (!arr) continue;
    for (const auto& iv : arr->array()) {
      IndexDescription idx;
      idx.kind = kind;
      const json::Value* in = Member(iv, "IndexName", json::Kind::kString);
      const json::Value* iks = Member(iv, "KeySchema", json::Kind::kArray);
      const json::Value* p = Member(iv, "Projection", json::Kind::kObject);
      if (!in || !iks || !p) return Corrupt("index");
      idx.name = in->str();
      KH_ASSIGN_OR_RETURN(idx.key, KeySchemaFromJson(*iks, types));
      KH_ASSIGN_OR_RETURN(idx.projection, ProjectionFromJson(*p));
      if (const json::Value* st = Member(iv, "IndexStatus", json::Kind::kString))
        idx.status = st->str();
      ReadThroughputJson(iv, &idx);
      ReadThroughputModes(iv, &idx);
      t.indexes.push_back(std::move(idx));
    }
  }
  if (const json::Value* arr = Member(v, "VectorIndexes", json::Kind::kArray)) {
    for (const auto& iv : arr->array()) {
      KH_ASSIGN_OR_RETURN(VectorIndexDescription idx, VectorIndexFromJson(iv, types));
      t.vector_indexes.push_back(std::move(idx));
    }
  }
  ReadThroughputModes(v, &t);
  SettleWarmThroughput(&t);
  return t;
}

json::Value ProjectionToJson(const Projection& projection) {
  json::Value p = json::Value::MakeObject();
  p.Add("ProjectionType", json::Value::String(std::string(ProjectionTypeName(projection.type))));
  if (projection.type == ProjectionType::kInclude) {
    json::Value nk = json::Value::MakeArray();
    for (const auto& a : projection.non_key_attributes) nk.Push(json::Value::String(a));
    p.Add("NonKeyAttributes", std::move(nk));
  }
  return p;
}

Result<Projection> ProjectionFromJson(const json::Value& p) {
  Projection out;
  const json::Value* pt = Member(p, "ProjectionType", json::Kind::kString);
  if (!pt) return Corrupt("Projection");
  if (pt->str() == "KEYS_ONLY") {
    out.type = ProjectionType::kKeysOnly;
  } else if (pt->str() == "INCLUDE") {
    out.type = ProjectionType::kInclude;
  }
  if (const json::Value* nk = Member(p, "NonKeyAttributes", json::Kind::kArray)) {
    for (const auto& a : nk->array()) {
      if (a.IsString()) out.non_key_attributes.push_back(a.str());
    }
  }
  return out;
}

}  // namespace keyhole
