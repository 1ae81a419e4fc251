// PlanStatement's remembered point reads: every statement planned with them gives the plan (or
// the error) that planning anew gives, whatever values, parameters and schemas come after the
// plan that was remembered.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "api/api_json.h"
#include "core/json.h"
#include "planner_test_util.h"

namespace keyhole::testing {
namespace {

using planner::Plan;

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += s + ",";
  return out;
}

// Everything a plan says, as text: two plans with the same text run the same way.
std::string Describe(const Result<Plan>& r) {
  if (!r.ok()) return "error " + r.status().ToString() + " hint " + r.status().hint();
  const Plan& p = *r;
  std::string out = p.operation_name + " on " + p.table + (p.index ? "." + *p.index : "") +
                    " explain " + std::to_string(p.explain) + std::to_string(p.analyze) +
                    " merged " + std::to_string(p.merged) + std::to_string(p.sort_merged) +
                    " keys " + p.partition_key_name + "/" + p.sort_key_name + "/" +
                    Join(p.more_sort_key_names) + " columns " + Join(p.columns) +
                    " names-as-values " + Join(p.names_as_values) + " post-filters " +
                    std::to_string(p.post_filters.size()) + " reproject " +
                    std::to_string(p.reproject.has_value()) + " leaf " +
                    std::to_string(p.leaf_projection.has_value()) + " duplicate " +
                    std::to_string(p.duplicate_on_condition_failure) + "\n";
  for (const planner::Operation& op : p.operations) {
    out += std::visit(
               [](const auto& request) -> std::string {
                 using T = std::decay_t<decltype(request)>;
                 if constexpr (std::is_same_v<T, GetItemRequest>) {
                   return "GetItem " + json::Write(GetItemRequestToJson(request));
                 } else if constexpr (std::is_same_v<T, QueryRequest>) {
                   return "Query " + json::Write(QueryRequestToJson(request));
                 } else if constexpr (std::is_same_v<T, ScanRequest>) {
                   return "Scan " + json::Write(ScanRequestToJson(request));
                 } else if constexpr (std::is_same_v<T, PutItemRequest>) {
                   return "PutItem " + json::Write(PutItemRequestToJson(request));
                 } else if constexpr (std::is_same_v<T, UpdateItemRequest>) {
                   return "UpdateItem " + json::Write(UpdateItemRequestToJson(request));
                 } else {
                   return "DeleteItem " + json::Write(DeleteItemRequestToJson(request));
                 }
               },
               op) +
           "\n";
  }
  return out;
}

class PlannerPointReadTest : public PlannerTest {
 protected:
  // Plans `text` both ways and expects the same; true when the plan is a GetItem.
  bool Same(const std::string& text, const std::vector<AttributeValue>& parameters = {}) {
    parser::ParseResult cached = parser::ParseStatement(text, parameters);
    parser::ParseResult fresh = parser::ParseStatementUncached(text, parameters);
    EXPECT_EQ(cached.ok(), fresh.ok()) << text;
    if (!cached.ok() || !fresh.ok()) return false;
    Result<Plan> a = planner::PlanStatement(cached.statement(), schemas_);
    Result<Plan> b = planner::PlanStatementUncached(fresh.statement(), schemas_);
    EXPECT_EQ(Describe(a), Describe(b)) << text;
    return a.ok() && a->operation_name == "GetItem";
  }
};

TEST_F(PlannerPointReadTest, RememberedPlansEqualPlanningAnew) {
  const uint64_t hits_before = planner::RememberedPlanHits();
  // The same shape with other values, either order, either side, projections, EXPLAIN.
  for (const char* v : {"a1", "b2", "c3", "d4"}) {
    const std::string s = v;
    EXPECT_TRUE(Same("SELECT * FROM \"App\" WHERE pk = '" + s + "' AND sk = '" + s + "x'"));
    EXPECT_TRUE(Same("SELECT * FROM \"App\" WHERE sk = '" + s + "' AND '" + s + "' = pk"));
    EXPECT_TRUE(
        Same("SELECT title, a.b[1], \"c\" FROM \"App\" WHERE pk = '" + s + "' AND sk = 'k'"));
    EXPECT_TRUE(Same("EXPLAIN SELECT * FROM \"App\" WHERE pk = '" + s + "' AND sk = 'k'"));
    EXPECT_TRUE(Same("SELECT * FROM \"Users\" WHERE id = " + std::to_string(s[1] - '0')));
    // Not remembered: more conjuncts, an index, IN, OR, SCAN.
    EXPECT_FALSE(Same("SELECT * FROM \"App\" WHERE pk = '" + s + "' AND sk = 'k' AND x = 1"));
    EXPECT_FALSE(Same("SELECT * FROM \"App\".\"byEmail\" WHERE email = '" + s + "'"));
    // (A one-value IN is a GetItem, planned anew each time.)
    EXPECT_TRUE(Same("SELECT * FROM \"App\" WHERE pk IN ['" + s + "'] AND sk = 'k'"));
    EXPECT_FALSE(
        Same("SELECT * FROM \"Users\" WHERE id = 1 OR id = " + std::to_string(s[1] - '0' + 1)));
    EXPECT_FALSE(Same("SELECT * FROM \"Users\" WHERE id = 1 AND id = 2"));
    EXPECT_FALSE(Same("SCAN SELECT * FROM \"Users\" WHERE id = 3"));
  }
  // A list index in the projection is a literal of the shape: each index its own plan.
  for (const char* i : {"0", "1", "1", "2"}) {
    EXPECT_TRUE(
        Same(std::string("SELECT tags[") + i + "], a.b[" + i + "] FROM \"Users\" WHERE id = 1"));
  }
  // Values of the wrong type under a remembered shape: the planner's own errors.
  EXPECT_FALSE(Same("SELECT * FROM \"Users\" WHERE id = 'x'"));
  EXPECT_FALSE(Same("SELECT * FROM \"Users\" WHERE id = 'y'"));
  // Parameters: their types are not in the shape.
  const std::string params = "SELECT * FROM \"App\" WHERE pk = ? AND sk = ?";
  EXPECT_TRUE(Same(params, {S("a"), S("b")}));
  EXPECT_TRUE(Same(params, {S("c"), S("d")}));
  EXPECT_FALSE(Same(params, {S("c"), N(5)}));
  EXPECT_FALSE(Same(params, {AttributeValue::L({S("c")}), S("d")}));
  EXPECT_TRUE(Same(params, {S(""), S("d")}));  // GetItem's own error, when it runs
  EXPECT_TRUE(Same(params, {S("e"), S("f")}));
  // Five shapes remembered at their first statement, each hit three times; the list index's
  // one (the second "1" after a "1"); the parameters' three.
  EXPECT_EQ(planner::RememberedPlanHits() - hits_before, 19u);
}

TEST_F(PlannerPointReadTest, ASchemaChangeIsPlannedAnew) {
  const std::string text = "SELECT * FROM \"Users\" WHERE id = 7";
  EXPECT_TRUE(Same(text));
  EXPECT_TRUE(Same(text));
  // The table again, its key now a string: the same shape is a type error.
  ASSERT_TRUE(db_->DeleteTable({"Users"}).ok());
  Create("CREATE TABLE \"Users\" (id S)");
  EXPECT_FALSE(Same(text));
  EXPECT_TRUE(Same("SELECT * FROM \"Users\" WHERE id = '7'"));
  // And with a sort key: one equality no longer names the whole key.
  ASSERT_TRUE(db_->DeleteTable({"Users"}).ok());
  Create("CREATE TABLE \"Users\" (id N, ts N)");
  EXPECT_FALSE(Same(text));
  EXPECT_TRUE(Same("SELECT * FROM \"Users\" WHERE id = 7 AND ts = 1"));
  EXPECT_TRUE(Same("SELECT * FROM \"Users\" WHERE id = 8 AND ts = 2"));
}

}  // namespace
}  // namespace keyhole::testing
