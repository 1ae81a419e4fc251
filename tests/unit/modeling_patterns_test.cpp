// Access patterns as checkable code (modeling/patterns.h): the file read (markers, rates), the
// patterns run on a Connection and each outcome checked.
#include "modeling/patterns.h"

#include <gtest/gtest.h>

#include <string>

#include "storage_test_util.h"

namespace keyhole::modeling {
namespace {

using testing::N;
using testing::S;
using testing::TempDb;

TEST(ModelingPatternsTest, ParsesMarkersRatesAndThePreamble) {
  const PatternsFile file = ParsePatterns(
      "-- the model's patterns\n"
      "-- pattern: get one\n"
      "-- rate: 1,000/s\n"
      "SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1;\n"
      "-- refused: by g\n"
      "SELECT * FROM \"App\" WHERE h = 'x';\n"
      "-- pattern: late rate\n"
      "SELECT * FROM \"App\" WHERE pk = 'p0';\n"
      "-- rate: 5/min\n"
      "-- pattern: bad rate\n"
      "-- rate: 1,5/s\n");
  EXPECT_EQ(file.preamble, "-- the model's patterns\n");
  ASSERT_EQ(file.blocks.size(), 4u);
  EXPECT_EQ(file.blocks[0].name, "get one");
  EXPECT_EQ(file.blocks[0].line, 2);
  EXPECT_EQ(file.blocks[0].rate, 1000);
  EXPECT_EQ(file.blocks[0].rate_text, "1,000/s");
  EXPECT_TRUE(file.blocks[1].expect_refusal);
  EXPECT_FALSE(file.blocks[1].rate);
  ASSERT_EQ(file.blocks[2].rate_errors.size(), 1u);
  EXPECT_EQ(file.blocks[2].rate_errors[0].first, 9);
  EXPECT_NE(file.blocks[2].rate_errors[0].second.find("follows this pattern's statement"),
            std::string::npos);
  EXPECT_FALSE(file.blocks[2].rate);
  ASSERT_EQ(file.blocks[3].rate_errors.size(), 1u);
  EXPECT_NE(file.blocks[3].rate_errors[0].second.find("cannot be read"), std::string::npos);
}

TEST(ModelingPatternsTest, TellsAPatternThatWrites) {
  EXPECT_TRUE(PatternWrites("INSERT INTO \"T\" VALUE {'pk': 'a'}"));
  EXPECT_TRUE(PatternWrites("-- a comment\nSCAN DELETE FROM \"T\""));
  EXPECT_TRUE(PatternWrites("SELECT * FROM \"T\" WHERE pk = 'a'; update \"T\" SET x = 1"));
  EXPECT_TRUE(PatternWrites(".import items.json T"));
  EXPECT_FALSE(PatternWrites("SELECT * FROM \"T\" WHERE pk = 'INSERT'"));
  EXPECT_FALSE(PatternWrites("-- INSERT\nSELECT 1"));
}

class ModelingPatternsCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::MakeAppTable(db_, "App");  // pk S, sk N, GSI byG (g S)
    for (int s = 1; s <= 3; ++s) {
      ASSERT_TRUE(testing::PutOne(db_, "App", {{"pk", S("p0")}, {"sk", N(s)}, {"g", S("x")}}).ok());
    }
  }
  PatternsCheck Check(const std::string& text, PatternCheckOptions options = {}) {
    options.source = "patterns.sql";
    return CheckPatterns(ParsePatterns(text), ConnectionRunner(connection_, recorder_), options);
  }
  TempDb db_;
  RecordingBackend recorder_{*db_};
  api::Connection connection_{recorder_};
};

TEST_F(ModelingPatternsCheckTest, KeyAddressedPatternsPassAndReportTheirOperations) {
  PatternCheckOptions options;
  options.record = true;
  PatternsCheck check = Check(
      "-- pattern: get one\n"
      "-- rate: 10/s\n"
      "SELECT * FROM \"App\" WHERE pk = 'p0' AND sk = 1;\n"
      "-- pattern: a partition\n"
      "SELECT * FROM \"App\" WHERE pk = 'p0';\n"
      "-- pattern: by g\n"
      "SELECT * FROM \"App\".\"byG\" WHERE g = 'x';\n"
      "-- refused: a filter alone\n"
      "SELECT * FROM \"App\" WHERE h = 'y';\n"
      "-- pattern: two writes at once\n"
      "BEGIN;\n"
      "INSERT INTO \"App\" VALUE {'pk': 'p1', 'sk': 1};\n"
      "UPDATE \"App\" SET g = 'y' WHERE pk = 'p0' AND sk = 2;\n"
      "COMMIT;\n",
      options);
  EXPECT_TRUE(check.ok()) << check.failures[0];
  EXPECT_EQ(check.served, 4);
  EXPECT_EQ(check.refused, 1);
  ASSERT_EQ(check.patterns.size(), 5u);
  EXPECT_EQ(check.patterns[0].operation, "GetItem");
  EXPECT_EQ(check.patterns[0].rate, 10);
  EXPECT_EQ(check.patterns[0].usage.size(), 1u);  // recorded
  EXPECT_EQ(check.patterns[1].operation, "Query");
  EXPECT_EQ(check.patterns[1].report.returned, 3);
  EXPECT_EQ(check.patterns[2].report.target, "App.byG");
  EXPECT_TRUE(check.patterns[3].refused_as_expected);
  EXPECT_EQ(check.patterns[4].operation, "TransactWriteItems");
  // Transactional writes cost twice: the insert 2 WCU on the table; the update 2 on the table
  // and 4 on byG, whose key it moves (the old entry deleted, the new one put).
  EXPECT_DOUBLE_EQ(check.patterns[4].report.capacity, 8);
}

TEST_F(ModelingPatternsCheckTest, AScanARefusalThatRunsAndAFailureFailTheCheck) {
  PatternsCheck check = Check(
      "-- pattern: everything\n"
      "SCAN SELECT * FROM \"App\";\n"
      "-- refused: not refused\n"
      "SELECT * FROM \"App\" WHERE pk = 'p0';\n"
      "-- pattern: refused\n"
      "SELECT * FROM \"App\" WHERE h = 'y';\n"
      "-- pattern: written twice\n"
      "INSERT INTO \"App\" VALUE {'pk': 'p0', 'sk': 1};\n"
      "-- pattern: open\n"
      "BEGIN;\n"
      "-- pattern: a shell command\n"
      ".tables\n");
  ASSERT_EQ(check.failures.size(), 6u);
  EXPECT_EQ(check.served, 0);
  EXPECT_EQ(check.failures[0],
            "\"everything\" (patterns.sql line 1): needs a Scan of App; an access pattern must be "
            "served by GetItem, Query or BatchGetItem");
  EXPECT_EQ(
      check.failures[1],
      "\"not refused\" (patterns.sql line 3): expected a refusal, but it ran as Query on App");
  EXPECT_EQ(check.patterns[2].operation, "refused");
  EXPECT_TRUE(
      check.failures[2].starts_with("\"refused\" (patterns.sql line 5): ValidationException: "))
      << check.failures[2];
  EXPECT_TRUE(check.failures[3].starts_with(
      "\"written twice\" (patterns.sql line 7): DuplicateItemException"))
      << check.failures[3];
  EXPECT_NE(check.failures[3].find("load the schema again"), std::string::npos);
  EXPECT_EQ(check.failures[4],
            "\"open\" (patterns.sql line 9): ValidationException: BEGIN without COMMIT in this "
            "pattern");
  EXPECT_EQ(check.failures[5],
            "\"a shell command\" (patterns.sql line 11): ValidationException: .tables is a shell "
            "command: a pattern run on a connection runs PartiQL statements");
  EXPECT_FALSE(connection_.in_transaction());
}

TEST_F(ModelingPatternsCheckTest, WritesNotAllowedAreNotRun) {
  PatternCheckOptions options;
  options.endpoint = "https://dynamodb.us-east-1.amazonaws.com";
  options.writes_allowed = false;
  PatternsCheck check = Check(
      "-- pattern: add\n"
      "INSERT INTO \"App\" VALUE {'pk': 'p9', 'sk': 1};\n"
      "-- pattern: read\n"
      "SELECT * FROM \"App\" WHERE pk = 'p9';\n",
      options);
  ASSERT_EQ(check.patterns.size(), 2u);
  EXPECT_EQ(check.patterns[0].operation, "not run");
  EXPECT_EQ(check.patterns[1].report.returned, 0);  // the insert did not happen
  ASSERT_EQ(check.failures.size(), 1u);
  EXPECT_NE(check.failures[0].find("not run: it writes, and "
                                   "https://dynamodb.us-east-1.amazonaws.com is not a file of "
                                   "your own"),
            std::string::npos);
}

TEST_F(ModelingPatternsCheckTest, AStatementBeforeTheFirstMarkerFails) {
  PatternsCheck check = Check("SELECT * FROM \"App\" WHERE pk = 'p0';\n-- pattern: x\n");
  ASSERT_EQ(check.failures.size(), 2u);
  EXPECT_EQ(check.failures[0],
            "patterns.sql: a statement before the first '-- pattern:' line; name every "
            "statement with '-- pattern: <name>'");
  EXPECT_EQ(check.failures[1], "\"x\" (patterns.sql line 2): no statement");
}

}  // namespace
}  // namespace keyhole::modeling
