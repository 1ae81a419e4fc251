// Randomized model test of vector indexes in the storage engine: puts, updates (new vectors,
// vectors removed, tenants and filters changed, attributes the index does not hold) and
// deletes, with SearchVectors on three indexes (COSINE with a HASH and an INLINE_FILTER, a
// DOT_PRODUCT without search attributes, a EUCLIDEAN with a number HASH) compared with a
// brute-force model: every item the index would hold, scored with core's VectorScore, sorted,
// the first K kept and projected. VerifyIntegrity (every entry matches its item) runs every 100
// operations, the file is reopened halfway, and DescribeTable's ItemCount is the model's.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/ddb_json.h"
#include "core/item.h"
#include "core/vector_index.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using keyhole::testing::N;
using keyhole::testing::S;
using keyhole::testing::TempDb;

constexpr char kTable[] = "Vectors";

struct IndexModel {
  std::string name, vector;
  int dims;
  DistanceFunction f;
  std::optional<std::string> hash;    // the HASH attribute
  std::optional<std::string> filter;  // an INLINE_FILTER attribute
  std::string projection;             // KEYS_ONLY | INCLUDE (text) | ALL
};

const std::vector<IndexModel>& Indexes() {
  static const std::vector<IndexModel> kIndexes = {
      {"cos", "e", 4, DistanceFunction::kCosine, "tenant", "kind", "INCLUDE"},
      {"dot", "e", 4, DistanceFunction::kDotProduct, std::nullopt, std::nullopt, "KEYS_ONLY"},
      // 4,000 dimensions: 8 vectors a block (storage/engine.h), so that entries move between
      // a group's blocks.
      {"euc", "f", 4000, DistanceFunction::kEuclidean, "kind", std::nullopt, "ALL"},
  };
  return kIndexes;
}

void MakeTable(TempDb& db) {
  CreateTableRequest r;
  r.table_name = kTable;
  r.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"tenant", "S"}, {"kind", "N"}};
  r.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  for (const IndexModel& m : Indexes()) {
    VectorIndexSpec v;
    v.name = m.name;
    v.vector_attribute = m.vector;
    if (m.hash) v.search_schema.push_back({*m.hash, "HASH"});
    if (m.filter) v.search_schema.push_back({*m.filter, "INLINE_FILTER"});
    v.projection_type = m.projection;
    if (m.projection == "INCLUDE") v.non_key_attributes = std::vector<std::string>{"text"};
    v.dimensions = m.dims;
    v.distance_function = std::string(DistanceFunctionName(m.f));
    r.vector_indexes.push_back(v);
  }
  auto s = db->CreateTable(r);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
}

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Int(1, 100) <= percent; }
  AttributeValue Vector(int dims) {
    std::vector<AttributeValue> l;
    for (int i = 0; i < dims; ++i) l.push_back(N(fmt::format("{:.3f}", Int(-2000, 2000) / 1000.0)));
    return AttributeValue::L(std::move(l));
  }
  AttributeValue Tenant() { return S(fmt::format("t{}", Int(0, 3))); }
  AttributeValue Kind() { return N(Int(0, 2)); }
  Item Key() { return {{"pk", S(fmt::format("p{}", Int(0, 9)))}, {"sk", N(Int(0, 9))}}; }
  Item NewItem() {
    Item item = Key();
    if (Chance(85)) item["e"] = Vector(4);
    if (Chance(70)) item["f"] = Vector(4000);
    if (Chance(85)) item["tenant"] = Tenant();
    if (Chance(80)) item["kind"] = Kind();
    if (Chance(60)) item["text"] = S(fmt::format("text{}", Int(0, 99)));
    if (Chance(30)) item["misc"] = N(Int(0, 99));
    return item;
  }

 private:
  std::mt19937 rng_;
};

bool Holds(const IndexModel& m, const Item& item) {
  return item.count(m.vector) && (!m.hash || item.count(*m.hash));
}

std::vector<float> Floats(const AttributeValue& list) {
  std::vector<float> out;
  for (const AttributeValue& v : list.l()) {
    out.push_back(static_cast<float>(std::strtod(v.n().ToString().c_str(), nullptr)));
  }
  return out;
}

// The item as the index returns it without a ProjectionExpression.
Item Projected(const IndexModel& m, const Item& item) {
  Item out;
  for (const auto& [name, value] : item) {
    const bool key = name == "pk" || name == "sk" || name == m.hash || name == m.filter;
    if (name == m.vector) continue;
    if (key || m.projection == "ALL" || (m.projection == "INCLUDE" && name == "text")) {
      out[name] = value;
    }
  }
  return out;
}

struct Expected {
  Item item;
  double score;
};

std::vector<Expected> Search(const std::map<std::string, Item>& model, const IndexModel& m,
                             const std::vector<float>& query, int k,
                             const std::optional<AttributeValue>& hash,
                             const std::optional<AttributeValue>& filter) {
  std::vector<Expected> all;
  for (const auto& [key, item] : model) {
    if (!Holds(m, item)) continue;
    if (hash && item.at(*m.hash) != *hash) continue;
    if (filter && (!item.count(*m.filter) || item.at(*m.filter) != *filter)) continue;
    const std::vector<float> v = Floats(item.at(m.vector));
    all.push_back({Projected(m, item), VectorScore(m.f, query.data(), v.data(), v.size())});
  }
  std::stable_sort(all.begin(), all.end(), [&](const Expected& a, const Expected& b) {
    return m.f == DistanceFunction::kDotProduct ? a.score > b.score : a.score < b.score;
  });
  if (all.size() > static_cast<size_t>(k)) all.resize(static_cast<size_t>(k));
  return all;
}

std::string Show(const Item& item) { return ItemToJsonText(item); }

Item KeyOf(const Item& item) { return {{"pk", item.at("pk")}, {"sk", item.at("sk")}}; }

TEST(StorageVectorModelTest, SearchesMatchABruteForceModelThroughWrites) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(fmt::format("seed {}", seed));
    TempDb db;
    MakeTable(db);
    Gen gen(seed);
    std::map<std::string, Item> model;  // key -> item
    const int kOps = 1200;
    for (int op = 0; op < kOps; ++op) {
      SCOPED_TRACE(fmt::format("operation {}", op));
      const int what = gen.Int(0, 99);
      if (what < 40) {
        PutItemRequest r;
        r.table_name = kTable;
        r.item = gen.NewItem();
        auto s = db->PutItem(r);
        ASSERT_TRUE(s.ok()) << s.status().ToString();
        model[Show(KeyOf(r.item))] = r.item;
      } else if (what < 75) {
        UpdateItemRequest r;
        r.table_name = kTable;
        r.key = gen.Key();
        std::map<std::string, AttributeValue> values;
        std::string update;
        switch (gen.Int(0, 6)) {
          case 0:
            update = "SET e = :v";
            values[":v"] = gen.Vector(4);
            break;
          case 1:
            update = "REMOVE e";
            break;
          case 2:
            update = "SET tenant = :v";
            values[":v"] = gen.Tenant();
            break;
          case 3:
            update = "SET kind = :v";
            values[":v"] = gen.Kind();
            break;
          case 4:
            update = "SET #t = :v";
            values[":v"] = S(fmt::format("new{}", gen.Int(0, 9)));
            break;
          case 5:
            update = "SET misc = :v";
            values[":v"] = N(gen.Int(0, 9));
            break;
          default:
            update = "SET f = :v REMOVE tenant";
            values[":v"] = gen.Vector(4000);
            break;
        }
        r.expressions.update = update;
        if (update.find("#t") != std::string::npos) {
          r.expressions.names = std::map<std::string, std::string>{{"#t", "text"}};
        }
        if (!values.empty()) r.expressions.values = values;
        r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
        auto s = db->UpdateItem(r);
        ASSERT_TRUE(s.ok()) << update << ": " << s.status().ToString();
        Item before;
        if (auto it = model.find(Show(r.key)); it != model.end()) before = it->second;
        Item& item = model[Show(r.key)];
        if (item.empty()) item = r.key;
        const bool removes_only = update.rfind("REMOVE", 0) == 0;
        if (removes_only && before.empty()) {
          model.erase(Show(r.key));  // DynamoDB creates nothing
        } else if (update == "REMOVE e") {
          item.erase("e");
        } else {
          if (update.find("SET e") == 0) item["e"] = values[":v"];
          if (update.find("SET tenant") == 0) item["tenant"] = values[":v"];
          if (update.find("SET kind") == 0) item["kind"] = values[":v"];
          if (update.find("SET #t") == 0) item["text"] = values[":v"];
          if (update.find("SET misc") == 0) item["misc"] = values[":v"];
          if (update.find("SET f") == 0) {
            item["f"] = values[":v"];
            item.erase("tenant");
          }
        }
        // A write replicates to exactly the vector indexes whose entry changed.
        const Item after = model.count(Show(r.key)) ? model[Show(r.key)] : Item();
        std::set<std::string> changed;
        for (const IndexModel& m : Indexes()) {
          const bool was = Holds(m, before), is = Holds(m, after);
          if (was != is || (is && (Projected(m, before) != Projected(m, after) ||
                                   before.at(m.vector) != after.at(m.vector)))) {
            changed.insert(m.name);
          }
        }
        std::set<std::string> reported;
        if (s->consumed_capacity) {
          for (const auto& [name, bytes] : s->consumed_capacity->vector_indexes) {
            EXPECT_GT(bytes, 0);
            reported.insert(name);
          }
        }
        EXPECT_EQ(reported, changed) << update;
      } else if (what < 90) {
        DeleteItemRequest r;
        r.table_name = kTable;
        r.key = gen.Key();
        auto s = db->DeleteItem(r);
        ASSERT_TRUE(s.ok()) << s.status().ToString();
        model.erase(Show(r.key));
      } else {
        const IndexModel& m = Indexes()[static_cast<size_t>(gen.Int(0, 2))];
        SearchVectorsRequest r;
        r.table_name = kTable;
        r.index_name = m.name;
        const AttributeValue vector = gen.Vector(m.dims);
        r.search_vector = vector.l();
        const std::vector<float> query = Floats(vector);
        r.top_k = gen.Chance(20) ? 100 : gen.Int(1, 8);
        std::optional<AttributeValue> hash, filter;
        std::map<std::string, AttributeValue> values;
        std::string condition;
        if (m.hash) {
          hash = *m.hash == "tenant" ? gen.Tenant() : gen.Kind();
          condition = *m.hash + " = :h";
          values[":h"] = *hash;
        }
        if (m.filter && gen.Chance(50)) {
          filter = gen.Kind();
          condition += " AND " + *m.filter + " = :f";
          values[":f"] = *filter;
        }
        if (!condition.empty()) {
          r.expressions.search_condition = condition;
          r.expressions.values = values;
        }
        const bool with_vector = gen.Chance(25);
        if (with_vector) r.expressions.projection = "pk, sk, " + m.vector;
        auto got = db->SearchVectors(r);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        const std::vector<Expected> want =
            Search(model, m, query, static_cast<int>(r.top_k), hash, filter);
        ASSERT_EQ(got->results.size(), want.size()) << m.name;
        for (size_t i = 0; i < want.size(); ++i) {
          EXPECT_EQ(got->results[i].score, want[i].score) << m.name << " rank " << i;
          // Items of equal scores may come in either order: compare those whose score is
          // unique among the results.
          const bool tie = (i > 0 && want[i - 1].score == want[i].score) ||
                           (i + 1 < want.size() && want[i + 1].score == want[i].score);
          if (tie) continue;
          Item expected = want[i].item;
          if (with_vector) {
            const Item& full = model.at(Show(KeyOf(expected)));
            std::vector<AttributeValue> copy;
            for (float x : Floats(full.at(m.vector))) {
              copy.push_back(N(fmt::format("{}", x)));
            }
            expected = {{"pk", expected.at("pk")},
                        {"sk", expected.at("sk")},
                        {m.vector, AttributeValue::L(std::move(copy))}};
          }
          EXPECT_EQ(Show(got->results[i].item), Show(expected)) << m.name << " rank " << i;
        }
      }
      if (op % 100 == 99) {
        auto v = db->VerifyIntegrity();
        ASSERT_TRUE(v.ok()) << v.ToString();
      }
      if (op == kOps / 2) db.Reopen();
    }
    DescribeTableRequest d;
    d.table_name = kTable;
    auto described = db->DescribeTable(d);
    ASSERT_TRUE(described.ok());
    for (size_t i = 0; i < Indexes().size(); ++i) {
      const int64_t held = std::count_if(
          model.begin(), model.end(), [&](const auto& e) { return Holds(Indexes()[i], e.second); });
      EXPECT_EQ(described->table.vector_indexes[i].item_count, held) << Indexes()[i].name;
      EXPECT_GT(described->table.vector_indexes[i].size_bytes, 0);
    }
    // An index created now is backfilled from the items, in blocks as the others are; one
    // deleted goes with its entries.
    UpdateTableRequest create;
    create.table_name = kTable;
    create.attribute_definitions = {{"tenant", "S"}};
    VectorIndexSpec late;
    late.name = "late";
    late.vector_attribute = "f";
    late.search_schema = {{"tenant", "HASH"}};
    late.projection_type = "KEYS_ONLY";
    late.dimensions = 4000;
    late.distance_function = "DOT_PRODUCT";
    create.create_vector_index = late;
    auto created = db->UpdateTable(create);
    ASSERT_TRUE(created.ok()) << created.status().ToString();
    UpdateTableRequest drop;
    drop.table_name = kTable;
    drop.delete_vector_index = "cos";
    ASSERT_TRUE(db->UpdateTable(drop).ok());
    auto v = db->VerifyIntegrity();
    ASSERT_TRUE(v.ok()) << v.ToString();
    described = db->DescribeTable(d);
    ASSERT_TRUE(described.ok());
    ASSERT_EQ(described->table.vector_indexes.size(), 3u);
    EXPECT_EQ(described->table.vector_indexes[2].name, "late");
    EXPECT_EQ(described->table.vector_indexes[2].item_count,
              std::count_if(model.begin(), model.end(), [](const auto& e) {
                return e.second.count("f") && e.second.count("tenant");
              }));
  }
}

}  // namespace
}  // namespace keyhole::storage
