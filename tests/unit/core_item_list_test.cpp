// ItemList (core/item_list.h) and the check that lets it hold items encoded
// (ValidItemEncoding, Number::SkipKeyEncoding).
#include "core/item_list.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/ddb_json.h"
#include "core/item.h"
#include "core/item_codec.h"
#include "error_text.h"

namespace keyhole {
namespace {

using AV = AttributeValue;

AV S(std::string s) { return AV::S(std::move(s)); }
AV N(int64_t v) { return AV::N(Number::FromInt(v)); }

Item Sample(int i) {
  return Item{{"pk", S("p" + std::to_string(i))},
              {"sk", N(i)},
              {"m", AV::M({{"a", AV::L({N(-i), S(""), AV::Null()})}, {"b", AV::Bool(i % 2)}})},
              {"ns", AV::NS({Number::FromInt(3), Number::FromInt(-1)})},
              {"ss", AV::SS({"x", "y"})}};
}

std::string Encoded(const Item& item) { return EncodeItem(item, ItemSize(item)); }

// ValidItemEncoding must say yes exactly when DecodeItem succeeds: ItemList decodes what it
// accepted without a way to report an error.
void ExpectSameVerdict(std::string_view bytes) {
  EXPECT_EQ(ValidItemEncoding(bytes), DecodeItem(bytes).ok()) << ::testing::PrintToString(bytes);
}

TEST(CoreItemListItemEncodingCheck, AgreesWithDecodeOnEveryTruncationAndMutation) {
  std::mt19937 rng(11);
  int valid = 0, invalid = 0;
  for (int i = 0; i < 6; ++i) {
    const std::string enc = Encoded(Sample(i * 37 - 50));
    EXPECT_TRUE(ValidItemEncoding(enc));
    for (size_t n = 0; n <= enc.size() + 1; ++n) ExpectSameVerdict((enc + "x").substr(0, n));
    for (int k = 0; k < 4000; ++k) {
      std::string junk = enc;
      for (int changes = 1 + rng() % 3; changes > 0; --changes) {
        junk[rng() % junk.size()] = static_cast<char>(rng());
      }
      const bool ok = DecodeItem(junk).ok();
      (ok ? valid : invalid)++;
      ExpectSameVerdict(junk);
    }
  }
  // Both verdicts were exercised.
  EXPECT_GT(valid, 100);
  EXPECT_GT(invalid, 1000);
}

TEST(CoreItemListItemEncodingCheck, RefusesANestedMapWhoseNamesAreOutOfOrder) {
  std::string enc = Encoded(Item{{"m", AV::M({{"a", N(1)}, {"b", N(2)}})}});
  const size_t at = enc.find('a');
  ASSERT_NE(at, std::string::npos);
  enc[at] = 'c';  // names "c", "b"
  EXPECT_EQ(::keyhole::testing::ErrorText(DecodeItem(enc)),
            "InternalServerError: corrupt item encoding");
  EXPECT_FALSE(ValidItemEncoding(enc));
  enc[at] = 'b';  // a repeated name
  EXPECT_EQ(::keyhole::testing::ErrorText(DecodeItem(enc)),
            "InternalServerError: corrupt item encoding");
  EXPECT_FALSE(ValidItemEncoding(enc));
}

TEST(CoreItemListItemEncodingCheck, NumberSkipAgreesWithDecode) {
  std::mt19937 rng(5);
  for (const char* text : {"0", "1", "-1", "12.5", "-0.000123", "9.9e125", "1e-130"}) {
    std::string enc;
    Number::Parse(text)->AppendKeyEncoding(&enc);
    for (int k = 0; k < 3000; ++k) {
      std::string junk = enc + "tail";
      if (k > 0) junk[rng() % junk.size()] = static_cast<char>(rng());
      std::string_view a = junk, b = junk;
      Number n;
      const bool decoded = Number::DecodeKeyEncoding(&a, &n);
      EXPECT_EQ(Number::SkipKeyEncoding(&b), decoded) << ::testing::PrintToString(junk);
      if (decoded) {
        EXPECT_EQ(a.size(), b.size());
        // DecodeKeyEncoding is built on SkipKeyEncoding, so their agreement alone proves
        // little: what they accept must also be a normalized number that encodes back to the
        // bytes it was read from.
        std::string again;
        n.AppendKeyEncoding(&again);
        EXPECT_EQ(again, junk.substr(0, junk.size() - a.size()));
        Result<Number> parsed = Number::Parse(n.ToString());
        ASSERT_TRUE(parsed.ok()) << n.ToString();
        EXPECT_EQ(*parsed, n) << ::testing::PrintToString(junk);
      }
    }
  }
}

// AppendItemJsonText writes what ItemToJsonText writes of the decoded item, for every type and
// for text that needs escaping.
TEST(CoreItemListItemEncodingJson, WritesWhatTheDecodedItemWrites) {
  std::vector<Item> items = {Sample(0), Sample(-7), Item{}};
  items.push_back(
      Item{{"a\"b\\c\n", S("q\"uote\x01 é 😀")},
           {"b", AV::B(std::string("\0\xff\x10", 3))},
           {"bs", AV::BS({"", "\x01"})},
           {"n", AV::N(*Number::Parse("-0.000123e-5"))},
           {"big", AV::N(*Number::Parse("9.9999999999999999999999999999999999999e125"))},
           {"t", AV::Bool(true)},
           {"f", AV::Bool(false)},
           {"z", AV::Null()},
           {"l", AV::L({AV::M({}), AV::L({}), S("")})}});
  for (const Item& item : items) {
    std::string text;
    ASSERT_TRUE(AppendItemJsonText(Encoded(item), &text));
    EXPECT_EQ(text, ItemToJsonText(item));
  }
  std::string text;
  EXPECT_FALSE(AppendItemJsonText(Encoded(Sample(1)).substr(0, 20), &text));
  // Top-level names out of order or repeated: DecodeItem refuses them, and so does the writer.
  for (const std::string& bad : {std::string("\x01\x00\x02\x01"
                                             "b\x04\x01"
                                             "a\x04",
                                             9),
                                 std::string("\x01\x00\x02\x01"
                                             "a\x04\x01"
                                             "a\x04",
                                             9)}) {
    EXPECT_EQ(::keyhole::testing::ErrorText(DecodeItem(bad)),
              "InternalServerError: corrupt item encoding");
    EXPECT_FALSE(AppendItemJsonText(bad, &text));
  }
}

TEST(CoreItemList, HoldsItemsEncodedOrDecodedInOrder) {
  ItemList list;
  list.push_back(Sample(0));
  list.PushEncoded(Encoded(Sample(1)));
  list.PushEncoded(Encoded(Sample(2)));
  list.push_back(Sample(3));
  ASSERT_EQ(list.size(), 4u);
  EXPECT_TRUE(list.Encoded(0).empty());
  EXPECT_EQ(list.Encoded(1), Encoded(Sample(1)));
  EXPECT_EQ(list.Encoded(3), "");

  const ItemList& read = list;
  std::vector<Item> seen(read.begin(), read.end());
  EXPECT_EQ(seen, (std::vector<Item>{Sample(0), Sample(1), Sample(2), Sample(3)}));
  EXPECT_EQ(read.front(), Sample(0));
  EXPECT_EQ(read.back(), Sample(3));
  // A const read keeps the encoding; a non-const one may change the item, so drops it.
  EXPECT_EQ(list.Encoded(2), Encoded(Sample(2)));
  list[2]["extra"] = N(7);
  EXPECT_TRUE(list.Encoded(2).empty());
  EXPECT_EQ(list[2].at("extra"), N(7));
  EXPECT_EQ(list.Encoded(1), Encoded(Sample(1)));
}

TEST(CoreItemList, ComparesByContentHoweverItemsAreHeld) {
  ItemList encoded, decoded{Sample(4), Sample(5)};
  encoded.PushEncoded(Encoded(Sample(4)));
  encoded.PushEncoded(Encoded(Sample(5)));
  EXPECT_EQ(encoded, decoded);
  EXPECT_EQ(encoded, (std::vector<Item>{Sample(4), Sample(5)}));
  EXPECT_FALSE(encoded == (std::vector<Item>{Sample(4)}));
  EXPECT_FALSE(encoded == (std::vector<Item>{Sample(4), Sample(6)}));

  ItemList copy = encoded;  // copies the bytes: the copy outlives the original
  encoded.clear();
  EXPECT_TRUE(encoded.empty());
  EXPECT_EQ(copy, decoded);
  EXPECT_EQ(std::move(copy).ToVector(), (std::vector<Item>{Sample(4), Sample(5)}));
}

// Reading an item never moves another, as with a vector: a reference taken to one item stays
// valid while others are read (decoded) after it.
TEST(CoreItemList, ReadingAnItemMovesNoOther) {
  ItemList list;
  list.push_back(Sample(0));
  for (int i = 1; i < 40; ++i) list.PushEncoded(Encoded(Sample(i)));
  const ItemList& read = list;
  const Item* first = &read[0];
  const Item* second = &read[1];
  for (int i = 2; i < 40; ++i) EXPECT_EQ(read[i], Sample(i)) << i;
  ASSERT_EQ(first, &read[0]);  // else *first below reads freed memory
  ASSERT_EQ(second, &read[1]);
  EXPECT_EQ(*first, Sample(0));
}

TEST(CoreItemList, MovesItemsOutThroughIterators) {
  ItemList list;
  for (int i = 0; i < 40; ++i) list.PushEncoded(Encoded(Sample(i)));  // past the first reserve
  std::vector<Item> out;
  for (Item& item : list) out.push_back(std::move(item));
  ASSERT_EQ(out.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out[i], Sample(i)) << i;
  EXPECT_EQ(ItemList(std::vector<Item>{Sample(9)})[0], Sample(9));
}

}  // namespace
}  // namespace keyhole
