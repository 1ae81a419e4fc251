// Database::ImportItems (all or nothing, interruptible) and opening files: read-only, files that
// are not databases (no lock file left), permission errors.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>

#include <lmdb.h>
#include <signal.h>

#include "storage_process_util.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::Key;
using testing::MakeAppTable;
using testing::MakeTables;
using testing::N;
using testing::S;
using testing::TempDb;

int64_t CountItems(TempDb& db, const std::string& table, const std::string& index = "") {
  ScanRequest scan;
  scan.table_name = table;
  if (!index.empty()) scan.index_name = index;
  scan.select = Select::kCount;
  int64_t n = 0;
  while (true) {
    Result<ScanResponse> r = db->Scan(scan);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return -1;
    n += r->count;
    if (!r->last_evaluated_key) return n;
    scan.exclusive_start_key = r->last_evaluated_key;
  }
}

std::vector<Item> Items(int n) {
  std::vector<Item> items;
  for (int i = 0; i < n; ++i) {
    Item item = Key("p" + std::to_string(i % 7), i);
    if (i % 2 == 0) item["g"] = S("even");
    items.push_back(std::move(item));
  }
  return items;
}

TEST(StorageImportItems, WritesEveryItemAndItsIndexEntries) {
  TempDb db;
  MakeTables(db, "Other");
  Result<ImportResult> r = db->ImportItems("App", Items(500));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->written, 500);
  EXPECT_EQ(r->write_units, 500 + 250);  // 1 WCU per small item, 1 more per GSI entry
  EXPECT_EQ(CountItems(db, "App"), 500);
  EXPECT_EQ(CountItems(db, "App", "byG"), 250);
  EXPECT_TRUE(db->VerifyIntegrity().ok());
  // A second import replaces items with the same key, as PutItem does.
  ASSERT_TRUE(db->ImportItems("App", Items(10)).ok());
  EXPECT_EQ(CountItems(db, "App"), 500);
}

TEST(StorageImportItems, ABadItemImportsNothing) {
  TempDb db;
  MakeTables(db, "Other");
  std::vector<Item> items = Items(100);
  items[60]["g"] = N(5);  // the GSI key must be a string
  Result<ImportResult> r = db->ImportItems("App", items);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsValidation()) << r.status().ToString();
  EXPECT_EQ(CountItems(db, "App"), 0);
  items[60].erase("g");
  items[61].erase("sk");  // a missing key attribute
  EXPECT_FALSE(db->ImportItems("App", items).ok());
  EXPECT_EQ(CountItems(db, "App"), 0);
  EXPECT_EQ(db->ImportItems("Nope", Items(1)).status().code(), ErrorCode::kResourceNotFound);
}

TEST(StorageImportItems, IsABulkLoadIntoAnEmptyTableWithoutAStreamOrLocalIndexes) {
  TempDb db;
  MakeTables(db, "Other");
  EXPECT_TRUE(db->ImportIsBulkLoad("App").value());
  ASSERT_TRUE(PutOne(db, "App", Key("p", 1)).ok());
  EXPECT_FALSE(db->ImportIsBulkLoad("App").value());  // no longer empty
  CreateTableRequest streamed;
  streamed.table_name = "Streamed";
  streamed.attribute_definitions = {{"pk", "S"}};
  streamed.key_schema = {{"pk", "HASH"}};
  streamed.stream_specification = StreamSpecification{true, "NEW_IMAGE"};
  ASSERT_TRUE(db->CreateTable(streamed).ok());
  EXPECT_FALSE(db->ImportIsBulkLoad("Streamed").value());  // a stream record per item
  EXPECT_EQ(db->ImportIsBulkLoad("Nope").status().code(), ErrorCode::kResourceNotFound);
}

TEST(StorageImportItems, CancelledImportsNothing) {
  TempDb db;
  MakeTables(db, "Other");
  std::atomic<bool> cancel{true};
  Result<ImportResult> r = db->ImportItems("App", Items(100), &cancel);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInterrupted);
  EXPECT_EQ(r.status().message(), "Interrupted after 0 items: nothing was imported");
  EXPECT_EQ(CountItems(db, "App"), 0);
}

// The sub-databases of the file at `path` (LMDB's main database lists them), read with LMDB
// directly: what a staged import leaves behind.
std::vector<std::string> SubDatabases(const std::string& path) {
  std::vector<std::string> names;
  MDB_env* env = nullptr;
  EXPECT_EQ(mdb_env_create(&env), 0);
  mdb_env_set_maxdbs(env, 64);
  if (mdb_env_open(env, path.c_str(), MDB_NOSUBDIR | MDB_RDONLY, 0644) == 0) {
    MDB_txn* txn;
    MDB_dbi main;
    MDB_cursor* c;
    if (mdb_txn_begin(env, nullptr, MDB_RDONLY, &txn) == 0) {
      if (mdb_dbi_open(txn, nullptr, 0, &main) == 0 && mdb_cursor_open(txn, main, &c) == 0) {
        MDB_val k, v;
        for (int rc = mdb_cursor_get(c, &k, &v, MDB_FIRST); rc == 0;
             rc = mdb_cursor_get(c, &k, &v, MDB_NEXT)) {
          names.emplace_back(static_cast<const char*>(k.mv_data), k.mv_size);
        }
        mdb_cursor_close(c);
      }
      mdb_txn_abort(txn);
    }
  }
  mdb_env_close(env);
  return names;
}

// A database whose map starts at 1 MB (a 6 MB import outgrows it several times), with table
// App (pk S, sk N) in directory `dir`.
std::unique_ptr<Database> SmallMapDb(const std::string& dir) {
  Database::Options o;
  o.initial_map_size = 1 << 20;
  o.sync = false;
  auto db = Database::Open(dir + "/g.kh", o);
  EXPECT_TRUE(db.ok());
  if (!db.ok()) return nullptr;
  CreateTableRequest t;
  t.table_name = "App";
  t.attribute_definitions = {{"pk", "S"}, {"sk", "N"}};
  t.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  EXPECT_TRUE((*db)->CreateTable(t).ok());
  return std::move(db).value();
}

// `n` items of about 2 KB, `per_batch` per call of next(); counts rewinds.
struct BlobSource {
  int n, per_batch = 100, next = 0, rewinds = 0, calls = 0;
  std::function<void(int call)> on_next;  // before each call's items
  LocalControl::ImportSource source;
  explicit BlobSource(int items) : n(items) {
    source.rewind = [this] {
      next = 0;
      ++rewinds;
      return Status::OK();
    };
    source.next = [this](std::vector<Item>* batch) -> Result<bool> {
      static const std::string blob(2000, 'y');
      if (on_next) on_next(calls);
      ++calls;
      for (int i = 0; i < per_batch && next < n; ++i, ++next)
        batch->push_back(
            {{"pk", S("p" + std::to_string(next % 13))}, {"sk", N(next)}, {"blob", S(blob)}});
      return !batch->empty();
    };
  }
};

// An import into a table with items is one transaction: one that outgrows the map is retried
// from the first item (the source rewound), so every item is written once; with the size hint,
// the map is grown up front and nothing is retried.
TEST(StorageImportItems, OneTransactionThatOutgrowsTheMapStartsOverAndWritesEverything) {
  for (size_t hint : {size_t{0}, size_t{3000} * 2100}) {
    forktest::TempDir tmp("import");
    std::unique_ptr<Database> db = SmallMapDb(tmp.path());
    ASSERT_TRUE(db);
    PutItemRequest put;
    put.table_name = "App";
    put.item = {{"pk", S("before")}, {"sk", N(1)}};
    ASSERT_TRUE(db->PutItem(put).ok());
    BlobSource src(3000);
    src.source.expected_bytes = hint;
    Result<ImportResult> r = db->ImportItems("App", src.source);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->written, 3000);
    EXPECT_EQ(db->DescribeTable({"App"})->table.item_count, 3001);
    if (hint) {
      EXPECT_EQ(src.rewinds, 1) << "the size hint grows the map up front";
    } else {
      EXPECT_GT(src.rewinds, 1) << "the test no longer outgrows the map";
    }
  }
}

// An import into an empty table is a sorted load: written a transaction at a time into new
// sub-databases and switched in at the end. A transaction that outgrows the map is retried on
// its own; the source is read once, never rewound.
TEST(StorageImportItems, StagedImportGrowsTheMapPerBatchAndSwitchesTheItemsIn) {
  forktest::TempDir tmp("import");
  const std::string& dir = tmp.path();
  std::unique_ptr<Database> db = SmallMapDb(dir);
  ASSERT_TRUE(db);
  const uint64_t table_id = db->DescribeTable({"App"})->table.id;
  BlobSource src(6000);  // 12 MB: several staging transactions
  Result<ImportResult> r = db->ImportItems("App", src.source);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->written, 6000);
  EXPECT_EQ(r->write_units, 6000 * 2);  // 2 KB items: 2 WCU each
  EXPECT_EQ(src.rewinds, 0);
  Result<DescribeTableResponse> d = db->DescribeTable({"App"});
  EXPECT_EQ(d->table.item_count, 6000);
  EXPECT_EQ(d->table.id, table_id) << "the table keeps its TableId";
  EXPECT_NE(d->table.data_id, 0u);
  EXPECT_TRUE(db->VerifyIntegrity().ok());
  db.reset();
  // The old sub-database is gone, the staging one is the table's, no record is left.
  std::vector<std::string> subs = SubDatabases(dir + "/g.kh");
  EXPECT_EQ(subs, (std::vector<std::string>{"__catalog", "t2"}));
  auto reopened = Database::Open(dir + "/g.kh", {});
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ((*reopened)->DescribeTable({"App"})->table.item_count, 6000);
  // A second import into the now full table is one transaction, replacing items by key.
  BlobSource again(100);
  ASSERT_TRUE((*reopened)->ImportItems("App", again.source).ok());
  EXPECT_EQ(again.rewinds, 1);
  EXPECT_EQ((*reopened)->DescribeTable({"App"})->table.item_count, 6000);
}

// A failure late in a sorted load leaves the table as it was and no staging behind: a bad item
// or Ctrl-C while the items are read, another writer found at the switch.
TEST(StorageImportItems, AStagedImportThatFailsLateImportsNothingAndLeavesNoStaging) {
  forktest::TempDir tmp("import");
  const std::string& dir = tmp.path();
  std::unique_ptr<Database> db = SmallMapDb(dir);
  ASSERT_TRUE(db);
  {  // a bad item late in the input (item 5000 of 6000)
    BlobSource src(6000);
    int64_t refused = -1;
    src.source.refused = [&](int64_t i) { refused = i; };
    auto next = src.source.next;
    src.source.next = [&](std::vector<Item>* batch) -> Result<bool> {
      KH_ASSIGN_OR_RETURN(bool more, next(batch));
      if (src.calls == 51) (*batch)[0].erase("sk");  // item 5000 has no sort key
      return more;
    };
    Result<ImportResult> r = db->ImportItems("App", src.source);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsValidation()) << r.status().ToString();
    EXPECT_EQ(refused, 5000);
    EXPECT_EQ(db->DescribeTable({"App"})->table.item_count, 0);
  }
  {  // Ctrl-C while the items are read: after 45 calls of 100
    std::atomic<bool> cancel{false};
    BlobSource src(6000);
    src.on_next = [&](int call) {
      if (call == 45) cancel = true;
    };
    Result<ImportResult> r = db->ImportItems("App", src.source, &cancel);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kInterrupted);
    EXPECT_EQ(r.status().message(), "Interrupted after 4500 items: nothing was imported");
    EXPECT_EQ(db->DescribeTable({"App"})->table.item_count, 0);
  }
  {  // another writer puts an item into the table during the import
    BlobSource src(6000);
    src.on_next = [&](int call) {
      if (call != 45) return;
      PutItemRequest put;
      put.table_name = "App";
      put.item = {{"pk", S("meanwhile")}, {"sk", N(1)}};
      ASSERT_TRUE(db->PutItem(put).ok());
    };
    Result<ImportResult> r = db->ImportItems("App", src.source);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kResourceInUse);
    EXPECT_EQ(r.status().message(),
              "Table App was changed by another writer during the import: nothing was imported");
    EXPECT_EQ(db->DescribeTable({"App"})->table.item_count, 1);
  }
  EXPECT_TRUE(db->VerifyIntegrity().ok());
  db.reset();
  EXPECT_EQ(SubDatabases(dir + "/g.kh"), (std::vector<std::string>{"__catalog", "t1"}));
}

// An empty import into an empty table switches nothing in and leaves no staging.
TEST(StorageImportItems, AnEmptyImportLeavesTheTableAsItWas) {
  forktest::TempDir tmp("import");
  const std::string& dir = tmp.path();
  std::unique_ptr<Database> db = SmallMapDb(dir);
  ASSERT_TRUE(db);
  Result<ImportResult> r = db->ImportItems("App", std::vector<Item>{});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->written, 0);
  EXPECT_EQ(db->DescribeTable({"App"})->table.data_id, 0u);
  db.reset();
  EXPECT_EQ(SubDatabases(dir + "/g.kh"), (std::vector<std::string>{"__catalog", "t1"}));
}

// A process killed while a staged import writes imports nothing; the next read-write open
// drops the staging it left.
TEST(StorageImportItems, AKilledStagedImportLeavesNothingAfterTheNextOpen) {
  forktest::TempDir dir("killed-import");
  {
    std::unique_ptr<Database> db = SmallMapDb(dir.path());
    ASSERT_TRUE(db);
  }
  const std::string path = dir.path() + "/g.kh";
  pid_t pid = forktest::ForkChild([&]() -> int {
    auto db = Database::Open(path, {});  // synced commits: slow enough to be caught
    if (!db.ok()) return 2;
    BlobSource src(60000);
    src.source.expected_bytes = size_t{60000} * 2100;
    (void)(*db)->ImportItems("App", src.source);
    return 3;
  });
  ASSERT_GT(pid, 0);
  // Waits for the staging sub-database to appear, then kills the writer.
  std::vector<std::string> left;
  for (int i = 0; i < 30000; ++i) {
    left = SubDatabases(path);
    if (std::find(left.begin(), left.end(), "t2") != left.end()) break;
    ::usleep(1000);
  }
  ::kill(pid, SIGKILL);
  int status = forktest::WaitChild(pid);
  ASSERT_TRUE(WIFSIGNALED(status))
      << "the import ended before it was killed: " << forktest::DescribeStatus(status);
  left = SubDatabases(path);
  EXPECT_EQ(left, (std::vector<std::string>{"__catalog", "t1", "t2"})) << "the staging is t2";
  auto db = Database::Open(path, {});
  ASSERT_TRUE(db.ok());
  EXPECT_EQ((*db)->DescribeTable({"App"})->table.item_count, 0);
  db->reset();
  EXPECT_EQ(SubDatabases(path), (std::vector<std::string>{"__catalog", "t1"}));
}

// The sorted load writes what PutItem after PutItem writes, duplicates included (the last of a
// key wins, its index entries replace the earlier ones'), and charges the same units.
TEST(StorageImportItems, AStagedImportEqualsPutItemAfterPutItem) {
  // Keys given up to five times, and one index per projection (entries and units of each).
  TempDb db;
  for (const char* name : {"App", "Twin"}) {
    CreateTableRequest c;
    c.table_name = name;
    c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}, {"h", "N"}};
    c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
    c.global_secondary_indexes = {
        {"byG", {{"g", "HASH"}}, "ALL", std::nullopt},
        {"byH", {{"h", "HASH"}, {"g", "RANGE"}}, "KEYS_ONLY", std::nullopt},
        {"byHi", {{"h", "HASH"}}, "INCLUDE", std::vector<std::string>{"pad", "x"}}};
    ASSERT_TRUE(db->CreateTable(c).ok());
  }
  std::vector<Item> items;
  uint64_t x = 12345;
  for (int i = 0; i < 3000; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    Item item = Key("p" + std::to_string((x >> 33) % 40), static_cast<int64_t>((x >> 20) % 60));
    if ((x >> 7) % 3) item["g"] = S("g" + std::to_string((x >> 11) % 5));
    if ((x >> 9) % 2) item["h"] = N(static_cast<int64_t>((x >> 13) % 4));
    if ((x >> 15) % 2) item["x"] = S(std::string((x >> 17) % 2000, 'x'));
    item["pad"] = S(std::string((x >> 40) % 3000, 'z'));  // 0-3 KB: 1-3 WCU
    items.push_back(std::move(item));
    if (i % 250 == 0) {
      // One key given 12 times, 390 KB each: more than one 4 MB staging transaction holds.
      Item big = Key("big", 1);
      big["g"] = S("g" + std::to_string(i % 3));
      if (i % 500 == 0) big["h"] = N(static_cast<int64_t>(i % 4));
      big["pad"] = S(std::string(390000, static_cast<char>('a' + i % 26)));
      items.push_back(std::move(big));
    }
  }
  Result<ImportResult> r = db->ImportItems("App", items);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(db->DescribeTable({"App"})->table.data_id, 0u) << "not the staged path";
  double units = 0;
  for (const Item& item : items) {
    PutItemRequest put;
    put.table_name = "Twin";
    put.item = item;
    put.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
    Result<PutItemResponse> p = db->PutItem(put);
    ASSERT_TRUE(p.ok());
    units += p->consumed_capacity->total.capacity_units;
  }
  EXPECT_EQ(r->written, 3012);
  EXPECT_EQ(r->write_units, units);
  // Every page of the table and of each index.
  auto all = [&](const std::string& table, const char* index) {
    std::vector<Item> out;
    ScanRequest q;
    q.table_name = table;
    if (*index) q.index_name = index;
    for (;;) {
      Result<ScanResponse> page = db->Scan(q);
      EXPECT_TRUE(page.ok()) << page.status().ToString();
      if (!page.ok()) break;
      out.insert(out.end(), page->items.begin(), page->items.end());
      if (!page->last_evaluated_key) break;
      q.exclusive_start_key = std::move(page->last_evaluated_key);
    }
    return out;
  };
  for (const char* index : {"", "byG", "byH", "byHi"}) {
    const std::vector<Item> a = all("App", index), b = all("Twin", index);
    EXPECT_GT(a.size(), 0u) << index;
    EXPECT_EQ(a.size(), b.size()) << index;
    EXPECT_TRUE(a == b) << index;
  }
  GetItemRequest get;
  get.table_name = "App";
  get.key = Key("big", 1);
  Result<GetItemResponse> big = db->GetItem(get);
  ASSERT_TRUE(big.ok() && big->item);
  EXPECT_EQ(big->item->at("pad").s()[0], 'a' + 2750 % 26) << "the last of the key's items";
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageImportOpen, ReadOnlyReadsAndRefusesWrites) {
  TempDb db;
  MakeTables(db, "Other");
  ASSERT_TRUE(testing::PutOne(db, "App", Key("a", 1)).ok());
  const std::string path = db.path();
  Database::Options o;
  o.read_only = true;
  o.expression_parser = &testing::Parser();
  auto ro = Database::Open(path, o);
  ASSERT_TRUE(ro.ok()) << ro.status().ToString();
  GetItemRequest get;
  get.table_name = "App";
  get.key = Key("a", 1);
  Result<GetItemResponse> got = (*ro)->GetItem(get);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_TRUE(got->item.has_value());
  PutItemRequest put;
  put.table_name = "App";
  put.item = Key("b", 2);
  Result<PutItemResponse> refused = (*ro)->PutItem(put);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), ErrorCode::kAccessDenied);
  EXPECT_EQ(refused.status().message(),
            path +
                " is open read-only (--readonly, or the file is not writable): nothing was "
                "written");
  EXPECT_EQ(ErrorName(refused.status().code()), "AccessDeniedException");
  CreateTableRequest create;
  create.table_name = "New";
  create.attribute_definitions = {{"pk", "S"}};
  create.key_schema = {{"pk", "HASH"}};
  EXPECT_EQ((*ro)->CreateTable(create).status().code(), ErrorCode::kAccessDenied);
}

TEST(StorageImportOpen, AFileThatIsNotADatabaseLeavesNoLockFile) {
  TempDb db;
  const std::string dir = db.dir();
  const std::string script = dir + "/schema.sql";
  std::ofstream(script) << "CREATE TABLE \"T\" (pk S);\n";
  auto r = Database::Open(script);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kDatabaseFormat);
  EXPECT_EQ(r.status().message(), script + ": not a keyhole database (it is a text file)");
  EXPECT_FALSE(std::filesystem::exists(script + "-lock"));
  const std::string binary = dir + "/data.bin";
  std::ofstream(binary) << std::string(100, '\0') << "binary";
  r = Database::Open(binary);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), binary + ": not a keyhole database (not an LMDB file)");
  EXPECT_FALSE(std::filesystem::exists(binary + "-lock"));
  // An empty file becomes a new database, as sqlite3 treats one.
  const std::string empty = dir + "/empty.kh";
  std::ofstream(empty).flush();
  EXPECT_TRUE(Database::Open(empty).ok());
}

TEST(StorageImportOpen, ReadOnlyWithoutAWritableDirectoryReadsWithoutALockFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may write any directory";
  TempDb db;
  MakeTables(db, "Other");
  const std::string dir = db.dir() + "/ro";
  std::filesystem::create_directory(dir);
  std::filesystem::copy_file(db.path(), dir + "/copy.kh");
  ::chmod(dir.c_str(), 0555);
  Database::Options o;
  o.read_only = true;
  auto ro = Database::Open(dir + "/copy.kh", o);
  EXPECT_TRUE(ro.ok()) << ro.status().ToString();
  if (ro.ok()) EXPECT_TRUE((*ro)->TableSchema("App").ok());
  ro = Result<std::unique_ptr<Database>>(Status::Internal("closed"));
  ::chmod(dir.c_str(), 0755);
}

}  // namespace
}  // namespace keyhole::storage
