// Helpers for planner tests: the api layer's SchemaSource and Executor over storage::Database (a
// TempDb),
// and a fixture with two tables:
//   "App"  (pk S, sk S)  GSI "byEmail" (email S) KEYS_ONLY,
//                        GSI "byColor" (color S, created N) INCLUDE (title),
//                        LSI "byDate" (created N RANGE)
//   "Users" (id N)
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "api/service.h"
#include "parser/partiql.h"
#include "planner/plan.h"
#include "storage_test_util.h"

namespace keyhole::testing {

// The planner's schemas and operations over a storage::Database: the api layer's adapters.
class DbSchemas : public api::BackendSchemas {
 public:
  explicit DbSchemas(storage::Database* db) : api::BackendSchemas(*db) {}
};

class DbExecutor : public api::BackendExecutor {
 public:
  explicit DbExecutor(storage::Database* db) : api::BackendExecutor(*db) {}
};

class PlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Create(
        "CREATE TABLE \"App\" (pk S, sk S) GLOBAL INDEX \"byEmail\" (email S HASH) PROJECTION "
        "KEYS_ONLY GLOBAL INDEX \"byColor\" (color S HASH, created N RANGE) PROJECTION INCLUDE "
        "(title) LOCAL INDEX \"byDate\" (created N RANGE)");
    Create("CREATE TABLE \"Users\" (id N)");
  }
  void Create(const std::string& text) {
    auto p = parser::ParseStatement(text);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    auto r = db_->CreateTable(
        parser::ToCreateTableRequest(p.statement().as<parser::CreateTableStatement>()));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
  Result<planner::Plan> PlanOf(const std::string& text) {
    auto p = parser::ParseStatement(text);
    if (!p.ok()) return p.status();
    return planner::PlanStatement(p.statement(), schemas_);
  }
  Result<planner::ExecuteResult> Run(const std::string& text) {
    auto plan = PlanOf(text);
    if (!plan.ok()) return plan.status();
    return planner::Execute(*plan, executor_);
  }
  // Runs `text` and fails the test on error.
  planner::ExecuteResult MustRun(const std::string& text) {
    auto r = Run(text);
    EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
    return r.ok() ? *r : planner::ExecuteResult{};
  }
  // The message of the error `text` plans or runs into ("" when it succeeds).
  std::string Error(const std::string& text) {
    auto r = Run(text);
    return r.ok() ? "" : r.status().message();
  }

  TempDb db_;
  DbSchemas schemas_{&*db_};
  DbExecutor executor_{&*db_};
};

}  // namespace keyhole::testing
