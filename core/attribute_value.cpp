#include "core/attribute_value.h"

#include <algorithm>

namespace keyhole {

namespace {
constexpr std::string_view kTypeNames[] = {"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"};
}  // namespace

std::string_view TypeName(ValueType t) { return kTypeNames[static_cast<int>(t)]; }

bool TypeFromName(std::string_view name, ValueType* out) {
  for (int i = 0; i < 10; ++i) {
    if (kTypeNames[i] == name) {
      *out = static_cast<ValueType>(i);
      return true;
    }
  }
  return false;
}

AttributeValue AttributeValue::S(std::string s) { return {ValueType::kS, std::move(s)}; }
AttributeValue AttributeValue::N(Number n) { return {ValueType::kN, std::move(n)}; }
AttributeValue AttributeValue::B(std::string b) { return {ValueType::kB, std::move(b)}; }
AttributeValue AttributeValue::Bool(bool b) { return {ValueType::kBool, b}; }
AttributeValue AttributeValue::Null() { return {}; }
AttributeValue AttributeValue::M(Map m) { return {ValueType::kM, std::move(m)}; }
AttributeValue AttributeValue::L(List l) { return {ValueType::kL, std::move(l)}; }

AttributeValue AttributeValue::SS(std::vector<std::string> members) {
  std::sort(members.begin(), members.end());
  return {ValueType::kSS, std::move(members)};
}
AttributeValue AttributeValue::NS(std::vector<Number> members) {
  std::sort(members.begin(), members.end());
  return {ValueType::kNS, std::move(members)};
}
AttributeValue AttributeValue::BS(std::vector<std::string> members) {
  std::sort(members.begin(), members.end());
  return {ValueType::kBS, std::move(members)};
}

int AttributeValue::CompareKey(const AttributeValue& other) const {
  if (type_ == ValueType::kN) {
    auto c = n() <=> other.n();
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  // std::string compares char_traits<char>, which compares as unsigned char.
  int c = s().compare(other.s());
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace keyhole
