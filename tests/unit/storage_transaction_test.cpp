// TransactWriteItems and TransactGetItems (reference §3.10, §5): all-or-nothing across tables,
// CancellationReasons per action, up-front validation, no two actions on one item, 2x capacity,
// ClientRequestToken idempotency.
#include <gtest/gtest.h>

#include <regex>

#include "core/item.h"
#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

bool RegexMatch(const std::string& text, const char* pattern) {
  return std::regex_match(text, std::regex(pattern));
}

using testing::N;
using testing::S;
using testing::TempDb;
using Values = std::map<std::string, AttributeValue>;

using testing::Key;
using testing::PutOne;
void MakeTables(TempDb& db) { testing::MakeTables(db, "Users"); }

Item UKey(const std::string& pk) { return {{"pk", S(pk)}}; }

TransactWriteItem Put(const std::string& table, Item item, std::string condition = "") {
  TransactWriteItem t;
  t.put.emplace();
  t.put->table_name = table;
  t.put->item = std::move(item);
  if (!condition.empty()) t.put->expressions.condition = std::move(condition);
  return t;
}
TransactWriteItem Update(const std::string& table, Item key, std::string update,
                         Values values = {}) {
  TransactWriteItem t;
  t.update.emplace();
  t.update->table_name = table;
  t.update->key = std::move(key);
  t.update->expressions.update = std::move(update);
  if (!values.empty()) t.update->expressions.values = std::move(values);
  return t;
}
TransactWriteItem Delete(const std::string& table, Item key) {
  TransactWriteItem t;
  t.delete_.emplace();
  t.delete_->table_name = table;
  t.delete_->key = std::move(key);
  return t;
}
TransactWriteItem Check(const std::string& table, Item key, std::string condition,
                        Values values = {}) {
  TransactWriteItem t;
  t.condition_check.emplace();
  t.condition_check->table_name = table;
  t.condition_check->key = std::move(key);
  t.condition_check->expressions.condition = std::move(condition);
  if (!values.empty()) t.condition_check->expressions.values = std::move(values);
  return t;
}

TransactWriteItemsRequest Txn(std::vector<TransactWriteItem> items) {
  TransactWriteItemsRequest r;
  r.transact_items = std::move(items);
  return r;
}

std::optional<Item> Get(TempDb& db, const std::string& table, Item key) {
  GetItemRequest g;
  g.table_name = table;
  g.key = std::move(key);
  auto r = db->GetItem(g);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->item : std::nullopt;
}

std::vector<Item> ByG(TempDb& db, const std::string& g) {
  QueryRequest q;
  q.table_name = "App";
  q.index_name = "byG";
  q.key_condition.partition_name = "g";
  q.key_condition.partition_value = S(g);
  auto r = db->Query(q);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r->items).ToVector() : std::vector<Item>{};
}

std::vector<std::string> Codes(const Status& s) {
  std::vector<std::string> out;
  if (!s.cancellation_reasons()) return out;
  for (const auto& r : *s.cancellation_reasons()) out.push_back(r.code);
  return out;
}

TEST(StorageTransactionTransactWriteItems, AllActionsAcrossTables) {
  TempDb db;
  MakeTables(db);
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("a")}, {"sk", N(1)}, {"n", N(1)}}).ok());
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("a")}, {"sk", N(2)}, {"g", S("old")}}).ok());
  ASSERT_TRUE(PutOne(db, "Users", {{"pk", S("u1")}, {"active", AttributeValue::Bool(true)}}).ok());
  auto r = db->TransactWriteItems(Txn({
      Put("App", {{"pk", S("a")}, {"sk", N(3)}, {"g", S("new")}}, "attribute_not_exists(pk)"),
      Update("App", Key("a", 1), "SET n = n + :one", {{":one", N(1)}}),
      Delete("App", Key("a", 2)),
      Check("Users", UKey("u1"), "active = :t", {{":t", AttributeValue::Bool(true)}}),
  }));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->consumed_capacity.empty());
  EXPECT_EQ(Get(db, "App", Key("a", 3))->at("g"), S("new"));
  EXPECT_EQ(Get(db, "App", Key("a", 1))->at("n"), N(2));
  EXPECT_FALSE(Get(db, "App", Key("a", 2)).has_value());
  EXPECT_EQ(ByG(db, "new").size(), 1u);
  EXPECT_TRUE(ByG(db, "old").empty());
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageTransactionTransactWriteItems, FailureOnTheSeventhActionWritesNothing) {
  TempDb db;
  MakeTables(db);
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("taken")}, {"sk", N(7)}, {"g", S("before")}}).ok());
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("upd")}, {"sk", N(1)}, {"g", S("before")}}).ok());
  std::vector<TransactWriteItem> items;
  for (int i = 1; i <= 5; ++i) {
    items.push_back(Put("App", {{"pk", S("p")}, {"sk", N(i)}, {"g", S("fresh")}}));
  }
  items.push_back(Update("App", Key("upd", 1), "SET g = :g", {{":g", S("after")}}));
  // The 7th: a Put whose condition fails on the existing item.
  items.push_back(Put("App", {{"pk", S("taken")}, {"sk", N(7)}, {"g", S("fresh")}},
                      "attribute_not_exists(pk)"));
  items.push_back(Put("Users", {{"pk", S("u9")}}));
  items.push_back(Delete("App", Key("taken", 7)));
  auto r = db->TransactWriteItems(Txn(std::move(items)));
  // Delete on the 7th's item too: that is two operations on one item, refused first.
  EXPECT_EQ(r.status().ToString(),
            "ValidationException: Transaction request cannot include multiple operations on one "
            "item");

  items.clear();
  for (int i = 1; i <= 5; ++i) {
    items.push_back(Put("App", {{"pk", S("p")}, {"sk", N(i)}, {"g", S("fresh")}}));
  }
  items.push_back(Update("App", Key("upd", 1), "SET g = :g", {{":g", S("after")}}));
  items.push_back(Put("App", {{"pk", S("taken")}, {"sk", N(7)}, {"g", S("fresh")}},
                      "attribute_not_exists(pk)"));
  items.push_back(Put("Users", {{"pk", S("u9")}}));
  r = db->TransactWriteItems(Txn(std::move(items)));
  ASSERT_FALSE(r.ok());
  const Status& s = r.status();
  EXPECT_EQ(s.code(), ErrorCode::kTransactionCanceled);
  EXPECT_EQ(s.name(), "TransactionCanceledException");
  EXPECT_EQ(s.message(),
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
            "None, None, None, None, None, ConditionalCheckFailed, None]");
  ASSERT_NE(s.cancellation_reasons(), nullptr);
  const auto& reasons = *s.cancellation_reasons();
  ASSERT_EQ(reasons.size(), 8u);
  EXPECT_EQ(reasons[0].code, "None");
  EXPECT_EQ(reasons[0].message, "");
  EXPECT_EQ(reasons[6].code, "ConditionalCheckFailed");
  EXPECT_EQ(reasons[6].message, "The conditional request failed");
  EXPECT_EQ(reasons[6].item, nullptr);  // ReturnValuesOnConditionCheckFailure NONE
  // Nothing written, indexes untouched.
  for (int i = 1; i <= 5; ++i) EXPECT_FALSE(Get(db, "App", Key("p", i)).has_value());
  EXPECT_EQ(Get(db, "App", Key("upd", 1))->at("g"), S("before"));
  EXPECT_FALSE(Get(db, "Users", UKey("u9")).has_value());
  EXPECT_TRUE(ByG(db, "fresh").empty());
  EXPECT_TRUE(ByG(db, "after").empty());
  EXPECT_EQ(ByG(db, "before").size(), 2u);
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageTransactionTransactWriteItems, UniquenessGuard) {
  TempDb db;
  MakeTables(db);
  auto signup = [&](const std::string& user, const std::string& email) {
    return db->TransactWriteItems(Txn({
        Put("Users", {{"pk", S("USER#" + user)}, {"email", S(email)}}, "attribute_not_exists(pk)"),
        Put("Users", {{"pk", S("EMAIL#" + email)}, {"user", S(user)}}, "attribute_not_exists(pk)"),
    }));
  };
  ASSERT_TRUE(signup("ann", "a@x.io").ok());
  auto again = signup("bob", "a@x.io");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(),
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
            "ConditionalCheckFailed]");
  EXPECT_FALSE(Get(db, "Users", UKey("USER#bob")).has_value());
  EXPECT_EQ(Get(db, "Users", UKey("EMAIL#a@x.io"))->at("user"), S("ann"));
  auto both = signup("ann", "a@x.io");
  EXPECT_EQ(Codes(both.status()),
            (std::vector<std::string>{"ConditionalCheckFailed", "ConditionalCheckFailed"}));
  ASSERT_TRUE(signup("bob", "b@x.io").ok());
}

TEST(StorageTransactionTransactWriteItems, ReturnValuesOnConditionCheckFailure) {
  TempDb db;
  MakeTables(db);
  ASSERT_TRUE(PutOne(db, "Users", {{"pk", S("u1")}, {"v", N(1)}}).ok());
  TransactWriteItem check = Check("Users", UKey("u1"), "v = :two", {{":two", N(2)}});
  check.condition_check->return_values_on_condition_check_failure = ReturnValues::kAllOld;
  TransactWriteItem missing = Update("Users", UKey("nobody"), "SET v = :one", {{":one", N(1)}});
  missing.update->expressions.condition = "attribute_exists(pk)";
  missing.update->return_values_on_condition_check_failure = ReturnValues::kAllOld;
  auto r = db->TransactWriteItems(Txn({check, missing}));
  ASSERT_FALSE(r.ok());
  ASSERT_NE(r.status().cancellation_reasons(), nullptr);
  const auto& reasons = *r.status().cancellation_reasons();
  ASSERT_NE(reasons[0].item, nullptr);
  EXPECT_EQ(*reasons[0].item, (Item{{"pk", S("u1")}, {"v", N(1)}}));
  EXPECT_EQ(reasons[1].code, "ConditionalCheckFailed");
  EXPECT_EQ(reasons[1].item, nullptr);  // no item to return
  TransactWriteItem bad = Check("Users", UKey("u1"), "attribute_exists(pk)");
  bad.condition_check->return_values_on_condition_check_failure = ReturnValues::kAllNew;
  EXPECT_TRUE(db->TransactWriteItems(Txn({bad})).status().IsValidation());
}

TEST(StorageTransactionTransactWriteItems, ItemDependentValidationErrorsCancel) {
  TempDb db;
  MakeTables(db);
  ASSERT_TRUE(PutOne(db, "Users", {{"pk", S("u1")}, {"label", S("x")}}).ok());
  auto r = db->TransactWriteItems(Txn({
      Put("Users", {{"pk", S("u2")}}),
      Update("Users", UKey("u1"), "SET n = nothere + :one", {{":one", N(1)}}),
      Update("Users", UKey("u3"), "ADD label :one", {{":one", N(1)}}),
  }));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None, "
            "ValidationError, None]");
  ASSERT_NE(r.status().cancellation_reasons(), nullptr);
  const auto& reasons = *r.status().cancellation_reasons();
  EXPECT_EQ(reasons[1].message,
            "The provided expression refers to an attribute that does not exist in the item");
  EXPECT_FALSE(Get(db, "Users", UKey("u2")).has_value());
  // The first ValidationError stops the evaluation: the actions after it are None.
  ASSERT_TRUE(PutOne(db, "Users", {{"pk", S("u5")}}).ok());
  r = db->TransactWriteItems(Txn({
      Update("Users", UKey("u1"), "ADD label :one", {{":one", N(1)}}),
      Check("Users", UKey("u5"), "attribute_not_exists(pk)"),
  }));
  ASSERT_NE(r.status().cancellation_reasons(), nullptr);
  EXPECT_EQ((*r.status().cancellation_reasons())[0].message,
            "An operand in the update expression has an incorrect data type");
  EXPECT_EQ(Codes(r.status()), (std::vector<std::string>{"ValidationError", "None"}));
  // A failed condition before it is reported with it.
  r = db->TransactWriteItems(Txn({
      Check("Users", UKey("u5"), "attribute_not_exists(pk)"),
      Update("Users", UKey("u1"), "ADD label :one", {{":one", N(1)}}),
  }));
  EXPECT_EQ(Codes(r.status()),
            (std::vector<std::string>{"ConditionalCheckFailed", "ValidationError"}));
}

TEST(StorageTransactionTransactWriteItems, RequestErrorsAreNotCancellations) {
  TempDb db;
  MakeTables(db);
  auto err = [&](std::vector<TransactWriteItem> items) {
    return db->TransactWriteItems(Txn(std::move(items))).status().ToString();
  };
  // What the table's schema refuses in one action (a key that does not match, a missing key
  // attribute, an update of a key attribute) cancels the transaction with reason ValidationError,
  // as DynamoDB does; the reason carries the message.
  auto reason = [&](std::vector<TransactWriteItem> items) {
    Status s = db->TransactWriteItems(Txn(std::move(items))).status();
    std::string out = s.ToString();
    if (const auto& reasons = s.cancellation_reasons()) {
      for (const auto& r : *reasons) out += " | " + r.code + ": " + r.message;
    }
    return out;
  };
  EXPECT_EQ(reason({Delete("App", UKey("a"))}),
            "TransactionCanceledException: Transaction cancelled, please refer cancellation "
            "reasons for specific reasons [ValidationError] | ValidationError: The provided key "
            "element does not match the schema");
  EXPECT_EQ(reason({Put("Users", {{"pk", S("ok")}}), Put("App", {{"pk", S("a")}})}),
            "TransactionCanceledException: Transaction cancelled, please refer cancellation "
            "reasons for specific reasons [None, ValidationError] | None:  | ValidationError: One "
            "or more parameter values were invalid: Missing the key sk in the item");
  EXPECT_EQ(Get(db, "Users", UKey("ok")), std::nullopt);  // nothing written
  EXPECT_EQ(err({Put("Users", {{"pk", S("ok")}}), Delete("Missing", UKey("a"))}),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(err({Put("Users", {{"pk", S("ok")}}, "attribute_not_exists(")}).substr(0, 53),
            "ValidationException: Invalid ConditionExpression: Syn");
  EXPECT_EQ(err({Update("App", Key("a", 1), "SET sk = :v", {{":v", N(1)}})}).substr(0, 29),
            "TransactionCanceledException:");
  EXPECT_EQ(
      err({}),
      "ValidationException: 1 validation error detected: Value '[]' at 'transactItems' failed "
      "to satisfy constraint: Member must have length greater than or equal to 1");
  std::vector<TransactWriteItem> many;
  for (int i = 0; i < 101; ++i) many.push_back(Put("Users", {{"pk", S(std::to_string(i))}}));
  EXPECT_PRED2(RegexMatch, err(many),
               ("ValidationException: 1 validation error detected: Value "
                "'\\[(com\\.amazonaws\\.dynamodb\\.v20120810\\.TransactWriteItem@[0-9a-f]{8}(, "
                ")?){101}\\]' at "
                "'transactItems' failed to satisfy constraint: Member must have length less "
                "than or equal to 100"));
  many.pop_back();
  ASSERT_TRUE(db->TransactWriteItems(Txn(many)).ok());  // 100 is fine
  TransactWriteItem none;
  EXPECT_EQ(err({none}),
            "ValidationException: Invalid Request: TransactWriteRequest should contain Delete or "
            "Put or Update request");
  EXPECT_EQ(err({Check("Users", UKey("0"), "attribute_exists(pk)"), Put("Users", UKey("0"))}),
            "ValidationException: Transaction request cannot include multiple operations on one "
            "item");
  // 4 MB of items: refused up-front.
  std::vector<TransactWriteItem> big;
  for (int i = 0; i < 11; ++i) {
    big.push_back(
        Put("Users", {{"pk", S("big" + std::to_string(i))}, {"d", S(std::string(400000, 'x'))}}));
  }
  // 11 items of 400,000 + 1 ("d") + 2 ("pk") bytes and their keys, "big0" to "big10".
  EXPECT_EQ(err(big),
            "ValidationException: Transaction payload size cannot exceed 4MB. Payload Size: " +
                std::to_string(11 * (400000 + 1 + 2) + 10 * 4 + 5));
  EXPECT_FALSE(Get(db, "Users", UKey("ok")).has_value());
  EXPECT_FALSE(Get(db, "Users", UKey("big0")).has_value());
}

TEST(StorageTransactionTransactWriteItems, CapacityIsDouble) {
  TempDb db;
  MakeTables(db);
  // Reference §5.2: three 500-byte items cost 6 WCU.
  std::vector<TransactWriteItem> items;
  for (int i = 0; i < 3; ++i) {
    Item item{{"pk", S("u" + std::to_string(i))}, {"d", S("")}};
    item["d"] = S(std::string(500 - ItemSize(item), 'x'));
    ASSERT_EQ(ItemSize(item), 500u);
    items.push_back(Put("Users", item));
  }
  items.push_back(Put("App", {{"pk", S("a")}, {"sk", N(1)}, {"g", S("x")}}));
  items.push_back(Check("App", Key("none", 1), "attribute_not_exists(pk)"));
  TransactWriteItemsRequest r = Txn(items);
  r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  auto resp = db->TransactWriteItems(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->consumed_capacity.size(), 2u);
  const ConsumedCapacity& app = resp->consumed_capacity[0];
  EXPECT_EQ(app.table_name, "App");
  EXPECT_EQ(app.table.write_units, 4);  // the put (1) and the check (1), doubled
  EXPECT_EQ(app.global_indexes.at("byG").write_units, 2);
  EXPECT_EQ(app.total.write_units, 6);
  EXPECT_EQ(resp->consumed_capacity[1].table_name, "Users");
  EXPECT_EQ(resp->consumed_capacity[1].total.write_units, 6);
  EXPECT_EQ(resp->consumed_capacity[1].total.capacity_units, 6);
}

TEST(StorageTransactionTransactWriteItems, ClientRequestTokenIdempotency) {
  double now = 1'700'000'000;
  TempDb db([&] { return now; });
  MakeTables(db);
  TransactWriteItemsRequest r = Txn({Update("Users", UKey("c"), "ADD n :one", {{":one", N(1)}})});
  r.client_request_token = "token-1";
  ASSERT_TRUE(db->TransactWriteItems(r).ok());
  EXPECT_EQ(Get(db, "Users", UKey("c"))->at("n"), N(1));
  // The same request again: success, nothing written, read units reported.
  now += 599;
  r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto replay = db->TransactWriteItems(r);
  ASSERT_TRUE(replay.ok()) << replay.status().ToString();
  EXPECT_EQ(Get(db, "Users", UKey("c"))->at("n"), N(1));
  ASSERT_EQ(replay->consumed_capacity.size(), 1u);
  EXPECT_EQ(replay->consumed_capacity[0].total.read_units, 1);
  EXPECT_EQ(replay->consumed_capacity[0].total.write_units, 0);
  // Another request with the token.
  TransactWriteItemsRequest other =
      Txn({Update("Users", UKey("c"), "ADD n :two", {{":two", N(2)}})});
  other.client_request_token = "token-1";
  Status s = db->TransactWriteItems(other).status();
  EXPECT_EQ(s.code(), ErrorCode::kIdempotentParameterMismatch);
  EXPECT_EQ(s.name(), "IdempotentParameterMismatchException");
  EXPECT_EQ(Get(db, "Users", UKey("c"))->at("n"), N(1));
  // Expressions given as ASTs (as PartiQL's ExecuteTransaction builds them): two requests with
  // equal ASTs are the same request.
  auto parsed_request = [&] {
    TransactWriteItemsRequest t = Txn({Update("Users", UKey("d"), "ADD n :one", {{":one", N(1)}})});
    expr::ExpressionInput& in = t.transact_items[0].update->expressions;
    in.parsed = std::make_shared<expr::ParsedExpressions>(testing::Parser().Parse(in).value());
    in.update.reset();
    in.values.reset();
    t.client_request_token = "token-ast";
    return t;
  };
  ASSERT_TRUE(db->TransactWriteItems(parsed_request()).ok());
  ASSERT_TRUE(db->TransactWriteItems(parsed_request()).ok());
  EXPECT_EQ(Get(db, "Users", UKey("d"))->at("n"), N(1));
  // A failed request does not take the token.
  TransactWriteItemsRequest failing = Txn({Check("Users", UKey("c"), "attribute_not_exists(pk)")});
  failing.client_request_token = "token-2";
  EXPECT_EQ(db->TransactWriteItems(failing).status().code(), ErrorCode::kTransactionCanceled);
  other.client_request_token = "token-2";
  ASSERT_TRUE(db->TransactWriteItems(other).ok());
  EXPECT_EQ(Get(db, "Users", UKey("c"))->at("n"), N(3));
  // After 10 minutes the token is forgotten: the request runs again.
  now += 602;
  ASSERT_TRUE(db->TransactWriteItems(r).ok());
  EXPECT_EQ(Get(db, "Users", UKey("c"))->at("n"), N(4));
  r.client_request_token = std::string(37, 't');
  EXPECT_TRUE(db->TransactWriteItems(r).status().IsValidation());
}

// ---- TransactGetItems ----

TransactGetItemsRequest Gets(std::vector<std::pair<std::string, Item>> keys) {
  TransactGetItemsRequest r;
  for (auto& [table, key] : keys) {
    TransactGetItem t;
    t.get.table_name = table;
    t.get.key = std::move(key);
    r.transact_items.push_back(std::move(t));
  }
  return r;
}

TEST(StorageTransactionTransactGetItems, ReadsInOrderAcrossTables) {
  TempDb db;
  MakeTables(db);
  ASSERT_TRUE(PutOne(db, "App", {{"pk", S("a")}, {"sk", N(1)}, {"v", S("x")}}).ok());
  ASSERT_TRUE(PutOne(db, "Users", {{"pk", S("u")}, {"name", S("ann")}, {"age", N(3)}}).ok());
  TransactGetItemsRequest r =
      Gets({{"Users", UKey("u")}, {"App", Key("none", 1)}, {"App", Key("a", 1)}});
  r.transact_items[0].get.expressions.projection = "age";
  r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  auto resp = db->TransactGetItems(r);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ASSERT_EQ(resp->responses.size(), 3u);
  EXPECT_EQ(resp->responses[0], (Item{{"age", N(3)}}));
  EXPECT_FALSE(resp->responses[1].has_value());
  EXPECT_EQ(resp->responses[2]->at("v"), S("x"));
  // 2 RCU per 4 KB, each item on its own (a missing item costs the minimum).
  ASSERT_EQ(resp->consumed_capacity.size(), 2u);
  EXPECT_EQ(resp->consumed_capacity[0].table_name, "App");
  EXPECT_EQ(resp->consumed_capacity[0].total.read_units, 4);
  EXPECT_EQ(resp->consumed_capacity[1].total.read_units, 2);
}

TEST(StorageTransactionTransactGetItems, Rules) {
  TempDb db;
  MakeTables(db);
  auto err = [&](const TransactGetItemsRequest& r) {
    return db->TransactGetItems(r).status().ToString();
  };
  EXPECT_EQ(err(Gets({{"Users", UKey("u")}, {"Users", UKey("u")}})),
            "ValidationException: Transaction request cannot include multiple operations on one "
            "item");
  EXPECT_EQ(err(Gets({{"Users", Key("u", 1)}})),
            "TransactionCanceledException: Transaction cancelled, please refer cancellation "
            "reasons for specific reasons [ValidationError]");
  EXPECT_EQ(err(Gets({{"Nope", UKey("u")}})),
            "ResourceNotFoundException: Requested resource not found");
  EXPECT_EQ(
      err(Gets({})),
      "ValidationException: 1 validation error detected: Value '[]' at 'transactItems' failed "
      "to satisfy constraint: Member must have length greater than or equal to 1");
  std::vector<std::pair<std::string, Item>> keys;
  for (int i = 0; i < 101; ++i) keys.emplace_back("Users", UKey(std::to_string(i)));
  EXPECT_PRED2(RegexMatch, err(Gets(keys)),
               ("ValidationException: 1 validation error detected: Value "
                "'\\[(com\\.amazonaws\\.dynamodb\\.v20120810\\.TransactGetItem@[0-9a-f]{8}(, "
                ")?){101}\\]' at "
                "'transactItems' failed to satisfy constraint: Member must have length less "
                "than or equal to 100"));
  keys.pop_back();
  EXPECT_TRUE(db->TransactGetItems(Gets(keys)).ok());
}

TEST(StorageTransactionTransactGetItems, MoreThanFourMegabytesCancels) {
  TempDb db;
  MakeTables(db);
  std::vector<std::pair<std::string, Item>> keys;
  for (int i = 0; i < 11; ++i) {
    std::string pk = "big" + std::to_string(i);
    ASSERT_TRUE(PutOne(db, "Users", {{"pk", S(pk)}, {"d", S(std::string(400000, 'x'))}}).ok());
    keys.emplace_back("Users", UKey(pk));
  }
  auto r = db->TransactGetItems(Gets(keys));
  ASSERT_EQ(r.status().code(), ErrorCode::kTransactionCanceled);
  std::vector<std::string> codes(11, "None");
  codes[10] = "ValidationError";  // the 11th passes 4 MB
  EXPECT_EQ(Codes(r.status()), codes);
  keys.pop_back();
  EXPECT_TRUE(db->TransactGetItems(Gets(keys)).ok());
}

}  // namespace
}  // namespace keyhole::storage
