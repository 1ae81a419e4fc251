// Key codec: round trips are implicit (keys are re-derived from items); what matters is that
// memcmp order of encoded keys is the DynamoDB order, and the bounds hold for long keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "storage/hash.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::B;
using testing::N;
using testing::S;

std::string Enc(const AttributeValue& v) {
  std::string out;
  AppendKeyValue(v, &out);
  return out;
}

TEST(KeyCodec, StringsOrderBytewiseWithEmbeddedZeros) {
  std::vector<std::string> values = {"",
                                     std::string("\0", 1),
                                     std::string("\0\0", 2),
                                     std::string("a\0", 2),
                                     "a",
                                     "ab",
                                     "b",
                                     "\x7f",
                                     "\x80",
                                     "\xc2\xbf",
                                     "\xff",
                                     "\xff\xff",
                                     "z"};
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string s(rng() % 6, '\0');
    for (auto& c : s) c = static_cast<char>("\0\1a\xfe\xff"[rng() % 5]);
    values.push_back(s);
  }
  for (const auto& a : values) {
    for (int j = 0; j < 20; ++j) {
      const auto& b = values[rng() % values.size()];
      int want = a.compare(b);
      int got = Enc(S(a)).compare(Enc(S(b)));
      ASSERT_EQ(want < 0, got < 0) << "'" << a << "' vs '" << b << "'";
      ASSERT_EQ(want == 0, got == 0);
      // Self-delimiting: appending anything keeps the order of the component.
      if (want != 0) ASSERT_EQ(want < 0, (Enc(S(a)) + "\xff").compare(Enc(S(b)) + "\0") < 0);
    }
  }
}

TEST(KeyCodec, NumbersOrderNumerically) {
  std::vector<std::string> texts = {"-1E125",  "-99", "-1.25",  "-1.2", "-1",  "-0.5",
                                    "-1E-130", "0",   "1E-130", "0.5",  "1",   "1.2",
                                    "1.25",    "9",   "10",     "99",   "100", "1E125"};
  for (size_t i = 0; i + 1 < texts.size(); ++i) {
    EXPECT_LT(Enc(N(texts[i])), Enc(N(texts[i + 1]))) << texts[i] << " < " << texts[i + 1];
  }
  EXPECT_EQ(Enc(N("1")), Enc(N("1.0")));
  EXPECT_EQ(Enc(N("100")), Enc(N("1e2")));
}

TEST(KeyCodec, TableKeysGroupPartitionsAndOrderSortKeys) {
  KeySchema ks{{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kN}};
  std::string a1 = EncodeTableKey(ks, {{"pk", S("a")}, {"sk", N(1)}});
  std::string a2 = EncodeTableKey(ks, {{"pk", S("a")}, {"sk", N(2)}});
  std::string a10 = EncodeTableKey(ks, {{"pk", S("a")}, {"sk", N(10)}});
  std::string p = PartitionPrefix(S("a"), kTablePartitionBound);
  EXPECT_TRUE(a1.starts_with(p));
  EXPECT_LT(a1, a2);
  EXPECT_LT(a2, a10);
  // The partition hash leads the key: partitions are in hash order.
  EXPECT_EQ(ReadBigEndian64(a1), PartitionHash(S("a")));
  // 1 and 1.0 are one key.
  EXPECT_EQ(a1, EncodeTableKey(ks, {{"pk", S("a")}, {"sk", N("1.0")}}));
  // S and B partition values with the same bytes are different partitions.
  EXPECT_NE(PartitionHash(S("x")), PartitionHash(B("x")));
}

TEST(KeyCodec, LongKeysStayUnderLmdbLimit) {
  KeySchema ks{{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kS}};
  std::string pk(2048, '\0'), sk(1024, '\0');  // zeros double when escaped
  std::string k = EncodeTableKey(ks, {{"pk", S(pk)}, {"sk", S(sk)}});
  EXPECT_LE(k.size(), 511u);
  KeySchema iks{{"g", ValueType::kB}, KeyAttribute{"h", ValueType::kS}};
  std::string ik =
      EncodeIndexKey(iks, ks, {{"pk", S(pk)}, {"sk", S(sk)}, {"g", B(pk)}, {"h", S(sk)}});
  EXPECT_LE(ik.size(), 511u);
  // Distinct long keys differing only at the end are distinct stored keys.
  std::string sk2 = sk;
  sk2.back() = 'x';
  EXPECT_NE(k, EncodeTableKey(ks, {{"pk", S(pk)}, {"sk", S(sk2)}}));
}

TEST(KeyCodec, LongSortKeysKeepOrderWhenTheyDifferEarly) {
  KeySchema ks{{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kS}};
  std::string a(1000, 'a'), b = a;
  b[100] = 'b';  // differs within the bound
  std::string short_a(50, 'a');
  auto key = [&](const std::string& sk) {
    return EncodeTableKey(ks, {{"pk", S("p")}, {"sk", S(sk)}});
  };
  EXPECT_LT(key(a), key(b));
  EXPECT_LT(key(short_a), key(a));
  EXPECT_LT(key(std::string(300, 'a')), key(b));
}

TEST(KeyCodec, HashIsStable) {
  // DO NOT CHANGE these constants: they pin the on-disk format.
  EXPECT_EQ(Hash64(""), Hash64(""));
  EXPECT_NE(Hash64("a"), Hash64("b"));
  EXPECT_NE(Hash64("a", 1), Hash64("a", 2));
  EXPECT_EQ(Hash64("keyhole"), 0x894e070264ef9d1cULL);
  EXPECT_EQ(Hash64(""), 0x6393d51c06c618dcULL);
}

TEST(ItemCodec, RoundTripsAllTypes) {
  Item item{{"s", S("x")},
            {"n", N("-12.5")},
            {"b", B(std::string("\0\1\2", 3))},
            {"t", AttributeValue::Bool(true)},
            {"f", AttributeValue::Bool(false)},
            {"z", AttributeValue::Null()},
            {"m", AttributeValue::M({{"in", AttributeValue::L({N(1), S("")})}})},
            {"ss", AttributeValue::SS({"b", "a"})},
            {"ns", AttributeValue::NS({Number::FromInt(3), Number::FromInt(-1)})},
            {"bs", AttributeValue::BS({"\xff", ""})}};
  std::string enc = EncodeItem(item, 123);
  auto back = DecodeItem(enc);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, item);
  EXPECT_EQ(EncodedItemSize(enc), 123u);
}

TEST(ItemCodec, RejectsEveryTruncationAndGarbage) {
  Item item{{"m", AttributeValue::M(
                      {{"l", AttributeValue::L({N(1), S("abc"), AttributeValue::SS({"q"})})}})}};
  std::string enc = EncodeItem(item, 10);
  for (size_t n = 0; n < enc.size(); ++n) {
    EXPECT_FALSE(DecodeItem(enc.substr(0, n)).ok()) << n;
  }
  std::mt19937 rng(3);
  for (int i = 0; i < 5000; ++i) {
    std::string junk = enc;
    junk[rng() % junk.size()] = static_cast<char>(rng());
    (void)DecodeItem(junk);  // must not crash; any result is fine
  }
  EXPECT_FALSE(DecodeItem(enc + "x").ok());
}

}  // namespace
}  // namespace keyhole::storage
