// PlanTransaction: BEGIN ... COMMIT statements -> TransactWriteItems / TransactGetItems.
#include <gtest/gtest.h>

#include "planner/plan_transaction.h"
#include "planner_test_util.h"

namespace keyhole::testing {
namespace {

class PlannerTransactionPlanTest : public PlannerTest {
 protected:
  Result<planner::TransactionPlan> Plan(const std::vector<std::string>& texts) {
    std::vector<parser::Statement> statements;
    for (const std::string& t : texts) {
      auto p = parser::ParseStatement(t);
      EXPECT_TRUE(p.ok()) << t;
      if (!p.ok()) return p.status();
      statements.push_back(p.statement());
    }
    return planner::PlanTransaction(statements, schemas_);
  }
  std::string Error(const std::vector<std::string>& texts) {
    auto r = Plan(texts);
    return r.ok() ? "" : r.status().message();
  }
};

TEST_F(PlannerTransactionPlanTest, WritesBecomeTransactWriteItems) {
  auto r = Plan({"INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': '1'}",
                 "UPDATE \"App\" SET n = 1 WHERE pk = 'b' AND sk = '2'",
                 "DELETE FROM \"App\" WHERE pk = 'c' AND sk = '3' AND n > 1",
                 "EXISTS(SELECT * FROM \"App\" WHERE pk = 'd' AND sk = '4' AND "
                 "attribute_exists(pk))"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_FALSE(r->reads());
  const auto& w = std::get<TransactWriteItemsRequest>(r->request);
  ASSERT_EQ(w.transact_items.size(), 4u);
  ASSERT_TRUE(w.transact_items[0].put);
  EXPECT_TRUE(w.transact_items[0].put->expressions.parsed);  // attribute_not_exists(pk)
  ASSERT_TRUE(w.transact_items[1].update);
  ASSERT_TRUE(w.transact_items[2].delete_);
  ASSERT_TRUE(w.transact_items[3].condition_check);
  EXPECT_EQ(w.transact_items[3].condition_check->key,
            (Item{{"pk", AttributeValue::S("d")}, {"sk", AttributeValue::S("4")}}));
  EXPECT_EQ(w.return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
}

TEST_F(PlannerTransactionPlanTest, ReadsBecomeTransactGetItems) {
  auto r = Plan({"SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '1'",
                 "SELECT n FROM \"App\" WHERE sk = '2' AND pk = 'b'"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->reads());
  const auto& g = std::get<TransactGetItemsRequest>(r->request);
  ASSERT_EQ(g.transact_items.size(), 2u);
  EXPECT_EQ(g.transact_items[1].get.key,
            (Item{{"pk", AttributeValue::S("b")}, {"sk", AttributeValue::S("2")}}));
}

TEST_F(PlannerTransactionPlanTest, DynamoDbsRules) {
  EXPECT_EQ(Error({}),
            "1 validation error detected: Value '[]' at 'transactStatements' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1");
  std::vector<std::string> many(101, "SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '1'");
  EXPECT_EQ(Error(many),
            "1 validation error detected: Value at 'transactStatements' failed to satisfy "
            "constraint: Member must have length less than or equal to 100");
  many.pop_back();
  EXPECT_EQ(Error(many), "");
  EXPECT_EQ(Error({"SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '1'",
                   "SELECT * FROM \"App\" WHERE pk = 'a'"}),
            "Validation failed in TransactStatements[1]: Select statements within "
            "ExecuteTransaction must specify the primary key in the where clause.");
  EXPECT_EQ(Error({"SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '1' AND n = 1"}),
            "Validation failed in TransactStatements[0]: Select statements within "
            "ExecuteTransaction must specify the primary key in the where clause.");
  EXPECT_EQ(Error({"SELECT * FROM \"App\".\"byEmail\" WHERE email = 'x'"}),
            "Reads on indices are not supported within transactions.");
  EXPECT_EQ(Error({"EXISTS(SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '1')"}),
            "Validation failed in TransactStatements[0]: EXISTS() must contain a single item "
            "read with additional condition");
  EXPECT_EQ(Error({"EXISTS(SELECT * FROM \"App\" WHERE pk = 'a' AND n = 1)"}),
            "Validation failed in TransactStatements[0]: EXISTS() must contain a single item "
            "read with additional condition");
  EXPECT_EQ(Error({"UPDATE \"App\" SET n = 1 WHERE pk = 'a' AND sk = '1' RETURNING ALL NEW *"}),
            "RETURNING clause is not supported in ExecuteTransaction.");
  EXPECT_EQ(Error({"DELETE FROM \"App\" WHERE pk = 'a' AND sk = '1'",
                   "SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '1'"}),
            "Validation failed in TransactStatements[1]: a transaction's statements must be all "
            "reads (SELECT) or all writes (INSERT, UPDATE, DELETE, EXISTS)");
  EXPECT_EQ(Error({"DELETE FROM \"App\" WHERE pk = 'a'"}),
            "Validation failed in TransactStatements[0]: Where clause does not contain a "
            "mandatory equality on all key attributes");
  EXPECT_EQ(Error({"SHOW TABLES"}),
            "Validation failed in TransactStatements[0]: SHOW TABLES cannot be part of a "
            "transaction");
}

}  // namespace
}  // namespace keyhole::testing
