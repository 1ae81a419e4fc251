#include "core/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/throughput.h"
#include "core/vector_index.h"

namespace keyhole {

namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += v[i];
  }
  return out;
}

const AttributeDefinition* FindDefinition(const std::vector<AttributeDefinition>& defs,
                                          std::string_view name) {
  for (const auto& d : defs)
    if (d.name == name) return &d;
  return nullptr;
}

// A KeySchema naming attributes AttributeDefinitions lacks.
Status UndefinedKeyAttributes(const std::vector<KeySchemaElement>& elems,
                              const std::vector<AttributeDefinition>& defs) {
  std::vector<std::string> def_names, key_names;
  for (const auto& d : defs) def_names.push_back(d.name);
  for (const auto& e : elems) key_names.push_back(e.name);
  return Status::Validation(
      fmt::format("{}Some index key attributes are not defined in AttributeDefinitions. Keys: "
                  "[{}], AttributeDefinitions: [{}]",
                  kInvalid, Join(key_names), Join(def_names)));
}

Status KeyAttributeName(const std::string& name) {
  if (name.empty() || name.size() > 255) {
    return Status::Validation(fmt::format(
        "{}Key attribute names must be between 1 and 255 bytes long: {}", kInvalid, name));
  }
  return Status::OK();
}

// The key of validated `elems` (defined attributes, the first `hashes` of them HASH): each
// attribute with its defined type, after checking its name's length.
Result<KeySchema> KeySchemaOf(const std::vector<KeySchemaElement>& elems,
                              const std::vector<AttributeDefinition>& defs, size_t hashes) {
  KeySchema ks;
  for (size_t i = 0; i < elems.size(); ++i) {
    KH_RETURN_IF_ERROR(KeyAttributeName(elems[i].name));
    const AttributeDefinition* d = FindDefinition(defs, elems[i].name);
    KeyAttribute ka{d->name, ValueType::kS};
    TypeFromName(d->type, &ka.type);
    if (i == 0) {
      ks.partition = ka;
    } else if (i < hashes) {
      ks.more_partition.push_back(ka);
    } else if (i == hashes) {
      ks.sort = ka;
    } else {
      ks.more_sort.push_back(ka);
    }
  }
  return ks;
}

// A GSI KeySchema of more than two elements, or of two HASH ones (see ResolveKeySchema).
Result<KeySchema> ResolveMultiAttributeKey(const std::vector<KeySchemaElement>& elems,
                                           const std::vector<AttributeDefinition>& defs) {
  auto find_def = [&](const std::string& n) { return FindDefinition(defs, n); };
  for (const auto& e : elems) {
    if (!find_def(e.name)) return UndefinedKeyAttributes(elems, defs);
  }
  for (size_t i = 0; i < elems.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (elems[i].name == elems[j].name) {
        return Status::Validation(
            "The KeySchema contains multiple key attributes with the same name");
      }
    }
  }
  if (elems[0].key_type != "HASH") {
    return Status::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  }
  size_t hashes = 0, ranges = 0;
  for (const auto& e : elems) {
    if (e.key_type == "HASH" && ranges > 0) {
      return Status::Validation(fmt::format(
          "{}All HASH key attributes must precede RANGE key attributes in the KeySchema",
          kInvalid));
    }
    ++(e.key_type == "HASH" ? hashes : ranges);
  }
  for (auto [count, role] : {std::pair{hashes, "HASH"}, std::pair{ranges, "RANGE"}}) {
    if (count > kMaxKeyAttributesPerSide) {
      return Status::Validation(
          fmt::format("{}The KeySchema exceeds the maximum allowed number of {} key attributes",
                      kInvalid, role));
    }
  }
  return KeySchemaOf(elems, defs, hashes);
}

// Resolves a KeySchema list against the attribute definitions. Messages follow DynamoDB's
// CreateTable validation (as recorded by dynalite, which checked them against AWS).
//
// `multi_attribute`: a GSI's key, which may have up to four HASH and four RANGE elements, all
// HASH ones first (DynamoDB since November 2025; texts as recorded against DynamoDB by
// conformance suites, October 2026). Tables and LSIs keep the two-element limit.
Result<KeySchema> ResolveKeySchema(const std::vector<KeySchemaElement>& elems,
                                   const std::vector<AttributeDefinition>& defs,
                                   bool multi_attribute = false) {
  // Two HASH elements are a multi-attribute key too (and a repeated name there gets its text).
  const bool two_hash =
      elems.size() == 2 && elems[0].key_type == "HASH" && elems[1].key_type == "HASH";
  if (multi_attribute && (elems.size() > 2 || two_hash))
    return ResolveMultiAttributeKey(elems, defs);
  if (elems.empty() || elems.size() > 2) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '[...]' at 'keySchema' failed to satisfy constraint: "
        "Member must have length {} 2",
        elems.empty() ? "greater than or equal to 1, less than or equal to"
                      : "less than or equal to"));
  }
  auto find_def = [&](const std::string& n) { return FindDefinition(defs, n); };
  // Two elements naming the same attribute with a single definition: DynamoDB reports the
  // definition as missing (dynalite's tests, checked against AWS: "bizarre case").
  const bool same_single = elems.size() == 2 && elems[0].name == elems[1].name && defs.size() == 1;
  for (const auto& e : elems) {
    if (!find_def(e.name) || same_single) {
      if (elems.size() == 2)
        return Status::Validation("Invalid KeySchema: Some index key attribute have no definition");
      return UndefinedKeyAttributes(elems, defs);
    }
  }
  if (elems.size() == 2 && elems[0].name == elems[1].name)
    return Status::Validation(
        "Both the Hash Key and the Range Key element in the KeySchema have the same name");
  if (elems[0].key_type != "HASH")
    return Status::Validation(
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  if (elems.size() == 2 && elems[1].key_type != "RANGE") {
    return Status::Validation(
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
  }
  return KeySchemaOf(elems, defs, 1);
}

Status ValidateDefinitions(const std::vector<AttributeDefinition>& defs) {
  std::set<std::string> seen;
  for (const auto& d : defs) {
    if (d.type != "S" && d.type != "N" && d.type != "B") {
      return Status::Validation(fmt::format(
          "1 validation error detected: Value '{}' at 'attributeDefinitions.member.attributeType' "
          "failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]",
          d.type));
    }
    if (!seen.insert(d.name).second) {
      return Status::Validation(
          fmt::format("{}Duplicate AttributeName in AttributeDefinitions: {}", kInvalid, d.name));
    }
  }
  return Status::OK();
}

Result<Projection> BuildProjectionOf(const IndexSpec& spec) {
  Projection p;
  if (!spec.projection_type)
    return Status::Validation(std::string(kInvalid) + "Unknown ProjectionType: null");
  const std::string& t = *spec.projection_type;
  if (t == "ALL")
    p.type = ProjectionType::kAll;
  else if (t == "KEYS_ONLY")
    p.type = ProjectionType::kKeysOnly;
  else if (t == "INCLUDE")
    p.type = ProjectionType::kInclude;
  else
    return Status::Validation(fmt::format("{}Unknown ProjectionType: {}", kInvalid, t));
  if (spec.non_key_attributes && p.type != ProjectionType::kInclude) {
    return Status::Validation(
        fmt::format("{}ProjectionType is {}, but NonKeyAttributes is specified", kInvalid, t));
  }
  if (p.type == ProjectionType::kInclude) {
    if (!spec.non_key_attributes || spec.non_key_attributes->empty()) {
      return Status::Validation(fmt::format(
          "{}ProjectionType is INCLUDE, but NonKeyAttributes is not specified", kInvalid));
    }
    if (spec.non_key_attributes->size() > 20) {
      return Status::Validation(
          fmt::format("{}The number of projected attributes in index {} exceeds the limit of 20",
                      kInvalid, spec.name));
    }
    std::set<std::string> seen;
    for (const auto& a : *spec.non_key_attributes) {
      if (a.empty() || a.size() > 255) {
        return Status::Validation(
            fmt::format("{}NonKeyAttributes names must be between 1 and 255 bytes long", kInvalid));
      }
      if (!seen.insert(a).second) {
        return Status::Validation(
            fmt::format("{}Duplicate attribute name in NonKeyAttributes: {}", kInvalid, a));
      }
    }
    p.non_key_attributes = *spec.non_key_attributes;
  }
  return p;
}

Result<IndexDescription> BuildIndex(const IndexSpec& spec, IndexKind kind,
                                    const KeySchema& table_key,
                                    const std::vector<AttributeDefinition>& defs) {
  KH_RETURN_IF_ERROR(ValidateTableName(spec.name, "indexName"));
  IndexDescription idx;
  idx.name = spec.name;
  idx.kind = kind;
  KH_ASSIGN_OR_RETURN(idx.key, ResolveKeySchema(spec.key_schema, defs, kind == IndexKind::kGlobal));
  if (kind == IndexKind::kLocal) {
    if (!idx.key.sort) {
      return Status::Validation(fmt::format(
          "{}Index KeySchema does not have a range key for index: {}", kInvalid, spec.name));
    }
    if (idx.key.partition.name != table_key.partition.name) {
      return Status::Validation(fmt::format(
          "{}Index KeySchema does not have the same leading hash key as table KeySchema for "
          "index: {}. index hash key: {}, table hash key: {}",
          kInvalid, spec.name, idx.key.partition.name, table_key.partition.name));
    }
  }
  KH_ASSIGN_OR_RETURN(idx.projection, BuildProjectionOf(spec));
  idx.read_capacity = spec.read_capacity_units.value_or(0);
  idx.write_capacity = spec.write_capacity_units.value_or(0);
  return idx;
}

size_t ProjectedCount(const std::vector<IndexDescription>& indexes) {
  size_t n = 0;
  for (const auto& i : indexes) n += i.projection.non_key_attributes.size();
  return n;
}

}  // namespace

void AddAttributeDefinitions(const KeySchema& key, std::vector<AttributeDefinition>* definitions) {
  for (const KeyAttribute* a : key.Attributes()) {
    if (std::ranges::none_of(*definitions,
                             [&](const AttributeDefinition& d) { return d.name == a->name; })) {
      definitions->push_back({a->name, std::string(TypeName(a->type))});
    }
  }
}

IndexSpec IndexSpecOf(const std::string& name, const KeySchema& key, const Projection& projection) {
  IndexSpec spec;
  spec.name = name;
  spec.key_schema = ToKeySchemaElements(key);
  spec.projection_type = std::string(ProjectionTypeName(projection.type));
  if (projection.type == ProjectionType::kInclude) {
    spec.non_key_attributes = projection.non_key_attributes;
  }
  return spec;
}

Status CheckGsiProjects(const IndexDescription& index, const KeySchema& table_key,
                        const std::vector<std::string>& names) {
  if (index.kind != IndexKind::kGlobal || index.projection.type == ProjectionType::kAll) {
    return Status::OK();
  }
  const auto& extra = index.projection.non_key_attributes;
  std::string list;
  std::vector<std::string_view> missing;
  for (const std::string& name : names) {
    if (table_key.Has(name) || index.key.Has(name) ||
        std::find(extra.begin(), extra.end(), name) != extra.end() ||
        std::find(missing.begin(), missing.end(), name) != missing.end()) {
      continue;
    }
    missing.push_back(name);
    list += (list.empty() ? "" : ", ") + name;
  }
  if (missing.empty()) return Status::OK();
  return Status::Validation("One or more parameter values were invalid: Global secondary index " +
                            index.name + " does not project [" + list + "]");
}

std::string_view ProjectionTypeName(ProjectionType t) {
  switch (t) {
    case ProjectionType::kAll:
      return "ALL";
    case ProjectionType::kKeysOnly:
      return "KEYS_ONLY";
    case ProjectionType::kInclude:
      return "INCLUDE";
  }
  return "ALL";
}

std::vector<const KeyAttribute*> KeySchema::PartitionAttributes() const {
  std::vector<const KeyAttribute*> out;
  out.reserve(1 + more_partition.size());
  out.push_back(&partition);
  for (const auto& a : more_partition) out.push_back(&a);
  return out;
}

std::vector<const KeyAttribute*> KeySchema::SortAttributes() const {
  std::vector<const KeyAttribute*> out;
  if (!sort) return out;
  out.reserve(1 + more_sort.size());
  out.push_back(&*sort);
  for (const auto& a : more_sort) out.push_back(&a);
  return out;
}

std::vector<const KeyAttribute*> KeySchema::Attributes() const {
  std::vector<const KeyAttribute*> out;
  out.reserve(1 + more_partition.size() + (sort ? 1 + more_sort.size() : 0));
  ForEachAttribute([&](const KeyAttribute& a, bool) { out.push_back(&a); });
  return out;
}

std::vector<std::string> KeySchema::Names() const {
  std::vector<std::string> out;
  for (const KeyAttribute* a : Attributes()) out.push_back(a->name);
  return out;
}

std::vector<KeySchemaElement> ToKeySchemaElements(const KeySchema& key) {
  std::vector<KeySchemaElement> out;
  for (const KeyAttribute* a : key.PartitionAttributes()) out.push_back({a->name, "HASH"});
  for (const KeyAttribute* a : key.SortAttributes()) out.push_back({a->name, "RANGE"});
  return out;
}

bool KeySchema::Has(std::string_view name) const {
  auto named = [&](const KeyAttribute& a) { return a.name == name; };
  return named(partition) || (sort && named(*sort)) || std::ranges::any_of(more_partition, named) ||
         std::ranges::any_of(more_sort, named);
}

const IndexDescription* TableDescription::FindIndex(std::string_view index_name) const {
  for (const auto& i : indexes)
    if (i.name == index_name) return &i;
  return nullptr;
}

const VectorIndexDescription* TableDescription::FindVectorIndex(std::string_view index_name) const {
  for (const auto& v : vector_indexes)
    if (v.name == index_name) return &v;
  return nullptr;
}

bool TableDescription::HasLocalIndexes() const {
  for (const auto& i : indexes)
    if (i.kind == IndexKind::kLocal) return true;
  return false;
}

Status ValidateTableName(std::string_view name, std::string_view what) {
  auto fail = [&](std::string_view constraint) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at '{}' failed to satisfy constraint: {}", name,
        what, constraint));
  };
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-';
    if (!ok) return fail("Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  }
  if (name.size() < 3) return fail("Member must have length greater than or equal to 3");
  if (name.size() > 255) return fail("Member must have length less than or equal to 255");
  return Status::OK();
}

std::optional<std::string> TableNameFromArn(std::string_view arn) {
  if (!arn.starts_with("arn:")) return std::nullopt;  // a name (every data-plane request)
  const std::string prefix = TableArnOf("");
  if (!arn.starts_with(prefix)) return std::nullopt;
  std::string_view name = arn.substr(prefix.size());
  if (name.empty() || name.find('/') != std::string_view::npos) return std::nullopt;
  return std::string(name);
}

Status ValidateDataTableName(std::string_view name, std::string_view what) {
  auto fail = [&](std::string_view constraint) {
    return Status::Validation(fmt::format(
        "1 validation error detected: Value '{}' at '{}' failed to satisfy constraint: {}", name,
        what, constraint));
  };
  if (name.empty()) return fail("Member must have length greater than or equal to 1");
  if (name.size() > 1024) return fail("Member must have length less than or equal to 1024");
  // A name is then checked as the control plane checks it (the Parity Suite's record): a
  // ValidationException, not ResourceNotFoundException, for "a;" or "ab".
  if (TableNameFromArn(name)) return Status::OK();
  return ValidateTableName(name, what);
}

Result<TableDescription> BuildTableDescription(const std::string& table_name,
                                               const std::vector<AttributeDefinition>& defs,
                                               const std::vector<KeySchemaElement>& key_schema,
                                               const std::vector<IndexSpec>& gsis,
                                               const std::vector<IndexSpec>& lsis,
                                               const std::vector<VectorIndexSpec>& vectors) {
  KH_RETURN_IF_ERROR(ValidateTableName(table_name));
  KH_RETURN_IF_ERROR(ValidateDefinitions(defs));
  TableDescription t;
  t.name = table_name;
  KH_ASSIGN_OR_RETURN(t.key, ResolveKeySchema(key_schema, defs));
  std::set<std::string> used{t.key.partition.name};
  if (t.key.sort) used.insert(t.key.sort->name);
  std::set<std::string> names;
  if (!lsis.empty() && !t.key.sort) {
    return Status::Validation(std::string(kInvalid) +
                              "Table KeySchema does not have a range key, which is required when "
                              "specifying a LocalSecondaryIndex");
  }
  for (const auto& spec : lsis) {
    KH_ASSIGN_OR_RETURN(IndexDescription idx, BuildIndex(spec, IndexKind::kLocal, t.key, defs));
    if (!names.insert(idx.name).second)
      return Status::Validation(fmt::format("{}Duplicate index name: {}", kInvalid, idx.name));
    if (idx.key.sort) used.insert(idx.key.sort->name);
    t.indexes.push_back(std::move(idx));
  }
  if (lsis.size() > 5) {
    return Status::Validation(std::string(kInvalid) +
                              "Number of LocalSecondaryIndexes exceeds per-table limit of 5");
  }
  for (const auto& spec : gsis) {
    KH_ASSIGN_OR_RETURN(IndexDescription idx, BuildIndex(spec, IndexKind::kGlobal, t.key, defs));
    if (!names.insert(idx.name).second)
      return Status::Validation(fmt::format("{}Duplicate index name: {}", kInvalid, idx.name));
    for (const std::string& name : idx.key.Names()) used.insert(name);
    t.indexes.push_back(std::move(idx));
  }
  if (gsis.size() > 20) {
    return Status::Validation(std::string(kInvalid) +
                              "GlobalSecondaryIndex count exceeds the per-table limit of 20");
  }
  for (const VectorIndexSpec& spec : vectors) {
    KH_ASSIGN_OR_RETURN(VectorIndexDescription v, BuildVectorIndex(t.key, defs, spec));
    if (!names.insert(v.name).second) {
      return Status::Validation(fmt::format("{}Duplicate index name: {}", kInvalid, v.name));
    }
    for (const SearchAttribute& a : v.search_schema) used.insert(a.name);
    t.vector_indexes.push_back(std::move(v));
  }
  if (ProjectedCount(t.indexes) > 100) {
    return Status::Validation(std::string(kInvalid) +
                              "The number of projected attributes across all indexes of the table "
                              "exceeds the limit of 100");
  }
  if (used.size() != defs.size()) {
    return Status::Validation(std::string(kInvalid) +
                              "Number of attributes in KeySchema does not exactly match number of "
                              "attributes defined in AttributeDefinitions");
  }
  SettleWarmThroughput(&t);  // an on-demand table's, until CreateTable says otherwise
  return t;
}

Result<IndexDescription> BuildGlobalIndex(const TableDescription& table,
                                          const std::vector<AttributeDefinition>& defs,
                                          const IndexSpec& spec) {
  KH_RETURN_IF_ERROR(ValidateDefinitions(defs));
  if (table.FindIndex(spec.name)) {
    return Status::Validation(
        fmt::format("{}Index with name: {} already exists", kInvalid, spec.name));
  }
  size_t gsis = 0;
  for (const auto& i : table.indexes) gsis += i.kind == IndexKind::kGlobal;
  if (gsis >= 20) {
    return Status::LimitExceeded(
        "Subscriber limit exceeded: Number of global secondary indexes exceeds the per-table limit "
        "of 20");
  }
  KH_ASSIGN_OR_RETURN(IndexDescription idx, BuildIndex(spec, IndexKind::kGlobal, table.key, defs));
  // A definition must agree with the type the table already uses for that attribute.
  auto check = [&](const KeyAttribute& a) -> Status {
    auto same = [&](const KeyAttribute* b) { return b->name == a.name && b->type != a.type; };
    bool clash = std::ranges::any_of(table.key.Attributes(), same);
    for (const auto& i : table.indexes)
      clash = clash || std::ranges::any_of(i.key.Attributes(), same);
    if (clash) {
      // DynamoDB's text (found by a conformance suite; the prefix is its usual one for
      // UpdateTable parameter checks and not confirmed).
      return Status::Validation(std::string(kInvalid) + "Attributes cannot be redefined");
    }
    return Status::OK();
  };
  for (const KeyAttribute* a : idx.key.Attributes()) KH_RETURN_IF_ERROR(check(*a));
  std::vector<IndexDescription> all = table.indexes;
  all.push_back(idx);
  if (ProjectedCount(all) > 100) {
    return Status::Validation(std::string(kInvalid) +
                              "The number of projected attributes across all indexes of the table "
                              "exceeds the limit of 100");
  }
  return idx;
}

Status CheckIndexThroughput(std::string_view billing_mode, bool table_throughput,
                            const std::vector<IndexSpec>& gsis) {
  const bool provisioned = billing_mode == "PROVISIONED";
  if (provisioned != table_throughput) return Status::OK();
  for (const IndexSpec& g : gsis) {
    const bool given = g.read_capacity_units || g.write_capacity_units;
    if (provisioned && !given) {
      return Status::Validation(
          fmt::format("{}ProvisionedThroughput is not specified for index: {}", kInvalid, g.name));
    }
    if (!provisioned && given) {
      return Status::Validation(fmt::format(
          "{}ProvisionedThroughput should not be specified for index: {} when BillingMode is "
          "PAY_PER_REQUEST",
          kInvalid, g.name));
    }
  }
  return Status::OK();
}

// ---- JSON ----

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

std::string TableDescription::LatestStreamArn() const {
  if (latest_stream_label.empty()) return "";
  return TableArn() + "/stream/" + latest_stream_label;
}

std::string TableDescription::TableArn() const { return arn.empty() ? TableArnOf(name) : arn; }

namespace {
thread_local const ArnScope* current_arn_scope = nullptr;
}  // namespace

ArnScope::ArnScope(std::string region, std::string account)
    : region_(std::move(region)), account_(std::move(account)), previous_(current_arn_scope) {
  current_arn_scope = this;
}

ArnScope::~ArnScope() { current_arn_scope = previous_; }

std::string_view ArnRegion() {
  return current_arn_scope ? std::string_view(current_arn_scope->region_) : kRegion;
}

std::string_view ArnAccount() {
  return current_arn_scope ? std::string_view(current_arn_scope->account_) : kAccount;
}

std::string TableArnOf(std::string_view table_name) {
  return fmt::format("arn:aws:dynamodb:{}:{}:table/{}", ArnRegion(), ArnAccount(), table_name);
}

std::string DefaultKmsKeyArn() {
  return fmt::format("arn:aws:kms:{}:{}:key/aws-dynamodb", ArnRegion(), ArnAccount());
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

Result<Projection> BuildProjection(const IndexSpec& spec) { return BuildProjectionOf(spec); }

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

Item ExtractKey(const KeySchema& schema, const Item& item) {
  Item key;
  key.emplace(schema.partition.name, item.at(schema.partition.name));
  if (schema.sort) key.emplace(schema.sort->name, item.at(schema.sort->name));
  return key;
}

bool InIndex(const IndexDescription& index, const Item& item) {
  bool in = true;
  index.key.ForEachAttribute([&](const KeyAttribute& a, bool) {
    if (!in) return;
    auto it = item.find(a.name);
    in = it != item.end() && it->second.type() == a.type &&
         (it->second.is(ValueType::kN) || !it->second.s().empty());
  });
  return in;
}

Item ProjectItem(const IndexDescription& index, const KeySchema& table_key, const Item& item) {
  if (index.projection.type == ProjectionType::kAll) return item;
  Item p = ExtractKey(table_key, item);
  auto copy = [&](const std::string& name) {
    auto it = item.find(name);
    if (it != item.end()) p.emplace(name, it->second);
  };
  for (const KeyAttribute* a : index.key.Attributes()) copy(a->name);
  for (const auto& a : index.projection.non_key_attributes) copy(a);
  return p;
}

}  // namespace keyhole
