// api::Connection over a storage::Database: statements run as data (the outcome's plan, items,
// report and error), NEXT's pages, ExclusiveStartKey, ConsistentRead, and the hints every front
// end shares (a failed condition explained, a DELETE of a missing key, names written for values).
#include "api/connection.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <random>
#include <string>

#include "api/service.h"
#include "storage_test_util.h"

namespace keyhole {
namespace {

using testing::N;
using testing::S;
using testing::TempDb;

class ApiConnection : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::MakeAppTable(db_, "App");
    for (int p = 0; p < 2; ++p) {
      for (int s = 0; s < 5; ++s) {
        PutItemRequest put;
        put.table_name = "App";
        put.item = {{"pk", S("p" + std::to_string(p))}, {"sk", N(s)}, {"g", S("x")}};
        ASSERT_TRUE(db_->PutItem(put).ok());
      }
    }
  }
  TempDb db_;
  api::Connection connection_{*db_};
};

TEST_F(ApiConnection, ASelectByItsFullKeyIsOneGetItem) {
  api::StatementOutcome out = connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 3");
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  ASSERT_TRUE(out.plan);
  EXPECT_EQ(out.plan->operation_name, "GetItem");
  ASSERT_EQ(out.result.items.size(), 1u);
  EXPECT_EQ(out.result.items[0].at("sk"), N(3));
  EXPECT_EQ(out.report.operation, "GetItem");
  EXPECT_EQ(out.report.target, "App");
  EXPECT_EQ(out.report.returned, 1);
  EXPECT_EQ(out.report.read, 1);
  EXPECT_EQ(out.report.units, "RCU");
  EXPECT_DOUBLE_EQ(out.report.capacity, 0.5);
  EXPECT_FALSE(out.report.more);
  EXPECT_FALSE(out.consistent);
  EXPECT_TRUE(out.report.error.empty());
}

TEST_F(ApiConnection, NextReadsThePagesOfTheLastSelect) {
  connection_.options().page_size = 2;
  api::StatementOutcome out = connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p1'");
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  EXPECT_EQ(out.plan->operation_name, "Query");
  ASSERT_EQ(out.result.items.size(), 2u);
  EXPECT_TRUE(out.report.more);
  ASSERT_TRUE(out.result.last_evaluated_key);
  EXPECT_EQ(out.result.last_evaluated_key->at("sk"), N(1));
  EXPECT_TRUE(connection_.has_next());
  std::vector<Item> all = out.result.items;
  int pages = 1;
  while (connection_.has_next()) {
    api::StatementOutcome page = connection_.Run("NEXT");
    ASSERT_TRUE(page.ok()) << page.status.ToString();
    EXPECT_EQ(page.plan.get(), out.plan.get()) << "NEXT continues the same plan";
    all.insert(all.end(), page.result.items.begin(), page.result.items.end());
    ++pages;
  }
  EXPECT_EQ(pages, 3);
  ASSERT_EQ(all.size(), 5u);
  for (int s = 0; s < 5; ++s) EXPECT_EQ(all[s].at("sk"), N(s));
  api::StatementOutcome done = connection_.Next();
  EXPECT_TRUE(done.status.IsValidation());
  EXPECT_EQ(done.status.message(), "NEXT: the previous SELECT has no more pages");
  EXPECT_EQ(done.report.error, "ValidationException: NEXT: the previous SELECT has no more pages");
}

TEST_F(ApiConnection, NextWithoutASelectSaysSo) {
  api::StatementOutcome out = connection_.Next();
  EXPECT_EQ(out.status.message(), "NEXT continues the previous SELECT; there is none");
  // A write is not a SELECT NEXT continues.
  ASSERT_TRUE(connection_.Run("INSERT INTO \"App\" VALUE {'pk': 'p9', 'sk': 1}").ok());
  EXPECT_FALSE(connection_.has_next());
  EXPECT_EQ(connection_.last_plan(), nullptr);
}

TEST_F(ApiConnection, AFailedSelectLeavesThePreviousOneToContinue) {
  connection_.options().page_size = 3;
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0'").ok());
  api::StatementOutcome refused = connection_.Run("SELECT * FROM \"App\" WHERE g = 'x'");
  EXPECT_FALSE(refused.ok());
  EXPECT_TRUE(refused.report.refused) << refused.report.error;
  EXPECT_TRUE(refused.status.message().starts_with("keyhole refuses to scan"));
  EXPECT_FALSE(refused.plan);
  api::StatementOutcome next = connection_.Next();
  ASSERT_TRUE(next.ok()) << next.status.ToString();
  EXPECT_EQ(next.result.items.size(), 2u);
  EXPECT_EQ(next.result.items[0].at("sk"), N(3));
}

TEST_F(ApiConnection, AnInterruptedNextCanBeRepeated) {
  connection_.options().page_size = 2;
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0'").ok());
  std::atomic<bool> cancel{true};
  connection_.options().cancel = &cancel;
  api::StatementOutcome stopped = connection_.Next();
  EXPECT_EQ(stopped.status.code(), ErrorCode::kInterrupted);
  cancel = false;
  api::StatementOutcome again = connection_.Next();
  ASSERT_TRUE(again.ok()) << again.status.ToString();
  EXPECT_EQ(again.result.items[0].at("sk"), N(2));
}

TEST_F(ApiConnection, DroppingTheTableForgetsItsSelect) {
  connection_.options().page_size = 1;
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0'").ok());
  connection_.ForgetTable("Other");
  EXPECT_TRUE(connection_.has_next());
  connection_.ForgetTable("App");
  EXPECT_FALSE(connection_.has_next());
  EXPECT_EQ(connection_.Next().status.message(),
            "NEXT continues the previous SELECT; there is none");
}

TEST_F(ApiConnection, AStartKeyContinuesAQueryAndNothingElse) {
  parser::ParseResult parsed = parser::ParseStatement("SELECT * FROM \"App\" WHERE pk = 'p0'");
  ASSERT_TRUE(parsed.ok());
  Result<planner::Plan> plan = connection_.Plan(parsed.statement());
  ASSERT_TRUE(plan.ok());
  api::StatementOutcome out = connection_.Execute(*plan, Item{{"pk", S("p0")}, {"sk", N(2)}});
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  ASSERT_EQ(out.result.items.size(), 2u);
  EXPECT_EQ(out.result.items[0].at("sk"), N(3));
  parsed = parser::ParseStatement("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1");
  plan = connection_.Plan(parsed.statement());
  ASSERT_TRUE(plan.ok());
  out = connection_.Execute(*plan, Item{{"pk", S("p0")}, {"sk", N(2)}});
  EXPECT_TRUE(out.status.IsValidation());
  EXPECT_TRUE(out.status.message().starts_with("an ExclusiveStartKey applies to a SELECT"));
}

TEST_F(ApiConnection, ConsistentReadsApplyToSelectsAndTheirPages) {
  connection_.options().consistent_reads = true;
  connection_.options().page_size = 3;
  api::StatementOutcome out = connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0'");
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(out.consistent);
  EXPECT_TRUE(std::get<QueryRequest>(out.plan->operations[0]).consistent_read);
  EXPECT_DOUBLE_EQ(out.report.capacity, 1.0);  // strongly consistent: a whole unit per 4 KB
  connection_.options().consistent_reads = false;
  api::StatementOutcome next = connection_.Next();
  ASSERT_TRUE(next.ok());
  EXPECT_TRUE(next.consistent) << "a page reads as its SELECT did";
  api::StatementOutcome write =
      connection_.Run("UPDATE \"App\" SET a = 1 WHERE pk = 'p0' AND sk = 0");
  ASSERT_TRUE(write.ok()) << write.status.ToString();
  EXPECT_FALSE(write.consistent);
  EXPECT_EQ(write.report.units, "WCU");
  EXPECT_EQ(write.report.operation, "UpdateItem");
}

TEST_F(ApiConnection, AFailedConditionSaysWhichPartDidNotHold) {
  api::StatementOutcome out =
      connection_.Run("UPDATE \"App\" SET a = 1 WHERE pk = 'nobody' AND sk = 0");
  EXPECT_TRUE(out.status.IsConditionFailed()) << out.status.ToString();
  EXPECT_EQ(out.status.hint(),
            "no item has the key {\"pk\":{\"S\":\"nobody\"},\"sk\":{\"N\":\"0\"}}: PartiQL's "
            "UPDATE changes an existing item only (it adds attribute_exists to the condition); "
            "INSERT creates one");
  ASSERT_TRUE(out.plan);
  out = connection_.Run("DELETE FROM \"App\" WHERE pk = 'p0' AND sk = 0 AND g = 'y'");
  EXPECT_TRUE(out.status.IsConditionFailed());
  EXPECT_EQ(out.status.hint(),
            "the item {\"pk\":{\"S\":\"p0\"},\"sk\":{\"N\":\"0\"}} exists, but the rest of the "
            "WHERE is false for it: nothing was written");
  EXPECT_EQ(out.report.error.rfind("ConditionalCheckFailedException: ", 0), 0u) << out.report.error;
}

TEST_F(ApiConnection, ADeleteOfAMissingKeySaysSoAndChargesTheSame) {
  api::StatementOutcome gone = connection_.Run("DELETE FROM \"App\" WHERE pk = 'p0' AND sk = 4");
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(gone.missing_deletes, 0);
  EXPECT_TRUE(gone.result.items.empty()) << "no RETURNING: the old item is not returned";
  api::StatementOutcome missing = connection_.Run("DELETE FROM \"App\" WHERE pk = 'p0' AND sk = 4");
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing.missing_deletes, 1);
  // What DynamoDB charges a delete of nothing: one unit, none for the index (asking for the old
  // item to learn that it was missing changes no charge); the delete that removed the item paid
  // for its GSI entry too.
  EXPECT_DOUBLE_EQ(missing.report.capacity, 1.0);
  EXPECT_DOUBLE_EQ(gone.report.capacity, 2.0);
}

TEST_F(ApiConnection, NamesWrittenForValuesAreNamedWhenNothingMatched) {
  api::StatementOutcome out =
      connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND g = \"x\"");
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  EXPECT_EQ(out.result.count, 0);
  EXPECT_EQ(out.nothing_matched,
            "\"x\" is read as attribute name (double quotes, or none, name attributes); if you "
            "meant string, write 'x'");
  out = connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND g = 'x'");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.result.count, 5);
  EXPECT_EQ(out.nothing_matched, "");
}

TEST_F(ApiConnection, WhatAConnectionDoesNotRunIsRefusedAsData) {
  api::StatementOutcome out = connection_.Run("SELEC * FROM \"App\"");
  EXPECT_TRUE(out.status.IsValidation());
  ASSERT_TRUE(out.parse_error_at);
  EXPECT_EQ(out.parse_error_at->line, 1);
  EXPECT_EQ(out.parse_error_at->column, 1);
  out = connection_.Run("DROP TABLE \"App\"");
  EXPECT_EQ(out.status.message(), "DROP TABLE is not run by a connection");
  EXPECT_TRUE(db_->DescribeTable({"App"}).ok());
  out = connection_.Run("SELECT * FROM \"Nope\" WHERE pk = 'a'");
  EXPECT_TRUE(out.status.IsNotFound());
  EXPECT_FALSE(out.report.refused);
}

TEST_F(ApiConnection, ParametersBindTheMarkers) {
  api::StatementOutcome out =
      connection_.Run("SELECT * FROM \"App\" WHERE pk = ? AND sk = ?", {S("p1"), N(4)});
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  ASSERT_EQ(out.result.items.size(), 1u);
  EXPECT_EQ(out.result.items[0].at("pk"), S("p1"));
}

TEST_F(ApiConnection, AFrontEndThatKeepsTheCursorContinuesFromIt) {
  connection_.options().page_size = 2;
  api::StatementOutcome first = connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p1'");
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(first.result.next);
  // Another connection (a later ExecuteStatement with the NextToken) reads on from it.
  api::Connection other(*db_);
  other.options().page_size = 2;
  parser::ParseResult parsed = parser::ParseStatement("SELECT * FROM \"App\" WHERE pk = 'p1'");
  Result<planner::Plan> plan = other.Plan(parsed.statement());
  ASSERT_TRUE(plan.ok());
  api::StatementOutcome next = other.Execute(*plan, *first.result.next);
  ASSERT_TRUE(next.ok()) << next.status.ToString();
  ASSERT_EQ(next.result.items.size(), 2u);
  EXPECT_EQ(next.result.items[0].at("sk"), N(2));
}

TEST_F(ApiConnection, OnTheWireNothingIsAddedForPeople) {
  connection_.options().explain = false;
  api::StatementOutcome out =
      connection_.Run("UPDATE \"App\" SET a = 1 WHERE pk = 'nobody' AND sk = 0");
  EXPECT_TRUE(out.status.IsConditionFailed());
  EXPECT_EQ(out.status.hint(), "") << "no GetItem to explain it";
  out = connection_.Run("DELETE FROM \"App\" WHERE pk = 'nobody' AND sk = 0");
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.missing_deletes, 0) << "the old item was not asked for";
}

// ---- BEGIN ... COMMIT ----

parser::Statement Parsed(std::string_view text) {
  parser::ParseResult r = parser::ParseStatement(text);
  EXPECT_TRUE(r.ok()) << text;
  return r.statement();
}

bool Exists(TempDb& db, const std::string& pk, int sk) {
  GetItemRequest get;
  get.table_name = "App";
  get.key = {{"pk", S(pk)}, {"sk", N(sk)}};
  Result<GetItemResponse> r = db->GetItem(get);
  return r.ok() && r->item.has_value();
}

TEST_F(ApiConnection, ATransactionIsSentWholeAtCommit) {
  ASSERT_TRUE(connection_.Begin(false).ok());
  EXPECT_TRUE(connection_.in_transaction());
  EXPECT_EQ(connection_.Begin(true).message(),
            "a transaction is already open: COMMIT or ROLLBACK it");
  ASSERT_TRUE(connection_.Queue(Parsed("INSERT INTO \"App\" VALUE {'pk': 't', 'sk': 1}")).ok());
  ASSERT_TRUE(connection_.Queue(Parsed("INSERT INTO \"App\" VALUE {'pk': 't', 'sk': 2}")).ok());
  Status mixed = connection_.Queue(Parsed("SELECT * FROM \"App\" WHERE pk = 't' AND sk = 1"));
  EXPECT_EQ(mixed.message(),
            "a transaction (ExecuteTransaction) takes all reads (SELECT) or all writes (INSERT, "
            "UPDATE, DELETE, EXISTS), not both: this one has writes queued");
  EXPECT_EQ(connection_.queued(), 2u) << "a refused statement is not queued";
  EXPECT_FALSE(Exists(db_, "t", 1)) << "nothing is sent before COMMIT";
  api::CommitOutcome out = connection_.Commit();
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  EXPECT_FALSE(connection_.in_transaction());
  EXPECT_EQ(out.statements.size(), 2u);
  ASSERT_TRUE(out.transaction);
  EXPECT_FALSE(out.transaction->reads);
  EXPECT_TRUE(Exists(db_, "t", 1));
  EXPECT_TRUE(Exists(db_, "t", 2));
  EXPECT_EQ(connection_.Commit().status.message(), "COMMIT without BEGIN");
}

TEST_F(ApiConnection, ATransactionMarkedFailedWritesNothing) {
  ASSERT_TRUE(connection_.Begin(false).ok());
  ASSERT_TRUE(connection_.Queue(Parsed("INSERT INTO \"App\" VALUE {'pk': 'f', 'sk': 1}")).ok());
  connection_.MarkFailed("the statement after TransactStatements[0] (line 3) failed: X");
  connection_.MarkFailed("a later failure is not the one named");
  api::CommitOutcome out = connection_.Commit();
  EXPECT_TRUE(out.status.IsValidation());
  EXPECT_EQ(out.status.message(),
            "the transaction was not committed: the statement after TransactStatements[0] (line "
            "3) failed: X; nothing was sent, and its 1 queued statement was discarded");
  EXPECT_FALSE(Exists(db_, "f", 1));
  EXPECT_FALSE(connection_.in_transaction());
  // ROLLBACK forgets the mark and the queue; a new transaction starts clean.
  ASSERT_TRUE(connection_.Begin(false).ok());
  connection_.MarkFailed("x");
  EXPECT_EQ(connection_.Rollback(), 0u);
  ASSERT_TRUE(connection_.Begin(false).ok());
  EXPECT_FALSE(connection_.failure());
  EXPECT_TRUE(connection_.Commit().ok()) << "nothing queued: nothing sent";
}

TEST_F(ApiConnection, TwoStatementsOnOneItemAreNamed) {
  ASSERT_TRUE(connection_.Begin(false).ok());
  ASSERT_TRUE(
      connection_.Queue(Parsed("UPDATE \"App\" SET a = 1 WHERE pk = 'p0' AND sk = 1")).ok());
  // Queued (the planner cannot tell; the write transaction can), then refused at COMMIT with
  // the two statements named.
  ASSERT_TRUE(
      connection_.Queue(Parsed("UPDATE \"App\" SET b = 1 WHERE pk = 'p0' AND sk = 1")).ok());
  api::CommitOutcome out = connection_.Commit();
  EXPECT_EQ(out.status.message(),
            "Transaction request cannot include multiple operations on one item");
  EXPECT_EQ(out.status.hint(),
            "TransactStatements[0] and [1] both act on the item pk = 'p0', sk = 1 in App; a "
            "transaction acts on an item once: merge them (one UPDATE can SET and REMOVE several "
            "attributes)");
}

TEST_F(ApiConnection, ABatchSendsEachStatementOnItsOwn) {
  ASSERT_TRUE(connection_.Begin(true).ok());
  EXPECT_TRUE(connection_.transaction_is_batch());
  ASSERT_TRUE(connection_.Queue(Parsed("INSERT INTO \"App\" VALUE {'pk': 'b', 'sk': 1}")).ok());
  ASSERT_TRUE(connection_.Queue(Parsed("INSERT INTO \"App\" VALUE {'pk': 'p0', 'sk': 1}")).ok());
  api::CommitOutcome out = connection_.Commit();
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  EXPECT_TRUE(out.batch);
  ASSERT_TRUE(out.batch_response);
  ASSERT_EQ(out.batch_response->responses.size(), 2u);
  EXPECT_FALSE(out.batch_response->responses[0].error_code);
  EXPECT_EQ(out.batch_response->responses[1].error_code, "DuplicateItem");
  EXPECT_TRUE(Exists(db_, "b", 1));
  ASSERT_TRUE(connection_.Begin(true).ok());
  for (int i = 0; i < 26; ++i) {
    ASSERT_TRUE(
        connection_
            .Queue(Parsed(fmt::format("INSERT INTO \"App\" VALUE {{'pk': 'many', 'sk': {}}}", i)))
            .ok());
  }
  out = connection_.Commit();
  EXPECT_EQ(out.status.message(),
            "1 validation error detected: Value at 'statements' failed to satisfy constraint: "
            "Member must have length less than or equal to 25");
  EXPECT_FALSE(Exists(db_, "many", 0));
}

// ---- point reads remembered by their text's shape ----

TEST_F(ApiConnection, APointReadOfARememberedShapeSkipsParsingAndPlanning) {
  EXPECT_FALSE(connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1"));
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1").ok());
  const uint64_t parsed = parser::ParseStatementCacheHits();
  std::optional<api::StatementOutcome> out =
      connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p1' AND sk = 4");
  ASSERT_TRUE(out);
  ASSERT_TRUE(out->ok()) << out->status.ToString();
  EXPECT_EQ(parser::ParseStatementCacheHits(), parsed) << "not parsed, not even from the cache";
  ASSERT_EQ(out->result.items.size(), 1u);
  EXPECT_EQ(out->result.items[0].at("pk"), S("p1"));
  EXPECT_EQ(out->result.items[0].at("sk"), N(4));
  EXPECT_EQ(out->report.operation, "GetItem");
  EXPECT_EQ(connection_.last_plan(), out->plan.get());
  // A string of another length (numbers keep theirs: another length is another shape), in
  // either order of the WHERE, a quote inside a string.
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE sk = 2 AND pk = 'p0'").ok());
  EXPECT_FALSE(connection_.RunRemembered("SELECT * FROM \"App\" WHERE sk = 30 AND pk = 'p0'"));
  out = connection_.RunRemembered("SELECT * FROM \"App\" WHERE sk = 7 AND pk = 'it''s'");
  ASSERT_TRUE(out);
  EXPECT_TRUE(out->ok());
  EXPECT_TRUE(out->result.items.empty());
  const auto& get = std::get<GetItemRequest>(out->plan->operations[0]);
  EXPECT_EQ(get.key.at("pk"), S("it's"));
  EXPECT_EQ(get.key.at("sk"), N(7));
  // An empty key is refused as the full path refuses it.
  out = connection_.RunRemembered("SELECT * FROM \"App\" WHERE sk = 2 AND pk = ''");
  ASSERT_TRUE(out);
  api::Connection fresh(*db_);
  api::StatementOutcome full = fresh.Run(
      parser::ParseStatement("SELECT * FROM \"App\" WHERE sk = 2 AND pk = ''").statement());
  EXPECT_FALSE(full.ok());
  EXPECT_EQ(out->status.ToString(), full.status.ToString());
}

// A remembered read runs its plan in place (no copy per read) only while nothing else holds
// it: an outcome a front end kept keeps its own key, and ConsistentRead follows each run's
// options, not the run before's.
TEST_F(ApiConnection, ARememberedPlanKeptByAnOutcomeIsNotChangedUnderIt) {
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1").ok());
  std::optional<api::StatementOutcome> kept =
      connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p1' AND sk = 2");
  ASSERT_TRUE(kept && kept->ok());
  connection_.options().consistent_reads = true;
  std::optional<api::StatementOutcome> strong =
      connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p2' AND sk = 3");
  ASSERT_TRUE(strong && strong->ok());
  EXPECT_TRUE(strong->consistent);
  EXPECT_DOUBLE_EQ(strong->report.capacity, 1.0);
  const auto& kept_get = std::get<GetItemRequest>(kept->plan->operations[0]);
  EXPECT_EQ(kept_get.key.at("pk"), S("p1"));
  EXPECT_EQ(kept_get.key.at("sk"), N(2));
  EXPECT_FALSE(kept_get.consistent_read);
  strong.reset();
  kept.reset();
  connection_.options().consistent_reads = false;
  for (int i = 0; i < 3; ++i) {  // in place now: each run its own key, eventually consistent
    std::optional<api::StatementOutcome> out =
        connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p" + std::to_string(i % 2) +
                                  "' AND sk = " + std::to_string(i + 1));
    ASSERT_TRUE(out && out->ok());
    EXPECT_FALSE(out->consistent);
    EXPECT_DOUBLE_EQ(out->report.capacity, 0.5);
    ASSERT_EQ(out->result.items.size(), 1u);
    EXPECT_EQ(out->result.items[0].at("pk"), S("p" + std::to_string(i % 2)));
    EXPECT_EQ(out->result.items[0].at("sk"), N(i + 1));
  }
}

TEST_F(ApiConnection, OnlyTheKeyValuesOfARememberedReadMayDiffer) {
  ASSERT_TRUE(connection_.Run("SELECT g, a[1] FROM \"App\" WHERE pk = 'p0' AND sk = 3").ok());
  EXPECT_TRUE(connection_.RunRemembered("SELECT g, a[1] FROM \"App\" WHERE pk = 'p1' AND sk = 2"));
  // Another literal than a key value: planned anew.
  EXPECT_FALSE(connection_.RunRemembered("SELECT g, a[2] FROM \"App\" WHERE pk = 'p1' AND sk = 2"));
  // A number of another length, another kind of literal: another shape.
  EXPECT_FALSE(
      connection_.RunRemembered("SELECT g, a[1] FROM \"App\" WHERE pk = 'p1' AND sk = 20"));
  EXPECT_FALSE(
      connection_.RunRemembered("SELECT g, a[1] FROM \"App\" WHERE pk = 'p1' AND sk = 'x'"));
  // Parameters, a statement with the value twice (which literal is the key's is not known), a
  // signed number, a comment: never remembered.
  EXPECT_FALSE(connection_.RunRemembered("SELECT g, a[1] FROM \"App\" WHERE pk = ? AND sk = 2"));
  ASSERT_TRUE(connection_.Run("SELECT a[1] FROM \"App\" WHERE pk = 'p0' AND sk = 1").ok());
  EXPECT_FALSE(connection_.RunRemembered("SELECT a[1] FROM \"App\" WHERE pk = 'p0' AND sk = 2"));
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = -0").ok());
  EXPECT_FALSE(connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = -3"));
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' /* c */ AND sk = 0").ok());
  EXPECT_FALSE(
      connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p0' /* c */ AND sk = 3"));
  // A query, a write: not point reads.
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk > 0").ok());
  EXPECT_FALSE(connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p1' AND sk > 0"));
  ASSERT_TRUE(connection_.Run("DELETE FROM \"App\" WHERE pk = 'p0' AND sk = 0").ok());
  EXPECT_FALSE(connection_.RunRemembered("DELETE FROM \"App\" WHERE pk = 'p0' AND sk = 1"));
}

TEST_F(ApiConnection, ARememberedReadOfATableMadeAgainIsPlannedAnew) {
  ASSERT_TRUE(connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1").ok());
  ASSERT_TRUE(db_->DeleteTable({"App"}).ok());
  CreateTableRequest r;
  r.table_name = "App";
  r.attribute_definitions = {{"pk", "S"}};
  r.key_schema = {{"pk", "HASH"}};
  ASSERT_TRUE(db_->CreateTable(r).ok());
  EXPECT_FALSE(connection_.RunRemembered("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1"));
  api::StatementOutcome out = connection_.Run("SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1");
  ASSERT_TRUE(out.ok()) << out.status.ToString();
  EXPECT_EQ(out.plan->operation_name, "Query") << "sk is no longer a key: a filter";
}

// The remembered path against the full one (parse and plan without any cache), on random point
// reads of random shapes: the same items, the same errors.
TEST_F(ApiConnection, RememberedReadsAgreeWithPlanningAnew) {
  std::mt19937 random(43);
  const std::vector<std::string> shapes = {
      "SELECT * FROM \"App\" WHERE pk = {} AND sk = {}",
      "SELECT * FROM \"App\" WHERE sk = {1} AND pk = {0}",
      "SELECT g FROM \"App\" WHERE pk = {} AND sk = {}",
      "select \"sk\", g from \"App\" where {0} = pk and {1} = sk",
  };
  const std::vector<std::string> pks = {"'p0'", "'p1'", "'p2'", "''", "'p''0'", "'pp'", "5"};
  const std::vector<std::string> sks = {"0", "1", "4", "9", "2.0", "1e0", "'1'", "3", "00"};
  int remembered = 0;
  for (int i = 0; i < 400; ++i) {
    const std::string text = fmt::format(fmt::runtime(shapes[random() % shapes.size()]),
                                         pks[random() % pks.size()], sks[random() % sks.size()]);
    std::optional<api::StatementOutcome> fast = connection_.RunRemembered(text);
    api::StatementOutcome out = fast ? std::move(*fast) : connection_.Run(text);
    remembered += fast.has_value();
    parser::ParseResult parsed = parser::ParseStatementUncached(text);
    Status want_status;
    std::vector<Item> want_items;
    if (!parsed.ok()) {
      want_status = parsed.error().status;
    } else if (Result<planner::Plan> plan =
                   planner::PlanStatementUncached(parsed.statement(), api::BackendSchemas(*db_));
               !plan.ok()) {
      want_status = plan.status();
    } else {
      api::BackendExecutor executor(*db_);
      Result<planner::ExecuteResult> r = planner::Execute(*plan, executor);
      if (r.ok()) {
        want_items = r->items;
      } else {
        want_status = r.status();
      }
    }
    ASSERT_EQ(out.status.ToString(), want_status.ToString()) << text;
    ASSERT_EQ(out.result.items, want_items) << text;
  }
  EXPECT_GT(remembered, 100) << "the remembered path ran";
}

}  // namespace
}  // namespace keyhole
