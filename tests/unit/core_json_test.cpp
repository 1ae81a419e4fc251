// Tests for core/json.h: the strict RFC 8259 reader and the compact writer.
#include "core/json.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace keyhole::json {
namespace {

Value ParseOk(std::string_view text) {
  Result<Value> r = Parse(text);
  EXPECT_TRUE(r.ok()) << text << " -> " << r.status().ToString();
  return r.ok() ? std::move(r).value() : Value();
}

// The error message for `text`, checking it is a ValidationException.
std::string ParseError(std::string_view text, int max_depth = 256) {
  Result<Value> r = Parse(text, max_depth);
  if (r.ok()) return "<parsed: " + Write(r.value()) + ">";
  EXPECT_TRUE(r.status().IsValidation()) << r.status().ToString();
  return r.status().message();
}

TEST(CoreJsonParseTest, Literals) {
  EXPECT_TRUE(ParseOk("null").IsNull());
  Value t = ParseOk("true");
  ASSERT_TRUE(t.IsBool());
  EXPECT_TRUE(t.boolean());
  Value f = ParseOk("false");
  ASSERT_TRUE(f.IsBool());
  EXPECT_FALSE(f.boolean());
}

TEST(CoreJsonParseTest, NumbersKeepTheirSourceText) {
  for (const char* text :
       {"0", "-0", "1", "-1", "10", "1.5", "-0.25", "0.000", "1e5", "1E5", "1e+5", "1e-5",
        "-12.5E-07", "12345678901234567890123456789012345678",
        "99999999999999999999999999999999999999999999999999.000000000000000000001", "1e400",
        "123456789012345678901234567890123456789e-999999999999"}) {
    Value v = ParseOk(text);
    ASSERT_TRUE(v.IsNumber()) << text;
    EXPECT_EQ(v.number_text(), text);
  }
}

TEST(CoreJsonParseTest, SurroundingWhitespace) {
  Value v = ParseOk(" \t\r\n [ 1 , \"a\" ,\n{ \"k\" : null } ] \n\t ");
  ASSERT_TRUE(v.IsArray());
  ASSERT_EQ(v.array().size(), 3u);
  EXPECT_EQ(v.array()[0].number_text(), "1");
  EXPECT_EQ(v.array()[1].str(), "a");
  ASSERT_TRUE(v.array()[2].IsObject());
  EXPECT_TRUE(v.array()[2].Find("k")->IsNull());
}

TEST(CoreJsonParseTest, EmptyContainers) {
  Value a = ParseOk("[]");
  ASSERT_TRUE(a.IsArray());
  EXPECT_TRUE(a.array().empty());
  Value o = ParseOk("{ }");
  ASSERT_TRUE(o.IsObject());
  EXPECT_TRUE(o.object().empty());
  EXPECT_EQ(o.Find("x"), nullptr);
}

TEST(CoreJsonParseTest, ObjectsKeepOrderAndDuplicates) {
  Value v = ParseOk(R"({"b":1,"a":2,"b":3})");
  ASSERT_TRUE(v.IsObject());
  ASSERT_EQ(v.object().size(), 3u);
  EXPECT_EQ(v.object()[0].first, "b");
  EXPECT_EQ(v.object()[1].first, "a");
  EXPECT_EQ(v.object()[2].first, "b");
  ASSERT_NE(v.Find("b"), nullptr);
  EXPECT_EQ(v.Find("b")->number_text(), "1");  // the first one
  EXPECT_EQ(v.Find("a")->number_text(), "2");
  EXPECT_EQ(v.Find("c"), nullptr);
}

TEST(CoreJsonParseTest, NestedStructure) {
  Value v = ParseOk(R"({"a":[1,[2,{"b":[true,false,null]}]],"c":{"d":{}}})");
  EXPECT_EQ(Write(v), R"({"a":[1,[2,{"b":[true,false,null]}]],"c":{"d":{}}})");
  const Value* a = v.Find("a");
  ASSERT_NE(a, nullptr);
  const Value& inner = a->array()[1].array()[1];
  EXPECT_TRUE(inner.Find("b")->array()[0].boolean());
  EXPECT_TRUE(inner.Find("b")->array()[2].IsNull());
}

TEST(CoreJsonParseTest, SimpleEscapes) {
  Value v = ParseOk(R"("q\"b\\s\/b\bf\fn\nr\rt\t")");
  EXPECT_EQ(v.str(), "q\"b\\s/b\bf\fn\nr\rt\t");
}

TEST(CoreJsonParseTest, UnicodeEscapes) {
  EXPECT_EQ(ParseOk(R"("\u0041")").str(), "A");
  EXPECT_EQ(ParseOk(R"("\u00e9\u00E9")").str(), "\xC3\xA9\xC3\xA9");  // é é
  EXPECT_EQ(ParseOk(R"("\u20AC")").str(), "\xE2\x82\xAC");            // €
  EXPECT_EQ(ParseOk(R"("\uFFFF")").str(), "\xEF\xBF\xBF");
  EXPECT_EQ(ParseOk(R"("\ud83d\ude00")").str(), "\xF0\x9F\x98\x80");  // 😀, a surrogate pair
  EXPECT_EQ(ParseOk(R"("\uDBFF\uDFFF")").str(), "\xF4\x8F\xBF\xBF");  // U+10FFFF
  EXPECT_EQ(ParseOk(R"("\uD800\uDC00")").str(), "\xF0\x90\x80\x80");  // U+10000
  EXPECT_EQ(ParseOk(R"("a\u0000b")").str(), std::string("a\0b", 3));
  EXPECT_EQ(ParseOk(R"("\u007f\u0080\u07FF\u0800")").str(), "\x7F\xC2\x80\xDF\xBF\xE0\xA0\x80");
}

TEST(CoreJsonParseTest, RawUtf8PassesThrough) {
  const std::string s = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xED\x9F\xBF \xEE\x80\x80";
  EXPECT_EQ(ParseOk("\"" + s + "\"").str(), s);
  // Member names are strings too.
  Value o = ParseOk("{\"" + s + "\":1}");
  EXPECT_EQ(o.object()[0].first, s);
}

TEST(CoreJsonParseTest, NulBytesOutsideStringsAreErrors) {
  EXPECT_EQ(ParseError(std::string("1\0", 2)),
            "Invalid JSON: unexpected control character U+0000 after the JSON value at line 1, "
            "column 2");
  EXPECT_EQ(ParseError(std::string("\"a\0\"", 4)),
            "Invalid JSON: unescaped control character U+0000 in string at line 1, column 3");
  // The view ends before a NUL that follows it.
  const char text[] = "[1]\0garbage";
  EXPECT_TRUE(Parse(std::string_view(text, 3)).ok());
}

struct ErrorCase {
  std::string text;
  std::string message;
};

TEST(CoreJsonParseTest, MalformedInputGivesExactErrors) {
  const std::vector<ErrorCase> cases = {
      {"", "unexpected end of input at line 1, column 1"},
      {"   \n  ", "unexpected end of input at line 2, column 3"},
      {"nul", "invalid literal (expected 'null') at line 1, column 1"},
      {"tru", "invalid literal (expected 'true') at line 1, column 1"},
      {"[fals]", "invalid literal (expected 'false') at line 1, column 2"},
      {"True", "unexpected character 'T' at line 1, column 1"},
      {"NaN", "unexpected character 'N' at line 1, column 1"},
      {"Infinity", "unexpected character 'I' at line 1, column 1"},
      {"undefined", "unexpected character 'u' at line 1, column 1"},
      {"'a'", "unexpected character ''' at line 1, column 1"},
      {"truex", "unexpected character 'x' after the JSON value at line 1, column 5"},
      {"1 2", "unexpected character '2' after the JSON value at line 1, column 3"},
      {"{} {}", "unexpected character '{' after the JSON value at line 1, column 4"},
      {"[1]]", "unexpected character ']' after the JSON value at line 1, column 4"},
      // Numbers.
      {"+1", "unexpected character '+' at line 1, column 1"},
      {".5", "unexpected character '.' at line 1, column 1"},
      {"-", "invalid number (expected a digit after '-') at line 1, column 1"},
      {"-a", "invalid number (expected a digit after '-') at line 1, column 1"},
      {"[-.5]", "invalid number (expected a digit after '-') at line 1, column 2"},
      {"01", "invalid number (leading zeros are not allowed) at line 1, column 1"},
      {"-00", "invalid number (leading zeros are not allowed) at line 1, column 1"},
      {"1.", "invalid number (expected a digit after '.') at line 1, column 1"},
      {"1.e5", "invalid number (expected a digit after '.') at line 1, column 1"},
      {"1e", "invalid number (expected a digit in the exponent) at line 1, column 1"},
      {"1e+", "invalid number (expected a digit in the exponent) at line 1, column 1"},
      {"[1E-x]", "invalid number (expected a digit in the exponent) at line 1, column 2"},
      {"0x10", "unexpected character 'x' after the JSON value at line 1, column 2"},
      {"1.5.2", "unexpected character '.' after the JSON value at line 1, column 4"},
      // Strings.
      {"\"abc", "unterminated string at line 1, column 1"},
      {"[\"abc\\", "unterminated string at line 1, column 2"},
      {"\"a\nb\"", "unescaped control character U+000A in string at line 1, column 3"},
      {"\"\t\"", "unescaped control character U+0009 in string at line 1, column 2"},
      {"\"\x1F\"", "unescaped control character U+001F in string at line 1, column 2"},
      {R"("\q")", "invalid escape sequence '\\q' at line 1, column 2"},
      {R"("\a")", "invalid escape sequence '\\a' at line 1, column 2"},
      {R"("\x41")", "invalid escape sequence '\\x' at line 1, column 2"},
      {R"("\')", "invalid escape sequence '\\'' at line 1, column 2"},
      {"\"\\\x01\"",
       "invalid escape sequence (backslash followed by control character U+0001) at line 1, "
       "column 2"},
      {R"("\u12")", "invalid \\u escape (expected four hex digits) at line 1, column 2"},
      {R"("\u12G4")", "invalid \\u escape (expected four hex digits) at line 1, column 2"},
      {R"("\U0041")", "invalid escape sequence '\\U' at line 1, column 2"},
      {R"("\u")", "invalid \\u escape (expected four hex digits) at line 1, column 2"},
      {R"("ab\ud800")", "unpaired surrogate \\uD800 in string at line 1, column 4"},
      {R"("\uDBFFx")", "unpaired surrogate \\uDBFF in string at line 1, column 2"},
      {R"("\ud800\u0041")", "unpaired surrogate \\uD800 in string at line 1, column 2"},
      {R"("\ud800\ud800")", "unpaired surrogate \\uD800 in string at line 1, column 2"},
      {R"("\ud800\n")", "unpaired surrogate \\uD800 in string at line 1, column 2"},
      {R"("\ud800\uZZZZ")", "invalid \\u escape (expected four hex digits) at line 1, column 8"},
      {R"("\udc00")", "unpaired surrogate \\uDC00 in string at line 1, column 2"},
      {R"("\uDFFF\uD800")", "unpaired surrogate \\uDFFF in string at line 1, column 2"},
      // Invalid UTF-8 inside strings.
      {"\"\x80\"", "invalid UTF-8 in string at line 1, column 2"},
      {"\"\xBF\"", "invalid UTF-8 in string at line 1, column 2"},
      {"\"\xC0\xAF\"", "invalid UTF-8 in string at line 1, column 2"},          // overlong '/'
      {"\"\xC1\xBF\"", "invalid UTF-8 in string at line 1, column 2"},          // overlong
      {"\"\xE0\x80\xAF\"", "invalid UTF-8 in string at line 1, column 2"},      // overlong
      {"\"\xF0\x80\x80\xAF\"", "invalid UTF-8 in string at line 1, column 2"},  // overlong
      {"\"\xED\xA0\x80\"", "invalid UTF-8 in string at line 1, column 2"},      // U+D800
      {"\"\xED\xBF\xBF\"", "invalid UTF-8 in string at line 1, column 2"},      // U+DFFF
      {"\"\xF4\x90\x80\x80\"", "invalid UTF-8 in string at line 1, column 2"},  // > U+10FFFF
      {"\"\xF5\x80\x80\x80\"", "invalid UTF-8 in string at line 1, column 2"},
      {"\"\xFF\"", "invalid UTF-8 in string at line 1, column 2"},
      {"\"\xFE\"", "invalid UTF-8 in string at line 1, column 2"},
      {"\"\xC3\"", "invalid UTF-8 in string at line 1, column 2"},              // truncated
      {"\"\xE2\x82\"", "invalid UTF-8 in string at line 1, column 2"},          // truncated
      {"\"\xF0\x9F\x98\"", "invalid UTF-8 in string at line 1, column 2"},      // truncated
      {"\"ab\xC3\x28\"", "invalid UTF-8 in string at line 1, column 4"},        // bad continuation
      {"\"\xC3\xA9\xE2\x82\"", "invalid UTF-8 in string at line 1, column 3"},  // after "é"
      {"\"\xC3", "invalid UTF-8 in string at line 1, column 2"},  // truncated at end of input
      // Non-ASCII outside strings.
      {"\xC3\xA9", "unexpected character '\xC3\xA9' at line 1, column 1"},
      {"\xE2\x80\x9C"
       "a\xE2\x80\x9D",
       "unexpected character '\xE2\x80\x9C' at line 1, column 1"},
      {"\xFF", "unexpected byte 0xFF (invalid UTF-8) at line 1, column 1"},
      {"\xEF\xBB\xBF{}", "byte order mark (U+FEFF) is not allowed at line 1, column 1"},
      {"\x7F", "unexpected control character U+007F at line 1, column 1"},
      {"\x0C 1", "unexpected control character U+000C at line 1, column 1"},  // form feed
      // Arrays.
      {"[", "unexpected end of input at line 1, column 2"},
      {"[1", "unexpected end of input (expected ',' or ']') at line 1, column 3"},
      {"[1,", "unexpected end of input at line 1, column 4"},
      {"[1,]", "trailing comma in array at line 1, column 3"},
      {"[1 , \n ]", "trailing comma in array at line 1, column 4"},
      {"[,1]", "unexpected character ',' at line 1, column 2"},
      {"[1,,2]", "unexpected character ',' at line 1, column 4"},
      {"[1 2]", "expected ',' or ']' but found character '2' at line 1, column 4"},
      {"[1:2]", "expected ',' or ']' but found character ':' at line 1, column 3"},
      {"[1}", "expected ',' or ']' but found character '}' at line 1, column 3"},
      {"]", "unexpected character ']' at line 1, column 1"},
      // Objects.
      {"{", "unexpected end of input (expected a member name) at line 1, column 2"},
      {"{\"a\"", "unexpected end of input (expected ':') at line 1, column 5"},
      {"{\"a\":", "unexpected end of input at line 1, column 6"},
      {"{\"a\":1", "unexpected end of input (expected ',' or '}') at line 1, column 7"},
      {"{\"a\":1,", "unexpected end of input (expected a member name) at line 1, column 8"},
      {"{\"a\":1,}", "trailing comma in object at line 1, column 7"},
      {"{a:1}",
       "expected a member name in double quotes but found character 'a' at line 1, column 2"},
      {"{'a':1}",
       "expected a member name in double quotes but found character ''' at line 1, column 2"},
      {"{1:1}",
       "expected a member name in double quotes but found character '1' at line 1, column 2"},
      {"{\"a\" 1}", "expected ':' but found character '1' at line 1, column 6"},
      {"{\"a\"=1}", "expected ':' but found character '=' at line 1, column 5"},
      {"{\"a\":1 \"b\":2}", "expected ',' or '}' but found character '\"' at line 1, column 8"},
      {"{\"a\":1]", "expected ',' or '}' but found character ']' at line 1, column 7"},
      {"{\"a\"::1}", "unexpected character ':' at line 1, column 6"},
      {"{,}",
       "expected a member name in double quotes but found character ',' at line 1, column 2"},
      {"{\"a\":}", "unexpected character '}' at line 1, column 6"},
      {"{\"a\\x\":1}", "invalid escape sequence '\\x' at line 1, column 4"},
      // Comments are not JSON.
      {"[1] // c", "unexpected character '/' after the JSON value at line 1, column 5"},
      {"/* c */ 1", "unexpected character '/' at line 1, column 1"},
  };
  for (const ErrorCase& c : cases) {
    EXPECT_EQ(ParseError(c.text), "Invalid JSON: " + c.message) << "input: " << c.text;
  }
}

TEST(CoreJsonParseTest, LinesAndColumns) {
  // Lines count '\n'; columns count characters (UTF-8 sequences), not bytes; "\r\n" is one line
  // break.
  EXPECT_EQ(ParseError("{\n  \"a\": 1,\n  \"b\": x\n}"),
            "Invalid JSON: unexpected character 'x' at line 3, column 8");
  EXPECT_EQ(ParseError("[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\", x]"),
            "Invalid JSON: unexpected character 'x' at line 1, column 9");
  EXPECT_EQ(ParseError("[1,\r\n2,\r\n?]"),
            "Invalid JSON: unexpected character '?' at line 3, column 1");
  EXPECT_EQ(ParseError("[\n\"abc"), "Invalid JSON: unterminated string at line 2, column 1");
  EXPECT_EQ(ParseError("[\n\"abc\n"),
            "Invalid JSON: unescaped control character U+000A in string at line 2, column 5");
}

TEST(CoreJsonParseTest, DepthLimit) {
  // Exactly max_depth containers nest; one more is an error at the bracket that exceeds it.
  std::string ok = std::string(256, '[') + std::string(256, ']');
  EXPECT_TRUE(Parse(ok).ok());
  std::string deep = std::string(257, '[') + std::string(257, ']');
  EXPECT_EQ(ParseError(deep),
            "Invalid JSON: nesting exceeds the maximum depth of 256 at line 1, column 257");
  EXPECT_EQ(ParseError("[[1]]", 1),
            "Invalid JSON: nesting exceeds the maximum depth of 1 at line 1, column 2");
  EXPECT_EQ(ParseError("{\"a\":{\"b\":[]}}", 2),
            "Invalid JSON: nesting exceeds the maximum depth of 2 at line 1, column 11");
  EXPECT_TRUE(Parse("{\"a\":{\"b\":1}}", 2).ok());
  // With a depth of 0 only scalars parse.
  EXPECT_TRUE(Parse("\"s\"", 0).ok());
  EXPECT_EQ(ParseError("[]", 0),
            "Invalid JSON: nesting exceeds the maximum depth of 0 at line 1, column 1");
}

TEST(CoreJsonParseTest, HostileNestingDoesNotCrash) {
  EXPECT_EQ(ParseError(std::string(100000, '[')),
            "Invalid JSON: nesting exceeds the maximum depth of 256 at line 1, column 257");
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  EXPECT_EQ(ParseError(objects),
            "Invalid JSON: nesting exceeds the maximum depth of 256 at line 1, column 1281");
  std::string mixed;
  for (int i = 0; i < 50000; ++i) mixed += "[{\"\":";
  EXPECT_EQ(ParseError(mixed),
            "Invalid JSON: nesting exceeds the maximum depth of 256 at line 1, column 641");
}

TEST(CoreJsonParseTest, LargeFlatInput) {
  std::string text = "[";
  for (int i = 0; i < 100000; ++i) {
    if (i > 0) text += ',';
    text += "{\"k\":\"v" + std::to_string(i) + "\",\"n\":" + std::to_string(i) + "}";
  }
  text += "]";
  Value v = ParseOk(text);
  ASSERT_EQ(v.array().size(), 100000u);
  EXPECT_EQ(v.array()[99999].Find("k")->str(), "v99999");
  EXPECT_EQ(Write(v), text);
}

TEST(CoreJsonValueTest, Factories) {
  EXPECT_TRUE(Value().IsNull());
  EXPECT_TRUE(Value::Null().IsNull());
  EXPECT_EQ(Value::Int(0).number_text(), "0");
  EXPECT_EQ(Value::Int(-42).number_text(), "-42");
  EXPECT_EQ(Value::Int(INT64_MIN).number_text(), "-9223372036854775808");
  EXPECT_EQ(Value::Int(INT64_MAX).number_text(), "9223372036854775807");
  EXPECT_EQ(Value::Number("1.50").number_text(), "1.50");
  EXPECT_EQ(Value::String("x").kind(), Kind::kString);
  EXPECT_EQ(Value::MakeArray().kind(), Kind::kArray);
  EXPECT_EQ(Value::MakeObject().kind(), Kind::kObject);

  Value o = Value::MakeObject();
  o.Add("a", Value::Int(1));
  o.Add("b", Value::MakeArray());
  o.object()[1].second.Push(Value::Bool(true));
  o.object()[1].second.Push(Value());
  EXPECT_EQ(Write(o), R"({"a":1,"b":[true,null]})");
  EXPECT_EQ(o, ParseOk(R"({"a":1,"b":[true,null]})"));
  EXPECT_NE(o, ParseOk(R"({"b":[true,null],"a":1})"));  // member order matters
  EXPECT_NE(Value::Number("1"), Value::String("1"));
}

TEST(CoreJsonWriteTest, Scalars) {
  EXPECT_EQ(Write(Value()), "null");
  EXPECT_EQ(Write(Value::Bool(true)), "true");
  EXPECT_EQ(Write(Value::Bool(false)), "false");
  EXPECT_EQ(Write(Value::Number("-1.5e+10")), "-1.5e+10");
  EXPECT_EQ(Write(Value::String("")), "\"\"");
  EXPECT_EQ(Write(Value::MakeArray()), "[]");
  EXPECT_EQ(Write(Value::MakeObject()), "{}");
}

TEST(CoreJsonWriteTest, Escaping) {
  EXPECT_EQ(Write(Value::String("a\"b\\c/d")), R"("a\"b\\c/d")");
  EXPECT_EQ(Write(Value::String("\b\f\n\r\t")), R"("\b\f\n\r\t")");
  EXPECT_EQ(Write(Value::String(std::string("\0\x01\x1F", 3))), R"("\u0000\u0001\u001f")");
  EXPECT_EQ(Write(Value::String("\x7F")), "\"\x7F\"");  // DEL is not a control character here
  const std::string utf8 = "caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x80\xA8";
  EXPECT_EQ(Write(Value::String(utf8)), "\"" + utf8 + "\"");
  Value o = Value::MakeObject();
  o.Add("k\"\n", Value::String("v"));
  EXPECT_EQ(Write(o), R"({"k\"\n":"v"})");

  std::string quoted = "prefix:";
  AppendQuoted("x\ty", &quoted);
  EXPECT_EQ(quoted, "prefix:\"x\\ty\"");
}

// AppendQuoted skips eight bytes at a time while none needs escaping: every byte value, at every
// position of a word and across words, is escaped exactly as one byte at a time would (the
// oracle below), in text that is otherwise plain.
TEST(CoreJsonWriteTest, QuotingAWordAtATimeEscapesEveryByteWhereItIs) {
  auto oracle = [](std::string_view s) {
    std::string out = "\"";
    for (unsigned char c : s) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (c < 0x20) {
            out += fmt::format("\\u{:04x}", c);
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    return out + "\"";
  };
  for (int b = 0; b < 256; ++b) {
    for (size_t at = 0; at < 19; ++at) {
      std::string s(19, 'a');
      s[at] = static_cast<char>(b);
      if (at + 9 < s.size()) s[at + 9] = static_cast<char>(b);  // a second one, a word later
      std::string quoted;
      AppendQuoted(s, &quoted);
      ASSERT_EQ(quoted, oracle(s)) << "byte " << b << " at " << at;
    }
  }
}

TEST(CoreJsonWriteTest, EveryControlCharacterRoundTrips) {
  std::string all;
  for (int c = 0; c < 0x80; ++c) all.push_back(static_cast<char>(c));
  const std::string text = Write(Value::String(all));
  for (char c : text) EXPECT_GE(static_cast<unsigned char>(c), 0x20) << "raw control in output";
  EXPECT_EQ(ParseOk(text).str(), all);
}

TEST(CoreJsonWriteTest, RoundTrips) {
  for (const char* text : {
           "null",
           "[true,false,null]",
           R"({"a":{"b":{"c":[1,-2.5,3e10,"x",{}]}},"":[[]],"a":0})",
           R"("\u0000\"\\\b\f\n\r\t\u001f")",
           "\"\xF0\x9F\x98\x80\xC3\xA9\"",
           "-0.0e-0",
       }) {
    Value v = ParseOk(text);
    EXPECT_EQ(Write(v), text);
    EXPECT_EQ(ParseOk(Write(v)), v);
  }
  // Escapes that have a shorter form come back in it.
  EXPECT_EQ(Write(ParseOk(R"("\u0041\/\u000a\u00e9")")), "\"A/\\n\xC3\xA9\"");
  EXPECT_EQ(Write(ParseOk(" [ 1 , { \"a\" : 2 } ] ")), R"([1,{"a":2}])");
}

TEST(CoreJsonText, ToValidUtf8ReplacesIllFormedBytes) {
  EXPECT_EQ(ToValidUtf8("plain é ✓"), "plain é ✓");
  EXPECT_EQ(ToValidUtf8("a\x80"
                        "b\xff"),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD");
  EXPECT_EQ(ToValidUtf8("\xE2\x9C"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // cut short
  // What it returns always writes and parses back.
  const std::string text = Write(Value::String(ToValidUtf8("x\xC0\xAF\x0b")));
  EXPECT_TRUE(Parse(text).ok()) << text;
}

}  // namespace
}  // namespace keyhole::json

namespace keyhole::json {
namespace {

// WriteIndented: what fits in the width on one line, the rest a member per line; parses back to
// the same value.
TEST(CoreJsonWriteIndentedTest, FitsOnALineOrBreaks) {
  Result<Value> v = Parse(R"({"a": [1, 2], "b": {"c": "x\n"}, "e": [], "f": {}})");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(WriteIndented(*v), "{\"a\": [1, 2], \"b\": {\"c\": \"x\\n\"}, \"e\": [], \"f\": {}}\n");
  EXPECT_EQ(WriteIndented(*v, 20),
            "{\n"
            "  \"a\": [1, 2],\n"
            "  \"b\": {\"c\": \"x\\n\"},\n"
            "  \"e\": [],\n"
            "  \"f\": {}\n"
            "}\n");
  EXPECT_EQ(WriteIndented(*v, 8),
            "{\n"
            "  \"a\": [\n"
            "    1,\n"
            "    2\n"
            "  ],\n"
            "  \"b\": {\n"
            "    \"c\": \"x\\n\"\n"
            "  },\n"
            "  \"e\": [],\n"
            "  \"f\": {}\n"
            "}\n");
  for (size_t width : {0, 8, 20, 100}) {
    Result<Value> back = Parse(WriteIndented(*v, width));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(Write(*back), Write(*v));
  }
}

}  // namespace
}  // namespace keyhole::json
