#include "modeling/workbench.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>
#include <map>
#include <set>

#include "api/api_json_client.h"
#include "core/ddb_json.h"
#include "core/table_definition.h"
#include "modeling/model.h"

namespace keyhole::modeling {

namespace {

json::Value Str(std::string s) { return json::Value::String(std::move(s)); }

json::Value Obj(std::initializer_list<std::pair<const char*, json::Value>> members) {
  json::Value o = json::Value::MakeObject();
  for (const auto& [k, v] : members) o.Add(k, v);
  return o;
}

// "May 18, 2023, 10:24 AM" (UTC), as Workbench dates its models.
std::string WorkbenchDate(double epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[64];
  std::strftime(text, sizeof text, "%b %d, %Y, %I:%M %p", &tm);
  return text;
}

json::Value KeyAttributeJson(const KeyAttribute& a) {
  return Obj(
      {{"AttributeName", Str(a.name)}, {"AttributeType", Str(std::string(TypeName(a.type)))}});
}

json::Value KeyAttributes(const KeySchema& key) {
  json::Value o = json::Value::MakeObject();
  o.Add("PartitionKey", KeyAttributeJson(key.partition));
  if (key.sort) o.Add("SortKey", KeyAttributeJson(*key.sort));
  return o;
}

json::Value DataAccess() { return Obj({{"MySql", json::Value::MakeObject()}}); }

json::Value AutoScaling() {
  return Obj(
      {{"ScalableTargetRequest",
        Obj({{"MinCapacity", json::Value::Int(1)},
             {"MaxCapacity", json::Value::Int(10)},
             {"ServiceRole", Str("AWSServiceRoleForApplicationAutoScaling_DynamoDBTable")}})},
       {"ScalingPolicyConfiguration", Obj({{"TargetValue", json::Value::Int(70)}})}});
}

// What a Workbench model cannot hold of `t`, named; the GSIs it can.
std::vector<const IndexDescription*> HeldIndexes(const TableDescription& t, Notes* notes) {
  std::vector<const IndexDescription*> held;
  for (const VectorIndexDescription& v : t.vector_indexes) {
    notes->push_back(fmt::format("{}: its vector index {} is left out (Workbench models have none)",
                                 t.name, v.name));
  }
  for (const IndexDescription& i : t.indexes) {
    if (i.kind == IndexKind::kLocal) {
      notes->push_back(
          fmt::format("{}: its local secondary index {} is left out (Workbench models have none)",
                      t.name, i.name));
    } else if (i.key.IsMultiAttribute()) {
      notes->push_back(fmt::format(
          "{}: its index {} is left out: a multi-attribute key (Workbench models have one "
          "attribute per key)",
          t.name, i.name));
    } else {
      held.push_back(&i);
      if (t.billing_mode == "PROVISIONED" &&
          (i.read_capacity != t.read_capacity || i.write_capacity != t.write_capacity)) {
        notes->push_back(fmt::format(
            "{}: the throughput of its index {} ({} RCU, {} WCU) is left out (a Workbench model "
            "gives every index the table's)",
            t.name, i.name, i.read_capacity, i.write_capacity));
      }
    }
  }
  if (t.ttl_attribute) {
    notes->push_back(fmt::format("{}: its TTL on {} is left out (Workbench models have none)",
                                 t.name, *t.ttl_attribute));
  }
  if (t.stream_view_type) {
    notes->push_back(fmt::format("{}: its stream ({}) is left out (Workbench models have none)",
                                 t.name, *t.stream_view_type));
  }
  if (!t.tags.empty()) {
    notes->push_back(fmt::format("{}: its {} tag{} left out (Workbench models have none)", t.name,
                                 t.tags.size(), t.tags.size() == 1 ? " is" : "s are"));
  }
  if (t.deletion_protection) {
    notes->push_back(fmt::format(
        "{}: its deletion protection is left out (Workbench models have none)", t.name));
  }
  if (t.max_read_request_units || t.max_write_request_units) {
    notes->push_back(
        fmt::format("{}: its OnDemandThroughput is left out (Workbench models have none)", t.name));
  }
  return held;
}

// The attributes a model declares for `t`: its held GSIs' key attributes, then every other
// non-key attribute of its items by name, each with its most common type.
std::vector<std::pair<std::string, std::string>> NonKeyAttributes(
    const TableDescription& t, const std::vector<const IndexDescription*>& held,
    const std::vector<Item>& items, Notes* notes) {
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> named;
  for (const std::string& k : t.key.Names()) named.insert(k);
  for (const IndexDescription* i : held) {
    for (const KeyAttribute* a : i->key.Attributes()) {
      if (named.insert(a->name).second) out.emplace_back(a->name, TypeName(a->type));
    }
  }
  std::map<std::string, std::map<std::string, int64_t>> types;  // name -> type -> items
  for (const Item& item : items) {
    for (const auto& [name, value] : item) {
      if (!named.contains(name)) ++types[name][std::string(TypeName(value.type()))];
    }
  }
  for (const auto& [name, counts] : types) {
    auto most = std::max_element(counts.begin(), counts.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    out.emplace_back(name, most->first);
    if (counts.size() > 1) {
      std::string all;
      for (const auto& [type, n] : counts) all += (all.empty() ? "" : ", ") + type;
      notes->push_back(fmt::format(
          "{}: its attribute {} has the types {}; the model declares {} (Workbench declares one "
          "type per attribute; the items keep theirs)",
          t.name, name, all, most->first));
    }
  }
  return out;
}

// An item with the table's key first, then the declared attributes in their order.
json::Value ItemJson(const Item& item, const KeySchema& key,
                     const std::vector<std::pair<std::string, std::string>>& declared) {
  json::Value o = json::Value::MakeObject();
  for (const std::string& k : key.Names()) {
    if (auto it = item.find(k); it != item.end()) o.Add(k, ValueToJson(it->second));
  }
  for (const auto& [name, type] : declared) {
    if (auto it = item.find(name); it != item.end()) o.Add(name, ValueToJson(it->second));
  }
  return o;
}

// The text of `attribute`'s template in an entity's commonest key shape.
std::string Alias(const Entity& e, const std::string& attribute) {
  if (e.shapes.empty()) return attribute;
  for (const KeyTemplate& k : e.shapes.front().keys) {
    if (k.attribute == attribute) return k.text;
  }
  return attribute;
}

json::Value TableModelJson(const ModelTable& mt, std::set<std::string>* facet_names, Notes* notes) {
  const TableDescription& t = mt.table;
  const std::vector<const IndexDescription*> held = HeldIndexes(t, notes);
  const auto declared = NonKeyAttributes(t, held, mt.items, notes);
  json::Value o = json::Value::MakeObject();
  o.Add("TableName", Str(t.name));
  o.Add("KeyAttributes", KeyAttributes(t.key));
  json::Value nka = json::Value::MakeArray();
  for (const auto& [name, type] : declared) {
    nka.Push(Obj({{"AttributeName", Str(name)}, {"AttributeType", Str(type)}}));
  }
  o.Add("NonKeyAttributes", std::move(nka));
  json::Value facets = json::Value::MakeArray();
  if (!mt.items.empty()) {
    const Model model = InferModel(t, mt.items);
    for (const Entity& e : model.entities) {
      std::string name = e.name;
      if (!facet_names->insert(name).second) {  // facet names are unique across a model
        name = t.name + "." + e.name;
        for (int n = 2; !facet_names->insert(name).second; ++n) {
          name = fmt::format("{}.{} {}", t.name, e.name, n);
        }
      }
      json::Value alias = json::Value::MakeObject();
      alias.Add("PartitionKeyAlias", Str(Alias(e, t.key.partition.name)));
      if (t.key.sort) alias.Add("SortKeyAlias", Str(Alias(e, t.key.sort->name)));
      json::Value data = json::Value::MakeArray();
      std::set<std::string> used;
      for (size_t i : e.item_indexes) {
        data.Push(ItemJson(mt.items[i], t.key, declared));
        for (const auto& [attribute, value] : mt.items[i]) used.insert(attribute);
      }
      json::Value names = json::Value::MakeArray();
      for (const auto& [attribute, type] : declared) {
        if (used.contains(attribute)) names.Push(Str(attribute));
      }
      facets.Push(Obj({{"FacetName", Str(name)},
                       {"KeyAttributeAlias", std::move(alias)},
                       {"TableData", std::move(data)},
                       {"NonKeyAttributes", std::move(names)},
                       {"DataAccess", DataAccess()}}));
    }
  }
  o.Add("TableFacets", std::move(facets));
  json::Value gsis = json::Value::MakeArray();
  for (const IndexDescription* i : held) {
    json::Value projection = json::Value::MakeObject();
    projection.Add("ProjectionType", Str(std::string(ProjectionTypeName(i->projection.type))));
    if (i->projection.type == ProjectionType::kInclude) {
      json::Value names = json::Value::MakeArray();
      for (const std::string& n : i->projection.non_key_attributes) names.Push(Str(n));
      projection.Add("NonKeyAttributes", std::move(names));
    }
    gsis.Push(Obj({{"IndexName", Str(i->name)},
                   {"KeyAttributes", KeyAttributes(i->key)},
                   {"Projection", std::move(projection)}}));
  }
  o.Add("GlobalSecondaryIndexes", std::move(gsis));
  o.Add("TableData", json::Value::MakeArray());  // every item is in its facet
  o.Add("DataAccess", DataAccess());
  o.Add("BillingMode", Str(t.billing_mode));
  if (t.billing_mode == "PROVISIONED") {
    o.Add("ProvisionedCapacitySettings",
          Obj({{"ProvisionedThroughput",
                Obj({{"ReadCapacityUnits", json::Value::Int(t.read_capacity)},
                     {"WriteCapacityUnits", json::Value::Int(t.write_capacity)}})},
               {"AutoScalingRead", AutoScaling()},
               {"AutoScalingWrite", AutoScaling()}}));
  }
  return o;
}

// ---- reading ----

Status Invalid(const std::string& where, std::string_view what) {
  return Status::Validation(fmt::format("the model's {} {}", where, what));
}

const json::Value* Member(const json::Value& o, std::string_view name, json::Kind kind) {
  if (!o.IsObject()) return nullptr;
  const json::Value* m = o.Find(name);
  return m && m->kind() == kind ? m : nullptr;
}

// {"AttributeName": .., "AttributeType": S | N | B} at `where`.
Result<KeyAttribute> ReadKeyAttribute(const json::Value& v, const std::string& where) {
  const json::Value* name = Member(v, "AttributeName", json::Kind::kString);
  const json::Value* type = Member(v, "AttributeType", json::Kind::kString);
  if (!name || name->str().empty()) return Invalid(where, "has no AttributeName");
  ValueType t;
  if (!type || !TypeFromName(type->str(), &t) ||
      (t != ValueType::kS && t != ValueType::kN && t != ValueType::kB)) {
    return Invalid(where, fmt::format("({}) needs an AttributeType of S, N or B", name->str()));
  }
  return KeyAttribute{name->str(), t};
}

// KeyAttributes {PartitionKey, SortKey?} at `where` as KeySchemaElements, recording the
// attributes' types in *types (one type per attribute).
Result<std::vector<KeySchemaElement>> ReadKeys(const json::Value& owner, const std::string& where,
                                               std::vector<AttributeDefinition>* types) {
  const json::Value* keys = Member(owner, "KeyAttributes", json::Kind::kObject);
  if (!keys || !Member(*keys, "PartitionKey", json::Kind::kObject)) {
    return Invalid(where, "has no KeyAttributes.PartitionKey");
  }
  std::vector<KeySchemaElement> out;
  for (const char* role : {"PartitionKey", "SortKey"}) {
    const json::Value* k = Member(*keys, role, json::Kind::kObject);
    if (!k) continue;
    KH_ASSIGN_OR_RETURN(KeyAttribute a, ReadKeyAttribute(*k, where + " " + role));
    const std::string type(TypeName(a.type));
    auto same = std::ranges::find_if(
        *types, [&](const AttributeDefinition& d) { return d.name == a.name; });
    if (same == types->end()) {
      types->push_back({a.name, type});
    } else if (same->type != type) {
      return Invalid(where,
                     fmt::format("gives {} the type {}, elsewhere {}", a.name, type, same->type));
    }
    out.push_back({a.name, role == std::string_view("PartitionKey") ? "HASH" : "RANGE"});
  }
  return out;
}

// A value from DynamoDB JSON, or, where it is not that, from plain JSON by its JSON type
// (counted in *plain): some public models have plain JSON inside their maps.
Result<AttributeValue> LooseValue(const json::Value& v, int64_t* plain) {
  if (v.IsObject() && v.object().size() == 1) {
    const auto& [type, inner] = v.object()[0];
    if (type == "M" && inner.IsObject()) {
      Map m;
      for (const auto& [name, member] : inner.object()) {
        KH_ASSIGN_OR_RETURN(AttributeValue value, LooseValue(member, plain));
        m.emplace(name, std::move(value));
      }
      return AttributeValue::M(std::move(m));
    }
    if (type == "L" && inner.IsArray()) {
      List l;
      for (const json::Value& e : inner.array()) {
        KH_ASSIGN_OR_RETURN(AttributeValue value, LooseValue(e, plain));
        l.push_back(std::move(value));
      }
      return AttributeValue::L(std::move(l));
    }
    ValueType t;
    if (TypeFromName(type, &t)) return ValueFromJson(v);
  }
  ++*plain;
  switch (v.kind()) {
    case json::Kind::kString:
      return AttributeValue::S(v.str());
    case json::Kind::kNumber: {
      KH_ASSIGN_OR_RETURN(Number n, Number::Parse(v.number_text()));
      return AttributeValue::N(std::move(n));
    }
    case json::Kind::kBool:
      return AttributeValue::Bool(v.boolean());
    case json::Kind::kArray: {
      List l;
      for (const json::Value& e : v.array()) {
        KH_ASSIGN_OR_RETURN(AttributeValue value, LooseValue(e, plain));
        l.push_back(std::move(value));
      }
      return AttributeValue::L(std::move(l));
    }
    case json::Kind::kObject: {
      Map m;
      for (const auto& [name, member] : v.object()) {
        KH_ASSIGN_OR_RETURN(AttributeValue value, LooseValue(member, plain));
        m.emplace(name, std::move(value));
      }
      return AttributeValue::M(std::move(m));
    }
    default:
      return AttributeValue::Null();
  }
}

// The items of a TableData list at `where`, each holding the table's key with its types.
Status ReadItems(const json::Value& owner, const std::string& where,
                 const std::vector<KeySchemaElement>& key,
                 const std::vector<AttributeDefinition>& types, int64_t* plain,
                 std::vector<Item>* out) {
  const json::Value* data = owner.IsObject() ? owner.Find("TableData") : nullptr;
  if (!data) return Status::OK();
  if (!data->IsArray()) return Invalid(where, "has a TableData that is not a list");
  for (size_t i = 0; i < data->array().size(); ++i) {
    const json::Value& v = data->array()[i];
    const std::string at = fmt::format("{} TableData[{}]", where, i);
    if (!v.IsObject()) return Invalid(at, "is not an object");
    Item item;
    for (const auto& [name, value] : v.object()) {
      Result<AttributeValue> a = LooseValue(value, plain);
      if (!a.ok()) return Invalid(at, fmt::format("({}): {}", name, a.status().message()));
      item.emplace(name, std::move(a).value());
    }
    for (const KeySchemaElement& k : key) {
      auto it = item.find(k.name);
      const auto def = std::ranges::find_if(
          types, [&](const AttributeDefinition& d) { return d.name == k.name; });
      if (it == item.end()) return Invalid(at, fmt::format("has no key attribute {}", k.name));
      if (TypeName(it->second.type()) != def->type) {
        return Invalid(at, fmt::format("has {} of type {}; the key's type is {}", k.name,
                                       TypeName(it->second.type()), def->type));
      }
    }
    out->push_back(std::move(item));
  }
  return Status::OK();
}

Result<ImportedTable> ReadTable(const json::Value& v, size_t index, Notes* notes) {
  ImportedTable out;
  CreateTableRequest& c = out.create;
  const json::Value* name = Member(v, "TableName", json::Kind::kString);
  if (!name) return Invalid(fmt::format("DataModel[{}]", index), "has no TableName");
  c.table_name = name->str();
  const std::string where = "table " + c.table_name;
  KH_ASSIGN_OR_RETURN(c.key_schema, ReadKeys(v, where, &c.attribute_definitions));
  std::set<std::string> key_names;
  for (const KeySchemaElement& k : c.key_schema) key_names.insert(k.name);
  const json::Value* mode = Member(v, "BillingMode", json::Kind::kString);
  c.billing_mode = mode && mode->str() == "PROVISIONED" ? "PROVISIONED" : "PAY_PER_REQUEST";
  if (c.billing_mode == "PROVISIONED") {
    int64_t read = 5, write = 5;  // Workbench's defaults
    const json::Value* settings = Member(v, "ProvisionedCapacitySettings", json::Kind::kObject);
    const json::Value* pt =
        settings ? Member(*settings, "ProvisionedThroughput", json::Kind::kObject) : nullptr;
    for (auto [member, target] :
         {std::pair{"ReadCapacityUnits", &read}, std::pair{"WriteCapacityUnits", &write}}) {
      const json::Value* n = pt ? Member(*pt, member, json::Kind::kNumber) : nullptr;
      if (!n) continue;
      const std::string& text = n->number_text();
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *target);
      if (ec != std::errc() || end != text.data() + text.size() || *target < 1) {
        return Invalid(where, fmt::format("has a {} of {}: a whole number from 1", member, text));
      }
    }
    c.read_capacity_units = read;
    c.write_capacity_units = write;
  }
  if (const json::Value* gsis = Member(v, "GlobalSecondaryIndexes", json::Kind::kArray)) {
    for (size_t i = 0; i < gsis->array().size(); ++i) {
      const json::Value& g = gsis->array()[i];
      IndexSpec spec;
      const json::Value* n = Member(g, "IndexName", json::Kind::kString);
      if (!n)
        return Invalid(fmt::format("{} GlobalSecondaryIndexes[{}]", where, i), "has no IndexName");
      spec.name = n->str();
      const std::string at = where + " index " + spec.name;
      KH_ASSIGN_OR_RETURN(spec.key_schema, ReadKeys(g, at, &c.attribute_definitions));
      const json::Value* p = Member(g, "Projection", json::Kind::kObject);
      const json::Value* type = p ? Member(*p, "ProjectionType", json::Kind::kString) : nullptr;
      spec.projection_type = type ? type->str() : "ALL";
      if (*spec.projection_type == "INCLUDE") {
        // Key attributes are projected anyway; some models list them, which CreateTable refuses.
        std::vector<std::string> names;
        std::set<std::string> index_keys = key_names;
        for (const KeySchemaElement& k : spec.key_schema) index_keys.insert(k.name);
        if (const json::Value* nk = Member(*p, "NonKeyAttributes", json::Kind::kArray)) {
          for (const json::Value& e : nk->array()) {
            if (e.IsString() && index_keys.insert(e.str()).second) names.push_back(e.str());
          }
        }
        if (names.empty()) {
          spec.projection_type = "KEYS_ONLY";  // it named keys only: what it projects
        } else {
          spec.non_key_attributes = std::move(names);
        }
      }
      if (c.billing_mode == "PROVISIONED") {
        spec.read_capacity_units = c.read_capacity_units;
        spec.write_capacity_units = c.write_capacity_units;
      }
      c.global_secondary_indexes.push_back(std::move(spec));
    }
  }
  int64_t plain = 0;
  KH_RETURN_IF_ERROR(
      ReadItems(v, where, c.key_schema, c.attribute_definitions, &plain, &out.items));
  if (const json::Value* facets = Member(v, "TableFacets", json::Kind::kArray)) {
    for (size_t i = 0; i < facets->array().size(); ++i) {
      const json::Value& f = facets->array()[i];
      const json::Value* fname = Member(f, "FacetName", json::Kind::kString);
      const std::string at =
          fmt::format("{} facet {}", where, fname ? fname->str() : std::to_string(i));
      KH_RETURN_IF_ERROR(
          ReadItems(f, at, c.key_schema, c.attribute_definitions, &plain, &out.items));
      ++out.facets;
    }
  }
  if (plain > 0) {
    notes->push_back(fmt::format(
        "{}: {} value{} in its items {} plain JSON rather than DynamoDB JSON, read by {} JSON "
        "type (a string as S, a number as N, an object as M, ...)",
        c.table_name, plain, plain == 1 ? "" : "s", plain == 1 ? "was" : "were",
        plain == 1 ? "its" : "their"));
  }
  return out;
}

// ---- CloudFormation ----

// "Orders.v2" -> "OrdersV2Table": CloudFormation's logical ids are letters and digits.
std::string LogicalId(const std::string& table, std::set<std::string>* used) {
  std::string id;
  bool upper = true;
  for (char c : table) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      id += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    } else {
      upper = true;
    }
  }
  id += "Table";
  std::string unique = id;
  for (int n = 2; !used->insert(unique).second; ++n) unique = id + std::to_string(n);
  return unique;
}

}  // namespace

json::Value WorkbenchModelJson(const std::string& name, double now,
                               const std::vector<ModelTable>& tables, Notes* notes) {
  json::Value o = json::Value::MakeObject();
  o.Add("ModelName", Str(name));
  const std::string date = WorkbenchDate(now);
  o.Add("ModelMetadata", Obj({{"Author", Str("")},
                              {"DateCreated", Str(date)},
                              {"DateLastModified", Str(date)},
                              {"Description", Str("Exported by keyhole")},
                              {"AWSService", Str("Amazon DynamoDB")},
                              {"Version", Str("3.0")}}));
  json::Value data = json::Value::MakeArray();
  std::set<std::string> facet_names;
  for (const ModelTable& t : tables) data.Push(TableModelJson(t, &facet_names, notes));
  o.Add("DataModel", std::move(data));
  return o;
}

Result<ImportedModel> ReadWorkbenchModel(const json::Value& model, Notes* notes) {
  if (!model.IsObject()) return Invalid("text", "is not a JSON object");
  const json::Value* metadata = Member(model, "ModelMetadata", json::Kind::kObject);
  const json::Value* version =
      metadata ? Member(*metadata, "Version", json::Kind::kString) : nullptr;
  if (version && version->str() != "3.0" && version->str() != "2.0") {
    return Status::Validation(fmt::format(
        "the model's format is version {}; keyhole reads NoSQL Workbench's versions 3.0 and 2.0",
        version->str()));
  }
  const json::Value* data = Member(model, "DataModel", json::Kind::kArray);
  if (!data) {
    return Status::Validation(
        "not a NoSQL Workbench data model: it has no DataModel list of tables");
  }
  ImportedModel out;
  if (const json::Value* n = Member(model, "ModelName", json::Kind::kString)) out.name = n->str();
  std::set<std::string> names;
  for (size_t i = 0; i < data->array().size(); ++i) {
    KH_ASSIGN_OR_RETURN(ImportedTable t, ReadTable(data->array()[i], i, notes));
    if (!names.insert(t.create.table_name).second) {
      return Status::Validation(
          fmt::format("the model has two tables named {}", t.create.table_name));
    }
    out.tables.push_back(std::move(t));
  }
  return out;
}

json::Value CreateTableCliJson(const ModelTable& mt, Notes* notes) {
  const TableDescription& t = mt.table;
  const CreateTableRequest c =
      CreateRequestFor(t.name, t, [&](const std::string& note) { notes->push_back(note); });
  if (t.ttl_attribute) {
    notes->push_back(
        fmt::format("{}: create-table does not set TTL; after it: aws dynamodb update-time-to-live "
                    "--table-name {} --time-to-live-specification Enabled=true,AttributeName={}",
                    t.name, t.name, *t.ttl_attribute));
  }
  return CreateTableRequestToJson(c);
}

json::Value CloudFormationJson(const std::vector<ModelTable>& tables, Notes* notes) {
  json::Value resources = json::Value::MakeObject();
  std::set<std::string> ids;
  for (const ModelTable& mt : tables) {
    const TableDescription& t = mt.table;
    const json::Value input = CreateTableRequestToJson(
        CreateRequestFor(t.name, t, [&](const std::string& note) { notes->push_back(note); }));
    // AWS::DynamoDB::Table's properties are CreateTable's members, but for a stream
    // (StreamViewType only), SSE (SSEEnabled) and TTL (TimeToLiveSpecification).
    json::Value properties = json::Value::MakeObject();
    for (const auto& [member, value] : input.object()) {
      if (member == "StreamSpecification") {
        if (const json::Value* view = value.Find("StreamViewType")) {
          properties.Add(member, Obj({{"StreamViewType", *view}}));
        }
      } else if (member == "SSESpecification") {
        json::Value sse = json::Value::MakeObject();
        for (const auto& [k, v] : value.object()) sse.Add(k == "Enabled" ? "SSEEnabled" : k, v);
        properties.Add(member, std::move(sse));
      } else {
        properties.Add(member, value);
      }
    }
    if (t.ttl_attribute) {
      properties.Add("TimeToLiveSpecification", Obj({{"AttributeName", Str(*t.ttl_attribute)},
                                                     {"Enabled", json::Value::Bool(true)}}));
    }
    resources.Add(LogicalId(t.name, &ids), Obj({{"Type", Str("AWS::DynamoDB::Table")},
                                                {"Properties", std::move(properties)}}));
  }
  return Obj({{"AWSTemplateFormatVersion", Str("2010-09-09")},
              {"Description", Str("DynamoDB tables, from keyhole")},
              {"Resources", std::move(resources)}});
}

}  // namespace keyhole::modeling
