// Helpers shared by the api/api_json_client.h tests: items with every type, consumed capacity,
// and the round trips (encode -> text -> decode -> encode gives the same text).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "api/api_json.h"
#include "api/api_json_client.h"
#include "core/ddb_json.h"
#include "core/json.h"
#include "core/number.h"

namespace keyhole::testing {

inline AttributeValue Num(const char* text) { return AttributeValue::N(*Number::Parse(text)); }

inline Item Key(const char* pk, const char* sk) {
  return {{"pk", AttributeValue::S(pk)}, {"sk", Num(sk)}};
}

// An item with all ten types, nested.
inline Item Rich(const char* pk) {
  Item item = Key(pk, "12345678901234567890123456789012345678");
  item["b"] = AttributeValue::B(std::string("\x00\xff\x10", 3));
  item["t"] = AttributeValue::Bool(true);
  item["z"] = AttributeValue::Null();
  item["ss"] = AttributeValue::SS({"b", "a"});
  item["ns"] = AttributeValue::NS({*Number::Parse("-1.5"), *Number::Parse("1E+3")});
  item["bs"] = AttributeValue::BS({"x", std::string("\0", 1)});
  item["l"] = AttributeValue::L({AttributeValue::S("é\n\"q\""), Num("0.001")});
  item["m"] = AttributeValue::M(
      {{"inner", AttributeValue::M({{"n", Num("-0")}})}, {"empty", AttributeValue::S("")}});
  return item;
}

inline Capacity Units(double read, double write) {
  Capacity c;
  c.AddRead(read);
  c.AddWrite(write);
  return c;
}

// ReturnConsumedCapacity TOTAL: the table and the total only.
inline ConsumedCapacity Total(const char* table, double units) {
  ConsumedCapacity c;
  c.table_name = table;
  c.total.capacity_units = units;
  return c;
}

// ReturnConsumedCapacity INDEXES: the table and both kinds of index.
inline ConsumedCapacity WithIndexes(const char* table) {
  ConsumedCapacity c;
  c.table_name = table;
  c.total = Units(2.5, 3);
  c.table = Units(0.5, 1);
  c.global_indexes["byStatus"] = Units(1, 1);
  c.global_indexes["byOwner"] = Units(0, 1);
  c.local_indexes["byDate"] = Units(1, 0);
  return c;
}

// encode(r) as text, read back by `decode`, encoded again: the same text. Returns the decoded
// value for further checks.
template <typename T, typename Decode, typename Encode>
T ExpectRoundTrip(const T& r, Decode decode, Encode encode) {
  const std::string first = json::Write(encode(r));
  Result<json::Value> wire = json::Parse(first);
  EXPECT_TRUE(wire.ok()) << first;
  if (!wire.ok()) return T();
  Result<T> back = decode(*wire);
  EXPECT_TRUE(back.ok()) << back.status().ToString() << "\n" << first;
  if (!back.ok()) return T();
  EXPECT_EQ(json::Write(encode(*back)), first);
  return std::move(back).value();
}

// Decodes `text`, expecting success.
template <typename T>
T Decoded(Result<T> (*decode)(const json::Value&), std::string_view text) {
  Result<json::Value> v = json::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  if (!v.ok()) return T();
  Result<T> r = decode(*v);
  EXPECT_TRUE(r.ok()) << r.status().ToString() << "\n" << text;
  return r.ok() ? std::move(r).value() : T();
}

// The message of the InternalServerError `decode` gives for `text` ("<decoded>" on success).
template <typename T>
std::string Malformed(Result<T> (*decode)(const json::Value&), std::string_view text) {
  Result<json::Value> v = json::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  if (!v.ok()) return "<not JSON>";
  Result<T> r = decode(*v);
  if (r.ok()) return "<decoded>";
  EXPECT_EQ(r.status().code(), ErrorCode::kInternalServerError) << r.status().ToString();
  return r.status().message();
}

}  // namespace keyhole::testing
