// AttributeValue: one DynamoDB value of any of the ten types (reference §1.1).
//
// Values are plain data with value semantics. Sets are kept sorted (SS/BS bytewise, NS
// numerically) by the factories, so equality is order-insensitive for sets as in DynamoDB,
// and maps (a FlatMap sorted by name) compare by content regardless of insertion order. The
// factories do not validate: a set may be empty or hold duplicates until ValidateValue()
// (core/item.h) rejects it with DynamoDB's message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/flat_map.h"
#include "core/number.h"

namespace keyhole {

// DO NOT REORDER: the numeric values are stored in item encodings (core/item_codec.h).
enum class ValueType : uint8_t { kS = 0, kN, kB, kBool, kNull, kM, kL, kSS, kNS, kBS };

// "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS".
std::string_view TypeName(ValueType t);
// Inverse of TypeName; false when `name` is not one of the ten.
bool TypeFromName(std::string_view name, ValueType* out);

class AttributeValue;
using Map = FlatMap<AttributeValue>;  // sorted by name; see core/flat_map.h
using List = std::vector<AttributeValue>;
// An item is a map of top-level attribute names to values.
using Item = Map;

class AttributeValue {
 public:
  AttributeValue() : type_(ValueType::kNull), v_(std::monostate{}) {}  // NULL

  static AttributeValue S(std::string s);
  static AttributeValue N(Number n);
  static AttributeValue B(std::string bytes);  // raw, decoded bytes
  static AttributeValue Bool(bool b);
  static AttributeValue Null();
  static AttributeValue M(Map m);
  static AttributeValue L(List l);
  static AttributeValue SS(std::vector<std::string> members);  // sorted bytewise
  static AttributeValue NS(std::vector<Number> members);       // sorted numerically
  static AttributeValue BS(std::vector<std::string> members);  // sorted bytewise

  // In place, for decoders: makes this value the S or B (`t`) `content`, a zero N or the BOOL
  // `b` (and returns the N to fill), without building a temporary AttributeValue.
  void SetString(ValueType t, std::string_view content) {  // REQUIRES: t is kS or kB
    type_ = t;
    v_.emplace<std::string>(content.data(), content.size());
  }
  Number& SetNumber() {
    type_ = ValueType::kN;
    return v_.emplace<Number>();
  }
  void SetBool(bool b) {
    type_ = ValueType::kBool;
    v_.emplace<bool>(b);
  }

  ValueType type() const { return type_; }
  bool is(ValueType t) const { return type_ == t; }
  bool IsSet() const {
    return type_ == ValueType::kSS || type_ == ValueType::kNS || type_ == ValueType::kBS;
  }
  // S, N and B: the types a key attribute may have and the only ordered ones.
  bool IsScalarKeyType() const {
    return type_ == ValueType::kS || type_ == ValueType::kN || type_ == ValueType::kB;
  }

  // Accessors. REQUIRES: the matching type.
  const std::string& s() const { return std::get<std::string>(v_); }  // S or B
  const Number& n() const { return std::get<Number>(v_); }
  bool boolean() const { return std::get<bool>(v_); }
  const Map& m() const { return std::get<Map>(v_); }
  Map& m() { return std::get<Map>(v_); }
  const List& l() const { return std::get<List>(v_); }
  List& l() { return std::get<List>(v_); }
  const std::vector<std::string>& strings() const {
    return std::get<std::vector<std::string>>(v_);
  }  // SS or BS
  const std::vector<Number>& numbers() const { return std::get<std::vector<Number>>(v_); }  // NS

  // DynamoDB equality: same type and same content; numbers numerically; sets and maps
  // regardless of order; lists in order.
  bool operator==(const AttributeValue& other) const {
    return type_ == other.type_ && v_ == other.v_;
  }

  // Ordering of two key-type values of the same type (N numerically, S and B bytewise).
  // REQUIRES: both IsScalarKeyType() and the same type.
  int CompareKey(const AttributeValue& other) const;

 private:
  using Storage = std::variant<std::monostate, bool, std::string, Number, Map, List,
                               std::vector<std::string>, std::vector<Number>>;
  AttributeValue(ValueType t, Storage v) : type_(t), v_(std::move(v)) {}
  ValueType type_;
  Storage v_;
};

}  // namespace keyhole
