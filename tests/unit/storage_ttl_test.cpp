// Time to Live in the engine: UpdateTimeToLive's rules, the sweep (indexes kept in step, no
// capacity, the five-year window), the sweep on open, and the clock.
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace keyhole::testing {
namespace {

constexpr double kNow = 1893456000;  // 2030-01-01T00:00:00Z

class StorageTtlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CreateTableRequest r;
    r.table_name = "Sessions";
    r.attribute_definitions = {{"id", "S"}, {"owner", "S"}};
    r.key_schema = {{"id", "HASH"}};
    IndexSpec gsi;
    gsi.name = "byOwner";
    gsi.key_schema = {{"owner", "HASH"}};
    gsi.projection_type = "ALL";
    r.global_secondary_indexes = {gsi};
    ASSERT_TRUE(db_->CreateTable(r).ok());
    ASSERT_TRUE(db_->UpdateTimeToLive({"Sessions", {"expires", true}}).ok());
  }
  void Put(const std::string& id, std::optional<AttributeValue> expires) {
    PutItemRequest p;
    p.table_name = "Sessions";
    p.item = {{"id", S(id)}, {"owner", S("u1")}};
    if (expires) p.item["expires"] = *expires;
    ASSERT_TRUE(db_->PutItem(p).ok());
  }
  int64_t Count() {
    ScanRequest s;
    s.table_name = "Sessions";
    auto r = db_->Scan(s);
    EXPECT_TRUE(r.ok());
    return r.ok() ? r->count : -1;
  }

  double now_ = kNow;
  TempDb db_{[this] { return now_; }};
};

TEST_F(StorageTtlTest, SweepDeletesOnlyExpiredNumbersWithinFiveYears) {
  Put("past", N(static_cast<int64_t>(kNow) - 10));
  Put("fraction", N("1893455999.9"));
  Put("future", N(static_cast<int64_t>(kNow) + 10));
  Put("string", S("1000"));
  Put("ancient", N(static_cast<int64_t>(kNow) - 6 * 365 * 86400));
  Put("none", std::nullopt);
  Put("millis", N(static_cast<int64_t>(kNow) * 1000));  // milliseconds: far future, never
  auto n = db_->SweepExpiredItems("");
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(*n, 2);
  EXPECT_EQ(Count(), 5);
  EXPECT_TRUE(db_->VerifyIntegrity().ok());  // the GSI lost the same two entries
  QueryRequest q;
  q.table_name = "Sessions";
  q.index_name = "byOwner";
  q.key_condition.partition_name = "owner";
  q.key_condition.partition_value = S("u1");
  EXPECT_EQ(db_->Query(q)->count, 5);
  now_ += 20;
  EXPECT_EQ(*db_->SweepExpiredItems("Sessions"), 1);  // "future"
  EXPECT_EQ(*db_->SweepExpiredItems("Sessions"), 0);
}

TEST_F(StorageTtlTest, SweepOnOpenAndDisabledTtl) {
  Put("past", N(static_cast<int64_t>(kNow) - 10));
  db_.Reopen();
  EXPECT_EQ(Count(), 0);
  Put("past", N(static_cast<int64_t>(kNow) - 10));
  now_ += 3600;
  ASSERT_TRUE(db_->UpdateTimeToLive({"Sessions", {"expires", false}}).ok());
  EXPECT_EQ(*db_->SweepExpiredItems(""), 0);  // TTL off: nothing expires
  EXPECT_EQ(Count(), 1);
  auto d = db_->DescribeTimeToLive({"Sessions"});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->status, "DISABLED");
}

TEST_F(StorageTtlTest, UpdateRules) {
  auto again = db_->UpdateTimeToLive({"Sessions", {"expires", true}});
  EXPECT_EQ(again.status().message(), "TimeToLive is already enabled");
  auto other = db_->UpdateTimeToLive({"Sessions", {"other", true}});
  EXPECT_EQ(other.status().message(),
            "TimeToLive is active on a different AttributeName: current AttributeName is expires");
  auto soon = db_->UpdateTimeToLive({"Sessions", {"expires", false}});
  EXPECT_EQ(soon.status().message(),
            "Time to live has been modified multiple times within a fixed interval");
  now_ += 3600;
  EXPECT_TRUE(db_->UpdateTimeToLive({"Sessions", {"expires", false}}).ok());
  now_ += 3600;
  EXPECT_EQ(db_->UpdateTimeToLive({"Sessions", {"expires", false}}).status().message(),
            "TimeToLive is already disabled");
  EXPECT_EQ(db_->UpdateTimeToLive({"Nope", {"x", true}}).status().code(),
            ErrorCode::kResourceNotFound);
  db_->SetClock([] { return 5.0; });
  auto t = db_->TableSchema("Sessions");
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE((*t)->ttl_attribute);
}

}  // namespace
}  // namespace keyhole::testing
