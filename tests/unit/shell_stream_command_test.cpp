// .stream (shell/stream_command.cpp): the latest N records or those after a sequence number, one
// compact JSON record per line, then the footer; usage and missing-stream errors.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "shell/session_state.h"
#include "storage/database.h"

namespace keyhole::shell {
namespace {

class CaptureSink : public Sink {
 public:
  void Out(std::string_view text) override { out += text; }
  void Notice(std::string_view text) override { out += text; }
  void Err(std::string_view text) override { err += text; }
  std::string out, err;
};

class ShellStreamCommandTest : public ::testing::Test {
 protected:
  ShellStreamCommandTest() {
    char tmpl[] = "/tmp/keyhole-stream-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    storage::Database::Options o;
    o.sync = false;
    o.clock = [] { return 1795385600.5; };
    db_ = std::move(storage::Database::Open(dir_ + "/t.kh", o)).value();
    state_ =
        std::make_unique<Session::State>(*db_, db_.get(), dir_ + "/t.kh", sink_, settings_, quit_);
    CreateTableRequest r;
    r.table_name = "App";
    r.attribute_definitions = {{"pk", "S"}};
    r.key_schema = {{"pk", "HASH"}};
    r.stream_specification = StreamSpecification{true, "KEYS_ONLY"};
    EXPECT_TRUE(db_->CreateTable(r).ok());
    r.table_name = "NoStream";
    r.stream_specification.reset();
    EXPECT_TRUE(db_->CreateTable(r).ok());
    for (int i = 0; i < 12; ++i) {
      PutItemRequest p;
      p.table_name = "App";
      p.item = {{"pk", AttributeValue::S("k" + std::to_string(i))}};
      EXPECT_TRUE(db_->PutItem(p).ok());
    }
  }
  ~ShellStreamCommandTest() override {
    state_.reset();
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  bool Run(std::vector<std::string> args) { return RunStreamCommand(*state_, args, Location{}); }

  std::string dir_;
  std::unique_ptr<storage::Database> db_;
  CaptureSink sink_;
  Settings settings_;
  bool quit_ = false;
  std::unique_ptr<Session::State> state_;
};

size_t Lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST_F(ShellStreamCommandTest, LatestN) {
  ASSERT_TRUE(Run({"App"}));
  EXPECT_EQ(Lines(sink_.out), 11u);  // 10 records and the footer
  EXPECT_NE(sink_.out.find("-- 10 records · stream 2026-11-22T22:13:20.500\n"), std::string::npos)
      << sink_.out;
  EXPECT_EQ(sink_.out.find(R"({"eventID":)"), 0u);
  EXPECT_NE(sink_.out.find(R"("Keys":{"pk":{"S":"k11"}})"), std::string::npos);
  EXPECT_EQ(sink_.out.find(R"("Keys":{"pk":{"S":"k1"}})"),
            std::string::npos);  // not among the last 10
  sink_.out.clear();
  ASSERT_TRUE(Run({"App", "1"}));
  EXPECT_EQ(Lines(sink_.out), 2u);
  EXPECT_NE(sink_.out.find("-- 1 record · stream"), std::string::npos) << sink_.out;
}

TEST_F(ShellStreamCommandTest, From) {
  ASSERT_TRUE(Run({"App", "FROM", "000000000000000000010"}));
  EXPECT_EQ(Lines(sink_.out), 3u) << sink_.out;  // records 11 and 12
  EXPECT_NE(sink_.out.find(R"("SequenceNumber":"000000000000000000011")"), std::string::npos);
  EXPECT_NE(sink_.out.find("-- 2 records"), std::string::npos);
}

TEST_F(ShellStreamCommandTest, Errors) {
  EXPECT_FALSE(Run({}));
  EXPECT_FALSE(Run({"App", "zero"}));
  EXPECT_FALSE(Run({"App", "AFTER", "1"}));
  EXPECT_FALSE(Run({"NoStream"}));
  EXPECT_NE(sink_.err.find("Table NoStream has no stream"), std::string::npos) << sink_.err;
  EXPECT_FALSE(Run({"Missing"}));
  EXPECT_NE(sink_.err.find("ResourceNotFoundException"), std::string::npos) << sink_.err;
}

}  // namespace
}  // namespace keyhole::shell
