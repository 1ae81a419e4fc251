#include "api/api_json_decode.h"

#include <fmt/format.h>

#include <charconv>
#include <limits>
#include <set>

namespace keyhole::api_json {

namespace {

// DynamoDB's constraint paths spell members in camelCase: the first letter lowered
// ("SSESpecification" -> "sSESpecification").
std::string CamelCase(std::string_view name) {
  std::string out(name);
  if (!out.empty() && out[0] >= 'A' && out[0] <= 'Z')
    out[0] = static_cast<char>(out[0] - 'A' + 'a');
  return out;
}

std::string_view KindName(json::Kind k) {
  switch (k) {
    case json::Kind::kNull:
      return "null";
    case json::Kind::kBool:
      return "boolean";
    case json::Kind::kNumber:
      return "number";
    case json::Kind::kString:
      return "string";
    case json::Kind::kArray:
      return "array";
    case json::Kind::kObject:
      return "object";
    case json::Kind::kRaw:  // never parsed
      break;
  }
  return "value";
}

std::string Join(std::span<const std::string_view> items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i];
  }
  return out;
}

// The member `name` of `obj`, or nullptr when absent or JSON null. REQUIRES: obj is an object.
const json::Value* Field(const json::Value& obj, std::string_view name) {
  const json::Value* m = obj.Find(name);
  return m && !m->IsNull() ? m : nullptr;
}

// Java's rendering of a KeySchemaElement, which DynamoDB quotes in keySchema length errors.
std::string ShowKeySchema(const json::Value& list) {
  std::vector<std::string> items;
  for (const json::Value& e : list.array()) {
    const json::Value* n = e.IsObject() ? Field(e, "AttributeName") : nullptr;
    const json::Value* t = e.IsObject() ? Field(e, "KeyType") : nullptr;
    items.push_back(fmt::format("KeySchemaElement(attributeName={}, keyType={})",
                                n && n->IsString() ? n->str() : "null",
                                t && t->IsString() ? t->str() : "null"));
  }
  return ShowList(items);
}

constexpr std::string_view kKeyTypes[] = {"HASH", "RANGE"};
constexpr std::string_view kAttributeTypes[] = {"B", "N", "S"};
constexpr std::string_view kProjectionTypes[] = {"ALL", "INCLUDE", "KEYS_ONLY"};

}  // namespace

Path Path::Child(std::string_view name) const {
  Path p;
  p.param = param.empty() ? std::string(name) : fmt::format("{}.{}", param, name);
  p.member = member.empty() ? CamelCase(name) : fmt::format("{}.{}", member, CamelCase(name));
  return p;
}

Path Path::Element(size_t i) const {
  return Path{fmt::format("{}[{}]", param, i), fmt::format("{}.{}.member", member, i + 1)};
}

Path Path::Entry(std::string_view key) const {
  return Path{fmt::format("{}.{}", param, key), fmt::format("{}.{}.member", member, key)};
}

void Violations::Add(const Path& at, std::optional<std::string_view> shown,
                     std::string_view constraint) {
  std::string value = shown ? fmt::format("'{}'", *shown) : "null";
  messages_.push_back(fmt::format("Value {} at '{}' failed to satisfy constraint: {}", value,
                                  at.member, constraint));
}

void Violations::AddUnvalued(std::string_view at, std::string_view constraint) {
  messages_.push_back(
      fmt::format("Value at '{}' failed to satisfy constraint: {}", at, constraint));
}

void Violations::AddNull(const Path& at) { Add(at, std::nullopt, "Member must not be null"); }

Status Violations::ToStatus() const {
  if (messages_.empty()) return Status::OK();
  std::string out = fmt::format("{} validation error{} detected: ", messages_.size(),
                                messages_.size() == 1 ? "" : "s");
  for (size_t i = 0; i < messages_.size(); ++i) {
    if (i) out += "; ";
    out += messages_[i];
  }
  return Status::Validation(std::move(out));
}

Status Unsupported(std::string_view param, std::string_view detail) {
  return Status::Validation(fmt::format("keyhole does not support the parameter {} yet{}", param,
                                        detail.empty() ? "" : fmt::format(" ({})", detail)));
}

// DynamoDB's own words for a JSON value of the wrong type (its JSON reader's, reference §7.2).
std::string SerializationMessage(const json::Value& v, std::string_view expected) {
  auto target = [&]() -> std::string {
    if (expected == "string") return "String";
    if (expected.starts_with("integer (64")) return "Long";
    if (expected.starts_with("integer")) return "Integer";
    if (expected == "boolean") return "Boolean";
    if (expected == "number") return "Double";
    return "String";
  };
  const bool collection = expected == "list" || expected == "array";
  const bool structure = expected == "object" || expected == "map" || expected == "structure";
  switch (v.kind()) {
    case json::Kind::kObject:
      return "Start of structure or map found where not expected";
    case json::Kind::kArray:
      return structure ? "Start of list found where not expected" : "Unexpected field type";
    case json::Kind::kString:
      if (collection) return "Unrecognized collection type class java.lang.String";
      if (structure) return "Unexpected value type in payload";
      return "STRING_VALUE cannot be converted to " + target();
    case json::Kind::kNumber: {
      if (collection || structure) return "Unexpected value type in payload";
      const bool decimal = v.number_text().find_first_of(".eE") != std::string::npos;
      return std::string(decimal ? "DECIMAL_VALUE" : "NUMBER_VALUE") + " cannot be converted to " +
             target();
    }
    case json::Kind::kBool:
      if (collection || structure) return "Unexpected value type in payload";
      return std::string(v.boolean() ? "TRUE_VALUE" : "FALSE_VALUE") + " cannot be converted to " +
             target();
    case json::Kind::kNull:
    case json::Kind::kRaw:  // never parsed
      break;
  }
  return "Unexpected value type in payload";
}

Status TypeError(const Path& at, const json::Value& v, std::string_view expected) {
  std::string text = json::Write(v);
  if (text.size() > 100) text = text.substr(0, 100) + "...";
  // DynamoDB's SerializationException (what it answers an SDK that does not check types); the
  // hint names the member, in botocore's words.
  return Status(ErrorCode::kSerialization, SerializationMessage(v, expected))
      .WithHint(fmt::format("Invalid type for parameter {}, value: {}, type: {}, valid types: {}",
                            at.param, text, KindName(v.kind()), expected));
}

thread_local bool unknown_members_ignored = false;

UnknownMembersIgnored::UnknownMembersIgnored() : previous_(unknown_members_ignored) {
  unknown_members_ignored = true;
}
UnknownMembersIgnored::~UnknownMembersIgnored() { unknown_members_ignored = previous_; }

Status CheckStructure(const json::Value& v, const Path& at, std::span<const MemberSpec> spec) {
  if (!v.IsObject()) {
    if (at.param.empty()) {
      return Status::Validation(
          fmt::format("The request body must be a JSON object, not {}", KindName(v.kind())));
    }
    return TypeError(at, v, "object");
  }
  std::string where = at.param.empty() ? "input" : at.param;
  std::set<std::string_view> seen;
  for (const auto& [name, value] : v.object()) {
    const MemberSpec* found = nullptr;
    for (const MemberSpec& m : spec) {
      if (m.name == name) found = &m;
    }
    if (!found && unknown_members_ignored) continue;
    if (!found) {
      std::vector<std::string_view> names;
      for (const MemberSpec& m : spec) names.push_back(m.name);
      return Status::Validation(fmt::format("Unknown parameter in {}: \"{}\", must be one of: {}",
                                            where, name, Join(names)));
    }
    // keyhole choice: json::Value keeps repeated members; reading only the first would
    // silently drop the others.
    if (!seen.insert(name).second) {
      return Status::Validation(fmt::format("Duplicate parameter in {}: \"{}\"", where, name));
    }
    if (!found->supported && !value.IsNull()) return Unsupported(at.Child(name).param);
  }
  return Status::OK();
}

Result<std::optional<std::string>> ReadString(const json::Value& obj, std::string_view name,
                                              const Path& at) {
  const json::Value* m = Field(obj, name);
  if (!m) return std::optional<std::string>();
  if (!m->IsString()) return TypeError(at.Child(name), *m, "string");
  return std::optional<std::string>(m->str());
}

Result<std::optional<bool>> ReadBool(const json::Value& obj, std::string_view name,
                                     const Path& at) {
  const json::Value* m = Field(obj, name);
  if (!m) return std::optional<bool>();
  if (!m->IsBool()) return TypeError(at.Child(name), *m, "boolean");
  return std::optional<bool>(m->boolean());
}

Result<std::optional<int64_t>> ReadInteger(const json::Value& obj, std::string_view name,
                                           const Path& at, bool is_long) {
  const json::Value* m = Field(obj, name);
  if (!m) return std::optional<int64_t>();
  std::string_view expected = is_long ? "integer (64-bit)" : "integer (32-bit)";
  if (!m->IsNumber()) return TypeError(at.Child(name), *m, expected);
  const std::string& text = m->number_text();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  bool fits = ec == std::errc() && end == text.data() + text.size();
  if (fits && !is_long) {
    fits = value >= std::numeric_limits<int32_t>::min() &&
           value <= std::numeric_limits<int32_t>::max();
  }
  if (!fits) return TypeError(at.Child(name), *m, expected);
  return std::optional<int64_t>(value);
}

Result<const json::Value*> ReadList(const json::Value& obj, std::string_view name, const Path& at) {
  const json::Value* m = Field(obj, name);
  if (m && !m->IsArray()) return TypeError(at.Child(name), *m, "array");
  return m;
}

Result<const json::Value*> ReadObject(const json::Value& obj, std::string_view name,
                                      const Path& at) {
  const json::Value* m = Field(obj, name);
  if (m && !m->IsObject()) return TypeError(at.Child(name), *m, "object");
  return m;
}

Result<std::optional<std::vector<std::string>>> ReadStringList(const json::Value& obj,
                                                               std::string_view name,
                                                               const Path& at) {
  KH_ASSIGN_OR_RETURN(const json::Value* list, ReadList(obj, name, at));
  if (!list) return std::optional<std::vector<std::string>>();
  std::vector<std::string> out;
  for (size_t i = 0; i < list->array().size(); ++i) {
    const json::Value& e = list->array()[i];
    if (!e.IsString()) return TypeError(at.Child(name).Element(i), e, "string");
    out.push_back(e.str());
  }
  return std::optional<std::vector<std::string>>(std::move(out));
}

Result<std::optional<size_t>> ReadEnum(const json::Value& obj, std::string_view name,
                                       const Path& at, EnumValues values, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> s, ReadString(obj, name, at));
  if (!s) return std::optional<size_t>();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] == *s) return std::optional<size_t>(i);
  }
  errs->Add(at.Child(name), *s,
            fmt::format("Member must satisfy enum value set: [{}]", Join(values)));
  return std::optional<size_t>();
}

void CheckTableName(std::string_view name, const Path& at, Violations* errs) {
  bool pattern = !name.empty();
  for (char c : name) {
    pattern = pattern && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-');
  }
  if (!pattern) {
    errs->Add(at, name, "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  }
  CheckLength(name.size(), 3, 255, name, at, errs);
}

void CheckLength(size_t length, size_t min, size_t max, std::string_view shown, const Path& at,
                 Violations* errs) {
  if (length < min) {
    errs->Add(at, shown, fmt::format("Member must have length greater than or equal to {}", min));
  } else if (length > max) {
    errs->Add(at, shown, fmt::format("Member must have length less than or equal to {}", max));
  }
}

void CheckRange(int64_t value, int64_t min, int64_t max, const Path& at, Violations* errs) {
  std::string shown = std::to_string(value);
  if (value < min) {
    errs->Add(at, shown, fmt::format("Member must have value greater than or equal to {}", min));
  } else if (value > max) {
    errs->Add(at, shown, fmt::format("Member must have value less than or equal to {}", max));
  }
}

std::string ShowList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i];
  }
  return out + "]";
}

Result<std::string> ReadTableNameMember(const json::Value& obj, std::string_view name,
                                        const Path& at, bool required, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> s, ReadString(obj, name, at));
  if (!s) {
    if (required) errs->AddNull(at.Child(name));
    return std::string();
  }
  CheckTableName(*s, at.Child(name), errs);
  return *s;
}

Status RequireTableName(const json::Value& request) {
  const json::Value* name = request.Find("TableName");
  if (!name || name->IsNull()) {
    return Status::Validation(
        "The parameter 'TableName' is required but was not present in the request");
  }
  return Status::OK();
}

Result<std::string> ReadTableNameOrArnMember(const json::Value& obj, std::string_view name,
                                             const Path& at, bool required, Violations* errs) {
  if (const json::Value* v = obj.Find(name); v && v->IsString()) {
    if (std::optional<std::string> table = TableNameFromArn(v->str())) {
      CheckLength(v->str().size(), 1, 1024, v->str(), at.Child(name), errs);
      return *table;
    }
  }
  return ReadTableNameMember(obj, name, at, required, errs);
}

Result<std::string> ReadDataTableNameMember(const json::Value& obj, std::string_view name,
                                            const Path& at, bool required, Violations* errs) {
  KH_ASSIGN_OR_RETURN(std::optional<std::string> s, ReadString(obj, name, at));
  if (!s) {
    if (required) errs->AddNull(at.Child(name));
    return std::string();
  }
  CheckLength(s->size(), 1, 1024, *s, at.Child(name), errs);
  return DataTableName(*s);
}

std::string DataTableName(std::string_view name_or_arn) {
  return TableNameFromArn(name_or_arn).value_or(std::string(name_or_arn));
}

Result<std::vector<AttributeDefinition>> ReadAttributeDefinitions(const json::Value& list,
                                                                  const Path& at,
                                                                  Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"AttributeName"}, {"AttributeType"}};
  std::vector<AttributeDefinition> out;
  for (size_t i = 0; i < list.array().size(); ++i) {
    const json::Value& e = list.array()[i];
    Path p = at.Element(i);
    KH_RETURN_IF_ERROR(CheckStructure(e, p, kMembers));
    AttributeDefinition d;
    KH_ASSIGN_OR_RETURN(std::optional<std::string> name, ReadString(e, "AttributeName", p));
    if (!name) {
      errs->AddNull(p.Child("AttributeName"));
    } else {
      CheckLength(name->size(), 1, 255, *name, p.Child("AttributeName"), errs);
      d.name = *name;
    }
    KH_ASSIGN_OR_RETURN(std::optional<size_t> type,
                        ReadEnum(e, "AttributeType", p, kAttributeTypes, errs));
    if (!Field(e, "AttributeType")) errs->AddNull(p.Child("AttributeType"));
    if (type) d.type = std::string(kAttributeTypes[*type]);
    out.push_back(std::move(d));
  }
  return out;
}

Result<std::vector<KeySchemaElement>> ReadKeySchema(const json::Value& list, const Path& at,
                                                    Violations* errs, bool global) {
  static constexpr MemberSpec kMembers[] = {{"AttributeName"}, {"KeyType"}};
  CheckLength(list.array().size(), 1, global ? SIZE_MAX : 2, ShowKeySchema(list), at, errs);
  std::vector<KeySchemaElement> out;
  for (size_t i = 0; i < list.array().size(); ++i) {
    const json::Value& e = list.array()[i];
    Path p = at.Element(i);
    KH_RETURN_IF_ERROR(CheckStructure(e, p, kMembers));
    KeySchemaElement k;
    KH_ASSIGN_OR_RETURN(std::optional<std::string> name, ReadString(e, "AttributeName", p));
    if (!name) {
      errs->AddNull(p.Child("AttributeName"));
    } else {
      CheckLength(name->size(), 1, 255, *name, p.Child("AttributeName"), errs);
      k.name = *name;
    }
    KH_ASSIGN_OR_RETURN(std::optional<size_t> type, ReadEnum(e, "KeyType", p, kKeyTypes, errs));
    if (!Field(e, "KeyType")) errs->AddNull(p.Child("KeyType"));
    if (type) k.key_type = std::string(kKeyTypes[*type]);
    out.push_back(std::move(k));
  }
  return out;
}

Status ReadProjection(const json::Value& obj, const Path& at, IndexSpec* spec, Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"ProjectionType"}, {"NonKeyAttributes"}};
  KH_RETURN_IF_ERROR(CheckStructure(obj, at, kMembers));
  KH_ASSIGN_OR_RETURN(std::optional<size_t> type,
                      ReadEnum(obj, "ProjectionType", at, kProjectionTypes, errs));
  if (type) spec->projection_type = std::string(kProjectionTypes[*type]);
  KH_ASSIGN_OR_RETURN(spec->non_key_attributes, ReadStringList(obj, "NonKeyAttributes", at));
  if (spec->non_key_attributes) {
    const std::vector<std::string>& names = *spec->non_key_attributes;
    Path p = at.Child("NonKeyAttributes");
    CheckLength(names.size(), 1, 20, ShowList(names), p, errs);
    for (size_t i = 0; i < names.size(); ++i) {
      CheckLength(names[i].size(), 1, 255, names[i], p.Element(i), errs);
    }
  }
  return Status::OK();
}

Status ReadThroughput(const json::Value& obj, const Path& at, std::optional<int64_t>* read,
                      std::optional<int64_t>* write, Violations* errs) {
  static constexpr MemberSpec kMembers[] = {{"ReadCapacityUnits"}, {"WriteCapacityUnits"}};
  KH_RETURN_IF_ERROR(CheckStructure(obj, at, kMembers));
  for (auto [name, out] :
       {std::pair{"ReadCapacityUnits", read}, std::pair{"WriteCapacityUnits", write}}) {
    KH_ASSIGN_OR_RETURN(*out, ReadInteger(obj, name, at, /*is_long=*/true));
    if (!*out) {
      errs->AddNull(at.Child(name));
    } else {
      CheckRange(**out, 1, std::numeric_limits<int64_t>::max(), at.Child(name), errs);
    }
  }
  return Status::OK();
}

namespace {

// The object member `name` of `obj` holding the two optional Long members `members` (absent:
// nullopt; its JSON types checked): OnDemandThroughput and WarmThroughput.
template <typename Spec>
Result<std::optional<Spec>> ReadTwoLongs(const json::Value& obj, const char* name, const Path& at,
                                         const MemberSpec (&members)[2],
                                         std::optional<int64_t> Spec::*first,
                                         std::optional<int64_t> Spec::*second) {
  KH_ASSIGN_OR_RETURN(const json::Value* v, ReadObject(obj, name, at));
  if (!v) return std::optional<Spec>();
  const Path here = at.Child(name);
  KH_RETURN_IF_ERROR(CheckStructure(*v, here, members));
  Spec out;
  KH_ASSIGN_OR_RETURN(out.*first, ReadInteger(*v, members[0].name, here, /*is_long=*/true));
  KH_ASSIGN_OR_RETURN(out.*second, ReadInteger(*v, members[1].name, here, /*is_long=*/true));
  return std::optional<Spec>(out);
}

}  // namespace

Result<std::optional<OnDemandThroughputSpec>> ReadOnDemandThroughput(const json::Value& obj,
                                                                     const Path& at) {
  static constexpr MemberSpec kMembers[] = {{"MaxReadRequestUnits"}, {"MaxWriteRequestUnits"}};
  return ReadTwoLongs(obj, "OnDemandThroughput", at, kMembers,
                      &OnDemandThroughputSpec::max_read_request_units,
                      &OnDemandThroughputSpec::max_write_request_units);
}

Result<std::optional<WarmThroughputSpec>> ReadWarmThroughput(const json::Value& obj,
                                                             const Path& at) {
  static constexpr MemberSpec kMembers[] = {{"ReadUnitsPerSecond"}, {"WriteUnitsPerSecond"}};
  return ReadTwoLongs(obj, "WarmThroughput", at, kMembers,
                      &WarmThroughputSpec::read_units_per_second,
                      &WarmThroughputSpec::write_units_per_second);
}

}  // namespace keyhole::api_json
