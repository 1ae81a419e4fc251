// The request encoders of api/api_json.h: decode(encode(request)) gives the request back.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "api/api_json.h"
#include "core/ddb_json.h"
#include "core/json.h"
#include "core/number.h"

namespace keyhole {
namespace {

AttributeValue Num(const char* text) { return AttributeValue::N(*Number::Parse(text)); }

using Names = std::map<std::string, std::string>;
using Values = std::map<std::string, AttributeValue>;

expr::Path P(const char* name) {
  expr::Path p;
  p.elements.push_back({name});
  return p;
}

Item Key() { return {{"pk", AttributeValue::S("u#1")}, {"sk", Num("7")}}; }

void ExpectSameExpressions(const expr::ExpressionInput& a, const expr::ExpressionInput& b) {
  EXPECT_EQ(a.condition, b.condition);
  EXPECT_EQ(a.filter, b.filter);
  EXPECT_EQ(a.key_condition, b.key_condition);
  EXPECT_EQ(a.projection, b.projection);
  EXPECT_EQ(a.update, b.update);
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(a.values.has_value(), b.values.has_value());
  if (a.values && b.values) {
    EXPECT_TRUE(*a.values == *b.values);
  }
}

TEST(ApiJsonEncodeTest, GetItemRoundTrips) {
  GetItemRequest r;
  r.table_name = "Tab";
  r.key = Key();
  r.consistent_read = true;
  r.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  r.expressions.projection = "#a, b[1]";
  r.expressions.names = Names{{"#a", "size"}};
  json::Value v = GetItemRequestToJson(r);
  Result<GetItemRequest> back = GetItemRequestFromJson(v);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << " " << json::Write(v);
  EXPECT_EQ(back->table_name, "Tab");
  EXPECT_TRUE(back->key == r.key);
  EXPECT_TRUE(back->consistent_read);
  EXPECT_EQ(back->return_consumed_capacity, ReturnConsumedCapacity::kTotal);
  ExpectSameExpressions(back->expressions, r.expressions);
}

TEST(ApiJsonEncodeTest, QueryRoundTrips) {
  QueryRequest r;
  r.table_name = "Tab";
  r.index_name = "byX";
  r.expressions.key_condition = "x = :x AND #s > :y";
  r.expressions.filter = "attribute_exists(z)";
  r.expressions.names = Names{{"#s", "s"}};
  r.expressions.values = Values{{":x", AttributeValue::S("a")}, {":y", Num("3")}};
  r.scan_index_forward = false;
  r.limit = 10;
  r.exclusive_start_key = Key();
  r.select = Select::kAllProjectedAttributes;
  r.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  json::Value v = QueryRequestToJson(r);
  Result<QueryRequest> back = QueryRequestFromJson(v);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << " " << json::Write(v);
  EXPECT_EQ(back->index_name, r.index_name);
  ExpectSameExpressions(back->expressions, r.expressions);
  EXPECT_FALSE(back->scan_index_forward);
  EXPECT_EQ(back->limit, 10);
  ASSERT_TRUE(back->exclusive_start_key);
  EXPECT_TRUE(*back->exclusive_start_key == Key());
  EXPECT_EQ(back->select, Select::kAllProjectedAttributes);
  EXPECT_FALSE(back->consistent_read);
  EXPECT_EQ(back->return_consumed_capacity, ReturnConsumedCapacity::kIndexes);
  EXPECT_EQ(json::Write(v).find("ConsistentRead"), std::string::npos);
}

TEST(ApiJsonEncodeTest, QueryStructuredKeyConditionIsRendered) {
  QueryRequest r;
  r.table_name = "Tab";
  r.key_condition.partition_name = "pk";
  r.key_condition.partition_value = AttributeValue::S("u");
  r.key_condition.sort_name = "sk";
  r.key_condition.op = SortKeyOp::kBetween;
  r.key_condition.sort_value = Num("1");
  r.key_condition.sort_value2 = Num("2");
  json::Value v = QueryRequestToJson(r);
  EXPECT_EQ(
      json::Write(v),
      R"({"TableName":"Tab","KeyConditionExpression":"#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2",)"
      R"("ExpressionAttributeNames":{"#n0":"pk","#n1":"sk"},"ExpressionAttributeValues":)"
      R"({":v0":{"S":"u"},":v1":{"N":"1"},":v2":{"N":"2"}}})");
  Result<QueryRequest> back = QueryRequestFromJson(v);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
}

TEST(ApiJsonEncodeTest, QueryLegacyKeyConditionsRoundTrip) {
  Result<json::Value> in =
      json::Parse(R"({"TableName":"Tab","KeyConditions":{"pk":{"ComparisonOperator":"EQ",)"
                  R"("AttributeValueList":[{"S":"a"}]},"sk":{"ComparisonOperator":"BETWEEN",)"
                  R"("AttributeValueList":[{"N":"1"},{"N":"5"}]}}})");
  ASSERT_TRUE(in.ok());
  Result<QueryRequest> r = QueryRequestFromJson(*in);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(json::Write(QueryRequestToJson(*r)), json::Write(*in));
}

TEST(ApiJsonEncodeTest, ParsedExpressionsAreRendered) {
  auto parsed = std::make_shared<expr::ParsedExpressions>();
  auto filter = std::make_shared<expr::Condition>();
  filter->kind = expr::ConditionKind::kCompare;
  filter->op = expr::CompareOp::kGt;
  filter->operands = {expr::Operand::MakePath(P("total")), expr::Operand::MakeValue(Num("10"))};
  parsed->filter = filter;
  auto projection = std::make_shared<expr::ProjectionExpression>();
  projection->paths = {P("total"), P("pk")};
  parsed->projection = projection;
  ScanRequest r;
  r.table_name = "Tab";
  r.expressions.parsed = parsed;
  r.segment = 1;
  r.total_segments = 4;
  r.consistent_read = true;
  json::Value v = ScanRequestToJson(r);
  EXPECT_EQ(
      json::Write(v),
      R"({"TableName":"Tab","FilterExpression":"#n0 > :v0","ProjectionExpression":"#n0, #n1",)"
      R"("ExpressionAttributeNames":{"#n0":"total","#n1":"pk"},)"
      R"("ExpressionAttributeValues":{":v0":{"N":"10"}},"ConsistentRead":true,)"
      R"("Segment":1,"TotalSegments":4})");
  Result<ScanRequest> back = ScanRequestFromJson(v);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->segment, 1);
  EXPECT_EQ(back->total_segments, 4);
  EXPECT_TRUE(back->consistent_read);
}

TEST(ApiJsonEncodeTest, WritesRoundTrip) {
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = Key();
  put.item["data"] = AttributeValue::L({AttributeValue::Bool(true), AttributeValue::Null()});
  put.return_values = ReturnValues::kAllOld;
  put.expressions.condition = "attribute_not_exists(pk)";
  Result<PutItemRequest> p = PutItemRequestFromJson(PutItemRequestToJson(put));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(p->item == put.item);
  EXPECT_EQ(p->return_values, ReturnValues::kAllOld);
  ExpectSameExpressions(p->expressions, put.expressions);

  UpdateItemRequest up;
  up.table_name = "Tab";
  up.key = Key();
  up.return_values = ReturnValues::kUpdatedNew;
  up.expressions.update = "SET a = a + :one REMOVE b";
  up.expressions.condition = "attribute_exists(pk)";
  up.expressions.values = Values{{":one", Num("1")}};
  Result<UpdateItemRequest> u = UpdateItemRequestFromJson(UpdateItemRequestToJson(up));
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_TRUE(u->key == up.key);
  EXPECT_EQ(u->return_values, ReturnValues::kUpdatedNew);
  ExpectSameExpressions(u->expressions, up.expressions);

  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = Key();
  del.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  json::Value dv = DeleteItemRequestToJson(del);
  EXPECT_EQ(json::Write(dv), R"({"TableName":"Tab","Key":{"pk":{"S":"u#1"},"sk":{"N":"7"}},)"
                             R"("ReturnConsumedCapacity":"TOTAL"})");
  Result<DeleteItemRequest> d = DeleteItemRequestFromJson(dv);
  ASSERT_TRUE(d.ok()) << d.status().ToString();
  EXPECT_TRUE(d->key == del.key);
  EXPECT_EQ(d->return_values, ReturnValues::kNone);
}

}  // namespace
}  // namespace keyhole
