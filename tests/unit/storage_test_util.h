// Helpers for storage tests: a database in a fresh temporary directory, and terse values.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "parser/expression_parser.h"
#include "storage/database.h"

namespace keyhole::testing {

// The native expression parser the shell gives the engine.
inline const parser::NativeExpressionParser& Parser() {
  static const parser::NativeExpressionParser p;
  return p;
}

// A database file in its own temporary directory, removed at destruction.
class TempDb {
 public:
  // `clock`: the Database's clock (epoch seconds); the system clock when empty.
  explicit TempDb(std::function<double()> clock = {}) : clock_(std::move(clock)) {
    char tmpl[] = "/tmp/keyhole-test-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    path_ = dir_ + "/test.kh";
    Reopen();
  }
  ~TempDb() {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Reopen() {
    db_.reset();
    storage::Database::Options o;
    o.sync = false;  // a process crash loses nothing; tests need no fsync
    o.expression_parser = &Parser();
    o.clock = clock_;
    if (collection_limit_) o.item_collection_limit_bytes = collection_limit_;
    auto r = storage::Database::Open(path_, o);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) db_ = std::move(r).value();
  }
  storage::Database* operator->() { return db_.get(); }
  storage::Database& operator*() { return *db_; }
  const std::string& path() const { return path_; }
  const std::string& dir() const { return dir_; }
  // Reopens with Options::item_collection_limit_bytes set to `bytes`.
  void SetCollectionLimit(uint64_t bytes) {
    collection_limit_ = bytes;
    Reopen();
  }

 private:
  std::function<double()> clock_;
  uint64_t collection_limit_ = 0;
  std::string dir_, path_;
  std::unique_ptr<storage::Database> db_;
};

inline AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
inline AttributeValue N(std::string_view text) {
  return AttributeValue::N(Number::Parse(text).value());
}
inline AttributeValue N(int64_t v) { return AttributeValue::N(Number::FromInt(v)); }
inline AttributeValue B(std::string s) { return AttributeValue::B(std::move(s)); }

// A table shaped as "App": pk S, sk N, and GSI "byG" (g S) projecting ALL.
inline void MakeAppTable(TempDb& db, const std::string& name) {
  CreateTableRequest r;
  r.table_name = name;
  r.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}};
  r.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  r.global_secondary_indexes = {{"byG", {{"g", "HASH"}}, "ALL", std::nullopt}};
  ASSERT_TRUE(db->CreateTable(r).ok());
}

// The batch and transaction tests' tables: "App" (MakeAppTable) and `second` (pk S).
inline void MakeTables(TempDb& db, const std::string& second) {
  MakeAppTable(db, "App");
  CreateTableRequest o;
  o.table_name = second;
  o.attribute_definitions = {{"pk", "S"}};
  o.key_schema = {{"pk", "HASH"}};
  ASSERT_TRUE(db->CreateTable(o).ok());
}

// PutItem of `item` into `table`.
inline Status PutOne(TempDb& db, const std::string& table, Item item) {
  PutItemRequest p;
  p.table_name = table;
  p.item = std::move(item);
  return db->PutItem(p).status();
}

// An "App" key.
inline Item Key(const std::string& pk, int64_t sk) { return {{"pk", S(pk)}, {"sk", N(sk)}}; }

}  // namespace keyhole::testing
