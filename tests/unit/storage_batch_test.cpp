// BatchWriteItem and BatchGetItem (reference §4.7, §5): limits, duplicate keys, validation of
// each request, one transaction, 16 MB UnprocessedKeys, capacity per table.
#include <gtest/gtest.h>

#include "core/item.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::N;
using testing::S;
using testing::TempDb;

using testing::Key;
using testing::PutOne;
void MakeTables(TempDb& db) { testing::MakeTables(db, "Other"); }

Item OKey(const std::string& pk) { return {{"pk", S(pk)}}; }

WriteRequest Put(Item item) { return WriteRequest{PutRequest{std::move(item)}, std::nullopt}; }
WriteRequest Del(Item key) { return WriteRequest{std::nullopt, DeleteRequest{std::move(key)}}; }

std::optional<Item> Get(TempDb& db, const std::string& table, Item key) {
  GetItemRequest g;
  g.table_name = table;
  g.key = std::move(key);
  auto r = db->GetItem(g);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->item : std::nullopt;
}

size_t Count(TempDb& db, const std::string& table) {
  ScanRequest s;
  s.table_name = table;
  auto r = db->Scan(s);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->items.size() : 0;
}

std::string Message(const Status& s) { return s.ToString(); }

// `base` padded with an attribute "d" to exactly `bytes` (DynamoDB item size).
Item Sized(Item base, size_t bytes) {
  base["d"] = S("");
  size_t n = bytes - ItemSize(base);
  base["d"] = S(std::string(n, 'x'));
  EXPECT_EQ(ItemSize(base), bytes);
  return base;
}

// ---- BatchWriteItem ----

TEST(StorageBatchWriteItem, PutsAndDeletesAcrossTables) {
  TempDb db;
  MakeTables(db);
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("a")}, {"sk", N(9)}, {"g", S("x")}}).ok());
  BatchWriteItemRequest r;
  r.request_items["App"] = {Put({{"pk", S("a")}, {"sk", N(1)}, {"g", S("x")}}), Put(Key("a", 2)),
                            Del(Key("a", 9)), Del(Key("missing", 1))};
  r.request_items["Other"] = {Put({{"pk", S("o")}, {"v", N(1)}})};
  auto resp = db->BatchWriteItem(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  EXPECT_TRUE(resp->unprocessed_items.empty());
  EXPECT_TRUE(resp->consumed_capacity.empty());  // ReturnConsumedCapacity NONE
  EXPECT_TRUE(Get(db, "App", Key("a", 1)).has_value());
  EXPECT_TRUE(Get(db, "App", Key("a", 2)).has_value());
  EXPECT_FALSE(Get(db, "App", Key("a", 9)).has_value());
  EXPECT_EQ(Get(db, "Other", OKey("o"))->at("v"), N(1));
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageBatchWriteItem, TwentyFiveRequestsInTotal) {
  TempDb db;
  MakeTables(db);
  BatchWriteItemRequest r;
  for (int i = 0; i < 25; ++i) r.request_items["App"].push_back(Put(Key("p", i)));
  ASSERT_TRUE(db->BatchWriteItem(r).ok());
  EXPECT_EQ(Count(db, "App"), 25u);
  r.request_items["App"].push_back(Put(Key("p", 25)));
  // 26 in one table's list: the list constraint, whose message echoes the map as DynamoDB's
  // Java service prints it (core/java_echo.h).
  const std::string over = Message(db->BatchWriteItem(r).status());
  EXPECT_EQ(
      over.substr(0, 206),
      "ValidationException: 1 validation error detected: Value '{App=[WriteRequest(putRequest="
      "PutRequest(item={pk=com.amazonaws.dynamodb.v20120810.AttributeValue@3e0ce4ea, "
      "sk=com.amazonaws.dynamodb.v20120810.Attri");
  EXPECT_TRUE(over.ends_with(
      ", workloadProfileName=null), deleteRequest=null)]}' at 'requestItems' failed to satisfy "
      "constraint: Map value must satisfy constraint: [Member must have length less than or "
      "equal to 25, Member must have length greater than or equal to 1]"))
      << over;
  // 25 is the total across tables.
  BatchWriteItemRequest split;
  for (int i = 0; i < 13; ++i) {
    split.request_items["App"].push_back(Put(Key("q", i)));
    split.request_items["Other"].push_back(Put(OKey("q" + std::to_string(i))));
  }
  EXPECT_EQ(Message(db->BatchWriteItem(split).status()),
            "ValidationException: Too many items requested for the BatchWriteItem call");
  EXPECT_EQ(Count(db, "Other"), 0u);
}

TEST(StorageBatchWriteItem, EmptyRequests) {
  TempDb db;
  MakeTables(db);
  BatchWriteItemRequest r;
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()),
            "ValidationException: The requestItems parameter is required for BatchWriteItem");
  r.request_items["App"] = {};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()),
            "ValidationException: 1 validation error detected: Value '{App=[]}' at 'requestItems' "
            "failed to satisfy constraint: Map value must satisfy constraint: [Member must have "
            "length less than or equal to 25, Member must have length greater than or equal to "
            "1]");
  r.request_items["App"] = {WriteRequest{}};
  EXPECT_TRUE(db->BatchWriteItem(r).status().IsValidation());
  WriteRequest both = Put(Key("a", 1));
  both.delete_request = DeleteRequest{Key("a", 1)};
  r.request_items["App"] = {both};
  EXPECT_TRUE(db->BatchWriteItem(r).status().IsValidation());
}

TEST(StorageBatchWriteItem, DuplicateKeysAreRefused) {
  TempDb db;
  MakeTables(db);
  const std::string dup = "ValidationException: Provided list of item keys contains duplicates";
  BatchWriteItemRequest r;
  r.request_items["App"] = {Put(Key("a", 1)), Put({{"pk", S("b")}, {"sk", N(1)}}),
                            Put({{"pk", S("a")}, {"sk", N("1.0")}, {"v", N(2)}})};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()), dup);  // 1 and 1.0 are one number
  r.request_items["App"] = {Put(Key("a", 1)), Del(Key("a", 1))};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()), dup);
  r.request_items["App"] = {Del(Key("a", 1)), Del(Key("a", 1))};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()), dup);
  EXPECT_EQ(Count(db, "App"), 0u);
  // The same key in two tables is two items.
  r.request_items["App"] = {Put({{"pk", S("k")}, {"sk", N(1)}})};
  r.request_items["Other"] = {Put(OKey("k"))};
  ASSERT_TRUE(db->BatchWriteItem(r).ok());
}

TEST(StorageBatchWriteItem, EachRequestIsValidatedAndOneBadRequestWritesNothing) {
  TempDb db;
  MakeTables(db);
  BatchWriteItemRequest r;
  r.request_items["Other"] = {Put(OKey("fine"))};
  r.request_items["App"] = {Put(Key("a", 1)), Put({{"pk", S("a")}})};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()),
            "ValidationException: The provided key element does not match the schema");
  r.request_items["App"] = {Put(Key("a", 1)), Del({{"pk", S("a")}, {"sk", S("1")}})};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()),
            "ValidationException: The provided key element does not match the schema");
  r.request_items["App"] = {Del({{"pk", S("a")}, {"sk", N(1)}, {"extra", S("x")}})};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()),
            "ValidationException: The provided key element does not match the schema");
  r.request_items["App"] = {Put({{"pk", S("a")}, {"sk", N(1)}, {"g", N(1)}})};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()),
            "ValidationException: One or more parameter values were invalid: Type mismatch for "
            "Index Key g Expected: S Actual: N IndexName: byG");
  r.request_items["App"] = {
      Put({{"pk", S("a")}, {"sk", N(1)}, {"big", S(std::string(kMaxItemSize, 'x'))}})};
  EXPECT_EQ(Message(db->BatchWriteItem(r).status()),
            "ValidationException: Item size has exceeded the maximum allowed size");
  r.request_items.erase("App");
  r.request_items["Missing"] = {Put(OKey("x"))};
  Status s = db->BatchWriteItem(r).status();
  EXPECT_EQ(s.code(), ErrorCode::kResourceNotFound);
  EXPECT_EQ(s.message(), "Requested resource not found");
  r.request_items.erase("Missing");
  r.request_items[""] = {Put(OKey("x"))};
  EXPECT_TRUE(db->BatchWriteItem(r).status().IsValidation());  // an empty table name
  EXPECT_EQ(Count(db, "Other"), 0u);
  EXPECT_EQ(Count(db, "App"), 0u);
}

TEST(StorageBatchWriteItem, CapacityPerTableEachItemRoundedOnItsOwn) {
  TempDb db;
  MakeTables(db);
  // Reference §5.2: 500 B + 3.5 KB cost 1 + 4 = 5 WCU, not ceil(4 KB) = 4.
  Item small = Sized({{"pk", S("o1")}}, 500);
  Item large = Sized({{"pk", S("o2")}}, 3584);
  BatchWriteItemRequest r;
  r.request_items["Other"] = {Put(small), Put(large)};
  r.request_items["App"] = {Put({{"pk", S("a")}, {"sk", N(1)}, {"g", S("x")}}),
                            Del(Key("none", 1))};
  r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto resp = db->BatchWriteItem(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->consumed_capacity.size(), 2u);
  const ConsumedCapacity& app = resp->consumed_capacity[0];
  const ConsumedCapacity& other = resp->consumed_capacity[1];
  EXPECT_EQ(app.table_name, "App");
  EXPECT_EQ(app.table.write_units, 2);  // the put, and 1 for deleting a missing item
  EXPECT_EQ(app.global_indexes.at("byG").write_units, 1);
  EXPECT_EQ(app.total.capacity_units, 3);
  EXPECT_EQ(other.table_name, "Other");
  EXPECT_EQ(other.total.write_units, 5);
  r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  resp = db->BatchWriteItem(r);
  ASSERT_TRUE(resp.ok());
  EXPECT_TRUE(resp->consumed_capacity[0].global_indexes.empty());
  // The put now replaces an identical item: no index write.
  EXPECT_EQ(resp->consumed_capacity[0].total.capacity_units, 2);
}

// ---- BatchGetItem ----

TEST(StorageBatchGetItem, ReadsAcrossTablesMissingItemsAreAbsent) {
  TempDb db;
  MakeTables(db);
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("a")}, {"sk", N(1)}, {"v", S("one")}}).ok());
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("a")}, {"sk", N(2)}, {"v", S("two")}}).ok());
  BatchGetItemRequest r;
  r.request_items["App"].keys = {Key("a", 2), Key("zz", 1), Key("a", 1)};
  r.request_items["Other"].keys = {OKey("nothing")};
  auto resp = db->BatchGetItem(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->responses.at("App").size(), 2u);
  EXPECT_EQ(resp->responses.at("App")[0].at("v"), S("two"));  // in request order
  EXPECT_EQ(resp->responses.at("App")[1].at("v"), S("one"));
  EXPECT_TRUE(resp->responses.at("Other").empty());
  EXPECT_TRUE(resp->unprocessed_keys.empty());
}

TEST(StorageBatchGetItem, HundredKeysDuplicatesAndBadKeys) {
  TempDb db;
  MakeTables(db);
  BatchGetItemRequest r;
  for (int i = 0; i < 100; ++i) r.request_items["App"].keys.push_back(Key("k", i));
  ASSERT_TRUE(db->BatchGetItem(r).ok());
  r.request_items["Other"].keys.push_back(OKey("one more"));
  EXPECT_EQ(Message(db->BatchGetItem(r).status()),
            "ValidationException: Too many items requested for the BatchGetItem call");
  BatchGetItemRequest d;
  d.request_items["App"].keys = {Key("k", 1), Key("k", 2), Key("k", 1)};
  EXPECT_EQ(Message(db->BatchGetItem(d).status()),
            "ValidationException: Provided list of item keys contains duplicates");
  d.request_items["App"].keys = {{{"pk", S("k")}}};
  EXPECT_EQ(Message(db->BatchGetItem(d).status()),
            "ValidationException: The provided key element does not match the schema");
  d.request_items["App"].keys = {};
  EXPECT_EQ(Message(db->BatchGetItem(d).status()),
            "ValidationException: 1 validation error detected: Value at "
            "'RequestItems.App.member.Keys' failed to satisfy constraint: Member must have length "
            "greater than or equal to 1");
  BatchGetItemRequest none;
  EXPECT_EQ(Message(db->BatchGetItem(none).status()),
            "ValidationException: 1 validation error detected: Value at 'RequestItems' failed to "
            "satisfy constraint: Member must have length greater than or equal to 1");
  BatchGetItemRequest missing;
  missing.request_items["Nope"].keys = {OKey("x")};
  EXPECT_EQ(db->BatchGetItem(missing).status().code(), ErrorCode::kResourceNotFound);
}

TEST(StorageBatchGetItem, ProjectionAndConsistencyPerTableAndCapacity) {
  TempDb db;
  MakeTables(db);
  // Reference §5.1: 1.5 KB + 6.5 KB are rounded one by one: 4 KB + 8 KB = 3 RCU strongly.
  Item a = Sized({{"pk", S("a")}, {"sk", N(1)}, {"v", N(1)}}, 1536);
  Item b = Sized({{"pk", S("b")}, {"sk", N(1)}, {"v", N(2)}}, 6656);
  ASSERT_TRUE(PutOne(db, "App", a).ok());
  ASSERT_TRUE(PutOne(db, "App", b).ok());
  ASSERT_TRUE(PutOne(db, "Other", {{"pk", S("o")}, {"w", S("x")}}).ok());
  BatchGetItemRequest r;
  r.request_items["App"].keys = {Key("a", 1), Key("b", 1)};
  r.request_items["App"].consistent_read = true;
  r.request_items["App"].expressions.projection = "v, #p";
  r.request_items["App"].expressions.names = std::map<std::string, std::string>{{"#p", "pk"}};
  r.request_items["Other"].keys = {OKey("o"), OKey("absent")};
  r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto resp = db->BatchGetItem(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  const auto& items = resp->responses.at("App");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], (Item{{"pk", S("a")}, {"v", N(1)}}));
  EXPECT_EQ(resp->responses.at("Other")[0].at("w"), S("x"));  // no projection there
  ASSERT_EQ(resp->consumed_capacity.size(), 2u);
  EXPECT_EQ(resp->consumed_capacity[0].table_name, "App");
  EXPECT_EQ(resp->consumed_capacity[0].total.read_units, 3);
  EXPECT_EQ(resp->consumed_capacity[1].table_name, "Other");
  EXPECT_EQ(resp->consumed_capacity[1].total.read_units, 1);  // 0.5 + 0.5 (missing item)
}

TEST(StorageBatchGetItem, SixteenMegabytesThenUnprocessedKeys) {
  TempDb db;
  MakeTables(db);
  Item proto{{"pk", S("big")}, {"sk", N(0)}, {"d", S(std::string(400000, 'x'))}};
  const size_t size = ItemSize(proto);
  const size_t fit = (size_t{16} << 20) / size;  // 41 items fit in 16 MB
  BatchGetItemRequest r;
  for (int i = 0; i < 45; ++i) {
    Item item = proto;
    item["sk"] = N(i);
    ASSERT_TRUE(PutOne(db, "App", item).ok());
    r.request_items["App"].keys.push_back(Key("big", i));
  }
  r.request_items["App"].consistent_read = true;
  r.request_items["App"].expressions.projection = "pk, sk, d";
  r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto resp = db->BatchGetItem(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  EXPECT_EQ(resp->responses.at("App").size(), fit);
  ASSERT_EQ(resp->unprocessed_keys.count("App"), 1u);
  const KeysAndAttributes& rest = resp->unprocessed_keys.at("App");
  ASSERT_EQ(rest.keys.size(), 45 - fit);
  EXPECT_EQ(rest.keys[0], Key("big", static_cast<int64_t>(fit)));
  EXPECT_TRUE(rest.consistent_read);
  EXPECT_EQ(rest.expressions.projection, "pk, sk, d");
  // Only what was read is charged: 98 blocks of 4 KB per item.
  EXPECT_EQ(resp->consumed_capacity[0].total.read_units, static_cast<double>(fit * 98));
  // Asking again for the unprocessed keys returns the rest.
  BatchGetItemRequest again;
  again.request_items = resp->unprocessed_keys;
  auto second = db->BatchGetItem(again);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->responses.at("App").size(), 45 - fit);
  EXPECT_TRUE(second->unprocessed_keys.empty());
}

}  // namespace
}  // namespace keyhole::storage
