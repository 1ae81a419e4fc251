// Tests for core/flat_map.h: FlatMap behaves as the std::map it replaced, operation for
// operation, and builds from unordered input in one sort.
#include "core/flat_map.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/attribute_value.h"
#include "core/ddb_json.h"

namespace keyhole {
namespace {

using M = FlatMap<int>;

// "k000042": keys whose bytewise order is their numeric order.
std::string Key(int k) {
  std::string digits = std::to_string(k);
  return "\"k" + std::string(6 - digits.size(), '0') + digits + "\"";
}

std::vector<std::pair<std::string, int>> Pairs(const M& m) { return {m.begin(), m.end()}; }
std::vector<std::pair<std::string, int>> Pairs(const std::map<std::string, int>& m) {
  return {m.begin(), m.end()};
}

TEST(CoreFlatMap, KeepsKeysInBytewiseOrderAndNeverOverwritesOnEmplace) {
  M m;
  EXPECT_TRUE(m.emplace("b", 2).second);
  EXPECT_TRUE(m.try_emplace("a", 1).second);
  EXPECT_TRUE(m.emplace("\xff", 9).second);  // bytes compare unsigned, as std::string does
  EXPECT_TRUE(m.emplace("B", 0).second);
  auto [it, inserted] = m.emplace("b", 7);
  EXPECT_FALSE(inserted);
  EXPECT_EQ(it->second, 2);
  EXPECT_EQ(Pairs(m),
            (std::vector<std::pair<std::string, int>>{{"B", 0}, {"a", 1}, {"b", 2}, {"\xff", 9}}));
  m["c"] = 3;
  m.insert_or_assign("a", 10);
  EXPECT_EQ(m.at("a"), 10);
  EXPECT_EQ(m.count("c"), 1u);
  EXPECT_EQ(m.find("zz"), m.end());
  EXPECT_THROW((void)m.at("zz"), std::out_of_range);
  EXPECT_EQ(m.erase("zz"), 0u);
  EXPECT_EQ(m.erase("B"), 1u);
  EXPECT_EQ(m.begin()->first, "a");
}

TEST(CoreFlatMap, AppendTakesOnlyKeysAfterTheLast) {
  M m;
  ASSERT_NE(m.Append("a"), nullptr);
  ASSERT_NE(m.Append("b"), nullptr);
  EXPECT_EQ(m.Append("b"), nullptr);  // repeated
  EXPECT_EQ(m.Append("a"), nullptr);  // out of order
  EXPECT_EQ(m.size(), 2u);
}

TEST(CoreFlatMap, FromUnsortedSortsAndKeepsTheFirstOrLastOfRepeatedKeys) {
  M::Vector in{{"c", 1}, {"a", 2}, {"c", 3}, {"b", 4}};
  EXPECT_EQ(Pairs(M::FromUnsorted(in)),
            (std::vector<std::pair<std::string, int>>{{"a", 2}, {"b", 4}, {"c", 1}}));
  EXPECT_EQ(Pairs(M::FromUnsorted(in, /*keep_last=*/true)),
            (std::vector<std::pair<std::string, int>>{{"a", 2}, {"b", 4}, {"c", 3}}));
  M init{{"x", 1}, {"x", 2}};  // std::map's initializer list keeps the first
  EXPECT_EQ(init.at("x"), 1);
}

// Random operations against std::map: same contents, same answers, after every step.
TEST(CoreFlatMap, MatchesStdMapUnderRandomOperations) {
  std::mt19937 rng(20261126);
  for (int round = 0; round < 50; ++round) {
    M flat;
    std::map<std::string, int> ref;
    for (int step = 0; step < 400; ++step) {
      std::string k(1 + rng() % 3, 'a');
      for (char& c : k) c = static_cast<char>('a' + rng() % 4);
      int v = static_cast<int>(rng() % 100);
      switch (rng() % 6) {
        case 0:
          EXPECT_EQ(flat.emplace(k, v).second, ref.emplace(k, v).second);
          break;
        case 1:
          flat[k] = v;
          ref[k] = v;
          break;
        case 2:
          EXPECT_EQ(flat.erase(k), ref.erase(k));
          break;
        case 3:
          EXPECT_EQ(flat.count(k), ref.count(k));
          break;
        case 4: {
          auto a = flat.lower_bound(k);
          auto b = ref.lower_bound(k);
          ASSERT_EQ(a == flat.end(), b == ref.end());
          if (b != ref.end()) EXPECT_EQ(a->first, b->first);
          break;
        }
        case 5:
          if (!flat.empty() && rng() % 8 == 0) {
            flat.erase(flat.begin());
            ref.erase(ref.begin());
          }
          break;
      }
      ASSERT_EQ(Pairs(flat), Pairs(ref)) << "round " << round << " step " << step;
    }
  }
}

// An item's JSON in any member order decodes to the same item, and a large object in reverse
// order decodes in about the time of one in order (a sort, not an insertion per member).
TEST(CoreFlatMap, JsonObjectsInAnyOrderDecodeToTheSameItemInOneSort) {
  auto object = [](int n, bool reverse) {
    std::string text = "{";
    for (int i = 0; i < n; ++i) {
      int k = reverse ? n - 1 - i : i;
      text += Key(k) + ":{\"N\":\"" + std::to_string(k) + "\"}";
      if (i + 1 < n) text += ",";
    }
    return text + "}";
  };
  auto forward = ItemFromJsonText(object(200, false));
  auto backward = ItemFromJsonText(object(200, true));
  ASSERT_TRUE(forward.ok()) << forward.status().ToString();
  ASSERT_TRUE(backward.ok()) << backward.status().ToString();
  EXPECT_EQ(*forward, *backward);

  const int n = 100000;
  std::string big = object(n, true);
  auto start = std::chrono::steady_clock::now();
  auto decoded = ItemFromJsonText(big);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->size(), static_cast<size_t>(n));
  // One insertion per member would move ~n^2/2 elements (minutes); a sort takes well under
  // a second even under a sanitizer.
  EXPECT_LT(elapsed, std::chrono::seconds(20));
}

// The first error in member order is the one reported, whatever the order of the names.
TEST(CoreFlatMap, JsonDuplicateNamesAreFoundInAnyOrder) {
  const std::string p = "One or more parameter values were invalid: ";
  auto message = [](const char* text) {
    auto r = ItemFromJsonText(text);
    return r.ok() ? std::string("OK") : r.status().message();
  };
  EXPECT_EQ(message(R"({"b":{"S":"x"},"a":{"S":"y"},"b":{"S":"z"}})"),
            p + "Duplicate attribute name \"b\" in item");
  EXPECT_EQ(message(R"({"a":{"S":"x"},"a":{"S":"y"},"b":{"Q":"z"}})"),
            p + "Duplicate attribute name \"a\" in item");
  EXPECT_EQ(message(R"({"m":{"M":{"z":{"S":"x"},"y":{"S":"y"},"z":{"S":"z"}}}})"),
            p + "Duplicate key \"z\" in attribute of type M");
  EXPECT_EQ(message(R"({"c":{"S":"x"},"b":{"S":"y"},"a":{"S":"z"}})"), "OK");
}

}  // namespace
}  // namespace keyhole
