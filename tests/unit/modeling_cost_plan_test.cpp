// The cost plan's figures (modeling/cost_plan.h) from patterns run once on a file and recorded
// (modeling/usage.h): units per second, provisioned capacity, cost per month, hot partitions
// and their advice, and what is left out of the plan.
#include "modeling/cost_plan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/connection.h"
#include "storage_test_util.h"

namespace keyhole::modeling {
namespace {

using testing::N;
using testing::S;
using testing::TempDb;

class ModelingCostPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::MakeAppTable(db_, "App");  // pk S, sk N, GSI byG (g S)
    for (int u = 1; u <= 10; ++u) {
      ASSERT_TRUE(
          testing::PutOne(db_, "App",
                          {{"pk", S("u" + std::to_string(u))}, {"sk", N(1)}, {"g", S("ALL")}})
              .ok());
    }
    prices_ = LoadPrices("us-east-1", "").value();
  }

  // `statement` run once through a Connection on the recorder: what it consumed.
  PlannedPattern Run(const std::string& name, const std::string& statement,
                     std::optional<double> rate) {
    RecordingBackend recorder(*db_);
    api::Connection connection(recorder);
    PlannedPattern p;
    p.name = name;
    p.rate = rate;
    p.rate_text = rate ? std::to_string(static_cast<int>(*rate)) + "/s" : "";
    recorder.Attach(&p.usage);
    api::StatementOutcome out = connection.Run(statement);
    recorder.Attach(nullptr);
    EXPECT_TRUE(out.ok()) << out.status.ToString();
    p.operation = out.report.operation;
    p.served = out.ok();
    return p;
  }

  static const TargetCost* Target(const CostPlan& plan, const std::string& name) {
    for (const TargetCost& t : plan.targets) {
      if (t.target == name) return &t;
    }
    return nullptr;
  }

  TempDb db_;
  Prices prices_;
};

TEST_F(ModelingCostPlanTest, AWriteAtItsRateCostsItsUnitsAndOverloadsAConstantIndexKey) {
  std::vector<PlannedPattern> patterns = {
      Run("post", "INSERT INTO \"App\" VALUE {'pk': 'u1', 'sk': 2, 'g': 'ALL'}", 2000)};
  ASSERT_EQ(patterns[0].operation, "PutItem");
  CostPlan plan = ComputeCostPlan(*db_, patterns, prices_, {});
  ASSERT_EQ(plan.patterns.size(), 1u);
  const PatternCost& p = plan.patterns[0];
  EXPECT_DOUBLE_EQ(p.requests, 2000);
  EXPECT_DOUBLE_EQ(p.wcu, 4000);  // 1 WCU on the table and 1 on byG, 2,000 times a second
  EXPECT_DOUBLE_EQ(p.rcu, 0);
  EXPECT_EQ(plan.table, "App");

  const TargetCost* table = Target(plan, "App");
  const TargetCost* gsi = Target(plan, "App.byG");
  ASSERT_TRUE(table && gsi);
  EXPECT_EQ(table->kind, "table");
  EXPECT_EQ(gsi->kind, "gsi");
  EXPECT_DOUBLE_EQ(table->wcu, 2000);
  EXPECT_EQ(table->provisioned_wcu, 2858);  // ceil(2,000 / 0.7)
  EXPECT_EQ(table->provisioned_rcu, 1);     // at least 1
  EXPECT_EQ(table->items, 11);
  // 4,000 WCU/s over a 730-hour month at $0.625 per million writes.
  EXPECT_NEAR(plan.on_demand.writes, 4000.0 * 730 * 3600 / 1e6 * 0.625, 1e-6);
  EXPECT_DOUBLE_EQ(plan.on_demand.reads, 0);
  EXPECT_NEAR(plan.provisioned.throughput, (2 * 1 * 0.00013 + 2 * 2858 * 0.00065) * 730, 1e-6);

  // byG's one value takes every write; the table's are spread over the users' values.
  ASSERT_FALSE(plan.partitions.empty());
  const HotPartition& hot = plan.partitions[0];
  EXPECT_EQ(hot.target, "App.byG");
  EXPECT_EQ(hot.key, "'ALL'");
  EXPECT_DOUBLE_EQ(hot.wcu, 2000);
  EXPECT_DOUBLE_EQ(hot.share, 2.0);
  EXPECT_TRUE(hot.over && hot.everything);
  EXPECT_EQ(plan.over, 1);
  for (const HotPartition& h : plan.partitions) {
    if (h.target == "App") {
      EXPECT_FALSE(h.everything);
      EXPECT_LT(h.wcu, 1000) << h.key;
    }
  }
  ASSERT_FALSE(plan.advice.empty());
  EXPECT_NE(plan.advice[0].find("shard it: write to 3 keys (ALL#0 … ALL#2"), std::string::npos)
      << plan.advice[0];
}

TEST_F(ModelingCostPlanTest, WithoutTheSpreadEveryRequestCountsAgainstTheNamedValue) {
  std::vector<PlannedPattern> patterns = {
      Run("post", "INSERT INTO \"App\" VALUE {'pk': 'u1', 'sk': 2, 'g': 'ALL'}", 2000)};
  CostPlanOptions options;
  options.scan_partitions = false;
  CostPlan plan = ComputeCostPlan(*db_, patterns, prices_, options);
  EXPECT_FALSE(plan.scanned);
  EXPECT_EQ(plan.over, 2);  // 'u1' on the table too
  for (const HotPartition& h : plan.partitions) EXPECT_DOUBLE_EQ(h.wcu, 2000) << h.key;
}

TEST_F(ModelingCostPlanTest, AReadSpreadsOverItsClassAndTheItemsShare) {
  std::vector<PlannedPattern> patterns = {
      Run("get a user", "SELECT * FROM \"App\" WHERE pk = 'u3' AND sk = 1", 10000)};
  ASSERT_EQ(patterns[0].operation, "GetItem");
  CostPlan plan = ComputeCostPlan(*db_, patterns, prices_, {});
  ASSERT_EQ(plan.patterns.size(), 1u);
  EXPECT_DOUBLE_EQ(plan.patterns[0].rcu, 5000);  // 0.5 RCU (eventually consistent) a call
  ASSERT_EQ(plan.partitions.size(), 1u);
  // Ten values of the class, one item each: the busiest gets a tenth of the requests.
  EXPECT_DOUBLE_EQ(plan.partitions[0].rcu, 500);
  EXPECT_FALSE(plan.partitions[0].everything);
  EXPECT_FALSE(plan.partitions[0].over);
  EXPECT_EQ(plan.over, 0);
  EXPECT_TRUE(plan.advice.empty());
}

TEST_F(ModelingCostPlanTest, PatternsWithoutARateOrThatFailedAreLeftOutAndNamed) {
  PlannedPattern unrated = Run("no rate", "SELECT * FROM \"App\" WHERE pk = 'u1' AND sk = 1", {});
  PlannedPattern failed;
  failed.name = "broken";
  failed.operation = "error";
  failed.rate = 5;
  PlannedPattern refused;
  refused.name = "by city";
  refused.operation = "refused";  // an expected refusal without a rate: not a failure
  CostPlan plan = ComputeCostPlan(*db_, {unrated, failed, refused}, prices_, {});
  EXPECT_TRUE(plan.patterns.empty());
  EXPECT_EQ(plan.unrated, std::vector<std::string>{"no rate"});
  EXPECT_EQ(plan.failed, std::vector<std::string>{"broken"});
  EXPECT_TRUE(plan.targets.empty());
  EXPECT_DOUBLE_EQ(plan.on_demand.total, 0);
}

}  // namespace
}  // namespace keyhole::modeling
