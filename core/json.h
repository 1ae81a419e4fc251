// A small, strict JSON reader and writer (RFC 8259).
//
// keyhole needs JSON for DynamoDB JSON (values, items, requests), the catalog and plain-JSON
// import/export. Numbers are kept as their source text so that no precision is lost (DynamoDB
// numbers have 38 digits); objects keep member order and reject nothing but malformed text
// (duplicate member names are kept; callers decide). Strings hold UTF-8; \u escapes including
// surrogate pairs are decoded, and invalid UTF-8 in input is an error.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace keyhole::json {

// kRaw is never parsed: it is text already written (Value::Raw), for responses only.
enum class Kind : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject, kRaw };

class Value {
 public:
  using Array = std::vector<Value>;
  using Member = std::pair<std::string, Value>;
  using Object = std::vector<Member>;

  Value() = default;  // null
  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Number(std::string text);  // REQUIRES: valid JSON number text
  static Value Int(int64_t v);
  static Value String(std::string s);
  static Value MakeArray(Array a = {});
  static Value MakeObject(Object o = {});
  // `text` written out as it is by Write: a response's part that was written straight from its
  // source (an item from its stored encoding) instead of being built as a tree. REQUIRES: `text`
  // is exactly one valid JSON value. Readers of a tree see kind kRaw and nothing inside it.
  static Value Raw(std::string text);

  Kind kind() const { return kind_; }
  bool IsNull() const { return kind_ == Kind::kNull; }
  bool IsBool() const { return kind_ == Kind::kBool; }
  bool IsNumber() const { return kind_ == Kind::kNumber; }
  bool IsString() const { return kind_ == Kind::kString; }
  bool IsArray() const { return kind_ == Kind::kArray; }
  bool IsObject() const { return kind_ == Kind::kObject; }

  // REQUIRES: the matching kind.
  bool boolean() const { return bool_; }
  const std::string& number_text() const { return str_; }
  const std::string& str() const { return str_; }  // also kRaw's text
  std::string& str() { return str_; }              // for moving the string out
  const Array& array() const { return array_; }
  Array& array() { return array_; }
  const Object& object() const { return object_; }
  Object& object() { return object_; }

  // First member named `key`, or nullptr. REQUIRES: IsObject().
  const Value* Find(std::string_view key) const;
  // Appends a member. REQUIRES: IsObject().
  void Add(std::string key, Value v);
  // Appends an element. REQUIRES: IsArray().
  void Push(Value v);

  bool operator==(const Value& o) const = default;

 private:
  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  std::string str_;  // number text or string
  Array array_;
  Object object_;
};

// Parses exactly one JSON value (surrounding whitespace allowed). Nesting deeper than
// `max_depth` is an error, so hostile input cannot overflow the stack. On error returns
// ValidationException "Invalid JSON: <what> at line L, column C" (lines count '\n'; columns
// count UTF-8 characters from 1). A byte order mark is rejected.
Result<Value> Parse(std::string_view text, int max_depth = 256);
// `text` with every byte that does not start a well-formed UTF-8 sequence replaced by U+FFFD,
// for messages that quote what a client sent outside JSON (an HTTP header): Write passes
// strings through byte for byte, so only valid UTF-8 may reach it.
std::string ToValidUtf8(std::string_view text);
// Whether `s` (from Parse) is the error of nesting deeper than max_depth.
bool IsDepthError(const Status& s);

// Reads JSON text piece by piece, for callers that build their own structures straight from
// the text instead of a Value tree (a fast path beside Parse: DynamoDB JSON items in a read
// response, core/ddb_json.h). Each Read* reads exactly what Parse accepts for that construct
// and returns true, or returns false; after a false the position is unspecified, and the caller
// is expected to parse the whole text again with Parse, for the exact error. Whitespace before
// a construct is skipped.
class TextReader {
 public:
  explicit TextReader(std::string_view text) : text_(text) {}

  // The next byte after whitespace, or '\0' at the end of the text (not advancing past it).
  char Peek();
  // Skips whitespace, then `c` if it is next: whether it was.
  bool Consume(char c);
  bool AtEnd();  // nothing but whitespace left
  // A string literal, decoded into *out (replacing it).
  bool ReadString(std::string* out);
  // `true` or `false`.
  bool ReadBool(bool* out);
  // Any value into *out, containers nested at most `max_depth` deep.
  bool ReadValue(Value* out, int max_depth = 256);

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

// Compact serialization (no spaces), strings escaped per RFC 8259: '"' and '\\' escaped, \b \f \n
// \r \t as those short escapes, other control characters (U+0000..U+001F) as \u00xx (lowercase
// hex); everything else, including non-ASCII UTF-8 and DEL, passed through byte for byte.
std::string Write(const Value& v);
// For people to read: a container that fits on one line within `width` columns is written on
// it (", " and ": " between members), else one member per line, indented by two spaces a level.
// Strings as Write escapes them. Ends with a newline.
std::string WriteIndented(const Value& v, size_t width = 100);
// Appends the JSON string literal for `s` (with quotes) to *out.
void AppendQuoted(std::string_view s, std::string* out);

}  // namespace keyhole::json
