// Session: scripts (statements and dot-commands), error locations, .bail, .once/.output/.read,
// NEXT and .startkey, .import/.export, and completion candidates.
#include "shell/session.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/forwarding_backend.h"
#include "storage_test_util.h"

namespace keyhole::testing {
namespace {

class ShellSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(
        Run("CREATE TABLE \"App\" (pk S, sk N) GLOBAL INDEX \"byEmail\" (email S);\n"
            "INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': 1, 'email': 'x@y'};\n"
            "INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': 2, 'color': 'red'};\n"
            "INSERT INTO \"App\" VALUE {'pk': 'a', 'sk': 3};\n"))
        << sink_.err;
    sink_.out.clear();
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  bool Run(const std::string& script, const std::string& source = "") {
    return session_.RunScript(script, source);
  }
  std::string Out() {
    std::string o = sink_.out;
    sink_.out.clear();
    return o;
  }
  std::string File(const std::string& name) { return dir_ + "/" + name; }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  TempDb db_;
  shell::StringSink sink_;
  shell::Session session_{*db_, &*db_, "test.kh", sink_};
  std::string dir_ = [] {
    char tmpl[] = "/tmp/keyhole-session-XXXXXX";
    return std::string(mkdtemp(tmpl));
  }();
};

TEST_F(ShellSessionTest, StatementsAndFooters) {
  ASSERT_TRUE(Run("SELECT sk FROM \"App\"\n  WHERE pk = 'a' AND sk = 2;"));
  EXPECT_EQ(Out(), "{\"sk\":{\"N\":\"2\"}}\n-- 1 returned, 1 read · GetItem on App · 0.5 RCU\n");
  ASSERT_TRUE(Run("UPDATE \"App\" SET n = 1 WHERE pk = 'a' AND sk = 3 RETURNING MODIFIED NEW *;"));
  EXPECT_EQ(Out(), "{\"n\":{\"N\":\"1\"}}\n-- 1 returned · UpdateItem on App · 1 WCU\n");
  ASSERT_TRUE(Run("DELETE FROM \"App\" WHERE pk = 'zz' AND sk = 3;"));
  EXPECT_EQ(Out(), "-- no item had this key, nothing deleted · DeleteItem on App · 1 WCU\n");
}

TEST_F(ShellSessionTest, DotCommandsOnlyAtTheStartOfAStatement) {
  // A line starting with '.' inside a statement is part of it (here: inside a string).
  ASSERT_TRUE(
      Run("INSERT INTO \"App\" VALUE {'pk': 'b', 'sk': 1, 'v': '\n.mode csv\n'};\n"
          "SELECT v FROM \"App\" WHERE pk = 'b' AND sk = 1;"))
      << sink_.err;
  EXPECT_EQ(Out(),
            "-- PutItem on App · 1 WCU\n{\"v\":{\"S\":\"\\n.mode csv\\n\"}}\n"
            "-- 1 returned, 1 read · GetItem on App · 0.5 RCU\n");
  EXPECT_EQ(session_.settings().mode, shell::OutputMode::kDdb);
  ASSERT_TRUE(Run("  .mode csv\n.headers off\nSELECT sk FROM \"App\" WHERE pk = 'a';"));
  EXPECT_EQ(Out(), "1\n2\n3\n-- 3 returned, 3 read · Query on App · 0.5 RCU\n");
}

TEST_F(ShellSessionTest, ErrorsNameTheScriptAndLine) {
  EXPECT_FALSE(
      Run("SELECT * FROM \"App\" WHERE pk = 'a';\n\nSELECT * FROM \"App\" WHERE n = 1;\n"
          "SELECT * FROM \"App\"\nWHERE pk = = 'a';",
          "s.sql"));
  EXPECT_NE(sink_.err.find("Error: ValidationException: keyhole refuses to scan \"App\""),
            std::string::npos);
  EXPECT_NE(sink_.err.find("  at s.sql line 3\n"), std::string::npos) << sink_.err;
  EXPECT_NE(sink_.err.find("  at s.sql line 5, column 12:\n  WHERE pk = = 'a'\n             ^\n"),
            std::string::npos)
      << sink_.err;
}

TEST_F(ShellSessionTest, BailStopsAtTheFirstFailure) {
  session_.settings().bail = true;
  EXPECT_FALSE(Run("SELECT * FROM \"Nope\" WHERE pk = 'a';\nSHOW TABLES;"));
  EXPECT_EQ(Out(), "");
  session_.settings().bail = false;
  EXPECT_FALSE(Run(".bail on\nSELECT * FROM \"Nope\" WHERE pk = 'a';\nSHOW TABLES;"));
  EXPECT_EQ(Out(), "");
  EXPECT_TRUE(session_.settings().bail);
}

TEST_F(ShellSessionTest, NextAndStartKey) {
  ASSERT_TRUE(Run(".pagesize 2\nSELECT sk FROM \"App\" WHERE pk = 'a';"));
  EXPECT_EQ(
      Out(),
      "{\"sk\":{\"N\":\"1\"}}\n{\"sk\":{\"N\":\"2\"}}\n"
      "-- 2 returned, 2 read · Query on App · 0.5 RCU\n"
      "-- more: LastEvaluatedKey {\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}} · NEXT; reads the "
      "next page\n");
  ASSERT_TRUE(Run("NEXT;"));
  EXPECT_EQ(Out(), "{\"sk\":{\"N\":\"3\"}}\n-- 1 returned, 1 read · Query on App · 0.5 RCU\n");
  EXPECT_FALSE(Run("NEXT;"));
  EXPECT_NE(sink_.err.find("no more pages"), std::string::npos);
  ASSERT_TRUE(
      Run(".pagesize 0\n.startkey {\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}\n"
          "SELECT sk FROM \"App\" WHERE pk = 'a';"));
  EXPECT_EQ(Out(),
            "{\"sk\":{\"N\":\"2\"}}\n{\"sk\":{\"N\":\"3\"}}\n"
            "-- 2 returned, 2 read · Query on App · 0.5 RCU\n");
}

TEST_F(ShellSessionTest, OnceOutputAndRead) {
  // ddb is a machine mode: the files get the data, the footers go to the notice stream.
  sink_.separate_notices = true;
  ASSERT_TRUE(Run(".once " + File("once.txt") + "\nSHOW TABLES;\nSHOW TABLES;"));
  EXPECT_EQ(Slurp(File("once.txt")), "{\"TableName\":{\"S\":\"App\"}}\n");
  EXPECT_EQ(Out(), "{\"TableName\":{\"S\":\"App\"}}\n");  // only the first went
  EXPECT_EQ(sink_.notices, "-- 1 table\n-- 1 table\n");
  ASSERT_TRUE(Run(".output " + File("all.txt") + "\nSHOW TABLES;\nSHOW TABLES;\n.output"));
  EXPECT_EQ(Out(), "");
  EXPECT_EQ(Slurp(File("all.txt")),
            "{\"TableName\":{\"S\":\"App\"}}\n{\"TableName\":{\"S\":\"App\"}}\n");
  // In a human mode the footers go with the results.
  ASSERT_TRUE(Run(".mode line\n.once " + File("line.txt") + "\nSHOW TABLES;\n.mode ddb"));
  EXPECT_EQ(Slurp(File("line.txt")), "  TableName = App\n-- 1 table\n");
  sink_.separate_notices = false;
  std::ofstream(File("inner.sql")) << "SHOW TABLES;\nSELECT * FROM \"App\" WHERE q = 1;\n";
  EXPECT_FALSE(Run(".read " + File("inner.sql")));
  EXPECT_EQ(Out(), "{\"TableName\":{\"S\":\"App\"}}\n-- 1 table\n");
  EXPECT_NE(sink_.err.find("at " + File("inner.sql") + " line 2"), std::string::npos) << sink_.err;
  std::ofstream(File("self.sql")) << ".read " << File("self.sql") << "\n";
  EXPECT_FALSE(Run(".read " + File("self.sql")));
  EXPECT_NE(sink_.err.find("nested more than 16 deep"), std::string::npos);
}

TEST_F(ShellSessionTest, ExportImportRoundTripAndFormats) {
  ASSERT_TRUE(Run(".export App TO " + File("app.json")));
  EXPECT_EQ(Out(), "-- 3 items exported to " + File("app.json") + " · 2 RCU\n");
  ASSERT_TRUE(Run("CREATE TABLE \"Copy\" (pk S, sk N);\n.import " + File("app.json") +
                  " INTO Copy\nSCAN SELECT * FROM \"Copy\";"));
  std::string out = Out();
  EXPECT_NE(out.find("-- 3 items imported into Copy · 3 WCU\n"), std::string::npos) << out;
  EXPECT_NE(out.find("-- 3 returned, 3 read · Scan on Copy"), std::string::npos) << out;
  // Plain JSON and DynamoDB JSON lines; numbers keep every digit.
  std::ofstream(File("mixed.json"))
      << "{\"pk\": \"p\", \"sk\": 1, \"big\": 12345678901234567890123456789012345678}\n\n"
      << "{\"pk\": {\"S\": \"p\"}, \"sk\": {\"N\": \"2\"}, \"s\": {\"SS\": [\"b\", \"a\"]}}\n";
  ASSERT_TRUE(Run(".import " + File("mixed.json") +
                  " INTO Copy\nSELECT * FROM \"Copy\" WHERE pk "
                  "= 'p';"))
      << sink_.err;
  EXPECT_EQ(Out(),
            "-- 2 items imported into Copy · 2 WCU\n"
            "{\"big\":{\"N\":\"12345678901234567890123456789012345678\"},\"pk\":{\"S\":\"p\"},"
            "\"sk\":{\"N\":\"1\"}}\n"
            "{\"pk\":{\"S\":\"p\"},\"s\":{\"SS\":[\"a\",\"b\"]},\"sk\":{\"N\":\"2\"}}\n"
            "-- 2 returned, 2 read · Query on Copy · 0.5 RCU\n");
  // A byte order mark starts the first line only: anywhere else it is refused as JSON.
  std::ofstream(File("bom.json")) << "\xEF\xBB\xBF{\"pk\": \"bom\", \"sk\": 1}\n";
  ASSERT_TRUE(Run(".import " + File("bom.json") + " INTO Copy")) << sink_.err;
  EXPECT_EQ(Out(), "-- 1 item imported into Copy · 1 WCU\n");
  std::ofstream(File("bom2.json")) << "{\"pk\": \"bom\", \"sk\": 2}\n\xEF\xBB\xBF{\"pk\": \"bom\", "
                                      "\"sk\": 3}\n";
  EXPECT_FALSE(Run(".import " + File("bom2.json") + " INTO Copy"));
  EXPECT_NE(sink_.err.find("bom2.json line 2: Invalid JSON: byte order mark"), std::string::npos)
      << sink_.err;
  // A bad line anywhere imports nothing.
  std::ofstream(File("bad.json")) << "{\"pk\": \"q\", \"sk\": 1}\n{\"pk\": \"q\", \"sk\": \"x\"}\n";
  EXPECT_FALSE(Run(".import " + File("bad.json") + " INTO Copy"));
  EXPECT_NE(sink_.err.find("bad.json line 2: One or more parameter values were invalid: Type "
                           "mismatch for key sk expected: N actual: S (nothing imported)"),
            std::string::npos)
      << sink_.err;
  ASSERT_TRUE(Run("SELECT * FROM \"Copy\" WHERE pk = 'q';"));
  EXPECT_EQ(Out(), "-- 0 returned, 0 read · Query on Copy · 0.5 RCU\n");
  // An item the table refuses (an index key of the wrong type, found while writing) is named
  // by its line too, past a blank line and in a later batch.
  ASSERT_TRUE(Run("CREATE TABLE \"Indexed\" (pk S) GLOBAL INDEX \"byG\" (g S);"));
  {
    std::ofstream lines(File("gsi.json"));
    for (int i = 0; i < 1500; ++i) lines << "{\"pk\": \"k" << i << "\", \"g\": \"x\"}\n";
    lines << "\n{\"pk\": \"bad\", \"g\": 5}\n";
  }
  EXPECT_FALSE(Run(".import " + File("gsi.json") + " INTO Indexed"));
  EXPECT_NE(sink_.err.find("gsi.json line 1502: One or more parameter values were invalid: Type "
                           "mismatch for Index Key g Expected: S Actual: N IndexName: byG "
                           "(nothing imported)"),
            std::string::npos)
      << sink_.err;
  ASSERT_TRUE(Run("SCAN SELECT * FROM \"Indexed\";"));
  EXPECT_NE(Out().find("-- 0 returned, 0 read"), std::string::npos);
  // An import inside BEGIN ... COMMIT would not be part of it: refused.
  EXPECT_FALSE(Run("BEGIN;\n.import " + File("mixed.json") + " INTO Copy\nROLLBACK;"));
  EXPECT_NE(sink_.err.find(".import cannot be part of a transaction"), std::string::npos)
      << sink_.err;
}

// .export replaces a regular file whole (keeping its permissions) and leaves nothing beside
// it; a symbolic link is written through, not replaced.
TEST_F(ShellSessionTest, ExportReplacesAFileWholeAndWritesThroughALink) {
  std::ofstream(File("old.json")) << "old\n";
  ASSERT_EQ(::chmod(File("old.json").c_str(), 0640), 0);
  ASSERT_TRUE(Run(".export App TO " + File("old.json")));
  struct stat st = {};
  ASSERT_EQ(::stat(File("old.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  const std::string exported = Slurp(File("old.json"));
  EXPECT_EQ(std::count(exported.begin(), exported.end(), '\n'), 3) << exported;
  ASSERT_EQ(::symlink(File("real.json").c_str(), File("link.json").c_str()), 0);
  std::ofstream(File("real.json")) << "old\n";
  ASSERT_TRUE(Run(".export App TO " + File("link.json")));
  ASSERT_EQ(::lstat(File("link.json").c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(Slurp(File("real.json")), exported);
  for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().string().find("keyhole-export"), std::string::npos) << entry.path();
  }
  EXPECT_FALSE(Run(".export App TO " + File("no/such/dir.json")));
  EXPECT_NE(sink_.err.find("cannot write"), std::string::npos) << sink_.err;
}

TEST_F(ShellSessionTest, Collection) {
  // ddb (a machine mode): whole items, as .import reads them back.
  ASSERT_TRUE(Run(".collection App a"));
  EXPECT_EQ(Out(),
            "-- item collection pk = a · 3 items · 37 bytes\n"
            "{\"email\":{\"S\":\"x@y\"},\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}\n"
            "{\"color\":{\"S\":\"red\"},\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}}\n"
            "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"3\"}}\n"
            "-- 3 returned · Query on App · 0.5 RCU\n");
  // A person sees the partition key once, in the header line.
  ASSERT_TRUE(Run(".mode line\n.collection App a\n.mode ddb"));
  EXPECT_EQ(Out(),
            "-- item collection pk = a · 3 items · 37 bytes\n"
            "  sk    = 1\n  email = x@y\n\n  sk    = 2\n  color = red\n\n  sk    = 3\n"
            "-- 3 returned · Query on App · 0.5 RCU\n");
}

TEST_F(ShellSessionTest, AlterTableAndShowCreate) {
  ASSERT_TRUE(
      Run("ALTER TABLE \"App\" ADD GLOBAL INDEX \"byColor\" (color S) PROJECTION "
          "KEYS_ONLY;\nSELECT * FROM \"App\".\"byColor\" WHERE color = 'red';"))
      << sink_.err;
  EXPECT_EQ(Out(),
            "-- index byColor added to App: 1 of 3 items indexed (the others lack a key "
            "attribute of the index, or hold one of another type: a sparse index)\n"
            "{\"color\":{\"S\":\"red\"},\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"2\"}}\n"
            "-- 1 returned, 1 read · Query on App.byColor · 0.5 RCU\n");
  ASSERT_TRUE(Run("SHOW CREATE TABLE \"App\";"));
  EXPECT_EQ(Out(),
            "CREATE TABLE \"App\" (\"pk\" S HASH, \"sk\" N RANGE)\n"
            "  GLOBAL INDEX \"byEmail\" (\"email\" S HASH)\n"
            "  GLOBAL INDEX \"byColor\" (\"color\" S HASH) PROJECTION KEYS_ONLY;\n");
  ASSERT_TRUE(Run("ALTER TABLE \"App\" DROP INDEX \"byColor\";"));
  EXPECT_EQ(Out(), "-- index byColor dropped from App\n");
  EXPECT_FALSE(Run("SELECT * FROM \"App\".\"byColor\" WHERE color = 'red';"));
}

TEST_F(ShellSessionTest, Completion) {
  using V = std::vector<std::string>;
  EXPECT_EQ(session_.Complete("SEL", "SEL"), V{"SELECT"});
  EXPECT_EQ(session_.Complete("sel", "sel"), V{"SELECT"});
  EXPECT_EQ(session_.Complete(".ta", ".ta"), V{".tables"});
  EXPECT_EQ(session_.Complete("SELECT * FROM \"A", "\"A"), V{"\"App\""});
  EXPECT_EQ(session_.Complete("SELECT * FROM \"App\".", "\"App\"."), V{"\"App\".\"byEmail\""});
  EXPECT_EQ(session_.Complete("SELECT * FROM \"App\" WHERE em", "em"), V{"email"});
  // Attributes seen in results join the key attributes.
  ASSERT_TRUE(Run("SELECT * FROM \"App\" WHERE pk = 'a';"));
  EXPECT_EQ(session_.Complete("SELECT * FROM \"App\" WHERE co", "co"), (V{"color", "contains"}));
}

TEST_F(ShellSessionTest, CompletionFitsWhereTheCursorIs) {
  using V = std::vector<std::string>;
  // Keywords that can follow the word before the cursor.
  EXPECT_EQ(session_.Complete("INSERT ", ""), V{"INTO"});
  EXPECT_EQ(session_.Complete("SELECT * FROM App ", ""), (V{"WHERE", "ORDER"}));
  EXPECT_EQ(session_.Complete("SELECT * FROM \"App\" WHERE pk = 'a' ", ""),
            (V{"AND", "OR", "ORDER", "RETURNING", "WHERE", "SET", "REMOVE"}));
  EXPECT_EQ(session_.Complete("SELECT * FROM App WHERE pk ", ""),
            (V{"BETWEEN", "IN", "IS", "NOT", "AND", "OR", "ASC", "DESC", "FROM"}));
  EXPECT_EQ(session_.Complete("UPDATE A", "A"), V{"App"});
  EXPECT_EQ(session_.Complete("S", "S"), (V{"SELECT", "SCAN", "SHOW", "Scan", "SearchVectors"}));
  // Attribute names from what the table holds (color was never shown in a result here), on the
  // statement's earlier lines too.
  EXPECT_EQ(session_.Complete("SELECT * FROM \"App\"\nWHERE col", "col"), V{"color"});
  EXPECT_EQ(session_.Complete("UPDATE \"App\" SET c", "c"), V{"color"});
  // Dot-command arguments: files, tables, switches.
  std::ofstream(File("script.sql")) << "SHOW TABLES;\n";
  ::mkdir(File("sub").c_str(), 0755);
  EXPECT_EQ(session_.Complete(".read " + File("scr"), File("scr")), V{File("script.sql")});
  EXPECT_EQ(session_.Complete(".read " + File("su"), File("su")), V{File("sub") + "/"});
  EXPECT_EQ(session_.Complete(".import " + File("s"), File("s")),
            (V{File("script.sql"), File("sub") + "/"}));
  EXPECT_EQ(session_.Complete(".import x.json INTO A", "A"), V{"App"});
  EXPECT_EQ(session_.Complete(".export A", "A"), V{"App"});
  EXPECT_EQ(session_.Complete(".model ", ""), V{"App"});
  EXPECT_EQ(session_.Complete(".timer o", "o"), (V{"on", "off"}));
  EXPECT_EQ(session_.Complete(".mode c", "c"), V{"csv"});
}

}  // namespace
}  // namespace keyhole::testing

namespace keyhole::testing {
namespace {

TEST_F(ShellSessionTest, PatternsReportOneRowPerPattern) {
  session_.settings().mode = shell::OutputMode::kCsv;
  const char* patterns =
      "-- App's patterns\n"
      ".pagesize 0\n"
      "-- pattern: one item\n"
      "SELECT * FROM \"App\" WHERE pk = 'a' AND sk = 1;\n"
      "-- pattern: a collection\n"
      "-- (a comment between the marker and the statement)\n"
      "SELECT * FROM \"App\" WHERE pk = 'a';\n"
      "-- pattern: by email\n"
      "SELECT * FROM \"App\".\"byEmail\" WHERE email = 'x@y';\n"
      "-- pattern: two partitions\n"
      "SELECT * FROM \"App\" WHERE pk IN ['a', 'b'];\n"
      "-- pattern: a transaction\n"
      "BEGIN;\n"
      "INSERT INTO \"App\" VALUE {'pk': 'c', 'sk': 1};\n"
      "INSERT INTO \"App\" VALUE {'pk': 'c', 'sk': 2};\n"
      "COMMIT;\n"
      "-- pattern: an API call\n"
      "GetItem {\"TableName\": \"App\", \"Key\": {\"pk\": {\"S\": \"a\"}, \"sk\": {\"N\": "
      "\"2\"}}};\n"
      "-- refused: by color\n"
      "SELECT * FROM \"App\" WHERE color = 'red';\n";
  ASSERT_TRUE(session_.RunPatterns(patterns, "p.sql")) << sink_.err;
  EXPECT_EQ(Out(),
            "pattern,operation,on,read,returned,capacity,more,unit\n"
            "one item,GetItem,App,1,1,0.5,false,RCU\n"
            "a collection,Query,App,3,3,0.5,false,RCU\n"
            "by email,Query,App.byEmail,1,1,0.5,false,RCU\n"
            "two partitions,Query ×2,App,3,3,1,false,RCU\n"
            "a transaction,TransactWriteItems,App,0,0,4,false,WCU\n"
            "an API call,GetItem,App,1,1,0.5,false,RCU\n"
            "by color,refused,-,,,,,\n"
            "-- refused as expected: by color\n"
            "--   ValidationException: keyhole refuses to scan \"App\": the WHERE does not pin the "
            "partition key pk with = or IN. Add pk = <value>, or write SCAN SELECT ... to read the "
            "whole table.\n"
            "-- 7 patterns: 6 key-addressed, 1 refused as expected\n");
  EXPECT_EQ(sink_.err, "");
  // The transaction wrote.
  ASSERT_TRUE(Run("SELECT * FROM \"App\" WHERE pk = 'c';"));
  EXPECT_NE(Out().find("-- 2 returned"), std::string::npos);
}

// A pattern runs on a connection of its own: the session's NEXT continues the session's SELECT,
// its open transaction neither takes the pattern's statements nor is discarded by them, and a
// setting the pattern changed holds afterwards.
TEST_F(ShellSessionTest, PatternsRunOnAConnectionOfTheirOwn) {
  ASSERT_TRUE(Run(".pagesize 2\nSELECT sk FROM \"App\" WHERE pk = 'a';"));
  Out();
  ASSERT_TRUE(Run("BEGIN;\nINSERT INTO \"App\" VALUE {'pk': 'c', 'sk': 1};"));
  EXPECT_FALSE(session_.RunPatterns(
      "-- pattern: another collection\n.pagesize 1\nSELECT sk FROM \"App\" WHERE pk = 'a';\n"
      "NEXT;\n.pagesize 5\n"
      "-- pattern: an open transaction\nBEGIN;\nINSERT INTO \"App\" VALUE {'pk': 'd', 'sk': "
      "1};\n",
      "p.sql"));
  EXPECT_NE(sink_.err.find("\"an open transaction\" (p.sql line 6): ValidationException: BEGIN "
                           "without COMMIT in this pattern"),
            std::string::npos)
      << sink_.err;
  EXPECT_EQ(sink_.err.find("another collection"), std::string::npos) << sink_.err;
  Out();
  sink_.err.clear();
  ASSERT_TRUE(Run("COMMIT;")) << sink_.err;
  EXPECT_NE(Out().find("TransactWriteItems"), std::string::npos);
  ASSERT_TRUE(Run("NEXT;")) << sink_.err;
  EXPECT_EQ(Out(), "{\"sk\":{\"N\":\"3\"}}\n-- 1 returned, 1 read · Query on App · 0.5 RCU\n");
  ASSERT_TRUE(Run("SELECT pk FROM \"App\" WHERE pk IN ['c', 'd'];"));
  const std::string out = Out();
  EXPECT_NE(out.find("\"c\""), std::string::npos) << out;
  EXPECT_EQ(out.find("\"d\""), std::string::npos) << out;  // the pattern's BEGIN was discarded
  EXPECT_EQ(session_.settings().pagesize, 5);
}

TEST_F(ShellSessionTest, PatternsFailOnScansRefusalsErrorsAndUnrefusedStatements) {
  session_.settings().mode = shell::OutputMode::kCsv;
  EXPECT_FALSE(
      session_.RunPatterns("-- pattern: everything\nSCAN SELECT * FROM \"App\";\n", "p.sql"));
  EXPECT_NE(
      sink_.err.find("pattern check failed: \"everything\" (p.sql line 1): needs a Scan of App"),
      std::string::npos)
      << sink_.err;
  sink_.err.clear();
  EXPECT_FALSE(session_.RunPatterns("-- pattern: red\nSELECT * FROM \"App\" WHERE color = 'red';\n",
                                    "p.sql"));
  EXPECT_NE(sink_.err.find("\"red\" (p.sql line 1): ValidationException: keyhole refuses"),
            std::string::npos)
      << sink_.err;
  sink_.err.clear();
  EXPECT_FALSE(
      session_.RunPatterns("-- refused: one\nSELECT * FROM \"App\" WHERE pk = 'a';\n", ""));
  EXPECT_NE(sink_.err.find("\"one\" (line 1): expected a refusal, but it ran as Query on App"),
            std::string::npos)
      << sink_.err;
  sink_.err.clear();
  EXPECT_FALSE(session_.RunPatterns("-- pattern: missing\nSELECT * FROM \"Nope\" WHERE pk = 'a';\n",
                                    "p.sql"));
  EXPECT_NE(sink_.err.find("ResourceNotFoundException"), std::string::npos) << sink_.err;
  sink_.err.clear();
  EXPECT_FALSE(
      session_.RunPatterns("SELECT * FROM \"App\" WHERE pk = 'a';\n-- pattern: x\n", "p.sql"));
  EXPECT_NE(sink_.err.find("a statement before the first '-- pattern:' line"), std::string::npos)
      << sink_.err;
  sink_.err.clear();
  EXPECT_FALSE(session_.RunPatterns(
      "-- pattern: open\nBEGIN;\nSELECT * FROM \"App\" WHERE pk = 'a' AND sk = 1;\n", "p.sql"));
  EXPECT_NE(sink_.err.find("BEGIN without COMMIT"), std::string::npos) << sink_.err;
  // Nothing of the patterns' own output leaked, and the session still works.
  Out();
  ASSERT_TRUE(Run("SELECT * FROM \"App\" WHERE pk = 'a' AND sk = 1;"));
  EXPECT_NE(Out().find("GetItem on App"), std::string::npos);
}

TEST_F(ShellSessionTest, QuietSumsUpWhatRan) {
  // .quiet drops footers and notices, not results.
  ASSERT_TRUE(
      Run(".quiet on\nINSERT INTO \"App\" VALUE {'pk': 'q', 'sk': 1};\n"
          "SELECT * FROM \"App\" WHERE pk = 'q';\n.quiet off\n"));
  EXPECT_EQ(Out(),
            "{\"pk\":{\"S\":\"q\"},\"sk\":{\"N\":\"1\"}}\n"
            "-- 2 statements ran quietly · 0.5 RCU · 1 WCU\n");
  // The summary counts the statements that failed.
  EXPECT_FALSE(Run(".quiet on\nINSERT INTO \"App\" VALUE {'pk': 'q', 'sk': 1};\n.quiet off\n"));
  EXPECT_EQ(Out(), "-- 1 statement ran quietly, 1 failed\n");
  EXPECT_NE(sink_.err.find("Error: DuplicateItemException"), std::string::npos) << sink_.err;
}

TEST_F(ShellSessionTest, QuietSetByAScriptEndsWithIt) {
  std::ofstream(File("quiet.sql")) << ".quiet on\nINSERT INTO \"App\" VALUE {'pk': 'r', 'sk': 1};\n"
                                      "SELECT * FROM \"App\" WHERE nope = 1;\n"
                                      "INSERT INTO \"App\" VALUE {'pk': 'r', 'sk': 2};\n";
  // The script stops under .bail with .quiet still on: it ends with the script anyway.
  EXPECT_FALSE(Run(".bail on\n.read " + File("quiet.sql") + "\n"));
  EXPECT_EQ(Out(), "-- 2 statements ran quietly, 1 failed · 1 WCU\n");
  ASSERT_TRUE(Run(".bail off\nSELECT sk FROM \"App\" WHERE pk = 'r';"));
  EXPECT_EQ(Out(), "{\"sk\":{\"N\":\"1\"}}\n-- 1 returned, 1 read · Query on App · 0.5 RCU\n");
  // A .quiet on before the script is the caller's: it stays on.
  ASSERT_TRUE(Run(".quiet on\n"));
  std::ofstream(File("plain.sql")) << "INSERT INTO \"App\" VALUE {'pk': 'r', 'sk': 3};\n";
  ASSERT_TRUE(
      Run(".read " + File("plain.sql") + "\nINSERT INTO \"App\" VALUE {'pk': 'r', 'sk': 4};"));
  EXPECT_EQ(Out(), "");
  ASSERT_TRUE(Run(".quiet off"));
  EXPECT_EQ(Out(), "-- 2 statements ran quietly · 2 WCU\n");
}

// A sink that presses Ctrl-C (Session::Interrupt) when it has seen `after` footers.
class InterruptingSink : public shell::StringSink {
 public:
  explicit InterruptingSink(int after) : after_(after) {}
  void Notice(std::string_view text) override {
    shell::StringSink::Notice(text);
    if (text.find(" returned") != std::string_view::npos && ++seen_ == after_) {
      shell::Session::Interrupt();
    }
  }

 private:
  int after_, seen_ = 0;
};

TEST_F(ShellSessionTest, CtrlCStopsAReadWithOneLine) {
  InterruptingSink sink(3);
  shell::Session session(*db_, &*db_, "test.kh", sink);
  {
    std::ofstream script(File("long.sql"));
    for (int i = 0; i < 100; ++i) script << "SELECT sk FROM \"App\" WHERE pk = 'a' AND sk = 1;\n";
  }
  shell::Session::ClearInterrupt();
  EXPECT_FALSE(
      session.RunScript(".read " + File("long.sql") + "\nSELECT * FROM \"App\" WHERE pk = 'a';"));
  EXPECT_TRUE(session.interrupted());
  // One line: where it stopped and how many statements ran; the rest (and the statement after
  // the .read) did not run.
  EXPECT_EQ(sink.err, "interrupted at " + File("long.sql") + " line 4; 3 statements ran\n");
  EXPECT_EQ(std::count(sink.out.begin(), sink.out.end(), '\n'), 6) << sink.out;
  shell::Session::ClearInterrupt();
  // A new input after the interrupt was cleared runs normally.
  ASSERT_TRUE(session.RunScript("SELECT sk FROM \"App\" WHERE pk = 'a' AND sk = 2;"));
  EXPECT_FALSE(session.interrupted());
}

TEST_F(ShellSessionTest, TimerTimesDotCommandsThatDoWorkAndEveryStatement) {
  std::ofstream(File("t.sql")) << "SHOW TABLES;\n";
  std::ofstream(File("t.json")) << "{\"pk\": \"t\", \"sk\": 1}\n";
  ASSERT_TRUE(Run(".timer on\nSHOW TABLES;\n.read " + File("t.sql") + "\n.model App\n.import " +
                  File("t.json") +
                  " INTO App\n"
                  "CREATE TABLE \"Timed\" (pk S);\nDESCRIBE \"Timed\";\n.mode ddb\n.timer off"));
  std::string out = Out();
  EXPECT_NE(out.find("-- 1 table · "), std::string::npos) << out;  // SHOW TABLES' footer
  EXPECT_NE(out.find("-- .read · "), std::string::npos) << out;
  EXPECT_NE(out.find("-- .model · "), std::string::npos) << out;
  EXPECT_NE(out.find("-- 1 item imported into App · 1 WCU\n-- .import · "), std::string::npos)
      << out;
  EXPECT_NE(out.find("-- table Timed created\n-- "), std::string::npos) << out;
  EXPECT_EQ(out.find("-- .mode · "), std::string::npos) << out;  // a setting does no work
}

// A sink that presses Ctrl-C when results have printed `after` lines (results still print
// under .quiet, footers do not).
class InterruptingOutSink : public shell::StringSink {
 public:
  explicit InterruptingOutSink(int after) : after_(after) {}
  void Out(std::string_view text) override {
    shell::StringSink::Out(text);
    if (++seen_ == after_) shell::Session::Interrupt();
  }

 private:
  int after_, seen_ = 0;
};

// Ctrl-C between two statements of a script that began with .quiet on: "M statements ran" and
// "M statements ran quietly" count the same statements (a dot-command is not a statement).
TEST_F(ShellSessionTest, CtrlCBetweenStatementsCountsAgreeWithTheQuietSummary) {
  InterruptingOutSink sink(3);
  shell::Session session(*db_, &*db_, "test.kh", sink);
  std::string script = ".quiet on\n";
  for (int i = 0; i < 10; ++i) script += "SELECT sk FROM \"App\" WHERE pk = 'a' AND sk = 1;\n";
  shell::Session::ClearInterrupt();
  EXPECT_FALSE(session.RunFile(script, "stdin"));
  EXPECT_EQ(sink.err, "interrupted at stdin line 5; 3 statements ran\n");
  EXPECT_EQ(sink.out.substr(sink.out.find("--")), "-- 3 statements ran quietly · 1.5 RCU\n");
  shell::Session::ClearInterrupt();
}

// Forwards every operation to a Database; presses Ctrl-C once `after` UpdateItems were done.
class InterruptingBackend : public ForwardingBackend {
 public:
  InterruptingBackend(Backend& db, int after) : ForwardingBackend(db), after_(after) {}
  Result<UpdateItemResponse> UpdateItem(const UpdateItemRequest& r) override {
    auto out = inner_.UpdateItem(r);
    if (++updated_ == after_) shell::Session::Interrupt();
    return out;
  }

 private:
  int after_, updated_ = 0;
};

// Ctrl-C part way through a SCAN UPDATE: the error says how many items it had changed (those
// stay changed), the script stops there, and the stopped statement is not counted as run.
TEST_F(ShellSessionTest, AnInterruptedScanUpdateSaysHowManyItemsItHadChanged) {
  InterruptingBackend backend(*db_, 2);
  shell::StringSink sink;
  shell::Session session(backend, &*db_, "test.kh", sink);
  shell::Session::ClearInterrupt();
  EXPECT_FALSE(session.RunFile(
      ".quiet on\nSELECT sk FROM \"App\" WHERE pk = 'a' AND sk = 1;\n"
      "SCAN UPDATE \"App\" SET tag = 'x' WHERE sk > 0;\nSELECT * FROM \"App\" WHERE pk = 'a';\n",
      "s.sql"));
  EXPECT_TRUE(session.interrupted());
  EXPECT_EQ(sink.err,
            "Error: InterruptedException: Interrupted (2 of the 3 matching items had been "
            "updated)\n  at s.sql line 3\ninterrupted at s.sql line 3; 1 statement ran\n");
  EXPECT_EQ(sink.out, "{\"sk\":{\"N\":\"1\"}}\n-- 1 statement ran quietly · 0.5 RCU\n");
  shell::Session::ClearInterrupt();
  ASSERT_TRUE(Run(".mode csv\n.headers off\nSELECT tag FROM \"App\" WHERE pk = 'a';\n.mode ddb"));
  EXPECT_EQ(Out(), "x\nx\n\n-- 3 returned, 3 read · Query on App · 0.5 RCU\n");
}

TEST_F(ShellSessionTest, HelpSaysJsonModeIsJsonLines) {
  ASSERT_TRUE(Run(".help"));
  EXPECT_NE(Out().find("json is JSON Lines (one object per line)"), std::string::npos);
}

// A statement refused inside BEGIN ... COMMIT is not queued and fails the transaction: its
// COMMIT writes nothing and names the statement, as DynamoDB refuses a whole ExecuteTransaction.
TEST_F(ShellSessionTest, ARefusalInsideATransactionFailsIt) {
  EXPECT_FALSE(
      Run("BEGIN;\nINSERT INTO \"App\" VALUE {'pk': 't', 'sk': 1};\n"
          "SELECT * FROM \"App\" WHERE pk = 'a' AND sk = 1;\n",
          "tx.sql"));
  EXPECT_NE(sink_.err.find("Error: ValidationException: a transaction (ExecuteTransaction) "
                           "takes all reads (SELECT) or all writes"),
            std::string::npos)
      << sink_.err;
  EXPECT_NE(sink_.err.find("  at tx.sql line 3\n  hint: this statement was not queued, and the "
                           "transaction is marked failed: its COMMIT; will write nothing of the "
                           "1 queued statement (ROLLBACK; ends it)\n"),
            std::string::npos)
      << sink_.err;
  EXPECT_TRUE(session_.in_transaction());
  sink_.err.clear();
  EXPECT_FALSE(Run("COMMIT;", "tx.sql"));
  EXPECT_NE(sink_.err.find("Error: ValidationException: the transaction was not committed: the "
                           "statement after TransactStatements[0] (tx.sql line 3) failed: "
                           "ValidationException: a transaction (ExecuteTransaction) takes all "
                           "reads"),
            std::string::npos)
      << sink_.err;
  EXPECT_NE(sink_.err.find("nothing was sent, and its 1 queued statement was discarded"),
            std::string::npos)
      << sink_.err;
  EXPECT_FALSE(session_.in_transaction());
  Out();
  ASSERT_TRUE(Run("SELECT * FROM \"App\" WHERE pk = 't' AND sk = 1;"));
  EXPECT_NE(Out().find("-- 0 returned"), std::string::npos);
  // ROLLBACK clears the failure: the next transaction commits.
  sink_.err.clear();
  EXPECT_FALSE(Run("BEGIN;\nSELECT * FROM \"Nope\" WHERE pk = 'a' AND sk = 1;\n", "tx.sql"));
  EXPECT_NE(sink_.err.find("  hint: this statement was not queued, and the transaction is marked "
                           "failed: its COMMIT; will write nothing (ROLLBACK; ends it)\n"),
            std::string::npos)
      << sink_.err;
  ASSERT_TRUE(Run("ROLLBACK;"));
  ASSERT_TRUE(Run("BEGIN;\nINSERT INTO \"App\" VALUE {'pk': 't', 'sk': 1};\nCOMMIT;\n"));
  EXPECT_NE(Out().find("-- committed 1 statement"), std::string::npos);
}

// A syntax error, and a statement past ExecuteTransaction's 100, fail a script's transaction as
// a refusal does: the COMMIT that follows writes none of the others.
TEST_F(ShellSessionTest, AScriptTransactionIsAllOrNothing) {
  EXPECT_FALSE(session_.RunFile(
      "BEGIN;\nINSERT INTO \"App\" VALUE {'pk': 's', 'sk': 1};\nINSERT INTO \"App\" VALU "
      "{'pk': 's', 'sk': 2};\nINSERT INTO \"App\" VALUE {'pk': 's', 'sk': 3};\nCOMMIT;\n",
      "syntax.sql"));
  EXPECT_NE(sink_.err.find("the transaction was not committed: the statement after "
                           "TransactStatements[0] (syntax.sql line 3) failed: "),
            std::string::npos)
      << sink_.err;
  std::string script = "BEGIN;\n";
  for (int i = 0; i < 101; ++i) {
    script += fmt::format("INSERT INTO \"App\" VALUE {{'pk': 'many', 'sk': {}}};\n", i);
  }
  script += "COMMIT;\n";
  sink_.err.clear();
  EXPECT_FALSE(session_.RunFile(script, "many.sql"));
  EXPECT_NE(sink_.err.find("the transaction was not committed: the statement after "
                           "TransactStatements[99] (many.sql line 102) failed: "),
            std::string::npos)
      << sink_.err;
  EXPECT_NE(sink_.err.find("its 100 queued statements were discarded"), std::string::npos)
      << sink_.err;
  Out();
  ASSERT_TRUE(Run("SELECT * FROM \"App\" WHERE pk = 's';"));
  EXPECT_NE(Out().find("-- 0 returned"), std::string::npos);
  ASSERT_TRUE(Run("SELECT * FROM \"App\" WHERE pk = 'many';"));
  EXPECT_NE(Out().find("-- 0 returned"), std::string::npos);
  // An API call would be sent at once, outside the transaction: refused, and the transaction
  // fails with it.
  sink_.err.clear();
  EXPECT_FALSE(session_.RunFile(
      "BEGIN;\nPutItem {\"TableName\": \"App\", \"Item\": {\"pk\": {\"S\": \"api\"}, "
      "\"sk\": {\"N\": \"1\"}}};\nCOMMIT;\n",
      "api.sql"));
  EXPECT_NE(sink_.err.find("PutItem cannot run inside a transaction"), std::string::npos)
      << sink_.err;
  Out();
  ASSERT_TRUE(Run("SELECT * FROM \"App\" WHERE pk = 'api';"));
  EXPECT_NE(Out().find("-- 0 returned"), std::string::npos);
}

// At the prompt the failure is the same, and the statement entered again, fixed, takes its
// place: the transaction can then commit.
TEST_F(ShellSessionTest, AtThePromptAFixedStatementReplacesTheFailedOne) {
  session_.SetAsk([](const std::string&) { return std::optional<std::string>("no"); });
  ASSERT_TRUE(Run("BEGIN;"));
  ASSERT_TRUE(Run("INSERT INTO \"App\" VALUE {'pk': 'p', 'sk': 1};"));
  EXPECT_FALSE(Run("INSERT INTO \"App\" VALU {'pk': 'p', 'sk': 2};"));
  EXPECT_NE(sink_.err.find("  hint: this statement was not queued, and the transaction is marked "
                           "failed: COMMIT; would write nothing. Enter the statement again, "
                           "fixed, to queue it in its place, or ROLLBACK; to discard the 1 "
                           "queued statement\n"),
            std::string::npos)
      << sink_.err;
  Out();
  ASSERT_TRUE(Run("INSERT INTO \"App\" VALUE {'pk': 'p', 'sk': 2};"));
  EXPECT_NE(Out().find("-- queued as TransactStatements[1] in place of the failed statement"),
            std::string::npos);
  ASSERT_TRUE(Run("COMMIT;"));
  EXPECT_NE(Out().find("-- committed 2 statements"), std::string::npos);
  session_.SetAsk(nullptr);
}

// A string left open in a script makes later quotes pair up wrong: the error points at the
// string that swallowed a line's end, not at a later one.
TEST_F(ShellSessionTest, AnUnterminatedStringInAScriptIsShownWhereItBegan) {
  EXPECT_FALSE(
      session_.RunFile("INSERT INTO \"App\" VALUE {'pk': 'n', 'sk': 1};\n"
                       "INSERT INTO \"App\" VALUE {'pk': 'n', 'sk': 2, 'note': 'it};\n"
                       "INSERT INTO \"App\" VALUE {'pk': 'n', 'sk': 3, 'note': 'fine'};\n"
                       "INSERT INTO \"App\" VALUE {'pk': 'n', 'sk': 4, 'note': 'ok'};\n",
                       "notes.sql"));
  EXPECT_NE(sink_.err.find("  at notes.sql line 2, column 54:\n"
                           "  INSERT INTO \"App\" VALUE {'pk': 'n', 'sk': 2, 'note': 'it};\n"
                           "                                                       ^\n"
                           "  hint: the string opened at the caret ('it};) goes on past the end of "
                           "its line, taking the ; there with it: its closing ' is probably "
                           "missing, and the quotes after it pair up wrong\n"),
            std::string::npos)
      << sink_.err;
}

TEST_F(ShellSessionTest, BoxCellsAreCutToMaxWidth) {
  std::string big(400 * 1024, 'x');
  ASSERT_TRUE(
      Run("PutItem {\"TableName\": \"App\", \"Item\": {\"pk\": {\"S\": \"big\"}, "
          "\"sk\": {\"N\": \"1\"}, \"body\": {\"S\": \"" +
          std::string(300 * 1024, 'x') + "\"}}};"))
      << sink_.err;
  Out();
  ASSERT_TRUE(Run(".mode box\nSELECT body FROM \"App\" WHERE pk = 'big' AND sk = 1;"));
  std::string out = Out();
  EXPECT_LT(out.size(), 2000u);
  EXPECT_NE(out.find(std::string(79, 'x') + "…"), std::string::npos) << out;
  ASSERT_TRUE(Run(".maxwidth 10\nSELECT body FROM \"App\" WHERE pk = 'big' AND sk = 1;"));
  EXPECT_NE(Out().find("│ " + std::string(9, 'x') + "… │"), std::string::npos);
  ASSERT_TRUE(Run(".maxwidth 0\n.mode ddb"));
}

}  // namespace
}  // namespace keyhole::testing
