// api::BatchWriter against a backend of the test's own that keeps what it is given, refuses a
// batch holding a key twice (as DynamoDB does), and leaves items unprocessed on demand.
#include "api/batch_writer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <set>

#include "core/ddb_json.h"

namespace keyhole::api {
namespace {

// Every operation an internal error naming it.
class NotHereBackend : public Backend {
 public:
#define KH_BACKEND_OPERATION(Op) \
  Result<Op##Response> Op(const Op##Request&) override { return Status::Internal(#Op); }
#include "core/operations.def"
  Result<TableSchemaPtr> TableSchema(const std::string&) override {
    return Status::Internal("TableSchema");
  }
};

class FakeBackend : public NotHereBackend {
 public:
  // Items are stored by their "pk" string.
  std::mutex mutex;
  std::map<std::string, Item> stored;
  int calls = 0;
  size_t largest_batch = 0;
  // Each call leaves the last `unprocessed_per_call` items unprocessed, `unprocessed_calls` times.
  int unprocessed_calls = 0;
  size_t unprocessed_per_call = 0;
  std::optional<Status> fail_with;

  Result<BatchWriteItemResponse> BatchWriteItem(const BatchWriteItemRequest& r) override {
    std::lock_guard<std::mutex> lock(mutex);
    ++calls;
    if (fail_with) return *fail_with;
    BatchWriteItemResponse out;
    for (const auto& [table, writes] : r.request_items) {
      largest_batch = std::max(largest_batch, writes.size());
      std::set<std::string> keys;
      for (const WriteRequest& w : writes) {
        if (!keys.insert(w.put_request->item.at("pk").s()).second) {
          return Status::Validation("Provided list of item keys contains duplicates");
        }
      }
      size_t keep = writes.size();
      if (unprocessed_calls > 0) {
        --unprocessed_calls;
        keep = writes.size() > unprocessed_per_call ? writes.size() - unprocessed_per_call : 0;
      }
      for (size_t i = 0; i < writes.size(); ++i) {
        if (i < keep) {
          stored[writes[i].put_request->item.at("pk").s()] = writes[i].put_request->item;
        } else {
          out.unprocessed_items[table].push_back(writes[i]);
        }
      }
      ConsumedCapacity c;
      c.table_name = table;
      c.total.capacity_units = 2.0 * keep;  // as if each item also wrote an index
      out.consumed_capacity.push_back(c);
    }
    return out;
  }
};

Item ItemOf(const std::string& pk, int version) {
  Item item;
  item["pk"] = AttributeValue::S(pk);
  item["v"] = AttributeValue::N(*Number::Parse(std::to_string(version)));
  return item;
}

BatchWriter::Options NoWait(int threads = 1) {
  BatchWriter::Options o;
  o.threads = threads;
  o.sleep = [](double) {};
  return o;
}

TEST(ApiBatchWriterTest, TwentyFiveAtATime) {
  FakeBackend backend;
  BatchWriter writer(backend, "T", {"pk"}, NoWait());
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(writer.Add(ItemOf("k" + std::to_string(i), 0)).ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(backend.calls, 3);
  EXPECT_EQ(backend.largest_batch, 25u);
  EXPECT_EQ(backend.stored.size(), 60u);
  EXPECT_EQ(writer.written(), 60);
  EXPECT_EQ(writer.write_units(), 120);  // what the responses reported
}

TEST(ApiBatchWriterTest, ARepeatedKeySendsTheBatchBeforeItAndTheLastPutWins) {
  FakeBackend backend;
  BatchWriter writer(backend, "T", {"pk"}, NoWait());
  for (int v = 0; v < 5; ++v) ASSERT_TRUE(writer.Add(ItemOf("same", v)).ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(backend.calls, 5);
  EXPECT_EQ(backend.stored.at("same").at("v").n().ToString(), "4");
}

TEST(ApiBatchWriterTest, ManyThreadsKeepEachKeysOrder) {
  FakeBackend backend;
  BatchWriter writer(backend, "T", {"pk"}, NoWait(4));
  for (int v = 0; v < 40; ++v) {
    for (int k = 0; k < 50; ++k) ASSERT_TRUE(writer.Add(ItemOf("k" + std::to_string(k), v)).ok());
  }
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(writer.written(), 2000);
  ASSERT_EQ(backend.stored.size(), 50u);
  for (const auto& [k, item] : backend.stored) EXPECT_EQ(item.at("v").n().ToString(), "39") << k;
}

TEST(ApiBatchWriterTest, UnprocessedItemsGoAgain) {
  FakeBackend backend;
  backend.unprocessed_calls = 3;
  backend.unprocessed_per_call = 10;
  std::vector<double> waits;
  BatchWriter::Options o;
  o.sleep = [&](double s) { waits.push_back(s); };
  BatchWriter writer(backend, "T", {"pk"}, o);
  for (int i = 0; i < 25; ++i) ASSERT_TRUE(writer.Add(ItemOf("k" + std::to_string(i), 0)).ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(backend.stored.size(), 25u);
  EXPECT_EQ(writer.written(), 25);
  EXPECT_EQ(waits.size(), 3u);  // a backoff before each round again
}

TEST(ApiBatchWriterTest, AlwaysUnprocessedEndsWithAnErrorSayingHowMany) {
  FakeBackend backend;
  backend.unprocessed_calls = 1000;
  backend.unprocessed_per_call = 5;
  BatchWriter writer(backend, "T", {"pk"}, NoWait());
  for (int i = 0; i < 24; ++i) ASSERT_TRUE(writer.Add(ItemOf("k" + std::to_string(i), 0)).ok());
  // The 25th fills the batch, which (without threads) is sent at once: its error comes back.
  Status added = writer.Add(ItemOf("k24", 0));
  Status s = writer.Finish();
  EXPECT_EQ(added.ToString(), s.ToString());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.name(), "ProvisionedThroughputExceededException");
  EXPECT_NE(s.message().find("were still unprocessed after 20 rounds"), std::string::npos);
  EXPECT_EQ(writer.written(), 20);  // the first round wrote 20; later rounds wrote none
}

TEST(ApiBatchWriterTest, AnErrorStopsTheWriter) {
  FakeBackend backend;
  backend.fail_with = Status::Named("AccessDeniedException", "no");
  BatchWriter writer(backend, "T", {"pk"}, NoWait(2));
  Status s;
  for (int i = 0; i < 200 && s.ok(); ++i) s = writer.Add(ItemOf("k" + std::to_string(i), 0));
  Status finished = writer.Finish();
  EXPECT_EQ(finished.name(), "AccessDeniedException");
  EXPECT_EQ(writer.written(), 0);
  EXPECT_LE(backend.calls, 8);  // stops soon after the first failure
}

TEST(ApiBatchWriterTest, CancelStops) {
  FakeBackend backend;
  std::atomic<bool> cancel{true};
  BatchWriter::Options o = NoWait();
  o.cancel = &cancel;
  BatchWriter writer(backend, "T", {"pk"}, o);
  EXPECT_EQ(writer.Add(ItemOf("a", 0)).code(), ErrorCode::kInterrupted);
}

// Never faster than the limit: 150 one-unit items (each reported as 2 units) at 100 units a
// second take at least the time the units past the first second's take.
TEST(ApiBatchWriterTest, WriteUnitsPerSecondIsALimit) {
  FakeBackend backend;
  BatchWriter::Options o = NoWait();
  o.max_write_units_per_second = 100;
  const auto start = std::chrono::steady_clock::now();
  BatchWriter writer(backend, "T", {"pk"}, o);
  for (int i = 0; i < 150; ++i) ASSERT_TRUE(writer.Add(ItemOf("k" + std::to_string(i), 0)).ok());
  ASSERT_TRUE(writer.Finish().ok());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(seconds, (300.0 - 100.0 - 50.0) / 100.0);  // 300 units, a full bucket, a batch of debt
}

}  // namespace
}  // namespace keyhole::api
