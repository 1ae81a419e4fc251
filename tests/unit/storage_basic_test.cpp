// Table and item operations, Query and Scan, validation messages and capacity.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/item.h"
#include "storage/env.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::B;
using testing::N;
using testing::S;
using testing::TempDb;

// pk S, sk N; GSI "byG" (g S, gs N) KEYS_ONLY; LSI "byL" (pk, l S) ALL.
CreateTableRequest AppTable(const std::string& name = "App") {
  CreateTableRequest r;
  r.table_name = name;
  r.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}, {"gs", "N"}, {"l", "S"}};
  r.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  r.global_secondary_indexes = {
      {"byG", {{"g", "HASH"}, {"gs", "RANGE"}}, "KEYS_ONLY", std::nullopt}};
  r.local_secondary_indexes = {{"byL", {{"pk", "HASH"}, {"l", "RANGE"}}, "ALL", std::nullopt}};
  return r;
}

Status Put(TempDb& db, Item item, const std::string& table = "App") {
  PutItemRequest r;
  r.table_name = table;
  r.item = std::move(item);
  return db->PutItem(r).status();
}

std::optional<Item> Get(TempDb& db, Item key, const std::string& table = "App") {
  GetItemRequest r;
  r.table_name = table;
  r.key = std::move(key);
  auto resp = db->GetItem(r);
  EXPECT_TRUE(resp.ok()) << resp.status().ToString();
  return resp.ok() ? resp->item : std::nullopt;
}

QueryRequest Q(std::string pk, SortKeyOp op = SortKeyOp::kNone, AttributeValue v = {},
               AttributeValue v2 = {}) {
  QueryRequest q;
  q.table_name = "App";
  q.key_condition = {"pk", S(std::move(pk)), op == SortKeyOp::kNone ? "" : "sk",
                     op,   std::move(v),     std::move(v2)};
  return q;
}

std::vector<int64_t> SortKeys(const ReadResponse& r, const std::string& attr = "sk") {
  std::vector<int64_t> out;
  for (const auto& item : r.items) {
    int64_t v = 0;
    item.at(attr).n().ToInt64(&v);
    out.push_back(v);
  }
  return out;
}

TEST(StorageBasicTables, CreateDescribeListDelete) {
  TempDb db;
  auto c = db->CreateTable(AppTable());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(c->table_description.status, "ACTIVE");
  EXPECT_EQ(db->CreateTable(AppTable()).status().code(), ErrorCode::kResourceInUse);
  EXPECT_EQ(db->CreateTable(AppTable()).status().message(), "Table already exists: App");
  ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(1)}, {"g", S("x")}, {"gs", N(5)}}).ok());
  auto d = db->DescribeTable({"App"});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->table.item_count, 1);
  EXPECT_EQ(d->table.size_bytes, 2 + 1 + 2 + 2 + 1 + 1 + 2 + 2);  // names + values
  ASSERT_EQ(d->table.indexes.size(), 2u);
  EXPECT_EQ(d->table.FindIndex("byG")->item_count, 1);
  EXPECT_EQ(d->table.FindIndex("byL")->item_count, 0);  // sparse: no "l"
  ASSERT_TRUE(db->CreateTable(AppTable("Other")).ok());
  auto l = db->ListTables({});
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->table_names, (std::vector<std::string>{"App", "Other"}));
  ListTablesRequest page;
  page.limit = 1;
  l = db->ListTables(page);
  EXPECT_EQ(l->table_names, std::vector<std::string>{"App"});
  EXPECT_EQ(l->last_evaluated_table_name, "App");
  page.exclusive_start_table_name = "App";
  EXPECT_EQ(db->ListTables(page)->table_names, std::vector<std::string>{"Other"});
  ASSERT_TRUE(db->DeleteTable({"App"}).ok());
  EXPECT_EQ(db->DescribeTable({"App"}).status().message(),
            "Requested resource not found: Table: App not found");
  EXPECT_EQ(Put(db, {{"pk", S("a")}, {"sk", N(1)}}).code(), ErrorCode::kResourceNotFound);
  // Re-creating a dropped table starts empty.
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  EXPECT_FALSE(Get(db, {{"pk", S("a")}, {"sk", N(1)}}).has_value());
}

TEST(StorageBasicTables, SchemaSurvivesReopen) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(1)}, {"l", S("q")}}).ok());
  db.Reopen();
  auto d = db->DescribeTable({"App"});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->table.key.partition.name, "pk");
  EXPECT_EQ(d->table.indexes.size(), 2u);
  EXPECT_TRUE(Get(db, {{"pk", S("a")}, {"sk", N(1)}}).has_value());
}

TEST(StorageBasicTables, CreateTableValidation) {
  TempDb db;
  auto r = AppTable("ab");
  EXPECT_EQ(db->CreateTable(r).status().message(),
            "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: "
            "Member must "
            "have length greater than or equal to 3");
  r = AppTable("a b");
  EXPECT_EQ(db->CreateTable(r).status().message(),
            "1 validation error detected: Value 'a b' at 'tableName' failed to satisfy constraint: "
            "Member must "
            "satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
  r = AppTable();
  r.attribute_definitions.push_back({"extra", "S"});
  EXPECT_EQ(db->CreateTable(r).status().message(),
            "One or more parameter values were invalid: Number of attributes in KeySchema does not "
            "exactly "
            "match number of attributes defined in AttributeDefinitions");
  r = AppTable();
  r.local_secondary_indexes[0].key_schema[0].name = "g";
  EXPECT_EQ(db->CreateTable(r).status().message(),
            "One or more parameter values were invalid: Index KeySchema does not have the same "
            "leading hash key "
            "as table KeySchema for index: byL. index hash key: g, table hash key: pk");
  r = AppTable();
  r.key_schema = {{"sk", "RANGE"}, {"pk", "HASH"}};
  EXPECT_EQ(db->CreateTable(r).status().message(),
            "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
  r = AppTable();
  r.global_secondary_indexes[0].name = "byL";
  EXPECT_EQ(db->CreateTable(r).status().message(),
            "One or more parameter values were invalid: Duplicate index name: byL");
  r = AppTable();
  r.global_secondary_indexes[0].non_key_attributes = std::vector<std::string>{"x"};
  EXPECT_EQ(db->CreateTable(r).status().message(),
            "One or more parameter values were invalid: ProjectionType is KEYS_ONLY, but "
            "NonKeyAttributes is "
            "specified");
  // Nothing was created by the failures.
  EXPECT_TRUE(db->ListTables({})->table_names.empty());
}

TEST(StorageBasicItems, PutGetOverwriteDeleteWithReturnValues) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  Item item{{"pk", S("a")}, {"sk", N(1)}, {"v", S("one")}};
  ASSERT_TRUE(Put(db, item).ok());
  EXPECT_EQ(Get(db, {{"pk", S("a")}, {"sk", N("1.0")}}), item);  // 1.0 is the same key
  PutItemRequest p;
  p.table_name = "App";
  p.item = {{"pk", S("a")}, {"sk", N(1)}, {"v", S("two")}};
  p.return_values = ReturnValues::kAllOld;
  auto pr = db->PutItem(p);
  ASSERT_TRUE(pr.ok());
  EXPECT_EQ(pr->attributes, item);
  DeleteItemRequest d;
  d.table_name = "App";
  d.key = {{"pk", S("a")}, {"sk", N(1)}};
  d.return_values = ReturnValues::kAllOld;
  auto dr = db->DeleteItem(d);
  ASSERT_TRUE(dr.ok());
  EXPECT_EQ(dr->attributes, p.item);
  EXPECT_FALSE(Get(db, d.key).has_value());
  dr = db->DeleteItem(d);  // deleting a missing item is fine
  ASSERT_TRUE(dr.ok());
  EXPECT_FALSE(dr->attributes.has_value());
  p.return_values = ReturnValues::kAllNew;
  EXPECT_EQ(db->PutItem(p).status().message(), "ReturnValues can only be ALL_OLD or NONE");
}

TEST(StorageBasicItems, KeyValidationMessages) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  auto msg = [&](Item item) { return Put(db, std::move(item)).message(); };
  EXPECT_EQ(msg({{"sk", N(1)}}),
            "One or more parameter values were invalid: Missing the key pk in the item");
  EXPECT_EQ(
      msg({{"pk", N(1)}, {"sk", N(1)}}),
      "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N");
  EXPECT_EQ(msg({{"pk", S("")}, {"sk", N(1)}}),
            "One or more parameter values are not valid. The AttributeValue for a key attribute "
            "cannot contain an "
            "empty string value. Key: pk");
  EXPECT_EQ(msg({{"pk", S(std::string(2049, 'x'))}, {"sk", N(1)}}),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum "
            "size limit "
            "of2048 bytes");
  EXPECT_TRUE(Put(db, {{"pk", S(std::string(2048, 'x'))}, {"sk", N(1)}}).ok());
  EXPECT_EQ(msg({{"pk", S("a")}, {"sk", N(1)}, {"g", N(3)}}),
            "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S "
            "Actual: N "
            "IndexName: byG");
  EXPECT_EQ(msg({{"pk", S("a")}, {"sk", N(1)}, {"l", S("")}}),
            "One or more parameter values are not valid. A value specified for a secondary index "
            "key is not "
            "supported. The AttributeValue for a key attribute cannot contain an empty string "
            "value. IndexName: "
            "byL, IndexKey: l");
  EXPECT_EQ(msg({{"pk", S("a")}, {"sk", N(1)}, {"big", S(std::string(kMaxItemSize, 'x'))}}),
            "Item size has exceeded the maximum allowed size");
  EXPECT_EQ(msg({{"pk", S("a")}, {"sk", N(1)}, {"set", AttributeValue::SS({})}}),
            "One or more parameter values were invalid: An string set  may not be empty");
  GetItemRequest g;
  g.table_name = "App";
  g.key = {{"pk", S("a")}};
  EXPECT_EQ(db->GetItem(g).status().message(),
            "The provided key element does not match the schema");
  g.key = {{"pk", S("a")}, {"sk", N(1)}, {"x", N(1)}};
  EXPECT_EQ(db->GetItem(g).status().message(),
            "The provided key element does not match the schema");
  g.key = {{"pk", S("a")}, {"sk", S("1")}};
  EXPECT_EQ(db->GetItem(g).status().message(),
            "The provided key element does not match the schema");
  g.table_name = "Nope";
  g.key = {{"pk", S("a")}, {"sk", N(1)}};
  EXPECT_EQ(db->GetItem(g).status().code(), ErrorCode::kResourceNotFound);
  // None of the failed writes left anything behind.
  EXPECT_EQ(db->DescribeTable({"App"})->table.item_count, 1);
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageBasicItems, LocalIndexCopiesCountTowardTheItemLimit) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  std::string big(250 * 1024, 'x');
  // Without "l" the item is not in the ALL-projected LSI: 250 KB is fine.
  EXPECT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(1)}, {"big", S(big)}}).ok());
  // With "l" its LSI copy counts too: 500 KB in all.
  EXPECT_EQ(Put(db, {{"pk", S("a")}, {"sk", N(2)}, {"big", S(big)}, {"l", S("y")}}).message(),
            "Item size has exceeded the maximum allowed size");
}

TEST(StorageBasicQuery, SortKeyConditionsBothDirections) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  for (int i = 1; i <= 10; ++i) ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(i * 10)}}).ok());
  ASSERT_TRUE(Put(db, {{"pk", S("b")}, {"sk", N(15)}}).ok());
  auto run = [&](QueryRequest q) {
    auto r = db->Query(q);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? SortKeys(*r) : std::vector<int64_t>{};
  };
  using V = std::vector<int64_t>;
  EXPECT_EQ(run(Q("a")), (V{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}));
  EXPECT_EQ(run(Q("a", SortKeyOp::kEq, N(30))), V{30});
  EXPECT_EQ(run(Q("a", SortKeyOp::kLt, N(30))), (V{10, 20}));
  EXPECT_EQ(run(Q("a", SortKeyOp::kLe, N(30))), (V{10, 20, 30}));
  EXPECT_EQ(run(Q("a", SortKeyOp::kGt, N(80))), (V{90, 100}));
  EXPECT_EQ(run(Q("a", SortKeyOp::kGe, N(80))), (V{80, 90, 100}));
  EXPECT_EQ(run(Q("a", SortKeyOp::kBetween, N(25), N(50))), (V{30, 40, 50}));
  EXPECT_EQ(run(Q("b")), V{15});
  EXPECT_EQ(run(Q("zz")), V{});
  auto back = Q("a", SortKeyOp::kLe, N(30));
  back.scan_index_forward = false;
  EXPECT_EQ(run(back), (V{30, 20, 10}));
  back = Q("a", SortKeyOp::kGt, N(70));
  back.scan_index_forward = false;
  EXPECT_EQ(run(back), (V{100, 90, 80}));
}

TEST(StorageBasicQuery, PagesWithLimitAndExclusiveStartKey) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  for (int i = 1; i <= 7; ++i) ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(i)}}).ok());
  for (bool forward : {true, false}) {
    auto q = Q("a");
    q.limit = 3;
    q.scan_index_forward = forward;
    std::vector<int64_t> all;
    int pages = 0;
    for (;;) {
      auto r = db->Query(q);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      ++pages;
      auto ks = SortKeys(*r);
      all.insert(all.end(), ks.begin(), ks.end());
      EXPECT_EQ(r->count, static_cast<int64_t>(ks.size()));
      if (!r->last_evaluated_key) break;
      EXPECT_EQ(r->last_evaluated_key->size(), 2u);  // the table key
      q.exclusive_start_key = r->last_evaluated_key;
    }
    EXPECT_EQ(pages, 3);
    std::vector<int64_t> want = forward ? std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7}
                                        : std::vector<int64_t>{7, 6, 5, 4, 3, 2, 1};
    EXPECT_EQ(all, want);
  }
  // An LEK whenever count == Limit, even when nothing remains (as dynalite and AWS do).
  auto q = Q("a");
  q.limit = 7;
  EXPECT_TRUE(db->Query(q)->last_evaluated_key.has_value());
  q.exclusive_start_key = Item{{"pk", S("b")}, {"sk", N(1)}};
  EXPECT_EQ(db->Query(q).status().message(),
            "The provided starting key is outside query boundaries based on provided conditions");
  q = Q("a", SortKeyOp::kGt, N(5));
  q.exclusive_start_key = Item{{"pk", S("a")}, {"sk", N(1)}};
  EXPECT_EQ(db->Query(q).status().message(),
            "The provided starting key does not match the range key predicate");
  q.exclusive_start_key = Item{{"pk", S("a")}};
  EXPECT_EQ(db->Query(q).status().message(), "The provided starting key is invalid");
  q.limit = 0;
  EXPECT_EQ(db->Query(q).status().message(),
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
            "Member must have "
            "value greater than or equal to 1");
}

TEST(StorageBasicQuery, PageStopsAtOneMegabyte) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  std::string blob(100 * 1024, 'x');
  for (int i = 0; i < 25; ++i)
    ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(i)}, {"blob", S(blob)}}).ok());
  auto r = db->Query(Q("a"));
  ASSERT_TRUE(r.ok());
  // Each item is ~102,409 bytes: the page ends with the item that reaches 1,048,576.
  EXPECT_EQ(r->count, 11);
  ASSERT_TRUE(r->last_evaluated_key.has_value());
  EXPECT_EQ(r->last_evaluated_key->at("sk"), N(10));
}

TEST(StorageBasicQuery, KeyConditionValidation) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  auto q = Q("a");
  q.key_condition.partition_name = "sk";
  EXPECT_EQ(db->Query(q).status().message(), "Query condition missed key schema element: pk");
  q = Q("a", SortKeyOp::kBeginsWith, N(1));
  EXPECT_EQ(db->Query(q).status().message(),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or "
            "function: begins_with, operand type: N");
  q = Q("a", SortKeyOp::kEq, S("1"));
  EXPECT_EQ(db->Query(q).status().message(),
            "One or more parameter values were invalid: Condition parameter type does not match "
            "schema type");
  q = Q("a", SortKeyOp::kBetween, N(5), N(1));
  EXPECT_EQ(
      db->Query(q).status().message(),
      "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater "
      "than or "
      "equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: "
      "AttributeValue: {N:1}");
  q = Q("a");
  q.index_name = "nope";
  EXPECT_EQ(db->Query(q).status().message(), "The table does not have the specified index: nope");
  q.index_name = "byG";
  q.consistent_read = true;
  EXPECT_EQ(db->Query(q).status().message(),
            "Consistent reads are not supported on global secondary indexes");
}

TEST(StorageBasicIndexes, SparseGsiAndLsiQueries) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  ASSERT_TRUE(
      Put(db, {{"pk", S("a")}, {"sk", N(1)}, {"g", S("G")}, {"gs", N(3)}, {"x", S("big")}}).ok());
  ASSERT_TRUE(
      Put(db, {{"pk", S("a")}, {"sk", N(2)}, {"g", S("G")}, {"gs", N(1)}, {"l", S("m")}}).ok());
  ASSERT_TRUE(Put(db, {{"pk", S("b")}, {"sk", N(3)}, {"g", S("G")}}).ok());  // no gs: not in byG
  ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(4)}, {"l", S("b")}}).ok());
  QueryRequest q;
  q.table_name = "App";
  q.index_name = "byG";
  q.key_condition = {"g", S("G"), "", SortKeyOp::kNone, {}, {}};
  auto r = db->Query(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->count, 2);
  EXPECT_EQ(SortKeys(*r, "gs"), (std::vector<int64_t>{1, 3}));
  // KEYS_ONLY: table keys and index keys only.
  EXPECT_EQ(r->items[1], (Item{{"pk", S("a")}, {"sk", N(1)}, {"g", S("G")}, {"gs", N(3)}}));
  q.limit = 1;
  r = db->Query(q);
  ASSERT_TRUE(r->last_evaluated_key.has_value());
  EXPECT_EQ(*r->last_evaluated_key,
            (Item{{"pk", S("a")}, {"sk", N(2)}, {"g", S("G")}, {"gs", N(1)}}));
  q.exclusive_start_key = r->last_evaluated_key;
  r = db->Query(q);
  ASSERT_EQ(r->count, 1);
  EXPECT_EQ(r->items[0].at("gs"), N(3));
  q.select = Select::kAllAttributes;
  EXPECT_EQ(db->Query(q).status().message(),
            "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not "
            "supported for global "
            "secondary index byG because its projection type is not ALL");
  // Naming attributes a KEYS_ONLY GSI does not hold is refused (top-level names, in order);
  // table and index keys are fine.
  q.select = Select::kUnset;
  q.expressions.projection = "l, gs, pk, #x.y";
  q.expressions.names = std::map<std::string, std::string>{{"#x", "x"}};
  EXPECT_EQ(db->Query(q).status().message(),
            "One or more parameter values were invalid: Global secondary index byG does not "
            "project [l, x]");
  q.expressions.projection = "pk, sk, g, gs";
  q.expressions.names.reset();
  EXPECT_TRUE(db->Query(q).ok());
  q.expressions.projection.reset();
  // LSI: ordered by l, only items that have l.
  q = Q("a");
  q.index_name = "byL";
  q.key_condition.sort_name = "l";
  q.key_condition.op = SortKeyOp::kBeginsWith;
  q.key_condition.sort_value = S("");
  r = db->Query(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->count, 2);
  EXPECT_EQ(r->items[0].at("l"), S("b"));
  EXPECT_EQ(r->items[1].at("l"), S("m"));
  // Changing and removing index keys moves and removes entries.
  ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(4)}, {"l", S("z")}}).ok());
  ASSERT_TRUE(Put(db, {{"pk", S("a")}, {"sk", N(2)}}).ok());
  r = db->Query(q);
  ASSERT_EQ(r->count, 1);
  EXPECT_EQ(r->items[0].at("l"), S("z"));
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageBasicIndexes, UpdateTableAddsAndBackfillsAGsi) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  for (int i = 0; i < 50; ++i) {
    Item item{{"pk", S("p" + std::to_string(i % 5))}, {"sk", N(i)}};
    if (i % 2 == 0) item["email"] = S("e" + std::to_string(i));
    if (i == 10) item["email"] = N(10);  // wrong type: left out of the index, as DynamoDB does
    ASSERT_TRUE(Put(db, item).ok());
  }
  UpdateTableRequest u;
  u.table_name = "App";
  u.attribute_definitions = {{"email", "S"}};
  u.create_global_index = IndexSpec{"byEmail", {{"email", "HASH"}}, "ALL", std::nullopt};
  auto ur = db->UpdateTable(u);
  ASSERT_TRUE(ur.ok()) << ur.status().ToString();
  auto d = db->DescribeTable({"App"});
  EXPECT_EQ(d->table.FindIndex("byEmail")->item_count, 24);
  QueryRequest q;
  q.table_name = "App";
  q.index_name = "byEmail";
  q.key_condition = {"email", S("e12"), "", SortKeyOp::kNone, {}, {}};
  auto r = db->Query(q);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->count, 1);
  EXPECT_EQ(r->items[0].at("sk"), N(12));
  // New writes maintain it; a wrong type is now refused.
  EXPECT_EQ(Put(db, {{"pk", S("x")}, {"sk", N(1)}, {"email", N(1)}}).message(),
            "One or more parameter values were invalid: Type mismatch for Index Key email "
            "Expected: S Actual: N "
            "IndexName: byEmail");
  EXPECT_EQ(db->UpdateTable(u).status().message(),
            "One or more parameter values were invalid: Index with name: byEmail already exists");
  EXPECT_TRUE(db->VerifyIntegrity().ok());
  UpdateTableRequest del;
  del.table_name = "App";
  del.delete_global_index = "byEmail";
  ASSERT_TRUE(db->UpdateTable(del).ok());
  EXPECT_EQ(db->Query(q).status().message(),
            "The table does not have the specified index: byEmail");
  EXPECT_TRUE(Put(db, {{"pk", S("x")}, {"sk", N(1)}, {"email", N(1)}}).ok());
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageBasicScan, SegmentsPartitionTheTable) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  for (int i = 0; i < 200; ++i)
    ASSERT_TRUE(Put(db, {{"pk", S("p" + std::to_string(i))}, {"sk", N(i)}}).ok());
  std::set<int64_t> seen;
  for (int seg = 0; seg < 4; ++seg) {
    ScanRequest s;
    s.table_name = "App";
    s.segment = seg;
    s.total_segments = 4;
    s.limit = 7;
    for (;;) {
      auto r = db->Scan(s);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      for (auto v : SortKeys(*r)) EXPECT_TRUE(seen.insert(v).second) << v;
      if (!r->last_evaluated_key) break;
      s.exclusive_start_key = r->last_evaluated_key;
    }
  }
  EXPECT_EQ(seen.size(), 200u);
  ScanRequest s;
  s.table_name = "App";
  s.total_segments = 3;
  EXPECT_EQ(db->Scan(s).status().message(),
            "The Segment parameter is required but was not present in the request when parameter "
            "TotalSegments "
            "is present");
  s.segment = 3;
  EXPECT_EQ(db->Scan(s).status().message(),
            "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
            "Segment: 3 is not "
            "less than TotalSegments: 3");
  s.segment = 0;
  s.select = Select::kCount;
  auto r = db->Scan(s);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->items.empty());
  EXPECT_GT(r->count, 0);
}

TEST(StorageBasicCapacity, ReadsAndWritesFollowDynamoRules) {
  TempDb db;
  ASSERT_TRUE(db->CreateTable(AppTable()).ok());
  PutItemRequest p;
  p.table_name = "App";
  p.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  p.item = {{"pk", S("a")},
            {"sk", N(1)},
            {"g", S("G")},
            {"gs", N(1)},
            {"pad", S(std::string(1500, 'x'))}};
  auto pr = db->PutItem(p);
  ASSERT_TRUE(pr.ok());
  // 1,519 bytes -> 2 WCU on the table; the KEYS_ONLY GSI entry is small -> 1 WCU.
  EXPECT_EQ(pr->consumed_capacity->table.write_units, 2);
  EXPECT_EQ(pr->consumed_capacity->global_indexes.at("byG").write_units, 1);
  EXPECT_EQ(pr->consumed_capacity->total.capacity_units, 3);
  // Changing the GSI key: a delete and a put on the index.
  p.item["g"] = S("H");
  pr = db->PutItem(p);
  EXPECT_EQ(pr->consumed_capacity->global_indexes.at("byG").write_units, 2);
  GetItemRequest g;
  g.table_name = "App";
  g.key = {{"pk", S("a")}, {"sk", N(1)}};
  g.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(db->GetItem(g)->consumed_capacity->total.capacity_units, 0.5);
  g.consistent_read = true;
  EXPECT_EQ(db->GetItem(g)->consumed_capacity->total.capacity_units, 1);
  g.key["sk"] = N(99);  // a missing item still costs the minimum
  EXPECT_EQ(db->GetItem(g)->consumed_capacity->total.capacity_units, 1);
  // Query: one rounding over the sum of item sizes.
  for (int i = 2; i <= 10; ++i) {
    p.item = {{"pk", S("a")}, {"sk", N(i)}, {"pad", S(std::string(4000, 'x'))}};
    ASSERT_TRUE(db->PutItem(p).ok());
  }
  auto q = Q("a");
  q.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto r = db->Query(q);
  ASSERT_TRUE(r.ok());
  size_t total = 0;
  for (const auto& item : r->items) total += ItemSize(item);
  EXPECT_EQ(r->consumed_capacity->total.capacity_units, std::ceil(total / 4096.0) * 0.5);
  q.select = Select::kCount;
  EXPECT_EQ(db->Query(q)->consumed_capacity->total.capacity_units, std::ceil(total / 4096.0) * 0.5);
  DeleteItemRequest d;
  d.table_name = "App";
  d.key = {{"pk", S("nope")}, {"sk", N(1)}};
  d.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(db->DeleteItem(d)->consumed_capacity->total.capacity_units, 1);
}

TEST(StorageBasicFiles, RefusesWhatIsNotAKeyholeDatabase) {
  char tmpl[] = "/tmp/keyhole-test-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  std::string junk = dir + "/junk.kh";
  FILE* f = fopen(junk.c_str(), "w");
  fputs("hello, I am not a database", f);
  fclose(f);
  auto r = Database::Open(junk);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kDatabaseFormat);
  EXPECT_NE(r.status().message().find("not a keyhole database"), std::string::npos);
  Database::Options o;
  o.create_if_missing = false;
  EXPECT_EQ(Database::Open(dir + "/missing.kh", o).status().code(), ErrorCode::kResourceNotFound);
  std::filesystem::remove_all(dir);
}

TEST(StorageBasicFiles, RefusesANewerFormatAndAnLmdbFileWithoutCatalog) {
  char tmpl[] = "/tmp/keyhole-test-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  std::string path = dir + "/newer.kh";
  ASSERT_TRUE(Database::Open(path).ok());
  {  // Pretend a future keyhole wrote the file.
    auto env = Env::Open(path, Env::Options{});
    ASSERT_TRUE(env.ok());
    ASSERT_TRUE((*env)
                    ->Write([&](Txn& txn) -> Status {
                      MDB_dbi dbi;
                      if (mdb_dbi_open(txn.get(), "__catalog", 0, &dbi))
                        return Status::Internal("open");
                      return txn.Put(dbi, "format", "keyhole 99");
                    })
                    .ok());
  }
  auto r = Database::Open(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kDatabaseFormat);
  EXPECT_NE(r.status().message().find("written by a newer keyhole (format 99"), std::string::npos)
      << r.status().message();
  // A plain LMDB file with data but no keyhole catalog.
  std::string plain = dir + "/plain.mdb";
  {
    auto env = Env::Open(plain, Env::Options{});
    ASSERT_TRUE(env.ok());
    ASSERT_TRUE((*env)
                    ->Write([&](Txn& txn) -> Status {
                      MDB_dbi dbi;
                      if (mdb_dbi_open(txn.get(), nullptr, 0, &dbi))
                        return Status::Internal("open");
                      return txn.Put(dbi, "somebody", "else's data");
                    })
                    .ok());
  }
  r = Database::Open(plain);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kDatabaseFormat);
  std::filesystem::remove_all(dir);
}

TEST(StorageBasicFiles, MapGrowsWhenFull) {
  char tmpl[] = "/tmp/keyhole-test-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  Database::Options o;
  o.initial_map_size = 1 << 20;  // 1 MB: must grow many times
  o.sync = false;
  auto db = Database::Open(dir + "/g.kh", o);
  ASSERT_TRUE(db.ok());
  ASSERT_TRUE((*db)->CreateTable(AppTable()).ok());
  std::string blob(10000, 'y');
  for (int i = 0; i < 1000; ++i) {
    PutItemRequest p;
    p.table_name = "App";
    p.item = {{"pk", S("a")}, {"sk", N(i)}, {"blob", S(blob)}};
    ASSERT_TRUE((*db)->PutItem(p).ok()) << i;
  }
  EXPECT_EQ((*db)->DescribeTable({"App"})->table.item_count, 1000);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace keyhole::storage
