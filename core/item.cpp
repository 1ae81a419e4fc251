// Item rules: DynamoDB's size accounting and the value and item limits (contract in item.h,
// rules in reference §1.6–1.9).
#include "core/item.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace keyhole {

namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

// DynamoDB's texts are "One or more parameter values were invalid: " + `detail`.
Status InvalidParameter(std::string_view detail) {
  std::string message(kInvalid);
  message += detail;
  return Status::Validation(std::move(message));
}

// Standard base64 (RFC 4648) with padding. Used only to show binary set members in a message;
// kept here so the item rules do not depend on the DynamoDB-JSON codec.
std::string Base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// "[m1, m2, ...]" with each member rendered by `render`.
template <typename T, typename Render>
std::string RenderCollection(const std::vector<T>& members, Render render) {
  std::string out = "[";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ", ";
    out += render(members[i]);
  }
  out += "]";
  return out;
}

// "Input collection [..] contains duplicates." when a sorted set holds two equal members.
// The whole collection is shown in its stored (sorted) order: strings as they are, numbers
// in canonical form. AWS renders a binary set's members in a way the reference does not
// record ("[..]of type BS"); we show each member as base64, the form it was sent in.
template <typename T, typename Render>
Status CheckDuplicates(const std::vector<T>& members, Render render, std::string_view suffix) {
  if (std::adjacent_find(members.begin(), members.end()) == members.end()) return Status::OK();
  std::string detail = "Input collection ";
  detail += RenderCollection(members, render);
  detail += suffix;
  return InvalidParameter(detail);
}

// Sets: non-empty and without duplicates (the factories keep members sorted, and numbers
// are normalized, so equal members are adjacent and identical).
Status ValidateSet(const AttributeValue& v) {
  switch (v.type()) {
    case ValueType::kSS:
      if (v.strings().empty()) return InvalidParameter("An string set  may not be empty");
      return CheckDuplicates(
          v.strings(), [](const std::string& s) { return s; }, " contains duplicates.");
    case ValueType::kNS:
      if (v.numbers().empty()) return InvalidParameter("An number set  may not be empty");
      return CheckDuplicates(
          v.numbers(), [](const Number& n) { return n.ToString(); }, " contains duplicates.");
    case ValueType::kBS:
      if (v.strings().empty()) return InvalidParameter("Binary sets should not be empty");
      return CheckDuplicates(
          v.strings(), [](const std::string& b) { return Base64(b); },
          "of type BS contains duplicates.");
    default:
      return Status::OK();
  }
}

}  // namespace

size_t ValueSize(const AttributeValue& v) {
  switch (v.type()) {
    case ValueType::kS:
    case ValueType::kB:
      return v.s().size();
    case ValueType::kN:
      return v.n().SizeBytes();
    case ValueType::kBool:
    case ValueType::kNull:
      return 1;
    case ValueType::kSS:
    case ValueType::kBS: {
      size_t size = 0;
      for (const std::string& member : v.strings()) size += member.size();
      return size;
    }
    case ValueType::kNS: {
      size_t size = 0;
      for (const Number& member : v.numbers()) size += member.SizeBytes();
      return size;
    }
    case ValueType::kL: {
      size_t size = 3;
      for (const AttributeValue& element : v.l()) size += 1 + ValueSize(element);
      return size;
    }
    case ValueType::kM: {
      size_t size = 3;
      for (const auto& [key, value] : v.m()) size += 1 + key.size() + ValueSize(value);
      return size;
    }
  }
  return 0;
}

size_t ItemSize(const Item& item) {
  size_t size = 0;
  for (const auto& [name, value] : item) size += name.size() + ValueSize(value);
  return size;
}

// Any value below level 32 is too deep: 31 maps around a scalar put the scalar at level 32
// (accepted), 32 maps put it at 33 (rejected). Lists count like maps; a set is one value, its
// members are not levels. Map keys are not checked: an empty key inside a map is allowed.
Status ValidateValue(const AttributeValue& v, int depth) {
  if (depth > kMaxNestingDepth) {
    return Status::Validation(
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested "
        "levels beyond supported limit");
  }
  if (v.IsSet()) return ValidateSet(v);
  if (v.is(ValueType::kM)) {
    for (const auto& [key, value] : v.m()) KH_RETURN_IF_ERROR(ValidateValue(value, depth + 1));
  } else if (v.is(ValueType::kL)) {
    for (const AttributeValue& element : v.l()) {
      KH_RETURN_IF_ERROR(ValidateValue(element, depth + 1));
    }
  }
  return Status::OK();
}

// Attributes are checked in name order (name, then value), then the item size; the first
// problem is returned. The name messages are our own wording, because the reference records
// only that AWS's empty-name text contains "Empty attribute name" and that its too-long text
// names the limit: "One or more parameter values were invalid: Empty attribute name" and
// "One or more parameter values were invalid: Attribute name is too large, must be less than
// 65536 bytes".
std::string_view AttributeNameProblem(std::string_view name) {
  if (name.empty()) return "Empty attribute name";
  if (name.size() > kMaxAttributeNameBytes) {
    return "Attribute name is too large, must be less than 65536 bytes";
  }
  return {};
}

Status ValidateItem(const Item& item) {
  for (const auto& [name, value] : item) {
    std::string_view problem = AttributeNameProblem(name);
    if (!problem.empty()) return InvalidParameter(problem);
    KH_RETURN_IF_ERROR(ValidateValue(value, 1));
  }
  // Values are validated first, so ItemSize never recurses deeper than 32 levels.
  if (const size_t size = ItemSize(item); size > kMaxItemSize) {
    return Status::Validation("Item size has exceeded the maximum allowed size")
        .WithHint(OversizeHint(size));
  }
  return Status::OK();
}

std::string OversizeHint(size_t size) {
  return fmt::format(
      "the item is {} bytes ({:.1f} KB) with its attribute names; DynamoDB's limit is 400 KB. "
      "Keep a large value in S3 and store its key, or split the item into several items of one "
      "item collection (same partition key, a sort key per part)",
      size, static_cast<double>(size) / 1024);
}

bool TtlExpired(const Item& item, const std::string& attribute, double now) {
  constexpr double kFiveYears = 5 * 365.2425 * 86400;
  auto it = item.find(attribute);
  if (it == item.end() || !it->second.is(ValueType::kN)) return false;
  // Epoch seconds read as a double are exact to well under a second; the comparison only has
  // whole-second meaning.
  double seconds = std::strtod(it->second.n().ToString().c_str(), nullptr);
  return seconds < now && seconds >= now - kFiveYears;
}

}  // namespace keyhole
