// Randomized model test of the storage engine, in the style of LevelDB's db_test ModelDB: random
// PutItem/DeleteItem/GetItem/Query/Scan on a table with a GSI and an LSI, every result compared
// with a plain std::map model. Reads follow LastEvaluatedKey to the end, so paging, Limit,
// sparse indexes, projections and parallel-scan segments are checked on every step.
//
// Runs are deterministic: a failure names its seed and operation number (SCOPED_TRACE), and
// rerunning that instance (e.g. --gtest_filter='*Randomized/KeysOnly_seed4') reproduces it.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/ddb_json.h"
#include "core/item.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using keyhole::testing::N;
using keyhole::testing::S;
using keyhole::testing::TempDb;

constexpr size_t kPageBytes = 1 << 20;
// The ordering compromise of storage/key_codec.h: sort keys whose encodings share this many
// bytes and are both longer are ordered by digest, not by value.
constexpr size_t kTableSortBound = 272;
constexpr size_t kIndexSortBound = 160;

std::string Dump(const Item& item) { return ItemToJsonText(item); }

// Dump for failure messages: long strings shortened to their head and length.
std::string Brief(const Item& item) {
  Item b = item;
  for (auto& [name, value] : b) {
    if ((value.is(ValueType::kS) || value.is(ValueType::kB)) && value.s().size() > 40) {
      value = S(value.s().substr(0, 12) + "...(" + std::to_string(value.s().size()) + " bytes)");
    }
  }
  return ItemToJsonText(b);
}

::testing::AssertionResult SameItem(const Item& expected, const Item& actual) {
  if (expected == actual) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "\n  expected " << Brief(expected) << "\n  actual   " << Brief(actual);
}

// What a run exercised, so that a run that silently stops exercising something fails.
struct Coverage {
  int64_t pages = 0, megabyte_pages = 0, multi_page_reads = 0;
  int64_t queries = 0, nonempty_queries = 0, overwrites = 0, deletes_of_present = 0;
  int64_t refused_puts = 0, deleted_between_pages = 0;
};
Coverage coverage;

// ---- what a read runs on, as the test sees it ----

struct SourceInfo {
  std::optional<std::string> index;  // nullopt: the base table
  bool global = false;
  std::string partition;  // key attributes of the table or index
  std::string sort;
  size_t sort_bound = kTableSortBound;
  // Non-key attributes an index projects; nullopt: all (ALL projection, or the table).
  std::optional<std::vector<std::string>> include;
};

struct TableInfo {
  std::string name;
  std::string pk, sk;
  std::vector<SourceInfo> sources;  // [0] is the table itself
};

// The model's own order of key values, not the engine's (AttributeValue::CompareKey, the key
// codec): numbers by their value as a long double (the data's numbers, -1e-20 to 1e31 with a
// few digits each, are far enough apart for a long double to tell every two apart), strings and
// binaries by their bytes.
int OracleCompare(const AttributeValue& a, const AttributeValue& b) {
  if (a.is(ValueType::kN)) {
    const long double x = std::stold(a.n().ToString()), y = std::stold(b.n().ToString());
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  const int c = a.s().compare(b.s());
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// The table key of an item, ordered by value (the model's key).
using Key = std::pair<AttributeValue, AttributeValue>;
struct KeyLess {
  bool operator()(const Key& a, const Key& b) const {
    int c = OracleCompare(a.first, b.first);
    if (c != 0) return c < 0;
    return OracleCompare(a.second, b.second) < 0;
  }
};
using Model = std::map<Key, Item, KeyLess>;

Key KeyOf(const TableInfo& t, const Item& item) { return {item.at(t.pk), item.at(t.sk)}; }

// The order the engine promises for sort-key values: true order, except that two S/B values
// whose encodings (esc(bytes) 00 00) are both longer than `bound` and share their first `bound`
// bytes are in an unspecified (digest) order. Returns <0, >0, or 0 for "either order".
// Re-implemented here from the documented grammar, independently of storage/key_codec.cpp.
std::string OrderPrefix(const std::string& bytes, size_t bound) {
  std::string e;
  for (char c : bytes) {
    e.push_back(c);
    if (c == '\0') e.push_back('\xFF');
  }
  e.append(2, '\0');
  if (e.size() > bound) e.resize(bound);
  return e;
}
int CompareSort(const AttributeValue& a, const AttributeValue& b, size_t bound) {
  if (a.is(ValueType::kN)) return OracleCompare(a, b);
  int c = OrderPrefix(a.s(), bound).compare(OrderPrefix(b.s(), bound));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// The entry `item` has in `src`, or nullopt when it is not there (sparse index).
std::optional<Item> Project(const TableInfo& t, const SourceInfo& src, const Item& item) {
  if (!src.index) return item;
  if (!item.count(src.partition) || !item.count(src.sort)) return std::nullopt;
  if (!src.include) return item;
  Item p;
  for (const std::string& a : {t.pk, t.sk, src.partition, src.sort}) p[a] = item.at(a);
  for (const std::string& a : *src.include) {
    auto it = item.find(a);
    if (it != item.end()) p[a] = it->second;
  }
  return p;
}

// What LastEvaluatedKey must hold after `item`: the table key plus the source's key.
Item PositionKey(const TableInfo& t, const SourceInfo& src, const Item& item) {
  Item k;
  for (const std::string& a : {t.pk, t.sk, src.partition, src.sort}) {
    auto it = item.find(a);
    if (it != item.end()) k[a] = it->second;
  }
  return k;
}

// Canonical order for comparing query results: the source's sort key (as the engine orders
// it), then the table key. Applied to both the expected and the returned list.
void Canonicalize(const TableInfo& t, const SourceInfo& src, std::vector<Item>* items) {
  std::stable_sort(items->begin(), items->end(), [&](const Item& a, const Item& b) {
    int c = CompareSort(a.at(src.sort), b.at(src.sort), src.sort_bound);
    if (c != 0) return c < 0;
    return KeyLess()(KeyOf(t, a), KeyOf(t, b));
  });
}

::testing::AssertionResult SameItems(const std::vector<Item>& expected,
                                     const std::vector<Item>& actual) {
  for (size_t i = 0; i < std::max(expected.size(), actual.size()); ++i) {
    if (i >= expected.size() || i >= actual.size() || expected[i] != actual[i]) {
      return ::testing::AssertionFailure()
             << "expected " << expected.size() << " items, got " << actual.size()
             << "; first difference at #" << i << ":\n  expected "
             << (i < expected.size() ? Brief(expected[i]) : "(none)") << "\n  actual   "
             << (i < actual.size() ? Brief(actual[i]) : "(none)");
    }
  }
  return ::testing::AssertionSuccess();
}

// Whether a sort-key value satisfies the condition, in the model's own order (OracleCompare).
bool SortMatches(const KeyCondition& kc, const AttributeValue& v) {
  if (kc.op == SortKeyOp::kNone) return true;
  if (kc.op == SortKeyOp::kBeginsWith) {
    const std::string& prefix = kc.sort_value.s();
    return v.s().size() >= prefix.size() && v.s().compare(0, prefix.size(), prefix) == 0;
  }
  const int c = OracleCompare(v, kc.sort_value);
  if (kc.op == SortKeyOp::kBetween) return c >= 0 && OracleCompare(v, kc.sort_value2) <= 0;
  const std::map<SortKeyOp, bool> holds = {{SortKeyOp::kEq, c == 0},
                                           {SortKeyOp::kLt, c < 0},
                                           {SortKeyOp::kLe, c <= 0},
                                           {SortKeyOp::kGt, c > 0},
                                           {SortKeyOp::kGe, c >= 0}};
  return holds.at(kc.op);
}

// Follows LastEvaluatedKey until it is absent, checking every page: Count == ScannedCount
// (there is no filter), Items matches Count (none with Select COUNT), at most Limit items,
// LastEvaluatedKey present exactly when the page stopped at Limit or at 1 MB and naming the
// last item. Returns every item in the order returned; *count gets the summed Count.
// `between_pages`, when set, runs before each next page with the LastEvaluatedKey.
using PageHook = std::function<void(const Item& last_evaluated_key)>;
template <typename Request, typename Call>
std::vector<Item> ReadAllPages(const TableInfo& t, const SourceInfo& src, Request req,
                               size_t max_items, const Call& call, int64_t* count,
                               const PageHook& between_pages) {
  std::vector<Item> all;
  *count = 0;
  const bool count_only = req.select == Select::kCount;
  for (size_t page = 0;; ++page) {
    if (page > max_items + 1) {
      ADD_FAILURE() << "more pages than items: LastEvaluatedKey does not advance";
      break;
    }
    Result<ReadResponse> r = call(req);
    if (!r.ok()) {
      ADD_FAILURE() << "page " << page << ": " << r.status().ToString();
      break;
    }
    const ReadResponse& resp = *r;
    EXPECT_EQ(resp.count, resp.scanned_count) << "page " << page;
    if (count_only) {
      EXPECT_TRUE(resp.items.empty()) << "page " << page;
    } else {
      EXPECT_EQ(resp.count, static_cast<int64_t>(resp.items.size())) << "page " << page;
    }
    if (req.limit) {
      EXPECT_LE(resp.count, *req.limit) << "page " << page;
    }
    bool at_limit = req.limit && resp.count == *req.limit;
    if (!count_only) {
      size_t bytes = 0;
      for (const Item& item : resp.items) bytes += ItemSize(item);
      bool at_mb = bytes >= kPageBytes;
      coverage.megabyte_pages += at_mb;
      EXPECT_EQ(resp.last_evaluated_key.has_value(), at_limit || at_mb)
          << "page " << page << ": " << resp.count << " items, " << bytes << " bytes";
      if (at_mb) {  // the page ends with the item at which the total reached 1 MB
        EXPECT_LT(bytes - ItemSize(resp.items.back()), kPageBytes) << "page " << page;
      }
      if (resp.last_evaluated_key && !resp.items.empty()) {
        EXPECT_TRUE(SameItem(PositionKey(t, src, resp.items.back()), *resp.last_evaluated_key))
            << "page " << page;
      }
    } else if (at_limit) {
      EXPECT_TRUE(resp.last_evaluated_key.has_value()) << "page " << page;
    }
    if (resp.last_evaluated_key) {  // an index LEK holds table key and index key, nothing more
      EXPECT_EQ(resp.last_evaluated_key->size(),
                PositionKey(t, src, *resp.last_evaluated_key).size())
          << Brief(*resp.last_evaluated_key);
    }
    *count += resp.count;
    all.insert(all.end(), resp.items.begin(), resp.items.end());
    ++coverage.pages;
    coverage.multi_page_reads += page == 1;
    if (!resp.last_evaluated_key) break;
    req.exclusive_start_key = resp.last_evaluated_key;
    if (between_pages) between_pages(*req.exclusive_start_key);
  }
  return all;
}

// Runs a Query to the end and compares it with the model: the same items (as projected),
// each once, in sort-key order for the direction.
std::string Describe(const QueryRequest& q) {
  static const char* kOps[] = {"none", "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"};
  const KeyCondition& kc = q.key_condition;
  return "Query " + q.index_name.value_or("table") + " " +
         Brief({{kc.partition_name, kc.partition_value}}) + " " + kOps[static_cast<int>(kc.op)] +
         " " + Brief({{"v", kc.sort_value}, {"w", kc.sort_value2}}) +
         (q.scan_index_forward ? " forward" : " backward") + " limit " +
         (q.limit ? std::to_string(*q.limit) : "none") + " select " +
         std::to_string(static_cast<int>(q.select));
}

void CheckQuery(Database* db, const TableInfo& t, const SourceInfo& src, const Model& model,
                const QueryRequest& req, const PageHook& between_pages = nullptr) {
  SCOPED_TRACE(Describe(req));
  std::vector<Item> expected;
  for (const auto& [key, item] : model) {
    std::optional<Item> p = Project(t, src, item);
    if (!p || !(p->at(src.partition) == req.key_condition.partition_value)) continue;
    if (!SortMatches(req.key_condition, p->at(src.sort))) continue;
    expected.push_back(*p);
  }
  Canonicalize(t, src, &expected);
  int64_t count = 0;
  std::vector<Item> got = ReadAllPages(
      t, src, req, model.size(), [&](const QueryRequest& q) { return db->Query(q); }, &count,
      between_pages);
  if (::testing::Test::HasFailure()) return;
  EXPECT_EQ(count, static_cast<int64_t>(expected.size()));
  ++coverage.queries;
  coverage.nonempty_queries += count > 0;
  if (req.select == Select::kCount) return;
  for (size_t i = 1; i < got.size(); ++i) {
    int c = CompareSort(got[i - 1].at(src.sort), got[i].at(src.sort), src.sort_bound);
    if (req.scan_index_forward ? c > 0 : c < 0) {
      ADD_FAILURE() << "out of order at #" << i << " ("
                    << (req.scan_index_forward ? "forward" : "backward") << "):\n  "
                    << Brief(got[i - 1]) << "\n  " << Brief(got[i]);
      return;
    }
  }
  Canonicalize(t, src, &got);
  EXPECT_TRUE(SameItems(expected, got));
}

// Runs a Scan (every segment when total_segments is set) and checks that the segments
// partition the source: each entry exactly once, equal to the model's, and all entries of one
// partition key in one segment.
void CheckScan(Database* db, const TableInfo& t, const SourceInfo& src, const Model& model,
               ScanRequest req, const PageHook& between_pages = nullptr) {
  Model expected;
  for (const auto& [key, item] : model) {
    if (std::optional<Item> p = Project(t, src, item)) expected.emplace(key, *p);
  }
  int segments = req.total_segments.value_or(1);
  Model seen;
  std::map<std::string, int> segment_of_partition;
  int64_t total_count = 0;
  for (int s = 0; s < segments; ++s) {
    if (req.total_segments) req.segment = s;
    int64_t count = 0;
    std::vector<Item> got = ReadAllPages(
        t, src, req, model.size(), [&](const ScanRequest& r) { return db->Scan(r); }, &count,
        between_pages);
    if (::testing::Test::HasFailure()) return;
    total_count += count;
    for (const Item& item : got) {
      Key key = KeyOf(t, item);
      if (!seen.emplace(key, item).second) {
        ADD_FAILURE() << "segment " << s << " returned an item twice: " << Brief(item);
        return;
      }
      auto [it, fresh] = segment_of_partition.emplace(Dump({{"p", item.at(src.partition)}}), s);
      if (!fresh && it->second != s) {
        ADD_FAILURE() << "partition " << it->first << " is in segments " << it->second << " and "
                      << s;
        return;
      }
    }
  }
  EXPECT_EQ(total_count, static_cast<int64_t>(expected.size()));
  if (req.select == Select::kCount) return;
  std::vector<Item> want, got;
  for (const auto& [k, v] : expected) want.push_back(v);
  for (const auto& [k, v] : seen) got.push_back(v);
  EXPECT_TRUE(SameItems(want, got));
}

// Compares the whole table and every index with the model, the statistics of DescribeTable,
// and runs VerifyIntegrity.
void CheckEverything(Database* db, const TableInfo& t, const Model& model) {
  for (const SourceInfo& src : t.sources) {
    SCOPED_TRACE("full scan of " + src.index.value_or("the table"));
    ScanRequest req;
    req.table_name = t.name;
    req.index_name = src.index;
    CheckScan(db, t, src, model, req);
  }
  DescribeTableRequest dr;
  dr.table_name = t.name;
  auto d = db->DescribeTable(dr);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->table.item_count, static_cast<int64_t>(model.size()));
  int64_t bytes = 0;
  for (const auto& [k, item] : model) bytes += static_cast<int64_t>(ItemSize(item));
  EXPECT_EQ(d->table.size_bytes, bytes);
  ASSERT_EQ(d->table.indexes.size(), t.sources.size() - 1);
  for (const IndexDescription& idx : d->table.indexes) {
    const SourceInfo* src = nullptr;
    for (const SourceInfo& s : t.sources) {
      if (s.index == idx.name) src = &s;
    }
    ASSERT_NE(src, nullptr) << idx.name;
    int64_t n = 0, index_bytes = 0;
    for (const auto& [k, item] : model) {
      if (std::optional<Item> p = Project(t, *src, item)) {
        ++n;
        index_bytes += static_cast<int64_t>(ItemSize(*p));
      }
    }
    EXPECT_EQ(idx.item_count, n) << idx.name;
    EXPECT_EQ(idx.size_bytes, index_bytes) << idx.name;
  }
  Status v = db->VerifyIntegrity();
  EXPECT_TRUE(v.ok()) << v.ToString();
}

// ---- the randomized model test ----

enum class GsiProjection { kInclude, kKeysOnly };

struct ModelParam {
  GsiProjection projection;
  uint64_t seed;
};

void PrintTo(const ModelParam& p, std::ostream* os) {
  *os << (p.projection == GsiProjection::kInclude ? "INCLUDE" : "KEYS_ONLY") << " seed " << p.seed;
}

std::string PrintParam(const ::testing::TestParamInfo<ModelParam>& info) {
  return std::string(info.param.projection == GsiProjection::kInclude ? "Include" : "KeysOnly") +
         "_seed" + std::to_string(info.param.seed);
}

class StorageModelTest : public ::testing::TestWithParam<ModelParam> {};

// Small value domains, so that overwrites, deletes of present items and equal index keys are
// frequent. Some partition keys are long (past the 192-byte bound, two sharing 600 bytes), some
// GSI partition keys pass the index bound of 120 and some LSI sort keys the bound of 160.
struct Domain {
  std::vector<std::string> pks = {"p0", "p1", "p2", "p3", "\xc3\xa9t\xc3\xa9"};
  std::vector<std::string> long_pks = {std::string(600, 'k') + "1", std::string(600, 'k') + "2",
                                       std::string(2048, 'z'), std::string(500, '\0') + "x"};
  std::vector<std::string> sks = {"-3", "-2", "-1.5", "-1", "-1e-20", "0",         "0.5",
                                  "1",  "2",  "3",    "4",  "5",      "6",         "7",
                                  "8",  "9",  "10",   "11", "12",     "12.000001", "1e30"};
  std::vector<std::string> extra_sks = {"-100", "2.25", "100", "1e31", "-0.5"};
  std::vector<std::string> gs = {"-1", "0", "1", "2", "2.5", "3", "4"};
  std::vector<std::string> g = {"g0", "g1", "g2", std::string(300, 'g') + "x",
                                std::string(300, 'g') + "y"};
  std::vector<std::string> l = {"a",
                                "ab",
                                "abc",
                                "b",
                                "ba",
                                "z",
                                "\xc3\xa9",
                                std::string("a\0b", 3),
                                std::string("a\0", 2),
                                std::string(200, 'a'),
                                std::string(200, 'a') + "b",
                                std::string(170, 'a') + "c"};
  std::vector<std::string> l_prefixes = {"a",
                                         "ab",
                                         "b",
                                         "z",
                                         "q",
                                         "\xc3\xa9",
                                         std::string("a\0", 2),
                                         std::string(150, 'a'),
                                         std::string(165, 'a'),
                                         std::string(200, 'a'),
                                         std::string(200, 'a') + "b"};
  std::vector<std::string> l_operands = {"aa", "abd", "c", "\x7f"};  // plus `l` itself
};

class Runner {
 public:
  Runner(GsiProjection projection, uint64_t seed) : rng_(seed), projection_(projection) {
    t_.name = "Model";
    t_.pk = "pk";
    t_.sk = "sk";
    SourceInfo table;
    table.partition = "pk";
    table.sort = "sk";
    SourceInfo gsi;
    gsi.index = "gsi";
    gsi.global = true;
    gsi.partition = "g";
    gsi.sort = "gs";
    gsi.sort_bound = kIndexSortBound;
    gsi.include = projection == GsiProjection::kInclude ? std::vector<std::string>{"a"}
                                                        : std::vector<std::string>{};
    SourceInfo lsi;
    lsi.index = "lsi";
    lsi.partition = "pk";
    lsi.sort = "l";
    lsi.sort_bound = kIndexSortBound;
    t_.sources = {table, gsi, lsi};
    d_.l_operands.insert(d_.l_operands.end(), d_.l.begin(), d_.l.end());
  }

  void Run(int ops) {
    coverage = Coverage();
    CreateTableRequest c;
    c.table_name = t_.name;
    c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}, {"gs", "N"}, {"l", "S"}};
    c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
    IndexSpec gsi{
        "gsi", {{"g", "HASH"}, {"gs", "RANGE"}}, "INCLUDE", std::vector<std::string>{"a"}};
    if (projection_ == GsiProjection::kKeysOnly) gsi = {gsi.name, gsi.key_schema, "KEYS_ONLY", {}};
    c.global_secondary_indexes = {gsi};
    c.local_secondary_indexes = {{"lsi", {{"pk", "HASH"}, {"l", "RANGE"}}, "ALL", std::nullopt}};
    auto created = db_->CreateTable(c);
    ASSERT_TRUE(created.ok()) << created.status().ToString();

    for (int op = 0; op < ops; ++op) {
      SCOPED_TRACE("operation #" + std::to_string(op));
      int dice = Uniform(100);
      if (dice < 38) {
        Put();
      } else if (dice < 52) {
        Delete();
      } else if (dice < 64) {
        Get();
      } else if (dice < 90) {
        Query();
      } else {
        Scan();
      }
      if (::testing::Test::HasFailure()) return;
      if (op % 250 == 249) {
        CheckEverything(&*db_, t_, model_);
        if (::testing::Test::HasFailure()) return;
      }
      if (op % 1000 == 999) db_.Reopen();  // everything must survive close and reopen
      if (op == ops / 3) AddSecondGsi();
      if (op == 2 * ops / 3) DropSecondGsi();
      if (::testing::Test::HasFailure()) return;
    }
    CheckEverything(&*db_, t_, model_);
    const Coverage& cov = coverage;
    for (auto [name, value] : {std::pair<const char*, int64_t>{"pages", cov.pages},
                               {"megabyte_pages", cov.megabyte_pages},
                               {"multi_page_reads", cov.multi_page_reads},
                               {"queries", cov.queries},
                               {"nonempty_queries", cov.nonempty_queries},
                               {"overwrites", cov.overwrites},
                               {"deletes_of_present", cov.deletes_of_present},
                               {"refused_puts", cov.refused_puts},
                               {"deleted_between_pages", cov.deleted_between_pages}}) {
      ::testing::Test::RecordProperty(name, std::to_string(value));
      EXPECT_GT(value, ops / 500) << "the run hardly exercised " << name;
    }
  }

 private:
  int Uniform(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  bool OneIn(int n) { return Uniform(n) == 0; }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(static_cast<int>(v.size()))];
  }

  std::string RandomPk() { return Uniform(4) == 0 ? Pick(d_.long_pks) : Pick(d_.pks); }
  AttributeValue RandomSk() { return N(OneIn(10) ? Pick(d_.extra_sks) : Pick(d_.sks)); }
  Item RandomKey() {
    // Mostly keys the model holds, so that gets and deletes hit.
    if (!model_.empty() && Uniform(3) != 0) {
      auto it = model_.begin();
      std::advance(it, Uniform(static_cast<int>(model_.size())));
      return {{"pk", it->first.first}, {"sk", it->first.second}};
    }
    return {{"pk", S(RandomPk())}, {"sk", RandomSk()}};
  }

  AttributeValue RandomValue() {
    switch (Uniform(10)) {
      case 0:
        return S("s" + std::to_string(Uniform(5)));
      case 1:
        return N(std::to_string(Uniform(1000) - 500) + "." + std::to_string(Uniform(10)));
      case 2:
        return AttributeValue::B(std::string(1 + Uniform(4), static_cast<char>(Uniform(256))));
      case 3:
        return AttributeValue::Bool(OneIn(2));
      case 4:
        return AttributeValue::Null();
      case 5:
        return AttributeValue::L({S("x"), N("1"), AttributeValue::Null()});
      case 6:
        return AttributeValue::M({{"k", S("v" + std::to_string(Uniform(3)))}, {"n", N("2")}});
      case 7:
        return AttributeValue::SS({"b", "a", "c" + std::to_string(Uniform(3))});
      case 8:
        return AttributeValue::NS({Number::FromInt(Uniform(5)), Number::FromInt(10 + Uniform(5))});
      default:
        return AttributeValue::BS({std::string("\0\1", 2), "\xff"});
    }
  }

  Item RandomItem() {
    Item item{{"pk", S(RandomPk())}, {"sk", RandomSk()}};
    if (Uniform(4) != 0) {
      item["a"] = OneIn(2) ? S("a" + std::to_string(Uniform(4))) : N(std::to_string(Uniform(4)));
    }
    if (OneIn(2)) item["b"] = RandomValue();
    if (OneIn(5)) item["c"] = RandomValue();
    bool big = OneIn(10);  // big items make pages stop at 1 MB
    if (big) item["c"] = S(std::string(150000 + Uniform(200000), 'c'));
    if (Uniform(5) != 0) item["g"] = S(Pick(d_.g));
    if (Uniform(5) != 0) item["gs"] = N(Pick(d_.gs));
    if (Uniform(3) != 0 && (!big || OneIn(3))) item["l"] = S(Pick(d_.l));  // usually too big
    return item;
  }

  void Put() {
    PutItemRequest r;
    r.table_name = t_.name;
    r.item = RandomItem();
    bool all_old = OneIn(2);
    if (all_old) r.return_values = ReturnValues::kAllOld;
    int invalid = OneIn(30) ? 1 + Uniform(3) : 0;
    if (invalid == 1) r.item["gs"] = S("not a number");  // index key of the wrong type
    if (invalid == 2) r.item["l"] = S("");               // empty index key
    if (invalid == 3) r.item["g"] = N("1");
    // On a table with LSIs the 400 KB limit covers the item plus its LSI copies (the LSI
    // projects ALL): reference §1.9.
    if (ItemSize(r.item) * (r.item.count("l") ? 2 : 1) > kMaxItemSize) invalid = 4;
    auto resp = db_->PutItem(r);
    if (invalid) {  // refused, and nothing written
      ++coverage.refused_puts;
      EXPECT_TRUE(resp.status().IsValidation())
          << "case " << invalid << ": " << resp.status().ToString() << " " << Brief(r.item);
      return;
    }
    ASSERT_TRUE(resp.ok()) << resp.status().ToString() << " " << Brief(r.item);
    Key key = KeyOf(t_, r.item);
    auto it = model_.find(key);
    if (all_old && it != model_.end()) {
      EXPECT_TRUE(resp->attributes.has_value());
      if (resp->attributes) {
        EXPECT_TRUE(SameItem(it->second, *resp->attributes));
      }
    } else {
      EXPECT_FALSE(resp->attributes.has_value()) << Brief(*resp->attributes);
    }
    coverage.overwrites += it != model_.end();
    model_[key] = r.item;
  }

  void Delete() {
    DeleteItemRequest r;
    r.table_name = t_.name;
    r.key = RandomKey();
    bool all_old = OneIn(2);
    if (all_old) r.return_values = ReturnValues::kAllOld;
    auto resp = db_->DeleteItem(r);
    ASSERT_TRUE(resp.ok()) << resp.status().ToString() << " " << Brief(r.key);
    auto it = model_.find(KeyOf(t_, r.key));
    if (all_old && it != model_.end()) {
      EXPECT_TRUE(resp->attributes.has_value());
      if (resp->attributes) {
        EXPECT_TRUE(SameItem(it->second, *resp->attributes));
      }
    } else {
      EXPECT_FALSE(resp->attributes.has_value()) << Brief(*resp->attributes);
    }
    if (it != model_.end()) {
      model_.erase(it);
      ++coverage.deletes_of_present;
    }
  }

  void Get() {
    GetItemRequest r;
    r.table_name = t_.name;
    r.key = RandomKey();
    r.consistent_read = OneIn(2);
    auto resp = db_->GetItem(r);
    ASSERT_TRUE(resp.ok()) << resp.status().ToString() << " " << Brief(r.key);
    auto it = model_.find(KeyOf(t_, r.key));
    if (it == model_.end()) {
      EXPECT_FALSE(resp->item.has_value()) << Brief(r.key) << " -> " << Brief(*resp->item);
    } else {
      EXPECT_TRUE(resp->item.has_value()) << Brief(r.key);
      if (resp->item) {
        EXPECT_TRUE(SameItem(it->second, *resp->item));
      }
    }
  }

  std::optional<int> RandomLimit() {
    int d = Uniform(10);
    if (d < 4) return std::nullopt;
    if (d < 9) return 1 + Uniform(6);
    return 20 + Uniform(40);
  }

  // A sort-key condition on `src` with operands from the domain (BETWEEN with ordered bounds).
  void RandomSortCondition(const SourceInfo& src, KeyCondition* kc) {
    bool strings = src.sort == "l";
    auto operand = [&] {
      if (strings) return S(Pick(d_.l_operands));
      if (src.sort == "gs") return N(OneIn(4) ? Pick(d_.sks) : Pick(d_.gs));
      return N(OneIn(5) ? Pick(d_.extra_sks) : Pick(d_.sks));
    };
    int op = Uniform(strings ? 8 : 7);
    kc->op = static_cast<SortKeyOp>(op);  // kNone .. kBeginsWith, in declaration order
    if (kc->op == SortKeyOp::kNone) return;
    kc->sort_name = src.sort;
    if (kc->op == SortKeyOp::kBeginsWith) {
      kc->sort_value = S(Pick(d_.l_prefixes));
      return;
    }
    kc->sort_value = operand();
    if (kc->op == SortKeyOp::kBetween) {
      kc->sort_value2 = operand();
      if (OracleCompare(kc->sort_value, kc->sort_value2) > 0)
        std::swap(kc->sort_value, kc->sort_value2);
    }
  }

  void Query() {
    const SourceInfo& src = t_.sources[Uniform(static_cast<int>(t_.sources.size()))];
    QueryRequest q;
    q.table_name = t_.name;
    q.index_name = src.index;
    q.key_condition.partition_name = src.partition;
    q.key_condition.partition_value = S(src.partition == "g"   ? Pick(d_.g)
                                        : src.partition == "l" ? Pick(d_.l)
                                                               : RandomPk());
    RandomSortCondition(src, &q.key_condition);
    q.scan_index_forward = OneIn(2);
    q.limit = RandomLimit();
    q.consistent_read = !src.global && OneIn(2);
    if (OneIn(8)) q.select = Select::kCount;
    if (src.index && OneIn(8)) q.select = Select::kAllProjectedAttributes;
    if (!src.global && OneIn(8)) q.select = Select::kAllAttributes;
    // Errors a random request may legitimately run into, checked here rather than skipped.
    if (src.global && OneIn(20)) {
      QueryRequest bad = q;
      bad.consistent_read = true;
      EXPECT_TRUE(db_->Query(bad).status().IsValidation());
      bad.consistent_read = false;
      bad.select = Select::kAllAttributes;
      EXPECT_TRUE(db_->Query(bad).status().IsValidation());  // INCLUDE/KEYS_ONLY GSI
    }
    if (q.key_condition.op == SortKeyOp::kBetween &&
        OracleCompare(q.key_condition.sort_value, q.key_condition.sort_value2) < 0 && OneIn(10)) {
      QueryRequest bad = q;
      std::swap(bad.key_condition.sort_value, bad.key_condition.sort_value2);
      EXPECT_TRUE(db_->Query(bad).status().IsValidation());
    }
    CheckQuery(&*db_, t_, src, model_, q, MaybeDeleteBetweenPages());
    ForgetDeleted();
  }

  void Scan() {
    const SourceInfo& src = t_.sources[Uniform(static_cast<int>(t_.sources.size()))];
    ScanRequest r;
    r.table_name = t_.name;
    r.index_name = src.index;
    r.limit = RandomLimit();
    if (OneIn(8)) r.select = Select::kCount;
    static const int kTotals[] = {1, 2, 3, 4, 7, 16};
    if (Uniform(3) != 0) r.total_segments = kTotals[Uniform(6)];
    SCOPED_TRACE("Scan " + src.index.value_or("table") + " limit " +
                 (r.limit ? std::to_string(*r.limit) : "none") + " segments " +
                 std::to_string(r.total_segments.value_or(0)));
    CheckScan(&*db_, t_, src, model_, r, MaybeDeleteBetweenPages());
    ForgetDeleted();
  }

  // UpdateTable adds "gsi2" (l S, sk N) KEYS_ONLY mid-run: its backfill must index exactly the
  // items with an `l`, its sort key is a table key attribute (so its LastEvaluatedKey has three
  // attributes), and later writes maintain it. It is dropped again at two thirds of the run.
  void AddSecondGsi() {
    UpdateTableRequest u;
    u.table_name = t_.name;
    u.attribute_definitions = {{"l", "S"}, {"sk", "N"}};
    u.create_global_index = IndexSpec{"gsi2", {{"l", "HASH"}, {"sk", "RANGE"}}, "KEYS_ONLY", {}};
    auto r = db_->UpdateTable(u);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    SourceInfo gsi2;
    gsi2.index = "gsi2";
    gsi2.global = true;
    gsi2.partition = "l";
    gsi2.sort = "sk";
    gsi2.sort_bound = kIndexSortBound;
    gsi2.include = std::vector<std::string>{};
    t_.sources.push_back(gsi2);
    SCOPED_TRACE("after adding gsi2");
    CheckEverything(&*db_, t_, model_);
  }
  void DropSecondGsi() {
    UpdateTableRequest u;
    u.table_name = t_.name;
    u.delete_global_index = "gsi2";
    auto r = db_->UpdateTable(u);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    t_.sources.pop_back();
    QueryRequest q;
    q.table_name = t_.name;
    q.index_name = "gsi2";
    q.key_condition.partition_name = "l";
    q.key_condition.partition_value = S("a");
    EXPECT_TRUE(db_->Query(q).status().IsValidation());
    SCOPED_TRACE("after dropping gsi2");
    CheckEverything(&*db_, t_, model_);
  }

  // Sometimes deletes, between two pages, the item the LastEvaluatedKey names (already
  // returned): the read must resume after a key that no longer exists, and nothing else
  // changes for it. The model forgets the items after the read (ForgetDeleted).
  PageHook MaybeDeleteBetweenPages() {
    if (!OneIn(6)) return nullptr;
    return [this](const Item& lek) {
      DeleteItemRequest d;
      d.table_name = t_.name;
      d.key = {{"pk", lek.at("pk")}, {"sk", lek.at("sk")}};
      auto r = db_->DeleteItem(d);
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      deleted_.push_back(KeyOf(t_, d.key));
    };
  }
  void ForgetDeleted() {
    coverage.deleted_between_pages += static_cast<int64_t>(deleted_.size());
    for (const Key& k : deleted_) model_.erase(k);
    deleted_.clear();
  }

  std::mt19937_64 rng_;
  GsiProjection projection_;
  TableInfo t_;
  Domain d_;
  TempDb db_;
  Model model_;
  std::vector<Key> deleted_;
};

TEST_P(StorageModelTest, Randomized) {
  SCOPED_TRACE("seed " + std::to_string(GetParam().seed));
  Runner(GetParam().projection, GetParam().seed).Run(4000);
}

INSTANTIATE_TEST_SUITE_P(Seeds, StorageModelTest,
                         ::testing::Values(ModelParam{GsiProjection::kInclude, 1},
                                           ModelParam{GsiProjection::kInclude, 2},
                                           ModelParam{GsiProjection::kInclude, 3},
                                           ModelParam{GsiProjection::kKeysOnly, 4},
                                           ModelParam{GsiProjection::kKeysOnly, 5},
                                           ModelParam{GsiProjection::kKeysOnly, 6}),
                         PrintParam);

// ---- long S sort keys sharing long prefixes ----

// pk S, sk S; LSI "lsi" (pk, l S) ALL; GSI "gsi" (g S, gs S) KEYS_ONLY. Sort keys are 300–1024
// bytes (plus a few around the bounds) and share prefixes of up to 1000 bytes, so most pairs
// of a partition are ordered by digest; lookups must still be exact and every item found once.
class LongKeys {
 public:
  explicit LongKeys(uint64_t seed) : rng_(seed) {
    t_.name = "LongKeys";
    t_.pk = "pk";
    t_.sk = "sk";
    SourceInfo table{std::nullopt, false, "pk", "sk", kTableSortBound, std::nullopt};
    SourceInfo lsi{"lsi", false, "pk", "l", kIndexSortBound, std::nullopt};
    SourceInfo gsi{"gsi", true, "g", "gs", kIndexSortBound, std::vector<std::string>{}};
    t_.sources = {table, lsi, gsi};
    for (int i = 0; i < 1100; ++i) base_.push_back(static_cast<char>('a' + Uniform(26)));
  }

  void Run() {
    CreateTableRequest c;
    c.table_name = t_.name;
    c.attribute_definitions = {{"pk", "S"}, {"sk", "S"}, {"l", "S"}, {"g", "S"}, {"gs", "S"}};
    c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
    c.local_secondary_indexes = {{"lsi", {{"pk", "HASH"}, {"l", "RANGE"}}, "ALL", std::nullopt}};
    c.global_secondary_indexes = {{"gsi", {{"g", "HASH"}, {"gs", "RANGE"}}, "KEYS_ONLY", {}}};
    auto created = db_->CreateTable(c);
    ASSERT_TRUE(created.ok()) << created.status().ToString();

    const std::vector<std::string> pks = {"p", "q", std::string(1500, 'P')};
    const std::vector<std::string> gs = {"g", std::string(900, 'G')};
    for (const std::string& pk : pks) {
      std::set<std::string> sks;
      while (sks.size() < 45) sks.insert(LongString(kTableSortBound));
      for (const std::string& sk : sks) {
        Item item{{"pk", S(pk)}, {"sk", S(sk)}, {"v", N(std::to_string(Uniform(1000)))}};
        if (Uniform(6) != 0) item["l"] = S(LongString(kIndexSortBound));
        if (Uniform(6) != 0) item["g"] = S(Pick(gs));
        if (Uniform(6) != 0) item["gs"] = S(LongString(kIndexSortBound));
        PutItemRequest r;
        r.table_name = t_.name;
        r.item = item;
        auto resp = db_->PutItem(r);
        ASSERT_TRUE(resp.ok()) << resp.status().ToString();
        model_[KeyOf(t_, item)] = item;
      }
    }
    CheckAll(pks, gs);
    if (::testing::Test::HasFailure()) return;
    // Delete every other item and check again.
    int i = 0;
    for (auto it = model_.begin(); it != model_.end();) {
      if (i++ % 2 == 0) {
        ++it;
        continue;
      }
      DeleteItemRequest r;
      r.table_name = t_.name;
      r.key = {{"pk", it->first.first}, {"sk", it->first.second}};
      ASSERT_TRUE(db_->DeleteItem(r).ok());
      it = model_.erase(it);
    }
    CheckAll(pks, gs);
  }

 private:
  int Uniform(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  template <typename T>
  const T& Pick(const std::vector<T>& v) {
    return v[Uniform(static_cast<int>(v.size()))];
  }

  // A string sharing a prefix of base_ with many others: mostly 300–1024 bytes, sometimes of
  // the lengths around `bound` (encoding = length + 2 bytes).
  std::string LongString(size_t bound) {
    size_t len;
    if (Uniform(5) == 0) {
      len = bound - 4 + Uniform(6);  // encodings of bound-2 .. bound+3 bytes
    } else {
      len = 300 + Uniform(725);
    }
    static const size_t kShared[] = {0,   100, 150, 157, 158, 159, 160, 161, 200, 265,
                                     268, 269, 270, 271, 272, 273, 280, 400, 700, 1000};
    size_t shared = std::min(kShared[Uniform(20)], len - 1);
    std::string s = base_.substr(0, shared);
    while (s.size() < len) s.push_back(static_cast<char>('a' + Uniform(26)));
    return s;
  }

  void CheckAll(const std::vector<std::string>& pks, const std::vector<std::string>& gs) {
    CheckEverything(&*db_, t_, model_);
    // Exact point lookups: every key, and absent keys that share all but the tail.
    for (const auto& [key, item] : model_) {
      GetItemRequest g;
      g.table_name = t_.name;
      g.key = {{"pk", key.first}, {"sk", key.second}};
      auto resp = db_->GetItem(g);
      ASSERT_TRUE(resp.ok()) << resp.status().ToString();
      ASSERT_TRUE(resp->item.has_value()) << Brief(g.key);
      EXPECT_TRUE(SameItem(item, *resp->item));
      for (std::string other :
           {key.second.s() + "a", key.second.s().substr(0, key.second.s().size() - 1),
            key.second.s().substr(0, key.second.s().size() - 1) + "~"}) {
        if (model_.count({key.first, S(other)})) continue;
        g.key["sk"] = S(other);
        resp = db_->GetItem(g);
        ASSERT_TRUE(resp.ok()) << resp.status().ToString();
        EXPECT_FALSE(resp->item.has_value()) << "absent key found: " << Brief(g.key);
        QueryRequest q = NewQuery(t_.sources[0], key.first);
        q.key_condition.op = SortKeyOp::kEq;
        q.key_condition.sort_name = "sk";
        q.key_condition.sort_value = S(other);
        CheckQuery(&*db_, t_, t_.sources[0], model_, q);
      }
      // Equality queries on the table and on the LSI find exactly their items.
      QueryRequest q = NewQuery(t_.sources[0], key.first);
      q.key_condition.op = SortKeyOp::kEq;
      q.key_condition.sort_name = "sk";
      q.key_condition.sort_value = key.second;
      CheckQuery(&*db_, t_, t_.sources[0], model_, q);
      if (item.count("l")) {
        QueryRequest lq = NewQuery(t_.sources[1], key.first);
        lq.key_condition.op = SortKeyOp::kEq;
        lq.key_condition.sort_name = "l";
        lq.key_condition.sort_value = item.at("l");
        CheckQuery(&*db_, t_, t_.sources[1], model_, lq);
      }
      if (::testing::Test::HasFailure()) return;
    }
    // Range conditions with operands drawn from the stored values and their neighbours.
    std::vector<AttributeValue> values;
    for (const auto& [key, item] : model_) {
      for (const char* a : {"sk", "l", "gs"}) {
        if (item.count(a)) values.push_back(item.at(a));
      }
    }
    for (int round = 0; round < 300; ++round) {
      const SourceInfo& src = t_.sources[Uniform(3)];
      QueryRequest q = NewQuery(src, S(src.global ? Pick(gs) : Pick(pks)));
      q.scan_index_forward = Uniform(2) == 0;
      q.limit = Uniform(3) == 0 ? std::nullopt : std::optional<int>(1 + Uniform(30));
      KeyCondition& kc = q.key_condition;
      kc.op = static_cast<SortKeyOp>(Uniform(8));
      if (kc.op != SortKeyOp::kNone) kc.sort_name = src.sort;
      std::string v = Pick(values).s();
      if (Uniform(3) == 0) v = v.substr(0, 1 + Uniform(static_cast<int>(v.size())));
      if (kc.op == SortKeyOp::kBeginsWith) {
        static const size_t kLens[] = {1, 100, 158, 159, 160, 161, 270, 271, 272, 273, 300, 2000};
        v = v.substr(0, kLens[Uniform(12)]);
      }
      kc.sort_value = S(v);
      kc.sort_value2 = Pick(values);
      if (kc.op == SortKeyOp::kBetween && OracleCompare(kc.sort_value, kc.sort_value2) > 0) {
        std::swap(kc.sort_value, kc.sort_value2);
      }
      SCOPED_TRACE("range query round " + std::to_string(round));
      CheckQuery(&*db_, t_, src, model_, q);
      if (::testing::Test::HasFailure()) return;
    }
    // Whole partitions, paged, both directions.
    for (const SourceInfo& src : t_.sources) {
      for (const std::string& p : src.global ? gs : pks) {
        for (int limit : {0, 1, 7}) {
          for (bool forward : {true, false}) {
            QueryRequest q = NewQuery(src, S(p));
            if (limit) q.limit = limit;
            q.scan_index_forward = forward;
            CheckQuery(&*db_, t_, src, model_, q);
          }
        }
      }
      ScanRequest s;
      s.table_name = t_.name;
      s.index_name = src.index;
      s.limit = 5;
      s.total_segments = 3;
      CheckScan(&*db_, t_, src, model_, s);
    }
  }

  QueryRequest NewQuery(const SourceInfo& src, AttributeValue partition) {
    QueryRequest q;
    q.table_name = t_.name;
    q.index_name = src.index;
    q.key_condition.partition_name = src.partition;
    q.key_condition.partition_value = std::move(partition);
    return q;
  }

  std::mt19937_64 rng_;
  std::string base_;
  TableInfo t_;
  TempDb db_;
  Model model_;
};

TEST(StorageModelLongKeys, SortKeysSharingLongPrefixes) {
  for (uint64_t seed : {11, 12}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    LongKeys(seed).Run();
    if (HasFailure()) return;
  }
}

}  // namespace
}  // namespace keyhole::storage
