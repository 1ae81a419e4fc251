// Planner: the shape of plans (GetItem / Query / several Queries / Scan), refusals and their
// messages, ORDER BY rules, write planning. Schemas come from a real storage::Database.
#include <gtest/gtest.h>

#include <variant>

#include "error_text.h"
#include "planner_test_util.h"

namespace keyhole::testing {
namespace {

using planner::Plan;

template <typename T>
const T& Op(const Plan& p, size_t i = 0) {
  return std::get<T>(p.operations.at(i));
}

std::string PlanError(Result<Plan> r) { return r.ok() ? "" : r.status().message(); }

// planner_test_util.h's fixture, under this file's name.
class PlannerPlanTest : public PlannerTest {};

TEST_F(PlannerPlanTest, FullKeyEqualityIsGetItem) {
  auto p = PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = 'b'");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->operation_name, "GetItem");
  ASSERT_EQ(p->operations.size(), 1u);
  const auto& g = Op<GetItemRequest>(*p);
  EXPECT_EQ(g.key.at("pk"), S("a"));
  EXPECT_EQ(g.key.at("sk"), S("b"));
  EXPECT_FALSE(g.expressions.parsed);

  auto u = PlanOf("SELECT name FROM \"Users\" WHERE 7 = id");
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_EQ(u->operation_name, "GetItem");
  EXPECT_EQ(Op<GetItemRequest>(*u).key.at("id"), N(7));
  ASSERT_TRUE(Op<GetItemRequest>(*u).expressions.parsed);
  EXPECT_EQ(Op<GetItemRequest>(*u).expressions.parsed->projection->paths.size(), 1u);
}

TEST_F(PlannerPlanTest, FullKeyWithExtraConditionIsQueryWithFilter) {
  auto p = PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = 'b' AND x = 1");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->operation_name, "Query");
  const auto& q = Op<QueryRequest>(*p);
  EXPECT_EQ(q.key_condition.op, SortKeyOp::kEq);
  ASSERT_TRUE(q.expressions.parsed && q.expressions.parsed->filter);
  EXPECT_EQ(q.expressions.parsed->filter->kind, expr::ConditionKind::kCompare);
}

TEST_F(PlannerPlanTest, PartitionKeyAndSortPredicatesAreQuery) {
  struct Case {
    const char* where;
    SortKeyOp op;
  } cases[] = {
      {"pk = 'a'", SortKeyOp::kNone},
      {"pk = 'a' AND sk < 'm'", SortKeyOp::kLt},
      {"pk = 'a' AND sk <= 'm'", SortKeyOp::kLe},
      {"pk = 'a' AND 'm' < sk", SortKeyOp::kGt},
      {"pk = 'a' AND sk >= 'm'", SortKeyOp::kGe},
      {"pk = 'a' AND sk BETWEEN 'a' AND 'm'", SortKeyOp::kBetween},
      {"begins_with(sk, 'x') AND pk = 'a'", SortKeyOp::kBeginsWith},
  };
  for (const auto& c : cases) {
    auto p = PlanOf(std::string("SELECT * FROM \"App\" WHERE ") + c.where);
    ASSERT_TRUE(p.ok()) << c.where << ": " << p.status().ToString();
    EXPECT_EQ(p->operation_name, "Query") << c.where;
    ASSERT_EQ(p->operations.size(), 1u);
    const auto& q = Op<QueryRequest>(*p);
    EXPECT_EQ(q.key_condition.partition_name, "pk");
    EXPECT_EQ(q.key_condition.partition_value, S("a"));
    EXPECT_EQ(q.key_condition.op, c.op) << c.where;
    EXPECT_FALSE(q.expressions.parsed) << c.where;
    EXPECT_TRUE(q.scan_index_forward);
  }
}

TEST_F(PlannerPlanTest, InIsSeveralQueriesAndOrBranchesToo) {
  auto p = PlanOf("SELECT * FROM \"App\" WHERE pk IN ['c', 'a', 'b'] AND x = 1");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->operation_name, "Query");
  EXPECT_TRUE(p->merged);
  ASSERT_EQ(p->operations.size(), 3u);
  EXPECT_EQ(Op<QueryRequest>(*p, 0).key_condition.partition_value, S("c"));
  EXPECT_EQ(Op<QueryRequest>(*p, 2).key_condition.partition_value, S("b"));
  EXPECT_TRUE(Op<QueryRequest>(*p, 1).expressions.parsed->filter);

  auto o = PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' AND sk > 'x' OR pk = 'b'");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  ASSERT_EQ(o->operations.size(), 2u);
  EXPECT_EQ(Op<QueryRequest>(*o, 0).key_condition.op, SortKeyOp::kGt);
  EXPECT_EQ(Op<QueryRequest>(*o, 1).key_condition.op, SortKeyOp::kNone);

  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' AND x = '1' OR pk = 'a' AND "
                             "sk = '2'")),
            "Overlapping conditions with range keys are not supported in where clause");
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\" WHERE pk IN ['a', 'a']")),
            "Overlapping conditions with range keys are not supported in where clause");
}

TEST_F(PlannerPlanTest, QueryOnIndexes) {
  auto g = PlanOf("SELECT pk FROM \"App\".\"byEmail\" WHERE email = 'e@x'");
  ASSERT_TRUE(g.ok()) << g.status().ToString();
  EXPECT_EQ(g->operation_name, "Query");
  EXPECT_EQ(g->index, "byEmail");
  EXPECT_EQ(Op<QueryRequest>(*g).index_name, "byEmail");
  EXPECT_EQ(Op<QueryRequest>(*g).key_condition.partition_name, "email");

  auto l = PlanOf("SELECT * FROM \"App\".\"byDate\" WHERE pk = 'a' AND created > 5");
  ASSERT_TRUE(l.ok()) << l.status().ToString();
  EXPECT_EQ(l->operation_name, "Query");  // never GetItem on an index
  const auto& q = Op<QueryRequest>(*l);
  EXPECT_EQ(q.index_name, "byDate");
  EXPECT_EQ(q.key_condition.sort_name, "created");
  EXPECT_EQ(q.key_condition.op, SortKeyOp::kGt);

  // An LSI may return attributes it does not project; a GSI may not.
  EXPECT_TRUE(PlanOf("SELECT anything FROM \"App\".\"byDate\" WHERE pk = 'a'").ok());
  EXPECT_EQ(PlanError(PlanOf("SELECT pk, alternate, title, mymap.x, mymap.y FROM "
                             "\"App\".\"byColor\" WHERE color = 'red'")),
            "One or more parameter values were invalid: Global secondary index byColor does not "
            "project [alternate, mymap]");
  EXPECT_EQ(PlanError(PlanOf("SCAN SELECT name FROM \"App\".\"byEmail\"")),
            "One or more parameter values were invalid: Global secondary index byEmail does not "
            "project [name]");
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\".\"nope\" WHERE pk = 'a'")),
            "The table does not have the specified index");
}

TEST_F(PlannerPlanTest, ScanOnlyWithTheScanKeyword) {
  auto s = PlanOf("SCAN SELECT * FROM \"App\" WHERE color = 'red'");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->operation_name, "Scan");
  ASSERT_TRUE(Op<ScanRequest>(*s).expressions.parsed);
  EXPECT_TRUE(Op<ScanRequest>(*s).expressions.parsed->filter);
  // SCAN forces a Scan even when the key is pinned.
  auto k = PlanOf("SCAN SELECT * FROM \"App\".\"byColor\" WHERE pk = 'a'");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->operation_name, "Scan");
  EXPECT_EQ(Op<ScanRequest>(*k).index_name, "byColor");
  auto all = PlanOf("SCAN SELECT * FROM \"Users\"");
  ASSERT_TRUE(all.ok());
  EXPECT_FALSE(Op<ScanRequest>(*all).expressions.parsed);
}

TEST_F(PlannerPlanTest, RefusalNamesTheMissingKeyAndTheFix) {
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\" WHERE email = 'e@x' AND sk = 'b'")),
            "keyhole refuses to scan \"App\": the WHERE does not pin the partition key pk with = "
            "or IN. Add pk = <value>, query the index \"byEmail\" whose partition key is email, "
            "or write SCAN SELECT ... to read the whole table.");
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\" WHERE pk > 'a'")),
            "keyhole refuses to scan \"App\": the WHERE does not pin the partition key pk with = "
            "or IN. Add pk = <value>, or write SCAN SELECT ... to read the whole table.");
  // One OR branch without the key is enough to refuse.
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' OR x = 1")),
            "keyhole refuses to scan \"App\": the WHERE does not pin the partition key pk with = "
            "or IN. Add pk = <value>, or write SCAN SELECT ... to read the whole table.");
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"Users\"")),
            "keyhole refuses to scan \"Users\": the statement has no WHERE clause to pin the "
            "partition key id. Add WHERE id = <value>, or write SCAN SELECT ... to read the whole "
            "table.");
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\".\"byColor\" WHERE pk = 'a'")),
            "keyhole refuses to scan \"App\".\"byColor\": the WHERE does not pin the partition key "
            "color of index \"byColor\" with = or IN. Add color = <value>, query the table \"App\" "
            "whose partition key is pk, query the index \"byDate\" whose partition key is pk, or "
            "write SCAN SELECT ... to read the whole index.");
}

TEST_F(PlannerPlanTest, KeyTypeMismatch) {
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"Users\" WHERE id = 'x'")),
            "Key attribute's data type should match its data type in table's schema: Key id");
  EXPECT_EQ(PlanError(PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' AND sk > 3")),
            "Key attribute's data type should match its data type in table's schema: Key sk");
}

TEST_F(PlannerPlanTest, OrderByRules) {
  auto d = PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' ORDER BY sk DESC");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_FALSE(Op<QueryRequest>(*d).scan_index_forward);
  auto a = PlanOf("SELECT * FROM \"App\" WHERE pk = 'a' ORDER BY sk ASC");
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(Op<QueryRequest>(*a).scan_index_forward);

  auto m = PlanOf("SELECT * FROM \"App\" WHERE pk IN ['b', 'c', 'a'] ORDER BY pk DESC, sk DESC");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  ASSERT_EQ(m->operations.size(), 3u);
  EXPECT_EQ(Op<QueryRequest>(*m, 0).key_condition.partition_value, S("c"));
  EXPECT_EQ(Op<QueryRequest>(*m, 2).key_condition.partition_value, S("a"));
  EXPECT_FALSE(Op<QueryRequest>(*m, 0).scan_index_forward);
  EXPECT_FALSE(m->sort_merged);

  auto s = PlanOf("SELECT * FROM \"App\" WHERE pk IN ['b', 'a'] ORDER BY sk, pk");
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->sort_merged);

  auto e = [&](const std::string& q) { return PlanError(PlanOf(q)); };
  EXPECT_EQ(e("SELECT * FROM \"App\" WHERE pk IN ['a', 'b'] ORDER BY sk"),
            "Must have hash key in ORDER BY clause when more than one hash key condition "
            "specified in WHERE clause.");
  EXPECT_EQ(e("SELECT * FROM \"App\" WHERE pk = 'a' ORDER BY x"),
            "Variable reference x in ORDER BY clause must be part of the primary key");
  EXPECT_EQ(e("SELECT * FROM \"App\" WHERE x = 1 ORDER BY sk"),
            "Must have at least one non-optional hash key condition in WHERE clause when using "
            "ORDER BY clause.");
  EXPECT_EQ(e("SCAN SELECT * FROM \"App\" WHERE x = 1 ORDER BY sk"),
            "Must have at least one non-optional hash key condition in WHERE clause when using "
            "ORDER BY clause.");
  // On an index, its own keys are the primary key.
  EXPECT_TRUE(PlanOf("SELECT * FROM \"App\".\"byDate\" WHERE pk = 'a' ORDER BY created").ok());
}

TEST_F(PlannerPlanTest, InsertPlansAConditionalPut) {
  auto p = PlanOf("INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': 'b', 'n': 1}");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->operation_name, "PutItem");
  EXPECT_TRUE(p->duplicate_on_condition_failure);
  const auto& put = Op<PutItemRequest>(*p);
  ASSERT_TRUE(put.expressions.parsed && put.expressions.parsed->condition);
  EXPECT_EQ(put.expressions.parsed->condition->function, "attribute_not_exists");
  EXPECT_EQ(PlanError(PlanOf("INSERT INTO \"App\" VALUE {'pk': 'a'}")),
            "Key attribute should be present in the item: Key sk");
  EXPECT_EQ(PlanError(PlanOf("INSERT INTO \"Users\" VALUE {'id': 'a'}")),
            "Key attribute's data type should match its data type in table's schema: Key id");
}

TEST_F(PlannerPlanTest, UpdateAndDeleteNeedTheFullKey) {
  auto u = PlanOf(
      "UPDATE \"App\" SET n = 1 WHERE pk = 'a' AND sk = 'b' AND n < 5 RETURNING "
      "ALL NEW *");
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_EQ(u->operation_name, "UpdateItem");
  const auto& r = Op<UpdateItemRequest>(*u);
  EXPECT_EQ(r.key.size(), 2u);
  EXPECT_EQ(r.return_values, ReturnValues::kAllNew);
  ASSERT_TRUE(r.expressions.parsed->condition && r.expressions.parsed->update);
  EXPECT_EQ(r.expressions.parsed->condition->kind, expr::ConditionKind::kAnd);
  EXPECT_EQ(r.expressions.parsed->condition->children.back().function, "attribute_exists");

  auto d = PlanOf("DELETE FROM \"Users\" WHERE id = 1 RETURNING ALL OLD *");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_EQ(d->operation_name, "DeleteItem");
  EXPECT_EQ(Op<DeleteItemRequest>(*d).return_values, ReturnValues::kAllOld);
  EXPECT_FALSE(Op<DeleteItemRequest>(*d).expressions.parsed);  // no attribute_exists added

  const std::string kMandatory =
      "Where clause does not contain a mandatory equality on all key attributes";
  auto e = [&](const std::string& q) { return PlanError(PlanOf(q)); };
  EXPECT_EQ(e("UPDATE \"App\" SET n = 1 WHERE pk = 'a'"), kMandatory);
  EXPECT_EQ(e("UPDATE \"App\" SET n = 1"), kMandatory);
  EXPECT_EQ(e("DELETE FROM \"App\" WHERE x = 1"), kMandatory);
  EXPECT_EQ(e("DELETE FROM \"App\" WHERE pk = 'a' OR sk = 'b'"), kMandatory);
  EXPECT_EQ(e("UPDATE \"App\" SET n = 1 WHERE pk = 'a' AND pk = 'b' AND sk = 'c'"),
            "Multiple conditions on same key pk. Only single item Update/Insert/Delete are "
            "supported");
  EXPECT_EQ(e("DELETE FROM \"App\" WHERE pk = 'a' AND sk = 'c' AND sk > 'a'"),
            "Multiple conditions on same key sk. Only single item Update/Insert/Delete are "
            "supported");
  EXPECT_EQ(e("DELETE FROM \"App\" WHERE pk IN ['a'] AND sk = 'c'"),
            "Only single equality condition should be present on hash key pk");
  EXPECT_EQ(e("DELETE FROM \"Users\" WHERE id = [1]"),
            "Key value must be of type S, N, or B. Key name: id, Key type: L");
  EXPECT_EQ(e("DELETE FROM \"Users\" WHERE id = 'x'"),
            "Key attribute's data type should match its data type in table's schema: Key id");
  EXPECT_NE(e("UPDATE \"Users\" SET id = 2 WHERE id = 1").find("Cannot update attribute id"),
            std::string::npos);
  EXPECT_NE(e("SCAN UPDATE \"Users\" SET id = 2").find("Cannot update attribute id"),
            std::string::npos);
}

TEST_F(PlannerPlanTest, ScanUpdateAndDeletePlanAScanAndAPerItemWrite) {
  auto u = PlanOf("SCAN UPDATE \"App\" SET n = 1 WHERE x = 2 RETURNING ALL NEW *");
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_EQ(u->operation_name, "UpdateItem");
  ASSERT_EQ(u->operations.size(), 1u);
  const auto& scan = Op<ScanRequest>(*u);
  EXPECT_EQ(scan.expressions.parsed->projection->paths.size(), 2u);  // pk, sk
  EXPECT_TRUE(scan.expressions.parsed->filter);
  ASSERT_TRUE(u->per_item_write);
  const auto& w = std::get<UpdateItemRequest>(*u->per_item_write);
  EXPECT_EQ(w.return_values, ReturnValues::kAllNew);
  ASSERT_TRUE(w.expressions.parsed->condition && w.expressions.parsed->update);
  EXPECT_EQ(w.expressions.parsed->condition->children.back().function, "attribute_exists");

  auto d = PlanOf("SCAN DELETE FROM \"Users\"");
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  ASSERT_TRUE(d->per_item_write);
  EXPECT_FALSE(std::get<DeleteItemRequest>(*d->per_item_write).expressions.parsed);
  EXPECT_FALSE(Op<ScanRequest>(*d).expressions.parsed->filter);
}

TEST_F(PlannerPlanTest, UnknownTableAndNonDml) {
  auto p = PlanOf("SELECT * FROM \"Nope\" WHERE pk = 'a'");
  ASSERT_FALSE(p.ok());
  EXPECT_TRUE(p.status().IsNotFound());
  EXPECT_EQ(::keyhole::testing::ErrorText(PlanOf("SHOW TABLES")),
            "ValidationException: SHOW TABLES is not planned: the planner handles SELECT, INSERT, "
            "UPDATE and DELETE only");
}

TEST_F(PlannerPlanTest, ExplainFlagsAreCarried) {
  auto p = PlanOf("EXPLAIN SELECT * FROM \"Users\" WHERE id = 1");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(p->explain);
}

}  // namespace
}  // namespace keyhole::testing
