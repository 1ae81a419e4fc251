// Two processes running conflicting TransactWriteItems on one file: transfers between shared
// accounts and races for the same unique emails. The result must equal some serial order: no
// lost update, no overdraft, every email claimed once, and no index disagreeing with its table.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "storage_process_util.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using forktest::AwaitStart;
using forktest::DescribeStatus;
using forktest::ForkChild;
using forktest::Pipe;
using forktest::TempDir;
using forktest::WaitChild;
using testing::N;
using testing::S;

constexpr int kAccounts = 5;
constexpr int kTransfers = 400;
constexpr int kEmails = 40;
constexpr int64_t kStart = 100;

Database::Options Opts() {
  Database::Options o;
  o.initial_map_size = 256 << 10;  // small: the processes grow the map under each other
  o.sync = false;
  o.expression_parser = &testing::Parser();
  return o;
}

std::string Account(int i) { return "ACCT#" + std::to_string(i); }

TransactWriteItem Update(const std::string& pk, const std::string& expr, int64_t amount,
                         const std::string& condition = "") {
  TransactWriteItem t;
  t.update.emplace();
  t.update->table_name = "Bank";
  t.update->key = {{"pk", S(pk)}};
  t.update->expressions.update = expr;
  t.update->expressions.values = std::map<std::string, AttributeValue>{{":a", N(amount)}};
  if (!condition.empty()) t.update->expressions.condition = condition;
  return t;
}

TransactWriteItem Put(Item item, bool unique) {
  TransactWriteItem t;
  t.put.emplace();
  t.put->table_name = "Bank";
  t.put->item = std::move(item);
  if (unique) t.put->expressions.condition = "attribute_not_exists(pk)";
  return t;
}

// One writer: transfers between pseudo-random accounts (each logged by an item in the GSI),
// then claims every email for itself with a uniqueness guard.
int Writer(const std::string& path, int w, Pipe* go) {
  AwaitStart(go);
  auto db = Database::Open(path, Opts());
  if (!db.ok()) return 2;
  uint32_t seed = 12345u + static_cast<uint32_t>(w);
  for (int i = 0; i < kTransfers; ++i) {
    seed = seed * 1103515245u + 12345u;
    int from = static_cast<int>((seed >> 8) % kAccounts);
    int to = (from + 1 + static_cast<int>((seed >> 16) % (kAccounts - 1))) % kAccounts;
    int64_t amount = 1 + static_cast<int64_t>((seed >> 4) % 30);
    TransactWriteItemsRequest r;
    r.transact_items = {
        Update(Account(from), "SET bal = bal - :a", amount, "bal >= :a"),
        Update(Account(to), "SET bal = bal + :a", amount),
        Put({{"pk", S("LOG#" + std::to_string(w) + "#" + std::to_string(i))},
             {"kind", S("log")},
             {"from", N(from)},
             {"to", N(to)},
             {"amount", N(amount)}},
            false),
    };
    auto resp = (*db)->TransactWriteItems(r);
    if (!resp.ok() && resp.status().code() != ErrorCode::kTransactionCanceled) return 3;
  }
  for (int k = 0; k < kEmails; ++k) {
    std::string email = "EMAIL#" + std::to_string(k);
    std::string user = "USER#" + std::to_string(w) + "#" + std::to_string(k);
    TransactWriteItemsRequest r;
    r.transact_items = {Put({{"pk", S(user)}, {"email", S(email)}}, true),
                        Put({{"pk", S(email)}, {"user", S(user)}}, true)};
    auto resp = (*db)->TransactWriteItems(r);
    if (!resp.ok() && resp.status().code() != ErrorCode::kTransactionCanceled) return 4;
  }
  return 0;
}

TEST(StorageTransactionProcessTransactionProcesses, ConflictingTransactionsSerialize) {
  TempDir dir("txn");
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/bank.kh";
  {
    auto db = Database::Open(path, Opts());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    CreateTableRequest c;
    c.table_name = "Bank";
    c.attribute_definitions = {{"pk", "S"}, {"kind", "S"}};
    c.key_schema = {{"pk", "HASH"}};
    c.global_secondary_indexes = {{"byKind", {{"kind", "HASH"}}, "ALL", std::nullopt}};
    ASSERT_TRUE((*db)->CreateTable(c).ok());
    for (int i = 0; i < kAccounts; ++i) {
      PutItemRequest p;
      p.table_name = "Bank";
      p.item = {{"pk", S(Account(i))}, {"bal", N(kStart)}};
      ASSERT_TRUE((*db)->PutItem(p).ok());
    }
  }
  Pipe go;
  ASSERT_TRUE(go.ok());
  pid_t pids[2];
  for (int w = 0; w < 2; ++w) {
    pids[w] = ForkChild([&] { return Writer(path, w, &go); });
    ASSERT_GT(pids[w], 0);
  }
  go.CloseWrite();
  go.CloseRead();
  for (pid_t pid : pids) {
    int status = WaitChild(pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << DescribeStatus(status);
  }
  if (HasFailure()) return;

  auto db = Database::Open(path, Opts());
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  Status v = (*db)->VerifyIntegrity();
  EXPECT_TRUE(v.ok()) << v.ToString();
  std::map<std::string, Item> all;
  ScanRequest s;
  s.table_name = "Bank";
  for (;;) {
    auto page = (*db)->Scan(s);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    for (Item& item : page->items) {
      std::string pk = item.at("pk").s();
      all.emplace(pk, std::move(item));
    }
    if (!page->last_evaluated_key) break;
    s.exclusive_start_key = page->last_evaluated_key;
  }
  // Balances equal the initial ones replayed through the committed transfers' logs.
  std::map<int64_t, int64_t> expected;
  for (int i = 0; i < kAccounts; ++i) expected[i] = kStart;
  size_t logs = 0;
  for (const auto& [pk, item] : all) {
    if (!pk.starts_with("LOG#")) continue;
    ++logs;
    int64_t from = 0, to = 0, amount = 0;
    item.at("from").n().ToInt64(&from);
    item.at("to").n().ToInt64(&to);
    item.at("amount").n().ToInt64(&amount);
    expected[from] -= amount;
    expected[to] += amount;
  }
  EXPECT_GT(logs, 0u);
  for (int i = 0; i < kAccounts; ++i) {
    int64_t bal = -1;
    all.at(Account(i)).at("bal").n().ToInt64(&bal);
    EXPECT_EQ(bal, expected[i]) << Account(i);
    EXPECT_GE(bal, 0) << Account(i);
  }
  QueryRequest q;
  q.table_name = "Bank";
  q.index_name = "byKind";
  q.key_condition.partition_name = "kind";
  q.key_condition.partition_value = S("log");
  size_t indexed = 0;
  for (;;) {
    auto page = (*db)->Query(q);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    indexed += page->items.size();
    if (!page->last_evaluated_key) break;
    q.exclusive_start_key = page->last_evaluated_key;
  }
  EXPECT_EQ(indexed, logs);
  // Every email claimed exactly once, by a user item that names it.
  for (int k = 0; k < kEmails; ++k) {
    std::string email = "EMAIL#" + std::to_string(k);
    ASSERT_EQ(all.count(email), 1u) << email;
    const std::string& user = all.at(email).at("user").s();
    ASSERT_EQ(all.count(user), 1u) << user;
    EXPECT_EQ(all.at(user).at("email").s(), email);
    std::string other = "USER#" + std::string(user[5] == '0' ? "1" : "0") + "#" + std::to_string(k);
    EXPECT_EQ(all.count(other), 0u) << other;
  }
}

}  // namespace
}  // namespace keyhole::storage
