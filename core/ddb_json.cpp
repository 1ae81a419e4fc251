// DynamoDB JSON codec (see ddb_json.h).
//
// Decoding is strict. Where DynamoDB's own message is known (reference §1.1, §1.2, §1.7, §1.8)
// it is reproduced exactly, through Number::Parse and ValidateValue for numbers, sets and
// nesting. Where DynamoDB answers with a SerializationException or silently ignores the input,
// keyhole instead returns a ValidationException in DynamoDB's style that names the datatype and
// what was wrong; each such text below is marked "keyhole choice".
//
// Encoding writes type keys in upper case, sets in their stored (sorted) order, numbers in
// canonical plain notation (always as JSON strings), binaries as padded base64 and map keys in
// name (bytewise) order, so equal values give identical text.
#include "core/ddb_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_set>

#include "core/item.h"
#include "core/utf8.h"

namespace keyhole {

namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

// Longest datatype or attribute name echoed in a message; longer ones are cut (on a UTF-8
// character boundary) and marked with "...".
constexpr size_t kMaxEchoedName = 64;

// `name` as a JSON string literal, shortened when long.
std::string Echo(std::string_view name) {
  std::string out;
  if (name.size() <= kMaxEchoedName) {
    json::AppendQuoted(name, &out);
    return out;
  }
  json::AppendQuoted(name.substr(0, utf8::Boundary(name, kMaxEchoedName)), &out);
  out += "...";
  return out;
}

// DynamoDB's JSON reader answers a JSON value of the wrong kind with SerializationException,
// in Java's words for the type it wanted (dynalite's tests record them against AWS): where an
// AttributeValue belongs ...
Status NotAnObject(const json::Value& v) {
  return Status(ErrorCode::kSerialization, v.IsArray()
                                               ? "Unrecognized collection type class "
                                                 "com.amazonaws.dynamodb.v20120810.AttributeValue"
                                               : "Unexpected value type in payload");
}

// ... where a string (S, N, a set's member) or a boolean (BOOL, NULL) belongs ...
Status ScalarMismatch(const json::Value& v, std::string_view java_type) {
  std::string msg;
  switch (v.kind()) {
    case json::Kind::kObject:
      msg = "Start of structure or map found where not expected";
      break;
    case json::Kind::kArray:
      msg = fmt::format("Unrecognized collection type class java.lang.{}", java_type);
      break;
    case json::Kind::kNumber:
      msg = fmt::format("{} cannot be converted to {}",
                        v.number_text().find_first_of(".eE") != std::string::npos ? "DECIMAL_VALUE"
                                                                                  : "NUMBER_VALUE",
                        java_type);
      break;
    case json::Kind::kBool:
      msg = fmt::format("{} cannot be converted to {}", v.boolean() ? "TRUE_VALUE" : "FALSE_VALUE",
                        java_type);
      break;
    default:  // a string where a boolean belongs, not one of the words DynamoDB reads as one
      msg = "Unexpected token received from parser";
  }
  return Status(ErrorCode::kSerialization, std::move(msg));
}

// ... where base64 bytes (B, a BS member) belong ...
Status BadBlob(const json::Value& v) {
  std::string msg;
  if (v.IsObject()) {
    msg = "Start of structure or map found where not expected";
  } else if (v.IsArray()) {
    msg = "Unrecognized collection type class java.nio.ByteBuffer";
  } else if (!v.IsString()) {
    msg = "only base-64-encoded strings are convertible to bytes";
  } else if (v.str().size() % 4 != 0) {
    msg = fmt::format("Base64 encoded length is expected a multiple of 4 bytes but found: {}",
                      v.str().size());
  } else {
    msg = "Invalid last non-pad Base64 character dectected";  // sic
  }
  return Status(ErrorCode::kSerialization, std::move(msg));
}

// ... and where a list (L, SS, NS, BS) or a map (M) belongs.
Status CollectionMismatch(const json::Value& v, bool map) {
  if (map && v.IsArray()) {
    return Status(ErrorCode::kSerialization,
                  "Unrecognized collection type java.util.Map<java.lang.String, "
                  "com.amazonaws.dynamodb.v20120810.AttributeValue>");
  }
  if (!map && v.IsObject()) {
    return Status(ErrorCode::kSerialization, "Start of structure or map found where not expected");
  }
  return Status(ErrorCode::kSerialization, "Unexpected field type");
}

// BOOL and NULL take a JSON boolean, or a string DynamoDB's reader converts: true, 1 or yes,
// false, 0 or no, in any case. nullopt for anything else.
std::optional<bool> ReadBoolean(const json::Value& v) {
  if (v.IsBool()) return v.boolean();
  if (!v.IsString()) return std::nullopt;
  std::string word = v.str();
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (word == "TRUE" || word == "1" || word == "YES") return true;
  if (word == "FALSE" || word == "0" || word == "NO") return false;
  return std::nullopt;
}

Status Empty() {
  return Status::Validation(
      "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
}

Status MoreThanOne() {
  return Status::Validation(
      "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
      "supported datatypes");
}

// keyhole choice: DynamoDB ignores unknown members; keyhole names and rejects them.
Status UnknownType(std::string_view key) {
  return Status::Validation("Supplied AttributeValue has an unsupported datatype " + Echo(key) +
                            ", must contain exactly one of the supported datatypes: S, N, B, "
                            "BOOL, NULL, M, L, SS, NS, BS");
}

// keyhole choice: the same name twice in one JSON object (DynamoDB keeps one silently).
Status DuplicateName(std::string_view name, bool in_item) {
  std::string msg(kInvalid);
  msg += in_item ? "Duplicate attribute name " : "Duplicate key ";
  msg += Echo(name);
  msg += in_item ? " in item" : " in attribute of type M";
  return Status::Validation(std::move(msg));
}

// Decodes `j`, at nesting level `depth` (a top-level attribute is level 1), checking as it goes
// what ValidateValue checks (nesting, empty sets, duplicate members), so that the first problem
// in document order is the one reported, worded as `layer` words it.
Status Decode(const json::Value& j, AttributeValue* out, ValueLayer layer, int depth);

// The first of members[0, n) whose name an earlier member already has; nullptr when none.
const std::string* FirstRepeatedName(const json::Value::Object& members, size_t n) {
  std::unordered_set<std::string_view> seen;
  for (size_t i = 0; i < n; ++i) {
    if (!seen.insert(members[i].first).second) return &members[i].first;
  }
  return nullptr;
}

// The first error in member order is the one reported: a bad value, or the second of two equal
// names, whichever comes first. The pairs are collected and sorted once, so no order of a large
// object costs more than a sort.
Status DecodeMap(const json::Value::Object& members, Map* out, bool in_item, ValueLayer layer,
                 int depth) {
  Map::Vector pairs;
  pairs.reserve(members.size());
  for (size_t i = 0; i < members.size(); ++i) {
    AttributeValue child;
    Status s = Decode(members[i].second, &child, layer, depth);
    if (!s.ok()) {
      const std::string* repeated = FirstRepeatedName(members, i);
      return repeated ? DuplicateName(*repeated, in_item) : s;
    }
    pairs.emplace_back(members[i].first, std::move(child));
  }
  Map m = Map::FromUnsorted(std::move(pairs));  // drops repeated names: fewer pairs
  if (m.size() != members.size()) {
    return DuplicateName(*FirstRepeatedName(members, members.size()), in_item);
  }
  *out = std::move(m);
  return Status::OK();
}

Status NestedTooDeep() {
  return Status::Validation(
      "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
      "beyond supported limit");
}

Status InvalidParameter(std::string_view detail) {
  return Status::Validation(std::string(kInvalid) + std::string(detail));
}

// A set's first repeated member (members[repeat], equal to an earlier one), worded as `layer`
// words it (ddb_json.h): members as sent (a BS member's base64); `sorted_before` the indexes of
// the members before the repeat, in the set's order.
Status DuplicateMembers(const json::Value::Array& members, size_t repeat, ValueType type,
                        ValueLayer layer, const std::vector<size_t>& sorted_before) {
  const bool binary = type == ValueType::kBS;
  if (type == ValueType::kNS) {
    if (layer == ValueLayer::kOlder) {
      return Status::Validation("Input collection contains duplicates");
    }
    return Status::Validation(std::string(kInvalid) + "Input collection contains duplicates.");
  }
  std::string list = "[";
  auto add = [&](size_t i, bool first) {
    if (!first) list += binary && layer == ValueLayer::kCurrent ? "," : ", ";
    if (layer == ValueLayer::kCurrent) {
      json::AppendQuoted(members[i].str(), &list);
    } else {
      list += members[i].str();
    }
  };
  if (layer == ValueLayer::kOlder) {
    for (size_t i = 0; i < members.size(); ++i) add(i, i == 0);
  } else {
    // The members met before the repeat in their sorted order, then the repeat and the rest
    // as sent.
    bool first = true;
    for (size_t i : sorted_before) {
      add(i, first);
      first = false;
    }
    for (size_t i = repeat; i < members.size(); ++i) add(i, false);
  }
  list += "]";
  return Status::Validation(std::string(kInvalid) + "Input collection " + list +
                            (binary ? "of type BS contains duplicates." : " contains duplicates."));
}

// The index of the first member equal to an earlier one (by `less`, a strict order of the
// decoded members), and in *sorted the indexes of the members before it in that order;
// members.size() when none repeats.
template <typename T, typename Less>
size_t FirstRepeat(const std::vector<T>& decoded, Less less, std::vector<size_t>* sorted) {
  if (decoded.size() < 2) return decoded.size();
  // Usually no member repeats: sort a copy once and look for neighbours.
  std::vector<size_t> order(decoded.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return less(decoded[a], decoded[b]); });
  size_t repeat = decoded.size();
  for (size_t k = 1; k < order.size(); ++k) {
    if (!less(decoded[order[k - 1]], decoded[order[k]])) repeat = std::min(repeat, order[k]);
  }
  if (repeat == decoded.size()) return repeat;
  // The members before the repeat, sorted (none of them equal).
  for (size_t i : order) {
    if (i < repeat) sorted->push_back(i);
  }
  return repeat;
}

Status Decode(const json::Value& j, AttributeValue* out, ValueLayer layer, int depth) {
  if (depth > kMaxNestingDepth) return NestedTooDeep();
  if (!j.IsObject()) return NotAnObject(j);
  const json::Value* body = nullptr;
  ValueType type = ValueType::kNull;
  int count = 0;
  for (const json::Value::Member& m : j.object()) {
    ValueType t;
    if (!TypeFromName(m.first, &t)) return UnknownType(m.first);
    // keyhole choice, as DynamoDB's JSON protocol does: a member whose value is JSON null is
    // "not set", so {"S": null} is empty and {"S": null, "N": "1"} is the number 1.
    if (m.second.IsNull()) continue;
    ++count;
    type = t;
    body = &m.second;
  }
  if (count == 0) return Empty();
  if (count > 1) return MoreThanOne();

  auto number = [layer](const std::string& text) {
    return layer == ValueLayer::kOlder ? Number::ParseAsBigDecimal(text) : Number::Parse(text);
  };
  const json::Value& b = *body;
  switch (type) {
    case ValueType::kS:
      if (!b.IsString()) return ScalarMismatch(b, "String");
      *out = AttributeValue::S(b.str());
      return Status::OK();
    case ValueType::kN: {
      if (!b.IsString()) return ScalarMismatch(b, "String");
      KH_ASSIGN_OR_RETURN(Number n, number(b.str()));
      *out = AttributeValue::N(std::move(n));
      return Status::OK();
    }
    case ValueType::kB: {
      std::string bytes;
      if (!b.IsString() || !Base64Decode(b.str(), &bytes)) return BadBlob(b);
      *out = AttributeValue::B(std::move(bytes));
      return Status::OK();
    }
    case ValueType::kBool: {
      const std::optional<bool> v = ReadBoolean(b);
      if (!v) return ScalarMismatch(b, "Boolean");
      *out = AttributeValue::Bool(*v);
      return Status::OK();
    }
    case ValueType::kNull: {
      const std::optional<bool> v = ReadBoolean(b);
      if (!v) return ScalarMismatch(b, "Boolean");
      if (!*v) {
        return Status::Validation(std::string(kInvalid) +
                                  "Null attribute value types must have the value of true");
      }
      *out = AttributeValue::Null();
      return Status::OK();
    }
    case ValueType::kM: {
      if (!b.IsObject()) return CollectionMismatch(b, /*map=*/true);
      Map m;
      KH_RETURN_IF_ERROR(DecodeMap(b.object(), &m, /*in_item=*/false, layer, depth + 1));
      *out = AttributeValue::M(std::move(m));
      return Status::OK();
    }
    case ValueType::kL: {
      if (!b.IsArray()) return CollectionMismatch(b, /*map=*/false);
      List l(b.array().size());
      for (size_t i = 0; i < l.size(); ++i) {
        KH_RETURN_IF_ERROR(Decode(b.array()[i], &l[i], layer, depth + 1));
      }
      *out = AttributeValue::L(std::move(l));
      return Status::OK();
    }
    case ValueType::kSS: {
      if (!b.IsArray()) return CollectionMismatch(b, /*map=*/false);
      std::vector<std::string> members;
      members.reserve(b.array().size());
      for (const json::Value& e : b.array()) {
        if (!e.IsString()) return ScalarMismatch(e, "String");
        members.push_back(e.str());
      }
      if (members.empty()) return InvalidParameter("An string set  may not be empty");
      std::vector<size_t> before;
      const size_t repeat = FirstRepeat(members, std::less<>(), &before);
      if (repeat != members.size()) return DuplicateMembers(b.array(), repeat, type, layer, before);
      *out = AttributeValue::SS(std::move(members));
      return Status::OK();
    }
    case ValueType::kNS: {
      if (!b.IsArray()) return CollectionMismatch(b, /*map=*/false);
      std::vector<Number> members;
      members.reserve(b.array().size());
      for (const json::Value& e : b.array()) {
        if (!e.IsString()) return ScalarMismatch(e, "String");
        KH_ASSIGN_OR_RETURN(Number n, number(e.str()));
        members.push_back(std::move(n));
      }
      if (members.empty()) return InvalidParameter("An number set  may not be empty");
      std::vector<size_t> before;
      const size_t repeat = FirstRepeat(members, std::less<>(), &before);
      if (repeat != members.size()) return DuplicateMembers(b.array(), repeat, type, layer, before);
      *out = AttributeValue::NS(std::move(members));
      return Status::OK();
    }
    case ValueType::kBS: {
      if (!b.IsArray()) return CollectionMismatch(b, /*map=*/false);
      std::vector<std::string> members;
      members.reserve(b.array().size());
      for (const json::Value& e : b.array()) {
        std::string bytes;
        if (!e.IsString() || !Base64Decode(e.str(), &bytes)) return BadBlob(e);
        members.push_back(std::move(bytes));
      }
      if (members.empty()) return InvalidParameter("Binary sets should not be empty");
      std::vector<size_t> before;
      // Binary members order as unsigned bytes (std::string compares chars, which may be
      // signed).
      auto unsigned_less = [](const std::string& a, const std::string& b) {
        return std::lexicographical_compare(
            a.begin(), a.end(), b.begin(), b.end(),
            [](char x, char y) { return static_cast<uint8_t>(x) < static_cast<uint8_t>(y); });
      };
      const size_t repeat = FirstRepeat(members, unsigned_less, &before);
      if (repeat != members.size()) return DuplicateMembers(b.array(), repeat, type, layer, before);
      *out = AttributeValue::BS(std::move(members));
      return Status::OK();
    }
  }
  return Empty();  // unreachable
}

// Writes {"<type>":<body>} for v straight into *out (the text encoders avoid building a
// json::Value tree).
void AppendValueText(const AttributeValue& v, std::string* out) {
  out->append("{\"");
  out->append(TypeName(v.type()));
  out->append("\":");
  switch (v.type()) {
    case ValueType::kS:
      json::AppendQuoted(v.s(), out);
      break;
    case ValueType::kN:
      out->push_back('"');
      out->append(v.n().ToString());  // digits, '-' and '.': nothing to escape
      out->push_back('"');
      break;
    case ValueType::kB:
      out->push_back('"');
      out->append(Base64Encode(v.s()));
      out->push_back('"');
      break;
    case ValueType::kBool:
      out->append(v.boolean() ? "true" : "false");
      break;
    case ValueType::kNull:
      out->append("true");
      break;
    case ValueType::kM: {
      out->push_back('{');
      bool first = true;
      for (const auto& [name, child] : v.m()) {
        if (!first) out->push_back(',');
        first = false;
        json::AppendQuoted(name, out);
        out->push_back(':');
        AppendValueText(child, out);
      }
      out->push_back('}');
      break;
    }
    case ValueType::kL: {
      out->push_back('[');
      bool first = true;
      for (const AttributeValue& child : v.l()) {
        if (!first) out->push_back(',');
        first = false;
        AppendValueText(child, out);
      }
      out->push_back(']');
      break;
    }
    case ValueType::kSS:
    case ValueType::kBS: {
      const bool binary = v.type() == ValueType::kBS;
      out->push_back('[');
      bool first = true;
      for (const std::string& s : v.strings()) {
        if (!first) out->push_back(',');
        first = false;
        if (binary) {
          out->push_back('"');
          out->append(Base64Encode(s));
          out->push_back('"');
        } else {
          json::AppendQuoted(s, out);
        }
      }
      out->push_back(']');
      break;
    }
    case ValueType::kNS: {
      out->push_back('[');
      bool first = true;
      for (const Number& n : v.numbers()) {
        if (!first) out->push_back(',');
        first = false;
        out->push_back('"');
        out->append(n.ToString());
        out->push_back('"');
      }
      out->push_back(']');
      break;
    }
  }
  out->push_back('}');
}

constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Base64 digit values; -1 for anything outside the standard alphabet (including '=').
struct Base64Table {
  int8_t value[256];
  constexpr Base64Table() : value() {
    for (int i = 0; i < 256; ++i) value[i] = -1;
    for (int i = 0; i < 64; ++i) value[static_cast<unsigned char>(kBase64Alphabet[i])] = i;
  }
};
constexpr Base64Table kBase64;

}  // namespace

namespace {

// ReadItemText's depth limit in AttributeValue levels: past ValidateValue's, so that nothing
// it would accept falls back.
constexpr int kMaxTextDepth = 40;

bool ReadValueText(json::TextReader* in, AttributeValue* out, int depth, std::string* scratch);

// {"name": AttributeValue, ...}, as DecodeMap reads it (a repeated name falls back).
bool ReadMapText(json::TextReader* in, Map* out, int depth, std::string* scratch) {
  if (!in->Consume('{')) return false;
  Map::Vector pairs;
  if (!in->Consume('}')) {
    do {
      std::string name;
      if (!in->ReadString(&name) || !in->Consume(':')) return false;
      AttributeValue v;
      if (!ReadValueText(in, &v, depth, scratch)) return false;
      pairs.emplace_back(std::move(name), std::move(v));
    } while (in->Consume(','));
    if (!in->Consume('}')) return false;
  }
  const size_t n = pairs.size();
  Map m = Map::FromUnsorted(std::move(pairs));
  if (m.size() != n) return false;
  *out = std::move(m);
  return true;
}

// [ "text", ... ] of a set, each member through `add`.
template <typename Add>
bool ReadStringArray(json::TextReader* in, std::string* scratch, Add add) {
  if (!in->Consume('[')) return false;
  if (in->Consume(']')) return true;
  do {
    if (!in->ReadString(scratch) || !add(*scratch)) return false;
  } while (in->Consume(','));
  return in->Consume(']');
}

// {"<type>": body}, as Decode reads it.
bool ReadValueText(json::TextReader* in, AttributeValue* out, int depth, std::string* scratch) {
  ValueType type;
  if (depth > kMaxTextDepth || !in->Consume('{') || !in->ReadString(scratch) ||
      !TypeFromName(*scratch, &type) || !in->Consume(':')) {
    return false;
  }
  switch (type) {
    case ValueType::kS: {
      std::string s;
      if (!in->ReadString(&s)) return false;
      *out = AttributeValue::S(std::move(s));
      break;
    }
    case ValueType::kN: {
      if (!in->ReadString(scratch)) return false;
      Result<Number> n = Number::Parse(*scratch);
      if (!n.ok()) return false;
      *out = AttributeValue::N(std::move(*n));
      break;
    }
    case ValueType::kB: {
      std::string bytes;
      if (!in->ReadString(scratch) || !Base64Decode(*scratch, &bytes)) return false;
      *out = AttributeValue::B(std::move(bytes));
      break;
    }
    case ValueType::kBool: {
      bool b;
      if (!in->ReadBool(&b)) return false;
      *out = AttributeValue::Bool(b);
      break;
    }
    case ValueType::kNull: {
      bool b;
      if (!in->ReadBool(&b) || !b) return false;
      *out = AttributeValue::Null();
      break;
    }
    case ValueType::kM: {
      Map m;
      if (!ReadMapText(in, &m, depth + 1, scratch)) return false;
      *out = AttributeValue::M(std::move(m));
      break;
    }
    case ValueType::kL: {
      if (!in->Consume('[')) return false;
      List l;
      if (!in->Consume(']')) {
        do {
          l.emplace_back();
          if (!ReadValueText(in, &l.back(), depth + 1, scratch)) return false;
        } while (in->Consume(','));
        if (!in->Consume(']')) return false;
      }
      *out = AttributeValue::L(std::move(l));
      break;
    }
    case ValueType::kSS: {
      std::vector<std::string> members;
      if (!ReadStringArray(in, scratch, [&](std::string& s) {
            members.push_back(std::move(s));
            return true;
          })) {
        return false;
      }
      *out = AttributeValue::SS(std::move(members));
      break;
    }
    case ValueType::kNS: {
      std::vector<Number> members;
      if (!ReadStringArray(in, scratch, [&](const std::string& s) {
            Result<Number> n = Number::Parse(s);
            if (!n.ok()) return false;
            members.push_back(std::move(*n));
            return true;
          })) {
        return false;
      }
      *out = AttributeValue::NS(std::move(members));
      break;
    }
    case ValueType::kBS: {
      std::vector<std::string> members;
      if (!ReadStringArray(in, scratch, [&](const std::string& s) {
            std::string bytes;
            if (!Base64Decode(s, &bytes)) return false;
            members.push_back(std::move(bytes));
            return true;
          })) {
        return false;
      }
      *out = AttributeValue::BS(std::move(members));
      break;
    }
  }
  return in->Consume('}');
}

}  // namespace

bool ReadItemText(json::TextReader* in, Item* out) {
  std::string scratch;
  Item item;
  if (!ReadMapText(in, &item, 1, &scratch)) return false;
  for (const auto& [name, value] : item) {
    if (!ValidateValue(value, 1).ok()) return false;
  }
  *out = std::move(item);
  return true;
}

Result<AttributeValue> ValueFromJson(const json::Value& v, ValueLayer layer) {
  AttributeValue out;
  KH_RETURN_IF_ERROR(Decode(v, &out, layer, 1));
  return out;
}

Result<Item> ItemFromJson(const json::Value& v, ValueLayer layer) {
  if (!v.IsObject()) {
    // keyhole choice: an item that is not a JSON object.
    return Status::Validation(std::string(kInvalid) +
                              "An item must be a JSON object of attribute names to "
                              "AttributeValues");
  }
  Item item;
  KH_RETURN_IF_ERROR(DecodeMap(v.object(), &item, /*in_item=*/true, layer, 1));
  return item;
}

Result<Item> ItemFromJsonText(std::string_view text) {
  KH_ASSIGN_OR_RETURN(json::Value v, json::Parse(text));
  return ItemFromJson(v);
}

json::Value ValueToJson(const AttributeValue& v) {
  json::Value body;
  switch (v.type()) {
    case ValueType::kS:
      body = json::Value::String(v.s());
      break;
    case ValueType::kN:
      body = json::Value::String(v.n().ToString());
      break;
    case ValueType::kB:
      body = json::Value::String(Base64Encode(v.s()));
      break;
    case ValueType::kBool:
      body = json::Value::Bool(v.boolean());
      break;
    case ValueType::kNull:
      body = json::Value::Bool(true);
      break;
    case ValueType::kM:
      body = ItemToJson(v.m());
      break;
    case ValueType::kL: {
      json::Value::Array a;
      a.reserve(v.l().size());
      for (const AttributeValue& e : v.l()) a.push_back(ValueToJson(e));
      body = json::Value::MakeArray(std::move(a));
      break;
    }
    case ValueType::kSS:
    case ValueType::kBS: {
      const bool binary = v.type() == ValueType::kBS;
      json::Value::Array a;
      a.reserve(v.strings().size());
      for (const std::string& s : v.strings()) {
        a.push_back(json::Value::String(binary ? Base64Encode(s) : s));
      }
      body = json::Value::MakeArray(std::move(a));
      break;
    }
    case ValueType::kNS: {
      json::Value::Array a;
      a.reserve(v.numbers().size());
      for (const Number& n : v.numbers()) a.push_back(json::Value::String(n.ToString()));
      body = json::Value::MakeArray(std::move(a));
      break;
    }
  }
  json::Value::Object o;
  o.emplace_back(std::string(TypeName(v.type())), std::move(body));
  return json::Value::MakeObject(std::move(o));
}

json::Value ItemToJson(const Item& item) {
  json::Value::Object o;
  o.reserve(item.size());
  for (const auto& [name, value] : item) o.emplace_back(name, ValueToJson(value));
  return json::Value::MakeObject(std::move(o));
}

void AppendItemToJsonText(const Item& item, std::string* out) {
  out->push_back('{');
  bool first = true;
  for (const auto& [name, value] : item) {
    if (!first) out->push_back(',');
    first = false;
    json::AppendQuoted(name, out);
    out->push_back(':');
    AppendValueText(value, out);
  }
  out->push_back('}');
}

std::string ItemToJsonText(const Item& item) {
  std::string out;
  out.reserve(256);  // one allocation for most items' text
  AppendItemToJsonText(item, &out);
  return out;
}

std::string ValueToJsonText(const AttributeValue& v) {
  std::string out;
  AppendValueText(v, &out);
  return out;
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.resize((bytes.size() + 2) / 3 * 4);
  const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
  char* o = out.data();
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t w = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8) | in[i + 2];
    *o++ = kBase64Alphabet[(w >> 18) & 63];
    *o++ = kBase64Alphabet[(w >> 12) & 63];
    *o++ = kBase64Alphabet[(w >> 6) & 63];
    *o++ = kBase64Alphabet[w & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest == 1) {
    const uint32_t w = uint32_t{in[i]} << 16;
    *o++ = kBase64Alphabet[(w >> 18) & 63];
    *o++ = kBase64Alphabet[(w >> 12) & 63];
    *o++ = '=';
    *o++ = '=';
  } else if (rest == 2) {
    const uint32_t w = (uint32_t{in[i]} << 16) | (uint32_t{in[i + 1]} << 8);
    *o++ = kBase64Alphabet[(w >> 18) & 63];
    *o++ = kBase64Alphabet[(w >> 12) & 63];
    *o++ = kBase64Alphabet[(w >> 6) & 63];
    *o++ = '=';
  }
  return out;
}

bool Base64Decode(std::string_view text, std::string* out) {
  if (text.size() % 4 != 0) return false;
  std::string bytes;
  bytes.resize(text.size() / 4 * 3);
  const auto* in = reinterpret_cast<const unsigned char*>(text.data());
  char* o = bytes.data();
  const size_t n = text.size();
  for (size_t i = 0; i < n; i += 4) {
    const int a = kBase64.value[in[i]];
    const int b = kBase64.value[in[i + 1]];
    const int c = kBase64.value[in[i + 2]];
    const int d = kBase64.value[in[i + 3]];
    if (a < 0 || b < 0) return false;
    if (i + 4 == n && in[i + 3] == '=') {
      // The final quantum may be "xx==" (one byte) or "xxx=" (two); the bits that pad the last
      // digit must be zero (canonical form).
      if (in[i + 2] == '=') {
        if ((b & 0x0F) != 0) return false;
        *o++ = static_cast<char>((a << 2) | (b >> 4));
        bytes.resize(bytes.size() - 2);
        break;
      }
      if (c < 0 || (c & 0x03) != 0) return false;
      *o++ = static_cast<char>((a << 2) | (b >> 4));
      *o++ = static_cast<char>(((b & 0x0F) << 4) | (c >> 2));
      bytes.resize(bytes.size() - 1);
      break;
    }
    if (c < 0 || d < 0) return false;
    *o++ = static_cast<char>((a << 2) | (b >> 4));
    *o++ = static_cast<char>(((b & 0x0F) << 4) | (c >> 2));
    *o++ = static_cast<char>(((c & 0x03) << 6) | d);
  }
  *out = std::move(bytes);
  return true;
}

}  // namespace keyhole
