// Item collections of tables with local secondary indexes: ReturnItemCollectionMetrics=SIZE on
// every write operation, and the item collection limit (10 GB in DynamoDB; a small one here).
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::S;
using testing::TempDb;

// "Lsi" (pk S, sk S, LSI "byX" (pk, x S) projecting ALL) and "Plain" (pk S, sk S).
void MakeLsiTables(TempDb& db) {
  CreateTableRequest r;
  r.table_name = "Lsi";
  r.attribute_definitions = {{"pk", "S"}, {"sk", "S"}, {"x", "S"}};
  r.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  IndexSpec lsi;
  lsi.name = "byX";
  lsi.key_schema = {{"pk", "HASH"}, {"x", "RANGE"}};
  lsi.projection_type = "ALL";
  r.local_secondary_indexes = {lsi};
  ASSERT_TRUE(db->CreateTable(r).ok());
  CreateTableRequest p;
  p.table_name = "Plain";
  p.attribute_definitions = {{"pk", "S"}, {"sk", "S"}};
  p.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  ASSERT_TRUE(db->CreateTable(p).ok());
}

Item Row(const std::string& pk, const std::string& sk, const std::string& x) {
  return {{"pk", S(pk)}, {"sk", S(sk)}, {"x", S(x)}};
}

TEST(StorageCollectionItemCollectionTest, MetricsOnEveryWrite) {
  TempDb db;
  MakeLsiTables(db);
  PutItemRequest put;
  put.table_name = "Lsi";
  put.item = Row("a", "1", "v");
  put.return_item_collection_metrics = true;
  auto p = db->PutItem(put);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_TRUE(p->item_collection_metrics.has_value());
  EXPECT_EQ(p->item_collection_metrics->item_collection_key, (Item{{"pk", S("a")}}));
  EXPECT_EQ(p->item_collection_metrics->size_estimate_lower_gb, 0.0);
  EXPECT_EQ(p->item_collection_metrics->size_estimate_upper_gb, 1.0);

  put.return_item_collection_metrics = false;  // not asked: none
  EXPECT_FALSE(db->PutItem(put)->item_collection_metrics.has_value());
  put.table_name = "Plain";  // no local index: none, even when asked
  put.return_item_collection_metrics = true;
  EXPECT_FALSE(db->PutItem(put)->item_collection_metrics.has_value());

  UpdateItemRequest u;
  u.table_name = "Lsi";
  u.key = {{"pk", S("a")}, {"sk", S("1")}};
  u.expressions.update = "SET y = :y";
  u.expressions.values = std::map<std::string, AttributeValue>{{":y", S("z")}};
  u.return_item_collection_metrics = true;
  auto up = db->UpdateItem(u);
  ASSERT_TRUE(up.ok()) << up.status().ToString();
  EXPECT_TRUE(up->item_collection_metrics.has_value());

  DeleteItemRequest d;
  d.table_name = "Lsi";
  d.key = {{"pk", S("a")}, {"sk", S("1")}};
  d.return_item_collection_metrics = true;
  auto del = db->DeleteItem(d);
  ASSERT_TRUE(del.ok()) << del.status().ToString();
  EXPECT_TRUE(del->item_collection_metrics.has_value());

  BatchWriteItemRequest b;
  b.request_items["Lsi"] = {WriteRequest{PutRequest{Row("b", "1", "v")}, std::nullopt},
                            WriteRequest{PutRequest{Row("c", "1", "v")}, std::nullopt}};
  b.request_items["Plain"] = {WriteRequest{PutRequest{Row("b", "1", "v")}, std::nullopt}};
  b.return_item_collection_metrics = true;
  auto batch = db->BatchWriteItem(b);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ(batch->item_collection_metrics.size(), 1u);
  ASSERT_EQ(batch->item_collection_metrics.at("Lsi").size(), 2u);
  EXPECT_EQ(batch->item_collection_metrics.at("Lsi")[1].item_collection_key,
            (Item{{"pk", S("c")}}));

  TransactWriteItemsRequest t;
  TransactWriteItem a;
  a.put = PutItemRequest{};
  a.put->table_name = "Lsi";
  a.put->item = Row("d", "1", "v");
  t.transact_items = {a};
  t.return_item_collection_metrics = true;
  auto tx = db->TransactWriteItems(t);
  ASSERT_TRUE(tx.ok()) << tx.status().ToString();
  ASSERT_EQ(tx->item_collection_metrics.at("Lsi").size(), 1u);
}

TEST(StorageCollectionItemCollectionTest, LimitRefusesGrowthOnly) {
  TempDb db;
  MakeLsiTables(db);
  db.SetCollectionLimit(300);  // bytes: a handful of items per collection
  const std::string value(40, 'v');
  PutItemRequest put;
  put.table_name = "Lsi";
  Status last;
  int written = 0;
  for (int i = 0; i < 20; ++i) {
    put.item = Row("a", std::to_string(i), value);
    last = db->PutItem(put).status();
    if (!last.ok()) break;
    ++written;
  }
  ASSERT_GT(written, 0);
  ASSERT_LT(written, 20);
  EXPECT_EQ(last.ToString(),
            "ItemCollectionSizeLimitExceededException: The total size of an item collection has "
            "exceeded the maximum limit of 10 gigabytes");
  // Another collection of the same table is not affected; the plain table has no limit.
  put.item = Row("b", "0", value);
  EXPECT_TRUE(db->PutItem(put).ok());
  put.table_name = "Plain";
  for (int i = 0; i < 20; ++i) {
    put.item = Row("a", std::to_string(i), value);
    ASSERT_TRUE(db->PutItem(put).ok());
  }
  // Shrinking the full collection is allowed, and so is a write that keeps its size.
  UpdateItemRequest u;
  u.table_name = "Lsi";
  u.key = {{"pk", S("a")}, {"sk", S("0")}};
  u.expressions.update = "REMOVE x";
  EXPECT_TRUE(db->UpdateItem(u).ok());
  put.table_name = "Lsi";
  put.item = Row("a", "1", value);  // the same item again
  EXPECT_TRUE(db->PutItem(put).ok());
  // In a transaction the limit cancels with its reason, and nothing is written.
  TransactWriteItemsRequest t;
  TransactWriteItem ok, grow;
  ok.put = PutItemRequest{};
  ok.put->table_name = "Lsi";
  ok.put->item = Row("c", "0", "v");
  grow.put = PutItemRequest{};
  grow.put->table_name = "Lsi";
  grow.put->item = Row("a", "big", std::string(200, 'w'));
  t.transact_items = {ok, grow};
  Status s = db->TransactWriteItems(t).status();
  EXPECT_EQ(s.ToString(),
            "TransactionCanceledException: Transaction cancelled, please refer cancellation "
            "reasons for specific reasons [None, ItemCollectionSizeLimitExceeded]");
  GetItemRequest g;
  g.table_name = "Lsi";
  g.key = {{"pk", S("c")}, {"sk", S("0")}};
  EXPECT_FALSE(db->GetItem(g)->item.has_value());
}

}  // namespace
}  // namespace keyhole::storage
