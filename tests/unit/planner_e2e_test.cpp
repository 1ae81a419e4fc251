// Planner end to end: statements planned and executed over a real storage::Database.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <sstream>

#include "planner_test_util.h"

namespace keyhole::testing {
namespace {

class PlannerE2eTest : public PlannerTest {
 protected:
  void SetUp() override {
    PlannerTest::SetUp();
    for (const char* s : {
             "INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': '1', 'n': 1, 'color': 'red', "
             "'created': 10, 'title': 't1', 'email': 'x@a'}",
             "INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': '2', 'n': 2, 'color': 'red', "
             "'created': 20}",
             "INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': '3', 'n': 3}",
             "INSERT INTO \"App\" VALUE {'pk': 'b', 'sk': '1', 'n': 4, 'color': 'blue', "
             "'created': 5}",
             "INSERT INTO \"App\" VALUE {'pk': 'c', 'sk': '0', 'n': 5}",
         }) {
      MustRun(s);
    }
  }
  static std::string Keys(const planner::ExecuteResult& r) {
    std::string out;
    for (const auto& item : r.items) {
      out += (out.empty() ? "" : " ") + item.at("pk").s() + item.at("sk").s();
    }
    return out;
  }
};

TEST_F(PlannerE2eTest, GetItemAndQuery) {
  auto g = MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '2'");
  EXPECT_EQ(Keys(g), "a2");
  EXPECT_EQ(g.count, 1);
  EXPECT_GT(g.capacity_units, 0);
  EXPECT_EQ(MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '9'").count, 0);

  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk = 'a'")), "a1 a2 a3");
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk > '1'")), "a2 a3");
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk = 'a' ORDER BY sk DESC")), "a3 a2 a1");

  auto f = MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND n >= 2");
  EXPECT_EQ(Keys(f), "a2 a3");
  EXPECT_EQ(f.count, 2);
  EXPECT_EQ(f.scanned_count, 3);  // the filter is applied after the read

  auto one = MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '2' AND n = 99");
  EXPECT_EQ(one.count, 0);
  EXPECT_EQ(one.scanned_count, 1);

  auto proj = MustRun("SELECT n FROM \"App\" WHERE pk = 'b' AND sk = '1'");
  ASSERT_EQ(proj.items.size(), 1u);
  EXPECT_EQ(proj.items[0].size(), 1u);
  EXPECT_EQ(proj.items[0].at("n"), N(4));
}

TEST_F(PlannerE2eTest, PagesStitchEveryItemOnce) {
  auto pages = [&](const std::string& text, int64_t limit) {
    auto plan = PlanOf(text);
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    std::string out;
    std::optional<planner::Cursor> at;
    for (int page = 0; page < 100; ++page) {
      planner::ExecuteOptions options;
      options.limit = limit;
      options.resume = at ? &*at : nullptr;
      auto r = planner::Execute(*plan, executor_, options);
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      if (!r.ok()) break;
      out += (page ? "|" : "") + Keys(*r);
      if (!r->next) break;
      at = r->next;
    }
    return out;
  };
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk = 'a'", 2), "a1 a2|a3");
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk = 'a'", 3), "a1 a2 a3|");  // as DynamoDB: a
                                                                             // full page has a LEK
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk = 'a'", 0), "a1 a2 a3");
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk = 'a' ORDER BY sk DESC", 2), "a3 a2|a1");
  // IN across partitions: a page ends inside a Query (LEK) or between Queries (no key).
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk IN ['c', 'a', 'b']", 2), "c0 a1|a2 a3|b1");
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk IN ['c', 'b', 'a']", 1), "c0|b1|a1|a2|a3|");
  // A filter counts evaluated items, not returned ones.
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk = 'a' AND n >= 2", 1), "|a2|a3|");
  // A Scan pages by hash order; every item comes exactly once.
  std::string scan = pages("SCAN SELECT * FROM \"App\"", 2);
  std::vector<std::string> keys;
  for (char& c : scan) c = c == '|' ? ' ' : c;
  std::istringstream in(scan);
  for (std::string k; in >> k;) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  EXPECT_EQ(keys, (std::vector<std::string>{"a1", "a2", "a3", "b1", "c0"}));
  // ORDER BY the sort key across partitions merges everything in one call.
  EXPECT_EQ(pages("SELECT * FROM \"App\" WHERE pk IN ['c', 'a', 'b'] ORDER BY sk, pk", 1),
            "c0 a1 b1 a2 a3");
}

TEST_F(PlannerE2eTest, CancelStopsWithInterrupted) {
  auto plan = PlanOf("SELECT * FROM \"App\" WHERE pk = 'a'");
  ASSERT_TRUE(plan.ok());
  std::atomic<bool> cancel{true};
  planner::ExecuteOptions options;
  options.cancel = &cancel;
  auto r = planner::Execute(*plan, executor_, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInterrupted);
}

TEST_F(PlannerE2eTest, SeveralQueriesMergeInOrder) {
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk IN ['c', 'a']")), "c0 a1 a2 a3");
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk IN ['c', 'a', 'b'] ORDER BY pk")),
            "a1 a2 a3 b1 c0");
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk IN ['c', 'a', 'b'] ORDER BY pk DESC, "
                         "sk DESC")),
            "c0 b1 a3 a2 a1");
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk IN ['c', 'a', 'b'] ORDER BY sk, pk")),
            "c0 a1 b1 a2 a3");
  // Sorting merged items by a key the statement does not select still works.
  auto n = MustRun("SELECT n FROM \"App\" WHERE pk IN ['c', 'a', 'b'] ORDER BY sk DESC, pk");
  std::string ns;
  for (const auto& item : n.items) {
    EXPECT_EQ(item.size(), 1u);
    ns += item.at("n").n().ToString();
  }
  EXPECT_EQ(ns, "32145");
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '3' OR pk = 'b'")),
            "a3 b1");
}

TEST_F(PlannerE2eTest, IndexesAndScan) {
  auto g = MustRun("SELECT * FROM \"App\".\"byColor\" WHERE color = 'red' AND created > 10");
  EXPECT_EQ(Keys(g), "a2");
  EXPECT_EQ(MustRun("SELECT pk, sk FROM \"App\".\"byEmail\" WHERE email = 'x@a'").count, 1);
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\".\"byDate\" WHERE pk = 'a' ORDER BY created "
                         "DESC")),
            "a2 a1");
  auto s = MustRun("SCAN SELECT * FROM \"App\" WHERE n > 2");
  EXPECT_EQ(s.count, 3);
  EXPECT_EQ(s.scanned_count, 5);
  EXPECT_NE(Error("SELECT * FROM \"App\" WHERE n > 2").find("keyhole refuses to scan"),
            std::string::npos);
}

TEST_F(PlannerE2eTest, InsertDuplicateIsDuplicateItemException) {
  auto r = Run("INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': '1'}");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kDuplicateItem);
  EXPECT_EQ(r.status().message(), "Duplicate primary key exists in table");
  // The original item is untouched.
  EXPECT_EQ(MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = '1'").items.at(0).at("n"), N(1));
}

TEST_F(PlannerE2eTest, UpdateSemanticsAndReturning) {
  auto u = MustRun(
      "UPDATE \"App\" SET n = n + 10 WHERE pk = 'a' AND sk = '1' RETURNING "
      "MODIFIED NEW *");
  ASSERT_EQ(u.items.size(), 1u);
  EXPECT_EQ(u.items[0].at("n"), N(11));
  EXPECT_EQ(u.items[0].size(), 1u);
  auto old = MustRun("UPDATE \"App\" SET n = 0 WHERE pk = 'a' AND sk = '1' RETURNING ALL OLD *");
  ASSERT_EQ(old.items.size(), 1u);
  EXPECT_EQ(old.items[0].at("n"), N(11));
  EXPECT_EQ(MustRun("UPDATE \"App\" SET n = 1 WHERE pk = 'a' AND sk = '1'").items.size(), 0u);

  // A missing item is not created: attribute_exists(pk) fails.
  auto missing = Run("UPDATE \"App\" SET n = 1 WHERE pk = 'zz' AND sk = '1'");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsConditionFailed());
  EXPECT_EQ(MustRun("SELECT * FROM \"App\" WHERE pk = 'zz' AND sk = '1'").count, 0);
  // A false extra condition fails too.
  auto cond = Run("UPDATE \"App\" SET n = 1 WHERE pk = 'a' AND sk = '1' AND n > 100");
  ASSERT_FALSE(cond.ok());
  EXPECT_TRUE(cond.status().IsConditionFailed());
}

TEST_F(PlannerE2eTest, DeleteSemantics) {
  // A missing key with no extra condition succeeds and deletes nothing.
  EXPECT_EQ(MustRun("DELETE FROM \"App\" WHERE pk = 'zz' AND sk = '1'").items.size(), 0u);
  auto cond = Run("DELETE FROM \"App\" WHERE pk = 'a' AND sk = '1' AND n = 42");
  ASSERT_FALSE(cond.ok());
  EXPECT_TRUE(cond.status().IsConditionFailed());
  auto d = MustRun("DELETE FROM \"App\" WHERE pk = 'a' AND sk = '1' RETURNING ALL OLD *");
  ASSERT_EQ(d.items.size(), 1u);
  EXPECT_EQ(d.items[0].at("n"), N(1));
  EXPECT_EQ(Keys(MustRun("SELECT * FROM \"App\" WHERE pk = 'a'")), "a2 a3");
}

TEST_F(PlannerE2eTest, ConditionsOnKeyAttributesOutsideTheKeyCondition) {
  auto ne = MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk <> '2'");
  EXPECT_EQ(Keys(ne), "a1 a3");
  EXPECT_EQ(ne.count, 2);
  EXPECT_EQ(ne.scanned_count, 3);
  auto idx = MustRun(
      "SELECT sk FROM \"App\".\"byColor\" WHERE color = 'red' AND pk = 'a' AND "
      "sk = '2'");
  ASSERT_EQ(idx.items.size(), 1u);
  EXPECT_EQ(idx.items[0].size(), 1u);  // re-projected after the post-filter
  EXPECT_EQ(idx.items[0].at("sk"), S("2"));
  EXPECT_EQ(MustRun("SELECT * FROM \"App\" WHERE pk = 'a' AND sk > '1' AND sk < '3'").count, 1);
}

TEST_F(PlannerE2eTest, ScanUpdateAndScanDelete) {
  auto u = MustRun("SCAN UPDATE \"App\" SET tag = 'hot' WHERE n >= 3 RETURNING MODIFIED NEW *");
  EXPECT_EQ(u.count, 3);  // a3, b1, c0
  EXPECT_EQ(u.scanned_count, 5);
  ASSERT_EQ(u.items.size(), 3u);
  EXPECT_EQ(u.items[0].at("tag"), S("hot"));
  EXPECT_EQ(MustRun("SCAN SELECT * FROM \"App\" WHERE tag = 'hot'").count, 3);

  auto d = MustRun("SCAN DELETE FROM \"App\" WHERE pk = 'a'");
  EXPECT_EQ(d.count, 3);
  EXPECT_EQ(d.items.size(), 0u);
  EXPECT_EQ(MustRun("SCAN SELECT * FROM \"App\" WHERE n > 0").count, 2);
  EXPECT_EQ(MustRun("SCAN DELETE FROM \"Users\"").count, 0);
}

// An executor that sets the cancel flag once it has deleted `after` items (Ctrl-C part way
// through a SCAN DELETE).
class CancellingExecutor : public DbExecutor {
 public:
  CancellingExecutor(storage::Database* db, std::atomic<bool>* cancel, int after)
      : DbExecutor(db), cancel_(cancel), after_(after) {}
  Result<DeleteItemResponse> DeleteItem(const DeleteItemRequest& r) override {
    auto out = DbExecutor::DeleteItem(r);  // api::BackendExecutor's
    if (++deleted_ == after_) cancel_->store(true);
    return out;
  }

 private:
  std::atomic<bool>* cancel_;
  int after_, deleted_ = 0;
};

TEST_F(PlannerE2eTest, AnInterruptedScanDeleteSaysHowManyItemsItHadChanged) {
  auto plan = PlanOf("SCAN DELETE FROM \"App\" WHERE n > 0");
  ASSERT_TRUE(plan.ok());
  std::atomic<bool> cancel{false};
  CancellingExecutor executor(&*db_, &cancel, 2);
  planner::ExecuteOptions options;
  options.cancel = &cancel;
  auto r = planner::Execute(*plan, executor, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInterrupted);
  EXPECT_EQ(r.status().message(), "Interrupted (2 of the 5 matching items had been deleted)");
  EXPECT_EQ(MustRun("SCAN SELECT * FROM \"App\" WHERE n > 0").count, 3);  // the two stay deleted
}

}  // namespace
}  // namespace keyhole::testing
