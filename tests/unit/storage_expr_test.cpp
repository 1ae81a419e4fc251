// Expressions wired into the engine: conditional writes, UpdateItem, projections, key
// conditions and filters, through the real parser (parser/expression_parser.h).
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace keyhole::storage {
namespace {

using testing::N;
using testing::S;
using testing::TempDb;

// pk S, sk N; GSI "byG" (g S) ALL.
void MakeTable(TempDb& db) {
  CreateTableRequest r;
  r.table_name = "App";
  r.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"g", "S"}};
  r.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  r.global_secondary_indexes = {{"byG", {{"g", "HASH"}}, "ALL", std::nullopt}};
  ASSERT_TRUE(db->CreateTable(r).ok());
}

Item Key(const std::string& pk, int64_t sk) { return {{"pk", S(pk)}, {"sk", N(sk)}}; }

UpdateItemRequest Update(Item key, std::string update,
                         std::map<std::string, AttributeValue> values = {}) {
  UpdateItemRequest u;
  u.table_name = "App";
  u.key = std::move(key);
  u.expressions.update = std::move(update);
  if (!values.empty()) u.expressions.values = std::move(values);
  return u;
}

std::optional<Item> Get(TempDb& db, Item key) {
  GetItemRequest g;
  g.table_name = "App";
  g.key = std::move(key);
  auto r = db->GetItem(g);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r->item : std::nullopt;
}

TEST(StorageExprConditionalWrites, PutIfNotExistsAndReturnOldOnFailure) {
  TempDb db;
  MakeTable(db);
  PutItemRequest p;
  p.table_name = "App";
  p.item = {{"pk", S("a")}, {"sk", N(1)}, {"v", S("first")}};
  p.expressions.condition = "attribute_not_exists(pk)";
  ASSERT_TRUE(db->PutItem(p).ok());
  p.item["v"] = S("second");
  p.return_values_on_condition_check_failure = ReturnValues::kAllOld;
  auto r = db->PutItem(p);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kConditionalCheckFailed);
  EXPECT_EQ(r.status().message(), "The conditional request failed");
  ASSERT_NE(r.status().item(), nullptr);
  EXPECT_EQ(r.status().item()->at("v"), S("first"));
  EXPECT_EQ(Get(db, Key("a", 1))->at("v"), S("first"));  // unchanged
  DeleteItemRequest d;
  d.table_name = "App";
  d.key = Key("a", 1);
  d.expressions.condition = "v = :want";
  d.expressions.values = std::map<std::string, AttributeValue>{{":want", S("nope")}};
  EXPECT_EQ(db->DeleteItem(d).status().code(), ErrorCode::kConditionalCheckFailed);
  d.expressions.values = std::map<std::string, AttributeValue>{{":want", S("first")}};
  ASSERT_TRUE(db->DeleteItem(d).ok());
  EXPECT_FALSE(Get(db, Key("a", 1)).has_value());
}

TEST(StorageExprConditionalWrites, BadExpressionsChangeNothing) {
  TempDb db;
  MakeTable(db);
  PutItemRequest p;
  p.table_name = "App";
  p.item = {{"pk", S("a")}, {"sk", N(1)}};
  p.expressions.condition = "attribute_not_exists(pk) AND";
  EXPECT_EQ(db->PutItem(p).status().message(),
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\"");
  p.expressions.condition = "size(pk)";
  EXPECT_EQ(db->PutItem(p).status().message(),
            "Invalid ConditionExpression: The function is not allowed to be used this way in an "
            "expression; "
            "function: size");
  p.expressions.condition = "a = :x";
  EXPECT_EQ(db->PutItem(p).status().message(),
            "Invalid ConditionExpression: An expression attribute value used in expression is not "
            "defined; "
            "attribute value: :x");
  EXPECT_FALSE(Get(db, Key("a", 1)).has_value());
}

TEST(StorageExprUpdateItem, SetAddRemoveAndReturnValues) {
  TempDb db;
  MakeTable(db);
  auto u = Update(Key("a", 1), "SET v = :v, n = :one ADD c :one", {{":v", S("x")}, {":one", N(1)}});
  u.return_values = ReturnValues::kAllNew;
  auto r = db->UpdateItem(u);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r->attributes,
            (Item{{"pk", S("a")}, {"sk", N(1)}, {"v", S("x")}, {"n", N(1)}, {"c", N(1)}}));
  u = Update(Key("a", 1), "SET n = n + :d REMOVE v ADD c :d", {{":d", N(5)}});
  u.return_values = ReturnValues::kUpdatedOld;
  r = db->UpdateItem(u);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r->attributes, (Item{{"n", N(1)}, {"v", S("x")}, {"c", N(1)}}));
  u.return_values = ReturnValues::kUpdatedNew;
  r = db->UpdateItem(u);
  EXPECT_EQ(*r->attributes, (Item{{"n", N(11)}, {"c", N(11)}}));
  EXPECT_EQ(*Get(db, Key("a", 1)),
            (Item{{"pk", S("a")}, {"sk", N(1)}, {"n", N(11)}, {"c", N(11)}}));
  u = Update(Key("a", 1), "SET pk = :v", {{":v", S("b")}});
  EXPECT_EQ(db->UpdateItem(u).status().message(),
            "One or more parameter values were invalid: Cannot update attribute pk. This attribute "
            "is part of the "
            "key");
  u = Update(Key("a", 1), "SET n = n + :s", {{":s", S("text")}});
  EXPECT_EQ(db->UpdateItem(u).status().message(),
            "Invalid UpdateExpression: Incorrect operand type for operator or function; operator "
            "or function: +, "
            "operand type: S");
  u = Update(Key("a", 1), "SET qq = zz + :d", {{":d", N(1)}});
  EXPECT_EQ(db->UpdateItem(u).status().message(),
            "The provided expression refers to an attribute that does not exist in the item");
  EXPECT_EQ(Get(db, Key("a", 1))->at("n"), N(11));  // failed updates changed nothing
}

TEST(StorageExprUpdateItem, ConditionAndIndexMaintenance) {
  TempDb db;
  MakeTable(db);
  auto u = Update(Key("a", 1), "SET g = :g", {{":g", S("G1")}});
  ASSERT_TRUE(db->UpdateItem(u).ok());
  u = Update(Key("a", 1), "SET g = :g", {{":g", S("G2")}, {":old", S("G9")}});
  u.expressions.condition = "g = :old";
  EXPECT_EQ(db->UpdateItem(u).status().code(), ErrorCode::kConditionalCheckFailed);
  u.expressions.values->at(":old") = S("G1");
  ASSERT_TRUE(db->UpdateItem(u).ok());
  QueryRequest q;
  q.table_name = "App";
  q.index_name = "byG";
  q.expressions.key_condition = "g = :g";
  q.expressions.values = std::map<std::string, AttributeValue>{{":g", S("G2")}};
  auto r = db->Query(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->count, 1);
  q.expressions.values->at(":g") = S("G1");
  EXPECT_EQ(db->Query(q)->count, 0);
  u = Update(Key("a", 1), "SET g = :g", {{":g", N(3)}});
  EXPECT_EQ(db->UpdateItem(u).status().message(),
            "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S "
            "Actual: N "
            "IndexName: byG");
  u = Update(Key("a", 1), "SET g = :g", {{":g", S("")}});
  EXPECT_EQ(db->UpdateItem(u).status().message(),
            "One or more parameter values are not valid. The update expression attempted to update "
            "a secondary "
            "index key to a value that is not supported. The AttributeValue for a key attribute "
            "cannot contain an "
            "empty string value.");
  EXPECT_TRUE(db->VerifyIntegrity().ok());
}

TEST(StorageExprReads, KeyConditionFilterAndProjection) {
  TempDb db;
  MakeTable(db);
  for (int i = 1; i <= 10; ++i) {
    PutItemRequest p;
    p.table_name = "App";
    p.item = {{"pk", S("a")},
              {"sk", N(i)},
              {"odd", AttributeValue::Bool(i % 2 == 1)},
              {"doc", AttributeValue::M({{"x", N(i)}, {"y", S("skip")}})}};
    ASSERT_TRUE(db->PutItem(p).ok());
  }
  QueryRequest q;
  q.table_name = "App";
  q.expressions.key_condition = "pk = :p AND sk BETWEEN :lo AND :hi";
  q.expressions.filter = "odd = :t";
  q.expressions.projection = "sk, doc.x";
  q.expressions.values = std::map<std::string, AttributeValue>{
      {":p", S("a")}, {":lo", N(3)}, {":hi", N(8)}, {":t", AttributeValue::Bool(true)}};
  auto r = db->Query(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->scanned_count, 6);
  EXPECT_EQ(r->count, 3);
  ASSERT_EQ(r->items.size(), 3u);
  EXPECT_EQ(r->items[0], (Item{{"sk", N(3)}, {"doc", AttributeValue::M({{"x", N(3)}})}}));
  q.expressions.filter = "sk > :lo AND odd = :t";
  EXPECT_EQ(
      db->Query(q).status().message(),
      "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk");
  q.expressions.filter.reset();
  q.expressions.key_condition = "sk = :lo";
  q.expressions.values = std::map<std::string, AttributeValue>{{":lo", N(3)}};
  q.expressions.projection.reset();
  EXPECT_EQ(db->Query(q).status().message(), "Query condition missed key schema element: pk");
  ScanRequest s;
  s.table_name = "App";
  s.expressions.filter = "doc.x >= :five";
  s.expressions.values = std::map<std::string, AttributeValue>{{":five", N(5)}};
  s.select = Select::kCount;
  auto sr = db->Scan(s);
  ASSERT_TRUE(sr.ok()) << sr.status().ToString();
  EXPECT_EQ(sr->scanned_count, 10);
  EXPECT_EQ(sr->count, 6);
  EXPECT_TRUE(sr->items.empty());
  GetItemRequest g;
  g.table_name = "App";
  g.key = Key("a", 2);
  g.expressions.projection = "nothere";
  auto gr = db->GetItem(g);
  ASSERT_TRUE(gr.ok());
  ASSERT_TRUE(gr->item.has_value());  // an existing item with nothing projected is {}
  EXPECT_TRUE(gr->item->empty());
}

TEST(StorageExprReads, LsiFilterOnUnprojectedAttributeReadsTheBaseItem) {
  TempDb db;
  CreateTableRequest c;
  c.table_name = "Lsi";
  c.attribute_definitions = {{"pk", "S"}, {"sk", "N"}, {"l1", "S"}};
  c.key_schema = {{"pk", "HASH"}, {"sk", "RANGE"}};
  c.local_secondary_indexes = {
      {"byL", {{"pk", "HASH"}, {"l1", "RANGE"}}, "KEYS_ONLY", std::nullopt}};
  ASSERT_TRUE(db->CreateTable(c).ok());
  PutItemRequest p;
  p.table_name = "Lsi";
  p.item = {{"pk", S("p")}, {"sk", N(1)}, {"l1", S("a")}, {"a1", N(5)}};
  ASSERT_TRUE(db->PutItem(p).ok());
  QueryRequest q;
  q.table_name = "Lsi";
  q.index_name = "byL";
  q.expressions.key_condition = "pk = :p";
  q.expressions.filter = "a1 = :five";
  q.expressions.values = std::map<std::string, AttributeValue>{{":p", S("p")}, {":five", N(5)}};
  // The result must not depend on the projection: the filter sees the whole item...
  for (std::optional<std::string> projection :
       {std::optional<std::string>(), std::optional<std::string>("pk"),
        std::optional<std::string>("a1")}) {
    q.expressions.projection = projection;
    auto r = db->Query(q);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->count, 1) << projection.value_or("(none)");
  }
  // ...while the default Select still returns the index's attributes.
  q.expressions.projection.reset();
  EXPECT_EQ(db->Query(q)->items[0], (Item{{"pk", S("p")}, {"sk", N(1)}, {"l1", S("a")}}));
}

TEST(StorageExprConditionalWrites, PreParsedExpressionsNeedNoParser) {
  char tmpl[] = "/tmp/keyhole-test-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  auto db = Database::Open(dir + "/p.kh");  // no expression parser
  ASSERT_TRUE(db.ok());
  CreateTableRequest c;
  c.table_name = "App";
  c.attribute_definitions = {{"pk", "S"}};
  c.key_schema = {{"pk", "HASH"}};
  ASSERT_TRUE((*db)->CreateTable(c).ok());
  // attribute_not_exists(pk), built the way the PartiQL front end builds it.
  expr::Condition cond;
  cond.kind = expr::ConditionKind::kFunction;
  cond.function = "attribute_not_exists";
  cond.operands.push_back(expr::Operand::MakePath(expr::Path{{expr::PathElement{"pk"}}}));
  auto parsed = std::make_shared<expr::ParsedExpressions>();
  parsed->condition = std::make_shared<const expr::Condition>(cond);
  PutItemRequest p;
  p.table_name = "App";
  p.item = {{"pk", S("a")}};
  p.expressions.parsed = parsed;
  EXPECT_TRUE((*db)->PutItem(p).ok());
  EXPECT_EQ((*db)->PutItem(p).status().code(), ErrorCode::kConditionalCheckFailed);
  std::filesystem::remove_all(dir);
}

TEST(StorageExprReads, ExpressionsNeedAParser) {
  char tmpl[] = "/tmp/keyhole-test-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  auto db = Database::Open(dir + "/p.kh");
  ASSERT_TRUE(db.ok());
  ScanRequest s;
  s.table_name = "App";
  s.expressions.filter = "a = :b";
  EXPECT_EQ((*db)->Scan(s).status().code(), ErrorCode::kValidation);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace keyhole::storage
