// DynamoDB Streams (reference §6.2): records written with every item change in the same
// transaction, INSERT / MODIFY / REMOVE, no record for writes that change nothing, images per
// view type, sequence order, 24-hour retention on a fixed clock, shard iterators, GetRecords
// limits, disabled streams, DescribeTable members, and a replay of the stream into a copy.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "core/item.h"
#include "error_text.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::N;
using testing::S;
using testing::TempDb;

constexpr double kT0 = 1795385600.0;  // 2026-11-22T22:13:20Z

struct Fixture {
  double now = kT0 + 0.123;
  TempDb db{[this] { return now; }};
};

void Create(TempDb& db, const std::string& name, std::optional<std::string> view,
            bool sort = true) {
  CreateTableRequest r;
  r.table_name = name;
  r.attribute_definitions = {{"pk", "S"}};
  r.key_schema = {{"pk", "HASH"}};
  if (sort) {
    r.attribute_definitions.push_back({"sk", "N"});
    r.key_schema.push_back({"sk", "RANGE"});
  }
  if (view) r.stream_specification = StreamSpecification{true, view};
  auto res = db->CreateTable(r);
  ASSERT_TRUE(res.ok()) << res.status().ToString();
}

Item K(const std::string& pk, int64_t sk) { return {{"pk", S(pk)}, {"sk", N(sk)}}; }
Item I(const std::string& pk, int64_t sk, const std::string& v) {
  return {{"pk", S(pk)}, {"sk", N(sk)}, {"v", S(v)}};
}

void Put(TempDb& db, const std::string& table, Item item) {
  PutItemRequest p;
  p.table_name = table;
  p.item = std::move(item);
  auto r = db->PutItem(p);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
}
void Delete(TempDb& db, const std::string& table, Item key) {
  DeleteItemRequest d;
  d.table_name = table;
  d.key = std::move(key);
  auto r = db->DeleteItem(d);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
}
Status Update(TempDb& db, const std::string& table, Item key, const std::string& expr,
              std::map<std::string, AttributeValue> values) {
  UpdateItemRequest u;
  u.table_name = table;
  u.key = std::move(key);
  u.expressions.update = expr;
  if (!values.empty()) u.expressions.values = std::move(values);
  return db->UpdateItem(u).status();
}

std::string Arn(TempDb& db, const std::string& table) {
  auto t = db->TableSchema(table);
  EXPECT_TRUE(t.ok());
  return t.ok() ? (*t)->LatestStreamArn() : "";
}

std::string ShardOf(TempDb& db, const std::string& arn) {
  DescribeStreamRequest d;
  d.stream_arn = arn;
  auto r = db->DescribeStream(d);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok() || r->stream_description.shards.empty()) return "";
  return r->stream_description.shards[0].shard_id;
}

Result<std::string> Iter(TempDb& db, const std::string& arn, const std::string& type,
                         std::optional<std::string> seq = std::nullopt) {
  GetShardIteratorRequest g;
  g.stream_arn = arn;
  g.shard_id = ShardOf(db, arn);
  g.shard_iterator_type = type;
  g.sequence_number = std::move(seq);
  KH_ASSIGN_OR_RETURN(GetShardIteratorResponse r, db->GetShardIterator(g));
  return r.shard_iterator;
}

// Every record of the stream from TRIM_HORIZON, following NextShardIterator.
std::vector<StreamRecord> All(TempDb& db, const std::string& arn, int limit = 1000) {
  std::vector<StreamRecord> out;
  auto it = Iter(db, arn, "TRIM_HORIZON");
  EXPECT_TRUE(it.ok()) << it.status().ToString();
  std::optional<std::string> next = it.ok() ? std::optional<std::string>(*it) : std::nullopt;
  while (next) {
    GetRecordsRequest g;
    g.shard_iterator = *next;
    g.limit = limit;
    auto r = db->GetRecords(g);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) break;
    if (r->records.empty()) break;
    for (auto& rec : r->records) out.push_back(std::move(rec));
    next = r->next_shard_iterator;
  }
  return out;
}

std::vector<StreamRecord> Records(TempDb& db, const std::string& table) {
  return All(db, Arn(db, table));
}

TEST(StorageStreamTest, EnableShowsInDescribeTableWithLabel) {
  Fixture f;
  Create(f.db, "Tbl", "NEW_AND_OLD_IMAGES");
  DescribeTableRequest d;
  d.table_name = "Tbl";
  auto r = f.db->DescribeTable(d);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->table.stream_view_type, "NEW_AND_OLD_IMAGES");
  EXPECT_EQ(r->table.latest_stream_label, "2026-11-22T22:13:20.123");
  EXPECT_EQ(r->table.LatestStreamArn(),
            "arn:aws:dynamodb:local:000000000000:table/Tbl/stream/2026-11-22T22:13:20.123");
  json::Value j = TableToJson(r->table);
  ASSERT_NE(j.Find("StreamSpecification"), nullptr);
  EXPECT_NE(j.Find("LatestStreamArn"), nullptr);
}

TEST(StorageStreamTest, InsertModifyRemove) {
  Fixture f;
  Create(f.db, "Tbl", "NEW_AND_OLD_IMAGES");
  Put(f.db, "Tbl", I("a", 1, "x"));
  Put(f.db, "Tbl", I("a", 1, "y"));  // replaces: MODIFY
  ASSERT_TRUE(Update(f.db, "Tbl", K("b", 2), "SET v = :v", {{":v", S("u")}}).ok());  // creates
  ASSERT_TRUE(Update(f.db, "Tbl", K("b", 2), "SET v = :v", {{":v", S("w")}}).ok());
  Delete(f.db, "Tbl", K("a", 1));
  auto recs = Records(f.db, "Tbl");
  ASSERT_EQ(recs.size(), 5u);
  EXPECT_EQ(recs[0].event_name, "INSERT");
  EXPECT_EQ(recs[1].event_name, "MODIFY");
  EXPECT_EQ(recs[2].event_name, "INSERT");
  EXPECT_EQ(recs[3].event_name, "MODIFY");
  EXPECT_EQ(recs[4].event_name, "REMOVE");
  EXPECT_FALSE(recs[0].old_image);
  EXPECT_EQ(*recs[0].new_image, I("a", 1, "x"));
  EXPECT_EQ(*recs[1].old_image, I("a", 1, "x"));
  EXPECT_EQ(*recs[1].new_image, I("a", 1, "y"));
  EXPECT_EQ(*recs[4].old_image, I("a", 1, "y"));
  EXPECT_FALSE(recs[4].new_image);
  EXPECT_EQ(recs[4].keys, K("a", 1));
  for (size_t i = 0; i < recs.size(); ++i) {
    EXPECT_EQ(recs[i].sequence_number.size(), 21u);
    if (i) EXPECT_LT(recs[i - 1].sequence_number, recs[i].sequence_number);
    EXPECT_EQ(recs[i].approximate_creation_date_time, 1795385600);
    EXPECT_EQ(recs[i].event_source, "aws:dynamodb");
    EXPECT_EQ(recs[i].event_version, "1.1");
    EXPECT_EQ(recs[i].aws_region, "local");
    EXPECT_EQ(recs[i].stream_view_type, "NEW_AND_OLD_IMAGES");
    EXPECT_FALSE(recs[i].service_deletion);
    EXPECT_EQ(recs[i].event_id.size(), 32u);
    if (i) EXPECT_NE(recs[i - 1].event_id, recs[i].event_id);
  }
  EXPECT_EQ(recs[0].size_bytes,
            static_cast<int64_t>(ItemSize(K("a", 1)) + ItemSize(I("a", 1, "x"))));
}

TEST(StorageStreamTest, NoRecordForUnchangedItemsOrMissingDeletes) {
  Fixture f;
  Create(f.db, "Tbl", "KEYS_ONLY");
  Put(f.db, "Tbl", {{"pk", S("a")}, {"sk", N(1)}, {"ss", AttributeValue::SS({"x", "y"})}});
  Put(f.db, "Tbl", {{"pk", S("a")}, {"sk", N(1)}, {"ss", AttributeValue::SS({"y", "x"})}});
  ASSERT_TRUE(
      Update(f.db, "Tbl", K("a", 1), "ADD ss :s", {{":s", AttributeValue::SS({"x"})}}).ok());
  Delete(f.db, "Tbl", K("zz", 9));
  // A condition that fails writes nothing either.
  PutItemRequest p;
  p.table_name = "Tbl";
  p.item = K("a", 1);
  p.expressions.condition = "attribute_not_exists(pk)";
  EXPECT_EQ(::keyhole::testing::ErrorText(f.db->PutItem(p)),
            "ConditionalCheckFailedException: The conditional request failed");
  EXPECT_EQ(Records(f.db, "Tbl").size(), 1u);
}

TEST(StorageStreamTest, ImagesPerViewType) {
  for (std::string view : {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES"}) {
    Fixture f;
    Create(f.db, "Tbl", view);
    Put(f.db, "Tbl", I("a", 1, "x"));
    Put(f.db, "Tbl", I("a", 1, "y"));
    Delete(f.db, "Tbl", K("a", 1));
    auto recs = Records(f.db, "Tbl");
    ASSERT_EQ(recs.size(), 3u) << view;
    bool with_new = view == "NEW_IMAGE" || view == "NEW_AND_OLD_IMAGES";
    bool with_old = view == "OLD_IMAGE" || view == "NEW_AND_OLD_IMAGES";
    EXPECT_EQ(recs[0].new_image.has_value(), with_new) << view;
    EXPECT_FALSE(recs[0].old_image) << view;
    EXPECT_EQ(recs[1].new_image.has_value(), with_new) << view;
    EXPECT_EQ(recs[1].old_image.has_value(), with_old) << view;
    EXPECT_FALSE(recs[2].new_image) << view;
    EXPECT_EQ(recs[2].old_image.has_value(), with_old) << view;
    for (const auto& r : recs) {
      EXPECT_EQ(r.keys, K("a", 1));
      EXPECT_EQ(r.stream_view_type, view);
      int64_t size = static_cast<int64_t>(ItemSize(r.keys));
      if (r.new_image) size += static_cast<int64_t>(ItemSize(*r.new_image));
      if (r.old_image) size += static_cast<int64_t>(ItemSize(*r.old_image));
      EXPECT_EQ(r.size_bytes, size);
    }
  }
}

TEST(StorageStreamTest, TtlDeletionIsAServiceRemove) {
  Fixture f;
  Create(f.db, "Tbl", "NEW_AND_OLD_IMAGES");
  UpdateTimeToLiveRequest t;
  t.table_name = "Tbl";
  t.specification = {"exp", true};
  ASSERT_TRUE(f.db->UpdateTimeToLive(t).ok());
  Item item = I("a", 1, "x");
  item["exp"] = N(static_cast<int64_t>(kT0) - 10);
  Put(f.db, "Tbl", item);
  Delete(f.db, "Tbl", K("zz", 1));  // a user delete of nothing: no record
  auto n = f.db->SweepExpiredItems("Tbl");
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(*n, 1);
  auto recs = Records(f.db, "Tbl");
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_FALSE(recs[0].service_deletion);
  EXPECT_EQ(recs[1].event_name, "REMOVE");
  EXPECT_TRUE(recs[1].service_deletion);
  EXPECT_EQ(*recs[1].old_image, item);
}

TEST(StorageStreamTest, NoRecordsWithoutStream) {
  Fixture f;
  Create(f.db, "Tbl", std::nullopt);
  Put(f.db, "Tbl", I("a", 1, "x"));
  auto t = f.db->TableSchema("Tbl");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE((*t)->latest_stream_label.empty());
  ListStreamsRequest l;
  auto r = f.db->ListStreams(l);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->streams.empty());
}

TEST(StorageStreamTest, BatchAndTransactionWriteRecordsCancelledWritesNone) {
  Fixture f;
  Create(f.db, "Tbl", "NEW_IMAGE");
  BatchWriteItemRequest b;
  b.request_items["Tbl"] = {WriteRequest{PutRequest{I("a", 1, "x")}, std::nullopt},
                            WriteRequest{PutRequest{I("b", 2, "x")}, std::nullopt}};
  ASSERT_TRUE(f.db->BatchWriteItem(b).ok());
  TransactWriteItemsRequest t;
  TransactWriteItem put;
  put.put = PutItemRequest{};
  put.put->table_name = "Tbl";
  put.put->item = I("c", 3, "x");
  TransactWriteItem del;
  del.delete_ = DeleteItemRequest{};
  del.delete_->table_name = "Tbl";
  del.delete_->key = K("a", 1);
  t.transact_items = {put, del};
  ASSERT_TRUE(f.db->TransactWriteItems(t).ok());
  EXPECT_EQ(Records(f.db, "Tbl").size(), 4u);
  // A cancelled transaction writes no record.
  TransactWriteItem put2;
  put2.put = PutItemRequest{};
  put2.put->table_name = "Tbl";
  put2.put->item = I("d", 4, "x");
  TransactWriteItem check;
  check.condition_check = ConditionCheck{};
  check.condition_check->table_name = "Tbl";
  check.condition_check->key = K("b", 2);
  check.condition_check->expressions.condition = "attribute_not_exists(pk)";
  TransactWriteItemsRequest t2;
  t2.transact_items = {put2, check};
  auto s = f.db->TransactWriteItems(t2);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), ErrorCode::kTransactionCanceled);
  auto recs = Records(f.db, "Tbl");
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[2].event_name, "INSERT");
  EXPECT_EQ(recs[3].event_name, "REMOVE");
}

TEST(StorageStreamTest, TrimsAfter24Hours) {
  Fixture f;
  Create(f.db, "Tbl", "KEYS_ONLY");
  for (int i = 0; i < 5; ++i) Put(f.db, "Tbl", I("old", i, "x"));
  f.now += 12 * 3600;
  for (int i = 0; i < 3; ++i) Put(f.db, "Tbl", I("mid", i, "x"));
  f.now += 12 * 3600 + 1;  // the first five are now older than 24 h
  auto recs = Records(f.db, "Tbl");
  ASSERT_EQ(recs.size(), 3u);  // skipped on read
  EXPECT_EQ(recs[0].keys.at("pk"), S("mid"));
  Put(f.db, "Tbl", I("new", 1, "x"));  // trims (bounded) on write
  recs = Records(f.db, "Tbl");
  ASSERT_EQ(recs.size(), 4u);
  EXPECT_EQ(recs[3].keys.at("pk"), S("new"));
  // AT_SEQUENCE_NUMBER of a trimmed record.
  auto it = Iter(f.db, Arn(f.db, "Tbl"), "AT_SEQUENCE_NUMBER", "000000000000000000001");
  ASSERT_FALSE(it.ok());
  EXPECT_EQ(it.status().code(), ErrorCode::kTrimmedDataAccess);
}

TEST(StorageStreamTest, IteratorTypes) {
  Fixture f;
  Create(f.db, "Tbl", "KEYS_ONLY");
  for (int i = 0; i < 5; ++i) Put(f.db, "Tbl", I("a", i, "x"));
  std::string arn = Arn(f.db, "Tbl");
  auto all = All(f.db, arn);
  ASSERT_EQ(all.size(), 5u);
  auto read = [&](const Result<std::string>& it) {
    EXPECT_TRUE(it.ok()) << it.status().ToString();
    GetRecordsRequest g;
    g.shard_iterator = it.ok() ? *it : "";
    auto r = f.db->GetRecords(g);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : GetRecordsResponse{};
  };
  auto at = read(Iter(f.db, arn, "AT_SEQUENCE_NUMBER", all[2].sequence_number));
  ASSERT_EQ(at.records.size(), 3u);
  EXPECT_EQ(at.records[0].sequence_number, all[2].sequence_number);
  auto after = read(Iter(f.db, arn, "AFTER_SEQUENCE_NUMBER", all[2].sequence_number));
  ASSERT_EQ(after.records.size(), 2u);
  EXPECT_EQ(after.records[0].sequence_number, all[3].sequence_number);
  auto latest_it = Iter(f.db, arn, "LATEST");
  auto latest = read(latest_it);
  EXPECT_TRUE(latest.records.empty());
  ASSERT_TRUE(latest.next_shard_iterator);
  Put(f.db, "Tbl", I("b", 9, "x"));
  GetRecordsRequest g;
  g.shard_iterator = *latest.next_shard_iterator;
  auto more = f.db->GetRecords(g);
  ASSERT_TRUE(more.ok());
  ASSERT_EQ(more->records.size(), 1u);
  EXPECT_EQ(more->records[0].keys.at("pk"), S("b"));
  // Errors.
  EXPECT_EQ(Iter(f.db, arn, "AT_SEQUENCE_NUMBER").status().code(), ErrorCode::kValidation);
  EXPECT_EQ(Iter(f.db, arn, "AT_SEQUENCE_NUMBER", "000000000000000000999").status().code(),
            ErrorCode::kValidation);
  EXPECT_EQ(Iter(f.db, arn, "SOMEWHERE").status().code(), ErrorCode::kValidation);
  // A SequenceNumber beside TRIM_HORIZON or LATEST is refused, as DynamoDB refuses it
  // (Alternator's test_streams.py::test_get_shard_iterator, run against AWS).
  for (const char* type : {"TRIM_HORIZON", "LATEST"}) {
    auto with_seq = Iter(f.db, arn, type, all[2].sequence_number);
    EXPECT_EQ(with_seq.status().code(), ErrorCode::kValidation) << type;
    EXPECT_NE(with_seq.status().message().find("SequenceNumber"), std::string::npos);
  }
  GetShardIteratorRequest bad;
  bad.stream_arn = arn;
  bad.shard_id = "shardId-00000000000000000000-deadbeef";
  bad.shard_iterator_type = "LATEST";
  EXPECT_EQ(f.db->GetShardIterator(bad).status().code(), ErrorCode::kResourceNotFound);
  bad.stream_arn = arn + "x";
  EXPECT_EQ(f.db->GetShardIterator(bad).status().code(), ErrorCode::kResourceNotFound);
}

TEST(StorageStreamTest, IteratorExpiresAfter15Minutes) {
  Fixture f;
  Create(f.db, "Tbl", "KEYS_ONLY");
  Put(f.db, "Tbl", I("a", 1, "x"));
  auto it = Iter(f.db, Arn(f.db, "Tbl"), "TRIM_HORIZON");
  ASSERT_TRUE(it.ok());
  f.now += 15 * 60 - 1;
  GetRecordsRequest g;
  g.shard_iterator = *it;
  EXPECT_TRUE(f.db->GetRecords(g).ok());
  f.now += 2;
  auto r = f.db->GetRecords(g);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kExpiredIterator);
  EXPECT_TRUE(r.status().message().starts_with("Iterator expired")) << r.status().message();
  g.shard_iterator = "garbage";
  EXPECT_EQ(f.db->GetRecords(g).status().code(), ErrorCode::kValidation);
}

TEST(StorageStreamTest, GetRecordsLimits) {
  Fixture f;
  Create(f.db, "Tbl", "NEW_IMAGE");
  // 1200 records: at most 1000 per call.
  for (int i = 0; i < 1200; ++i) Put(f.db, "Tbl", I("a", i, "x"));
  auto it = Iter(f.db, Arn(f.db, "Tbl"), "TRIM_HORIZON");
  ASSERT_TRUE(it.ok());
  GetRecordsRequest g;
  g.shard_iterator = *it;
  auto r = f.db->GetRecords(g);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->records.size(), 1000u);
  g.limit = 7;
  auto r7 = f.db->GetRecords(g);
  ASSERT_TRUE(r7.ok());
  EXPECT_EQ(r7->records.size(), 7u);
  g.limit = 0;
  EXPECT_EQ(f.db->GetRecords(g).status().code(), ErrorCode::kValidation);
  g.limit = 1001;
  EXPECT_EQ(f.db->GetRecords(g).status().code(), ErrorCode::kValidation);
  // 1 MB: items of ~300 KB each, NEW_IMAGE: at most 3 per call.
  Create(f.db, "Big", "NEW_IMAGE");
  for (int i = 0; i < 5; ++i) Put(f.db, "Big", I("a", i, std::string(300000, 'z')));
  auto bit = Iter(f.db, Arn(f.db, "Big"), "TRIM_HORIZON");
  ASSERT_TRUE(bit.ok());
  g.limit.reset();
  g.shard_iterator = *bit;
  auto big = f.db->GetRecords(g);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->records.size(), 3u);
  EXPECT_EQ(All(f.db, Arn(f.db, "Big")).size(), 5u);
}

TEST(StorageStreamTest, DisableKeepsStreamReadableThenReenableStartsNewStream) {
  Fixture f;
  Create(f.db, "Tbl", "KEYS_ONLY");
  Put(f.db, "Tbl", I("a", 1, "x"));
  std::string arn1 = Arn(f.db, "Tbl");
  // Enabling an enabled stream.
  UpdateTableRequest u;
  u.table_name = "Tbl";
  u.stream_specification = StreamSpecification{true, "NEW_IMAGE"};
  auto e = f.db->UpdateTable(u);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), "Table already has an enabled stream: " + arn1);
  u.stream_specification = StreamSpecification{false, std::nullopt};
  auto d = f.db->UpdateTable(u);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_FALSE(d->table_description.stream_view_type);
  EXPECT_EQ(d->table_description.LatestStreamArn(), arn1);
  // Disabling again.
  auto d2 = f.db->UpdateTable(u);
  ASSERT_FALSE(d2.ok());
  EXPECT_EQ(d2.status().code(), ErrorCode::kValidation);
  Put(f.db, "Tbl", I("b", 1, "x"));  // no stream: no record
  DescribeStreamRequest ds;
  ds.stream_arn = arn1;
  auto desc = f.db->DescribeStream(ds);
  ASSERT_TRUE(desc.ok());
  EXPECT_EQ(desc->stream_description.stream_status, "DISABLED");
  EXPECT_EQ(desc->stream_description.stream_view_type, "KEYS_ONLY");
  ASSERT_EQ(desc->stream_description.shards.size(), 1u);
  EXPECT_TRUE(desc->stream_description.shards[0].ending_sequence_number);
  // Readable, and exhausted: no NextShardIterator.
  auto it = Iter(f.db, arn1, "TRIM_HORIZON");
  ASSERT_TRUE(it.ok());
  GetRecordsRequest g;
  g.shard_iterator = *it;
  auto r = f.db->GetRecords(g);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->records.size(), 1u);
  EXPECT_FALSE(r->next_shard_iterator);
  // Re-enable: a new stream, the old one still listed.
  f.now += 1;
  u.stream_specification = StreamSpecification{true, "NEW_AND_OLD_IMAGES"};
  ASSERT_TRUE(f.db->UpdateTable(u).ok());
  std::string arn2 = Arn(f.db, "Tbl");
  EXPECT_NE(arn1, arn2);
  Put(f.db, "Tbl", I("c", 1, "x"));
  EXPECT_EQ(All(f.db, arn1).size(), 1u);
  auto recs2 = All(f.db, arn2);
  ASSERT_EQ(recs2.size(), 1u);
  EXPECT_EQ(recs2[0].keys.at("pk"), S("c"));
  ListStreamsRequest l;
  auto ls = f.db->ListStreams(l);
  ASSERT_TRUE(ls.ok());
  ASSERT_EQ(ls->streams.size(), 2u);
  l.limit = 1;
  ls = f.db->ListStreams(l);
  ASSERT_TRUE(ls.ok());
  ASSERT_EQ(ls->streams.size(), 1u);
  ASSERT_TRUE(ls->last_evaluated_stream_arn);
  l.exclusive_start_stream_arn = ls->last_evaluated_stream_arn;
  ls = f.db->ListStreams(l);
  ASSERT_TRUE(ls.ok());
  ASSERT_EQ(ls->streams.size(), 1u);
  EXPECT_FALSE(ls->last_evaluated_stream_arn);
  // 24 h after the disable the old stream is gone.
  f.now += 24 * 3600;
  ds.stream_arn = arn1;
  EXPECT_EQ(f.db->DescribeStream(ds).status().code(), ErrorCode::kResourceNotFound);
  l = {};
  ls = f.db->ListStreams(l);
  ASSERT_TRUE(ls.ok());
  EXPECT_EQ(ls->streams.size(), 1u);
}

TEST(StorageStreamTest, DescribeStreamAndListStreamsByTable) {
  Fixture f;
  Create(f.db, "Tbl", "NEW_IMAGE");
  Create(f.db, "Utb", "KEYS_ONLY", false);
  Create(f.db, "Vtb", std::nullopt);
  DescribeStreamRequest d;
  d.stream_arn = Arn(f.db, "Tbl");
  auto r = f.db->DescribeStream(d);
  ASSERT_TRUE(r.ok());
  const auto& s = r->stream_description;
  EXPECT_EQ(s.stream_status, "ENABLED");
  EXPECT_EQ(s.table_name, "Tbl");
  EXPECT_EQ(s.stream_label, "2026-11-22T22:13:20.123");
  EXPECT_EQ(s.key_schema.partition.name, "pk");
  ASSERT_EQ(s.shards.size(), 1u);
  EXPECT_EQ(s.shards[0].starting_sequence_number, "000000000000000000001");
  EXPECT_FALSE(s.shards[0].ending_sequence_number);
  d.exclusive_start_shard_id = s.shards[0].shard_id;
  auto r2 = f.db->DescribeStream(d);
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2->stream_description.shards.empty());
  ListStreamsRequest l;
  l.table_name = "Utb";
  auto ls = f.db->ListStreams(l);
  ASSERT_TRUE(ls.ok());
  ASSERT_EQ(ls->streams.size(), 1u);
  EXPECT_EQ(ls->streams[0].table_name, "Utb");
  l.table_name = "Missing";
  EXPECT_EQ(f.db->ListStreams(l).status().code(), ErrorCode::kResourceNotFound);
  d = {};
  d.stream_arn = "arn:aws:dynamodb:local:000000000000:table/Vtb/stream/2026-01-01T00:00:00.000";
  EXPECT_EQ(f.db->DescribeStream(d).status().code(), ErrorCode::kResourceNotFound);
}

TEST(StorageStreamTest, StreamSpecificationValidation) {
  Fixture f;
  CreateTableRequest r;
  r.table_name = "Tbl";
  r.attribute_definitions = {{"pk", "S"}};
  r.key_schema = {{"pk", "HASH"}};
  r.stream_specification = StreamSpecification{true, std::nullopt};
  EXPECT_EQ(f.db->CreateTable(r).status().code(), ErrorCode::kValidation);
  r.stream_specification = StreamSpecification{true, "ALL"};
  EXPECT_EQ(f.db->CreateTable(r).status().code(), ErrorCode::kValidation);
  r.stream_specification = StreamSpecification{false, std::nullopt};
  ASSERT_TRUE(f.db->CreateTable(r).ok());
  auto t = f.db->TableSchema("Tbl");
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE((*t)->stream_view_type);
  // UpdateTable with only a StreamSpecification.
  UpdateTableRequest u;
  u.table_name = "Tbl";
  u.stream_specification = StreamSpecification{true, "OLD_IMAGE"};
  ASSERT_TRUE(f.db->UpdateTable(u).ok());
  t = f.db->TableSchema("Tbl");
  EXPECT_EQ((*t)->stream_view_type, "OLD_IMAGE");
  // Survives a reopen (catalog).
  f.db.Reopen();
  t = f.db->TableSchema("Tbl");
  EXPECT_EQ((*t)->stream_view_type, "OLD_IMAGE");
  Put(f.db, "Tbl", {{"pk", S("a")}});
  EXPECT_EQ(Records(f.db, "Tbl").size(), 1u);
  // Deleting the table drops the stream.
  DeleteTableRequest del;
  del.table_name = "Tbl";
  ASSERT_TRUE(f.db->DeleteTable(del).ok());
  ListStreamsRequest l;
  auto ls = f.db->ListStreams(l);
  ASSERT_TRUE(ls.ok());
  EXPECT_TRUE(ls->streams.empty());
}

std::map<std::string, Item> Dump(TempDb& db, const std::string& table) {
  std::map<std::string, Item> out;
  ScanRequest s;
  s.table_name = table;
  while (true) {
    auto r = db->Scan(s);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) break;
    for (const auto& item : r->items) {
      std::string key = item.at("pk").s() + "#" + item.at("sk").n().ToString();
      out[key] = item;
    }
    if (!r->last_evaluated_key) break;
    s.exclusive_start_key = r->last_evaluated_key;
  }
  return out;
}

TEST(StorageStreamTest, ReplayRebuildsTheTable) {
  Fixture f;
  Create(f.db, "Src", "NEW_AND_OLD_IMAGES");
  Create(f.db, "Dst", std::nullopt);
  std::mt19937 rng(42);
  for (int i = 0; i < 600; ++i) {
    f.now += 0.01;
    int op = static_cast<int>(rng() % 10);
    std::string pk = "p" + std::to_string(rng() % 7);
    int64_t sk = static_cast<int64_t>(rng() % 9);
    std::string v = "v" + std::to_string(rng() % 3);
    if (op < 4) {
      Put(f.db, "Src", I(pk, sk, v));
    } else if (op < 7) {
      ASSERT_TRUE(
          Update(f.db, "Src", K(pk, sk), "SET v = :v ADD n :one", {{":v", S(v)}, {":one", N(1)}})
              .ok());
    } else if (op < 9) {
      Delete(f.db, "Src", K(pk, sk));
    } else {
      BatchWriteItemRequest b;
      b.request_items["Src"] = {WriteRequest{PutRequest{I(pk, sk, v)}, std::nullopt},
                                WriteRequest{std::nullopt, DeleteRequest{K(pk + "x", sk)}}};
      ASSERT_TRUE(f.db->BatchWriteItem(b).ok());
    }
  }
  auto recs = Records(f.db, "Src");
  ASSERT_FALSE(recs.empty());
  for (const auto& r : recs) {
    if (r.event_name == "REMOVE") {
      Delete(f.db, "Dst", r.keys);
    } else {
      ASSERT_TRUE(r.new_image);
      Put(f.db, "Dst", *r.new_image);
    }
  }
  auto src = Dump(f.db, "Src"), dst = Dump(f.db, "Dst");
  EXPECT_EQ(src.size(), dst.size());
  EXPECT_TRUE(src == dst);
}

// AT_SEQUENCE_NUMBER at an empty shard's own StartingSequenceNumber is accepted (as DynamoDB
// does); the iterator then reads the shard's first record once there is one. One past it is
// still outside the shard.
TEST(StorageStreamTest, AtStartingSequenceNumberOfAnEmptyShard) {
  TempDb db;
  Create(db, "Tbl", "KEYS_ONLY");
  const std::string arn = Arn(db, "Tbl");
  DescribeStreamRequest d;
  d.stream_arn = arn;
  auto described = db->DescribeStream(d);
  ASSERT_TRUE(described.ok()) << described.status().ToString();
  ASSERT_EQ(described->stream_description.shards.size(), 1u);
  const std::string start = described->stream_description.shards[0].starting_sequence_number;
  Result<std::string> it = Iter(db, arn, "AT_SEQUENCE_NUMBER", start);
  ASSERT_TRUE(it.ok()) << it.status().ToString();
  EXPECT_EQ(
      ::keyhole::testing::ErrorText(
          Iter(db, arn, "AT_SEQUENCE_NUMBER", std::to_string(std::stoull(start) + 1))),
      "ValidationException: Invalid SequenceNumber: 2 is not in the shard "
      "shardId-00000000000000000001-00000001 (000000000000000000001 to 000000000000000000001)");
  Put(db, "Tbl", I("a", 1, "v"));
  GetRecordsRequest g;
  g.shard_iterator = *it;
  auto records = db->GetRecords(g);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->records.size(), 1u);
  EXPECT_EQ(records->records[0].event_name, "INSERT");
}

// AFTER_SEQUENCE_NUMBER there is accepted too (Alternator's test_get_shard_iterator, written
// against DynamoDB); the shard's first record takes that number, so the iterator reads from
// the second.
TEST(StorageStreamTest, AfterStartingSequenceNumberOfAnEmptyShard) {
  TempDb db;
  Create(db, "Tbl", "KEYS_ONLY");
  const std::string arn = Arn(db, "Tbl");
  DescribeStreamRequest d;
  d.stream_arn = arn;
  auto described = db->DescribeStream(d);
  ASSERT_TRUE(described.ok()) << described.status().ToString();
  const std::string start = described->stream_description.shards[0].starting_sequence_number;
  Result<std::string> it = Iter(db, arn, "AFTER_SEQUENCE_NUMBER", start);
  ASSERT_TRUE(it.ok()) << it.status().ToString();
  EXPECT_EQ(
      ::keyhole::testing::ErrorText(
          Iter(db, arn, "AFTER_SEQUENCE_NUMBER", std::to_string(std::stoull(start) + 1))),
      "ValidationException: Invalid SequenceNumber: 2 is not in the shard "
      "shardId-00000000000000000001-00000001 (000000000000000000001 to 000000000000000000001)");
  Put(db, "Tbl", I("a", 1, "v"));
  Put(db, "Tbl", I("b", 1, "v"));
  GetRecordsRequest g;
  g.shard_iterator = *it;
  auto records = db->GetRecords(g);
  ASSERT_TRUE(records.ok()) << records.status().ToString();
  ASSERT_EQ(records->records.size(), 1u);
  EXPECT_EQ(std::stoull(records->records[0].sequence_number), std::stoull(start) + 1);
}

// DescribeStream's ShardFilter (CHILD_SHARDS): the stream's one shard has no children; another
// shard is not found; Type and ShardId are both needed.
TEST(StorageStreamTest, ShardFilterChildShards) {
  TempDb db;
  Create(db, "Tbl", "KEYS_ONLY");
  DescribeStreamRequest d;
  d.stream_arn = Arn(db, "Tbl");
  auto all = db->DescribeStream(d);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  const std::string shard = all->stream_description.shards.at(0).shard_id;
  d.shard_filter = ShardFilter{"CHILD_SHARDS", shard};
  auto children = db->DescribeStream(d);
  ASSERT_TRUE(children.ok()) << children.status().ToString();
  EXPECT_TRUE(children->stream_description.shards.empty());
  EXPECT_EQ(children->stream_description.stream_status, "ENABLED");
  d.shard_filter = ShardFilter{"CHILD_SHARDS", "shardId-00000000000000000099-00000099"};
  EXPECT_TRUE(db->DescribeStream(d).status().IsNotFound());
  d.shard_filter = ShardFilter{"CHILD_SHARDS", std::nullopt};
  EXPECT_TRUE(db->DescribeStream(d).status().IsValidation());
}

// A StreamArn that is not shaped like one is a ValidationException ("Invalid StreamArn"); a
// well-formed one that names no stream is not found.
TEST(StorageStreamTest, MalformedStreamArn) {
  TempDb db;
  DescribeStreamRequest d;
  d.stream_arn = "this-is-not-a-stream-arn-but-long-enough-0123456789";
  EXPECT_EQ(db->DescribeStream(d).status().ToString(), "ValidationException: Invalid StreamArn");
  d.stream_arn =
      "arn:aws:dynamodb:us-east-1:123456789012:table/Other/stream/2024-01-01T00:00:00.000";
  EXPECT_TRUE(db->DescribeStream(d).status().IsNotFound());
}

}  // namespace
}  // namespace keyhole::storage
