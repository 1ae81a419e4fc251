// UpdateItem's 400 KB ceiling as most regions measure it: what the statement writes plus a cost
// per clause, besides the finished item (the Parity Suite's itemSizeBySurface.test.ts, measured
// against eu-west-2 in August and October 2026; docs/decisions.md "Where regions disagree").
#include <gtest/gtest.h>

#include <string>

#include "core/evaluate.h"
#include "core/item.h"
#include "core/schema.h"
#include "storage_test_util.h"

namespace keyhole::testing {
namespace {

const std::string kRefused = "Item size to update has exceeded the maximum allowed size";

class StorageUpdateSizeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CreateTableRequest r;
    r.table_name = "Sized";
    r.attribute_definitions = {{"pk", "S"}};
    r.key_schema = {{"pk", "HASH"}};
    ASSERT_TRUE(db_->CreateTable(r).ok());
  }
  // UpdateItem of key `pk` with `expression`, :pad a string of `pad` bytes beside `values`.
  Status Update(const std::string& pk, const std::string& expression, size_t pad,
                std::map<std::string, AttributeValue> values = {},
                std::optional<std::string> condition = std::nullopt) {
    UpdateItemRequest u;
    u.table_name = "Sized";
    u.key = {{"pk", S(pk)}};
    u.expressions.update = expression;
    u.expressions.condition = condition;
    values[":pad"] = S(std::string(pad, 'x'));
    u.expressions.values = std::move(values);
    return db_->UpdateItem(u).status();
  }
  size_t Stored(const std::string& pk) {
    GetItemRequest g;
    g.table_name = "Sized";
    g.key = {{"pk", S(pk)}};
    auto r = db_->GetItem(g);
    return r.ok() && r->item ? ItemSize(*r->item) : 0;
  }
  TempDb db_;
};

// At a 3-byte key one SET costs 22 (3 + 19): the ceiling is 409,581, under 400 KB.
TEST_F(StorageUpdateSizeTest, AShortKeyCeilingFallsBelow400Kb) {
  EXPECT_TRUE(Update("K", "SET b = :pad", 409577).ok());
  EXPECT_EQ(Stored("K"), 409581u);
  Status over = Update("L", "SET b = :pad", 409578);
  EXPECT_EQ(over.message(), kRefused);
  EXPECT_EQ(Stored("L"), 0u);
}

// A second SET costs 19 more than what it writes; an untouched attribute buys back its bytes.
TEST_F(StorageUpdateSizeTest, EachClauseAndEachUntouchedAttribute) {
  EXPECT_TRUE(Update("A", "SET b = :pad, c = :c", 409556, {{":c", S("y")}}).ok());
  EXPECT_EQ(Update("B", "SET b = :pad, c = :c", 409557, {{":c", S("y")}}).message(), kRefused);
  ASSERT_TRUE(PutOne(db_, "Sized", {{"pk", S("C")}, {"u", S(std::string(10, 'y'))}}).ok());
  ASSERT_TRUE(PutOne(db_, "Sized", {{"pk", S("D")}, {"u", S(std::string(10, 'y'))}}).ok());
  // The same SET as at a bare key: the finished item is 11 bytes larger, and still accepted.
  EXPECT_TRUE(Update("C", "SET b = :pad", 409577).ok());
  EXPECT_EQ(Stored("C"), 409592u);
  EXPECT_EQ(Update("D", "SET b = :pad", 409578).message(), kRefused);
}

// The charge is checked before the condition: a failing one still gets the size refusal.
TEST_F(StorageUpdateSizeTest, TheChargeComesBeforeTheCondition) {
  ASSERT_TRUE(PutOne(db_, "Sized", {{"pk", S("E")}, {"c", S("x")}}).ok());
  Status s = Update("E", "SET c = if_not_exists(c, :pad)", 409700, {}, "attribute_exists(nope)");
  EXPECT_EQ(s.message(), kRefused);
}

// A long key: the finished item binds, at exactly 409,600.
TEST_F(StorageUpdateSizeTest, ALongKeyCapsTheFinishedItem) {
  const std::string key(100, 'k');
  const size_t pad = kMaxItemSize - (2 + key.size()) - 1;
  EXPECT_TRUE(Update(key, "SET b = :pad", pad).ok());
  EXPECT_EQ(Stored(key), kMaxItemSize);
  EXPECT_EQ(Update(std::string(100, 'j'), "SET b = :pad", pad + 1).message(), kRefused);
}

// The old cohort sizes the finished item alone (eu-south-2, me-central-1).
TEST_F(StorageUpdateSizeTest, TheOldCohortSizesTheFinishedItem) {
  ArnScope scope("eu-south-2", "000000000000");
  EXPECT_TRUE(Update("F", "SET b = :pad", 409596).ok());
  EXPECT_EQ(Stored("F"), kMaxItemSize);
  EXPECT_EQ(Update("G", "SET b = :pad", 409597).message(), kRefused);
}

// A parsed update (PartiQL's UPDATE, AttributeUpdates) sizes the finished item only.
TEST_F(StorageUpdateSizeTest, AParsedUpdateSizesTheFinishedItem) {
  UpdateItemRequest u;
  u.table_name = "Sized";
  u.key = {{"pk", S("H")}};
  auto parsed = std::make_shared<expr::ParsedExpressions>();
  auto update = std::make_shared<expr::UpdateExpression>();
  expr::UpdateAction a;
  a.path.elements.push_back(expr::PathElement{"b", 0, false});
  a.value = expr::Operand::MakeValue(S(std::string(409596, 'x')));
  update->actions.push_back(a);
  parsed->update = update;
  u.expressions.parsed = parsed;
  ASSERT_TRUE(db_->UpdateItem(u).ok());
  EXPECT_EQ(Stored("H"), kMaxItemSize);
}

// The clause costs, as the suite's 80 probes pin them.
TEST(StorageUpdateSizeUpdateStatementCharge, ClauseCosts) {
  auto path = [](std::initializer_list<expr::PathElement> e) {
    expr::Path p;
    p.elements = e;
    return p;
  };
  auto charge = [](std::vector<expr::UpdateAction> actions, const Item* current = nullptr) {
    expr::UpdateExpression u;
    u.actions = std::move(actions);
    return expr::UpdateStatementCharge(u, current);
  };
  using K = expr::UpdateActionKind;
  const expr::PathElement d{"d", 0, false}, zero{"", 0, true}, leaf{"leaf", 0, false};
  // SET d = [pad] against SET d[0] = pad: one byte more through the index.
  List one = {S("p")};
  expr::UpdateAction whole{K::kSet, path({d}), expr::Operand::MakeValue(AttributeValue::L(one))};
  expr::UpdateAction indexed{K::kSet, path({d, zero}), expr::Operand::MakeValue(S("p"))};
  EXPECT_EQ(charge({indexed}) - charge({whole}), 1u);
  // SET d.leaf = pad costs what SET d = {leaf: pad} does.
  Map m = Map::FromUnsorted({{"leaf", S("p")}});
  expr::UpdateAction map{K::kSet, path({d}), expr::Operand::MakeValue(AttributeValue::M(m))};
  expr::UpdateAction nested{K::kSet, path({d, leaf}), expr::Operand::MakeValue(S("p"))};
  EXPECT_EQ(charge({nested}), charge({map}));
  // REMOVE r: 3 + 1 + 1; REMOVE l[10]: 3 + 1 + (1 + 4 + 2).
  EXPECT_EQ(charge({{K::kRemove, path({{"r", 0, false}}), {}}}), 5u);
  EXPECT_EQ(charge({{K::kRemove, path({{"l", 0, false}, {"", 10, true}}), {}}}), 11u);
  // SET c = abcdefghij: 3 + 19 + 1 + (1 + 14 + 10); the value read is free.
  EXPECT_EQ(charge({{K::kSet, path({{"c", 0, false}}),
                     expr::Operand::MakePath(path({{"abcdefghij", 0, false}}))}}),
            48u);
  // ADD ss :new charges only the members it adds.
  Item current = {{"ss", AttributeValue::SS({"ppppp"})}};
  expr::UpdateAction add{K::kAdd, path({{"ss", 0, false}}),
                         expr::Operand::MakeValue(AttributeValue::SS({"ppppp", "qqq"}))};
  EXPECT_EQ(charge({add}, &current), 3u + 19 + 2 + 3);
}

}  // namespace
}  // namespace keyhole::testing
