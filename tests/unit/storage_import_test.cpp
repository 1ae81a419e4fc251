// Database::ImportItems (all or nothing, interruptible) and opening files: read-only, files that
// are not databases (no lock file left), permission errors.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>

#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::Key;
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

TEST(ImportItems, WritesEveryItemAndItsIndexEntriesInOneTransaction) {
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

TEST(ImportItems, ABadItemImportsNothing) {
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

TEST(ImportItems, CancelledImportsNothing) {
  TempDb db;
  MakeTables(db, "Other");
  std::atomic<bool> cancel{true};
  Result<ImportResult> r = db->ImportItems("App", Items(100), &cancel);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInterrupted);
  EXPECT_EQ(r.status().message(), "Interrupted after 0 items: nothing was imported");
  EXPECT_EQ(CountItems(db, "App"), 0);
}

// A streamed import that outgrows the map: the transaction is retried from the first item
// (the source rewound), so every item is written once; with the size hint, the map is grown up
// front and nothing is retried.
TEST(ImportItems, AnImportThatOutgrowsTheMapStartsOverAndWritesEverything) {
  for (size_t hint : {size_t{0}, size_t{3000} * 2100}) {
    char tmpl[] = "/tmp/keyhole-test-XXXXXX";
    std::string dir = ::mkdtemp(tmpl);
    Database::Options o;
    o.initial_map_size = 1 << 20;  // 1 MB: the 6 MB import grows it several times
    o.sync = false;
    auto db = Database::Open(dir + "/g.kh", o);
    ASSERT_TRUE(db.ok());
    CreateTableRequest t;
    t.table_name = "App";
    t.attribute_definitions = {{"pk", "S"}, {"sk", "N"}};
    t.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
    ASSERT_TRUE((*db)->CreateTable(t).ok());
    const std::string blob(2000, 'y');
    int next = 0, rewinds = 0;
    LocalControl::ImportSource source;
    source.expected_bytes = hint;
    source.rewind = [&] {
      next = 0;
      ++rewinds;
      return Status::OK();
    };
    source.next = [&](std::vector<Item>* batch) -> Result<bool> {
      for (int i = 0; i < 100 && next < 3000; ++i, ++next)
        batch->push_back(
            {{"pk", S("p" + std::to_string(next % 13))}, {"sk", N(next)}, {"blob", S(blob)}});
      return !batch->empty();
    };
    Result<ImportResult> r = (*db)->ImportItems("App", source);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->written, 3000);
    EXPECT_EQ((*db)->DescribeTable({"App"})->table.item_count, 3000);
    if (hint) {
      EXPECT_EQ(rewinds, 1) << "the size hint grows the map up front";
    } else {
      EXPECT_GT(rewinds, 1) << "the test no longer outgrows the map";
    }
    db->reset();
    std::filesystem::remove_all(dir);
  }
}

TEST(Open, ReadOnlyReadsAndRefusesWrites) {
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

TEST(Open, AFileThatIsNotADatabaseLeavesNoLockFile) {
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

TEST(Open, ReadOnlyWithoutAWritableDirectoryReadsWithoutALockFile) {
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
