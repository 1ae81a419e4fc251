// Lenient typed reads of response members (api_json_client_read.h), and ConsumedCapacity.
#include "api/api_json_client_read.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "api/api_json_client.h"
#include "core/ddb_json.h"

namespace keyhole::api_json_client {

namespace {

std::string_view KindName(json::Kind k) {
  switch (k) {
    case json::Kind::kNull:
      return "null";
    case json::Kind::kBool:
      return "a boolean";
    case json::Kind::kNumber:
      return "a number";
    case json::Kind::kString:
      return "a string";
    case json::Kind::kArray:
      return "a list";
    case json::Kind::kObject:
      return "a JSON object";
    case json::Kind::kRaw:  // never parsed
      break;
  }
  return "a value";
}

// The capacity figures of one table or index into *c.
Status ReadUnits(const json::Value& v, std::string_view at, Capacity* c) {
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  KH_RETURN_IF_ERROR(ReadDouble(v, "CapacityUnits", at, &c->capacity_units));
  KH_RETURN_IF_ERROR(ReadDouble(v, "ReadCapacityUnits", at, &c->read_units));
  KH_RETURN_IF_ERROR(ReadDouble(v, "WriteCapacityUnits", at, &c->write_units));
  return Status::OK();
}

// {"<index>": {"CapacityUnits": ..}, ..}
Status ReadIndexUnits(const json::Value& obj, std::string_view name, std::string_view at,
                      std::map<std::string, Capacity>* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* m, Find(obj, name, json::Kind::kObject, at));
  if (!m) return Status::OK();
  const std::string path = Child(at, name);
  for (const auto& [index, units] : m->object()) {
    KH_RETURN_IF_ERROR(ReadUnits(units, Child(path, index), &(*out)[index]));
  }
  return Status::OK();
}

}  // namespace

std::string Child(std::string_view at, std::string_view name) {
  return at.empty() ? std::string(name) : fmt::format("{}.{}", at, name);
}

std::string Element(std::string_view at, size_t i) { return fmt::format("{}[{}]", at, i); }

Status Malformed(std::string_view at, std::string_view problem) {
  return Status::Internal(
      fmt::format("Malformed DynamoDB response: {} {}", at.empty() ? "the body" : at, problem));
}

Status NeedObject(const json::Value& v, std::string_view at) {
  if (v.IsObject()) return Status::OK();
  return Malformed(at, fmt::format("is {}, not a JSON object", KindName(v.kind())));
}

Result<const json::Value*> Find(const json::Value& obj, std::string_view name, json::Kind kind,
                                std::string_view at) {
  const json::Value* m = obj.Find(name);
  if (!m || m->IsNull()) return static_cast<const json::Value*>(nullptr);
  if (m->kind() != kind) {
    return Malformed(Child(at, name),
                     fmt::format("is {}, not {}", KindName(m->kind()), KindName(kind)));
  }
  return m;
}

Status ReadString(const json::Value& obj, std::string_view name, std::string_view at,
                  std::string* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* m, Find(obj, name, json::Kind::kString, at));
  if (m) *out = m->str();
  return Status::OK();
}

Status ReadString(const json::Value& obj, std::string_view name, std::string_view at,
                  std::optional<std::string>* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* m, Find(obj, name, json::Kind::kString, at));
  if (m) *out = m->str();
  return Status::OK();
}

Status ReadBool(const json::Value& obj, std::string_view name, std::string_view at, bool* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* m, Find(obj, name, json::Kind::kBool, at));
  if (m) *out = m->boolean();
  return Status::OK();
}

Status ReadInt(const json::Value& obj, std::string_view name, std::string_view at, int64_t* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* m, Find(obj, name, json::Kind::kNumber, at));
  if (!m) return Status::OK();
  const std::string& text = m->number_text();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Malformed(Child(at, name), fmt::format("is {}, not a 64-bit integer", text));
  }
  *out = value;
  return Status::OK();
}

Result<double> DoubleAt(const json::Value& v, std::string_view at) {
  if (v.kind() != json::Kind::kNumber) {
    return Malformed(
        at, fmt::format("is {}, not {}", KindName(v.kind()), KindName(json::Kind::kNumber)));
  }
  const std::string& text = v.number_text();
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return Malformed(at, fmt::format("is {}, out of range", text));
  }
  return value;
}

Status ReadDouble(const json::Value& obj, std::string_view name, std::string_view at, double* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* m, Find(obj, name, json::Kind::kNumber, at));
  if (!m) return Status::OK();
  KH_ASSIGN_OR_RETURN(*out, DoubleAt(*m, Child(at, name)));
  return Status::OK();
}

Result<Item> ItemAt(const json::Value& v, std::string_view at) {
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  Result<Item> item = ItemFromJson(v);
  if (!item.ok()) return Malformed(at, fmt::format("is not an item: {}", item.status().message()));
  return item;
}

Status ReadItem(const json::Value& obj, std::string_view name, std::string_view at,
                std::optional<Item>* out) {
  const json::Value* m = obj.Find(name);
  if (!m || m->IsNull()) return Status::OK();
  KH_ASSIGN_OR_RETURN(*out, ItemAt(*m, Child(at, name)));
  return Status::OK();
}

Status ReadCapacity(const json::Value& obj, std::optional<ConsumedCapacity>* out) {
  const json::Value* m = obj.Find("ConsumedCapacity");
  if (!m || m->IsNull()) return Status::OK();
  KH_ASSIGN_OR_RETURN(*out, ConsumedCapacityFromJson(*m));
  return Status::OK();
}

Status ReadCapacityList(const json::Value& obj, std::string_view at,
                        std::vector<ConsumedCapacity>* out) {
  KH_ASSIGN_OR_RETURN(const json::Value* list,
                      Find(obj, "ConsumedCapacity", json::Kind::kArray, at));
  if (!list) return Status::OK();
  for (const json::Value& e : list->array()) {
    KH_ASSIGN_OR_RETURN(ConsumedCapacity c, ConsumedCapacityFromJson(e));
    out->push_back(std::move(c));
  }
  return Status::OK();
}

}  // namespace keyhole::api_json_client

namespace keyhole {

Result<ConsumedCapacity> ConsumedCapacityFromJson(const json::Value& v) {
  using namespace api_json_client;
  const std::string at = "ConsumedCapacity";
  KH_RETURN_IF_ERROR(NeedObject(v, at));
  ConsumedCapacity c;
  KH_RETURN_IF_ERROR(ReadString(v, "TableName", at, &c.table_name));
  KH_RETURN_IF_ERROR(ReadUnits(v, at, &c.total));
  KH_ASSIGN_OR_RETURN(const json::Value* table, Find(v, "Table", json::Kind::kObject, at));
  if (table) KH_RETURN_IF_ERROR(ReadUnits(*table, Child(at, "Table"), &c.table));
  KH_RETURN_IF_ERROR(ReadIndexUnits(v, "LocalSecondaryIndexes", at, &c.local_indexes));
  KH_RETURN_IF_ERROR(ReadIndexUnits(v, "GlobalSecondaryIndexes", at, &c.global_indexes));
  KH_ASSIGN_OR_RETURN(const json::Value* vectors,
                      Find(v, "VectorIndexes", json::Kind::kObject, at));
  if (vectors) {
    const std::string path = Child(at, "VectorIndexes");
    for (const auto& [index, units] : vectors->object()) {
      KH_RETURN_IF_ERROR(NeedObject(units, Child(path, index)));
      KH_RETURN_IF_ERROR(ReadDouble(units, "VectorWriteRequestBytes", Child(path, index),
                                    &c.vector_indexes[index]));
    }
  }
  return c;
}

}  // namespace keyhole
