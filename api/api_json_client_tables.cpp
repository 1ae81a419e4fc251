// Response decoders of api/api_json_client.h for the table and Time to Live operations: a
// TableDescription in DescribeTable's shape (the inverse of TableToJson as the API returns it,
// core/schema.h) and the TTL responses.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <utility>

#include "api/api_json_client.h"
#include "api/api_json_client_read.h"
#include "core/vector_index.h"

namespace keyhole {

namespace {

using api_json_client::Child;
using api_json_client::Element;
using api_json_client::Find;
using api_json_client::Malformed;
using api_json_client::NeedObject;
using api_json_client::ReadBool;
using api_json_client::ReadDouble;
using api_json_client::ReadInt;
using api_json_client::ReadString;

// Attribute name -> declared type, from AttributeDefinitions; nullopt when the description has
// none (DeleteTable's).
using Definitions = std::optional<std::map<std::string, ValueType>>;

// Also appends the names to *order, as listed.
Result<Definitions> ReadDefinitions(const json::Value& v, std::vector<std::string>* order) {
  KH_ASSIGN_OR_RETURN(const json::Value* list,
                      Find(v, "AttributeDefinitions", json::Kind::kArray, ""));
  if (!list) return Definitions();
  std::map<std::string, ValueType> out;
  for (size_t i = 0; i < list->array().size(); ++i) {
    const json::Value& d = list->array()[i];
    const std::string at = Element("AttributeDefinitions", i);
    KH_RETURN_IF_ERROR(NeedObject(d, at));
    std::string name, type;
    KH_RETURN_IF_ERROR(ReadString(d, "AttributeName", at, &name));
    KH_RETURN_IF_ERROR(ReadString(d, "AttributeType", at, &type));
    ValueType vt;
    if (type != "S" && type != "N" && type != "B") {
      return Malformed(Child(at, "AttributeType"), fmt::format("is '{}', not S, N or B", type));
    }
    TypeFromName(type, &vt);
    out[name] = vt;
    order->push_back(name);
  }
  return Definitions(std::move(out));
}

// A KeySchema list at `at`: the HASH element is the partition key, the RANGE element the sort
// key (by position when KeyType is absent); a GSI's multi-attribute key has up to four of each,
// HASH ones first.
Result<KeySchema> ReadKeySchema(const json::Value& list, const std::string& at,
                                const Definitions& defs) {
  if (!list.IsArray()) return Malformed(at, "is not a list");
  if (list.array().empty() || list.array().size() > 2 * kMaxKeyAttributesPerSide) {
    return Malformed(at, fmt::format("has {} elements, not 1 to {}", list.array().size(),
                                     2 * kMaxKeyAttributesPerSide));
  }
  KeySchema k;
  bool have_partition = false;
  for (size_t i = 0; i < list.array().size(); ++i) {
    const json::Value& e = list.array()[i];
    const std::string el = Element(at, i);
    KH_RETURN_IF_ERROR(NeedObject(e, el));
    KeyAttribute a;
    std::string key_type = i == 0 ? "HASH" : "RANGE";
    KH_RETURN_IF_ERROR(ReadString(e, "AttributeName", el, &a.name));
    KH_RETURN_IF_ERROR(ReadString(e, "KeyType", el, &key_type));
    if (defs) {
      auto it = defs->find(a.name);
      if (it == defs->end()) {
        return Malformed(
            el, fmt::format("names '{}', which AttributeDefinitions does not define", a.name));
      }
      a.type = it->second;
    }
    if (key_type == "HASH" && !have_partition && !k.sort) {
      k.partition = std::move(a);
      have_partition = true;
    } else if (key_type == "HASH" && have_partition && !k.sort &&
               k.more_partition.size() + 1 < kMaxKeyAttributesPerSide) {
      k.more_partition.push_back(std::move(a));
    } else if (key_type == "RANGE" && !k.sort) {
      k.sort = std::move(a);
    } else if (key_type == "RANGE" && k.sort && k.more_sort.size() + 1 < kMaxKeyAttributesPerSide) {
      k.more_sort.push_back(std::move(a));
    } else {
      return Malformed(Child(el, "KeyType"),
                       fmt::format("is '{}' out of order, too often or unknown", key_type));
    }
  }
  if (!have_partition) return Malformed(at, "has no HASH key");
  return k;
}

Result<Projection> ReadProjection(const json::Value& p, const std::string& at) {
  KH_RETURN_IF_ERROR(NeedObject(p, at));
  Projection out;
  std::string type = "ALL";
  KH_RETURN_IF_ERROR(ReadString(p, "ProjectionType", at, &type));
  if (type == "ALL") {
    out.type = ProjectionType::kAll;
  } else if (type == "KEYS_ONLY") {
    out.type = ProjectionType::kKeysOnly;
  } else if (type == "INCLUDE") {
    out.type = ProjectionType::kInclude;
  } else {
    return Malformed(Child(at, "ProjectionType"), fmt::format("is '{}'", type));
  }
  KH_ASSIGN_OR_RETURN(const json::Value* names,
                      Find(p, "NonKeyAttributes", json::Kind::kArray, at));
  if (names) {
    for (size_t i = 0; i < names->array().size(); ++i) {
      const json::Value& n = names->array()[i];
      if (!n.IsString())
        return Malformed(Element(Child(at, "NonKeyAttributes"), i), "is not a string");
      out.non_key_attributes.push_back(n.str());
    }
  }
  return out;
}

// The ProvisionedThroughput member of `v` (a table's or a GSI's description at `at`), when
// present, into *t (TableDescription or IndexDescription, whose members are named alike).
template <typename T>
Status ReadProvisionedThroughput(const json::Value& v, const std::string& at, T* t) {
  KH_ASSIGN_OR_RETURN(const json::Value* pt,
                      Find(v, "ProvisionedThroughput", json::Kind::kObject, at));
  if (!pt) return Status::OK();
  const std::string where = Child(at, "ProvisionedThroughput");
  KH_RETURN_IF_ERROR(ReadInt(*pt, "ReadCapacityUnits", where, &t->read_capacity));
  KH_RETURN_IF_ERROR(ReadInt(*pt, "WriteCapacityUnits", where, &t->write_capacity));
  KH_RETURN_IF_ERROR(ReadDouble(*pt, "LastIncreaseDateTime", where, &t->last_increase_time));
  KH_RETURN_IF_ERROR(ReadDouble(*pt, "LastDecreaseDateTime", where, &t->last_decrease_time));
  return ReadInt(*pt, "NumberOfDecreasesToday", where, &t->decreases_today);
}

// The OnDemandThroughput and WarmThroughput members of `v` (a table's or a GSI's description at
// `at`), when present, into *t (TableDescription or IndexDescription). Without a WarmThroughput
// (a CreateTable answer), 0 / 0.
template <typename T>
Status ReadThroughputModes(const json::Value& v, const std::string& at, T* t) {
  KH_ASSIGN_OR_RETURN(const json::Value* od,
                      Find(v, "OnDemandThroughput", json::Kind::kObject, at));
  if (od) {
    const std::string where = Child(at, "OnDemandThroughput");
    for (auto [name, out] : {std::pair{"MaxReadRequestUnits", &t->max_read_request_units},
                             std::pair{"MaxWriteRequestUnits", &t->max_write_request_units}}) {
      if (!od->Find(name)) continue;
      int64_t n = 0;
      KH_RETURN_IF_ERROR(ReadInt(*od, name, where, &n));
      if (n > 0) *out = n;  // -1: no limit
    }
  }
  KH_ASSIGN_OR_RETURN(const json::Value* warm, Find(v, "WarmThroughput", json::Kind::kObject, at));
  if (warm) {
    const std::string where = Child(at, "WarmThroughput");
    KH_RETURN_IF_ERROR(ReadInt(*warm, "ReadUnitsPerSecond", where, &t->warm_read_units));
    KH_RETURN_IF_ERROR(ReadInt(*warm, "WriteUnitsPerSecond", where, &t->warm_write_units));
  }
  return Status::OK();
}

// The index list `member` (LocalSecondaryIndexes or GlobalSecondaryIndexes) into t->indexes.
Status ReadIndexes(const json::Value& v, std::string_view member, IndexKind kind,
                   const Definitions& defs, TableDescription* t) {
  KH_ASSIGN_OR_RETURN(const json::Value* list, Find(v, member, json::Kind::kArray, ""));
  if (!list) return Status::OK();
  for (size_t i = 0; i < list->array().size(); ++i) {
    const json::Value& e = list->array()[i];
    const std::string at = Element(member, i);
    KH_RETURN_IF_ERROR(NeedObject(e, at));
    IndexDescription idx;
    idx.kind = kind;
    KH_RETURN_IF_ERROR(ReadString(e, "IndexName", at, &idx.name));
    KH_ASSIGN_OR_RETURN(const json::Value* keys, Find(e, "KeySchema", json::Kind::kArray, at));
    if (!keys) return Malformed(at, "has no KeySchema");
    KH_ASSIGN_OR_RETURN(idx.key, ReadKeySchema(*keys, Child(at, "KeySchema"), defs));
    if (const json::Value* p = e.Find("Projection"); p && !p->IsNull()) {
      KH_ASSIGN_OR_RETURN(idx.projection, ReadProjection(*p, Child(at, "Projection")));
    }
    KH_RETURN_IF_ERROR(ReadString(e, "IndexStatus", at, &idx.status));
    KH_RETURN_IF_ERROR(ReadProvisionedThroughput(e, at, &idx));
    KH_RETURN_IF_ERROR(ReadThroughputModes(e, at, &idx));
    KH_RETURN_IF_ERROR(ReadInt(e, "IndexSizeBytes", at, &idx.size_bytes));
    KH_RETURN_IF_ERROR(ReadInt(e, "ItemCount", at, &idx.item_count));
    t->indexes.push_back(std::move(idx));
  }
  return Status::OK();
}

// TableToJson lists AttributeDefinitions in the order the table's key and then its indexes, in
// creation order with LSIs and GSIs mixed, first use each attribute; but it lists the LSIs before
// the GSIs. Interleaves t->indexes' LSIs and GSIs (each list kept in order) so that the order of
// first use matches `order`, the AttributeDefinitions as listed, which gives keyhole's encoder
// its own text back. When no interleaving fits (DynamoDB lists definitions as they were given),
// t->indexes stay LSIs then GSIs.
void RestoreCreationOrder(const std::vector<std::string>& order, TableDescription* t) {
  std::vector<IndexDescription> lists[2];  // LSIs, GSIs
  for (IndexDescription& i : t->indexes) {
    lists[i.kind == IndexKind::kLocal ? 0 : 1].push_back(std::move(i));
  }
  std::vector<std::string> seen;
  size_t pos = 0;
  auto use = [&](const KeyAttribute& a, std::vector<std::string>* fresh) {
    if (std::find(seen.begin(), seen.end(), a.name) != seen.end()) return;
    if (std::find(fresh->begin(), fresh->end(), a.name) != fresh->end()) return;
    fresh->push_back(a.name);
  };
  // The attributes `key` uses first, in TableToJson's order.
  auto fresh_of = [&](const KeySchema& key) {
    std::vector<std::string> fresh;
    use(key.partition, &fresh);
    if (key.sort) use(*key.sort, &fresh);
    return fresh;
  };
  auto fits = [&](const std::vector<std::string>& fresh) {
    if (pos + fresh.size() > order.size()) return false;
    return std::equal(fresh.begin(), fresh.end(), order.begin() + pos);
  };
  auto take = [&](const std::vector<std::string>& fresh) {
    seen.insert(seen.end(), fresh.begin(), fresh.end());
    pos += fresh.size();
  };
  std::vector<IndexDescription> merged;
  bool ok = true;
  const std::vector<std::string> table_fresh = fresh_of(t->key);
  if (fits(table_fresh)) {
    take(table_fresh);
  } else {
    ok = false;
  }
  size_t next[2] = {0, 0};
  while (ok && (next[0] < lists[0].size() || next[1] < lists[1].size())) {
    int chosen = -1;
    std::vector<std::string> chosen_fresh;
    // An index that uses no new attribute can go anywhere; else the one that fits.
    for (bool need_new : {false, true}) {
      for (int k = 0; k < 2 && chosen < 0; ++k) {
        if (next[k] == lists[k].size()) continue;
        std::vector<std::string> fresh = fresh_of(lists[k][next[k]].key);
        if (fresh.empty() != !need_new) continue;
        if (need_new && !fits(fresh)) continue;
        chosen = k;
        chosen_fresh = std::move(fresh);
      }
    }
    if (chosen < 0) {
      ok = false;
      break;
    }
    take(chosen_fresh);
    merged.push_back(lists[chosen][next[chosen]++]);
  }
  if (!ok) {
    merged.clear();
    for (auto& list : lists) {
      for (IndexDescription& i : list) merged.push_back(std::move(i));
    }
  }
  t->indexes = std::move(merged);
}

// keyhole's TableId, "00000000-0000-4000-8000-<id in hex>": the id; 0 for any other.
uint64_t TableIdFromUuid(std::string_view uuid) {
  constexpr std::string_view kPrefix = "00000000-0000-4000-8000-";
  if (!uuid.starts_with(kPrefix)) return 0;
  std::string_view hex = uuid.substr(kPrefix.size());
  uint64_t id = 0;
  auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), id, 16);
  if (ec != std::errc() || end != hex.data() + hex.size() || hex.size() < 12) return 0;
  // Only the spelling keyhole writes ({:012x}: lowercase, no extra leading zeros).
  if (fmt::format("{:012x}", id) != hex) return 0;
  return id;
}

// {"<member>": TableDescription}
template <typename Response>
Result<Response> Wrapped(const json::Value& v, std::string_view member,
                         TableDescription Response::*field) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  Response r;
  KH_ASSIGN_OR_RETURN(const json::Value* d, Find(v, member, json::Kind::kObject, ""));
  if (!d) return Malformed(member, "is missing");
  Result<TableDescription> t = TableDescriptionFromJson(*d);
  if (!t.ok()) {
    return Status::Internal(fmt::format("{} (in {})", t.status().message(), member));
  }
  r.*field = std::move(t).value();
  return r;
}

}  // namespace

Result<TableDescription> TableDescriptionFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  TableDescription t;
  std::vector<std::string> definition_order;
  KH_ASSIGN_OR_RETURN(Definitions defs, ReadDefinitions(v, &definition_order));
  KH_RETURN_IF_ERROR(ReadString(v, "TableName", "", &t.name));
  KH_RETURN_IF_ERROR(ReadString(v, "TableArn", "", &t.arn));
  KH_ASSIGN_OR_RETURN(const json::Value* keys, Find(v, "KeySchema", json::Kind::kArray, ""));
  if (keys) {
    KH_ASSIGN_OR_RETURN(t.key, ReadKeySchema(*keys, "KeySchema", defs));
  }
  KH_RETURN_IF_ERROR(ReadString(v, "TableStatus", "", &t.status));
  KH_RETURN_IF_ERROR(ReadDouble(v, "CreationDateTime", "", &t.creation_time));
  KH_RETURN_IF_ERROR(ReadProvisionedThroughput(v, "", &t));
  KH_RETURN_IF_ERROR(ReadInt(v, "TableSizeBytes", "", &t.size_bytes));
  KH_RETURN_IF_ERROR(ReadInt(v, "ItemCount", "", &t.item_count));
  std::string table_id;
  KH_RETURN_IF_ERROR(ReadString(v, "TableId", "", &table_id));
  t.id = TableIdFromUuid(table_id);
  // DynamoDB has no BillingModeSummary for a table created PROVISIONED by default.
  t.billing_mode = t.read_capacity > 0 ? "PROVISIONED" : "PAY_PER_REQUEST";
  KH_ASSIGN_OR_RETURN(const json::Value* billing,
                      Find(v, "BillingModeSummary", json::Kind::kObject, ""));
  if (billing) {
    KH_RETURN_IF_ERROR(ReadString(*billing, "BillingMode", "BillingModeSummary", &t.billing_mode));
    KH_RETURN_IF_ERROR(ReadDouble(*billing, "LastUpdateToPayPerRequestDateTime",
                                  "BillingModeSummary", &t.pay_per_request_since));
  }
  if (const json::Value* p = v.Find("DeletionProtectionEnabled"); p && p->IsBool()) {
    t.deletion_protection = p->boolean();
  }
  KH_RETURN_IF_ERROR(ReadThroughputModes(v, "", &t));
  KH_ASSIGN_OR_RETURN(const json::Value* sse, Find(v, "SSEDescription", json::Kind::kObject, ""));
  if (sse) {
    std::string status;
    KH_RETURN_IF_ERROR(ReadString(*sse, "Status", "SSEDescription", &status));
    // ENABLING/UPDATING on DynamoDB read as enabled: keyhole's tables are never in between.
    t.sse_enabled = status == "ENABLED" || status == "ENABLING" || status == "UPDATING";
    KH_RETURN_IF_ERROR(
        ReadString(*sse, "KMSMasterKeyArn", "SSEDescription", &t.kms_master_key_arn));
  }
  KH_RETURN_IF_ERROR(ReadIndexes(v, "LocalSecondaryIndexes", IndexKind::kLocal, defs, &t));
  KH_RETURN_IF_ERROR(ReadIndexes(v, "GlobalSecondaryIndexes", IndexKind::kGlobal, defs, &t));
  KH_ASSIGN_OR_RETURN(const json::Value* vectors, Find(v, "VectorIndexes", json::Kind::kArray, ""));
  if (vectors) {
    const std::map<std::string, ValueType> types =
        defs.value_or(std::map<std::string, ValueType>{});
    for (const json::Value& e : vectors->array()) {
      Result<VectorIndexDescription> idx = VectorIndexFromJson(e, types);
      if (!idx.ok()) return Malformed("VectorIndexes", idx.status().message());
      t.vector_indexes.push_back(std::move(*idx));
    }
  }
  RestoreCreationOrder(definition_order, &t);
  KH_ASSIGN_OR_RETURN(const json::Value* stream,
                      Find(v, "StreamSpecification", json::Kind::kObject, ""));
  if (stream) {
    bool enabled = false;
    std::optional<std::string> view;
    KH_RETURN_IF_ERROR(ReadBool(*stream, "StreamEnabled", "StreamSpecification", &enabled));
    KH_RETURN_IF_ERROR(ReadString(*stream, "StreamViewType", "StreamSpecification", &view));
    if (enabled) {
      if (!view) return Malformed("StreamSpecification", "is enabled without a StreamViewType");
      t.stream_view_type = std::move(view);
    }
  }
  KH_RETURN_IF_ERROR(ReadString(v, "LatestStreamLabel", "", &t.latest_stream_label));
  return t;
}

Result<CreateTableResponse> CreateTableResponseFromJson(const json::Value& v) {
  KH_ASSIGN_OR_RETURN(CreateTableResponse r,
                      Wrapped(v, "TableDescription", &CreateTableResponse::table_description));
  // Which WarmThroughputs the answer described (those the request gave).
  const json::Value* d = v.Find("TableDescription");
  r.describe_warm_throughput = d->Find("WarmThroughput") != nullptr;
  if (const json::Value* gsis = d->Find("GlobalSecondaryIndexes"); gsis && gsis->IsArray()) {
    for (const json::Value& g : gsis->array()) {
      const json::Value* name = g.IsObject() ? g.Find("IndexName") : nullptr;
      if (name && name->IsString() && g.Find("WarmThroughput")) {
        r.indexes_with_warm_throughput.push_back(name->str());
      }
    }
  }
  return r;
}

Result<DeleteTableResponse> DeleteTableResponseFromJson(const json::Value& v) {
  return Wrapped(v, "TableDescription", &DeleteTableResponse::table_description);
}

Result<DescribeTableResponse> DescribeTableResponseFromJson(const json::Value& v) {
  return Wrapped(v, "Table", &DescribeTableResponse::table);
}

Result<UpdateTableResponse> UpdateTableResponseFromJson(const json::Value& v) {
  return Wrapped(v, "TableDescription", &UpdateTableResponse::table_description);
}

Result<ListTablesResponse> ListTablesResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  ListTablesResponse r;
  KH_ASSIGN_OR_RETURN(const json::Value* names, Find(v, "TableNames", json::Kind::kArray, ""));
  if (names) {
    for (size_t i = 0; i < names->array().size(); ++i) {
      const json::Value& n = names->array()[i];
      if (!n.IsString()) return Malformed(Element("TableNames", i), "is not a string");
      r.table_names.push_back(n.str());
    }
  }
  KH_RETURN_IF_ERROR(ReadString(v, "LastEvaluatedTableName", "", &r.last_evaluated_table_name));
  return r;
}

Result<UpdateTimeToLiveResponse> UpdateTimeToLiveResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  UpdateTimeToLiveResponse r;
  const std::string at = "TimeToLiveSpecification";
  KH_ASSIGN_OR_RETURN(const json::Value* spec, Find(v, at, json::Kind::kObject, ""));
  if (spec) {
    KH_RETURN_IF_ERROR(ReadBool(*spec, "Enabled", at, &r.specification.enabled));
    KH_RETURN_IF_ERROR(ReadString(*spec, "AttributeName", at, &r.specification.attribute_name));
  }
  return r;
}

Result<DescribeTimeToLiveResponse> DescribeTimeToLiveResponseFromJson(const json::Value& v) {
  KH_RETURN_IF_ERROR(NeedObject(v, ""));
  DescribeTimeToLiveResponse r;
  const std::string at = "TimeToLiveDescription";
  KH_ASSIGN_OR_RETURN(const json::Value* d, Find(v, at, json::Kind::kObject, ""));
  if (d) {
    KH_RETURN_IF_ERROR(ReadString(*d, "TimeToLiveStatus", at, &r.status));
    KH_RETURN_IF_ERROR(ReadString(*d, "AttributeName", at, &r.attribute_name));
  }
  return r;
}

}  // namespace keyhole
