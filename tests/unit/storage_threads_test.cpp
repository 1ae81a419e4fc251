// One Database shared by many threads, as `keyhole serve` shares it: reads in parallel with a
// write, writes serialized, schema changes and map growth while others read (storage/env.h,
// "Thread-safety").
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "storage/env.h"
#include "storage_test_util.h"

namespace keyhole::testing {
namespace {

// ADD 1 to the counter of ("c", n).
Status AddOne(TempDb& db, int64_t n) {
  UpdateItemRequest u;
  u.table_name = "App";
  u.key = Key("c", n);
  u.expressions.update = "ADD v :one";
  u.expressions.values = std::map<std::string, AttributeValue>{{":one", N(1)}};
  return db->UpdateItem(u).status();
}

// The sum of the counters AddOne adds to: ("c", 0) to ("c", 4).
int64_t CounterSum(TempDb& db) {
  int64_t sum = 0;
  for (int n = 0; n < 5; ++n) {
    GetItemRequest g;
    g.table_name = "App";
    g.key = Key("c", n);
    auto r = db->GetItem(g);
    EXPECT_TRUE(r.ok() && r->item);
    if (!r.ok() || !r->item) return -1;
    int64_t v = 0;
    r->item->at("v").n().ToInt64(&v);
    sum += v;
  }
  return sum;
}

// The items of partition `pk` in "App", following LastEvaluatedKey; -1 on an error.
int64_t CountPartition(TempDb& db, const std::string& pk, int limit) {
  int64_t n = 0;
  std::optional<Item> start;
  do {
    QueryRequest q;
    q.table_name = "App";
    q.key_condition.partition_name = "pk";
    q.key_condition.partition_value = S(pk);
    q.limit = limit;
    q.exclusive_start_key = start;
    auto r = db->Query(q);
    if (!r.ok()) return -1;
    n += static_cast<int64_t>(r->items.size());
    start = r->last_evaluated_key;
  } while (start);
  return n;
}

TEST(StorageThreadsTest, ReadersWritersAndSchemaChangesShareOneDatabase) {
  TempDb db;
  MakeTables(db, "Other");
  constexpr int kWriters = 3, kPerWriter = 300, kReaders = 4;
  std::atomic<bool> done{false};
  std::atomic<int> errors{0};
  std::mutex first_error_mutex;
  std::string first_error;
  auto fail = [&](const std::string& what, const Status& st) {
    ++errors;
    std::lock_guard<std::mutex> lock(first_error_mutex);
    if (first_error.empty()) first_error = what + ": " + st.ToString();
  };
  std::vector<std::thread> threads;
  // Writers: distinct items (with an index key, so each write maintains the GSI), and one
  // shared counter per writer round.
  std::atomic<int64_t> acknowledged{0};
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < kPerWriter; ++i) {
        Item it = Key("w" + std::to_string(w), i);
        it["g"] = S(i % 2 ? "odd" : "even");
        it["pad"] = S(std::string(200, 'x'));
        if (Status st = PutOne(db, "App", it); !st.ok()) fail("PutItem", st);
        if (Status st = AddOne(db, i % 5); !st.ok()) fail("UpdateItem", st);
        ++acknowledged;
      }
    });
  }
  // Readers: every Query of a writer's partition sees a prefix of its writes (items 0..n-1),
  // never fewer than a Query before it saw.
  for (int r = 0; r < kReaders; ++r) {
    threads.emplace_back([&, r] {
      std::vector<int64_t> last(kWriters, 0);
      while (!done.load()) {
        for (int w = 0; w < kWriters; ++w) {
          const int64_t n = CountPartition(db, "w" + std::to_string(w), 7 + r);
          if (n < last[w]) ++errors;
          last[w] = n;
        }
        GetItemRequest g;
        g.table_name = "App";
        g.key = Key("w0", 0);
        if (!db->GetItem(g).ok()) ++errors;
      }
    });
  }
  // Schema changes beside them: tables created and dropped, an index added and dropped, the
  // table list read.
  threads.emplace_back([&] {
    for (int i = 0; !done.load() && i < 40; ++i) {
      CreateTableRequest c;
      c.table_name = "Tmp" + std::to_string(i);
      c.attribute_definitions = {{"pk", "S"}};
      c.key_schema = {{"pk", "HASH"}};
      if (Status st = db->CreateTable(c).status(); !st.ok()) fail("CreateTable", st);
      if (Status st = PutOne(db, c.table_name, {{"pk", S("a")}}); !st.ok()) fail("Put Tmp", st);
      UpdateTableRequest add;
      add.table_name = "Other";
      add.attribute_definitions = {{"x", "S"}};
      add.create_global_index = IndexSpec{"byX", {{"x", "HASH"}}, "ALL", std::nullopt};
      if (Status st = db->UpdateTable(add).status(); !st.ok()) fail("add index", st);
      UpdateTableRequest drop;
      drop.table_name = "Other";
      drop.delete_global_index = "byX";
      if (Status st = db->UpdateTable(drop).status(); !st.ok()) fail("drop index", st);
      DeleteTableRequest d;
      d.table_name = c.table_name;
      if (Status st = db->DeleteTable(d).status(); !st.ok()) fail("DeleteTable", st);
      if (Status st = db->ListTables({}).status(); !st.ok()) fail("ListTables", st);
    }
  });
  for (int w = 0; w < kWriters; ++w) threads[w].join();
  done = true;
  for (size_t i = kWriters; i < threads.size(); ++i) threads[i].join();

  EXPECT_EQ(errors.load(), 0) << first_error;
  for (int w = 0; w < kWriters; ++w)
    EXPECT_EQ(CountPartition(db, "w" + std::to_string(w), 50), kPerWriter);
  EXPECT_EQ(CounterSum(db), acknowledged.load());
  auto tables = db->ListTables({});
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(tables->table_names, (std::vector<std::string>{"App", "Other"}));
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageThreadsTest, TheMapGrowsWhileOthersRead) {
  // A 1 MB map must grow many times while readers keep reading.
  char tmpl[] = "/tmp/keyhole-test-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  storage::Database::Options o;
  o.sync = false;
  o.expression_parser = &Parser();
  o.initial_map_size = size_t{1} << 20;
  auto opened = storage::Database::Open(dir + "/grow.kh", o);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  storage::Database& db = **opened;
  CreateTableRequest c;
  c.table_name = "Big";
  c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}};
  c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  ASSERT_TRUE(db.CreateTable(c).ok());
  std::atomic<bool> done{false};
  std::atomic<int> errors{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&] {
      while (!done.load()) {
        QueryRequest q;
        q.table_name = "Big";
        q.key_condition.partition_name = "pk";
        q.key_condition.partition_value = S("p");
        q.limit = 20;
        if (!db.Query(q).ok()) ++errors;
      }
    });
  }
  for (int i = 0; i < 400; ++i) {
    PutItemRequest p;
    p.table_name = "Big";
    p.item = {{"pk", S("p")}, {"sk", N(i)}, {"blob", S(std::string(20000, 'b'))}};
    Status s = db.PutItem(p).status();
    if (!s.ok()) {
      ADD_FAILURE() << s.ToString();
      break;
    }
  }
  done = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(errors.load(), 0);
  // Every item is there (a COUNT reads 1 MB pages: follow them).
  int64_t count = 0;
  std::optional<Item> start;
  do {
    QueryRequest q;
    q.table_name = "Big";
    q.key_condition.partition_name = "pk";
    q.key_condition.partition_value = S("p");
    q.select = Select::kCount;
    q.exclusive_start_key = start;
    auto n = db.Query(q);
    ASSERT_TRUE(n.ok());
    count += n->count;
    start = n->last_evaluated_key;
  } while (start);
  EXPECT_EQ(count, 400);
  EXPECT_TRUE(db.VerifyIntegrity().ok());
  opened->reset();
  std::filesystem::remove_all(dir);
}

TEST(StorageThreadsTest, OneClientRequestTokenRunsOnce) {
  // Many threads send the same idempotent transaction at once: it applies exactly once.
  TempDb db;
  MakeTables(db, "Other");
  std::vector<std::thread> threads;
  std::atomic<int> errors{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      TransactWriteItemsRequest r;
      r.client_request_token = "same-token";
      UpdateItemRequest u;
      u.table_name = "App";
      u.key = Key("tok", 1);
      u.expressions.update = "ADD v :one";
      u.expressions.values = std::map<std::string, AttributeValue>{{":one", N(1)}};
      TransactWriteItem action;
      action.update = u;
      r.transact_items.push_back(action);
      if (!db->TransactWriteItems(r).ok()) ++errors;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(errors.load(), 0);
  GetItemRequest g;
  g.table_name = "App";
  g.key = Key("tok", 1);
  auto r = db->GetItem(g);
  ASSERT_TRUE(r.ok() && r->item);
  EXPECT_EQ(r->item->at("v").n().ToString(), "1");
}

// Group commit (storage/env.h): writers that arrive together share one write transaction,
// each in a nested one. Each write stays atomic: of many conditional puts of one key exactly
// one succeeds, a failed one leaves nothing, every ADD counts once, and tables created in the
// same groups are all there afterwards (a group's uncommitted schema is never cached).
TEST(StorageThreadsTest, GroupCommitKeepsEachWriteAtomic) {
  TempDb db;
  MakeTables(db, "Other");
  constexpr int kThreads = 8, kPerThread = 200, kKeys = 50;
  std::atomic<int> puts_ok{0}, adds_ok{0}, unexpected{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        PutItemRequest p;
        p.table_name = "App";
        p.item = Key("put", (i * 7 + t) % kKeys);
        p.item["writer"] = N(t);
        p.expressions.condition = "attribute_not_exists(pk)";
        Status s = db->PutItem(p).status();
        if (s.ok()) {
          ++puts_ok;
        } else if (!s.IsConditionFailed()) {
          ++unexpected;
        }
        if (AddOne(db, i % 5).ok()) ++adds_ok;
        if (i % 50 == 0) {
          CreateTableRequest c;
          c.table_name = "T" + std::to_string(t) + "_" + std::to_string(i);
          c.attribute_definitions = {{"id", "S"}};
          c.key_schema = {{"id", "HASH"}};
          if (!db->CreateTable(c).ok()) ++unexpected;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(unexpected.load(), 0);
  EXPECT_EQ(puts_ok.load(), kKeys);  // one per key, whoever came first
  EXPECT_EQ(CountPartition(db, "put", 7), kKeys);
  EXPECT_EQ(CounterSum(db), adds_ok.load());
  EXPECT_EQ(adds_ok.load(), kThreads * kPerThread);
  auto tables = db->ListTables({});
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(tables->table_names.size(), 2u + kThreads * (kPerThread / 50));
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

// A group that fills the map is grown and committed as one group, not as a commit (and a sync)
// per request: eight writers queued behind a slow one, whose values together outgrow a 1 MB
// map, are two commits in all.
TEST(StorageThreadsTest, AGroupThatFillsTheMapGrowsItAndStillCommitsOnce) {
  char tmpl[] = "/tmp/keyhole-test-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  storage::Env::Options options;
  options.initial_map_size = size_t{1} << 20;
  auto opened = storage::Env::Open(dir + "/group.mdb", options);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  storage::Env& env = **opened;
  MDB_dbi dbi = 0;
  ASSERT_TRUE(env.Write([&](storage::Txn& txn) -> Status {
                   if (mdb_dbi_open(txn.get(), nullptr, 0, &dbi)) return Status::Internal("open");
                   return Status::OK();
                 })
                  .ok());
  const uint64_t before = env.LastCommittedTxnId();
  const size_t map_before = env.map_size();
  std::atomic<bool> slow_started{false};
  std::thread slow([&] {
    EXPECT_TRUE(env.Write([&](storage::Txn& txn) -> Status {
                     slow_started = true;
                     std::this_thread::sleep_for(std::chrono::milliseconds(400));
                     return txn.Put(dbi, "slow", "x");
                   })
                    .ok());
  });
  while (!slow_started) std::this_thread::yield();
  const std::string value(200 * 1024, 'v');  // 8 of them: more than the 1 MB map
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i) {
    writers.emplace_back([&, i] {
      EXPECT_TRUE(
          env.Write([&](storage::Txn& txn) { return txn.Put(dbi, "k" + std::to_string(i), value); })
              .ok());
    });
  }
  slow.join();
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(env.LastCommittedTxnId() - before, 2u);  // the slow write, then the group
  EXPECT_GT(env.map_size(), map_before);
  EXPECT_TRUE(env.Read([&](storage::Txn& txn) -> Status {
                   for (int i = 0; i < 8; ++i) {
                     std::string_view v;
                     bool found = false;
                     KH_RETURN_IF_ERROR(txn.Get(dbi, "k" + std::to_string(i), &v, &found));
                     if (!found || v.size() != value.size()) return Status::Internal("missing");
                   }
                   return Status::OK();
                 })
                  .ok());
  opened->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace keyhole::testing
