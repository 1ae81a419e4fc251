// A randomized model test of GSIs with multi-attribute keys: random puts, updates and deletes
// of items that carry each key attribute or not (sparse), then random Queries (every HASH
// attribute pinned, equalities on a prefix of the RANGE attributes and one random condition on
// the next), paged with random Limits in both directions, compared with an in-memory model:
// the same items in DynamoDB's order (RANGE attributes in turn, each by its type), a
// LastEvaluatedKey with the table key and every index key attribute, and Count over all pages.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::B;
using testing::N;
using testing::S;

// The index: HASH (h1 S, h2 N), RANGE (r1 N, r2 S, r3 B).
constexpr const char* kHash[] = {"h1", "h2"};
constexpr const char* kRange[] = {"r1", "r2", "r3"};

class MultiKeyModel {
 public:
  explicit MultiKeyModel(uint64_t seed) : rng_(seed) {}

  void Run(int ops) {
    CreateTableRequest c;
    c.table_name = "Multi";
    c.attribute_definitions = {{"pk", "S"}, {"h1", "S"}, {"h2", "N"},
                               {"r1", "N"}, {"r2", "S"}, {"r3", "B"}};
    c.key_schema = {{"pk", "HASH"}};
    c.global_secondary_indexes = {
        {"byKey",
         {{"h1", "HASH"}, {"h2", "HASH"}, {"r1", "RANGE"}, {"r2", "RANGE"}, {"r3", "RANGE"}},
         "ALL",
         std::nullopt}};
    ASSERT_TRUE(db_->CreateTable(c).ok());
    for (int i = 0; i < ops; ++i) {
      int what = Pick(10);
      if (what < 6) {
        Put();
      } else if (what < 7) {
        Delete();
      } else {
        Query();
      }
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_GT(nonempty_queries_, ops / 20) << "the run stopped exercising queries";
    EXPECT_GT(paged_queries_, 0);
  }

 private:
  int Pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }

  AttributeValue Value(const std::string& name) {
    if (name == "h1") return S(std::string(1, static_cast<char>('a' + Pick(2))));
    if (name == "h2") return N(Pick(2));
    if (name == "r1") return N(std::to_string(Pick(7) - 3) + (Pick(3) == 0 ? ".5" : ""));
    if (name == "r2") {
      static const char* kWords[] = {"", "a", "ab", "b", "ba", "\xc3\xa9"};
      std::string w = kWords[Pick(6)];
      return S(w.empty() ? "z" : w);  // key attributes may not be empty
    }
    std::string b(1 + Pick(2), '\0');
    for (char& ch : b) ch = "\x00\x01\xff"[Pick(3)];
    return B(b);
  }

  void Put() {
    Item item{{"pk", S("p" + std::to_string(Pick(40)))}};
    for (const char* a : kHash)
      if (Pick(8) != 0) item[a] = Value(a);
    for (const char* a : kRange)
      if (Pick(8) != 0) item[a] = Value(a);
    item["v"] = N(Pick(1000));
    PutItemRequest r;
    r.table_name = "Multi";
    r.item = item;
    ASSERT_TRUE(db_->PutItem(r).ok());
    model_[item.at("pk").s()] = item;
  }

  void Delete() {
    std::string pk = "p" + std::to_string(Pick(40));
    DeleteItemRequest r;
    r.table_name = "Multi";
    r.key = {{"pk", S(pk)}};
    ASSERT_TRUE(db_->DeleteItem(r).ok());
    model_.erase(pk);
  }

  // DynamoDB's order of two index entries: r1, r2, r3 by their types; ties are left to the
  // table key (unspecified order in DynamoDB; keyhole's is the table key's encoding, but the
  // comparison below only needs a total order that both sides are sorted by).
  static int Compare(const Item& a, const Item& b) {
    for (const char* r : kRange) {
      int c = a.at(r).CompareKey(b.at(r));
      if (c != 0) return c;
    }
    return a.at("pk").CompareKey(b.at("pk"));
  }

  void Query() {
    Item pin;
    for (const char* a : kHash) pin[a] = Value(a);
    const int prefix = Pick(4);  // equalities on r1..r<prefix>
    for (int i = 0; i < prefix; ++i) pin[kRange[i]] = Value(kRange[i]);
    KeyConditionTerm last{"", SortKeyOp::kNone, {}};
    if (prefix < 3 && Pick(3) != 0) {
      const char* r = kRange[prefix];
      static const SortKeyOp kOps[] = {SortKeyOp::kEq,        SortKeyOp::kLt, SortKeyOp::kLe,
                                       SortKeyOp::kGt,        SortKeyOp::kGe, SortKeyOp::kBetween,
                                       SortKeyOp::kBeginsWith};
      last.name = r;
      last.op = kOps[Pick(r == std::string("r1") ? 6 : 7)];
      last.values = {Value(r)};
      if (last.op == SortKeyOp::kBetween) {
        last.values.push_back(Value(r));
        if (last.values[0].CompareKey(last.values[1]) > 0)
          std::swap(last.values[0], last.values[1]);
      }
    }
    // The request, as a KeyConditionExpression over placeholders.
    QueryRequest q;
    q.table_name = "Multi";
    q.index_name = "byKey";
    q.scan_index_forward = Pick(2) == 0;
    if (Pick(2) == 0) q.limit = 1 + Pick(4);
    std::string text;
    int n = 0;
    auto placeholder = [&](const AttributeValue& v) {
      std::string p = ":v" + std::to_string(n++);
      if (!q.expressions.values) q.expressions.values.emplace();
      (*q.expressions.values)[p] = v;
      return p;
    };
    for (const auto& [name, v] : pin) {
      text += (text.empty() ? "" : " AND ") + name + " = " + placeholder(v);
    }
    if (last.op != SortKeyOp::kNone) {
      const std::string& r = last.name;
      static const std::map<SortKeyOp, const char*> kText = {{SortKeyOp::kEq, "="},
                                                             {SortKeyOp::kLt, "<"},
                                                             {SortKeyOp::kLe, "<="},
                                                             {SortKeyOp::kGt, ">"},
                                                             {SortKeyOp::kGe, ">="}};
      if (last.op == SortKeyOp::kBetween) {
        std::string lo = placeholder(last.values[0]);
        text += " AND " + r + " BETWEEN " + lo + " AND " + placeholder(last.values[1]);
      } else if (last.op == SortKeyOp::kBeginsWith) {
        text += " AND begins_with(" + r + ", " + placeholder(last.values[0]) + ")";
      } else {
        text += " AND " + r + " " + kText.at(last.op) + " " + placeholder(last.values[0]);
      }
    }
    q.expressions.key_condition = text;

    // The model's answer.
    std::vector<Item> expected;
    for (const auto& [pk, item] : model_) {
      bool in = std::ranges::all_of(kHash, [&](const char* a) { return item.count(a) > 0; }) &&
                std::ranges::all_of(kRange, [&](const char* a) { return item.count(a) > 0; });
      for (const auto& [name, v] : pin) in = in && item.at(name).CompareKey(v) == 0;
      if (in && last.op != SortKeyOp::kNone) {
        const AttributeValue& x = item.at(last.name);
        const AttributeValue& v = last.values[0];
        switch (last.op) {
          case SortKeyOp::kEq:
            in = x.CompareKey(v) == 0;
            break;
          case SortKeyOp::kLt:
            in = x.CompareKey(v) < 0;
            break;
          case SortKeyOp::kLe:
            in = x.CompareKey(v) <= 0;
            break;
          case SortKeyOp::kGt:
            in = x.CompareKey(v) > 0;
            break;
          case SortKeyOp::kGe:
            in = x.CompareKey(v) >= 0;
            break;
          case SortKeyOp::kBetween:
            in = x.CompareKey(v) >= 0 && x.CompareKey(last.values[1]) <= 0;
            break;
          case SortKeyOp::kBeginsWith:
            in = x.s().starts_with(v.s());
            break;
          case SortKeyOp::kNone:
            break;
        }
      }
      if (in) expected.push_back(item);
    }
    std::ranges::stable_sort(expected,
                             [](const Item& a, const Item& b) { return Compare(a, b) < 0; });
    if (!q.scan_index_forward) std::ranges::reverse(expected);

    // The engine's answer, page by page.
    std::vector<Item> got;
    int pages = 0;
    for (;; ++pages) {
      ASSERT_LE(pages, static_cast<int>(model_.size()) + 1) << text << ": pages do not advance";
      Result<QueryResponse> r = db_->Query(q);
      ASSERT_TRUE(r.ok()) << text << ": " << r.status().ToString();
      got.insert(got.end(), r->items.begin(), r->items.end());
      if (!r->last_evaluated_key) break;
      const Item& lek = *r->last_evaluated_key;
      EXPECT_EQ(lek.size(), 6u) << text;  // pk, h1, h2, r1, r2, r3
      EXPECT_FALSE(r->items.empty());
      if (!r->items.empty()) {
        for (const auto& [name, v] : lek) EXPECT_EQ(v, r->items.back().at(name)) << name;
      }
      q.exclusive_start_key = lek;
    }
    // Entries with equal index keys may come in either order (DynamoDB leaves it unspecified);
    // the table key breaks ties on both sides, so compare after sorting equal runs.
    auto canonical = [&](std::vector<Item> items) {
      std::ranges::stable_sort(items, [&](const Item& a, const Item& b) {
        int c = Compare(a, b);
        return q.scan_index_forward ? c < 0 : c > 0;
      });
      return items;
    };
    ASSERT_EQ(got.size(), expected.size()) << text;
    EXPECT_EQ(canonical(got), expected) << text;
    // The order as returned: by the RANGE attributes (each by its type), in the asked direction.
    for (size_t i = 1; i < got.size(); ++i) {
      Item a = got[i - 1], b = got[i];
      a["pk"] = b["pk"] = S("same");
      int c = Compare(a, b);
      EXPECT_TRUE(q.scan_index_forward ? c <= 0 : c >= 0) << text << " at " << i;
    }
    nonempty_queries_ += !got.empty();
    paged_queries_ += pages > 1;
  }

  std::mt19937_64 rng_;
  testing::TempDb db_;
  std::map<std::string, Item> model_;
  int nonempty_queries_ = 0, paged_queries_ = 0;
};

class StorageMultikeyModelTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(StorageMultikeyModelTest, QueriesMatchTheModel) { MultiKeyModel(GetParam()).Run(1500); }

INSTANTIATE_TEST_SUITE_P(Seeds, StorageMultikeyModelTest, ::testing::Values(1, 2, 3, 4));

}  // namespace
}  // namespace keyhole::storage
