// Helpers shared by the api/api_json.h tests: parse JSON text, decode expecting success or a
// ValidationException, and read an item from DynamoDB JSON text.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

#include "api/api_json.h"
#include "core/ddb_json.h"

namespace keyhole::testing {

inline json::Value J(std::string_view text) {
  Result<json::Value> v = json::Parse(text);
  EXPECT_TRUE(v.ok()) << text << " -> " << v.status().ToString();
  return v.ok() ? std::move(v).value() : json::Value();
}

// Decodes `text` with `decode`, expecting success.
template <typename T>
T Ok(Result<T> (*decode)(const json::Value&), std::string_view text) {
  Result<T> r = decode(J(text));
  EXPECT_TRUE(r.ok()) << text << " -> " << r.status().ToString();
  return r.ok() ? std::move(r).value() : T();
}

// The ValidationException message `decode` gives for `text` ("<decoded>" when it succeeds);
// for a SerializationException (a member of the wrong JSON type), the hint that names the
// member in botocore's words (ApiJsonErrors.SerializationMessages checks DynamoDB's own).
template <typename T>
std::string Err(Result<T> (*decode)(const json::Value&), std::string_view text) {
  Result<T> r = decode(J(text));
  if (r.ok()) return "<decoded>";
  if (r.status().code() == ErrorCode::kSerialization) return r.status().hint();
  EXPECT_TRUE(r.status().IsValidation()) << r.status().ToString();
  return r.status().message();
}

inline Item ItemOf(std::string_view text) {
  Result<Item> item = ItemFromJsonText(text);
  EXPECT_TRUE(item.ok()) << item.status().ToString();
  return item.ok() ? std::move(item).value() : Item();
}

}  // namespace keyhole::testing
