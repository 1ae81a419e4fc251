// Key codec: round trips are implicit (keys are re-derived from items); what matters is that
// memcmp order of encoded keys is the DynamoDB order, and the bounds hold for long keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/item_codec.h"
#include "error_text.h"
#include "storage/hash.h"
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

TEST(StorageKeyCodec, StringsOrderBytewiseWithEmbeddedZeros) {
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

TEST(StorageKeyCodec, NumbersOrderNumerically) {
  std::vector<std::string> texts = {"-1E125",  "-99", "-1.25",  "-1.2", "-1",  "-0.5",
                                    "-1E-130", "0",   "1E-130", "0.5",  "1",   "1.2",
                                    "1.25",    "9",   "10",     "99",   "100", "1E125"};
  for (size_t i = 0; i + 1 < texts.size(); ++i) {
    EXPECT_LT(Enc(N(texts[i])), Enc(N(texts[i + 1]))) << texts[i] << " < " << texts[i + 1];
  }
  EXPECT_EQ(Enc(N("1")), Enc(N("1.0")));
  EXPECT_EQ(Enc(N("100")), Enc(N("1e2")));
}

TEST(StorageKeyCodec, TableKeysGroupPartitionsAndOrderSortKeys) {
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

TEST(StorageKeyCodec, LongKeysStayUnderLmdbLimit) {
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

TEST(StorageKeyCodec, LongSortKeysKeepOrderWhenTheyDifferEarly) {
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

TEST(StorageKeyCodec, MultiAttributeIndexKeysOrderByEachAttributeInTurn) {
  KeySchema table{{"id", ValueType::kS}, std::nullopt};
  KeySchema index{{"h1", ValueType::kS}, KeyAttribute{"r1", ValueType::kN}};
  index.more_partition = {{"h2", ValueType::kN}};
  index.more_sort = {{"r2", ValueType::kS}};
  auto key = [&](const char* h1, int h2, int r1, const char* r2, const char* id) {
    return EncodeIndexKey(
        index, table, {{"id", S(id)}, {"h1", S(h1)}, {"h2", N(h2)}, {"r1", N(r1)}, {"r2", S(r2)}});
  };
  // One partition: (h1, h2) together; its prefix is PartitionPrefixOf of both values.
  const AttributeValue a = S("a"), one = N(1);
  std::string p = PartitionPrefixOf({&a, &one}, kIndexPartitionBound);
  EXPECT_TRUE(key("a", 1, 5, "x", "i1").starts_with(p));
  EXPECT_FALSE(key("a", 2, 5, "x", "i1").starts_with(p));
  EXPECT_FALSE(key("b", 1, 5, "x", "i1").starts_with(p));
  // ("a", 1) is not ("a1") or ("a", 10): each value is delimited before hashing.
  const AttributeValue a1 = S("a1"), ten = N(10);
  EXPECT_NE(p, PartitionPrefixOf({&a1, &one}, kIndexPartitionBound));
  EXPECT_NE(p, PartitionPrefixOf({&a, &ten}, kIndexPartitionBound));
  // Sort: by r1 numerically, then by r2, then by the table key.
  std::vector<std::string> ordered = {key("a", 1, 2, "z", "i1"),   key("a", 1, 10, "", "i1"),
                                      key("a", 1, 10, "a", "i0"),  key("a", 1, 10, "a", "i1"),
                                      key("a", 1, 10, "ab", "i0"), key("a", 1, 11, "a", "i0")};
  for (size_t i = 0; i + 1 < ordered.size(); ++i) EXPECT_LT(ordered[i], ordered[i + 1]) << i;
  // A single partition value goes through PartitionPrefix unchanged.
  EXPECT_EQ(PartitionPrefixOf({&a}, kIndexPartitionBound),
            PartitionPrefix(a, kIndexPartitionBound));
  // Four long values on each side stay under LMDB's limit.
  KeySchema wide{{"p0", ValueType::kS}, KeyAttribute{"s0", ValueType::kS}};
  Item item{{"id", S("x")}, {"p0", S(std::string(2048, 'p'))}, {"s0", S(std::string(1024, 's'))}};
  for (int i = 1; i < 4; ++i) {
    wide.more_partition.push_back({"p" + std::to_string(i), ValueType::kS});
    wide.more_sort.push_back({"s" + std::to_string(i), ValueType::kS});
    item["p" + std::to_string(i)] = S(std::string(2048, '\0'));
    item["s" + std::to_string(i)] = S(std::string(1024, '\0'));
  }
  EXPECT_LE(EncodeIndexKey(wide, table, item).size(), 511u);
}

TEST(StorageKeyCodec, HashIsStable) {
  // DO NOT CHANGE these constants: they pin the on-disk format.
  EXPECT_EQ(Hash64(""), Hash64(""));
  EXPECT_NE(Hash64("a"), Hash64("b"));
  EXPECT_NE(Hash64("a", 1), Hash64("a", 2));
  EXPECT_EQ(Hash64("keyhole"), 0x894e070264ef9d1cULL);
  EXPECT_EQ(Hash64(""), 0x6393d51c06c618dcULL);
}

TEST(StorageKeyCodecItemCodec, RoundTripsAllTypes) {
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

TEST(StorageKeyCodecItemCodec, RejectsEveryTruncationAndGarbage) {
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
  EXPECT_EQ(::keyhole::testing::ErrorText(DecodeItem(enc + "x")),
            "InternalServerError: corrupt item encoding");
}

// DecodeItemAttributes decodes exactly the named attributes, skipping every type of value in
// between, and never crashes on bad bytes.
TEST(StorageKeyCodecItemCodec, DecodesOnlyTheNamedAttributes) {
  Item item{{"s", S("x")},
            {"n", N("-12.5")},
            {"b", B(std::string("\0\1\2", 3))},
            {"t", AttributeValue::Bool(true)},
            {"z", AttributeValue::Null()},
            {"m", AttributeValue::M({{"in", AttributeValue::L({N(1), S("")})}})},
            {"ss", AttributeValue::SS({"b", "a"})},
            {"ns", AttributeValue::NS({Number::FromInt(3), Number::FromInt(-1)})},
            {"bs", AttributeValue::BS({"\xff", ""})}};
  const std::string enc = EncodeItem(item, 99);
  const std::vector<std::vector<std::string>> wanted = {
      {},
      {"s"},
      {"z"},
      {"b", "ns", "z"},
      {"bs", "m", "missing", "t"},
      {"a", "zz"},
      {"b", "bs", "m", "n", "ns", "s", "ss", "t", "z"}};
  for (const auto& names : wanted) {
    Item expect;
    for (const auto& name : names) {
      if (item.count(name)) expect.emplace(name, item.at(name));
    }
    auto got = DecodeItemAttributes(enc, names);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    EXPECT_EQ(*got, expect) << names.size();
  }
  const std::vector<std::string> last = {"z"};
  for (size_t n = 0; n < enc.size(); ++n) {
    EXPECT_FALSE(DecodeItemAttributes(enc.substr(0, n), last).ok()) << n;
  }
  std::mt19937 rng(5);
  for (int i = 0; i < 5000; ++i) {
    std::string junk = enc;
    junk[rng() % junk.size()] = static_cast<char>(rng());
    (void)DecodeItemAttributes(junk, last);  // must not crash; any result is fine
  }
}

std::string Hex(std::string_view bytes) {
  std::string out;
  for (unsigned char c : bytes)
    out += "0123456789abcdef"[c >> 4], out += "0123456789abcdef"[c & 15];
  return out;
}

// The stored keys of files written by earlier builds, byte for byte: the encodings are on disk
// and must never change (hash, escapes, number encoding, the bounds and their digests).
TEST(StorageKeyCodec, KeysAreTheSameBytesAsEverBefore) {
  KeySchema s_n{{"pk", ValueType::kS}, KeyAttribute{"sk", ValueType::kN}};
  KeySchema n{{"pk", ValueType::kN}, std::nullopt};
  KeySchema b_s{{"pk", ValueType::kB}, KeyAttribute{"sk", ValueType::kS}};
  KeySchema index{{"g", ValueType::kS}, KeyAttribute{"h", ValueType::kN}};
  const std::string zeros("a\0b\0", 4);
  EXPECT_EQ(Hex(EncodeTableKey(s_n, {{"pk", S("USER#1")}, {"sk", N("-12.5")}})),
            "d6eafab7b57719635553455223310000407ffe090805ff");
  EXPECT_EQ(Hex(EncodeTableKey(n, {{"pk", N("1234567890123456789")}})),
            "9d82632399d0db2ec0801202030405060708090a0102030405060708090a00");
  EXPECT_EQ(Hex(EncodeTableKey(b_s, {{"pk", B(zeros)}, {"sk", S(std::string(300, 'x'))}})),
            "64c0a34e0a49b7e76100ff6200ff00007878787878787878787878787878787878787878"
            "787878787878787878787878787878787878787878787878787878787878787878787878"
            "787878787878787878787878787878787878787878787878787878787878787878787878"
            "787878787878787878787878787878787878787878787878787878787878787878787878"
            "787878787878787878787878787878787878787878787878787878787878787878787878"
            "787878787878787878787878787878787878787878787878787878787878787878787878"
            "787878787878787878787878787878787878787878787878787878787878787878787878"
            "787878787878787878787878787878787878787878787878787878787878787878787878"
            "06e3b702d2068136e834dc61aec06033");
  EXPECT_EQ(Hex(EncodeTableKey(s_n, {{"pk", S(std::string(250, 'p'))}, {"sk", N("0")}})),
            "8565f88e4035b8eb70707070707070707070707070707070707070707070707070707070"
            "707070707070707070707070707070707070707070707070707070707070707070707070"
            "707070707070707070707070707070707070707070707070707070707070707070707070"
            "707070707070707070707070707070707070707070707070707070707070707070707070"
            "707070707070707070707070707070707070707070707070707070707070707070707070"
            "70707070707070707070707070707070707070701b765b7cb498f34c8f5caa2048c671f7"
            "80");
  EXPECT_EQ(Hex(EncodeTableKey(s_n, {{"pk", S(std::string(70, 'q'))}, {"sk", N("7")}})),
            "f670fea5c67b526f71717171717171717171717171717171717171717171717171717171"
            "717171717171717171717171717171717171717171717171717171717171717171717171"
            "7171717171710000c080000800");
  EXPECT_EQ(
      Hex(EncodeIndexKey(index, s_n,
                         {{"pk", S("USER#1")}, {"sk", N("3")}, {"g", S(zeros)}, {"h", N("99")}})),
      "7713d1dbe1d860766100ff6200ff0000c080010a0a005553455223310000c080000400");
}

}  // namespace
}  // namespace keyhole::storage
