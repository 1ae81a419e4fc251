// Tests for core/ddb_json.h: DynamoDB JSON <-> AttributeValue / Item, and base64.
#include "core/ddb_json.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace keyhole {
namespace {

AttributeValue ValueOk(std::string_view text) {
  Result<json::Value> j = json::Parse(text);
  EXPECT_TRUE(j.ok()) << text << " -> " << j.status().ToString();
  if (!j.ok()) return AttributeValue();
  Result<AttributeValue> v = ValueFromJson(j.value());
  EXPECT_TRUE(v.ok()) << text << " -> " << v.status().ToString();
  return v.ok() ? std::move(v).value() : AttributeValue();
}

// The ValidationException message ValueFromJson gives for `text`.
std::string ValueError(std::string_view text) {
  Result<json::Value> j = json::Parse(text);
  if (!j.ok()) return "<bad JSON: " + j.status().message() + ">";
  Result<AttributeValue> v = ValueFromJson(j.value());
  if (v.ok()) return "<decoded: " + ValueToJsonText(v.value()) + ">";
  EXPECT_TRUE(v.status().IsValidation() || v.status().code() == ErrorCode::kSerialization)
      << v.status().ToString();
  return v.status().message();
}

std::string ItemError(std::string_view text) {
  Result<Item> item = ItemFromJsonText(text);
  if (item.ok()) return "<decoded: " + ItemToJsonText(item.value()) + ">";
  EXPECT_TRUE(item.status().IsValidation() || item.status().code() == ErrorCode::kSerialization)
      << item.status().ToString();
  return item.status().message();
}

// Text -> value -> text.
std::string Canonical(std::string_view text) { return ValueToJsonText(ValueOk(text)); }

Number Num(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? n.value() : Number();
}

// ---------------------------------------------------------------------------------------------
// Decoding each type

TEST(CoreDdbJsonDecodeTest, Scalars) {
  EXPECT_EQ(ValueOk(R"({"S":"hello"})"), AttributeValue::S("hello"));
  EXPECT_EQ(ValueOk(R"({"S":""})"), AttributeValue::S(""));
  EXPECT_EQ(ValueOk(R"({"N":"42"})"), AttributeValue::N(Num("42")));
  EXPECT_EQ(ValueOk(R"({"B":"AAEC"})"), AttributeValue::B(std::string("\0\1\2", 3)));
  EXPECT_EQ(ValueOk(R"({"B":""})"), AttributeValue::B(""));
  EXPECT_EQ(ValueOk(R"({"BOOL":true})"), AttributeValue::Bool(true));
  EXPECT_EQ(ValueOk(R"({"BOOL":false})"), AttributeValue::Bool(false));
  EXPECT_EQ(ValueOk(R"({"NULL":true})"), AttributeValue::Null());
}

TEST(CoreDdbJsonDecodeTest, Documents) {
  AttributeValue v = ValueOk(R"({"M":{"b":{"L":[{"N":"1"},{"S":"x"},{"L":[]}]},"a":{"M":{}}}})");
  ASSERT_TRUE(v.is(ValueType::kM));
  ASSERT_EQ(v.m().size(), 2u);
  EXPECT_EQ(v.m().at("a"), AttributeValue::M({}));
  const AttributeValue& b = v.m().at("b");
  ASSERT_TRUE(b.is(ValueType::kL));
  ASSERT_EQ(b.l().size(), 3u);
  EXPECT_EQ(b.l()[0], AttributeValue::N(Num("1")));
  EXPECT_EQ(b.l()[1], AttributeValue::S("x"));
  EXPECT_EQ(b.l()[2], AttributeValue::L({}));
}

TEST(CoreDdbJsonDecodeTest, SetsAreOrderInsensitive) {
  EXPECT_EQ(ValueOk(R"({"SS":["b","a","c"]})"), ValueOk(R"({"SS":["c","b","a"]})"));
  EXPECT_EQ(ValueOk(R"({"NS":["10","-1","9"]})"), ValueOk(R"({"NS":["9","10","-1.0"]})"));
  EXPECT_EQ(ValueOk(R"({"BS":["Ag==","AQ=="]})"), ValueOk(R"({"BS":["AQ==","Ag=="]})"));
  EXPECT_NE(ValueOk(R"({"SS":["a","b"]})"), ValueOk(R"({"SS":["a","c"]})"));
  // Empty strings and binaries are allowed as members.
  EXPECT_EQ(ValueOk(R"({"SS":["","a"]})").strings(), (std::vector<std::string>{"", "a"}));
  EXPECT_EQ(ValueOk(R"({"BS":["","AA=="]})").strings(),
            (std::vector<std::string>{"", std::string(1, '\0')}));
}

TEST(CoreDdbJsonDecodeTest, NullMembersAreNotSet) {
  // keyhole follows DynamoDB's JSON protocol: a datatype whose value is JSON null is absent.
  EXPECT_EQ(ValueOk(R"({"S":null,"N":"1"})"), AttributeValue::N(Num("1")));
  EXPECT_EQ(ValueOk(R"({"BOOL":true,"NULL":null})"), AttributeValue::Bool(true));
}

TEST(CoreDdbJsonDecodeTest, UnicodeStrings) {
  AttributeValue v = ValueOk(R"({"S":"caf\u00e9 \ud83d\ude00 \u20ac \" \\ \n"})");
  EXPECT_EQ(v.s(), "caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x82\xAC \" \\ \n");
  // Raw UTF-8 comes out raw; only what JSON requires is escaped.
  EXPECT_EQ(ValueToJsonText(v),
            "{\"S\":\"caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x82\xAC \\\" \\\\ \\n\"}");
  EXPECT_EQ(Canonical("{\"S\":\"\xE4\xB8\xAD\xE6\x96\x87\"}"),
            "{\"S\":\"\xE4\xB8\xAD\xE6\x96\x87\"}");
  EXPECT_EQ(Canonical(R"({"S":"\u0001\u001F\u007f"})"), "{\"S\":\"\\u0001\\u001f\x7F\"}");
}

// ---------------------------------------------------------------------------------------------
// Numbers

TEST(CoreDdbJsonNumberTest, KeptExactAndCanonical) {
  EXPECT_EQ(Canonical(R"({"N":"12345678901234567890123456789012345678"})"),
            R"({"N":"12345678901234567890123456789012345678"})");
  EXPECT_EQ(Canonical(R"({"N":"-0.12345678901234567890123456789012345678"})"),
            R"({"N":"-0.12345678901234567890123456789012345678"})");
  EXPECT_EQ(Canonical(R"({"N":"9.9999999999999999999999999999999999999E+125"})"),
            R"({"N":"99999999999999999999999999999999999999)" + std::string(88, '0') + "\"}");
  EXPECT_EQ(Canonical(R"({"N":"1E-130"})"), R"({"N":"0.)" + std::string(129, '0') + "1\"}");
  EXPECT_EQ(Canonical(R"({"N":"0042.1200"})"), R"({"N":"42.12"})");
  EXPECT_EQ(Canonical(R"({"N":"1E125"})"), R"({"N":"1)" + std::string(125, '0') + "\"}");
  EXPECT_EQ(Canonical(R"({"N":"+3"})"), R"({"N":"3"})");
  EXPECT_EQ(Canonical(R"({"N":".123"})"), R"({"N":"0.123"})");
  EXPECT_EQ(Canonical(R"({"N":"-17.4E37"})"), R"({"N":"-174)" + std::string(36, '0') + "\"}");
  EXPECT_EQ(Canonical(R"({"N":"-0"})"), R"({"N":"0"})");
  EXPECT_EQ(Canonical(R"({"NS":["1e2","-0.5","3"]})"), R"({"NS":["-0.5","3","100"]})");
}

TEST(CoreDdbJsonNumberTest, Errors) {
  EXPECT_EQ(ValueError(R"({"N":"12345678901234567890123456789012345678 9"})"),
            "The parameter cannot be converted to a numeric value: "
            "12345678901234567890123456789012345678 9");
  EXPECT_EQ(ValueError(R"({"N":"123456789012345678901234567890123456789"})"),
            "Attempting to store more than 38 significant digits in a Number");
  EXPECT_EQ(ValueError(R"({"N":"1E126"})"),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
  EXPECT_EQ(ValueError(R"({"N":"1E-131"})"),
            "Number underflow. Attempting to store a number with magnitude smaller than "
            "supported range");
  EXPECT_EQ(ValueError(R"({"N":"NaN"})"),
            "The parameter cannot be converted to a numeric value: NaN");
  EXPECT_EQ(ValueError(R"({"N":" 1"})"),
            "The parameter cannot be converted to a numeric value:  1");
  EXPECT_EQ(ValueError(R"({"N":""})"), "The parameter cannot be converted to a numeric value: ");
  EXPECT_EQ(ValueError(R"({"NS":["1","x"]})"),
            "The parameter cannot be converted to a numeric value: x");
  EXPECT_EQ(ValueError(R"({"NS":[""]})"), "The parameter cannot be converted to a numeric value: ");
  EXPECT_EQ(ValueError(R"({"L":[{"N":"1e999"}]})"),
            "Number overflow. Attempting to store a number with magnitude larger than supported "
            "range");
}

// ---------------------------------------------------------------------------------------------
// Binary and base64

TEST(CoreDdbJsonBase64Test, Rfc4648Vectors) {
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [raw, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(raw), encoded);
    std::string decoded = "junk";
    ASSERT_TRUE(Base64Decode(encoded, &decoded)) << encoded;
    EXPECT_EQ(decoded, raw);
  }
  EXPECT_EQ(Base64Encode("\xFB\xFF\xBF"), "+/+/");
}

TEST(CoreDdbJsonBase64Test, RejectsAllButCanonicalPaddedBase64) {
  for (const char* bad : {
           "Zg",           // no padding
           "Zg=",          // short padding
           "Zm9",          // length not a multiple of 4
           "Zh==",         // non-zero pad bits (not canonical)
           "Zm9=",         // "Zm8=" is the canonical form
           "Z===",         // too much padding
           "====",         // only padding
           "=Zm9",         // padding first
           "Zg==Zg==",     // padding in the middle
           "Zm=v",         // '=' inside a quantum
           "Zm9v\n",       // whitespace
           "Zm9 v",        // whitespace
           " Zm9v",        // whitespace
           "Zm9-",         // base64url alphabet
           "Zm9_",         // base64url alphabet
           "Zm9v!",        // junk
           "Zm9\xC3\xA9",  // non-ASCII
       }) {
    std::string out = "untouched";
    EXPECT_FALSE(Base64Decode(bad, &out)) << bad;
    EXPECT_EQ(out, "untouched") << bad;
  }
  std::string out;
  EXPECT_FALSE(Base64Decode(std::string_view("AA=\0", 4), &out));
  EXPECT_FALSE(Base64Decode(std::string_view("A\0==", 4), &out));
}

TEST(CoreDdbJsonBase64Test, EveryByteValueAndLengthRoundTrips) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t len = 0; len <= all.size(); ++len) {
    for (size_t start : {size_t{0}, all.size() - len}) {
      const std::string raw = all.substr(start, len);
      const std::string encoded = Base64Encode(raw);
      EXPECT_EQ(encoded.size(), (len + 2) / 3 * 4);
      std::string decoded;
      ASSERT_TRUE(Base64Decode(encoded, &decoded)) << encoded;
      EXPECT_EQ(decoded, raw);
    }
  }
}

TEST(CoreDdbJsonBinaryTest, AllByteValuesRoundTrip) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  const AttributeValue b = AttributeValue::B(all);
  const std::string text = ValueToJsonText(b);
  EXPECT_EQ(text, "{\"B\":\"" + Base64Encode(all) + "\"}");
  EXPECT_EQ(ValueOk(text), b);

  // A binary set of every single byte: sorted unsigned, so 0x00 first and 0xFF last.
  std::vector<std::string> members;
  for (int i = 255; i >= 0; --i) members.push_back(std::string(1, static_cast<char>(i)));
  const AttributeValue bs = AttributeValue::BS(members);
  const std::string bs_text = ValueToJsonText(bs);
  EXPECT_TRUE(bs_text.starts_with(R"({"BS":["AA==","AQ==",)")) << bs_text;
  EXPECT_TRUE(bs_text.ends_with(R"(,"/g==","/w=="]})")) << bs_text;
  EXPECT_EQ(ValueOk(bs_text), bs);
}

// ---------------------------------------------------------------------------------------------
// Encoding and round trips

TEST(CoreDdbJsonEncodeTest, EveryTypeRoundTrips) {
  // Each text is canonical: decoding then encoding gives it back unchanged.
  for (const char* text : {
           R"({"S":"text"})",
           R"({"S":""})",
           R"({"N":"-12.5"})",
           R"({"N":"0"})",
           R"({"B":"3q2+7w=="})",
           R"({"BOOL":true})",
           R"({"BOOL":false})",
           R"({"NULL":true})",
           R"({"M":{}})",
           R"({"M":{"":{"S":"empty key"},"a":{"N":"1"},"b":{"NULL":true}}})",
           R"({"L":[]})",
           R"({"L":[{"S":"a"},{"N":"1"},{"L":[{"BOOL":false}]},{"M":{"x":{"SS":["y"]}}}]})",
           R"({"SS":["","A","a","b","\u00e9"]})",
           R"({"NS":["-100","-1.5","0","0.001","2","10"]})",
           R"({"BS":["","AA==","AAA=","AQ==","/w=="]})",
       }) {
    AttributeValue v = ValueOk(text);
    // \u00e9 is written back as raw UTF-8.
    std::string expected = text;
    const size_t pos = expected.find("\\u00e9");
    if (pos != std::string::npos) expected.replace(pos, 6, "\xC3\xA9");
    EXPECT_EQ(ValueToJsonText(v), expected);
    EXPECT_EQ(json::Write(ValueToJson(v)), expected);
    EXPECT_EQ(ValueOk(ValueToJsonText(v)), v);
  }
}

TEST(CoreDdbJsonEncodeTest, OutputIsStable) {
  // Map keys sorted bytewise, sets sorted (SS/BS bytewise unsigned, NS numerically).
  EXPECT_EQ(Canonical(R"({"M":{"b":{"N":"2"},"a":{"N":"1"},"B":{"N":"0"},"\u00e9":{"N":"3"}}})"),
            "{\"M\":{\"B\":{\"N\":\"0\"},\"a\":{\"N\":\"1\"},\"b\":{\"N\":\"2\"},\"\xC3\xA9\":{"
            "\"N\":\"3\"}}}");
  EXPECT_EQ(Canonical(R"({"SS":["z","\u00bf","a","A"]})"),
            "{\"SS\":[\"A\",\"a\",\"z\",\"\xC2\xBF\"]}");
  EXPECT_EQ(Canonical(R"({"NS":["10","9","-1","1E2","0.5"]})"),
            R"({"NS":["-1","0.5","9","10","100"]})");
  EXPECT_EQ(Canonical(R"({"BS":["/w==","gA==","fw==","AA=="]})"),
            R"({"BS":["AA==","fw==","gA==","/w=="]})");
}

TEST(CoreDdbJsonEncodeTest, JsonTreeMatchesText) {
  const AttributeValue v = ValueOk(
      R"({"M":{"s":{"S":"a\"b"},"n":{"N":"1.50"},"b":{"B":"AQI="},"t":{"BOOL":true},)"
      R"("z":{"NULL":true},"l":{"L":[{"SS":["q","p"]},{"NS":["2","1"]},{"BS":["Ag==","AQ=="]}]}}})");
  const json::Value tree = ValueToJson(v);
  ASSERT_TRUE(tree.IsObject());
  ASSERT_EQ(tree.object().size(), 1u);
  EXPECT_EQ(tree.object()[0].first, "M");
  const json::Value* n = tree.object()[0].second.Find("n");
  ASSERT_NE(n, nullptr);
  ASSERT_NE(n->Find("N"), nullptr);
  EXPECT_TRUE(n->Find("N")->IsString());  // numbers are JSON strings in DynamoDB JSON
  EXPECT_EQ(n->Find("N")->str(), "1.5");
  EXPECT_EQ(json::Write(tree), ValueToJsonText(v));
  EXPECT_EQ(json::Write(tree),
            R"({"M":{"b":{"B":"AQI="},"l":{"L":[{"SS":["p","q"]},{"NS":["1","2"]},)"
            R"({"BS":["AQ==","Ag=="]}]},"n":{"N":"1.5"},"s":{"S":"a\"b"},"t":{"BOOL":true},)"
            R"("z":{"NULL":true}}})");
}

TEST(CoreDdbJsonItemTest, RoundTripOfAllTenTypes) {
  const std::string text =
      R"({"b":{"B":"AAECAwQF/w=="},"bool":{"BOOL":false},"bs":{"BS":["AQ==","Ag=="]},)"
      R"("l":{"L":[{"N":"1"},{"L":[{"M":{"deep":{"SS":["x"]}}}]}]},)"
      R"("m":{"M":{"k":{"M":{"k2":{"NULL":true}}}}},"n":{"N":"-3.14"},"ns":{"NS":["1","2.5"]},)"
      R"("null":{"NULL":true},"s":{"S":"\u2603"},"ss":{"SS":["a","b"]}})";
  Result<Item> item = ItemFromJsonText(text);
  ASSERT_TRUE(item.ok()) << item.status().ToString();
  EXPECT_EQ(item->size(), 10u);
  EXPECT_EQ(item->at("s"), AttributeValue::S("\xE2\x98\x83"));
  EXPECT_EQ(item->at("n"), AttributeValue::N(Num("-3.14")));
  EXPECT_EQ(item->at("ns"), AttributeValue::NS({Num("2.5"), Num("1")}));
  EXPECT_EQ(item->at("b"), AttributeValue::B(std::string("\0\1\2\3\4\5\xFF", 7)));

  std::string expected = text;
  expected.replace(expected.find("\\u2603"), 6, "\xE2\x98\x83");
  EXPECT_EQ(ItemToJsonText(item.value()), expected);
  EXPECT_EQ(json::Write(ItemToJson(item.value())), expected);
  Result<Item> again = ItemFromJsonText(ItemToJsonText(item.value()));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value(), item.value());

  // Equal items give identical text whatever the input order.
  Result<Item> shuffled = ItemFromJsonText(
      R"({"ss":{"SS":["b","a"]},"s":{"S":"☃"},"null":{"NULL":true},"ns":{"NS":["2.50","1"]},)"
      R"("n":{"N":"-3.140"},"m":{"M":{"k":{"M":{"k2":{"NULL":true}}}}},)"
      R"("l":{"L":[{"N":"1"},{"L":[{"M":{"deep":{"SS":["x"]}}}]}]},"bs":{"BS":["Ag==","AQ=="]},)"
      R"("bool":{"BOOL":false},"b":{"B":"AAECAwQF/w=="}})");
  ASSERT_TRUE(shuffled.ok()) << shuffled.status().ToString();
  EXPECT_EQ(shuffled.value(), item.value());
  EXPECT_EQ(ItemToJsonText(shuffled.value()), expected);
}

TEST(CoreDdbJsonItemTest, EmptyItem) {
  Result<Item> item = ItemFromJsonText(" {} ");
  ASSERT_TRUE(item.ok());
  EXPECT_TRUE(item->empty());
  EXPECT_EQ(ItemToJsonText(Item()), "{}");
  EXPECT_EQ(json::Write(ItemToJson(Item())), "{}");
}

TEST(CoreDdbJsonItemTest, NamesAreEscaped) {
  Item item;
  item["a\"b\n"] = AttributeValue::S("v");
  item[std::string("\0", 1)] = AttributeValue::Bool(true);
  const std::string text = ItemToJsonText(item);
  EXPECT_EQ(text, R"({"\u0000":{"BOOL":true},"a\"b\n":{"S":"v"}})");
  Result<Item> back = ItemFromJsonText(text);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), item);
}

// ---------------------------------------------------------------------------------------------
// Errors

constexpr char kEmpty[] =
    "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
constexpr char kMoreThanOne[] =
    "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
    "supported datatypes";
// DynamoDB's JSON reader's words (SerializationException), as dynalite's tests record them.
constexpr char kNotObject[] = "Unexpected value type in payload";

struct ErrorCase {
  std::string text;
  std::string message;
};

TEST(CoreDdbJsonErrorTest, ExactMessages) {
  const std::string p = "One or more parameter values were invalid: ";
  const std::vector<ErrorCase> cases = {
      // The datatype keys.
      {R"({})", kEmpty},
      {R"({"S":null})", kEmpty},
      {R"({"S":"a","N":"1"})", kMoreThanOne},
      {R"({"S":"a","S":"b"})", kMoreThanOne},
      {R"({"NULL":true,"BOOL":true})", kMoreThanOne},
      {R"({"X":1})",
       "Supplied AttributeValue has an unsupported datatype \"X\", must contain exactly one of "
       "the supported datatypes: S, N, B, BOOL, NULL, M, L, SS, NS, BS"},
      {R"({"s":"lower case"})",
       "Supplied AttributeValue has an unsupported datatype \"s\", must contain exactly one of "
       "the supported datatypes: S, N, B, BOOL, NULL, M, L, SS, NS, BS"},
      {R"({"S":"a","Bool":true})",
       "Supplied AttributeValue has an unsupported datatype \"Bool\", must contain exactly one "
       "of the supported datatypes: S, N, B, BOOL, NULL, M, L, SS, NS, BS"},
      {R"({"":1})",
       "Supplied AttributeValue has an unsupported datatype \"\", must contain exactly one of "
       "the supported datatypes: S, N, B, BOOL, NULL, M, L, SS, NS, BS"},
      {R"({"S\n":1})",
       "Supplied AttributeValue has an unsupported datatype \"S\\n\", must contain exactly one "
       "of the supported datatypes: S, N, B, BOOL, NULL, M, L, SS, NS, BS"},
      {"{\"" + std::string(100, 'x') + "\":1}",
       "Supplied AttributeValue has an unsupported datatype \"" + std::string(64, 'x') +
           "\"..., must contain exactly one of the supported datatypes: S, N, B, BOOL, NULL, M, "
           "L, SS, NS, BS"},
      // Not an object.
      {R"("a")", kNotObject},
      {R"(1)", kNotObject},
      {R"(null)", kNotObject},
      {R"([{"S":"a"}])",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"},
      {R"({"L":[1]})", kNotObject},
      {R"({"L":[null]})", kNotObject},
      {R"({"M":{"a":"b"}})", kNotObject},
      // NULL.
      {R"({"NULL":false})", p + "Null attribute value types must have the value of true"},
      {R"({"NULL":"yes"})", "<decoded: {\"NULL\":true}>"},  // DynamoDB's reader's words
      {R"({"NULL":1})", "NUMBER_VALUE cannot be converted to Boolean"},
      // Wrong JSON kinds (SerializationException).
      {R"({"S":1})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"S":["a"]})", "Unrecognized collection type class java.lang.String"},
      {R"({"S":{}})", "Start of structure or map found where not expected"},
      {R"({"N":1})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"N":1.5})", "DECIMAL_VALUE cannot be converted to String"},
      {R"({"N":true})", "TRUE_VALUE cannot be converted to String"},
      {R"({"B":1})", "only base-64-encoded strings are convertible to bytes"},
      {R"({"B":[]})", "Unrecognized collection type class java.nio.ByteBuffer"},
      {R"({"BOOL":"true"})", "<decoded: {\"BOOL\":true}>"},
      {R"({"BOOL":"No"})", "<decoded: {\"BOOL\":false}>"},
      {R"({"BOOL":"maybe"})", "Unexpected token received from parser"},
      {R"({"BOOL":1})", "NUMBER_VALUE cannot be converted to Boolean"},
      {R"({"M":[]})",
       "Unrecognized collection type java.util.Map<java.lang.String, "
       "com.amazonaws.dynamodb.v20120810.AttributeValue>"},
      {R"({"M":"a"})", "Unexpected field type"},
      {R"({"L":{}})", "Start of structure or map found where not expected"},
      {R"({"SS":"a"})", "Unexpected field type"},
      {R"({"SS":["a",1]})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"SS":[null]})", "Unexpected token received from parser"},
      {R"({"NS":[1,2]})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"NS":"1"})", "Unexpected field type"},
      {R"({"BS":["AA==",0]})", "only base-64-encoded strings are convertible to bytes"},
      {R"({"BS":{}})", "Start of structure or map found where not expected"},
      // Base64.
      {R"({"B":"AA"})", "Base64 encoded length is expected a multiple of 4 bytes but found: 2"},
      {R"({"B":"A==="})", "Invalid last non-pad Base64 character dectected"},
      {R"({"B":"AB=="})", "Invalid last non-pad Base64 character dectected"},
      {R"({"B":"aGVsbG8_"})", "Invalid last non-pad Base64 character dectected"},
      {R"({"B":"aGVs bG8="})",
       "Base64 encoded length is expected a multiple of 4 bytes but found: 9"},
      {R"({"B":"aGVs bG8"})", "Invalid last non-pad Base64 character dectected"},
      {R"({"BS":["AA==","!!!!"]})", "Invalid last non-pad Base64 character dectected"},
      // Sets (ValidateValue).
      {R"({"SS":[]})", p + "An string set  may not be empty"},
      {R"({"NS":[]})", p + "An number set  may not be empty"},
      {R"({"BS":[]})", p + "Binary sets should not be empty"},
      // Duplicates in the current layer (valueLayers.test.ts): quoted, the members before the
      // repeat in order, then the repeat and the rest as sent.
      {R"({"SS":["a","a"]})", p + "Input collection [\"a\", \"a\"] contains duplicates."},
      {R"({"SS":["b","a","b"]})",
       p + "Input collection [\"a\", \"b\", \"b\"] contains duplicates."},
      {R"({"SS":["c","b","a","b","z"]})",
       p + "Input collection [\"a\", \"b\", \"c\", \"b\", \"z\"] contains duplicates."},
      {R"({"NS":["1","1.0"]})", p + "Input collection contains duplicates."},
      {R"({"BS":["AQ==","AQ=="]})",
       p + "Input collection [\"AQ==\",\"AQ==\"]of type BS contains duplicates."},
      {R"({"BS":["/w==","AA==","AA=="]})",
       p + "Input collection [\"AA==\",\"/w==\",\"AA==\"]of type BS contains duplicates."},
      {R"({"M":{"a":{"L":[{"SS":[]}]}}})", p + "An string set  may not be empty"},
      // Duplicate names in a map.
      {R"({"M":{"a":{"S":"x"},"a":{"S":"y"}}})", p + "Duplicate key \"a\" in attribute of type M"},
      // The first error in document order wins.
      {R"({"L":[{"N":"x"},{"X":1}]})", "The parameter cannot be converted to a numeric value: x"},
      {R"({"L":[{"X":1},{"N":"x"}]})",
       "Supplied AttributeValue has an unsupported datatype \"X\", must contain exactly one of "
       "the supported datatypes: S, N, B, BOOL, NULL, M, L, SS, NS, BS"},
  };
  for (const ErrorCase& c : cases) {
    EXPECT_EQ(ValueError(c.text), c.message) << "input: " << c.text;
  }
}

// The older layer (BatchWriteItem, the transactions, Scan): members as sent, unquoted; a number
// set's bare message; numbers as BigDecimal reads them (valueLayers.test.ts, October 2026).
TEST(CoreDdbJsonErrorTest, OlderLayer) {
  const std::string p = "One or more parameter values were invalid: ";
  auto older = [](std::string_view text) {
    Result<AttributeValue> v = ValueFromJson(*json::Parse(text), ValueLayer::kOlder);
    return v.ok() ? std::string("<decoded>") : v.status().message();
  };
  EXPECT_EQ(older(R"({"SS":["b","a","b"]})"),
            p + "Input collection [b, a, b] contains duplicates.");
  EXPECT_EQ(older(R"({"BS":["/w==","AA==","AA=="]})"),
            p + "Input collection [/w==, AA==, AA==]of type BS contains duplicates.");
  EXPECT_EQ(older(R"({"NS":["2","1","2"]})"), "Input collection contains duplicates");
  EXPECT_EQ(older(R"({"N":""})"), "The parameter cannot be converted to a numeric value");
  EXPECT_EQ(older(R"({"N":"1e2147483647"})"),
            "Number underflow. Attempting to store a number with magnitude smaller than "
            "supported range");
  EXPECT_EQ(older(R"({"SS":["a","b"]})"), "<decoded>");
}

// A value nested past 32 levels is reported before a malformed number below it, and before
// one in a later member (document order).
TEST(CoreDdbJsonErrorTest, NestingBeforeWhatIsBelowIt) {
  std::string deep = R"({"N":"x"})";
  for (int i = 0; i < 40; ++i) deep = R"({"M":{"n":)" + deep + "}}";
  const std::string nest =
      "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
      "beyond supported limit";
  EXPECT_EQ(ValueError(deep), nest);
  EXPECT_EQ(ValueError(R"({"M":{"a":)" + deep + R"(,"b":{"N":"y"}}})"), nest);
  EXPECT_EQ(ValueError(R"({"M":{"a":{"N":"y"},"b":)" + deep + "}}"),
            "The parameter cannot be converted to a numeric value: y");
}

// Wraps `scalar` in `levels` maps: {"M":{"a":...}}.
std::string NestedMaps(int levels, const std::string& scalar) {
  std::string text;
  for (int i = 0; i < levels; ++i) text += R"({"M":{"a":)";
  text += scalar;
  for (int i = 0; i < levels; ++i) text += "}}";
  return text;
}

TEST(CoreDdbJsonErrorTest, NestingLimit) {
  // 31 maps around a scalar put it at level 32: accepted. 32 maps: rejected.
  EXPECT_EQ(ValueToJsonText(ValueOk(NestedMaps(31, R"({"N":"1"})"))),
            NestedMaps(31, R"({"N":"1"})"));
  const char kTooDeep[] =
      "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
      "beyond supported limit";
  EXPECT_EQ(ValueError(NestedMaps(32, R"({"N":"1"})")), kTooDeep);
  EXPECT_EQ(ItemError(R"({"attr":)" + NestedMaps(32, R"({"S":"x"})") + "}"), kTooDeep);
  // Lists count the same way.
  std::string lists;
  for (int i = 0; i < 32; ++i) lists += R"({"L":[)";
  lists += R"({"BOOL":true})";
  for (int i = 0; i < 32; ++i) lists += "]}";
  EXPECT_EQ(ValueError(lists), kTooDeep);
}

TEST(CoreDdbJsonErrorTest, HostileInputDoesNotCrash) {
  // Far past the JSON reader's depth limit: an "Invalid JSON" error, not a stack overflow.
  std::string deep = R"({"a":)" + NestedMaps(100000, R"({"S":"x"})") + "}";
  const std::string error = ItemError(deep);
  EXPECT_EQ(error.rfind("Invalid JSON: nesting exceeds the maximum depth of 256", 0), 0u) << error;
  EXPECT_EQ(ItemError(std::string(100000, '[')),
            "Invalid JSON: nesting exceeds the maximum depth of 256 at line 1, column 257");
}

TEST(CoreDdbJsonItemTest, ErrorMessages) {
  const std::string p = "One or more parameter values were invalid: ";
  const std::string not_item =
      p + "An item must be a JSON object of attribute names to AttributeValues";
  EXPECT_EQ(ItemError("[]"), not_item);
  EXPECT_EQ(ItemError("\"a\""), not_item);
  EXPECT_EQ(ItemError("null"), not_item);
  EXPECT_EQ(ItemError(R"({"a":{"S":"x"},"a":{"S":"y"}})"),
            p + "Duplicate attribute name \"a\" in item");
  EXPECT_EQ(ItemError(R"({"a":"x"})"), kNotObject);
  EXPECT_EQ(ItemError(R"({"a":{}})"), kEmpty);
  EXPECT_EQ(ItemError(R"({"a":{"S":"x"},"b":{"N":5}})"),
            "NUMBER_VALUE cannot be converted to String");
  EXPECT_EQ(ItemError(R"({"a":{"NS":["2","2"]}})"), p + "Input collection contains duplicates.");
  EXPECT_EQ(ItemError(R"({"a":{"S":"x"})"),
            "Invalid JSON: unexpected end of input (expected ',' or '}') at line 1, column 15");
  EXPECT_EQ(ItemError(""), "Invalid JSON: unexpected end of input at line 1, column 1");
  // Names are checked by ValidateItem, not here: an empty name decodes.
  Result<Item> empty_name = ItemFromJsonText(R"({"":{"S":"x"}})");
  ASSERT_TRUE(empty_name.ok());
  EXPECT_EQ(empty_name->count(""), 1u);
}

TEST(CoreDdbJsonItemTest, ItemFromJsonTakesParsedValue) {
  Result<json::Value> j = json::Parse(R"({"k":{"N":"007"}})");
  ASSERT_TRUE(j.ok());
  Result<Item> item = ItemFromJson(j.value());
  ASSERT_TRUE(item.ok());
  EXPECT_EQ(item->at("k"), AttributeValue::N(Num("7")));
  EXPECT_EQ(ItemToJsonText(item.value()), R"({"k":{"N":"7"}})");
}

}  // namespace
}  // namespace keyhole
