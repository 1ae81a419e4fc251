// Tests for ReadItemText (core/ddb_json.h) and json::TextReader (core/json.h): the fast path
// must give exactly what json::Parse + ItemFromJson give, or step aside.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/ddb_json.h"
#include "core/json.h"
#include "error_text.h"

namespace keyhole {
namespace {

// The fast path's item for `text` (whole), or nullopt where it steps aside.
std::optional<Item> Fast(std::string_view text) {
  json::TextReader in(text);
  Item item;
  if (!ReadItemText(&in, &item) || !in.AtEnd()) return std::nullopt;
  return item;
}

const std::vector<std::string> kSamples = {
    R"({})",
    R"({"pk":{"S":"CUST#1"},"sk":{"S":"ORDER#2"},"n":{"N":"-12.50"}})",
    R"( { "b" : { "B" : "AAEC/w==" } , "t":{"BOOL":true},"f":{"BOOL":false},"z":{"NULL":true} } )",
    R"({"ss":{"SS":["b","a","c"]},"ns":{"NS":["3","1e2","-0.5"]},"bs":{"BS":["AA==","AQ=="]}})",
    R"({"m":{"M":{"y":{"L":[{"S":"x"},{"N":"1"},{"M":{}},{"L":[]}]},"x":{"S":""}}}})",
    R"({"u":{"S":"caf\u00e9 \ud83d\ude00 \"q\" \\ \n tab\t"},"é":{"S":"naïve ✓"}})",
    R"({"zeta":{"S":"1"},"alpha":{"N":"0"},"Mid":{"S":"2"}})",
};

TEST(CoreDdbJsonTextReadItemText, ReadsWhatItemFromJsonReads) {
  for (const std::string& text : kSamples) {
    Result<Item> slow = ItemFromJsonText(text);
    ASSERT_TRUE(slow.ok()) << text << ": " << slow.status().ToString();
    std::optional<Item> fast = Fast(text);
    ASSERT_TRUE(fast.has_value()) << text;
    EXPECT_EQ(*fast, *slow) << text;
  }
}

TEST(CoreDdbJsonTextReadItemText, StepsAsideForWhatItLeavesToTheSlowPath) {
  // Errors of every kind, and spellings the slow path takes that the fast one does not.
  for (const char* text : {
           R"({"a":{"S":"x"},"a":{"S":"y"}})",  // a repeated name
           R"({"a":{"S":null}})",               // JSON null member
           R"({"a":{"S":null,"N":"1"}})",       // null beside a type
           R"({"a":{"BOOL":"true"}})",          // BOOL as a string
           R"({"a":{"NULL":false}})",           // NULL false
           R"({"a":{"N":"1e999"}})",            // number overflow
           R"({"a":{"B":"AAE"}})",              // bad base64
           R"({"a":{"SS":[]}})",                // empty set
           R"({"a":{"SS":["x","x"]}})",         // duplicates in a set
           R"({"a":{"X":"1"}})",                // unknown type
           R"({"a":{"S":"x","N":"1"}})",        // two types
           R"({"a":{}})",                       // no type
           R"({"a":{"S":"x"},})",               // trailing comma
           R"({"a":{"S":"x"}} x)",              // text after the item
           R"([])",                             // not an object
           "{\"a\":{\"S\":\"\xff\"}}",          // invalid UTF-8
           R"({"a":{"S":"\x"}})",               // bad escape
       }) {
    EXPECT_FALSE(Fast(text).has_value()) << text;
  }
}

TEST(CoreDdbJsonTextReadItemText, NestingPastTheLimitStepsAside) {
  std::string deep = R"({"a":)";
  for (int i = 0; i < 45; ++i) deep += R"({"L":[)";
  deep += R"({"S":"x"})";
  for (int i = 0; i < 45; ++i) deep += "]}";
  deep += "}";
  EXPECT_FALSE(Fast(deep).has_value());
  EXPECT_EQ(::keyhole::testing::ErrorText(ItemFromJsonText(deep)),
            "ValidationException: Nesting Levels have exceeded supported limits: Attributes in the "
            "item have nested levels beyond supported limit");
}

// Random damage to the samples: wherever the fast path still reads an item, the slow path reads
// the same one.
TEST(CoreDdbJsonTextReadItemText, AgreesWithTheSlowPathOnDamagedText) {
  std::mt19937 rng(20261127);
  const std::string alphabet = "{}[]\":,\\ SNBLMx01-.eu\xc3\xa9\xff";
  int fast_ok = 0, fast_no = 0;
  for (const std::string& base : kSamples) {
    for (int k = 0; k < 3000; ++k) {
      std::string text = base;
      for (int changes = 1 + static_cast<int>(rng() % 3); changes > 0 && !text.empty(); --changes) {
        const size_t at = rng() % text.size();
        switch (rng() % 3) {
          case 0:
            text[at] = alphabet[rng() % alphabet.size()];
            break;
          case 1:
            text.erase(at, 1);
            break;
          default:
            text.insert(at, 1, alphabet[rng() % alphabet.size()]);
        }
      }
      std::optional<Item> fast = Fast(text);
      if (!fast) {
        ++fast_no;
        continue;
      }
      ++fast_ok;
      Result<Item> slow = ItemFromJsonText(text);
      ASSERT_TRUE(slow.ok()) << text << ": " << slow.status().ToString();
      EXPECT_EQ(*fast, *slow) << text;
    }
  }
  EXPECT_GT(fast_ok, 500);
  EXPECT_GT(fast_no, 5000);
}

TEST(CoreDdbJsonTextReader, ReadsPiecesAsParseDoes) {
  json::TextReader in(R"(  {"a" : [true, "x\u0041", -1.5e3, null, {"k":false}] } )");
  std::string s;
  bool b = false;
  EXPECT_EQ(in.Peek(), '{');
  EXPECT_TRUE(in.Consume('{'));
  EXPECT_TRUE(in.ReadString(&s));
  EXPECT_EQ(s, "a");
  EXPECT_TRUE(in.Consume(':'));
  EXPECT_TRUE(in.Consume('['));
  EXPECT_TRUE(in.ReadBool(&b));
  EXPECT_TRUE(b);
  EXPECT_TRUE(in.Consume(','));
  EXPECT_TRUE(in.ReadString(&s));
  EXPECT_EQ(s, "xA");
  EXPECT_TRUE(in.Consume(','));
  json::Value v;
  EXPECT_TRUE(in.ReadValue(&v));
  EXPECT_EQ(v, json::Value::Number("-1.5e3"));
  EXPECT_TRUE(in.Consume(','));
  EXPECT_FALSE(in.ReadBool(&b));  // null is not a boolean
  EXPECT_TRUE(in.ReadValue(&v));
  EXPECT_TRUE(v.IsNull());
  EXPECT_TRUE(in.Consume(','));
  EXPECT_TRUE(in.ReadValue(&v));
  EXPECT_EQ(json::Write(v), R"({"k":false})");
  EXPECT_TRUE(in.Consume(']'));
  EXPECT_FALSE(in.AtEnd());
  EXPECT_TRUE(in.Consume('}'));
  EXPECT_TRUE(in.AtEnd());
  EXPECT_EQ(in.Peek(), '\0');
  EXPECT_FALSE(in.Consume('}'));
}

TEST(CoreDdbJsonTextReader, RefusesWhatParseRefuses) {
  std::string s;
  json::Value v;
  EXPECT_FALSE(json::TextReader(R"("unterminated)").ReadString(&s));
  EXPECT_FALSE(json::TextReader("\"ctl\x01\"").ReadString(&s));
  EXPECT_FALSE(json::TextReader(R"("\ud800")").ReadString(&s));
  EXPECT_FALSE(json::TextReader(R"(01)").ReadValue(&v));
  EXPECT_FALSE(json::TextReader(R"([1,])").ReadValue(&v));
  EXPECT_FALSE(json::TextReader(R"([[[1]]])").ReadValue(&v, 2));
  EXPECT_TRUE(json::TextReader(R"([[[1]]])").ReadValue(&v, 3));
  EXPECT_FALSE(json::TextReader("").ReadValue(&v));
  EXPECT_FALSE(json::TextReader("tru").ReadValue(&v));
}

}  // namespace
}  // namespace keyhole
